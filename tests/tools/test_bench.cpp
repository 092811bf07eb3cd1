// `langsift-bench`: error paths (missing and empty inputs, bad options, a peer that cannot be
// loaded) and tiny valid runs. No timing assertions: only that figures are printed, and that a run
// that processed nothing prints none.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tool_run.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(LANGSIFT_TEST_DATA_DIR) + "/";
using namespace langsift_test;

fs::path scratch() { return langsift_test::scratch("test-bench-scratch"); }

// Runs `langsift-bench ARGS` through the shell (`env` may set variables first), capturing output.
outcome bench(const std::string& args, const std::string& env = "") {
  return sh(env + (env.empty() ? "" : " ") + q(kBin + "langsift-bench") + " " + args, "test-bench-scratch");
}

// The first lines of tests/data/detect/known.txt, in a file of their own.
fs::path few_lines(int n) {
  std::ifstream in(kData + "detect/known.txt");
  const fs::path p = scratch() / ("known-" + std::to_string(n) + ".txt");
  std::ofstream out(p, std::ios::binary);
  std::string line;
  for (int i = 0; i < n && std::getline(in, line); ++i) out << line << '\n';
  return p;
}

// The docs/s of `detector` at `threads` in the markdown throughput table, or -1.
double docs_per_s(const std::string& out, const std::string& detector, int threads) {
  std::smatch m;
  const std::regex row("\\| " + detector + " \\| " + std::to_string(threads) + " \\| ([0-9]+) \\| ([0-9.]+) \\|");
  if (!std::regex_search(out, m, row)) return -1;
  return std::stod(m[1].str());
}

const std::string kQuick = " --repeat 1 --warmup 0 --no-memory ";

}  // namespace

TEST_CASE("a missing input file: exit 1, the path named, no figures") {
  const std::string missing = (scratch() / "no-such-file.txt").string();
  outcome o = bench("--peers langsift" + kQuick + q(missing));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "no-such-file.txt"));
  CHECK(contains(o.err, "No such file"));
  CHECK(o.out.empty());
}

TEST_CASE("an empty input: exit 1, 'no documents', no figures") {
  const fs::path empty = scratch() / "empty.txt";
  std::ofstream(empty).close();
  outcome o = bench("--peers langsift" + kQuick + q(empty.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "no documents"));
  CHECK(o.out.empty());

  // Only empty lines is no documents either; so is a directory without files.
  const fs::path blank = scratch() / "blank.txt";
  std::ofstream(blank) << "\n\r\n\n";
  o = bench("--peers langsift" + kQuick + q(blank.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "no documents"));
  CHECK(o.out.empty());

  const fs::path dir = scratch() / "empty-dir";
  fs::create_directories(dir);
  o = bench("--peers langsift --html" + kQuick + q(dir.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "no documents"));
  CHECK(o.out.empty());
}

TEST_CASE("a fastText model that cannot be loaded: a message, and exit 1 when fastText was asked for") {
  const fs::path input = few_lines(3);
  const std::string bad = (scratch() / "no-such-model.ftz").string();
  // Named in --peers: an error.
  outcome o = bench("--peers langsift,fasttext --fasttext-model " + q(bad) + kQuick + q(input.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "fasttext"));
  CHECK(o.out.empty());
  // A model path given explicitly counts as asking for fastText.
  o = bench("--fasttext-model " + q(bad) + kQuick + q(input.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "fasttext"));
  CHECK(o.out.empty());
  // A file that is not a fastText model.
  o = bench("--peers fasttext --fasttext-model " + q(input.string()) + kQuick + q(input.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "fasttext"));
  // Not asked for (default peers, the model from the environment): skipped with a message.
  o = bench(kQuick + q(input.string()), "LANGSIFT_FASTTEXT_MODEL=" + q(bad));
  INFO(o.err);
  CHECK(o.status == 0);
  CHECK(contains(o.err, "fasttext skipped"));
  CHECK(contains(o.out, "skipped: fasttext"));
  CHECK(docs_per_s(o.out, "langsift", 1) > 0);
}

TEST_CASE("a langsift model file that cannot be loaded: exit 1 and the reason") {
  const fs::path input = few_lines(3);
  outcome o = bench("--peers langsift --model " + q(input.string()) + kQuick + q(input.string()));
  CHECK(o.status == 1);
  CHECK(contains(o.err, "not a langsift model"));
  CHECK(o.out.empty());
}

TEST_CASE("usage errors: exit 2") {
  const fs::path input = few_lines(3);
  CHECK(bench("").status == 2);
  CHECK(bench("--threads 0 " + q(input.string())).status == 2);
  CHECK(bench("--threads x " + q(input.string())).status == 2);
  CHECK(bench("--repeat 0 " + q(input.string())).status == 2);
  CHECK(bench("--max-docs 0 " + q(input.string())).status == 2);
  outcome o = bench("--peers langsift,nosuch " + q(input.string()));
  CHECK(o.status == 2);
  CHECK(contains(o.err, "nosuch"));
  o = bench("--frobnicate " + q(input.string()));
  CHECK(o.status == 2);
  CHECK(contains(o.err, "--frobnicate"));
  o = bench("--help");
  CHECK(o.status == 0);
  CHECK(contains(o.out, "usage: langsift-bench"));
}

TEST_CASE("a tiny valid run: exit 0, docs/s, latency, agreement, memory") {
  const fs::path input = few_lines(8);
  outcome o = bench("--peers langsift --repeat 1 --threads 1,2 " + q(input.string()));
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "- input: 8 documents"));
  CHECK(docs_per_s(o.out, "langsift", 1) > 0);
  CHECK(docs_per_s(o.out, "langsift", 2) > 0);
  CHECK(contains(o.out, "### Latency, load time, memory"));
  CHECK(std::regex_search(o.out, std::regex("\\| langsift \\| [0-9.]+ (ns|µs|ms) \\| [0-9.]+ (ns|µs|ms) \\| [0-9.]+ (ns|µs|ms) \\|")));
  CHECK(std::regex_search(o.out, std::regex("[0-9.]+ MiB \\| [0-9.]+ MiB \\|")));  // the memory probe ran

  // --max-docs keeps that many; --tsv: a header and one row per detector and thread count.
  o = bench("--peers langsift --max-docs 4 --tsv" + kQuick + q(input.string()));
  INFO(o.err);
  REQUIRE(o.status == 0);
  std::istringstream rows(o.out);
  std::string header, row, extra;
  std::getline(rows, header);
  std::getline(rows, row);
  CHECK(header.rfind("detector\tthreads\tdocs\tbytes\tdocs_per_s\t", 0) == 0);
  CHECK(row.rfind("langsift\t1\t4\t", 0) == 0);
  CHECK_FALSE(std::getline(rows, extra));
}

TEST_CASE("langsift-no-close: langsift without the close-group stage in the same run, built-in or file model") {
  const fs::path input = few_lines(8);
  const std::string model = kData + "../../models/default.lsm";
  for (const std::string& with_model : {std::string(), " --model " + q(model)}) {
    CAPTURE(with_model);
    const outcome o = bench("--peers langsift,langsift-no-close --tsv" + with_model + kQuick + q(input.string()));
    INFO(o.err);
    REQUIRE(o.status == 0);
    std::istringstream rows(o.out);
    std::string header, first, second;
    std::getline(rows, header);
    std::getline(rows, first);
    std::getline(rows, second);
    CHECK(first.rfind("langsift\t1\t8\t", 0) == 0);
    // Its own row, with a ratio to langsift and an agreement (the eight known lines are far from
    // any close group: both answer alike). A file model is loaded once per detector, and each
    // detector's stays valid (the second load once replaced the first's under it).
    REQUIRE(second.rfind("langsift-no-close\t1\t8\t", 0) == 0);
    std::vector<std::string> f;
    std::istringstream cells(second);
    for (std::string c; std::getline(cells, c, '\t');) f.push_back(c);
    REQUIRE(f.size() > 16);
    CHECK(std::stod(f[4]) > 0);   // docs_per_s
    CHECK(std::stod(f[9]) > 0);   // ratio_langsift
    CHECK(f[16] == "1.0000");     // agree_langsift
  }
}

TEST_CASE("a tiny run with the peers that were built: ratios and agreement") {
  const fs::path input = few_lines(8);
  outcome o = bench("--peers langsift" + kQuick + q(input.string()));
  REQUIRE(o.status == 0);
  // CLD2: compared when built in (CMake found it, as it did the CLD2 peer), else an explicit
  // request is an error that says so.
  o = bench("--peers langsift,cld2" + kQuick + q(input.string()));
#if LANGSIFT_HAVE_CLD2_PEER
  REQUIRE(o.status == 0);
  CHECK(docs_per_s(o.out, "cld2", 1) > 0);
  CHECK(contains(o.out, "÷ cld2"));
  CHECK(std::regex_search(o.out, std::regex("\\| cld2 \\| [0-9.]+ % \\|")));  // agreement
#else
  CHECK(o.status == 1);
  CHECK(contains(o.err, "cld2: not built in"));
#endif
}

TEST_CASE("html: the page pipeline on the example pages, with the time per stage") {
  outcome o = bench("--peers langsift --html" + kQuick + q(std::string(LANGSIFT_TEST_DATA_DIR) + "/../../examples/pages"));
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "- input: 3 documents"));
  CHECK(docs_per_s(o.out, "langsift", 1) > 0);
  CHECK(contains(o.out, "### Where the time goes"));
  CHECK(std::regex_search(o.out, std::regex("\\| langsift \\| [0-9.]+ % \\| [0-9.]+ % \\| [0-9.]+ % \\|")));
}
