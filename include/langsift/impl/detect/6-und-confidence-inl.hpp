// langsift — detect, stage 6: the probabilities of the document's labels and the confidence of
// the top language, or und when the text is not natural language. See
// langsift/detail/detect_stages.hpp and docs/detection.md ("Probabilities").
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "langsift/detail/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

LANGSIFT_INLINE float pool_scores(const model& m, int l, detect_scratch& s) {
  const auto& rec = m.language(static_cast<std::size_t>(l));
  const group_table& g = m.group(rec.group);
  s.own.assign(g.size_pad(), 0.0f);
  float features = 0;
  bool scored = false;
  for (const auto& u : s.units) {
    if (u.lang != l || !u.scored) continue;
    scored = true;
    features += u.features;
    add_scaled(s.own.data(), 1.0f, s.scores.data() + u.score_begin, g.size_pad());
  }
  for (std::size_t c = g.size(); c < g.size_pad(); ++c) s.own[c] = kNoScore;
  return scored ? features : -1.0f;
}

LANGSIFT_INLINE double margin_of(const model& m, int top, const detect_scratch& s) noexcept {
  const auto& rec = m.language(static_cast<std::size_t>(top));
  const group_table& g = m.group(rec.group);
  const std::uint16_t top_base = m.base_id(static_cast<std::size_t>(top));
  float rival = kNoScore / 2;
  bool found = false;
  for (std::size_t c = 0; c < g.size(); ++c)
    if (s.own[c] > rival && c != rec.local && m.base_id(g.langs[c]) != top_base) {
      rival = s.own[c];
      found = true;
    }
  return found ? static_cast<double>(s.own[rec.local]) - static_cast<double>(rival) : std::numeric_limits<double>::infinity();
}

/// Adds `p` to the probability of `code` in s.dist.
inline void add_probability(detect_scratch& s, std::string_view code, double p) {
  for (auto& e : s.dist)
    if (e.first == code) {
      e.second += p;
      return;
    }
  s.dist.emplace_back(code, p);
}

/// Adds `share` × the calibrated distribution over the languages of a group, from the pooled
/// scores in s.own of the units of one language with `features` read (model::probability_calibration):
/// p(c) = exp(τ (S_c − S_max)) / (Σ_j exp(τ (S_j − S_max)) + rest), τ = scale / √features.
/// Candidates more than 30 / τ behind (p < 1e-13) are left out. Overwrites s.own.
inline void add_group_distribution(const model& m, const group_table& g, float features, double share, detect_scratch& s) {
  const probability_calibration& cal = m.probability_calibration();
  float* own = s.own.data();
  const std::uint32_t best = first_argmax(own, static_cast<std::uint32_t>(g.size_pad()));
  const double top = own[best];
  const double tau = static_cast<double>(cal.scale) / std::sqrt(std::max(1.0, static_cast<double>(features)));
  const double cut = top - 30.0 / tau;
  double sum = cal.rest;
  for (std::size_t c = 0; c < g.size(); ++c) {
    if (own[c] > cut) {
      const double e = std::exp(tau * (static_cast<double>(own[c]) - top));
      own[c] = static_cast<float>(e);
      sum += e;
    } else {
      own[c] = 0.0f;
    }
  }
  for (std::size_t c = 0; c < g.size(); ++c)
    if (own[c] > 0) add_probability(s, m.language_code(g.langs[c]), share * static_cast<double>(own[c]) / sum);
}

/// `p` as a float no larger than it (so that the floats of a distribution sum to at most 1).
inline float probability_float(double p) noexcept {
  p = std::clamp(p, 0.0, 1.0);
  float f = static_cast<float>(p);
  if (static_cast<double>(f) > p) f = std::nextafter(f, 0.0f);
  return f;
}

/// The probability of `code` in s.dist (0 if absent).
inline double probability_of(const detect_scratch& s, std::string_view code) noexcept {
  for (const auto& e : s.dist)
    if (e.first == code) return e.second;
  return 0.0;
}

/// The distribution over the document's label in s.dist: each language with bytes (s.items)
/// adds its share of the attributed bytes times the calibrated distribution of its units (a
/// language decided by its script: all of its share to itself). Sets d.margin from the top
/// language's units. The rank scorer's scores are no log-probabilities: each language keeps its
/// share times the logistic of its relative lead (not calibrated).
inline void label_distribution(const model& m, detect_scratch& s, detection& d) {
  s.dist.clear();
  double attributed = 0;
  for (const auto& it : s.items) attributed += it.bytes;
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    const language_bytes& it = s.items[i];
    const double share = it.bytes / attributed;
    const float features = it.lang >= 0 ? pool_scores(m, it.lang, s) : -1.0f;
    if (features < 0) {  // decided by its script
      add_probability(s, it.code, share);
      continue;
    }
    const double margin = margin_of(m, it.lang, s);
    if (i == 0 && std::isfinite(margin)) d.margin = static_cast<float>(margin);
    if (!std::isfinite(margin)) {  // no rival scores (a restriction left one language)
      add_probability(s, it.code, share);
    } else if (s.use_rank) {
      const double own = s.own[m.language(static_cast<std::size_t>(it.lang)).local];
      const double z = margin / std::max(1.0, own) * 20.0 - 1.0;
      add_probability(s, it.code, share / (1.0 + std::exp(-std::clamp(z, -50.0, 50.0))));
    } else {
      add_group_distribution(m, m.group(m.language(static_cast<std::size_t>(it.lang)).group), features, share, s);
    }
  }
  double total = 0;
  for (const auto& e : s.dist) total += e.second;
  if (total > 1.0)  // rounding: the shares sum to 1, each distribution to less
    for (auto& e : s.dist) e.second /= total;
}

/// Whether the text is not natural language, in any language we know: code-like, scrambled case
/// (base64, hashes), repetitive, or a poor fit to the top language (with enough evidence).
inline bool not_language(const detect_options& opt, const detect_scratch& s, const language_estimate& first) noexcept {
  const bool code_like = opt.max_code_symbols > 0 && s.code_symbols >= 4 &&
                         static_cast<float>(s.code_symbols) >= opt.max_code_symbols * static_cast<float>(s.letters);
  const bool scrambled_case = s.case_switches >= 4 && s.case_switches * 20 >= s.letters;
  // "aaaaaaaa...", "hahahahaha...": 40 letters or more made of at most 4 byte values.
  const bool repetitive = s.letters >= 40 && s.distinct <= 4;
  // The fit says "not language" only with enough evidence: a few words may be rare words.
  const bool unfit = first.score < opt.undefined_score && s.top_fit_letters >= 15;
  return unfit || code_like || scrambled_case || repetitive;
}

namespace detect_stage {

LANGSIFT_INLINE void und_confidence(const model& m, const detect_options& opt, detect_scratch& s, detection& d) {
  if (not_language(opt, s, d.languages[0])) {
    d.count = 0;
    d.confidence = 0;
    d.margin = 0;
    return;
  }
  d.margin = std::numeric_limits<float>::infinity();
  label_distribution(m, s, d);
  d.confidence = probability_float(probability_of(s, d.languages[0].code));
  d.reliable = d.confidence >= 0.9f && d.languages[0].percent >= 70 && d.languages[0].score >= 0.5f;
  const std::size_t k = std::min({opt.top_k, max_top_k, s.dist.size()});
  std::partial_sort(s.dist.begin(), s.dist.begin() + static_cast<std::ptrdiff_t>(k), s.dist.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  d.probability_count = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const float p = probability_float(s.dist[i].second);
    if (p <= 0) break;
    d.probabilities[d.probability_count++] = {s.dist[i].first, p};
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
