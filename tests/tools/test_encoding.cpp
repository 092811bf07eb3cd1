// `langsift encoding` end to end: one line per file, errors on stderr, exit statuses.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <string>

TEST_CASE("langsift encoding tool: one line per file, errors on stderr, exit 1 for a missing file") {
  std::string dir = std::string(LANGSIFT_TEST_DATA_DIR) + "/encoding/";
  std::string out_file = std::string(LANGSIFT_BINARY_DIR) + "/test_encoding_tool.out";
  std::string cmd = std::string(LANGSIFT_BINARY_DIR) + "/langsift encoding " + dir + "ja.shift_jis.txt " + dir +
                    "no-such-file.txt " + dir + "fr.utf-16le.txt > " + out_file + " 2>/dev/null";
  int rc = std::system(cmd.c_str());
  REQUIRE(rc != -1);
  CHECK(WEXITSTATUS(rc) == 1);
  std::ifstream f(out_file);
  std::string l1, l2, l3;
  std::getline(f, l1);
  std::getline(f, l2);
  CHECK_FALSE(std::getline(f, l3));
  CHECK(l1.rfind(dir + "ja.shift_jis.txt\tshift_jis\tdetected\t", 0) == 0);
  CHECK(l2.rfind(dir + "fr.utf-16le.txt\tutf-16le\tdetected\t", 0) == 0);
  std::remove(out_file.c_str());
  std::string help = std::string(LANGSIFT_BINARY_DIR) + "/langsift encoding --help > /dev/null";
  CHECK(std::system(help.c_str()) == 0);
  std::string bad = std::string(LANGSIFT_BINARY_DIR) + "/langsift encoding --max-bytes=x " + dir +
                    "en.ascii.txt > /dev/null 2>&1";
  CHECK(WEXITSTATUS(std::system(bad.c_str())) == 2);
}
