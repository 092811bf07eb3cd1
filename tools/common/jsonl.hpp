// Reading JSON lines (`langsift detect --jsonl`): one JSON object per line, checked against the
// grammar of RFC 8259 and taken apart only as far as the tool needs — its top-level members with
// their byte ranges (so that the line can be written back as it was, with fields added or
// replaced) and the value of one string member, unescaped to UTF-8. Nothing is built for the
// values the tool passes through; nesting is followed with a small stack, not recursion, so no
// line can exhaust the call stack. No exceptions: a line that is not a JSON object gets a
// parse_error saying what was expected where.
//
// Strictness: the grammar is RFC 8259's (no comments, no trailing commas, no single quotes, no
// NaN, no leading zeros or '+', control characters in strings must be escaped, only the escapes
// it lists). Bytes >= 0x80 inside strings are taken as they are, not checked as UTF-8: the text
// they hold goes to detection, which reads invalid sequences as it does in `--lines` input.
// \uXXXX escapes are decoded, a surrogate pair to its code point; a lone surrogate becomes U+FFFD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/detail/hex.hpp"
#include "langsift/detail/utf8.hpp"

namespace langsift::cli::jsonl {

enum class kind : unsigned char { string, number, object, array, boolean, null };

inline const char* kind_name(kind k) noexcept {
  switch (k) {
    case kind::string: return "a string";
    case kind::number: return "a number";
    case kind::object: return "an object";
    case kind::array: return "an array";
    case kind::boolean: return "a boolean";
    default: return "null";
  }
}

/// A top-level member of an object, as byte offsets into the line.
struct member {
  std::size_t slot_begin = 0, slot_end = 0;    ///< all between its delimiters ('{' or ',' before it,
                                               ///< ',' or '}' after it), whitespace included
  std::size_t key_begin = 0, key_end = 0;      ///< its name, quotes included
  std::size_t value_begin = 0, value_end = 0;  ///< its value
  kind value_kind = kind::null;
  bool key_escaped = false;  ///< the name holds a backslash escape
};

struct object {
  std::size_t open = 0, close = 0;  ///< where '{' and the final '}' are
  std::vector<member> members;      ///< in order (a name may repeat: JSON allows it)
};

struct parse_error {
  std::size_t at = 0;      ///< byte offset in the line
  const char* what = "";   ///< "expected ':'", ...
};

namespace detail {

inline void skip_ws(std::string_view s, std::size_t& i) noexcept {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
}

inline bool fail(parse_error& e, std::size_t at, const char* what) noexcept {
  e.at = at;
  e.what = what;
  return false;
}

/// True when one of the 8 bytes of `x` is '"', '\\' or a control character (< 0x20). (A byte
/// flagged wrongly can only follow one flagged rightly: a block with none is clean.)
inline bool has_special(std::uint64_t x) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const std::uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
  return (((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x)) & highs;
}

/// A string starting at s[i] == '"'; on success i is past its closing quote.
inline bool scan_string(std::string_view s, std::size_t& i, parse_error& e, bool* escaped = nullptr) noexcept {
  const std::size_t start = i++;
  for (;;) {
    for (std::uint64_t x; i + 8 <= s.size(); i += 8) {  // the plain run, 8 bytes at a time
      std::memcpy(&x, s.data() + i, 8);
      if (has_special(x)) break;
    }
    while (i < s.size()) {  // the plain run
      const auto c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\' || c < 0x20) break;
      ++i;
    }
    if (i >= s.size()) return fail(e, start, "a string without its closing quote");
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      ++i;
      return true;
    }
    if (c < 0x20) return fail(e, i, "a control character in a string (it must be escaped)");
    if (escaped) *escaped = true;
    if (i + 1 >= s.size()) return fail(e, i, "a string without its closing quote");
    switch (s[i + 1]) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        i += 2;
        break;
      case 'u':
        for (std::size_t k = 2; k < 6; ++k)
          if (i + k >= s.size() || !langsift::detail::is_hex_digit(s[i + k])) return fail(e, i, "a bad \\u escape");
        i += 6;
        break;
      default:
        return fail(e, i, "a bad escape in a string");
    }
  }
}

/// A number at s[i] (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?).
inline bool scan_number(std::string_view s, std::size_t& i, parse_error& e) noexcept {
  const std::size_t start = i;
  auto digits = [&] {
    const std::size_t b = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > b;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return fail(e, start, "a bad number");
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return fail(e, start, "a bad number");
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return fail(e, start, "a bad number");
  }
  return true;
}

/// `"name" :` of an object member, from s[i] (whitespace first).
inline bool scan_key(std::string_view s, std::size_t& i, parse_error& e) noexcept {
  skip_ws(s, i);
  if (i >= s.size() || s[i] != '"') return fail(e, i, "expected a member name (a string)");
  if (!scan_string(s, i, e)) return false;
  skip_ws(s, i);
  if (i >= s.size() || s[i] != ':') return fail(e, i, "expected ':'");
  ++i;
  return true;
}

/// One value from s[i] (whitespace first), nested values included; i ends past it.
inline bool scan_value(std::string_view s, std::size_t& i, parse_error& e) {
  std::string open;  // the containers the value is inside: '{' or '['
  for (;;) {
    skip_ws(s, i);
    if (i >= s.size()) return fail(e, i, "the line ends where a value was expected");
    const char c = s[i];
    bool done = true;  // a whole value was read (not the start of a non-empty container)
    if (c == '{' || c == '[') {
      ++i;
      skip_ws(s, i);
      if (i < s.size() && s[i] == (c == '{' ? '}' : ']')) {
        ++i;
      } else {
        open.push_back(c);
        if (c == '{' && !scan_key(s, i, e)) return false;
        done = false;
      }
    } else if (c == '"') {
      if (!scan_string(s, i, e)) return false;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      if (!scan_number(s, i, e)) return false;
    } else if (s.substr(i, 4) == "true" || s.substr(i, 4) == "null") {
      i += 4;
    } else if (s.substr(i, 5) == "false") {
      i += 5;
    } else {
      return fail(e, i, "expected a value");
    }
    while (done) {  // close the containers the value ends
      if (open.empty()) return true;
      skip_ws(s, i);
      const char top = open.back();
      if (i < s.size() && s[i] == ',') {
        ++i;
        if (top == '{' && !scan_key(s, i, e)) return false;
        done = false;
      } else if (i < s.size() && s[i] == (top == '{' ? '}' : ']')) {
        ++i;
        open.pop_back();
      } else {
        return fail(e, i, top == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
  }
}

inline kind kind_at(char c) noexcept {
  switch (c) {
    case '"': return kind::string;
    case '{': return kind::object;
    case '[': return kind::array;
    case 't': case 'f': return kind::boolean;
    case 'n': return kind::null;
    default: return kind::number;
  }
}

}  // namespace detail

/// Parses `line` as one JSON object with optional whitespace around it, into `out`. False, with
/// `err` set, when it is not one.
inline bool parse_object(std::string_view line, object& out, parse_error& err) {
  using namespace detail;
  out.members.clear();
  std::size_t i = 0;
  skip_ws(line, i);
  if (i >= line.size()) return fail(err, i, "an empty line");
  if (line[i] != '{') return fail(err, i, "not an object (expected '{')");
  out.open = i++;
  std::size_t slot = i;
  skip_ws(line, i);
  if (i < line.size() && line[i] == '}') {
    out.close = i++;
  } else {
    for (;;) {
      member m;
      m.slot_begin = slot;
      skip_ws(line, i);
      if (i >= line.size() || line[i] != '"') return fail(err, i, "expected a member name (a string)");
      m.key_begin = i;
      if (!scan_string(line, i, err, &m.key_escaped)) return false;
      m.key_end = i;
      skip_ws(line, i);
      if (i >= line.size() || line[i] != ':') return fail(err, i, "expected ':'");
      ++i;
      skip_ws(line, i);
      m.value_begin = i;
      if (i < line.size()) m.value_kind = kind_at(line[i]);
      if (!scan_value(line, i, err)) return false;
      m.value_end = i;
      skip_ws(line, i);
      if (i >= line.size() || (line[i] != ',' && line[i] != '}')) return fail(err, i, "expected ',' or '}'");
      m.slot_end = i;
      out.members.push_back(m);
      if (line[i] == '}') {
        out.close = i++;
        break;
      }
      slot = ++i;
    }
  }
  skip_ws(line, i);
  if (i != line.size()) return fail(err, i, "more after the object");
  return true;
}

/// Appends the value of a JSON string (`quoted`: as it is in the line, quotes included, already
/// checked by parse_object) to `out` as UTF-8.
inline void unescape(std::string_view quoted, std::string& out) {
  const std::string_view s = quoted.substr(1, quoted.size() - 2);
  auto hex4 = [&](std::size_t at) {
    char32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = v << 4 | static_cast<char32_t>(langsift::detail::hex_digit_value(s[at + k]));
    return v;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t bs = s.find('\\', i);
    if (bs == std::string_view::npos) {
      out.append(s.substr(i));
      break;
    }
    out.append(s.substr(i, bs - i));
    const char e = s[bs + 1];
    i = bs + 2;
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        char32_t cp = hex4(i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
          const char32_t lo = hex4(i + 2);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // a lone surrogate: no character
        langsift::detail::append_utf8(out, cp);
        break;
      }
      default: out += e;  // '"', '\\', '/'
    }
  }
}

/// True when member `m` of `line` is named `name` (escapes in the name decoded).
inline bool key_is(std::string_view line, const member& m, std::string_view name) {
  const std::string_view quoted = line.substr(m.key_begin, m.key_end - m.key_begin);
  if (!m.key_escaped) return quoted.substr(1, quoted.size() - 2) == name;
  std::string k;
  unescape(quoted, k);
  return k == name;
}

}  // namespace langsift::cli::jsonl
