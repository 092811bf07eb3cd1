// langsift — the crawl frontier's policy (part of langsift/frontier.hpp): its options, quotas and
// the fetch/skip decision with its priority and reasons. The method is described in
// langsift/frontier.hpp and docs/frontier.md.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "langsift/common.hpp"

namespace langsift {
inline namespace v1 {

struct frontier_options {
  /// A language votes for a page's out-links when it has at least this share of the page's text.
  int min_vote_percent = 20;
  /// Weight of the URL classifier's scores, in referrer votes (k in p(l) = (votes(l) + k·s(l)) /
  /// (votes + k)). 0: votes alone decide whenever there are any.
  float url_weight = 2.0f;
  /// Pseudo-votes for "some other language", a in p(l) = (votes(l) + k·s(l)) / (votes + k + a): a
  /// URL with three agreeing votes ranks above one with a single vote. Their mass (and the URL
  /// scores' missing mass) counts at `unknown_priority`. 0: a single vote is as good as many.
  float vote_prior = 1.0f;
  /// URL-classifier languages scoring below this are not guesses for the skip rule (they still
  /// count in the priority).
  float min_url_guess = 0.3f;
  /// Priority of a URL with no votes and no URL-classifier language.
  float unknown_priority = 0.1f;
  /// Skip a URL whose every guess is saturated (ClueWeb09).
  bool skip_saturated = true;
  /// Skip a URL whose every guess is saturated or unlisted (stricter; off by default: a page in
  /// an unwanted language may still lead to wanted ones).
  bool skip_unwanted = false;
  /// At most this many URLs are kept (approximately: the bound is per shard, max_urls / 64 + 1);
  /// votes for further new URLs are dropped. 0: no bound.
  std::size_t max_urls = 0;
};

enum class frontier_action : std::uint8_t { fetch, skip };

enum class frontier_reason : std::uint8_t {
  wanted,     ///< fetch: some guess is a wanted language (priority = its estimated probability)
  unknown,    ///< fetch: nothing is known about the URL (priority = unknown_priority)
  unwanted,   ///< fetch: no guess is wanted, but not every guess is saturated (priority 0)
  saturated,  ///< skip: every guess is a saturated language (or, with skip_unwanted, unlisted)
  fetched,    ///< skip: the URL was fetched already (record_fetch / mark_fetched)
  invalid,    ///< skip: an empty URL
};

constexpr std::string_view frontier_reason_name(frontier_reason r) noexcept {
  switch (r) {
    case frontier_reason::wanted: return "wanted";
    case frontier_reason::unknown: return "unknown";
    case frontier_reason::unwanted: return "unwanted";
    case frontier_reason::saturated: return "saturated";
    case frontier_reason::fetched: return "fetched";
    case frontier_reason::invalid: return "invalid";
  }
  return "unknown_reason";
}

/// A language code held by value (codes are at most 15 bytes).
struct frontier_code {
  std::array<char, 16> s{};
  std::uint8_t n = 0;
  std::string_view view() const noexcept { return {s.data(), n}; }
  static frontier_code of(std::string_view c) noexcept {
    frontier_code r;
    r.n = static_cast<std::uint8_t>(std::min<std::size_t>(c.size(), 15));
    std::memcpy(r.s.data(), c.data(), r.n);
    return r;
  }
};

/// One guess about a URL's language.
struct frontier_guess {
  frontier_code code;
  std::uint32_t votes = 0;   ///< referrer votes
  float url_score = 0;       ///< the URL classifier's score (0 if none was given)
  float probability = 0;     ///< combined estimate p(l)
};

struct frontier_decision {
  frontier_action action = frontier_action::fetch;
  frontier_reason reason = frontier_reason::unknown;
  float priority = 0;          ///< 0..1, higher first
  std::uint32_t votes = 0;     ///< referrer votes the URL collected
  std::array<frontier_guess, 7> guesses{};  ///< most probable first; `count` valid
  std::size_t count = 0;
  bool fetch() const noexcept { return action == frontier_action::fetch; }
  /// The most probable language, or "und".
  std::string_view language() const noexcept { return count ? guesses[0].code.view() : std::string_view("und"); }
};

/// A language's quota.
struct frontier_quota {
  std::uint64_t target = 0;  ///< 0: no quota (unlisted)
  std::uint64_t count = 0;   ///< pages counted so far
  bool saturated() const noexcept { return target && count >= target; }
};


}  // namespace v1
}  // namespace langsift
