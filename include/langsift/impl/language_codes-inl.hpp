// langsift — implementation of langsift/language_codes.hpp (compiled into langsift::core, or
// included by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/language_codes.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/iso639_table.inc"

namespace langsift {
inline namespace v1 {
namespace detail {

/// Splits "zh-Hant" into the lower-cased primary subtag (at most 8 letters, into `buf`) and the rest
/// ("-Hant", as given). False when the primary subtag is empty or longer than 8.
inline bool split_primary(std::string_view code, char (&buf)[9], std::size_t& n, std::string_view& rest) noexcept {
  n = 0;
  std::size_t i = 0;
  while (i < code.size() && code[i] != '-' && code[i] != '_') {
    if (n == 8) return false;
    buf[n++] = ascii_lower(code[i++]);
  }
  buf[n] = '\0';
  rest = code.substr(i);
  return n > 0;
}

}  // namespace detail

LANGSIFT_INLINE std::string_view iso639_3_of(std::string_view two) noexcept {
  if (two.size() != 2) return {};
  std::size_t lo = 0, hi = std::size(detail::iso639_table);
  while (lo < hi) {  // sorted by the two-letter code
    const std::size_t mid = (lo + hi) / 2;
    const std::string_view k = detail::iso639_table[mid].two;
    if (k == two) return detail::iso639_table[mid].three;
    if (k < two) lo = mid + 1;
    else hi = mid;
  }
  return {};
}

LANGSIFT_INLINE std::string_view iso639_1_of(std::string_view three) noexcept {
  if (three.size() != 3) return {};
  for (const auto& p : detail::iso639_table)
    if (three == p.three) return p.two;
  return {};
}

LANGSIFT_INLINE std::string to_iso639_3(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view three = iso639_3_of(primary);
  std::string r(three.empty() ? primary : three);
  r += rest;
  return r;
}

LANGSIFT_INLINE std::string to_iso639_1(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view two = iso639_1_of(primary);
  std::string r(two.empty() ? primary : two);
  r += rest;
  return r;
}

}  // namespace v1
}  // namespace langsift
