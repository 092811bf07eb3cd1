// langsift — implementation of langsift/frontier.hpp: votes, fetches and sizes, over the URL table
// (compiled into langsift::core, or included by the header under LANGSIFT_HEADER_ONLY; see
// langsift/config.hpp).
#pragma once

#include "langsift/frontier.hpp"

#include <algorithm>

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE bool frontier::vote_key(std::uint64_t key, std::string_view code) {
  const int l = intern(code);
  if (l < 0) return false;
  return vote_index(key ? key : 1, static_cast<std::uint8_t>(l));
}

LANGSIFT_INLINE std::size_t frontier::add_votes(const detection& d, std::span<const std::string_view> targets) {
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

LANGSIFT_INLINE std::size_t frontier::add_votes(const detection& d, std::span<const std::string> targets) {
  std::vector<std::string_view> v(targets.begin(), targets.end());
  return add_votes(d, std::span<const std::string_view>(v));
}

LANGSIFT_INLINE std::size_t frontier::add_votes_keys(const detection& d, std::span<const std::uint64_t> keys) {
  std::array<std::uint8_t, 3> langs{};
  const std::size_t nl = voting_languages(d, langs);
  std::size_t n = 0;
  for (std::uint64_t k : keys)
    for (std::size_t i = 0; i < nl; ++i) n += vote_index(k ? k : 1, langs[i]);
  return n;
}

LANGSIFT_INLINE bool frontier::record_fetch_key(std::uint64_t key, const detection& d) {
  if (!mark_fetched_key(key)) return false;
  if (d.count) count_page(d.languages[0].code);
  return true;
}

LANGSIFT_INLINE bool frontier::mark_fetched_key(std::uint64_t key) {
  key = key ? key : 1;
  shard& s = shard_of(key);
  std::lock_guard lk(s.mu);
  slot* e = open_slot(s, key);
  if (!e) return false;
  e->lang = {kFetched, kNone, kNone, kNone};
  e->votes = {0, 0, 0, 0};
  return true;
}

LANGSIFT_INLINE std::vector<std::pair<std::string, std::uint32_t>> frontier::votes(std::string_view url) const {
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

LANGSIFT_INLINE bool frontier::fetched(std::string_view url) const {
  const std::uint64_t key = url_key(url);
  shard& s = shard_of(key);
  std::lock_guard lk(s.mu);
  const slot* p = s.find(key);
  return p && p->lang[0] == kFetched;
}

LANGSIFT_INLINE std::size_t frontier::size() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < kShards; ++i) {
    std::lock_guard lk(shards_[i].mu);
    n += shards_[i].used;
  }
  return n;
}

LANGSIFT_INLINE std::size_t frontier::memory_bytes() const {
  std::size_t n = sizeof(*this) + kShards * sizeof(shard);
  for (std::size_t i = 0; i < kShards; ++i) {
    std::lock_guard lk(shards_[i].mu);
    n += shards_[i].slots.capacity() * sizeof(slot);
  }
  std::shared_lock lk(lang_mu_);
  n += codes_.size() * (sizeof(std::string) + 32);
  return n;
}

LANGSIFT_INLINE std::size_t frontier::voting_languages(const detection& d, std::array<std::uint8_t, 3>& langs) {
  if (d.is_short || d.count == 0) return 0;
  std::size_t nl = 0;
  for (std::size_t i = 0; i < d.count && i < 3; ++i) {
    if (d.languages[i].percent < opt_.min_vote_percent) continue;
    const int l = intern(d.languages[i].code);
    if (l >= 0) langs[nl++] = static_cast<std::uint8_t>(l);
  }
  return nl;
}

LANGSIFT_INLINE frontier::slot* frontier::open_slot(shard& s, std::uint64_t key) {
  slot* e = s.find_or_insert(key, limit());
  if (!e) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  return e->lang[0] == kFetched ? nullptr : e;
}

LANGSIFT_INLINE bool frontier::vote_index(std::uint64_t key, std::uint8_t l) {
  shard& s = shard_of(key);
  std::lock_guard lk(s.mu);
  slot* e = open_slot(s, key);
  if (!e) return false;
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

}  // namespace v1
}  // namespace langsift
