// langsift — implementation of langsift/language_codes.hpp (compiled into langsift::core, or
// included by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include <algorithm>

#include "langsift/language_codes.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/iso639_table.inc"

namespace langsift {
inline namespace v1 {
namespace detail {

/// Splits "zh-Hant" into the lower-cased primary subtag (at most 8 letters, into `buf`) and the rest
/// ("-Hant", as given). False when the primary subtag is empty or longer than 8.
inline bool split_primary(std::string_view code, char (&buf)[9], std::size_t& n, std::string_view& rest) noexcept {
  n = 0;
  std::size_t i = 0;
  while (i < code.size() && code[i] != '-' && code[i] != '_') {
    if (n == 8) return false;
    buf[n++] = ascii_lower(code[i++]);
  }
  buf[n] = '\0';
  rest = code.substr(i);
  return n > 0;
}

/// Appends the subtags after the primary one (`rest`: "-hant-tw", "_BR", as given) to `out` in
/// BCP 47's case: a script (four letters, right after the language) in title case ("Hant"), a
/// region of two letters in upper case ("TW"), anything else and the separators as given.
inline void append_subtags_in_case(std::string_view rest, std::string& out) {
  std::size_t i = 0, index = 0;
  while (i < rest.size()) {
    out += rest[i++];  // the separator
    std::size_t j = i;
    while (j < rest.size() && rest[j] != '-' && rest[j] != '_') ++j;
    const std::string_view sub = rest.substr(i, j - i);
    bool alpha = !sub.empty();
    for (const char c : sub) alpha = alpha && is_ascii_alpha(static_cast<unsigned char>(c));
    ++index;
    for (std::size_t k = 0; k < sub.size(); ++k) {
      const char lower = ascii_lower(sub[k]);
      if (alpha && sub.size() == 4 && index == 1) out += k == 0 ? static_cast<char>(lower - ('a' - 'A')) : lower;
      else if (alpha && sub.size() == 2) out += static_cast<char>(lower - ('a' - 'A'));
      else out += sub[k];
    }
    i = j;
  }
}

// ISO 639-2's list, unchanged since the withdrawal of scc/scr in 2008. ICU knows only the T
// codes; suggest_language_code() maps "ger" -> deu -> de.
LANGSIFT_INLINE constexpr std::string_view iso639_2b_to_t[20][2] = {
    {"alb", "sqi"}, {"arm", "hye"}, {"baq", "eus"}, {"bur", "mya"}, {"chi", "zho"}, {"cze", "ces"}, {"dut", "nld"},
    {"fre", "fra"}, {"geo", "kat"}, {"ger", "deu"}, {"gre", "ell"}, {"ice", "isl"}, {"mac", "mkd"}, {"mao", "mri"},
    {"may", "msa"}, {"per", "fas"}, {"rum", "ron"}, {"slo", "slk"}, {"tib", "bod"}, {"wel", "cym"}};

}  // namespace detail

LANGSIFT_INLINE std::string_view iso639_3_of(std::string_view two) noexcept {
  if (two.size() != 2) return {};
  std::size_t lo = 0, hi = std::size(detail::iso639_table);
  while (lo < hi) {  // sorted by the two-letter code
    const std::size_t mid = (lo + hi) / 2;
    const std::string_view k = detail::iso639_table[mid].two;
    if (k == two) return detail::iso639_table[mid].three;
    if (k < two) lo = mid + 1;
    else hi = mid;
  }
  return {};
}

LANGSIFT_INLINE std::string_view iso639_1_of(std::string_view three) noexcept {
  if (three.size() != 3) return {};
  for (const auto& p : detail::iso639_table)
    if (three == p.three) return p.two;
  return {};
}

LANGSIFT_INLINE std::string to_iso639_3(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view three = iso639_3_of(primary);
  std::string r(three.empty() ? primary : three);
  detail::append_subtags_in_case(rest, r);
  return r;
}

LANGSIFT_INLINE std::string to_iso639_1(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view two = iso639_1_of(primary);
  std::string r(two.empty() ? primary : two);
  detail::append_subtags_in_case(rest, r);
  return r;
}

LANGSIFT_INLINE std::string suggest_language_code(std::string_view code) {
  for (const auto& p : detail::iso639_table)  // first: a name may hold a hyphen ("Luba-Katanga")
    if (p.name[0] != '\0' && detail::iequals(code, p.name)) return p.two;
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (detail::split_primary(code, buf, n, rest)) {
    std::string primary(buf, n);
    for (const auto& bt : detail::iso639_2b_to_t)
      if (primary == bt[0]) primary = std::string(bt[1]);
    std::string r = to_iso639_1(primary);
    // The subtags after the language: a script (four letters, right after it) is kept, in its
    // usual case ("Hant"); a region ("DE", "419") and anything after it is dropped.
    if (rest.size() >= 5 && (rest.size() == 5 || rest[5] == '-' || rest[5] == '_')) {
      const std::string_view sub = rest.substr(1, 4);
      if (std::all_of(sub.begin(), sub.end(), [](char c) { return detail::is_ascii_alpha(static_cast<unsigned char>(c)); })) {
        r += '-';
        r += static_cast<char>(detail::ascii_lower(sub[0]) - ('a' - 'A'));
        for (std::size_t i = 1; i < 4; ++i) r += detail::ascii_lower(sub[i]);
      }
    }
    if (r != to_iso639_1(code)) return r;
  }
  return {};
}

}  // namespace v1
}  // namespace langsift
