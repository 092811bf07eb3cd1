// The WHATWG URL Standard's own tests (web-platform-tests url/resources/urltestdata.json, read in
// place from LANGSIFT_CONFORMANCE_DIR) against resolve_uri (uri.hpp) and the frontier's URL keys
// (normalize_url, url_key: frontier.hpp), for the cases whose result is an http or https URL or
// that the standard fails with an http(s) scheme:
//   resolve    resolve_uri(base, input) is the expected href; "" where the standard fails the URL
//   normalize  normalize_url of the URL (input, or resolve_uri(base, input) where there is a base)
//              is the expected href without its fragment, normalize_url(href) is the same (so
//              every spelling of the URL has href's key), and normalize_url fails where the
//              standard fails an absolute input
// Cases that fail on purpose, with the reason, are listed in tests/conformance/url.tsv
// (LANGSIFT_EXPECTED_FAILURES_DIR). The test fails when a case not in the list fails, and when a
// case in the list passes (or no longer exists), so that the list stays honest. Pass counts are
// printed and written, with every failing case, to <build>/conformance/url-*.txt.
#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/support.hpp"
#include "langsift/frontier.hpp"
#include "langsift/uri.hpp"

using namespace langsift;
using namespace langsift_test::conformance;

namespace {

/// A test string in one line, as url.tsv's keys write it ("<check>\t<input>\t<base, or (null)>"):
/// '\' as "\\", tab, LF, CR as \t \n \r, other controls as \xNN; everything else (UTF-8
/// included) as it is.
std::string escape(std::string_view s) {
  std::string r;
  for (unsigned char c : s) {
    if (c == '\\') r += "\\\\";
    else if (c == '\t') r += "\\t";
    else if (c == '\n') r += "\\n";
    else if (c == '\r') r += "\\r";
    else if (c < 0x20 || c == 0x7F) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", c);
      r += b;
    } else {
      r += static_cast<char>(c);
    }
  }
  return r;
}

/// The scheme the input names, lower-cased, after the parser's first steps (trimming, no tab or
/// newline), or "".
std::string scheme_of(std::string_view s) {
  std::string t;
  for (char c : s)
    if (c != '\t' && c != '\n' && c != '\r') t += c;
  std::size_t b = 0, e = t.size();
  while (b < e && static_cast<unsigned char>(t[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(t[e - 1]) <= 0x20) --e;
  t = t.substr(b, e - b);
  if (t.empty() || !std::isalpha(static_cast<unsigned char>(t[0]))) return "";
  std::size_t j = 1;
  while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '+' || t[j] == '-' || t[j] == '.')) ++j;
  if (j == t.size() || t[j] != ':') return "";
  std::string r = t.substr(0, j);
  for (char& c : r) c = langsift::detail::ascii_lower(c);
  return r;
}

bool http_scheme(const std::string& s) { return s == "http" || s == "https"; }

}  // namespace

TEST_CASE("conformance: WHATWG URL urltestdata.json, http(s) cases, resolve_uri and normalize_url") {
  const std::string text = read_file(kSuitesDir / "url" / "urltestdata.json");
  REQUIRE(!text.empty());
  const json all = parse_json(text);
  REQUIRE(all.kind == json::array_v);
  std::vector<outcome> resolved, normalized;
  std::size_t http_ok = 0, http_fail = 0;
  for (const json& c : all.a) {
    if (c.kind != json::object_v) continue;  // comments
    const std::string input = c.get(U"input")->utf8();
    const json* base_v = c.get(U"base");
    const bool has_base = base_v && base_v->kind == json::string_v;
    const std::string base = has_base ? base_v->utf8() : "";
    const bool failure = c.get(U"failure") != nullptr;
    const std::string key = escape(input) + "\t" + (has_base ? escape(base) : "(null)");
    std::string got_resolved = resolve_uri(base, input);
    if (!failure) {
      const std::string href = c.get(U"href")->utf8();
      if (!http_scheme(scheme_of(href))) continue;
      ++http_ok;
      resolved.push_back({"resolve\t" + key, got_resolved == href, "want " + escape(href) + ", got " + escape(got_resolved)});
      const std::string want = href.substr(0, href.find('#'));
      std::string n1, n2;
      const bool ok1 = normalize_url(has_base ? std::string_view(got_resolved) : std::string_view(input), n1);
      const bool ok2 = normalize_url(href, n2);
      normalized.push_back({"normalize\t" + key, ok1 && ok2 && n1 == want && n2 == want,
                            "want " + escape(want) + ", got " + (ok1 ? escape(n1) : "(false)") + " and for href " +
                                (ok2 ? escape(n2) : "(false)")});
      if (ok1 && ok2 && n1 == want && n2 == want)
        CHECK(url_key(has_base ? std::string_view(got_resolved) : std::string_view(input)) == url_key(href));
    } else {
      // Failures of the standard for what would be an http(s) URL: an http(s) input, or a
      // relative one against an http(s) base.
      const std::string s = scheme_of(input);
      if (!(http_scheme(s) || (s.empty() && has_base && http_scheme(scheme_of(base))))) continue;
      ++http_fail;
      resolved.push_back({"resolve\t" + key, got_resolved.empty(), "want failure, got " + escape(got_resolved)});
      if (!has_base) {
        std::string n;
        const bool ok = normalize_url(input, n);
        normalized.push_back({"normalize\t" + key, !ok, "want false, got " + escape(n)});
      }
    }
  }
  std::printf("urltestdata.json: %zu cases with an http(s) href, %zu http(s) failures\n", http_ok, http_fail);
  CHECK(http_ok > 200);
  expected_failures list("url.tsv");
  report("url-resolve_uri", resolved, list);
  report("url-normalize_url", normalized, list);
  list.check_all_seen();
}
