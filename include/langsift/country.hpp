// langsift — countries and their languages (CLDR territory data, generated from ICU), and the
// country a top-level domain stands for. Used for TLD hints in detection and for the host-country
// features of the URL classifier.
//
//   for (const auto& l : langsift::country_languages("CH")) ...  // de 0.73 official, en 0.61, ...
//   langsift::tld_country("uk") == "GB";  langsift::tld_country("com") == ""
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// A language spoken in a country: its code (ISO 639-1, else 639-3, "-Xxxx" for a non-default
/// script), the share of the population that speaks it (CLDR; second-language speakers count, so
/// English is high in many countries), and whether it is official there.
struct country_language {
  std::string_view language;
  float share;
  bool official;  ///< official or de facto official nationwide (not regional or minority status)
};

/// The languages of a country (ISO 3166-1 alpha-2, case-insensitive), most widely spoken first;
/// empty for an unknown code.
std::span<const country_language> country_languages(std::string_view cc) noexcept;

/// The country (ISO 3166-1 alpha-2, upper case) a top-level domain stands for: the ccTLDs, with
/// "uk" -> GB; "" for generic TLDs (com, org, net, info, eu...) and unknown ones. Accepts a bare
/// TLD ("de") or a host name ("www.example.co.uk" -> GB).
std::string_view tld_country(std::string_view tld) noexcept;

/// Calls f(language, share) for the languages a country's sites are likely written in: its
/// nationwide official languages, or, where CLDR names none, its most widely spoken language.
template <class F>
inline void for_each_country_language(std::string_view cc, F&& f) {
  const auto langs = country_languages(cc);
  bool any = false;
  for (const auto& l : langs)
    if (l.official) {
      f(l.language, l.share);
      any = true;
    }
  if (!any && !langs.empty()) f(langs[0].language, langs[0].share);
}

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/country-inl.hpp"
#endif
