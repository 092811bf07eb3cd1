// langsift — detect, stage 1: the regions of the text to examine. See
// langsift/impl/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace detect_stage {

LANGSIFT_INLINE void sample(std::string_view text, const detect_options& opt, detect_scratch& s) {
  const std::size_t cap = std::max<std::size_t>(opt.max_text_bytes, 256);
  s.nregions = 0;
  s.sampled = text.size() > cap;
  if (!s.sampled) {
    s.regions[s.nregions++] = {0, text.size()};
    return;
  }
  const std::size_t n = s.regions.size(), win = cap / n, gap = text.size() / n;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t a = i * gap, b = std::min(text.size(), a + win);
    while (a < b && is_utf8_continuation(static_cast<unsigned char>(text[a]))) ++a;  // code point boundary
    if (b < text.size()) b = utf8_cut_back(text.data(), b, a);
    s.regions[s.nregions++] = {a, b};
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
