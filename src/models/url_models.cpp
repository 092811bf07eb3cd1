// The built-in URL models: their bytes are linked in by url_models.S (.incbin of
// models/url-words.bin and models/url-linear.bin).
#include "langsift/url_models.hpp"

#include "langsift/detail/immortal.hpp"

extern "C" {
extern const char langsift_v1_url_words_begin[];
extern const char langsift_v1_url_words_end[];
extern const char langsift_v1_url_linear_begin[];
extern const char langsift_v1_url_linear_end[];
}

namespace langsift {
inline namespace v1 {

std::string_view default_url_words_model_bytes() noexcept {
  return std::string_view(langsift_v1_url_words_begin,
                          static_cast<std::size_t>(langsift_v1_url_words_end - langsift_v1_url_words_begin));
}

std::string_view default_url_linear_model_bytes() noexcept {
  return std::string_view(langsift_v1_url_linear_begin,
                          static_cast<std::size_t>(langsift_v1_url_linear_end - langsift_v1_url_linear_begin));
}

namespace {
url_model load_or_empty(std::string_view bytes) noexcept {
  try {
    url_model m;
    if (url_model::load_copy(bytes, m) != status::ok) return url_model{};
    return m;
  } catch (...) {
    return url_model{};
  }
}
}  // namespace

// The built-in URL models and classifier are never destroyed (detail::immortal): threads may still
// classify with them while the process exits.
const url_model& default_url_words_model() noexcept {
  static const detail::immortal<url_model> m(load_or_empty(default_url_words_model_bytes()));
  return m.get();
}

const url_model& default_url_linear_model() noexcept {
  static const detail::immortal<url_model> m(load_or_empty(default_url_linear_model_bytes()));
  return m.get();
}

const url_classifier& default_url_classifier() noexcept {
  static const detail::immortal<url_classifier> c([] {
    try {
      return url_classifier(&default_url_linear_model(), &default_url_words_model());
    } catch (...) {
      return url_classifier();
    }
  }());
  return c.get();
}

}  // namespace v1
}  // namespace langsift
