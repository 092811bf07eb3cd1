// Running the command-line tools from tests: a shell command line with stdout and stderr captured
// into files of a per-process scratch directory (ctest runs test cases as separate processes,
// possibly in parallel).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

// Whether this test program is built with AddressSanitizer or ThreadSanitizer: their runtimes
// reserve terabytes of address space, so no process of the build starts under `ulimit -v`.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LANGSIFT_TOOL_RUN_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LANGSIFT_TOOL_RUN_SANITIZED 1
#endif

namespace langsift_test {

#ifdef LANGSIFT_TOOL_RUN_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

/// `ulimit -v KB; ` for a command line, or nothing in a sanitized build (where the limit would
/// stop the process from starting; the Release build's run enforces it).
inline std::string address_limit(unsigned long kb) {
  return kSanitized ? std::string() : "ulimit -v " + std::to_string(kb) + "; ";
}

inline const std::string kBin = std::string(LANGSIFT_BINARY_DIR) + "/";

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// A single-quoted shell word (the paths used in tests hold no quote).
inline std::string q(const std::string& s) { return "'" + s + "'"; }

struct outcome {
  int status = -1;
  std::string out, err;
};

/// <build>/<name>/<pid>, created.
inline std::filesystem::path scratch(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(LANGSIFT_BINARY_DIR) / name / std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

/// Runs `cmd` through the shell with stdin from /dev/null; output kept in `scratch(name)`.
inline outcome sh(const std::string& cmd, const std::string& name = "test-tools-scratch") {
  static int counter = 0;
  const std::filesystem::path base = scratch(name) / ("run" + std::to_string(++counter));
  const std::string full = "(" + cmd + ") >" + base.string() + ".out 2>" + base.string() + ".err </dev/null";
  const int rc = std::system(full.c_str());
  outcome o;
  o.status = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  o.out = slurp(base.string() + ".out");
  o.err = slurp(base.string() + ".err");
  return o;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace langsift_test
