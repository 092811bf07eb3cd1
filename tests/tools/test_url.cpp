// `langsift url` end to end: the output formats, a URL cut at the classifier's cap (said in every
// format and on stderr), and --lines read as a stream.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "langsift/url.hpp"
#include "tool_run.hpp"

using namespace langsift_test;

namespace {

const std::string kUrl = kBin + "langsift url";

/// "http://www.example.de/aaaa...": longer than the classifier reads.
std::string long_url() { return "http://www.example.de/" + std::string(langsift::kUrlMaxBytes + 100, 'a'); }

}  // namespace

TEST_CASE("TSV, code and JSON lines, the last TSV column being the status") {
  const outcome tsv = sh(kUrl + " --header http://www.lemonde.fr/politique/ ''");
  REQUIRE(tsv.status == 0);
  CHECK(tsv.out.rfind("language\tlanguages\tdecision\turl\tstatus\nfr\tfr:", 0) == 0);
  CHECK(contains(tsv.out, "\tmodel\thttp://www.lemonde.fr/politique/\tok\n"));
  CHECK(contains(tsv.out, "\nund\t\tnone\t\tempty_input\n"));
  CHECK(tsv.err.empty());
  CHECK(sh(kUrl + " --format code http://www.lemonde.fr/politique/").out == "fr\n");
  const outcome json = sh(kUrl + " --format jsonl http://www.lemonde.fr/politique/");
  CHECK(json.out.rfind("{\"url\":\"http://www.lemonde.fr/politique/\",\"language\":\"fr\",", 0) == 0);
  CHECK_FALSE(contains(json.out, "\"status\""));
}

TEST_CASE("a URL cut at the classifier's cap says so in every format, and once on stderr") {
  // #29: only the JSON line said truncated.
  const std::string url = long_url();
  const std::string message = "langsift url: " + url.substr(0, 60) + "...: cut at " + std::to_string(langsift::kUrlMaxBytes) +
                              " bytes: its languages are those of that part\n";
  const outcome tsv = sh(kUrl + " " + q(url));
  CHECK(tsv.status == 0);
  CHECK(tsv.out.size() > url.size());
  CHECK(tsv.out.substr(tsv.out.size() - 11) == "\ttruncated\n");
  CHECK(tsv.err == message);
  const outcome code = sh(kUrl + " --format code " + q(url) + " http://www.lemonde.fr/");
  CHECK(code.out == "de\ttruncated\nfr\n");
  CHECK(code.err == message);
  const outcome json = sh("echo " + q(url) + " | " + kUrl + " --lines --format jsonl");
  CHECK(contains(json.out, "\"status\":\"truncated\"}\n"));
  CHECK(json.err == message);
}

TEST_CASE("url --lines reads a stream: a 100 MB line costs little memory") {
  // It read all its input into memory first (and an endless input until memory ran out).
  const std::string cmd = "(printf 'http://www.example.de/'; head -c 100000000 /dev/zero | tr '\\0' a; echo; "
                          "echo http://www.lemonde.fr/) | " + kUrl + " --lines --format code > /dev/null 2>&1";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int ws = 0;
  struct rusage ru {};
  REQUIRE(::wait4(child, &ws, 0, &ru) == child);
  CHECK((WIFEXITED(ws) && WEXITSTATUS(ws) == 0));
  CHECK(ru.ru_maxrss < 60 * 1024);  // KiB (the pipeline's largest process): it was about 200 MB
  const outcome r = sh("(printf 'http://www.example.de/'; head -c 3000000 /dev/zero | tr '\\0' a; echo; "
                       "echo http://www.lemonde.fr/) | " + kUrl + " --lines --format code 2>/dev/null");
  CHECK(r.out == "de\ttruncated\nfr\n");
}
