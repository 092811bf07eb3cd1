// langsift — implementation of langsift/filter.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/filter.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE bool passes(const language_estimate& e, const language_filter& f) noexcept {
  if (f.use_labels) {
    bool found = false;
    for (const auto& l : f.labels) found = found || detail::code_matches(e.code, l);
    if (!found) return false;
  }
  if (f.use_min_bytes && e.bytes < f.min_bytes) return false;
  if (f.use_max_bytes && e.bytes > f.max_bytes) return false;
  if (f.use_min_percent && e.percent < f.min_percent) return false;
  return true;
}

LANGSIFT_INLINE bool keep(const detection& d, const language_filter& f) noexcept {
  if (!f.enabled()) return true;
  // min_probability: only the top language, and only when it is that probable.
  const std::size_t n = f.use_min_probability ? (d.count && d.confidence >= f.min_probability ? 1 : 0) : d.count;
  for (std::size_t i = 0; i < n; ++i)
    if (passes(d.languages[i], f)) return true;
  return false;
}

}  // namespace v1
}  // namespace langsift
