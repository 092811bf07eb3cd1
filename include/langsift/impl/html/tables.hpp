// langsift — the HTML extractor's tables and small helpers (private, namespace detail; used by
// impl/html/extractor.hpp and the main-content rules): UTF-8 truncation, character classes, the
// tag table and tag properties, class/id hints, attribute names; and the character-reference
// decoder (the WHATWG entity table is in its implementation, langsift/impl/html/tables-inl.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

#include "langsift/common.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

// ---- UTF-8 ---------------------------------------------------------------------------------------

/// Removes bytes from the end of `s` down to `cap` bytes without splitting a UTF-8 sequence.
inline void truncate_utf8(std::string& s, std::size_t cap) {
  if (s.size() > cap) s.resize(utf8_cut_back(s.data(), cap, 0));
}

// ---- character classes ---------------------------------------------------------------------------

enum class cp_kind : std::uint8_t { visible, space, drop };

/// How a (non-ASCII or decoded) code point is treated in text.
inline constexpr cp_kind classify_cp(char32_t cp) noexcept {
  if (cp < 0x80) {
    if (is_ascii_whitespace(static_cast<unsigned char>(cp)) || cp == 0x0B) return cp_kind::space;
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

/// Matches a character reference; `p` points just after the '&'. Named references take the
/// longest table entry that is a prefix of the input (WHATWG "named character reference
/// state"), so "&notit;" is "¬it;" and "&notin;" is "∉". Looks at most 33 bytes ahead.
char_ref match_char_ref(const char* p, const char* end, bool attribute) noexcept;

/// Decodes character references and repairs UTF-8 into `out` (appending); NUL becomes U+FFFD, as
/// the HTML tokenizer makes it in attribute values and RCDATA. With `collapse`, also collapses
/// whitespace runs to one space, trims, and drops the other controls (for title, alt).
std::size_t decode_into(std::string& out, std::string_view in, bool attribute, bool collapse);


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

}  // namespace detail
}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/html/tables-inl.hpp"
#endif
