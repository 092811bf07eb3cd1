// langsift — the ASCII primitives (case, character classes, trimming) used by every parser in the
// library: HTML, URIs and URLs, WARC/HTTP headers, encoding labels, language codes. Bytes >= 0x80
// are never letters, digits or spaces here. Tiny and dependency-free, so public headers include it.
#pragma once

#include <cstddef>
#include <string_view>

namespace langsift {
inline namespace v1 {
namespace detail {

/// 'A'..'Z' → 'a'..'z'; every other byte as it is.
inline constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c;
}

inline constexpr bool is_ascii_alpha(unsigned char c) noexcept {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
inline constexpr bool is_ascii_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr bool is_ascii_alnum(unsigned char c) noexcept {
  return is_ascii_alpha(c) || is_ascii_digit(c);
}

/// WHATWG "ASCII whitespace": TAB, LF, FF, CR, SPACE (HTML attributes, encoding labels).
inline constexpr bool is_ascii_whitespace(unsigned char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
/// WHATWG "C0 control or space": U+0000..U+0020 (what the URL parser strips from a URL's ends).
inline constexpr bool is_c0_or_space(unsigned char c) noexcept { return c <= 0x20; }

/// ASCII case-insensitive equality.
inline constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

/// `s` without its leading bytes b for which is_space(b) holds.
template <class Pred>
constexpr std::string_view trim_front_if(std::string_view s, Pred is_space) noexcept {
  while (!s.empty() && is_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return s;
}
/// `s` without its trailing bytes b for which is_space(b) holds.
template <class Pred>
constexpr std::string_view trim_back_if(std::string_view s, Pred is_space) noexcept {
  while (!s.empty() && is_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
/// `s` without the bytes b at either end for which is_space(b) holds.
template <class Pred>
constexpr std::string_view trim_if(std::string_view s, Pred is_space) noexcept {
  return trim_back_if(trim_front_if(s, is_space), is_space);
}

/// `s` without ASCII whitespace at either end (WHATWG "strip leading and trailing ASCII whitespace").
inline constexpr std::string_view trim_ascii_whitespace(std::string_view s) noexcept {
  return trim_if(s, is_ascii_whitespace);
}

/// `s` without C0 controls or spaces at either end (what the WHATWG URL parser strips first).
inline constexpr std::string_view trim_c0_or_space(std::string_view s) noexcept {
  return trim_if(s, is_c0_or_space);
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
