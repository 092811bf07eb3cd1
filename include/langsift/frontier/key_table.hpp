// langsift — the crawl frontier's URL table (part of langsift/frontier.hpp; namespace detail): one
// 16-byte slot per URL key, in open-addressing shards with linear probing, grown ×2 at 3/4 load.
// The frontier holds 64 shards (a URL key's top bits choose one), each under its own mutex.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// A URL's entry: its key, up to kGuesses languages (indexes into the frontier's language table)
/// with a saturating vote count each; lang[0] == kFetched marks a fetched URL.
struct frontier_slot {
  static constexpr std::size_t kGuesses = 4;
  static constexpr std::uint8_t kNone = 0xFE;     ///< no language in this place
  static constexpr std::uint8_t kFetched = 0xFF;  ///< in lang[0]: the URL was fetched

  std::uint64_t key = 0;  // 0: empty
  std::array<std::uint8_t, kGuesses> lang{kNone, kNone, kNone, kNone};
  std::array<std::uint8_t, kGuesses> votes{};
};
static_assert(sizeof(frontier_slot) == 16);

/// One shard of the table; not synchronised itself (the frontier locks `mu` around calls on its
/// shards).
struct frontier_shard {
  using slot = frontier_slot;
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
  void grow();
};

}  // namespace detail
}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/frontier/key_table-inl.hpp"
#endif
