// langsift — what the HTML extractor returns (part of langsift/html.hpp): the options, the text
// blocks with their features, and the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"

namespace langsift {
inline namespace v1 {

/// An out-link: an absolute http(s) URL without fragment, and its anchor text.
struct html_link {
  std::string url;   ///< resolved against `base_url`; fragment removed
  std::string text;  ///< anchor text, whitespace-collapsed (an image's alt if it has no text)
};

struct html_options {
  std::string_view base_url;        ///< the page's URL; relative links need it (or a <base href>)
  bool main_content = false;        ///< keep only the main-content blocks (see mark_main_content)
  bool collect_links = true;        ///< fill html_result::links
  std::size_t max_input_bytes = 16u << 20;  ///< larger inputs: only this prefix is processed
  std::size_t max_links = 10000;    ///< links after this many are not collected
};

/// Bits of html_block::flags: where the block's first character was.
enum html_block_flag : std::uint32_t {
  html_block_boilerplate = 1u << 0,   ///< in nav, aside, footer, menu, dialog, search, a page-level
                                      ///< header, or an ARIA role of those kinds
  html_block_hint_boilerplate = 1u << 1,  ///< in an element whose id/class/role names boilerplate
                                          ///< (menu, sidebar, footer, share, related...) or `hidden`
  html_block_hint_consent = 1u << 2,  ///< ... names a cookie/consent banner (cookie, consent, gdpr)
  html_block_article = 1u << 3,       ///< in article, main, role=main, or id/class naming content
  html_block_anchor = 1u << 4,        ///< starts inside a link
  html_block_heading = 1u << 5,       ///< in h1-h6 (level in html_block::heading)
  html_block_list_item = 1u << 6,     ///< in li, dt or dd
  html_block_pre = 1u << 7,           ///< in pre
  html_block_quote = 1u << 8,         ///< in blockquote
  html_block_caption = 1u << 9,       ///< in figcaption or caption
  html_block_form = 1u << 10,         ///< in form
  html_block_control = 1u << 11,      ///< in select, button or label
  html_block_table = 1u << 12,        ///< in a table cell
  html_block_title = 1u << 13,        ///< a heading that repeats the <title> (set by mark_main_content)
};

/// One text block (the text between two block boundaries) with the shallow features the
/// main-content rules use.
struct html_block {
  std::size_t begin = 0, end = 0;  ///< [begin, end) in the text before main-content selection
  std::uint32_t words = 0;         ///< words; in scripts written without spaces, 2 characters = 1 word
  std::uint32_t linked_words = 0;  ///< words inside <a href>
  std::uint32_t chars = 0;         ///< code points
  std::uint32_t stops = 0;         ///< sentence punctuation (. ! ? and their CJK forms)
  std::uint32_t lines = 1;         ///< lines: 1 + line breaks inside the block (<br>, <pre>)
  std::uint32_t flags = 0;         ///< html_block_flag bits
  std::uint32_t container = 0;     ///< the innermost boilerplate container (nav, aside, footer,
                                   ///< "sidebar"...) the block is in: 1, 2... in document order; 0: none
  std::uint8_t heading = 0;        ///< 1-6 inside <h1>-<h6>, else 0
  bool kept = true;                ///< main-content decision (true unless mark_main_content dropped it)

  double link_density() const noexcept { return words ? double(linked_words) / words : 0.0; }
};

struct html_result {
  std::string text;  ///< UTF-8; blocks separated by '\n', whitespace runs as one space, no
                     ///< leading/trailing space on a line, no empty lines, no trailing '\n'
  std::string title;             ///< first <title>, entity-decoded, whitespace-collapsed
  std::string html_lang;         ///< <html lang> (or xml:lang), trimmed
  std::string content_language;  ///< <meta http-equiv="content-language" content>, trimmed
  std::string base_url;          ///< effective base: first <base href> resolved, else the page URL
  std::vector<html_link> links;  ///< out-links in document order (duplicates kept)
  std::vector<html_block> blocks;  ///< every text block, in order (also in main-content mode)
  status st = status::empty_input;  ///< ok; truncated (input over the cap); empty_input (no input
                                    ///< or no text; title etc. may still be set)
  std::size_t invalid_sequences = 0;  ///< invalid UTF-8 sequences replaced by U+FFFD
  bool is_ok() const noexcept { return st == status::ok; }

  std::string scratch;  ///< internal: a buffer reused between calls; not part of the result
};

}  // namespace v1
}  // namespace langsift
