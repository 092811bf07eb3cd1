// langsift — implementation of langsift/unicode.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/unicode.hpp"
#include "langsift/detail/unicode_lookup.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE code_point_info code_point_props(char32_t cp) noexcept {
  if (cp > 0x10FFFF) return {script::unknown, char_class::control, cp};
  const detail::uni_value& v = detail::uni_lookup(cp);
  return {static_cast<script>(v.sc), static_cast<char_class>(v.cls),
          static_cast<char32_t>(static_cast<std::int32_t>(cp) + v.fold)};
}

LANGSIFT_INLINE std::uint8_t combining_class(char32_t cp) noexcept {
  return cp > 0x10FFFF ? 0 : detail::uni_lookup(cp).ccc;
}

LANGSIFT_INLINE char32_t compose_pair(char32_t a, char32_t b) noexcept {
  // Hangul: L + V -> LV, LV + T -> LVT (Unicode 3.12).
  constexpr char32_t s_base = 0xAC00, l_base = 0x1100, v_base = 0x1161, t_base = 0x11A7;
  constexpr char32_t l_count = 19, v_count = 21, t_count = 28, n_count = v_count * t_count;
  if (a - l_base < l_count && b - v_base < v_count)
    return s_base + ((a - l_base) * v_count + (b - v_base)) * t_count;
  if (a - s_base < l_count * n_count && (a - s_base) % t_count == 0 && b - t_base - 1 < t_count - 1)
    return a + (b - t_base);
  if (a > 0x10FFFF || b > 0x10FFFF) return 0;
  const std::uint64_t key = (static_cast<std::uint64_t>(a) << 21) | b;
  const std::uint64_t* first = detail::compose_keys;
  std::size_t n = std::size(detail::compose_keys);
  while (n > 0) {  // lower_bound
    std::size_t half = n / 2;
    if (first[half] < key) {
      first += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  if (first != std::end(detail::compose_keys) && *first == key)
    return detail::compose_values[first - detail::compose_keys];
  return 0;
}

namespace detail {

// Always inlined where its definition is seen: in langsift::core's unity build (the script
// prefilter, the n-gram extraction of the detector and of training) and under
// LANGSIFT_HEADER_ONLY. An out-of-line copy serves callers elsewhere; GCC warns that such a
// function "might not be inlinable" there, which is meant.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
LANGSIFT_INLINE LANGSIFT_ALWAYS_INLINE decoded_props decode_props(const char*& p, const char* end) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  const unsigned b0 = s[0];
  if (b0 - 0xC2u < 30u && end - p >= 2 && (s[1] & 0xC0) == 0x80) {
    p += 2;
    return {static_cast<char32_t>(((b0 & 0x1Fu) << 6) | (s[1] & 0x3Fu)), &uni_values[uni_two_byte[(b0 - 0xC2u) * 64 + (s[1] & 0x3Fu)]]};
  }
  if ((b0 & 0xF0u) == 0xE0u && end - p >= 3 && ((s[1] & 0xC0u) | ((s[2] & 0xC0u) >> 2)) == 0xA0u) {
    // a well-formed three-byte sequence: not overlong, not a surrogate (else decode_utf8 below
    // finds the maximal invalid subpart)
    const char32_t cp = ((b0 & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    if (cp >= 0x800 && cp - 0xD800u >= 0x800u) {
      p += 3;
      return {cp, &uni_values[uni_index_nonascii(cp)]};
    }
  }
  const char32_t cp = ::langsift::decode_utf8(p, end);
  return {cp, &uni_lookup(cp)};
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace detail

}  // namespace v1
}  // namespace langsift
