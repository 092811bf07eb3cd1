// URI parsing and RFC 3986 reference resolution.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "langsift/uri.hpp"

using langsift::parse_uri;
using langsift::resolve_uri;

TEST_CASE("parse_uri splits the components of RFC 3986 section 3", "[uri]") {
  auto u = parse_uri("foo://user:pw@Example.COM:8042/over/there?name=ferret#nose");
  REQUIRE(u);
  CHECK(u->scheme == "foo");
  CHECK(u->has_authority);
  CHECK(u->authority == "user:pw@Example.COM:8042");
  CHECK(u->userinfo == "user:pw");
  CHECK(u->host == "Example.COM");
  CHECK(u->port == "8042");
  CHECK(u->path == "/over/there");
  CHECK(u->has_query);
  CHECK(u->query == "name=ferret");
  CHECK(u->has_fragment);
  CHECK(u->fragment == "nose");

  auto urn = parse_uri("urn:example:animal:ferret:nose");
  REQUIRE(urn);
  CHECK(urn->scheme == "urn");
  CHECK_FALSE(urn->has_authority);
  CHECK(urn->path == "example:animal:ferret:nose");

  auto rel = parse_uri("../a/b?x#");
  REQUIRE(rel);
  CHECK(rel->scheme.empty());
  CHECK_FALSE(rel->is_absolute());
  CHECK(rel->path == "../a/b");
  CHECK(rel->query == "x");
  CHECK(rel->has_fragment);
  CHECK(rel->fragment.empty());

  auto empty_query = parse_uri("http://a/?");
  REQUIRE(empty_query);
  CHECK(empty_query->has_query);
  CHECK(empty_query->query.empty());
  CHECK_FALSE(empty_query->has_fragment);

  auto v6 = parse_uri("http://[2001:db8::7]:8080/c");
  REQUIRE(v6);
  CHECK(v6->host == "[2001:db8::7]");
  CHECK(v6->port == "8080");

  auto netpath = parse_uri("//host/p");
  REQUIRE(netpath);
  CHECK(netpath->scheme.empty());
  CHECK(netpath->has_authority);
  CHECK(netpath->host == "host");

  // "1a:b" is not a scheme (must start with a letter): a relative path.
  auto notscheme = parse_uri("1a:b");
  REQUIRE(notscheme);
  CHECK(notscheme->scheme.empty());
  CHECK(notscheme->path == "1a:b");
}

TEST_CASE("parse_uri rejects only malformed authorities", "[uri]") {
  CHECK_FALSE(parse_uri("http://host:80a/"));
  CHECK_FALSE(parse_uri("http://[::1/"));
  CHECK_FALSE(parse_uri("http://[::1]x/"));
  CHECK_FALSE(parse_uri("http://ho st/"));
  CHECK_FALSE(parse_uri("http://a<b/"));
  CHECK(parse_uri(""));
  CHECK(parse_uri("http://host:/"));  // empty port is allowed
  CHECK(parse_uri("  http://host/  "));
  CHECK(parse_uri("\x01http://host/\x7f")->scheme == "http");  // C0 trimmed; 0x7f kept in path
}

TEST_CASE("parse_uri tolerates backslashes and extra slashes for http(s)", "[uri]") {
  auto u = parse_uri("http:\\\\example.com\\a\\b");
  REQUIRE(u);
  CHECK(u->host == "example.com");
  CHECK(u->path == "\\a\\b");
  auto v = parse_uri("https:////example.com/x");
  REQUIRE(v);
  CHECK(v->host == "example.com");
  CHECK(v->path == "/x");
  // Not for other schemes.
  auto f = parse_uri("foo:\\\\x");
  REQUIRE(f);
  CHECK_FALSE(f->has_authority);
}

TEST_CASE("parse_uri: the bare-host shortcut agrees with uri_split_authority", "[uri]") {
  using namespace langsift::detail;
  for (unsigned c = 0; c < 256; ++c)
    CHECK(((uri_byte_class[c] & uri_class_forbidden) != 0) == uri_host_forbidden(static_cast<unsigned char>(c)));
  // Every byte in every part of an authority, for a special and a non-special scheme.
  const char* shapes[] = {"h#st.de", "#", "u#@h.de", "u@h#", "h.de:#", "h.de:8#", "[::#]", "[#]:80", "#h", "h#"};
  for (const char* scheme : {"http", "foo"}) {
    const bool special = std::string_view(scheme) == "http";
    for (unsigned c = 0; c < 256; ++c) {
      for (std::string shape : shapes) {
        shape[shape.find('#')] = static_cast<char>(c);
        const std::string after = shape + "/p", url = std::string(scheme) + "://" + after;
        // The authority as RFC 3986 delimits it (and WHATWG for http: '\\' is '/', and any
        // number of slashes may come first).
        std::size_t begin = 0;
        while (special && begin < after.size() && (after[begin] == '/' || after[begin] == '\\')) ++begin;
        std::size_t end = begin;
        while (end < after.size() && after[end] != '/' && after[end] != '?' && after[end] != '#' &&
               !(special && after[end] == '\\'))
          ++end;
        langsift::uri_view ref;
        ref.authority = std::string_view(after).substr(begin, end - begin);
        const bool ok = uri_split_authority(ref);
        const auto u = parse_uri(url);
        INFO(url);
        REQUIRE(u.has_value() == ok);
        if (!ok) continue;
        CHECK(u->authority == ref.authority);
        CHECK(u->userinfo == ref.userinfo);
        CHECK(u->host == ref.host);
        CHECK(u->port == ref.port);
      }
    }
  }
}

// RFC 3986 section 5.4: every normal and abnormal example (http URLs follow the WHATWG URL
// Standard, which agrees with all of them but "//g": an http URL's path is never empty).
TEST_CASE("resolve_uri: RFC 3986 5.4.1 normal examples", "[uri]") {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> cases[] = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g/"},  // the WHATWG URL Standard: an http URL's path is never empty
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {"g?y#s", "http://a/b/c/g?y#s"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"g;x?y#s", "http://a/b/c/g;x?y#s"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [ref, want] : cases) {
    INFO("ref = \"" << ref << "\"");
    CHECK(resolve_uri(base, ref) == want);
  }
}

TEST_CASE("resolve_uri: RFC 3986 5.4.2 abnormal examples", "[uri]") {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> cases[] = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
      {"g#s/./x", "http://a/b/c/g#s/./x"},
      {"g#s/../x", "http://a/b/c/g#s/../x"},
      // "http:g": RFC 3986 allows "http:g" (strict) or "http://a/b/c/g" (backward compatible);
      // we take the second, as browsers do.
      {"http:g", "http://a/b/c/g"},
  };
  for (const auto& [ref, want] : cases) {
    INFO("ref = \"" << ref << "\"");
    CHECK(resolve_uri(base, ref) == want);
  }
}

TEST_CASE("resolve_uri needs an absolute base for a relative reference", "[uri]") {
  CHECK(resolve_uri("", "g") == "");
  CHECK(resolve_uri("/relative/base", "g") == "");
  CHECK(resolve_uri("", "https://x.example/a/../b") == "https://x.example/b");
  CHECK(resolve_uri("not a url", "//host/p") == "");
  CHECK(resolve_uri("http://a/b", "http://ho st/") == "");  // bad host
  CHECK(resolve_uri("http://a/b", "http://h:x/") == "");    // bad port
  CHECK(resolve_uri("http://a/b", "http:///path") == "http://path/");  // as browsers: slashes skipped
  CHECK(resolve_uri("http://a/b", "http://") == "");        // http without a host
  CHECK(resolve_uri("http://a/b", "https://?q") == "");
  CHECK(resolve_uri("ftp://a/b", "http:g") == "http://g/");  // another scheme: "g" is the host (WHATWG)
  CHECK(resolve_uri("", "http:g") == "http://g/");
}

TEST_CASE("resolve_uri details", "[uri]") {
  // An authority with an empty path merges as "/".
  CHECK(resolve_uri("http://a", "b") == "http://a/b");
  CHECK(resolve_uri("http://a?q", "?r") == "http://a/?r");
  // Dot segments in the base are removed, also for an empty reference (as browsers do).
  CHECK(resolve_uri("http://a/b/./c/../d", "") == "http://a/b/d");
  CHECK(resolve_uri("http://a/b/./c/../d", "?q") == "http://a/b/d?q");
  // The base's fragment is never inherited.
  CHECK(resolve_uri("http://a/b#f", "") == "http://a/b");
  // Scheme and host are lower-cased; userinfo, port, path and query are not.
  CHECK(resolve_uri("", "HTTP://User@WWW.Example.COM:8080/A/./B?Q=X") ==
        "http://User@www.example.com:8080/A/B?Q=X");
  // A non-http scheme with an authority.
  CHECK(resolve_uri("ftp://a/b/c", "../d") == "ftp://a/d");
  // Without an authority, a path must not start with "//" (it would read back as one).
  CHECK(resolve_uri("", "g:/.//x") == "g:/.//x");
  CHECK(resolve_uri("g:/a/b", "..//x") == "g:/.//x");
  // Other schemes are resolved, not judged: the HTML layer decides what to follow.
  CHECK(resolve_uri("http://a/b", "mailto:x@y.example") == "mailto:x@y.example");
  CHECK(resolve_uri("http://a/b", "javascript:void(0)") == "javascript:void(0)");
}

TEST_CASE("resolve_uri is tolerant like a browser", "[uri]") {
  const std::string base = "http://a/b/c/d";
  CHECK(resolve_uri(base, "  g  ") == "http://a/b/c/g");
  CHECK(resolve_uri(base, "\t\n g\n") == "http://a/b/c/g");
  CHECK(resolve_uri(base, "/x/\ny\tz") == "http://a/x/yz");  // tab and newline removed inside
  CHECK(resolve_uri(base, "\\g\\h") == "http://a/g/h");       // backslashes as slashes
  CHECK(resolve_uri(base, "\\\\host\\p") == "http://host/p");
  CHECK(resolve_uri(base, "..\\g") == "http://a/b/g");
  CHECK(resolve_uri(base, "http:\\\\h\\i") == "http://h/i");
  CHECK(resolve_uri(base, "https:////h/i") == "https://h/i");
  // Percent-encoding of what cannot stand in a URL.
  CHECK(resolve_uri(base, "a b") == "http://a/b/c/a%20b");
  CHECK(resolve_uri(base, "x?q=\"<>\"") == "http://a/b/c/x?q=%22%3C%3E%22");
  CHECK(resolve_uri(base, "Stra\xc3\x9f" "e") == "http://a/b/c/Stra%C3%9Fe");
  CHECK(resolve_uri(base, "#\xc3\xa9") == "http://a/b/c/d#%C3%A9");
  CHECK(resolve_uri(base, "bad\xff\xfe") == "http://a/b/c/bad%FF%FE");  // invalid UTF-8: bytes
  CHECK(resolve_uri(base, "%41%zz") == "http://a/b/c/%41%zz");            // '%' left alone
  // A non-ASCII host of an http(s) URL is mapped to ASCII (UTS #46); one that is not UTF-8 fails.
  CHECK(resolve_uri("", "http://b\xc3\xbc" "cher.example/") == "http://xn--bcher-kva.example/");
  CHECK(resolve_uri("", "http://b\xfc" "cher.example/") == "");
  // Other schemes keep it as UTF-8 (RFC 3986 resolution, no IDNA).
  CHECK(resolve_uri("", "foo://b\xc3\xbc" "cher.example/") == "foo://b\xc3\xbc" "cher.example/");
  // Non-special schemes keep backslashes (as data, percent-encoding does not touch them).
  CHECK(resolve_uri("", "foo:a\\b") == "foo:a\\b");
}

TEST_CASE("resolve_uri into a reused buffer", "[uri]") {
  std::string out = "garbage";
  CHECK(resolve_uri("http://a/b/c", "../d", out));
  CHECK(out == "http://a/d");
  CHECK_FALSE(resolve_uri("", "relative", out));
  CHECK(out.empty());
  CHECK(resolve_uri("http://a/b/c", "e", out));
  CHECK(out == "http://a/b/e");
}

TEST_CASE("resolve_uri: long dot-segment chains are linear and exact", "[uri]") {
  std::string ref;
  for (int i = 0; i < 100000; ++i) ref += "x/../";
  ref += "end";
  CHECK(resolve_uri("http://a/b/", ref) == "http://a/b/end");
  std::string up;
  for (int i = 0; i < 100000; ++i) up += "../";
  CHECK(resolve_uri("http://a/b/c/", up + "g") == "http://a/g");
}

// The WHATWG URL Standard for http(s) (and ws, wss, ftp); tests/conformance/test_conformance_url.cpp runs the
// standard's own tests, these name the rules.
TEST_CASE("resolve_uri: hosts as the WHATWG URL Standard parses them", "[uri][whatwg]") {
  // IDNA (UTS #46): case, width, dots, "xn--" forms all give the same ASCII host.
  CHECK(resolve_uri("", "http://M\xc3\x9cNCHEN.de/") == "http://xn--mnchen-3ya.de/");
  CHECK(resolve_uri("", "http://xn--MNCHEN-3ya.de/") == "http://xn--mnchen-3ya.de/");
  CHECK(resolve_uri("", "http://\xef\xbd\x8d\xef\xbd\x95.de/") == "http://mu.de/");        // full-width letters
  CHECK(resolve_uri("", "http://a\xe3\x80\x82" "b.de/") == "http://a.b.de/");                // ideographic full stop
  CHECK(resolve_uri("", "http://fa\xc3\x9f.de/") == "http://xn--fa-hia.de/");               // non-transitional: ß kept
  CHECK(resolve_uri("", "http://%C3%BC.de/") == "http://xn--tda.de/");                      // percent-decoded first
  CHECK(resolve_uri("", "http://xn--abc-9.de/") == "");                                     // not Punycode
  CHECK(resolve_uri("", "http://a\xe2\x80\x8d" "b.de/") == "");                              // ZWJ out of context
  CHECK(resolve_uri("", "http://\xc2\xad/") == "");                                          // maps to nothing
  // Forbidden code points; what is allowed.
  CHECK(resolve_uri("", "http://a<b/") == "");
  CHECK(resolve_uri("", "http://a%25b/") == "");
  CHECK(resolve_uri("", "http://a{b}.de/") == "http://a{b}.de/");
  // IPv4 in every form the standard reads, IPv6 in the shortest.
  CHECK(resolve_uri("", "http://0x7f.1/") == "http://127.0.0.1/");
  CHECK(resolve_uri("", "http://2130706433/") == "http://127.0.0.1/");
  CHECK(resolve_uri("", "http://0177.0.0.1./") == "http://127.0.0.1/");
  CHECK(resolve_uri("", "http://1.2.3.256/") == "");
  CHECK(resolve_uri("", "http://a.09/") == "");  // ends in a number that is not one
  CHECK(resolve_uri("", "http://[0:0:0:0:0:0:0:1]/") == "http://[::1]/");
  CHECK(resolve_uri("", "http://[2001:DB8:0:0:1:0:0:1]/") == "http://[2001:db8::1:0:0:1]/");
  CHECK(resolve_uri("", "http://[::ffff:1.2.3.4]/") == "http://[::ffff:102:304]/");
  CHECK(resolve_uri("", "http://[1::2::3]/") == "");
}

TEST_CASE("resolve_uri: ports, userinfo, paths, percent-encoding as the WHATWG URL Standard", "[uri][whatwg]") {
  CHECK(resolve_uri("", "http://a:80/") == "http://a/");
  CHECK(resolve_uri("", "https://a:443/") == "https://a/");
  CHECK(resolve_uri("", "http://a:443/") == "http://a:443/");
  CHECK(resolve_uri("", "ws://a:80/") == "ws://a/");
  CHECK(resolve_uri("", "http://a:0080/") == "http://a/");
  CHECK(resolve_uri("", "http://a:/") == "http://a/");
  CHECK(resolve_uri("", "http://a:65536/") == "");
  CHECK(resolve_uri("", "http://a:8x/") == "");
  CHECK(resolve_uri("", "http://:80/") == "");
  CHECK(resolve_uri("", "http://u:p:q@a/") == "http://u:p%3Aq@a/");
  CHECK(resolve_uri("", "http://u@v@a/") == "http://u%40v@a/");
  CHECK(resolve_uri("", "http://:@a/") == "http://a/");
  CHECK(resolve_uri("", "http://u@/") == "");
  CHECK(resolve_uri("", "http://a/b/%2e%2E/c/%2e/d") == "http://a/c/d");
  CHECK(resolve_uri("", "http://a/b/..") == "http://a/");
  CHECK(resolve_uri("", "http://a/ ^`{}|") == "http://a/%20%5E%60%7B%7D|");
  CHECK(resolve_uri("", "http://a/?' \"#'") == "http://a/?%27%20%22#'");
  CHECK(resolve_uri("", "foo://a/?'") == "foo://a/?'");  // ' only in special queries
  CHECK(resolve_uri("", "\t http://a/\nb\r ") == "http://a/b");
  // Relative references against a special base.
  const std::string base = "http://u@h:81/a/b?q#f";
  CHECK(resolve_uri(base, "") == "http://u@h:81/a/b?q");
  CHECK(resolve_uri(base, "#g") == "http://u@h:81/a/b?q#g");
  CHECK(resolve_uri(base, "?r") == "http://u@h:81/a/b?r");
  CHECK(resolve_uri(base, "c") == "http://u@h:81/a/c");
  CHECK(resolve_uri(base, "/c") == "http://u@h:81/c");
  CHECK(resolve_uri(base, "\\/x/y") == "http://x/y");
  CHECK(resolve_uri(base, "http:/c") == "http://u@h:81/c");
  CHECK(resolve_uri(base, "https:c") == "https://c/");
  CHECK(resolve_uri("http://a b/", "c") == "");  // a base the standard fails
  // Tabs and newlines go first, also where they split a scheme (found by fuzz_url).
  CHECK(resolve_uri("http://a/b", "t\n\np://x") == "tp://x");
  CHECK(resolve_uri("http://a/b", "ht\ttp:c") == "http://a/c");
  CHECK(resolve_uri("h\tttp://a/b", "c") == "http://a/c");
}

TEST_CASE("uri_resolve_into with a parsed base agrees with resolve_uri", "[uri][whatwg]") {
  // The HTML link extractor parses its base once (parse_uri) and resolves every link against it.
  const std::string bases[] = {"http://example.com/a/b?x", "HTTP://Ex.COM:80/a/./b/../c", "https://xn--mnchen-3ya.de/",
                               "ftp://f/x/y", "foo://h/p/q", "mailto:me@example.com"};
  const std::string refs[] = {"", "c", "../d", "?q", "#f", "//other/p", "http:x", "https://x/y", "mailto:x", "\\\\h\\p"};
  for (const std::string& b : bases) {
    const auto bv = parse_uri(b);
    REQUIRE(bv);
    for (const std::string& r : refs) {
      std::string out;
      langsift::detail::uri_resolve_into(&*bv, r, out);
      INFO(b << " + " << r);
      CHECK(out == resolve_uri(b, r));
    }
  }
}

TEST_CASE("resolve_uri: WHATWG results are fixed points and parse", "[uri][whatwg]") {
  const char* inputs[] = {"http://A.b/%7e/../x?y#z", "http://[::1]:8080/", "https://u:p@xn--tda.de/a b",
                          "http://0x7f.1", "ws://h/\\x"};
  for (const char* in : inputs) {
    const std::string once = resolve_uri("", in);
    INFO(in);
    REQUIRE(!once.empty());
    CHECK(resolve_uri("", once) == once);
    CHECK(parse_uri(once));
  }
}
