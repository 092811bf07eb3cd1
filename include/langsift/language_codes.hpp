// langsift — language codes in the two forms crawl pipelines use.
//
// langsift reports ISO 639-1 codes where one exists, else ISO 639-3, with a script subtag where
// the model has one ("de", "ceb", "zh-Hant"): BCP 47's choice. Common Crawl's index, GlotLID and
// FineWeb-2 use ISO 639-3 for every language ("deu", "ceb"). These functions convert between
// the two; the table (detail/iso639_table.inc) is generated from ICU by langsift-gen-iso639.
//
//   langsift::to_iso639_3("de")      -> "deu"
//   langsift::to_iso639_3("zh-Hant") -> "zho-Hant"  (the script subtag is kept)
//   langsift::to_iso639_3("ms")      -> "msa"       (a macrolanguage stays a macrolanguage)
//   langsift::to_iso639_1("deu")     -> "de"
//   langsift::to_iso639_1("ceb")     -> "ceb"       (no two-letter code: unchanged)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {

/// The form in which language codes are reported.
enum class code_style : std::uint8_t {
  iso639_1,  ///< ISO 639-1 where one exists, else ISO 639-3 (the default everywhere)
  iso639_3,  ///< ISO 639-3 always
};

namespace detail {

struct iso639_pair {
  const char* two;
  const char* three;
};

}  // namespace detail
}  // namespace v1
}  // namespace langsift

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
    char c = code[i++];
    buf[n++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
  }
  buf[n] = '\0';
  rest = code.substr(i);
  return n > 0;
}

}  // namespace detail

/// The ISO 639-3 code of an ISO 639-1 code ("de" -> "deu"), "" when `two` is not one.
inline std::string_view iso639_3_of(std::string_view two) noexcept {
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

/// The ISO 639-1 code of an ISO 639-3 code ("deu" -> "de"), "" when it has none.
inline std::string_view iso639_1_of(std::string_view three) noexcept {
  if (three.size() != 3) return {};
  for (const auto& p : detail::iso639_table)
    if (three == p.three) return p.two;
  return {};
}

/// `code` in ISO 639-3 form: its primary subtag lower-cased and replaced by its three-letter code
/// where it has two letters, any script or region subtag kept ("zh-Hant" -> "zho-Hant"). "und" and
/// codes that are already three letters stay as they are; a two-letter code ICU does not know is
/// returned lower-cased, unchanged.
inline std::string to_iso639_3(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view three = iso639_3_of(primary);
  std::string r(three.empty() ? primary : three);
  r += rest;
  return r;
}

/// `code` in langsift's default form: ISO 639-1 where the language has a two-letter code
/// ("deu" -> "de", "zho-Hant" -> "zh-Hant"), else as given with its primary subtag lower-cased.
inline std::string to_iso639_1(std::string_view code) {
  char buf[9];
  std::size_t n = 0;
  std::string_view rest;
  if (!detail::split_primary(code, buf, n, rest)) return std::string(code);
  const std::string_view primary(buf, n);
  const std::string_view two = iso639_1_of(primary);
  std::string r(two.empty() ? primary : two);
  r += rest;
  return r;
}

/// `code` in the given form.
inline std::string code_in_style(std::string_view code, code_style s) {
  return s == code_style::iso639_3 ? to_iso639_3(code) : std::string(code);
}

}  // namespace v1
}  // namespace langsift
