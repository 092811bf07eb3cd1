// libFuzzer target for the URL classifier and its parts:
//   CC=clang CXX=clang++ cmake -B build-url-fuzz -DLANGSIFT_BUILD_FUZZERS=ON -DLANGSIFT_SANITIZE=address,undefined
//   build-url-fuzz/fuzz_url fuzz/corpus/url -max_total_time=600
//
// The input is arbitrary bytes, read as a URL (and, for punycode, as a label).
// Invariants:
//  - parse_url returns one of ok / truncated / empty_input / invalid_argument; on ok/truncated the
//    host is non-empty, and for a name, the public suffix and registered domain are suffixes of it
//    (the registered domain one label longer); path and query are valid UTF-8.
//  - split_domain on the parsed host agrees with parse_url's offsets.
//  - the classifier (built-in models, with and without a country hint) answers "und" or one of its
//    languages, with 0 <= scores <= 1 in non-increasing order; classify_features on the same
//    features gives the same answer (two paths).
//  - punycode_decode either fails leaving its output untouched, or yields valid UTF-8 that
//    punycode_encode turns back into an equivalent label (decoding it again gives the same text).
//  - url_model::load never accepts a prefix of garbage (the fuzz input as a model file).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "langsift/url_models.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool is_suffix(std::string_view s, std::string_view of) {
  return s.size() <= of.size() && of.substr(of.size() - s.size()) == s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace langsift;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  url_parts p;
  const status st = parse_url(in, p, 512);
  check(st == status::ok || st == status::truncated || st == status::empty_input || st == status::invalid_argument);
  if (st == status::ok || st == status::truncated) {
    check(!p.host().empty());
    check(p.kind != host_kind::none);
    if (p.kind == host_kind::name) {
      check(!p.public_suffix().empty());
      check(is_suffix(p.public_suffix(), p.host()));
      check(is_suffix(p.registered_domain(), p.host()));
      if (!p.registered_domain().empty()) check(p.registered_domain().size() > p.public_suffix().size());
      const domain_parts d = split_domain(p.host());
      check(d.public_suffix == p.public_suffix());
      check(d.registered_domain == p.registered_domain());
    }
    check(is_valid_utf8(p.path()));
    check(is_valid_utf8(p.query()));
    check(is_valid_utf8(p.host()));
  } else {
    check(p.kind == host_kind::none);
  }

  const url_classifier& c = default_url_classifier();
  url_options o;
  o.max_bytes = 512;
  if (size > 2 && (data[0] & 1)) o.country_hint = std::string_view(reinterpret_cast<const char*>(data) + 1, 2);
  const url_result r = c.classify(in, o);
  check(r.count <= 3);
  if (r.count == 0) check(r.language() == "und");
  for (std::size_t k = 0; k < r.count; ++k) {
    check(r.languages[k].score >= 0 && r.languages[k].score <= 1.0001f);
    if (k) check(r.languages[k].score <= r.languages[k - 1].score);
    bool known = false;
    for (const auto& l : c.languages()) known |= l == r.languages[k].code;
    check(known);
  }
  if (st == status::ok || st == status::truncated) {
    auto f = std::make_unique<url_features>();
    url_extract_features(p, c.feature_config(), *f);
    check(f->count <= url_features::kMaxFeatures);
    const url_result r2 = c.classify_features(p, *f, o);
    check(r2.language() == r.language());
  }

  std::string out = "x";
  if (size <= 256) {
    if (punycode_decode(in, out)) {
      check(is_valid_utf8(out));
      std::string enc, back;
      check(punycode_encode(std::string_view(out).substr(1), enc));
      check(punycode_decode(enc, back));
      check(back == std::string_view(out).substr(1));
    } else {
      check(out == "x");
    }
  }
  url_model m;
  const status ls = url_model::load(in, m);
  check(ls == status::ok || ls == status::corrupt_model || ls == status::model_version);
  if (ls != status::ok) check(m.empty());
  return 0;
}
