// The C ABI's result filters (include/langsift.h): langsift::language_filter, made from settings or
// from NCL-Crawl's configuration names by the library's reader (langsift/options.hpp), its labels
// checked as Python checks them (unknown_builtin_codes). The Java bridge's LanguageFilter is this.
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "capi_internal.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/filter.hpp"
#include "langsift/options.hpp"

using namespace langsift::capi;

struct langsift_filter {
  langsift::language_filter f;
  std::string joined;  // the labels joined by "," (langsift_filter_get_settings)
};

namespace {

/// The message about labels that name no language: "WHAT: not a language langsift knows: 'xx',
/// 'ger' (did you mean 'de'?)", each as written in `given` (parallel to `labels`), or "" when every
/// label names one. `also`: a model whose codes are accepted too.
std::string unknown_labels(const std::vector<std::string>& labels, const std::vector<std::string_view>& given,
                           std::string_view what, const langsift::model* also) {
  const std::vector<std::string_view> views(labels.begin(), labels.end());
  std::string names;
  for (const std::string_view bad : langsift::unknown_builtin_codes(views, also)) {
    std::size_t i = 0;
    while (i < views.size() && views[i] != bad) ++i;
    const std::string_view written = i < given.size() ? given[i] : bad;
    names += (names.empty() ? "'" : ", '") + std::string(written) + "'";
    const std::string hint = langsift::suggest_language_code(written);
    const std::string_view hv = hint;
    if (!hint.empty() && langsift::unknown_builtin_codes(std::span<const std::string_view>(&hv, 1), also).empty())
      names += " (did you mean '" + hint + "'?)";
  }
  if (names.empty()) return names;
  return std::string(what) + ": not a language " +
         (also ? "of the built-in models or of the given model: " : "langsift knows: ") + names;
}

/// Makes *out from `f` (its labels checked, written as `raw_labels` had them), or writes why not.
langsift_status finish(langsift::language_filter&& f, std::string_view raw_labels, std::string_view what,
                       const langsift_detector* also, langsift_filter** out, char* error, size_t error_size) {
  if (f.use_labels) {
    const std::string why = unknown_labels(f.labels, langsift::split_code_list(raw_labels), what, also ? also->m : nullptr);
    if (!why.empty()) {
      copy_message(error, error_size, why);
      return LANGSIFT_INVALID_ARGUMENT;
    }
  }
  auto made = std::make_unique<langsift_filter>();
  for (const std::string& l : f.labels) made->joined += (made->joined.empty() ? "" : ",") + l;
  made->f = std::move(f);
  *out = made.release();
  return LANGSIFT_OK;
}

langsift::language_estimate estimate_of(const langsift_language& l) noexcept {
  langsift::language_estimate e;
  e.code = array_string(l.code);
  e.percent = l.percent;
  e.bytes = l.bytes;
  e.score = l.score;
  return e;
}

}  // namespace

extern "C" {

void langsift_filter_default_settings(langsift_filter_settings* s) {
  if (!s) return;
  s->labels = nullptr;
  s->min_bytes = -1;
  s->max_bytes = -1;
  s->min_percent = -1;
  s->min_probability = -1;
}

langsift_status langsift_filter_new(const langsift_filter_settings* s, const langsift_detector* also,
                                    langsift_filter** out, char* error, size_t error_size) {
  return guarded_new(out, error, error_size, [&] {
    langsift::language_filter f;
    if (!s) {
      copy_message(error, error_size, "settings is NULL");
      return LANGSIFT_INVALID_ARGUMENT;
    }
    const std::string_view raw = s->labels ? std::string_view(s->labels) : std::string_view();
    if (s->labels) {
      f.labels = langsift::parse_code_list(raw);
      if (f.labels.empty()) {
        copy_message(error, error_size, "labels is empty: give at least one code, or NULL");
        return LANGSIFT_INVALID_ARGUMENT;
      }
      f.use_labels = true;
    }
    f.use_min_bytes = s->min_bytes >= 0;
    f.min_bytes = f.use_min_bytes ? static_cast<std::size_t>(s->min_bytes) : 0;
    f.use_max_bytes = s->max_bytes >= 0;
    f.max_bytes = f.use_max_bytes ? static_cast<std::size_t>(s->max_bytes) : 0;
    if (s->min_percent > 100) {
      copy_message(error, error_size, "min_percent must be 0..100 (or negative: off), not " + std::to_string(s->min_percent));
      return LANGSIFT_INVALID_ARGUMENT;
    }
    f.use_min_percent = s->min_percent >= 0;
    f.min_percent = f.use_min_percent ? s->min_percent : 0;
    if (std::isnan(s->min_probability) || s->min_probability > 1) {
      copy_message(error, error_size, "min_probability must be 0..1 (or negative: off)");
      return LANGSIFT_INVALID_ARGUMENT;
    }
    f.use_min_probability = s->min_probability >= 0;
    f.min_probability = f.use_min_probability ? s->min_probability : 0;
    return finish(std::move(f), raw, "labels", also, out, error, error_size);
  });
}

langsift_status langsift_filter_from_config(langsift_config_get get, void* context, const langsift_detector* also,
                                            langsift_filter** out, char* error, size_t error_size) {
  return guarded_new(out, error, error_size, [&] {
    if (!get) {
      copy_message(error, error_size, "get is NULL");
      return LANGSIFT_INVALID_ARGUMENT;
    }
    std::string raw_labels;  // as the configuration wrote them, for the message about one
    std::string key;
    const langsift::config_getter getter = [&](std::string_view k) -> std::optional<std::string> {
      key.assign(k);
      const char* v = get(context, key.c_str());
      if (!v) return std::nullopt;
      if (k == "filter.lang.label") raw_labels = v;
      return std::string(v);
    };
    langsift::language_filter f;
    std::string message;
    if (const langsift::status st = langsift::language_filter_from_config(getter, f, &message); st != langsift::status::ok) {
      copy_message(error, error_size, message);
      return to_c(st);
    }
    return finish(std::move(f), raw_labels, "filter.lang.label", also, out, error, error_size);
  });
}

void langsift_filter_free(langsift_filter* f) { delete f; }

langsift_status langsift_filter_get_settings(const langsift_filter* f, langsift_filter_settings* out) {
  if (!f || !out) return LANGSIFT_INVALID_ARGUMENT;
  out->labels = f->f.use_labels ? f->joined.c_str() : nullptr;
  out->min_bytes = f->f.use_min_bytes ? static_cast<long long>(f->f.min_bytes) : -1;
  out->max_bytes = f->f.use_max_bytes ? static_cast<long long>(f->f.max_bytes) : -1;
  out->min_percent = f->f.use_min_percent ? f->f.min_percent : -1;
  out->min_probability = f->f.use_min_probability ? f->f.min_probability : -1;
  return LANGSIFT_OK;
}

size_t langsift_filter_label_count(const langsift_filter* f) { return f && f->f.use_labels ? f->f.labels.size() : 0; }

const char* langsift_filter_label(const langsift_filter* f, size_t i) {
  return f && f->f.use_labels && i < f->f.labels.size() ? f->f.labels[i].c_str() : nullptr;
}

langsift_status langsift_filter_keep(const langsift_filter* f, const langsift_result* page, int* keep) {
  if (keep) *keep = 0;
  if (!f || !page || !keep) return LANGSIFT_INVALID_ARGUMENT;
  langsift::detection d;
  d.count = static_cast<std::size_t>(clamp_count(page->count));
  for (std::size_t i = 0; i < d.count; ++i) d.languages[i] = estimate_of(page->languages[i]);
  d.confidence = page->confidence;
  *keep = langsift::keep(d, f->f) ? 1 : 0;
  return LANGSIFT_OK;
}

langsift_status langsift_filter_passes(const langsift_filter* f, const langsift_language* language, int* passes) {
  if (passes) *passes = 0;
  if (!f || !language || !passes) return LANGSIFT_INVALID_ARGUMENT;
  *passes = langsift::passes(estimate_of(*language), f->f) ? 1 : 0;
  return LANGSIFT_OK;
}

}  // extern "C"
