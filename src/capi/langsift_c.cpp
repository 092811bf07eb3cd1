// The C ABI (include/langsift.h) over the C++ API. Nothing may escape: every entry point catches
// everything and turns it into a langsift_status. URL classification: langsift_c_url.cpp.
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "langsift/common.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/model.hpp"
#include "langsift/options.hpp"
#include "langsift/page.hpp"
#include "langsift/unicode.hpp"
#include "langsift/version.hpp"

using namespace langsift::capi;

namespace {

static_assert(static_cast<int>(langsift::status::binary_input) == LANGSIFT_BINARY_INPUT,
              "langsift_status must mirror langsift::status");
static_assert(static_cast<int>(langsift::status::corrupt_state) == LANGSIFT_CORRUPT_STATE);
static_assert(static_cast<int>(langsift::status::unsupported_platform) == LANGSIFT_UNSUPPORTED_PLATFORM);
static_assert(LANGSIFT_MAX_TOP_K == langsift::max_top_k, "LANGSIFT_MAX_TOP_K must mirror langsift::max_top_k");
static_assert(static_cast<int>(langsift::status::too_large) == LANGSIFT_TOO_LARGE);
static_assert(static_cast<int>(langsift::status::internal_error) == LANGSIFT_INTERNAL_ERROR);
static_assert(static_cast<int>(langsift::status::io_error) == LANGSIFT_IO_ERROR);

void clear(langsift_result* out) noexcept {
  std::memset(out, 0, sizeof *out);
  copy_string(out->language, "und");
}

// Inside a catch handler: the result becomes "und" with the status of the exception in flight.
langsift_status fail_result(langsift_result* out) noexcept {
  const langsift_status st = exception_status();
  clear(out);
  out->status = st;
  return st;
}

void fill(const langsift::detection& d, langsift_result* out) noexcept {
  out->count = static_cast<int>(d.count);
  for (std::size_t i = 0; i < d.count && i < 3; ++i) {
    copy_string(out->languages[i].code, d.languages[i].code);
    out->languages[i].percent = d.languages[i].percent;
    out->languages[i].bytes = d.languages[i].bytes;
    out->languages[i].score = d.languages[i].score;
  }
  copy_string(out->language, d.language());
  out->text_bytes = d.text_bytes;
  out->confidence = d.confidence;
  out->reliable = d.reliable ? 1 : 0;
  out->is_short = d.is_short ? 1 : 0;
  out->status = to_c(d.st);
}

// Bytes of `s` that are not part of well-formed UTF-8 (what becomes U+FFFD).
std::size_t invalid_utf8_bytes(std::string_view s) noexcept {
  if (langsift::is_valid_utf8(s)) return 0;
  std::size_t bad = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const langsift::detail::utf8_decoded u = langsift::detail::decode_utf8_step(p, e);
    if (!u.valid) bad += u.len;  // a maximal invalid subpart: one U+FFFD
    p += u.len;
  }
  return bad;
}

std::string_view view(const char* s) noexcept { return s ? std::string_view(s) : std::string_view(); }

langsift_status finish_new(std::unique_ptr<langsift_detector> d, langsift_detector** out) {
  d->code_storage.reserve(d->m->language_count());
  for (std::size_t i = 0; i < d->m->language_count(); ++i) d->code_storage.emplace_back(d->m->language_code(i));
  *out = d.release();
  return LANGSIFT_OK;
}

}  // namespace

namespace {

/// Creates a detector: `load(d)` sets its model (returning LANGSIFT_OK, or a status with the
/// message written); *out is NULL on any failure, and nothing escapes (guarded_new).
template <class Load>
langsift_status new_detector(langsift_detector** out, char* error, size_t error_size, Load&& load) noexcept {
  return langsift::capi::guarded_new(out, error, error_size, [&] {
    auto d = std::make_unique<langsift_detector>();
    if (const langsift_status st = load(*d); st != LANGSIFT_OK) return st;
    return finish_new(std::move(d), out);
  });
}

}  // namespace

extern "C" {

const char* langsift_status_name(langsift_status s) {
  // C callers may pass any int: read the bits, since loading an out-of-range enum value is
  // undefined in C++ (UBSan's -fsanitize=enum reports it).
  std::underlying_type_t<langsift_status> bits;
  std::memcpy(&bits, &s, sizeof bits);
  const long long v = static_cast<long long>(bits);
  if (v < 0 || v > LANGSIFT_TOO_LARGE) return "unknown_status";
  return langsift::status_name(static_cast<langsift::status>(v)).data();  // literals: NUL-terminated
}

const char* langsift_version(void) { return langsift::version(); }

langsift_status langsift_detector_new(const char* model_path, langsift_detector** out, char* error,
                                      size_t error_size) {
  return new_detector(out, error, error_size, [&](langsift_detector& d) {
    if (!model_path || !*model_path) {
      d.m = &langsift::default_model();
      if (d.m->language_count() == 0) {
        copy_message(error, error_size, "the built-in model failed to load");
        return LANGSIFT_CORRUPT_MODEL;
      }
      return LANGSIFT_OK;
    }
    std::string msg;
    const langsift::status st = langsift::model::load_file(model_path, d.owned, &msg);
    if (st != langsift::status::ok) {
      copy_message(error, error_size, msg.empty() ? std::string(model_path) + ": " + std::string(langsift::status_name(st)) : msg);
      return to_c(st);
    }
    d.m = &d.owned;
    return LANGSIFT_OK;
  });
}

langsift_status langsift_detector_new_builtin(const char* name, langsift_detector** out, char* error,
                                              size_t error_size) {
  return new_detector(out, error, error_size, [&](langsift_detector& d) {
    std::string msg;
    const langsift::model* m = nullptr;
    const langsift::status st =
        langsift::builtin_model(name ? std::string_view(name) : std::string_view(), m, &msg);
    if (st != langsift::status::ok) {
      copy_message(error, error_size, msg.empty() ? std::string(langsift::status_name(st)) : msg);
      return to_c(st);
    }
    d.m = m;
    return LANGSIFT_OK;
  });
}

size_t langsift_builtin_model_count(void) { return langsift::builtin_model_names().size(); }

const char* langsift_builtin_model_name(size_t i) {
  const auto names = langsift::builtin_model_names();
  return i < names.size() ? names[i].data() : nullptr;  // literals: NUL-terminated
}

langsift_status langsift_detector_new_from_bytes(const void* model_bytes, size_t len, langsift_detector** out,
                                                 char* error, size_t error_size) {
  if (out && (!model_bytes || len == 0)) {
    *out = nullptr;
    copy_message(error, error_size, model_bytes ? "no model bytes (len is 0)" : "model_bytes is NULL");
    return LANGSIFT_INVALID_ARGUMENT;
  }
  if (out && len > static_cast<size_t>(PTRDIFF_MAX)) {
    // No buffer is that long ((size_t)-1...): it cannot be copied (as load_copy says of a length
    // no string holds), and forming its end pointer to copy it would be undefined behaviour.
    *out = nullptr;
    copy_message(error, error_size, "model bytes: out_of_memory");
    return LANGSIFT_OUT_OF_MEMORY;
  }
  return new_detector(out, error, error_size, [&](langsift_detector& d) {
    const langsift::status st =
        langsift::model::load_copy(std::string_view(static_cast<const char*>(model_bytes), len), d.owned);
    if (st != langsift::status::ok) {
      copy_message(error, error_size, "model bytes: " + std::string(langsift::status_name(st)));
      return to_c(st);
    }
    d.m = &d.owned;
    return LANGSIFT_OK;
  });
}

langsift_status langsift_detector_new_from_memory(const void* model_bytes, size_t len, langsift_detector** out) {
  return langsift_detector_new_from_bytes(model_bytes, len, out, nullptr, 0);
}

void langsift_detector_free(langsift_detector* d) { delete d; }

size_t langsift_detector_language_count(const langsift_detector* d) { return d ? d->code_storage.size() : 0; }

const char* langsift_detector_language(const langsift_detector* d, size_t i) {
  if (!d || i >= d->code_storage.size()) return "";
  return d->code_storage[i].c_str();
}

}  // extern "C"

namespace {

/// The k most probable languages of `d` into probs[0, *count) (k <= max_top_k, checked).
void fill_probabilities(const langsift::detection& d, langsift_probability* probs, size_t k, size_t* count) noexcept {
  if (!count) return;
  *count = 0;
  for (std::size_t i = 0; i < k && i < d.probability_count; ++i) {
    copy_string(probs[i].code, d.probabilities[i].code);
    probs[i].p = d.probabilities[i].p;
    ++*count;
  }
}

/// Checks the probability arguments (and clears *count): k <= 16, probs and count given for k > 0.
bool probability_args_ok(langsift_probability* probs, size_t k, size_t* count) noexcept {
  if (count) *count = 0;
  return k <= langsift::max_top_k && (k == 0 || (probs && count));
}

langsift_status detect_body(const langsift_detector* d, const void* body, size_t len, const langsift_page_options* options,
                            langsift_result* out, langsift_probability* probs, size_t k, size_t* count) noexcept {
  if (!out) return LANGSIFT_INVALID_ARGUMENT;
  clear(out);
  if (!d || (!body && len > 0) || !probability_args_ok(probs, k, count)) {
    return out->status = LANGSIFT_INVALID_ARGUMENT;
  }
  if (len == static_cast<size_t>(-1)) len = std::strlen(static_cast<const char*>(body));  // as the header says
  try {
    langsift::page_options o;
    std::vector<std::string> only_codes;
    std::vector<std::string_view> only;
    if (options) {
      if (options->kind < LANGSIFT_KIND_SNIFF || options->kind > LANGSIFT_KIND_TEXT) {
        out->status = LANGSIFT_INVALID_ARGUMENT;
        return LANGSIFT_INVALID_ARGUMENT;
      }
      o.content_type = view(options->content_type);
      o.content_language = view(options->content_language);
      o.url = view(options->url);
      o.encoding = view(options->encoding);
      o.kind = options->kind == LANGSIFT_KIND_HTML   ? langsift::page_kind::html
               : options->kind == LANGSIFT_KIND_TEXT ? langsift::page_kind::text
                                                     : langsift::page_kind::sniff;
      o.main_content = options->main_content != 0;
      // As the command line: a forced encoding must be one a converter knows (a typo would
      // otherwise be ignored in silence), and max_text_bytes is at least 256 (0: the default).
      if (!o.encoding.empty() && !langsift::can_convert(o.encoding)) return out->status = LANGSIFT_UNKNOWN_ENCODING;
      if (options->max_text_bytes && options->max_text_bytes < 256) return out->status = LANGSIFT_INVALID_ARGUMENT;
      if (options->max_text_bytes) o.detect.max_text_bytes = options->max_text_bytes;
      if (options->short_text_bytes) o.detect.short_text_bytes = options->short_text_bytes;
      only_codes = langsift::parse_code_list(view(options->only));  // as every front end reads codes
      only.assign(only_codes.begin(), only_codes.end());
      if (!langsift::unknown_codes(*d->m, only).empty()) return out->status = LANGSIFT_INVALID_ARGUMENT;
      o.detect.only = only;
    }
    o.detect.top_k = k;
    const std::string_view bytes = len ? std::string_view(static_cast<const char*>(body), len) : std::string_view();
    const langsift::page_result r = langsift::detect_page(*d->m, bytes, o);
    if (r.detection.st == langsift::status::out_of_memory) return out->status = LANGSIFT_OUT_OF_MEMORY;
    fill(r.detection, out);
    fill_probabilities(r.detection, probs, k, count);
    copy_string(out->encoding, r.encoding.name);
    copy_string(out->encoding_source, langsift::encoding_source_name(r.encoding.source));
    out->is_html = r.is_html ? 1 : 0;
    out->replaced_bytes = r.conversion.replaced_bytes;
    return LANGSIFT_OK;
  } catch (...) {
    if (count) *count = 0;
    return fail_result(out);
  }
}

langsift_status detect_text_body(const langsift_detector* d, const char* utf8, size_t len, langsift_result* out,
                                 langsift_probability* probs, size_t k, size_t* count) noexcept {
  if (!out) return LANGSIFT_INVALID_ARGUMENT;
  clear(out);
  if (!d || (!utf8 && len > 0) || !probability_args_ok(probs, k, count)) {
    return out->status = LANGSIFT_INVALID_ARGUMENT;
  }
  try {
    if (len == static_cast<size_t>(-1)) len = std::strlen(utf8);
    const std::string_view text = len ? std::string_view(utf8, len) : std::string_view();
    langsift::detect_options o;
    o.top_k = k;
    const langsift::detection r = langsift::detect(*d->m, text, o);
    fill(r, out);
    fill_probabilities(r, probs, k, count);
    // Invalid UTF-8 is read as U+FFFD by the detector; say so, and count the bytes, as
    // langsift_detect does for a body it decodes.
    out->replaced_bytes = invalid_utf8_bytes(text);
    if (out->replaced_bytes && out->status == LANGSIFT_OK) out->status = LANGSIFT_INVALID_UTF8;
    return LANGSIFT_OK;
  } catch (...) {
    if (count) *count = 0;
    return fail_result(out);
  }
}

}  // namespace

extern "C" {

langsift_status langsift_detect(const langsift_detector* d, const void* body, size_t len,
                                const langsift_page_options* options, langsift_result* out) {
  return detect_body(d, body, len, options, out, nullptr, 0, nullptr);
}

langsift_status langsift_detect_text(const langsift_detector* d, const char* utf8, size_t len, langsift_result* out) {
  return detect_text_body(d, utf8, len, out, nullptr, 0, nullptr);
}

langsift_status langsift_detect_probabilities(const langsift_detector* d, const void* body, size_t len,
                                              const langsift_page_options* options, langsift_result* out,
                                              langsift_probability* probs, size_t k, size_t* count) {
  return detect_body(d, body, len, options, out, probs, k, count);
}

langsift_status langsift_detect_text_probabilities(const langsift_detector* d, const char* utf8, size_t len,
                                                   langsift_result* out, langsift_probability* probs, size_t k,
                                                   size_t* count) {
  return detect_text_body(d, utf8, len, out, probs, k, count);
}

}  // extern "C"
