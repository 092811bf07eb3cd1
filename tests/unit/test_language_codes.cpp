// ISO 639-1 <-> ISO 639-3 (langsift/language_codes.hpp), against known answers and against ICU.
#include <catch2/catch.hpp>

#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/script.hpp"
#include "langsift/train.hpp"

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
  // The English names (suggest_language_code's "German" -> de) are ICU's.
  for (const auto& p : detail::iso639_table) {
    INFO(p.two);
    UChar name[128];
    char utf8[512];
    UErrorCode e = U_ZERO_ERROR;
    const int32_t n = uloc_getDisplayLanguage(p.two, "en", name, 128, &e);
    REQUIRE(U_SUCCESS(e));
    int32_t m = 0;
    u_strToUTF8(utf8, sizeof utf8, &m, name, n, &e);
    REQUIRE(U_SUCCESS(e));
    CHECK(std::string_view(p.name) == std::string_view(utf8, static_cast<std::size_t>(m)));
  }
}

TEST_CASE("codes are written in BCP 47's case, as langsift reports them: any case given is the same code") {
  // Java's filter ignored case and C++ compared exactly (#34): now every given code is put in the
  // case the models write (language lower, script title, region upper) and compared exactly.
  CHECK(to_iso639_1("zh-hant") == "zh-Hant");
  CHECK(to_iso639_1("ZHO-HANT") == "zh-Hant");
  CHECK(to_iso639_1("Sr-lATN") == "sr-Latn");
  CHECK(to_iso639_1("DE") == "de");
  CHECK(to_iso639_1("pt-br") == "pt-BR");
  CHECK(to_iso639_1("zh-hant-tw") == "zh-Hant-TW");
  CHECK(to_iso639_1("zh_hant") == "zh_Hant");              // the separator as given (suggest_language_code fixes it)
  CHECK(to_iso639_1("es-419") == "es-419");
  CHECK(to_iso639_1("en-us-x-twain") == "en-US-x-twain");  // other subtags as given
  CHECK(to_iso639_3("zh-hant") == "zho-Hant");
  CHECK(to_iso639_3("SR-latn") == "srp-Latn");
  // The model's own codes come back unchanged.
  for (std::size_t l = 0; l < default_model().language_count(); ++l) {
    const std::string_view code = default_model().language_code(l);
    CAPTURE(code);
    CHECK(to_iso639_1(code) == code);
  }
}

TEST_CASE("suggest_language_code: what a code that names no language was probably meant as") {
  // A region or other subtag: the language, a script kept.
  CHECK(suggest_language_code("de-DE") == "de");
  CHECK(suggest_language_code("pt_BR") == "pt");
  CHECK(suggest_language_code("es-419") == "es");
  CHECK(suggest_language_code("en-US-x-twain") == "en");
  CHECK(suggest_language_code("deu-DE") == "de");
  CHECK(suggest_language_code("zh-Hant-TW") == "zh-Hant");
  CHECK(suggest_language_code("zh_hant") == "zh-Hant");
  CHECK(suggest_language_code("sr-Latn-RS") == "sr-Latn");
  // ISO 639-2/B codes, and every one of them has a two-letter code.
  CHECK(suggest_language_code("ger") == "de");
  CHECK(suggest_language_code("fre") == "fr");
  CHECK(suggest_language_code("chi") == "zh");
  CHECK(suggest_language_code("GER") == "de");
  for (const auto& bt : detail::iso639_2b_to_t) {
    INFO(bt[0]);
    CHECK(iso639_1_of(bt[1]).size() == 2);
    CHECK(suggest_language_code(bt[0]) == iso639_1_of(bt[1]));
  }
  // English names, in any ASCII case (a hyphen in a name is no subtag).
  CHECK(suggest_language_code("German") == "de");
  CHECK(suggest_language_code("german") == "de");
  CHECK(suggest_language_code("GERMAN") == "de");
  CHECK(suggest_language_code("Norwegian Bokmål") == "nb");
  CHECK(suggest_language_code("Luba-Katanga") == "lu");
  // Nothing to suggest: codes already in langsift's form, and what resembles nothing.
  for (const char* none : {"de", "deu", "zh-Hant", "sr-Latn", "und", "xx", "", "-", "_DE", "germany", "Deutsch"}) {
    INFO(none);
    CHECK(suggest_language_code(none).empty());
  }
}

TEST_CASE("unknown_builtin_codes: the languages of the built-in models and scripts, and of a given model") {
  const std::vector<std::string_view> codes = {"de",    "zh",  "zh-Hant", "sr",  "fo",    "chr",  "und",
                                               "de-DE", "ger", "german",  "deu", "qaa",   "",     "zh-Hans"};
  // fo (Faroese) is a language of the wide model only; chr (Cherokee) one its script decides.
  // Codes are compared as given: "deu" is to_iso639_1()'s to convert.
  CHECK(unknown_builtin_codes(codes) ==
        std::vector<std::string_view>{"und", "de-DE", "ger", "german", "deu", "qaa", "", "zh-Hans"});
  std::vector<std::string_view> none;
  CHECK(unknown_builtin_codes(none).empty());
  // Every language of both built-in models is known.
  for (const std::string_view name : builtin_model_names()) {
    const model* m = nullptr;
    REQUIRE(builtin_model(name, m) == status::ok);
    for (std::size_t i = 0; i < m->language_count(); ++i) {
      const std::string_view c = m->language_code(i);
      INFO(c);
      CHECK(unknown_builtin_codes(std::span<const std::string_view>(&c, 1)).empty());
      CHECK(to_iso639_1(to_iso639_3(c)) == c);  // either ISO form names it
    }
  }
  // A trained model's own code ("qaa", ISO 639's range for local use) is known with `also`.
  std::vector<language_counts> counts;
  train_config cfg;
  for (const char* code : {"qaa", "en"}) {
    counts.emplace_back(code, cfg.features);
    counts.back().set_fit_sample(0, 0);
    std::ifstream in(std::string(LANGSIFT_TEST_DATA_DIR) + (code[0] == 'q' ? "/corpus/de.txt" : "/corpus/en.txt"));
    for (std::string line; std::getline(in, line);) counts.back().add_text(line);
  }
  std::vector<const language_counts*> ptrs;
  for (const auto& c : counts) ptrs.push_back(&c);
  model mini;
  REQUIRE(model::load_copy(build_model(ptrs, cfg, "name=mini\n"), mini) == status::ok);
  REQUIRE(mini.find_language("qaa") >= 0);
  CHECK(unknown_builtin_codes(codes, &mini) ==
        std::vector<std::string_view>{"und", "de-DE", "ger", "german", "deu", "", "zh-Hans"});
}
