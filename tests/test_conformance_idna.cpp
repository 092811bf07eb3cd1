// UTS #46 and Punycode against their own test suites, read in place from LANGSIFT_CONFORMANCE_DIR:
//   idna/IdnaTestV2.txt          Unicode's UTS #46 conformance file (toUnicode and non-transitional
//                                toASCII of every line; transitional processing is not implemented)
//   idna/punycode_tests.json     RFC 3492 encode / decode pairs
//   idna/bad_punycode_tests.json inputs that must not encode
// Cases that fail on purpose, with the reason, are listed in tests/conformance/idna.tsv
// (LANGSIFT_EXPECTED_FAILURES_DIR). The test fails when a case not in the list fails, and when a
// case in the list passes (or no longer exists), so that the list stays honest. Pass counts are
// printed and written, with every failing case, to <build>/conformance/idna.txt.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/idna.hpp"
#include "langsift/punycode.hpp"

using namespace langsift;

namespace {

const std::string kSuites = LANGSIFT_CONFORMANCE_DIR;
const std::string kExpected = std::string(LANGSIFT_EXPECTED_FAILURES_DIR) + "/idna.tsv";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void append_utf8(std::string& out, char32_t c) {
  // Also for surrogates (the suite escapes some, as \uD900): three bytes that are not UTF-8,
  // which langsift reads as U+FFFD, as the suite allows ("ill-formed strings").
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
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

// ---- the expected-failure list and the report ----------------------------------------------------

/// "key<TAB>reason" lines; '#' starts a comment line. Keys escape '\\', tab, newline and CR.
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

struct outcome {
  std::string key;  // "<check>\t<case>"
  bool pass;
  std::string detail;
};

/// Compares the outcomes with the expected failures: every failure must be listed, every listed
/// case must exist and fail. Prints and records the counts.
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

// ---- IdnaTestV2.txt ---------------------------------------------------------------------------------

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

/// \uXXXX and \x{X...} escapes of the suite.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'u' && i + 6 <= s.size()) {
      append_utf8(out, static_cast<char32_t>(std::stoul(s.substr(i + 2, 4), nullptr, 16)));
      i += 5;
    } else if (s[i] == '\\' && i + 2 < s.size() && s[i + 1] == 'x' && s[i + 2] == '{') {
      const std::size_t close = s.find('}', i);
      append_utf8(out, static_cast<char32_t>(std::stoul(s.substr(i + 3, close - i - 3), nullptr, 16)));
      i = close;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// Whether a status column ("[B5, B6]", "" = none) names an error, ignoring the codes that the
/// options do not check. X4_2 (an empty label in toUnicode) is a "compatibility error" of the
/// suite: UTS #46 toUnicode has no length checks, and langsift reports none.
bool has_error(const std::string& status) {
  std::string code;
  for (char c : status + ",") {
    if (c == '[' || c == ']' || c == ' ') continue;
    if (c == ',') {
      if (!code.empty() && code != "X4_2") return true;
      code.clear();
    } else {
      code += c;
    }
  }
  return false;
}

std::string hex_escaped(const std::string& s) {
  std::string r;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F) {
      r += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", c);
      r += b;
    }
  }
  return r;
}

std::string errors_text(std::uint32_t err) {
  static const char* const names[] = {"P4", "V1", "V2", "V3", "V4", "V6", "V7", "U1", "C", "B", "A3", "A4_1", "A4_2"};
  std::string r = "errors [";
  for (std::size_t b = 0; b < std::size(names); ++b)
    if (err & (1u << b)) r += std::string(r.size() > 8 ? ", " : "") + names[b];
  return r + "]";
}

}  // namespace

TEST_CASE("conformance: UTS #46 IdnaTestV2.txt, toUnicode and non-transitional toASCII") {
  const std::string text = slurp(kSuites + "/idna/IdnaTestV2.txt");
  REQUIRE(!text.empty());
  idna_options o;  // the suite's flags: every check on
  o.check_hyphens = true;
  o.check_bidi = true;
  o.check_joiners = true;
  o.use_std3_ascii_rules = true;
  o.verify_dns_length = true;
  std::vector<outcome> results;
  std::istringstream in(text);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (trim(line).empty()) continue;
    std::vector<std::string> col;
    std::size_t start = 0;
    for (std::size_t semi; (semi = line.find(';', start)) != std::string::npos; start = semi + 1)
      col.push_back(trim(std::string_view(line).substr(start, semi - start)));
    col.push_back(trim(std::string_view(line).substr(start)));
    REQUIRE(col.size() >= 5);
    ++lines;
    auto value = [](const std::string& c, const std::string& blank) { return c.empty() ? blank : c == "\"\"" ? "" : c; };
    const std::string source_text = col[0] == "\"\"" ? "" : col[0];
    const std::string source = unescape(source_text);
    const std::string to_unicode = unescape(value(col[1], source_text));
    const std::string& uni_status = col[2];
    const std::string to_ascii = unescape(value(col[3], value(col[1], source_text)));
    const std::string ascii_status = col[4].empty() ? uni_status : col[4];

    std::string got;
    std::uint32_t err = idna_to_unicode(source, got, o);
    bool want_err = has_error(uni_status);
    bool pass = (err != 0) == want_err && (want_err || got == to_unicode);
    results.push_back({"toUnicode\t" + source_text, pass,
                       "want " + (want_err ? uni_status : "\"" + hex_escaped(to_unicode) + "\"") + ", got " +
                           (err ? errors_text(err) : "\"" + hex_escaped(got) + "\"")});
    err = idna_to_ascii(source, got, o);
    want_err = has_error(ascii_status);
    pass = (err != 0) == want_err && (want_err || got == to_ascii);
    results.push_back({"toAsciiN\t" + source_text, pass,
                       "want " + (want_err ? ascii_status : "\"" + hex_escaped(to_ascii) + "\"") + ", got " +
                           (err ? errors_text(err) : "\"" + hex_escaped(got) + "\"")});
  }
  CHECK(lines > 6000);
  std::map<std::string, std::string> mine;
  for (const auto& [k, v] : read_expected(kExpected)) {
    if (k.rfind("toUnicode\t", 0) == 0 || k.rfind("toAsciiN\t", 0) == 0) mine[k] = v;
    INFO("a key of " << kExpected << " names no check of this file: " << k);
    CHECK((k.rfind("toUnicode\t", 0) == 0 || k.rfind("toAsciiN\t", 0) == 0 || k.rfind("encode\t", 0) == 0 ||
           k.rfind("decode\t", 0) == 0 || k.rfind("bad encode\t", 0) == 0 || k.rfind("bad decode\t", 0) == 0));
  }
  report("idna-IdnaTestV2", results, mine);
}

namespace {

// ---- a small JSON reader (the suites' files: strings, arrays, objects, null, numbers) -----------

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
    unsigned v = static_cast<unsigned>(std::stoul(std::string(t.substr(i, 4)), nullptr, 16));
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
      while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '-' || t[i] == '.' || t[i] == 'e' || t[i] == 'E' || t[i] == '+'))
        v.s += t[i++];
    }
    return v;
  }
};

json parse_json(const std::string& text) {
  json_reader r{text};
  return r.value();
}

std::u32string code_points(std::string_view utf8) {
  std::u32string r;
  for (const char *p = utf8.data(), *e = p + utf8.size(); p < e;) r.push_back(decode_utf8(p, e));
  return r;
}

}  // namespace

TEST_CASE("conformance: Punycode (RFC 3492) punycode_tests.json and bad_punycode_tests.json") {
  const json good = parse_json(slurp(kSuites + "/idna/punycode_tests.json"));
  const json bad = parse_json(slurp(kSuites + "/idna/bad_punycode_tests.json"));
  REQUIRE(good.k == json::array);
  REQUIRE(bad.k == json::array);
  std::vector<outcome> results;
  for (const json& c : good.a) {
    const std::string& decoded = c.get("decoded")->s;
    const std::string& encoded = c.get("encoded")->s;
    std::string enc, dec;
    const bool enc_ok = punycode_encode(decoded, enc);
    results.push_back({"encode\t" + encoded, enc_ok && enc == encoded, "got \"" + enc + "\""});
    const bool dec_ok = punycode_decode(encoded, dec);
    results.push_back({"decode\t" + encoded, dec_ok && dec == decoded, "got \"" + hex_escaped(dec) + "\""});
  }
  for (const json& c : bad.a) {
    const std::string name = c.get("description") ? c.get("description")->s : "";
    if (const json* d = c.get("decoded")) {
      // Must not encode (a delta overflows): the unbounded encoder, not the public one, which
      // refuses anything over 256 code points anyway.
      const std::u32string cps = code_points(d->s);
      std::string enc;
      results.push_back({"bad encode\t" + name, !detail::punycode_encode_cps(cps.data(), cps.size(), enc),
                         "encoded to " + std::to_string(enc.size()) + " bytes"});
    }
    if (const json* e = c.get("encoded")) {
      std::string dec;
      results.push_back({"bad decode\t" + name, !punycode_decode(e->s, dec), "decoded"});
    }
  }
  CHECK(results.size() >= 50);
  std::map<std::string, std::string> mine;
  for (const auto& [k, v] : read_expected(kExpected))
    if (k.rfind("encode\t", 0) == 0 || k.rfind("decode\t", 0) == 0 || k.rfind("bad ", 0) == 0) mine[k] = v;
  report("idna-punycode", results, mine);
}
