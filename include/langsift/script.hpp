// langsift — the script prefilter: UTF-8 text in, runs of one writing system out (Spinn3r's and
// CLD2's first step). A run written in a script that only one language uses decides its language
// at once (script_language); the other runs go to the n-gram classifier, restricted to the
// languages written in the run's script. No ICU; part of langsift::core (implementation in
// impl/script-inl.hpp).
// See docs/script.md for the rules and their reasons.
//
//   std::vector<langsift::script_run> runs;
//   langsift::split_script_runs("Hello, мир! 日本語のテキスト", runs);
//   // runs[0] = {0, 6, latin, 5}          "Hello,"
//   // runs[1] = {7, 14, cyrillic, 3}      "мир!"
//   // runs[2] = {15, 39, japanese, 8}     "日本語のテキスト"  (Han + kana = one Jpan run)
//   langsift::script_language(runs[2].sc) == "ja"; script_language(script::latin) == ""
//
// The rules of split_script_runs (one forward pass, O(1) state besides `out`):
//  1. Voters. A letter or mark (char_class letter/mark) of a real script votes for that script.
//     Common and Unknown characters (punctuation, digits, spaces, symbols, emoji, U+FFFD, and the
//     few Common letters such as U+30FC "ー") never vote, nor do digits or punctuation of a real
//     script. An Inherited character (combining accents, ZWJ/ZWNJ, variation selectors) votes
//     with the letter it follows, and is a non-voter after anything else.
//  2. CJK. Hiragana and Katakana vote "kana", Hangul "hangul", Han and Bopomofo "han". Han joins a
//     kana run or a Hangul run next to it (only non-voters between), kana and Hangul never join.
//     When the run closes, a run with kana is `japanese` (Jpan) if kana letters are at least 1/16
//     of its Han + kana letters, else `han`; a run with Hangul is `korean` (Kore) on the same
//     1/16 rule, else `han`; a run of Han (and Bopomofo) alone is `han`. (The 1/16 keeps Chinese
//     text with a stray "の" Chinese; Japanese prose has 30-60 % kana.) Runs are therefore never
//     hiragana, katakana, hangul or bopomofo.
//  3. Non-voters between two voters of the same (or joining) script stay inside the run. Between
//     runs of different scripts the boundary is at the whitespace: the earlier run keeps the
//     non-voters up to the first whitespace character, the later run starts after the last one;
//     what lies between belongs to neither. With no whitespace between them, the earlier run
//     keeps all (so "Hello,мир" is "Hello," + "мир"). Text before the first run and after the
//     last is treated the same way (so "123 Hello 456" is the run "Hello", "«Hello»" is whole).
//     Consequently no run begins or ends with whitespace, and runs are ordered, disjoint, lie on
//     code-point boundaries, and cover every voter.
//  4. Every run has at least one voter, so there are no letterless runs to drop or merge: text
//     without letters (emoji, digits, punctuation, whitespace, invalid bytes) gives no runs.
//     Neighbouring runs differ in script (two CJK runs that both fall back to han are joined).
//  5. `letters` counts the letter and mark code points inside the run's byte range (voters,
//     attached Inherited marks, and Common letters such as "ー" that fall inside it).
//  Invalid UTF-8 decodes as U+FFFD per maximal subpart (decode_utf8): a Common non-voter.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/config.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

/// A stretch of text in one writing system: bytes [begin, end) of the input.
struct script_run {
  std::size_t begin = 0, end = 0;
  script sc = script::common;  ///< never common/inherited/unknown/hiragana/katakana/hangul/bopomofo
  std::size_t letters = 0;     ///< letter + mark code points in [begin, end)
  friend bool operator==(const script_run&, const script_run&) = default;
};

/// The script a run of text in script `s` is reported as (rule 2 above, without the 1/16 test):
/// hiragana, katakana -> japanese; hangul -> korean; bopomofo -> han; any other -> itself.
constexpr script run_script(script s) noexcept {
  switch (s) {
    case script::hiragana: case script::katakana: return script::japanese;
    case script::hangul: return script::korean;
    case script::bopomofo: return script::han;
    default: return s;
  }
}

/// True for the scripts that carry letters (every script but common, inherited and unknown).
constexpr bool is_real_script(script s) noexcept {
  return s != script::common && s != script::inherited && s != script::unknown &&
         static_cast<std::size_t>(s) < script_count;
}

namespace detail {

// Vote groups: a real script's index, or one of these for the CJK scripts.
enum : std::uint16_t {
  vote_none = 0xFFFF,
  vote_han = 0x100,
  vote_kana = 0x101,
  vote_hangul = 0x102,
};

constexpr std::uint16_t vote_of(script s) noexcept {
  switch (s) {
    case script::han: case script::bopomofo: return vote_han;
    case script::hiragana: case script::katakana: return vote_kana;
    case script::hangul: return vote_hangul;
    default: return static_cast<std::uint16_t>(s);
  }
}

constexpr bool is_letter_or_mark(char_class c) noexcept {
  return c == char_class::letter || c == char_class::mark;
}

/// What a code point does in split_script_runs.
enum class run_cp_kind : std::uint8_t {
  gap_other,   ///< non-voter: digit, punctuation, symbol, control, U+FFFD
  space,       ///< non-voter: White_Space
  gap_letter,  ///< non-voter letter or mark: Common letters, an Inherited mark after a non-voter
  voter,       ///< letter or mark of a real script
  attached,    ///< Inherited mark after a voter: votes with it
};

/// The CJK decision of rule 2: kana (or Hangul) letters at least 1/16 of them plus Han.
constexpr bool cjk_share_ok(std::size_t phonetic, std::size_t han) noexcept {
  return phonetic > 0 && phonetic * 16 >= phonetic + han;
}

}  // namespace detail

/// Splits UTF-8 text into script runs (rules at the top of this header). `out` is cleared first
/// (reuse it to keep its capacity). One pass; never reads outside `utf8`; invalid bytes are
/// non-voters. May throw std::bad_alloc (from `out`), nothing else.
void split_script_runs(std::string_view utf8, std::vector<script_run>& out);

/// split_script_runs into a new vector.
std::vector<script_run> split_script_runs(std::string_view utf8);

/// Letters (letter + mark code points) per script of a text, counted by each code point's own
/// script; an Inherited mark counts for the letter it follows, and Common letters (U+30FC...)
/// count under common.
struct script_histogram {
  std::array<std::size_t, script_count> letters{};

  std::size_t operator[](script s) const noexcept {
    return static_cast<std::size_t>(s) < script_count ? letters[static_cast<std::size_t>(s)] : 0;
  }

  /// Letters of real scripts (not common, inherited or unknown).
  std::size_t total() const noexcept {
    std::size_t t = 0;
    for (std::size_t i = 0; i < script_count; ++i)
      if (is_real_script(static_cast<script>(i))) t += letters[i];
    return t;
  }

  /// True if the text has any Hiragana or Katakana letter.
  bool has_kana() const noexcept { return (*this)[script::hiragana] + (*this)[script::katakana] > 0; }

  /// Adds the letters of `utf8` (a corpus can be counted a line or a block at a time; a block
  /// boundary inside a UTF-8 sequence costs one U+FFFD, which is not a letter).
  void add(std::string_view utf8) noexcept;

  script_histogram& operator+=(const script_histogram& o) noexcept {
    for (std::size_t i = 0; i < script_count; ++i) letters[i] += o.letters[i];
    return *this;
  }

  /// Letters per run script, as if the whole text were one region under rule 2 of
  /// split_script_runs: kana goes to japanese and Hangul to korean if it passes the 1/16 test
  /// against the text's Han letters (else to han), Bopomofo to han, and Han joins japanese or
  /// korean (the larger, if both pass). Common, inherited and unknown are zero.
  script_histogram run_scripts() const noexcept {
    script_histogram r;
    for (std::size_t i = 0; i < script_count; ++i) {
      const auto s = static_cast<script>(i);
      if (is_real_script(s)) r.letters[static_cast<std::size_t>(run_script(s))] += letters[i];
    }
    auto& han = r.letters[static_cast<std::size_t>(script::han)];
    auto& ja = r.letters[static_cast<std::size_t>(script::japanese)];
    auto& ko = r.letters[static_cast<std::size_t>(script::korean)];
    const std::size_t han_alone = han;
    const bool ja_ok = detail::cjk_share_ok(ja, han_alone), ko_ok = detail::cjk_share_ok(ko, han_alone);
    if (!ja_ok) {
      han += ja;
      ja = 0;
    }
    if (!ko_ok) {
      han += ko;
      ko = 0;
    }
    if (ja_ok || ko_ok) {
      auto& joined = ja_ok && (!ko_ok || ja >= ko) ? ja : ko;
      joined += han;
      han = 0;
    }
    return r;
  }

  /// The run script with the most letters (run_scripts()); common if there are no letters.
  /// Ties go to the lower enum value.
  script dominant() const noexcept {
    const script_histogram r = run_scripts();
    std::size_t best = 0;
    script s = script::common;
    for (std::size_t i = 0; i < script_count; ++i)
      if (r.letters[i] > best) {
        best = r.letters[i];
        s = static_cast<script>(i);
      }
    return s;
  }

  /// Run scripts with at least `min_share` of the letters (0..1), most letters first: the scripts
  /// a text (e.g. a training corpus) is written in.
  std::vector<std::pair<script, std::size_t>> ranked(double min_share = 0.0) const {
    const script_histogram r = run_scripts();
    const std::size_t t = r.total();
    std::vector<std::pair<script, std::size_t>> v;
    for (std::size_t i = 0; i < script_count; ++i)
      if (r.letters[i] > 0 && static_cast<double>(r.letters[i]) >= min_share * static_cast<double>(t))
        v.emplace_back(static_cast<script>(i), r.letters[i]);
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return v;
  }
};

/// Letters per script of `utf8` (script_histogram::add on an empty histogram).
inline script_histogram script_counts(std::string_view utf8) noexcept {
  script_histogram h;
  h.add(utf8);
  return h;
}

/// The language a run of script `sc` decides by itself (ISO 639-1, else 639-3), or "" when the
/// script is shared by several languages and the n-gram classifier must choose among the
/// languages written in it. `has_kana`: a run of script han known to belong to Japanese text
/// (its document has kana; see script_histogram::run_scripts) gives "ja" instead of "".
/// The table and its reasons (why Greek, Tibetan, Myanmar, Oriya, Ethiopic, Bengali, Hebrew,
/// Syriac and Canadian syllabics are shared) are in docs/script.md.
constexpr std::string_view script_language(script sc, bool has_kana = false) noexcept {
  switch (sc) {
    case script::japanese: case script::hiragana: case script::katakana: return "ja";
    case script::han: return has_kana ? "ja" : "";  // zh, zh-Hant, yue, wuu... : classifier
    case script::korean: case script::hangul: return "ko";
    case script::thai: return "th";
    case script::lao: return "lo";
    case script::khmer: return "km";
    case script::armenian: return "hy";
    case script::georgian: return "ka";
    case script::gujarati: return "gu";
    case script::gurmukhi: return "pa";
    case script::tamil: return "ta";
    case script::telugu: return "te";
    case script::kannada: return "kn";
    case script::malayalam: return "ml";
    case script::sinhala: return "si";
    case script::thaana: return "dv";
    case script::cherokee: return "chr";
    case script::yi: return "ii";
    case script::vai: return "vai";
    case script::coptic: return "cop";
    case script::gothic: return "got";
    case script::chakma: return "ccp";
    case script::tai_viet: return "blt";
    case script::ol_chiki: return "sat";
    case script::adlam: return "ff";
    case script::nko: return "nqo";
    default: return "";
  }
}

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/script-inl.hpp"
#endif
