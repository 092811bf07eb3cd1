// Small helpers shared by the command-line tools: reading files and stdin, argument parsing,
// error reporting. Tools print errors to stderr and return non-zero; the library never prints.
#pragma once

#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace langsift::cli {

/// Prints "PROGRAM: message" to stderr and returns 1, for `return fail(...)`.
inline int fail(std::string_view program, std::string_view message) {
  std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(program.size()), program.data(),
               static_cast<int>(message.size()), message.data());
  return 1;
}

/// Reads a whole file ("-" is stdin) into `out`. On failure returns false and sets `error`.
/// Reads a file ("-": stdin) into `out`, at most `max_bytes` of it; `truncated` (if given) says
/// whether there was more. Stops reading there: memory stays bounded on any input.
inline bool read_file(const std::string& path, std::string& out, std::string& error,
                      std::size_t max_bytes = static_cast<std::size_t>(-1), bool* truncated = nullptr) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  out.clear();
  if (truncated) *truncated = false;
  char buf[1 << 16];
  size_t n;
  while (out.size() < max_bytes &&
         (n = std::fread(buf, 1, std::min(sizeof buf, max_bytes - out.size()), f)) > 0)
    out.append(buf, n);
  if (out.size() >= max_bytes && truncated) *truncated = std::fgetc(f) != EOF;
  bool ok = !std::ferror(f);
  if (!ok) error = path + ": read error: " + std::strerror(errno);
  if (f != stdin) std::fclose(f);
  return ok;
}

/// True when `arg` is `name` or starts with `name=`; `value` receives the text after '='
/// or, for the two-word form, the next argument (advancing `i`).
inline bool take_option(int argc, char** argv, int& i, std::string_view name, std::string& value,
                        bool& missing_value) {
  std::string_view arg = argv[i];
  missing_value = false;
  if (arg == name) {
    if (i + 1 >= argc) {
      missing_value = true;
      return true;
    }
    value = argv[++i];
    return true;
  }
  if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
    value = std::string(arg.substr(name.size() + 1));
    return true;
  }
  return false;
}

/// Splits a comma-separated list, dropping empty items and surrounding spaces.
inline std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = s.find(',', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view item = s.substr(i, j - i);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    i = j + 1;
  }
  return out;
}

/// Parses a non-negative integer with an optional K/M/G suffix (powers of 1024).
inline std::optional<unsigned long long> parse_size(std::string_view s) {
  if (s.empty()) return std::nullopt;
  unsigned long long v = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > (~0ULL - 9) / 10) return std::nullopt;
    v = v * 10 + static_cast<unsigned>(s[i] - '0');
  }
  if (i == 0) return std::nullopt;
  if (i < s.size()) {
    unsigned shift = 0;
    switch (s[i]) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: return std::nullopt;
    }
    if (i + 1 != s.size() || v > (~0ULL >> shift)) return std::nullopt;
    v <<= shift;
  }
  return v;
}

/// The value of a numeric option (parse_size) within lo..hi, or false after printing
/// "PROGRAM: OPT needs a number from LO to HI" (also when the value is missing).
inline bool size_in_range(std::string_view program, const char* opt, const std::string& value, bool missing,
                          unsigned long long lo, unsigned long long hi, unsigned long long& v) {
  const auto x = missing ? std::nullopt : parse_size(value);
  if (!x || *x < lo || *x > hi) {
    fail(program, std::string(opt) + " needs a number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return false;
  }
  v = *x;
  return true;
}

}  // namespace langsift::cli
