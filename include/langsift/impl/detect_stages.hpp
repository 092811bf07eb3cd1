// langsift — the stages of `detect` (langsift/detector.hpp), over one scratch type. Each stage
// reads what the stages before it left in the scratch and adds its own part; `detect` calls them
// in this order (impl/detector-inl.hpp), and the tests call them one at a time. Their definitions
// are in impl/detect/, one file per stage, numbered in this order:
//
//   0 begin          the call's settings: restrictions (`only`), hints, early exit
//   1 sample         the regions of the text to examine: all of it, or evenly spaced windows
//   2 script_units   script runs cut into units; the signs of text that is not language
//   3 score          n-gram scores of the units, per language of their script's group
//   4 segment        a language per unit (Viterbi over each run); unclear short runs unattributed
//   5 close_group    among the members of a close group the model confuses, a discriminator
//                    (with the model's scores and the web prior) decides for the whole document
//   6 top_three      bytes per language: the top three with percent, bytes and fit
//   7 und_confidence probabilities and confidence, or und for text that is not language
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/close_groups.hpp"
#include "langsift/config.hpp"
#include "langsift/detector.hpp"
#include "langsift/model.hpp"
#include "langsift/script.hpp"

namespace langsift {
inline namespace v1 {

struct detect_options;
struct detection;

namespace detail {

/// The score of a language that may not be chosen (not allowed, or a padding lane of a group).
inline constexpr float kNoScore = -3.0e38f;

/// Texts whose letters take at most this many distinct byte values are read for repeated words
/// (stage 7); stage 2 counts the distinct values up to one more. More than 4: the count also
/// serves the test of >= 40 letters of at most 4 byte values.
inline constexpr int kFewLetterBytes = 6;
static_assert(kFewLetterBytes > 4, "not_language's repetitive test reads the count up to 5");

/// A piece of a script run, scored on its own.
struct unit {
  std::string_view text;               // the unit's text (a view into the input)
  std::size_t bytes;                   // text bytes this unit stands for
  std::uint32_t run;                   // index of its script run (segmentation runs within a run)
  std::uint32_t score_begin;           // into scratch.scores / hits: size_pad floats, by local index
  const group_table* g;                // the languages of its script; null: decided without scores
  std::uint32_t group;
  script sc;
  int lang = -1;                       // model language index, after segmentation
  std::string_view decided;            // a language decided by the script alone, outside the model
  float features = 0;                  // features with a weight (0 until scored)
  float letters = 0;                   // letters those features came from
  bool scored = false;
};

/// Bytes of one language (stage 6).
struct language_bytes {
  double bytes;
  int lang;  // model index, or -1 for a language decided by its script alone (`code`)
  std::string_view code;
};

/// A close group's decision (stage 5): its members' probabilities given that the label is one of
/// them, which stage 7 puts in place of the model's share among them.
struct close_decision {
  int group = -1;                                // index in the model's close groups
  std::array<float, max_close_members> q{};      // per member (the model's close_members order)
  int winner = -1;                               // model language index
};

/// What flows between the stages of one call, and their buffers. The buffers are grown, never
/// shrunk: once a thread's scratch has grown, a call allocates nothing.
struct detect_scratch {
  // 0. The call
  bool restricted = false;                // `only` is set: per group a mask of allowed languages
  bool hinted = false;                    // hints are given: `bonus` holds them
  bool use_rank = false;                  // scorer::rank
  int zh = -1;                            // the model's Simplified Chinese (model::chinese)
  double exit_z = 1e300;                  // calibrated margin that ends a unit's reading early
  std::vector<float> allowed;             // per group: size_pad, 0 allowed / kNoScore not (restricted calls)
  std::vector<std::uint32_t> allowed_at;  // per group: offset into `allowed`, or ~0 when not built
  std::vector<std::uint32_t> allowed_count;
  std::vector<float> bonus;               // per model language (hints)
  bool prior = false;                     // the model's language priors apply to this call
  std::vector<float> prior_scores;        // stage 4: a unit's scores with the priors

  // 1. Sample: the regions [first, second) of the text examined
  std::array<std::pair<std::size_t, std::size_t>, 16> regions{};
  std::size_t nregions = 0;
  bool sampled = false;  // the text exceeds max_text_bytes: `regions` are windows of it

  // 2. Script units, and the signs of text that is not natural language
  bool span_units = false;       // detect_spans: units end at sentence ends, short runs are cut too
  std::vector<script_run> runs;  // of the region being cut
  std::vector<unit> units;       // in text order; the units of a run are consecutive
  std::size_t examined = 0;      // bytes of the regions
  std::size_t text_bytes = 0;    // bytes of their script runs
  std::size_t letters = 0;        // letters and marks in those runs
  std::size_t latin_letters = 0;  // of them in Latin runs
  text_signs signs;               // of the regions (count_text_signs)
  int distinct = 0;               // distinct byte values of letters, counted up to kFewLetterBytes + 1 (7)
  std::size_t score_size = 0;    // floats of `scores` and `hits` the units use

  // 3. Scores
  std::vector<float> scores, hits;        // per scored unit: size_pad floats, by local language
  std::vector<std::uint64_t> feats;       // a unit's features
  std::vector<std::uint16_t> acc16;       // per group language: quantised weights of a batch
  std::vector<std::uint32_t> slotv;       // slots of a unit's features
  std::vector<std::uint32_t> by_type;     // their payloads grouped by type (group_table::add_all)
  std::vector<slot_address> addr;         // their bucket addresses
  std::vector<float> acc;                 // per model language (rank scorer)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> ranks;  // a run's profile (rank scorer)

  // 4. Segmentation
  std::vector<float> viterbi;
  std::vector<std::int32_t> back;
  std::vector<std::uint32_t> order;  // the scored units of a run, in order

  // 5. Close groups
  std::vector<close_decision> close;    // this call's decisions (one per group in play)
  std::vector<std::uint8_t> close_seen;  // per close group of the model: has units
  std::vector<std::uint64_t> close_hashes;  // the words and word pairs of a unit's text

  // 6. Top three
  std::vector<language_bytes> items;  // most bytes first
  double top_fit_letters = 0;         // letters behind the top language's fit

  // 7. Und, confidence, probabilities
  std::vector<float> own;      // per language of a group: scores summed over one language's units
  std::vector<float> weights;  // their exp_scaled weights
  std::vector<double> prob;    // per model language: its probability (0 but for `touched`)
  std::vector<std::uint16_t> touched;  // the languages whose `prob` the last call set
  std::vector<std::pair<std::string_view, double>> dist;  // decided outside the model; then the top_k
};

/// Stage 7's parts (also for the probability fit of `langsift-eval calibrate --probability`):
/// sums the scores of model language `l`'s scored units into s.own (size_pad floats of its group,
/// the padding lanes kNoScore) and returns the features read on them, or -1 when none is scored
/// (the language was decided by its script);
float pool_scores(const model& m, int l, detect_scratch& s);
/// and the margin of model language `top` on the scores pool_scores left (s.own, unchanged on
/// return): its lead over the best language of another base (zh-Hant is not zh's rival, nor
/// sr-Latn sr's); infinity when none scores.
double margin_of(const model& m, int top, detect_scratch& s) noexcept;

/// The stages, in the order `detect` calls them (see the top of this file).
namespace detect_stage {

/// 0. Prepares `s` for a call with `opt`: restrictions, hint bonuses, the scorer's settings.
void begin(const model& m, const detect_options& opt, detect_scratch& s);
/// 1. The regions of `text` to examine: all of it up to max_text_bytes, else 16 evenly spaced
/// windows starting and ending at code point boundaries (`sampled`).
void sample(std::string_view text, const detect_options& opt, detect_scratch& s);
/// 2. Cuts the regions into script runs and the runs into units: a run whose script decides its
/// language (one candidate, or no model group) is one unit with its language; the others are
/// cut into units of about unit_bytes at whitespace, each with room in `scores`. Counts text
/// bytes, letters and the signs of text that is not natural language. With `span_units`
/// (detect_spans), every run with candidates is cut, and units end at sentence ends where they can.
void script_units(const model& m, const detect_options& opt, std::string_view text, detect_scratch& s);
/// 3. Scores the units of every run with a group: bayes (skimming long runs: every third unit and
/// the last), or rank (one profile per run, its score shared by the run's units by bytes).
void score(const model& m, const detect_options& opt, detect_scratch& s);
/// Scores one unit with the bayes scorer: scores[local] and hits[local] of its group's languages.
void score_unit(const model& m, const detect_options& opt, detect_scratch& s, unit& u);
/// Traditional-only minus Simplified-only Han characters of `text` (CLDR's exemplar sets of
/// zh_Hant and zh, detail/han_variants.inc): > 0, the text writes Chinese's Traditional forms.
/// score_unit decides zh against zh-Hant by it.
int han_form_balance(std::string_view text) noexcept;
/// 4. Labels the units of every run with a group (Viterbi, a switch costing switch_penalty; in
/// short text the model's language priors are added once, at the start of the path);
/// a skimmed run whose labels disagree is scored in full and labelled again. Then a short run
/// in a document of mostly other text loses its label unless its language is clear.
void segment(const model& m, const detect_options& opt, detect_scratch& s);
/// 5. For each close group (model::close_groups) whose members label units of the text: when the
/// group is in play (the model's runner-up member within close_group_params::trigger of the best)
/// and at least two members are allowed, decides among the members with the discriminator over
/// the text of all those units, the model's calibrated log-odds and the web prior
/// (detect_options::web_prior, off under `only` or a hint naming a member); the units take the
/// winner, and s.close keeps the members' probabilities for stage 7. Does nothing with
/// detect_options::close_groups false, the rank scorer, or a model without close groups.
void close_group(const model& m, const detect_options& opt, detect_scratch& s);
/// 6. Bytes per language into `items`, and the top three into `d` (percent of text bytes,
/// bytes scaled to the whole input of `input_bytes`, fit); `d.count` is 0 when no unit has a language.
void top_three(const model& m, const detect_options& opt, std::size_t input_bytes, detect_scratch& s, detection& d);
/// 7. The top language's margin, the labels' probabilities (`confidence`, the top_k of
/// `probabilities`), `reliable`; or und (d.count = 0) when the text is
/// not natural language. Needs d.count > 0.
void und_confidence(const model& m, const detect_options& opt, detect_scratch& s, detection& d);

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/detector-inl.hpp"
#endif
