// langsift — the Unicode tables (detail/unicode_tables.inc) and their lookups, for the
// implementation files only (impl/unicode-inl.hpp, impl/script-inl.hpp, impl/ngram-inl.hpp): the
// public headers do not include the tables.
#pragma once

#include "langsift/unicode.hpp"
#include "langsift/detail/unicode_tables.inc"

namespace langsift {
inline namespace v1 {
namespace detail {

/// The index into uni_values of code point cp (U+0080..U+10FFFF): the three-stage lookup alone,
/// for decoders that know cp is not ASCII.
constexpr std::uint32_t uni_index_nonascii(char32_t cp) noexcept {
  const std::uint32_t i1 = uni_stage1[cp >> uni_shift1];
  const std::uint32_t i2 =
      uni_stage2[(i1 << (uni_shift1 - uni_shift2)) |
                 ((cp >> uni_shift2) & ((1u << (uni_shift1 - uni_shift2)) - 1))];
  return uni_stage3[(i2 << uni_shift2) | (cp & ((1u << uni_shift2) - 1))];
}

/// The index into uni_values of code point cp (<= U+10FFFF).
constexpr std::uint32_t uni_index(char32_t cp) noexcept { return cp < 0x80 ? uni_ascii[cp] : uni_index_nonascii(cp); }

inline const uni_value& uni_lookup(char32_t cp) noexcept { return uni_values[uni_index(cp)]; }

/// uni_values index of every two-byte UTF-8 sequence (U+0080..U+07FF: Latin-1 and Latin
/// Extended, Greek, Cyrillic, Armenian, Hebrew, Arabic...), by (lead - 0xC2) * 64 + (trail & 0x3F):
/// one load instead of three for the most common non-ASCII letters.
inline constexpr auto uni_two_byte = [] {
  std::array<std::uint16_t, 30 * 64> t{};
  for (char32_t cp = 0x80; cp < 0x800; ++cp) t[((cp >> 6) - 2) * 64 + (cp & 0x3F)] = static_cast<std::uint16_t>(uni_index(cp));
  return t;
}();

}  // namespace detail

}  // namespace v1
}  // namespace langsift
