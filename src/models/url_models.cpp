// The built-in URL models: their bytes (models/url-words.bin and models/url-linear.bin) come from
// langsift_data_v1_get (builtin_data.h), as the language models' do.
#include "langsift/url_models.hpp"

#include "builtin_data.h"
#include "langsift/detail/immortal.hpp"

namespace langsift {
inline namespace v1 {

namespace {
std::string_view data_bytes(langsift_data_v1_id which) noexcept {
  std::size_t size = 0;
  const char* p = langsift_data_v1_get(which, &size);
  return p ? std::string_view(p, size) : std::string_view();
}
}  // namespace

std::string_view default_url_words_model_bytes() noexcept { return data_bytes(LANGSIFT_DATA_URL_WORDS); }

std::string_view default_url_linear_model_bytes() noexcept { return data_bytes(LANGSIFT_DATA_URL_LINEAR); }

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
