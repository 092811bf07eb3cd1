// Language spans (langsift/spans.hpp) with the built-in model: known boundaries, scripts, text
// that is no language, long text read whole, the invariants on any input, kept text, bad calls,
// and detect() unchanged beside them.
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/spans.hpp"

using namespace langsift;

namespace {

const model& M() { return default_model(); }

const std::string kDe =
    "Der Stadtrat hat am Dienstagabend einen neuen Haushalt für Schulen und öffentliche Bibliotheken beschlossen. "
    "Die Opposition kritisierte, dass die Mittel für den Nahverkehr erneut gekürzt wurden.";
const std::string kEn =
    "The council approved a new budget for schools and public libraries on Tuesday evening. The opposition "
    "complained that funding for public transport had been cut once again.";
const std::string kFr =
    "Le conseil municipal a adopté mardi soir un nouveau budget pour les écoles et les bibliothèques publiques. "
    "L'opposition a regretté que les crédits des transports en commun soient encore réduits.";
const std::string kRu =
    "Городской совет во вторник вечером утвердил новый бюджет для школ и публичных библиотек. Оппозиция "
    "раскритиковала очередное сокращение расходов на общественный транспорт.";
const std::string kJa = "市議会は火曜日の夜、学校と公立図書館のための新しい予算を可決しました。野党は公共交通機関の予算が再び削減されたことを批判しました。";

/// The invariants of any call's spans: they cover the text in order, each non-empty, neighbours
/// differ, codes are the model's, a script's or "und".
void check_spans(std::string_view text, const std::vector<span>& spans) {
  if (text.empty()) {
    CHECK(spans.empty());
    return;
  }
  REQUIRE_FALSE(spans.empty());
  CHECK(spans.front().begin == 0);
  CHECK(spans.back().end == text.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    CHECK(spans[i].begin < spans[i].end);
    if (i) {
      CHECK(spans[i].begin == spans[i - 1].end);
      CHECK(spans[i].code != spans[i - 1].code);
    }
    const std::string_view c = spans[i].code;
    const std::string_view known[] = {c};
    CHECK((c == "und" || unknown_codes(M(), known).empty()));
  }
}

std::vector<std::string> codes_of(const std::vector<span>& spans) {
  std::vector<std::string> out;
  for (const span& s : spans) out.emplace_back(s.code);
  return out;
}

}  // namespace

TEST_CASE("three paragraphs in three languages: three spans, each from its first letter") {
  const std::string text = kDe + " " + kEn + "\n" + kFr;
  std::vector<span> spans;
  REQUIRE(detect_spans(M(), text, spans) == status::ok);
  check_spans(text, spans);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"de", "en", "fr"});
  CHECK(spans[1].begin == text.find("The council"));
  CHECK(spans[2].begin == text.find("Le conseil"));
  // The one-call form gives the same.
  CHECK(detect_spans(M(), text) == spans);
}

TEST_CASE("sentences in another language inside a paragraph are spans, a few words are not") {
  // Two English sentences between German ones.
  const std::string text = kDe + " " + kEn + " " + kDe;
  const std::vector<span> spans = detect_spans(M(), text);
  check_spans(text, spans);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"de", "en", "de"});
  CHECK(spans[1].begin == kDe.size() + 1);
  CHECK(spans[2].begin == kDe.size() + 1 + kEn.size() + 1);
  // Three English words quoted in German prose stay German: shorter than a span can be.
  const std::string quote =
      "Der Sprecher sagte wörtlich „by the way“ und fuhr dann mit seiner Rede über den Haushalt der Stadt fort, "
      "die noch lange dauerte.";
  CHECK(codes_of(detect_spans(M(), quote)) == std::vector<std::string>{"de"});
}

TEST_CASE("scripts: Cyrillic and Japanese paragraphs") {
  const std::string text = kRu + " " + kJa + " " + kEn;
  const std::vector<span> spans = detect_spans(M(), text);
  check_spans(text, spans);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"ru", "ja", "en"});
  CHECK(spans[1].begin == kRu.size() + 1);
  CHECK(spans[2].begin == kRu.size() + 1 + kJa.size() + 1);
}

TEST_CASE("no language: empty text, no letters, a long letterless stretch, a code block") {
  std::vector<span> spans;
  CHECK(detect_spans(M(), "", spans) == status::empty_input);
  CHECK(spans.empty());
  CHECK(detect_spans(M(), "12 34 !! 56", spans) == status::empty_input);
  CHECK(spans == std::vector<span>{{0, 11, "und"}});

  // A table of numbers between two paragraphs: und from its first to its last number.
  std::string numbers;
  for (int i = 1000; i < 1040; ++i) numbers += std::to_string(i) + (i % 8 == 7 ? "\n" : " ");
  const std::string text = kDe + "\n" + numbers + kEn;
  REQUIRE(detect_spans(M(), text, spans) == status::ok);
  check_spans(text, spans);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"de", "und", "en"});
  CHECK(spans[1].begin == kDe.size() + 1);
  CHECK(spans[2].begin == text.find("The council"));
  // A few numbers are no span of their own: they stay in the paragraph.
  const std::string few = kDe + " 12 345 678 " + kDe;
  CHECK(codes_of(detect_spans(M(), few)) == std::vector<std::string>{"de"});

  // Source code between two paragraphs.
  const std::string code =
      "for (int i = 0; i < n; ++i) { sum += a[i] * b[i]; } if (sum > max) { max = sum; } return {max, sum};\n"
      "while (p != nullptr && p->next) { p = p->next->next; } std::printf(\"%d\\n\", x[0] + y[\"a\"]);\n";
  const std::string mixed = kDe + "\n" + code + kDe;
  REQUIRE(detect_spans(M(), mixed, spans) == status::ok);
  check_spans(mixed, spans);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"de", "und", "de"});
  CHECK(spans[1].begin == kDe.size() + 1);
}

TEST_CASE("a long text is read whole, in windows, with every boundary") {
  // 40 blocks of about 8 KB, German and English in turn: 320 KB, four times max_text_bytes and more.
  std::string text;
  std::vector<std::size_t> starts;
  for (int b = 0; b < 40; ++b) {
    starts.push_back(text.size());
    const std::string& para = b % 2 ? kEn : kDe;
    for (int r = 0; r < 8000 / static_cast<int>(para.size()) + 1; ++r) text += para + (r % 3 == 2 ? "\n" : " ");
  }
  REQUIRE(text.size() > 4 * detect_options{}.max_text_bytes);
  const std::vector<span> spans = detect_spans(M(), text);
  check_spans(text, spans);
  REQUIRE(spans.size() == starts.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    INFO(i);
    CHECK(spans[i].code == (i % 2 ? "en" : "de"));
    CHECK(spans[i].begin == starts[i]);
  }
}

TEST_CASE("any bytes: spans cover them, and neighbours differ") {
  std::mt19937 rng(7);
  const std::string pieces[] = {kDe, kEn, kFr, kRu, kJa, "12 34", "\xff\xfe", "\xe2\x82", " ", "\n", "{}[];",
                                "é", "𝄞", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", std::string(3, '\0')};
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) {
      const std::string& p = pieces[rng() % std::size(pieces)];
      text += rng() % 3 ? p : p.substr(0, rng() % (p.size() + 1));  // cut anywhere, inside characters too
    }
    detect_options opt;
    opt.max_text_bytes = 256 + rng() % 2000;  // windows of 4 KB at least
    span_options so;
    so.unit_bytes = 16 + rng() % 100;
    so.min_span_bytes = rng() % 80;
    so.min_und_bytes = 1 + rng() % 200;
    so.min_confidence = static_cast<float>(rng() % 3) / 2.0f;
    INFO(round);
    std::vector<span> spans;
    detect_spans(M(), text, spans, opt, so);
    check_spans(text, spans);
  }
}

TEST_CASE("detect answers as before after detect_spans on the same thread") {
  // One short run is one unit for detect (its answer: German only); spans cut it at sentences.
  const std::string text =
      "Der schnelle braune Fuchs springt über den Hund. Das ist ein Satz. The quick brown fox jumps over the dog.";
  const detection before = detect(M(), text);
  REQUIRE(before.count == 1);
  const std::vector<span> spans = detect_spans(M(), text);
  CHECK(codes_of(spans) == std::vector<std::string>{"de", "en"});
  const detection after = detect(M(), text);
  CHECK(after.count == before.count);
  CHECK(after.languages[0].code == before.languages[0].code);
  CHECK(after.languages[0].percent == before.languages[0].percent);
  CHECK(after.confidence == before.confidence);
}

TEST_CASE("restrictions apply, and codes the model lacks make the call an error") {
  const std::string text = kDe + " " + kFr + " " + kEn;
  detect_options opt;
  const std::vector<std::string_view> only = {"de", "en"};
  opt.only = only;
  const std::vector<span> spans = detect_spans(M(), text, opt);
  check_spans(text, spans);
  for (const span& s : spans) CHECK((s.code == "de" || s.code == "en" || s.code == "und"));
  const std::vector<std::string_view> bad = {"de", "xx"};
  opt.only = bad;
  std::vector<span> out = {{0, 1, "de"}};
  CHECK(detect_spans(M(), text, out, opt) == status::invalid_argument);
  CHECK(out.empty());
  CHECK(detect_spans(M(), text, opt).empty());
  const model none;
  CHECK(detect_spans(none, text, out) == status::invalid_argument);
}

TEST_CASE("kept_text: the stretches of the kept languages, trimmed, one per line") {
  const std::string text = kDe + " " + kEn + "\n" + kFr + "  ";
  const std::vector<span> spans = detect_spans(M(), text);
  REQUIRE(codes_of(spans) == std::vector<std::string>{"de", "en", "fr"});
  const std::vector<std::string_view> en = {"en"}, de_fr = {"fr", "de"}, en_fr = {"en", "fr"}, none = {"nl"};
  CHECK(kept_text(text, spans, en) == kEn);
  CHECK(kept_text(text, spans, de_fr) == kDe + "\n" + kFr);
  CHECK(kept_text(text, spans, en_fr) == kEn + "\n" + kFr);  // neighbours kept together: the text between them
  CHECK(kept_text(text, spans, none).empty());
  // A script variant is kept with its language, as `only` reads codes.
  const std::vector<span> hant = {{0, 9, "zh-Hant"}};
  const std::vector<std::string_view> zh = {"zh"};
  CHECK(kept_text("中文字", hant, zh) == "中文字");
  // Spans that do not fit the text are skipped.
  const std::vector<span> wrong = {{0, 3, "en"}, {3, 99, "en"}};
  CHECK(kept_text("abcdef", wrong, en) == "abc");
}

TEST_CASE("threads computing spans at once get the answers of one thread") {
  const std::string text = kDe + " " + kEn + "\n" + kFr + " " + kRu;
  const std::vector<span> expected = detect_spans(M(), text);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 30; ++round) {
        if (detect_spans(M(), text) != expected) ++mismatches[t];
        (void)detect(M(), text);  // the detector's own calls in between share the thread's scratch
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK(mismatches[t] == 0);
}
