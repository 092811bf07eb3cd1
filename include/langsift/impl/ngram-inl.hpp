// langsift — implementation of langsift/ngram.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp). for_each_feature, a template, stays
// in the header.
#pragma once

#include "langsift/ngram.hpp"
#include "langsift/detail/unicode_lookup.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// ASCII: the case-folded letter, or 0 for a byte that is not a word character (from the tables).
LANGSIFT_INLINE constexpr std::array<char32_t, 128> kAsciiWordFold = [] {
  std::array<char32_t, 128> t{};
  for (unsigned c = 0; c < 128; ++c) {
    const uni_value& v = uni_values[uni_ascii[c]];
    const auto cls = static_cast<char_class>(v.cls);
    if (cls == char_class::letter || cls == char_class::mark)
      t[c] = static_cast<char32_t>(static_cast<std::int32_t>(c) + v.fold);
  }
  return t;
}();

}  // namespace detail
}  // namespace v1
}  // namespace langsift
