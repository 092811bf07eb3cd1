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
// State files: save()/save_file() and load_copy()/load_file() write and read a versioned,
// checksummed little-endian binary file (header, language table with quotas and counts, URL slots
// sorted by key, XXH3-64 of it all). A truncated, corrupt or foreign file is rejected with
// status::corrupt_state and a message; the frontier is then left unchanged.
//
// The parts: frontier/keys.hpp (URL normalisation and keys), frontier/policy.hpp (options, quotas,
// decisions), frontier/key_table.hpp (the sharded URL table); the frontier class below, whose
// definitions are compiled along the same seams (impl/frontier/policy, votes and state, the last
// the state-file codec).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/detector.hpp"
#include "langsift/frontier/key_table.hpp"
#include "langsift/frontier/keys.hpp"
#include "langsift/frontier/policy.hpp"
#include "langsift/uri.hpp"
#include "langsift/url.hpp"

namespace langsift {
inline namespace v1 {

// ================================================================================================
// The frontier

class frontier {
 public:
  static constexpr std::size_t kGuesses = detail::frontier_slot::kGuesses;  ///< languages a URL collects votes for
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
  bool set_quota(std::string_view code, std::uint64_t target);
  frontier_quota quota(std::string_view code) const;
  /// Counts `pages` more pages for a language (record_fetch does this for the top language).
  bool count_page(std::string_view code, std::uint64_t pages = 1);
  bool saturated(std::string_view code) const { return quota(code).saturated(); }
  /// True when every language with a quota is saturated (and at least one has a quota).
  bool all_saturated() const;
  /// Every language known to the frontier, with its quota.
  std::vector<std::pair<std::string, frontier_quota>> quotas() const;

  // ---- updates --------------------------------------------------------------------------------

  /// One referrer vote: `code` is a guess for `target_url`'s language. False when not recorded
  /// (bad code, table full, URL already fetched, max_urls reached, or kGuesses other languages
  /// hold more than one vote each).
  bool vote(std::string_view target_url, std::string_view code) { return vote_key(url_key(target_url), code); }
  bool vote_key(std::uint64_t key, std::string_view code);

  /// ClueWeb09's vote: a fetched page's languages (percent >= min_vote_percent) vote for each of
  /// its out-link targets. A short page (d.is_short) or one without a language casts no vote.
  /// Returns the number of votes recorded.
  std::size_t add_votes(const detection& d, std::span<const std::string_view> targets);
  std::size_t add_votes(const detection& d, std::span<const std::string> targets);
  /// As add_votes, for targets given by key (url_key).
  std::size_t add_votes_keys(const detection& d, std::span<const std::uint64_t> keys);

  /// A page was fetched: its URL will be skipped from now on, and its top language (if any) counts
  /// one page toward that language's quota. Returns false if the URL was already marked (then
  /// nothing is counted, so a page fetched twice counts once) or could not be stored (max_urls).
  bool record_fetch(std::string_view url, const detection& d) { return record_fetch_key(url_key(url), d); }
  bool record_fetch_key(std::uint64_t key, const detection& d);
  /// Marks a URL fetched without counting any language. False if it already was (or max_urls).
  bool mark_fetched(std::string_view url) { return mark_fetched_key(url_key(url)); }
  bool mark_fetched_key(std::uint64_t key);

  // ---- decisions ------------------------------------------------------------------------------

  /// Fetch or skip, and the priority (see the header comment). `url_scores`: the URL classifier's
  /// answer for this URL (optional; null = referrer votes only).
  frontier_decision decide(std::string_view url, const url_result* url_scores = nullptr) const;
  /// decide() with the URL classified by `c` (options `uo`).
  frontier_decision decide(std::string_view url, const url_classifier& c, const url_options& uo = {}) const;

  frontier_decision decide_key(std::uint64_t key, const url_result* url_scores = nullptr) const;

  /// The votes a URL collected (code, count), most first; empty when unknown or fetched.
  std::vector<std::pair<std::string, std::uint32_t>> votes(std::string_view url) const;
  bool fetched(std::string_view url) const;

  // ---- size -----------------------------------------------------------------------------------

  /// URLs known (voted for or fetched).
  std::size_t size() const;
  /// Bytes held by the URL tables (slots allocated, whether used or not) and the language table.
  std::size_t memory_bytes() const;
  /// Votes or fetches not stored because max_urls was reached.
  std::uint64_t dropped_votes() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  // ---- state files ----------------------------------------------------------------------------

  /// The whole state (languages with quotas and counts, URL slots) as bytes. Canonical: the same
  /// state gives the same bytes whatever order it was built in (languages by code, slots by key,
  /// a slot's guesses by code). Options are not saved. Empty on a big-endian host (the format is
  /// little-endian; save_file says unsupported_platform).
  std::string save() const;

  /// Writes save() to a file (through a temporary file beside it, renamed into place; a path that
  /// exists but is not a regular file, such as a FIFO or /dev/null, is written in place). Returns ok, io_error,
  /// out_of_memory or unsupported_platform (a big-endian host); `message` (optional) receives a
  /// reason for people on failure.
  status save_file(const std::string& path, std::string* message = nullptr) const noexcept;

  /// Replace the state of `out` (languages, quotas, counts, URLs; not its options) by a saved one.
  /// Return ok, corrupt_state (truncated, bit-flipped or not a state file), model_version (another
  /// format version), unsupported_platform (a big-endian host), out_of_memory, and for load_file
  /// io_error; `message` (optional) receives a reason for people on failure. On any error `out` is
  /// left unchanged.
  static status load_copy(std::string_view bytes, frontier& out, std::string* message = nullptr) noexcept;
  static status load_file(const std::string& path, frontier& out, std::string* message = nullptr) noexcept;

 private:
  static constexpr std::uint8_t kNone = detail::frontier_slot::kNone;
  static constexpr std::uint8_t kFetched = detail::frontier_slot::kFetched;
  static constexpr char kMagic[8] = {'L', 'S', 'F', 'R', 'O', 'N', 'T', '\0'};
  static constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;

  using slot = detail::frontier_slot;
  using shard = detail::frontier_shard;

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
  int intern(std::string_view code);

  std::size_t voting_languages(const detection& d, std::array<std::uint8_t, 3>& langs);

  bool vote_index(std::uint64_t key, std::uint8_t l);
  /// The slot of `key` in `s` (whose lock the caller holds), inserted if new; null when the table
  /// is full (counted in dropped_) or the URL was fetched already.
  slot* open_slot(shard& s, std::uint64_t key);

  void canonical(slot& e, const std::array<std::uint8_t, 256>& remap) const;

  // The loaders' body: may throw std::bad_alloc (before the state is replaced).
  status load_state(std::string_view b, std::string* message);

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

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/frontier/policy-inl.hpp"
#include "langsift/impl/frontier/state-inl.hpp"
#include "langsift/impl/frontier/votes-inl.hpp"
#endif
