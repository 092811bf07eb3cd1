// What users write (langsift/options.hpp): lists of codes, code-style names, NCL-Crawl's filter
// configuration — the one implementation the tools, the C ABI, Python and Java use.
#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detail/quote.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"
#include "langsift/filter.hpp"
#include "langsift/options.hpp"
#include "langsift/url/classify.hpp"

using namespace langsift;

namespace {

using conf = std::map<std::string, std::string, std::less<>>;

config_getter getter(const conf& c) {
  return [&c](std::string_view key) -> std::optional<std::string> {
    const auto it = c.find(key);
    if (it == c.end()) return std::nullopt;
    return it->second;
  };
}

conf enabled(conf c) {
  c["filter.lang.enable"] = "true";
  return c;
}

}  // namespace

TEST_CASE("split_code_list: commas and white space separate, empty items are dropped") {
  using v = std::vector<std::string_view>;
  CHECK(split_code_list("de,fr") == v{"de", "fr"});
  CHECK(split_code_list(" de, fr ,it ") == v{"de", "fr", "it"});
  CHECK(split_code_list("de fr\tit\nnl\r\n") == v{"de", "fr", "it", "nl"});  // as Python and Java split them
  CHECK(split_code_list(",,de,,") == v{"de"});
  CHECK(split_code_list("").empty());
  CHECK(split_code_list(" ,\t, ").empty());
  CHECK(split_code_list("zh-Hant;q=0.5") == v{"zh-Hant;q=0.5"});  // a code is what lies between separators
}

TEST_CASE("parse_code_list: either ISO form, any case, in langsift's form") {
  using v = std::vector<std::string>;
  CHECK(parse_code_list("deu, fr nld") == v{"de", "fr", "nl"});
  CHECK(parse_code_list("DE,ZH-hant,zho-HANT") == v{"de", "zh-Hant", "zh-Hant"});
  CHECK(parse_code_list("ceb,und") == v{"ceb", "und"});  // no two-letter code; und as given (not a language)
  CHECK(parse_code_list("").empty());
  // What it gives is what detect's `only` answers: deu restricts to de.
  const std::vector<std::string> codes = parse_code_list("deu ,FRA");
  const std::vector<std::string_view> only(codes.begin(), codes.end());
  CHECK(unknown_codes(default_model(), only).empty());
  detect_options o;
  o.only = only;
  const detection d = detect(default_model(), "Der schnelle braune Fuchs springt über den faulen Hund.", o);
  CHECK(d.is_ok());
  CHECK(d.language() == "de");
}

TEST_CASE("code styles and url decisions by name") {
  CHECK(parse_code_style("iso639-1") == code_style::iso639_1);
  CHECK(parse_code_style("iso639_1") == code_style::iso639_1);
  CHECK(parse_code_style("639-1") == code_style::iso639_1);
  CHECK(parse_code_style("iso639-3") == code_style::iso639_3);
  CHECK(parse_code_style("iso639_3") == code_style::iso639_3);
  CHECK(parse_code_style("639-3") == code_style::iso639_3);
  for (const char* bad : {"", "iso639", "ISO639-1", "iso639-2", " iso639-1", "639_1"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_code_style(bad));
  }
  for (const code_style s : {code_style::iso639_1, code_style::iso639_3}) CHECK(parse_code_style(code_style_name(s)) == s);
  CHECK(code_style_name(code_style::iso639_3) == "iso639-3");
  CHECK(url_decision_name(url_decision::none) == "none");
  CHECK(url_decision_name(url_decision::model) == "model");
  CHECK(url_decision_name(url_decision::pattern) == "pattern");
  CHECK(url_decision_name(url_decision::country) == "country");
}

TEST_CASE("filter configuration: everything off unless filter.lang.enable, then each filter by its switch") {
  language_filter f;
  f.use_min_bytes = true;  // replaced
  REQUIRE(language_filter_from_config(getter({}), f) == status::ok);
  CHECK_FALSE(f.enabled());
  // A filter's own switch without the master switch: off.
  REQUIRE(language_filter_from_config(getter({{"filter.lang.label.enable", "true"}, {"filter.lang.label", "de"}}), f) ==
          status::ok);
  CHECK_FALSE(f.enabled());
  REQUIRE(language_filter_from_config(getter(enabled({})), f) == status::ok);
  CHECK_FALSE(f.enabled());

  const conf c = enabled({{"filter.lang.label.enable", " TRUE "},
                          {"filter.lang.label", "deu, nl\tZH-hant"},
                          {"filter.lang.minSize.bytes.enable", "True"},
                          {"filter.lang.minSize.bytes", " 100 "},
                          {"filter.lang.maxSize.bytes.enable", "true"},
                          {"filter.lang.maxSize.bytes", "+5000"},
                          {"filter.lang.minPercentage.limit.enable", "true"},
                          {"filter.lang.minPercentage.limit", "30"}});
  REQUIRE(language_filter_from_config(getter(c), f) == status::ok);
  CHECK(f.use_labels);
  CHECK(f.labels == std::vector<std::string>{"de", "nl", "zh-Hant"});
  CHECK((f.use_min_bytes && f.min_bytes == 100));
  CHECK((f.use_max_bytes && f.max_bytes == 5000));
  CHECK((f.use_min_percent && f.min_percent == 30));
  CHECK_FALSE(f.use_min_probability);
  // A value of a switch that is off is not read.
  conf off = c;
  off["filter.lang.minSize.bytes.enable"] = "false";
  off["filter.lang.minSize.bytes"] = "many";
  off["filter.lang.maxSize.bytes.enable"] = "yes";  // only "true" is on
  REQUIRE(language_filter_from_config(getter(off), f) == status::ok);
  CHECK_FALSE(f.use_min_bytes);
  CHECK_FALSE(f.use_max_bytes);
  CHECK(f.use_min_percent);
  // Every key it reads is in filter_config_keys, in order.
  std::vector<std::string> asked;
  const config_getter recording = [&](std::string_view key) -> std::optional<std::string> {
    asked.emplace_back(key);
    return getter(c)(key);
  };
  REQUIRE(language_filter_from_config(recording, f) == status::ok);
  CHECK(asked == std::vector<std::string>(std::begin(filter_config_keys), std::end(filter_config_keys)));
}

TEST_CASE("filter configuration: a bad value is an error naming its key, and the filter is left as it was") {
  const std::vector<std::pair<conf, std::string>> cases = {
      {{{"filter.lang.label.enable", "true"}}, "filter.lang.label is enabled but empty"},
      {{{"filter.lang.label.enable", "true"}, {"filter.lang.label", " , "}}, "filter.lang.label is enabled but empty"},
      {{{"filter.lang.minSize.bytes.enable", "true"}}, "filter.lang.minSize.bytes is enabled but not set"},
      {{{"filter.lang.minSize.bytes.enable", "true"}, {"filter.lang.minSize.bytes", "many"}},
       "filter.lang.minSize.bytes: not a number: 'many'"},
      {{{"filter.lang.maxSize.bytes.enable", "true"}, {"filter.lang.maxSize.bytes", "-5"}},
       "filter.lang.maxSize.bytes: must be >= 0, not -5"},
      {{{"filter.lang.maxSize.bytes.enable", "true"}, {"filter.lang.maxSize.bytes", "1_000"}},
       "filter.lang.maxSize.bytes: not a number: '1_000'"},
      {{{"filter.lang.maxSize.bytes.enable", "true"}, {"filter.lang.maxSize.bytes", "9223372036854775808"}},
       "filter.lang.maxSize.bytes: must be at most 9223372036854775807, not '9223372036854775808'"},
      {{{"filter.lang.minPercentage.limit.enable", "true"}, {"filter.lang.minPercentage.limit", "200"}},
       "filter.lang.minPercentage.limit must be 0..100, not 200"},
      {{{"filter.lang.minPercentage.limit.enable", "true"}, {"filter.lang.minPercentage.limit", "3\x01"}},
       "filter.lang.minPercentage.limit: not a number: '3\\x01'"},
      {{{"filter.lang.minPercentage.limit.enable", "true"}, {"filter.lang.minPercentage.limit", "+"}},
       "filter.lang.minPercentage.limit: not a number: '+'"},
  };
  for (const auto& [c, message] : cases) {
    CAPTURE(message);
    language_filter f;
    f.labels = {"xx"};
    std::string got;
    CHECK(language_filter_from_config(getter(enabled(c)), f, &got) == status::invalid_argument);
    CHECK(got == message);
    CHECK(f.labels == std::vector<std::string>{"xx"});
    CHECK(language_filter_from_config(getter(enabled(c)), f) == status::invalid_argument);  // no message asked for
  }
  const conf big = enabled({{"filter.lang.minSize.bytes.enable", "true"}, {"filter.lang.minSize.bytes", "9223372036854775807"}});
  language_filter f;
  REQUIRE(language_filter_from_config(getter(big), f) == status::ok);
  CHECK(f.min_bytes == 9223372036854775807ULL);
}

TEST_CASE("filter configuration: the labels keep pages in any case and either ISO form given") {
  // Java's filter ignored case and C++'s did not (#34): labels from any front end are now put in
  // langsift's form first, so "ZH-hant" keeps a zh-Hant page everywhere.
  detection d;
  d.count = 1;
  d.languages[0] = {"zh-Hant", 100, 500, 1.0f};
  d.confidence = 0.99f;
  language_filter f;
  REQUIRE(language_filter_from_config(
              getter(enabled({{"filter.lang.label.enable", "true"}, {"filter.lang.label", "ZH-hant"}})), f) ==
          status::ok);
  CHECK(keep(d, f));
  REQUIRE(language_filter_from_config(getter(enabled({{"filter.lang.label.enable", "true"}, {"filter.lang.label", "zho"}})),
                                      f) == status::ok);
  CHECK(keep(d, f));  // "zh" names zh-Hant too
  REQUIRE(language_filter_from_config(getter(enabled({{"filter.lang.label.enable", "true"}, {"filter.lang.label", "deu"}})),
                                      f) == status::ok);
  CHECK_FALSE(keep(d, f));
}

TEST_CASE("filter configuration: a long bad value is quoted to 40 characters, never cut inside one") {
  // 'x' then 45 two-byte characters: byte 40 is inside the 20th (a cut at 40 bytes wrote half of
  // it, and the message was not UTF-8).
  std::string value = "x";
  for (int i = 0; i < 45; ++i) value += "\xc3\xa4";  // ä
  std::string expected = "filter.lang.minSize.bytes: not a number: 'x";
  for (int i = 0; i < 39; ++i) expected += "\xc3\xa4";
  expected += "…'";
  language_filter f;
  std::string got;
  CHECK(language_filter_from_config(getter(enabled({{"filter.lang.minSize.bytes.enable", "true"},
                                                    {"filter.lang.minSize.bytes", value}})),
                                    f, &got) == status::invalid_argument);
  CHECK(got == expected);
}

TEST_CASE("quoted_value: at most 40 code points, never a cut inside a UTF-8 sequence") {
  using detail::quoted_value;
  auto valid = [](const std::string& s) {  // every sequence decodes
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* e = p + s.size();
    for (detail::utf8_decoded d{}; p < e; p += d.len) {
      d = detail::decode_utf8_step(p, e);
      if (!d.valid) return false;
    }
    return true;
  };
  CHECK(quoted_value("de-DE") == "'de-DE'");
  CHECK(quoted_value(std::string("a\0b\x7f", 4)) == "'a\\x00b\\x7f'");
  CHECK(quoted_value(std::string(40, 'x')) == "'" + std::string(40, 'x') + "'");
  CHECK(quoted_value(std::string(41, 'x')) == "'" + std::string(40, 'x') + "…'");
  std::string han, han41;  // 40 three-byte characters (120 bytes) are not cut; 41 are
  for (int i = 0; i < 40; ++i) han += "\xe6\x97\xa5";  // 日
  han41 = han + "\xe6\x97\xa5";
  CHECK(quoted_value(han) == "'" + han + "'");
  CHECK(quoted_value(han41) == "'" + han + "…'");
  for (const char* lead : {"", "x", "xy", "xyz"}) {  // every alignment of 4-byte characters against byte 40
    std::string s = lead;
    for (int i = 0; i < 45; ++i) s += "\xf0\x9f\x98\x80";  // U+1F600
    CAPTURE(s.size());
    const std::string q = quoted_value(s);
    CHECK(valid(q));
    CHECK(q.size() >= 5);
    CHECK(q.substr(q.size() - 4) == "…'");
  }
}
