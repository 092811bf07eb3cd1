// Support code of the conformance tests (tests/conformance/test_conformance_*.cpp), which read standards' own
// test suites in place from LANGSIFT_CONFORMANCE_DIR and compare the cases that fail with a
// checked-in list of expected failures (tests/conformance/*.tsv, LANGSIFT_EXPECTED_FAILURES_DIR):
//   - read_file: a suite's file (or a list) as bytes;
//   - to_utf8, code_points: UTF-8 and code points, either way;
//   - json, json_reader, parse_json: a small JSON reader for the suites written in JSON;
//   - expected_failures: a list, and the rule that keeps it honest (an unlisted case must pass, a
//     listed case must fail and must exist);
//   - outcome, report, record: pass counts, printed and written with every failing case to
//     <build>/conformance/<suite>.txt.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/detail/hex.hpp"
#include "langsift/punycode.hpp"
#include "langsift/unicode.hpp"

namespace langsift_test::conformance {

/// The standards' suites (url/, idna/, psl/, html5lib/).
inline const std::filesystem::path kSuitesDir = LANGSIFT_CONFORMANCE_DIR;

/// A whole file, as bytes; the file must exist.
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  INFO("reading " << p.string());
  REQUIRE(f.good());
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// ---- strings ---------------------------------------------------------------------------------------

/// Code points to bytes: UTF-8, with a lone surrogate written as its three-byte form, which is not
/// UTF-8 (langsift reads it as U+FFFD per byte). The suites escape some surrogates on purpose.
inline std::string to_utf8(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) langsift::detail::append_utf8(out, c);
  return out;
}

/// Bytes to code points (invalid UTF-8 → U+FFFD per maximal subpart, as langsift reads it).
inline std::u32string code_points(std::string_view utf8) {
  std::u32string out;
  for (const char *p = utf8.data(), *e = p + utf8.size(); p < e;) out.push_back(langsift::decode_utf8(p, e));
  return out;
}

// ---- a small JSON reader (strings as code points: the suites have lone surrogates) -----------------

struct json {
  enum kind_t { null_v, bool_v, number_v, string_v, array_v, object_v } kind = null_v;
  bool b = false;
  double n = 0;
  std::u32string s;
  std::vector<json> a;               // an array's elements, or an object's values
  std::vector<std::u32string> keys;  // an object: keys[i] names a[i] (a vector of pairs would
                                     // need json complete here)

  const json* get(std::u32string_view key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return &a[i];
    return nullptr;
  }
  /// The string as bytes (to_utf8).
  std::string utf8() const { return to_utf8(s); }
};

/// Reads one JSON text; throws std::runtime_error where it is not JSON.
class json_reader {
 public:
  explicit json_reader(std::string_view text) : s_(text) {}

  json parse() {
    json v = value();
    ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;

  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string("JSON: ") + what + " at byte " + std::to_string(pos_));
  }
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool take(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }
  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const int d = langsift::detail::hex_digit_value(s_[pos_++]);
      if (d < 0) fail("bad \\u escape");
      v = v << 4 | unsigned(d);
    }
    return v;
  }
  std::u32string string() {
    if (!take("\"")) fail("expected a string");
    std::u32string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c == '\\') {
        ++pos_;
        if (pos_ >= s_.size()) fail("bad escape");
        char e = s_[pos_++];
        switch (e) {
          case '"': out += U'"'; break;
          case '\\': out += U'\\'; break;
          case '/': out += U'/'; break;
          case 'b': out += U'\b'; break;
          case 'f': out += U'\f'; break;
          case 'n': out += U'\n'; break;
          case 'r': out += U'\r'; break;
          case 't': out += U'\t'; break;
          case 'u': {
            unsigned u = hex4();
            if (u >= 0xD800 && u <= 0xDBFF && s_.substr(pos_, 2) == "\\u") {
              std::size_t save = pos_;
              pos_ += 2;
              unsigned lo = hex4();
              if (lo >= 0xDC00 && lo <= 0xDFFF) {
                out += static_cast<char32_t>(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
                break;
              }
              pos_ = save;
            }
            out += static_cast<char32_t>(u);  // possibly a lone surrogate
            break;
          }
          default: fail("bad escape");
        }
        continue;
      }
      // UTF-8 (the files are valid UTF-8)
      if (c < 0x80) {
        out += static_cast<char32_t>(c);
        ++pos_;
      } else {
        const auto* p = reinterpret_cast<const unsigned char*>(s_.data());
        const auto st = langsift::detail::decode_utf8_step(p + pos_, p + s_.size());
        if (!st.valid) fail("invalid UTF-8");
        out += st.cp;
        pos_ += st.len;
      }
    }
  }
  /// An array's elements or an object's members, after the opening bracket: `element` reads one;
  /// `close` is the closing bracket.
  template <class F>
  void elements(char close, F&& element) {
    const std::string_view end(&close, 1);
    ws();
    if (take(end)) return;
    for (;;) {
      element();
      ws();
      if (take(end)) return;
      if (!take(",")) fail(close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  }
  json value() {
    ws();
    if (pos_ >= s_.size()) fail("unexpected end");
    json v;
    char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = json::object_v;
      elements('}', [&] {
        ws();
        std::u32string k = string();
        ws();
        if (!take(":")) fail("expected ':'");
        json item = value();
        v.keys.push_back(std::move(k));
        v.a.push_back(std::move(item));
      });
      return v;
    }
    if (c == '[') {
      ++pos_;
      v.kind = json::array_v;
      elements(']', [&] { v.a.push_back(value()); });
      return v;
    }
    if (c == '"') {
      v.kind = json::string_v;
      v.s = string();
      return v;
    }
    if (take("true")) {
      v.kind = json::bool_v;
      v.b = true;
      return v;
    }
    if (take("false")) {
      v.kind = json::bool_v;
      return v;
    }
    if (take("null")) return v;
    std::size_t start = pos_;
    while (pos_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[pos_]) != std::string_view::npos) ++pos_;
    if (pos_ == start) fail("unexpected character");
    v.kind = json::number_v;
    v.n = std::stod(std::string(s_.substr(start, pos_ - start)));
    return v;
  }
};

inline json parse_json(std::string_view text) { return json_reader(text).parse(); }

// ---- the expected-failure lists ----------------------------------------------------------------------

/// An expected-failure list, tests/conformance/<name> (LANGSIFT_EXPECTED_FAILURES_DIR): a case a
/// line, "<key><TAB><reason>", the reason after the last tab; '#' starts a comment line. The key
/// is the test's name for the case, itself tab-separated fields where the test says so (url.tsv:
/// check, input, base; idna.tsv: check, case). With `with_note`, the key is the first field only
/// and the fields between it and the reason are a note that the test compares with the suite
/// (html5lib's lists repeat the expected encoding or the description, so that a list that no
/// longer matches the suite is noticed). A line without a reason, and a key listed twice, fail.
///
/// The test fails when a case not in the list fails, and when a case in the list passes (or no
/// longer exists), so that the list stays honest.
class expected_failures {
 public:
  struct entry {
    std::string note;    // with_note: the fields between the key and the reason
    std::string reason;
    bool seen = false;   // the case was run
  };

  explicit expected_failures(const std::string& name, bool with_note = false)
      : path_((std::filesystem::path(LANGSIFT_EXPECTED_FAILURES_DIR) / name).string()) {
    std::istringstream in(read_file(path_));
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      INFO(path_ << ": " << line);
      const std::size_t last = line.rfind('\t');
      REQUIRE(last != std::string::npos);
      entry e;
      e.reason = line.substr(last + 1);
      REQUIRE(!e.reason.empty());
      std::string key = line.substr(0, last);
      if (with_note) {
        const std::size_t first = key.find('\t');
        REQUIRE(first != std::string::npos);
        e.note = key.substr(first + 1);
        key.resize(first);
      }
      REQUIRE(entries_.emplace(std::move(key), std::move(e)).second);  // no case twice
    }
  }

  const std::string& path() const { return path_; }
  const std::map<std::string, entry>& entries() const { return entries_; }

  /// One case's result: a case not in the list must pass, a listed case must fail (a case that
  /// passes leaves the list). Returns the case's entry, marked as run, or nullptr when the case is
  /// not listed. The caller's INFO says which case it is.
  entry* check(const std::string& key, bool ok) {
    const auto it = entries_.find(key);
    if (it == entries_.end()) {
      INFO("not in " << path_);
      CHECK(ok);
      return nullptr;
    }
    it->second.seen = true;
    INFO("listed in " << path_ << " as an expected failure (" << it->second.reason
                      << "): if it passes, remove it from the list");
    CHECK_FALSE(ok);
    return &it->second;
  }

  /// After the run: every listed case (with a key that starts with one of `prefixes`, or every
  /// one) must have been run, i.e. exist in the suite.
  void check_all_seen(std::initializer_list<std::string_view> prefixes = {}) const {
    for (const auto& [key, e] : entries_) {
      bool mine = prefixes.size() == 0;
      for (std::string_view p : prefixes) mine = mine || key.rfind(p, 0) == 0;
      if (!mine) continue;
      INFO(key << " is listed in " << path_ << " but is not in the suite");
      CHECK(e.seen);
    }
  }

 private:
  std::string path_;
  std::map<std::string, entry> entries_;
};

// ---- pass counts ---------------------------------------------------------------------------------

/// Prints `head` (the pass count) and writes it, followed by `failures` (a line per failing case),
/// to <build>/conformance/<suite>.txt.
inline void record(const std::string& suite, const std::string& head, const std::string& failures) {
  std::printf("%s", head.c_str());
  const std::filesystem::path dir = std::filesystem::path(LANGSIFT_BINARY_DIR) / "conformance";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / (suite + ".txt")) << head << failures;
}

/// One case of a suite: its key in the expected-failure list, whether it passes, what went wrong.
struct outcome {
  std::string key;
  bool pass = false;
  std::string detail;
};

/// Checks every outcome against the list (expected_failures::check) and records the pass count,
/// "<suite>: <n> of <m> pass, <k> fail", with a "FAIL<TAB>key<TAB>detail" line per failing case.
/// Whether every listed case was run is the caller's check_all_seen, after all its reports.
inline void report(const std::string& suite, const std::vector<outcome>& results, expected_failures& list) {
  std::size_t pass = 0;
  std::ostringstream failures;
  for (const outcome& r : results) {
    INFO(suite << ": " << r.key << "  " << r.detail);
    const bool listed = list.check(r.key, r.pass) != nullptr;
    if (r.pass) ++pass;
    else failures << "FAIL\t" << r.key << "\t" << r.detail << (listed ? "" : "\t(not in the list)") << "\n";
  }
  std::ostringstream head;
  head << suite << ": " << pass << " of " << results.size() << " pass, " << results.size() - pass << " fail\n";
  record(suite, head.str(), failures.str());
}

}  // namespace langsift_test::conformance
