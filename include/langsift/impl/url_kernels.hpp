// langsift — the URL models' arithmetic kernels (SSE2 where available): e^x, the softmax of a
// model's scores, the sum of a dense row of weights, and a bucket's weights added to the scores.
// Included by the implementation of the URL models (langsift/impl/url/*-inl.hpp) and by their
// tests; not by the public headers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace langsift {
inline namespace v1 {
namespace detail {

/// e^x for x <= 0 (relative error < 2e-4; 0 below -80): softmax over many languages per URL
/// needs no more, and std::exp would cost more than the model lookups.
inline float url_fast_exp(float x) noexcept {
  if (x < -80.f) return 0.f;
  const float t = x * 1.44269504f;  // log2(e)
  // floor(t) for t in [-116, 0], without std::floor (a long sequence without SSE4.1)
  std::int32_t ti = static_cast<std::int32_t>(t);  // toward zero
  ti -= static_cast<float>(ti) > t;
  const float fi = static_cast<float>(ti);
  const float f = t - fi;  // [0, 1)
  // 2^f on [0,1): minimax cubic
  const float p = 1.f + f * (0.6951786f + f * (0.2261560f + f * 0.0784723f));
  std::int32_t bits;
  std::memcpy(&bits, &p, 4);
  bits += ti * (1 << 23);
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

#if defined(__SSE2__)
/// url_fast_exp of 4 values, operation for operation (the same results).
inline __m128 url_fast_exp4(__m128 x) noexcept {
  const __m128 t = _mm_mul_ps(x, _mm_set1_ps(1.44269504f));
  const __m128i trunc = _mm_cvttps_epi32(t);
  const __m128i ti = _mm_add_epi32(trunc, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(trunc), t)));  // -1 where above
  const __m128 f = _mm_sub_ps(t, _mm_cvtepi32_ps(ti));
  __m128 p = _mm_add_ps(_mm_set1_ps(0.2261560f), _mm_mul_ps(f, _mm_set1_ps(0.0784723f)));
  p = _mm_add_ps(_mm_set1_ps(0.6951786f), _mm_mul_ps(f, p));
  p = _mm_add_ps(_mm_set1_ps(1.f), _mm_mul_ps(f, p));
  const __m128 r = _mm_castsi128_ps(_mm_add_epi32(_mm_castps_si128(p), _mm_slli_epi32(ti, 23)));
  return _mm_andnot_ps(_mm_cmplt_ps(x, _mm_set1_ps(-80.f)), r);
}
#endif

/// The softmax of a model's scores: out[i] = e^(s[i] - max) / Σ e^(s - max), with
/// s[i] = acc[i] * k + bias[i] / temperature (elementwise 4 at a time; the sum in index order).
/// `out` (nl values) holds s, then the exponentials, then the result.
inline void url_softmax(const std::int32_t* acc, const float* bias, std::size_t nl, float k, float temperature,
                        float* out) noexcept {
  float mx = -1e30f;
  std::size_t i = 0;
#if defined(__SSE2__)
  __m128 mx4 = _mm_set1_ps(mx);
  for (; i + 4 <= nl; i += 4) {
    const __m128 v = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i))),
                                           _mm_set1_ps(k)),
                                _mm_div_ps(_mm_loadu_ps(bias + i), _mm_set1_ps(temperature)));
    _mm_storeu_ps(out + i, v);
    mx4 = _mm_max_ps(mx4, v);
  }
  mx4 = _mm_max_ps(mx4, _mm_shuffle_ps(mx4, mx4, _MM_SHUFFLE(1, 0, 3, 2)));
  mx4 = _mm_max_ps(mx4, _mm_shuffle_ps(mx4, mx4, _MM_SHUFFLE(2, 3, 0, 1)));
  mx = _mm_cvtss_f32(mx4);
#endif
  for (; i < nl; ++i) {
    out[i] = static_cast<float>(acc[i]) * k + bias[i] / temperature;
    mx = std::max(mx, out[i]);
  }
  i = 0;
#if defined(__SSE2__)
  for (; i + 4 <= nl; i += 4) _mm_storeu_ps(out + i, url_fast_exp4(_mm_sub_ps(_mm_loadu_ps(out + i), _mm_set1_ps(mx))));
#endif
  for (; i < nl; ++i) out[i] = url_fast_exp(out[i] - mx);
  float z = 0;
  for (i = 0; i < nl; ++i) z += out[i];
  const float inv = 1.f / z;
  for (i = 0; i < nl; ++i) out[i] *= inv;
}

/// s[k] += r[k] for k < n (a dense row of int8 weights into int32 sums), 16 weights at a time.
inline void url_add_row(std::int32_t* s, const std::int8_t* r, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 16) {
    const auto add16 = [s](std::size_t at, __m128i v) {
      const __m128i lo = _mm_unpacklo_epi8(v, _mm_cmplt_epi8(v, _mm_setzero_si128()));  // int16
      const __m128i hi = _mm_unpackhi_epi8(v, _mm_cmplt_epi8(v, _mm_setzero_si128()));
      const __m128i lo_sign = _mm_srai_epi16(lo, 15), hi_sign = _mm_srai_epi16(hi, 15);
      __m128i* d = reinterpret_cast<__m128i*>(s + at);
      _mm_storeu_si128(d, _mm_add_epi32(_mm_loadu_si128(d), _mm_unpacklo_epi16(lo, lo_sign)));
      _mm_storeu_si128(d + 1, _mm_add_epi32(_mm_loadu_si128(d + 1), _mm_unpackhi_epi16(lo, lo_sign)));
      _mm_storeu_si128(d + 2, _mm_add_epi32(_mm_loadu_si128(d + 2), _mm_unpacklo_epi16(hi, hi_sign)));
      _mm_storeu_si128(d + 3, _mm_add_epi32(_mm_loadu_si128(d + 3), _mm_unpackhi_epi16(hi, hi_sign)));
    };
    std::size_t k = 0;
    for (; k + 16 <= n; k += 16) add16(k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + k)));
    if (k < n) {  // the row's last 16 weights, those already added masked to 0 (no read past the row)
      const int done = static_cast<int>(k - (n - 16));  // 1..15
      const __m128i keep = _mm_cmpgt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm_set1_epi8(static_cast<char>(done - 1)));
      add16(n - 16, _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + n - 16)), keep));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) s[k] += r[k];
}

/// url_model::add_bucket (inline: the classifier's posterior calls it once per feature). A
/// template so that this header needs no url_model (url/model_file.hpp includes its
/// implementation, which includes this header, under LANGSIFT_HEADER_ONLY).
template <class Model>
inline void url_add_bucket(const Model& m, std::uint32_t b, std::int32_t* s) noexcept {
  using posting = typename Model::posting;
  if (b & 0x80000000u) {
    if (b & 0x40000000u) {  // a dense row of all languages' weights
      url_add_row(s, m.rows.data() + std::size_t{b & 0x3FFFFFFFu} * m.languages.size(), m.languages.size());
      return;
    }
    const posting* p = m.postings.data() + ((b >> 8) & 0x3FFFFF);
    const std::size_t n = b & 0xFF;
    for (std::size_t k = 0; k < n; ++k) s[p[k].lang] += p[k].weight;
    return;
  }
  // inline: two 15-bit postings (weight 0 = none)
  for (int k = 0; k < 2; ++k, b >>= 15) {
    const std::uint32_t x = b & 0x7FFF;
    s[x & 0xFF] += static_cast<std::int32_t>(x << 17) >> 25;  // the 7-bit signed weight in bits 8-14
  }
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
