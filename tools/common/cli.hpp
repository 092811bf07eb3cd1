// Small helpers shared by the command-line tools: reading files and stdin, argument parsing,
// error reporting. Tools print errors to stderr and return non-zero; the library never prints.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/detail/ascii.hpp"
#include "langsift/version_config.hpp"
#include "common/output.hpp"

namespace langsift::cli {

/// Prints "PROGRAM: message" to stderr and returns 1, for `return fail(...)`.
inline int fail(std::string_view program, std::string_view message) {
  std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(program.size()), program.data(),
               static_cast<int>(message.size()), message.data());
  return 1;
}

/// `--version`: "PROGRAM (langsift X.Y.Z)" on stdout; returns 0 for `return print_version(...)`.
inline int print_version(std::string_view program) {
  std::printf("%.*s (langsift %s)\n", static_cast<int>(program.size()), program.data(), LANGSIFT_VERSION_STRING);
  return 0;
}

/// Edit distance (insertions, deletions, substitutions), for "did you mean".
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// Progress of long work on stderr — only when stderr is a terminal, never into a log or a pipe:
/// "PROGRAM: 123.4 MB of 456.7 MB (27 %), 45.6 MB/s, 0:07 left", rewritten in place at most four
/// times a second. `total` 0: unknown (no percentage or time left). update() may be called from
/// any thread; finish() clears the line.
class progress {
 public:
  progress(std::string_view program, std::uint64_t total, bool wanted = true)
      : program_(program), total_(total), on_(wanted && ::isatty(2) == 1), t0_(std::chrono::steady_clock::now()) {}
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  ~progress() { finish(); }

  bool enabled() const noexcept { return on_; }

  void update(std::uint64_t done) {
    if (!on_) return;
    std::unique_lock lock(m_, std::try_to_lock);
    if (!lock) return;  // another thread is drawing: this update is not needed
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    drawn_ = true;
    const double sec = std::chrono::duration<double>(now - t0_).count();
    const double rate = sec > 0 ? static_cast<double>(done) / sec : 0;
    char line[160];
    int n = std::snprintf(line, sizeof line, "\r%.*s: %.1f MB", static_cast<int>(program_.size()), program_.data(),
                          static_cast<double>(done) / 1e6);
    if (total_ && n > 0 && n < static_cast<int>(sizeof line)) {
      const double left = rate > 0 && done < total_ ? static_cast<double>(total_ - done) / rate : 0;
      n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), " of %.1f MB (%d %%)",
                         static_cast<double>(total_) / 1e6, static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total_)));
      if (n > 0 && n < static_cast<int>(sizeof line))
        n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), ", %.1f MB/s, %d:%02d left", rate / 1e6,
                           static_cast<int>(left) / 60, static_cast<int>(left) % 60);
    } else if (n > 0 && n < static_cast<int>(sizeof line)) {
      n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), ", %.1f MB/s", rate / 1e6);
    }
    std::fputs(line, stderr);
    std::fputs("\033[K", stderr);  // erase what a longer earlier line left
    std::fflush(stderr);
  }

  void finish() {
    if (!on_) return;
    std::lock_guard lock(m_);
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
    on_ = false;
  }

 private:
  std::string program_;
  std::uint64_t total_;
  bool on_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point t0_, last_{};
  std::mutex m_;
};

/// Appends `s` as one field of a TSV line: backslash, TAB, LF and CR written as \\\\, \\t, \\n and
/// \\r (the convention of PostgreSQL's COPY and Hive), so that a file name holding a newline or a TAB
/// cannot split a record or shift its fields. Other bytes are written as they are.
inline void tsv_field(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
}

inline std::string tsv_field(std::string_view s) {
  std::string out;
  tsv_field(out, s);
  return out;
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
  // A regular file's size is known: one allocation of it, not a doubling string that peaks at up
  // to twice the file (what is read from a pipe still grows by doubling).
  struct stat st {};
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    out.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes));
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

/// Splits a comma-separated list of anything but language codes (thread counts, detector names),
/// dropping empty items and surrounding spaces. Language codes are read by the library, as every
/// front end reads them: langsift::parse_code_list (langsift/options.hpp).
inline std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = s.find(',', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view item = s.substr(i, j - i);
    item = langsift::detail::trim_if(item, [](unsigned char b) { return b == ' '; });
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

// ---------------------------------------------------------------------------------------------
// Option tables. A tool declares its options once, as a table of `option<Args>` (Args: the struct
// the options fill); usage_text() writes the option lines of its usage text from it, parse_options()
// reads argv by it (one-line errors, exit status 2) and unknown options get "did you mean" from it.

/// What an option's value is: how parse_options() reads it and what its error says it needs.
enum class value_kind {
  flag,    // no value
  text,    // any text (`set` may refuse it)
  size,    // a non-negative integer, K/M/G suffixes (parse_size), within lo..hi
  real,    // a decimal number within lo..hi
  choice,  // one of `choices` ("code|tsv|jsonl"); option_value::choice is its index
  note,    // not an option: a line of the usage text between options (`help`, as it is)
};

/// A value as parse_options() read it, for an option's `set`.
struct option_value {
  std::string_view text;        // as given
  unsigned long long size = 0;  // value_kind::size
  double real = 0;              // value_kind::real
  std::size_t choice = 0;       // value_kind::choice: the index in `choices`
};

/// One line of a tool's option table.
template <class Args>
struct option {
  value_kind kind;
  const char* name;                 // "--threads" (note: nullptr)
  const char* alias = nullptr;      // "-j"; a one-letter alias takes its value attached too ("-j2")
  const char* metavar = nullptr;    // the value in the usage text ("N"); nullptr: none shown
  std::string help;                 // the usage text's description ('\n' starts a continuation line);
                                    // empty: listed on another option's line (`label`)
  bool (*set)(Args&, const option_value&) = nullptr;  // stores the value; false: refused (the error)
  double lo = 0, hi = 0;            // size, real: the accepted range
  const char* choices = nullptr;    // choice: the values, '|'-separated
  const char* need = nullptr;       // the error, "OPT needs NEED" (default: from kind and range)
  const char* label = nullptr;      // the usage text's left column (default: alias, name metavar)
  std::string (*help_fn)() = nullptr;  // help computed when the usage text is printed (not `help`)
};

/// The class of a pointer to member (`bool A::*` → A).
template <class M>
struct member_class;
template <class C, class T>
struct member_class<T C::*> {
  using type = C;
};

/// A flag row that sets `field`, a bool member of the tool's arguments: flag_option<&A::gz>(...).
template <auto field>
option<typename member_class<decltype(field)>::type> flag_option(const char* name, const char* help) {
  using A = typename member_class<decltype(field)>::type;
  return {value_kind::flag, name, nullptr, nullptr, help, [](A& a, const option_value&) { return a.*field = true; }};
}

/// An option's values, '|'-separated ("code|tsv|jsonl"), split.
inline std::vector<std::string_view> option_choices(const char* choices) {
  std::vector<std::string_view> v;
  std::string_view s = choices ? choices : "";
  for (std::size_t i = 0; i <= s.size();) {
    std::size_t j = s.find('|', i);
    if (j == std::string_view::npos) j = s.size();
    v.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return v;
}

/// A number as an error message shows it: 1048576 as 1M, 65536 as 64K, others as they are.
inline std::string size_text(unsigned long long v) {
  if (v >= (1ULL << 30) && v % (1ULL << 30) == 0) return std::to_string(v >> 30) + "G";
  if (v >= (1ULL << 20) && v % (1ULL << 20) == 0) return std::to_string(v >> 20) + "M";
  if (v >= (1ULL << 10) && v % (1ULL << 10) == 0) return std::to_string(v >> 10) + "K";
  return std::to_string(v);
}

/// What an option's value needs, for its error: "a number from 0 to 100", "code, tsv or jsonl".
template <class Args>
std::string option_need(const option<Args>& o) {
  if (o.need) return o.need;
  char buf[96];
  switch (o.kind) {
    case value_kind::size: {
      const auto lo = static_cast<unsigned long long>(o.lo), hi = static_cast<unsigned long long>(o.hi);
      if (o.hi <= 0 || o.hi >= 1.8e19) return lo ? "a size of at least " + std::to_string(lo) + " (e.g. 400, 64K)" : "a size (e.g. 400, 64K)";
      return "a number from " + size_text(lo) + " to " + size_text(hi);
    }
    case value_kind::real:
      std::snprintf(buf, sizeof buf, "a number from %g to %g", o.lo, o.hi);
      return buf;
    case value_kind::choice: {
      const auto c = option_choices(o.choices);
      std::string s;
      for (std::size_t i = 0; i < c.size(); ++i) s += (i == 0 ? "" : i + 1 == c.size() ? " or " : ", ") + std::string(c[i]);
      return s;
    }
    default: return "a value";
  }
}

/// Reads `text` as option `o`'s value into `v`: false when it is not one (kind, range, choices).
template <class Args>
bool read_option_value(const option<Args>& o, std::string_view text, option_value& v) {
  v.text = text;
  switch (o.kind) {
    case value_kind::size: {
      const auto x = parse_size(text);
      if (!x || static_cast<double>(*x) < o.lo || (o.hi > 0 && static_cast<double>(*x) > o.hi)) return false;
      v.size = *x;
      return true;
    }
    case value_kind::real: {
      const std::string s(text);
      char* end = nullptr;
      v.real = s.empty() ? 0 : std::strtod(s.c_str(), &end);
      return !s.empty() && end && !*end && v.real >= o.lo && v.real <= o.hi;
    }
    case value_kind::choice: {
      const auto c = option_choices(o.choices);
      const auto it = std::find(c.begin(), c.end(), text);
      v.choice = static_cast<std::size_t>(it - c.begin());
      return it != c.end();
    }
    default: return true;
  }
}

/// The option lines of a usage text from a table: "  LABEL" padded to `column`, then the help (or
/// two spaces after a longer label; a help that starts with '\n' starts on the next line);
/// continuation lines indented to `column`. Notes as they are.
template <class Args>
void usage_text(std::FILE* out, const std::vector<option<Args>>& table, std::size_t column) {
  for (const option<Args>& o : table) {
    const std::string help = o.help_fn ? o.help_fn() : o.help;
    if (o.kind == value_kind::note) {
      std::fputs(help.c_str(), out);
      continue;
    }
    if (help.empty()) continue;  // shown on another option's line
    std::string label = o.label ? o.label : "";
    if (!o.label) {
      if (o.alias) label = std::string(o.alias) + ", ";
      label += o.name;
      if (o.metavar) label += std::string(" ") + o.metavar;
    }
    std::string line = "  " + label;
    if (help[0] == '\n') line += '\n';  // the label alone on its line: the help starts below it
    else line += line.size() + 1 <= column ? std::string(column - line.size(), ' ') : "  ";
    for (std::size_t i = help[0] == '\n' ? 1 : 0; i < help.size();) {
      std::size_t j = help.find('\n', i);
      if (j == std::string::npos) j = help.size();
      if (i) line += std::string(column, ' ');
      line.append(help, i, j - i);
      line += '\n';
      i = j + 1;
    }
    std::fputs(line.c_str(), out);
  }
}

/// The one-line usage error for an unknown option, naming the closest of `names` ("langsift
/// detect: unknown option '--formt' (did you mean --format?); see --help"). Returns 2.
inline int unknown_option(std::string_view program, std::string_view arg, const std::vector<std::string>& names) {
  const std::string_view key = arg.substr(0, arg.find('='));
  std::string best;
  std::size_t best_d = static_cast<std::size_t>(-1);
  for (const std::string& o : names) {
    const std::size_t d = edit_distance(key, o);
    if (d < best_d) {
      best_d = d;
      best = o;
    }
  }
  std::string msg = "unknown option '" + std::string(arg) + "'";
  if (!best.empty() && best_d <= std::max<std::size_t>(2, key.size() / 3)) msg += " (did you mean " + best + "?)";
  msg += "; see --help";
  fail(program, msg);
  return 2;
}

/// Reads argv[1..] by `table` into `args`: options (--name VALUE, --name=VALUE, -j VALUE, -j2) and
/// the other arguments, in order, into `positional` ("-" is one, and every argument after "--"). --help prints `usage` to stdout,
/// --version the version. Returns -1 to go on, or the exit status to return: 0 after --help or
/// --version, 2 after a usage error, printed as one line ("PROGRAM: OPT needs NEED, not 'VALUE'",
/// or "PROGRAM: OPT needs NEED" when the value is missing).
template <class Args>
int parse_options(std::string_view program, const std::vector<option<Args>>& table, void (*usage)(std::FILE*),
                  int argc, char** argv, Args& args, std::vector<std::string>& positional) {
  bool only_positional = false;  // after "--"
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (only_positional) {
      positional.emplace_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    if (a == "--version") return print_version(program);
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    }
    if (a.size() < 2 || a[0] != '-') {
      positional.emplace_back(a);
      continue;
    }
    const option<Args>* o = nullptr;
    std::string_view typed = a, value;
    bool has_value = false;
    for (const option<Args>& x : table) {
      if (x.kind == value_kind::note) continue;
      for (const char* n : {x.name, x.alias}) {
        if (!n) continue;
        const std::string_view name = n;
        if (a == name) {
          o = &x;
        } else if (x.kind != value_kind::flag && a.size() > name.size() && a.substr(0, name.size()) == name &&
                   (a[name.size()] == '=' || (name.size() == 2 && name[0] == '-' && name[1] != '-'))) {
          o = &x;  // --name=VALUE, or -jVALUE
          typed = name;
          value = a.substr(name.size() + (a[name.size()] == '=' ? 1 : 0));
          has_value = true;
        }
        if (o) break;
      }
      if (o) break;
    }
    if (!o) {
      std::vector<std::string> names;
      for (const option<Args>& x : table)
        for (const char* n : {x.name, x.alias})
          if (x.kind != value_kind::note && n) names.emplace_back(n);
      return unknown_option(program, a, names);
    }
    option_value v;
    if (o->kind != value_kind::flag && !has_value) {
      if (i + 1 >= argc) return fail(program, std::string(typed) + " needs " + option_need(*o)) + 1;
      value = argv[++i];
    }
    if (!read_option_value(*o, value, v) || (o->set && !o->set(args, v))) {
      const std::string_view shown = value.substr(0, 60);  // what was given, cut if long
      return fail(program, std::string(typed) + " needs " + option_need(*o) + ", not '" + std::string(shown) +
                               (shown.size() < value.size() ? "...'" : "'")) + 1;
    }
  }
  return -1;
}

}  // namespace langsift::cli
