// langsift — implementation of langsift/country.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/country.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {
struct country_index_entry {
  char cc[2];
  unsigned short begin, end;
};
}  // namespace detail

}  // namespace v1
}  // namespace langsift

#include "langsift/detail/country_tables.inc"

namespace langsift {
inline namespace v1 {

namespace detail {
constexpr bool country_index_sorted() noexcept {
  for (std::size_t i = 1; i < std::size(country_index); ++i) {
    const auto &x = country_index[i - 1], &y = country_index[i];
    if (!(x.cc[0] < y.cc[0] || (x.cc[0] == y.cc[0] && x.cc[1] < y.cc[1]))) return false;
  }
  return true;
}
static_assert(country_index_sorted(), "country_tables.inc: the index must be sorted by code (find_country)");

/// The index entry of country code `a b` (upper case), or nullptr (binary search: sorted index).
inline const country_index_entry* find_country(char a, char b) noexcept {
  std::size_t lo = 0, hi = std::size(country_index);
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    const auto& e = country_index[mid];
    if (e.cc[0] < a || (e.cc[0] == a && e.cc[1] < b))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == std::size(country_index)) return nullptr;
  const auto& e = country_index[lo];
  return e.cc[0] == a && e.cc[1] == b ? &e : nullptr;
}
}  // namespace detail

LANGSIFT_INLINE std::span<const country_language> country_languages(std::string_view cc) noexcept {
  if (cc.size() != 2) return {};
  auto up = [](char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; };
  const detail::country_index_entry* e = detail::find_country(up(cc[0]), up(cc[1]));
  if (!e) return {};
  return {detail::country_language_table + e->begin, static_cast<std::size_t>(e->end - e->begin)};
}

LANGSIFT_INLINE std::string_view tld_country(std::string_view tld) noexcept {
  if (auto dot = tld.rfind('.'); dot != std::string_view::npos) tld = tld.substr(dot + 1);
  if (tld.size() != 2) return {};
  char cc[2] = {tld[0], tld[1]};
  for (char& c : cc) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (c < 'A' || c > 'Z') return {};
  }
  if (cc[0] == 'U' && cc[1] == 'K') return "GB";
  if (cc[0] == 'E' && cc[1] == 'U') return {};  // European Union: no single language
  if (cc[0] == 'S' && cc[1] == 'U') return "RU";  // former Soviet Union, still Russian-language
  if (cc[0] == 'A' && cc[1] == 'C') return "SH";
  // a view into the static index, which owns the characters
  const detail::country_index_entry* e = detail::find_country(cc[0], cc[1]);
  return e ? std::string_view(e->cc, 2) : std::string_view();
}

}  // namespace v1
}  // namespace langsift
