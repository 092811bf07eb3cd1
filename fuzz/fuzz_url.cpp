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
//  - url_model::load_copy never accepts a prefix of garbage (the fuzz input as a model file).
//  - UTS #46 (idna.hpp; the options from the first byte): toUnicode reports the errors of toASCII
//    but for toASCII's own (encoding, DNS lengths); a toASCII without errors is ASCII, its own
//    toASCII, and toUnicode of it has no errors and goes back to it.
//  - URLs (uri.hpp, frontier.hpp): the input, and the input's second line against its first as a
//    base, resolved by resolve_uri: a WHATWG result (http, https, ws, wss, ftp) is ASCII, parses
//    (parse_uri), resolves to itself, and normalize_url gives it without its fragment, with the
//    same url_key; normalize_url is idempotent for every scheme.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "langsift/frontier.hpp"
#include "langsift/idna.hpp"
#include "langsift/url_models.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool is_suffix(std::string_view s, std::string_view of) {
  return s.size() <= of.size() && of.substr(of.size() - s.size()) == s;
}

bool ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

void check_idna(std::string_view in, std::uint8_t flags) {
  using namespace langsift;
  idna_options o;
  o.check_hyphens = flags & 1;
  o.use_std3_ascii_rules = flags & 2;
  o.verify_dns_length = flags & 4;
  o.check_bidi = !(flags & 8);
  o.check_joiners = !(flags & 16);
  std::string a, u;
  const std::uint32_t ea = idna_to_ascii(in, a, o);
  const std::uint32_t eu = idna_to_unicode(in, u, o);
  check(is_valid_utf8(u));
  constexpr std::uint32_t ascii_only = idna_error_punycode_encode | idna_error_domain_length | idna_error_label_length;
  check((ea & ~ascii_only) == eu);
  if (ea != 0) return;
  check(ascii(a));
  std::string a2, u2, a3;
  check(idna_to_ascii(a, a2, o) == 0 && a2 == a);
  check(idna_to_unicode(a, u2, o) == 0 && u2 == u);
  check(idna_to_ascii(u2, a3, o) == 0 && a3 == a);
}

void check_url(std::string_view base, std::string_view ref) {
  using namespace langsift;
  const std::string r = resolve_uri(base, ref);
  if (!r.empty() && detail::whatwg_special_port(detail::uri_scheme_prefix(r)) >= 0) {
    check(ascii(r));
    check(parse_uri(r).has_value());
    check(resolve_uri("", r) == r);
    std::string n;
    check(normalize_url(r, n));
    check(n == r.substr(0, r.find('#')));
    check(url_key(r) == url_key(n));
  }
  std::string n, n2;
  if (normalize_url(ref, n)) {
    check(normalize_url(n, n2));
    check(n2 == n);
  }
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
  if (size <= 2048) {
    check_idna(in.substr(std::min<std::size_t>(1, size)), size ? data[0] : 0);
    const std::size_t nl = in.find('\n');
    check_url("", in);
    if (nl != std::string_view::npos) check_url(in.substr(0, nl), in.substr(nl + 1));
  }

  url_model m;
  const status ls = url_model::load_copy(in, m);
  check(ls == status::ok || ls == status::corrupt_model || ls == status::model_version);
  if (ls != status::ok) check(m.empty());
  return 0;
}
