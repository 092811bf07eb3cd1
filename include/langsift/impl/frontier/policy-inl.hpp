// langsift — implementation of langsift/frontier.hpp: quotas, the language table and decide()
// (compiled into langsift::core, or included by the header under LANGSIFT_HEADER_ONLY; see
// langsift/config.hpp).
#pragma once

#include "langsift/frontier.hpp"

#include <algorithm>

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE bool frontier::set_quota(std::string_view code, std::uint64_t target) {
  const int i = intern(code);
  if (i < 0) return false;
  const std::uint64_t before = target_[i].exchange(target, std::memory_order_relaxed);
  if (before == 0 && target != 0) quotas_set_.fetch_add(1, std::memory_order_relaxed);
  if (before != 0 && target == 0) quotas_set_.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

LANGSIFT_INLINE frontier_quota frontier::quota(std::string_view code) const {
  const int i = find(code);
  if (i < 0) return {};
  return {target_[i].load(std::memory_order_relaxed), count_[i].load(std::memory_order_relaxed)};
}

LANGSIFT_INLINE bool frontier::count_page(std::string_view code, std::uint64_t pages) {
  const int i = intern(code);
  if (i < 0) return false;
  count_[i].fetch_add(pages, std::memory_order_relaxed);
  return true;
}

LANGSIFT_INLINE bool frontier::all_saturated() const {
  std::shared_lock lk(lang_mu_);
  bool any = false;
  for (std::size_t i = 0; i < codes_.size(); ++i) {
    const std::uint64_t t = target_[i].load(std::memory_order_relaxed);
    if (!t) continue;
    any = true;
    if (count_[i].load(std::memory_order_relaxed) < t) return false;
  }
  return any;
}

LANGSIFT_INLINE std::vector<std::pair<std::string, frontier_quota>> frontier::quotas() const {
  std::shared_lock lk(lang_mu_);
  std::vector<std::pair<std::string, frontier_quota>> r;
  for (std::size_t i = 0; i < codes_.size(); ++i)
    r.emplace_back(codes_[i], frontier_quota{target_[i].load(std::memory_order_relaxed),
                                             count_[i].load(std::memory_order_relaxed)});
  std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return r;
}

LANGSIFT_INLINE frontier_decision frontier::decide(std::string_view url, const url_result* url_scores) const {
  if (url.empty()) {
    frontier_decision d;
    d.action = frontier_action::skip;
    d.reason = frontier_reason::invalid;
    return d;
  }
  return decide_key(url_key(url), url_scores);
}

LANGSIFT_INLINE frontier_decision frontier::decide(std::string_view url, const url_classifier& c, const url_options& uo) const {
  const url_result r = c.classify(url, uo);
  return decide(url, &r);
}

LANGSIFT_INLINE frontier_decision frontier::decide_key(std::uint64_t key, const url_result* url_scores) const {
  key = key ? key : 1;
  frontier_decision d;
  slot e{};
  bool known = false;
  {
    shard& s = shard_of(key);
    std::lock_guard lk(s.mu);
    if (const slot* p = s.find(key)) {
      e = *p;
      known = true;
    }
  }
  if (known && e.lang[0] == kFetched) {
    d.action = frontier_action::skip;
    d.reason = frontier_reason::fetched;
    return d;
  }
  std::shared_lock lk(lang_mu_);
  const bool focused = quotas_set_.load(std::memory_order_relaxed) > 0;
  // referrer votes
  std::uint32_t n = 0;
  if (known)
    for (std::size_t i = 0; i < kGuesses; ++i)
      if (e.lang[i] < kMaxLanguages && e.votes[i]) {
        frontier_guess& g = d.guesses[d.count++];
        g.code = frontier_code::of(codes_[e.lang[i]]);
        g.votes = e.votes[i];
        n += e.votes[i];
      }
  d.votes = n;
  // URL classifier scores
  float url_sum = 0;
  if (url_scores)
    for (std::size_t j = 0; j < url_scores->count && j < url_scores->languages.size(); ++j) {
      const url_language& ul = url_scores->languages[j];
      if (ul.code.empty() || !(ul.score > 0)) continue;
      const float sc = std::min(ul.score, 1.0f);
      url_sum += sc;
      std::size_t i = 0;
      while (i < d.count && d.guesses[i].code.view() != ul.code) ++i;
      if (i == d.count) {
        if (d.count == d.guesses.size()) continue;
        d.guesses[d.count++].code = frontier_code::of(ul.code);
      }
      d.guesses[i].url_score = sc;
    }
  const bool have_url = url_sum > 0;
  const float k = have_url ? opt_.url_weight : 0.0f;
  const float a = opt_.vote_prior;
  const float denom = static_cast<float>(n) + k + a;
  if (d.count == 0 || !(denom > 0)) {
    d.action = frontier_action::fetch;
    d.reason = frontier_reason::unknown;
    d.priority = opt_.unknown_priority;
    return d;
  }
  // Most probable first, ties by code: the answer does not depend on the order the votes came
  // in (a reloaded frontier keeps them in code order), and neither does the summed priority.
  for (std::size_t i = 0; i < d.count; ++i) {
    frontier_guess& g = d.guesses[i];
    g.probability = (static_cast<float>(g.votes) + k * g.url_score) / denom;
  }
  auto before = [](const frontier_guess& x, const frontier_guess& y) {
    return x.probability != y.probability ? x.probability > y.probability : x.code.view() < y.code.view();
  };
  // Insertion sort: at most 7 guesses (std::sort's heap fallback also drew a GCC 12 -Warray-bounds
  // false positive here).
  for (std::size_t i = 1; i < d.count; ++i)
    for (std::size_t j = i; j > 0 && before(d.guesses[j], d.guesses[j - 1]); --j) std::swap(d.guesses[j], d.guesses[j - 1]);
  float wanted_p = 0;
  bool any_guess = false, all_saturated = true, all_unwanted = true;
  for (std::size_t i = 0; i < d.count; ++i) {
    frontier_guess& g = d.guesses[i];
    const bool is_guess = g.votes > 0 || g.url_score >= opt_.min_url_guess;  // votes: a referrer's guess
    const int li = find_locked(g.code.view());
    const std::uint64_t t = li >= 0 ? target_[li].load(std::memory_order_relaxed) : 0;
    const bool sat = t && count_[li].load(std::memory_order_relaxed) >= t;
    const bool wanted = focused ? (t && !sat) : true;
    if (wanted) wanted_p += g.probability;
    if (is_guess) {
      any_guess = true;
      if (!sat) all_saturated = false;
      if (wanted) all_unwanted = false;
    }
  }
  if (any_guess && ((opt_.skip_saturated && all_saturated) || (opt_.skip_unwanted && all_unwanted))) {
    d.action = frontier_action::skip;
    d.reason = frontier_reason::saturated;
    return d;
  }
  d.action = frontier_action::fetch;
  const float unknown_mass = (a + k * std::max(0.0f, 1.0f - url_sum)) / denom;
  d.priority = std::clamp(wanted_p + unknown_mass * opt_.unknown_priority, 0.0f, 1.0f);
  d.reason = wanted_p > 0 ? frontier_reason::wanted : frontier_reason::unwanted;
  return d;
}

LANGSIFT_INLINE int frontier::intern(std::string_view code) {
  if (code.empty() || code.size() > 15) return -1;
  {
    std::shared_lock lk(lang_mu_);
    const int i = find_locked(code);
    if (i >= 0) return i;
  }
  std::unique_lock lk(lang_mu_);
  const int i = find_locked(code);
  if (i >= 0) return i;
  if (codes_.size() >= kMaxLanguages) return -1;
  codes_.emplace_back(code);
  index_.emplace(std::string(code), static_cast<std::uint8_t>(codes_.size() - 1));
  return static_cast<int>(codes_.size() - 1);
}

}  // namespace v1
}  // namespace langsift
