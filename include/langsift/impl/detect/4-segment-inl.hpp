// langsift — detect, stage 4: a language per unit. The units of a run are labelled by the best
// path through them (Viterbi over the group's languages): the sum of the units' scores minus
// switch_penalty for every change of language; unscored units take their neighbours' labels.
// See langsift/impl/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/3-score-inl.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// Adds the priors of group gi's languages (model::group_priors) to its scores sc (size_pad
/// entries), once for `features` read: each language's log-odds over τ = scale / √features, so
/// that it adds exactly its log-odds to the calibrated ones (group_weights). Nothing when the
/// priors do not apply to the call or the group has none; a hinted language keeps its score.
inline void add_priors(const model& m, const detect_scratch& s, std::uint32_t gi, float features, float* sc) {
  const float* row = s.prior ? m.group_priors(gi) : nullptr;
  if (!row) return;
  const group_table& g = m.group(gi);
  const float f = std::sqrt(std::max(1.0f, features)) / m.probability_calibration().scale;
  if (!s.hinted) {
    add_scaled(sc, f, row, g.size_pad());
    return;
  }
  for (std::uint32_t c = 0; c < g.size(); ++c)
    if (!(s.bonus[g.langs[c]] > 0)) sc[c] += f * row[c];
}

/// Labels the scored units of [i, j) (two or more) by the best path over the nc (size_pad)
/// local languages of group g.
inline void label_by_viterbi(const model& m, const detect_options& opt, detect_scratch& s, std::size_t i, std::size_t j,
                             const group_table& g, std::uint32_t nc) {
  s.viterbi.assign(nc, 0.0f);
  s.back.resize((j - i) * nc);
  std::uint32_t k = 0;  // scored units seen
  std::vector<std::uint32_t>& order = s.order;
  order.clear();
  float run_features = 0;  // the priors enter once, at the first unit, for all the run's features
  if (s.prior)
    for (std::size_t x = i; x < j; ++x)
      if (s.units[x].scored) run_features += s.units[x].features;
  const std::uint32_t gi = s.units[i].group;
  for (std::size_t x = i; x < j; ++x) {
    if (!s.units[x].scored) continue;
    order.push_back(static_cast<std::uint32_t>(x));
    const float* sc = s.scores.data() + s.units[x].score_begin;
    if (k == 0) {  // the first unit: no switch to weigh
      for (std::uint32_t c = 0; c < nc; ++c) {
        s.back[c] = static_cast<std::int32_t>(c);
        s.viterbi[c] = sc[c];
      }
      add_priors(m, s, gi, run_features, s.viterbi.data());
      ++k;
      continue;
    }
    const std::uint32_t best_prev = first_argmax(s.viterbi.data(), nc);
    const float switch_from = s.viterbi[best_prev] - opt.switch_penalty;
    for (std::uint32_t c = 0; c < nc; ++c) {
      const bool sw = switch_from > s.viterbi[c];
      s.back[std::size_t{k} * nc + c] = sw ? static_cast<std::int32_t>(best_prev) : static_cast<std::int32_t>(c);
      s.viterbi[c] = (sw ? switch_from : s.viterbi[c]) + sc[c];
    }
    ++k;
  }
  std::uint32_t c = first_argmax(s.viterbi.data(), nc);
  for (std::uint32_t q = k; q-- > 0;) {
    s.units[order[q]].lang = g.langs[c];
    c = static_cast<std::uint32_t>(s.back[std::size_t{q} * nc + c]);
  }
}

/// Labels the units [i, j) of a run: the scored ones by their best path (one scored unit, a
/// sentence or a short page: its best language, as the Viterbi pass would find), the unscored
/// ones by the scored unit before them (after them, at the start).
inline void label_run(const model& m, const detect_options& opt, detect_scratch& s, std::size_t i, std::size_t j) {
  const group_table& g = *s.units[i].g;
  const std::uint32_t nc = static_cast<std::uint32_t>(g.size_pad());
  std::size_t only = j, scored = 0;
  for (std::size_t x = i; x < j && scored < 2; ++x)
    if (s.units[x].scored) {
      only = x;
      ++scored;
    }
  if (scored == 1) {
    const unit& u = s.units[only];
    const float* sc = s.scores.data() + u.score_begin;
    std::uint32_t best = first_argmax(sc, nc);
    // The priors only lower scores: a best language without one stays the best.
    if (const float* row = s.prior ? m.group_priors(u.group) : nullptr; row && row[best] < 0) {
      s.prior_scores.assign(sc, sc + nc);
      add_priors(m, s, u.group, u.features, s.prior_scores.data());
      best = first_argmax(s.prior_scores.data(), nc);
    }
    s.units[only].lang = g.langs[best];
  } else {
    label_by_viterbi(m, opt, s, i, j, g, nc);
  }
  int last = -1;
  for (std::size_t x = i; x < j; ++x) {
    if (s.units[x].scored)
      last = s.units[x].lang;
    else if (last >= 0)
      s.units[x].lang = last;
  }
  for (std::size_t x = j; x-- > i;) {
    if (s.units[x].scored) last = s.units[x].lang;
    else if (s.units[x].lang < 0) s.units[x].lang = last;
  }
}

/// A short run in a document that is mostly other text ("iPhone" in Russian prose, "COVID" in
/// Khmer) is left unattributed unless its language is clear: a label for two words is noise.
inline void unattribute_unclear_short_runs(const model& m, detect_scratch& s) {
  const model_params& P = m.params();
  std::size_t i = 0;
  while (i < s.units.size()) {
    std::size_t j = i;
    double run_bytes = 0;
    while (j < s.units.size() && s.units[j].run == s.units[i].run) run_bytes += static_cast<double>(s.units[j++].bytes);
    if (const group_table* g = s.units[i].g; g && run_bytes < 24 && run_bytes * 10 < static_cast<double>(s.text_bytes)) {
      float best = kNoScore, second = kNoScore;
      for (std::uint32_t c = 0; c < g->size(); ++c) {
        float sum = 0;
        for (std::size_t k = i; k < j; ++k)
          if (s.units[k].scored) sum += s.scores[s.units[k].score_begin + c];
        if (sum > best) {
          second = best;
          best = sum;
        } else if (sum > second) {
          second = sum;
        }
      }
      const double z = P.calibration_a * (static_cast<double>(best) - second) + P.calibration_b;
      if (z < 2.2)  // confidence < 0.9
        for (std::size_t k = i; k < j; ++k) s.units[k].lang = -1;
    }
    i = j;
  }
}

/// A long skimmed run (wider than every third unit) whose sampled labels change at most this
/// often is read again only where they change; more changes: all of it.
inline constexpr std::size_t kLocalChanges = 4;

/// The changes of label between consecutive scored units of [i, j) (unit i is scored; 0: they
/// all agree); kLocalChanges + 1 when one is between two members of a close group (stage 5 weighs the pooled scores of all the group's
/// scored units: fewer of them, and a two-language es/pt page is in play and merged).
inline std::size_t label_changes(const model& m, const detect_scratch& s, std::size_t i, std::size_t j) noexcept {
  std::size_t changes = 0;
  int last = s.units[i].lang;
  for (std::size_t k = i + 1; k < j; ++k)
    if (s.units[k].scored) {
      const int l = s.units[k].lang;
      if (l != last) {
        ++changes;
        if (l >= 0 && last >= 0 && m.close_group_of(static_cast<std::size_t>(l)) >= 0 &&
            m.close_group_of(static_cast<std::size_t>(l)) == m.close_group_of(static_cast<std::size_t>(last)))
          return kLocalChanges + 1;
      }
      last = l;
    }
  return changes;
}

/// Scores the units between consecutive scored units of [i, j) whose labels differ, and labels
/// the run again, until every change of label lies between neighbouring units: a page in one
/// language with an English footer has its boundary found on the last gap, not on all of it.
inline void score_where_labels_change(const model& m, const detect_options& opt, detect_scratch& s, std::size_t i,
                                      std::size_t j) {
  for (bool more = true; more;) {
    more = false;
    std::size_t prev = i;
    for (std::size_t k = i + 1; k < j; ++k) {
      if (!s.units[k].scored) continue;
      if (s.units[k].lang != s.units[prev].lang && k - prev > 1) {
        for (std::size_t x = prev + 1; x < k; ++x) detect_stage::score_unit(m, opt, s, s.units[x]);
        more = true;
      }
      prev = k;
    }
    if (more) label_run(m, opt, s, i, j);
  }
}

namespace detect_stage {

LANGSIFT_INLINE void segment(const model& m, const detect_options& opt, detect_scratch& s) {
  // The language priors are for short text (detection::is_short): on pages the wide model's rare
  // languages took none of the other languages' documents (docs/detection.md, "Rare languages of
  // the wide model"), and a prior would only cost them their own.
  if (s.text_bytes >= opt.short_text_bytes) s.prior = false;
  for (std::size_t i = 0, j; i < s.units.size(); i = j) {
    j = run_end(s, i);
    if (!s.units[i].g) continue;
    label_run(m, opt, s, i, j);
    // A skimmed run is in one language when its scored units agree. When any two disagree, every
    // unit is scored: a language may also hide in the gaps (boilerplate every few units, as in a
    // page that alternates HTTP headers and Portuguese), so scoring only between disagreeing
    // neighbours is not enough. Except in a long run (its ~40 samples wider apart than every
    // third unit) whose labels change at most kLocalChanges times (a footer, a quotation), none
    // between two members of a close group: there the gaps where they change are read, until
    // each change is between neighbours.
    if (!skims(opt, s, i, j)) continue;
    if (const std::size_t changes = label_changes(m, s, i, j); changes > 0) {
      if (skim_stride(j - i) > kSkimStride && changes <= kLocalChanges) {
        score_where_labels_change(m, opt, s, i, j);
        continue;
      }
      for (std::size_t k = i; k < j; ++k)
        if (!s.units[k].scored) score_unit(m, opt, s, s.units[k]);
      label_run(m, opt, s, i, j);
    }
  }
  if (!s.use_rank) unattribute_unclear_short_runs(m, s);
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
