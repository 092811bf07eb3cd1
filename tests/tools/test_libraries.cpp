// The built libraries (paths from CMake): none may print, exit or abort.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

// The undefined symbols of a built library (nm -u; binutils comes with the compiler): none may
// print, exit or abort. CMake passes the libraries' paths (static or shared, whatever was built).
void check_never_prints(const std::string& lib) {
  REQUIRE(std::ifstream(lib).good());
  const bool shared = lib.find(".so") != std::string::npos;
  const std::string out_file = lib + ".nm-u.out";
  const std::string cmd = std::string("nm -u ") + (shared ? "-D " : "") + lib + " > " + out_file + " 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream f(out_file);
  std::string line;
  const std::vector<std::string> banned = {"printf", "fprintf", "puts", "fputs", "fwrite", "putchar",
                                           "exit", "_exit", "abort", "_ZSt4cout", "_ZSt4cerr"};
  std::size_t symbols = 0;
  while (std::getline(f, line)) {
    std::string sym = line.substr(line.find_last_of(' ') + 1);
    sym = sym.substr(0, sym.find('@'));  // versioned dynamic symbols: puts@GLIBC_2.2.5
    if (sym.rfind("__", 0) == 0 && sym.find("printf_chk") != std::string::npos) sym = "printf";
    CAPTURE(lib, sym);
    for (const auto& b : banned) CHECK(sym != b);
    ++symbols;
  }
  CHECK(symbols > 0);  // nm read the library
  std::remove(out_file.c_str());
}

}  // namespace

TEST_CASE("the core library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_CORE_LIB);
}

TEST_CASE("the encoding library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_ENCODING_LIB);
}

TEST_CASE("the C ABI library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_C_LIB);
}
