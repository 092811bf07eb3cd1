// A downstream program that uses only the core (no ICU, uchardet or zlib), built both ways: linked
// with langsift::core, or with langsift::header_only (LANGSIFT_HEADER_ONLY, no langsift library
// linked). Loads a model file, extracts the text of an HTML page, identifies its language, resolves
// a link, keys URLs (the frontier) and splits a host at its public suffix. Exits 0 only on the
// known answers.
// Usage: core_consumer MODEL_FILE
#include <cstdio>
#include <string>

#include <langsift/detector.hpp>
#include <langsift/frontier.hpp>
#include <langsift/html.hpp>
#include <langsift/model.hpp>
#include <langsift/psl.hpp>
#include <langsift/uri.hpp>
#include <langsift/version.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: core_consumer MODEL_FILE\n");
    return 2;
  }
  langsift::model m;
  std::string error;
  if (langsift::model::load_file(argv[1], m, &error) != langsift::status::ok) {
    std::fprintf(stderr, "core_consumer: cannot load %s: %s\n", argv[1], error.c_str());
    return 1;
  }
  const langsift::html_result html = langsift::extract_html(
      "<html><head><title>Nachrichten</title></head><body><p>Die Kinder spielten im Garten, "
      "w\xc3\xa4hrend ihre Eltern das Abendessen kochten.</p><a href=\"../wetter/\">Wetter</a></body></html>");
  const langsift::detection d = langsift::detect(m, html.text);
  if (d.language() != "de") {
    std::fprintf(stderr, "core_consumer: language %.*s, expected de ('%s')\n", static_cast<int>(d.language().size()),
                 d.language().data(), html.text.c_str());
    return 1;
  }
  const std::string link = langsift::resolve_uri("https://example.de/news/heute/", "../wetter/");
  if (link != "https://example.de/news/wetter/") {
    std::fprintf(stderr, "core_consumer: resolved %s\n", link.c_str());
    return 1;
  }
  if (langsift::url_key("https://example.de/a") == langsift::url_key("https://example.de/b")) {
    std::fprintf(stderr, "core_consumer: url_key collides\n");
    return 1;
  }
  if (langsift::split_domain("news.bbc.co.uk").registered_domain != "bbc.co.uk") {
    std::fprintf(stderr, "core_consumer: split_domain\n");
    return 1;
  }
  std::printf("core_consumer: langsift %s core ok (%zu languages)\n", langsift::version(), m.language_count());
  return 0;
}
