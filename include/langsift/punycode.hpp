// langsift — Punycode (RFC 3492) and IDN host labels, by hand (the core has no ICU).
//
//   punycode_decode("mnchen-3ya", out)      → "münchen" (UTF-8)
//   punycode_encode("münchen", out)         → "mnchen-3ya"
//   idn_to_unicode("www.xn--mnchen-3ya.de", out) → "www.münchen.de"
//
// Decoding checks what RFC 3492 requires (basic code points only before the last '-', digits in
// range, no overflow, results in U+0080..U+10FFFF without surrogates) and returns false otherwise;
// it never reads past its input; encoding fails where a delta would overflow 32 bits (RFC 3492
// 6.4). No IDNA mapping or validation here: UTS #46 (mapping, normalisation, validity, ToASCII /
// ToUnicode) is langsift/idna.hpp, which the URL parser (uri.hpp) uses for hosts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "langsift/config.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

constexpr std::uint32_t kPunyBase = 36, kPunyTMin = 1, kPunyTMax = 26, kPunySkew = 38,
                        kPunyDamp = 700, kPunyInitialBias = 72, kPunyInitialN = 128;
constexpr std::size_t kPunyMaxOutput = 256;  // code points; DNS labels are at most 63 bytes

constexpr std::uint32_t puny_adapt(std::uint32_t delta, std::uint32_t numpoints, bool first) noexcept {
  delta = first ? delta / kPunyDamp : delta / 2;
  delta += delta / numpoints;
  std::uint32_t k = 0;
  while (delta > ((kPunyBase - kPunyTMin) * kPunyTMax) / 2) {
    delta /= kPunyBase - kPunyTMin;
    k += kPunyBase;
  }
  return k + (kPunyBase - kPunyTMin + 1) * delta / (delta + kPunySkew);
}

constexpr std::uint32_t puny_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return static_cast<std::uint32_t>(c - '0' + 26);
  if (c >= 'A' && c <= 'Z') return static_cast<std::uint32_t>(c - 'A');
  if (c >= 'a' && c <= 'z') return static_cast<std::uint32_t>(c - 'a');
  return kPunyBase;
}

constexpr char puny_digit_char(std::uint32_t d) noexcept {
  return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26));
}

}  // namespace detail

namespace detail {

/// RFC 3492 decoding of `in` into cps[0..cap): the number of code points, or npos for invalid
/// input or more than `cap` code points. Never reads past `in`. O(n²) in the output length
/// (insertions), so callers bound `cap`.
std::size_t punycode_decode_cps(std::string_view in, char32_t* cps, std::size_t cap) noexcept;

/// RFC 3492 encoding of cps[0..len) (no "xn--" prefix), appended to `out`. False (out
/// unchanged) when a delta overflows 32 bits (RFC 3492 6.4), which long labels of high code
/// points can do. O(len × distinct code points).
bool punycode_encode_cps(const char32_t* cps, std::size_t len, std::string& out);

}  // namespace detail

/// Decodes a Punycode string (without the "xn--" prefix), appending UTF-8 to `out`.
/// Returns false (out unchanged) for invalid input or more than 256 code points.
bool punycode_decode(std::string_view in, std::string& out);

/// Encodes UTF-8 text as Punycode (no "xn--" prefix), appending to `out`. Returns false for
/// invalid UTF-8 or more than 256 code points.
bool punycode_encode(std::string_view utf8, std::string& out);

/// Rewrites every "xn--" label of a host name to Unicode (UTF-8) and lower-cases ASCII letters,
/// writing into `out` (cleared first). A label that does not decode (or decodes to nothing) is kept
/// as it was.
/// Returns the number of labels decoded.
std::size_t idn_to_unicode(std::string_view host, std::string& out);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/punycode-inl.hpp"
#endif
