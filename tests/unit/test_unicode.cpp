// Unicode tables and UTF-8 decoding (langsift/unicode.hpp), checked against ICU: every code point's
// script, class, case folding and combining class; canonical composition pairs; decode_utf8 on
// every class of invalid input and on random bytes.
#include <catch2/catch.hpp>

#include <unicode/uchar.h>
#include <unicode/ucnv.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/unicode.hpp"

using langsift::char_class;
using langsift::script;

namespace {

// The class rules of unicode.hpp, stated again over ICU's General_Category and White_Space.
char_class icu_class(UChar32 c) {
  if (c == 0x200C || c == 0x200D) return char_class::mark;
  if (u_hasBinaryProperty(c, UCHAR_WHITE_SPACE)) return char_class::space;
  const std::uint32_t m = U_GET_GC_MASK(c);
  if (m & U_GC_L_MASK) return char_class::letter;
  if (m & U_GC_M_MASK) return char_class::mark;
  if (m & U_GC_N_MASK) return char_class::digit;
  if (m & U_GC_P_MASK) return char_class::punct;
  if (m & U_GC_S_MASK) return char_class::symbol;
  if (m & U_GC_Z_MASK) return char_class::space;
  return char_class::control;
}

bool same_icu() { return std::string_view(U_ICU_VERSION) == LANGSIFT_UNICODE_ICU_VERSION; }

struct decoded {
  std::vector<char32_t> cps;
  std::vector<std::size_t> ends;  // byte offset after each code point
};

decoded decode_ours(std::string_view s) {
  decoded d;
  const char* p = s.data();
  const char* e = p + s.size();
  while (p < e) {
    const char* before = p;
    d.cps.push_back(langsift::decode_utf8(p, e));
    if (p <= before || p > e) {  // must always advance, never past the end
      d.cps.clear();
      d.ends.clear();
      return d;
    }
    d.ends.push_back(static_cast<std::size_t>(p - s.data()));
  }
  return d;
}

decoded decode_icu(std::string_view s) {
  decoded d;
  const auto* b = reinterpret_cast<const std::uint8_t*>(s.data());
  const auto n = static_cast<std::int32_t>(s.size());
  std::int32_t i = 0;
  while (i < n) {
    UChar32 c;
    U8_NEXT_OR_FFFD(b, i, n, c);
    d.cps.push_back(static_cast<char32_t>(c));
    d.ends.push_back(static_cast<std::size_t>(i));
  }
  return d;
}

// ICU's UTF-8 converter (callback: substitute U+FFFD), code points only.
std::vector<char32_t> convert_icu(std::string_view s) {
  UErrorCode err = U_ZERO_ERROR;
  UConverter* cnv = ucnv_open("UTF-8", &err);
  REQUIRE(U_SUCCESS(err));
  std::u16string buf(s.size() + 1, u'\0');
  const std::int32_t n = ucnv_toUChars(cnv, buf.data(), static_cast<std::int32_t>(buf.size()), s.data(),
                                       static_cast<std::int32_t>(s.size()), &err);
  ucnv_close(cnv);
  REQUIRE(U_SUCCESS(err));
  std::vector<char32_t> out;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(buf.data(), i, n, c);
    out.push_back(static_cast<char32_t>(c));
  }
  return out;
}

std::string hex(std::string_view s) {
  std::string h;
  for (unsigned char c : s) {
    char t[4];
    std::snprintf(t, sizeof t, "%02X ", c);
    h += t;
  }
  return h;
}

// decode_utf8 and is_valid_utf8 against ICU's U8_NEXT_OR_FFFD; Catch's macros only on a
// mismatch (the exhaustive loops run millions of these).
void check_decode(std::string_view s) {
  const decoded ours = decode_ours(s), icu = decode_icu(s);
  bool has_error = false;
  for (std::size_t i = 0; i < icu.cps.size(); ++i) {
    const std::size_t begin = i ? icu.ends[i - 1] : 0;
    // A U+FFFD that is not the 3 bytes EF BF BD is an error.
    if (icu.cps[i] == 0xFFFD && s.substr(begin, icu.ends[i] - begin) != "\xEF\xBF\xBD") has_error = true;
  }
  if (ours.cps == icu.cps && ours.ends == icu.ends && langsift::is_valid_utf8(s) == !has_error) return;
  INFO("bytes: " << hex(s));
  CHECK(ours.cps == icu.cps);
  CHECK(ours.ends == icu.ends);
  CHECK(langsift::is_valid_utf8(s) == !has_error);
  FAIL("decode_utf8 differs from ICU");
}

}  // namespace

TEST_CASE("the tables are well formed") {
  CHECK(std::string_view(LANGSIFT_UNICODE_VERSION).size() >= 3);
  CHECK(langsift::script_count > 150);
  CHECK(langsift::script_count < 255);
}

// The [icu] cases compare the tables with the ICU the tests link. They are meaningful only when
// that ICU is the one the tables were generated from (Debian 12 and CI: ICU 72); tests/CMakeLists.txt
// does not register them otherwise, and run by hand they fail.
TEST_CASE("tables were generated from the ICU the tests link", "[icu]") {
  INFO("tables from ICU " << LANGSIFT_UNICODE_ICU_VERSION << ", tests linked with ICU " << U_ICU_VERSION);
  REQUIRE(same_icu());
}

TEST_CASE("code_point_props equals ICU for every code point", "[icu]") {
  REQUIRE(same_icu());
  std::size_t mismatches = 0;
  for (UChar32 c = 0; c <= 0x10FFFF; ++c) {
    const langsift::code_point_info i = langsift::code_point_props(static_cast<char32_t>(c));
    UErrorCode err = U_ZERO_ERROR;
    const UScriptCode sc = uscript_getScript(c, &err);
    const auto expected_sc = langsift::script_from_code(uscript_getShortName(sc));
    const bool ok = U_SUCCESS(err) && expected_sc && i.sc == *expected_sc && i.cls == icu_class(c) &&
                    i.lower == static_cast<char32_t>(u_foldCase(c, U_FOLD_CASE_DEFAULT)) &&
                    langsift::combining_class(static_cast<char32_t>(c)) == u_getCombiningClass(c);
    if (!ok && ++mismatches <= 10) {
      INFO("U+" << std::hex << c << " script " << langsift::script_code(i.sc) << " vs "
                << uscript_getShortName(sc) << ", class " << int(i.cls) << " vs " << int(icu_class(c))
                << ", lower " << std::uint32_t(i.lower) << " vs " << u_foldCase(c, U_FOLD_CASE_DEFAULT));
      CHECK(ok);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("every script with an assigned code point has an enum value, and only those", "[icu]") {
  REQUIRE(same_icu());
  std::vector<bool> seen(langsift::script_count);
  for (UChar32 c = 0; c <= 0x10FFFF; ++c)
    if (u_charType(c) != U_UNASSIGNED)
      seen[static_cast<std::size_t>(langsift::code_point_props(static_cast<char32_t>(c)).sc)] = true;
  for (std::size_t i = 0; i < langsift::script_count; ++i) {
    const auto s = static_cast<script>(i);
    INFO(langsift::script_code(s));
    // japanese and korean are writing systems of split_script_runs, not code-point scripts.
    CHECK(seen[i] == (s != script::japanese && s != script::korean));
  }
}

TEST_CASE("script codes and names") {
  CHECK(langsift::script_code(script::common) == "Zyyy");
  CHECK(langsift::script_code(script::inherited) == "Zinh");
  CHECK(langsift::script_code(script::unknown) == "Zzzz");
  CHECK(langsift::script_code(script::latin) == "Latn");
  CHECK(langsift::script_code(script::cyrillic) == "Cyrl");
  CHECK(langsift::script_code(script::han) == "Hani");
  CHECK(langsift::script_code(script::japanese) == "Jpan");
  CHECK(langsift::script_code(script::korean) == "Kore");
  CHECK(langsift::script_code(script::old_italic) == "Ital");
  CHECK(langsift::script_code(static_cast<script>(250)) == "Zzzz");
  CHECK(langsift::script_name(script::old_italic) == "Old_Italic");
  CHECK(langsift::script_name(script::japanese) == "Japanese");
  CHECK(langsift::script_name(script::korean) == "Korean");
  for (std::size_t i = 0; i < langsift::script_count; ++i) {
    const auto s = static_cast<script>(i);
    REQUIRE(langsift::script_from_code(langsift::script_code(s)) == s);
  }
  CHECK(langsift::script_from_code("latn") == script::latin);
  CHECK(langsift::script_from_code("CYRL") == script::cyrillic);
  CHECK(!langsift::script_from_code("Latin"));
  CHECK(!langsift::script_from_code("Xxxx"));
  CHECK(!langsift::script_from_code("Hrkt"));  // Katakana_Or_Hiragana has no code points
  CHECK(!langsift::script_from_code(""));
  CHECK(!langsift::script_from_code(std::string_view("La\0n", 4)));
  // The enum's head is fixed (docs/script.md); model files may store these numbers.
  CHECK(static_cast<int>(script::common) == 0);
  CHECK(static_cast<int>(script::latin) == 3);
  CHECK(static_cast<int>(script::han) == 8);
  CHECK(static_cast<int>(script::japanese) == 12);
  CHECK(static_cast<int>(script::korean) == 13);
}

TEST_CASE("script codes and names are ICU's", "[icu]") {
  REQUIRE(same_icu());
  for (std::size_t i = 0; i < langsift::script_count; ++i) {
    const auto s = static_cast<script>(i);
    INFO(langsift::script_code(s));
    const int icu = u_getPropertyValueEnum(UCHAR_SCRIPT, std::string(langsift::script_code(s)).c_str());
    REQUIRE(icu >= 0);
    if (s != script::japanese && s != script::korean)
      CHECK(langsift::script_name(s) == uscript_getName(static_cast<UScriptCode>(icu)));
  }
}

TEST_CASE("a few known code points") {
  using langsift::code_point_props;
  CHECK(code_point_props(U'A').sc == script::latin);
  CHECK(code_point_props(U'A').lower == U'a');
  CHECK(code_point_props(U'a').lower == U'a');
  CHECK(code_point_props(U'1').cls == char_class::digit);
  CHECK(code_point_props(U'1').sc == script::common);
  CHECK(code_point_props(U' ').cls == char_class::space);
  CHECK(code_point_props(U'\n').cls == char_class::space);
  CHECK(code_point_props(0x85).cls == char_class::space);
  CHECK(code_point_props(0xA0).cls == char_class::space);
  CHECK(code_point_props(0x3000).cls == char_class::space);
  CHECK(code_point_props(0).cls == char_class::control);
  CHECK(code_point_props(0x200D).cls == char_class::mark);  // ZWJ
  CHECK(code_point_props(0x200C).cls == char_class::mark);  // ZWNJ
  CHECK(code_point_props(0x200D).sc == script::inherited);
  CHECK(code_point_props(0x094D).cls == char_class::mark);  // Devanagari virama
  CHECK(code_point_props(0x094D).sc == script::devanagari);
  CHECK(code_point_props(0x05B8).sc == script::hebrew);  // qamats
  CHECK(code_point_props(0x0301).sc == script::inherited);
  CHECK(code_point_props(U'Ж').lower == U'ж');
  CHECK(code_point_props(U'Σ').lower == U'σ');
  CHECK(code_point_props(U'ς').lower == U'σ');  // final sigma folds
  CHECK(code_point_props(0x1E9E).lower == 0xDF);   // capital sharp s
  CHECK(code_point_props(0x212A).lower == U'k');   // Kelvin sign
  CHECK(code_point_props(0x130).lower == 0x130);   // İ has no simple default folding
  CHECK(code_point_props(0x10400).lower == 0x10428);  // Deseret
  CHECK(code_point_props(U'の').sc == script::hiragana);
  CHECK(code_point_props(U'ア').sc == script::katakana);
  CHECK(code_point_props(0x30FC).sc == script::common);  // ー
  CHECK(code_point_props(0x30FC).cls == char_class::letter);
  CHECK(code_point_props(U'漢').sc == script::han);
  CHECK(code_point_props(U'한').sc == script::hangul);
  CHECK(code_point_props(0xFFFD).sc == script::common);
  CHECK(code_point_props(0xFFFD).cls == char_class::symbol);
  CHECK(code_point_props(0x1F600).cls == char_class::symbol);
  CHECK(code_point_props(0xE000).sc == script::unknown);  // private use
  CHECK(code_point_props(0xE000).cls == char_class::control);
  CHECK(code_point_props(0xD800).cls == char_class::control);
  CHECK(code_point_props(0x378).sc == script::unknown);  // unassigned
  CHECK(code_point_props(0x10FFFF).cls == char_class::control);
  for (char32_t big : {char32_t{0x110000}, char32_t{0x7FFFFFFF}, char32_t{0xFFFFFFFF}}) {
    const auto i = code_point_props(big);
    CHECK(i.sc == script::unknown);
    CHECK(i.cls == char_class::control);
    CHECK(i.lower == big);
    CHECK(langsift::combining_class(big) == 0);
    CHECK(langsift::compose_pair(big, 0x301) == 0);
    CHECK(langsift::compose_pair(U'e', big) == 0);
  }
  CHECK(langsift::combining_class(0x301) == 230);
  CHECK(langsift::combining_class(0x94D) == 9);
  CHECK(langsift::combining_class(U'a') == 0);
}

TEST_CASE("compose_pair equals ICU's unorm2_composePair", "[icu]") {
  REQUIRE(same_icu());
  UErrorCode err = U_ZERO_ERROR;
  const UNormalizer2* nfc = unorm2_getNFCInstance(&err);
  REQUIRE(U_SUCCESS(err));
  // Every code point whose canonical decomposition is a pair: both directions agree.
  std::size_t pairs = 0;
  for (UChar32 c = 0; c <= 0x10FFFF; ++c) {
    UChar buf[8];
    UErrorCode e = U_ZERO_ERROR;
    const std::int32_t n = unorm2_getRawDecomposition(nfc, c, buf, 8, &e);
    if (U_FAILURE(e) || n <= 0) continue;
    UChar32 cps[4];
    int k = 0;
    for (std::int32_t i = 0; i < n && k < 4;) {
      UChar32 x;
      U16_NEXT(buf, i, n, x);
      cps[k++] = x;
    }
    if (k != 2) continue;
    ++pairs;
    const auto ours = langsift::compose_pair(static_cast<char32_t>(cps[0]), static_cast<char32_t>(cps[1]));
    const UChar32 icu = unorm2_composePair(nfc, cps[0], cps[1]);
    INFO("U+" << std::hex << c);
    REQUIRE(ours == static_cast<char32_t>(icu < 0 ? 0 : icu));
  }
  CHECK(pairs > 2000);  // includes the 11172 Hangul syllables and composition exclusions
  // Every code point followed by every code point that can combine with a preceding one
  // (NFC_Quick_Check = Maybe); together with the above this covers all composing pairs.
  std::vector<UChar32> seconds;
  for (UChar32 c = 0; c <= 0x10FFFF; ++c)
    if (u_getIntPropertyValue(c, UCHAR_NFC_QUICK_CHECK) == UNORM_MAYBE) seconds.push_back(c);
  REQUIRE(seconds.size() > 100);
  std::size_t composed = 0, mismatches = 0;
  for (UChar32 a = 0; a <= 0x10FFFF; ++a) {
    for (UChar32 b : seconds) {
      const auto ours = langsift::compose_pair(static_cast<char32_t>(a), static_cast<char32_t>(b));
      const UChar32 icu = unorm2_composePair(nfc, a, b);
      composed += ours != 0;
      if (ours != static_cast<char32_t>(icu < 0 ? 0 : icu) && ++mismatches <= 5) {
        INFO("U+" << std::hex << a << " + U+" << b);
        CHECK(ours == static_cast<char32_t>(icu));
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(composed > 11000);
  CHECK(langsift::compose_pair(U'e', 0x301) == U'é');
  CHECK(langsift::compose_pair(0x1100, 0x1161) == 0xAC00);            // L + V
  CHECK(langsift::compose_pair(0xAC00, 0x11A8) == 0xAC01);            // LV + T
  CHECK(langsift::compose_pair(0xAC01, 0x11A8) == 0);                 // LVT + T
  CHECK(langsift::compose_pair(0xAC00, 0x11A7) == 0);                 // T base is not a T
  CHECK(langsift::compose_pair(0x0915, 0x093C) == 0);                 // composition exclusion
  CHECK(langsift::compose_pair(U'a', U'b') == 0);
}

TEST_CASE("decode_utf8: known answers for invalid input") {
  auto cps = [](std::string_view s) { return decode_ours(s).cps; };
  using V = std::vector<char32_t>;
  constexpr char32_t R = 0xFFFD;
  // Unicode's example (Table 3-8): a F1 80 80 E1 80 C2 b 80 c 80 BF d.
  CHECK(cps("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") == V{'a', R, R, R, 'b', R, 'c', R, R, 'd'});
  CHECK(cps("\xC0\xAF") == V{R, R});                   // overlong '/'
  CHECK(cps("\xE0\x80\xAF") == V{R, R, R});            // overlong, 3 bytes
  CHECK(cps("\xF0\x80\x80\xAF") == V{R, R, R, R});     // overlong, 4 bytes
  CHECK(cps("\xC1\xBF") == V{R, R});
  CHECK(cps("\xED\xA0\x80") == V{R, R, R});            // surrogate D800
  CHECK(cps("\xED\xBF\xBF") == V{R, R, R});            // surrogate DFFF
  CHECK(cps("\xED\x9F\xBF") == V{0xD7FF});
  CHECK(cps("\xF4\x90\x80\x80") == V{R, R, R, R});     // 110000
  CHECK(cps("\xF4\x8F\xBF\xBF") == V{0x10FFFF});
  CHECK(cps("\xF5\x80\x80\x80") == V{R, R, R, R});
  CHECK(cps("\xF8\x88\x80\x80\x80") == V{R, R, R, R, R});          // 5-byte form
  CHECK(cps("\xFC\x84\x80\x80\x80\x80") == V{R, R, R, R, R, R});   // 6-byte form
  CHECK(cps("\xFE\xFF") == V{R, R});
  CHECK(cps("\x80") == V{R});                          // stray continuation
  CHECK(cps("\xBF\x80x") == V{R, R, 'x'});
  CHECK(cps("\xE2\x82") == V{R});                      // truncated: one maximal subpart
  CHECK(cps("\xE2\x82x") == V{R, 'x'});
  CHECK(cps("\xF0\x9F\x98") == V{R});
  CHECK(cps("\xF0\x9F\x98x") == V{R, 'x'});
  CHECK(cps("\xF0\x9F") == V{R});
  CHECK(cps("\xF0") == V{R});
  CHECK(cps("\xC3") == V{R});
  CHECK(cps("\xC3\xA9") == V{0xE9});
  CHECK(cps("\xEF\xBF\xBD") == V{R});                  // a real U+FFFD
  CHECK(cps(std::string_view("\0a", 2)) == V{0, 'a'});  // NUL is a character
  // The end pointer is respected: a sequence cut by `end` is truncated even if bytes follow.
  const char buf[] = "\xE2\x82\xAC";
  const char* p = buf;
  CHECK(langsift::decode_utf8(p, buf + 2) == R);
  CHECK(p == buf + 2);
  p = buf;
  CHECK(langsift::decode_utf8(p, buf + 3) == 0x20AC);
  CHECK(p == buf + 3);
  CHECK(langsift::is_valid_utf8(""));
  CHECK(langsift::is_valid_utf8("plain ascii text that is longer than eight bytes"));
  CHECK(langsift::is_valid_utf8("Grüße, мир, 世界, 😀"));
  CHECK(!langsift::is_valid_utf8("abcdefgh\xC0\xAF"));
  CHECK(!langsift::is_valid_utf8("\xED\xA0\x80"));
  CHECK(!langsift::is_valid_utf8("abcdefghijklmnop\xE2\x82"));
  CHECK(langsift::is_valid_utf8("ok", 2));
}

TEST_CASE("decode_utf8 equals ICU on every 1-3 byte string and on 4-byte families") {
  std::string s;
  for (unsigned a = 0; a < 256; ++a) {
    s.assign(1, static_cast<char>(a));
    check_decode(s);
    for (unsigned b = 0; b < 256; ++b) {
      s.assign({static_cast<char>(a), static_cast<char>(b)});
      check_decode(s);
    }
  }
  // Three bytes: every lead above 0x7F, every second byte, a set of third bytes covering each
  // class (ASCII, each continuation sub-range, lead bytes, invalid bytes).
  const unsigned probes[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF,
                             0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  for (unsigned a = 0x80; a < 256; ++a)
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned c : probes) {
        s.assign({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
        check_decode(s);
        for (unsigned d : {0x41u, 0x80u, 0xBFu, 0xC0u}) {
          s.push_back(static_cast<char>(d));
          check_decode(s);
          s.pop_back();
        }
      }
}

TEST_CASE("decode_props equals decode_utf8 and code_point_props, advancing as far") {
  // Its fast paths (two-byte table, well-formed three-byte sequences) against the general ones,
  // on every 1-2 byte string and every 3-byte lead and second byte with third bytes of each class,
  // each also cut one byte short.
  auto same = [](const std::string& s) {
    for (std::size_t cut = s.size(); cut >= 1; --cut) {
      const char* p1 = s.data();
      const char* p2 = s.data();
      const char* const e = s.data() + cut;
      const char32_t cp = langsift::decode_utf8(p1, e);
      const langsift::detail::decoded_props d = langsift::detail::decode_props(p2, e);
      const langsift::code_point_info info = langsift::code_point_props(cp);
      REQUIRE(d.cp == cp);
      REQUIRE(p2 == p1);
      REQUIRE(static_cast<langsift::script>(d.v->sc) == info.sc);
      REQUIRE(static_cast<langsift::char_class>(d.v->cls) == info.cls);
      REQUIRE(static_cast<char32_t>(static_cast<std::int32_t>(d.cp) + d.v->fold) == info.lower);
      if (cut == 1) break;
    }
  };
  std::string s;
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned b = 0; b < 256; ++b) {
      s.assign({static_cast<char>(a), static_cast<char>(b)});
      same(s);
    }
  for (unsigned a = 0xE0; a < 0xF0; ++a)
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned c : {0x00u, 0x41u, 0x7Fu, 0x80u, 0x9Fu, 0xA0u, 0xBFu, 0xC0u, 0xE0u, 0xFFu}) {
        s.assign({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
        same(s);
      }
}

TEST_CASE("decode_utf8 equals ICU's U8_NEXT and its converter on random bytes") {
  std::mt19937 rng(20240611);
  // Bytes drawn to hit sequences often: ASCII, continuation bytes, leads, and invalid bytes.
  const unsigned pool[] = {0x41, 0x20, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                           0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE, 0xFF};
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng() % 24, '\0');
    for (char& c : s)
      c = static_cast<char>(rng() % 3 == 0 ? rng() % 256 : pool[rng() % std::size(pool)]);
    check_decode(s);
    if (decode_ours(s).cps != convert_icu(s)) FAIL("differs from ICU's converter: " << hex(s));
  }
  // Valid text with random damage.
  const std::string text = "Grüße aus Köln — мир, κόσμος, 世界, こんにちは, 한국어, 😀🇩🇪 end";
  for (int round = 0; round < 5000; ++round) {
    std::string s = text;
    for (int k = 0, n = static_cast<int>(rng() % 4); k < n; ++k) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = static_cast<char>(rng() % 256); break;
        case 1: s.erase(at, 1); break;
        default: s.insert(at, 1, static_cast<char>(0x80 + rng() % 64));
      }
    }
    check_decode(s);
    if (decode_ours(s).cps != convert_icu(s)) FAIL("differs from ICU's converter: " << hex(s));
  }
}
