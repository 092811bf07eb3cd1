// langsift — detect, stage 5: close groups. When units are labelled with members of a group of
// languages the model confuses (close_groups.hpp), the group's discriminator decides among the
// members over the text of all those units, with the model's calibrated log-odds and the web
// prior; the units take the winner. See langsift/impl/detect_stages.hpp and docs/detection.md
// ("Close languages").
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "langsift/close_groups.hpp"
#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/0-begin-inl.hpp"
#include "langsift/ngram.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// The text of a group's units read by the discriminator at most (a long page is decided long
/// before; the cost stays bounded).
inline constexpr std::size_t kCloseTextBytes = 8192;

/// Adds the discriminator's log-odds of `text` (its words and pairs of consecutive words) for
/// each member of close group `g` to d[0, n). `hashes`: scratch.
inline void add_discriminator(const close_groups& cg, std::size_t g, std::size_t n, std::string_view text, float* d,
                              std::vector<std::uint64_t>& hashes) {
  const ngram_config words_only{5, 4, true, feature_hashing::window};  // min above max: words only (the
  // template arguments say so at compile time: no n-gram is hashed)
  hashes.clear();
  std::uint64_t prev = 0;
  for_each_feature<kMaxNgramOrder + 1, 1, 1>(text, words_only, [&](std::uint64_t h, unsigned kind) {
    if (kind != feature_word) return;
    hashes.push_back(h);
    if (prev) hashes.push_back(close_pair_hash(prev, h));
    prev = h;
  });
  std::int32_t sum[max_close_members] = {};
  cg.add_weights(g, hashes, sum);
  const float step = cg.weight_step(g);
  for (std::size_t i = 0; i < n; ++i) d[i] += static_cast<float>(sum[i]) * step;
}

/// Whether the web prior applies to close group `g` in this call: asked for, no restriction, and
/// no hint naming a member (hints and `only` are the caller's knowledge, which the prior must not
/// outweigh).
inline bool web_prior_applies(const model& m, const detect_options& opt, const detect_scratch& s, std::size_t g) noexcept {
  if (!opt.web_prior || s.restricted) return false;
  if (s.hinted)
    for (const std::uint16_t l : m.close_members(g))
      if (s.bonus[l] > 0) return false;
  return true;
}

/// Decides among the members of close group `g` (some of whose members label units).
inline void decide_close_group(const model& m, const detect_options& opt, detect_scratch& s, std::size_t g) {
  const close_groups& cg = *m.close_groups();
  const close_group_info info = cg.group(g);
  const std::span<const std::uint16_t> members = m.close_members(g);
  const std::size_t n = members.size();
  const std::uint32_t sg = m.language(members[0]).group;
  const float* mask = s.restricted ? allowed_mask(m, opt, s, sg) : nullptr;
  std::array<bool, max_close_members> allowed{};
  std::size_t n_allowed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    allowed[i] = !mask || mask[m.language(members[i]).local] == 0.0f;
    n_allowed += allowed[i];
  }
  if (n_allowed < 2) return;
  // The model's pooled scores of the members over the group's scored units.
  std::array<double, max_close_members> pooled{};
  double features = 0;
  bool scored = false;
  std::size_t group_bytes = 0;
  for (const unit& u : s.units) {
    if (u.lang < 0 || m.close_group_of(static_cast<std::size_t>(u.lang)) != static_cast<int>(g)) continue;
    group_bytes += u.text.size();
    if (!u.scored) continue;
    scored = true;
    features += u.features;
    const float* sc = s.scores.data() + u.score_begin;
    for (std::size_t i = 0; i < n; ++i) pooled[i] += sc[m.language(members[i]).local];
  }
  // A word or two: the model's own word features have read them already.
  if (!scored || group_bytes < info.params.min_bytes) return;
  const double tau = m.probability_calibration().scale / std::sqrt(std::max(1.0, features));
  double best = -1e300, second = -1e300;
  for (std::size_t i = 0; i < n; ++i) {
    if (!allowed[i]) continue;
    if (pooled[i] > best) {
      second = best;
      best = pooled[i];
    } else if (pooled[i] > second) {
      second = pooled[i];
    }
  }
  if (tau * (second - best) < -info.params.trigger) return;  // not in play: the model is sure
  // The discriminator over the text of every unit of the group (scored or skimmed), and the
  // decision: model log-odds, discriminator log-odds and the prior, each by its weight.
  std::array<float, max_close_members> d{};
  std::size_t read = 0;
  for (const unit& u : s.units) {
    if (read >= kCloseTextBytes) break;
    if (u.lang < 0 || m.close_group_of(static_cast<std::size_t>(u.lang)) != static_cast<int>(g)) continue;
    add_discriminator(cg, g, n, u.text, d.data(), s.close_hashes);
    read += u.text.size();
  }
  const bool prior = read >= info.params.prior_min_bytes && web_prior_applies(m, opt, s, g);
  float top_share = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (allowed[i]) top_share = std::max(top_share, info.web_share[i]);
  const close_group_params& p = info.params;
  std::array<double, max_close_members> z{};
  double zmax = -1e300;
  int win = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!allowed[i]) continue;
    z[i] = p.model_weight * tau * (pooled[i] - best) + p.discriminator_weight * d[i];
    if (prior && top_share > 0)
      z[i] += p.prior_weight * std::max(-static_cast<double>(p.prior_cap),
                                        std::log(std::max(1e-12, static_cast<double>(info.web_share[i]) / top_share)));
    if (win < 0 || z[i] > zmax) {
      zmax = z[i];
      win = static_cast<int>(i);
    }
  }
  for (std::size_t i = 0; i < n; ++i)  // (a file's extreme weights: no decision rather than NaNs)
    if (allowed[i] && !std::isfinite(z[i])) return;
  close_decision dec;
  dec.group = static_cast<int>(g);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += allowed[i] ? std::exp(z[i] - zmax) : 0.0;
  for (std::size_t i = 0; i < n; ++i) dec.q[i] = allowed[i] ? static_cast<float>(std::exp(z[i] - zmax) / sum) : 0.0f;
  dec.winner = members[static_cast<std::size_t>(win)];
  for (unit& u : s.units)
    if (u.lang >= 0 && m.close_group_of(static_cast<std::size_t>(u.lang)) == static_cast<int>(g)) u.lang = dec.winner;
  s.close.push_back(dec);
}

}  // namespace detail

namespace detail::detect_stage {

LANGSIFT_INLINE void close_group(const model& m, const detect_options& opt, detect_scratch& s) {
  s.close.clear();
  const close_groups* cg = m.close_groups();
  if (!opt.close_groups || !cg || s.use_rank) return;
  s.close_seen.assign(cg->group_count(), 0);
  bool any = false;
  for (const unit& u : s.units) {
    if (u.lang < 0) continue;
    const int g = m.close_group_of(static_cast<std::size_t>(u.lang));
    if (g >= 0) {
      s.close_seen[static_cast<std::size_t>(g)] = 1;
      any = true;
    }
  }
  if (!any) return;
  for (std::size_t g = 0; g < s.close_seen.size(); ++g)
    if (s.close_seen[g]) decide_close_group(m, opt, s, g);
}

}  // namespace detail::detect_stage
}  // namespace v1
}  // namespace langsift
