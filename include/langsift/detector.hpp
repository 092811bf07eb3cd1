// langsift — language identification of UTF-8 text: up to three languages with percent and bytes.
//
//   const langsift::model& m = langsift::default_model();      // or model::load_file(...)
//   langsift::detection d = langsift::detect(m, text);
//   d.language()            -> "de" (or "und")
//   d.languages[i]          -> {code, percent, bytes, score} for i < d.count, most bytes first
//   d.reliable, d.is_short  -> flags (see below)
//   d.confidence            -> calibrated probability that d.language() is right
//   d.top_probabilities()   -> {code, p} of the detect_options::top_k most probable languages
//
// The pipeline (docs/detection.md):
//  1. the text is split into runs of one script (script.hpp); a run in a script that only one of
//     the model's languages is written in is that language at once (Hangul -> ko, Thai -> th,
//     Han with kana -> ja...), and a script no model language has decides by the script table;
//  2. other runs are cut into units of about `unit_bytes` at whitespace; each unit is scored
//     against the model languages written in its script: the "bayes" score sums, over the unit's
//     n-grams (orders 1..5) and words, the log-probability weights of the multi-profile table,
//     a feature missing from a language's profile costing that language its floor; the "rank"
//     score is TextCat's out-of-place distance between the n-gram ranks of the text and of each
//     profile (see `scorer`);
//  3. the units of a run are labelled by the best path through them (Viterbi): the sum of the
//     units' scores minus `switch_penalty` for every change of language. A monolingual page is
//     not sprinkled with near-miss languages, and a bilingual one splits where the text does;
//  4. when units are labelled with members of a close group (bs/hr, id/ms, nb/nn/da...), a
//     discriminator decides among them with the whole document's evidence (close_groups.hpp);
//  5. bytes per language give percent (of text bytes) and bytes; the top language's fit to its
//     own training text gives `score` and the `und` decision;
//  6. the scores of each language's units, calibrated (model::probability_calibration), give
//     the probabilities, mixed by the languages' shares of the text; `confidence` is the top
//     language's, and with its percent and fit gives `reliable`.
// Cost is linear in the input: at most `max_text_bytes` are examined (sampled across longer
// text), and no allocation happens per call once a thread's scratch space has grown.
// Each step is a function of its own, a stage of langsift/impl/detect_stages.hpp (defined in
// langsift/impl/detect/, one file per stage, numbered in the order `detect` calls them).
//
// Where each language is in a text (byte spans): langsift/spans.hpp, on the same stages.
//
// Thread safety: `detect` only reads the model; any number of threads may call it at once on the
// same model (each thread uses its own scratch space).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/config.hpp"
#include "langsift/model.hpp"
#include "langsift/script.hpp"

namespace langsift {
inline namespace v1 {

/// How chunks are scored.
enum class scorer : std::uint8_t {
  automatic,  ///< bayes (measured best at every length, see docs/detection.md)
  bayes,      ///< log-probability of the chunk's n-grams and words under each profile
  rank,       ///< Cavnar–Trenkle out-of-place rank distance (TextCat), n-grams of orders 1..5
};

/// Prior knowledge about the document's language. Each hinted language that the model knows
/// gets a prior bonus; it decides close calls on short text and is negligible on long text.
struct detect_hints {
  std::string_view content_language;  ///< HTTP Content-Language or <meta http-equiv>: "de, en-GB"
  std::string_view html_lang;         ///< <html lang>: "pt-BR"
  std::string_view languages;         ///< any other comma-separated language codes
  std::string_view tld;               ///< the page's top-level domain or host ("de", "www.x.co.uk"):
                                      ///< the country's official languages, at half the weight
  float weight = 1.0f;                ///< strength of the bonus; 0 disables hints
};

/// The most probabilities a detection holds (detect_options::top_k).
inline constexpr std::size_t max_top_k = 16;

struct detect_options {
  std::size_t max_text_bytes = 64 * 1024;  ///< examined at most; longer text is sampled evenly
  std::size_t short_text_bytes = 400;      ///< text bytes below which `is_short` is set (ClueWeb09)
  std::size_t unit_bytes = 64;             ///< runs are scored in units of about this size
  /// Restrict to these codes ("zh" also allows zh-Hant); empty: all. A code that is none of the
  /// model's languages makes the call an error (status invalid_argument, und); unknown_codes()
  /// names them. Codes in langsift's form (parse_code_list() in options.hpp reads a user's list:
  /// "deu, fr" -> de, fr).
  std::span<const std::string_view> only;
  detect_hints hints;
  scorer method = scorer::automatic;
  float undefined_score = 0.25f;  ///< normalised score below which the answer is und (not language)
  float switch_penalty = 300.0f;  ///< score a change of language between neighbouring units costs
  /// Skim long runs (6+ units): score every third unit (about 40 spread evenly over a run of
  /// more than 120) and the last, and the others only when two of those disagree. false: score
  /// every unit.
  bool skim = true;
  /// Stop reading a unit once its language is clear (confidence >= exit_confidence); the rest of
  /// the unit counts for that language. false: read every feature.
  bool early_exit = true;
  float exit_confidence = 0.9995f;
  /// Text with at least this many code-like ASCII symbols per letter ({}[]<>=;*/\\|&^~_#$@%+"():, a run
  /// of one symbol counting once) is not natural language (source code, markup, data): the answer
  /// is und. So is text with marks of code inside a third of its words (token_code_marks), and
  /// an answer with them in a quarter (an eighth with a poor fit) is not reliable. 0 disables these
  /// tests of code (not the others: repetition, scrambled case, lorem ipsum, the fit).
  float max_code_symbols = 0.2f;
  /// detection::probabilities holds the `top_k` most probable languages (0: none; the top
  /// language's probability is `confidence` whatever top_k is), fewer when the others are
  /// negligible (p < 1e-9). More than max_top_k makes the call an error (status
  /// invalid_argument, und).
  std::size_t top_k = 1;
  /// The close-group stage (close_groups.hpp): among the members of a group of languages the
  /// model confuses (bs/hr, id/ms, nb/nn/da, cs/sk/sl...), a discriminator decides with the
  /// evidence of the whole document, and the probabilities follow. false: the model's own labels
  /// stand. No effect with a model without close groups (model::set_close_groups).
  bool close_groups = true;
  /// The web's priors: in that decision, each member's share of the web's pages (Common Crawl),
  /// its log-odds against a member capped (close_group_params::prior_cap), so that text of the
  /// smaller member is still answered; and the model's language priors (model::language_prior:
  /// the wide model's rare languages need more evidence on short text). false: no prior. Off by
  /// itself when `only` is set; a hint naming a language (or a member of the group) lifts its
  /// prior.
  bool web_prior = true;
};

/// One detected language.
struct language_estimate {
  std::string_view code;   ///< ISO 639-1 where one exists, else 639-3 (+ "-Xxxx" script subtag)
  int percent = 0;         ///< share of the text bytes, 0..100
  std::size_t bytes = 0;   ///< text bytes in this language (total bytes × percent / 100, unrounded)
  float score = 0;         ///< fit to the language's own training text: ~1 normal, < 0.5 unusual
};

/// A language and its calibrated probability (detection::probabilities).
struct language_probability {
  std::string_view code;
  float p = 0;  ///< 0..1
};

/// The answer for one document.
struct detection {
  std::array<language_estimate, 3> languages{};  ///< most bytes first; `count` are valid
  std::size_t count = 0;
  std::size_t text_bytes = 0;      ///< bytes of the text's script runs (letters and what joins them)
  std::size_t examined_bytes = 0;  ///< bytes actually scored (< input size when sampled)
  /// Calibrated probability that the top language (`language()`) is right: its probability in
  /// `probabilities`, which it heads but for near-even mixed texts; 0 for und. Among answers given
  /// confidence ≈ p, about p are right (docs/detection.md, "Probabilities").
  float confidence = 0;
  /// The top language's score lead over its strongest rival on its units (model score units;
  /// another language, not a script variant). Infinity when the top language has no scored
  /// rival (decided by its script); 0 for `und`.
  float margin = 0;
  /// The `top_k` most probable labels of the document (detect_options::top_k), most probable
  /// first, `probability_count` valid; the probabilities sum to at most 1 (the rest is "other").
  /// The label of a text in several languages is the language of a byte drawn at random from
  /// it: a text 60 % de and 40 % fr gives de about 0.6, fr 0.4. Empty for und.
  std::array<language_probability, max_top_k> probabilities{};
  std::size_t probability_count = 0;
  bool reliable = false; ///< confidence >= 0.9, the top language fits its profile and has >= 70 % of the text, no signs of code
  bool is_short = false; ///< fewer than `short_text_bytes` text bytes (the guess is still given)
  bool sampled = false;  ///< the input exceeded `max_text_bytes` and was sampled
  status st = status::ok;  ///< empty_input when there is no letter at all

  /// The top language, or "und" (undefined: no letters, or not natural language).
  std::string_view language() const noexcept { return count ? languages[0].code : std::string_view("und"); }
  bool is_ok() const noexcept { return st == status::ok; }
  /// probabilities[0, probability_count).
  std::span<const language_probability> top_probabilities() const noexcept {
    return {probabilities.data(), probability_count};
  }
};

/// Identifies the languages of `text` (UTF-8; invalid sequences are skipped).
detection detect(const model& m, std::string_view text, const detect_options& opt = {});

/// The codes of `codes` that name no language detect can answer — none of the model's, and none
/// that a script decides alone (chr for Cherokee) — as detect_options::only reads them ("zh"
/// names zh-Hant too), in their order: what makes a restricted detect an error.
std::vector<std::string_view> unknown_codes(const model& m, std::span<const std::string_view> codes);

namespace detail {

/// `code` is `wanted` or a script variant of it: "zh" allows "zh-Hant", "sr" allows "sr-Latn".
/// Compared exactly: both in langsift's form, the case included ("zh-Hant", as the model writes
/// it). Codes are case-insensitive where people give them; every front end puts them in that form
/// first (to_iso639_1, parse_code_list in options.hpp: "ZH-hant" -> "zh-Hant").
inline bool code_matches(std::string_view code, std::string_view wanted) noexcept {
  if (code.size() < wanted.size()) return false;
  if (!wanted.empty() && code[0] != wanted[0]) return false;  // most pairs differ at once: no memcmp
  if (code.size() == wanted.size()) return code == wanted;
  return code[wanted.size()] == '-' && code.substr(0, wanted.size()) == wanted;
}

/// The ASCII symbols that mark text as code rather than natural language (detect_options::max_code_symbols).
constexpr bool is_code_symbol(char c) noexcept {
  switch (c) {
    case '{': case '}': case '[': case ']': case '<': case '>': case '=': case ';': case '*': case '/':
    case '\\': case '|': case '&': case '^': case '~': case '_': case '#': case '$': case '@': case '%': case '+':
    case '"': case '(': case ')': case ':':
      return true;
    default:
      return false;
  }
}

// The detector's vector kernels (SSE2 where available; defined in impl/detect/kernels-inl.hpp),
// declared here for their tests.

/// What the bytes of a text say about whether it is language (detect's und tests, see
/// docs/detection.md "und"), counted by count_text_signs.
struct text_signs {
  std::size_t code_symbols = 0;   ///< code symbols (is_code_symbol), a run of one symbol counting once
  std::size_t case_switches = 0;  ///< an ASCII capital right after an ASCII lower-case letter
  std::size_t code_marks = 0;     ///< token_code_marks summed over the tokens (runs of bytes > 0x20)
  std::size_t spaces = 0;         ///< ASCII spaces
};

/// The marks of code inside one token (a run of bytes > 0x20), at most 2: 0 for a web or e-mail
/// address, a file path, a @mention or #hashtag (not a #colour); else, outside HTML character
/// references ("&#233;", "&amp;"), the bytes that are
///  - { } = \ (a run counting once), or # @ $ before an ASCII letter ("#include", "$x");
///  - & | < > + ~ ^ _ (a run counting once) next to an ASCII letter or digit ("x_y", "a&b",
///    "i++", "p->q"; not "rock & roll", "Home > News"), '*' between two ("a*b"; not "* item",
///    "*emphasis*", "note*");
///  - " ( ) : / % ; [ ] between an ASCII letter or digit and an ASCII letter, digit or one of them,
///    a letter on one side ("f(x)", "f()", "a[i]", "a/b", "http:"; not "10/12", "3:30", "(see");
///  - a digit after an ASCII lower-case letter and not before one ("int32", "t6", "x86"; not
///    "S21", nor the glottal stop some orthographies write "7": "na7a");
///  - a '.' between an ASCII lower-case letter and two ASCII letters, the first lower-case
///    ("os.path", "u.name"; not "e.g.", "Ph.D.", "end. Next").
std::size_t token_code_marks(const unsigned char* token, std::size_t n) noexcept;

/// Adds the signs of bytes[0, n) to `t` (the byte before bytes[0] counts as a space).
void count_text_signs(const unsigned char* bytes, std::size_t n, text_signs& t) noexcept;
/// The first index of the largest of v[0, n) (n >= 1; no NaN).
std::uint32_t first_argmax(const float* v, std::uint32_t n) noexcept;
/// y[k] += a × x[k] for k < n: a floor times a feature count, per language.
void add_scaled(float* __restrict y, float a, const float* __restrict x, std::size_t n) noexcept;
/// y[k] = h[k] + a1 × x1[k] + a2 × x2[k] for k < n, added in that order (the same floats as a
/// copy and two add_scaled passes).
void copy_add_scaled2(float* __restrict y, const float* __restrict h, float a1, const float* __restrict x1,
                      float a2, const float* __restrict x2, std::size_t n) noexcept;
/// hits[k] += acc[k] × step, then acc[k] = 0, for k < n: a batch of quantised weights moved into
/// the float sums.
void drain_batch(float* __restrict hits, std::uint16_t* __restrict acc, float step, std::size_t n) noexcept;
/// The largest and the second largest of v[0..n) (equal when the largest occurs twice); n >= 2.
void top_two(const float* v, std::size_t n, float& best, float& second) noexcept;
/// y[k] = e^(t × (x[k] − top)) for k < n (x[k] <= top, t > 0), within a relative 1e-5; 0 where
/// that is under 2^−100 (padding lanes, kNoScore): the weights of the probabilities. Returns
/// their sum (four partial sums by k mod 4, then (s0 + s1) + (s2 + s3)).
float exp_scaled(float* __restrict y, const float* __restrict x, float top, float t, std::size_t n) noexcept;

}  // namespace detail
}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/detector-inl.hpp"
#endif
