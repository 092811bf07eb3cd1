// libFuzzer: the C ABI (include/langsift.h) against the C++ API it wraps (differential), on
// arbitrary bytes with options taken from the first byte. Invariants: no crash, the C result is
// the C++ one (languages, percents, bytes, encoding, flags), strings NUL-terminated, URL
// classification of the same bytes answers with at most three languages and scores in 0..1; the
// probabilities (langsift_detect_probabilities) are the C++ ones.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "langsift.h"
#include "langsift/default_model.hpp"
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

  langsift_url_result u;
  if (langsift_url_classify(body, len, (flags & 0x80) ? "FR" : nullptr, &u) != LANGSIFT_OK) std::abort();
  check_string(u.language);
  if (u.count < 0 || u.count > 3) std::abort();
  for (int i = 0; i < u.count; ++i)
    if (!(u.languages[i].score >= 0 && u.languages[i].score <= 1.0001f)) std::abort();
  return 0;
}
