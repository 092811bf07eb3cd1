// Encoding detection: BOM → Content-Type → meta prescan → structure → uchardet → fallback.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <uchardet/uchardet.h>

#include "internal.hpp"
#include "langsift/detail/immortal.hpp"
#include "langsift/encoding.hpp"
#include "prescan.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

// ---------------------------------------------------------------------------------------------
// UTF-16 / UTF-32 without BOM: classify code units and judge whether the text is plausible.

enum unit_class : std::uint8_t { k_invalid, k_ascii, k_letter, k_cjk, k_cjk_mark, k_punct, k_other, k_pua, k_classes };

// Script groups; 0 = none (ASCII, punctuation, symbols), so "coherent" text uses few groups.
enum : std::uint8_t {
  g_none, g_latin, g_greek, g_cyrillic, g_armenian, g_hebrew, g_arabic, g_syriac, g_indic0,
  g_thai = g_indic0 + 10, g_lao, g_tibetan, g_myanmar, g_georgian, g_hangul, g_ethiopic,
  g_cherokee, g_khmer, g_mongolian, g_cjk, g_count
};

struct unit_info {
  std::uint8_t cls;
  std::uint8_t group;
};

unit_info classify(char32_t u) {
  if (u < 0x80) {
    if (u == 0) return {k_invalid, g_none};
    if (u < 0x20 && u != 0x09 && u != 0x0A && u != 0x0D && u != 0x0C) return {k_invalid, g_none};
    return {k_ascii, g_none};
  }
  if (u < 0xA0) return {k_invalid, g_none};  // C1 controls
  if (u < 0x300) return {k_letter, g_latin};  // Latin, IPA (ə), modifier letters (ʻ)
  if (u < 0x370) return {k_letter, g_none};  // combining marks
  if (u < 0x400) return {k_letter, g_greek};
  if (u < 0x530) return {k_letter, g_cyrillic};
  if (u < 0x590) return {k_letter, g_armenian};
  if (u < 0x600) return {k_letter, g_hebrew};
  if (u < 0x700) return {k_letter, g_arabic};
  if (u < 0x750) return {k_letter, g_syriac};
  if (u < 0x780) return {k_letter, g_arabic};
  if (u < 0x7C0) return {k_letter, g_syriac};  // Thaana
  if (u < 0x900) return {k_other, g_none};
  if (u < 0xE00) return {k_letter, static_cast<std::uint8_t>(g_indic0 + ((u - 0x900) >> 7))};
  if (u < 0xE80) return {k_letter, g_thai};
  if (u < 0xF00) return {k_letter, g_lao};
  if (u < 0x1000) return {k_letter, g_tibetan};
  if (u < 0x10A0) return {k_letter, g_myanmar};
  if (u < 0x1100) return {k_letter, g_georgian};
  if (u < 0x1200) return {k_letter, g_hangul};
  if (u < 0x13A0) return {k_letter, g_ethiopic};
  if (u < 0x1400) return {k_letter, g_cherokee};
  if (u < 0x1780) return {k_other, g_none};
  if (u < 0x1800) return {k_letter, g_khmer};
  if (u < 0x18B0) return {k_letter, g_mongolian};
  if (u < 0x1E00) return {k_other, g_none};
  if (u < 0x1F00) return {k_letter, g_latin};
  if (u < 0x2000) return {k_letter, g_greek};
  if (u < 0x20A0) return {k_punct, g_none};  // general punctuation, super/subscripts
  if (u < 0x20D0) return {k_punct, g_none};  // currency
  if (u < 0x2100) return {k_other, g_none};
  if (u < 0x2150) return {k_punct, g_none};  // letterlike
  if (u < 0x2190) return {k_other, g_none};
  if (u < 0x2300) return {k_punct, g_none};  // arrows, math
  if (u < 0x2500) return {k_other, g_none};
  if (u < 0x2700) return {k_punct, g_none};  // box drawing, shapes, symbols
  if (u < 0x3000) return {k_other, g_none};
  if (u < 0x3040) return {k_cjk_mark, g_cjk};  // CJK punctuation
  if (u < 0x3100) return {k_cjk_mark, g_cjk};  // kana
  if (u < 0x3130) return {k_cjk, g_cjk};       // bopomofo
  if (u < 0x3190) return {k_letter, g_hangul};
  if (u < 0x3400) return {k_cjk, g_cjk};
  if (u < 0x4DC0) return {k_cjk, g_cjk};
  if (u < 0x4E00) return {k_other, g_none};
  if (u < 0xA000) return {k_cjk, g_cjk};
  if (u < 0xAC00) return {k_other, g_none};
  if (u < 0xD7A4) return {k_letter, g_hangul};
  if (u < 0xE000) return {k_other, g_none};  // surrogates are handled by the caller
  if (u < 0xF900) return {k_pua, g_none};  // private use (font hacks in real text)
  if (u < 0xFB00) return {k_cjk, g_cjk};
  if (u < 0xFB50) return {k_other, g_none};
  if (u < 0xFE00) return {(u >= 0xFDD0 && u <= 0xFDEF) ? k_invalid : k_letter, g_arabic};
  if (u < 0xFE70) return {k_other, g_none};
  if (u < 0xFEFF) return {k_letter, g_arabic};
  if (u == 0xFEFF) return {k_punct, g_none};
  if (u < 0xFF00) return {k_other, g_none};
  if (u < 0xFFF0) return {k_cjk_mark, g_cjk};  // fullwidth forms
  if (u < 0xFFFE) return {k_other, g_none};
  if (u < 0x10000) return {k_invalid, g_none};
  if (u >= 0x20000 && u < 0x40000) return {k_cjk, g_cjk};  // CJK extensions B..H
  if (u <= 0x10FFFF) return {k_punct, g_none};  // supplementary planes: emoji, historic scripts
  return {k_invalid, g_none};
}

struct wide_stats {
  std::size_t units = 0;
  std::size_t cls[k_classes] = {};
  std::size_t zero_low = 0;  // units U+xx00 with xx != 0 (a sign of the wrong byte order)
  std::size_t printable_pairs = 0;  // units of two printable ASCII bytes (U+2020..U+7E7E, low byte 20..7E)
  std::size_t common_punct = 0;  // dashes, quotes, ellipsis, bullets (U+2010..2027, U+2030..203B)
  std::size_t group[g_count] = {};
  void add(char32_t u) {
    unit_info i = classify(u);
    ++units;
    ++cls[i.cls];
    ++group[i.group];
    // (Hangul syllables U+xx00 are common: 가 U+AC00, 대 U+B300; ASCII in the wrong byte order
    // never makes one)
    if (u > 0xFF && u < 0x10000 && (u & 0xFF) == 0 && !(u >= 0xAC00 && u <= 0xD7A3)) ++zero_low;
    if (u >= 0x2020 && u <= 0x7E7E && (u & 0xFF) >= 0x20 && (u & 0xFF) <= 0x7E) ++printable_pairs;
    if ((u >= 0x2010 && u <= 0x2027) || (u >= 0x2030 && u <= 0x203B)) ++common_punct;
  }
};

wide_stats utf16_stats(const unsigned char* p, std::size_t n, bool be) {
  wide_stats s;
  auto unit = [&](std::size_t i) -> char16_t {
    return be ? static_cast<char16_t>(p[i] << 8 | p[i + 1]) : static_cast<char16_t>(p[i + 1] << 8 | p[i]);
  };
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    char16_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 4 <= n) {
        char16_t lo = unit(i + 2);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          s.add(0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (lo - 0xDC00));
          i += 2;
          continue;
        }
      } else {
        break;  // cut by the end of the sample
      }
      ++s.units;
      ++s.cls[k_invalid];
      continue;
    }
    if (u >= 0xDC00 && u <= 0xDFFF) {
      ++s.units;
      ++s.cls[k_invalid];
      continue;
    }
    s.add(u);
  }
  return s;
}

wide_stats utf32_stats(const unsigned char* p, std::size_t n, bool be) {
  wide_stats s;
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    char32_t u = be ? (char32_t(p[i]) << 24 | char32_t(p[i + 1]) << 16 | char32_t(p[i + 2]) << 8 | p[i + 3])
                    : (char32_t(p[i + 3]) << 24 | char32_t(p[i + 2]) << 16 | char32_t(p[i + 1]) << 8 | p[i]);
    if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) {
      ++s.units;
      ++s.cls[k_invalid];
    } else {
      s.add(u);
    }
  }
  return s;
}

// How plausible the units are as text: 0 = not text; higher is better. `ascii_mode` asks for
// units < 0x80 (the NUL-byte pattern); otherwise CJK text without any ASCII is judged.
double wide_plausibility(const wide_stats& s) {
  const std::size_t n = s.units;
  if (n < 2) return 0;
  const std::size_t invalid = s.cls[k_invalid], other = s.cls[k_other], pua = s.cls[k_pua];
  const std::size_t ascii = s.cls[k_ascii];
  if (s.zero_low * 4 > n) return 0;
  // 8-bit text read as UTF-16 (or UTF-32) makes its units of two printable ASCII bytes: nearly
  // all of them, where real CJK text has about a quarter (its low bytes are spread over 00..FF).
  if (n - ascii >= 4 && s.printable_pairs * 10 > (n - ascii) * 8) return 0;
  // Coherence: real text uses one or two scripts (plus ASCII/punctuation).
  std::size_t grouped = 0, top1 = 0, top2 = 0;
  for (int g = 1; g < g_count; ++g) {
    std::size_t c = s.group[g];
    grouped += c;
    if (c > top1) {
      top2 = top1;
      top1 = c;
    } else if (c > top2) {
      top2 = c;
    }
  }
  if (grouped && (top1 + top2) * 20 < grouped * 19) return 0;
  if (ascii * 10 >= n) {
    // ASCII units (NUL bytes in the pattern of one byte order): strong evidence. Real text has
    // the odd C1 control or private-use character (mojibake, font hacks); tolerate a few.
    // But NUL bytes at both byte positions (U+xx00 units beside the ASCII ones) are not that
    // pattern: 8-bit text with NUL bytes between its words or fields (C strings, some exports)
    // read as UTF-16 gives as many of one kind as of the other. UTF-16 text has U+xx00 rarely.
    if (s.zero_low * 4 > ascii) return 0;
    if (invalid * 20 > n || other * 10 > n || (invalid + other + pua) * 4 > n) return 0;
    return 1.0 + static_cast<double>(ascii + s.cls[k_letter] + s.cls[k_cjk] + s.cls[k_cjk_mark]) / n;
  }
  // invalid units: none in short samples, under 0.5 % in long ones (stray bytes)
  if (invalid * 200 > n || (n < 200 && invalid)) return 0;
  if ((other + pua) * 20 > n) return 0;
  if (ascii) return 1.0 + static_cast<double>(ascii + s.cls[k_letter] + s.cls[k_cjk] + s.cls[k_cjk_mark]) / n;
  // No ASCII at all: only Chinese/Japanese text is written without spaces; ask for CJK
  // punctuation or kana, which a legacy CJK encoding read as UTF-16 does not produce.
  // Text in a legacy 8-bit encoding read as UTF-16 gives U+20xx units from a space before a
  // letter; CJK text uses only the common dashes, quotes and ellipses of that block.
  // Thai, Lao, Khmer and Burmese are written without spaces too: their units in UTF-16 put a
  // control byte (0E, 17, 10) at every other place, which no 8-bit text does.
  for (int g : {g_thai, g_lao, g_khmer, g_myanmar})
    if (n >= 8 && s.group[g] * 10 >= n * 9 && s.cls[k_letter] * 10 >= n * 9) return static_cast<double>(s.group[g]) / n;
  const std::size_t cjk = s.cls[k_cjk] + s.cls[k_cjk_mark];
  const std::size_t odd_punct = s.cls[k_punct] - s.common_punct;
  if (n < 4 || (cjk + s.common_punct) * 10 < n * 9 || odd_punct * 20 > n || s.cls[k_cjk_mark] == 0 ||
      s.group[g_hangul] * 10 > n)
    return 0;
  return static_cast<double>(cjk) / n;
}

struct wide_guess {
  std::string_view name;  // "" if none
  float confidence = 0;
  bool nul_pattern = false;  // decided with ASCII units (NUL bytes), the strong form
};

wide_guess guess_utf32(const unsigned char* p, std::size_t n) {
  if (n < 8) return {};
  wide_stats le = utf32_stats(p, n, false), be = utf32_stats(p, n, true);
  double sl = wide_plausibility(le), sb = wide_plausibility(be);
  if (sl <= 0 && sb <= 0) return {};
  if (sl >= sb) return {"utf-32le", 0.99f, true};
  return {"utf-32be", 0.99f, true};
}

wide_guess guess_utf16(const unsigned char* p, std::size_t n, bool complete) {
  if (n < 4) return {};
  wide_stats le = utf16_stats(p, n, false), be = utf16_stats(p, n, true);
  double sl = wide_plausibility(le), sb = wide_plausibility(be);
  if (sl <= 0 && sb <= 0) return {};
  bool use_le = sl >= sb;
  double s = use_le ? sl : sb;
  wide_guess g;
  g.name = use_le ? "utf-16le" : "utf-16be";
  g.nul_pattern = s >= 1.0;
  if (!g.nul_pattern && complete && (n & 1)) return {};  // a whole UTF-16 text has even length
  const std::size_t units = (use_le ? le : be).units;
  g.confidence = g.nul_pattern ? (units >= 16 ? 0.98f : 0.9f) : (units >= 16 ? 0.9f : 0.7f);
  return g;
}

// ---------------------------------------------------------------------------------------------
// uchardet, one handle per thread (reset between uses).

struct uchardet_deleter {
  void operator()(uchardet_t u) const { uchardet_delete(u); }
};

std::string run_uchardet(const char* p, std::size_t n) {
  thread_local std::unique_ptr<std::remove_pointer_t<uchardet_t>, uchardet_deleter> handle;
  if (!handle) handle.reset(uchardet_new());
  if (!handle) return {};
  uchardet_reset(handle.get());
  if (uchardet_handle_data(handle.get(), p, n) != 0) return {};
  uchardet_data_end(handle.get());
  const char* c = uchardet_get_charset(handle.get());
  return c ? std::string(c) : std::string();
}

// ---------------------------------------------------------------------------------------------
// How well the sample decodes in an encoding.

struct decode_check {
  std::size_t nonascii = 0;  // non-ASCII input bytes
  std::size_t replaced = 0;  // input bytes that did not decode
  std::size_t c1 = 0;        // C1 controls produced (bytes 0x80..0x9F of ISO-8859 encodings)
  bool ok = false;           // a converter exists
};

decode_check check_decoding(std::string_view sample, const encoding_info& e) {
  decode_check d;
  sample = sample.substr(0, 16 * 1024);  // enough to judge; bounds the cost
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  for (std::size_t i = 0; i < sample.size(); ++i) d.nonascii += p[i] >= 0x80;
  if (const sbcs_table* t = get_sbcs_table(e)) {
    d.ok = true;
    for (std::size_t i = 0; i < sample.size(); ++i) {
      char16_t u = t->map[p[i]];
      if (u == 0xFFFF) ++d.replaced;
      else if (u >= 0x80 && u < 0xA0) ++d.c1;
    }
    return d;
  }
  utf8_converter c;
  if (c.open(e.name) != status::ok) return d;
  std::string out;
  // `last` = false: a sequence cut by the end of the sample is not an error.
  conversion_result r = c.convert(sample, false, out);
  d.ok = r.st == status::ok;
  d.replaced = r.replaced_bytes;
  return d;
}

// True when most ideographs and syllables of the decoding touch a Latin letter ("g象ddi"): single
// 8-bit letters of a Latin text read as a double-byte encoding, not CJK text, which runs its
// characters together.
bool cjk_between_latin(std::string_view sample, const encoding_info& e) {
  utf8_converter c;
  if (c.open(e.name) != status::ok) return false;
  std::string out;
  c.convert(sample.substr(0, 4096), false, out);
  const auto* p = reinterpret_cast<const unsigned char*>(out.data());
  const auto* const end = p + out.size();
  auto latin = [](char32_t u) { return (u | 0x20) >= 'a' && (u | 0x20) <= 'z'; };
  char32_t prev2 = 0, prev = 0;
  std::size_t wide = 0, alone = 0;
  auto step = [&](char32_t u) {
    if (prev >= 0x2E80) {
      ++wide;
      if (latin(prev2) || latin(u)) ++alone;
    }
    prev2 = prev;
    prev = u;
  };
  while (p < end) {
    const detail::utf8_decoded d = detail::decode_utf8_step(p, end);
    step(d.valid ? d.cp : 0xFFFD);
    p += d.len ? d.len : 1;
  }
  step(0);
  return wide > 0 && alone * 2 > wide;
}

bool has_any_byte(std::string_view s, const char* set) {
  return s.find_first_of(set) != std::string_view::npos;
}

// ---------------------------------------------------------------------------------------------
// Single-byte plausibility: does the text decode to words? A byte next to letters should be a
// letter of the same script, case should not flip inside a word, controls and undefined bytes
// should not appear. Used to check uchardet's single-byte answers and, when it has none, to
// choose among the single-byte encodings (DOS, Mac, ... code pages uchardet 0.0.7 lacks).

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

enum char_kind : std::uint8_t { ck_space, ck_upper, ck_lower, ck_letter, ck_mark, ck_digit, ck_symbol, ck_control, ck_undefined };

char_kind kind_of(char16_t u) {
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
bool word_internal(char16_t u) {
  if (u == 0x2019 || u == 0x02BC || u == 0x00B4 || u == 0x00B7 || u == 0x00AD) return true;
  int8_t t = u_charType(u);
  return t == U_DASH_PUNCTUATION || t == U_CONNECTOR_PUNCTUATION;
}

bool is_letterish(char_kind k) { return k == ck_upper || k == ck_lower || k == ck_letter || k == ck_mark; }

UScriptCode script_of(char16_t u) {
  UErrorCode e = U_ZERO_ERROR;
  UScriptCode sc = uscript_getScript(u, &e);
  return U_FAILURE(e) ? USCRIPT_COMMON : sc;
}

sb_plausibility single_byte_plausibility(std::string_view sample, const sbcs_table& t) {
  sb_plausibility r;
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  const std::size_t n = std::min<std::size_t>(sample.size(), 8 * 1024);  // bounds the search cost
  char_kind prev = ck_space;
  UScriptCode prev_script = USCRIPT_COMMON;
  for (std::size_t i = 0; i < n; ++i) {
    char16_t u = t.map[p[i]];
    char_kind k = kind_of(u);
    UScriptCode sc = USCRIPT_COMMON;
    if (p[i] >= 0x80) {
      ++r.nonascii;
      char_kind next = i + 1 < n ? kind_of(t.map[p[i + 1]]) : ck_space;
      if (k == ck_undefined || k == ck_control) {
        r.bad += 2;
      } else if (is_letterish(k)) {
        ++r.letters;
        if (k != ck_mark) {
          sc = script_of(u);
          if (is_letterish(prev) && prev_script != USCRIPT_COMMON && sc != USCRIPT_COMMON &&
              sc != USCRIPT_INHERITED && sc != prev_script)
            ++r.bad;  // two scripts inside one word
          if (k == ck_upper && prev == ck_lower) ++r.bad;  // "wOrd"
          if (k == ck_upper && prev == ck_upper) ++r.caps;  // inside an all-caps word
        }
      } else if (k == ck_symbol && is_letterish(prev) && is_letterish(next) && !word_internal(u)) {
        ++r.bad;  // a symbol between two letters: "k›benhavn"
      }
    } else if (is_letterish(k)) {
      sc = USCRIPT_LATIN;
    }
    if (is_letterish(k) && k != ck_mark) prev_script = sc;
    if (k != ck_mark) prev = k;
  }
  return r;
}

// Single-byte encodings tried when uchardet has no plausible answer, most common first; the
// first of equally good candidates wins.
constexpr std::string_view k_single_byte_candidates[] = {
    "windows-1252", "windows-1250", "windows-1251", "windows-1253", "windows-1254", "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "windows-874", "iso-8859-2", "iso-8859-3",
    "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-10", "iso-8859-13",
    "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u", "ibm866", "macintosh",
    "x-mac-cyrillic", "ibm850", "ibm437", "ibm852", "ibm855", "ibm857", "ibm860", "ibm861", "ibm863",
    "ibm865", "ibm737", "ibm869", "ibm862", "ibm864", "ibm775", "x-mac-ce", "x-mac-greek",
    "x-mac-turkish", "viscii", "georgian-academy", "georgian-ps",
};

struct sb_choice {
  std::string_view name;
  sb_plausibility p;
};

sb_choice best_single_byte(std::string_view sample) {
  sb_choice best;
  double best_score = -1e9;
  for (std::string_view c : k_single_byte_candidates) {
    const encoding_info* e = find_encoding(c);
    const sbcs_table* t = e ? get_sbcs_table(*e) : nullptr;
    if (!t) continue;
    sb_plausibility pl = single_byte_plausibility(sample, *t);
    if (pl.score() > best_score + 1e-9) {
      best_score = pl.score();
      best = {e->name, pl};
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Review of a single-byte answer among the code pages of its script: short texts leave uchardet
// guessing between close code pages (windows-1250 / iso-8859-2, windows-1257 / windows-1252,
// koi8-r / koi8-u, ...). Each candidate decodes the sample; its score is the best, over the
// languages written in legacy code pages, of how likely that language writes the letters the
// decoding gives and the pairs its 8-bit letters form with their neighbours (counted on training
// text by gen_letter_tables.py), plus a prior for the code pages the language's pages on the web
// used, minus what makes poor words (controls, undefined bytes, symbols inside words, case flips,
// two scripts in a word). docs/encoding.md, "Review of close code pages", gives the weights.

struct letter_logp {
  char16_t cp;
  float logp;  // log of the letter's share of the language's letters
};
struct language_letters {
  const char* code;
  const char* pages;  // comma-separated, most used first
  std::uint16_t offset, count;  // slice of k_letter_logp
  std::uint16_t pair_offset, pair_count;  // slice of k_pair_keys and k_pair_pmi
};
#include "letter_tables.inc"

constexpr std::size_t k_languages = std::size(k_language_letters);

// Groups of code pages one text could be read in; the first group a page is in is its group.
constexpr std::string_view k_latin_pages[] = {
    "windows-1252", "iso-8859-15", "windows-1250", "iso-8859-2", "windows-1257", "iso-8859-13",
    "iso-8859-4", "windows-1254", "iso-8859-3", "iso-8859-14", "iso-8859-16", "iso-8859-10",
    "windows-1258", "viscii", "macintosh", "x-mac-ce", "x-mac-turkish", "ibm850", "ibm852",
    "ibm437", "ibm865", "ibm775", "ibm857", "ibm860", "ibm861", "ibm863"};
constexpr std::string_view k_cyrillic_pages[] = {"windows-1251", "koi8-r",         "koi8-u", "iso-8859-5",
                                                 "ibm866",       "x-mac-cyrillic", "ibm855"};
constexpr std::string_view k_greek_pages[] = {"windows-1253", "iso-8859-7", "ibm737", "ibm869", "x-mac-greek"};
constexpr std::string_view k_hebrew_pages[] = {"windows-1255", "iso-8859-8", "iso-8859-8-i", "ibm862"};
constexpr std::string_view k_arabic_pages[] = {"windows-1256", "iso-8859-6", "ibm864"};
constexpr std::span<const std::string_view> k_page_groups[] = {k_latin_pages, k_cyrillic_pages, k_greek_pages,
                                                               k_hebrew_pages, k_arabic_pages};

// Letter log-probabilities of one language, by code point: U+0000..U+06FF and U+1E00..U+1EFF
// (Latin, Greek, Cyrillic, Hebrew, Arabic, combining marks, Vietnamese), in eighths of a nat
// (-128 = not seen: the floor).
constexpr std::size_t k_dense = 0x800;
constexpr float k_floor_logp = -14.0f;
// s and t with comma below are the cedilla letters of the legacy code pages (Romanian)
inline char16_t fold_letter(char16_t u) {
  if (u == 0x0219) return 0x015F;
  if (u == 0x021B) return 0x0163;
  return u;
}
inline std::size_t dense_index(char16_t u) {
  u = fold_letter(u);
  if (u < 0x700) return u;
  if (u >= 0x1E00 && u < 0x1F00) return 0x700 + (u - 0x1E00);
  return k_dense;
}

struct letter_model {
  std::int8_t logp[k_languages][k_dense];
  float lookup(std::size_t lang, char16_t u) const {
    std::size_t i = dense_index(u);
    if (i >= k_dense || logp[lang][i] == -128) return k_floor_logp;
    return logp[lang][i] / 8.0f;
  }
};

const letter_model& get_letter_model() {
  static const letter_model* m = [] {
    auto* lm = new letter_model;
    std::memset(lm->logp, -128, sizeof lm->logp);
    for (std::size_t l = 0; l < k_languages; ++l) {
      const language_letters& ll = k_language_letters[l];
      for (std::size_t k = ll.offset; k < std::size_t(ll.offset) + ll.count; ++k) {
        std::size_t i = dense_index(k_letter_logp[k].cp);
        if (i < k_dense) lm->logp[l][i] = static_cast<std::int8_t>(std::max(-127.0f, std::round(k_letter_logp[k].logp * 8)));
      }
    }
    return lm;
  }();
  return *m;
}

// How much more often the language writes x next to y than chance would (pointwise mutual
// information, nats); a pair it never writes (or once) scores k_unseen_pair.
constexpr float k_unseen_pair = -3.0f;
float pair_pmi(std::size_t l, char16_t x, char16_t y) {
  const language_letters& ll = k_language_letters[l];
  const std::uint32_t* first = k_pair_keys + ll.pair_offset;
  const std::uint32_t* last = first + ll.pair_count;
  const std::uint32_t key = static_cast<std::uint32_t>(x) << 16 | y;
  const std::uint32_t* it = std::lower_bound(first, last, key);
  if (it == last || *it != key) return k_unseen_pair;
  return k_pair_pmi[it - k_pair_keys] / 8.0f;
}

// What a code page makes of each byte, computed once per page.
struct page_chars {
  const encoding_info* info = nullptr;
  char16_t lower[256];
  char_kind kind[256];
  UScriptCode script[256];
  bool symbol[256];  // a math, currency, modifier or other symbol, or a number other than a digit
  bool text_punct[256];  // typographic punctuation of running text: U+2010..U+2026, « », ¡ ¿, NBSP
};

constexpr float k_unlisted_prior = -6.0f;

// The prior of page `name` for language l: 0 for its most used page, -1 for the next, ...; -6
// for a page its web pages did not use.
float page_prior(std::size_t l, std::string_view name) {
  std::string_view pages = k_language_letters[l].pages;
  float prior = 0;
  while (!pages.empty()) {
    std::size_t comma = pages.find(',');
    if (pages.substr(0, comma) == name) return prior;
    prior -= 1.0f;
    if (comma == std::string_view::npos) break;
    pages.remove_prefix(comma + 1);
  }
  return k_unlisted_prior;
}

struct page_group_data {
  std::vector<page_chars> pages;
  std::vector<std::vector<float>> prior;  // [page][language]
  // [page]: a page some language's web used, reading 7-bit bytes as ASCII: one the review may
  // choose (the others are only kept when uchardet answers them)
  std::vector<char> choosable;
};

const page_group_data& group_data(std::size_t g) {
  static std::once_flag once[std::size(k_page_groups)];
  // Never destroyed (detail::immortal): threads may still detect encodings while the process exits.
  static detail::immortal<std::array<page_group_data, std::size(k_page_groups)>> all;
  auto& data = all.get();
  std::call_once(once[g], [g, &data] {
    for (std::string_view name : k_page_groups[g]) {
      const encoding_info* e = find_encoding(name);
      const sbcs_table* t = e ? get_sbcs_table(*e) : nullptr;
      if (!t) continue;
      page_chars pc;
      pc.info = e;
      for (int b = 0; b < 256; ++b) {
        char16_t u = t->map[b];
        pc.kind[b] = kind_of(u);
        pc.lower[b] = is_letterish(pc.kind[b]) ? static_cast<char16_t>(u_tolower(u)) : u;
        pc.script[b] = is_letterish(pc.kind[b]) && pc.kind[b] != ck_mark ? script_of(u) : USCRIPT_COMMON;
        const std::int8_t type = static_cast<std::int8_t>(u_charType(u));
        pc.symbol[b] = type == U_MATH_SYMBOL || type == U_CURRENCY_SYMBOL || type == U_MODIFIER_SYMBOL ||
                       type == U_OTHER_SYMBOL || type == U_OTHER_NUMBER;
        pc.text_punct[b] = (u >= 0x2010 && u <= 0x2026) || u == 0xAB || u == 0xBB || u == 0xA1 || u == 0xBF || u == 0xA0;
      }
      std::vector<float> prior(k_languages);
      bool used = false;
      for (std::size_t l = 0; l < k_languages; ++l) {
        prior[l] = page_prior(l, e->name);
        used |= prior[l] > k_unlisted_prior;
      }
      data[g].choosable.push_back(used && t->ascii_identity);
      data[g].pages.push_back(pc);
      data[g].prior.push_back(std::move(prior));
    }
  });
  return data[g];
}

// The group of a page and its index there; false if it is in none.
bool find_in_groups(std::string_view name, std::size_t& g, std::size_t& i) {
  for (g = 0; g < std::size(k_page_groups); ++g) {
    const page_group_data& d = group_data(g);
    for (i = 0; i < d.pages.size(); ++i)
      if (d.pages[i].info->name == name) return true;
  }
  return false;
}

// ASCII letters count half: they choose the language, and on short texts full of names they
// would outweigh the 8-bit letters that tell the code pages apart
constexpr float k_ascii_weight = 0.75f;
constexpr float k_letter_bonus = 10.0f;  // a letter of share e^-10 (0.005 %) scores 0
constexpr float k_bad_weight = 5.0f;    // per implausibility (a symbol inside a word, "wOrd")
constexpr float k_undefined_weight = 10.0f;  // per control or undefined byte
constexpr float k_punct_bonus = 3.0f;
constexpr float k_pair_weight = 1.0f;       // per pair an 8-bit letter forms (two per letter)
constexpr std::size_t k_pair_positions = 64;  // 8-bit bytes whose pairs are scored
constexpr float k_pair_reach = 40.0f;
constexpr float k_max_letter_logp = 0.0f;  // a bound: no letter's log share exceeds 0 (priors are <= 0 too)  // readings this far behind on letters are not paired  // per typographic punctuation mark (as a letter of share e^-7)

// The sample's bytes as the review reads them: a histogram and where the 8-bit bytes are.
struct review_sample {
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  std::size_t hist[256] = {};
  std::vector<std::uint32_t> high;  // positions of bytes >= 0x80 (the first 2,048)
  std::vector<std::uint8_t> present;  // the distinct bytes >= 0x80
  std::vector<std::size_t> by_ascii;  // languages, best ASCII letter score first
};

// A page's reading of the sample, letter by letter: its two best languages.
struct page_reading {
  float bad = 0;                       // implausibilities (controls, symbols inside words, ...)
  float top[2] = {-1e30f, -1e30f};     // ASCII letters + 8-bit letters + prior, of...
  std::size_t top_lang[2] = {0, 0};    // ...these two languages
  float letters_score() const { return top[0] - bad; }
};

page_reading read_letters(const review_sample& s, const page_chars& pc, const std::vector<float>& prior,
                          const std::vector<float>& ascii_score, const letter_model& lm) {
  page_reading r;
  // implausibilities around the 8-bit bytes
  float& bad = r.bad;
  auto kind_at = [&](std::size_t i) -> char_kind { return i < s.n ? pc.kind[s.p[i]] : ck_space; };
  for (std::uint32_t i : s.high) {
    const unsigned char b = s.p[i];
    const char_kind k = pc.kind[b];
    const char_kind prev = i ? kind_at(i - 1) : ck_space;
    if (k == ck_undefined || k == ck_control) {
      bad += k_undefined_weight;
    } else if (is_letterish(k)) {
      if (k == ck_upper && prev == ck_lower) bad += k_bad_weight;
      if (k != ck_mark && i && is_letterish(prev) && prev != ck_mark) {
        UScriptCode ps = s.p[i - 1] < 0x80 ? USCRIPT_LATIN : pc.script[s.p[i - 1]];
        UScriptCode sc = pc.script[b];
        if (ps != USCRIPT_COMMON && sc != USCRIPT_COMMON && ps != sc) bad += k_bad_weight;
      }
    } else if (pc.text_punct[b] && !(is_letterish(prev) && is_letterish(kind_at(i + 1)) && !word_internal(pc.lower[b]))) {
      bad -= k_punct_bonus;  // quotes, dashes, an ellipsis, a no-break space: common in text
    } else if (k == ck_symbol && (is_letterish(prev) || is_letterish(kind_at(i + 1)))) {
      // a symbol or a fraction against a letter ("½ufs", "k›benhavn"); punctuation only inside a
      // word (quotes and brackets stand against letters)
      if (pc.symbol[b] || (is_letterish(prev) && is_letterish(kind_at(i + 1)) && !word_internal(pc.lower[b])))
        bad += k_bad_weight;
    }
  }
  // letters one by one: the two best languages
  std::uint8_t letters[128];  // the 8-bit bytes of the sample that this page reads as letters
  std::size_t n_letters = 0;
  for (std::uint8_t b : s.present)
    if (is_letterish(pc.kind[b])) letters[n_letters++] = b;
  float* top = r.top;
  std::size_t* top_lang = r.top_lang;
  std::size_t letter_bytes = 0;
  for (std::size_t j = 0; j < n_letters; ++j) letter_bytes += s.hist[letters[j]];
  // languages by their ASCII letters, best first: once a language cannot reach the second best
  // even if every 8-bit letter were its commonest, neither can the rest
  const float most = static_cast<float>(letter_bytes) * (k_letter_bonus + k_max_letter_logp);
  for (std::size_t l : s.by_ascii) {
    if (ascii_score[l] + most < top[1]) break;
    float v = ascii_score[l] + prior[l];
    for (std::size_t j = 0; j < n_letters; ++j)
      v += s.hist[letters[j]] * (lm.lookup(l, pc.lower[letters[j]]) + k_letter_bonus);
    if (v > top[0]) {
      top[1] = top[0], top_lang[1] = top_lang[0];
      top[0] = v, top_lang[0] = l;
    } else if (v > top[1]) {
      top[1] = v, top_lang[1] = l;
    }
  }
  return r;
}

// The reading's score with the pairs its 8-bit letters form with their neighbours, for its two
// best languages; `listed`: the page is one that the best of them used on the web.
float score_pairs(const review_sample& s, const page_chars& pc, const std::vector<float>& prior,
                  const page_reading& r, bool& listed) {
  auto stream_char = [&](std::size_t i) -> char16_t {  // 0: a combining mark (no pair)
    if (i >= s.n) return u' ';
    const unsigned char c = s.p[i];
    if (c < 0x80) return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? static_cast<char16_t>(c | 0x20) : u' ';
    const char_kind k = pc.kind[c];
    if (k == ck_mark) return 0;
    return is_letterish(k) ? fold_letter(pc.lower[c]) : u' ';
  };
  float best = -1e30f;
  for (int t = 0; t < 2; ++t) {
    const std::size_t l = r.top_lang[t];
    float v = r.top[t];
    std::size_t scored = 0;
    for (std::uint32_t i : s.high) {
      if (++scored > k_pair_positions) break;
      const char16_t c = stream_char(i);
      if (c == 0 || c == u' ') continue;
      const char16_t prev = i ? stream_char(i - 1) : u' ';
      const char16_t next = stream_char(i + 1);
      if (prev) v += k_pair_weight * pair_pmi(l, prev, c);
      if (next) v += k_pair_weight * pair_pmi(l, c, next);
    }
    if (v > best) {
      best = v;
      listed = prior[l] > k_unlisted_prior;
    }
  }
  return best - r.bad;
}

bool decode_same(const review_sample& s, const page_chars& a, const page_chars& b) {
  const sbcs_table* ta = get_sbcs_table(*a.info);
  const sbcs_table* tb = get_sbcs_table(*b.info);
  for (std::uint8_t x : s.present)
    if (ta->map[x] != tb->map[x]) return false;
  return true;
}

// The page of `name`'s group that reads the sample best, or `name` when none does clearly better.
// An alternative that decodes the sample identically only needs to be preferred (the prior of
// the language's web pages); one that decodes it differently must score `k_review_margin` more.
constexpr float k_review_margin = 1.0f;
constexpr float k_same_margin = 1.5f;
constexpr float k_listed_margin = 3.0f;

std::string_view review_single_byte(std::string_view sample, std::string_view name, bool all_groups) {
  std::size_t g, cur;
  if (!find_in_groups(name, g, cur)) return name;
  // the candidates: the pages of name's group, or of every group
  std::vector<const page_chars*> pages;
  std::vector<const std::vector<float>*> priors;
  for (std::size_t k = 0; k < std::size(k_page_groups); ++k) {
    if (!all_groups && k != g) continue;
    const page_group_data& d = group_data(k);
    for (std::size_t i = 0; i < d.pages.size(); ++i) {
      if (k == g && i == cur) {
        cur = pages.size();
      } else if (!d.choosable[i]) {
        continue;
      }
      pages.push_back(&d.pages[i]);
      priors.push_back(&d.prior[i]);
    }
  }
  review_sample s;
  s.p = reinterpret_cast<const unsigned char*>(sample.data());
  s.n = std::min<std::size_t>(sample.size(), 16 * 1024);
  // Letters inside markup (<html>, <p class=...>) say nothing of the text's language: the
  // histogram skips tags.
  for (std::size_t i = 0; i < s.n; ++i) {
    if (s.p[i] == '<' && i + 1 < s.n && (s.p[i + 1] == '/' || s.p[i + 1] == '!' || (s.p[i + 1] | 0x20) >= 'a')) {
      const void* end = std::memchr(s.p + i, '>', s.n - i);
      if (end) {
        i = static_cast<std::size_t>(static_cast<const unsigned char*>(end) - s.p);
        continue;
      }
    }
    ++s.hist[s.p[i]];
    if (s.p[i] >= 0x80 && s.high.size() < 2048) s.high.push_back(static_cast<std::uint32_t>(i));
  }
  if (s.high.empty()) return name;
  for (int b = 0x80; b < 0x100; ++b)
    if (s.hist[b]) s.present.push_back(static_cast<std::uint8_t>(b));
  const letter_model& lm = get_letter_model();
  std::vector<float> ascii_score(k_languages, 0.0f);
  for (std::size_t l = 0; l < k_languages; ++l)
    for (int b = 'A'; b <= 'z'; ++b)
      if (s.hist[b] && ((b >= 'A' && b <= 'Z') || b >= 'a'))
        ascii_score[l] += s.hist[b] * (lm.lookup(l, static_cast<char16_t>(b | 0x20)) + k_letter_bonus);
  for (float& a : ascii_score) a *= k_ascii_weight;
  s.by_ascii.resize(k_languages);
  for (std::size_t l = 0; l < k_languages; ++l) s.by_ascii[l] = l;
  std::stable_sort(s.by_ascii.begin(), s.by_ascii.end(),
                   [&](std::size_t a, std::size_t b) { return ascii_score[a] > ascii_score[b]; });
  std::vector<page_reading> readings(pages.size());
  float best_letters = -1e30f;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    readings[i] = read_letters(s, *pages[i], *priors[i], ascii_score, lm);
    best_letters = std::max(best_letters, readings[i].letters_score());
  }
  // Pairs only for the readings within reach of the best one on letters alone (a long text in
  // one script leaves one); the others are out.
  std::size_t in_reach = 0;
  for (const page_reading& r : readings) in_reach += r.letters_score() >= best_letters - k_pair_reach;
  std::vector<float> score(pages.size(), -1e30f);
  std::vector<char> listed(pages.size(), 0);
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const page_reading& r = readings[i];
    if (r.letters_score() < best_letters - k_pair_reach) continue;
    bool l = false;
    if (in_reach > 1) {
      score[i] = score_pairs(s, *pages[i], *priors[i], r, l);
    } else {
      score[i] = r.letters_score();
      l = (*priors[i])[r.top_lang[0]] > k_unlisted_prior;
    }
    listed[i] = l;
  }
  const bool cur_listed = listed[cur];
  // uchardet's answer is a page its best language's web pages used: overriding it takes more
  const float margin = cur_listed ? k_listed_margin : k_review_margin;
  std::size_t best = cur;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    // Only to a page that the best language of its reading used on the web (the candidates are
    // pages some language used, reading 7-bit bytes as ASCII: not VISCII, which only uchardet
    // may answer).
    if (i == cur || score[i] <= score[best] || !listed[i]) continue;
    const bool same = decode_same(s, *pages[i], *pages[cur]);
    if (score[i] > score[cur] + (same ? k_same_margin : margin)) best = i;
  }
  return pages[best]->info->name;
}

// ---------------------------------------------------------------------------------------------

struct sample_facts {
  std::string_view sample;  // the examined prefix
  bool complete = false;    // the sample is the whole input
  utf8_stats utf8;
  bool has_nul = false;
  bool computed_wide = false;
  wide_guess wide;

  const wide_guess& wide_guess_() {
    if (!computed_wide) {
      computed_wide = true;
      // 4 KB of code units decide; more only costs time.
      const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
      const std::size_t m = std::min<std::size_t>(sample.size(), 4096);
      wide = guess_utf32(p, m);
      if (wide.name.empty()) wide = guess_utf16(p, m, complete && m == sample.size());
    }
    return wide;
  }
  bool utf8_valid_multibyte() const { return utf8.invalid == 0 && utf8.multibyte > 0; }
  bool ascii_only() const { return utf8.nonascii_bytes == 0; }
};

// More than a quarter of the first 64 bytes are C0 controls other than whitespace and ESC (UTF-16
// has them from its first unit on; a short look keeps 7-bit input fast).
bool mostly_controls(std::string_view sample) {
  const std::size_t n = std::min<std::size_t>(sample.size(), 64);
  std::size_t c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(sample[i]);
    c += b < 0x20 && (b < 0x09 || b > 0x0D) && b != 0x1B;
  }
  return n >= 8 && c * 4 > n;
}

float utf8_confidence(const utf8_stats& s) {
  if (s.multibyte >= 3) return 0.999f;
  if (s.multibyte == 2) return 0.99f;
  return 0.9f;
}

// True when the sample cannot be in the declared encoding (or very likely is not).
bool declared_impossible(const encoding_info& e, sample_facts& f) {
  if (f.sample.empty()) return false;
  switch (e.fam) {
    case family::unicode8:
      if (f.utf8.invalid == 0) return false;
      // A few stray bytes in a UTF-8 page are common; many mean another encoding.
      return f.utf8.invalid * 10 > f.utf8.multibyte;
    case family::unicode16:
    case family::unicode32: {
      // Declared UTF-16 but the bytes are 7-bit without NUL bytes: no UTF-16 text looks so.
      if (f.ascii_only() && !f.has_nul && f.sample.size() >= 16) return true;
      const wide_guess& w = f.wide_guess_();
      if (!w.name.empty() && w.name != e.name && w.nul_pattern) return true;  // other byte order
      if (f.utf8_valid_multibyte() && !f.has_nul) return true;
      return false;
    }
    case family::iso2022:
      // 7-bit encodings: any byte ≥ 0x80 is impossible.
      return !f.ascii_only();
    case family::single_byte: {
      if (f.ascii_only() && !f.has_nul) return false;
      if (f.utf8_valid_multibyte()) return true;  // valid multi-byte UTF-8 is not Latin-1 text
      if (f.has_nul && f.wide_guess_().nul_pattern) return true;
      decode_check d = check_decoding(f.sample, e);
      return d.ok && d.replaced * 8 > d.nonascii && d.replaced >= 2;
    }
    case family::cjk: {
      if (f.ascii_only() && !f.has_nul) return false;
      if (f.utf8_valid_multibyte() && f.utf8.multibyte >= 2) return true;
      if (f.has_nul && f.wide_guess_().nul_pattern) return true;
      decode_check d = check_decoding(f.sample, e);
      if (!d.ok) return false;
      return d.replaced * 20 > d.nonascii && d.replaced >= 2;
    }
    case family::other: return false;
  }
  return false;
}

// Preference between encodings that decode the sample identically: the more common one.
std::string_view prefer_equivalent(std::string_view name, std::string_view sample) {
  // ISO-8859-15 differs from windows-1252 at 8 bytes in A0..FF (and 80..9F are C1 controls).
  if (name == "iso-8859-15" && !has_any_byte(sample, "\xA4\xA6\xA8\xB4\xB8\xBC\xBD\xBE")) return "windows-1252";
  return name;
}

// The byte order mark at the start of p[0..n) and its length, or 0. FF FE 00 00 is UTF-32LE
// unless what follows is not UTF-32.
std::size_t byte_order_mark(const unsigned char* p, std::size_t n, std::string_view& name) {
  if (n >= 4 && p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0 &&
      (n == 4 || (n % 4 == 0 && utf32_stats(p + 4, std::min<std::size_t>(n - 4, 4096), false).cls[k_invalid] == 0))) {
    name = "utf-32le";
    return 4;
  }
  if (n >= 4 && p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF) {
    name = "utf-32be";
    return 4;
  }
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
    name = "utf-8";
    return 3;
  }
  if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
    name = "utf-16le";
    return 2;
  }
  if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF) {
    name = "utf-16be";
    return 2;
  }
  return 0;
}

// The result for a declared encoding that the sample does not contradict.
encoding_result& finish_declared(encoding_result& r, const encoding_info& e, encoding_source src,
                                 const sample_facts& f) {
  r.source = src;
  // "ascii" labels decode as windows-1252; name the bytes for what they are.
  r.name = (e.kind == codec::ascii && !f.ascii_only()) ? std::string_view("windows-1252") : e.name;
  if (f.ascii_only() && !f.has_nul && e.fam != family::unicode16 && e.fam != family::unicode32)
    r.confidence = 0.95f;  // any ASCII-compatible label reads 7-bit bytes the same way
  else if (e.fam == family::unicode8 && f.utf8.invalid == 0)
    r.confidence = 1.0f;
  else if (e.fam == family::cjk || e.fam == family::unicode8)
    r.confidence = 0.95f;  // decoded (nearly) cleanly
  else
    r.confidence = 0.9f;  // single-byte: bytes cannot confirm, declarations are usually right
  return r;
}

// Whether uchardet's answer d is plausible for the sample; sets the name to report (d's, or an
// equivalent or clearly better single-byte encoding) and its confidence.
bool check_detector_answer(const encoding_info& d, const sample_facts& f, std::string_view& name, float& conf) {
  name = d.name;
  conf = 0.5f;
  switch (d.fam) {
    case family::unicode8: return f.utf8.multibyte >= 2 * f.utf8.invalid && f.utf8.multibyte > 0;
    case family::unicode16:
    case family::unicode32: return false;  // no BOM and our own check said no
    case family::iso2022: conf = 0.9f; return f.ascii_only();
    case family::cjk: {
      decode_check c = check_decoding(f.sample, d);
      conf = c.nonascii >= 20 ? 0.8f : 0.6f;
      if (c.ok && c.nonascii < 256 && cjk_between_latin(f.sample, d)) return false;
      return !c.ok || c.replaced * 50 <= c.nonascii;
    }
    case family::single_byte: {
      if (d.kind == codec::ascii) return f.ascii_only();
      decode_check c = check_decoding(f.sample, d);
      conf = c.nonascii >= 20 ? 0.6f : 0.4f;
      name = prefer_equivalent(name, f.sample);
      if (const sbcs_table* t = get_sbcs_table(d)) {
        sb_plausibility mine = single_byte_plausibility(f.sample, *t);
        if (mine.bad_fraction() > 0.1) {
          // uchardet's answer makes poor words; take a clearly better single-byte encoding
          sb_choice b = best_single_byte(f.sample);
          if (!b.name.empty() && b.p.bad_fraction() <= 0.05 && b.p.score() > mine.score() + 0.2) {
            name = b.name;
            conf = 0.4f;
          }
        }
      }
      name = review_single_byte(f.sample, name, name != d.name);
      return !c.ok || c.replaced * 100 <= c.nonascii;
    }
    case family::other: break;
  }
  return true;
}

// Steps 2 and 3 of detect_encoding: the Content-Type charset (`http`, its encoding if known),
// then the <meta> / XML declaration prescan (if options.prescan_meta). Records the label in
// r.declared if none is yet, and r.declared_overridden when the bytes rule a label out. Returns
// true, with r finished, if a declared encoding is taken.
bool declared_encoding(std::string_view bytes, const encoding_options& options, const encoding_info* http,
                       sample_facts& f, encoding_result& r) {
  if (!r.declared.empty()) {
    if (http && !declared_impossible(*http, f)) {
      finish_declared(r, *http, encoding_source::http, f);
      return true;
    }
    r.declared_overridden = true;
  }
  if (options.prescan_meta) {
    prescan_result m = prescan(bytes);
    if (!m.encoding.empty()) {
      if (r.declared.empty()) r.declared = m.label;
      const encoding_info* e = find_encoding(m.encoding);
      if (e && !declared_impossible(*e, f)) {
        finish_declared(r, *e, encoding_source::meta, f);
        return true;
      }
      r.declared_overridden = true;
    } else if (!m.unknown_label.empty()) {
      if (r.declared.empty()) r.declared = m.unknown_label;
      r.declared_overridden = true;
    }
  }
  return false;
}

// Step 4 of detect_encoding, structure: UTF-32/UTF-16 without BOM, then UTF-8 and ASCII. Sets
// r's name and confidence and returns true if the structure decides.
bool structural_guess(sample_facts& f, encoding_result& r) {
  // (Valid multi-byte UTF-8 without NUL bytes is never UTF-16 text: skip the UTF-16 analysis.
  // 7-bit bytes are text unless a quarter of them are controls other than whitespace and ESC:
  // Thai or Lao in UTF-16 without spaces.)
  if (f.has_nul || (!f.ascii_only() && !f.utf8_valid_multibyte()) || (f.ascii_only() && mostly_controls(f.sample))) {
    const wide_guess& w = f.wide_guess_();
    if (!w.name.empty() && (w.nul_pattern || !f.utf8_valid_multibyte())) {
      r.name = w.name;
      r.confidence = w.confidence;
      return true;
    }
  }
  if (f.utf8_valid_multibyte()) {
    r.name = "utf-8";
    r.confidence = utf8_confidence(f.utf8);
    return true;
  }
  bool maybe_7bit_cjk = f.ascii_only() && (std::memchr(f.sample.data(), 0x1B, f.sample.size()) ||
                                           f.sample.find("~{") != std::string_view::npos);
  if (f.ascii_only() && !maybe_7bit_cjk) {
    r.name = "ascii";
    r.confidence = f.complete ? 1.0f : 0.6f;
    return true;
  }
  if (f.utf8.multibyte >= 8 && f.utf8.invalid * 20 <= f.utf8.multibyte) {
    r.name = "utf-8";  // UTF-8 with a few stray bytes
    r.confidence = 0.8f;
    return true;
  }
  return false;
}

// Steps 5 and 6 of detect_encoding: uchardet's answer (recorded in r.detector_answer) if the
// bytes make it plausible; else ASCII for 7-bit bytes; else the single-byte encoding that makes
// the best words, if it makes good ones. Sets r's name and confidence and returns true if one
// of them decides.
bool content_guess(const sample_facts& f, std::string_view fallback, encoding_result& r) {
  // 5. uchardet, checked against the bytes.
  r.detector_answer = run_uchardet(f.sample.data(), f.sample.size());
  const encoding_info* d = find_encoding(r.detector_answer);
  std::string_view name;
  float conf;
  if (d && check_detector_answer(*d, f, name, conf)) {
    r.name = name;
    r.confidence = conf;
    return true;
  }
  if (f.ascii_only()) {
    r.name = "ascii";
    r.confidence = f.complete ? 1.0f : 0.6f;
    return true;
  }
  // 6. No plausible answer from uchardet: the single-byte encoding that makes the best words.
  if (!f.has_nul) {
    sb_choice b = best_single_byte(f.sample);
    if (!b.name.empty() && b.p.nonascii >= 8 && b.p.bad_fraction() <= 0.05 && b.p.score() >= 0.5) {
      r.name = review_single_byte(f.sample, b.name, true);
      r.confidence = 0.3f;
      return true;
    }
    // Too few 8-bit bytes to make words of (a short text): a page whose letters and pairs a
    // language writes clearly better than the fallback's reading (when that is windows-1252).
    std::string_view fb = canonical_encoding_name(fallback);
    if (fb.empty() || fb == "windows-1252") {
      std::string_view reviewed = review_single_byte(f.sample, "windows-1252", true);
      if (reviewed != "windows-1252") {
        r.name = reviewed;
        r.confidence = 0.2f;
        return true;
      }
    }
  }
  return false;
}

}  // namespace
}  // namespace detail

using namespace detail;

encoding_result detect_encoding(std::string_view bytes, const encoding_options& options) {
  encoding_result r;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();

  // 0. The declared labels (kept even when a BOM decides).
  std::string_view http_label = content_type_charset(options.content_type);
  const encoding_info* http = http_label.empty() ? nullptr : find_encoding(http_label);
  if (!http_label.empty()) r.declared.assign(http_label.data(), http_label.size());

  // 1. Byte order mark.
  std::string_view bom_name;
  if (const std::size_t bom = byte_order_mark(p, n, bom_name)) {
    r.name = bom_name;
    r.source = encoding_source::bom;
    r.confidence = 1.0f;
    r.bom_bytes = bom;
    r.declared_overridden = !r.declared.empty() && (!http || http->name != bom_name);
    return r;
  }

  const std::size_t cap = options.max_detect_bytes ? options.max_detect_bytes : n;
  sample_facts f;
  f.sample = bytes.substr(0, std::min(n, cap));
  f.complete = f.sample.size() == n;
  f.utf8 = scan_utf8(p, f.sample.size());
  f.has_nul = !f.sample.empty() && std::memchr(f.sample.data(), 0, f.sample.size()) != nullptr;
  r.examined_bytes = f.sample.size();

  if (n == 0) {
    std::string_view fb = canonical_encoding_name(options.fallback);
    if (http) return finish_declared(r, *http, encoding_source::http, f);
    r.name = fb.empty() ? std::string_view("windows-1252") : fb;
    r.source = encoding_source::fallback;
    r.confidence = 0.0f;
    r.declared_overridden = !r.declared.empty();
    return r;
  }

  // 2. Content-Type charset; 3. <meta> / XML declaration prescan.
  if (declared_encoding(bytes, options, http, f, r)) return r;
  // 4. Structure; 5. uchardet, checked against the bytes; 6. the best single-byte encoding.
  r.source = encoding_source::detected;
  if (structural_guess(f, r) || content_guess(f, options.fallback, r)) return r;
  // 7. Fallback.
  std::string_view fb = canonical_encoding_name(options.fallback);
  r.name = fb.empty() ? std::string_view("windows-1252") : fb;
  r.source = encoding_source::fallback;
  r.confidence = 0.1f;
  return r;
}

encoding_result detect_encoding(const char* data, std::size_t len, const encoding_options& options) {
  if (!data) len = 0;
  return detect_encoding(std::string_view(data ? data : "", len), options);
}

decoded_text decode_to_utf8(std::string_view bytes, const encoding_options& options) {
  decoded_text d;
  d.encoding = detect_encoding(bytes, options);
  if (bytes.empty()) {
    d.conversion.st = status::empty_input;
    return d;
  }
  std::string_view body = bytes.substr(std::min(d.encoding.bom_bytes, bytes.size()));
  d.text.reserve(body.size() + body.size() / 8 + 16);
  d.conversion = convert_to_utf8(body, d.encoding.name, d.text);
  if (d.conversion.st == status::unknown_encoding) {
    std::string_view fb = canonical_encoding_name(options.fallback);
    if (fb.empty() || !can_convert(fb)) fb = "windows-1252";
    d.text.clear();
    conversion_result c = convert_to_utf8(body, fb, d.text);
    d.conversion.input_bytes = c.input_bytes;
    d.conversion.output_bytes = c.output_bytes;
    d.conversion.replaced_bytes = c.replaced_bytes;
  }
  if (d.conversion.st == status::out_of_memory) throw std::bad_alloc();
  return d;
}

std::string uchardet_charset(std::string_view bytes) { return run_uchardet(bytes.data(), bytes.size()); }

decoded_text decode_to_utf8(const char* data, std::size_t len, const encoding_options& options) {
  if (!data) len = 0;
  return decode_to_utf8(std::string_view(data ? data : "", len), options);
}

}  // namespace v1
}  // namespace langsift
