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

/// Counts, in bytes[0, n), the code symbols (a run of one symbol counting once) and the case
/// switches (an ASCII capital right after an ASCII lower-case letter); the byte before bytes[0]
/// counts as 0. 16 bytes at a time without branches: byte-class masks of each block and of the
/// same block shifted by one byte, combined and counted.
LANGSIFT_INLINE void count_symbols_and_case(const unsigned char* bytes, std::size_t n, std::size_t& code_symbols,
                                            std::size_t& case_switches) noexcept {
  auto one = [&](std::size_t i) LANGSIFT_ALWAYS_INLINE {
    const unsigned f = kByteFlags[bytes[i]];
    if ((f & 3u) == 0) return;
    const unsigned char prev = i ? bytes[i - 1] : 0;
    if (f & 1u) code_symbols += bytes[i] != prev;        // "____" counts once
    else case_switches += (kByteFlags[prev] >> 2) & 1u;  // lower-case, then upper-case
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= 17) {
    one(0);
    i = 1;
    // x in [lo, hi] for ASCII lo..hi (signed compares: bytes >= 0x80 are negative, never inside);
    // the bounds as vectors once, outside the loop
    constexpr std::size_t R = std::size(kCodeSymbolRanges);
    __m128i below[R + 2], above[R + 2];
    for (std::size_t r = 0; r < R; ++r) {
      below[r] = _mm_set1_epi8(static_cast<char>(kCodeSymbolRanges[r].first - 1));
      above[r] = _mm_set1_epi8(static_cast<char>(kCodeSymbolRanges[r].second + 1));
    }
    below[R] = _mm_set1_epi8('A' - 1), above[R] = _mm_set1_epi8('Z' + 1);
    below[R + 1] = _mm_set1_epi8('a' - 1), above[R + 1] = _mm_set1_epi8('z' + 1);
    auto in = [&](__m128i x, std::size_t r) LANGSIFT_ALWAYS_INLINE {
      return _mm_and_si128(_mm_cmpgt_epi8(x, below[r]), _mm_cmplt_epi8(x, above[r]));
    };
    // Per-lane counts (a mask lane is -1: subtracting it adds 1), summed every 255 blocks.
    __m128i sym_count = _mm_setzero_si128(), switch_count = _mm_setzero_si128();
    unsigned blocks = 0;
    auto drain = [&] {
      const __m128i zero = _mm_setzero_si128();
      const __m128i a = _mm_sad_epu8(sym_count, zero), b = _mm_sad_epu8(switch_count, zero);
      code_symbols += static_cast<std::size_t>(_mm_cvtsi128_si32(a) + _mm_extract_epi16(a, 4));
      case_switches += static_cast<std::size_t>(_mm_cvtsi128_si32(b) + _mm_extract_epi16(b, 4));
      sym_count = switch_count = zero;
      blocks = 0;
    };
    for (; i + 16 <= n; i += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
      const __m128i prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i - 1));
      static_assert(R == 7);
      const __m128i sym = _mm_or_si128(_mm_or_si128(_mm_or_si128(in(x, 0), in(x, 1)), _mm_or_si128(in(x, 2), in(x, 3))),
                                       _mm_or_si128(_mm_or_si128(in(x, 4), in(x, 5)), in(x, 6)));
      const __m128i new_sym = _mm_andnot_si128(_mm_cmpeq_epi8(x, prev), sym);
      const __m128i switches = _mm_and_si128(in(x, R), in(prev, R + 1));
      sym_count = _mm_sub_epi8(sym_count, new_sym);
      switch_count = _mm_sub_epi8(switch_count, switches);
      if (++blocks == 255) drain();
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
