// langsift — a language-aware crawl frontier: which discovered URL to fetch next, and which to skip,
// for a crawl with per-language quotas (ClueWeb09's method, with Baykan et al.'s URL classifier).
//
//   langsift::frontier f;                                   // empty; thread-safe
//   f.set_quota("de", 1'000'000);                           // target pages per language
//   // after fetching a page:
//   langsift::detection d = langsift::detect(model, text);
//   f.record_fetch(page_url, d);                            // counts toward d's top language's quota
//   f.add_votes(d, out_link_urls);                          // d's languages vote for each target
//   // before fetching a URL:
//   langsift::url_result u = langsift::default_url_classifier().classify(url);
//   langsift::frontier_decision x = f.decide(url, &u);      // fetch or skip, priority 0..1
//
// The method (docs/frontier.md):
//  * Referrer votes (ClueWeb09): each fetched page's detected languages (those with at least
//    `min_vote_percent` of its text) vote for the language of every out-link target. Pages marked
//    `is_short` (under 400 bytes of text) and pages with no language do not vote. A target collects
//    every guess: up to `frontier::kGuesses` languages with a vote count each.
//  * Quotas: a language with a quota is *wanted* until the pages counted for it reach the target,
//    then *saturated*. A language without a quota is *unlisted*: not wanted when any quota is set
//    (a focused crawl), wanted when none is (a general crawl).
//  * decide(url): a URL already fetched is skipped; a URL whose every guess is saturated is skipped
//    (as in ClueWeb09; with `skip_unwanted` also when every guess is saturated or unlisted).
//    Otherwise it is fetched with priority = the estimated probability that the page is in a
//    wanted language: Σ over wanted l of p(l) = (votes(l) + k·s(l)) / (votes + k + a), s(l) the
//    URL classifier's score, k = `url_weight` (the classifier counts as k referrer votes; Baykan
//    §5.2 prioritised the frontier by URL-classifier confidence) and a = `vote_prior` pseudo-votes
//    for an unknown language; the unknown mass (a, and k times what the URL scores leave) counts
//    at `unknown_priority`. With neither votes nor URL scores the priority is `unknown_priority`.
//
// Memory: one 16-byte slot per known URL (64-bit key = XXH3 of the normalised URL, 4 languages,
// 4 saturating 8-bit vote counts) in 64 open-addressing shards grown ×2 at 3/4 load: 21–43 bytes
// per URL, ~21–43 MB per million URLs (measured figures in docs/frontier.md). `max_urls` bounds
// it: once reached, votes for new URLs are dropped (counted in `dropped_votes()`).
//
// Thread safety: every member function may be called from any number of threads at once. URL
// slots are guarded by 64 sharded mutexes, quota counts are atomics, the language table by a
// shared mutex. Votes commute: the same votes in any order give the same state (and the same
// saved file), as long as no URL collects more than kGuesses languages.
//
// State files: save()/load() write and read a versioned, checksummed binary file (header, language
// table with quotas and counts, URL slots sorted by key, XXH3-64 of it all). A truncated, corrupt
// or foreign file is rejected with a status and a message; the frontier is then left unchanged.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#include "langsift/common.hpp"
#include "langsift/detector.hpp"
#include "langsift/uri.hpp"
#include "langsift/url.hpp"

namespace langsift {
inline namespace v1 {

// ================================================================================================
// Keys

/// The URL as the frontier keys it. For http, https (and ws, wss, ftp): the WHATWG URL Standard's
/// serialization (resolve_uri, uri.hpp) without the fragment: scheme and host lower-cased, the
/// host mapped by UTS #46 to ASCII ("xn--" labels: "münchen.de" and "xn--mnchen-3ya.de" are one
/// key), IPv4 and IPv6 addresses in their canonical form, the default port removed, an empty path
/// written "/", "." and ".." segments (also as "%2e") removed, non-ASCII and the standard's
/// other bytes percent-encoded in userinfo, path and query. For other schemes with a host (RFC
/// 3986): resolved, fragment removed, scheme and ASCII host lower-cased, an empty path written
/// "/", non-ASCII in path and query percent-encoded. Returns false (out untouched) for what is
/// not an absolute URL with a host, and for what the standard fails (a bad host or port).
inline bool normalize_url(std::string_view url, std::string& out) {
  thread_local std::string pre, n;
  const std::string_view in = detail::whatwg_preprocess(url, pre);
  if (detail::whatwg_special_port(detail::uri_scheme_prefix(in)) >= 0) {
    detail::whatwg_url u;
    if (!detail::whatwg_parse(in, nullptr, n, u)) return false;
    if (u.fragment_start != std::string::npos) n.resize(u.fragment_start);
    out.swap(n);
    return true;
  }
  std::string r;
  if (!resolve_uri(url, "", r)) return false;
  const auto u = parse_uri(r);
  if (!u || !u->has_authority || u->host.empty() || u->scheme.empty()) return false;
  n.clear();
  n.reserve(r.size() + 1);
  n.append(u->scheme);
  n.append("://");
  if (!u->userinfo.empty()) {
    n.append(u->userinfo);
    n.push_back('@');
  }
  for (char c : u->host) n.push_back(detail::uri_lower(c));
  if (!u->port.empty()) {
    n.push_back(':');
    n.append(u->port);
  }
  if (u->path.empty()) n.push_back('/');
  else n.append(u->path);
  if (u->has_query) {
    n.push_back('?');
    n.append(u->query);
  }
  out.swap(n);
  return true;
}

/// The frontier's 64-bit key of a URL: XXH3-64 of normalize_url(url) (of the bytes as given when
/// they do not parse as an absolute URL). Never 0.
inline std::uint64_t url_key(std::string_view url) {
  thread_local std::string n;
  std::uint64_t h;
  if (normalize_url(url, n)) h = XXH3_64bits(n.data(), n.size());
  else h = XXH3_64bits(url.data(), url.size());
  return h ? h : 1;
}

// ================================================================================================
// Types

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

/// Outcome of save / load.
struct frontier_io {
  status st = status::ok;  ///< ok, io_error, corrupt_model (corrupt state), model_version, out_of_memory
  std::string message;     ///< what was wrong, for people
  explicit operator bool() const noexcept { return st == status::ok; }
};

// ================================================================================================
// The frontier

class frontier {
 public:
  static constexpr std::size_t kGuesses = 4;        ///< languages a URL collects votes for
  static constexpr std::size_t kMaxLanguages = 254; ///< distinct language codes
  static constexpr unsigned kShardBits = 6;
  static constexpr std::size_t kShards = std::size_t{1} << kShardBits;
  static constexpr std::uint32_t kFormatVersion = 1;

  /// Options out of range are brought into it (weights and the prior: 0..1e6, a NaN the default;
  /// unknown_priority: 0..1), so priorities are always numbers in 0..1.
  explicit frontier(const frontier_options& o = {}) : opt_(sanitized(o)), shards_(new shard[kShards]) {
    for (auto& t : target_) t.store(0, std::memory_order_relaxed);
    for (auto& c : count_) c.store(0, std::memory_order_relaxed);
  }
  frontier(const frontier&) = delete;
  frontier& operator=(const frontier&) = delete;

  const frontier_options& options() const noexcept { return opt_; }
  static constexpr float kMaxWeight = 1e6f;  ///< url_weight, vote_prior and min_url_guess: 0..this
  /// `o` brought into range (what the constructor keeps).
  static frontier_options sanitized(frontier_options o) noexcept {
    const frontier_options d;
    auto fix = [](float& x, float def, float hi) { x = x == x ? std::clamp(x, 0.0f, hi) : def; };
    fix(o.url_weight, d.url_weight, kMaxWeight);
    fix(o.vote_prior, d.vote_prior, kMaxWeight);
    fix(o.min_url_guess, d.min_url_guess, kMaxWeight);
    fix(o.unknown_priority, d.unknown_priority, 1.0f);
    return o;
  }
  /// Whether `o` is in range already (a NaN is not).
  static bool in_range(const frontier_options& o) noexcept {
    const frontier_options s = sanitized(o);
    return s.url_weight == o.url_weight && s.vote_prior == o.vote_prior && s.min_url_guess == o.min_url_guess &&
           s.unknown_priority == o.unknown_priority;
  }

  // ---- quotas ---------------------------------------------------------------------------------

  /// Sets a language's target page count (0 removes the quota). Returns false when the code is
  /// empty, longer than 15 bytes, or the language table is full.
  bool set_quota(std::string_view code, std::uint64_t target) {
    const int i = intern(code);
    if (i < 0) return false;
    const std::uint64_t before = target_[i].exchange(target, std::memory_order_relaxed);
    if (before == 0 && target != 0) quotas_set_.fetch_add(1, std::memory_order_relaxed);
    if (before != 0 && target == 0) quotas_set_.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  frontier_quota quota(std::string_view code) const {
    const int i = find(code);
    if (i < 0) return {};
    return {target_[i].load(std::memory_order_relaxed), count_[i].load(std::memory_order_relaxed)};
  }
  /// Counts `pages` more pages for a language (record_fetch does this for the top language).
  bool count_page(std::string_view code, std::uint64_t pages = 1) {
    const int i = intern(code);
    if (i < 0) return false;
    count_[i].fetch_add(pages, std::memory_order_relaxed);
    return true;
  }
  bool saturated(std::string_view code) const { return quota(code).saturated(); }
  /// True when every language with a quota is saturated (and at least one has a quota).
  bool all_saturated() const {
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
  /// Every language known to the frontier, with its quota.
  std::vector<std::pair<std::string, frontier_quota>> quotas() const {
    std::shared_lock lk(lang_mu_);
    std::vector<std::pair<std::string, frontier_quota>> r;
    for (std::size_t i = 0; i < codes_.size(); ++i)
      r.emplace_back(codes_[i], frontier_quota{target_[i].load(std::memory_order_relaxed),
                                               count_[i].load(std::memory_order_relaxed)});
    std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return r;
  }

  // ---- updates --------------------------------------------------------------------------------

  /// One referrer vote: `code` is a guess for `target_url`'s language. False when not recorded
  /// (bad code, table full, URL already fetched, max_urls reached, or kGuesses other languages
  /// hold more than one vote each).
  bool vote(std::string_view target_url, std::string_view code) { return vote_key(url_key(target_url), code); }
  bool vote_key(std::uint64_t key, std::string_view code) {
    const int l = intern(code);
    if (l < 0) return false;
    return vote_index(key ? key : 1, static_cast<std::uint8_t>(l));
  }

  /// ClueWeb09's vote: a fetched page's languages (percent >= min_vote_percent) vote for each of
  /// its out-link targets. A short page (d.is_short) or one without a language casts no vote.
  /// Returns the number of votes recorded.
  std::size_t add_votes(const detection& d, std::span<const std::string_view> targets) {
    std::array<std::uint8_t, 3> langs{};
    const std::size_t nl = voting_languages(d, langs);
    if (!nl) return 0;
    std::size_t n = 0;
    for (std::string_view t : targets) {
      const std::uint64_t k = url_key(t);
      for (std::size_t i = 0; i < nl; ++i) n += vote_index(k, langs[i]);
    }
    return n;
  }
  std::size_t add_votes(const detection& d, std::span<const std::string> targets) {
    std::vector<std::string_view> v(targets.begin(), targets.end());
    return add_votes(d, std::span<const std::string_view>(v));
  }
  /// As add_votes, for targets given by key (url_key).
  std::size_t add_votes_keys(const detection& d, std::span<const std::uint64_t> keys) {
    std::array<std::uint8_t, 3> langs{};
    const std::size_t nl = voting_languages(d, langs);
    std::size_t n = 0;
    for (std::uint64_t k : keys)
      for (std::size_t i = 0; i < nl; ++i) n += vote_index(k ? k : 1, langs[i]);
    return n;
  }

  /// A page was fetched: its URL will be skipped from now on, and its top language (if any) counts
  /// one page toward that language's quota. Returns false if the URL was already marked (then
  /// nothing is counted, so a page fetched twice counts once) or could not be stored (max_urls).
  bool record_fetch(std::string_view url, const detection& d) { return record_fetch_key(url_key(url), d); }
  bool record_fetch_key(std::uint64_t key, const detection& d) {
    if (!mark_fetched_key(key)) return false;
    if (d.count) count_page(d.languages[0].code);
    return true;
  }
  /// Marks a URL fetched without counting any language. False if it already was (or max_urls).
  bool mark_fetched(std::string_view url) { return mark_fetched_key(url_key(url)); }
  bool mark_fetched_key(std::uint64_t key) {
    key = key ? key : 1;
    shard& s = shard_of(key);
    std::lock_guard lk(s.mu);
    slot* e = s.find_or_insert(key, limit());
    if (!e) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    if (e->lang[0] == kFetched) return false;
    e->lang = {kFetched, kNone, kNone, kNone};
    e->votes = {0, 0, 0, 0};
    return true;
  }

  // ---- decisions ------------------------------------------------------------------------------

  /// Fetch or skip, and the priority (see the header comment). `url_scores`: the URL classifier's
  /// answer for this URL (optional; null = referrer votes only).
  frontier_decision decide(std::string_view url, const url_result* url_scores = nullptr) const {
    if (url.empty()) {
      frontier_decision d;
      d.action = frontier_action::skip;
      d.reason = frontier_reason::invalid;
      return d;
    }
    return decide_key(url_key(url), url_scores);
  }
  /// decide() with the URL classified by `c` (options `uo`).
  frontier_decision decide(std::string_view url, const url_classifier& c, const url_options& uo = {}) const {
    const url_result r = c.classify(url, uo);
    return decide(url, &r);
  }

  frontier_decision decide_key(std::uint64_t key, const url_result* url_scores = nullptr) const {
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

  /// The votes a URL collected (code, count), most first; empty when unknown or fetched.
  std::vector<std::pair<std::string, std::uint32_t>> votes(std::string_view url) const {
    const std::uint64_t key = url_key(url);
    slot e{};
    {
      shard& s = shard_of(key);
      std::lock_guard lk(s.mu);
      const slot* p = s.find(key);
      if (!p) return {};
      e = *p;
    }
    std::vector<std::pair<std::string, std::uint32_t>> r;
    std::shared_lock lk(lang_mu_);
    for (std::size_t i = 0; i < kGuesses; ++i)
      if (e.lang[i] < kMaxLanguages && e.votes[i]) r.emplace_back(codes_[e.lang[i]], e.votes[i]);
    std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return r;
  }
  bool fetched(std::string_view url) const {
    const std::uint64_t key = url_key(url);
    shard& s = shard_of(key);
    std::lock_guard lk(s.mu);
    const slot* p = s.find(key);
    return p && p->lang[0] == kFetched;
  }

  // ---- size -----------------------------------------------------------------------------------

  /// URLs known (voted for or fetched).
  std::size_t size() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < kShards; ++i) {
      std::lock_guard lk(shards_[i].mu);
      n += shards_[i].used;
    }
    return n;
  }
  /// Bytes held by the URL tables (slots allocated, whether used or not) and the language table.
  std::size_t memory_bytes() const {
    std::size_t n = sizeof(*this) + kShards * sizeof(shard);
    for (std::size_t i = 0; i < kShards; ++i) {
      std::lock_guard lk(shards_[i].mu);
      n += shards_[i].slots.capacity() * sizeof(slot);
    }
    std::shared_lock lk(lang_mu_);
    n += codes_.size() * (sizeof(std::string) + 32);
    return n;
  }
  /// Votes or fetches not stored because max_urls was reached.
  std::uint64_t dropped_votes() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  // ---- state files ----------------------------------------------------------------------------

  /// The whole state (languages with quotas and counts, URL slots) as bytes. Canonical: the same
  /// state gives the same bytes whatever order it was built in (languages by code, slots by key,
  /// a slot's guesses by code). Options are not saved.
  std::string save() const {
    // languages, sorted by code, old index -> new index
    std::vector<std::string> codes;
    std::vector<std::uint64_t> tg, ct;
    std::array<std::uint8_t, 256> remap;
    remap.fill(kNone);
    remap[kFetched] = kFetched;
    std::vector<slot> all;
    {
      std::shared_lock lk(lang_mu_);
      std::vector<std::size_t> order(codes_.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return codes_[a] < codes_[b]; });
      for (std::size_t j = 0; j < order.size(); ++j) {
        remap[order[j]] = static_cast<std::uint8_t>(j);
        codes.push_back(codes_[order[j]]);
        tg.push_back(target_[order[j]].load(std::memory_order_relaxed));
        ct.push_back(count_[order[j]].load(std::memory_order_relaxed));
      }
      for (std::size_t i = 0; i < kShards; ++i) {
        std::lock_guard sl(shards_[i].mu);
        for (const slot& e : shards_[i].slots)
          if (e.key) all.push_back(e);
      }
    }
    for (slot& e : all) canonical(e, remap);
    std::sort(all.begin(), all.end(), [](const slot& a, const slot& b) { return a.key < b.key; });
    std::string out;
    std::size_t lang_bytes = 0;
    for (const auto& c : codes) lang_bytes += 1 + c.size() + 16;
    out.reserve(kHeaderBytes + lang_bytes + all.size() * sizeof(slot) + 8);
    out.append(kMagic, 8);
    put32(out, kFormatVersion);
    put32(out, static_cast<std::uint32_t>(codes.size()));
    put64(out, all.size());
    put64(out, dropped_.load(std::memory_order_relaxed));
    for (std::size_t j = 0; j < codes.size(); ++j) {
      out.push_back(static_cast<char>(codes[j].size()));
      out.append(codes[j]);
      put64(out, tg[j]);
      put64(out, ct[j]);
    }
    for (const slot& e : all) {
      put64(out, e.key);
      out.append(reinterpret_cast<const char*>(e.lang.data()), 4);
      out.append(reinterpret_cast<const char*>(e.votes.data()), 4);
    }
    put64(out, XXH3_64bits(out.data(), out.size()));
    return out;
  }

  /// Writes save() to a file (through a temporary file renamed into place).
  frontier_io save_file(const std::string& path) const {
    std::string bytes;
    try {
      bytes = save();
    } catch (const std::bad_alloc&) {
      return {status::out_of_memory, "frontier state: out of memory while saving"};
    }
    const std::string tmp = path + ".tmp";
    // (an ofstream, not fwrite: the C ABI library is checked to import no printing function)
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return {status::io_error, "frontier state: cannot open " + tmp + " for writing"};
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const bool ok = static_cast<bool>(f);
    f.close();
    const bool closed = !f.fail();
    if (!ok || !closed) {
      std::remove(tmp.c_str());
      return {status::io_error, "frontier state: cannot write " + tmp};
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::remove(tmp.c_str());
      return {status::io_error, "frontier state: cannot rename " + tmp + " to " + path};
    }
    return {};
  }

  /// Replaces the state (languages, quotas, counts, URLs) by a saved one. On any error the
  /// frontier is left unchanged.
  frontier_io load(std::string_view bytes) {
    try {
      return load_impl(bytes);
    } catch (const std::bad_alloc&) {
      return {status::out_of_memory, "frontier state: out of memory while loading"};
    }
  }
  frontier_io load_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return {status::io_error, "frontier state: cannot open " + path};
    std::string bytes;
    char buf[1 << 16];
    std::size_t got;
    try {
      while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, got);
    } catch (const std::bad_alloc&) {
      std::fclose(f);
      return {status::out_of_memory, "frontier state: out of memory reading " + path};
    }
    const bool err = std::ferror(f) != 0;
    std::fclose(f);
    if (err) return {status::io_error, "frontier state: cannot read " + path};
    frontier_io r = load(bytes);
    if (!r) r.message += " (" + path + ")";
    return r;
  }

 private:
  static constexpr std::uint8_t kNone = 0xFE;
  static constexpr std::uint8_t kFetched = 0xFF;
  static constexpr char kMagic[8] = {'L', 'S', 'F', 'R', 'O', 'N', 'T', '\0'};
  static constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;

  struct slot {
    std::uint64_t key = 0;  // 0: empty
    std::array<std::uint8_t, kGuesses> lang{kNone, kNone, kNone, kNone};
    std::array<std::uint8_t, kGuesses> votes{};
  };
  static_assert(sizeof(slot) == 16);

  struct shard {
    mutable std::mutex mu;
    std::vector<slot> slots;  // power-of-two size, or empty
    std::size_t used = 0;

    static std::size_t home(std::uint64_t key, std::size_t mask) noexcept {
      return static_cast<std::size_t>(key) & mask;  // low bits; the shard took the high ones
    }
    const slot* find(std::uint64_t key) const noexcept {
      if (slots.empty()) return nullptr;
      const std::size_t mask = slots.size() - 1;
      for (std::size_t i = home(key, mask);; i = (i + 1) & mask) {
        if (slots[i].key == key) return &slots[i];
        if (!slots[i].key) return nullptr;
      }
    }
    slot* find_or_insert(std::uint64_t key, std::size_t limit) {
      if (const slot* p = find(key)) return const_cast<slot*>(p);
      if (limit && used >= limit) return nullptr;
      if ((used + 1) * 4 > slots.size() * 3) grow();
      const std::size_t mask = slots.size() - 1;
      std::size_t i = home(key, mask);
      while (slots[i].key) i = (i + 1) & mask;
      slots[i] = slot{};
      slots[i].key = key;
      ++used;
      return &slots[i];
    }
    void grow() {
      std::vector<slot> old;
      old.swap(slots);
      slots.assign(old.empty() ? 16 : old.size() * 2, slot{});
      const std::size_t mask = slots.size() - 1;
      for (const slot& e : old)
        if (e.key) {
          std::size_t i = home(e.key, mask);
          while (slots[i].key) i = (i + 1) & mask;
          slots[i] = e;
        }
    }
  };

  shard& shard_of(std::uint64_t key) const noexcept { return shards_[key >> (64 - kShardBits)]; }
  std::size_t limit() const noexcept { return opt_.max_urls ? opt_.max_urls / kShards + 1 : 0; }

  // Languages -------------------------------------------------------------------------------------
  int find_locked(std::string_view code) const {
    const auto it = index_.find(code);
    return it == index_.end() ? -1 : static_cast<int>(it->second);
  }
  int find(std::string_view code) const {
    std::shared_lock lk(lang_mu_);
    return find_locked(code);
  }
  int intern(std::string_view code) {
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

  std::size_t voting_languages(const detection& d, std::array<std::uint8_t, 3>& langs) {
    if (d.is_short || d.count == 0) return 0;
    std::size_t nl = 0;
    for (std::size_t i = 0; i < d.count && i < 3; ++i) {
      if (d.languages[i].percent < opt_.min_vote_percent) continue;
      const int l = intern(d.languages[i].code);
      if (l >= 0) langs[nl++] = static_cast<std::uint8_t>(l);
    }
    return nl;
  }

  bool vote_index(std::uint64_t key, std::uint8_t l) {
    shard& s = shard_of(key);
    std::lock_guard lk(s.mu);
    slot* e = s.find_or_insert(key, limit());
    if (!e) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    if (e->lang[0] == kFetched) return false;
    std::size_t weakest = 0;
    for (std::size_t i = 0; i < kGuesses; ++i) {
      if (e->lang[i] == l) {
        if (e->votes[i] < 255) ++e->votes[i];
        return true;
      }
      if (e->lang[i] == kNone) {
        e->lang[i] = l;
        e->votes[i] = 1;
        return true;
      }
      if (e->votes[i] < e->votes[weakest]) weakest = i;
    }
    // all kGuesses slots hold other languages: a guess with a single vote gives way
    if (e->votes[weakest] > 1) return false;
    e->lang[weakest] = l;
    e->votes[weakest] = 1;
    return true;
  }

  void canonical(slot& e, const std::array<std::uint8_t, 256>& remap) const {
    for (auto& l : e.lang) l = remap[l];
    if (e.lang[0] == kFetched) return;
    std::array<std::pair<std::uint8_t, std::uint8_t>, kGuesses> g;
    for (std::size_t i = 0; i < kGuesses; ++i) g[i] = {e.lang[i], e.votes[i]};
    std::sort(g.begin(), g.end());  // kNone (0xFE) sorts after every language
    for (std::size_t i = 0; i < kGuesses; ++i) {
      e.lang[i] = g[i].first;
      e.votes[i] = g[i].second;
    }
  }

  static void put32(std::string& o, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    o.append(b, 4);
  }
  static void put64(std::string& o, std::uint64_t v) {
    char b[8];
    std::memcpy(b, &v, 8);
    o.append(b, 8);
  }
  static std::uint32_t get32(const char* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  static std::uint64_t get64(const char* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }

  frontier_io load_impl(std::string_view b) {
    auto corrupt = [](std::string what) { return frontier_io{status::corrupt_model, "frontier state: " + what}; };
    if (b.size() < 8 || std::memcmp(b.data(), kMagic, 8) != 0)
      return corrupt(b.size() < 8 ? "truncated (" + std::to_string(b.size()) + " bytes)"
                                  : "not a langsift frontier state file (bad magic)");
    if (b.size() < kHeaderBytes + 8)
      return corrupt("truncated (" + std::to_string(b.size()) + " bytes, header needs " +
                     std::to_string(kHeaderBytes + 8) + ")");
    const char* p = b.data();
    const std::uint32_t version = get32(p + 8);
    if (version != kFormatVersion)
      return {status::model_version, "frontier state: format version " + std::to_string(version) +
                                         ", this library reads version " + std::to_string(kFormatVersion)};
    const std::uint32_t nl = get32(p + 12);
    const std::uint64_t ns = get64(p + 16);
    const std::uint64_t dropped = get64(p + 24);
    if (nl > kMaxLanguages) return corrupt("too many languages (" + std::to_string(nl) + ")");
    // languages: variable size; check bounds as we go, then the size of the slots
    std::size_t at = kHeaderBytes;
    const std::size_t body_end = b.size() - 8;
    std::vector<std::string> codes;
    std::vector<std::uint64_t> tg, ct;
    for (std::uint32_t i = 0; i < nl; ++i) {
      if (at + 1 > body_end) return corrupt("truncated in the language table");
      const std::size_t len = static_cast<unsigned char>(p[at]);
      if (len == 0 || len > 15) return corrupt("bad language code length");
      if (at + 1 + len + 16 > body_end) return corrupt("truncated in the language table");
      codes.emplace_back(p + at + 1, len);
      tg.push_back(get64(p + at + 1 + len));
      ct.push_back(get64(p + at + 1 + len + 8));
      at += 1 + len + 16;
    }
    if (ns > (body_end - at) / sizeof(slot) || (body_end - at) != ns * sizeof(slot))
      return corrupt("size mismatch: " + std::to_string(b.size()) + " bytes for " + std::to_string(ns) +
                     " URLs (truncated or extended file)");
    if (XXH3_64bits(p, body_end) != get64(p + body_end)) return corrupt("checksum mismatch (corrupt file)");
    for (std::size_t i = 1; i < codes.size(); ++i)
      if (!(codes[i - 1] < codes[i])) return corrupt("language codes not sorted (or repeated)");
    std::unique_ptr<shard[]> fresh(new shard[kShards]);
    std::uint64_t prev = 0;
    for (std::uint64_t i = 0; i < ns; ++i, at += sizeof(slot)) {
      slot e;
      e.key = get64(p + at);
      std::memcpy(e.lang.data(), p + at + 8, 4);
      std::memcpy(e.votes.data(), p + at + 12, 4);
      if (e.key == 0 || (i && e.key <= prev)) return corrupt("URL keys not strictly increasing");
      prev = e.key;
      if (e.lang[0] == kFetched) {
        for (std::size_t j = 0; j < kGuesses; ++j)
          if ((j && e.lang[j] != kNone) || e.votes[j]) return corrupt("bad fetched URL slot");
      } else {
        // canonical: languages increasing, then empty guesses
        for (std::size_t j = 0; j < kGuesses; ++j) {
          if (e.lang[j] == kNone) {
            if (e.votes[j]) return corrupt("votes without a language");
          } else if (e.lang[j] >= nl || e.votes[j] == 0) {
            return corrupt("bad language index in a URL slot");
          }
          if (j && !(e.lang[j - 1] < e.lang[j] || (e.lang[j - 1] == kNone && e.lang[j] == kNone)))
            return corrupt("URL slot guesses not in order");
        }
      }
      shard& s = fresh[e.key >> (64 - kShardBits)];
      slot* d = s.find_or_insert(e.key, 0);
      *d = e;
    }
    // install
    std::unique_lock lk(lang_mu_);
    std::array<std::unique_lock<std::mutex>, kShards> locks;
    for (std::size_t i = 0; i < kShards; ++i) locks[i] = std::unique_lock(shards_[i].mu);
    for (std::size_t i = 0; i < kShards; ++i) {
      shards_[i].slots.swap(fresh[i].slots);
      shards_[i].used = fresh[i].used;
    }
    codes_ = std::move(codes);
    index_.clear();
    std::uint32_t qs = 0;
    for (std::size_t i = 0; i < kMaxLanguages; ++i) {
      const bool have = i < codes_.size();
      if (have) index_.emplace(codes_[i], static_cast<std::uint8_t>(i));
      target_[i].store(have ? tg[i] : 0, std::memory_order_relaxed);
      count_[i].store(have ? ct[i] : 0, std::memory_order_relaxed);
      qs += have && tg[i];
    }
    quotas_set_.store(qs, std::memory_order_relaxed);
    dropped_.store(dropped, std::memory_order_relaxed);
    return {};
  }

  frontier_options opt_;
  std::unique_ptr<shard[]> shards_;
  mutable std::shared_mutex lang_mu_;
  std::vector<std::string> codes_;
  struct code_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint8_t, code_hash, std::equal_to<>> index_;
  std::array<std::atomic<std::uint64_t>, kMaxLanguages> target_;
  std::array<std::atomic<std::uint64_t>, kMaxLanguages> count_;
  std::atomic<std::uint32_t> quotas_set_{0};
  std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace v1
}  // namespace langsift
