// Countries and their languages (generated from CLDR via ICU), and TLDs as hints.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "langsift/country.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"

using namespace langsift;

namespace {
std::vector<std::string> official(std::string_view cc) {
  std::vector<std::string> v;
  for_each_country_language(cc, [&](std::string_view l, float) { v.emplace_back(l); });
  return v;
}
}  // namespace

TEST_CASE("country languages come from CLDR, most spoken first, official flagged") {
  CHECK(official("DE") == std::vector<std::string>{"de"});
  CHECK(official("ch") == std::vector<std::string>{"de", "gsw", "fr", "it"});  // CLDR: Swiss German official
  CHECK(official("BE") == std::vector<std::string>{"nl", "fr", "de"});
  CHECK(official("TW") == std::vector<std::string>{"zh-Hant"});
  CHECK(official("BR") == std::vector<std::string>{"pt"});
  const auto de = country_languages("DE");
  REQUIRE(de.size() > 3);
  CHECK(de[0].language == "de");
  CHECK(de[0].share > 0.85f);
  for (std::size_t i = 1; i < de.size(); ++i) CHECK(de[i - 1].share >= de[i].share);
  CHECK(country_languages("XX").empty());
  CHECK(country_languages("").empty());
  CHECK(country_languages("DEU").empty());
}

TEST_CASE("TLDs map to countries, generic TLDs to none") {
  CHECK(tld_country("de") == "DE");
  CHECK(tld_country("www.example.co.uk") == "GB");
  CHECK(tld_country("UK") == "GB");
  CHECK(tld_country("com").empty());
  CHECK(tld_country("eu").empty());
  CHECK(tld_country("zz").empty());
  CHECK(tld_country("").empty());
  CHECK(tld_country("example.1a").empty());
}

TEST_CASE("a TLD is a hint that decides close calls only") {
  detect_options o;
  o.hints.tld = "www.example.no";
  CHECK(detect(default_model(), "kan ikke", o).language() == "nb");
  o.hints.tld = "www.example.dk";
  CHECK(detect(default_model(), "kan ikke", o).language() == "da");
  o.hints.tld = "example.de";
  CHECK(detect(default_model(), "The city council approved a new budget for schools and public libraries.", o).language() ==
        "en");
}
