// langsift — the whole pipeline for one fetched page: body bytes (any encoding) → UTF-8 →
// (HTML → text) → languages. Used by `langsift detect`, `langsift warc` and the C ABI.
//
//   langsift::page_options o;
//   o.content_type = "text/html; charset=iso-8859-1";   // the HTTP header, if any
//   o.url = "http://example.de/a";                      // its ccTLD is a (weak) hint
//   langsift::page_result r = langsift::detect_page(langsift::default_model(), body, o);
//   r.detection.language(), r.encoding.name, r.is_html
//
// Needs langsift::encoding (ICU, uchardet) at link time. Thread safety: as detect() — the model
// is shared read-only; nothing else is shared. Only std::bad_alloc escapes.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {

enum class page_kind : unsigned char { sniff, html, text };

struct page_options {
  std::string_view content_type;      ///< HTTP Content-Type ("text/html; charset=..."), may be empty
  std::string_view content_language;  ///< HTTP Content-Language, may be empty
  std::string_view url;               ///< the page's URL (absolute), may be empty: its host's TLD is a hint
  std::string_view encoding;          ///< force this encoding (a label), skipping detection; empty or
                                      ///< a label no converter knows: detect (encoding.declared_overridden)
  page_kind kind = page_kind::sniff;  ///< sniff: text/plain Content-Type → text, else HTML if it looks like it
  bool main_content = false;          ///< HTML: only the main-content blocks
  encoding_options encoding_opts{};   ///< caps of encoding detection (content_type is filled from above)
  detect_options detect{};            ///< detection settings; page hints are added to detect.hints
};

struct page_result {
  langsift::detection detection;  ///< languages (views into the model's codes)
  encoding_result encoding;       ///< the encoding decided, and by what (bom/http/meta/detected/default)
  conversion_result conversion;   ///< replaced bytes; st = unknown_encoding when decoded by the fallback
  bool is_html = false;           ///< the body went through the HTML extractor
  std::string html_lang;          ///< <html lang>, if any
};

namespace detail {

/// True when more than 1 in 20 of the first 8 KB of decoded text are C0 control characters other
/// than whitespace (TAB LF VT FF CR) and ESC: images, archives, executables decoded as some
/// single-byte encoding. Text in any encoding langsift decodes has (almost) none.
inline bool looks_binary(std::string_view utf8) noexcept {
  const std::size_t n = std::min<std::size_t>(utf8.size(), 8192);
  std::size_t controls = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x20 && (c < 0x09 || c > 0x0d) && c != 0x1b) ++controls;
  }
  return n > 0 && controls * 20 > n;
}

}  // namespace detail

/// Runs one page body through the pipeline. A body that is not text (detail::looks_binary) is
/// `und` with status binary_input. Never throws except std::bad_alloc.
inline page_result detect_page(const model& m, std::string_view body, const page_options& o = {}) {
  page_result r;
  std::string text;
  if (o.encoding.empty() || !can_convert(o.encoding)) {  // an unknown forced label: detect
    encoding_options eo = o.encoding_opts;
    eo.content_type = o.content_type;
    decoded_text d = decode_to_utf8(body, eo);
    r.encoding = std::move(d.encoding);
    r.conversion = d.conversion;
    text = std::move(d.text);
    if (!o.encoding.empty()) {
      r.encoding.declared = std::string(o.encoding);
      r.encoding.declared_overridden = true;
    }
  } else {
    r.encoding.name = std::string(canonical_encoding_name(o.encoding));
    r.encoding.source = encoding_source::http;
    r.encoding.declared = std::string(o.encoding);
    r.conversion = convert_to_utf8(body, r.encoding.name, text);
  }
  if (detail::looks_binary(text)) {
    r.detection.text_bytes = 0;
    r.detection.st = status::binary_input;
    return r;
  }
  bool html = o.kind == page_kind::html;
  if (o.kind == page_kind::sniff) {
    const bool plain = o.content_type.find("text/plain") != std::string_view::npos;
    html = !plain && looks_like_html(text);
  }
  r.is_html = html;
  detect_options opt = o.detect;
  if (!o.content_language.empty()) opt.hints.content_language = o.content_language;
  if (!o.url.empty() && opt.hints.tld.empty()) {
    if (auto u = parse_uri(o.url)) opt.hints.tld = u->host;
  }
  if (!html) {
    r.detection = langsift::detect(m, text, opt);
    return r;
  }
  html_options ho;
  ho.main_content = o.main_content;
  ho.collect_links = false;
  const html_result h = extract_html(text, ho);
  r.html_lang = h.html_lang;
  opt.hints.html_lang = r.html_lang;
  if (opt.hints.content_language.empty()) opt.hints.content_language = h.content_language;
  r.detection = langsift::detect(m, h.text, opt);
  return r;
}

}  // namespace v1
}  // namespace langsift
