// Where the built-in models' bytes live when langsift is built with LANGSIFT_EMBED_MODELS=OFF
// (the default at top level; CMakeLists.txt, docs/packaging.md): in the shared library
// liblangsift_data.so.0, mapped read-only from its file by the dynamic loader, used in place
// (never copied), and shared between processes — here between this C++ program (langsift::models)
// and a C program over the C ABI (tests/c/model_sharing_child.c). Not built with
// LANGSIFT_EMBED_MODELS=ON, where the bytes are inside each program by design.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/close_groups.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/url_models.hpp"

using namespace langsift;

namespace {

// One mapping of /proc/self/smaps and its kB figures.
struct mapping {
  std::uintptr_t lo = 0, hi = 0;
  std::string perms, path;
  std::uint64_t offset = 0;
  std::map<std::string, long> kb;  // Rss, Shared_Clean, Private_Dirty, Anonymous, ...
};

std::vector<mapping> smaps() {
  std::ifstream in("/proc/self/smaps");
  REQUIRE(in.good());
  std::vector<mapping> out;
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long lo = 0, hi = 0, off = 0;
    char perms[8] = "", path[4096] = "";
    const int n = std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %4095s", &lo, &hi, perms, &off, path);
    if (n >= 4 && std::string(perms).size() == 4 && line.find('-') < line.find(' ')) {
      out.push_back({static_cast<std::uintptr_t>(lo), static_cast<std::uintptr_t>(hi), perms, path, off, {}});
      continue;
    }
    const auto colon = line.find(':');
    if (!out.empty() && colon != std::string::npos && line.find(" kB") != std::string::npos)
      out.back().kb[line.substr(0, colon)] = std::stol(line.substr(colon + 1));
  }
  return out;
}

// The mapping that holds all of `bytes` (fails the test when none does).
mapping mapping_of(std::string_view bytes) {
  REQUIRE(!bytes.empty());
  const auto lo = reinterpret_cast<std::uintptr_t>(bytes.data());
  for (const mapping& m : smaps())
    if (m.lo <= lo && lo + bytes.size() <= m.hi) return m;
  FAIL("no mapping holds the bytes");
  return {};
}

std::string basename_of(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

volatile unsigned touched_sum = 0;

// Reads one byte of every page (volatile: the reads are not optimised away), so that all of
// `bytes` is mapped in this process.
void touch_pages(std::string_view bytes) {
  const volatile char* p = bytes.data();
  unsigned sum = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 4096) sum += static_cast<unsigned char>(p[i]);
  touched_sum = sum;
}

}  // namespace

TEST_CASE("the built-in models' bytes are liblangsift_data.so.0's, mapped read-only from its file") {
  const std::vector<std::pair<const char*, std::string_view>> blobs = {
      {"default", default_model_bytes()},
      {"wide", builtin_model_bytes("wide")},
      {"close groups of default", builtin_close_groups_bytes("default")},
      {"close groups of wide", builtin_close_groups_bytes("wide")},
      {"URL words", default_url_words_model_bytes()},
      {"URL linear", default_url_linear_model_bytes()}};
  for (const auto& [name, bytes] : blobs) {
    INFO(name);
    const mapping m = mapping_of(bytes);
    CAPTURE(m.path, m.perms);
    CHECK(basename_of(m.path).rfind("liblangsift_data.so", 0) == 0);  // the library's own file
    CHECK(m.perms.find('w') == std::string::npos);                     // read-only
    CHECK(m.perms.back() == 'p');                                      // private: never written back
  }
  // The sizes of the files they came from (the build's models/), byte for byte.
  CHECK(default_model_bytes().size() == 24897472);
  CHECK(builtin_model_bytes("wide").size() == 44031680);
}

TEST_CASE("setting up the built-in models copies nothing: no page of their mapping becomes an anonymous copy") {
  REQUIRE_FALSE(default_model().empty());
  const model* wide = nullptr;
  REQUIRE(builtin_model("wide", wide) == status::ok);
  CHECK(detect(default_model(), "Der Stadtrat hat am Dienstag einen neuen Haushalt beschlossen.").language() == "de");
  CHECK(detect(*wide, "Der Stadtrat hat am Dienstag einen neuen Haushalt beschlossen.").language() == "de");
  touch_pages(default_model_bytes());
  mapping m = mapping_of(default_model_bytes());
  CAPTURE(m.path, m.kb["Rss"], m.kb["Anonymous"]);
  CHECK(m.kb["Rss"] >= 24897472 / 1024);  // every page of the default model is resident ...
  CHECK(m.kb["Anonymous"] == 0);          // ... and none is a copy: a page written in a private
                                          // file mapping becomes an anonymous copy (copy-on-write).
                                          // (Dirty figures say whether the file's page-cache pages
                                          // were written back since the linker wrote the file.)
}

TEST_CASE("two programs share the built-in models' pages: a C program over the C ABI maps the same file pages") {
  // This process holds every page of the mapping that has the default model (the models and their
  // close groups); the child, another program (C, linking liblangsift_c.so.0), sets up the default
  // model its own way and reports its mapping of the same file: its pages there are shared with
  // this process (Shared_Clean), none copied.
  const std::string_view bytes = default_model_bytes();
  const mapping m = mapping_of(bytes);
  touch_pages(std::string_view(reinterpret_cast<const char*>(m.lo), m.hi - m.lo));
  const std::uint64_t begin = m.offset + (reinterpret_cast<std::uintptr_t>(bytes.data()) - m.lo);
  const std::uint64_t end = begin + bytes.size();
  const std::string out_file = std::string(LANGSIFT_BINARY_DIR) + "/tests/model_sharing_child.out";
  const std::string cmd = std::string("'") + LANGSIFT_MODEL_SHARING_CHILD + "' '" + m.path + "' " +
                          std::to_string(begin) + " " + std::to_string(end) + " > '" + out_file + "'";
  CAPTURE(cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(out_file);
  std::string line;
  REQUIRE(std::getline(in, line));
  std::remove(out_file.c_str());
  INFO(line);
  long rss = -1, shared = -1, anonymous = -1, setup_us = -1;
  REQUIRE(std::sscanf(line.c_str(), "rss=%ld shared=%ld anonymous=%ld setup_us=%ld", &rss, &shared, &anonymous,
                      &setup_us) == 4);
  CHECK(rss > 0);        // the child used the model from that file ...
  CHECK(anonymous == 0); // ... copied none of it ...
  CHECK(shared == rss);  // ... and each of its pages there is mapped by this process too
}
