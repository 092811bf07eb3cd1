// langsift — the HTML extractor (private: the implementation of langsift/html/extract.hpp): one
// forward pass over UTF-8 HTML that writes the text blocks, title, language declarations and links.
// A template over an observer of the start tags it tokenizes, so that the html5lib conformance
// test and the fuzz target can watch the tokenizer; extract_html uses html_no_observer.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/html/extract.hpp"
#include "langsift/html/main_content.hpp"
#include "langsift/html/types.hpp"
#include "langsift/impl/html/tables.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

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
             : (is_ascii_whitespace(static_cast<unsigned char>(c)) || c == 0x0B) ? bc_space
             : (c < 0x20 || c == 0x7F) ? bc_control
                                      : bc_plain;
    return t;
  }();

  void run() {
    while (p_ < e_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      // ASCII text always starts a word run (it takes at least that byte); an 8-bit byte does
      // unless it is invalid UTF-8 or a space or dropped code point (the slow path below).
      if ((kByteClass[c] == bc_plain || kByteClass[c] == bc_high) && word_run()) {
        // (the run of visible characters up to the next space, tag, reference or odd byte)
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
        utf8_decoded st = decode_utf8_step(reinterpret_cast<const unsigned char*>(p_),
                                         reinterpret_cast<const unsigned char*>(e_));
        if (!st.valid) ++r_.invalid_sequences;
        if (!suppressed()) {
          if (st.valid) emit_cp(st.cp, p_, st.len);
          else emit_cp(0xFFFD, "\xEF\xBF\xBD", 3);
        }
        p_ += st.len;
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
  /// Whether the bytes at q start a visible character: ASCII text, or valid UTF-8 of a code
  /// point that is neither a space nor dropped.
  static bool starts_visible(const unsigned char* q, const unsigned char* end) noexcept {
    if (kByteClass[*q] == bc_plain) return true;
    if (kByteClass[*q] != bc_high) return false;
    const utf8_decoded st = decode_utf8_step(q, end);
    return st.valid && classify_cp(st.cp) == cp_kind::visible;
  }

  /// The fast path of run(): from p_, the longest run of ASCII text bytes and valid UTF-8
  /// sequences of visible code points, with single spaces between words (outside <pre>), emitted
  /// in one piece with the counts that emit_ascii, emit_cp and whitespace would make one
  /// character at a time (characters, sentence stops, dense letters, tokens that are words). A
  /// space is taken only when a visible character follows it, so the run ends on a character.
  /// False, with nothing consumed, when p_ starts no such run (invalid UTF-8, or a code point
  /// that is a space or dropped): the slow path takes it.
  bool word_run() {
    const auto* const start = reinterpret_cast<const unsigned char*>(p_);
    const auto* const end = reinterpret_cast<const unsigned char*>(e_);
    const unsigned char* q = start;
    std::uint32_t chars = 0, stops = 0, dense = 0, tokens = 0;
    unsigned word = 0;              // the current token has a word's character
    bool counted = token_counted_;  // the current token is counted
    const bool spaces = !in_pre();
    while (q < end) {
      const unsigned char c = *q;
      if (kByteClass[c] == bc_plain) {
        const unsigned f = kAsciiText[c];
        word |= f & 1;
        stops += f >> 1;
        ++chars;
        ++q;
        continue;
      }
      if (c == ' ' && spaces && end - q >= 2 && starts_visible(q + 1, end)) {
        if (word && !counted) ++tokens;  // the token ends: whitespace() starts the next
        word = 0;
        counted = false;
        ++q;
        continue;
      }
      if (kByteClass[c] != bc_high) break;
      if (c >= 0xC3 && c <= 0xDF && end - q >= 2 && (q[1] & 0xC0) == 0x80 && !(c == 0xC3 && (q[1] == 0x97 || q[1] == 0xB7))) {
        // U+00C0..U+07FF but × and ÷ (Latin letters, Greek, Cyrillic, Armenian, Hebrew, Arabic...):
        // visible, not dense, a word's letter
        word = 1;
        ++chars;
        q += 2;
        continue;
      }
      const utf8_decoded st = decode_utf8_step(q, end);
      if (!st.valid || classify_cp(st.cp) != cp_kind::visible) break;
      ++chars;
      if (is_dense_letter(st.cp)) ++dense;
      else if (is_word_cp(st.cp)) word = 1;
      else if (is_stop_cp(st.cp)) ++stops;
      q += st.len;
    }
    if (q == start) return false;
    p_ = reinterpret_cast<const char*>(q);
    if (suppressed()) return true;
    if (word && !counted) {
      ++tokens;
      counted = true;
    }
    before_visible();
    t_.append(reinterpret_cast<const char*>(start), static_cast<std::size_t>(q - start));
    cur_.chars += chars;
    cur_.stops += stops;
    if (dense) {
      dense_ += dense;
      if (in_link()) linked_dense_ += dense;
    }
    tokens_ += tokens;
    if (in_link()) linked_tokens_ += tokens;
    token_counted_ = counted;
    return true;
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
    s = trim_front_if(s, [](unsigned char c) { return c == ' ' || c == '\n'; });
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
      if (is_ascii_whitespace(c) || c == '/' || c == '>') break;
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
      while (p < e_ && (is_ascii_whitespace(static_cast<unsigned char>(*p)) || *p == '/')) {
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
      while (p < e_ && !is_ascii_whitespace(static_cast<unsigned char>(*p)) && *p != '/' && *p != '>' && *p != '=') ++p;
      std::string_view attr_name(an, static_cast<std::size_t>(p - an));
      while (p < e_ && is_ascii_whitespace(static_cast<unsigned char>(*p))) ++p;
      std::string_view value;
      bool has_value = false;
      if (p < e_ && *p == '=') {
        ++p;
        while (p < e_ && is_ascii_whitespace(static_cast<unsigned char>(*p))) ++p;
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
          while (p < e_ && !is_ascii_whitespace(static_cast<unsigned char>(*p)) && *p != '>') ++p;
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
      std::string_view role = trim_ascii_whitespace(a.get(attr::role));
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

  /// <html lang> (or xml:lang): the document's language, if not empty and not too long.
  void note_html_lang(const tag_attrs& a) {
    if (!a.has(attr::lang) && !a.has(attr::xml_lang)) return;
    std::string_view v = trim_ascii_whitespace(a.has(attr::lang) ? a.get(attr::lang) : a.get(attr::xml_lang));
    if (!v.empty() && v.size() <= kMaxLang) {
      r_.html_lang.clear();
      r_.invalid_sequences += decode_into(r_.html_lang, v, true, true);
      lang_seen_ = true;
    }
  }

  /// <meta http-equiv="content-language" content="...">, if not empty and not too long.
  void note_content_language(const tag_attrs& a) {
    if (!a.has(attr::content) || !iequals(trim_ascii_whitespace(a.get(attr::http_equiv)), "content-language")) return;
    std::string_view v = trim_ascii_whitespace(a.get(attr::content));
    if (!v.empty() && v.size() <= 256) {
      r_.content_language.clear();
      r_.invalid_sequences += decode_into(r_.content_language, v, true, true);
      content_language_seen_ = true;
    }
  }

  /// An <img alt> before any text of the open link: the alt text is the link's text.
  void link_alt_text(const tag_attrs& a) {
    html_link& l = r_.links[link_index_];
    l.text.clear();
    decode_into(l.text, a.get(attr::alt).substr(0, kMaxAnchor * 2), true, true);
    truncate_utf8(l.text, kMaxAnchor);
    link_alt_set_ = !l.text.empty();
  }

  /// <area href alt>: a link whose text is its alt text (it has no content).
  void area_link(const tag_attrs& a) {
    start_link(a.get(attr::href));
    if (link_open_) {
      html_link& l = r_.links[link_index_];
      if (a.has(attr::alt)) decode_into(l.text, a.get(attr::alt).substr(0, kMaxAnchor * 2), true, true);
      truncate_utf8(l.text, kMaxAnchor);
      link_open_ = false;
    }
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
        if (!lang_seen_ && !hidden) note_html_lang(a);
        return;
      case T::t_base:
        if (!base_seen_ && !hidden && a.has(attr::href)) {
          base_seen_ = true;
          std::string_view href = a.get(attr::href);
          if (href.size() <= kMaxUrl) decode_into(r_.base_url, href, true, false);
        }
        return;
      case T::t_meta:
        if (!content_language_seen_ && !hidden) note_content_language(a);
        return;
      case T::t_br:
        if (!hidden) soft_break();
        return;
      case T::t_img:
        if (link_open_ && !link_alt_set_ && a.has(attr::alt) && t_.size() == link_text_start_) link_alt_text(a);
        return;
      case T::t_area:
        if (a.has(attr::href) && !hidden) area_link(a);
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
    return is_ascii_whitespace(c) || c == '/' || c == '>';
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
        utf8_decoded st = decode_utf8_step(reinterpret_cast<const unsigned char*>(x), reinterpret_cast<const unsigned char*>(q));
        if (!st.valid) ++r_.invalid_sequences;
        if (st.valid) emit_cp(st.cp, x, st.len);
        else emit_cp(0xFFFD, "\xEF\xBF\xBD", 3);
        x += st.len;
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
      return is_ascii_whitespace(c) || c == '/' || c == '>';
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
        std::string_view raw = trim_c0_or_space(l.url);
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

}  // namespace v1
}  // namespace langsift

