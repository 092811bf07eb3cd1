// langsift — the detector's kernels: byte scans and per-language vector arithmetic, SSE2 where
// the target has it, with scalar loops that give the same results. Part of the implementation of
// langsift/detector.hpp (impl/detector-inl.hpp includes it).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"
#include "langsift/unicode.hpp"  // LANGSIFT_ALWAYS_INLINE

namespace langsift {
inline namespace v1 {
namespace detail {

/// The code symbols as ranges of ASCII: " # $ % &  ( ) * +  /  : ; < = >  @  [ \\ ] ^ _  { | } ~
inline constexpr std::pair<char, char> kCodeSymbolRanges[] = {{0x22, 0x26}, {0x28, 0x2B}, {0x2F, 0x2F}, {0x3A, 0x3E},
                                                              {0x40, 0x40}, {0x5B, 0x5F}, {0x7B, 0x7E}};
static_assert(
    [] {
      for (int c = 0; c < 128; ++c) {
        bool in = false;
        for (const auto& [lo, hi] : kCodeSymbolRanges) in = in || (c >= lo && c <= hi);
        if (in != is_code_symbol(static_cast<char>(c))) return false;
      }
      return true;
    }(),
    "kCodeSymbolRanges must be is_code_symbol");

/// Per byte value: 1 = code symbol, 2 = ASCII upper-case letter, 4 = ASCII lower-case letter,
/// 8 = a byte of a letter (an ASCII letter or any byte of a multi-byte sequence).
inline constexpr auto kByteFlags = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    t[b] = static_cast<std::uint8_t>((is_code_symbol(c) ? 1 : 0) | (b >= 'A' && b <= 'Z' ? 2 : 0) |
                                     (b >= 'a' && b <= 'z' ? 4 : 0) | (b >= 0x80 || is_ascii_alpha(static_cast<unsigned char>(b)) ? 8 : 0));
  }
  return t;
}();

namespace code_marks {

constexpr bool alpha(unsigned char c) noexcept { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
constexpr bool lower(unsigned char c) noexcept { return c >= 'a' && c <= 'z'; }
constexpr bool digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool alnum(unsigned char c) noexcept { return alpha(c) || digit(c); }
constexpr bool hex(unsigned char c) noexcept { return digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
constexpr bool glued(unsigned char c) noexcept {
  return c == '"' || c == '(' || c == ')' || c == ':' || c == '/' || c == '%' || c == ';' || c == '[' || c == ']';
}

/// The length of the HTML character reference at t[i] ("&#233;", "&#xE9;", "&amp;"), or 0.
constexpr std::size_t reference_at(const unsigned char* t, std::size_t n, std::size_t i) noexcept {
  std::size_t j = i + 1, k;
  if (j < n && t[j] == '#') {
    const bool x = j + 1 < n && (t[j + 1] | 0x20) == 'x';
    j += x ? 2 : 1;
    for (k = j; k < n && k - j < (x ? 6u : 7u) && (x ? hex(t[k]) : digit(t[k])); ++k) {
    }
  } else {
    if (j >= n || !alpha(t[j])) return 0;
    for (k = j + 1; k < n && k - j < 10 && alnum(t[k]); ++k) {
    }
    if (k < j + 2) return 0;  // a name of 2 to 10 letters and digits
  }
  return k > j && k < n && t[k] == ';' ? k + 1 - i : 0;
}

/// Whether the token t[0, n) is a web or e-mail address, a file path, a @mention or a #hashtag.
constexpr bool skipped(const unsigned char* t, std::size_t n) noexcept {
  std::size_t b = 0;  // after the opening brackets and quotes
  while (b < n && (t[b] == '(' || t[b] == '"' || t[b] == '\'' || t[b] == '[' || t[b] == '<')) ++b;
  const unsigned char* u = t + b;
  const std::size_t m = n - b;
  auto starts = [&](std::string_view p) {
    if (m < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
      if ((u[i] | (alpha(u[i]) ? 0x20 : 0)) != static_cast<unsigned char>(p[i])) return false;
    return true;
  };
  if (starts("www.") || starts("//") || starts("~/") || starts("./")) return true;
  std::size_t slashes = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (u[i] == ':' && i + 2 < m && u[i + 1] == '/' && u[i + 2] == '/') return true;  // scheme://
    if (u[i] == '@' && i > 0 && alnum(u[i - 1])) {  // name@host.tld
      std::size_t j = i + 1;
      while (j < m && (alnum(u[j]) || u[j] == '-')) ++j;
      if (j > i + 1 && j + 1 < m && u[j] == '.' && alpha(u[j + 1])) return true;
    }
    slashes += u[i] == '/' || u[i] == '\\';
  }
  if (m >= 2 && (u[0] == '/' || (m >= 3 && alpha(u[0]) && u[1] == ':' && u[2] == '\\')) && slashes >= 2) return true;
  // host.tld/... or host.tld?...: labels of letters, digits and '-', the last 2 to 6 lower-case letters
  std::size_t i = 0, dots = 0, last = 0;
  for (; i < m && (alnum(u[i]) || u[i] == '-' || u[i] == '.'); ++i)
    if (u[i] == '.') dots += 1, last = i + 1;
  if (dots && i < m && (u[i] == '/' || u[i] == '?') && i - last >= 2 && i - last <= 6) {
    bool tld = true;
    for (std::size_t k = last; k < i; ++k) tld = tld && lower(u[k]);
    if (tld) return true;
  }
  // @mention, #hashtag (not a #colour of 3 to 8 hex digits), then closing punctuation
  if (m >= 2 && (u[0] == '@' || u[0] == '#')) {
    std::size_t k = 1;
    bool all_hex = true;
    while (k < m && (alnum(u[k]) || u[k] == '_')) all_hex = all_hex && hex(u[k]), ++k;
    const std::size_t body = k - 1;
    while (k < m && (u[k] == '.' || u[k] == ',' || u[k] == '!' || u[k] == '?' || u[k] == ':' || u[k] == ';' || u[k] == ')')) ++k;
    if (k == m && body >= 1 && !(u[0] == '#' && all_hex && body >= 3 && body <= 8)) return true;
  }
  return false;
}

/// Whether t[i] is a mark of code (token_code_marks); the bytes outside [0, n) count as spaces.
constexpr bool mark_at(const unsigned char* t, std::size_t n, std::size_t i) noexcept {
  const unsigned char c = t[i], prev = i ? t[i - 1] : ' ', next = i + 1 < n ? t[i + 1] : ' ';
  if (digit(c)) return lower(prev) && !lower(next);
  if (c == '.') return lower(prev) && lower(next) && i + 2 < n && alpha(t[i + 2]);
  if (glued(c)) return alnum(prev) && (alnum(next) || glued(next)) && (alpha(prev) || alpha(next));
  if (!is_code_symbol(static_cast<char>(c)) || c == prev) return false;
  if (c == '{' || c == '}' || c == '=' || c == '\\') return true;
  if (c == '#' || c == '@' || c == '$') return alpha(next);
  std::size_t e = i + 1;  // & | < > * + ~ ^ _: next to a letter or digit, before or after the run
  while (e < n && t[e] == c) ++e;
  const bool after = e < n && alnum(t[e]);
  return c == '*' ? alnum(prev) && after : alnum(prev) || after;  // "a*b", not "*emphasis*", "note*"
}

}  // namespace code_marks

/// A token counts at most this many marks: a long web token ("@@Quelle@@nn/s/a/m/page.html") in a
/// sentence is one token, not a text of code.
inline constexpr std::size_t kMaxCodeMarksPerToken = 2;

LANGSIFT_INLINE std::size_t token_code_marks(const unsigned char* token, std::size_t n) noexcept {
  if (code_marks::skipped(token, n)) return 0;
  std::size_t marks = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (token[i] == '&') {
      if (const std::size_t r = code_marks::reference_at(token, n, i)) {
        i += r - 1;
        continue;
      }
    }
    marks += code_marks::mark_at(token, n, i);
  }
  return std::min<std::size_t>(marks, kMaxCodeMarksPerToken);
}

/// Counts the signs of bytes[0, n) (text_signs; the byte before bytes[0] counts as a space). 16
/// bytes at a time without branches for the symbols, case switches and spaces: byte-class masks
/// of each block and of the same block shifted by one byte either way, combined and counted. A
/// symbol, or a digit or '.' after a lower-case letter (a few per sentence of prose), is tested on
/// its own (mark_at), and when it is a mark its token is read whole, once, by token_code_marks.
LANGSIFT_INLINE void count_text_signs(const unsigned char* bytes, std::size_t n, text_signs& t) noexcept {
  std::size_t done = 0;  // tokens before this have been read for marks
  auto token_marks = [&](std::size_t i) LANGSIFT_ALWAYS_INLINE {
    if (i < done || !code_marks::mark_at(bytes, n, i)) return;
    std::size_t b = i, e = i + 1;
    while (b > 0 && bytes[b - 1] > 0x20) --b;
    while (e < n && bytes[e] > 0x20) ++e;
    t.code_marks += token_code_marks(bytes + b, e - b);
    done = e;
  };
  auto one = [&](std::size_t i) LANGSIFT_ALWAYS_INLINE {
    const unsigned char c = bytes[i], prev = i ? bytes[i - 1] : ' ';
    const unsigned f = kByteFlags[c];
    if (f & 6u) {  // a letter: lower-case, then upper-case is a switch
      if (f & 2u) t.case_switches += (kByteFlags[prev] >> 2) & 1u;
      return;
    }
    t.spaces += c == ' ';
    if (f & 1u) t.code_symbols += c != prev;  // "____" counts once
    if ((f & 1u) || ((code_marks::digit(c) || c == '.') && code_marks::lower(prev))) token_marks(i);
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= 17) {
    one(0);
    i = 1;
    // x in [lo, hi]: x + (0x80 - lo), wrapping, is then in [-128, -128 + hi - lo] as a signed
    // byte, and no other byte is (an add and a compare); the constants as vectors once, outside
    // the loop
    constexpr std::size_t R = std::size(kCodeSymbolRanges);
    __m128i bias[R + 3], limit[R + 3];
    auto range = [&](std::size_t r, int lo, int hi) {
      bias[r] = _mm_set1_epi8(static_cast<char>(0x80 - lo));
      limit[r] = _mm_set1_epi8(static_cast<char>(-128 + (hi - lo) + 1));
    };
    for (std::size_t r = 0; r < R; ++r) range(r, kCodeSymbolRanges[r].first, kCodeSymbolRanges[r].second);
    range(R, 'A', 'Z');
    range(R + 1, 'a', 'z');
    range(R + 2, '0', '9');
    const __m128i space = _mm_set1_epi8(' '), dot = _mm_set1_epi8('.');
    auto in = [&](__m128i x, std::size_t r) LANGSIFT_ALWAYS_INLINE {
      return _mm_cmplt_epi8(_mm_add_epi8(x, bias[r]), limit[r]);
    };
    // Per-lane counts (a mask lane is -1: subtracting it adds 1), summed every 255 blocks.
    __m128i sym_count = _mm_setzero_si128(), switch_count = _mm_setzero_si128(), space_count = _mm_setzero_si128();
    unsigned blocks = 0;
    auto sum = [](__m128i c) LANGSIFT_ALWAYS_INLINE {
      const __m128i s = _mm_sad_epu8(c, _mm_setzero_si128());
      return static_cast<std::size_t>(_mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4));
    };
    auto drain = [&] {
      t.code_symbols += sum(sym_count);
      t.case_switches += sum(switch_count);
      t.spaces += sum(space_count);
      sym_count = switch_count = space_count = _mm_setzero_si128();
      blocks = 0;
    };
    // One block of 16 bytes at `at`; `keep`: the lanes to count (all but in the last block, which
    // ends at n and overlaps the one before).
    auto block = [&](auto masked, std::size_t at, __m128i x, __m128i prev, __m128i next, __m128i keep) LANGSIFT_ALWAYS_INLINE {
      static_assert(R == 7);
      auto kept = [&](__m128i v) LANGSIFT_ALWAYS_INLINE { return masked ? _mm_and_si128(keep, v) : v; };
      const __m128i sym = kept(_mm_or_si128(_mm_or_si128(_mm_or_si128(in(x, 0), in(x, 1)), _mm_or_si128(in(x, 2), in(x, 3))),
                                            _mm_or_si128(_mm_or_si128(in(x, 4), in(x, 5)), in(x, 6))));
      const __m128i lower_prev = kept(in(prev, R + 1));
      sym_count = _mm_sub_epi8(sym_count, _mm_andnot_si128(_mm_cmpeq_epi8(x, prev), sym));
      switch_count = _mm_sub_epi8(switch_count, _mm_and_si128(in(x, R), lower_prev));
      space_count = _mm_sub_epi8(space_count, kept(_mm_cmpeq_epi8(x, space)));
      // Symbols, digits after a lower-case letter and dots between two: may be marks of code.
      const __m128i dot_between = _mm_and_si128(_mm_cmpeq_epi8(x, dot), in(next, R + 1));
      const __m128i maybe = _mm_or_si128(sym, _mm_and_si128(_mm_or_si128(in(x, R + 2), dot_between), lower_prev));
      for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(maybe)); m; m &= m - 1)
        token_marks(at + static_cast<std::size_t>(__builtin_ctz(m)));
      if (++blocks == 255) drain();
    };
    for (; i + 17 <= n; i += 16)  // the byte after the block is read too
      block(std::false_type{}, i, _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i)),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i - 1)),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i + 1)), space);
    if (i < n) {  // the last 1..16 bytes: the block ending at n, its lanes before i left out
      const std::size_t at = n - 16;
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at));
      const __m128i next = _mm_or_si128(_mm_srli_si128(x, 1), _mm_slli_si128(space, 15));  // a space after the text
      alignas(16) static constexpr signed char kLanes[32] = {0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
                                                            -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
      const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLanes + (n - i)));  // the last n - i lanes
      block(std::true_type{}, at, x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at - 1)), next, keep);
      i = n;
    }
    drain();
  }
#endif
  for (; i < n; ++i) one(i);
}

/// The end of the piece of about `target` bytes that starts at `begin` (< end): cut at a
/// whitespace within half a target after it, else at a code point boundary.
inline std::size_t next_piece(std::string_view text, std::size_t begin, std::size_t end, std::size_t target) noexcept {
  if (target < 16) target = 16;
  if (end - begin <= target + target / 2) return end;
  std::size_t stop = begin + target;
  std::size_t fwd = stop;  // forward to the next space (within target/2), else back to a boundary
  while (fwd < end && fwd < stop + target / 2 && text[fwd] != ' ' && text[fwd] != '\n') ++fwd;
  if (fwd < end && (text[fwd] == ' ' || text[fwd] == '\n')) return fwd;
  return utf8_cut_back(text.data(), stop, begin + target / 2);
}

/// Whether text[from, q) ends with `tail` (bytes).
inline bool ends_with_at(std::string_view text, std::size_t from, std::size_t q, std::string_view tail) noexcept {
  return q >= from + tail.size() && text.compare(q - tail.size(), tail.size(), tail) == 0;
}

/// Whether a sentence ends at `p` (from <= p < text.size()): a line break at p; or whitespace at p
/// after sentence-final punctuation (. ! ? … and the full stops of other scripts), possibly
/// followed by up to three closing quotes or brackets; or p right after a CJK full stop,
/// exclamation or question mark (no space follows them).
inline bool sentence_ends_at(std::string_view text, std::size_t from, std::size_t p) noexcept {
  const char c = text[p];
  if (c == '\n') return true;
  static constexpr std::string_view kCjk[] = {"\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F"};  // 。！？
  if (c != ' ' && c != '\t' && c != '\r') {
    for (std::string_view t : kCjk)
      if (ends_with_at(text, from, p, t)) return true;
    return false;
  }
  static constexpr std::string_view kClosers[] = {"\"", "'", ")", "]", "\xC2\xBB", "\xE2\x80\x9D", "\xE2\x80\x99",
                                                  "\xE3\x80\x8D", "\xE3\x80\x8F", "\xEF\xBC\x89"};  // » ” ’ 」 』 ）
  static constexpr std::string_view kStops[] = {".", "!", "?", "\xE2\x80\xA6", "\xE3\x80\x82", "\xEF\xBC\x81",
                                                "\xEF\xBC\x9F", "\xD8\x9F", "\xE0\xA5\xA4", "\xE0\xA5\xA5",
                                                "\xDB\x94", "\xE1\x8D\xA2", "\xE1\x81\x8B"};  // … 。！？ ؟ । ॥ ۔ ። ။
  std::size_t q = p;
  for (int k = 0; k < 3; ++k) {
    bool closed = false;
    for (std::string_view t : kClosers)
      if (ends_with_at(text, from, q, t)) {
        q -= t.size();
        closed = true;
        break;
      }
    if (!closed) break;
  }
  for (std::string_view t : kStops)
    if (ends_with_at(text, from, q, t)) return true;
  return false;
}

/// detect_spans' units: the end of the piece that starts at `begin` (< end): the first sentence
/// end (sentence_ends_at) from an eighth of a target to two targets after it, so that a change of
/// language between sentences falls between units (a unit is a sentence, or a piece of a long
/// one); else as next_piece (a long sentence is cut at spaces).
inline std::size_t next_sentence_piece(std::string_view text, std::size_t begin, std::size_t end,
                                       std::size_t target) noexcept {
  if (target < 16) target = 16;
  const std::size_t hi = std::min(end, begin + 2 * target);
  for (std::size_t p = begin + target / 8; p < hi; ++p)
    if (sentence_ends_at(text, begin, p)) return p;
  return next_piece(text, begin, end, target);
}

/// The first index of the largest of v[0, n) (n >= 1; no NaN): as a scalar loop of strict
/// "greater than" tests, four lanes at a time when n is a multiple of 4.
LANGSIFT_INLINE std::uint32_t first_argmax(const float* v, std::uint32_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 4 && n % 4 == 0) {
    __m128 m = _mm_loadu_ps(v);
    for (std::uint32_t i = 4; i < n; i += 4) m = _mm_max_ps(m, _mm_loadu_ps(v + i));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    for (std::uint32_t i = 0; i < n; i += 4)
      if (const int eq = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(v + i), m)))
        return i + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(eq)));
  }
#endif
  std::uint32_t best = 0;
  for (std::uint32_t i = 1; i < n; ++i)
    if (v[i] > v[best]) best = i;
  return best;
}

/// y[k] += a × x[k] for k < n (n a multiple of 4): a floor times a feature count, per language.
LANGSIFT_INLINE void add_scaled(float* __restrict y, float a, const float* __restrict x, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 4 == 0) {
    const __m128 va = _mm_set1_ps(a);
    for (std::size_t k = 0; k < n; k += 4)
      _mm_storeu_ps(y + k, _mm_add_ps(_mm_loadu_ps(y + k), _mm_mul_ps(va, _mm_loadu_ps(x + k))));
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) y[k] += a * x[k];
}

/// y[k] = h[k] + a1 × x1[k] + a2 × x2[k] for k < n (n a multiple of 4), added in that order (the
/// same floats as a copy and two add_scaled passes): a unit's scores from its hits and the floors
/// of its two feature kinds, in one pass.
LANGSIFT_INLINE void copy_add_scaled2(float* __restrict y, const float* __restrict h, float a1, const float* __restrict x1,
                                      float a2, const float* __restrict x2, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 4 == 0) {
    const __m128 v1 = _mm_set1_ps(a1), v2 = _mm_set1_ps(a2);
    for (std::size_t k = 0; k < n; k += 4) {
      const __m128 t = _mm_add_ps(_mm_loadu_ps(h + k), _mm_mul_ps(v1, _mm_loadu_ps(x1 + k)));
      _mm_storeu_ps(y + k, _mm_add_ps(t, _mm_mul_ps(v2, _mm_loadu_ps(x2 + k))));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) y[k] = (h[k] + a1 * x1[k]) + a2 * x2[k];
}

/// hits[k] += acc[k] × step, then acc[k] = 0, for k < n (n a multiple of 8): a batch of
/// quantised weights moved into the float sums.
LANGSIFT_INLINE void drain_batch(float* __restrict hits, std::uint16_t* __restrict acc, float step, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 8 == 0) {
    const __m128 vs = _mm_set1_ps(step);
    const __m128i zero = _mm_setzero_si128();
    for (std::size_t k = 0; k < n; k += 8) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + k));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + k), zero);
      const __m128 lo = _mm_cvtepi32_ps(_mm_unpacklo_epi16(a, zero)), hi = _mm_cvtepi32_ps(_mm_unpackhi_epi16(a, zero));
      _mm_storeu_ps(hits + k, _mm_add_ps(_mm_loadu_ps(hits + k), _mm_mul_ps(lo, vs)));
      _mm_storeu_ps(hits + k + 4, _mm_add_ps(_mm_loadu_ps(hits + k + 4), _mm_mul_ps(hi, vs)));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) {
    hits[k] += static_cast<float>(acc[k]) * step;
    acc[k] = 0;
  }
}

/// The largest and the second largest of v[0..n) (equal when the largest occurs twice); n >= 2.
LANGSIFT_INLINE void top_two(const float* v, std::size_t n, float& best, float& second) noexcept {
#if defined(__SSE2__)
  if (n >= 4 && n % 4 == 0) {
    __m128 m1 = _mm_loadu_ps(v), m2 = _mm_set1_ps(-std::numeric_limits<float>::infinity());
    for (std::size_t k = 4; k < n; k += 4) {  // per lane: the largest and second largest
      const __m128 x = _mm_loadu_ps(v + k);
      m2 = _mm_max_ps(m2, _mm_min_ps(m1, x));
      m1 = _mm_max_ps(m1, x);
    }
    alignas(16) float a[4], b[4];
    _mm_store_ps(a, m1);
    _mm_store_ps(b, m2);
    float s1 = a[0], s2 = b[0];
    for (int l = 1; l < 4; ++l) {
      s2 = std::max(s2, std::max(b[l], std::min(s1, a[l])));
      s1 = std::max(s1, a[l]);
    }
    best = s1;
    second = s2;
    return;
  }
#endif
  best = second = -std::numeric_limits<float>::infinity();
  for (std::size_t k = 0; k < n; ++k) {
    if (v[k] > best) {
      second = best;
      best = v[k];
    } else if (v[k] > second) {
      second = v[k];
    }
  }
}

/// 2^f for f in [-0.5, 0.5]: its Taylor polynomial of degree 5 in f·ln 2 (relative error under
/// 3e-6 there: far below what a probability's calibration can tell).
inline constexpr float kExp2Poly[6] = {1.0f, 0.693147181f, 0.240226507f, 0.0555041087f, 0.00961812911f, 0.00133335581f};

/// y[k] = e^(t × (x[k] − top)) for k < n, for x[k] <= top and t > 0: 2^n × 2^f with n the
/// nearest integer to t × (x[k] − top) × log2(e) and 2^f from kExp2Poly; 0 where the exponent
/// (base 2) is below −100 (padding lanes, kNoScore, −inf). Returns their sum, added in four
/// partial sums by k mod 4 ((s0 + s1) + (s2 + s3)). SSE2 four at a time (n a multiple of 4) and
/// the scalar loop compute the same floats.
LANGSIFT_INLINE float exp_scaled(float* __restrict y, const float* __restrict x, float top, float t, std::size_t n) noexcept {
  const float tl = t * 1.44269504f;  // log2(e)
  const float* c = kExp2Poly;
#if defined(__SSE2__)
  if (n % 4 == 0) {
    const __m128 vtop = _mm_set1_ps(top), vtl = _mm_set1_ps(tl), floor = _mm_set1_ps(-100.0f);
    __m128 sum = _mm_setzero_ps();
    for (std::size_t k = 0; k < n; k += 4) {
      const __m128 e = _mm_max_ps(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(x + k), vtop), vtl), floor);
      const __m128i ni = _mm_cvtps_epi32(e);  // nearest (the default rounding mode)
      const __m128 f = _mm_sub_ps(e, _mm_cvtepi32_ps(ni));
      __m128 p = _mm_set1_ps(c[5]);
      for (int j = 4; j >= 0; --j) p = _mm_add_ps(_mm_mul_ps(p, f), _mm_set1_ps(c[j]));
      const __m128 scale = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(ni, _mm_set1_epi32(127)), 23));
      const __m128 v = _mm_and_ps(_mm_mul_ps(p, scale), _mm_cmpgt_ps(e, floor));
      _mm_storeu_ps(y + k, v);
      sum = _mm_add_ps(sum, v);
    }
    alignas(16) float s4[4];
    _mm_store_ps(s4, sum);
    return (s4[0] + s4[1]) + (s4[2] + s4[3]);
  }
#endif
  float s4[4] = {0, 0, 0, 0};
  for (std::size_t k = 0; k < n; ++k) {
    const float e = std::max((x[k] - top) * tl, -100.0f);
    const int ni = static_cast<int>(std::nearbyint(e));
    const float f = e - static_cast<float>(ni);
    float p = c[5];
    for (int j = 4; j >= 0; --j) p = p * f + c[j];
    const float scale = std::bit_cast<float>(static_cast<std::uint32_t>(ni + 127) << 23);
    y[k] = e > -100.0f ? p * scale : 0.0f;
    s4[k % 4] += y[k];
  }
  return (s4[0] + s4[1]) + (s4[2] + s4[3]);
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
