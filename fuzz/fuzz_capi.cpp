// libFuzzer: the C ABI (include/langsift.h) against the C++ API it wraps (differential), on
// arbitrary bytes with options taken from the first byte. Invariants: no crash, the C result is
// the C++ one (languages, percents, bytes, encoding, flags), strings NUL-terminated, URL
// classification of the same bytes answers with at most three languages and scores in 0..1; the
// probabilities (langsift_detect_probabilities) are the C++ ones; `only` from the input's first
// bytes is refused exactly when the library's parse_code_list gives a code the model lacks; a
// filter (langsift_filter_new, langsift_filter_from_config with values from the input) is made
// exactly when the library's reader and label check accept it, holds what they read, and keeps
// and passes as the C++ filter does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift.h"
#include "langsift/default_model.hpp"
#include "langsift/filter.hpp"
#include "langsift/options.hpp"
#include "langsift/page.hpp"

namespace {

langsift_detector* detector() {
  static langsift_detector* d = [] {
    langsift_detector* x = nullptr;
    if (langsift_detector_new(nullptr, &x, nullptr, 0) != LANGSIFT_OK) std::abort();
    return x;
  }();
  return d;
}

template <std::size_t N>
void check_string(const char (&s)[N]) {
  if (std::memchr(s, '\0', N) == nullptr) std::abort();
}

/// The first bytes of `body` (up to `max`, to a NUL: what a C string of them holds).
std::string c_prefix(const char* body, std::size_t len, std::size_t max) {
  const std::size_t n = len < max ? len : max;
  return std::string(body, strnlen(body, n));
}

/// `only` as the C ABI reads it: refused exactly when the library's list has a code the model lacks.
void check_only(const char* body, std::size_t len) {
  const std::string list = c_prefix(body, len, 48);
  langsift_page_options o;
  std::memset(&o, 0, sizeof o);
  o.only = list.c_str();
  langsift_result c;
  const langsift_status st = langsift_detect(detector(), "Guten Morgen, wie geht es dir heute?", std::size_t(-1), &o, &c);
  const std::vector<std::string> codes = langsift::parse_code_list(list);
  const std::vector<std::string_view> views(codes.begin(), codes.end());
  const bool known = langsift::unknown_codes(langsift::default_model(), views).empty();
  if (st != (known ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT)) std::abort();
}

/// The C filter holds what the C++ one holds, and keeps and passes as it does.
void check_same_filter(const langsift_filter* cf, const langsift::language_filter& f, const langsift_result& c,
                       const langsift::detection& d) {
  langsift_filter_settings s;
  if (langsift_filter_get_settings(cf, &s) != LANGSIFT_OK) std::abort();
  if ((s.labels != nullptr) != f.use_labels || langsift_filter_label_count(cf) != (f.use_labels ? f.labels.size() : 0))
    std::abort();
  std::string joined;
  for (std::size_t i = 0; f.use_labels && i < f.labels.size(); ++i) {
    if (f.labels[i] != langsift_filter_label(cf, i)) std::abort();
    joined += (i ? "," : "") + f.labels[i];
  }
  if (s.labels && joined != s.labels) std::abort();
  if (s.min_bytes != (f.use_min_bytes ? static_cast<long long>(f.min_bytes) : -1) ||
      s.max_bytes != (f.use_max_bytes ? static_cast<long long>(f.max_bytes) : -1) ||
      s.min_percent != (f.use_min_percent ? f.min_percent : -1))
    std::abort();
  int keep = -1;
  if (langsift_filter_keep(cf, &c, &keep) != LANGSIFT_OK || keep != (langsift::keep(d, f) ? 1 : 0)) std::abort();
  for (int i = 0; i < c.count; ++i) {
    int passes = -1;
    if (langsift_filter_passes(cf, &c.languages[i], &passes) != LANGSIFT_OK ||
        passes != (langsift::passes(d.languages[static_cast<std::size_t>(i)], f) ? 1 : 0))
      std::abort();
  }
}

/// Whether the C ABI accepts the labels of `f`: those the built-in models know.
bool labels_known(const langsift::language_filter& f) {
  if (!f.use_labels) return true;
  const std::vector<std::string_view> views(f.labels.begin(), f.labels.end());
  return langsift::unknown_builtin_codes(views).empty();
}

/// langsift_filter_from_config and langsift_filter_new on values cut from the input ('|' between
/// them: labels, min bytes, max bytes, min percent), switched on by the bits of `flags`.
void check_filter(unsigned flags, const char* body, std::size_t len, const langsift_result& c, const langsift::detection& d) {
  const std::string prefix = c_prefix(body, len, 96);
  std::vector<std::string> values(4);
  for (std::size_t i = 0, v = 0; i < prefix.size() && v < values.size(); ++i) {
    if (prefix[i] == '|') ++v;
    else values[v] += prefix[i];
  }
  const char* const pairs[][2] = {
      {"filter.lang.enable", "true"},
      {"filter.lang.label.enable", (flags & 1) ? "true" : "false"},
      {"filter.lang.label", values[0].c_str()},
      {"filter.lang.minSize.bytes.enable", (flags & 2) ? " TRUE" : nullptr},
      {"filter.lang.minSize.bytes", values[1].c_str()},
      {"filter.lang.maxSize.bytes.enable", (flags & 4) ? "true" : nullptr},
      {"filter.lang.maxSize.bytes", (flags & 0x10) ? nullptr : values[2].c_str()},
      {"filter.lang.minPercentage.limit.enable", (flags & 8) ? "true" : nullptr},
      {"filter.lang.minPercentage.limit", values[3].c_str()},
  };
  auto lookup = [&](std::string_view key) -> const char* {
    for (const auto& p : pairs)
      if (key == p[0]) return p[1];
    return nullptr;
  };
  const langsift::config_getter get = [&](std::string_view key) -> std::optional<std::string> {
    const char* v = lookup(key);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  langsift::language_filter f;
  const bool ok = langsift::language_filter_from_config(get, f) == langsift::status::ok && labels_known(f);
  langsift_filter* cf = reinterpret_cast<langsift_filter*>(1);
  char msg[128];
  const langsift_config_get cget = [](void* context, const char* key) -> const char* {
    return (*static_cast<decltype(lookup)*>(context))(key);
  };
  const langsift_status st = langsift_filter_from_config(cget, &lookup, nullptr, &cf, msg, sizeof msg);
  if (st != (ok ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT) || (cf == nullptr) == ok) std::abort();
  if (ok) check_same_filter(cf, f, c, d);
  else if (std::memchr(msg, '\0', sizeof msg) == nullptr) std::abort();
  langsift_filter_free(cf);

  // The same labels as settings, with a percent and a probability from the flags' byte.
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  s.labels = (flags & 1) ? values[0].c_str() : nullptr;
  s.min_percent = static_cast<int>(flags) - 128;                // -128..127: over 100 is refused
  s.min_probability = static_cast<float>(flags) / 200.0f - 0.2f;  // -0.2..1.075: over 1 is refused
  langsift::language_filter g;
  g.labels = langsift::parse_code_list(s.labels ? s.labels : "");
  g.use_labels = s.labels != nullptr;
  g.use_min_percent = s.min_percent >= 0;
  g.min_percent = g.use_min_percent ? s.min_percent : 0;
  g.use_min_probability = s.min_probability >= 0;
  g.min_probability = g.use_min_probability ? s.min_probability : 0;
  const bool new_ok = (!g.use_labels || !g.labels.empty()) && labels_known(g) && s.min_percent <= 100 && s.min_probability <= 1;
  cf = reinterpret_cast<langsift_filter*>(1);
  const langsift_status nst = langsift_filter_new(&s, nullptr, &cf, msg, sizeof msg);
  if (nst != (new_ok ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT) || (cf == nullptr) == new_ok) std::abort();
  if (new_ok) check_same_filter(cf, g, c, d);
  langsift_filter_free(cf);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const char* body = reinterpret_cast<const char*>(data + 1);
  const std::size_t len = size - 1;
  static const char* const kTypes[] = {nullptr, "text/html; charset=utf-8", "text/plain", "text/html; charset=shift_jis"};

  langsift_page_options o;
  std::memset(&o, 0, sizeof o);
  o.kind = static_cast<int>(flags & 3) % 3;
  o.main_content = (flags >> 2) & 1;
  o.content_type = kTypes[(flags >> 3) & 3];
  o.url = (flags & 0x20) ? "http://example.pl/a" : nullptr;
  o.only = (flags & 0x40) ? "en,de,pl,ja" : nullptr;
  langsift_result c;
  if (langsift_detect(detector(), body, len, &o, &c) != LANGSIFT_OK) std::abort();
  check_string(c.language);
  check_string(c.encoding);
  check_string(c.encoding_source);

  langsift::page_options p;
  p.kind = o.kind == LANGSIFT_KIND_HTML ? langsift::page_kind::html
           : o.kind == LANGSIFT_KIND_TEXT ? langsift::page_kind::text
                                          : langsift::page_kind::sniff;
  p.main_content = o.main_content != 0;
  if (o.content_type) p.content_type = o.content_type;
  if (o.url) p.url = o.url;
  const std::string_view only[] = {"en", "de", "pl", "ja"};
  if (o.only) p.detect.only = only;
  const langsift::page_result r = langsift::detect_page(langsift::default_model(), std::string_view(body, len), p);
  const langsift::detection& d = r.detection;
  if (c.count != static_cast<int>(d.count) || d.language() != c.language || c.text_bytes != d.text_bytes ||
      c.reliable != (d.reliable ? 1 : 0) || c.is_short != (d.is_short ? 1 : 0) || c.is_html != (r.is_html ? 1 : 0) ||
      static_cast<int>(c.status) != static_cast<int>(d.st) || r.encoding.name != c.encoding)
    std::abort();
  for (std::size_t i = 0; i < d.count; ++i) {
    check_string(c.languages[i].code);
    if (d.languages[i].code != c.languages[i].code || d.languages[i].percent != c.languages[i].percent ||
        d.languages[i].bytes != c.languages[i].bytes)
      std::abort();
  }

  // The k most probable languages (k from the input): the C++ detection's, the top one's p the
  // confidence; k over LANGSIFT_MAX_TOP_K is refused.
  {
    const std::size_t k = (flags >> 3) % (LANGSIFT_MAX_TOP_K + 2);
    langsift_probability probs[LANGSIFT_MAX_TOP_K + 1];
    std::size_t n = 99;
    langsift_result pc;
    const langsift_status st = langsift_detect_probabilities(detector(), body, len, &o, &pc, probs, k, &n);
    if (k > LANGSIFT_MAX_TOP_K) {
      if (st != LANGSIFT_INVALID_ARGUMENT || n != 0) std::abort();
    } else {
      langsift::page_options pk = p;
      pk.detect.top_k = k;
      const langsift::detection dk = langsift::detect_page(langsift::default_model(), std::string_view(body, len), pk).detection;
      if (st != LANGSIFT_OK || n != dk.probability_count || pc.confidence != d.confidence || dk.confidence != d.confidence)
        std::abort();
      for (std::size_t i = 0; i < n; ++i) {
        check_string(probs[i].code);
        if (dk.probabilities[i].code != probs[i].code || dk.probabilities[i].p != probs[i].p) std::abort();
      }
    }
  }

  // A built-in model by name, the name being the first bytes (up to 8, NUL-terminated): ok only
  // for "default" and "wide", otherwise invalid_argument with *out NULL and a message.
  {
    char name[9] = {0};
    std::memcpy(name, body, len < 8 ? len : 8);
    const std::string_view n(name);
    langsift_detector* b = reinterpret_cast<langsift_detector*>(1);
    char msg[96];
    const langsift_status st = langsift_detector_new_builtin(name, &b, msg, sizeof msg);
    if (n == "default" || n == "wide") {
      if (st != LANGSIFT_OK || b == nullptr) std::abort();
    } else if (st != LANGSIFT_INVALID_ARGUMENT || b != nullptr || std::memchr(msg, '\0', sizeof msg) == nullptr) {
      std::abort();
    }
    langsift_detector_free(b);
  }

  check_only(body, len);
  check_filter(flags, body, len, c, d);

  langsift_url_result u;
  if (langsift_url_classify(body, len, (flags & 0x80) ? "FR" : nullptr, &u) != LANGSIFT_OK) std::abort();
  check_string(u.language);
  if (u.count < 0 || u.count > 3) std::abort();
  for (int i = 0; i < u.count; ++i)
    if (!(u.languages[i].score >= 0 && u.languages[i].score <= 1.0001f)) std::abort();
  return 0;
}
