// Public Suffix List lookups (generated table) and Punycode / IDN conversion.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "langsift/detail/ascii.hpp"
#include "langsift/idna.hpp"
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
      for (char& c : label) c = langsift::detail::ascii_lower(c);
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
  // RFC 3492 6.2: a leading delimiter is not consumed when no basic code point precedes it, so
  // "-abc" reads '-' as a digit and fails (it used to decode as "abc").
  CHECK_FALSE(punycode_decode("-abc", out));
  CHECK(out == "keep");
}

TEST_CASE("idna: UTS #46 ToASCII and ToUnicode (idna.hpp)") {
  std::string a;
  CHECK(idna_to_ascii("B\xc3\xbc" "cher.Example", a) == 0);
  CHECK(a == "xn--bcher-kva.example");
  CHECK(idna_to_ascii("xn--BCHER-kva.example", a) == 0);
  CHECK(a == "xn--bcher-kva.example");
  CHECK(idna_to_unicode("xn--bcher-kva.example", a) == 0);
  CHECK(a == "b\xc3\xbc" "cher.example");
  CHECK(idna_to_ascii("fa\xc3\x9f.de", a) == 0);  // non-transitional: ß stays
  CHECK(a == "xn--fa-hia.de");
  CHECK(idna_to_ascii("u\xcc\x88.de", a) == 0);   // u + U+0308: NFC
  CHECK(a == "xn--tda.de");
  CHECK(idna_to_ascii("\xef\xbc\xa1\xe3\x80\x82" "b", a) == 0);  // full-width A, ideographic full stop
  CHECK(a == "a.b");
  CHECK(idna_to_ascii("a\xc2\xad" "b", a) == 0);  // soft hyphen: ignored
  CHECK(a == "ab");
  // Errors, as bits.
  CHECK(idna_to_ascii("xn--abc-9.de", a) == idna_error_punycode);   // a truncated delta
  CHECK(idna_to_ascii("xn--a.de", a) == idna_error_disallowed);     // decodes to U+0080
  CHECK(idna_to_ascii("xn--u-ccb.de", a) == idna_error_not_nfc);     // decodes to u + U+0308
  CHECK(idna_to_ascii("\xcc\x88" "a.de", a) == idna_error_leading_mark);
  CHECK(idna_to_ascii("a\xe2\x80\x8d" "b", a) == idna_error_contextj);  // ZWJ not after a virama
  CHECK(idna_to_ascii("0a.\xd7\x90", a) == idna_error_bidi);      // an LTR label must not start with a digit
  CHECK((idna_to_ascii("a\xef\xbf\xbf", a) & idna_error_disallowed) != 0);
  CHECK((idna_to_ascii("a\xff", a) & idna_error_disallowed) != 0);  // not UTF-8: U+FFFD
  // Flags: off by default (the URL Standard's), on when asked.
  CHECK(idna_to_ascii("-a_b-.de", a) == 0);
  idna_options strict;
  strict.check_hyphens = true;
  strict.use_std3_ascii_rules = true;
  strict.verify_dns_length = true;
  CHECK(idna_to_ascii("-a_b-.de", a, strict) == (idna_error_hyphen_edge | idna_error_std3));
  CHECK(idna_to_ascii("ab--c.de", a, strict) == idna_error_hyphen_3_4);
  CHECK(idna_to_ascii("a..de", a, strict) == idna_error_label_length);
  CHECK(idna_to_ascii(std::string(64, 'a') + ".de", a, strict) == idna_error_label_length);
  CHECK(idna_to_ascii("a.de.", a, strict) == idna_error_label_length);  // the root label too (UTS #46 17.0)
  CHECK(idna_to_unicode("a..de", a, strict) == 0);
  // Long and adversarial input stays linear: 100,000 combining marks, a long xn-- label.
  std::string marks = "a";
  for (int i = 0; i < 50000; ++i) marks += "\xcc\x81\xcc\xa3";  // U+0301 (230), U+0323 (220)
  CHECK(idna_to_unicode(marks, a) == 0);
  // Canonical order: the U+0323s (class 220) before the U+0301s (230); a + U+0323 composes to ạ.
  CHECK(a.substr(0, 5) == "\xe1\xba\xa1\xcc\xa3");
  CHECK(a.substr(a.size() - 2) == "\xcc\x81");
  CHECK(idna_to_ascii("xn--" + std::string(5000, 'a'), a) == idna_error_punycode);
}
