// langsift — detect, stage 7: the probabilities of the document's labels and the confidence of
// the top language, or und when the text is not natural language. See
// langsift/impl/detect_stages.hpp and docs/detection.md ("Probabilities").
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <string_view>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"
#include "langsift/impl/detect/4-segment-inl.hpp"
#include "langsift/impl/detect/not-language-inl.hpp"

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
  if (scored) add_priors(m, s, rec.group, features, s.own.data());  // once for the pooled units, as stage 4 gave them
  return scored ? features : -1.0f;
}

LANGSIFT_INLINE double margin_of(const model& m, int top, detect_scratch& s) noexcept {
  const auto& rec = m.language(static_cast<std::size_t>(top));
  const group_table& g = m.group(rec.group);
  const std::uint16_t top_base = m.base_id(static_cast<std::size_t>(top));
  // The rival: the best other language of another base. The top language and any same-base
  // winner are masked out until the best left is another base, then put back.
  float* own = s.own.data();
  std::pair<std::uint32_t, float> masked[4];
  std::size_t n_masked = 0;
  masked[n_masked++] = {rec.local, own[rec.local]};
  own[rec.local] = kNoScore;
  double rival = -1e300;
  for (;;) {
    const std::uint32_t c = first_argmax(own, static_cast<std::uint32_t>(g.size_pad()));
    if (own[c] <= kNoScore / 2) break;  // none left: the rest, padding included, is kNoScore
    if (m.base_id(g.langs[c]) != top_base) {
      rival = own[c];
      break;
    }
    if (n_masked == std::size(masked)) break;  // (a base has at most a few script variants)
    masked[n_masked++] = {c, own[c]};
    own[c] = kNoScore;
  }
  for (std::size_t i = n_masked; i-- > 0;) own[masked[i].first] = masked[i].second;
  return rival > -1e299 ? static_cast<double>(own[rec.local]) - rival : std::numeric_limits<double>::infinity();
}

/// Adds `p` to the probability of model language `l`.
inline void add_probability(detect_scratch& s, std::uint16_t l, double p) {
  if (s.prob[l] == 0) s.touched.push_back(l);
  s.prob[l] += p;
}

/// Adds `p` to the probability of a language decided by its script outside the model.
inline void add_decided_probability(detect_scratch& s, std::string_view code, double p) {
  for (auto& e : s.dist)
    if (e.first == code) {
      e.second += p;
      return;
    }
  s.dist.emplace_back(code, p);
}

/// Candidates under this share of their group's weight are left out of the distribution.
inline constexpr double kNegligibleProbability = 1e-9;

/// The calibrated weights of the languages of group `g` in s.weights, from the pooled scores in
/// s.own of the units of one language with `features` read (model::probability_calibration):
/// p(c) = w[c] / (Σ_j w[j] + rest), w[c] = exp(τ (S_c − S_max)), τ = scale / √features. Returns
/// the denominator. `best`: the local index of S_max, when the caller knows it (~0u: found here).
inline double group_weights(const model& m, const group_table& g, float features, detect_scratch& s, std::uint32_t& best) {
  const probability_calibration& cal = m.probability_calibration();
  const std::size_t pad = g.size_pad(), n4 = (g.size() + 3) / 4 * 4;  // the lanes past n4 are padding
  if (best == ~0u) best = first_argmax(s.own.data(), static_cast<std::uint32_t>(pad));
  const float tau = cal.scale / std::sqrt(std::max(1.0f, features));
  if (s.weights.size() < pad) s.weights.resize(pad);
  return static_cast<double>(cal.rest) + exp_scaled(s.weights.data(), s.own.data(), s.own[best], tau, n4);
}

/// When stage 5 decided the close group of model language `l`: the weight the model gives the
/// group's members together (s.weights, by local index) is shared among them as the decision's
/// probabilities say, and `best` becomes the local index of the largest weight. False when the
/// group was not decided (nothing changed).
inline bool apply_close_decision(const model& m, const group_table& g, int l, detect_scratch& s, std::uint32_t& best) {
  if (s.close.empty()) return false;
  const int cg = m.close_group_of(static_cast<std::size_t>(l));
  if (cg < 0) return false;
  for (const close_decision& dec : s.close) {
    if (dec.group != cg) continue;
    const std::span<const std::uint16_t> members = m.close_members(static_cast<std::size_t>(cg));
    float* w = s.weights.data();
    double mass = 0;
    for (const std::uint16_t x : members) mass += w[m.language(x).local];
    for (std::size_t i = 0; i < members.size(); ++i) w[m.language(members[i]).local] = static_cast<float>(mass * dec.q[i]);
    best = first_argmax(w, static_cast<std::uint32_t>(g.size()));
    return true;
  }
  return false;
}

/// Adds `share` × the calibrated distribution of group `g` (group_weights) to s.prob.
/// (`l`: the language whose units were pooled, for its close group's decision.)
inline void add_group_distribution(const model& m, int l, const group_table& g, float features, double share, detect_scratch& s) {
  std::uint32_t best = ~0u;
  const double sum = group_weights(m, g, features, s, best);
  apply_close_decision(m, g, l, s, best);
  const float* w = s.weights.data();
  const double cut = kNegligibleProbability * sum, scale = share / sum;
  for (std::size_t c = 0; c < g.size(); ++c)
    if (w[c] > cut) add_probability(s, g.langs[c], w[c] * scale);
}

/// `p` as a float no larger than it (so that the floats of a distribution sum to at most 1).
inline float probability_float(double p) noexcept {
  p = std::clamp(p, 0.0, 1.0);
  float f = static_cast<float>(p);
  if (static_cast<double>(f) > p) f = std::nextafter(f, 0.0f);
  return f;
}

/// The distribution over the document's label: each language with bytes (s.items) adds its share
/// of the attributed bytes times the calibrated distribution of its units (a language decided by
/// its script: all of its share to itself), into s.prob (model languages, listed in s.touched)
/// and s.dist (languages outside the model). Sets d.margin from the top language's units. The
/// rank scorer's scores are no log-probabilities: each language keeps its share times the
/// logistic of its relative lead (not calibrated).
inline void label_distribution(const model& m, detect_scratch& s, detection& d) {
  s.dist.clear();
  for (const std::uint16_t l : s.touched) s.prob[l] = 0;  // the last call's (also if it threw)
  s.touched.clear();
  if (s.prob.size() < m.language_count()) s.prob.resize(m.language_count(), 0.0);
  double attributed = 0;
  for (const auto& it : s.items) attributed += it.bytes;
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    const language_bytes& it = s.items[i];
    const double share = it.bytes / attributed;
    if (it.lang < 0) {  // decided by its script, outside the model
      add_decided_probability(s, it.code, share);
      continue;
    }
    const auto l = static_cast<std::uint16_t>(it.lang);
    const float features = pool_scores(m, it.lang, s);
    if (features < 0) {  // decided by its script
      add_probability(s, l, share);
      continue;
    }
    const double margin = margin_of(m, it.lang, s);
    if (i == 0 && std::isfinite(margin)) d.margin = static_cast<float>(margin);
    if (!std::isfinite(margin)) {  // no rival scores (a restriction left one language)
      add_probability(s, l, share);
    } else if (s.use_rank) {
      const double own = s.own[m.language(l).local];
      const double z = margin / std::max(1.0, own) * 20.0 - 1.0;
      add_probability(s, l, share / (1.0 + std::exp(-std::clamp(z, -50.0, 50.0))));
    } else {
      add_group_distribution(m, l, m.group(m.language(l).group), features, share, s);
    }
  }
  double total = 0;
  for (const std::uint16_t l : s.touched) total += s.prob[l];
  for (const auto& e : s.dist) total += e.second;
  if (total > 1.0) {  // rounding: the shares sum to 1, each distribution to less
    for (const std::uint16_t l : s.touched) s.prob[l] /= total;
    for (auto& e : s.dist) e.second /= total;
  }
}

/// The common case: one language has all the attributed bytes and its units were scored. Its
/// units' calibrated distribution is the document's: d.margin, d.confidence and the top_k of
/// d.probabilities straight from the weights (the k largest, ties to the lower local index, down
/// to the negligible). False, with nothing set, for any other case.
inline bool single_language(const model& m, const detect_options& opt, detect_scratch& s, detection& d) {
  if (s.items.size() != 1 || s.items[0].lang < 0 || s.use_rank) return false;
  const int l = s.items[0].lang;
  const float features = pool_scores(m, l, s);
  if (features < 0) return false;
  const double margin = margin_of(m, l, s);
  if (!std::isfinite(margin)) return false;
  d.margin = static_cast<float>(margin);
  const language_record& rec = m.language(static_cast<std::size_t>(l));
  const group_table& g = m.group(rec.group);
  // A lead over every language of another base makes it the best: within a group, the one base
  // with two languages is Chinese, and one of zh and zh-Hant is always kNoScore.
  std::uint32_t best = margin >= 0 && g.langs[rec.local] != m.chinese() && g.langs[rec.local] != m.chinese_traditional() ? rec.local : ~0u;
  const double sum = group_weights(m, g, features, s, best);
  apply_close_decision(m, g, l, s, best);
  const float* w = s.weights.data();
  d.confidence = probability_float(w[rec.local] / sum);
  const std::size_t k = std::min(opt.top_k, max_top_k);
  std::array<std::uint32_t, max_top_k> top{};
  std::size_t n = 0;
  const double cut = kNegligibleProbability * sum;
  if (k == 1) top[n++] = best;  // the largest weight, 1 (the first of equal ones)
  for (std::uint32_t c = 0; c < g.size() && k > 1; ++c) {
    const float x = w[c];
    if (!(x > cut) || (n == k && !(x > w[top[n - 1]]))) continue;
    std::size_t pos = n < k ? n++ : k - 1;  // the last one makes room when k are held
    for (; pos > 0 && w[top[pos - 1]] < x; --pos) top[pos] = top[pos - 1];
    top[pos] = c;
  }
  d.probability_count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float p = probability_float(w[top[i]] / sum);
    if (p <= 0) break;
    d.probabilities[d.probability_count++] = {m.language_code(g.langs[top[i]]), p};
  }
  return true;
}

/// The signs of the whole text (stage 2's counts) with the fit of its top language `first`.
inline language_signs signs_of(const detect_scratch& s, const language_estimate& first) noexcept {
  return language_signs{s.signs, s.letters, s.latin_letters, s.distinct, first.score, s.top_fit_letters};
}

/// Whether the whole text is not natural language: its signs (not_language), its words repeating
/// themselves (read when its letters are few distinct bytes), or lorem ipsum answered Latin.
inline bool not_language(const detect_options& opt, const detect_scratch& s, const language_estimate& first) noexcept {
  return not_language(opt, signs_of(s, first)) || (s.distinct <= kFewLetterBytes && repeated_words(s.units)) ||
         (first.code == "la" && lorem_ipsum(s.units));
}

/// `reliable`: confidence >= 0.9, the top language has >= 70 % of the text and fits its profile
/// (score >= 0.5), and the text has no signs of code with a poor fit (code_hinted).
inline bool reliable_answer(const detect_options& opt, const detect_scratch& s, const detection& d) noexcept {
  const language_estimate& top = d.languages[0];
  return d.confidence >= 0.9f && top.percent >= 70 && top.score >= 0.5f && !code_hinted(opt, signs_of(s, top));
}

namespace detect_stage {

LANGSIFT_INLINE void und_confidence(const model& m, const detect_options& opt, detect_scratch& s, detection& d) {
  if (not_language(opt, s, d.languages[0])) {
    d.count = 0;
    d.confidence = 0;
    d.margin = 0;
    return;
  }
  if (single_language(m, opt, s, d)) {
    d.reliable = reliable_answer(opt, s, d);
    return;
  }
  d.margin = std::numeric_limits<float>::infinity();
  label_distribution(m, s, d);
  const language_bytes& top = s.items[0];
  double p_top = 0;
  if (top.lang >= 0) {
    p_top = s.prob[static_cast<std::size_t>(top.lang)];
  } else {
    for (const auto& e : s.dist)
      if (e.first == top.code) p_top = e.second;
  }
  d.confidence = probability_float(p_top);
  d.reliable = reliable_answer(opt, s, d);
  d.probability_count = 0;
  if (opt.top_k > 0) {  // the k most probable, ties by code
    for (const std::uint16_t l : s.touched) s.dist.emplace_back(m.language_code(l), s.prob[l]);
    const std::size_t k = std::min({opt.top_k, max_top_k, s.dist.size()});
    std::partial_sort(s.dist.begin(), s.dist.begin() + static_cast<std::ptrdiff_t>(k), s.dist.end(),
                      [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    for (std::size_t i = 0; i < k; ++i) {
      const float p = probability_float(s.dist[i].second);
      if (p <= 0) break;
      d.probabilities[d.probability_count++] = {s.dist[i].first, p};
    }
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
