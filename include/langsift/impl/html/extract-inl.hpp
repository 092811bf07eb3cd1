// langsift — implementation of langsift/html/extract.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/impl/html/extractor.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE void extract_html(std::string_view html, const html_options& options, html_result& out) {
  detail::extract_html_observed<detail::html_no_observer>(html, options, out, nullptr);
}

LANGSIFT_INLINE html_result extract_html(std::string_view html, const html_options& options) {
  html_result r;
  extract_html(html, options, r);
  return r;
}

LANGSIFT_INLINE bool looks_like_html(std::string_view bytes) noexcept {
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
    if (!(after == '>' || after == '/' || is_ascii_whitespace(after))) continue;
    if (is_ascii_whitespace(after) && e - k < 3) {
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

LANGSIFT_INLINE std::string decode_html_entities(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size());
  detail::decode_into(out, s, attribute, false);
  return out;
}

}  // namespace v1
}  // namespace langsift
