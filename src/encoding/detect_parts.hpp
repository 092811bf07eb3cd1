// The parts of langsift::encoding's detector (detect.cpp) that have a file of their own, each
// one test the decision runs: UTF-16/32 without a byte order mark (wide_guess.cpp), uchardet
// (uchardet.cpp), how well a sample decodes (decode_check.cpp), single-byte plausibility
// (single_byte.cpp) and the review of a single-byte answer among close code pages
// (single_byte_review.cpp). Private to src/encoding; not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include "internal.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

// ---- wide_guess.cpp: UTF-16 / UTF-32 without a byte order mark ---------------------------------

/// A guess of UTF-16 or UTF-32 from the bytes alone.
struct wide_guess {
  std::string_view name;  // "" if none
  float confidence = 0;
  bool nul_pattern = false;  // decided with ASCII units (NUL bytes), the strong form
};

/// UTF-32 (either byte order) when one of them reads as plausible text.
wide_guess guess_utf32(const unsigned char* p, std::size_t n);

/// UTF-16 (either byte order) when one of them reads as plausible text; `complete`: the bytes are
/// the whole text (so an odd length rules out UTF-16 without NUL bytes).
wide_guess guess_utf16(const unsigned char* p, std::size_t n, bool complete);

// True when p[0..n) is UTF-32 (big-endian with `be`) with no invalid unit.
bool utf32_valid(const unsigned char* p, std::size_t n, bool be);

// ---- uchardet.cpp: uchardet, one handle per thread --------------------------------------------

/// uchardet's answer for p[0..n) ("" when it has none).
std::string run_uchardet(const char* p, std::size_t n);

// ---- decode_check.cpp: how well a sample decodes in an encoding --------------------------------

/// What decoding a sample in an encoding gave.
struct decode_check {
  std::size_t nonascii = 0;  // non-ASCII input bytes
  std::size_t replaced = 0;  // input bytes that did not decode
  std::size_t c1 = 0;        // C1 controls produced (bytes 0x80..0x9F of ISO-8859 encodings)
  bool ok = false;           // a converter exists
};

/// Decodes (the first 16 KB of) `sample` in `e` and counts what did not decode.
decode_check check_decoding(std::string_view sample, const encoding_info& e);

// True when most ideographs and syllables of the decoding touch a Latin letter ("g象ddi"): single
// 8-bit letters of a Latin text read as a double-byte encoding, not CJK text, which runs its
// characters together.
bool cjk_between_latin(std::string_view sample, const encoding_info& e);

/// True when `s` holds one of the bytes of `set`.
bool has_any_byte(std::string_view s, const char* set);

// ---- single_byte.cpp: single-byte plausibility (does the text decode to words?) ----------------

/// How plausible a single-byte decoding is: letters, and what makes poor words.
struct sb_plausibility {
  std::size_t nonascii = 0;
  std::size_t letters = 0;  // non-ASCII bytes decoding to letters
  std::size_t bad = 0;      // weighted implausibilities
  std::size_t caps = 0;     // upper-case letters after upper-case letters (all-caps words are rare)
  double bad_fraction() const { return nonascii ? static_cast<double>(bad) / nonascii : 0.0; }
  double score() const {
    return nonascii ? (static_cast<double>(letters) - 2.0 * bad - 1.0 * caps) / nonascii : 0.0;
  }
};

/// What a decoded character is, for the plausibility tests.
enum char_kind : std::uint8_t { ck_space, ck_upper, ck_lower, ck_letter, ck_mark, ck_digit, ck_symbol, ck_control, ck_undefined };

/// The kind of a decoded character (0xFFFF: a byte the code page leaves undefined).
inline char_kind kind_of(char16_t u) {
  if (u == 0xFFFF) return ck_undefined;
  switch (u_charType(u)) {
    case U_UPPERCASE_LETTER:
    case U_TITLECASE_LETTER: return ck_upper;
    case U_LOWERCASE_LETTER: return ck_lower;
    case U_MODIFIER_LETTER:
    case U_OTHER_LETTER: return ck_letter;
    case U_NON_SPACING_MARK:
    case U_COMBINING_SPACING_MARK:
    case U_ENCLOSING_MARK: return ck_mark;
    case U_DECIMAL_DIGIT_NUMBER: return ck_digit;
    case U_SPACE_SEPARATOR: return ck_space;
    case U_CONTROL_CHAR: return (u == 0x09 || u == 0x0A || u == 0x0D || u == 0x0C) ? ck_space : ck_control;
    case U_UNASSIGNED:
    case U_PRIVATE_USE_CHAR:
    case U_SURROGATE: return ck_undefined;
    default: return ck_symbol;
  }
}

// Punctuation that real words contain: apostrophes (L’œuf), hyphens, the Catalan middle dot.
inline bool word_internal(char16_t u) {
  if (u == 0x2019 || u == 0x02BC || u == 0x00B4 || u == 0x00B7 || u == 0x00AD) return true;
  int8_t t = u_charType(u);
  return t == U_DASH_PUNCTUATION || t == U_CONNECTOR_PUNCTUATION;
}

/// A letter or a combining mark.
inline bool is_letterish(char_kind k) { return k == ck_upper || k == ck_lower || k == ck_letter || k == ck_mark; }

/// The script of a character (Common when ICU has none).
inline UScriptCode script_of(char16_t u) {
  UErrorCode e = U_ZERO_ERROR;
  UScriptCode sc = uscript_getScript(u, &e);
  return U_FAILURE(e) ? USCRIPT_COMMON : sc;
}

/// The plausibility of `sample` (its first 8 KB) decoded with the code page `t`.
sb_plausibility single_byte_plausibility(std::string_view sample, const sbcs_table& t);

/// A single-byte encoding and its plausibility.
struct sb_choice {
  std::string_view name;
  sb_plausibility p;
};

/// The most plausible of the single-byte encodings tried when uchardet has no answer.
sb_choice best_single_byte(std::string_view sample);

// ---- single_byte_review.cpp: a single-byte answer reviewed among close code pages --------------

/// The code page of `name`'s group (of every group with `all_groups`) that reads `sample` best:
/// `name` unless another is clearly better (docs/encoding.md, "Review of close code pages").
std::string_view review_single_byte(std::string_view sample, std::string_view name, bool all_groups);

}  // namespace detail
}  // namespace v1
}  // namespace langsift
