// langsift — Unicode properties of code points and UTF-8 decoding, for the hot path of the
// script prefilter and the n-gram normaliser. No ICU: the tables in detail/unicode_tables.inc
// (included by impl/unicode-inl.hpp only) and the `script` enum in detail/unicode_scripts.inc are
// generated from ICU's data by tools/gen/gen_unicode_tables.cpp (target regen-unicode-tables) and
// checked against ICU over every code point by tests/unit/test_unicode.cpp. Part of langsift::core.
// See docs/script.md.
//
//   const char* p = text.data(); const char* e = p + text.size();
//   while (p < e) {
//     char32_t cp = langsift::decode_utf8(p, e);          // U+FFFD for invalid bytes; always advances
//     langsift::code_point_info i = langsift::code_point_props(cp);
//     // i.sc == script::cyrillic, i.cls == char_class::letter, i.lower == simple case folding of cp
//   }
//
// Cost: one lookup in a three-stage table (about 57 KB of tables in all) per code point; ASCII
// takes a one-load path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// Coarse character classes for tokenising and voting.
enum class char_class : std::uint8_t {
  other,    ///< not produced by the tables (the value of a default-constructed char_class)
  letter,   ///< General_Category L*
  mark,     ///< M*, and ZWNJ/ZWJ (U+200C/U+200D): word characters (Indic viramas, Arabic joiners)
  digit,    ///< Nd, Nl, No
  punct,    ///< P*
  space,    ///< White_Space (takes precedence: tab, line feed, U+0085, U+00A0, U+3000... are space)
  symbol,   ///< S*
  control,  ///< Cc, Cf, Cs, Co, Cn (unassigned), except ZWNJ/ZWJ and White_Space
};

}  // namespace v1
}  // namespace langsift

// Defines `enum class script` (ICU's scripts with at least one assigned code point, plus
// `japanese` = Jpan and `korean` = Kore), `script_count`, and the scripts' codes and names.
#include "langsift/detail/unicode_scripts.inc"

#if defined(__GNUC__) || defined(__clang__)
#define LANGSIFT_ALWAYS_INLINE __attribute__((always_inline))  // for hot-loop helpers and lambdas
#define LANGSIFT_NOINLINE __attribute__((noinline))  // a rare path kept out of a hot function
#else
#define LANGSIFT_ALWAYS_INLINE
#define LANGSIFT_NOINLINE
#endif

namespace langsift {
inline namespace v1 {

/// Script, class and simple case folding of one code point.
struct code_point_info {
  script sc;       ///< Unicode Script property (common = Zyyy, inherited = Zinh, unknown = Zzzz)
  char_class cls;
  char32_t lower;  ///< simple case folding (ICU u_foldCase(cp, U_FOLD_CASE_DEFAULT)); cp if none
};

namespace detail {

/// A code point's entry in the tables (detail/unicode_tables.inc).
struct uni_value {
  std::uint8_t sc, cls, ccc, reserved;
  std::int32_t fold;  // simple case folding - code point
};

/// A decoded code point (U+FFFD for an invalid sequence) and its table entry.
struct decoded_props {
  char32_t cp;
  const uni_value* v;
};

}  // namespace detail

/// Properties of `cp`; a value above U+10FFFF gives {unknown, control, cp}.
code_point_info code_point_props(char32_t cp) noexcept;

/// Canonical combining class (0 for starters and for values above U+10FFFF).
std::uint8_t combining_class(char32_t cp) noexcept;

/// ISO 15924 code of a script: "Latn", "Cyrl", "Hani", "Jpan", "Zyyy" (common), "Zinh"
/// (inherited), "Zzzz" (unknown, also for a value out of range).
constexpr std::string_view script_code(script s) noexcept {
  const auto i = static_cast<std::size_t>(s);
  return i < script_count ? detail::script_codes[i] : std::string_view("Zzzz");
}

/// ICU's (Unicode's) long name of a script: "Latin", "Old_Italic", "Japanese"...
constexpr std::string_view script_name(script s) noexcept {
  const auto i = static_cast<std::size_t>(s);
  return i < script_count ? detail::script_names[i] : std::string_view("Unknown");
}

/// The script of an ISO 15924 code, compared ASCII-case-insensitively ("latn" works); nullopt for
/// a code that is not one of `script`'s.
constexpr std::optional<script> script_from_code(std::string_view code) noexcept {
  if (code.size() != 4) return std::nullopt;
  auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  for (std::size_t i = 0; i < script_count; ++i) {
    std::string_view k = detail::script_codes[i];
    if (fold(k[0]) == fold(code[0]) && fold(k[1]) == fold(code[1]) && fold(k[2]) == fold(code[2]) &&
        fold(k[3]) == fold(code[3]))
      return static_cast<script>(i);
  }
  return std::nullopt;
}

/// Canonical (NFC) primary composite of the pair a + b, or 0 if there is none. Composition
/// exclusions give 0; Hangul LV and LVT syllables are composed algorithmically.
char32_t compose_pair(char32_t a, char32_t b) noexcept;

// ---- UTF-8 --------------------------------------------------------------------------------------

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

}  // namespace detail

/// Decodes the code point at p and advances p past it. Requires p < end. An invalid or truncated
/// sequence (overlong, surrogate, above U+10FFFF, stray continuation byte, 5/6-byte form) yields
/// U+FFFD and advances p by its maximal subpart (at least one byte), so a byte string decodes to
/// the same code points as in ICU or a WHATWG browser.
inline char32_t decode_utf8(const char*& p, const char* end) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  if (*s < 0x80) {
    ++p;
    return *s;
  }
  const detail::utf8_decoded d = detail::decode_utf8_step(s, reinterpret_cast<const unsigned char*>(end));
  p += d.len;
  return d.cp;
}

namespace detail {

/// decode_utf8 and the code point's properties in one step (p < end): p advances past the
/// sequence (or its maximal invalid subpart). Two-byte sequences take one table load. Inlined
/// where its definition is seen (langsift::core, or LANGSIFT_HEADER_ONLY).
decoded_props decode_props(const char*& p, const char* end) noexcept;

}  // namespace detail

/// True if `s` is well-formed UTF-8 (no overlongs, surrogates or values above U+10FFFF).
inline bool is_valid_utf8(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    // ASCII, eight bytes at a time.
    while (e - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      if (w & 0x8080808080808080ull) break;
      p += 8;
    }
    while (p < e && *p < 0x80) ++p;
    if (p == e) break;
    const detail::utf8_decoded d = detail::decode_utf8_step(p, e);
    if (!d.valid) return false;
    p += d.len;
  }
  return true;
}

/// The (const char*, size) form of is_valid_utf8.
inline bool is_valid_utf8(const char* data, std::size_t len) noexcept {
  return is_valid_utf8(std::string_view(data, len));
}

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/unicode-inl.hpp"
#endif
