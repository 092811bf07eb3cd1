// langsift — implementation of langsift/script.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/script.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/unicode_lookup.hpp"

#if defined(__SSE2__)
#include <immintrin.h>  // SSE2: the x86-64 baseline, so no run-time choice is needed
#endif

namespace langsift {
inline namespace v1 {
namespace detail {

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
        if (ascii_letter[c] != (c < 128 && is_ascii_alpha(static_cast<unsigned char>(c)))) return false;
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

// The letters of the open run of split_script_runs (CJK runs also count Han and kana / Hangul
// apart).
struct run_letter_counts {
  std::size_t letters = 0, han = 0, phonetic = 0;
  // n letters with vote v.
  LANGSIFT_ALWAYS_INLINE void count_voter(std::uint16_t v, std::size_t n = 1) noexcept {
    letters += n;
    if (v >= vote_han) (v == vote_han ? han : phonetic) += n;
  }
};

// The kind of the code point at p (advanced past it), and its vote if it is a voter. An
// Inherited mark is `attached` right after a voter or an attached mark (`attach`), else a gap
// letter.
LANGSIFT_ALWAYS_INLINE inline run_cp_kind classify_run_cp(const char*& p, const char* e, bool attach,
                                                          std::uint16_t& vote) noexcept {
  if (static_cast<unsigned char>(*p) < 0x80) return run_ascii_kinds[static_cast<unsigned char>(*p++)];
  const uni_value& v = *decode_props(p, e).v;
  const auto sc = static_cast<script>(v.sc);
  if (!is_letter_or_mark(static_cast<char_class>(v.cls)))
    return static_cast<char_class>(v.cls) == char_class::space ? run_cp_kind::space : run_cp_kind::gap_other;
  if (sc == script::inherited) return attach ? run_cp_kind::attached : run_cp_kind::gap_letter;
  if (!is_real_script(sc)) return run_cp_kind::gap_letter;
  vote = vote_of(sc);
  return run_cp_kind::voter;
}

// The common case of split_script_runs: a voter of vote `vote` that continues the open run
// (of vote r_vote), `len` bytes long, ending at p. Takes the rest of the word: letters of the
// run's own script and attached marks, counted into c, without the general case's bookkeeping;
// anything else is left to it (and decoded again there). Returns where it stopped.
LANGSIFT_ALWAYS_INLINE inline const char* skip_run_rest(const char* p, const char* e, std::uint16_t vote,
                                                        std::uint16_t r_vote, std::size_t len,
                                                        run_letter_counts& c) noexcept {
  const bool latin = vote == static_cast<std::uint16_t>(script::latin);
  const bool cyrillic = vote == static_cast<std::uint16_t>(script::cyrillic);
  // a script of this vote (a CJK vote has two: the first letter decoded below sets it, and
  // until then skip_run_letters3 passes nothing)
  std::uint8_t same = vote < vote_han ? static_cast<std::uint8_t>(vote) : 0xFF;
  // skip_run_letters3 only where it may pay: after a three-byte letter (runs of two-byte
  // letters, Arabic, Greek, Hebrew..., pay nothing per letter for it), and not in a kana
  // run: Japanese changes script every few letters (hiragana, katakana, Han), so a path
  // for one script would stop at once. Kana runs take skip_run_kana, which passes all four.
  const bool three = len == 3;
  const bool two = !latin && !cyrillic && len == 2;
  const bool kana = r_vote == vote_kana;
  for (;;) {
    if (two) {
      std::size_t letters = 0;
      p = skip_run_letters2(p, e, same, letters);
      c.count_voter(vote, letters);
    }
    if (three) {  // one test per pass for the other scripts (Latin passes once per word)
      if (kana) {
        p = skip_run_kana(p, e, c.letters, c.han, c.phonetic);
      } else {
        std::size_t letters = 0;
        p = skip_run_letters3(p, e, same, letters);
        c.count_voter(vote, letters);
      }
    }
    if (cyrillic) p = skip_run_letters<script::cyrillic>(p, e, c.letters);
    if (latin) {
      p = skip_run_letters<script::latin>(p, e, c.letters);
      const char* const w = p;
      p = skip_ascii_letters(p, e);
      c.letters += static_cast<std::size_t>(p - w);
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
      c.count_voter(vote);
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
    if (v.sc == static_cast<std::uint8_t>(script::inherited)) ++c.letters;  // an attached mark
    else c.count_voter(vote);
    p = q;
  }
  return p;
}

// Appends the run [begin, end) of vote `vote` with `letters` letters to out: a kana or Hangul
// vote gives Japanese or Korean if the counts c show enough of it against Han, else Han. If the
// previous run has the same script (two CJK runs that both fell back to Han), the run and the
// `mid_letters` of the gap between them extend it instead.
inline void finish_script_run(std::vector<script_run>& out, std::size_t begin, std::size_t end, std::uint16_t vote,
                              const run_letter_counts& c, std::size_t mid_letters, std::size_t letters) {
  script sc;
  if (vote == vote_han) sc = script::han;
  else if (vote == vote_kana) sc = cjk_share_ok(c.phonetic, c.han) ? script::japanese : script::han;
  else if (vote == vote_hangul) sc = cjk_share_ok(c.phonetic, c.han) ? script::korean : script::han;
  else sc = static_cast<script>(vote);
  if (!out.empty() && out.back().sc == sc) {
    out.back().end = end;
    out.back().letters += mid_letters + letters;
  } else {
    out.push_back({begin, end, sc, letters});
  }
}

}  // namespace detail

LANGSIFT_INLINE void split_script_runs(std::string_view utf8, std::vector<script_run>& out) {
  using namespace detail;
  out.clear();
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  const char* const base = utf8.data();
  const char* p = base;
  const char* const e = base + utf8.size();

  // The open run.
  bool open = false;
  std::size_t r_begin = 0;
  run_letter_counts r;
  std::uint16_t r_vote = vote_none;
  std::size_t r_mid_letters = 0;  // letters in the part of the preceding gap that no run took
  // The gap since the open run's last voter (or since the start of the text).
  std::size_t first_ws = npos, last_ws_end = npos;
  std::size_t gap_letters = 0, gap_letters_before_ws = 0, gap_letters_after_ws = 0;
  bool attach = false;  // the previous code point was a voter or an attached Inherited mark
  bool in_gap = true;   // a non-voter came after the last voter (or nothing came yet)

  while (p < e) {
    const std::size_t pos = static_cast<std::size_t>(p - base);
    std::uint16_t vote = static_cast<std::uint16_t>(script::latin);
    const run_cp_kind kind = classify_run_cp(p, e, attach, vote);
    if (kind == run_cp_kind::voter) {
      // The common case: the run goes on (also with Han in a kana run, which joins it: the
      // general case below would count it the same way).
      if (!in_gap && (vote == r_vote || (vote == vote_han && r_vote == vote_kana))) {
        r.count_voter(vote);
        p = skip_run_rest(p, e, vote, r_vote, static_cast<std::size_t>(p - base) - pos, r);
        continue;
      }
    } else if (kind == run_cp_kind::attached) {  // extends the open run's last voter
      ++r.letters;
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
      r.letters += gap_letters;
    } else {
      const bool had_run = open;
      std::size_t mid = 0;
      if (had_run) {
        finish_script_run(out, r_begin, ws ? first_ws : pos, r_vote, r, r_mid_letters,
                          r.letters + (ws ? gap_letters_before_ws : gap_letters));
        mid = ws ? gap_letters - gap_letters_before_ws - gap_letters_after_ws : 0;
      }
      open = true;
      r_vote = vote;
      // After whitespace: start after it. Without: the earlier run kept the gap; before the first
      // run, the leading non-voters belong to it.
      r_begin = ws ? last_ws_end : had_run ? pos : 0;
      r.letters = ws ? gap_letters_after_ws : had_run ? 0 : gap_letters;
      r.han = r.phonetic = 0;
      r_mid_letters = mid;
    }
    r.count_voter(vote);
    attach = true;
    in_gap = false;
    first_ws = last_ws_end = npos;
    gap_letters = gap_letters_before_ws = gap_letters_after_ws = 0;
  }
  if (open) {
    const bool ws = first_ws != npos;
    finish_script_run(out, r_begin, ws ? first_ws : utf8.size(), r_vote, r, r_mid_letters,
                      r.letters + (ws ? gap_letters_before_ws : gap_letters));
  }
}

LANGSIFT_INLINE std::vector<script_run> split_script_runs(std::string_view utf8) {
  std::vector<script_run> out;
  split_script_runs(utf8, out);
  return out;
}

LANGSIFT_INLINE void script_histogram::add(std::string_view utf8) noexcept {
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

}  // namespace v1
}  // namespace langsift
