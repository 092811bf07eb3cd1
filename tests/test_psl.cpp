// Public Suffix List lookups (generated table) and Punycode / IDN conversion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "langsift/psl.hpp"
#include "langsift/punycode.hpp"
#include "random_text.hpp"

using namespace langsift;

namespace {
std::string reg(std::string_view host) { return std::string(split_domain(host).registered_domain); }
std::string suf(std::string_view host) { return std::string(split_domain(host).public_suffix); }
}  // namespace

TEST_CASE("split_domain: ICANN rules, multi-label suffixes and the default rule") {
  CHECK(suf("news.bbc.co.uk") == "co.uk");
  CHECK(reg("news.bbc.co.uk") == "bbc.co.uk");
  CHECK(reg("www.example.com") == "example.com");
  CHECK(reg("example.com") == "example.com");
  CHECK(reg("com").empty());
  CHECK(suf("com") == "com");
  CHECK(reg("a.b.c.example.com.tr") == "example.com.tr");
  CHECK(split_domain("www.example.com").listed);
  // not in the list: the default rule "*" (the last label)
  const domain_parts d = split_domain("www.example.notatld");
  CHECK_FALSE(d.listed);
  CHECK(d.public_suffix == "notatld");
  CHECK(d.registered_domain == "example.notatld");
  // trailing dot and empty input
  CHECK(reg("www.example.org.") == "example.org");
  CHECK(split_domain("").public_suffix.empty());
  CHECK(split_domain("...").public_suffix.empty());
}

TEST_CASE("split_domain: wildcard and exception rules, private section") {
  // *.ck and !www.ck
  CHECK(suf("foo.bar.ck") == "bar.ck");
  CHECK(reg("foo.bar.ck") == "foo.bar.ck");
  CHECK(suf("www.ck") == "ck");
  CHECK(reg("www.ck") == "www.ck");
  // blogspot.com is a private-section suffix
  const domain_parts b = split_domain("aksam.blogspot.com");
  CHECK(b.public_suffix == "blogspot.com");
  CHECK(b.private_rule);
  CHECK(b.registered_domain == "aksam.blogspot.com");
  CHECK(split_domain("aksam.blogspot.com", /*use_private=*/false).registered_domain == "blogspot.com");
  // IDN rules are stored in UTF-8
  CHECK(suf("example.\xE4\xB8\xAD\xE5\x9B\xBD") == "\xE4\xB8\xAD\xE5\x9B\xBD");  // .中国
  CHECK_FALSE(psl_version().empty());
}

TEST_CASE("punycode: RFC 3492 samples and round trips") {
  struct sample {
    const char* utf8;
    const char* puny;
  } samples[] = {
      {"b\xC3\xBC" "cher", "bcher-kva"},
      {"m\xC3\xBCnchen", "mnchen-3ya"},
      // RFC 3492 7.1 (B) Chinese (simplified)
      {"\xE4\xBB\x96\xE4\xBB\xAC\xE4\xB8\xBA\xE4\xBB\x80\xE4\xB9\x88\xE4\xB8\x8D\xE8\xAF\xB4\xE4\xB8\xAD\xE6\x96\x87",
       "ihqwcrb4cv8a8dqg056pqjye"},
      {"abc", "abc-"},
  };
  for (const auto& s : samples) {
    std::string out;
    REQUIRE(punycode_decode(s.puny, out));
    CHECK(out == s.utf8);
    std::string enc;
    REQUIRE(punycode_encode(s.utf8, enc));
    CHECK(enc == s.puny);
  }
  std::string host;
  CHECK(idn_to_unicode("WWW.XN--MNCHEN-3YA.DE", host) == 1);
  CHECK(host == "www.m\xC3\xBCnchen.de");
}

TEST_CASE("idn_to_unicode: the no-\"xn--\" shortcut agrees with the label-wise conversion") {
  // The label-wise definition: "xn--" labels (any case) decoded when they decode to something,
  // every other byte lower-cased.
  auto reference = [](std::string_view host, std::size_t& decoded) {
    std::string out;
    decoded = 0;
    for (std::size_t start = 0;;) {
      const std::size_t dot = std::min(host.find('.', start), host.size());
      std::string label(host.substr(start, dot - start));
      for (char& c : label) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
      std::string u;
      if (label.size() > 4 && label.size() - 4 <= 64 && label.compare(0, 4, "xn--") == 0 &&
          punycode_decode(std::string_view(label).substr(4), u) && !u.empty()) {
        out += u;
        ++decoded;
      } else {
        out += label;
      }
      if (dot == host.size()) return out;
      out += '.';
      start = dot + 1;
    }
  };
  const char* pieces[] = {"xn--", "XN--", "Xn-", "x", "n", "-", "--", ".", "a", "B", "mnchen-3ya", "\xc3\xbc"};
  std::mt19937 rng(5);
  std::string got;
  for (int i = 0; i < 20000; ++i) {
    const std::string host = langsift_test::random_join(pieces, rng, 10);
    std::size_t want_n = 0;
    const std::string want = reference(host, want_n);
    INFO(host);
    CHECK(idn_to_unicode(host, got) == want_n);
    CHECK(got == want);
  }
}

TEST_CASE("punycode: invalid input is rejected without reading past it") {
  std::string out = "keep";
  CHECK_FALSE(punycode_decode("99999999999999", out));   // overflow
  CHECK_FALSE(punycode_decode("a\xC3\xA9-abc", out));    // non-basic before the delimiter
  CHECK_FALSE(punycode_decode("abc-!", out));            // not a digit
  CHECK_FALSE(punycode_decode("abc-9", out));            // truncated delta
  CHECK(out == "keep");
  // a label that does not decode stays as it was (lower-cased)
  std::string host;
  CHECK(idn_to_unicode("xn--!!.Example.com", host) == 0);
  CHECK(host == "xn--!!.example.com");
  CHECK(idn_to_unicode("www.xn---", host) == 0);  // decodes to nothing: kept (found by fuzz_url)
  CHECK(host == "www.xn---");
  CHECK_FALSE(punycode_encode("\xFF", out));
}
