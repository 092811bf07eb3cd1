// `langsift detect` end to end: the known answers of the built-in model through the tool, one
// output line per input line, errors, file names in TSV, filters, running out of memory, the
// memory of a 1 GB pipe, and spans (--spans, --keep).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/spans.hpp"

using namespace langsift;

namespace {

std::string lang(std::string_view text) { return std::string(detect(default_model(), text).language()); }

/// Runs `cmd` through the shell: its stdout, then "\nexit=<status>".
std::string run(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int rc = pclose(p);
    out += "\nexit=" + std::to_string(WEXITSTATUS(rc));
  }
  return out;
}

const std::string kTool = std::string(LANGSIFT_BINARY_DIR) + "/langsift";
const std::string kData = LANGSIFT_TEST_DATA_DIR;

}  // namespace

TEST_CASE("known answers of the built-in model (re-bless with scripts/bless-known-answers.sh)") {
  const std::string out = run(kTool + " detect --lines --format tsv < " + kData + "/detect/known.txt");
  std::ifstream in(kData + "/detect/known.tsv", std::ios::binary);
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(out == expected.str() + "\nexit=0");
}

TEST_CASE("langsift detect: one output line per input line, errors to stderr with a status") {
  // empty lines and a line with only U+0085 inside keep the alignment
  const std::string out = run("printf 'Guten Morgen, wie geht es dir heute?\\n\\nGood morning, how are you today?\\nA\\302\\205B\\n' | " +
                              kTool + " detect --lines --format code");
  std::string expected = "de\nund\nen\n";
  expected += lang("A\xC2\x85" "B");
  expected += "\n\nexit=0";
  CHECK(out == expected);
  CHECK(run(kTool + " detect /nonexistent/file 2>/dev/null").find("exit=1") != std::string::npos);
  CHECK(run(kTool + " detect --bogus 2>/dev/null").find("exit=2") != std::string::npos);
  CHECK(run(kTool + " detect --model " + kData + "/detect/known.txt --lines < /dev/null 2>&1").find("not a langsift model") !=
        std::string::npos);
  const std::string html = run(kTool + " detect --format jsonl " + std::string(LANGSIFT_TEST_DATA_DIR) +
                               "/../../examples/pages/ru-blog.windows-1251.html");
  CHECK(html.find("\"language\":\"ru\"") != std::string::npos);
  CHECK(html.find("\"encoding\":\"windows-1251\"") != std::string::npos);
  // A file name with a newline, a TAB and a backslash stays one TSV record with the same fields.
  const std::string odd = std::string(LANGSIFT_BINARY_DIR) + "/test-detect-odd-" + std::to_string(::getpid());
  REQUIRE(run("mkdir -p '" + odd + "'") == "\nexit=0");
  { std::ofstream(odd + "/a\nb\tc\\d.txt") << "Guten Morgen, wie geht es dir heute?"; }
  const std::string tsv = run(kTool + " detect '" + odd + "'/a*");
  CHECK(tsv.find("/a\\nb\\tc\\\\d.txt\tde\t") != std::string::npos);
  CHECK(std::count(tsv.begin(), tsv.end(), '\n') == 2);  // the record's line, and run()'s exit line
  CHECK(run(kTool + " encoding '" + odd + "'/a*").find("/a\\nb\\tc\\\\d.txt\tascii\t") != std::string::npos);
  run("rm -rf '" + odd + "'");
  // filters
  CHECK(run("printf 'Guten Morgen, wie geht es dir heute?\\nGood morning, how are you today?\\n' | " + kTool +
            " detect --lines --label de --kept-only") == "Guten Morgen, wie geht es dir heute?\n\nexit=0");
}

// Not built under AddressSanitizer: its runtime reserves terabytes of address space (no process
// starts under `ulimit -v`), and its operator new reports exhaustion itself instead of throwing.
// The Release build's run of this test is the one that counts.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LANGSIFT_TEST_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(LANGSIFT_TEST_ASAN)
TEST_CASE("langsift detect: running out of memory is a one-line error and exit status 1, not an abort") {
  // 800 MB of input with the address space limited to 400 MB (it was an abort, exit 134).
  const std::string oom = run("(ulimit -v 400000; head -c 800000000 /dev/zero | tr '\\0' a | " + kTool +
                              " detect --max-input-bytes 2000000000 -) 2>&1");
  CHECK(oom.find("langsift detect: out of memory") != std::string::npos);
  CHECK(oom.find("exit=1") != std::string::npos);
}
#endif

TEST_CASE("langsift detect: a 1 GB page read from a pipe costs bounded memory (--max-input-bytes)") {
  // 1 GiB of German text through a pipe: only the first 16 MiB are kept (status truncated), the
  // rest is not read. The peak memory of the pipeline (wait4's rusage: the shell and the processes
  // it waited for, nothing else of this test process) stays far below the input.
  const std::string out_file = std::string(LANGSIFT_BINARY_DIR) + "/test-detect-pipe-" + std::to_string(::getpid()) + ".out";
  const std::string cmd = "yes 'Das ist ein ganz normaler deutscher Satz über das Wetter.' | head -c 1073741824 | " +
                          kTool + " detect --format jsonl - > '" + out_file + "' 2>&1";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int wstatus = 0;
  struct rusage ru {};
  REQUIRE(::wait4(child, &wstatus, 0, &ru) == child);
  CHECK((WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0));
  std::string out;
  {
    std::ifstream f(out_file);
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::remove(out_file.c_str());
  CHECK(out.find("\"language\":\"de\"") != std::string::npos);
  CHECK(out.find("\"status\":\"truncated\"") != std::string::npos);
  CHECK(ru.ru_maxrss > 0);
  CHECK(ru.ru_maxrss < 200 * 1024);  // KiB: < 200 MiB for a 1 GiB input
  // HTML past the extractor's default cap (16 MiB): with --max-input-bytes above it the whole page
  // is read (French then German: both found); at the default, the page says truncated.
  const std::string big = std::string(LANGSIFT_BINARY_DIR) + "/test-detect-big-" + std::to_string(::getpid()) + ".html";
  REQUIRE(run("(printf '<p>'; yes 'Le chat dort sur le canapé pendant que la pluie tombe.' | head -c 16800000; "
              "printf '<p>'; yes 'Der schnelle braune Fuchs springt über den faulen Hund.' | head -c 3000000) > '" + big + "'") ==
          "\nexit=0");
  const std::string raised = run(kTool + " detect --format jsonl --max-input-bytes 30M '" + big + "'");
  CHECK(raised.find("\"code\":\"de\"") != std::string::npos);
  CHECK(raised.find("\"code\":\"fr\"") != std::string::npos);
  CHECK(raised.find("truncated") == std::string::npos);
  const std::string capped = run(kTool + " detect --format jsonl '" + big + "'");
  CHECK(capped.find("\"status\":\"truncated\"") != std::string::npos);
  std::remove(big.c_str());
  // A line longer than the cap in --lines mode: still one output line, the rest skipped.
  const std::string lines = run("(yes 'Le chat dort sur le canapé.' | tr -d '\\n' | head -c 3000; printf '\\nDas ist ein Satz.\\n') | " + kTool +
                                " detect --lines --format jsonl --max-input-bytes 1000");
  CHECK(lines.find("\"status\":\"truncated\"") != std::string::npos);
  CHECK(lines.find("\"language\":\"fr\"") != std::string::npos);
  CHECK(lines.find("\"language\":\"de\"") != std::string::npos);
}

TEST_CASE("langsift detect --list-languages: the model's languages, which the code errors point to") {
  // The counts `--help` gives (read from the models) are the lines listed.
  const std::string help = run(kTool + " detect --help");
  const std::size_t at = help.find("`default` (");
  REQUIRE(at != std::string::npos);
  const std::size_t n_default = std::stoul(help.substr(at + 11));
  const std::size_t wide_at = help.find("`wide` (", at);
  REQUIRE(wide_at != std::string::npos);
  const std::size_t n_wide = std::stoul(help.substr(wide_at + 8));
  CHECK(n_default == default_model().language_count());
  auto count_lines = [](const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); };
  const std::string def = run(kTool + " detect --list-languages");
  CHECK(def.substr(def.size() - 6) == "exit=0");
  CHECK(count_lines(def) == n_default + 1);  // + run()'s exit line
  CHECK(def.find("\nde\n") != std::string::npos);
  CHECK(def.find("\nfo\n") == std::string::npos);  // Faroese: the wide model's only
  const std::string wide = run(kTool + " detect --model wide --list-languages");
  CHECK(count_lines(wide) == n_wide + 1);
  CHECK(wide.find("\nfo\n") != std::string::npos);
  CHECK(run(kTool + " detect --list-languages --codes iso639-3").find("\ndeu\n") != std::string::npos);
  // Every code listed is one --only accepts (a round trip through the tool).
  std::string all;
  std::istringstream listed(wide);
  for (std::string line; std::getline(listed, line);)
    if (!line.empty() && line.rfind("exit=", 0) != 0) all += (all.empty() ? "" : ",") + line;
  CHECK(run("echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines --format code --model wide --only " +
            all + " 2>&1") == "de\n\nexit=0");
  // A code error says how to list the languages (the same command, with the same --model), and
  // names no source-tree file.
  const std::string bad = run("echo x | " + kTool + " detect --lines --only xx 2>&1");
  CHECK(bad.find("langsift detect: --only: not a language of the model: xx (`langsift detect --list-languages` "
                 "lists them)\n") == 0);
  CHECK(bad.find("models/") == std::string::npos);
  CHECK(run("echo x | " + kTool + " detect --lines --model wide --label xx 2>&1")
            .find("(`langsift detect --model wide --list-languages` lists them)") != std::string::npos);
  // A model file is named as given, quoted for the shell when it needs it.
  const std::string made = run("mktemp -d");
  const std::string dir = made.substr(0, made.find('\n'));
  const std::string file = dir + "/it's a model.lsm";
  run("cp '" + kData + "/../../models/default.lsm' \"" + file + "\"");
  CHECK(run("echo x | " + kTool + " detect --lines --model \"" + file + "\" --only xx 2>&1")
            .find("(`langsift detect --model '" + dir + "/it'\\''s a model.lsm' --list-languages` lists them)") !=
        std::string::npos);
  run("rm -rf '" + dir + "'");
}

TEST_CASE("langsift detect: --only naming codes the model lacks is a usage error that names them") {
  const std::string out = run("echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines --only de,xx,qq 2>&1");
  CHECK(out.find("langsift detect: --only: not a language of the model: xx, qq") != std::string::npos);
  CHECK(out.find("exit=2") != std::string::npos);
  CHECK(out.find("\nde\t") == std::string::npos);  // nothing detected
  // ISO 639-3 codes are mapped first (deu is de), and a base code names its script variants.
  CHECK(run("echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines --format code --only deu,zh") ==
        "de\n\nexit=0");
  // A language its script decides, outside the model (Cherokee), is a valid restriction.
  CHECK(run("echo 'ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ ᎠᏓᏅᏙ' | " + kTool + " detect --lines --format code --only chr") == "chr\n\nexit=0");
}

TEST_CASE("langsift detect --model: a built-in model's name selects it, anything else is a file") {
  const std::string faroese = "echo 'Eingin skal liva í trældómi ella trælkan; trældómur og trælahandil av øllum slag skulu verða bannað.' | ";
  CHECK(run(faroese + kTool + " detect --lines --format code --model wide") == "fo\n\nexit=0");
  CHECK(run(faroese + kTool + " detect --lines --format code --model default") != "fo\n\nexit=0");
  CHECK(run(faroese + kTool + " detect --lines --format code") == run(faroese + kTool + " detect --lines --format code --model default"));
  // The wide model's file gives the same answer as its built-in copy.
  CHECK(run(faroese + kTool + " detect --lines --format code --model " + std::string(LANGSIFT_TEST_DATA_DIR) +
            "/../../models/wide.lsm") == "fo\n\nexit=0");
  // Not a built-in name: read as a file, which does not exist.
  const std::string out = run("echo hallo | " + kTool + " detect --lines --model ./wide 2>&1");
  CHECK(out.find("./wide") != std::string::npos);
  CHECK(out.find("exit=1") != std::string::npos);
  CHECK(run("echo hallo | " + kTool + " detect --lines --model Wide 2>&1").find("exit=1") != std::string::npos);
}

TEST_CASE("langsift detect --language-prior and --no-web-prior: the wide model's rare languages on short text") {
  const std::string two_words = "echo 'Kannst du' | ";
  const std::string wide = kTool + " detect --lines --format code --model wide";
  // The wide model's priors make two German words German; without them, Low German.
  CHECK(run(two_words + wide) == "de\n\nexit=0");
  CHECK(run(two_words + wide + " --no-web-prior") == "nds\n\nexit=0");
  // --language-prior sets a prior of a model: lifting nds's, or one as strong on German.
  CHECK(run(two_words + wide + " --language-prior nds=0") == "nds\n\nexit=0");
  CHECK(run(two_words + wide + " --language-prior de,en=-10") != "de\n\nexit=0");
  const std::string list = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/default.langs";
  CHECK(run(two_words + wide + " --language-prior nds=0 --language-prior @" + list + "=-10") == "nds\n\nexit=0");
  // Usage errors (exit 2) and codes the model lacks (exit 1), each a line naming the value.
  for (const char* bad : {"en=1", "en", "en=abc", "=-1", "en=", "en=-51"}) {
    INFO(bad);
    const std::string out = run("echo x | " + kTool + " detect --lines --language-prior '" + bad + "' 2>&1");
    CHECK(out.find("--language-prior needs CODES=LOGODDS") != std::string::npos);
    CHECK(out.find("exit=2") != std::string::npos);
  }
  const std::string out = run("echo x | " + kTool + " detect --lines --language-prior xx=-1 2>&1");
  CHECK(out.find("langsift detect: --language-prior xx=-1: xx is not a language of the model") == 0);
  CHECK(out.find("exit=1") != std::string::npos);
  const std::string missing = run("echo x | " + kTool + " detect --lines --language-prior @/nonexistent/list=-1 2>&1");
  CHECK(missing.find("--language-prior @/nonexistent/list=-1: /nonexistent/list: ") == std::string("langsift detect: ").size());
  CHECK(missing.find("exit=1") != std::string::npos);
  // ISO 639-3 codes are read as --only reads them (deu is de).
  CHECK(run(two_words + wide + " --language-prior deu=-10") != "de\n\nexit=0");
}

TEST_CASE("langsift detect: --max-model-bytes refuses a larger model file before reading it") {
  const std::string model = std::string(LANGSIFT_TEST_DATA_DIR) + "/../../models/default.lsm";
  const std::string out = run("echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines --model " + model +
                              " --max-model-bytes 1M 2>&1");
  CHECK(out.find("over the cap of 1048576 (refused, not read)") != std::string::npos);
  CHECK(out.find("exit=1") != std::string::npos);
  CHECK(run("echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines --format code --model " + model +
            " --max-model-bytes 64M") == "de\n\nexit=0");
  CHECK(run(kTool + " detect --max-model-bytes 0 2>&1").find("exit=2") != std::string::npos);
}

TEST_CASE("langsift detect: an input cut at --max-input-bytes says so in every format, and once on stderr") {
  // #29: a file 35 % German then 65 % French, cut at the cap, printed `de:100 ... reliable 1` in
  // TSV and `de` in --format code with nothing on stderr: only JSON said truncated.
  const std::string dir = std::string(LANGSIFT_BINARY_DIR) + "/test-detect-cut-" + std::to_string(::getpid());
  REQUIRE(run("mkdir -p '" + dir + "' && (yes 'Der schnelle braune Fuchs springt über den faulen Hund.' | head -c 3500; "
              "yes 'Le chat dort sur le canapé pendant que la pluie tombe.' | head -c 6500) > '" + dir + "/cut.txt' && "
              "echo 'Le chat dort sur le canapé pendant que la pluie tombe sur la ville.' > '" + dir + "/whole.txt'") ==
          "\nexit=0");
  const std::string files = " --max-input-bytes 4K '" + dir + "/cut.txt' '" + dir + "/whole.txt' 2>'" + dir + "/err'";
  auto err_lines = [&] {
    std::ifstream f(dir + "/err");
    std::string line, all;
    std::size_t n = 0;
    while (std::getline(f, line)) {
      ++n;
      all += line + "\n";
    }
    INFO(all);
    CHECK(n == 1);  // one line per input that was cut, in every format
    CHECK(all == "langsift detect: " + dir + "/cut.txt: cut at 4096 bytes (--max-input-bytes): its languages are "
                 "those of that part\n");
  };
  // TSV: a last column, status; the header names it.
  const std::string tsv = run(kTool + " detect --header" + files);
  err_lines();
  CHECK(tsv.find("\tencoding\tencoding_source\tstatus\n") != std::string::npos);
  CHECK(tsv.find(dir + "/cut.txt\tde\tde:") != std::string::npos);  // French is mostly past the cut
  CHECK(tsv.find("\tdetected\ttruncated\n") != std::string::npos);
  CHECK(tsv.find(dir + "/whole.txt\tfr\t") != std::string::npos);
  CHECK(tsv.find("\tdetected\tok\n") != std::string::npos);
  CHECK(tsv.find("exit=0") != std::string::npos);
  // code: a marker after the code of a cut input only.
  CHECK(run(kTool + " detect --format code" + files) ==
        dir + "/cut.txt\tde\ttruncated\n" + dir + "/whole.txt\tfr\n\nexit=0");
  err_lines();
  const std::string jsonl = run(kTool + " detect --format jsonl" + files);
  err_lines();
  CHECK(jsonl.find("\"status\":\"truncated\"") != std::string::npos);
  // With a filter: the keep column comes before status; --kept-only prints the kept input, and
  // stderr says it was cut.
  CHECK(run(kTool + " detect --label de" + files).find("\tdetected\tkeep\ttruncated\n") != std::string::npos);
  err_lines();
  CHECK(run(kTool + " detect --label de --kept-only" + files) == dir + "/cut.txt\n\nexit=0");
  err_lines();
  // --lines: the line that was cut is named by its number.
  CHECK(run("(echo 'Guten Morgen, wie geht es dir heute?'; tr -d '\\n' < '" + dir + "/cut.txt'; echo) | " + kTool +
            " detect --lines --format code --max-input-bytes 4K - 2>'" + dir + "/err'") == "de\nde\ttruncated\n\nexit=0");
  CHECK(run("cat '" + dir + "/err'") ==
        "langsift detect: stdin: line 2: cut at 4096 bytes (--max-input-bytes): its languages are those of that part\n\nexit=0");
  // The default cap (16 MiB), as the issue found it: a 17 MB file.
  REQUIRE(run("yes 'Der schnelle braune Fuchs springt über den faulen Hund.' | head -c 17000000 > '" + dir + "/big.txt'") ==
          "\nexit=0");
  CHECK(run(kTool + " detect '" + dir + "/big.txt' 2>&1").find("\tutf-8\tdetected\ttruncated\n") != std::string::npos);
  CHECK(run(kTool + " detect --format code '" + dir + "/big.txt' 2>&1") ==
        "langsift detect: " + dir + "/big.txt: cut at 16777216 bytes (--max-input-bytes): its languages are those of "
        "that part\n" + dir + "/big.txt\tde\ttruncated\n\nexit=0");
  run("rm -rf '" + dir + "'");
}

TEST_CASE("langsift detect: a code of --label, --hint or --only that the model lacks is a usage error naming it") {
  // #29: `--label de-DE --kept-only` printed nothing and exited 0 (no document is ever labelled
  // de-DE); --hint german was ignored.
  const std::string de = "echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines ";
  for (const std::string opt : {"--label de-DE --kept-only", "--label german", "--hint german", "--hint de,xx-DE"}) {
    INFO(opt);
    const std::string out = run(de + opt + " 2>&1");
    CHECK(out.find("langsift detect: " + opt.substr(0, opt.find(' ')) + ": not a language of the model: ") == 0);
    CHECK(std::count(out.begin(), out.end(), '\n') == 2);  // one line, then run()'s exit line
    CHECK(out.find("exit=2") != std::string::npos);
  }
  CHECK(run(de + "--label de-DE,xx 2>&1").find("--label: not a language of the model: de-DE (did you mean de?), xx (") !=
        std::string::npos);
  CHECK(run(de + "--label german 2>&1").find("--label: not a language of the model: german (did you mean de?) (") !=
        std::string::npos);
  // Every code of the model passes, in either ISO form; --hint takes language tags (region subtags).
  CHECK(run(de + "--label deu --kept-only") == "Guten Morgen, wie geht es dir heute?\n\nexit=0");
  CHECK(run(de + "--label DE,fr --kept-only") == "Guten Morgen, wie geht es dir heute?\n\nexit=0");
  CHECK(run(de + "--format code --hint de-AT,deu,fr_CA") == "de\n\nexit=0");
  CHECK(run(de + "--format code --hint zh-Hant") == "de\n\nexit=0");
  // The wide model knows Faroese, the default one does not.
  CHECK(run(de + "--format code --model wide --label fo") == "de\n\nexit=0");
  CHECK(run(de + "--format code --label fo 2>&1").find("exit=2") != std::string::npos);
}

TEST_CASE("langsift detect: lists of codes are read as every front end reads them (the library's parse_code_list)") {
  // #34: the tools split at commas only and kept a script subtag's case, so `--only 'deu fra'`
  // (which Python and Java split) and `--only ZH-hant` were usage errors here.
  const std::string de = "echo 'Guten Morgen, wie geht es dir heute?' | " + kTool + " detect --lines ";
  CHECK(run(de + "--format code --only 'deu fra'") == "de\n\nexit=0");
  CHECK(run(de + "--format code --only ' ,de,,\tfr, '") == "de\n\nexit=0");
  CHECK(run(de + "--label \"$(printf 'nl\\tDEU')\" --kept-only") == "Guten Morgen, wie geht es dir heute?\n\nexit=0");
  CHECK(run(de + "--format code --hint 'DE-at fr'") == "de\n\nexit=0");
  const std::string zh = "echo '我們是學生，我們喜歡讀書。' | " + kTool + " detect --lines --format code ";
  CHECK(run(zh + "--only ZH-hant") == "zh-Hant\n\nexit=0");
  CHECK(run(zh + "--label zho-HANT --kept-only") == "我們是學生，我們喜歡讀書。\n\nexit=0");
  CHECK(run(de + "--only ' , ' 2>&1").find("exit=0") != std::string::npos);  // no code: no restriction, as before
}

TEST_CASE("langsift detect --model /dev/zero: refused at once, not read to the end of memory") {
  // Before c7ccba2 it read /dev/zero for 23 s and GBs (it never ends under a memory limit).
  const auto t0 = std::chrono::steady_clock::now();
  const std::string out = run("echo hallo | " + kTool + " detect --lines --model /dev/zero 2>&1");
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(out == "langsift detect: /dev/zero: not a langsift model, or truncated or corrupt (checksum or structure)\n\nexit=1");
  CHECK(sec < 5);
}

TEST_CASE("langsift detect --help: the built-in models' language counts are the models'") {
  const std::string help = run(kTool + " detect --help");
  const langsift::model* wide = nullptr;
  REQUIRE(langsift::builtin_model("wide", wide) == langsift::status::ok);
  CHECK(help.find("`default` (" + std::to_string(default_model().language_count()) + " languages) or `wide` (" +
                  std::to_string(wide->language_count()) + ")") != std::string::npos);
  CHECK(wide->language_count() == 231);  // what models/wide.langs says (the help said 275)
}

TEST_CASE("langsift detect --spans and --keep: the library's spans in JSON and the kept text alone") {
  const std::string de =
      "Der Stadtrat hat am Dienstagabend einen neuen Haushalt für Schulen und öffentliche Bibliotheken beschlossen.";
  const std::string en = "The council approved a new budget for schools and public libraries on Tuesday evening.";
  const std::string dir = std::string(LANGSIFT_BINARY_DIR) + "/test-detect-spans-" + std::to_string(::getpid());
  REQUIRE(run("mkdir -p '" + dir + "'") == "\nexit=0");
  const std::string lines = dir + "/lines.txt";
  std::ofstream(lines) << de << " " << en << "\n" << en << "\n\n";
  // --spans: JSON lines (the default format with it) whose spans are detect_spans' bytes.
  std::string expected;
  for (const std::string& line : {de + " " + en, en, std::string()}) {
    std::string spans;
    for (const span& s : detect_spans(default_model(), line))
      spans += (spans.empty() ? "[" : ",[") + std::to_string(s.begin) + "," + std::to_string(s.end) + ",\"" +
               std::string(s.code) + "\"]";
    expected += "\"spans\":[" + spans + "]}\n";
  }
  const std::string out = run(kTool + " detect --lines --spans < '" + lines + "'");
  std::istringstream got(out);
  std::string line, tails;
  while (std::getline(got, line) && line.rfind("exit=", 0) != 0)
    if (!line.empty()) tails += line.substr(line.find("\"spans\":")) + "\n";
  CHECK(tails == expected);
  const std::string cut = std::to_string(de.size() + 1), end = std::to_string(de.size() + 1 + en.size());
  CHECK(out.find("[[0," + cut + ",\"de\"],[" + cut + "," + end + ",\"en\"]]") != std::string::npos);
  CHECK(run(kTool + " detect --lines --spans --codes iso639-3 < '" + lines + "'").find("[" + cut + "," + end + ",\"eng\"]") !=
        std::string::npos);
  // --keep: the kept text only, one stretch a line; nothing for a document without one.
  CHECK(run(kTool + " detect --lines --keep en < '" + lines + "'") == en + "\n" + en + "\n\nexit=0");
  CHECK(run(kTool + " detect --lines --keep deu < '" + lines + "'") == de + "\n\nexit=0");
  // ... with a filter, only for the documents it keeps; with --format jsonl, as fields.
  CHECK(run(kTool + " detect --lines --keep en --label de < '" + lines + "'") == en + "\n\nexit=0");
  const std::string js = run(kTool + " detect --lines --keep de --format jsonl < '" + lines + "'");
  CHECK(js.find("\"kept_text\":\"" + de + "\"}") != std::string::npos);
  CHECK(js.find("\"kept_text\":\"\"}") != std::string::npos);
  // A file, and an HTML page: spans of the text it classifies (as `langsift text` prints it).
  const std::string page = dir + "/page.html";
  std::ofstream(page) << "<!doctype html><html><head><title>x</title></head><body><p>" << de << "</p><p>" << en
                      << "</p></body></html>";
  CHECK(run(kTool + " detect --keep en '" + page + "'") == en + "\n\nexit=0");
  const std::string text = run(kTool + " text '" + page + "'");
  const std::size_t en_at = text.find(en);
  REQUIRE(en_at != std::string::npos);
  CHECK(run(kTool + " detect --spans '" + page + "'").find(",[" + std::to_string(en_at) + ",") != std::string::npos);
  // Usage errors: --spans with another format, unknown or missing codes, --keep with --kept-only.
  CHECK(run(kTool + " detect --lines --spans --format tsv < /dev/null 2>/dev/null") == "\nexit=2");
  CHECK(run(kTool + " detect --lines --keep xx < /dev/null 2>&1").find("--keep: not a language of the model: xx") !=
        std::string::npos);
  CHECK(run(kTool + " detect --lines --keep < /dev/null 2>/dev/null") == "\nexit=2");
  CHECK(run(kTool + " detect --lines --keep de --label de --kept-only < /dev/null 2>/dev/null") == "\nexit=2");
  CHECK(run(kTool + " detect --lines --spans --min-span-confidence 2 < /dev/null 2>/dev/null") == "\nexit=2");
  run("rm -rf '" + dir + "'");
}

TEST_CASE("langsift detect --top-k: calibrated probabilities in jsonl and tsv, and their bounds") {
  const std::string in = "printf 'Ich habe heute leider keine Zeit, weil ich arbeiten muss.\\nDit is een huis\\n12345\\n' | ";
  const std::string json = run(in + kTool + " detect --lines --format jsonl --top-k 3");
  // jsonl: "probabilities": [[code, p], ...], most probable first; und has none.
  std::istringstream lines(json);
  std::string de, nl, und;
  std::getline(lines, de);
  std::getline(lines, nl);
  std::getline(lines, und);
  CHECK(de.find("\"language\":\"de\"") != std::string::npos);
  CHECK(de.find(",\"probabilities\":[[\"de\",0.99") != std::string::npos);
  CHECK(nl.find(",\"probabilities\":[[\"nl\",0.") != std::string::npos);
  CHECK(nl.find("[\"af\",0.") != std::string::npos);  // Dutch or Afrikaans
  CHECK(und.find("\"language\":\"und\"") != std::string::npos);
  CHECK(und.find(",\"probabilities\":[]") != std::string::npos);
  // The confidence printed is the top probability.
  CHECK(de.find("\"confidence\":0.995") != std::string::npos);
  // Without --top-k nothing is added; ISO 639-3 codes with --codes.
  CHECK(run(in + kTool + " detect --lines --format jsonl").find("probabilities") == std::string::npos);
  CHECK(run(in + kTool + " detect --lines --format jsonl --top-k 1 --codes iso639-3").find("[[\"deu\",0.99") != std::string::npos);
  // tsv: a column after score, code:p,... ("-" for none), named in the header.
  const std::string tsv = run(in + kTool + " detect --lines --top-k 2 --header");
  CHECK(tsv.rfind("language\tlanguages\ttext_bytes\treliable\tshort\tscore\tprobabilities\tstatus\n", 0) == 0);
  CHECK(tsv.find("\tde:0.99") != std::string::npos);
  CHECK(tsv.find(",af:0.") != std::string::npos);
  CHECK(tsv.find("\t-\tempty_input\n") != std::string::npos);
  // K is 1..16: anything else is a usage error.
  for (const char* k : {"0", "17", "x", ""})
    CHECK(run(kTool + " detect --lines --top-k " + std::string(k) + " < /dev/null 2>/dev/null") == "\nexit=2");
}

TEST_CASE("langsift detect --min-probability: a document whose top probability is below P is not kept") {
  const std::string in = "printf 'Ich habe heute leider keine Zeit, weil ich arbeiten muss.\\nDit is een huis\\n' | ";
  // --kept-only with --lines prints the kept lines.
  CHECK(run(in + kTool + " detect --lines --min-probability 0.9 --kept-only") ==
        "Ich habe heute leider keine Zeit, weil ich arbeiten muss.\n\nexit=0");
  CHECK(run(in + kTool + " detect --lines --min-probability 0.5 --kept-only") ==
        "Ich habe heute leider keine Zeit, weil ich arbeiten muss.\nDit is een huis\n\nexit=0");
  // With --label: the top language must be one of them at that probability.
  CHECK(run(in + kTool + " detect --lines --label af --min-probability 0.1 --kept-only") == "\nexit=0");
  // tsv and jsonl: the keep field.
  const std::string tsv = run(in + kTool + " detect --lines --min-probability 0.9");
  CHECK(tsv.find("\tkeep\tok\n") != std::string::npos);
  CHECK(tsv.find("\tdrop\tok\n") != std::string::npos);
  CHECK(run(in + kTool + " detect --lines --format jsonl --min-probability 0.9").find("\"keep\":false") != std::string::npos);
  for (const char* p : {"-0.1", "1.5", "x", "nan", ""})
    CHECK(run(kTool + " detect --lines --min-probability " + std::string(p) + " < /dev/null 2>/dev/null") == "\nexit=2");
}
