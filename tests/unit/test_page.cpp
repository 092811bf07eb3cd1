// langsift/page.hpp: one fetched page through the whole pipeline, with the HTTP headers' hints.
#include <catch2/catch.hpp>

#include <string>

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
