// langsift — implementation of langsift/url/classify.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/url/classify.hpp"

#include <algorithm>
#include <memory>
#include <new>

#include "langsift/country.hpp"
#include "langsift/impl/url_kernels.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE std::string_view cctld_language(const url_parts& u) noexcept {
  std::string_view lang;
  const std::string_view cc = tld_country(u.tld());
  if (cc.empty()) return {};
  for_each_country_language(cc, [&](std::string_view l, float) {
    if (lang.empty()) lang = l;
  });
  return lang;
}

LANGSIFT_INLINE std::string_view cctld_plus_language(const url_parts& u) noexcept {
  std::string_view l = cctld_language(u);
  if (!l.empty()) return l;
  static constexpr std::string_view generic[] = {"com", "org", "net", "edu", "gov", "mil", "info", "biz"};
  const std::string_view t = u.tld();
  for (auto g : generic)
    if (t == g) return "en";
  return {};
}

LANGSIFT_INLINE url_classifier::url_classifier(const url_model* linear, const url_model* words)
    : linear_(linear), words_(words) {
  if (linear_ && linear_->empty()) linear_ = nullptr;
  if (words_ && words_->empty()) words_ = nullptr;
  auto add = [&](const url_model* m, std::vector<std::uint16_t>& map) {
    if (!m) return;
    for (const auto& l : m->languages) {
      std::size_t i = 0;
      while (i < codes_.size() && codes_[i] != l) ++i;
      if (i == codes_.size() && codes_.size() < kMaxLanguages) codes_.push_back(l);
      map.push_back(static_cast<std::uint16_t>(std::min(i, kMaxLanguages - 1)));
    }
  };
  add(linear_, lmap_);
  add(words_, wmap_);
  for (auto i : lmap_) lused_ = std::max<std::size_t>(lused_, i + 1u);
  for (std::size_t i = 0; i < lmap_.size(); ++i) lmap_identity_ = lmap_identity_ && lmap_[i] == i;
  for (auto i : wmap_) wused_ = std::max<std::size_t>(wused_, i + 1u);
  for (const auto& c : codes_) keys_.push_back(code_key(c));
  // features are extracted for the linear model (or the words model alone); for the words model
  // again, with its own configuration, only where it is consulted
  if (linear_) cfg_ = linear_->features;
  else if (words_) cfg_ = words_->features;
  if (words_) words_cfg_ = words_->features;
  same_cfg_ = !linear_ || !words_ ||
              (cfg_.kinds == words_cfg_.kinds && cfg_.min_order == words_cfg_.min_order &&
               cfg_.max_order == words_cfg_.max_order && cfg_.host_space == words_cfg_.host_space);
  if (cfg_.min_order > cfg_.max_order) cfg_ = {};
  for (unsigned c = 0; c < 256; ++c) {
    if (linear_) accept_l_[c] = linear_->accepts(static_cast<std::uint8_t>(c));
    if (words_) accept_w_[c] = words_->accepts(static_cast<std::uint8_t>(c));
  }
}

LANGSIFT_INLINE url_result url_classifier::classify(std::string_view url, const url_options& o) const noexcept {
  thread_local scratch s;  // per thread; reused
  return classify(url, o, s);
}

LANGSIFT_INLINE url_result url_classifier::classify(std::string_view url, const url_options& o,
                                                    scratch& s) const noexcept {
  url_result r;
  try {
    r.st = parse_url(url, s.parts, o.max_bytes);
    if (r.st != status::ok && r.st != status::truncated) {
      // not a URL with a host: classify what there is (a path), if anything
      if (s.parts.path_.empty()) return r;
    }
    url_extract_features(s.parts, cfg_, s.features);
  } catch (const std::bad_alloc&) {
    r = url_result{};
    r.st = status::out_of_memory;
    return r;
  }
  return classify_features(s.parts, s.features, o, r);
}

LANGSIFT_INLINE url_result url_classifier::classify_features(const url_parts& u, const url_features& f,
                                                          const url_options& o, url_result r) const noexcept {
  float p[kMaxLanguages];
  const std::size_t nl = codes_.size();
  std::fill(p, p + nl, 0.f);
  std::size_t used = 0;  // p[used, nl) stay 0: the sums and the top 3 stop there
  float total = 0;
  bool any = false;
  const float lw = (o.use_linear && linear_) ? 1.f : 0.f;
  const float ww = (o.use_words && words_) ? (lw > 0 ? o.words_weight : 1.f) : 0.f;
  float post[256];
  float linear_top = 0;
  if (lw > 0 && posterior(*linear_, accept_l_, f, post)) {
    any = true;
    const float share = ww > 0 ? 1.f - ww : 1.f;
    const std::size_t ln = linear_->languages.size();
    if (lmap_identity_) {  // the linear model's languages come first (no indirection: vectorised)
      for (std::size_t i = 0; i < ln; ++i) p[i] += share * post[i];
    } else {
      for (std::size_t i = 0; i < ln; ++i) p[lmap_[i]] += share * post[i];
    }
    for (std::size_t i = 0; i < ln; ++i) linear_top = std::max(linear_top, post[i]);
    used = std::max(used, lused_);
    total += share;
  }
  // The words model is consulted where the linear model is unsure (or absent).
  const bool consult = ww > 0 && (total == 0 || linear_top < o.words_below);
  std::unique_ptr<url_features> own;
  const bool same = same_cfg_ && !o.words_path_first;
  if (consult && !same) {
    own.reset(new (std::nothrow) url_features);
    url_feature_config wc = words_cfg_;
    wc.host_if_no_path = o.words_path_first;
    if (own) url_extract_features(u, wc, *own);
  }
  if (consult && (same || own) && posterior(*words_, accept_w_, same ? f : *own, post)) {
    any = true;
    const float share = total > 0 ? ww : 1.f;
    for (std::size_t i = 0; i < words_->languages.size(); ++i) p[wmap_[i]] += share * post[i];
    used = std::max(used, wused_);
    total += share;
  }
  r.decision = any ? url_decision::model : url_decision::none;
  // Explicit language codes and country hints.
  // p[l] = p[l] * factor + floor: the factor sharpens what the models say, the floor lets a
  // hint win where the models know little (Baykan et al. §4.7.1: trust the host country when
  // the classifier says no).
  auto boost = [&](std::string_view code, float factor, float floor) {
    const std::uint64_t key = code_key(code);
    for (std::size_t i = 0; i < nl; ++i)
      if (keys_[i] == key) {
        if (!any) p[i] += 1.f / static_cast<float>(nl);  // nothing else known: a flat prior
        p[i] = p[i] * factor + floor;
        used = std::max(used, i + 1);
        return true;
      }
    return false;
  };
  bool patterned = false;
  if (o.use_patterns)
    for (std::size_t i = 0; i < f.code_count; ++i) patterned |= boost(f.codes[i].view(), o.pattern_boost, o.pattern_floor);
  bool hinted = false;
  auto country = [&](std::string_view cc, float factor, float floor) {
    for_each_country_language(cc, [&](std::string_view l, float) { hinted |= boost(l, factor, floor); });
  };
  if (!o.country_hint.empty()) country(o.country_hint, o.hint_boost, o.hint_floor);
  if (o.use_cctld && f.country[0]) country(std::string_view(f.country, 2), o.cctld_boost, o.cctld_floor);
  float sum = 0;
  for (std::size_t i = 0; i < used; ++i) sum += p[i];
  if (!(sum > 0)) return r;
  // top 3
  std::size_t best[3] = {nl, nl, nl};
  for (std::size_t i = 0; i < used; ++i) {
    if (!(p[i] > 0) || (best[2] != nl && !(p[i] > p[best[2]]))) continue;  // not in the top 3 so far
    for (int k = 0; k < 3; ++k)
      if (best[k] == nl || p[i] > p[best[k]]) {
        for (int j = 2; j > k; --j) best[j] = best[j - 1];
        best[k] = i;
        break;
      }
  }
  for (int k = 0; k < 3 && best[k] != nl; ++k) r.languages[r.count++] = {codes_[best[k]], p[best[k]] / sum};
  if (r.count && r.languages[0].score < o.min_score) r.count = 0;
  if (r.count) {
    if (patterned) r.decision = url_decision::pattern;
    else if (!any) r.decision = url_decision::country;
  }
  return r;
}

LANGSIFT_INLINE bool url_classifier::posterior(const url_model& m, const std::array<bool, 256>& accept,
                                              const url_features& f, float* out) noexcept {
  const std::size_t nl = m.languages.size();
  if (m.buckets.empty() || nl == 0 || nl > 255 || m.bias.size() != nl) return false;
  std::int32_t acc[256];
  std::fill(acc, acc + nl, 0);
  std::size_t hits = 0;
  // Three passes so that the memory reads overlap: bucket addresses (prefetched), bucket
  // values (their lists and rows prefetched), then the sums.
  std::uint32_t idx[url_features::kMaxFeatures];
  std::size_t n = 0;
  const unsigned shift = (64 - m.bits) & 63;  // bucket_of without its test per feature
  const std::uint64_t keep = m.bits ? ~std::uint64_t{0} : 0;
  for (std::size_t i = 0; i < f.count; ++i) {
    if (!accept[f.kind[i]]) continue;
    const std::size_t b = static_cast<std::size_t>((f.hash[i] >> shift) & keep);
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(m.buckets.data() + b);
#endif
    // a generic TLD (com, org...) or the hyphen count alone is a prior, not knowledge
    const unsigned kind = f.kind[i] & 7;
    const bool counts = kind != url_feat_hyphens && (kind != url_feat_tld || f.country[0]);
    idx[n++] = static_cast<std::uint32_t>(b) | (counts ? 0x80000000u : 0u);
  }
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t b = m.buckets[idx[j] & 0x7FFFFFFFu];
    if (b && (idx[j] & 0x80000000u)) ++hits;
#if defined(__GNUC__) || defined(__clang__)
    if ((b & 0xC0000000u) == 0xC0000000u)
      __builtin_prefetch(m.rows.data() + std::size_t{b & 0x3FFFFFFFu} * nl);
    else if (b & 0x80000000u)
      __builtin_prefetch(m.postings.data() + ((b >> 8) & 0x3FFFFF));
#endif
    idx[j] = b;
  }
  for (std::size_t j = 0; j < n; ++j)
    if (idx[j]) detail::url_add_bucket(m, idx[j], acc);
  if (hits == 0) return false;
  detail::url_softmax(acc, m.bias.data(), nl, m.scale / m.temperature, m.temperature, out);
  return true;
}

}  // namespace v1
}  // namespace langsift
