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
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/frontier.hpp"
#include "langsift/uri.hpp"

using namespace langsift;

namespace {

const std::string kSuites = LANGSIFT_CONFORMANCE_DIR;
const std::string kExpected = std::string(LANGSIFT_EXPECTED_FAILURES_DIR) + "/url.tsv";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {  // also a lone surrogate: three bytes that are not UTF-8
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// ---- a small JSON reader (the suite's file: strings, arrays, objects, null, booleans) ------------

struct json {
  enum kind { null, boolean, number, string, array, object } k = null;
  std::string s;
  std::vector<json> a;                // array elements, or the object's values
  std::vector<std::string> names;     // the object's names (parallel to a)
  const json* get(const std::string& key) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == key) return &a[i];
    return nullptr;
  }
};

struct json_reader {
  std::string_view t;
  std::size_t i = 0;
  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  }
  unsigned hex4() {
    const unsigned v = static_cast<unsigned>(std::stoul(std::string(t.substr(i, 4)), nullptr, 16));
    i += 4;
    return v;
  }
  std::string str() {
    std::string r;
    ++i;  // '"'
    while (t[i] != '"') {
      if (t[i] != '\\') {
        r += t[i++];
        continue;
      }
      ++i;
      const char e = t[i++];
      switch (e) {
        case 'n': r += '\n'; break;
        case 't': r += '\t'; break;
        case 'r': r += '\r'; break;
        case 'b': r += '\b'; break;
        case 'f': r += '\f'; break;
        case 'u': {
          char32_t c = hex4();
          if (c >= 0xD800 && c < 0xDC00 && t.substr(i, 2) == "\\u") {
            const std::size_t save = i;
            i += 2;
            const unsigned lo = hex4();
            if (lo >= 0xDC00 && lo < 0xE000) c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
            else i = save;
          }
          append_utf8(r, c);
          break;
        }
        default: r += e;
      }
    }
    ++i;
    return r;
  }
  json value() {
    ws();
    json v;
    if (t[i] == '"') {
      v.k = json::string;
      v.s = str();
    } else if (t[i] == '[') {
      v.k = json::array;
      ++i;
      ws();
      while (t[i] != ']') {
        v.a.push_back(value());
        ws();
        if (t[i] == ',') ++i;
        ws();
      }
      ++i;
    } else if (t[i] == '{') {
      v.k = json::object;
      ++i;
      ws();
      while (t[i] != '}') {
        v.names.push_back(str());
        ws();
        ++i;  // ':'
        v.a.push_back(value());
        ws();
        if (t[i] == ',') ++i;
        ws();
      }
      ++i;
    } else if (t.substr(i, 4) == "null") {
      i += 4;
    } else if (t.substr(i, 4) == "true" || t.substr(i, 5) == "false") {
      v.k = json::boolean;
      v.s = t[i] == 't' ? "true" : "false";
      i += t[i] == 't' ? 4 : 5;
    } else {
      v.k = json::number;
      while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '-' || t[i] == '.' ||
                              t[i] == 'e' || t[i] == 'E' || t[i] == '+'))
        v.s += t[i++];
    }
    return v;
  }
};

// ---- the expected-failure list and the report ----------------------------------------------------

/// "key<TAB>reason" lines; '#' starts a comment line. A key is fields separated by tabs (see
/// escape()); the reason is after the last tab.
std::map<std::string, std::string> read_expected(const std::string& path) {
  std::map<std::string, std::string> m;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.rfind('\t');
    REQUIRE(tab != std::string::npos);
    m[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return m;
}

/// A test string in one line: '\' as "\\", tab, LF, CR as \t \n \r, other controls as \xNN;
/// everything else (UTF-8 included) as it is.
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

struct outcome {
  std::string key;
  bool pass;
  std::string detail;
};

void report(const std::string& suite, const std::vector<outcome>& results, std::map<std::string, std::string> expected) {
  std::size_t pass = 0;
  std::vector<std::string> unexpected, fixed;
  std::ostringstream rec;
  for (const outcome& r : results) {
    auto it = expected.find(r.key);
    const bool listed = it != expected.end();
    if (r.pass) ++pass;
    else rec << "FAIL\t" << r.key << "\t" << r.detail << (listed ? "" : "\t(not in the list)") << "\n";
    if (!r.pass && !listed) unexpected.push_back(r.key + "  " + r.detail);
    if (r.pass && listed) fixed.push_back(r.key);
    if (listed) expected.erase(it);
  }
  std::ostringstream head;
  head << suite << ": " << pass << " of " << results.size() << " pass, " << results.size() - pass << " fail\n";
  std::printf("%s", head.str().c_str());
  std::filesystem::create_directories(std::string(LANGSIFT_BINARY_DIR) + "/conformance");
  std::ofstream(std::string(LANGSIFT_BINARY_DIR) + "/conformance/" + suite + ".txt") << head.str() << rec.str();
  for (const std::string& u : unexpected) {
    INFO(suite << ": fails, not in " << kExpected << ": " << u);
    CHECK(false);
  }
  for (const std::string& f : fixed) {
    INFO(suite << ": passes, but is listed as an expected failure (remove it): " << f);
    CHECK(false);
  }
  for (const auto& [key, reason] : expected) {
    INFO(suite << ": listed, but no such case: " << key);
    CHECK(false);
  }
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
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool http_scheme(const std::string& s) { return s == "http" || s == "https"; }

}  // namespace

TEST_CASE("conformance: WHATWG URL urltestdata.json, http(s) cases, resolve_uri and normalize_url") {
  const std::string text = slurp(kSuites + "/url/urltestdata.json");
  REQUIRE(!text.empty());
  json_reader jr{text};
  const json all = jr.value();
  REQUIRE(all.k == json::array);
  std::vector<outcome> resolved, normalized;
  std::size_t http_ok = 0, http_fail = 0;
  for (const json& c : all.a) {
    if (c.k != json::object) continue;  // comments
    const std::string& input = c.get("input")->s;
    const json* base_v = c.get("base");
    const bool has_base = base_v && base_v->k == json::string;
    const std::string base = has_base ? base_v->s : "";
    const bool failure = c.get("failure") != nullptr;
    const std::string key = escape(input) + "\t" + (has_base ? escape(base) : "(null)");
    std::string got_resolved = resolve_uri(base, input);
    if (!failure) {
      const std::string& href = c.get("href")->s;
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
  std::map<std::string, std::string> expected = read_expected(kExpected), res, norm;
  for (const auto& [k, v] : expected) (k.rfind("resolve\t", 0) == 0 ? res : norm)[k] = v;
  report("url-resolve_uri", resolved, res);
  report("url-normalize_url", normalized, norm);
}
