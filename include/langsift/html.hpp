// langsift — HTML text extraction: UTF-8 HTML in, clean UTF-8 text out (plus title, language
// declarations, out-links with anchor text, and an optional main-content selection).
// No third-party dependencies; part of langsift::core. See docs/html.md.
//
//   langsift::html_result r = langsift::extract_html(page, {.base_url = url, .main_content = true});
//   r.text      "Headline\nFirst paragraph ...\n..."   (one line per block, whitespace collapsed)
//   r.html_lang "de"; r.links[i].url "https://example.com/a"; r.links[i].text "anchor text"
//
// What is dropped: tags; comments (also unterminated ones, "<!...>" and "<?...>"); doctype; CDATA;
// the content of script, style, noscript, template, textarea, iframe, noembed, noframes, and of
// svg and math (icons, formulas). title goes to `title`, not to `text`; img alt goes nowhere
// except as the anchor text of a link that has no other text. Text inside select/option and
// button is kept in full-text mode (each on its own line) and dropped by the main-content rules.
//
// Invalid UTF-8: each maximal invalid subsequence becomes one U+FFFD (counted in
// `invalid_sequences`), so the output is always valid UTF-8 and word boundaries stay visible.
// NUL and other C0/C1 controls, U+FEFF and U+00AD (soft hyphen) are dropped from the text
// (NUL in xmp, plaintext, title and attribute values becomes U+FFFD, as the HTML tokenizer makes
// it there); Unicode spaces (U+00A0, U+2000-200A, U+3000...) count as whitespace.
//
// Cost: one forward pass; every input byte is examined a bounded number of times (see the
// comment above html_extractor), and memory is bounded by the input size plus the caps below.
//
// The parts: html/types.hpp (options, blocks, result), html/extract.hpp (the entry points),
// html/main_content.hpp (the main-content rules). The extractor and its tables (character classes,
// tag and attribute tables, character references) are private: impl/html/extractor.hpp and
// impl/html/tables.hpp.
#pragma once

#include "langsift/common.hpp"
#include "langsift/html/extract.hpp"
#include "langsift/html/main_content.hpp"
#include "langsift/html/types.hpp"
#include "langsift/uri.hpp"
