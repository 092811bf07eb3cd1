// The command-line conventions every tool shares (#22): --version, and usage errors that are one
// line naming the bad option and the closest valid one, with exit status 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "langsift/version.hpp"
#include "tool_run.hpp"

using namespace langsift_test;

namespace {

struct tool_case {
  std::string command;  // the tool (and mode) as run
  std::string typo;     // an option misspelt
  std::string meant;    // the option it should suggest
};

const std::vector<tool_case> kTools = {
    {"langsift detect", "--formt", "--format"},
    {"langsift warc", "--max-recrd-bytes", "--max-record-bytes"},
    {"langsift url", "--contry", "--country"},
    {"langsift encoding", "--content-typ", "--content-type"},
    {"langsift text", "--bse", "--base"},
    {"langsift-train", "--outptu", "--output"},
    {"langsift-train url", "--min-url", "--min-urls"},
    {"langsift-eval lang", "--limt", "--limit"},
    {"langsift-eval url", "--fold", "--folds"},
    {"langsift-warcgen", "--gzp", "--gzip"},
    {"langsift-bench", "--repet", "--repeat"},
};

std::size_t line_count(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("cli: every tool answers --version with the library's version") {
  for (const auto& t : kTools) {
    INFO(t.command);
    const outcome r = sh(kBin + t.command + " --version");
    CHECK(r.status == 0);
    CHECK(r.out == t.command + " (langsift " + langsift::version() + ")\n");
  }
  CHECK(sh(kBin + "langsift --version").status == 0);
  CHECK(sh(kBin + "langsift-eval --version").status == 0);
}

TEST_CASE("cli: a misspelt option is a one-line error naming it and the closest option, exit 2") {
  for (const auto& t : kTools) {
    INFO(t.command);
    const outcome r = sh(kBin + t.command + " " + t.typo + " x");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(line_count(r.err) == 1);
    CHECK(contains(r.err, "unknown option '" + t.typo + "'"));
    CHECK(contains(r.err, "(did you mean " + t.meant + "?)"));
  }
  // An option nothing is close to: named, no guess.
  const outcome far = sh(kBin + "langsift detect --zzzzzzzz");
  CHECK(far.status == 2);
  CHECK(line_count(far.err) == 1);
  CHECK_FALSE(contains(far.err, "did you mean"));
  // Commands too.
  const outcome cmd = sh(kBin + "langsift detetc x");
  CHECK(cmd.status == 2);
  CHECK(contains(cmd.err, "(did you mean detect?)"));
  CHECK(line_count(cmd.err) == 1);
}

TEST_CASE("cli: langsift-crawlsim --targets names languages of the simulated graph: another is a usage error") {
  // It was found only after the graph was built and reported (exit 1); bad numbers were exit 1.
  const outcome r = sh(kBin + "langsift-crawlsim --data /nonexistent --targets de,de-DE");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "langsift-crawlsim: --targets: not a language of the simulated graph: de-DE\n");
  CHECK(sh(kBin + "langsift-crawlsim --data /nonexistent --pages 5").status == 2);
  // Either ISO form: past the check, the missing corpus is the error.
  const outcome deu = sh(kBin + "langsift-crawlsim --data /nonexistent --targets deu,ja");
  CHECK(deu.status == 1);
  CHECK(contains(deu.err, "/nonexistent/en.txt"));
}

TEST_CASE("cli: a bad option value is one line naming the option and what it needs, exit 2 (#34)") {
  // `--min-percent abc` printed two lines, the first wrong ("--min-percent needs a size (e.g. 400,
  // 64K)", then "--min-percent needs 0..100").
  const outcome pct = sh(kBin + "langsift detect --lines --min-percent abc < /dev/null");
  CHECK(pct.status == 2);
  CHECK(pct.out.empty());
  CHECK(pct.err == "langsift detect: --min-percent needs a number from 0 to 100, not 'abc'\n");
  // Every option of `langsift detect` that takes a value: a value that is not one is one line.
  for (const char* opt : {"--min-percent", "--min-bytes", "--max-bytes", "--short-bytes", "--max-input-bytes",
                          "--max-text-bytes", "--unit-bytes", "--span-unit-bytes", "--min-span-bytes",
                          "--max-model-bytes", "--top-k", "--threads", "-j", "--min-probability", "--switch-penalty",
                          "--span-penalty", "--min-span-confidence", "--format", "--scorer", "--codes", "--url",
                          "--encoding"}) {
    INFO(opt);
    for (const char* value : {"abc", "-1", "1.5x"}) {
      INFO(value);
      const outcome r = sh(kBin + "langsift detect --lines " + opt + " " + value + " < /dev/null");
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(line_count(r.err) == 1);
      CHECK(r.err.rfind(std::string("langsift detect: ") + opt + " needs ", 0) == 0);
    }
    const outcome missing = sh(kBin + "langsift detect --lines " + opt);  // no value at all
    CHECK(missing.status == 2);
    CHECK(line_count(missing.err) == 1);
    CHECK(missing.err.rfind(std::string("langsift detect: ") + opt + " needs ", 0) == 0);
  }
  // Out of range: the same one line.
  CHECK(sh(kBin + "langsift detect --lines --min-percent 101 < /dev/null").err ==
        "langsift detect: --min-percent needs a number from 0 to 100, not '101'\n");
}

TEST_CASE("cli: langsift detect --format takes code, tsv or jsonl: json is a usage error naming them (#34)") {
  // `--format json` was taken as jsonl in silence, an alias no help text named and `langsift url`
  // refused: JSON lines are what jsonl says, and there is no one-JSON-document output.
  const outcome r = sh(kBin + "langsift detect --lines --format json < /dev/null");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "langsift detect: --format needs code, tsv or jsonl, not 'json'\n");
  const outcome url = sh(kBin + "langsift url --format json http://example.de/");
  CHECK(url.status == 2);
  CHECK(url.err == "langsift url: --format needs code, tsv or jsonl, not 'json'\n");
  for (const char* f : {"code", "tsv", "jsonl"}) {
    INFO(f);
    CHECK(sh(kBin + "langsift detect --lines --format " + f + " < /dev/null").status == 0);
    CHECK(sh(kBin + "langsift detect --lines --format=" + std::string(f) + " < /dev/null").status == 0);
  }
}

TEST_CASE("cli: langsift-eval url's numeric options: a value that is not a number is a usage error, not an abort (#34)") {
  // They were read with std::stof/std::stoul: `--balance abc` threw std::invalid_argument out of
  // main (abort, status 134); now the option table reads them, as every tool's.
  for (const char* opt : {"--balance", "--epochs", "--l2", "--rate", "--prune", "--bits", "--host-space", "--cctld-boost",
                          "--cctld-floor", "--pattern-boost", "--pattern-floor", "--hint-boost", "--words-weight",
                          "--words-below", "--folds", "--min-urls"}) {
    INFO(opt);
    const outcome r = sh(kBin + "langsift-eval url " + opt + " abc /dev/null");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind(std::string("langsift-eval url: ") + opt + " needs ", 0) == 0);
    CHECK(line_count(r.err) == 1);
  }
  CHECK(sh(kBin + "langsift-eval url --folds 1 /dev/null").err ==
        "langsift-eval url: --folds needs a number from 2 to 100, not '1'\n");
}
