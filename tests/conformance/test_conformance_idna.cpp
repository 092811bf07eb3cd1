// UTS #46 and Punycode against their own test suites, read in place from LANGSIFT_CONFORMANCE_DIR:
//   idna/IdnaTestV2.txt          Unicode's UTS #46 conformance file (toUnicode and non-transitional
//                                toASCII of every line; transitional processing is not implemented)
//   idna/punycode_tests.json     RFC 3492 encode / decode pairs
//   idna/bad_punycode_tests.json inputs that must not encode
// Cases that fail on purpose, with the reason, are listed in tests/conformance/idna.tsv
// (LANGSIFT_EXPECTED_FAILURES_DIR). The test fails when a case not in the list fails, and when a
// case in the list passes (or no longer exists), so that the list stays honest. Pass counts are
// printed and written, with every failing case, to <build>/conformance/idna-*.txt.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/support.hpp"
#include "langsift/idna.hpp"
#include "langsift/punycode.hpp"

using namespace langsift;
using namespace langsift_test::conformance;

namespace {

// ---- IdnaTestV2.txt ---------------------------------------------------------------------------------

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

/// \uXXXX and \x{X...} escapes of the suite. Also for surrogates (the suite escapes some, as
/// \uD900): three bytes that are not UTF-8, which langsift reads as U+FFFD, as the suite allows
/// ("ill-formed strings").
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'u' && i + 6 <= s.size()) {
      detail::append_utf8(out, static_cast<char32_t>(std::stoul(s.substr(i + 2, 4), nullptr, 16)));
      i += 5;
    } else if (s[i] == '\\' && i + 2 < s.size() && s[i + 1] == 'x' && s[i + 2] == '{') {
      const std::size_t close = s.find('}', i);
      detail::append_utf8(out, static_cast<char32_t>(std::stoul(s.substr(i + 3, close - i - 3), nullptr, 16)));
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

/// hex_escaped, in double quotes.
std::string in_quotes(const std::string& s) {
  std::string r = "\"";
  r += hex_escaped(s);
  r += '"';
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
  const std::string text = read_file(kSuitesDir / "idna" / "IdnaTestV2.txt");
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
                       "want " + (want_err ? uni_status : in_quotes(to_unicode)) + ", got " +
                           (err ? errors_text(err) : in_quotes(got))});
    err = idna_to_ascii(source, got, o);
    want_err = has_error(ascii_status);
    pass = (err != 0) == want_err && (want_err || got == to_ascii);
    results.push_back({"toAsciiN\t" + source_text, pass,
                       "want " + (want_err ? ascii_status : in_quotes(to_ascii)) + ", got " +
                           (err ? errors_text(err) : in_quotes(got))});
  }
  CHECK(lines > 6000);
  expected_failures list("idna.tsv");
  for (const auto& [k, e] : list.entries()) {
    INFO("a key of " << list.path() << " names no check of this file: " << k);
    CHECK((k.rfind("toUnicode\t", 0) == 0 || k.rfind("toAsciiN\t", 0) == 0 || k.rfind("encode\t", 0) == 0 ||
           k.rfind("decode\t", 0) == 0 || k.rfind("bad encode\t", 0) == 0 || k.rfind("bad decode\t", 0) == 0));
  }
  report("idna-IdnaTestV2", results, list);
  list.check_all_seen({"toUnicode\t", "toAsciiN\t"});
}

TEST_CASE("conformance: Punycode (RFC 3492) punycode_tests.json and bad_punycode_tests.json") {
  const json good = parse_json(read_file(kSuitesDir / "idna" / "punycode_tests.json"));
  const json bad = parse_json(read_file(kSuitesDir / "idna" / "bad_punycode_tests.json"));
  REQUIRE(good.kind == json::array_v);
  REQUIRE(bad.kind == json::array_v);
  std::vector<outcome> results;
  for (const json& c : good.a) {
    const std::string decoded = c.get(U"decoded")->utf8();
    const std::string encoded = c.get(U"encoded")->utf8();
    std::string enc, dec;
    const bool enc_ok = punycode_encode(decoded, enc);
    results.push_back({"encode\t" + encoded, enc_ok && enc == encoded, "got \"" + enc + "\""});
    const bool dec_ok = punycode_decode(encoded, dec);
    results.push_back({"decode\t" + encoded, dec_ok && dec == decoded, "got \"" + hex_escaped(dec) + "\""});
  }
  for (const json& c : bad.a) {
    const std::string name = c.get(U"description") ? c.get(U"description")->utf8() : "";
    if (const json* d = c.get(U"decoded")) {
      // Must not encode (a delta overflows): the unbounded encoder, not the public one, which
      // refuses anything over 256 code points anyway.
      const std::u32string cps = code_points(d->utf8());
      std::string enc;
      results.push_back({"bad encode\t" + name, !detail::punycode_encode_cps(cps.data(), cps.size(), enc),
                         "encoded to " + std::to_string(enc.size()) + " bytes"});
    }
    if (const json* e = c.get(U"encoded")) {
      std::string dec;
      results.push_back({"bad decode\t" + name, !punycode_decode(e->utf8(), dec), "decoded"});
    }
  }
  CHECK(results.size() >= 50);
  expected_failures list("idna.tsv");
  report("idna-punycode", results, list);
  list.check_all_seen({"encode\t", "decode\t", "bad "});
}
