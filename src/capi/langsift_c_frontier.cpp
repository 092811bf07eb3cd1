// The C ABI's crawl frontier (include/langsift.h, last section) over langsift/frontier.hpp.
// Nothing escapes: every entry point catches everything and returns a langsift_status.
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "capi_internal.hpp"
#include "langsift/frontier.hpp"

using namespace langsift::capi;

struct langsift_frontier {
  explicit langsift_frontier(const langsift::frontier_options& o) : f(o) {}
  langsift::frontier f;
};

namespace {

std::string_view text(const char* s, std::size_t len) noexcept {
  if (!s) return {};
  if (len == static_cast<std::size_t>(-1)) len = std::strlen(s);
  return {s, len};
}

// A langsift_result as the detection the frontier reads (codes point into *r).
langsift::detection as_detection(const langsift_result& r) noexcept {
  langsift::detection d;
  const int n = clamp_count(r.count);
  for (int i = 0; i < n; ++i) {
    d.languages[d.count].code = array_string(r.languages[i].code);
    d.languages[d.count].percent = r.languages[i].percent;
    d.languages[d.count].bytes = r.languages[i].bytes;
    ++d.count;
  }
  d.text_bytes = r.text_bytes;
  d.is_short = r.is_short != 0;
  return d;
}

// Saving or loading a state file: argument checks, the frontier's message, exceptions as statuses.
template <class Op>
langsift_status state_file(const langsift_frontier* f, const char* path, char* error, size_t error_size, Op op) {
  copy_message(error, error_size, "");
  if (!f || !path) {
    copy_message(error, error_size, "NULL frontier or path");
    return LANGSIFT_INVALID_ARGUMENT;
  }
  try {
    std::string message;
    const langsift::status st = op(message);
    copy_message(error, error_size, message);
    return to_c(st);
  } catch (...) {
    return exception_status();
  }
}

}  // namespace

extern "C" {

void langsift_frontier_default_options(langsift_frontier_options* o) {
  if (!o) return;
  const langsift::frontier_options d;
  o->min_vote_percent = d.min_vote_percent;
  o->url_weight = d.url_weight;
  o->vote_prior = d.vote_prior;
  o->min_url_guess = d.min_url_guess;
  o->unknown_priority = d.unknown_priority;
  o->skip_saturated = d.skip_saturated;
  o->skip_unwanted = d.skip_unwanted;
  o->max_urls = d.max_urls;
}

langsift_status langsift_frontier_new(const langsift_frontier_options* options, langsift_frontier** out) {
  if (!out) return LANGSIFT_INVALID_ARGUMENT;
  *out = nullptr;
  langsift::frontier_options o;
  if (options) {
    o.min_vote_percent = options->min_vote_percent;
    o.url_weight = options->url_weight;
    o.vote_prior = options->vote_prior;
    o.min_url_guess = options->min_url_guess;
    o.unknown_priority = options->unknown_priority;
    o.skip_saturated = options->skip_saturated != 0;
    o.skip_unwanted = options->skip_unwanted != 0;
    o.max_urls = options->max_urls;
    if (!langsift::frontier::in_range(o)) return LANGSIFT_INVALID_ARGUMENT;  // the C++ frontier would clamp
  }
  try {
    *out = new langsift_frontier(o);
    return LANGSIFT_OK;
  } catch (...) {
    return exception_status();
  }
}

void langsift_frontier_free(langsift_frontier* f) { delete f; }

langsift_status langsift_frontier_set_quota(langsift_frontier* f, const char* lang, unsigned long long target) {
  if (!f || !lang) return LANGSIFT_INVALID_ARGUMENT;
  try {
    return f->f.set_quota(lang, target) ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT;
  } catch (...) {
    return exception_status();
  }
}

langsift_status langsift_frontier_get_quota(const langsift_frontier* f, const char* lang, unsigned long long* target,
                                            unsigned long long* count) {
  if (target) *target = 0;
  if (count) *count = 0;
  if (!f || !lang) return LANGSIFT_INVALID_ARGUMENT;
  try {
    const langsift::frontier_quota q = f->f.quota(lang);
    if (target) *target = q.target;
    if (count) *count = q.count;
    return LANGSIFT_OK;
  } catch (...) {
    return exception_status();
  }
}

langsift_status langsift_frontier_record_fetch(langsift_frontier* f, const char* url, size_t len,
                                               const langsift_result* page) {
  if (!f || !page || !url) return LANGSIFT_INVALID_ARGUMENT;
  try {
    f->f.record_fetch(text(url, len), as_detection(*page));
    return LANGSIFT_OK;
  } catch (...) {
    return exception_status();
  }
}

langsift_status langsift_frontier_add_votes(langsift_frontier* f, const langsift_result* page, const char* const* urls,
                                            const size_t* lens, size_t n, size_t* votes) {
  if (votes) *votes = 0;
  if (!f || !page || (!urls && n > 0)) return LANGSIFT_INVALID_ARGUMENT;
  for (size_t i = 0; i < n; ++i)
    if (!urls[i]) return LANGSIFT_INVALID_ARGUMENT;
  try {
    std::vector<std::string_view> v;
    v.reserve(n);
    for (size_t i = 0; i < n; ++i) v.push_back(text(urls[i], lens ? lens[i] : static_cast<size_t>(-1)));
    const std::size_t k = f->f.add_votes(as_detection(*page), std::span<const std::string_view>(v));
    if (votes) *votes = k;
    return LANGSIFT_OK;
  } catch (...) {
    return exception_status();
  }
}

langsift_status langsift_frontier_decide(const langsift_frontier* f, const char* url, size_t len,
                                         const langsift_url_result* scores, langsift_frontier_decision* out) {
  if (!out) return LANGSIFT_INVALID_ARGUMENT;
  std::memset(out, 0, sizeof *out);
  copy_string(out->language, "und");
  out->reason = LANGSIFT_FRONTIER_INVALID;
  if (!f || !url) return LANGSIFT_INVALID_ARGUMENT;
  try {
    langsift::url_result u;
    if (scores) {
      const int n = clamp_count(scores->count);
      for (int i = 0; i < n; ++i) {
        u.languages[u.count].code = array_string(scores->languages[i].code);
        u.languages[u.count].score = scores->languages[i].score;
        ++u.count;
      }
    }
    const langsift::frontier_decision d = f->f.decide(text(url, len), scores ? &u : nullptr);
    out->fetch = d.fetch() ? 1 : 0;
    out->reason = static_cast<int>(d.reason);
    out->priority = d.priority;
    out->votes = d.votes;
    copy_string(out->language, d.language());
    return LANGSIFT_OK;
  } catch (...) {
    return exception_status();
  }
}

langsift_status langsift_frontier_save(const langsift_frontier* f, const char* path, char* error, size_t error_size) {
  return state_file(f, path, error, error_size, [&](std::string& m) { return f->f.save_file(path, &m); });
}

langsift_status langsift_frontier_load(langsift_frontier* f, const char* path, char* error, size_t error_size) {
  return state_file(f, path, error, error_size,
                    [&](std::string& m) { return langsift::frontier::load_file(path, f->f, &m); });
}

}  // extern "C"
