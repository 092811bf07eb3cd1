// The C ABI's URL classification (include/langsift.h): the built-in URL models.
#include <cstring>
#include <string_view>

#include "capi_internal.hpp"
#include "langsift/url_models.hpp"

using namespace langsift::capi;

namespace {

std::string_view view(const char* s) noexcept { return s ? std::string_view(s) : std::string_view(); }

}  // namespace

extern "C" {

langsift_status langsift_url_classify(const char* url, size_t len, const char* country_hint,
                                      langsift_url_result* out) {
  if (!out) return LANGSIFT_INVALID_ARGUMENT;
  std::memset(out, 0, sizeof *out);
  copy_string(out->language, "und");
  if (!url && len > 0) {
    out->status = LANGSIFT_INVALID_ARGUMENT;
    return LANGSIFT_INVALID_ARGUMENT;
  }
  try {
    if (len == static_cast<size_t>(-1)) len = std::strlen(url);
    langsift::url_options o;
    o.country_hint = view(country_hint);
    const langsift::url_result r =
        langsift::default_url_classifier().classify(len ? std::string_view(url, len) : std::string_view(), o);
    out->count = static_cast<int>(r.count);
    for (std::size_t i = 0; i < r.count && i < 3; ++i) {
      copy_string(out->languages[i].code, r.languages[i].code);
      out->languages[i].score = r.languages[i].score;
    }
    copy_string(out->language, r.language());
    out->status = to_c(r.st);
    return LANGSIFT_OK;
  } catch (...) {
    std::memset(out, 0, sizeof *out);
    copy_string(out->language, "und");
    out->status = LANGSIFT_INTERNAL_ERROR;
    return LANGSIFT_INTERNAL_ERROR;
  }
}

langsift_status langsift_classify_url(const langsift_detector* d, const char* url, size_t len,
                                      const char* country_hint, langsift_url_result* out) {
  if (!d) {
    if (out) {
      std::memset(out, 0, sizeof *out);
      copy_string(out->language, "und");
      out->status = LANGSIFT_INVALID_ARGUMENT;
    }
    return LANGSIFT_INVALID_ARGUMENT;
  }
  return langsift_url_classify(url, len, country_hint, out);
}

}  // extern "C"
