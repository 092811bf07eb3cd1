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
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"

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
  for (std::size_t i = 0; i < script_count; ++i)
    if (detail::iequals(detail::script_codes[i], code)) return static_cast<script>(i);
  return std::nullopt;
}

/// Canonical (NFC) primary composite of the pair a + b, or 0 if there is none. Composition
/// exclusions give 0; Hangul LV and LVT syllables are composed algorithmically.
char32_t compose_pair(char32_t a, char32_t b) noexcept;

// ---- UTF-8 --------------------------------------------------------------------------------------

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
