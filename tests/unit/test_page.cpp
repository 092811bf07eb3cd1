// langsift/page.hpp: one fetched page through the whole pipeline, with the HTTP headers' hints.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/page.hpp"

using namespace langsift;

namespace {

const char kGerman[] = "Die Kinder spielten im Garten, w\xe4hrend ihre Eltern das Abendessen kochten. "
                       "Am Abend gingen alle zusammen spazieren und sprachen \xfc" "ber die Woche.";

}  // namespace

TEST_CASE("detect_page: a windows-1252 body declared by Content-Type") {
  const std::string body = std::string("<html><head><title>T</title><script>var x = 1;</script></head><body><p>") +
                           kGerman + "</p></body></html>";
  page_options o;
  o.content_type = "text/html; charset=ISO-8859-1";
  const page_result r = detect_page(default_model(), body, o);
  CHECK(r.encoding.name == "windows-1252");
  CHECK(r.encoding.source == encoding_source::http);
  CHECK(r.conversion.replaced_bytes == 0);
  CHECK(r.is_html);
  CHECK(r.detection.language() == "de");
  CHECK(r.detection.languages[0].percent >= 95);
}

TEST_CASE("detect_page: text/plain is not parsed as HTML, and a forced encoding is used as given") {
  const std::string body = std::string("<p>") + kGerman;
  page_options o;
  o.content_type = "text/plain";
  o.encoding = "latin1";
  const page_result r = detect_page(default_model(), body, o);
  CHECK_FALSE(r.is_html);
  CHECK(r.encoding.name == "windows-1252");
  CHECK(r.detection.language() == "de");
  page_options h;
  h.kind = page_kind::html;
  CHECK(detect_page(default_model(), "<b>bold</b>", h).is_html);
}

TEST_CASE("detect_page: <html lang>, Content-Language and the URL's TLD are hints") {
  // "nyheter" (news) is Swedish and Norwegian Bokmål: alone it is Swedish; hints decide.
  const page_result tagged = detect_page(default_model(), "<html lang=\"nb-NO\"><body><p>nyheter</p></body></html>");
  CHECK(tagged.html_lang == "nb-NO");
  CHECK(tagged.detection.language() == "nb");
  page_options text;
  text.kind = page_kind::text;
  CHECK(detect_page(default_model(), "nyheter", text).detection.language() == "sv");
  page_options header = text;
  header.content_language = "nb";
  CHECK(detect_page(default_model(), "nyheter", header).detection.language() == "nb");
  page_options url = text;
  url.url = "https://www.example.no/nyheter";
  CHECK(detect_page(default_model(), "nyheter", url).detection.language() == "nb");
  // A hint does not overrule clear text.
  CHECK(detect_page(default_model(), "Die Kinder spielten im Garten.", header).detection.language() == "de");
}

TEST_CASE("detect_page: empty, binary and undecodable bodies give an answer, not an error") {
  const page_result e = detect_page(default_model(), std::string_view());  // null data, size 0
  CHECK(e.detection.language() == "und");
  CHECK(e.detection.st == status::empty_input);
  const std::string binary("\x00\x01\x02\xff\xfe\x00\x89PNG\r\n\x1a\n\x00\x00", 16);
  const page_result b = detect_page(default_model(), binary);
  CHECK(b.detection.language() == "und");
  CHECK(b.detection.st == status::binary_input);
  CHECK_FALSE(b.detection.is_ok());
  std::string png = "\x89PNG\r\n\x1a\n";
  for (int i = 0; i < 2000; ++i) png.push_back(static_cast<char>((i * 7919 + 13) % 251));  // compressed-looking bytes
  CHECK(detect_page(default_model(), png).detection.st == status::binary_input);
  // A few control characters in real text are not enough.
  std::string text = std::string(kGerman) + "\x01\x02" + kGerman;
  CHECK(detect_page(default_model(), text).detection.language() == "de");
  CHECK(detect_page(default_model(), text).detection.is_ok());
  CHECK(detect_page(default_model(), text).conversion.is_ok());
  // A forced encoding that no converter knows: detected instead, and the result says so.
  page_options o;
  o.encoding = "no-such-encoding";
  const page_result u = detect_page(default_model(), std::string(kGerman), o);
  CHECK(u.encoding.declared == "no-such-encoding");
  CHECK(u.encoding.declared_overridden);
  CHECK(u.encoding.name == "windows-1252");
  CHECK(u.detection.language() == "de");
}

TEST_CASE("detect_page: HTML over max_html_bytes is read in part and says truncated, a raised cap reads it all") {
  // French, then German past the cap: with the cap, only French is seen, and the status says so
  // (before the fix the page came out "fr 100 %" with status ok).
  std::string body = "<html><body><p>";
  while (body.size() < 5000) body += "Le chat dort sur le canap\xc3\xa9 pendant que la pluie tombe sur la ville. ";
  body += "</p><p>";
  while (body.size() < 11000) body += "Der schnelle braune Fuchs springt \xc3\xbc" "ber den faulen Hund im Garten. ";
  body += "</p></body></html>";
  page_options o;
  o.max_html_bytes = 4000;
  const page_result cut = detect_page(default_model(), body, o);
  CHECK(cut.detection.language() == "fr");
  CHECK(cut.detection.count == 1);
  CHECK(cut.detection.st == status::truncated);
  o.max_html_bytes = body.size();
  const page_result whole = detect_page(default_model(), body, o);
  CHECK(whole.detection.st == status::ok);
  REQUIRE(whole.detection.count == 2);
  CHECK(whole.detection.language() == "de");
  // The default cap (16 MiB) is html_options' own.
  CHECK(page_options{}.max_html_bytes == html_options{}.max_input_bytes);
}

namespace {

std::string read_bytes(const std::string& path, std::size_t max = std::string::npos) {
  std::ifstream f(path, std::ios::binary);
  std::string out((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (out.size() > max) out.resize(max);
  return out;
}

/// A German news page of about `bytes` bytes in UTF-8 (with <meta charset> when `meta`).
std::string german_page(std::size_t bytes, bool meta) {
  static const char* const s[] = {"Der Stadtrat hat am Dienstag den Haushalt f\xc3\xbcr das kommende Jahr beschlossen. ",
                                  "Die Stra\xc3\x9f" "enbahn f\xc3\xa4hrt wieder nach dem gewohnten Fahrplan. ",
                                  "Im Museum er\xc3\xb6" "ffnet n\xc3\xa4" "chste Woche eine Ausstellung \xc3\xbc" "ber alte Karten. ",
                                  "Viele B\xc3\xbcrger kamen zur Versammlung in der Turnhalle der Grundschule. "};
  std::string page = std::string("<!DOCTYPE html><html><head>") + (meta ? "<meta charset=\"utf-8\">" : "") +
                     "<title>Nachrichten</title></head><body>\n";
  for (std::size_t i = 0; page.size() < bytes; ++i) page += std::string(i % 5 ? "" : "<p>") + s[(i * 7) % 4];
  return page + "</p></body></html>\n";
}

}  // namespace

TEST_CASE("detect_page: a page behind NUL bytes is read when its charset is declared, a binary file stays binary") {
  // 512 NUL bytes in front of a 127 KB charset=utf-8 German page made it binary_input (the
  // binary check read only the first 8 KB).
  const std::string page = german_page(127000, true), bare = german_page(127000, false);
  const std::string nul(512, '\0');
  page_options http;
  http.content_type = "text/html; charset=utf-8";
  const page_result clean = detect_page(default_model(), page, http);
  REQUIRE(clean.detection.language() == "de");
  CHECK(clean.dropped_controls == 0);
  for (const bool by_http : {true, false}) {  // declared by the HTTP header, or by <meta> only
    INFO("declared by " << (by_http ? "HTTP" : "meta"));
    const page_result r = detect_page(default_model(), nul + page, by_http ? http : page_options{});
    CHECK(r.encoding.source == (by_http ? encoding_source::http : encoding_source::meta));
    CHECK(r.detection.st == status::ok);
    CHECK(r.detection.language() == "de");
    CHECK(r.dropped_controls == 512);
    CHECK(r.detection.text_bytes == clean.detection.text_bytes);
  }
  // Plain text, and a declared single-byte encoding (decoded, not used in place), likewise; the
  // controls count as no text.
  page_options plain;
  plain.content_type = "text/plain; charset=utf-8";
  const std::string text = german_page(60000, false).substr(60);
  const page_result t = detect_page(default_model(), nul + text, plain);
  CHECK(t.detection.language() == "de");
  CHECK(t.dropped_controls == 512);
  CHECK(t.detection.text_bytes == detect_page(default_model(), text, plain).detection.text_bytes);
  page_options latin;
  latin.content_type = "text/html; charset=windows-1252";
  std::string latin_page;
  for (int i = 0; i < 400; ++i) latin_page += kGerman;
  const page_result l = detect_page(default_model(), nul + nul + latin_page, latin);
  CHECK(l.encoding.name == "windows-1252");
  CHECK(l.detection.language() == "de");
  CHECK(l.dropped_controls == 1024);
  // Undeclared, the start decides (as for any body of unknown encoding): binary.
  CHECK(detect_page(default_model(), nul + bare).detection.st == status::binary_input);
  // Declared, but the text after the NUL bytes is short: the whole is control-heavy, binary.
  CHECK(detect_page(default_model(), nul + german_page(2000, true)).detection.st == status::binary_input);
  CHECK(detect_page(default_model(), nul + german_page(2000, true), http).detection.st == status::binary_input);
}

TEST_CASE("detect_page: real binary files served with a text charset stay binary_input") {
  const std::string dir = LANGSIFT_TEST_DATA_DIR;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"gzip", read_bytes(dir + "/warc/sample.warc.gz")},
      {"model", read_bytes(dir + "/../../models/url-linear.bin")},
      {"ELF", read_bytes("/proc/self/exe", std::size_t{1} << 20)},
  };
  for (const auto& [what, bytes] : files) {
    REQUIRE(bytes.size() > 4000);
    for (const char* ct : {"text/html; charset=utf-8", "text/plain; charset=utf-8", "text/html; charset=windows-1252",
                           "text/html; charset=shift_jis", ""}) {
      INFO(what << " (" << bytes.size() << " bytes) as " << ct);
      page_options o;
      o.content_type = ct;
      const page_result r = detect_page(default_model(), bytes, o);
      CHECK(r.detection.st == status::binary_input);
      CHECK(r.detection.language() == "und");
      CHECK(r.dropped_controls == 0);
      // A <meta charset> in front does not make it text either.
      const page_result m = detect_page(default_model(), "<meta charset=\"utf-8\">" + bytes, o);
      CHECK(m.detection.st == status::binary_input);
    }
  }
}

TEST_CASE("detect_page: keep_text gives the text detected, extract_page_text the same without detecting") {
  // HTML in windows-1252: the extractor's text of the decoded page (main content with main_content).
  const std::string html = std::string("<html><head><title>T</title></head><body><nav><a href=/a>Start</a> <a href=/b>"
                                       "Kontakt</a></nav><p>") + kGerman + "</p><p>Zweiter &amp; letzter Absatz.</p></body></html>";
  for (const bool main : {false, true}) {
    INFO("main_content " << main);
    page_options o;
    o.content_type = "text/html; charset=windows-1252";
    o.main_content = main;
    const page_result without = detect_page(default_model(), html, o);
    CHECK(without.text.empty());  // not kept unless asked for
    o.keep_text = true;
    const page_result r = detect_page(default_model(), html, o);
    std::string utf8;
    convert_to_utf8(html, "windows-1252", utf8);
    html_options ho;
    ho.main_content = main;
    CHECK(r.text == extract_html(utf8, ho).text);
    CHECK(r.text.find("Die Kinder spielten im Garten, w\xc3\xa4hrend") != std::string::npos);
    CHECK(r.text.find("Zweiter & letzter Absatz.") != std::string::npos);
    CHECK((r.text.find("Kontakt") == std::string::npos) == main);
    CHECK(r.detection.language() == without.detection.language());
    CHECK(r.detection.text_bytes == without.detection.text_bytes);
    const page_text t = extract_page_text(html, o);
    CHECK(t.text == r.text);
    CHECK(t.st == status::ok);
    CHECK(t.is_html);
    CHECK(t.encoding.name == "windows-1252");
  }
  // Not HTML: the decoded body, as it is (UTF-16 with its BOM dropped; text/plain markup kept).
  page_options o;
  o.keep_text = true;
  const std::string utf16 = std::string("\xff\xfe", 2) + std::string("H\0a\0l\0l\0o\0", 10);
  const page_result r16 = detect_page(default_model(), utf16, o);
  CHECK(r16.text == "Hallo");
  CHECK(extract_page_text(utf16, o).text == "Hallo");
  o.content_type = "text/plain";
  const std::string plain = "<b>nicht HTML</b>\n  zwei  Leerzeichen";
  CHECK(detect_page(default_model(), plain, o).text == plain);
  CHECK(extract_page_text(plain, o).text == plain);
  CHECK_FALSE(extract_page_text(plain, o).is_html);
  // Not text: no text.
  std::string png = "\x89PNG\r\n\x1a\n";
  for (int i = 0; i < 600; ++i) png += static_cast<char>(i * 7 % 32);
  o.content_type = "";
  CHECK(detect_page(default_model(), png, o).text.empty());
  const page_text tp = extract_page_text(png, o);
  CHECK(tp.text.empty());
  CHECK(tp.st == status::binary_input);
  CHECK(extract_page_text("", o).st == status::empty_input);
  // Cut at max_html_bytes: the text of the part read, and said so.
  o.max_html_bytes = 64;
  const page_text cut = extract_page_text(html, o);
  CHECK(cut.st == status::truncated);
  CHECK(cut.text.size() < 64);
}
