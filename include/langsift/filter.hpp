// langsift — result filters (NCL-Crawl, Table 1): keep or drop a page by its detected languages.
//
// Each filter is switchable. A page is kept when ONE of its detected languages (up to three)
// passes EVERY enabled filter: its code is among `labels`, it has at least `min_bytes` and at most
// `max_bytes` of text, and at least `min_percent` of the text. `min_probability` is a condition
// on the page's answer: only the top language can pass, and only when its calibrated
// probability (detection::confidence) is at least min_probability; a page whose top probability
// is below it is never kept. With no filter enabled, every page is kept. `und` pages (no
// language) are kept only when no filter is enabled.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/config.hpp"
#include "langsift/detector.hpp"

namespace langsift {
inline namespace v1 {

struct language_filter {
  /// Codes in langsift's form, compared exactly ("zh" also matches "zh-Hant"): parse_code_list()
  /// or to_iso639_1() puts given codes in it ("deu", "ZH-hant" -> "de", "zh-Hant").
  /// language_filter_from_config() (options.hpp) reads NCL-Crawl's configuration names.
  std::vector<std::string> labels;
  std::size_t min_bytes = 0;
  std::size_t max_bytes = 0;
  int min_percent = 0;
  float min_probability = 0;  ///< 0..1, against detection::confidence (the top language only)
  bool use_labels = false;
  bool use_min_bytes = false;
  bool use_max_bytes = false;
  bool use_min_percent = false;
  bool use_min_probability = false;

  bool enabled() const noexcept {
    return use_labels || use_min_bytes || use_max_bytes || use_min_percent || use_min_probability;
  }
};

/// True when `e` passes every enabled filter of `f` but min_probability (a page's condition: keep()).
bool passes(const language_estimate& e, const language_filter& f) noexcept;

/// True when the page is kept: some detected language passes every enabled filter.
bool keep(const detection& d, const language_filter& f) noexcept;

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/filter-inl.hpp"
#endif
