// langsift — implementation of langsift/psl.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/psl.hpp"
#include "langsift/detail/psl_hash.hpp"
// The table is one string literal of ~100 KB, beyond the 64 KB a compiler must support (GCC and
// clang take it; clang's -Wpedantic says so).
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
#include "langsift/detail/psl_table.inc"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE std::string_view psl_version() noexcept { return detail::psl_version; }

namespace detail {

/// Flags of the rule named `s` (0 if none).
inline std::uint8_t psl_lookup(std::string_view s) noexcept {
  if (s.empty() || s.size() > 255) return 0;
  constexpr std::size_t mask = (std::size_t{1} << psl_table_bits) - 1;
  std::size_t slot = psl_hash(s.data(), s.size()) & mask;
  for (;;) {
    const std::uint16_t i = psl_slots[slot];
    if (i == 0xFFFF) return 0;
    const psl_rule& r = psl_rules[i];
    if (r.len == s.size() && std::string_view(psl_names + r.off, r.len) == s) return r.flags;
    slot = (slot + 1) & mask;
  }
}

}  // namespace detail

LANGSIFT_INLINE domain_parts split_domain(std::string_view host, bool use_private) noexcept {
  domain_parts d;
  while (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) return d;
  auto flags_of = [&](std::string_view s) -> std::uint8_t {
    std::uint8_t f = detail::psl_lookup(s);
    if (!use_private && (f & 8)) return 0;
    return f;
  };
  std::size_t suffix_at = std::string_view::npos;
  // The parent looked up for a wildcard at one label is the name looked up at the next: look it
  // up once.
  std::uint8_t f = flags_of(host);
  for (std::size_t p = 0;;) {
    const std::string_view s = host.substr(p);
    const std::size_t dot = s.find('.');
    if (f & 4) {  // exception: the suffix is the rule minus its first label
      suffix_at = dot == std::string_view::npos ? host.size() : p + dot + 1;
      d.listed = true;
      d.private_rule = (f & 8) != 0;
      break;
    }
    if (f & 1) {
      suffix_at = p;
      d.listed = true;
      d.private_rule = (f & 8) != 0;
      break;
    }
    if (dot == std::string_view::npos) break;
    const std::uint8_t pf = flags_of(s.substr(dot + 1));
    if (pf & 2) {  // "*.parent" matches this label + parent
      suffix_at = p;
      d.listed = true;
      d.private_rule = (pf & 8) != 0;
      break;
    }
    f = pf;
    p += dot + 1;
  }
  if (suffix_at == std::string_view::npos) {  // default rule "*": the last label
    const std::size_t dot = host.rfind('.');
    suffix_at = dot == std::string_view::npos ? 0 : dot + 1;
  }
  if (suffix_at >= host.size()) return d;  // exception rule at the top level (not in the list)
  d.public_suffix = host.substr(suffix_at);
  if (suffix_at >= 2) {
    const std::size_t prev = host.rfind('.', suffix_at - 2);
    const std::size_t start = prev == std::string_view::npos ? 0 : prev + 1;
    d.registered_domain = host.substr(start);
  }
  return d;
}

}  // namespace v1
}  // namespace langsift
