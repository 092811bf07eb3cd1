// langsift — implementation of langsift/impl/html/tables.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/impl/html/tables.hpp"
#include "langsift/detail/hex.hpp"
#include "langsift/detail/html_entity_table.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

/// WHATWG numeric character reference replacements.
inline constexpr char32_t numeric_ref_value(std::uint32_t v) noexcept {
  if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
  if (v >= 0x80 && v <= 0x9F) {
    constexpr char16_t w1252[32] = {
        0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D,   0x017D, 0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};
    return w1252[v - 0x80];
  }
  return v;
}

inline int entity_char_at(const html_entity& e, std::size_t k) noexcept {
  return k < e.name_length ? static_cast<unsigned char>(kHtmlEntityNames[e.name_offset + k]) : -1;
}

LANGSIFT_INLINE char_ref match_char_ref(const char* p, const char* end, bool attribute) noexcept {
  if (p >= end) return {};
  if (*p == '#') {
    const char* q = p + 1;
    bool hex = false;
    if (q < end && (*q == 'x' || *q == 'X')) {
      hex = true;
      ++q;
    }
    const char* digits = q;
    std::uint32_t v = 0;
    for (; q < end; ++q) {
      const unsigned char c = static_cast<unsigned char>(*q);
      const int d = hex ? hex_digit_value(c) : is_ascii_digit(c) ? c - '0' : -1;
      if (d < 0) break;
      if (v <= 0x10FFFF) v = v * (hex ? 16 : 10) + static_cast<unsigned>(d);  // saturates above the Unicode range
    }
    if (q == digits) return {};
    if (q < end && *q == ';') ++q;
    return {static_cast<std::size_t>(q - p), numeric_ref_value(v), 0};
  }
  if (!is_ascii_alnum(static_cast<unsigned char>(*p))) return {};
  // Narrow [lo, hi) to the entries whose names start with p[0..k); the table is sorted, so
  // within the range names are ordered by their k-th byte, names of length k first.
  std::size_t lo = 0, hi = kHtmlEntityCount, best = kHtmlEntityCount, best_len = 0;
  for (std::size_t k = 0; k < kHtmlEntityMaxName && p + k < end; ++k) {
    int c = static_cast<unsigned char>(p[k]);
    if (!is_ascii_alnum(static_cast<unsigned char>(c)) && c != ';') break;
    const html_entity* b = kHtmlEntities;
    lo = static_cast<std::size_t>(
        std::lower_bound(b + lo, b + hi, c, [k](const html_entity& e, int v) { return entity_char_at(e, k) < v; }) - b);
    hi = static_cast<std::size_t>(
        std::upper_bound(b + lo, b + hi, c, [k](int v, const html_entity& e) { return v < entity_char_at(e, k); }) - b);
    if (lo >= hi) break;
    if (kHtmlEntities[lo].name_length == k + 1) {
      best = lo;
      best_len = k + 1;
    }
  }
  if (best == kHtmlEntityCount) return {};
  const html_entity& e = kHtmlEntities[best];
  if (p[best_len - 1] != ';' && attribute && p + best_len < end &&
      (p[best_len] == '=' || is_ascii_alnum(static_cast<unsigned char>(p[best_len]))))
    return {};  // "for historical reasons" left alone in attribute values
  return {best_len, e.first, kHtmlEntitySecond[e.second]};
}

LANGSIFT_INLINE std::size_t decode_into(std::string& out, std::string_view in, bool attribute, bool collapse) {
  std::size_t bad = 0;
  const std::size_t start = out.size();
  bool space = false;
  auto put = [&](char32_t cp, const char* bytes, std::size_t n) {
    if (collapse) {
      cp_kind k = classify_cp(cp);
      if (k == cp_kind::drop) return;
      if (k == cp_kind::space) {
        space = out.size() > start;
        return;
      }
      if (space) out.push_back(' ');
      space = false;
    }
    if (bytes) out.append(bytes, n);
    else append_utf8(out, cp);
  };
  const char* p = in.data();
  const char* e = p + in.size();
  while (p < e) {
    // Fast path: a run of ASCII that needs no decoding (and, collapsing, no whitespace).
    const char* q = p;
    if (collapse) {
      while (q < e && static_cast<unsigned char>(*q) >= 0x21 && static_cast<unsigned char>(*q) < 0x7F && *q != '&') ++q;
    } else {
      while (q < e && static_cast<unsigned char>(*q) - 1u < 0x7Fu && *q != '&') ++q;  // 0x01..0x7F
    }
    if (q > p) {
      if (space) out.push_back(' ');
      space = false;
      out.append(p, static_cast<std::size_t>(q - p));
      p = q;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '&') {
      char_ref r = match_char_ref(p + 1, e, attribute);
      if (r.length) {
        put(r.first, nullptr, 0);
        if (r.second) put(r.second, nullptr, 0);
        p += 1 + r.length;
        continue;
      }
      put('&', p, 1);
      ++p;
    } else if (c == 0) {
      put(0xFFFD, "\xEF\xBF\xBD", 3);  // as HTML does in attribute values and RCDATA (title)
      ++p;
    } else if (c < 0x80) {
      put(c, p, 1);
      ++p;
    } else {
      utf8_decoded st = decode_utf8_step(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(e));
      if (st.valid) {
        put(st.cp, p, st.len);
      } else {
        put(0xFFFD, "\xEF\xBF\xBD", 3);
        ++bad;
      }
      p += st.len;
    }
  }
  return bad;
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
