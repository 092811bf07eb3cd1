// The built libraries (paths from CMake): none may print, exit or abort.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
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

// The functions a shared library exports (nm -D --defined-only: code, T).
std::set<std::string> exported_functions(const std::string& lib) {
  REQUIRE(std::ifstream(lib).good());
  const std::string out_file = lib + ".nm-D.out";
  REQUIRE(std::system(("nm -D --defined-only " + lib + " > " + out_file + " 2>/dev/null").c_str()) == 0);
  std::ifstream f(out_file);
  std::set<std::string> out;
  std::string address, type, name;
  while (f >> address >> type >> name) {
    CAPTURE(lib, type, name);
    CHECK((type == "T" || type == "W"));  // functions only: no data, no C++ symbol
    out.insert(name.substr(0, name.find('@')));
  }
  std::remove(out_file.c_str());
  return out;
}

}  // namespace

TEST_CASE("the C ABI library exports exactly the functions langsift.h declares (nm -D)") {
  // The C ABI's symbol set is its binary interface: a function added, dropped or leaked (a C++
  // symbol, the models' accessor of liblangsift_data.so.0) shows here.
  std::ifstream h(LANGSIFT_C_HEADER);
  REQUIRE(h.good());
  std::stringstream text;
  text << h.rdbuf();
  const std::string header = text.str();
  std::set<std::string> declared;
  const std::regex decl(R"(LANGSIFT_C_API\s+(?:LANGSIFT_DEPRECATED\("[^"]*"\)\s*)?[^;(#]*?\b(langsift_\w+)\s*\()");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), decl); it != std::sregex_iterator(); ++it)
    declared.insert((*it)[1]);
  CHECK(declared.size() >= 25);  // the header was read
  CHECK(exported_functions(LANGSIFT_C_LIB) == declared);
}

#ifdef LANGSIFT_DATA_LIB
TEST_CASE("liblangsift_data.so.0 exports one function, langsift_data_v1_get, and needs no library (nm -D)") {
  CHECK(exported_functions(LANGSIFT_DATA_LIB) == std::set<std::string>{"langsift_data_v1_get"});
  const std::string out_file = std::string(LANGSIFT_DATA_LIB) + ".nm-u.out";
  REQUIRE(std::system(("nm -D -u " + std::string(LANGSIFT_DATA_LIB) + " > " + out_file).c_str()) == 0);
  std::ifstream f(out_file);
  std::string line, undefined;
  while (std::getline(f, line))
    if (line.find(" w ") == std::string::npos) undefined += line + "\n";  // weak: the toolchain's hooks
  std::remove(out_file.c_str());
  CHECK(undefined.empty());
}
#endif

TEST_CASE("the core library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_CORE_LIB);
}

TEST_CASE("the encoding library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_ENCODING_LIB);
}

TEST_CASE("the C ABI library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_C_LIB);
}

TEST_CASE("the page library never prints, exits or aborts (nm)") {
  check_never_prints(LANGSIFT_PAGE_LIB);
}

#ifdef LANGSIFT_STATIC_LIBS
namespace {

// The functions of langsift's public API (langsift::, outside detail and anonymous namespaces)
// that a library compiled with hidden visibility defines without exporting them (readelf -s:
// GLOBAL, HIDDEN): in a -DBUILD_SHARED_LIBS=ON build a program calling one does not link. Such a
// declaration lacks its library's LANGSIFT_*_API. Static archives: the objects keep the visibility.
std::vector<std::string> hidden_api_functions(const std::string& lib) {
  REQUIRE(std::ifstream(lib).good());
  const std::string out_file = lib + ".readelf.out";
  REQUIRE(std::system(("readelf -sW " + lib + " | c++filt > " + out_file + " 2>/dev/null").c_str()) == 0);
  std::ifstream f(out_file);
  std::vector<std::string> out;
  std::size_t functions = 0;
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(in >> num >> value >> size >> type >> bind >> vis >> ndx) || type != "FUNC" || ndx == "UND") continue;
    std::getline(in >> std::ws, name);
    if (name.rfind("langsift::", 0) != 0) continue;
    ++functions;
    if (bind == "GLOBAL" && vis == "HIDDEN" && name.find("::detail::") == std::string::npos &&
        name.find("(anonymous namespace)") == std::string::npos)
      out.push_back(name);
  }
  std::remove(out_file.c_str());
  CHECK(functions > 0);  // readelf read the library
  return out;
}

}  // namespace
#endif

#ifdef LANGSIFT_STATIC_LIBS  // shared libraries (BUILD_SHARED_LIBS): the tests calling them do not link without
TEST_CASE("the libraries built with hidden visibility export their public functions (readelf -s)") {
  for (const char* lib : {LANGSIFT_ENCODING_LIB, LANGSIFT_PAGE_LIB, LANGSIFT_MODELS_LIB}) {
    CAPTURE(lib);
    CHECK(hidden_api_functions(lib) == std::vector<std::string>{});
  }
}
#endif
