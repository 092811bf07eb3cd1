// langsift — detect, stage 7's tests of text that is not natural language (und), shared with
// detect_spans (impl/spans-inl.hpp), which applies them to a unit. See docs/detection.md, "und".
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "langsift/detail/ascii.hpp"
#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// What says a text is not natural language (counted by stage 2, or over a unit by detect_spans).
struct language_signs {
  text_signs t;                // code symbols, case switches, code marks, spaces
  std::size_t letters;         // letters and marks of the script runs
  std::size_t latin_letters;   // of them in Latin runs
  int distinct;                // distinct byte values of letters, counted up to kFewLetterBytes + 1
  float fit;                   // the top language's fit (language_estimate::score)
  double fit_letters;          // letters behind the fit
};

/// A share of a text's words (its spaces + 1): num / den.
struct token_share {
  std::size_t num, den;
  constexpr bool reached(std::size_t n, std::size_t words) const noexcept { return n * den >= words * num; }
};

/// Marks of code inside tokens (text_signs::code_marks: at most 2 per token), in text mostly in
/// Latin letters, against its words (spaces + 1): at least three, and as many as a third of the
/// words, make the text und (source code has marks in most of its tokens); at least two, down to
/// a quarter of the words, make an answer unreliable, and so do fewer still, down to one mark per
/// eight words, with a fit under kCodeHintFit. Prose with some web debris (a product code,
/// "nuru(80%)") keeps its answer. Every threshold of these tests was chosen by a rule on the junk
/// set's dev part and held-out training text (docs/detection.md, "Junk").
inline constexpr token_share kCodeMarksUnd{1, 3}, kCodeMarksUnreliable{1, 4}, kCodeMarksUnreliableUnfit{1, 8};
inline constexpr std::size_t kCodeMarksUndMin = 3, kCodeMarksUnreliableMin = 2;
inline constexpr float kCodeHintFit = 0.8f;

/// Whether a text with `signs` is not natural language, in any language we know: code-like
/// (symbols, or marks of code inside words), scrambled case (base64, hashes), repetitive, or a
/// poor fit to the top language (with enough evidence).
inline bool not_language(const detect_options& opt, const language_signs& x) noexcept {
  const bool code = opt.max_code_symbols > 0;
  const bool code_like = code && x.t.code_symbols >= 4 &&
                         static_cast<float>(x.t.code_symbols) >= opt.max_code_symbols * static_cast<float>(x.letters);
  const bool latin = x.latin_letters * 2 >= x.letters;
  const bool code_marked = code && latin && x.t.code_marks >= kCodeMarksUndMin && kCodeMarksUnd.reached(x.t.code_marks, x.t.spaces + 1);
  const bool scrambled_case = x.t.case_switches >= 4 && x.t.case_switches * 20 >= x.letters;
  // "aaaaaaaa...", "hahahahaha...": 40 letters or more made of at most 4 byte values.
  const bool repetitive = x.letters >= 40 && x.distinct <= 4;
  // The fit says "not language" only with enough evidence: a few words may be rare words.
  const bool unfit = x.fit < opt.undefined_score && x.fit_letters >= 15;
  return unfit || code_like || code_marked || scrambled_case || repetitive;
}

/// Whether an answer for a text with `signs` is to be unreliable for marks of code too few for
/// not_language (see kCodeMarksUnd).
inline bool code_hinted(const detect_options& opt, const language_signs& x) noexcept {
  const std::size_t marks = x.t.code_marks;
  if (opt.max_code_symbols <= 0 || marks == 0 || x.latin_letters * 2 < x.letters) return false;
  return (marks >= kCodeMarksUnreliableMin && kCodeMarksUnreliable.reached(marks, x.t.spaces + 1)) ||
         (x.fit < kCodeHintFit && kCodeMarksUnreliableUnfit.reached(marks, x.t.spaces + 1));
}

/// Counts the words of texts for repeated_words: a word is a run of letters and marks, case-folded;
/// one made of three or more repeats of one to three characters counts as that many words
/// ("hahaha": ha ha ha), and a word repeats when it is one of the last kRecentWords distinct
/// words before it. At most kMaxWords words are read (a bound on the work, not a threshold).
class word_repeats {
 public:
  static constexpr std::size_t kRecentWords = 16, kMaxWords = 64, kMaxChars = 64;
  std::size_t words = 0, repeats = 0;

  bool full() const noexcept { return words >= kMaxWords; }

  void add(std::string_view text) noexcept {
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end && !full()) {
      const unsigned char b = static_cast<unsigned char>(*p);
      char32_t c = b;
      char_class cls;
      if (b < 0x80) {
        ++p;
        cls = (b | 0x20) >= 'a' && (b | 0x20) <= 'z' ? char_class::letter : char_class::other;
        c = static_cast<char32_t>(b | (cls == char_class::letter ? 0x20 : 0));
      } else {
        c = decode_utf8(p, end);
        const code_point_info info = code_point_props(c);
        cls = info.cls;
        c = info.lower;
      }
      if (cls == char_class::letter || cls == char_class::mark) {
        if (n_ < kMaxChars) word_[n_] = c;
        ++n_;
      } else {
        end_word();
      }
    }
    end_word();
  }

 private:
  std::array<char32_t, kMaxChars> word_{};
  std::size_t n_ = 0;
  std::array<std::uint64_t, kRecentWords> recent_{};
  std::size_t n_recent_ = 0;

  void end_word() noexcept {
    if (n_ == 0) return;
    const std::size_t n = std::min(n_, kMaxChars);
    std::size_t period = 0;
    for (std::size_t q = 1; q <= 3 && !period; ++q)
      if (n_ <= kMaxChars && n >= 3 * q && std::equal(word_.begin() + static_cast<std::ptrdiff_t>(q), word_.begin() + static_cast<std::ptrdiff_t>(n), word_.begin()))
        period = q;
    const std::size_t parts = period ? n / period : 1;
    words += parts;
    repeats += parts - 1;
    std::uint64_t h = 0xcbf29ce484222325ull ^ n_;  // FNV-1a over the characters and the length
    for (std::size_t i = 0; i < n; ++i) h = (h ^ word_[i]) * 0x100000001b3ull;
    n_ = 0;
    const auto* seen = std::find(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(n_recent_), h);
    if (seen != recent_.begin() + static_cast<std::ptrdiff_t>(n_recent_)) {
      ++repeats;
      return;
    }
    if (n_recent_ < kRecentWords) ++n_recent_;
    std::copy_backward(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(n_recent_ - 1), recent_.begin() + static_cast<std::ptrdiff_t>(n_recent_));
    recent_[0] = h;
  }
};

/// Whether the text of `units` repeats itself: at least kRepeatedWordsMin words (word_repeats),
/// kRepeatedShare of them repeats ("x x x x x x", "A sfet A sfet A sfet", "hahahaha",
/// "tsia. tsia. tsia. tsia.").
inline constexpr std::size_t kRepeatedWordsMin = 6;
inline constexpr token_share kRepeatedShare{2, 5};
template <class Units>
bool repeated_words(const Units& units) noexcept {
  word_repeats w;
  for (const auto& u : units) {
    if (w.full()) break;
    w.add(u.text);
  }
  return w.words >= kRepeatedWordsMin && kRepeatedShare.reached(w.repeats, w.words);
}

/// The words of the standard lorem ipsum passage ("Lorem ipsum dolor sit amet, consectetur
/// adipiscing elit...", 69 distinct words, public domain) that the default model's Latin training
/// text (144,441 words; its source in models/README.md and models/LICENSE) never uses; sorted. A placeholder passage
/// scrambled from Cicero: its other words are Latin.
inline constexpr std::array<std::string_view, 28> kLoremOnlyWords = {
    "adipiscing", "aliquip", "aute", "cillum", "consectetur", "consequat", "cupidatat", "deserunt", "duis", "eiusmod",
    "elit", "eu", "excepteur", "exercitation", "fugiat", "incididunt", "irure", "laboris", "lorem", "minim",
    "mollit", "nostrud", "occaecat", "pariatur", "proident", "reprehenderit", "tempor", "ullamco"};
static_assert(std::is_sorted(kLoremOnlyWords.begin(), kLoremOnlyWords.end()), "binary_search needs them sorted");

/// Whether text answered Latin is lorem ipsum: at least one word in five (kLoremShare) of its
/// first 64 ASCII words (runs of ASCII letters, case-folded) is one of kLoremOnlyWords.
inline constexpr token_share kLoremShare{1, 5};
template <class Units>
bool lorem_ipsum(const Units& units) noexcept {
  std::size_t words = 0, lorem = 0;
  char w[16];
  for (const auto& u : units) {
    const std::string_view t = u.text;
    for (std::size_t i = 0; i < t.size() && words < 64;) {
      if (!is_ascii_alpha(static_cast<unsigned char>(t[i]))) {
        ++i;
        continue;
      }
      std::size_t n = 0;
      for (; i < t.size() && is_ascii_alpha(static_cast<unsigned char>(t[i])); ++i, ++n)
        if (n < sizeof w) w[n] = ascii_lower(t[i]);
      ++words;
      lorem += n <= sizeof w && std::binary_search(kLoremOnlyWords.begin(), kLoremOnlyWords.end(), std::string_view(w, n));
    }
  }
  return lorem >= 1 && kLoremShare.reached(lorem, words);
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
