// langsift — implementation of langsift/html/main_content.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/html/main_content.hpp"

#include <algorithm>
#include <string_view>

#include "langsift/impl/html/tables.hpp"

namespace langsift {
inline namespace v1 {

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

/// Title match (Boilerpipe's DocumentTitleMatchClassifier, simplified): of the first 16 h1-h3
/// headings, the longest whose text occurs in the <title> is the page's title; its block alone
/// gets html_block_title.
inline void mc_mark_title(html_result& r) noexcept {
  std::vector<html_block>& B = r.blocks;
  const std::size_t n = B.size();
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
}

/// The words of a block that count as prose for mc_unflag_prose_container.
inline std::uint32_t mc_prose_words(const html_block& b) noexcept {
  return b.words > 15 && b.linked_words * 3 <= b.words && b.stops >= 1 ? b.words : 0u;
}

/// A "boilerplate" container that holds most of the page's prose is not boilerplate: it is a
/// wrapper with a layout class ("wy-grid-for-nav", "has-sidebar") or a misused element.
/// Navigation, sidebars and footers never hold most of a page's text. Such a container's
/// blocks lose the boilerplate flags (its ancestors hold the same prose, so they are cleared
/// with it; boilerplate containers nested inside it keep theirs).
inline void mc_unflag_prose_container(std::vector<html_block>& B) noexcept {
  std::uint64_t total = 0, best_words = 0;
  std::uint32_t best = 0;
  for (const html_block& b : B) total += mc_prose_words(b);
  // At most one container can hold a majority of the prose words: find the candidate with a
  // weighted Boyer-Moore majority vote (each block votes its prose words for its innermost
  // container), then count its words in a second pass. O(n), no per-container table.
  std::uint32_t cur = 0;
  std::uint64_t run = 0;
  for (const html_block& b : B) {
    std::uint64_t w = mc_prose_words(b);
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
      if (b.container == cur) best_words += mc_prose_words(b);
    best = cur;
  }
  if (best != 0 && best_words * 2 > total)
    for (html_block& b : B)
      if (b.container == best)
        b.flags &= ~static_cast<std::uint32_t>(html_block_boilerplate | html_block_hint_boilerplate);
}

/// Pass 2 of mark_main_content, forward: short blocks next to content are kept too.
inline void mc_keep_neighbours(std::vector<html_block>& B) noexcept {
  const std::size_t n = B.size();
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
}

}  // namespace detail

LANGSIFT_INLINE void mark_main_content(html_result& r) noexcept {
  using namespace detail;
  std::vector<html_block>& B = r.blocks;
  mc_mark_title(r);
  mc_unflag_prose_container(B);
  // Pass 1: long low-link-density blocks are content.
  for (html_block& b : B) b.kept = mc_long(b);
  mc_keep_neighbours(B);
  // If nothing qualifies (a short page), keep what is neither boilerplate nor a link list, so
  // that language identification still has text to work on.
  if (std::none_of(B.begin(), B.end(), [](const html_block& b) { return b.kept; }))
    for (html_block& b : B) b.kept = mc_short_candidate(b);
}

}  // namespace v1
}  // namespace langsift
