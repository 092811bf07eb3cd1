// URL-only language classification: parsing, features, models (file format, training) and the
// built-in classifier's answers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "langsift/html.hpp"  // together with url.hpp: no clashing helpers
#include "langsift/url_models.hpp"
#include "langsift/url_train.hpp"
#include "langsift/impl/url_kernels.hpp"  // url_add_row, url_fast_exp(4): the models' kernels
#include "random_text.hpp"

using namespace langsift;

namespace {

std::string lang(std::string_view url, const url_options& o = {}) {
  return std::string(default_url_classifier().classify(url, o).language());
}

std::unique_ptr<url_features> features_of(std::string_view url) {
  url_parts p;
  (void)parse_url(url, p);
  auto f = std::make_unique<url_features>();
  url_extract_features(p, {}, *f);
  return f;
}

std::string codes_of(std::string_view url) {
  auto f = features_of(url);
  std::string s;
  for (std::size_t i = 0; i < f->code_count; ++i) s += std::string(f->codes[i].view()) + " ";
  return s;
}

}  // namespace

TEST_CASE("parse_url: host, registered domain, IDN, percent-decoding, IP literals") {
  url_parts p;
  REQUIRE(parse_url("HTTP://www.XN--MNCHEN-3YA.de:8080/Stadt%C3%A9/?q=caf%E9+cr%C3%A8me#x", p) == status::ok);
  CHECK(p.scheme == "http");
  CHECK(p.host() == "www.m\xC3\xBCnchen.de");
  CHECK(p.idn);
  CHECK(p.registered_domain() == "m\xC3\xBCnchen.de");
  CHECK(p.public_suffix() == "de");
  CHECK(p.tld() == "de");
  CHECK(p.path() == "/Stadt\xC3\xA9/");
  CHECK(p.query() == "q=caf\xC3\xA9 cr\xC3\xA8me");  // %E9 is not UTF-8: read as Latin-1
  REQUIRE(parse_url("news.bbc.co.uk/sport", p) == status::ok);  // no scheme: http
  CHECK(p.registered_domain() == "bbc.co.uk");
  CHECK(p.path() == "/sport");
  REQUIRE(parse_url("http://192.168.0.1/a", p) == status::ok);
  CHECK(p.kind == host_kind::ipv4);
  CHECK(p.tld().empty());
  REQUIRE(parse_url("http://[2001:db8::1]/a", p) == status::ok);
  CHECK(p.kind == host_kind::ipv6);
  CHECK(p.host() == "2001:db8::1");
}

TEST_CASE("parse_url: bad input gets a defined status") {
  url_parts p;
  CHECK(parse_url("", p) == status::empty_input);
  CHECK(parse_url(" \t ", p) == status::empty_input);
  CHECK(parse_url("mailto:someone@example.com", p) == status::invalid_argument);
  CHECK(parse_url("/relative/path", p) == status::invalid_argument);
  CHECK(parse_url("http://", p) == status::invalid_argument);
  CHECK(parse_url("http://exa mple.com/", p) == status::invalid_argument);
  CHECK(parse_url("http://[::1/", p) == status::invalid_argument);
  CHECK(p.kind == host_kind::none);
  // broken percent-encoding stays as it is; controls become spaces
  REQUIRE(parse_url("http://example.com/a%zz%4/b%00c%", p) == status::ok);
  CHECK(p.path() == "/a%zz%4/b c%");
  // a 10 KB URL: the prefix is parsed
  std::string long_url = "http://example.com/" + std::string(10000, 'a');
  CHECK(parse_url(long_url, p) == status::truncated);
  CHECK(p.truncated);
  CHECK(p.path().size() == kUrlMaxBytes - 18);
}

TEST_CASE("url features: tokens, stop tokens, language-code patterns") {
  // www, index, html and 1-letter tokens are dropped: only "example", "seite"
  CHECK(features_of("http://www.example.com/index.html/a/seite")->tokens == 2);
  CHECK(codes_of("http://example.com/de/startseite") == "de ");
  CHECK(codes_of("http://example.com/en-US/home") == "en ");
  CHECK(codes_of("http://example.com/page?lang=fr&x=1") == "fr ");
  CHECK(codes_of("http://fr.wikipedia.org/wiki/Paris") == "fr ");
  CHECK(codes_of("http://aloe.socioeco.org/article153_en.html") == "en ");
  CHECK(codes_of("http://example.com/product/shoes") == "");
  // hashes do not depend on case or on percent-encoding of the same text
  auto a = features_of("http://example.com/Caf%C3%A9");
  auto b = features_of("http://EXAMPLE.com/caf\xC3\xA9");
  REQUIRE(a->count == b->count);
  for (std::size_t i = 0; i < a->count; ++i) CHECK(a->hash[i] == b->hash[i]);
}

TEST_CASE("baselines: ccTLD and ccTLD+") {
  url_parts p;
  REQUIRE(parse_url("http://www.example.de/", p) == status::ok);
  CHECK(cctld_language(p) == "de");
  REQUIRE(parse_url("http://www.example.co.uk/", p) == status::ok);
  CHECK(cctld_language(p) == "en");
  REQUIRE(parse_url("http://www.example.com/", p) == status::ok);
  CHECK(cctld_language(p).empty());
  CHECK(cctld_plus_language(p) == "en");
  REQUIRE(parse_url("http://www.example.eu/", p) == status::ok);
  CHECK(cctld_plus_language(p).empty());
}

TEST_CASE("url_add_row and url_fast_exp agree with their plain definitions") {
  // the dense-row sums (16 weights at a time, the tail masked) against a scalar loop, for every
  // row width up to 70 and rows placed at the end of their buffer (no read past them)
  std::mt19937 rng(3);
  for (std::size_t n = 1; n <= 70; ++n) {
    INFO(n);
    std::vector<std::int8_t> row(n);
    for (auto& w : row) w = static_cast<std::int8_t>(static_cast<int>(rng() % 256) - 128);
    std::vector<std::int32_t> got(n + 3), want(n + 3);
    for (std::size_t k = 0; k < got.size(); ++k) got[k] = want[k] = static_cast<std::int32_t>(rng() % 2001) - 1000;
    detail::url_add_row(got.data(), row.data(), n);
    for (std::size_t k = 0; k < n; ++k) want[k] += row[k];
    CHECK(got == want);
  }
  // e^x within 2e-4 relative, including at integer multiples of ln 2 (the floor's boundaries)
  for (float x : {0.f, -1e-7f, -0.5f, -0.6931472f, -1.f, -1.3862944f, -2.0794415f, -7.5f, -20.f, -79.9f}) {
    INFO(x);
    CHECK(std::fabs(detail::url_fast_exp(x) - std::exp(x)) <= 2e-4f * std::exp(x));
  }
  CHECK(detail::url_fast_exp(-81.f) == 0.f);
#if defined(__SSE2__)
  // the 4-wide version gives the same bits (the softmax uses both: blocks of 4, then the rest)
  std::uniform_real_distribution<float> u(-100.f, 0.f);
  int differ = 0;
  for (int i = 0; i < 100000; ++i) {
    alignas(16) float x[4] = {u(rng), u(rng), -static_cast<float>(i % 117) * 0.6931472f, i % 2 ? -80.f : -80.001f};
    alignas(16) float y[4];
    _mm_store_ps(y, detail::url_fast_exp4(_mm_load_ps(x)));
    for (int k = 0; k < 4; ++k) {
      const float e = detail::url_fast_exp(x[k]);
      differ += std::memcmp(&y[k], &e, 4) != 0;
    }
  }
  CHECK(differ == 0);
#endif
}

namespace {

// url_percent_decode as it was before it skipped a plain prefix: the reference for the shortcut.
std::string percent_decode_reference(std::string_view s, bool plus_is_space) {
  std::string o;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size() && detail::hex_digit_value(s[i + 1]) >= 0 && detail::hex_digit_value(s[i + 2]) >= 0) {
      c = static_cast<char>(detail::hex_digit_value(s[i + 1]) * 16 + detail::hex_digit_value(s[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    o += c;
  }
  if (is_valid_utf8(o)) return o;
  std::string fixed;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(o.data());
  const unsigned char* e = p + o.size();
  while (p < e) {
    if (*p < 0x80) {
      fixed += static_cast<char>(*p++);
      continue;
    }
    const detail::utf8_decoded d = detail::decode_utf8_step(p, e);
    if (d.cp == 0xFFFD && !(d.len == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] == 0xBD)) {
      detail::append_utf8(fixed, static_cast<char32_t>(*p));
      ++p;
    } else {
      fixed.append(reinterpret_cast<const char*>(p), d.len);
      p += d.len;
    }
  }
  return fixed;
}

}  // namespace

TEST_CASE("url_percent_decode: the plain-prefix shortcut agrees with the byte-wise decoding") {
  // url_plain_prefix (16 bytes at a time, then the last 16 again) against its definition: every
  // byte at every position of strings up to 50 bytes, each at the end of its buffer
  for (const bool plus : {false, true}) {
    for (std::size_t n = 0; n <= 50; ++n) {
      for (std::size_t k = 0; k <= n; ++k) {
        for (unsigned b = 0; b < 256; ++b) {
          std::vector<char> buf(n, 'a');
          if (k < n) buf[k] = static_cast<char>(b);
          const bool plain = b >= 0x20 && b < 0x7F && b != '%' && !(plus && b == '+');
          const std::size_t want = k < n && !plain ? k : n;
          if (detail::url_plain_prefix(std::string_view(buf.data(), n), plus) != want) {
            FAIL_CHECK("n " << n << " at " << k << " byte " << b << " plus " << plus);
          }
          if (k == n) break;
        }
      }
    }
  }
  // the whole decoding against the byte-wise reference, on random strings of URL-ish pieces
  const char* pieces[] = {"a", "Z", "/", "%", "%4", "%41", "%E9", "%C3%A9", "%zz", "+", "%2B", "\x01", "\x7f",
                          "\xc3\xa9", "\xe9", "\xef\xbf\xbd", "%EF%BF%BD", " ", "?", "abcdefghijklmnop"};
  std::mt19937 rng(11);
  std::string got;
  for (int i = 0; i < 20000; ++i) {
    const std::string url = langsift_test::random_join(pieces, rng, 24);
    for (const bool plus : {false, true}) {
      got.assign(1, 'x');  // appends
      detail::url_percent_decode(url, plus, got);
      INFO(url);
      REQUIRE(got.front() == 'x');
      REQUIRE(std::string_view(got).substr(1) == percent_decode_reference(url, plus));
    }
  }
}

TEST_CASE("url_ngram_features: the fixed-order versions emit what the general one does") {
  const std::u32string tokens[] = {U"a", U"de", U"wiki", U"internetparsatellite", U"stra\u00dfe"};
  for (const auto& t : tokens) {
    INFO(t.size());
    auto fixed = std::make_unique<url_features>(), general = std::make_unique<url_features>();
    detail::url_ngram_features<3, 7, true, true>(t.data(), t.size(), 3, 7, 64, *fixed);
    detail::url_ngram_features<0, 0, true, true>(t.data(), t.size(), 3, 7, 64, *general);
    detail::url_ngram_features<3, 5, true, false>(t.data(), t.size(), 3, 5, 0, *fixed);
    detail::url_ngram_features<0, 0, true, false>(t.data(), t.size(), 3, 5, 0, *general);
    REQUIRE(fixed->count == general->count);
    CHECK(std::equal(fixed->hash, fixed->hash + fixed->count, general->hash));
    CHECK(std::equal(fixed->kind, fixed->kind + fixed->count, general->kind));
    // padded length n + 2: orders 3..7 give sum over k of (n + 3 - k) n-grams where n + 2 >= k
    std::size_t want = 0;
    for (std::size_t k = 3; k <= 7; ++k) want += t.size() + 2 >= k ? 2 * (t.size() + 3 - k) : 0;
    for (std::size_t k = 3; k <= 5; ++k) want += t.size() + 2 >= k ? t.size() + 3 - k : 0;
    CHECK(fixed->count == want);
  }
}

TEST_CASE("built-in URL models load and cover every language of the text model") {
  const url_model& w = default_url_words_model();
  const url_model& l = default_url_linear_model();
  REQUIRE_FALSE(w.empty());
  REQUIRE_FALSE(l.empty());
  CHECK(w.kind == url_model::words);
  CHECK(l.kind == url_model::linear);
  CHECK(w.languages.size() == default_model().language_count());
  // the file bytes round-trip
  url_model again;
  REQUIRE(url_model::load_copy(w.save(), again) == status::ok);
  CHECK(again.save() == w.save());
  CHECK(std::string(default_url_words_model_bytes()) == w.save());
}

TEST_CASE("url_model::load_copy rejects truncated, corrupt and other-version files") {
  const std::string bytes(default_url_linear_model_bytes());
  url_model m;
  CHECK(url_model::load_copy(bytes.substr(0, bytes.size() - 1), m) == status::corrupt_model);
  CHECK(url_model::load_copy(bytes.substr(0, 10), m) == status::corrupt_model);
  CHECK(url_model::load_copy("", m) == status::corrupt_model);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  CHECK(url_model::load_copy(flipped, m) == status::corrupt_model);
  std::string version = bytes;
  version[7] = 2;
  std::string message;
  CHECK(url_model::load_copy(version, m, &message) == status::model_version);
  CHECK(message.find("version") != std::string::npos);
  CHECK(m.empty());
}

TEST_CASE("url_model::load_file: a file loads, a missing one is io_error, a corrupt one corrupt_model") {
  const std::string bytes(default_url_words_model_bytes());
  const std::string path = std::string(LANGSIFT_BINARY_DIR) + "/test-url-model.lsu";
  url_model m;
  std::string message;
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(bytes.data(), 1, bytes.size() / 2, f);  // truncated
    std::fclose(f);
  }
  CHECK(url_model::load_file(path, m, &message) == status::corrupt_model);
  CHECK(message.find(path) != std::string::npos);
  CHECK(m.empty());
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  REQUIRE(url_model::load_file(path, m) == status::ok);
  CHECK(m.save() == bytes);
  std::remove(path.c_str());
  CHECK(url_model::load_file(path, m, &message) == status::io_error);
  CHECK(message.find("cannot open") != std::string::npos);
  CHECK(m.save() == bytes);  // unchanged on failure
}

TEST_CASE("built-in classifier: known answers") {
  CHECK(lang("http://www.spiegel.de/politik/deutschland/") == "de");
  CHECK(lang("http://www.lemonde.fr/actualite/politique.html") == "fr");
  CHECK(lang("http://www.repubblica.it/cronaca/") == "it");
  CHECK(lang("http://www.bbc.co.uk/news/world") == "en");
  CHECK(lang("http://www.hurriyet.com.tr/ekonomi/") == "tr");
  // an explicit language code decides
  const url_result r = default_url_classifier().classify("http://www.example.com/de/startseite/");
  CHECK(r.language() == "de");
  CHECK(r.decision == url_decision::pattern);
  // the same URL without the pattern rule is not "pattern"
  url_options np;
  np.use_patterns = false;
  CHECK(default_url_classifier().classify("http://www.example.com/de/startseite/", np).decision != url_decision::pattern);
  // scores are ranked and sum to at most 1
  const url_result s = default_url_classifier().classify("http://www.lemonde.fr/");
  REQUIRE(s.count >= 2);
  CHECK(s.languages[0].score >= s.languages[1].score);
  CHECK(s.languages[0].score + s.languages[1].score <= 1.0001f);
}

TEST_CASE("built-in classifier: host-country hint") {
  // nothing in the URL but a generic TLD and digits: the hint names the language
  url_options o;
  o.country_hint = "IT";
  const url_result r = default_url_classifier().classify("http://123.com/456", o);
  CHECK(r.language() == "it");
}

TEST_CASE("built-in classifier: nothing known is und, bad input never throws") {
  const url_classifier& c = default_url_classifier();
  CHECK(c.classify("").language() == "und");
  CHECK(c.classify("").st == status::empty_input);
  CHECK(c.classify("http://192.168.1.1/").language() == "und");
  CHECK(c.classify("http://123.456/789").language() == "und");
  CHECK(c.classify("mailto:x@y").st == status::invalid_argument);
  std::string junk;
  for (int i = 0; i < 10000; ++i) junk += static_cast<char>((i * 37) & 0xFF);
  const url_result r = c.classify("http://example.com/" + junk);
  CHECK(r.st == status::truncated);
  CHECK(c.classify(std::string("http://ex\0ample.com/", 20)).st == status::invalid_argument);
  CHECK(c.classify("http://www.spiegel.de/politik/").is_ok());
  CHECK_FALSE(c.classify("").is_ok());
}

TEST_CASE("train_url_linear: learns a toy task and round-trips through the file format") {
  std::vector<labelled_url> rows;
  const char* de[] = {"haus", "garten", "strasse", "kinder", "wetter", "zeitung", "bahnhof", "schule"};
  const char* en[] = {"house", "garden", "street", "children", "weather", "newspaper", "station", "school"};
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k) {
      rows.push_back({"de", "http://site" + std::to_string(k) + ".com/" + de[i] + "/", "toy"});
      rows.push_back({"en", "http://site" + std::to_string(k) + ".com/" + en[i] + "/", "toy"});
    }
  url_linear_options o;
  o.min_urls = 5;
  o.epochs = 20;
  o.prune = 0.01f;
  const url_model m = train_url_linear(rows, o);
  REQUIRE(m.languages == std::vector<std::string>{"de", "en"});
  url_model loaded;
  REQUIRE(url_model::load_copy(m.save(), loaded) == status::ok);
  url_classifier c(&loaded, nullptr);
  url_options plain;
  plain.use_cctld = false;
  CHECK(c.classify("http://other.org/garten", plain).language() == "de");
  CHECK(c.classify("http://other.org/garden", plain).language() == "en");
  // too few languages: an empty model, not a crash
  o.min_urls = 1000;
  CHECK(train_url_linear(rows, o).empty());
}
