// langsift — the script prefilter: UTF-8 text in, runs of one writing system out (Spinn3r's and
// CLD2's first step). A run written in a script that only one language uses decides its language
// at once (script_language); the other runs go to the n-gram classifier, restricted to the
// languages written in the run's script. Header-only, no ICU; part of langsift::core.
// See docs/script.md for the rules and their reasons.
//
//   std::vector<langsift::script_run> runs;
//   langsift::split_script_runs("Hello, мир! 日本語のテキスト", runs);
//   // runs[0] = {0, 6, latin, 5}          "Hello,"
//   // runs[1] = {7, 14, cyrillic, 3}      "мир!"
//   // runs[2] = {15, 39, japanese, 8}     "日本語のテキスト"  (Han + kana = one Jpan run)
//   langsift::script_language(runs[2].sc) == "ja"; script_language(script::latin) == ""
//
// The rules of split_script_runs (one forward pass, O(1) state besides `out`):
//  1. Voters. A letter or mark (char_class letter/mark) of a real script votes for that script.
//     Common and Unknown characters (punctuation, digits, spaces, symbols, emoji, U+FFFD, and the
//     few Common letters such as U+30FC "ー") never vote, nor do digits or punctuation of a real
//     script. An Inherited character (combining accents, ZWJ/ZWNJ, variation selectors) votes
//     with the letter it follows, and is a non-voter after anything else.
//  2. CJK. Hiragana and Katakana vote "kana", Hangul "hangul", Han and Bopomofo "han". Han joins a
//     kana run or a Hangul run next to it (only non-voters between), kana and Hangul never join.
//     When the run closes, a run with kana is `japanese` (Jpan) if kana letters are at least 1/16
//     of its Han + kana letters, else `han`; a run with Hangul is `korean` (Kore) on the same
//     1/16 rule, else `han`; a run of Han (and Bopomofo) alone is `han`. (The 1/16 keeps Chinese
//     text with a stray "の" Chinese; Japanese prose has 30-60 % kana.) Runs are therefore never
//     hiragana, katakana, hangul or bopomofo.
//  3. Non-voters between two voters of the same (or joining) script stay inside the run. Between
//     runs of different scripts the boundary is at the whitespace: the earlier run keeps the
//     non-voters up to the first whitespace character, the later run starts after the last one;
//     what lies between belongs to neither. With no whitespace between them, the earlier run
//     keeps all (so "Hello,мир" is "Hello," + "мир"). Text before the first run and after the
//     last is treated the same way (so "123 Hello 456" is the run "Hello", "«Hello»" is whole).
//     Consequently no run begins or ends with whitespace, and runs are ordered, disjoint, lie on
//     code-point boundaries, and cover every voter.
//  4. Every run has at least one voter, so there are no letterless runs to drop or merge: text
//     without letters (emoji, digits, punctuation, whitespace, invalid bytes) gives no runs.
//     Neighbouring runs differ in script (two CJK runs that both fall back to han are joined).
//  5. `letters` counts the letter and mark code points inside the run's byte range (voters,
//     attached Inherited marks, and Common letters such as "ー" that fall inside it).
//  Invalid UTF-8 decodes as U+FFFD per maximal subpart (decode_utf8): a Common non-voter.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/unicode.hpp"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace langsift {
inline namespace v1 {

/// A stretch of text in one writing system: bytes [begin, end) of the input.
struct script_run {
  std::size_t begin = 0, end = 0;
  script sc = script::common;  ///< never common/inherited/unknown/hiragana/katakana/hangul/bopomofo
  std::size_t letters = 0;     ///< letter + mark code points in [begin, end)
  friend bool operator==(const script_run&, const script_run&) = default;
};

/// The script a run of text in script `s` is reported as (rule 2 above, without the 1/16 test):
/// hiragana, katakana -> japanese; hangul -> korean; bopomofo -> han; any other -> itself.
constexpr script run_script(script s) noexcept {
  switch (s) {
    case script::hiragana: case script::katakana: return script::japanese;
    case script::hangul: return script::korean;
    case script::bopomofo: return script::han;
    default: return s;
  }
}

/// True for the scripts that carry letters (every script but common, inherited and unknown).
constexpr bool is_real_script(script s) noexcept {
  return s != script::common && s != script::inherited && s != script::unknown &&
         static_cast<std::size_t>(s) < script_count;
}

namespace detail {

// Vote groups: a real script's index, or one of these for the CJK scripts.
enum : std::uint16_t {
  vote_none = 0xFFFF,
  vote_han = 0x100,
  vote_kana = 0x101,
  vote_hangul = 0x102,
};

constexpr std::uint16_t vote_of(script s) noexcept {
  switch (s) {
    case script::han: case script::bopomofo: return vote_han;
    case script::hiragana: case script::katakana: return vote_kana;
    case script::hangul: return vote_hangul;
    default: return static_cast<std::uint16_t>(s);
  }
}

constexpr bool is_letter_or_mark(char_class c) noexcept {
  return c == char_class::letter || c == char_class::mark;
}

/// What a code point does in split_script_runs.
enum class run_cp_kind : std::uint8_t {
  gap_other,   ///< non-voter: digit, punctuation, symbol, control, U+FFFD
  space,       ///< non-voter: White_Space
  gap_letter,  ///< non-voter letter or mark: Common letters, an Inherited mark after a non-voter
  voter,       ///< letter or mark of a real script
  attached,    ///< Inherited mark after a voter: votes with it
};

/// ASCII: letters vote Latin, White_Space is space, the rest is gap_other (from the tables).
inline constexpr auto run_ascii_kinds = [] {
  std::array<run_cp_kind, 128> k{};
  for (unsigned c = 0; c < 128; ++c) {
    const uni_value& v = uni_values[uni_ascii[c]];
    const auto cls = static_cast<char_class>(v.cls);
    k[c] = cls == char_class::space ? run_cp_kind::space
           : is_letter_or_mark(cls) ? run_cp_kind::voter
                                    : run_cp_kind::gap_other;
  }
  return k;
}();
static_assert(
    [] {
      for (unsigned c = 0; c < 128; ++c)
        if (run_ascii_kinds[c] == run_cp_kind::voter && uni_values[uni_ascii[c]].sc != static_cast<std::uint8_t>(script::latin))
          return false;
      return true;
    }(),
    "split_script_runs assumes ASCII letters are Latin");

/// Per byte: 1 for an ASCII letter (a Latin voter), 0 for anything else (bytes >= 0x80 too).
inline constexpr auto ascii_letter = [] {
  std::array<bool, 256> t{};
  for (unsigned c = 0; c < 128; ++c) t[c] = run_ascii_kinds[c] == run_cp_kind::voter;
  return t;
}();

static_assert(
    [] {
      for (unsigned c = 0; c < 256; ++c)
        if (ascii_letter[c] != (c < 128 && ((c | 0x20u) - 'a') < 26u)) return false;
      return true;
    }(),
    "skip_ascii_letters assumes the ASCII letters are exactly A-Z and a-z");

#if defined(__SSE2__)
/// Bit i set when byte i of x is an ASCII letter (signed compares: bytes >= 0x80 are negative,
/// so never letters).
inline unsigned ascii_letter_bits(__m128i x) noexcept {
  const __m128i folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8(0x60)), _mm_cmplt_epi8(folded, _mm_set1_epi8(0x7B)))));
}
#endif

/// The first byte at or after p (<= e) that is not an ASCII letter, or e.
inline const char* skip_ascii_letters(const char* p, const char* e) noexcept {
#if defined(__SSE2__)
  while (e - p >= 16) {
    const unsigned m = ~ascii_letter_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))) & 0xFFFFu;
    if (m) return p + __builtin_ctz(m);
    p += 16;
  }
#endif
  while (p < e && ascii_letter[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

/// Two-byte UTF-8 sequences that skip_run_letters takes as letters of a run without decoding
/// them: for Latin, lead bytes C3..C9 (U+00C0..U+027F) but × and ÷ (C3 97, C3 B7); for Cyrillic,
/// lead bytes D0..D3 (U+0400..U+04FF) but U+0482..U+0489 (D2 82..D2 89: a sign and marks).
constexpr bool fast_run_letter(script sc, char32_t cp) noexcept {
  if (sc == script::latin) return cp >= 0xC0 && cp < 0x280 && cp != 0xD7 && cp != 0xF7;
  if (sc == script::cyrillic) return cp >= 0x400 && cp < 0x500 && (cp < 0x482 || cp > 0x489);
  return false;
}
static_assert(
    [] {
      for (char32_t cp = 0x80; cp < 0x800; ++cp)
        for (script sc : {script::latin, script::cyrillic}) {
          const uni_value& v = uni_values[uni_index(cp)];
          if (fast_run_letter(sc, cp) &&
              !(v.sc == static_cast<std::uint8_t>(sc) && static_cast<char_class>(v.cls) == char_class::letter))
            return false;
        }
      return true;
    }(),
    "skip_run_letters takes only letters of the run's own script");

/// The fast path of a Latin or Cyrillic run in split_script_runs, 16 bytes at a time: from p
/// (just after a letter of the run), over its letters (ASCII letters for Latin; the two-byte
/// letters of fast_run_letter) and ASCII non-letters followed by such a letter (rule 3: they stay
/// inside the run). Returns the end of the last letter passed (p if none) and adds the letters
/// passed to `letters`. What it does not know (other bytes, a gap at its end) is left to the
/// general loop, which reaches the same state one code point at a time.
template <script Sc>
inline const char* skip_run_letters(const char* p, const char* e, std::size_t& letters) noexcept {
  static_assert(Sc == script::latin || Sc == script::cyrillic);
#if defined(__SSE2__)
  auto b = [](unsigned v) { return _mm_set1_epi8(static_cast<char>(v)); };
  while (e - p >= 17) {  // byte 16 is read too: the continuation of a lead byte at 15
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
    // signed compares: bytes >= 0x80 are negative
    const unsigned ascii_letter_m = ascii_letter_bits(x);
    const unsigned ascii_m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(x, b(0xFF))));
    const __m128i cont_next = _mm_cmplt_epi8(next, b(0xC0));  // 0x80..0xBF
    __m128i pair;
    if constexpr (Sc == script::latin) {
      const __m128i lead = _mm_and_si128(_mm_cmpgt_epi8(x, b(0xC2)), _mm_cmplt_epi8(x, b(0xCA)));
      const __m128i sign = _mm_and_si128(_mm_cmpeq_epi8(x, b(0xC3)), _mm_or_si128(_mm_cmpeq_epi8(next, b(0x97)), _mm_cmpeq_epi8(next, b(0xB7))));
      pair = _mm_andnot_si128(sign, _mm_and_si128(lead, cont_next));
    } else {
      const __m128i lead = _mm_and_si128(_mm_cmpgt_epi8(x, b(0xCF)), _mm_cmplt_epi8(x, b(0xD4)));
      const __m128i marks = _mm_and_si128(_mm_cmpeq_epi8(x, b(0xD2)), _mm_and_si128(_mm_cmpgt_epi8(next, b(0x81)), _mm_cmplt_epi8(next, b(0x8A))));
      pair = _mm_andnot_si128(marks, _mm_and_si128(lead, cont_next));
    }
    const unsigned pair_m = static_cast<unsigned>(_mm_movemask_epi8(pair)) & 0x7FFFu;
    // the first byte of each letter; ASCII letters are Latin voters, so another run stops at them
    const unsigned starts = (Sc == script::latin ? ascii_letter_m : 0u) | pair_m;
    const unsigned letter_bytes = starts | pair_m << 1;
    const unsigned known = letter_bytes | (ascii_m & ~ascii_letter_m);
    const unsigned prefix = static_cast<unsigned>(__builtin_ctz(~known | 0x10000u));  // bytes known, 0..16
    const unsigned in_prefix = letter_bytes & ((1u << prefix) - 1);
    if (!in_prefix) return p;
    const unsigned end = 32u - static_cast<unsigned>(__builtin_clz(in_prefix));  // after the last letter byte
    // bits set in 16 (no POPCNT instruction in the x86-64 baseline: a library call otherwise)
    unsigned c = starts & ((1u << end) - 1);
    c -= (c >> 1) & 0x5555u;
    c = (c & 0x3333u) + ((c >> 2) & 0x3333u);
    c = (c + (c >> 4)) & 0x0F0Fu;
    letters += (c + (c >> 8)) & 0x1Fu;
    p += end;
    if (prefix < 16) return p;
  }
#else
  (void)e;
  (void)letters;
#endif
  return p;
}

/// For each two-byte code point U+0080..U+07FF: its script if it is a letter or mark of a real
/// script (a voter), else 0xFF. The table of skip_run_letters2 (1,920 bytes).
inline constexpr auto two_byte_voter = [] {
  std::array<std::uint8_t, 0x800 - 0x80> t{};
  for (char32_t cp = 0x80; cp < 0x800; ++cp) {
    const uni_value& v = uni_values[uni_index(cp)];
    const bool voter = is_letter_or_mark(static_cast<char_class>(v.cls)) && is_real_script(static_cast<script>(v.sc));
    t[cp - 0x80] = voter ? v.sc : std::uint8_t{0xFF};
  }
  return t;
}();
static_assert(script_count < 0xFF, "two_byte_voter marks non-voters with 0xFF");

/// The fast path of a run in a script of two-byte letters other than Latin and Cyrillic (Greek,
/// Armenian, Hebrew, Arabic, Syriac, Thaana, NKo) in split_script_runs: from p (just after a
/// letter of the run), over two-byte letters and marks of script `sc`, and over gaps of ASCII
/// non-letters followed by one (rule 3). Returns where it stopped and adds the letters passed to
/// `letters`. Everything else (Inherited marks, other scripts, two-byte punctuation, invalid
/// sequences, a gap it cannot close) is left to the general loop, one table lookup per letter
/// instead of its decode and bookkeeping.
inline const char* skip_run_letters2(const char* p, const char* e, std::uint8_t sc, std::size_t& letters) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  const auto* const end = reinterpret_cast<const unsigned char*>(e);
  auto letter = [&](const unsigned char* t) LANGSIFT_ALWAYS_INLINE {  // t + 1 < end
    const unsigned b0 = t[0], b1 = t[1];
    if (b0 - 0xC2u > 0xDFu - 0xC2u || (b1 & 0xC0u) != 0x80u) return false;  // not a two-byte sequence
    return two_byte_voter[((b0 & 0x1Fu) << 6 | (b1 & 0x3Fu)) - 0x80u] == sc;
  };
  std::size_t n = 0;
  while (end - s >= 2) {
    if (letter(s)) {
      s += 2;
      ++n;
      continue;
    }
    const unsigned char* q = s;  // a gap of ASCII non-letters (empty: letter(q) fails again)
    while (q < end && *q < 0x80 && !ascii_letter[*q]) ++q;
    if (end - q < 2 || !letter(q)) break;
    s = q + 2;
    ++n;
  }
  letters += n;
  return reinterpret_cast<const char*>(s);
}

/// The well-formed three-byte sequence at t (four bytes readable) as its table entry, or null
/// (another sequence, an overlong form or a surrogate).
LANGSIFT_ALWAYS_INLINE inline const uni_value* props3(const unsigned char* t) noexcept {
  std::uint32_t w;
  std::memcpy(&w, t, 4);
  if constexpr (std::endian::native == std::endian::big)
    w = (w >> 24) | (w >> 8 & 0xFF00u) | (w << 8 & 0xFF0000u) | (w << 24);
  if ((w & 0xC0C0F0u) != 0x8080E0u) return nullptr;
  const std::uint32_t cp = (w & 0x0Fu) << 12 | (w >> 2 & 0xFC0u) | (w >> 16 & 0x3Fu);
  if (cp < 0x800 || cp - 0xD800u < 0x800u) return nullptr;
  return &uni_values[uni_index_nonascii(cp)];
}

/// Where a gap of a three-byte fast path ends, from q (<= last): over ASCII non-letters and
/// three-byte code points that are neither letters nor marks (CJK punctuation "，。", the
/// ideographic space, symbols) — and, if `GapLetters`, three-byte letters and marks of no real
/// script (Common "ー", Inherited marks after a non-letter), counted in `letters`. `v` is the
/// three-byte letter or mark that ends the gap at the returned position, or null when something
/// else does (an ASCII letter, another sequence, the end of the readable bytes).
template <bool GapLetters>
LANGSIFT_ALWAYS_INLINE inline const unsigned char* scan_gap(const unsigned char* q, const unsigned char* last,
                                                             const uni_value*& v, std::size_t& letters) noexcept {
  v = nullptr;
  while (q <= last) {
    if (*q < 0x80) {
      if (ascii_letter[*q]) break;
      ++q;
      continue;
    }
    const uni_value* u = props3(q);
    if (!u) break;
    if (is_letter_or_mark(static_cast<char_class>(u->cls))) {
      if (!GapLetters || is_real_script(static_cast<script>(u->sc))) {
        v = u;
        break;
      }
      ++letters;
    }
    q += 3;
  }
  return q;
}

/// The fast path of a run in a script of three-byte letters (Indic scripts, Thai, Georgian, CJK...)
/// in split_script_runs: from p (just after a letter of the run), over well-formed three-byte
/// letters and marks of script `sc`, and over gaps of ASCII non-letters and three-byte
/// non-letters (CJK punctuation...) followed by one (rule 3: they stay inside the run). Returns
/// where it stopped and adds the letters passed to `letters`. What it does not know (other bytes,
/// other scripts, Inherited marks, Common letters, a gap it cannot close, a letter that ends the
/// text) is left to the general loop. Cheaper than decode_props: no two-byte test, one mask test
/// of a four-byte load for the lead and both continuation bytes, and letters counted from the
/// bytes passed.
inline const char* skip_run_letters3(const char* p, const char* e, std::uint8_t sc, std::size_t& letters) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  const auto* const end = reinterpret_cast<const unsigned char*>(e);
  if (end - s < 4) return p;
  const auto* const last = end - 4;  // the last byte a four-byte load may start at
  std::size_t gap_bytes = 0;
  // True if t (<= last) starts a three-byte letter or mark of sc.
  auto letter = [&](const unsigned char* t) LANGSIFT_ALWAYS_INLINE {
    const uni_value* v = props3(t);
    return v && v->sc == sc && is_letter_or_mark(static_cast<char_class>(v->cls));
  };
  while (s <= last) {
    if (letter(s)) {
      s += 3;
      continue;
    }
    // A gap of non-voters without letters, then a letter of sc: the run goes on over it (rule
    // 3), and the gap adds no letters.
    const uni_value* v;
    std::size_t none = 0;
    const unsigned char* q = scan_gap<false>(s, last, v, none);
    if (q == s || !v || v->sc != sc) break;
    gap_bytes += static_cast<std::size_t>(q - s);
    s = q + 3;
  }
  letters += (static_cast<std::size_t>(s - reinterpret_cast<const unsigned char*>(p)) - gap_bytes) / 3;
  return reinterpret_cast<const char*>(s);
}

/// The fast path of a kana run (Japanese), after one of its voters: from p, three-byte letters
/// and marks of Han, Bopomofo, Hiragana and Katakana (the scripts that join a kana run),
/// Inherited marks after them (attached), and gaps before such a letter: ASCII non-letters,
/// three-byte non-letters and three-byte letters of no real script (Common "ー", Inherited marks
/// after a non-letter), which the general loop counts as gap letters when the run goes on. Adds
/// the letters taken to `letters` and the Han (with Bopomofo) and kana among them to `han` and
/// `kana` (rule 2); stops, before any gap it cannot close, at anything else — which it leaves
/// to the general loop. Out of line: inlined, it made split_script_runs slower for the other
/// scripts (callgrind at d5d1d3d, 2,000 docs-2k documents × 3: 142.1M instructions in it,
/// against 141.2M).
LANGSIFT_NOINLINE inline const char* skip_run_kana(const char* p, const char* e, std::size_t& letters,
                                                   std::size_t& han, std::size_t& kana) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  const auto* const end = reinterpret_cast<const unsigned char*>(e);
  if (end - s < 4) return p;
  const auto* const last = end - 4;  // the last byte a four-byte load may start at
  std::size_t n_han = 0, n_kana = 0, n_other = 0;
  // 1: Han or Bopomofo, 2: Hiragana or Katakana, 0: another script
  auto kind = [](const uni_value* v) LANGSIFT_ALWAYS_INLINE -> unsigned {
    const auto sc = static_cast<script>(v->sc);
    return sc == script::han || sc == script::bopomofo ? 1u : sc == script::hiragana || sc == script::katakana ? 2u : 0u;
  };
  while (s <= last) {
    const uni_value* v = props3(s);
    if (v && is_letter_or_mark(static_cast<char_class>(v->cls))) {
      if (const unsigned k = kind(v)) {
        (k == 1 ? n_han : n_kana) += 1;
        s += 3;
        continue;
      }
      if (v->sc == static_cast<std::uint8_t>(script::inherited)) {  // attached to the letter before
        ++n_other;
        s += 3;
        continue;
      }
    }
    // A gap, then a letter of the run (rule 3); its letters of no real script join the run then.
    const uni_value* v_end;
    std::size_t gap_letters = 0;
    const unsigned char* q = scan_gap<true>(s, last, v_end, gap_letters);
    const unsigned k = v_end ? kind(v_end) : 0u;
    if (!k) break;
    n_other += gap_letters;
    (k == 1 ? n_han : n_kana) += 1;
    s = q + 3;
  }
  letters += n_han + n_kana + n_other;
  han += n_han;
  kana += n_kana;
  return reinterpret_cast<const char*>(s);
}

/// The CJK decision of rule 2: kana (or Hangul) letters at least 1/16 of them plus Han.
constexpr bool cjk_share_ok(std::size_t phonetic, std::size_t han) noexcept {
  return phonetic > 0 && phonetic * 16 >= phonetic + han;
}

}  // namespace detail

/// Splits UTF-8 text into script runs (rules at the top of this header). `out` is cleared first
/// (reuse it to keep its capacity). One pass; never reads outside `utf8`; invalid bytes are
/// non-voters. May throw std::bad_alloc (from `out`), nothing else.
inline void split_script_runs(std::string_view utf8, std::vector<script_run>& out) {
  using namespace detail;
  out.clear();
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  const char* const base = utf8.data();
  const char* p = base;
  const char* const e = base + utf8.size();

  // The open run.
  bool open = false;
  std::size_t r_begin = 0, r_letters = 0, r_han = 0, r_phonetic = 0;
  std::uint16_t r_vote = vote_none;
  std::size_t r_mid_letters = 0;  // letters in the part of the preceding gap that no run took
  // The gap since the open run's last voter (or since the start of the text).
  std::size_t first_ws = npos, last_ws_end = npos;
  std::size_t gap_letters = 0, gap_letters_before_ws = 0, gap_letters_after_ws = 0;
  bool attach = false;  // the previous code point was a voter or an attached Inherited mark

  auto finish = [&](std::size_t end, std::size_t letters) {
    script sc;
    if (r_vote == vote_han) sc = script::han;
    else if (r_vote == vote_kana) sc = cjk_share_ok(r_phonetic, r_han) ? script::japanese : script::han;
    else if (r_vote == vote_hangul) sc = cjk_share_ok(r_phonetic, r_han) ? script::korean : script::han;
    else sc = static_cast<script>(r_vote);
    if (!out.empty() && out.back().sc == sc) {  // two CJK runs that both fell back to han
      out.back().end = end;
      out.back().letters += r_mid_letters + letters;
    } else {
      out.push_back({r_begin, end, sc, letters});
    }
  };

  bool in_gap = true;    // a non-voter came after the last voter (or nothing came yet)

  // n letters of the open run, with vote `v` (CJK runs also count Han and kana / Hangul apart).
  auto count_voter = [&](std::uint16_t v, std::size_t n = 1) LANGSIFT_ALWAYS_INLINE {
    r_letters += n;
    if (v >= vote_han) (v == vote_han ? r_han : r_phonetic) += n;
  };

  while (p < e) {
    const std::size_t pos = static_cast<std::size_t>(p - base);
    std::uint16_t vote = static_cast<std::uint16_t>(script::latin);
    run_cp_kind kind;
    if (static_cast<unsigned char>(*p) < 0x80) {
      kind = run_ascii_kinds[static_cast<unsigned char>(*p)];
      ++p;
    } else {
      const uni_value& v = *decode_props(p, e).v;
      const auto sc = static_cast<script>(v.sc);
      if (is_letter_or_mark(static_cast<char_class>(v.cls))) {
        if (sc == script::inherited) kind = attach ? run_cp_kind::attached : run_cp_kind::gap_letter;
        else if (is_real_script(sc)) kind = run_cp_kind::voter, vote = vote_of(sc);
        else kind = run_cp_kind::gap_letter;
      } else {
        kind = static_cast<char_class>(v.cls) == char_class::space ? run_cp_kind::space : run_cp_kind::gap_other;
      }
    }
    if (kind == run_cp_kind::voter) {
      // The common case: the run goes on (also with Han in a kana run, which joins it: the
      // general case below would count it the same way).
      if (!in_gap && (vote == r_vote || (vote == vote_han && r_vote == vote_kana))) {
        count_voter(vote);
        // The rest of the word: letters of the run's own script and attached marks, without the
        // general case's bookkeeping; anything else is left to it (and decoded again there).
        const bool latin = vote == static_cast<std::uint16_t>(script::latin);
        const bool cyrillic = vote == static_cast<std::uint16_t>(script::cyrillic);
        // a script of this vote (a CJK vote has two: the first letter decoded below sets it, and
        // until then skip_run_letters3 passes nothing)
        std::uint8_t same = vote < vote_han ? static_cast<std::uint8_t>(vote) : 0xFF;
        // skip_run_letters3 only where it may pay: after a three-byte letter (runs of two-byte
        // letters, Arabic, Greek, Hebrew..., pay nothing per letter for it), and not in a kana
        // run: Japanese changes script every few letters (hiragana, katakana, Han), so a path
        // for one script would stop at once. Kana runs take skip_run_kana, which passes all four.
        const bool three = static_cast<std::size_t>(p - base) - pos == 3;
        const bool two = !latin && !cyrillic && static_cast<std::size_t>(p - base) - pos == 2;
        const bool kana = r_vote == vote_kana;
        for (;;) {
          if (two) {
            std::size_t letters = 0;
            p = skip_run_letters2(p, e, same, letters);
            count_voter(vote, letters);
          }
          if (three) {  // one test per pass for the other scripts (Latin passes once per word)
            if (kana) {
              p = skip_run_kana(p, e, r_letters, r_han, r_phonetic);
            } else {
              std::size_t letters = 0;
              p = skip_run_letters3(p, e, same, letters);
              count_voter(vote, letters);
            }
          }
          if (cyrillic) p = skip_run_letters<script::cyrillic>(p, e, r_letters);
          if (latin) {
            p = skip_run_letters<script::latin>(p, e, r_letters);
            const char* const w = p;
            p = skip_ascii_letters(p, e);
            r_letters += static_cast<std::size_t>(p - w);
          }
          if (p >= e) break;
          const char* q = p;
          if (static_cast<unsigned char>(*p) < 0x80) {
            // ASCII non-letters (spaces, punctuation, digits: no letters, so nothing to count)
            // followed by a letter of this vote stay inside the run, as rule 3 says; anything
            // else after them is left to the general case, from the start of the gap.
            if (!latin && ascii_letter[static_cast<unsigned char>(*p)]) break;
            while (q < e && static_cast<unsigned char>(*q) < 0x80 && !ascii_letter[static_cast<unsigned char>(*q)]) ++q;
            if (q >= e) break;
            if (static_cast<unsigned char>(*q) < 0x80) {  // an ASCII letter: Latin
              if (!latin) break;
              p = q;
              continue;
            }
            const uni_value& v = *decode_props(q, e).v;
            const auto sc = static_cast<script>(v.sc);
            // after a gap an Inherited mark is no voter
            if (!is_letter_or_mark(static_cast<char_class>(v.cls)) || !is_real_script(sc) || vote_of(sc) != vote) break;
            same = v.sc;
            count_voter(vote);
            p = q;
            continue;
          }
          const uni_value& v = *decode_props(q, e).v;
          if (v.sc != same) {
            if (!is_letter_or_mark(static_cast<char_class>(v.cls))) break;
            const auto sc = static_cast<script>(v.sc);
            if (sc != script::inherited) {
              if (!is_real_script(sc) || vote_of(sc) != vote) break;
              same = v.sc;
            }
          } else if (!is_letter_or_mark(static_cast<char_class>(v.cls))) {
            break;  // a digit or punctuation mark of the script
          }
          if (v.sc == static_cast<std::uint8_t>(script::inherited)) ++r_letters;  // an attached mark
          else count_voter(vote);
          p = q;
        }
        continue;
      }
    } else if (kind == run_cp_kind::attached) {  // extends the open run's last voter
      ++r_letters;
      continue;
    } else {  // a non-voter: part of the current gap
      in_gap = true;
      attach = false;
      if (kind == run_cp_kind::space) {
        if (first_ws == npos) {
          first_ws = pos;
          gap_letters_before_ws = gap_letters;
        }
        last_ws_end = static_cast<std::size_t>(p - base);
        gap_letters_after_ws = 0;
      } else if (kind == run_cp_kind::gap_letter) {
        ++gap_letters;
        ++gap_letters_after_ws;
      }
      continue;
    }
    // A voter after a gap, or of another script.
    const bool ws = first_ws != npos;
    if (open && (vote == r_vote || (vote == vote_han && (r_vote == vote_kana || r_vote == vote_hangul)) ||
                 (r_vote == vote_han && (vote == vote_kana || vote == vote_hangul)))) {
      if (r_vote == vote_han) r_vote = vote;  // Han joins kana or Hangul
      r_letters += gap_letters;
    } else {
      const bool had_run = open;
      std::size_t mid = 0;
      if (had_run) {
        finish(ws ? first_ws : pos, r_letters + (ws ? gap_letters_before_ws : gap_letters));
        mid = ws ? gap_letters - gap_letters_before_ws - gap_letters_after_ws : 0;
      }
      open = true;
      r_vote = vote;
      // After whitespace: start after it. Without: the earlier run kept the gap; before the first
      // run, the leading non-voters belong to it.
      r_begin = ws ? last_ws_end : had_run ? pos : 0;
      r_letters = ws ? gap_letters_after_ws : had_run ? 0 : gap_letters;
      r_han = r_phonetic = 0;
      r_mid_letters = mid;
    }
    count_voter(vote);
    attach = true;
    in_gap = false;
    first_ws = last_ws_end = npos;
    gap_letters = gap_letters_before_ws = gap_letters_after_ws = 0;
  }
  if (open) {
    const bool ws = first_ws != npos;
    finish(ws ? first_ws : utf8.size(), r_letters + (ws ? gap_letters_before_ws : gap_letters));
  }
}

/// split_script_runs into a new vector.
inline std::vector<script_run> split_script_runs(std::string_view utf8) {
  std::vector<script_run> out;
  split_script_runs(utf8, out);
  return out;
}

/// Letters (letter + mark code points) per script of a text, counted by each code point's own
/// script; an Inherited mark counts for the letter it follows, and Common letters (U+30FC...)
/// count under common.
struct script_histogram {
  std::array<std::size_t, script_count> letters{};

  std::size_t operator[](script s) const noexcept {
    return static_cast<std::size_t>(s) < script_count ? letters[static_cast<std::size_t>(s)] : 0;
  }

  /// Letters of real scripts (not common, inherited or unknown).
  std::size_t total() const noexcept {
    std::size_t t = 0;
    for (std::size_t i = 0; i < script_count; ++i)
      if (is_real_script(static_cast<script>(i))) t += letters[i];
    return t;
  }

  /// True if the text has any Hiragana or Katakana letter.
  bool has_kana() const noexcept { return (*this)[script::hiragana] + (*this)[script::katakana] > 0; }

  /// Adds the letters of `utf8` (a corpus can be counted a line or a block at a time; a block
  /// boundary inside a UTF-8 sequence costs one U+FFFD, which is not a letter).
  void add(std::string_view utf8) noexcept {
    const char* p = utf8.data();
    const char* const e = p + utf8.size();
    script prev = script::inherited;  // script of the last letter; inherited = none
    while (p < e) {
      if (static_cast<unsigned char>(*p) < 0x80) {  // ASCII: letters are Latin, nothing attaches
        const bool letter = detail::run_ascii_kinds[static_cast<unsigned char>(*p++)] == detail::run_cp_kind::voter;
        letters[static_cast<std::size_t>(script::latin)] += letter;
        prev = letter ? script::latin : script::inherited;
        continue;
      }
      const code_point_info i = code_point_props(decode_utf8(p, e));
      if (!detail::is_letter_or_mark(i.cls)) {
        prev = script::inherited;
        continue;
      }
      script s = i.sc == script::inherited ? prev : i.sc;
      ++letters[static_cast<std::size_t>(s)];
      prev = is_real_script(s) ? s : script::inherited;
    }
  }

  script_histogram& operator+=(const script_histogram& o) noexcept {
    for (std::size_t i = 0; i < script_count; ++i) letters[i] += o.letters[i];
    return *this;
  }

  /// Letters per run script, as if the whole text were one region under rule 2 of
  /// split_script_runs: kana goes to japanese and Hangul to korean if it passes the 1/16 test
  /// against the text's Han letters (else to han), Bopomofo to han, and Han joins japanese or
  /// korean (the larger, if both pass). Common, inherited and unknown are zero.
  script_histogram run_scripts() const noexcept {
    script_histogram r;
    for (std::size_t i = 0; i < script_count; ++i) {
      const auto s = static_cast<script>(i);
      if (is_real_script(s)) r.letters[static_cast<std::size_t>(run_script(s))] += letters[i];
    }
    auto& han = r.letters[static_cast<std::size_t>(script::han)];
    auto& ja = r.letters[static_cast<std::size_t>(script::japanese)];
    auto& ko = r.letters[static_cast<std::size_t>(script::korean)];
    const std::size_t han_alone = han;
    const bool ja_ok = detail::cjk_share_ok(ja, han_alone), ko_ok = detail::cjk_share_ok(ko, han_alone);
    if (!ja_ok) {
      han += ja;
      ja = 0;
    }
    if (!ko_ok) {
      han += ko;
      ko = 0;
    }
    if (ja_ok || ko_ok) {
      auto& joined = ja_ok && (!ko_ok || ja >= ko) ? ja : ko;
      joined += han;
      han = 0;
    }
    return r;
  }

  /// The run script with the most letters (run_scripts()); common if there are no letters.
  /// Ties go to the lower enum value.
  script dominant() const noexcept {
    const script_histogram r = run_scripts();
    std::size_t best = 0;
    script s = script::common;
    for (std::size_t i = 0; i < script_count; ++i)
      if (r.letters[i] > best) {
        best = r.letters[i];
        s = static_cast<script>(i);
      }
    return s;
  }

  /// Run scripts with at least `min_share` of the letters (0..1), most letters first: the scripts
  /// a text (e.g. a training corpus) is written in.
  std::vector<std::pair<script, std::size_t>> ranked(double min_share = 0.0) const {
    const script_histogram r = run_scripts();
    const std::size_t t = r.total();
    std::vector<std::pair<script, std::size_t>> v;
    for (std::size_t i = 0; i < script_count; ++i)
      if (r.letters[i] > 0 && static_cast<double>(r.letters[i]) >= min_share * static_cast<double>(t))
        v.emplace_back(static_cast<script>(i), r.letters[i]);
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return v;
  }
};

/// Letters per script of `utf8` (script_histogram::add on an empty histogram).
inline script_histogram script_counts(std::string_view utf8) noexcept {
  script_histogram h;
  h.add(utf8);
  return h;
}

/// The language a run of script `sc` decides by itself (ISO 639-1, else 639-3), or "" when the
/// script is shared by several languages and the n-gram classifier must choose among the
/// languages written in it. `has_kana`: a run of script han known to belong to Japanese text
/// (its document has kana; see script_histogram::run_scripts) gives "ja" instead of "".
/// The table and its reasons (why Greek, Tibetan, Myanmar, Oriya, Ethiopic, Bengali, Hebrew,
/// Syriac and Canadian syllabics are shared) are in docs/script.md.
constexpr std::string_view script_language(script sc, bool has_kana = false) noexcept {
  switch (sc) {
    case script::japanese: case script::hiragana: case script::katakana: return "ja";
    case script::han: return has_kana ? "ja" : "";  // zh, zh-Hant, yue, wuu... : classifier
    case script::korean: case script::hangul: return "ko";
    case script::thai: return "th";
    case script::lao: return "lo";
    case script::khmer: return "km";
    case script::armenian: return "hy";
    case script::georgian: return "ka";
    case script::gujarati: return "gu";
    case script::gurmukhi: return "pa";
    case script::tamil: return "ta";
    case script::telugu: return "te";
    case script::kannada: return "kn";
    case script::malayalam: return "ml";
    case script::sinhala: return "si";
    case script::thaana: return "dv";
    case script::cherokee: return "chr";
    case script::yi: return "ii";
    case script::vai: return "vai";
    case script::coptic: return "cop";
    case script::gothic: return "got";
    case script::chakma: return "ccp";
    case script::tai_viet: return "blt";
    case script::ol_chiki: return "sat";
    case script::adlam: return "ff";
    case script::nko: return "nqo";
    default: return "";
  }
}

}  // namespace v1
}  // namespace langsift
