// The stages of detect (langsift/impl/detect_stages.hpp), each alone on a scratch set up by
// hand or by the stages before it, with the built-in model.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/close_groups.hpp"
#include "langsift/default_model.hpp"
#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"

using namespace langsift;
using langsift::detail::detect_scratch;
namespace stage = langsift::detail::detect_stage;

namespace {

const model& M() { return default_model(); }

int lang_index(std::string_view code) {
  const int l = M().find_language(code);
  REQUIRE(l >= 0);
  return l;
}

std::size_t local_of(std::string_view code) { return M().language(static_cast<std::size_t>(lang_index(code))).local; }

// Stages 0 to 2 on `text`.
void units_of(std::string_view text, detect_scratch& s, const detect_options& opt = {}) {
  stage::begin(M(), opt, s);
  stage::sample(text, opt, s);
  stage::script_units(M(), opt, text, s);
}

// `n` scored units of one Latin run, every language (and the padding lanes) scoring -10000: below
// any score a test sets, and above kNoScore (-3e38), which the stages treat as "not a candidate".
const group_table& latin_run(detect_scratch& s, std::size_t n, std::size_t bytes_each) {
  const group_table* g = M().group_of_script(script::latin);
  REQUIRE(g != nullptr);
  s.units.clear();
  s.scores.assign(n * g->size_pad(), -10000.0f);
  s.text_bytes = n * bytes_each;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t c = g->size(); c < g->size_pad(); ++c) s.scores[k * g->size_pad() + c] = detail::kNoScore;
    detail::unit u{};
    u.bytes = bytes_each;
    u.run = 1;
    u.score_begin = static_cast<std::uint32_t>(k * g->size_pad());
    u.g = g;
    u.group = static_cast<std::uint32_t>(g - &M().group(0));
    u.sc = script::latin;
    u.scored = true;
    s.units.push_back(u);
  }
  return *g;
}

float& score_of(detect_scratch& s, std::size_t unit, std::string_view code) {
  return s.scores[s.units[unit].score_begin + local_of(code)];
}

}  // namespace

TEST_CASE("stage 1, sample: short text whole, long text in 16 windows at code point boundaries") {
  detect_scratch s;
  detect_options opt;
  stage::sample("kurz", opt, s);
  CHECK_FALSE(s.sampled);
  REQUIRE(s.nregions == 1);
  CHECK(s.regions[0] == std::pair<std::size_t, std::size_t>(0, 4));

  opt.max_text_bytes = 10;  // raised to 256: a 200-byte text is whole
  stage::sample(std::string(200, 'a'), opt, s);
  CHECK_FALSE(s.sampled);

  std::string text;
  while (text.size() < 10000) text += "é€𝄞";  // 2-, 3- and 4-byte sequences
  opt.max_text_bytes = 1600;
  stage::sample(text, opt, s);
  CHECK(s.sampled);
  REQUIRE(s.nregions == 16);
  std::size_t total = 0;
  for (std::size_t i = 0; i < s.nregions; ++i) {
    const auto [a, b] = s.regions[i];
    REQUIRE(a < b);
    REQUIRE(b <= text.size());
    CHECK((static_cast<unsigned char>(text[a]) & 0xC0) != 0x80);
    CHECK((b == text.size() || (static_cast<unsigned char>(text[b]) & 0xC0) != 0x80));
    CHECK(a >= i * (text.size() / 16));  // evenly spaced over the whole text
    CHECK(a < i * (text.size() / 16) + 4);
    total += b - a;
  }
  CHECK(total <= 1600);
  CHECK(total >= 1600 - 16 * 6);  // each window loses at most 3 bytes at either end
}

TEST_CASE("stage 2, script units: runs decided by their script, others cut at whitespace") {
  detect_scratch s;
  units_of("안녕하세요 여러분", s);  // Hangul: Korean at once, nothing to score
  REQUIRE(s.units.size() == 1);
  CHECK(s.units[0].g == nullptr);
  CHECK(s.units[0].lang == lang_index("ko"));
  CHECK(s.score_size == 0);

  units_of("ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ", s);  // Cherokee: no model language, decided by the script table
  REQUIRE(s.units.size() == 1);
  CHECK(s.units[0].lang == -1);
  CHECK(s.units[0].decided == "chr");

  detect_options only_fr;
  const std::string_view fr[] = {"fr"};
  only_fr.only = fr;
  units_of("Bonjour à tous", s, only_fr);  // one allowed Latin language: decided without scores
  REQUIRE(s.units.size() == 1);
  CHECK(s.units[0].g == nullptr);
  CHECK(s.units[0].lang == lang_index("fr"));

  std::string text;
  while (text.size() < 600) text += "Die Katze schläft auf dem warmen Sofa im Wohnzimmer. ";
  units_of(text, s);
  const group_table* latin = M().group_of_script(script::latin);
  REQUIRE(s.units.size() >= 6);
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < s.units.size(); ++k) {
    const auto& u = s.units[k];
    CHECK(u.g == latin);
    CHECK(u.run == s.units[0].run);  // one run
    CHECK(u.score_begin == k * latin->size_pad());
    CHECK(u.bytes == u.text.size());
    if (k + 1 < s.units.size()) {
      CHECK(u.bytes >= 64);  // about unit_bytes, cut at a space
      CHECK(u.bytes <= 96);
      CHECK(s.units[k + 1].text.front() == ' ');
    }
    bytes += u.bytes;
  }
  CHECK(bytes == s.text_bytes);
  CHECK(s.score_size == s.units.size() * latin->size_pad());

  units_of("a short sentence, under three units", s);  // one unit
  CHECK(s.units.size() == 1);
}

TEST_CASE("stage 2, script units: the signs of text that is not language") {
  detect_scratch s;
  units_of("if (x == y) { z[i] = f(a, b); } // done", s);
  CHECK(s.signs.code_symbols == 12);  // ( == ) { [ ] = ( ) ; } // (a run of one symbol counts once)
  units_of("aGVsbG8gV29ybGQgaGVsbG8gV29ybGQ", s);
  CHECK(s.signs.case_switches >= 4);
  units_of("hahahahahahahahahahahahahahahahahahahahahahaha", s);
  CHECK(s.distinct == 2);
  CHECK(s.letters == 46);
  units_of("Привет, мир", s);
  CHECK(s.distinct == 7);  // counted up to kFewLetterBytes + 1
  CHECK(s.signs.code_symbols == 0);
}

TEST_CASE("stage 3, score: the unit's language scores best, a language not allowed scores kNoScore") {
  detect_scratch s;
  const std::string_view text = "Der schnelle braune Fuchs springt über den faulen Hund.";
  detect_options opt;
  units_of(text, s, opt);
  stage::score(M(), opt, s);
  REQUIRE(s.units.size() == 1);
  const auto& u = s.units[0];
  CHECK(u.scored);
  CHECK(u.features > 0);
  CHECK(u.letters > 0);
  const float* sc = s.scores.data() + u.score_begin;
  CHECK(detail::first_argmax(sc, static_cast<std::uint32_t>(u.g->size_pad())) == local_of("de"));
  for (std::size_t c = u.g->size(); c < u.g->size_pad(); ++c) CHECK(sc[c] <= detail::kNoScore / 2);

  const std::string_view only[] = {"nl", "en"};
  opt.only = only;
  units_of(text, s, opt);
  stage::score(M(), opt, s);
  const float* r = s.scores.data() + s.units[0].score_begin;
  CHECK(r[local_of("de")] <= detail::kNoScore / 2);
  CHECK(r[local_of("nl")] > detail::kNoScore / 2);
  const std::uint32_t best = detail::first_argmax(r, static_cast<std::uint32_t>(s.units[0].g->size_pad()));
  CHECK((best == local_of("nl") || best == local_of("en")));
}

TEST_CASE("stage 3, score: a long run is skimmed, every third unit and the last") {
  detect_scratch s;
  std::string text;
  while (text.size() < 1200) text += "La casa de mi abuela tiene un jardín lleno de flores. ";
  detect_options opt;
  units_of(text, s, opt);
  stage::score(M(), opt, s);
  const std::size_t n = s.units.size();
  REQUIRE(n >= 8);
  for (std::size_t k = 0; k < n; ++k) CHECK(s.units[k].scored == (k % 3 == 0 || k == n - 1));
  opt.skim = false;
  units_of(text, s, opt);
  stage::score(M(), opt, s);
  for (const auto& u : s.units) CHECK(u.scored);
}

TEST_CASE("stage 4, segment: the best path, a switch costing switch_penalty, the gaps take their neighbours'") {
  detect_scratch s;
  detect_options opt;
  opt.switch_penalty = 300.0f;
  opt.skim = false;
  stage::begin(M(), opt, s);
  latin_run(s, 5, 100);
  const float de[] = {1000, 1000, 0, 0, 0}, fr[] = {0, 0, 0, 900, 900};
  for (std::size_t k = 0; k < 5; ++k) {
    score_of(s, k, "de") = de[k];
    score_of(s, k, "fr") = fr[k];
  }
  s.units[2].scored = false;  // between: labelled as the unit before
  stage::segment(M(), opt, s);
  const int DE = lang_index("de"), FR = lang_index("fr");
  CHECK(s.units[0].lang == DE);
  CHECK(s.units[1].lang == DE);
  CHECK(s.units[2].lang == DE);
  CHECK(s.units[3].lang == FR);
  CHECK(s.units[4].lang == FR);

  opt.switch_penalty = 2000.0f;  // a switch costs more than French gains: all German
  for (auto& u : s.units) u.lang = -1;
  stage::segment(M(), opt, s);
  for (const auto& u : s.units) CHECK(u.lang == DE);
}

TEST_CASE("stage 4, segment: a short unclear run in a long document loses its label") {
  detect_scratch s;
  detect_options opt;
  stage::begin(M(), opt, s);
  latin_run(s, 1, 10);
  s.text_bytes = 1000;  // the rest of the document is other text
  score_of(s, 0, "de") = 101;
  score_of(s, 0, "nl") = 100;  // close: unclear
  stage::segment(M(), opt, s);
  CHECK(s.units[0].lang == -1);

  score_of(s, 0, "de") = 100 + 100.0f / static_cast<float>(M().params().calibration_a);  // clear
  stage::segment(M(), opt, s);
  CHECK(s.units[0].lang == lang_index("de"));

  s.text_bytes = 50;  // most of the document: kept even when unclear
  score_of(s, 0, "de") = 101;
  stage::segment(M(), opt, s);
  CHECK(s.units[0].lang == lang_index("de"));
}

namespace {

// Bosnian news, written for these tests (tokom, opštine, kompanije: Bosnian and Serbian forms
// where Croatian writes tijekom, općine, tvrtke), that the default model alone labels hr.
constexpr std::string_view kBosnian =
    "Vlada Federacije je na današnjoj sjednici usvojila prijedlog zakona o zaštiti okoliša, a ministar je kazao "
    "da će novi propisi stupiti na snagu tokom ljeta. Prema njegovim riječima, kompanije koje ne budu poštovale "
    "pravila platit će visoke kazne, dok će opštine dobiti više novca za odvoz otpada i čišćenje rijeka.";

// Stages 0 to 4 on `text` with model `m`.
void segmented(const model& m, std::string_view text, detect_scratch& s, const detect_options& opt = {}) {
  stage::begin(m, opt, s);
  stage::sample(text, opt, s);
  stage::script_units(m, opt, text, s);
  stage::score(m, opt, s);
  stage::segment(m, opt, s);
}

// The languages the units are labelled with.
std::vector<std::string_view> unit_langs(const model& m, const detect_scratch& s) {
  std::vector<std::string_view> out;
  for (const auto& u : s.units)
    if (u.lang >= 0 && (out.empty() || out.back() != m.language_code(static_cast<std::size_t>(u.lang))))
      out.push_back(m.language_code(static_cast<std::size_t>(u.lang)));
  return out;
}

// A copy of the default model with one close group {bs, hr} without discriminator features,
// whose decision is the prior alone (model weight 0): shares bs 0.01, hr 0.99 (capped at 0.5 nat).
model prior_only_model(std::uint32_t prior_min_bytes = 0) {
  close_group_entry e;
  e.members = {"bs", "hr"};
  e.web_share = {0.01f, 0.99f};
  e.params.model_weight = 0;
  e.params.prior_cap = 0.5f;
  e.params.prior_min_bytes = prior_min_bytes;
  auto g = std::make_shared<close_groups>();
  REQUIRE(close_groups::load_copy(write_close_groups({e}, 0, ""), *g) == status::ok);
  model m = M();
  REQUIRE(m.set_close_groups(g) == status::ok);
  return m;
}

}  // namespace

TEST_CASE("stage 5, close group: the discriminator and the whole text decide among the members") {
  detect_scratch s;
  segmented(M(), kBosnian, s);
  REQUIRE(unit_langs(M(), s) == std::vector<std::string_view>{"hr"});  // the model alone
  stage::close_group(M(), {}, s);
  CHECK(unit_langs(M(), s) == std::vector<std::string_view>{"bs"});
  REQUIRE(s.close.size() == 1);
  const detail::close_decision& dec = s.close[0];
  CHECK(M().language_code(static_cast<std::size_t>(dec.winner)) == "bs");
  const auto members = M().close_members(static_cast<std::size_t>(dec.group));
  float sum = 0, bs = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    sum += dec.q[i];
    if (M().language_code(members[i]) == "bs") bs = dec.q[i];
  }
  CHECK(sum == Approx(1.0f).epsilon(1e-5));
  CHECK(bs > 0.5f);

  // Turned off, restricted to one member, or no member labels a unit: nothing is decided.
  detect_options off;
  off.close_groups = false;
  segmented(M(), kBosnian, s, off);
  stage::close_group(M(), off, s);
  CHECK(s.close.empty());
  CHECK(unit_langs(M(), s) == std::vector<std::string_view>{"hr"});
  const std::vector<std::string_view> only = {"hr", "de"};
  detect_options restricted;
  restricted.only = only;
  segmented(M(), kBosnian, s, restricted);
  stage::close_group(M(), restricted, s);
  CHECK(s.close.empty());
  CHECK(unit_langs(M(), s) == std::vector<std::string_view>{"hr"});
  segmented(M(), "Das Wetter ist heute sehr schön, und die Sonne scheint über der ganzen Stadt.", s);
  stage::close_group(M(), {}, s);
  CHECK(s.close.empty());
  // A word or two (under close_group_params::min_bytes): the model's word features decide alone.
  segmented(M(), "tokom ljeta", s);
  REQUIRE(unit_langs(M(), s).size() == 1);
  REQUIRE(M().close_group_of(static_cast<std::size_t>(M().find_language(unit_langs(M(), s)[0]))) >= 0);
  stage::close_group(M(), {}, s);
  CHECK(s.close.empty());
}

TEST_CASE("stage 5, close group: the web prior, capped, on pages only, and not against only or hints") {
  const model m = prior_only_model();
  detect_scratch s;
  segmented(m, kBosnian, s);
  stage::close_group(m, {}, s);
  REQUIRE(s.close.size() == 1);
  // bs 0.01 against hr 0.99: log-odds -4.6, capped at -0.5.
  CHECK(s.close[0].q[0] == Approx(1.0 / (1.0 + std::exp(0.5))).epsilon(1e-4));
  CHECK(unit_langs(m, s) == std::vector<std::string_view>{"hr"});

  detect_options no_prior;
  no_prior.web_prior = false;  // nothing decides: an even split, the first member
  segmented(m, kBosnian, s, no_prior);
  stage::close_group(m, no_prior, s);
  REQUIRE(s.close.size() == 1);
  CHECK(s.close[0].q[0] == Approx(0.5f));

  detect_options hinted;  // a hint naming a member turns the prior off
  hinted.hints.html_lang = "bs";
  segmented(m, kBosnian, s, hinted);
  stage::close_group(m, hinted, s);
  REQUIRE(s.close.size() == 1);
  CHECK(s.close[0].q[0] == Approx(0.5f));
  CHECK(unit_langs(m, s) == std::vector<std::string_view>{"bs"});

  const std::vector<std::string_view> both = {"bs", "hr"};
  detect_options restricted;  // so does `only`
  restricted.only = both;
  segmented(m, kBosnian, s, restricted);
  stage::close_group(m, restricted, s);
  REQUIRE(s.close.size() == 1);
  CHECK(s.close[0].q[0] == Approx(0.5f));

  // Under prior_min_bytes of the group's text (not a page), no prior either.
  const model pages = prior_only_model(400);
  segmented(pages, kBosnian, s);  // 313 bytes
  stage::close_group(pages, {}, s);
  REQUIRE(s.close.size() == 1);
  CHECK(s.close[0].q[0] == Approx(0.5f));
}

TEST_CASE("stage 7 follows stage 5: the members' probabilities are the model's mass on them shared by the decision") {
  const model m = prior_only_model();
  detect_options opt;
  opt.top_k = 16;
  opt.close_groups = false;
  const detection before = detect(m, kBosnian, opt);
  double mass = 0;
  for (const auto& p : before.top_probabilities())
    if (p.code == "bs" || p.code == "hr") mass += p.p;
  REQUIRE(mass > 0.9);
  opt.close_groups = true;
  const detection after = detect(m, kBosnian, opt);
  REQUIRE(after.language() == "hr");
  const double q_hr = 1.0 / (1.0 + std::exp(-0.5));
  CHECK(after.confidence == Approx(mass * q_hr).epsilon(1e-4));
  REQUIRE(after.probability_count >= 2);
  CHECK(after.probabilities[0].code == "hr");
  CHECK(after.probabilities[1].code == "bs");
  CHECK(after.probabilities[1].p == Approx(mass * (1 - q_hr)).epsilon(1e-4));
  CHECK_FALSE(after.reliable);  // 0.62 of 0.99: not reliable, whatever the model said alone
}

TEST_CASE("stage 6, top three: bytes per language, most first, percent of the text bytes") {
  detect_scratch s;
  detect_options opt;
  opt.method = scorer::rank;  // no fit to measure: every score is 1
  stage::begin(M(), opt, s);
  const int DE = lang_index("de"), FR = lang_index("fr"), IT = lang_index("it"), ES = lang_index("es");
  const int langs[] = {DE, FR, DE, IT, ES, -1, -1};
  const std::size_t bytes[] = {300, 200, 100, 150, 50, 100, 100};
  s.units.clear();
  for (std::size_t k = 0; k < 7; ++k) {
    detail::unit u{};
    u.bytes = bytes[k];
    u.lang = langs[k];
    s.units.push_back(u);
  }
  s.units[5].decided = "chr";  // decided by its script; unit 6 is unattributed
  s.text_bytes = s.examined = 1000;
  s.sampled = false;
  detection d;
  stage::top_three(M(), opt, 1000, s, d);
  REQUIRE(s.items.size() == 5);
  REQUIRE(d.count == 3);
  CHECK(d.languages[0].code == "de");
  CHECK(d.languages[0].bytes == 400);
  CHECK(d.languages[0].percent == 40);
  CHECK(d.languages[1].code == "fr");
  CHECK(d.languages[1].percent == 20);
  CHECK(d.languages[2].code == "it");
  CHECK(d.languages[2].percent == 15);
  CHECK(d.languages[0].score == 1.0f);
  CHECK(d.text_bytes == 1000);
  CHECK_FALSE(d.is_short);

  s.sampled = true;  // 1000 bytes examined of 4000: bytes scale, percent does not
  detection sampled;
  stage::top_three(M(), opt, 4000, s, sampled);
  CHECK(sampled.text_bytes == 4000);
  CHECK(sampled.languages[0].bytes == 1600);
  CHECK(sampled.languages[0].percent == 40);
}

TEST_CASE("stage 7, und/confidence: the margin over another base's language, or und") {
  detect_scratch s;
  detect_options opt;
  std::string text;
  while (text.size() < 300) text += "Het weer is vandaag erg mooi en de zon schijnt over de stad. ";
  units_of(text, s, opt);
  stage::score(M(), opt, s);
  stage::segment(M(), opt, s);
  detection d;
  stage::top_three(M(), opt, text.size(), s, d);
  REQUIRE(d.count >= 1);
  REQUIRE(d.languages[0].code == "nl");
  stage::und_confidence(M(), opt, s, d);
  CHECK(d.count >= 1);
  CHECK(d.margin > 0);
  CHECK(std::isfinite(d.margin));
  // The confidence is the calibrated probability of nl over the pooled scores of its units.
  REQUIRE(langsift::detail::pool_scores(M(), M().find_language("nl"), s) > 0);
  CHECK(langsift::detail::margin_of(M(), M().find_language("nl"), s) == Approx(d.margin).epsilon(1e-5));
  CHECK(d.confidence > 0.9f);
  CHECK(d.confidence < 1.0f / (1.0f + M().probability_calibration().rest) + 1e-6f);
  REQUIRE(d.probability_count == 1);  // top_k 1
  CHECK(d.probabilities[0].code == "nl");
  CHECK(d.probabilities[0].p == d.confidence);
  CHECK(d.reliable);

  // The same answer with the text's signs of code: und.
  detection code = {};
  stage::top_three(M(), opt, text.size(), s, code);
  s.signs.code_symbols = s.letters;
  stage::und_confidence(M(), opt, s, code);
  CHECK(code.count == 0);
  CHECK(code.confidence == 0);
  CHECK(code.margin == 0);
  CHECK(code.language() == "und");

  // Korean, decided by its script: no rival, full confidence.
  units_of("안녕하세요 여러분, 오늘 날씨가 좋네요", s, opt);
  stage::score(M(), opt, s);
  stage::segment(M(), opt, s);
  detection ko;
  stage::top_three(M(), opt, 0, s, ko);
  REQUIRE(ko.count == 1);
  stage::und_confidence(M(), opt, s, ko);
  CHECK(ko.language() == "ko");
  CHECK(ko.confidence == 1.0f);
  CHECK(std::isinf(ko.margin));
}

TEST_CASE("the stages in order are detect") {
  const std::string_view texts[] = {"Ceci est une phrase en français, assez longue pour être sûre.",
                                    "This is English. Dies ist Deutsch und es ist ein bisschen länger als das Englische.",
                                    "{ \"key\": [1, 2, 3], \"value\": null }",
                                    kBosnian};
  for (std::string_view text : texts) {
    detect_scratch s;
    const detect_options opt;
    units_of(text, s, opt);
    stage::score(M(), opt, s);
    stage::segment(M(), opt, s);
    stage::close_group(M(), opt, s);
    detection d;
    d.sampled = s.sampled;
    d.examined_bytes = s.examined;
    stage::top_three(M(), opt, text.size(), s, d);
    if (d.count) stage::und_confidence(M(), opt, s, d);
    const detection want = detect(M(), text, opt);
    CHECK(d.language() == want.language());
    REQUIRE(d.count == want.count);
    for (std::size_t i = 0; i < d.count; ++i) {
      CHECK(d.languages[i].code == want.languages[i].code);
      CHECK(d.languages[i].percent == want.languages[i].percent);
      CHECK(d.languages[i].score == want.languages[i].score);
    }
    CHECK(d.confidence == want.confidence);
    CHECK(d.reliable == want.reliable);
  }
}
