// UTF-16 / UTF-32 without BOM: classify code units and judge whether the text is plausible.
#include <cstddef>
#include <cstdint>

#include "detect_parts.hpp"
#include "internal.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

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

}  // namespace

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

bool utf32_valid(const unsigned char* p, std::size_t n, bool be) {
  return utf32_stats(p, n, be).cls[k_invalid] == 0;
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
