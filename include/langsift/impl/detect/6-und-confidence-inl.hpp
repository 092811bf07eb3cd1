// langsift — detect, stage 6: the confidence of the top language, or und when the text is not
// natural language. See langsift/detail/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "langsift/detail/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// The confidence of model language `top` on its own units: its margin there over its strongest
/// rival, another language (zh-Hant is not zh's rival, nor sr-Latn sr's). Leaves d.confidence 1
/// and d.margin infinite when no unit of `top` is scored or no rival scores.
inline void confidence_of(const model& m, int top, detect_scratch& s, detection& d) {
  const auto& rec = m.language(static_cast<std::size_t>(top));
  const group_table& g = m.group(rec.group);
  s.own.assign(g.size_pad(), 0.0f);
  bool contested = false;
  for (const auto& u : s.units) {
    if (u.lang != top || !u.scored) continue;
    contested = true;
    const float* sc = s.scores.data() + u.score_begin;
    add_scaled(s.own.data(), 1.0f, sc, g.size_pad());  // padding lanes are reset below
  }
  const std::uint16_t top_base = m.base_id(static_cast<std::size_t>(top));
  // The rival: the best other language of another base. The top language, the padding and any
  // same-base winner are masked out until the best left is another base.
  const float own_top = s.own[rec.local];
  for (std::size_t c = g.size(); c < g.size_pad(); ++c) s.own[c] = kNoScore;
  s.own[rec.local] = kNoScore;
  double rival = -1e300;
  for (;;) {
    const std::uint32_t c = first_argmax(s.own.data(), static_cast<std::uint32_t>(g.size_pad()));
    if (s.own[c] <= kNoScore / 2) break;  // none left: the rest, padding included, is kNoScore
    if (m.base_id(g.langs[c]) != top_base) {
      rival = s.own[c];
      break;
    }
    s.own[c] = kNoScore;
  }
  if (contested && rival > -1e299) {
    const model_params& P = m.params();
    const double own = own_top;
    const double z = s.use_rank ? (own - rival) / std::max(1.0, own) * 20.0 - 1.0
                                : P.calibration_a * (own - rival) + P.calibration_b;
    d.confidence = static_cast<float>(1.0 / (1.0 + std::exp(-std::clamp(z, -50.0, 50.0))));
    d.margin = static_cast<float>(own - rival);
  }
}

/// What says a text is not natural language (counted by stage 2, or over a span by detect_spans).
struct language_signs {
  std::size_t code_symbols, case_switches, letters;
  int distinct;        // distinct byte values of letters, counted up to 5
  float fit;           // the top language's fit (language_estimate::score)
  double fit_letters;  // letters behind the fit
};

/// Whether a text with `signs` is not natural language, in any language we know: code-like,
/// scrambled case (base64, hashes), repetitive, or a poor fit to the top language (with enough
/// evidence).
inline bool not_language(const detect_options& opt, const language_signs& x) noexcept {
  const bool code_like = opt.max_code_symbols > 0 && x.code_symbols >= 4 &&
                         static_cast<float>(x.code_symbols) >= opt.max_code_symbols * static_cast<float>(x.letters);
  const bool scrambled_case = x.case_switches >= 4 && x.case_switches * 20 >= x.letters;
  // "aaaaaaaa...", "hahahahaha...": 40 letters or more made of at most 4 byte values.
  const bool repetitive = x.letters >= 40 && x.distinct <= 4;
  // The fit says "not language" only with enough evidence: a few words may be rare words.
  const bool unfit = x.fit < opt.undefined_score && x.fit_letters >= 15;
  return unfit || code_like || scrambled_case || repetitive;
}

/// Whether the whole text (the scratch's counts) is not natural language.
inline bool not_language(const detect_options& opt, const detect_scratch& s, const language_estimate& first) noexcept {
  return not_language(opt, language_signs{s.code_symbols, s.case_switches, s.letters, s.distinct, first.score, s.top_fit_letters});
}

namespace detect_stage {

LANGSIFT_INLINE void und_confidence(const model& m, const detect_options& opt, detect_scratch& s, detection& d) {
  d.confidence = 1.0f;
  d.margin = std::numeric_limits<float>::infinity();
  if (const int top = s.items[0].lang; top >= 0) confidence_of(m, top, s, d);
  if (not_language(opt, s, d.languages[0])) {
    d.count = 0;
    d.confidence = 0;
    d.margin = 0;
    return;
  }
  d.reliable = d.confidence >= 0.9f && d.languages[0].percent >= 70 && d.languages[0].score >= 0.5f;
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
