// langsift — the main-content rules (part of langsift/html.hpp): which text blocks of a page are
// its content, from the blocks' shallow features.
#pragma once

#include "langsift/html/types.hpp"

namespace langsift {
inline namespace v1 {


/// The main-content rules (in the spirit of Kohlschütter et al. 2010, see docs/html.md): sets
/// `kept` on each block of `r.blocks` from the blocks' features, `r.text` and `r.title` (and
/// updates the flags it derives: html_block_title, and the boilerplate flags of a "boilerplate"
/// container that turns out to hold most of the page's prose). Does not change `r.text`;
/// extract_html with main_content = true calls it and then keeps only the kept blocks' text.
/// Call it on a full-text result: after main-content extraction the offsets no longer fit.
void mark_main_content(html_result& r) noexcept;

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/html/main_content-inl.hpp"
#endif
