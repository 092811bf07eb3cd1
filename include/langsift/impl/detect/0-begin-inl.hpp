// langsift — detect, stage 0: the call's settings (restrictions, hints, early exit). See
// langsift/impl/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "langsift/country.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

inline bool allowed_code(std::string_view code, std::span<const std::string_view> only) noexcept {
  if (only.empty()) return true;
  for (auto w : only)
    if (code_matches(code, w)) return true;
  return false;
}

/// Calls f(tag) for each language tag in a comma/space separated list, lower-cased primary
/// subtag plus the script subtag if any ("pt-BR" -> "pt", "zh-Hant-TW" -> "zh-Hant").
template <class F>
inline void for_each_hint(std::string_view list, F&& f) {
  std::size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && (list[i] == ',' || list[i] == ' ' || list[i] == ';' || list[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < list.size() && list[j] != ',' && list[j] != ' ' && list[j] != ';' && list[j] != '\t') ++j;
    std::string_view tag = list.substr(i, j - i);
    i = j;
    if (tag.empty() || tag.size() > 40) continue;
    char buf[16];
    std::size_t n = 0;
    std::size_t k = 0;
    while (k < tag.size() && tag[k] != '-' && tag[k] != '_' && n < 8) buf[n++] = detail::ascii_lower(tag[k++]);
    if (n < 2) continue;
    f(std::string_view(buf, n));
    // script subtag (4 letters) right after the primary one
    if (k < tag.size() && k + 5 <= tag.size() && (k + 5 == tag.size() || tag[k + 5] == '-' || tag[k + 5] == '_')) {
      std::string_view sub = tag.substr(k + 1, 4);
      bool alpha = true;
      for (char c : sub) alpha = alpha && ((c | 32) >= 'a' && (c | 32) <= 'z');
      if (alpha && n + 5 <= sizeof buf) {
        buf[n] = '-';
        buf[n + 1] = static_cast<char>(sub[0] & ~32);
        for (int q = 1; q < 4; ++q) buf[n + 1 + q] = static_cast<char>(sub[q] | 32);
        f(std::string_view(buf, n + 5));
      }
    }
  }
}

/// The mask of group `gi` for a restricted call (`only`): per local language 0 when allowed,
/// kNoScore when not; built on first use, for the groups the text uses. Nothing per call is
/// proportional to the model's size without restrictions or hints.
inline const float* allowed_mask(const model& m, const detect_options& opt, detect_scratch& s, std::uint32_t gi) {
  if (s.allowed_at[gi] == ~0u) {
    const group_table& g = m.group(gi);
    s.allowed_at[gi] = static_cast<std::uint32_t>(s.allowed.size());
    s.allowed.resize(s.allowed.size() + g.size_pad(), kNoScore);
    for (std::uint32_t i = 0; i < g.size(); ++i)
      if (allowed_code(m.language_code(g.langs[i]), opt.only)) {
        s.allowed[s.allowed_at[gi] + i] = 0.0f;
        ++s.allowed_count[gi];
      }
  }
  return s.allowed.data() + s.allowed_at[gi];
}

/// Raises the bonus of the language tagged `tag` (if the model knows it) to w × the hints' weight.
inline void add_hint(const model& m, const detect_options& opt, detect_scratch& s, std::string_view tag, float w) {
  const int l = m.find_language(tag);
  if (l >= 0) s.bonus[static_cast<std::size_t>(l)] = std::max(s.bonus[static_cast<std::size_t>(l)], w * opt.hints.weight);
}

namespace detect_stage {

LANGSIFT_INLINE void begin(const model& m, const detect_options& opt, detect_scratch& s) {
  s.restricted = !opt.only.empty();
  if (s.restricted) {
    s.allowed.clear();
    s.allowed_at.assign(m.group_count(), ~0u);
    s.allowed_count.assign(m.group_count(), 0);
  }
  const detect_hints& h = opt.hints;
  s.hinted = h.weight > 0 && (!h.content_language.empty() || !h.html_lang.empty() || !h.languages.empty() || !h.tld.empty());
  if (s.hinted) {
    s.bonus.assign(m.language_count(), 0.0f);
    const auto declared = [&](std::string_view tag) { add_hint(m, opt, s, tag, 30.0f); };
    for_each_hint(h.content_language, declared);
    for_each_hint(h.html_lang, declared);
    for_each_hint(h.languages, declared);
    const std::string_view country = tld_country(h.tld);
    if (!country.empty())
      for_each_country_language(country, [&](std::string_view code, float) { add_hint(m, opt, s, code, 15.0f); });
  }
  s.use_rank = opt.method == scorer::rank;
  // The model's language priors (the wide model's rare languages): asked for (web_prior) and not
  // overridden by `only`; a hinted language goes without its prior (add_priors); short text only
  // (stage 4 turns them off from short_text_bytes).
  s.prior = opt.web_prior && !s.restricted && !s.use_rank && m.has_language_priors();
  // Han: Simplified Chinese is the default written form; Traditional needs a margin (characters
  // that Simplified writes differently), so "中文" stays zh.
  s.zh = m.chinese();
  // Early exit (as CLD2 does): a unit is read in pieces of about 48 bytes, and once one
  // language leads every other by a margin worth a confidence of `exit_confidence`, the rest of
  // the unit is not looked up — its bytes still count for the unit's language.
  s.exit_z = opt.early_exit && !s.use_rank && opt.exit_confidence < 1.0f
                 ? std::log(static_cast<double>(opt.exit_confidence) / (1.0 - opt.exit_confidence))
                 : 1e300;
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
