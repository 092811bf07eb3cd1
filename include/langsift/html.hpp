// langsift — HTML text extraction: UTF-8 HTML in, clean UTF-8 text out (plus title, language
// declarations, out-links with anchor text, and an optional main-content selection).
// Header-only, no third-party dependencies; part of langsift::core. See docs/html.md.
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
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/uri.hpp"

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

  std::string scratch;  ///< internal: a buffer reused between calls; not part of the result
};

/// Extracts text, title, language declarations and links from UTF-8 HTML.
html_result extract_html(std::string_view html, const html_options& options = {});

/// Same, into `out`, whose buffers are reused: once warmed up on pages of similar size, no
/// allocation per document. `html` and `options.base_url` must not point into `out`.
void extract_html(std::string_view html, const html_options& options, html_result& out);

/// The main-content rules (in the spirit of Kohlschütter et al. 2010, see docs/html.md): sets
/// `kept` on each block of `r.blocks` from the blocks' features, `r.text` and `r.title` (and
/// updates the flags it derives: html_block_title, and the boilerplate flags of a "boilerplate"
/// container that turns out to hold most of the page's prose). Does not change `r.text`;
/// extract_html with main_content = true calls it and then keeps only the kept blocks' text.
/// Call it on a full-text result: after main-content extraction the offsets no longer fit.
void mark_main_content(html_result& r) noexcept;

/// Cheap sniff for "is this HTML rather than plain text": a doctype, comment or common tag
/// (<html <head <body <p <div <br <a <table <title <meta <script...) within the first 1024 bytes.
bool looks_like_html(std::string_view bytes) noexcept;

/// Decodes character references (all WHATWG named ones, numeric ones with the WHATWG
/// replacements). With `attribute`, legacy names without ';' followed by '=' or an alphanumeric
/// stay as they are ("?a=1&copy=2"). NUL and invalid UTF-8 become U+FFFD; nothing else changes.
std::string decode_html_entities(std::string_view s, bool attribute = false);

// ================================================================================================
// Implementation.

namespace detail {

struct html_entity {
  std::uint16_t name_offset;
  std::uint8_t name_length;
  std::uint8_t second;  // index into kHtmlEntitySecond, 0 = a single code point
  char32_t first;
};

#include "langsift/detail/html_entities.inc"

// ---- UTF-8 ---------------------------------------------------------------------------------------

inline void append_utf8(std::string& s, char32_t cp) {
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    char b[2] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 2);
  } else if (cp < 0x10000) {
    char b[3] = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                 static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 3);
  } else {
    char b[4] = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                 static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    s.append(b, 4);
  }
}

struct utf8_step {
  char32_t cp;
  unsigned length;  // bytes consumed: the sequence, or the maximal invalid subpart (>= 1)
  bool valid;
};

/// Decodes the sequence at p (p < e, *p >= 0x80). An invalid sequence yields U+FFFD and the
/// length of its maximal subpart (Unicode §3.9, as the WHATWG decoder does).
inline utf8_step decode_utf8(const unsigned char* p, const unsigned char* e) noexcept {
  unsigned c = p[0];
  unsigned need, lo = 0x80, hi = 0xBF;
  char32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    cp = c & 0x0F;
    if (c == 0xE0) lo = 0xA0;
    else if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    cp = c & 0x07;
    if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F;
  } else {
    return {0xFFFD, 1, false};
  }
  for (unsigned i = 1; i <= need; ++i) {
    if (p + i >= e || p[i] < lo || p[i] > hi) return {0xFFFD, i, false};
    cp = (cp << 6) | (p[i] & 0x3F);
    lo = 0x80;
    hi = 0xBF;
  }
  return {cp, need + 1, true};
}

/// Appends `s` with every invalid sequence replaced by U+FFFD; returns the number replaced.
inline std::size_t append_valid_utf8(std::string& out, std::string_view s) {
  std::size_t bad = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    const auto* q = p;
    while (q < e && *q < 0x80) ++q;
    out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(q - p));
    p = q;
    if (p == e) break;
    utf8_step st = decode_utf8(p, e);
    if (st.valid) {
      out.append(reinterpret_cast<const char*>(p), st.length);
    } else {
      out.append("\xEF\xBF\xBD", 3);
      ++bad;
    }
    p += st.length;
  }
  return bad;
}

/// Removes bytes from the end of `s` down to `cap` bytes without splitting a UTF-8 sequence.
inline void truncate_utf8(std::string& s, std::size_t cap) {
  if (s.size() <= cap) return;
  std::size_t n = cap;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
}

// ---- character classes ---------------------------------------------------------------------------

inline constexpr bool is_ascii_alpha(unsigned char c) noexcept {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
inline constexpr bool is_ascii_alnum(unsigned char c) noexcept {
  return is_ascii_alpha(c) || (c >= '0' && c <= '9');
}
inline constexpr bool is_html_space(unsigned char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
inline constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}
inline bool iequals(std::string_view a, std::string_view lower) noexcept {
  if (a.size() != lower.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != lower[i]) return false;
  return true;
}
inline std::string_view trim_html_space(std::string_view s) noexcept {
  while (!s.empty() && is_html_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_html_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

enum class cp_kind : std::uint8_t { visible, space, drop };

/// How a (non-ASCII or decoded) code point is treated in text.
inline constexpr cp_kind classify_cp(char32_t cp) noexcept {
  if (cp < 0x80) {
    if (is_html_space(static_cast<unsigned char>(cp)) || cp == 0x0B) return cp_kind::space;
    if (cp < 0x20 || cp == 0x7F) return cp_kind::drop;
    return cp_kind::visible;
  }
  if (cp <= 0x9F) return cp_kind::drop;                       // C1 controls
  if (cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
      cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000)
    return cp_kind::space;
  if (cp == 0xAD || cp == 0xFEFF) return cp_kind::drop;       // soft hyphen, BOM / ZWNBSP
  return cp_kind::visible;
}

/// Letters of scripts written without spaces between words (Han, Kana, Thai, Lao, Khmer,
/// Myanmar): two of them count as one word in the block features.
inline constexpr bool is_dense_letter(char32_t cp) noexcept {
  return (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x9FFF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x3FFFF) ||
         (cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) ||
         (cp >= 0x1780 && cp <= 0x17FF);
}

/// Code points that make a whitespace-separated token a word (letters, digits, marks...):
/// everything from U+00C0 up except general punctuation, symbols, arrows, CJK punctuation,
/// fullwidth ASCII punctuation and emoji.
inline constexpr bool is_word_cp(char32_t cp) noexcept {
  if (cp < 0x80) return is_ascii_alnum(static_cast<unsigned char>(cp));
  if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7) return false;
  if (cp >= 0x2000 && cp <= 0x2BFF) return false;
  if (cp >= 0x3000 && cp <= 0x303F) return false;
  if (cp >= 0xFE30 && cp <= 0xFE4F) return false;
  if (cp >= 0xFF00 && cp <= 0xFF0F) return false;
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return false;
  return true;
}

inline constexpr bool is_stop_cp(char32_t cp) noexcept {
  return cp == '.' || cp == '!' || cp == '?' || cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F ||
         cp == 0x2026 || cp == 0x0964 || cp == 0x06D4 || cp == 0x061F;
}

// ---- character references ------------------------------------------------------------------------

struct char_ref {
  std::size_t length = 0;  // bytes after '&' consumed; 0: not a reference, '&' is literal text
  char32_t first = 0, second = 0;
};

/// WHATWG numeric character reference replacements.
inline constexpr char32_t numeric_ref_value(std::uint32_t v) noexcept {
  if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
  if (v >= 0x80 && v <= 0x9F) {
    constexpr char16_t w1252[32] = {
        0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D,   0x017D, 0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};
    return w1252[v - 0x80];
  }
  return v;
}

inline int entity_char_at(const html_entity& e, std::size_t k) noexcept {
  return k < e.name_length ? static_cast<unsigned char>(kHtmlEntityNames[e.name_offset + k]) : -1;
}

/// Matches a character reference; `p` points just after the '&'. Named references take the
/// longest table entry that is a prefix of the input (WHATWG "named character reference
/// state"), so "&notit;" is "¬it;" and "&notin;" is "∉". Looks at most 33 bytes ahead.
inline char_ref match_char_ref(const char* p, const char* end, bool attribute) noexcept {
  if (p >= end) return {};
  if (*p == '#') {
    const char* q = p + 1;
    bool hex = false;
    if (q < end && (*q == 'x' || *q == 'X')) {
      hex = true;
      ++q;
    }
    const char* digits = q;
    std::uint32_t v = 0;
    for (; q < end; ++q) {
      unsigned char c = static_cast<unsigned char>(*q);
      unsigned d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
      else break;
      if (v <= 0x10FFFF) v = v * (hex ? 16 : 10) + d;  // saturates above the Unicode range
    }
    if (q == digits) return {};
    if (q < end && *q == ';') ++q;
    return {static_cast<std::size_t>(q - p), numeric_ref_value(v), 0};
  }
  if (!is_ascii_alnum(static_cast<unsigned char>(*p))) return {};
  // Narrow [lo, hi) to the entries whose names start with p[0..k); the table is sorted, so
  // within the range names are ordered by their k-th byte, names of length k first.
  std::size_t lo = 0, hi = kHtmlEntityCount, best = kHtmlEntityCount, best_len = 0;
  for (std::size_t k = 0; k < kHtmlEntityMaxName && p + k < end; ++k) {
    int c = static_cast<unsigned char>(p[k]);
    if (!is_ascii_alnum(static_cast<unsigned char>(c)) && c != ';') break;
    const html_entity* b = kHtmlEntities;
    lo = static_cast<std::size_t>(
        std::lower_bound(b + lo, b + hi, c, [k](const html_entity& e, int v) { return entity_char_at(e, k) < v; }) - b);
    hi = static_cast<std::size_t>(
        std::upper_bound(b + lo, b + hi, c, [k](int v, const html_entity& e) { return v < entity_char_at(e, k); }) - b);
    if (lo >= hi) break;
    if (kHtmlEntities[lo].name_length == k + 1) {
      best = lo;
      best_len = k + 1;
    }
  }
  if (best == kHtmlEntityCount) return {};
  const html_entity& e = kHtmlEntities[best];
  if (p[best_len - 1] != ';' && attribute && p + best_len < end &&
      (p[best_len] == '=' || is_ascii_alnum(static_cast<unsigned char>(p[best_len]))))
    return {};  // "for historical reasons" left alone in attribute values
  return {best_len, e.first, kHtmlEntitySecond[e.second]};
}

/// Decodes character references and repairs UTF-8 into `out` (appending); NUL becomes U+FFFD, as
/// the HTML tokenizer makes it in attribute values and RCDATA. With `collapse`, also collapses
/// whitespace runs to one space, trims, and drops the other controls (for title, alt).
inline std::size_t decode_into(std::string& out, std::string_view in, bool attribute, bool collapse) {
  std::size_t bad = 0;
  const std::size_t start = out.size();
  bool space = false;
  auto put = [&](char32_t cp, const char* bytes, std::size_t n) {
    if (collapse) {
      cp_kind k = classify_cp(cp);
      if (k == cp_kind::drop) return;
      if (k == cp_kind::space) {
        space = out.size() > start;
        return;
      }
      if (space) out.push_back(' ');
      space = false;
    }
    if (bytes) out.append(bytes, n);
    else append_utf8(out, cp);
  };
  const char* p = in.data();
  const char* e = p + in.size();
  while (p < e) {
    // Fast path: a run of ASCII that needs no decoding (and, collapsing, no whitespace).
    const char* q = p;
    if (collapse) {
      while (q < e && static_cast<unsigned char>(*q) >= 0x21 && static_cast<unsigned char>(*q) < 0x7F && *q != '&') ++q;
    } else {
      while (q < e && static_cast<unsigned char>(*q) - 1u < 0x7Fu && *q != '&') ++q;  // 0x01..0x7F
    }
    if (q > p) {
      if (space) out.push_back(' ');
      space = false;
      out.append(p, static_cast<std::size_t>(q - p));
      p = q;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '&') {
      char_ref r = match_char_ref(p + 1, e, attribute);
      if (r.length) {
        put(r.first, nullptr, 0);
        if (r.second) put(r.second, nullptr, 0);
        p += 1 + r.length;
        continue;
      }
      put('&', p, 1);
      ++p;
    } else if (c == 0) {
      put(0xFFFD, "\xEF\xBF\xBD", 3);  // as HTML does in attribute values and RCDATA (title)
      ++p;
    } else if (c < 0x80) {
      put(c, p, 1);
      ++p;
    } else {
      utf8_step st = decode_utf8(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(e));
      if (st.valid) {
        put(st.cp, p, st.length);
      } else {
        put(0xFFFD, "\xEF\xBF\xBD", 3);
        ++bad;
      }
      p += st.length;
    }
  }
  return bad;
}

// ---- tags ----------------------------------------------------------------------------------------

#define LANGSIFT_HTML_TAGS(X)                                                                      \
  X(a) X(abbr) X(address) X(area) X(article) X(aside) X(audio) X(b) X(base) X(bdi) X(bdo) X(big)   \
  X(blockquote) X(body) X(br) X(button) X(canvas) X(caption) X(center) X(cite) X(code) X(col)      \
  X(colgroup) X(dd) X(del) X(details) X(dfn) X(dialog) X(dir) X(div) X(dl) X(dt) X(em) X(embed)    \
  X(fieldset) X(figcaption) X(figure) X(font) X(footer) X(form) X(frame) X(frameset) X(h1) X(h2)   \
  X(h3) X(h4) X(h5) X(h6) X(head) X(header) X(hgroup) X(hr) X(html) X(i) X(iframe) X(img)          \
  X(input) X(ins) X(kbd) X(keygen) X(label) X(legend) X(li) X(link) X(listing) X(main) X(map)      \
  X(mark) X(math) X(menu) X(meta) X(nav) X(nobr) X(noembed) X(noframes) X(noscript) X(object)      \
  X(ol) X(optgroup) X(option) X(p) X(param) X(picture) X(plaintext) X(pre) X(q) X(rp) X(rt)        \
  X(ruby) X(s) X(samp) X(script) X(search) X(section) X(select) X(small) X(source) X(span)         \
  X(strike) X(strong) X(style) X(sub) X(summary) X(sup) X(svg) X(table) X(tbody) X(td)             \
  X(template) X(textarea) X(tfoot) X(th) X(thead) X(time) X(title) X(tr) X(track) X(tt) X(u)       \
  X(ul) X(var) X(video) X(wbr) X(xmp)

enum class html_tag : std::uint8_t {
  unknown,
#define LANGSIFT_X(n) t_##n,
  LANGSIFT_HTML_TAGS(LANGSIFT_X)
#undef LANGSIFT_X
      count
};

struct tag_name_entry {
  std::string_view name;
  html_tag tag;
};

inline constexpr tag_name_entry kTagNames[] = {
#define LANGSIFT_X(n) {#n, html_tag::t_##n},
    LANGSIFT_HTML_TAGS(LANGSIFT_X)
#undef LANGSIFT_X
};

/// A name of up to 16 bytes packed into two integers (zero padded), so that looking a name up
/// in a table costs a few integer comparisons instead of string comparisons.
struct packed_name {
  std::uint64_t lo = 0, hi = 0;
  constexpr bool operator==(const packed_name&) const = default;
  constexpr bool operator<(const packed_name& o) const { return lo != o.lo ? lo < o.lo : hi < o.hi; }
};

/// Packs `s` (at most 16 bytes), lower-casing ASCII letters.
inline constexpr packed_name pack_name(std::string_view s) noexcept {
  packed_name p;
  for (std::size_t i = 0; i < s.size() && i < 16; ++i) {
    std::uint64_t c = static_cast<unsigned char>(ascii_lower(s[i]));
    if (i < 8) p.lo |= c << (8 * i);
    else p.hi |= c << (8 * (i - 8));
  }
  return p;
}

/// A small open-addressing hash map from packed names to values, built at compile time
/// (at most half full, so a lookup is about one probe: cheaper than a binary search, whose
/// branches mispredict on every tag).
template <typename V, std::size_t Slots>
struct packed_map {
  static_assert((Slots & (Slots - 1)) == 0, "Slots must be a power of two");
  packed_name keys[Slots] = {};
  V values[Slots] = {};
  bool used[Slots] = {};

  static constexpr std::size_t slot(packed_name k) noexcept {
    std::uint64_t h = k.lo * 0x9E3779B97F4A7C15ull ^ (k.hi + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h >> 40) & (Slots - 1);
  }
  constexpr void insert(packed_name k, V v) noexcept {
    std::size_t i = slot(k);
    while (used[i]) i = (i + 1) & (Slots - 1);
    keys[i] = k;
    values[i] = v;
    used[i] = true;
  }
  constexpr V find(packed_name k, V none) const noexcept {
    for (std::size_t i = slot(k);; i = (i + 1) & (Slots - 1)) {
      if (!used[i]) return none;
      if (keys[i] == k) return values[i];
    }
  }
};

inline constexpr auto kTagMap = [] {
  packed_map<html_tag, 256> m;
  static_assert(std::size(kTagNames) <= 128);
  for (const auto& e : kTagNames) m.insert(pack_name(e.name), e.tag);
  return m;
}();

/// A tag name of at most 16 bytes (case-insensitive). A NUL byte (U+FFFD in HTML) would vanish
/// in the zero padding of a packed name, so such names are unknown.
inline html_tag lookup_tag(std::string_view name) noexcept {
  if (name.size() > 16 || name.find('\0') != std::string_view::npos) return html_tag::unknown;
  return kTagMap.find(pack_name(name), html_tag::unknown);
}

enum tag_prop : std::uint16_t {
  tp_void = 1,       // no content, no end tag
  tp_block = 2,      // a block boundary at start and end
  tp_push = 4,       // kept on the open-element stack (has structure we track)
  tp_breakout = 8,   // leaves svg/math content (WHATWG "breakout" start tags)
};

inline constexpr std::uint16_t tag_props(html_tag t) noexcept {
  using T = html_tag;
  switch (t) {
    case T::t_area: case T::t_base: case T::t_col: case T::t_embed: case T::t_frame:
    case T::t_input: case T::t_keygen: case T::t_link: case T::t_param: case T::t_source:
    case T::t_track: case T::t_wbr: case T::t_img: case T::t_meta:
      return tp_void | ((t == T::t_embed || t == T::t_img || t == T::t_meta) ? tp_breakout : 0);
    case T::t_br: return tp_void | tp_breakout;
    case T::t_hr: return tp_void | tp_block | tp_breakout;
    case T::t_address: case T::t_article: case T::t_aside: case T::t_button: case T::t_caption:
    case T::t_details: case T::t_dialog: case T::t_fieldset: case T::t_figcaption:
    case T::t_figure: case T::t_footer: case T::t_form: case T::t_header: case T::t_hgroup:
    case T::t_main: case T::t_nav: case T::t_search: case T::t_section: case T::t_select:
    case T::t_summary: case T::t_td: case T::t_th:
      return tp_block | tp_push;
    case T::t_blockquote: case T::t_body: case T::t_dd: case T::t_div: case T::t_dl: case T::t_dt:
    case T::t_h1: case T::t_h2: case T::t_h3: case T::t_h4: case T::t_h5: case T::t_h6:
    case T::t_li: case T::t_menu: case T::t_ol: case T::t_pre: case T::t_table: case T::t_ul:
    case T::t_listing:
      return tp_block | tp_push | tp_breakout;
    case T::t_center: case T::t_head: case T::t_p:
      return tp_block | tp_breakout;
    case T::t_dir: case T::t_frameset: case T::t_html: case T::t_legend: case T::t_optgroup:
    case T::t_option: case T::t_tbody: case T::t_tfoot: case T::t_thead: case T::t_tr:
    case T::t_title: case T::t_xmp: case T::t_plaintext:
      return tp_block;
    // iframe, object, video, audio, canvas, textarea: inline replaced elements; noscript,
    // noembed, noframes: not rendered. None of them breaks a line.
    case T::t_a: case T::t_label: case T::t_template: case T::t_svg: case T::t_math:
      return tp_push;
    case T::t_b: case T::t_big: case T::t_code: case T::t_em: case T::t_i: case T::t_nobr:
    case T::t_ruby: case T::t_s: case T::t_small: case T::t_span: case T::t_strike:
    case T::t_strong: case T::t_sub: case T::t_sup: case T::t_tt: case T::t_u: case T::t_var:
      return tp_breakout;
    default:
      return 0;
  }
}

// Internal counter indices beyond the public html_block_flag bits.
inline constexpr unsigned kSuppressBit = 16;   // template, svg, math: text not rendered
inline constexpr unsigned kForeignBit = 17;    // svg, math: foreign content
inline constexpr unsigned kHeadingBit0 = 18;   // 18..23: h1..h6
inline constexpr unsigned kCounterCount = 24;

/// Hints from id/class tokens (split at non-alphanumerics and lower→upper case changes).
struct class_hints {
  bool boiler = false, consent = false, content = false;
};

enum class hint_kind : std::uint8_t { none, boiler, content };

inline constexpr auto kHintTable = [] {
  constexpr std::string_view boiler[] = {
      // Not "header": in class names it mostly marks a component's header ("entry-header",
      // "question-header", "card-header"), which holds a title; page headers are <header>,
      // "masthead", or made of links.
      "ad", "ads", "advert", "advertisement", "banner", "breadcrumb", "breadcrumbs", "footer",
      "langs", "language", "languages", "login", "masthead", "menu", "menubar", "modal",
      "nav", "navbar", "navigation", "newsletter", "pager", "pagination", "popup", "promo",
      "related", "share", "sharing", "sidebar", "signin", "signup", "skip", "social", "sponsored",
      "subscribe", "tags", "toolbar", "topbar", "widget"};
  constexpr std::string_view content[] = {"article", "content", "entry", "main", "post",
                                          "prose", "story", "text"};
  packed_map<hint_kind, 128> m;
  static_assert(std::size(boiler) + std::size(content) <= 64);
  for (auto b : boiler) m.insert(pack_name(b), hint_kind::boiler);
  for (auto c : content) m.insert(pack_name(c), hint_kind::content);
  return m;
}();

/// `tok` is lower-case ASCII alphanumerics.
inline void classify_class_token(std::string_view tok, class_hints& h) noexcept {
  if (tok.size() < 2 || tok.size() > 32) return;
  if (tok.size() >= 4 && tok.find_first_of("cg") != std::string_view::npos &&
      (tok.find("cookie") != std::string_view::npos || tok.find("consent") != std::string_view::npos ||
       tok.find("gdpr") != std::string_view::npos)) {
    h.consent = true;
    return;
  }
  if (tok.size() > 13) return;  // longer than every hint word ("advertisement")
  switch (kHintTable.find(pack_name(tok), hint_kind::none)) {
    case hint_kind::boiler: h.boiler = true; break;
    case hint_kind::content: h.content = true; break;
    case hint_kind::none: break;
  }
}

/// Scans an id or class value once; tokens longer than 32 bytes are skipped.
inline void scan_class_value(std::string_view v, class_hints& h) noexcept {
  char buf[33];
  std::size_t n = 0;
  bool too_long = false;
  auto flush = [&] {
    if (!too_long && n > 0) classify_class_token(std::string_view(buf, n), h);
    n = 0;
    too_long = false;
  };
  char prev = 0;
  for (char c : v) {
    unsigned char u = static_cast<unsigned char>(c);
    if (!is_ascii_alnum(u)) {
      flush();
    } else {
      if (c >= 'A' && c <= 'Z' && prev >= 'a' && prev <= 'z') flush();  // camelCase
      if (n < 32) buf[n++] = ascii_lower(c);
      else too_long = true;
    }
    prev = c;
  }
  flush();
}

/// The attributes extraction uses.
enum class attr : std::uint8_t { href, lang, xml_lang, http_equiv, content, cls, id, role, alt, hidden, count };

inline constexpr auto kAttrTable = [] {
  constexpr std::pair<std::string_view, attr> names[] = {
      {"href", attr::href},   {"lang", attr::lang},       {"xml:lang", attr::xml_lang},
      {"http-equiv", attr::http_equiv}, {"content", attr::content}, {"class", attr::cls},
      {"id", attr::id},       {"role", attr::role},       {"alt", attr::alt},
      {"hidden", attr::hidden}};
  packed_map<attr, 32> m;
  for (const auto& [n, a] : names) m.insert(pack_name(n), a);
  return m;
}();

/// The attributes of a tag that extraction uses; the first occurrence wins, as in HTML. Only
/// the `seen` mask is initialised: values are written before they are read (this struct is
/// built for every tag, and zeroing it showed up in profiles).
struct tag_attrs {
  std::uint16_t seen = 0;
  const char* data[static_cast<std::size_t>(attr::count)];
  std::size_t size[static_cast<std::size_t>(attr::count)];

  bool has(attr a) const noexcept { return seen & (1u << static_cast<unsigned>(a)); }
  std::string_view get(attr a) const noexcept {
    auto i = static_cast<std::size_t>(a);
    return has(a) ? std::string_view(data[i], size[i]) : std::string_view();
  }
  void set(attr a, std::string_view v) noexcept {
    if (has(a)) return;
    auto i = static_cast<std::size_t>(a);
    seen = static_cast<std::uint16_t>(seen | (1u << i));
    data[i] = v.data();
    size[i] = v.size();
  }
};

// ================================================================================================
// The extractor.
//
// Linearity. The input pointer only moves forward. Text bytes are examined by the text loop
// (plain ASCII runs twice: once to find the run end, once to count words). A '<' starts a
// token whose scanner moves forward to its end or to end of input: tag names and attributes
// (each byte once; attribute names compared against a fixed list only when short), comments
// (one memchr for '>' per candidate '>', each '>' checked once), raw text elements (one pass
// looking at each '<' with a bounded look-ahead of the end tag's length). A '&' looks ahead at
// most 33 bytes and either consumes them or leaves them to be read as text once more. Nothing
// rescans on failure: an unterminated tag, comment or raw text element ends the input.
// The open-element stack holds at most kMaxDepth entries (deeper elements are only counted);
// an end tag pops only when an element of its kind is open (a per-tag counter says so in
// O(1)), and each pushed entry is popped at most once, so popping is amortised O(1). Implied
// closes (li, dt/dd, td/th, headings) look at most kImpliedSearch entries down the stack.
// Per-link work is bounded by caps on the URL (kMaxUrl) and anchor text (kMaxAnchor) lengths.
//
// Observer: a view of the start tags the extractor tokenizes (for the html5lib conformance test,
// which compares attribute values with the tokenizer's). html_no_observer, the default, compiles
// to nothing.
struct html_no_observer {
  static constexpr bool enabled = false;
  void start_tag(std::string_view /*raw_name*/) noexcept {}
  void attribute(std::string_view /*raw_name*/, std::string_view /*raw_value*/) noexcept {}
  void end_of_start_tag() noexcept {}  // the tag ended with '>' (a tag cut by the end of input does not)
};

template <class Observer = html_no_observer>
class html_extractor {
 public:
  static constexpr std::size_t kMaxDepth = 256;
  static constexpr std::size_t kImpliedSearch = 8;
  static constexpr std::size_t kMaxAnchor = 512;
  static constexpr std::size_t kMaxUrl = 4096;
  static constexpr std::size_t kMaxTitle = 2048;
  static constexpr std::size_t kMaxLang = 64;

  html_extractor(std::string_view in, const html_options& o, html_result& r, Observer* obs = nullptr)
      : p_(in.data()), e_(in.data() + in.size()), o_(o), r_(r), t_(r.text), obs_(obs) {}

  enum byte_class : std::uint8_t { bc_plain, bc_space, bc_lt, bc_amp, bc_control, bc_high };
  static constexpr std::array<std::uint8_t, 256> kByteClass = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned c = 0; c < 256; ++c)
      t[c] = c >= 0x80 ? bc_high
             : c == '<' ? bc_lt
             : c == '&' ? bc_amp
             : (is_html_space(static_cast<unsigned char>(c)) || c == 0x0B) ? bc_space
             : (c < 0x20 || c == 0x7F) ? bc_control
                                      : bc_plain;
    return t;
  }();

  void run() {
    while (p_ < e_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (kByteClass[c] == bc_plain) {
        const char* q = p_ + 1;
        while (q < e_ && kByteClass[static_cast<unsigned char>(*q)] == bc_plain) ++q;
        if (!suppressed()) emit_ascii(p_, q);
        p_ = q;
      } else if (kByteClass[c] == bc_space) {
        if (!suppressed()) whitespace(c);
        ++p_;
      } else if (c == '<') {
        on_lt();
      } else if (c == '&') {
        char_ref ref = match_char_ref(p_ + 1, e_, false);
        if (ref.length) {
          if (!suppressed()) {
            emit_cp(ref.first, nullptr, 0);
            if (ref.second) emit_cp(ref.second, nullptr, 0);
          }
          p_ += 1 + ref.length;
        } else {
          if (!suppressed()) emit_ascii(p_, p_ + 1);
          ++p_;
        }
      } else if (c < 0x80) {
        ++p_;  // NUL and other controls
      } else {
        utf8_step st = decode_utf8(reinterpret_cast<const unsigned char*>(p_),
                                   reinterpret_cast<const unsigned char*>(e_));
        if (!st.valid) ++r_.invalid_sequences;
        if (!suppressed()) {
          if (st.valid) emit_cp(st.cp, p_, st.length);
          else emit_cp(0xFFFD, "\xEF\xBF\xBD", 3);
        }
        p_ += st.length;
      }
    }
    finish();
  }

 private:
  struct stack_entry {
    html_tag tag;
    std::uint32_t mask;            // counters this entry incremented
    std::uint32_t prev_container;  // the innermost boilerplate container before this one
  };

  // ---- state ----
  const char* p_;
  const char* e_;
  const html_options& o_;
  html_result& r_;
  std::string& t_;
  Observer* obs_;

  // text sink: pending separator before the next visible character
  enum : std::uint8_t { pend_none, pend_space, pend_soft, pend_hard };
  std::uint8_t pending_ = pend_none;
  bool block_open_ = false;
  bool token_counted_ = false;
  html_block cur_;
  std::uint32_t tokens_ = 0, linked_tokens_ = 0, dense_ = 0, linked_dense_ = 0;

  // open elements
  stack_entry stack_[kMaxDepth];
  std::size_t depth_ = 0, overflow_ = 0;
  std::uint32_t container_ = 0, containers_ = 0;  // innermost boilerplate container; count so far
  std::uint32_t open_[static_cast<std::size_t>(html_tag::count)] = {};
  std::uint32_t counters_[kCounterCount] = {};

  // links
  std::size_t n_links_ = 0;
  bool link_open_ = false;
  std::size_t link_index_ = 0, link_text_start_ = 0;
  bool link_alt_set_ = false;

  bool title_seen_ = false, lang_seen_ = false, content_language_seen_ = false, base_seen_ = false;

  // ---- helpers ----
  bool suppressed() const noexcept { return counters_[kSuppressBit] != 0; }
  bool in_foreign() const noexcept { return counters_[kForeignBit] != 0; }
  static constexpr unsigned kArticleIdx = std::countr_zero(std::uint32_t{html_block_article});
  static constexpr unsigned kAnchorIdx = std::countr_zero(std::uint32_t{html_block_anchor});
  static constexpr unsigned kPreIdx = std::countr_zero(std::uint32_t{html_block_pre});
  bool in_pre() const noexcept { return counters_[kPreIdx] != 0; }
  bool in_link() const noexcept { return counters_[kAnchorIdx] != 0; }

  std::uint32_t current_flags() const noexcept {
    std::uint32_t f = 0;
    for (unsigned b = 0; b < 16; ++b)
      if (counters_[b]) f |= 1u << b;
    return f;
  }
  std::uint8_t current_heading() const noexcept {
    for (unsigned h = 0; h < 6; ++h)
      if (counters_[kHeadingBit0 + h]) return static_cast<std::uint8_t>(h + 1);
    return 0;
  }

  // ---- text sink ----
  void whitespace(unsigned char c) {
    token_counted_ = false;
    if (in_pre() && (c == '\n' || c == '\r')) {
      if (c == '\r' && p_ + 1 < e_ && p_[1] == '\n') return;
      soft_break();
      return;
    }
    if (pending_ < pend_space) pending_ = pend_space;
  }
  void soft_break() {
    token_counted_ = false;
    if (pending_ < pend_soft) pending_ = pend_soft;
  }
  void hard_break() {
    token_counted_ = false;
    pending_ = pend_hard;
  }

  /// Called before appending a visible character: materialises the pending separator and
  /// opens a block if none is open.
  void before_visible() {
    if (block_open_) {
      if (pending_ == pend_hard) {
        close_block();
        t_.push_back('\n');
      } else if (pending_ == pend_soft) {
        t_.push_back('\n');
        ++cur_.lines;
      } else if (pending_ == pend_space) {
        t_.push_back(' ');
      }
    }
    pending_ = pend_none;
    if (!block_open_) open_block();
  }
  void open_block() {
    block_open_ = true;
    cur_ = html_block{};
    cur_.begin = t_.size();
    cur_.flags = current_flags();
    cur_.heading = current_heading();
    cur_.container = container_;
    tokens_ = linked_tokens_ = dense_ = linked_dense_ = 0;
  }
  void close_block() {
    if (!block_open_) return;
    cur_.end = t_.size();
    cur_.words = tokens_ + (dense_ + 1) / 2;
    cur_.linked_words = linked_tokens_ + (linked_dense_ + 1) / 2;
    if (cur_.linked_words > cur_.words) cur_.linked_words = cur_.words;
    r_.blocks.push_back(cur_);
    block_open_ = false;
  }
  void count_token() {
    if (token_counted_) return;
    token_counted_ = true;
    ++tokens_;
    if (in_link()) ++linked_tokens_;
  }
  // ASCII text bytes: bit 0 = alphanumeric (makes a token a word), bit 1 = sentence stop.
  static constexpr std::array<std::uint8_t, 128> kAsciiText = [] {
    std::array<std::uint8_t, 128> t{};
    for (unsigned c = 0; c < 128; ++c)
      t[c] = static_cast<std::uint8_t>((is_ascii_alnum(static_cast<unsigned char>(c)) ? 1 : 0) |
                                       ((c == '.' || c == '!' || c == '?') ? 2 : 0));
    return t;
  }();

  void emit_ascii(const char* a, const char* b) {
    before_visible();
    t_.append(a, static_cast<std::size_t>(b - a));
    cur_.chars += static_cast<std::uint32_t>(b - a);
    unsigned flags = 0, stops = 0;
    for (const char* q = a; q < b; ++q) {
      unsigned f = kAsciiText[static_cast<unsigned char>(*q) & 0x7F];
      flags |= f;
      stops += f >> 1;
    }
    cur_.stops += stops;
    if ((flags & 1) && !token_counted_) count_token();
  }
  /// A code point from a UTF-8 sequence (bytes != nullptr: append those) or a reference.
  void emit_cp(char32_t cp, const char* bytes, std::size_t n) {
    if (cp < 0x80 && cp >= 0x21 && cp != 0x7F) {
      char ch = static_cast<char>(cp);
      emit_ascii(&ch, &ch + 1);
      return;
    }
    switch (classify_cp(cp)) {
      case cp_kind::drop: return;
      case cp_kind::space:
        if (cp == '\n' || cp == '\r') whitespace(static_cast<unsigned char>(cp));
        else whitespace(' ');
        return;
      case cp_kind::visible: break;
    }
    before_visible();
    if (bytes) t_.append(bytes, n);
    else append_utf8(t_, cp);
    ++cur_.chars;
    if (is_dense_letter(cp)) {
      ++dense_;
      if (in_link()) ++linked_dense_;
    } else if (is_word_cp(cp)) {
      count_token();
    } else if (is_stop_cp(cp)) {
      ++cur_.stops;
    }
  }

  // ---- the open-element stack ----
  void push(html_tag t, std::uint32_t mask) {
    if (depth_ == kMaxDepth) {
      ++overflow_;
      return;
    }
    stack_[depth_++] = {t, mask, container_};
    if (mask & (html_block_boilerplate | html_block_hint_boilerplate)) container_ = ++containers_;
    ++open_[static_cast<std::size_t>(t)];
    for (std::uint32_t m = mask; m; m &= m - 1) ++counters_[std::countr_zero(m)];
  }
  void pop() {
    stack_entry e = stack_[--depth_];
    container_ = e.prev_container;
    --open_[static_cast<std::size_t>(e.tag)];
    for (std::uint32_t m = e.mask; m; m &= m - 1) --counters_[std::countr_zero(m)];
    if (e.tag == html_tag::t_a) finish_link();
  }
  void pop_until(html_tag t) {
    while (depth_ > 0) {
      html_tag x = stack_[depth_ - 1].tag;
      pop();
      if (x == t) break;
    }
  }
  bool is_open(html_tag t) const noexcept { return open_[static_cast<std::size_t>(t)] != 0; }

  /// Closes an open `targets` element found within kImpliedSearch entries of the top, not
  /// crossing a `barrier` element.
  template <std::size_t N, std::size_t M>
  void implied_close(const html_tag (&targets)[N], const html_tag (&barriers)[M]) {
    if (overflow_) return;
    for (std::size_t k = 0; k < kImpliedSearch && k < depth_; ++k) {
      html_tag x = stack_[depth_ - 1 - k].tag;
      if (std::find(std::begin(barriers), std::end(barriers), x) != std::end(barriers)) return;
      if (std::find(std::begin(targets), std::end(targets), x) != std::end(targets)) {
        for (std::size_t j = 0; j <= k; ++j) pop();
        return;
      }
    }
  }

  // ---- links ----
  void start_link(std::string_view raw_href) {
    if (link_open_) finish_link();
    if (!o_.collect_links || n_links_ >= o_.max_links) return;
    if (n_links_ == r_.links.size()) r_.links.emplace_back();
    html_link& l = r_.links[n_links_];
    l.url.clear();
    l.text.clear();
    if (raw_href.size() <= kMaxUrl) decode_into(l.url, raw_href, true, false);
    link_index_ = n_links_++;
    link_open_ = true;
    link_text_start_ = t_.size();
    link_alt_set_ = false;
  }
  void finish_link() {
    if (!link_open_) return;
    link_open_ = false;
    html_link& l = r_.links[link_index_];
    if (link_alt_set_ && t_.size() == link_text_start_) return;  // keep the image alt
    std::string_view s(t_);
    s = s.substr(link_text_start_);
    s = s.substr(0, kMaxAnchor + 4);
    l.text.clear();
    // The text is already collapsed; only '\n' between blocks becomes a space.
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) s.remove_prefix(1);
    while (!s.empty()) {
      std::size_t k = s.find('\n');
      l.text.append(s.substr(0, k));
      if (k == std::string_view::npos) break;
      s.remove_prefix(k + 1);
      if (!s.empty()) l.text.push_back(' ');
    }
    truncate_utf8(l.text, kMaxAnchor);
    while (!l.text.empty() && l.text.back() == ' ') l.text.pop_back();
  }

  // ---- tokenizer ----
  void literal_text(const char* a, const char* b) {
    if (!suppressed()) emit_ascii(a, b);
  }

  /// p_ at '<'.
  void on_lt() {
    const char* p = p_;
    if (p + 1 >= e_) {
      literal_text(p, p + 1);
      p_ = e_;
      return;
    }
    unsigned char c1 = static_cast<unsigned char>(p[1]);
    if (is_ascii_alpha(c1)) {
      tag(false);
    } else if (c1 == '/') {
      if (p + 2 >= e_) {
        literal_text(p, p + 2);
        p_ = e_;
      } else if (is_ascii_alpha(static_cast<unsigned char>(p[2]))) {
        tag(true);
      } else if (p[2] == '>') {
        p_ = p + 3;
      } else {
        p_ = skip_to_gt(p + 2);
      }
    } else if (c1 == '!') {
      if (e_ - p >= 4 && p[2] == '-' && p[3] == '-') {
        p_ = skip_comment(p + 4);
      } else if (in_foreign() && e_ - p >= 9 && std::memcmp(p + 2, "[CDATA[", 7) == 0) {
        p_ = find_seq(p + 9, "]]>");
      } else {
        p_ = skip_to_gt(p + 2);  // doctype, <!...> bogus comment, CDATA in HTML content
      }
    } else if (c1 == '?') {
      p_ = skip_to_gt(p + 2);
    } else {
      literal_text(p, p + 1);
      p_ = p + 1;
    }
  }

  const char* skip_to_gt(const char* p) const noexcept {
    const void* g = std::memchr(p, '>', static_cast<std::size_t>(e_ - p));
    return g ? static_cast<const char*>(g) + 1 : e_;
  }
  /// Returns the position after `seq`, or the end of input.
  const char* find_seq(const char* p, std::string_view seq) const noexcept {
    std::string_view rest(p, static_cast<std::size_t>(e_ - p));
    std::size_t k = rest.find(seq);  // linear: the needle is 3 bytes
    return k == std::string_view::npos ? e_ : p + k + seq.size();
  }
  /// p after "<!--". Ends at "-->", "--!>", or at once for "<!-->" and "<!--->".
  const char* skip_comment(const char* p) const noexcept {
    if (p < e_ && *p == '>') return p + 1;
    if (e_ - p >= 2 && p[0] == '-' && p[1] == '>') return p + 2;
    const char* q = p;
    while (q < e_) {
      const void* g = std::memchr(q, '>', static_cast<std::size_t>(e_ - q));
      if (!g) return e_;
      const char* gt = static_cast<const char*>(g);
      if (gt - p >= 2 && gt[-1] == '-' && gt[-2] == '-') return gt + 1;
      if (gt - p >= 3 && gt[-1] == '!' && gt[-2] == '-' && gt[-3] == '-') return gt + 1;
      q = gt + 1;
    }
    return e_;
  }

  /// Parses a start or end tag at p_ (p_[0] == '<'); leaves p_ after it (or at the end of
  /// input if the tag is unterminated, in which case it is dropped, as in HTML).
  void tag(bool end_tag) {
    const char* p = p_ + (end_tag ? 2 : 1);
    char name[16];
    std::size_t n = 0, len = 0;
    while (p < e_) {
      unsigned char c = static_cast<unsigned char>(*p);
      if (is_html_space(c) || c == '/' || c == '>') break;
      if (n < sizeof name) name[n++] = ascii_lower(static_cast<char>(c));
      ++len;
      ++p;
    }
    html_tag t = len <= sizeof name ? lookup_tag(std::string_view(name, n)) : html_tag::unknown;
    if constexpr (Observer::enabled) {
      if (obs_ && !end_tag) obs_->start_tag(std::string_view(p_ + 1, len));
    }
    tag_attrs a;
    bool self_closing = false;
    // Attributes (WHATWG before/after attribute name and value states).
    for (;;) {
      while (p < e_ && (is_html_space(static_cast<unsigned char>(*p)) || *p == '/')) {
        self_closing = (*p == '/');
        ++p;
      }
      if (p >= e_) {
        p_ = e_;
        return;
      }
      if (*p == '>') {
        ++p;
        break;
      }
      self_closing = false;
      const char* an = p;
      ++p;  // the first character may be '='
      while (p < e_ && !is_html_space(static_cast<unsigned char>(*p)) && *p != '/' && *p != '>' && *p != '=') ++p;
      std::string_view attr_name(an, static_cast<std::size_t>(p - an));
      while (p < e_ && is_html_space(static_cast<unsigned char>(*p))) ++p;
      std::string_view value;
      bool has_value = false;
      if (p < e_ && *p == '=') {
        ++p;
        while (p < e_ && is_html_space(static_cast<unsigned char>(*p))) ++p;
        if (p >= e_) {
          p_ = e_;
          return;
        }
        if (*p == '"' || *p == '\'') {
          const char q = *p++;
          const void* close = std::memchr(p, q, static_cast<std::size_t>(e_ - p));
          if (!close) {
            p_ = e_;
            return;
          }
          value = std::string_view(p, static_cast<std::size_t>(static_cast<const char*>(close) - p));
          p = static_cast<const char*>(close) + 1;
          has_value = true;
        } else if (*p != '>') {
          const char* v = p;
          while (p < e_ && !is_html_space(static_cast<unsigned char>(*p)) && *p != '>') ++p;
          value = std::string_view(v, static_cast<std::size_t>(p - v));
          has_value = true;
        }
      }
      if constexpr (Observer::enabled) {
        if (obs_ && !end_tag) obs_->attribute(attr_name, value);
      }
      if (!end_tag && t != html_tag::unknown) note_attr(a, attr_name, value);
      (void)has_value;
    }
    p_ = p;
    if constexpr (Observer::enabled) {
      if (obs_ && !end_tag) obs_->end_of_start_tag();
    }
    if (t == html_tag::unknown) return;  // unknown elements are transparent
    if (end_tag) on_end_tag(t);
    else on_start_tag(t, a, self_closing);
  }

  static void note_attr(tag_attrs& a, std::string_view n, std::string_view v) noexcept {
    if (n.size() < 2 || n.size() > 10 || n.find('\0') != std::string_view::npos) return;
    attr k = kAttrTable.find(pack_name(n), attr::count);
    if (k != attr::count) a.set(k, v);
  }

  /// Counter mask for a pushed element: its own meaning plus what its id/class/role say.
  std::uint32_t element_mask(html_tag t, const tag_attrs& a) const noexcept {
    using T = html_tag;
    std::uint32_t m = 0;
    switch (t) {
      case T::t_nav: case T::t_aside: case T::t_menu: case T::t_dialog: case T::t_search:
      case T::t_footer:
        m |= html_block_boilerplate; break;
      case T::t_header:
        if (!counters_[kArticleIdx]) m |= html_block_boilerplate;  // a page header, not an article's
        break;
      case T::t_article: case T::t_main: m |= html_block_article; break;
      case T::t_form: m |= html_block_form; break;
      case T::t_select: case T::t_button: case T::t_label: m |= html_block_control; break;
      case T::t_h1: case T::t_h2: case T::t_h3: case T::t_h4: case T::t_h5: case T::t_h6:
        m |= html_block_heading |
             (1u << (kHeadingBit0 + static_cast<unsigned>(t) - static_cast<unsigned>(T::t_h1)));
        break;
      case T::t_li: case T::t_dt: case T::t_dd: m |= html_block_list_item; break;
      case T::t_pre: case T::t_listing: m |= html_block_pre; break;
      case T::t_blockquote: m |= html_block_quote; break;
      case T::t_figcaption: case T::t_caption: m |= html_block_caption; break;
      case T::t_td: case T::t_th: m |= html_block_table; break;
      case T::t_template: m |= 1u << kSuppressBit; break;
      case T::t_svg: case T::t_math: m |= (1u << kSuppressBit) | (1u << kForeignBit); break;
      case T::t_a: if (a.has(attr::href)) m |= html_block_anchor; break;
      default: break;
    }
    if (t == T::t_body || t == T::t_a || t == T::t_svg || t == T::t_math || t == T::t_template)
      return m;
    if (a.has(attr::role)) {
      std::string_view role = trim_html_space(a.get(attr::role));
      if (iequals(role, "navigation") || iequals(role, "menu") || iequals(role, "menubar") ||
          iequals(role, "banner") || iequals(role, "contentinfo") || iequals(role, "complementary") ||
          iequals(role, "search") || iequals(role, "dialog") || iequals(role, "alertdialog") ||
          iequals(role, "toolbar"))
        m |= html_block_boilerplate;
      else if (iequals(role, "main") || iequals(role, "article"))
        m |= html_block_article;
    }
    if (a.has(attr::hidden)) m |= html_block_hint_boilerplate;
    if (a.has(attr::cls) || a.has(attr::id)) {
      class_hints h;
      scan_class_value(a.get(attr::cls), h);
      scan_class_value(a.get(attr::id), h);
      if (h.consent) m |= html_block_hint_consent;
      const bool semantic_content = (t == T::t_article || t == T::t_main);
      if (h.boiler && !h.content && !semantic_content) m |= html_block_hint_boilerplate;
      if (h.content && !h.boiler) m |= html_block_article;
    }
    return m;
  }

  void on_start_tag(html_tag t, const tag_attrs& a, bool self_closing) {
    using T = html_tag;
    const std::uint16_t props = tag_props(t);
    if (in_foreign()) {
      if (props & tp_breakout) {
        while (in_foreign() && depth_ > 0) pop();  // leave svg/math
      } else if (t != T::t_svg && t != T::t_math && t != T::t_script && t != T::t_style) {
        return;  // foreign elements: nothing to do
      }
    }
    const bool hidden = suppressed();
    if ((props & tp_block) && !hidden) hard_break();
    switch (t) {
      case T::t_html:
        if (!lang_seen_ && !hidden && (a.has(attr::lang) || a.has(attr::xml_lang))) {
          std::string_view v = trim_html_space(a.has(attr::lang) ? a.get(attr::lang) : a.get(attr::xml_lang));
          if (!v.empty() && v.size() <= kMaxLang) {
            r_.html_lang.clear();
            r_.invalid_sequences += decode_into(r_.html_lang, v, true, true);
            lang_seen_ = true;
          }
        }
        return;
      case T::t_base:
        if (!base_seen_ && !hidden && a.has(attr::href)) {
          base_seen_ = true;
          std::string_view href = a.get(attr::href);
          if (href.size() <= kMaxUrl) decode_into(r_.base_url, href, true, false);
        }
        return;
      case T::t_meta:
        if (!content_language_seen_ && !hidden && a.has(attr::content) &&
            iequals(trim_html_space(a.get(attr::http_equiv)), "content-language")) {
          std::string_view v = trim_html_space(a.get(attr::content));
          if (!v.empty() && v.size() <= 256) {
            r_.content_language.clear();
            r_.invalid_sequences += decode_into(r_.content_language, v, true, true);
            content_language_seen_ = true;
          }
        }
        return;
      case T::t_br:
        if (!hidden) soft_break();
        return;
      case T::t_img:
        if (link_open_ && !link_alt_set_ && a.has(attr::alt) && t_.size() == link_text_start_) {
          html_link& l = r_.links[link_index_];
          l.text.clear();
          decode_into(l.text, a.get(attr::alt).substr(0, kMaxAnchor * 2), true, true);
          truncate_utf8(l.text, kMaxAnchor);
          link_alt_set_ = !l.text.empty();
        }
        return;
      case T::t_area:
        if (a.has(attr::href) && !hidden) {
          start_link(a.get(attr::href));
          if (link_open_) {
            html_link& l = r_.links[link_index_];
            if (a.has(attr::alt)) decode_into(l.text, a.get(attr::alt).substr(0, kMaxAnchor * 2), true, true);
            truncate_utf8(l.text, kMaxAnchor);
            link_open_ = false;
          }
        }
        return;
      case T::t_title:
        if (in_foreign()) return;
        raw_text("title", !title_seen_ && !hidden ? raw_title : raw_drop);
        return;
      case T::t_textarea: raw_text("textarea", raw_drop); return;
      case T::t_style: raw_text("style", raw_drop); return;
      case T::t_iframe: raw_text("iframe", raw_drop); return;
      case T::t_noembed: raw_text("noembed", raw_drop); return;
      case T::t_noframes: raw_text("noframes", raw_drop); return;
      case T::t_noscript: raw_text("noscript", raw_drop); return;
      case T::t_xmp: raw_text("xmp", hidden ? raw_drop : raw_keep); return;
      case T::t_script: script(); return;
      case T::t_plaintext:
        if (!hidden) keep_literal(p_, e_);  // the rest of the input is text, as it is
        p_ = e_;
        return;
      case T::t_a:
        if (is_open(T::t_a)) pop_until(T::t_a);
        if (a.has(attr::href) && !hidden) start_link(a.get(attr::href));
        break;
      case T::t_li: {
        static constexpr html_tag tg[] = {T::t_li}, bar[] = {T::t_ul, T::t_ol, T::t_menu};
        implied_close(tg, bar);
        break;
      }
      case T::t_dt: case T::t_dd: {
        static constexpr html_tag tg[] = {T::t_dt, T::t_dd}, bar[] = {T::t_dl};
        implied_close(tg, bar);
        break;
      }
      case T::t_td: case T::t_th: case T::t_tr: {
        static constexpr html_tag tg[] = {T::t_td, T::t_th}, bar[] = {T::t_table};
        implied_close(tg, bar);
        break;
      }
      case T::t_h1: case T::t_h2: case T::t_h3: case T::t_h4: case T::t_h5: case T::t_h6:
        if (depth_ > 0) {
          html_tag top = stack_[depth_ - 1].tag;
          if (top >= T::t_h1 && top <= T::t_h6) pop();
        }
        break;
      case T::t_svg: case T::t_math:
        if (self_closing) return;
        break;
      default: break;
    }
    if (props & tp_push) push(t, element_mask(t, a));
  }

  void on_end_tag(html_tag t) {
    using T = html_tag;
    const std::uint16_t props = tag_props(t);
    if (t == T::t_br) {
      if (!suppressed()) soft_break();
      return;
    }
    if ((props & tp_block) && !suppressed()) hard_break();
    if (!(props & tp_push)) return;
    if (overflow_) {
      --overflow_;
      return;
    }
    if (is_open(t)) pop_until(t);
  }

  // ---- raw text elements ----
  enum raw_mode { raw_drop, raw_keep, raw_title };

  /// True when p (at '<') starts "</name" followed by a tag-name terminator.
  bool end_tag_at(const char* p, std::string_view name) const noexcept {
    if (static_cast<std::size_t>(e_ - p) < name.size() + 3) return false;
    if (p[1] != '/') return false;
    for (std::size_t i = 0; i < name.size(); ++i)
      if (ascii_lower(p[2 + i]) != name[i]) return false;
    unsigned char c = static_cast<unsigned char>(p[2 + name.size()]);
    return is_html_space(c) || c == '/' || c == '>';
  }

  /// p_ is after the start tag. Consumes the content up to the matching end tag (which is then
  /// parsed as a tag); content to the end of input if there is none.
  void raw_text(std::string_view name, raw_mode mode) {
    const char* s = p_;
    const char* q = s;
    for (;;) {
      const void* lt = std::memchr(q, '<', static_cast<std::size_t>(e_ - q));
      if (!lt) {
        q = e_;
        break;
      }
      q = static_cast<const char*>(lt);
      if (end_tag_at(q, name)) break;
      ++q;
    }
    std::string_view content(s, static_cast<std::size_t>(q - s));
    if (mode == raw_title) {
      r_.title.clear();
      r_.invalid_sequences += decode_into(r_.title, content.substr(0, std::min(content.size(), kMaxTitle * 2)), false, true);
      truncate_utf8(r_.title, kMaxTitle);
      title_seen_ = true;
    } else if (mode == raw_keep) {
      keep_literal(s, q);
    }
    p_ = q;
    if (q < e_) tag(true);
  }

  /// Emits raw text without decoding references (xmp, plaintext).
  void keep_literal(const char* s, const char* q) {
    const char* save = p_;
    for (const char* x = s; x < q;) {
      unsigned char c = static_cast<unsigned char>(*x);
      if (c >= 0x80) {
        utf8_step st = decode_utf8(reinterpret_cast<const unsigned char*>(x), reinterpret_cast<const unsigned char*>(q));
        if (!st.valid) ++r_.invalid_sequences;
        if (st.valid) emit_cp(st.cp, x, st.length);
        else emit_cp(0xFFFD, "\xEF\xBF\xBD", 3);
        x += st.length;
      } else if (c == 0) {
        emit_cp(0xFFFD, "\xEF\xBF\xBD", 3);  // NUL in RAWTEXT and PLAINTEXT, as HTML does
        ++x;
      } else {
        p_ = x;  // whitespace() peeks at p_[1] for CR LF
        emit_cp(c, nullptr, 0);
        ++x;
      }
    }
    p_ = save;
  }

  /// Script data with the WHATWG escape states: "<!--" enters the escaped state, in which
  /// "<script" enters the double-escaped state, where "</script>" only returns to the escaped
  /// state; "-->" returns to plain script data. Each '<' and '-' is looked at once, with a
  /// bounded look-ahead.
  void script() {
    enum { data, escaped, double_escaped } st = data;
    const char* q = p_;
    auto starts = [&](const char* x, std::string_view s) {
      return static_cast<std::size_t>(e_ - x) >= s.size() && std::memcmp(x, s.data(), s.size()) == 0;
    };
    auto script_tag_at = [&](const char* x) {  // x at "script" after '<' or "</"
      if (static_cast<std::size_t>(e_ - x) < 7) return false;
      for (int i = 0; i < 6; ++i)
        if (ascii_lower(x[i]) != "script"[i]) return false;
      unsigned char c = static_cast<unsigned char>(x[6]);
      return is_html_space(c) || c == '/' || c == '>';
    };
    while (q < e_) {
      char c = *q;
      if (c == '<') {
        if (st == data && starts(q, "<!--")) {
          st = escaped;
          q += 4;
          continue;
        }
        if (q + 1 < e_ && q[1] == '/' && script_tag_at(q + 2)) {
          if (st == double_escaped) {
            st = escaped;
            q += 8;
            continue;
          }
          break;  // the end tag
        }
        if (st == escaped && script_tag_at(q + 1)) {
          st = double_escaped;
          q += 7;
          continue;
        }
        ++q;
      } else if (c == '-') {
        if (st != data && starts(q, "-->")) {
          st = data;
          q += 3;
          continue;
        }
        ++q;
      } else {
        const char* x = q + 1;  // skip to the next '<' or '-'
        while (x < e_ && *x != '<' && *x != '-') ++x;
        q = x;
      }
    }
    p_ = q;
    if (q < e_) tag(true);
  }

  void finish() {
    if (link_open_) finish_link();
    close_block();
    // Effective base URL, then links resolved against it.
    std::string& tmp = r_.scratch;
    if (base_seen_ && !r_.base_url.empty()) {  // r_.base_url holds the decoded <base href>
      if (resolve_uri(o_.base_url, r_.base_url, tmp) && tmp.size() <= kMaxUrl) {
        r_.base_url.swap(tmp);
      } else {
        r_.base_url.assign(o_.base_url.substr(0, std::min(o_.base_url.size(), kMaxUrl)));
      }
    } else {
      r_.base_url.assign(o_.base_url.substr(0, std::min(o_.base_url.size(), kMaxUrl)));
    }
    std::size_t kept = 0;
    if (n_links_) {
      std::optional<uri_view> base = parse_uri(r_.base_url);
      const uri_view* bp = (base && base->is_absolute()) ? &*base : nullptr;
      for (std::size_t i = 0; i < n_links_; ++i) {
        html_link& l = r_.links[i];
        std::string_view raw = uri_trim(l.url);
        if (raw.empty() || raw.front() == '#') continue;  // self / fragment-only references
        if (!uri_resolve_into(bp, raw, tmp)) continue;
        std::size_t hash = tmp.find('#');
        if (hash != std::string::npos) tmp.resize(hash);
        if (tmp.size() > kMaxUrl) continue;
        if (!(tmp.compare(0, 7, "http://") == 0 || tmp.compare(0, 8, "https://") == 0)) continue;
        l.url.swap(tmp);
        if (kept != i) std::swap(r_.links[kept], l);
        ++kept;
      }
    }
    r_.links.resize(kept);
  }
};

}  // namespace detail

// ---- main-content rules ------------------------------------------------------------------------

namespace detail {

/// ASCII-case-insensitive "hay contains needle" (bounded: callers pass short strings).
inline bool icontains(std::string_view hay, std::string_view needle) noexcept {
  if (needle.empty() || needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && ascii_lower(hay[i + k]) == ascii_lower(needle[k])) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

inline constexpr std::uint32_t kBoilerFlags =
    html_block_boilerplate | html_block_hint_boilerplate | html_block_control;

/// A block in a boilerplate container, unless it is long prose (some sites put real text in
/// an aside). Consent banners are boilerplate whatever their length.
inline bool mc_boiler(const html_block& b) noexcept {
  if (b.flags & html_block_hint_consent) return true;
  if (!(b.flags & kBoilerFlags)) return false;
  return !(b.words >= 50 && b.linked_words * 10 < b.words && b.stops >= 2);
}

/// Long, low-link-density text: the core of main content (Kohlschütter et al.: blocks of more
/// than ~15 words with link density <= 1/3 are content). Prose has sentence punctuation; 40+
/// words without any count only as a single line (not a <br>-separated list of phrases).
inline bool mc_long(const html_block& b) noexcept {
  return !mc_boiler(b) && b.words > 15 && b.linked_words * 3 <= b.words &&
         (b.stops >= 1 || (b.words >= 40 && b.lines == 1));
}

/// Short text that may belong to the content if its neighbours say so.
inline bool mc_short_candidate(const html_block& b) noexcept {
  return !mc_boiler(b) && b.words > 0 && b.linked_words * 3 <= b.words;
}

/// Headings, list items and table cells without links: the parts of a list or a table that
/// continues the content (a feature list, a specification table).
inline bool mc_list_part(const html_block& b) noexcept {
  return mc_short_candidate(b) && b.linked_words == 0 &&
         (b.flags & (html_block_heading | html_block_list_item | html_block_table));
}

}  // namespace detail

inline void mark_main_content(html_result& r) noexcept {
  using namespace detail;
  std::vector<html_block>& B = r.blocks;
  const std::size_t n = B.size();
  // Title match (Boilerpipe's DocumentTitleMatchClassifier, simplified): of the first 16 h1-h3
  // headings, the longest whose text occurs in the <title> is the page's title.
  std::size_t headings_checked = 0, title_block = n, title_len = 0;
  for (std::size_t i = 0; i < n; ++i) {
    html_block& b = B[i];
    b.flags &= ~static_cast<std::uint32_t>(html_block_title);
    std::string_view h = std::string_view(r.text).substr(b.begin, b.end - b.begin);
    // Permalink markers after a heading ("Title¶", "Title #", "Title §") are not its text.
    for (bool trimmed = true; trimmed && !h.empty();) {
      trimmed = false;
      if (h.back() == ' ' || h.back() == '#') {
        h.remove_suffix(1);
        trimmed = true;
      } else if (h.size() >= 2 && static_cast<unsigned char>(h[h.size() - 2]) == 0xC2 &&
                 (static_cast<unsigned char>(h.back()) == 0xB6 || static_cast<unsigned char>(h.back()) == 0xA7)) {
        h.remove_suffix(2);
        trimmed = true;
      }
    }
    const std::size_t len = h.size();
    if (b.heading && b.heading <= 3 && headings_checked < 16 && len >= 3 && len <= 512 &&
        !r.title.empty()) {
      ++headings_checked;
      if (len > title_len && icontains(r.title, h)) {
        title_block = i;
        title_len = len;
      }
    }
  }
  if (title_block < n) B[title_block].flags |= html_block_title;
  // A "boilerplate" container that holds most of the page's prose is not boilerplate: it is a
  // wrapper with a layout class ("wy-grid-for-nav", "has-sidebar") or a misused element.
  // Navigation, sidebars and footers never hold most of a page's text. Such a container's
  // blocks lose the boilerplate flags (its ancestors hold the same prose, so they are cleared
  // with it; boilerplate containers nested inside it keep theirs).
  {
    auto prose = [](const html_block& b) {
      return b.words > 15 && b.linked_words * 3 <= b.words && b.stops >= 1 ? b.words : 0u;
    };
    std::uint64_t total = 0, best_words = 0;
    std::uint32_t best = 0;
    for (const html_block& b : B) total += prose(b);
    // At most one container can hold a majority of the prose words: find the candidate with a
    // weighted Boyer-Moore majority vote (each block votes its prose words for its innermost
    // container), then count its words in a second pass. O(n), no per-container table.
    std::uint32_t cur = 0;
    std::uint64_t run = 0;
    for (const html_block& b : B) {
      std::uint64_t w = prose(b);
      if (!w) continue;
      if (run == 0) {
        cur = b.container;
        run = w;
      } else if (b.container == cur) {
        run += w;
      } else if (run >= w) {
        run -= w;
      } else {
        cur = b.container;
        run = w - run;
      }
    }
    if (cur != 0) {
      for (const html_block& b : B)
        if (b.container == cur) best_words += prose(b);
      best = cur;
    }
    if (best != 0 && best_words * 2 > total)
      for (html_block& b : B)
        if (b.container == best)
          b.flags &= ~static_cast<std::uint32_t>(html_block_boilerplate | html_block_hint_boilerplate);
  }
  // Pass 1: long low-link-density blocks are content.
  for (html_block& b : B) b.kept = mc_long(b);
  // Pass 2, forward: short blocks next to content.
  for (std::size_t i = 0; i < n; ++i) {
    html_block& b = B[i];
    if (b.kept) continue;
    if ((b.flags & html_block_title) && !mc_boiler(b)) {
      b.kept = true;  // the headline, even when it is a link to the page itself
      continue;
    }
    if (!mc_short_candidate(b)) continue;
    const bool prev_kept = i > 0 && B[i - 1].kept;
    const bool prev_long = i > 0 && mc_long(B[i - 1]);
    bool next_long = i + 1 < n && mc_long(B[i + 1]);
    // A heading may be followed by a byline or a date before the text.
    if (!next_long && b.heading && i + 2 < n && mc_short_candidate(B[i + 1]) && mc_long(B[i + 2]))
      next_long = true;
    if (next_long) {
      b.kept = true;  // a lead-in: heading, byline, intro line
    } else if (prev_long && (b.stops >= 1 || b.words >= 5)) {
      b.kept = true;  // a short closing paragraph or caption
    } else if (prev_kept && mc_list_part(b) && (mc_list_part(B[i - 1]) || mc_long(B[i - 1]) ||
                                                 (B[i - 1].flags & html_block_heading))) {
      b.kept = true;  // a list or table (and its headings) that continues the content
    }
  }
  // If nothing qualifies (a short page), keep what is neither boilerplate nor a link list, so
  // that language identification still has text to work on.
  if (std::none_of(B.begin(), B.end(), [](const html_block& b) { return b.kept; }))
    for (html_block& b : B) b.kept = mc_short_candidate(b);
}

// ---- entry points --------------------------------------------------------------------------------

namespace detail {

/// extract_html with an observer of the tokenizer's start tags (see html_no_observer).
template <class Observer>
void extract_html_observed(std::string_view html, const html_options& options, html_result& out, Observer* obs) {
  out.text.clear();
  out.title.clear();
  out.html_lang.clear();
  out.content_language.clear();
  out.base_url.clear();
  out.blocks.clear();
  out.scratch.clear();
  out.invalid_sequences = 0;
  bool truncated = false;
  if (html.size() > options.max_input_bytes) {
    std::size_t n = options.max_input_bytes;
    // Do not cut a UTF-8 sequence in two (back up at most 3 bytes).
    for (int k = 0; k < 3 && n > 0 && (static_cast<unsigned char>(html[n]) & 0xC0) == 0x80; ++k) --n;
    html = html.substr(0, n);
    truncated = true;
  }
  if (html.empty()) {
    out.links.clear();
    out.base_url.assign(options.base_url.substr(0, std::min(options.base_url.size(), html_extractor<>::kMaxUrl)));
    out.st = truncated ? status::truncated : status::empty_input;
    return;
  }
  {
    html_extractor<Observer> x(html, options, out, obs);
    x.run();
  }
  if (options.main_content) {
    mark_main_content(out);
    // Keep the kept blocks' text, in place: the write position never passes the read position.
    std::size_t w = 0;
    for (const html_block& b : out.blocks) {
      if (!b.kept) continue;
      if (w > 0) out.text[w++] = '\n';
      std::memmove(out.text.data() + w, out.text.data() + b.begin, b.end - b.begin);
      w += b.end - b.begin;
    }
    out.text.resize(w);
  }
  out.st = truncated ? status::truncated : out.text.empty() ? status::empty_input : status::ok;
}

}  // namespace detail

inline void extract_html(std::string_view html, const html_options& options, html_result& out) {
  detail::extract_html_observed<detail::html_no_observer>(html, options, out, nullptr);
}

inline html_result extract_html(std::string_view html, const html_options& options) {
  html_result r;
  extract_html(html, options, r);
  return r;
}

inline bool looks_like_html(std::string_view bytes) noexcept {
  using namespace detail;
  std::string_view s = bytes.substr(0, std::min<std::size_t>(bytes.size(), 1024));
  static constexpr std::string_view tags[] = {
      "a",     "article", "b",    "body",  "br",     "div",  "h1",    "h2",    "h3",
      "head",  "html",    "i",    "img",   "li",     "link", "meta",  "nav",   "p",
      "script", "section", "span", "style", "table",  "title", "ul",   "font",  "center"};
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '<') continue;
    std::string_view rest = s.substr(i + 1);
    if (rest.substr(0, 3) == "!--" || iequals(rest.substr(0, 8), "!doctype")) return true;
    std::size_t k = rest.size() && rest[0] == '/' ? 1 : 0;
    std::size_t e = k;
    while (e < rest.size() && e - k < 8 && is_ascii_alnum(static_cast<unsigned char>(rest[e]))) ++e;
    if (e == k || e >= rest.size()) continue;
    unsigned char after = static_cast<unsigned char>(rest[e]);
    if (!(after == '>' || after == '/' || is_html_space(after))) continue;
    if (is_html_space(after) && e - k < 3) {
      // "<a href", "<p class=x>": a short name followed by a space needs an attribute
      // ('=' before the next '>'), so that "if (a<b && c>d)" is not taken for a tag.
      std::string_view attrs = rest.substr(e, 64);
      std::size_t eq = attrs.find('='), gt = attrs.find('>');
      if (eq == std::string_view::npos || (gt != std::string_view::npos && gt < eq)) continue;
    }
    char name[8];
    std::size_t len = e - k;
    if (len > sizeof name) continue;
    for (std::size_t j = 0; j < len; ++j) name[j] = ascii_lower(rest[k + j]);
    std::string_view nm(name, len);
    for (std::string_view t : tags)
      if (nm == t) return true;
  }
  return false;
}

inline std::string decode_html_entities(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size());
  detail::decode_into(out, s, attribute, false);
  return out;
}

}  // namespace v1
}  // namespace langsift
