// langsift — detect, stage 6: bytes per language, and the top three with percent, bytes and
// fit. See langsift/impl/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// The bytes of each language the units are labelled with (by the model or by their script), in
/// s.items, most bytes first.
inline void tally_languages(const model& m, detect_scratch& s) {
  auto& items = s.items;
  items.clear();
  for (const auto& u : s.units) {
    if (u.lang < 0 && u.decided.empty()) continue;  // unattributed
    auto it = std::find_if(items.begin(), items.end(), [&](const auto& x) {
      return u.lang >= 0 ? x.lang == u.lang : (x.lang < 0 && x.code == u.decided);
    });
    if (it == items.end())
      items.push_back({static_cast<double>(u.bytes), u.lang, u.lang >= 0 ? m.language_code(static_cast<std::size_t>(u.lang)) : u.decided});
    else
      it->bytes += static_cast<double>(u.bytes);
  }
  std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.code < b.code;
  });
}

/// The fit of model language l on its scored units: mean hit weight per feature, relative to the
/// same on held-out text of the language (1 when there is nothing to measure). `letters`: the
/// letters behind it.
inline float fit_of(const model& m, const detect_scratch& s, int l, double& letters) {
  double hits = 0, nfeat = 0, nletters = 0;
  const auto& rec = m.language(static_cast<std::size_t>(l));
  for (const auto& u : s.units) {
    if (u.lang != l || !u.scored) continue;
    hits += s.hits[u.score_begin + rec.local];
    nfeat += u.features;
    nletters += u.letters;
  }
  letters = nletters;
  if (nfeat <= 0 || rec.expected_fit <= 0) return 1.0f;
  return static_cast<float>(hits / nfeat / rec.expected_fit);
}

namespace detect_stage {

LANGSIFT_INLINE void top_three(const model& m, const detect_options& opt, std::size_t input_bytes, detect_scratch& s,
                               detection& d) {
  tally_languages(m, s);
  s.top_fit_letters = 0;
  const double scale = s.sampled ? static_cast<double>(input_bytes) / static_cast<double>(s.examined) : 1.0;
  d.text_bytes = static_cast<std::size_t>(std::llround(static_cast<double>(s.text_bytes) * scale));
  d.is_short = d.text_bytes < opt.short_text_bytes;
  const double total = static_cast<double>(s.text_bytes);
  int percent_left = 100;
  std::size_t bytes_left = d.text_bytes;  // rounded shares never add up to more than the whole
  for (const auto& it : s.items) {
    if (d.count == 3) break;
    language_estimate e;
    e.code = it.code;
    e.percent = std::min(percent_left, static_cast<int>(std::lround(100.0 * it.bytes / total)));
    percent_left -= e.percent;
    e.bytes = std::min(bytes_left, static_cast<std::size_t>(std::llround(it.bytes * scale)));
    bytes_left -= e.bytes;
    // Languages decided by their script (and Chinese, decided by Han) fit by definition, and
    // the rank scorer measures no fit.
    const bool by_script = it.lang < 0 || static_cast<script>(m.language(static_cast<std::size_t>(it.lang)).script) == script::han;
    e.score = 1.0f;
    if (!by_script && !s.use_rank) {
      double letters = 0;
      e.score = fit_of(m, s, it.lang, letters);
      if (d.count == 0) s.top_fit_letters = letters;
    }
    d.languages[d.count++] = e;
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
