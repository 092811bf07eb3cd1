// langsift — the hash and entry type of the generated Public Suffix List table
// (detail/psl_table.inc, written by tools/gen/gen_psl_table.cpp). Shared by generator and lookup.
#pragma once

#include <cstddef>
#include <cstdint>

namespace langsift {
inline namespace v1 {
namespace detail {

/// One PSL rule: `len` bytes at `psl_names + off`; flags: 1 rule, 2 wildcard ("*." + name),
/// 4 exception ("!" + name), 8 from the private section only.
struct psl_rule {
  std::uint32_t off;
  std::uint8_t len;
  std::uint8_t flags;
};

/// FNV-1a (32 bit) of a rule name, the key of the open-addressing table.
constexpr std::uint32_t psl_hash(const char* s, std::size_t n) noexcept {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(s[i]);
    h *= 16777619u;
  }
  return h ^ (h >> 15);
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
