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

#include "langsift/config.hpp"

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
  const char* name;  ///< English, as ICU names it ("German", "Norwegian Bokmål"); "" if none
};

/// ISO 639-1 code -> ISO 639-3 code and name, sorted by the first: the generated detail/iso639_table.inc
/// (included by the implementation only). The size is that of the table ICU 72.1 gives.
extern const iso639_pair iso639_table[183];

/// The twenty ISO 639-2/B (bibliographic) codes that differ from the ISO 639-2/T code of the same
/// language, each with that T code ({"ger", "deu"}): ISO 639-2's list.
extern const std::string_view iso639_2b_to_t[20][2];

}  // namespace detail

/// The ISO 639-3 code of an ISO 639-1 code ("de" -> "deu"), "" when `two` is not one.
std::string_view iso639_3_of(std::string_view two) noexcept;

/// The ISO 639-1 code of an ISO 639-3 code ("deu" -> "de"), "" when it has none.
std::string_view iso639_1_of(std::string_view three) noexcept;

/// `code` in ISO 639-3 form: its primary subtag lower-cased and replaced by its three-letter code
/// where it has two letters, any script or region subtag kept ("zh-Hant" -> "zho-Hant"). "und" and
/// codes that are already three letters stay as they are; a two-letter code ICU does not know is
/// returned lower-cased, unchanged. Both functions write the subtags in BCP 47's case, as langsift
/// reports codes (codes are case-insensitive; langsift compares them in this form): the language
/// lower-cased, a script subtag in title case, a two-letter region upper-cased ("ZH-hant" ->
/// "zho-Hant"); the separators and other subtags stay as given.
std::string to_iso639_3(std::string_view code);

/// `code` in langsift's default form: ISO 639-1 where the language has a two-letter code
/// ("deu" -> "de", "zho-Hant" -> "zh-Hant"), else as given with its primary subtag lower-cased;
/// subtags in BCP 47's case, as to_iso639_3 ("zh-hant" -> "zh-Hant", "DE" -> "de").
std::string to_iso639_1(std::string_view code);

/// The code `code` was probably meant as, for the message about a code that names no language:
/// - a tag with a region or other subtag: its language, with a script subtag kept ("de-DE",
///   "pt_BR" -> "de", "pt"; "zh-Hant-TW" -> "zh-Hant"; "deu-DE" -> "de");
/// - an ISO 639-2/B code: its ISO 639-1 code ("ger" -> "de", "fre" -> "fr", "chi" -> "zh");
/// - the English name of an ISO 639-1 language, in any ASCII case ("German", "german" -> "de");
/// - else "" (also for a code already in langsift's form, "de": nothing to suggest).
/// Whether the suggestion names a language the caller knows is the caller's check
/// (unknown_codes(), unknown_builtin_codes()).
std::string suggest_language_code(std::string_view code);

/// `code` in the given form.
inline std::string code_in_style(std::string_view code, code_style s) {
  return s == code_style::iso639_3 ? to_iso639_3(code) : std::string(code);
}

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/language_codes-inl.hpp"
#endif
