// langsift — the whole pipeline for one fetched page: body bytes (any encoding) → UTF-8 →
// (HTML → text) → languages. Used by `langsift detect`, `langsift warc` and the C ABI.
//
//   langsift::page_options o;
//   o.content_type = "text/html; charset=iso-8859-1";   // the HTTP header, if any
//   o.url = "http://example.de/a";                      // its ccTLD is a (weak) hint
//   langsift::page_result r = langsift::detect_page(langsift::default_model(), body, o);
//   r.detection.language(), r.encoding.name, r.is_html
//
// Compiled into langsift::page (src/page/page.cpp; it links langsift::encoding: ICU, uchardet). Thread safety: as detect() — the model
// is shared read-only; nothing else is shared. Nothing escapes: running out of memory is the
// status out_of_memory.
#pragma once

#include <string>
#include <string_view>

#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "langsift/unicode.hpp"
#include "langsift/uri.hpp"

// Symbols of the compiled langsift::page library (built with hidden visibility).
#if defined(_WIN32)
#define LANGSIFT_PAGE_API
#elif defined(__GNUC__) || defined(__clang__)
#define LANGSIFT_PAGE_API __attribute__((visibility("default")))
#else
#define LANGSIFT_PAGE_API
#endif

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
  /// HTML: at most this many bytes of the decoded page go through the extractor (html_options::
  /// max_input_bytes); the rest is not read, and the detection's status says `truncated`. Callers
  /// that bound the body themselves (the tools: --max-input-bytes, --max-record-bytes) raise it.
  std::size_t max_html_bytes = html_options{}.max_input_bytes;
  encoding_options encoding_opts{};   ///< caps of encoding detection (content_type is filled from above)
  detect_options detect{};            ///< detection settings; page hints are added to detect.hints
  /// Keep the text that was classified in page_result::text (it costs the text's memory for as
  /// long as the result lives; without it the text is freed once detected).
  bool keep_text = false;
};

struct page_result {
  langsift::detection detection;  ///< languages (views into the model's codes)
  encoding_result encoding;       ///< the encoding decided, and by what (bom/http/meta/detected/default)
  conversion_result conversion;   ///< replaced bytes; st = unknown_encoding when decoded by the fallback
  bool is_html = false;           ///< the body went through the HTML extractor
  std::string html_lang;          ///< <html lang>, if any
  /// C0 control characters (not whitespace or ESC) dropped before extraction and detection: only
  /// for a page that declares its encoding and starts control-heavy without being so as a whole
  /// (NUL padding in front of the text); see detect_page.
  std::size_t dropped_controls = 0;
  /// With page_options::keep_text: the text the languages were detected in, UTF-8 — the HTML
  /// extractor's text (extract_html: one line per block; with main_content, the main content's), or
  /// the decoded body when it is not HTML; empty for a body that is not text (binary_input). The
  /// same text as extract_page_text() gives.
  std::string text;
};

/// The text of a page, as detect_page examines it, without detecting its languages.
struct page_text {
  std::string text;             ///< see page_result::text
  encoding_result encoding;     ///< the encoding decided, and by what
  conversion_result conversion; ///< replaced bytes...
  bool is_html = false;         ///< the body went through the HTML extractor
  std::string html_lang;        ///< <html lang>, if any
  /// ok; binary_input (not text: no text); truncated (an HTML page longer than max_html_bytes: the
  /// text of its first max_html_bytes); empty_input; out_of_memory (no text).
  status st = status::ok;
};

/// Runs one page body through the pipeline. A body that is not text is `und` with status
/// binary_input: more than 1 in 20 of the first 8 KB of decoded text are C0 control characters
/// (not whitespace or ESC), decided on a prefix (`conversion` then covers that prefix). When the
/// page declares its encoding (BOM, HTTP charset, <meta> charset, or `encoding`), a control-heavy
/// start makes it binary only if the whole decoded body is control-heavy too; otherwise its
/// controls are dropped (`dropped_controls`) and it is read as text. An HTML page longer than
/// `max_html_bytes` is read up to there and its detection says `truncated`.
/// Memory: a UTF-8 or 7-bit body is used in place (no copy); other bodies are decoded once. Never
/// throws: when memory runs out, the detection is `und` with status out_of_memory.
LANGSIFT_PAGE_API page_result detect_page(const model& m, std::string_view body, const page_options& o = {}) noexcept;

/// The text of a page body: decoded to UTF-8 as detect_page decodes it (`o.content_type`,
/// `o.encoding`, `o.encoding_opts`), then, for HTML (`o.kind`; sniffed by default), the HTML
/// extractor's text (`o.main_content`: the main content only). Byte for byte the text detect_page
/// with keep_text gives, and, for HTML, what `langsift text [--main]` prints for the body (without
/// its final newline). `o.detect` and `o.keep_text` are not used. Never throws.
LANGSIFT_PAGE_API page_text extract_page_text(std::string_view body, const page_options& o = {}) noexcept;

}  // namespace v1
}  // namespace langsift
