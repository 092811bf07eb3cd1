// langsift — the HTML extractor's entry points (part of langsift/html.hpp): one forward pass over
// UTF-8 HTML that writes the text blocks, title, language declarations and links. The extractor
// itself is private (langsift/impl/html/extractor.hpp).
#pragma once

#include <string>
#include <string_view>

#include "langsift/common.hpp"
#include "langsift/html/types.hpp"

namespace langsift {
inline namespace v1 {

/// Extracts text, title, language declarations and links from UTF-8 HTML.
html_result extract_html(std::string_view html, const html_options& options = {});

/// Same, into `out`, whose buffers are reused: once warmed up on pages of similar size, no
/// allocation per document. `html` and `options.base_url` must not point into `out`.
void extract_html(std::string_view html, const html_options& options, html_result& out);

/// Cheap sniff for "is this HTML rather than plain text": a doctype, comment or common tag
/// (<html <head <body <p <div <br <a <table <title <meta <script...) within the first 1024 bytes.
bool looks_like_html(std::string_view bytes) noexcept;

/// Decodes character references (all WHATWG named ones, numeric ones with the WHATWG
/// replacements). With `attribute`, legacy names without ';' followed by '=' or an alphanumeric
/// stay as they are ("?a=1&copy=2"). NUL and invalid UTF-8 become U+FFFD; nothing else changes.
std::string decode_html_entities(std::string_view s, bool attribute = false);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/html/extract-inl.hpp"
#endif
