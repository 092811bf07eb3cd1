// langsift — implementation of langsift/frontier/key_table.hpp (compiled into langsift::core, or
// included by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/frontier/key_table.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

LANGSIFT_INLINE void frontier_shard::grow() {
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

}  // namespace detail
}  // namespace v1
}  // namespace langsift
