// langsift — the UTF-8 primitives: one decoding step and one encoder, used by the detector's
// Unicode layer, the HTML extractor, the encoding converters, Punycode/IDNA and the URL code.
// Tiny and dependency-free, so public headers include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace langsift {
inline namespace v1 {
namespace detail {

struct utf8_decoded {
  char32_t cp;        ///< the code point, or U+FFFD for an invalid sequence
  std::uint8_t len;   ///< bytes consumed: the sequence, or its maximal invalid subpart (>= 1)
  bool valid;
};

/// Decodes one sequence at s (s < e). Invalid: U+FFFD and the length of the maximal subpart of
/// a well-formed sequence (Unicode §3.9 "U+FFFD substitution of maximal subparts", as the WHATWG
/// decoder and ICU do): a byte that cannot start a sequence (80-C1, F5-FF) is one subpart; a
/// valid lead followed by fewer continuation bytes than it needs (or by bytes outside the
/// allowed range: E0 A0-BF, ED 80-9F, F0 90-BF, F4 80-8F) is one subpart ending before the
/// offending byte, so overlongs, surrogates, values above U+10FFFF, and 5/6-byte forms all
/// become one U+FFFD per byte or per valid prefix.
inline utf8_decoded decode_utf8_step(const unsigned char* s, const unsigned char* e) noexcept {
  const unsigned b0 = s[0];
  if (b0 < 0x80) return {b0, 1, true};
  const std::ptrdiff_t n = e - s;
  if (b0 < 0xC2) return {0xFFFD, 1, false};
  if (b0 < 0xE0) {
    if (n >= 2 && (s[1] & 0xC0) == 0x80) return {((b0 & 0x1Fu) << 6) | (s[1] & 0x3Fu), 2, true};
    return {0xFFFD, 1, false};
  }
  if (b0 < 0xF0) {
    const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
    if (n < 2 || s[1] < lo || s[1] > hi) return {0xFFFD, 1, false};
    if (n < 3 || (s[2] & 0xC0) != 0x80) return {0xFFFD, 2, false};
    return {((b0 & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu), 3, true};
  }
  if (b0 < 0xF5) {
    const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
    if (n < 2 || s[1] < lo || s[1] > hi) return {0xFFFD, 1, false};
    if (n < 3 || (s[2] & 0xC0) != 0x80) return {0xFFFD, 2, false};
    if (n < 4 || (s[3] & 0xC0) != 0x80) return {0xFFFD, 3, false};
    return {((b0 & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu),
            4, true};
  }
  return {0xFFFD, 1, false};
}

/// True when the invalid step d at s (s < e) is a valid prefix of a sequence that the end e cuts
/// short (a streaming decoder waits for more bytes instead of substituting).
inline bool utf8_truncated(const unsigned char* s, const unsigned char* e, utf8_decoded d) noexcept {
  return !d.valid && s[0] >= 0xC2 && s[0] <= 0xF4 && d.len == e - s;
}

/// True for 80-BF, the bytes that continue a sequence (and cannot start one).
inline constexpr bool is_utf8_continuation(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

/// Where to cut s before `pos` without splitting a sequence: the largest n in [lo, pos] at which
/// s[n] is not a continuation byte, else lo. Reads s[lo + 1 .. pos].
inline constexpr std::size_t utf8_cut_back(const char* s, std::size_t pos, std::size_t lo) noexcept {
  while (pos > lo && is_utf8_continuation(static_cast<unsigned char>(s[pos]))) --pos;
  return pos;
}

/// Appends the UTF-8 form of code point `cp` (U+0000..U+10FFFF; a surrogate is written as the
/// three bytes of its value) to `s`.
inline void append_utf8(std::string& s, char32_t cp) {
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    const char b[2] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 2);
  } else if (cp < 0x10000) {
    const char b[3] = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                       static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 3);
  } else {
    const char b[4] = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                       static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 4);
  }
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
