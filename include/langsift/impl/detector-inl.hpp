// langsift — implementation of langsift/detector.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp): `detect` runs the stages of
// langsift/impl/detect_stages.hpp, defined in impl/detect/ one file per stage, in order.
#pragma once

#include "langsift/detector.hpp"
#include "langsift/impl/detect_stages.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"
#include "langsift/impl/detect/0-begin-inl.hpp"
#include "langsift/impl/detect/1-sample-inl.hpp"
#include "langsift/impl/detect/2-script-units-inl.hpp"
#include "langsift/impl/detect/3-score-inl.hpp"
#include "langsift/impl/detect/4-segment-inl.hpp"
#include "langsift/impl/detect/5-close-group-inl.hpp"
#include "langsift/impl/detect/6-top-three-inl.hpp"
#include "langsift/impl/detect/7-und-confidence-inl.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

/// Whether `code` names a language detect can answer (detect_options::only): one of the model's,
/// or one that its script alone decides (script_language: chr for Cherokee, also without a model
/// language).
inline bool model_knows(const model& m, std::string_view code) noexcept {
  for (std::size_t l = 0; l < m.language_count(); ++l)
    if (code_matches(m.language_code(l), code)) return true;
  for (std::size_t s = 0; s < script_count; ++s) {
    const std::string_view decided = script_language(static_cast<script>(s));
    if (!decided.empty() && code_matches(decided, code)) return true;
  }
  return false;
}

/// The calling thread's scratch: each thread grows its own, so threads share only the model.
inline detect_scratch& thread_scratch() {
  thread_local detect_scratch s;
  return s;
}

}  // namespace detail

LANGSIFT_INLINE detection detect(const model& m, std::string_view text, const detect_options& opt) {
  namespace stage = detail::detect_stage;
  detection d;
  if (m.language_count() == 0 || opt.top_k > max_top_k) {
    d.st = status::invalid_argument;
    return d;
  }
  for (const std::string_view code : opt.only)
    if (!detail::model_knows(m, code)) {
      d.st = status::invalid_argument;  // unknown_codes() names them
      return d;
    }
  detail::detect_scratch& s = detail::thread_scratch();
  stage::begin(m, opt, s);
  stage::sample(text, opt, s);
  stage::script_units(m, opt, text, s);
  d.sampled = s.sampled;
  d.examined_bytes = s.examined;
  if (s.text_bytes == 0) {
    d.st = status::empty_input;
    d.is_short = true;
    return d;
  }
  stage::score(m, opt, s);
  stage::segment(m, opt, s);
  stage::close_group(m, opt, s);
  stage::top_three(m, opt, text.size(), s, d);
  if (d.count) stage::und_confidence(m, opt, s, d);
  return d;
}

LANGSIFT_INLINE std::vector<std::string_view> unknown_codes(const model& m, std::span<const std::string_view> codes) {
  std::vector<std::string_view> out;
  for (const std::string_view code : codes)
    if (!detail::model_knows(m, code)) out.push_back(code);
  return out;
}

}  // namespace v1
}  // namespace langsift
