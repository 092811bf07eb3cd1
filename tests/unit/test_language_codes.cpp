// ISO 639-1 <-> ISO 639-3 (langsift/language_codes.hpp), against known answers and against ICU.
#include <catch2/catch.hpp>

#include <unicode/uloc.h>

#include <cstring>
#include <string>

#include "langsift/default_model.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/script.hpp"

using namespace langsift;

TEST_CASE("ISO 639-3 codes of ISO 639-1 codes: known answers") {
  CHECK(to_iso639_3("de") == "deu");
  CHECK(to_iso639_3("en") == "eng");
  CHECK(to_iso639_3("fr") == "fra");   // the T code, not the B code "fre"
  CHECK(to_iso639_3("ms") == "msa");   // a macrolanguage stays one
  CHECK(to_iso639_3("zh") == "zho");
  CHECK(to_iso639_3("nb") == "nob");
  CHECK(to_iso639_3("zh-Hant") == "zho-Hant");
  CHECK(to_iso639_3("sr-Latn") == "srp-Latn");
  CHECK(to_iso639_3("DE") == "deu");   // case-insensitive primary subtag
  CHECK(to_iso639_3("ceb") == "ceb");  // no two-letter code: unchanged
  CHECK(to_iso639_3("und") == "und");
  CHECK(to_iso639_3("") == "");
  CHECK(to_iso639_3("xx") == "xx");    // not an ISO 639-1 code: unchanged
  CHECK(to_iso639_1("deu") == "de");
  CHECK(to_iso639_1("zho-Hant") == "zh-Hant");
  CHECK(to_iso639_1("ceb") == "ceb");
  CHECK(to_iso639_1("de") == "de");
  CHECK(to_iso639_1("und") == "und");
  CHECK(code_in_style("de", code_style::iso639_1) == "de");
  CHECK(code_in_style("de", code_style::iso639_3) == "deu");
  CHECK(iso639_3_of("d") == "");
  CHECK(iso639_1_of("de") == "");
}

TEST_CASE("every code the built-in model or a script can answer has a three-letter form that maps back") {
  const model& m = default_model();
  REQUIRE(m.language_count() > 100);
  auto check = [](std::string_view code) {
    INFO(code);
    const std::string three = to_iso639_3(code);
    const std::string primary = three.substr(0, three.find('-'));
    CHECK(primary.size() == 3);
    CHECK(to_iso639_1(three) == code);
  };
  for (std::size_t i = 0; i < m.language_count(); ++i) check(m.language_code(i));
  for (std::size_t s = 0; s < script_count; ++s) {
    const std::string_view l = script_language(static_cast<script>(s));
    if (!l.empty()) check(l);
  }
}

TEST_CASE("the generated table is ICU's mapping, whole") {
  std::size_t two_letter = 1;  // "tl", which ICU maps (tgl) but does not list: the generator adds it
  CHECK(iso639_3_of("tl") == std::string_view(uloc_getISO3Language("tl")));
  for (const char* const* l = uloc_getISOLanguages(); *l; ++l) {
    if (std::strlen(*l) != 2) continue;
    ++two_letter;
    INFO(*l);
    CHECK(iso639_3_of(*l) == std::string_view(uloc_getISO3Language(*l)));
  }
  CHECK(two_letter == std::size(detail::iso639_table));
}
