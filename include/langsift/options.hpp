// langsift — the rules every front end follows when it reads what a user wrote: lists of language
// codes, code-style names, and NCL-Crawl's filter configuration. The command-line tools, the C ABI
// (langsift.h), the Python package (with its Dask job) and the Java bridge (through the C ABI) all
// read them here, so that `deu`, `"de fr"` or `filter.lang.label` mean the same thing everywhere.
//
//   langsift::parse_code_list("deu, fr it")        -> {"de", "fr", "it"}
//   langsift::parse_code_style("iso639-3")          -> code_style::iso639_3
//   langsift::language_filter_from_config(get, f)  -> f from filter.lang.* (get: key -> value)
//
// The other rules of this kind live beside what they name: a model named by a user ("default",
// "wide" or a file) is resolve_model() (default_model.hpp, library langsift::models); enum names
// are status_name() (common.hpp), encoding_source_name() (encoding.hpp), url_decision_name()
// (url/classify.hpp). Codes compare as detail::code_matches() compares them (detector.hpp): "zh"
// names zh-Hant too, and case does not matter (BCP 47: "DE" is "de", "zh-hant" is "zh-Hant").
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/config.hpp"
#include "langsift/filter.hpp"
#include "langsift/language_codes.hpp"

namespace langsift {
inline namespace v1 {

// ------------------------------------------------------------------------------------------------
// Lists of language codes

/// The separators of a list of codes: ',' and ASCII white space (space, tab, LF, CR, VT, FF).
constexpr bool is_code_list_separator(char c) noexcept {
  return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/// The items of a list of codes as written ("de, fr it" -> "de", "fr", "it"): separated by commas
/// and/or white space, empty items dropped. Views into `list`.
std::vector<std::string_view> split_code_list(std::string_view list);

/// The codes of a list in langsift's form (to_iso639_1 of each item of split_code_list: "deu, fr"
/// -> "de", "fr"): wherever langsift takes language codes (detect_options::only through every
/// front end, hints, filter labels, WARC languages), either ISO form is accepted. Whether each names
/// a language is the caller's check (unknown_codes(), unknown_builtin_codes()).
std::vector<std::string> parse_code_list(std::string_view list);

// ------------------------------------------------------------------------------------------------
// Code styles

/// A code style by name: "iso639-1" (also "iso639_1", "639-1") or "iso639-3" (also "iso639_3",
/// "639-3"), exactly so; nullopt for anything else.
std::optional<code_style> parse_code_style(std::string_view name) noexcept;

/// The name of a code style: "iso639-1" or "iso639-3".
constexpr std::string_view code_style_name(code_style s) noexcept {
  return s == code_style::iso639_3 ? "iso639-3" : "iso639-1";
}

// ------------------------------------------------------------------------------------------------
// NCL-Crawl's filter configuration

/// A configuration source: the value of `key`, or nullopt when it is not set (Hadoop's
/// Configuration::get, a Python mapping, a Scrapy setting...).
using config_getter = std::function<std::optional<std::string>(std::string_view key)>;

/// The names language_filter_from_config() reads, in the order it reads them.
inline constexpr std::string_view filter_config_keys[] = {
    "filter.lang.enable",
    "filter.lang.label.enable",
    "filter.lang.label",
    "filter.lang.minSize.bytes.enable",
    "filter.lang.minSize.bytes",
    "filter.lang.maxSize.bytes.enable",
    "filter.lang.maxSize.bytes",
    "filter.lang.minPercentage.limit.enable",
    "filter.lang.minPercentage.limit",
};

/// A language_filter from NCL-Crawl's configuration names. Everything is off unless
/// `filter.lang.enable` is true; then each filter is on when its own `.enable` is true:
/// `filter.lang.label` (a list of codes, parse_code_list: either ISO form, separated by commas or
/// white space), `filter.lang.minSize.bytes`, `filter.lang.maxSize.bytes`,
/// `filter.lang.minPercentage.limit` (0..100). A switch is on when its value is "true" in any ASCII
/// case, white space around it ignored; a number is decimal digits (a '+' before them allowed,
/// white space around them ignored) up to 2^63 - 1. Returns ok with `out` set; invalid_argument for
/// an enabled number that is missing or malformed, or an enabled label list that is empty, with
/// `message` (optional) naming the key ("filter.lang.minSize.bytes: not a number: 'many'"); `out` is
/// then unchanged. Whether the labels name languages is the caller's check (unknown_builtin_codes()).
/// What `get` throws passes through; otherwise this throws only std::bad_alloc.
status language_filter_from_config(const config_getter& get, language_filter& out, std::string* message = nullptr);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/options-inl.hpp"
#endif
