// langsift::encoding: sniffing order, overrides, structural detection, conversion, streaming,
// bad input, and the `langsift encoding` tool.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/encoding.hpp"
#include "../../src/encoding/internal.hpp"  // scan_utf8, internal to the encoding library

using namespace langsift;
using namespace std::string_literals;

namespace {

std::string data_file(const std::string& name) {
  std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/encoding/" + name, std::ios::binary);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string to_utf8(std::string_view bytes, std::string_view enc, conversion_result* res = nullptr) {
  std::string out;
  conversion_result r = convert_to_utf8(bytes, enc, out);
  REQUIRE(r.st == status::ok);
  if (res) *res = r;
  return out;
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!len || i + len > s.size()) return false;
    std::string tmp;
    conversion_result r = convert_to_utf8(s.substr(i, len), "utf-8", tmp);
    if (r.replaced_bytes) return false;
    i += len;
  }
  return true;
}

const char* const k_fr = "Ceci est un document de test pour vérifier la détection";

}  // namespace

TEST_CASE("canonical names: WHATWG labels, uchardet answers, case and whitespace") {
  CHECK(canonical_encoding_name("utf-8") == "utf-8");
  CHECK(canonical_encoding_name("  UTF8\t") == "utf-8");
  CHECK(canonical_encoding_name("unicode-1-1-utf-8") == "utf-8");
  CHECK(canonical_encoding_name("ISO-8859-1") == "windows-1252");
  CHECK(canonical_encoding_name("latin1") == "windows-1252");
  CHECK(canonical_encoding_name("iso-8859-9") == "windows-1254");
  CHECK(canonical_encoding_name("TIS-620") == "windows-874");
  CHECK(canonical_encoding_name("iso-8859-11") == "windows-874");
  CHECK(canonical_encoding_name("Shift_JIS") == "shift_jis");
  CHECK(canonical_encoding_name("windows-31j") == "shift_jis");
  CHECK(canonical_encoding_name("gb2312") == "gbk");
  CHECK(canonical_encoding_name("GB18030") == "gb18030");
  CHECK(canonical_encoding_name("ks_c_5601-1987") == "euc-kr");
  CHECK(canonical_encoding_name("UHC") == "euc-kr");
  CHECK(canonical_encoding_name("big5-hkscs") == "big5");
  CHECK(canonical_encoding_name("utf-16") == "utf-16le");
  CHECK(canonical_encoding_name("UTF-16BE") == "utf-16be");
  CHECK(canonical_encoding_name("x-user-defined") == "x-user-defined");
  CHECK(canonical_encoding_name("logical") == "iso-8859-8-i");
  CHECK(canonical_encoding_name("x-mac-ukrainian") == "x-mac-cyrillic");
  CHECK(canonical_encoding_name("MAC-CYRILLIC") == "x-mac-cyrillic");
  CHECK(canonical_encoding_name("MAC-CENTRALEUROPE") == "x-mac-ce");
  CHECK(canonical_encoding_name("IBM852") == "ibm852");
  CHECK(canonical_encoding_name("cp737") == "ibm737");
  CHECK(canonical_encoding_name("VISCII") == "viscii");
  CHECK(canonical_encoding_name("EUC-TW") == "euc-tw");
  CHECK(canonical_encoding_name("iso-2022-kr") == "iso-2022-kr");
  CHECK(canonical_encoding_name("us-ascii") == "ascii");
  CHECK(canonical_encoding_name("ASCII") == "ascii");
  CHECK(canonical_encoding_name("UTF-32") == "utf-32le");
  CHECK(canonical_encoding_name("") == "");
  CHECK(canonical_encoding_name("   ") == "");
  CHECK(canonical_encoding_name("no-such-charset") == "");
  CHECK(canonical_encoding_name("utf-8\0x"s) == "");
  CHECK(canonical_encoding_name(std::string(5000, 'a')) == "");
  CHECK(is_whatwg_encoding("iso-8859-1"));
  CHECK(is_whatwg_encoding("ascii"));
  CHECK_FALSE(is_whatwg_encoding("ibm852"));
  CHECK_FALSE(is_whatwg_encoding("bogus"));
  CHECK(can_convert("iso-8859-16"));
  CHECK(can_convert("ibm862"));
  CHECK_FALSE(can_convert("johab"));
  CHECK(encoding_source_name(encoding_source::fallback) == "default");
}

TEST_CASE("content type: charset parameter and bare labels") {
  CHECK(content_type_charset("text/html; charset=Shift_JIS") == "Shift_JIS");
  CHECK(content_type_charset("text/html;charset=\"utf-8\"") == "utf-8");
  CHECK(content_type_charset("text/html; foo=bar; CHARSET = koi8-r ") == "koi8-r");
  CHECK(content_type_charset("text/html; name=\"a;b\"; charset=gbk") == "gbk");
  CHECK(content_type_charset("text/html") == "");
  CHECK(content_type_charset("windows-1251") == "windows-1251");
  CHECK(content_type_charset("") == "");
  CHECK(content_type_charset("text/html; charset=") == "");
  CHECK(content_type_charset(";;;=;\"") == "");
}

TEST_CASE("byte order marks decide first, and are reported for skipping") {
  struct bom_case {
    std::string bytes;
    const char* name;
    std::size_t len;
  };
  const std::vector<bom_case> cases = {
      {"\xEF\xBB\xBFhi", "utf-8", 3},
      {"\xFF\xFEh\0i\0"s, "utf-16le", 2},
      {"\xFE\xFF\0h\0i"s, "utf-16be", 2},
      {"\xFF\xFE\0\0h\0\0\0"s, "utf-32le", 4},
      {"\0\0\xFE\xFF\0\0\0h"s, "utf-32be", 4},
  };
  for (const auto& c : cases) {
    encoding_options o;
    o.content_type = "text/html; charset=iso-8859-2";  // a BOM beats the header
    encoding_result r = detect_encoding(c.bytes, o);
    CHECK(r.name == c.name);
    CHECK(r.source == encoding_source::bom);
    CHECK(r.bom_bytes == c.len);
    CHECK(r.confidence == 1.0f);
    CHECK(r.declared == "iso-8859-2");
    CHECK(r.declared_overridden);
  }
  // FF FE 00 00 followed by what cannot be UTF-32: UTF-16LE with a U+0000.
  CHECK(detect_encoding("\xFF\xFE\0\0h\0i\0"s).name == "utf-16le");
  // decode_to_utf8 strips the BOM
  CHECK(decode_to_utf8("\xEF\xBB\xBFh\xC3\xA9").text == "h\xC3\xA9");
  CHECK(decode_to_utf8("\xFE\xFF\0h\0\xE9"s).text == "h\xC3\xA9");
}

TEST_CASE("http charset wins over meta, meta wins over detection") {
  std::string page = "<html><head><meta charset=\"koi8-r\"></head><body>hello</body></html>";
  encoding_options o;
  o.content_type = "text/html; charset=windows-1251";
  encoding_result r = detect_encoding(page, o);
  CHECK(r.name == "windows-1251");
  CHECK(r.source == encoding_source::http);
  CHECK(r.declared == "windows-1251");
  CHECK_FALSE(r.declared_overridden);
  // without the header, the meta decides (the bytes here are 7-bit, so nothing contradicts it)
  std::string ascii_page = "<html><head><meta charset=\"koi8-r\"></head><body>hello</body></html>";
  r = detect_encoding(ascii_page);
  CHECK(r.name == "koi8-r");
  CHECK(r.source == encoding_source::meta);
  CHECK(r.declared == "koi8-r");
  // an unknown header label is ignored (and flagged); the meta is used
  o.content_type = "text/html; charset=bogus-8";
  r = detect_encoding(ascii_page, o);
  CHECK(r.name == "koi8-r");
  CHECK(r.source == encoding_source::meta);
  CHECK(r.declared == "bogus-8");
  CHECK(r.declared_overridden);
  // a bare label works as the header value
  o.content_type = "ISO-8859-5";
  CHECK(detect_encoding(ascii_page, o).name == "iso-8859-5");
}

TEST_CASE("meta prescan follows the WHATWG algorithm") {
  CHECK(prescan_meta_charset("<meta charset=utf-8>") == "utf-8");
  CHECK(prescan_meta_charset("<META CHARSET='Shift_JIS'>") == "shift_jis");
  CHECK(prescan_meta_charset("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=euc-kr\">") == "euc-kr");
  CHECK(prescan_meta_charset("<meta content='text/html; charset=\"gb2312\"' http-equiv=content-type>") == "gbk");
  CHECK(prescan_meta_charset("<meta content=\"text/html; charset=euc-kr\">") == std::nullopt);  // no pragma
  CHECK(prescan_meta_charset("<meta/charset=koi8-r>") == "koi8-r");
  CHECK(prescan_meta_charset("<!-- <meta charset=koi8-r> --><meta charset=iso-8859-2>") == "iso-8859-2");
  CHECK(prescan_meta_charset("<!--><meta charset=iso-8859-2>") == "iso-8859-2");
  CHECK(prescan_meta_charset("<title>x</title><meta name=x content=y><meta charset=big5>") == "big5");
  CHECK(prescan_meta_charset("<div title='<meta charset=koi8-r>'>a</div>") == std::nullopt);
  CHECK(prescan_meta_charset("<meta charset=bogus><meta charset=windows-1250>") == "windows-1250");
  CHECK(prescan_meta_charset("<meta charset=utf-16le>") == "utf-8");
  CHECK(prescan_meta_charset("<meta charset=UTF-16>") == "utf-8");
  CHECK(prescan_meta_charset("<meta charset=x-user-defined>") == "windows-1252");
  CHECK(prescan_meta_charset("<meta charset=koi8-r charset=utf-8>") == "koi8-r");
  CHECK(prescan_meta_charset("<meta charset") == std::nullopt);
  CHECK(prescan_meta_charset("<meta charset=\"utf-8") == std::nullopt);
  CHECK(prescan_meta_charset("") == std::nullopt);
  // beyond the first 1024 bytes: ignored
  std::string late = "<html>" + std::string(1100, ' ') + "<meta charset=koi8-r>";
  CHECK(prescan_meta_charset(late) == std::nullopt);
  std::string early = "<html>" + std::string(900, ' ') + "<meta charset=koi8-r>";
  CHECK(prescan_meta_charset(early) == "koi8-r");
  CHECK(detect_encoding(late).source == encoding_source::detected);
  // XML declaration
  CHECK(prescan_meta_charset("<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?><html/>") == "iso-8859-2");
  CHECK(prescan_meta_charset("<?xml version='1.0' encoding='utf-8'?>") == "utf-8");
  CHECK(prescan_meta_charset("  <?xml version='1.0' encoding='koi8-r'?>") == std::nullopt);
  CHECK(prescan_meta_charset("<?xml version='1.0' encoding='koi8-r'?><meta charset=big5>") == "big5");
  encoding_result r = detect_encoding("<?xml version=\"1.0\" encoding=\"windows-1250\"?><a>b</a>");
  CHECK(r.name == "windows-1250");
  CHECK(r.source == encoding_source::meta);
  // the prescan can be switched off
  encoding_options o;
  o.prescan_meta = false;
  CHECK(detect_encoding("<meta charset=koi8-r>hello", o).name == "ascii");
}

TEST_CASE("impossible declarations are overridden, and the result says so") {
  const std::string utf8 = data_file("fr.utf-8.txt");
  const std::string latin1 = data_file("fr.windows-1252.txt");
  SECTION("iso-8859-1 declared, bytes are multi-byte UTF-8") {
    encoding_options o;
    o.content_type = "text/html; charset=iso-8859-1";
    encoding_result r = detect_encoding(utf8, o);
    CHECK(r.name == "utf-8");
    CHECK(r.source == encoding_source::detected);
    CHECK(r.declared == "iso-8859-1");
    CHECK(r.declared_overridden);
    r = detect_encoding("<meta charset=iso-8859-1>" + utf8);
    CHECK(r.name == "utf-8");
    CHECK(r.declared == "iso-8859-1");
    CHECK(r.declared_overridden);
  }
  SECTION("utf-8 declared, bytes are Latin-1") {
    encoding_result r = detect_encoding("<meta charset=utf-8>" + latin1);
    CHECK(r.name == "windows-1252");
    CHECK(r.source == encoding_source::detected);
    CHECK(r.declared == "utf-8");
    CHECK(r.declared_overridden);
  }
  SECTION("utf-8 declared, a single stray byte among many valid sequences is tolerated") {
    std::string mostly = utf8 + "\xE9" + utf8;
    encoding_options o;
    o.content_type = "utf-8";
    encoding_result r = detect_encoding(mostly, o);
    CHECK(r.name == "utf-8");
    CHECK(r.source == encoding_source::http);
    CHECK_FALSE(r.declared_overridden);
  }
  SECTION("unknown labels are ignored") {
    encoding_result r = detect_encoding("<meta charset=no-such-thing>" + utf8);
    CHECK(r.name == "utf-8");
    CHECK(r.declared == "no-such-thing");
    CHECK(r.declared_overridden);
    encoding_options o;
    o.content_type = "text/html; charset=\xFF\x01garbage";
    r = detect_encoding(latin1, o);
    CHECK(r.declared_overridden);
    CHECK(r.source == encoding_source::detected);
  }
  SECTION("a CJK declaration the bytes do not decode in") {
    encoding_options o;
    o.content_type = "text/html; charset=shift_jis";
    encoding_result r = detect_encoding(data_file("ko.euc-kr.txt"), o);
    CHECK(r.name == "euc-kr");
    CHECK(r.declared_overridden);
    o.content_type = "text/html; charset=big5";
    r = detect_encoding(data_file("ru.windows-1251.txt"), o);
    CHECK(r.name == "windows-1251");
    CHECK(r.declared_overridden);
  }
  SECTION("a single-byte declaration is kept on statistical grounds alone") {
    encoding_options o;
    o.content_type = "text/html; charset=koi8-r";
    encoding_result r = detect_encoding(data_file("ru.windows-1251.txt"), o);
    CHECK(r.name == "koi8-r");
    CHECK(r.source == encoding_source::http);
    CHECK_FALSE(r.declared_overridden);
  }
  SECTION("UTF-16 declared for 7-bit bytes; single-byte declared for UTF-16 bytes") {
    encoding_options o;
    o.content_type = "text/html; charset=utf-16";
    encoding_result r = detect_encoding("<html><body>plain old ASCII page</body></html>", o);
    CHECK(r.name == "ascii");
    CHECK(r.declared_overridden);
    o.content_type = "text/html; charset=iso-8859-1";
    r = detect_encoding(data_file("fr.utf-16le.txt"), o);
    CHECK(r.name == "utf-16le");
    CHECK(r.declared_overridden);
    o.content_type = "text/html; charset=utf-16be";
    r = detect_encoding(data_file("fr.utf-16be.txt"), o);
    CHECK(r.name == "utf-16be");
    CHECK(r.source == encoding_source::http);
  }
  SECTION("a declared ascii label with 8-bit bytes is windows-1252") {
    encoding_options o;
    o.content_type = "text/html; charset=us-ascii";
    encoding_result r = detect_encoding(latin1, o);
    CHECK(r.name == "windows-1252");
    CHECK(r.source == encoding_source::http);
  }
}

TEST_CASE("structural detection: ASCII, UTF-8, UTF-16 and UTF-32 without BOM") {
  encoding_result r = detect_encoding(data_file("en.ascii.txt"));
  CHECK(r.name == "ascii");
  CHECK(r.source == encoding_source::detected);
  CHECK(r.confidence == 1.0f);
  CHECK(r.detector_answer.empty());  // uchardet was not consulted
  for (const char* f : {"fr.utf-8.txt", "ja.utf-8.txt", "zh.utf-8.txt", "ko.utf-8.txt", "ru.utf-8.txt"}) {
    CAPTURE(f);
    r = detect_encoding(data_file(f));
    CHECK(r.name == "utf-8");
    CHECK(r.source == encoding_source::detected);
    CHECK(r.confidence > 0.9f);
  }
  CHECK(detect_encoding("caf\xC3\xA9").name == "utf-8");
  for (const char* lang : {"fr", "ja"}) {
    CAPTURE(lang);
    CHECK(detect_encoding(data_file(std::string(lang) + ".utf-16le.txt")).name == "utf-16le");
    CHECK(detect_encoding(data_file(std::string(lang) + ".utf-16be.txt")).name == "utf-16be");
  }
  CHECK(detect_encoding(data_file("fr.utf-32le.txt")).name == "utf-32le");
  CHECK(detect_encoding(data_file("fr.utf-32be.txt")).name == "utf-32be");
  // 8-bit text with NUL bytes between its words (C strings, exported fields) is not UTF-16: its
  // NUL bytes fall at both byte positions (it was read as UTF-16BE or LE before the fix).
  for (const std::string& t : {std::string("Hallo\0Welt\0wie\0geht\0es\0dir\0heute\0am\0Morgen", 42),
                               std::string("Guten Tag\0Das ist ein Satz\0noch einer hier\0und noch mehr Text", 61)}) {
    CAPTURE(t);
    const std::string name = detect_encoding(t).name;
    CHECK(name.find("utf-16") == std::string::npos);
    CHECK(name.find("utf-32") == std::string::npos);
  }
  // ISO-2022-JP is 7-bit: the escape sequences send it to uchardet, not to "ascii"
  std::string jis = "\x1B$B$3$l$O\x1B(B test \x1B$BF|K\\8l$NJ8>O$G$9!#\x1B(B\n";
  CHECK(detect_encoding(jis).name == "iso-2022-jp");
}

TEST_CASE("legacy encodings detected on realistic text, and round trips to the original") {
  struct file_case {
    const char* file;
    const char* expect;
    const char* utf8_file;
  };
  const std::vector<file_case> cases = {
      {"ja.shift_jis.txt", "shift_jis", "ja.utf-8.txt"}, {"ja.euc-jp.txt", "euc-jp", "ja.utf-8.txt"},
      {"ko.euc-kr.txt", "euc-kr", "ko.utf-8.txt"},       {"zh.gb18030.txt", "gb18030", "zh.utf-8.txt"},
      {"zh.big5.txt", "big5", nullptr},                  {"ru.windows-1251.txt", "windows-1251", "ru.utf-8.txt"},
      {"ru.koi8-r.txt", "koi8-r", "ru.utf-8.txt"},       {"fr.windows-1252.txt", "windows-1252", "fr.utf-8.txt"},
      {"fr.utf-16le.txt", "utf-16le", "fr.utf-8.txt"},   {"ja.utf-16be.txt", "utf-16be", "ja.utf-8.txt"},
      {"fr.utf-32be.txt", "utf-32be", "fr.utf-8.txt"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.file);
    std::string bytes = data_file(c.file);
    decoded_text d = decode_to_utf8(bytes);
    CHECK(d.encoding.name == c.expect);
    CHECK(d.encoding.source == encoding_source::detected);
    CHECK(d.conversion.st == status::ok);
    CHECK(d.conversion.replaced_bytes == 0);
    CHECK(d.conversion.input_bytes == bytes.size());
    CHECK(d.conversion.output_bytes == d.text.size());
    if (c.utf8_file) CHECK(d.text == data_file(c.utf8_file));
  }
}

TEST_CASE("conversion: invalid sequences become U+FFFD with exact replaced byte counts") {
  const std::string fffd = "\xEF\xBF\xBD";
  struct conv_case {
    std::string in;
    const char* enc;
    std::string out;
    std::size_t replaced;
  };
  const std::vector<conv_case> cases = {
      {"abc", "utf-8", "abc", 0},
      {"a\xC3(b", "utf-8", "a" + fffd + "(b", 1},
      {"\xE2\x82", "utf-8", fffd, 2},                              // truncated at the end: one U+FFFD
      {"\xF0\x9F\x98", "utf-8", fffd, 3},
      {"\xED\xA0\x80", "utf-8", fffd + fffd + fffd, 3},            // a surrogate: three maximal subparts
      {"\xC0\xAF", "utf-8", fffd + fffd, 2},                       // overlong
      {"\xF4\x90\x80\x80", "utf-8", fffd + fffd + fffd + fffd, 4}, // > U+10FFFF
      {"\xFF", "utf-8", fffd, 1},
      {"x\xF0\x9F\x98\x80y", "utf-8", "x\xF0\x9F\x98\x80y", 0},
      {"h\0i"s, "utf-16le", "h" + fffd, 1},                         // odd byte at the end
      {"\x00\xD8\x41\x00"s, "utf-16le", fffd + "A", 2},             // lone lead surrogate
      {"\x3D\xD8\x00\xDE"s, "utf-16le", "\xF0\x9F\x98\x80", 0},      // a pair
      {"\xDC\x00"s, "utf-16be", fffd, 2},                            // lone trail surrogate
      {"caf\xE9", "windows-1252", "caf\xC3\xA9", 0},
      {"caf\xE9", "ascii", "caf\xC3\xA9", 0},                        // "ascii" reads 8-bit bytes as windows-1252
      {"\x82\xA0\x82", "shift_jis", "\xE3\x81\x82" + fffd, 1},       // あ then a truncated lead byte
      {"\xAA", "iso-8859-16", "\xC8\x98", 0},                        // from the generated table: Ș
      {"\xD9", "windows-1255", fffd, 1},                             // undefined in windows-1255
      {"\x80\xFF", "x-user-defined", "\xEF\x9E\x80\xEF\x9F\xBF", 0},
      {"", "utf-8", "", 0},
      {"", "shift_jis", "", 0},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in, c.enc);
    std::string out = "prefix:";
    conversion_result r = convert_to_utf8(c.in, c.enc, out);
    CHECK(r.st == status::ok);
    CHECK(out == "prefix:" + c.out);  // appends
    CHECK(r.replaced_bytes == c.replaced);
    CHECK(r.input_bytes == c.in.size());
    CHECK(r.output_bytes == c.out.size());
  }
  std::string out;
  CHECK(convert_to_utf8("abc", "no-such-encoding", out).st == status::unknown_encoding);
  CHECK(convert_to_utf8("abc", "johab", out).st == status::unknown_encoding);
  CHECK(out.empty());
  CHECK(convert_to_utf8(nullptr, 3, "utf-8", out).st == status::invalid_argument);
  CHECK(convert_to_utf8(nullptr, 0, "utf-8", out).st == status::ok);
  // Encodings outside WHATWG that ICU (or a generated table) decodes.
  CHECK(to_utf8("\xA0", "ibm852") == "\xC3\xA1");          // á
  CHECK(to_utf8("\x80", "ibm862") == "\xD7\x90");          // א
  CHECK(to_utf8("\x80", "ibm737") == "\xCE\x91");          // Α
  CHECK(to_utf8("\x84", "x-mac-ce") == "\xC4\x84");        // Ą
  CHECK(to_utf8("\xC0", "georgian-academy") == "\xE1\x83\x90");  // ა
  CHECK(to_utf8("\x02", "viscii") == "\xE1\xBA\xB2");      // Ẳ
  CHECK(to_utf8("\x1B$)C\x0E\x30\x21\x0F", "iso-2022-kr") == "\xEA\xB0\x80");  // 가
  CHECK(to_utf8("a\0\0\0"s, "utf-32le") == "a");
}

TEST_CASE("streaming conversion equals one-shot conversion for every split") {
  const std::vector<std::pair<std::string, std::string>> samples = {
      {data_file("ja.utf-8.txt").substr(0, 60) + "\xE2\x82" + "x\xF0\x9F\x98\x80\xC3", "utf-8"},
      {data_file("ja.shift_jis.txt").substr(0, 50) + "\x82", "shift_jis"},
      {data_file("ja.euc-jp.txt").substr(0, 50), "euc-jp"},
      {data_file("zh.gb18030.txt").substr(0, 50) + "\x81\x30\x81\x30", "gb18030"},
      {data_file("ko.euc-kr.txt").substr(0, 50), "euc-kr"},
      {data_file("fr.utf-16le.txt").substr(0, 40) + "\x3D\xD8\x00\xDE\x00\xD8"s + "A", "utf-16le"},
      {data_file("ja.utf-16be.txt").substr(0, 40) + "\xD8\x3D"s, "utf-16be"},
      {"\x1B$B$3$l$O\x1B(B test \x1B$BF|K\\8l\x1B(B", "iso-2022-jp"},
      {data_file("ru.windows-1251.txt").substr(0, 40), "windows-1251"},
      {data_file("fr.utf-32le.txt").substr(0, 41), "utf-32le"},
  };
  for (const auto& [bytes, enc] : samples) {
    CAPTURE(enc);
    std::string whole;
    conversion_result one = convert_to_utf8(bytes, enc, whole);
    REQUIRE(one.st == status::ok);
    CHECK(valid_utf8(whole));
    utf8_converter c;
    REQUIRE(c.open(enc) == status::ok);
    CHECK(c.encoding() == canonical_encoding_name(enc));
    for (std::size_t i = 0; i <= bytes.size(); ++i) {
      std::string out;
      conversion_result a = c.convert(std::string_view(bytes).substr(0, i), false, out);
      conversion_result b = c.convert(std::string_view(bytes).substr(i), true, out);
      CAPTURE(i);
      CHECK(out == whole);
      CHECK(a.replaced_bytes + b.replaced_bytes == one.replaced_bytes);
      CHECK(a.input_bytes + b.input_bytes == bytes.size());
    }
    // one byte at a time, then an empty last chunk
    std::string out;
    std::size_t replaced = 0;
    for (char ch : bytes) replaced += c.convert(std::string_view(&ch, 1), false, out).replaced_bytes;
    replaced += c.convert({}, true, out).replaced_bytes;
    CHECK(out == whole);
    CHECK(replaced == one.replaced_bytes);
  }
  // move, reset, misuse
  utf8_converter a;
  std::string out;
  CHECK(a.convert("x", true, out).st == status::unknown_encoding);
  CHECK(a.open("bogus") == status::unknown_encoding);
  CHECK_FALSE(a.is_open());
  REQUIRE(a.open("utf-8") == status::ok);
  a.convert("\xE3\x81", false, out);
  utf8_converter b = std::move(a);
  b.convert("\x82", true, out);
  CHECK(out == "\xE3\x81\x82");
  b.convert("\xE3\x81", false, out);
  b.reset();
  out.clear();
  b.convert("ok", true, out);
  CHECK(out == "ok");
}

TEST_CASE("bad input gets a defined result") {
  SECTION("empty") {
    encoding_result r = detect_encoding("");
    CHECK(r.name == "windows-1252");
    CHECK(r.source == encoding_source::fallback);
    CHECK(r.confidence == 0.0f);
    CHECK(detect_encoding(nullptr, 0).name == "windows-1252");
    decoded_text d = decode_to_utf8("");
    CHECK(d.text.empty());
    CHECK(d.conversion.st == status::empty_input);
    encoding_options o;
    o.fallback = "shift_jis";
    CHECK(detect_encoding("", o).name == "shift_jis");
    o.fallback = "garbage";
    CHECK(detect_encoding("", o).name == "windows-1252");
  }
  SECTION("binary data and NUL bytes") {
    std::string png = "\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0\x5C\x72\xA8\x66"s;
    for (int i = 0; i < 200; ++i) png += static_cast<char>((i * 73 + 11) & 0xFF);
    std::string zip = "PK\x03\x04\x14\0\0\0\x08\0"s;
    for (int i = 0; i < 300; ++i) zip += static_cast<char>((i * 151 + 7) & 0xFF);
    std::string nuls(64, '\0');
    for (const std::string& b : {png, zip, nuls, "a\0b\0c"s}) {
      decoded_text d = decode_to_utf8(b);
      CHECK_FALSE(d.encoding.name.empty());
      CHECK(d.conversion.st == status::ok);
      CHECK(valid_utf8(d.text));
      CHECK(d.conversion.replaced_bytes <= b.size());
    }
  }
  SECTION("a multi-byte sequence truncated at the end") {
    std::string t = data_file("ja.utf-8.txt");
    t.pop_back();  // "\n"
    t.pop_back();  // half of "。"
    decoded_text d = decode_to_utf8(t);
    CHECK(d.encoding.name == "utf-8");
    CHECK(d.conversion.replaced_bytes == 2);
    CHECK(d.text.substr(d.text.size() - 3) == "\xEF\xBF\xBD");
    std::string s = data_file("ja.shift_jis.txt");
    s.pop_back();
    s.pop_back();  // half of "。"
    d = decode_to_utf8(s);
    CHECK(d.encoding.name == "shift_jis");
    CHECK(d.conversion.replaced_bytes == 1);
  }
  SECTION("garbage labels in the header and in meta") {
    for (std::string label : {"\x01\x02\xFF"s, std::string(300, 'x'), "utf-8; charset=utf-8"s, "\"\""s, "="s}) {
      encoding_options o;
      std::string ct = "text/html; charset=" + label;
      o.content_type = ct;
      std::string page = "<meta charset=\"" + label + "\">" + k_fr;
      decoded_text d = decode_to_utf8(page, o);
      CHECK(d.conversion.st == status::ok);
      CHECK(valid_utf8(d.text));
    }
  }
  SECTION("100 MB: detection examines at most the cap, conversion completes") {
    const std::string unit = data_file("ru.utf-8.txt");
    std::string big;
    big.reserve(100u << 20);
    while (big.size() + unit.size() <= (100u << 20)) big += unit;
    encoding_options o;
    o.max_detect_bytes = 32 * 1024;
    encoding_result r = detect_encoding(big, o);
    CHECK(r.name == "utf-8");
    CHECK(r.examined_bytes == 32 * 1024);
    decoded_text d = decode_to_utf8(big, o);
    CHECK(d.conversion.st == status::ok);
    CHECK(d.text.size() == big.size());
    CHECK(d.conversion.replaced_bytes == 0);
    // streaming in 1 MB chunks gives the same length without holding a second whole copy
    utf8_converter c;
    REQUIRE(c.open("windows-1251") == status::ok);
    std::size_t out_total = 0;
    std::string out;
    for (std::size_t i = 0; i < big.size(); i += 1u << 20) {
      out.clear();
      std::string_view chunk = std::string_view(big).substr(i, 1u << 20);
      conversion_result cr = c.convert(chunk, i + chunk.size() >= big.size(), out);
      CHECK(cr.st == status::ok);
      out_total += out.size();
    }
    CHECK(out_total > big.size());
  }
}

namespace {

// `text` (UTF-8) in single-byte encoding `enc`, through the reverse of langsift's own decoding
// table (every character must be in the code page).
std::string encode_single_byte(std::string_view text, std::string_view enc) {
  std::vector<std::pair<std::string, char>> table;  // UTF-8 of byte b, b
  for (int b = 0x80; b < 0x100; ++b) {
    std::string u;
    const char c = static_cast<char>(b);
    if (convert_to_utf8(std::string_view(&c, 1), enc, u).replaced_bytes == 0) table.emplace_back(u, c);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      out += text[i++];
      continue;
    }
    bool found = false;
    for (const auto& [u, b] : table)
      if (text.compare(i, u.size(), u) == 0) {
        out += b;
        i += u.size();
        found = true;
        break;
      }
    REQUIRE(found);
  }
  return out;
}

}  // namespace

TEST_CASE("close code pages: short texts decode to their own letters, plain and in HTML") {
  // Each text holds bytes where the close pages of its script read other letters, symbols or
  // controls (windows-1250 / iso-8859-2, windows-1253 / iso-8859-7, windows-1257 / windows-1252,
  // koi8-u / koi8-r, iso-8859-15 / windows-1252, windows-1252 / iso-8859-13, ...).
  struct known {
    const char* text;
    const char* enc;
  };
  const known cases[] = {
      {"Šťastný žák řekl, že ještě neví, kde leží to město.", "windows-1250"},
      {"Šťastný žák řekl, že ještě neví, kde leží to město.", "iso-8859-2"},
      {"Ślusarz powiedział: zażółć gęślą jaźń, a ona się śmiała.", "windows-1250"},
      {"Ślusarz powiedział: zażółć gęślą jaźń, a ona się śmiała.", "iso-8859-2"},
      {"Árvíztűrő tükörfúrógép és egy őszi délután a Dunán.", "iso-8859-2"},
      {"Această ţară îşi păstrează tradiţiile străvechi.", "windows-1250"},
      {"Άνοιξε το παράθυρο και είδε την Αθήνα να ξυπνά.", "windows-1253"},
      {"Άνοιξε το παράθυρο και είδε την Αθήνα να ξυπνά.", "iso-8859-7"},
      {"Šokolaadi ja žürii üle vaieldi terve õhtu Tallinnas.", "windows-1257"},
      {"Užtikrintai sakau, kad Lietuvos žmonės myli savo šalį.", "windows-1257"},
      {"Užtikrintai sakau, kad Lietuvos žmonės myli savo šalį.", "iso-8859-13"},
      {"Її мрія - поїхати до Києва і побачити Дніпро взимку.", "koi8-u"},
      {"Les œufs et le cœur de bœuf coûtent cinq euros.", "iso-8859-15"},
      {"L’été dernier, j’ai vu « Le Cœur » – c’était très beau.", "windows-1252"},
      {"Il-ħajja ta' kuljum f'Malta hija għal kulħadd, u ż-żgħażagħ.", "iso-8859-3"},
      {"Şu güzel ağaçların gölgesinde oturup çay içtik.", "windows-1254"},
  };
  for (const known& k : cases) {
    for (bool html : {false, true}) {
      CAPTURE(k.text, k.enc, html);
      const std::string body = encode_single_byte(k.text, k.enc);
      const std::string bytes =
          html ? "<!DOCTYPE html>\n<html><head><title>Page</title></head><body><p>" + body + "</p></body></html>\n" : body;
      const decoded_text d = decode_to_utf8(bytes);
      const std::string want = html ? "<!DOCTYPE html>\n<html><head><title>Page</title></head><body><p>" +
                                          std::string(k.text) + "</p></body></html>\n"
                                    : std::string(k.text);
      CAPTURE(d.encoding.name);
      CHECK(d.text == want);
    }
  }
}

TEST_CASE("a Latin text with a few 8-bit letters is not read as a double-byte CJK encoding") {
  // Maltese in iso-8859-3: its ħ and għ make byte pairs that Big5 accepts (uchardet answers big5).
  const std::string text = "Ngħaddi issa għall-item li għandna fuq l-aġenda, il-ħidma tal-għaqda.";
  const std::string bytes = encode_single_byte(text, "iso-8859-3");
  const encoding_result r = detect_encoding(bytes);
  CAPTURE(r.name, r.detector_answer);
  CHECK(r.name != "big5");
  CHECK(r.name != "gbk");
  CHECK(r.name != "gb18030");
  CHECK(r.detector_answer == "BIG5");
  CHECK(to_utf8(bytes, r.name) == text);
  // Real CJK text keeps its answer (tests/data/encoding: Big5 and GB18030 pages).
  CHECK(detect_encoding(data_file("zh.big5.txt")).name == "big5");
  CHECK(detect_encoding(data_file("zh.gb18030.txt")).name == "gb18030");
}

namespace {

// UTF-8 (valid) as UTF-16 without BOM.
std::string utf16_of(std::string_view utf8, bool be) {
  std::string out;
  auto put = [&](char32_t u) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
    if (be) out += hi, out += lo;
    else out += lo, out += hi;
  };
  for (std::size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    const int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t u = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len; ++k) u = u << 6 | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    i += static_cast<std::size_t>(len);
    if (u >= 0x10000) {
      put(0xD800 + ((u - 0x10000) >> 10));
      put(0xDC00 + ((u - 0x10000) & 0x3FF));
    } else {
      put(u);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("UTF-16 without BOM: Hangul syllables U+xx00, supplementary ideographs, Thai without spaces") {
  const char* texts[] = {
      // 가 (U+AC00) and 대 (U+B300) end in a zero byte, as ASCII in the wrong byte order does
      "가게 대표가 저 가방을 가져갔다. 대체로 가격이 대단히 비싸다.",
      // 𣬠 𣬶 (U+23B20, U+23B36): surrogate pairs, ideographs of CJK extension B
      "我不喜歡假陽具，我更偏愛真的𣬠𣬶。\n这个句子是什么意思？\n",
      // Thai without a space: every other byte is 0E, no byte is NUL or >= 0x80
      "เธอนี่แขวะฉันเรื่องเสื้อผ้าตลอดเวลา",
  };
  for (const char* t : texts)
    for (bool be : {false, true}) {
      CAPTURE(t, be);
      const std::string bytes = utf16_of(t, be);
      const encoding_result r = detect_encoding(bytes);
      CHECK(r.name == (be ? "utf-16be" : "utf-16le"));
      CHECK(to_utf8(bytes, r.name) == t);
    }
  // 7-bit text with a few control bytes stays ASCII.
  CHECK(detect_encoding("plain text\x01 with \x02 two controls"s).name == "ascii");
}

TEST_CASE("detect_encoding: whole_valid_utf8 only when all of the input was examined and is well-formed UTF-8") {
  const std::string utf8 = "<p>Grüße aus Köln — 東京</p>";
  CHECK(detect_encoding(utf8).whole_valid_utf8);
  CHECK(detect_encoding("plain ASCII text").whole_valid_utf8);
  CHECK(detect_encoding(utf8 + "\xC3").whole_valid_utf8 == false);              // cut inside a sequence
  CHECK(detect_encoding(utf8 + "\xFF" + utf8).whole_valid_utf8 == false);        // an invalid byte
  CHECK(detect_encoding("\xEF\xBB\xBF" + utf8).whole_valid_utf8 == false);       // a BOM decided: not examined
  encoding_options small;
  small.max_detect_bytes = 8;
  CHECK(detect_encoding(utf8, small).whole_valid_utf8 == false);                  // only a prefix examined
  CHECK(detect_encoding(utf8 + "\xED\xA0\x80", encoding_options{}).whole_valid_utf8 == false);  // a surrogate
}

TEST_CASE("decode_to_utf8: well-formed UTF-8 examined whole comes out as it went in, with its counts") {
  const std::string utf8 = "<p>Grüße aus Köln — 東京 𝄞</p>";
  const decoded_text d = decode_to_utf8(utf8);
  CHECK(d.encoding.name == "utf-8");
  CHECK(d.encoding.whole_valid_utf8);
  CHECK(d.text == utf8);
  CHECK(d.conversion.st == status::ok);
  CHECK(d.conversion.input_bytes == utf8.size());
  CHECK(d.conversion.output_bytes == utf8.size());
  CHECK(d.conversion.replaced_bytes == 0);
  // The same text past a prefix examined: converted, the same bytes out.
  encoding_options small;
  small.max_detect_bytes = 16;
  const decoded_text p = decode_to_utf8(utf8, small);
  CHECK_FALSE(p.encoding.whole_valid_utf8);
  CHECK(p.text == utf8);
  CHECK(p.conversion.output_bytes == utf8.size());
}

// The vectorised UTF-8 scan (32-byte blocks, AVX2 where the CPU has it) against the byte-by-byte
// reference: the same counts on well-formed text, on every kind of ill-formed sequence, at every
// offset around the block boundaries.

namespace {

bool same_stats(const langsift::detail::utf8_stats& a, const langsift::detail::utf8_stats& b) {
  return a.multibyte == b.multibyte && a.long_sequences == b.long_sequences && a.invalid == b.invalid &&
         a.nonascii_bytes == b.nonascii_bytes && a.incomplete_tail == b.incomplete_tail;
}

langsift::detail::utf8_stats reference_scan(const std::string& t) {
  return langsift::detail::scan_utf8_bytewise(reinterpret_cast<const unsigned char*>(t.data()), t.size(), 0, {});
}

langsift::detail::utf8_stats fast_scan(const std::string& t) {
  return langsift::detail::scan_utf8(reinterpret_cast<const unsigned char*>(t.data()), t.size());
}

}  // namespace

TEST_CASE("scan_utf8: the 32-byte scan counts as the byte-by-byte one, on text well formed or not") {
  // Pieces: ASCII, each length of valid sequence (the edges of Table 3-7's ranges included), and
  // ill-formed ones: lone continuations, C0/C1 and F5..FF leads, overlongs, surrogates, above
  // U+10FFFF, truncated sequences.
  const std::vector<std::string> valid = {"a", "Hello, world. ", "\xC2\x80", "\xDF\xBF", "\xC3\xA9", "\xE0\xA0\x80",
                                          "\xE2\x82\xAC", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF",
                                          "\xF0\x90\x80\x80", "\xF3\xBF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xD0\x96",
                                          "\xE6\x97\xA5"};
  const std::vector<std::string> invalid = {"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xE0\x9F\xBF",
                                            "\xED\xA0\x80", "\xED\xBF\xBF", "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF",
                                            "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\xFE", "\xC3",
                                            "\xE2\x82", "\xF0\x90\x80", "\xC3\xC3", "\xE2\x82\xE2\x82\xAC"};
  std::uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string t;
    const std::size_t target = next() % 400;
    const unsigned bad_rate = round % 3 == 0 ? 0 : 1 + next() % 50;  // a third well formed
    while (t.size() < target) {
      if (bad_rate && next() % bad_rate == 0) t += invalid[next() % invalid.size()];
      else t += valid[next() % valid.size()];
    }
    INFO("round " << round << ", " << t.size() << " bytes");
    REQUIRE(same_stats(fast_scan(t), reference_scan(t)));
    // Every cut of it: the scan ends at each offset, mid-sequence too.
    if (round % 50 == 0)
      for (std::size_t cut = 0; cut <= t.size(); ++cut) REQUIRE(same_stats(fast_scan(t.substr(0, cut)), reference_scan(t.substr(0, cut))));
  }
  // One error in long well-formed text, at each offset around the first block boundaries: the
  // scan falls back exactly there (and counts what came before it once).
  std::string base;
  while (base.size() < 200) base += "Zi\xC3\xABn \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 ";
  for (std::size_t at = 0; at < 140; ++at)
    for (const std::string& bad : {std::string("\xFF"), std::string("\xC3"), std::string("\xE2\x82"), std::string("\xED\xA0\x80")}) {
      const std::string t = base.substr(0, at) + bad + base.substr(at);
      INFO("error at " << at);
      REQUIRE(same_stats(fast_scan(t), reference_scan(t)));
    }
  // A sequence cut at the end of a block and followed by a block of ASCII (which the scan does not
  // check byte by byte).
  for (const std::string& cut : {std::string("\xC3"), std::string("\xE2\x82"), std::string("\xF0\x90\x80"), std::string("\xE2")})
    for (std::size_t pad = 0; pad < 4; ++pad) {
      const std::string t = std::string(32 - cut.size() + pad, 'a') + "\xC3\xA9" + std::string(20, 'b') + cut + std::string(96, 'c');
      const std::string u = std::string(64 - cut.size(), 'a') + cut + std::string(64, 'c');
      INFO(cut.size() << " bytes cut, pad " << pad);
      REQUIRE(same_stats(fast_scan(t), reference_scan(t)));
      REQUIRE(same_stats(fast_scan(u), reference_scan(u)));
      CHECK(reference_scan(u).invalid == 1);
    }
  // Well formed: the counts are the text's.
  const langsift::detail::utf8_stats s = fast_scan(base);
  CHECK(s.invalid == 0);
  CHECK(s.multibyte > 0);
}
