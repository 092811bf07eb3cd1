// A downstream program: decodes a windows-1251 HTML page and extracts its text with the
// installed (or add_subdirectory'd) langsift, and identifies its language with the built-in model. Exits 0 only if every stage gives the known answer.
#include <cstdio>
#include <string>

#include <langsift.hpp>
#include <langsift/warc.hpp>         // langsift::warc (zlib)
#include <langsift/warc_report.hpp>  // langsift::page

int main() {
  // "<html><head><meta charset=windows-1251><title>Привет</title></head><body><p>Привет, мир!</p></body></html>"
  const std::string page =
      "<html><head><meta charset=windows-1251><title>\xcf\xf0\xe8\xe2\xe5\xf2</title></head>"
      "<body><p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!</p></body></html>";
  langsift::decoded_text decoded = langsift::decode_to_utf8(page);
  if (decoded.encoding.name != "windows-1251") {
    std::fprintf(stderr, "consumer: encoding %s, expected windows-1251\n", decoded.encoding.name.c_str());
    return 1;
  }
  langsift::html_result html = langsift::extract_html(decoded.text);
  if (html.text != "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82, \xd0\xbc\xd0\xb8\xd1\x80!") {
    std::fprintf(stderr, "consumer: text '%s'\n", html.text.c_str());
    return 1;
  }
  const langsift::detection d = langsift::detect(langsift::default_model(), html.text);
  if (d.language() != "ru") {
    std::fprintf(stderr, "consumer: language %.*s, expected ru\n", static_cast<int>(d.language().size()), d.language().data());
    return 1;
  }
  // The same body through detect_page (langsift::page).
  const langsift::page_result p = langsift::detect_page(langsift::default_model(), page);
  if (p.detection.language() != "ru" || p.encoding.name != "windows-1251") {
    std::fprintf(stderr, "consumer: detect_page gave %.*s in %s, expected ru in windows-1251\n",
                 static_cast<int>(p.detection.language().size()), p.detection.language().data(), p.encoding.name.c_str());
    return 1;
  }
  // A WARC response record, read back through the reader (zlib is linked through langsift::warc).
  const std::string warc = "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 19\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\r\n\r\n";
  langsift::warc_reader reader(warc);
  langsift::warc_record rec;
  langsift::http_response http;
  if (reader.next(rec) != langsift::warc_status::record || !langsift::parse_http_response(rec.block, http) ||
      http.status != 200 || reader.next(rec) != langsift::warc_status::end) {
    std::fprintf(stderr, "consumer: the WARC record was not read back\n");
    return 1;
  }
  // ... and reported as `langsift warc` reports it (langsift::page).
  langsift::warc_statistics stats;
  stats.add(langsift::report_warc_record(langsift::default_model(), rec, {}));
  if (stats.records != 1) {
    std::fprintf(stderr, "consumer: the WARC record was not counted\n");
    return 1;
  }
  std::printf("consumer: langsift %s ok\n", langsift::version());
  return 0;
}
