// The script prefilter (langsift/script.hpp): script runs, histograms, single-language scripts.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/detail/utf8.hpp"
#include "langsift/script.hpp"
#include "random_text.hpp"
#include "script_reference.hpp"

using langsift::script;
using langsift::script_run;

namespace {

// "Latn[Hello,]/5 Cyrl[мир]/3": code, the run's text, and its letter count.
std::string show(std::string_view text) {
  CHECK(langsift::split_script_runs(text) == langsift_test::reference_script_runs(text));
  std::string s;
  for (const script_run& r : langsift::split_script_runs(text)) {
    if (!s.empty()) s += ' ';
    s += langsift::script_code(r.sc);
    s += '[';
    s += text.substr(r.begin, r.end - r.begin);
    s += "]/" + std::to_string(r.letters);
  }
  return s;
}

// The invariants every split must satisfy (also checked by fuzz/fuzz_script.cpp).
void check_invariants(std::string_view text) {
  const auto runs = langsift::split_script_runs(text);
  std::size_t prev_end = 0;
  for (const script_run& r : runs) {
    REQUIRE(r.begin >= prev_end);
    REQUIRE(r.begin < r.end);
    REQUIRE(r.end <= text.size());
    REQUIRE(r.letters >= 1);
    REQUIRE(r.letters <= r.end - r.begin);
    REQUIRE(langsift::is_real_script(r.sc));
    REQUIRE(r.sc == langsift::run_script(r.sc));
    prev_end = r.end;
  }
  for (std::size_t i = 1; i < runs.size(); ++i) REQUIRE(runs[i].sc != runs[i - 1].sc);
  REQUIRE(runs == langsift_test::reference_script_runs(text));  // the batch restatement of the rules
}

// 30,000 random strings of up to 39 pieces, each mostly one script's code points (one of
// `scripts`, as in text) with `others` and spaces mixed in, held to the reference.
void check_random_mixes(std::uint32_t seed, const std::vector<std::vector<std::string>>& scripts,
                        const std::vector<std::string>& others) {
  std::mt19937 rng(seed);
  for (int round = 0; round < 30000; ++round) {
    std::string s;
    const auto& home = scripts[rng() % scripts.size()];
    for (int k = 0, n = static_cast<int>(rng() % 40); k < n; ++k) {
      const unsigned r = rng() % 8;
      s += r < 5 ? home[rng() % home.size()] : r < 7 ? others[rng() % others.size()] : std::string(" ");
    }
    check_invariants(s);
  }
}

}  // namespace

TEST_CASE("script runs on mixed text, with exact byte ranges") {
  const std::string_view t = "Hello Мир 世界 こんにちは";
  std::vector<script_run> runs;
  langsift::split_script_runs(t, runs);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0] == script_run{0, 5, script::latin, 5});
  CHECK(runs[1] == script_run{6, 12, script::cyrillic, 3});
  // 世界 and こんにちは are one region (only a space between): Han joins the kana.
  CHECK(runs[2] == script_run{13, 35, script::japanese, 7});
  CHECK(t.substr(runs[2].begin, runs[2].end - runs[2].begin) == "世界 こんにちは");

  CHECK(show("Hello, мир! 日本語のテキスト") == "Latn[Hello,]/5 Cyrl[мир!]/3 Jpan[日本語のテキスト]/8");
  CHECK(show("Hello,мир") == "Latn[Hello,]/5 Cyrl[мир]/3");  // no whitespace: earlier run keeps it
  CHECK(show("мирabc") == "Cyrl[мир]/3 Latn[abc]/3");
  CHECK(show("abcмирdef") == "Latn[abc]/3 Cyrl[мир]/3 Latn[def]/3");
  CHECK(show("ἀλφαbeta") == "Grek[ἀλφα]/4 Latn[beta]/4");
  CHECK(show("«Hello» - «мир»") == "Latn[«Hello»]/5 Cyrl[«мир»]/3");  // " - " is between two spaces
  CHECK(show("Привет, Мир! Это тест.") == "Cyrl[Привет, Мир! Это тест.]/16");
  CHECK(show("The word Ελλάδα means Greece") == "Latn[The word]/7 Grek[Ελλάδα]/6 Latn[means Greece]/11");
  CHECK(show("مرحبا بالعالم hello") == "Arab[مرحبا بالعالم]/12 Latn[hello]/5");
  CHECK(show("שלום עולם") == "Hebr[שלום עולם]/8");
  CHECK(show("ภาษาไทย ລາວ") == "Thai[ภาษาไทย]/7 Laoo[ລາວ]/3");
}

TEST_CASE("Japanese: kanji, hiragana and katakana are one Jpan run") {
  CHECK(show("日本語のテキストです。") == "Jpan[日本語のテキストです。]/10");
  CHECK(show("東京都に住んでいます") == "Jpan[東京都に住んでいます]/10");
  CHECK(show("コンピューター") == "Jpan[コンピューター]/7");  // ー is a Common letter inside the run
  CHECK(show("ｶﾀｶﾅ") == "Jpan[ｶﾀｶﾅ]/4");                       // halfwidth katakana
  // Han before kana joins it across punctuation and spaces, and so does Han after it.
  CHECK(show("会社概要 お問い合わせ 採用情報") == "Jpan[会社概要 お問い合わせ 採用情報]/14");
  // A Latin word inside Japanese text is its own run; the Han after it has no kana neighbour.
  CHECK(show("日本語のWindows版") == "Jpan[日本語の]/4 Latn[Windows]/7 Hani[版]/1");
  CHECK(show("日本語の Windows 版です") == "Jpan[日本語の]/4 Latn[Windows]/7 Jpan[版です]/3");
  CHECK(langsift::script_language(script::japanese) == "ja");
}

TEST_CASE("Chinese is han, also with a stray kana") {
  CHECK(show("中文文本，简体字。") == "Hani[中文文本，简体字。]/7");
  CHECK(show("繁體中文") == "Hani[繁體中文]/4");
  // Under 1/16 kana: Chinese that borrows "の" stays han.
  const std::string zh = "我的貓の名字是小白它非常可愛每天都在家裡睡覺";
  CHECK(show(zh) == "Hani[" + zh + "]/22");
  // Short text with the same の is Japanese-looking enough: 1/4 kana.
  CHECK(show("小王の店") == "Jpan[小王の店]/4");
  CHECK(show("ㄅㄆㄇ 注音") == "Hani[ㄅㄆㄇ 注音]/5");  // Bopomofo goes with han
  CHECK(langsift::script_language(script::han).empty());
  CHECK(langsift::script_language(script::han, true) == "ja");
}

TEST_CASE("Korean with hanja is one Kore run") {
  CHECK(show("대한민국") == "Kore[대한민국]/4");
  CHECK(show("大韓民國은 民主共和國이다") == "Kore[大韓民國은 民主共和國이다]/12");
  CHECK(show("한국어 텍스트") == "Kore[한국어 텍스트]/6");
  // Kana and Hangul never join: Japanese then Korean are two runs.
  CHECK(show("日本語です 한국어입니다") == "Jpan[日本語です]/5 Kore[한국어입니다]/6");
  // Han between them joins the earlier one.
  CHECK(show("ですね漢字한국") == "Jpan[ですね漢字]/5 Kore[한국]/2");
  CHECK(langsift::script_language(script::korean) == "ko");
  CHECK(langsift::script_language(script::hangul) == "ko");
}

TEST_CASE("digits and punctuation attach and do not vote") {
  CHECK(show("123 456") == "");
  CHECK(show("2024-06-11, 12:30!") == "");
  CHECK(show("Page 12 of 30") == "Latn[Page 12 of]/6");  // trailing " 30" is outside
  CHECK(show("12 apples") == "Latn[apples]/6");
  CHECK(show("(apples)") == "Latn[(apples)]/6");
  CHECK(show("apples 12 яблок") == "Latn[apples]/6 Cyrl[яблок]/5");
  CHECK(show("2024年6月11日") == "Hani[2024年6月11日]/3");
  // Devanagari digits are Devanagari digits, not letters: they do not vote.
  CHECK(show("१२३ abc") == "Latn[abc]/3");
  CHECK(show("abc१२३") == "Latn[abc१२३]/3");
}

TEST_CASE("combining marks stay in their run") {
  // Devanagari with viramas and ZWJ/ZWNJ.
  CHECK(show("क्ष त्र ज्ञ") == "Deva[क्ष त्र ज्ञ]/9");
  CHECK(show("क्\u200Dष") == "Deva[क्\u200Dष]/4");
  CHECK(show("नमस्ते दुनिया") == "Deva[नमस्ते दुनिया]/12");
  // Hebrew points (script Hebrew) and Latin with combining accents (script Inherited).
  CHECK(show("שָׁלוֹם") == "Hebr[שָׁלוֹם]/7");
  CHECK(show("e\u0301te\u0301 Мир") == "Latn[e\u0301te\u0301]/5 Cyrl[Мир]/3");
  // A combining mark after Cyrillic belongs to Cyrillic even right before Latin.
  CHECK(show("и\u0306abc") == "Cyrl[и\u0306]/2 Latn[abc]/3");
  // An Inherited mark with no letter before it votes for nothing.
  CHECK(show("\u0301\u0301") == "");
  CHECK(show(" \u0301abc") == "Latn[\u0301abc]/4");
}

TEST_CASE("invalid UTF-8 in the middle") {
  // Invalid bytes decode as U+FFFD, a Common symbol: inside a run, not a vote.
  CHECK(show("abc\xFF\xFE" "def") == "Latn[abc\xFF\xFE" "def]/6");
  CHECK(show("abc \xC0\xAF мир") == "Latn[abc]/3 Cyrl[мир]/3");
  CHECK(show("\x80\x80\x80") == "");
  CHECK(show("abc\xE2\x82") == "Latn[abc\xE2\x82]/3");
  CHECK(show("ab\xF0\x9F\x98") == "Latn[ab\xF0\x9F\x98]/2");
  // A truncated sequence at the end still leaves runs on code-point boundaries.
  check_invariants("мир\xD0");
  CHECK(show("мир\xD0") == "Cyrl[мир\xD0]/3");
}

TEST_CASE("empty input, whitespace, emoji and symbols give no runs") {
  std::vector<script_run> runs = {{1, 2, script::latin, 1}};
  langsift::split_script_runs("", runs);
  CHECK(runs.empty());  // out is cleared
  CHECK(show(" \n\t ") == "");
  CHECK(show("😀🎉👍 ❤️ ★☆ → ∑ © ™") == "");
  CHECK(show("🇩🇪🇫🇷") == "");
  CHECK(show("!!! ??? ... ---") == "");
  CHECK(show("\xEF\xBF\xBD") == "");
  CHECK(show(std::string_view("\0\0\0", 3)) == "");
  // Emoji between two runs of one script stay inside.
  CHECK(show("good 👍 work") == "Latn[good 👍 work]/8");
}

TEST_CASE("the input needs no NUL terminator") {
  const std::string s = "abc мир";
  // A view of the first 5 bytes ends inside "м".
  const std::string_view v(s.data(), 5);
  CHECK(show(v) == "Latn[abc]/3");
  check_invariants(v);
}

TEST_CASE("invariants on random and damaged text") {
  std::mt19937 rng(7);
  const std::string pieces[] = {"Hello", " ", "Мир", "世界", "こんにちは", "한국", "123", ",", "\xFF",
                                "\u0301", "\u200D", "क्ष", "😀", "\n", "ー", "\xE2\x82", "ㄅ", "ά",
                                // long words: the 16-byte ASCII scan, the inner loop of a run
                                "Donaudampfschifffahrtsgesellschaft", "достопримечательности", "ड़",
                                // two-byte Latin letters (skip_run_letters), × ÷, a cut lead byte
                                "Größenverhältnisse", "Łódź ", "ĳsberg ǅ ɐɑ", "5×3", "÷", "\xC3", "e\u0301", " - ",
                                "ÀÿĀſƀɏɐɿ",
                                // two-byte Cyrillic letters, a sign and marks among them, a cut lead byte
                                "Қазақстан ұлттық", "ґрунт ", "Ѐ҂҃҉Ҋӿ", "\xD1", "при-вет, мир"};
  for (int round = 0; round < 20000; ++round) {
    check_invariants(langsift_test::random_join(pieces, rng, 12));
    std::string b(rng() % 32, '\0');
    for (char& c : b) c = static_cast<char>(rng());
    check_invariants(b);
  }
}

TEST_CASE("every two-byte code point inside runs of two-byte scripts, at every offset of the 16-byte scan") {
  // skip_run_letters decides two-byte Latin and Cyrillic letters from their bytes alone, and
  // skip_run_letters2 those of the other two-byte scripts by one table lookup; this holds them
  // to the reference for each of U+0080..U+07FF, after a letter, after a gap, and across the
  // scan's 16-byte boundary (a lead byte at offset 15 has its continuation in the next block).
  // Greek, Armenian, Hebrew (with a point), Arabic, Syriac, Thaana and NKo words.
  for (const char* word : {"ab", "мы", "αβ", "աբ", "אָב", "اب", "ܐܒ", "ދވ", "ߊߋ"}) {
    for (char32_t cp = 0x80; cp < 0x800; ++cp) {
      std::string enc;
      langsift::detail::append_utf8(enc, cp);
      for (std::size_t pad = 0; pad < 16; ++pad) {
        std::string s = word;
        s.append(pad, word[0] == 'a' ? 'x' : ' ');  // an ASCII gap (letters for Latin)
        s += enc;
        s += enc;
        s += " ";
        s += enc;
        s += word;
        s += "                 ";
        check_invariants(s);
      }
    }
    // A lead byte without its continuation (or an overlong C0/C1 form) after a letter and after
    // a gap: U+FFFD, a non-voter, whatever its bits would decode to.
    for (unsigned lead = 0xC0; lead < 0xE0; ++lead)
      for (const char* next : {" ", ".", "a", "\xC3", "\x80", "\xBF"})
        for (const char* gap : {"", " "}) {
          const std::string s = std::string(word) + gap + static_cast<char>(lead) + next + word + " " + word;
          check_invariants(s);
        }
  }
}

TEST_CASE("runs of two-byte letters: the fast path against the reference") {
  // skip_run_letters2 takes two-byte letters and marks of the run's script (and ASCII gaps
  // before one); this holds it to the reference on random mixes with what it must leave to the
  // general loop: punctuation and digits of the script, Common letters and punctuation, Inherited
  // marks, letters of other scripts (of one, two and three bytes), cut sequences and the end.
  const std::vector<std::vector<std::string>> scripts = {
      {"α", "β", "ά", "Ω", "ϊ", "ΐ", ";", "·", "΄", "Ϣ", "ϵ", "϶", "ἀ"},  // Greek, Coptic in its block, polytonic
      {"ա", "բ", "Ա", "ՙ", "՝", "։", "և"},                              // Armenian letters, modifier, punctuation
      {"א", "ב", "ְ", "ּ", "־", "׳", "״", "ﬠ"},                           // Hebrew letters, points, maqaf, geresh
      {"ا", "ب", "ة", "ي", "َ", "ّ", "،", "١", "ـ", "٪", "ﻻ"},  // Arabic, Inherited harakat, tatweel
      {"ܐ", "ܒ", "ܰ", "܀"},                                              // Syriac
      {"ދ", "ވ", "ި", "ް"},                                              // Thaana letters and vowel signs
      {"ߊ", "ߋ", "߫", "߀", "߷"}};                                        // NKo letters, tone mark, digit, symbol
  const std::vector<std::string> others = {"\u0301", "\u0300", "\xCC", "\xD7", "\xC0\x80", "\xC1\xBF", " ", "  ", ",", ". ",
                                          "-", "1", "\n", "a", "Z", "é", "м", "×", "«", "»", "क", "世", "😀", "\xFF"};
  check_random_mixes(13, scripts, others);
}

TEST_CASE("runs of three-byte letters: the fast paths against the reference") {
  // skip_run_letters3 takes three-byte letters of the run's script (and ASCII gaps before one),
  // skip_run_kana those of the four scripts of a kana run, from their bytes and one table
  // lookup; this holds them to the reference on random mixes of such letters with the code
  // points they must leave to the general loop: marks and digits of the script, letters of other
  // three-byte scripts, Common letters and punctuation, Inherited marks (three-byte ZWJ/ZWNJ,
  // two-byte U+0301 and its overlong three-byte form), a surrogate, cut sequences, ASCII letters
  // and non-letters, and the last bytes of the text.
  const std::vector<std::vector<std::string>> scripts = {
      {"ก", "ภ", "า", "ี", "เ", "่", "๑", "฿", "ฯ", "๏"},  // Thai: letters, marks, digit, Common, punctuation
      {"क", "ष", "्", "ि", "ं", "।", "१", "ॐ", "ॲ"},       // Devanagari, a Common danda
      {"த", "ம", "ி", "ழ்", "௧"},                           // Tamil
      {"ქ", "ა", "რ", "Ა", "ჼ", "჻"},                       // Georgian, Mtavruli, a modifier letter
      {"世", "界", "の", "カ", "ー", "、", "。", "ㄅ"},      // Han, kana, Bopomofo
      {"한", "국", "어", "世", "。"},                        // Hangul, Han
      // Japanese (skip_run_kana): Han, kana, iteration marks (Han 々, Hiragana ゝ, Katakana ヽ),
      // combining (Inherited) and Common sound marks, the Common long vowel mark, Common
      // punctuation and the ideographic space, halfwidth katakana, Bopomofo, fullwidth Latin, a
      // four-byte Han letter, Hangul
      {"日", "本", "語", "の", "が", "カ", "タ", "ー", "々", "ゝ", "ヽ", "\u3099", "\u309A", "゛", "・", "「",
       "」", "\u3000", "ｶ", "ㄅ", "Ａ", "𠀋", "한"},
      // three-byte letters of scripts with one- and two-byte letters, and overlong forms of these
      {"ệ", "ạ", "ở", "n", "é", "\xE0\x81\xA1", "\xE0\x83\xA9"},  // Vietnamese; overlong a, é
      {"ἀ", "ῆ", "α", "ς", "\xE0\x8E\xB1"}};                      // polytonic Greek; overlong α
  const std::vector<std::string> others = {
      "ৎ", "ক", "ো", "ગ", "ુ", "ਪ", "ੰ", "తె", "ల", "｡", "ｶ",  // Bengali, Gujarati, Gurmukhi, Telugu, halfwidth
      "\u200D", "\u200C", "\u0301", "\xE0\x8C\x81", "\xED\xA0\x80", "\xE0\xB8", "\xE0", "\xE2\x82",
      " ", "  ", ",", ". ", "-", "1", "\n", "a", "Z", "é", "м", "ά", "😀", "\xFF"};
  check_random_mixes(11, scripts, others);
  // The 1/16 rule counts the Han and kana (Hangul) letters the fast path passes.
  for (std::size_t han = 0; han < 64; ++han)
    for (std::string_view letter : {"の", "カ", "ㇰ", "한"})
      for (std::size_t n = 1; n <= 8; ++n) {
        std::string h, phonetic;
        for (std::size_t i = 0; i < han; ++i) h += i % 7 == 6 ? " 界" : "世";
        for (std::size_t i = 0; i < n; ++i) phonetic += letter;
        check_invariants(h + phonetic);
        check_invariants(phonetic + h);
        check_invariants(phonetic + " " + h + "。");
        std::string bopomofo;  // Bopomofo votes with Han, also inside a kana run
        for (std::size_t i = 0; i < han; ++i) bopomofo += "ㄅ";
        check_invariants(phonetic + bopomofo);
      }
}

TEST_CASE("script_counts and the histogram") {
  const auto h = langsift::script_counts("Hello Мир 世界 こんにちは 123 ー e\u0301");
  CHECK(h[script::latin] == 7);     // Hello + e + its accent
  CHECK(h[script::cyrillic] == 3);
  CHECK(h[script::han] == 2);
  CHECK(h[script::hiragana] == 5);
  CHECK(h[script::common] == 1);    // ー
  CHECK(h.total() == 17);
  CHECK(h.has_kana());
  const auto r = h.run_scripts();
  CHECK(r[script::japanese] == 7);  // Han joins kana
  CHECK(r[script::han] == 0);
  CHECK(r[script::hiragana] == 0);
  CHECK(h.dominant() == script::latin);

  CHECK(langsift::script_counts("").dominant() == script::common);
  CHECK(langsift::script_counts("123 !!! 😀").total() == 0);
  CHECK(langsift::script_counts("中文文本，简体字").dominant() == script::han);
  CHECK(langsift::script_counts("大韓民國은 民主共和國이다").dominant() == script::korean);
  CHECK(langsift::script_counts("日本語のテキストです").dominant() == script::japanese);

  langsift::script_histogram acc;
  acc.add("Привет ");
  acc.add("мир");
  acc += langsift::script_counts("abc");
  CHECK(acc[script::cyrillic] == 9);
  CHECK(acc[script::latin] == 3);
  const auto ranked = acc.ranked();
  REQUIRE(ranked.size() == 2);
  CHECK(ranked[0] == std::pair<script, std::size_t>{script::cyrillic, 9});
  CHECK(ranked[1] == std::pair<script, std::size_t>{script::latin, 3});
  CHECK(acc.ranked(0.5).size() == 1);
  CHECK(acc[static_cast<script>(250)] == 0);
}

TEST_CASE("run letters agree with the histogram") {
  const std::string_view texts[] = {"Hello Мир 世界 こんにちは", "क्ष त्र ज्ञ", "大韓民國은 民主共和國이다",
                                    "The word Ελλάδα means Greece", "e\u0301te\u0301 Мир"};
  for (std::string_view t : texts) {
    std::size_t run_letters = 0;
    for (const auto& r : langsift::split_script_runs(t)) run_letters += r.letters;
    const auto h = langsift::script_counts(t);
    INFO(t);
    CHECK(run_letters == h.total() + h[script::common]);
  }
}

TEST_CASE("script_language: single-language scripts decide, shared ones do not") {
  using langsift::script_language;
  struct row {
    script sc;
    std::string_view lang;
  };
  const row single[] = {
      {script::japanese, "ja"}, {script::hiragana, "ja"},  {script::katakana, "ja"}, {script::korean, "ko"},
      {script::hangul, "ko"},   {script::thai, "th"},      {script::lao, "lo"},      {script::khmer, "km"},
      {script::armenian, "hy"}, {script::georgian, "ka"},  {script::gujarati, "gu"}, {script::gurmukhi, "pa"},
      {script::tamil, "ta"},    {script::telugu, "te"},    {script::kannada, "kn"},  {script::malayalam, "ml"},
      {script::sinhala, "si"},  {script::thaana, "dv"},    {script::cherokee, "chr"}, {script::yi, "ii"},
      {script::vai, "vai"},     {script::coptic, "cop"},   {script::gothic, "got"},  {script::chakma, "ccp"},
      {script::tai_viet, "blt"}, {script::ol_chiki, "sat"}, {script::adlam, "ff"},   {script::nko, "nqo"},
  };
  for (const row& r : single) {
    INFO(langsift::script_code(r.sc));
    CHECK(script_language(r.sc) == r.lang);
  }
  // Shared: several languages with training data (docs/script.md), or several in use.
  const script shared[] = {script::latin,    script::cyrillic,  script::arabic,  script::hebrew,
                           script::han,      script::devanagari, script::bengali, script::ethiopic,
                           script::greek,    script::tibetan,   script::myanmar, script::oriya,
                           script::syriac,   script::canadian_aboriginal, script::tifinagh,
                           script::mongolian, script::tai_tham, script::common,  script::inherited,
                           script::unknown};
  for (script s : shared) {
    INFO(langsift::script_code(s));
    CHECK(script_language(s).empty());
  }
  CHECK(script_language(script::han, true) == "ja");
  CHECK(script_language(script::latin, true).empty());
  CHECK(script_language(static_cast<script>(250)).empty());
}
