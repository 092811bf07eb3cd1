// langsift — training: count n-gram features of per-language corpora and write a model.
//
// Used by `langsift-train` and by the tests; part of langsift::core (implementation in
// impl/train-inl.hpp), so that a user can train a model for a new language in-process. Deterministic: the same corpora and configuration give the same bytes.
//
//   language_counts c("xx");                 // one per language
//   c.add_text(line);                        // stream the corpus, any size
//   std::string bytes = build_model(counts, train_config{}, info_text);
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "langsift/config.hpp"
#include "langsift/model.hpp"
#include "langsift/ngram.hpp"
#include "langsift/script.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

/// Settings of a training run. The defaults are those of the shipped default model.
struct train_config {
  ngram_config features{};          ///< orders 1..5 and words
  std::uint32_t top_k = 18000;      ///< features kept per language (most frequent first)
  std::uint32_t min_count = 2;      ///< a feature must occur this often in a language's corpus
  std::uint32_t rank_profile_size = 400;  ///< R of the rank-order (TextCat) profiles
  /// Weight of each feature kind in the log-probability table: [1..5] = n-gram orders, [6] = words.
  /// Order 4 and words: as accurate as orders 3, 4 and words on lingua-dev (and those as all
  /// orders), at one n-gram lookup per letter (models/README.md).
  float order_weight[feature_kind_count] = {0, 0, 0, 0, 4, 0, 8};
  /// Weights for the languages of one script instead of `order_weight` (a script group is scored
  /// with the kinds its weights name, so a group may look up fewer kinds than another).
  struct script_weights {
    script sc;
    float weight[feature_kind_count];
  };
  /// Han keeps order 3: Simplified and Traditional Chinese differ in single characters.
  std::vector<script_weights> per_script{{script::han, {0, 0, 0, 2, 4, 0, 8}}};
  /// The weights of the languages written in `sc`.
  const float* weights_for(script sc) const noexcept {
    for (const auto& w : per_script)
      if (w.sc == sc) return w.weight;
    return order_weight;
  }
  /// Share β of a word's probability taken from the language's word list, where it has one
  /// (language_counts::add_listed_word): P(word) = (1 − β) × corpus share + β × list share, and
  /// every listed word is kept beside the top_k features. 0: lists are not used.
  float word_list_weight = 0.0f;
  float floor_offset = 4.0f;
  /// The floors come from the `floor_rank` most frequent kept features (0: all kept).
  std::uint32_t floor_rank = 0;        ///< floor = lowest kept log-probability − this (per kind)
  unsigned weight_bits = 0;         ///< quantisation of weights (0: as many bits as the layout has)
  unsigned fingerprint_bits = 12;   ///< per slot; false-positive rate ≈ 8 / 2^bits per absent feature
  double max_load = 0.95;           ///< slots used / slots
  /// Every fit_sample_every-th piece of text (up to fit_sample_lines of them) is not counted but
  /// kept aside to estimate each language's expected fit on text it was not trained on.
  std::size_t fit_sample_lines = 400;
  std::size_t fit_sample_every = 50;
  /// confidence = logistic(a × margin + b): fitted on held-out lines (see models/README.md)
  float calibration_a = 0.034916f, calibration_b = -0.5396f;
};

/// Feature counts of one language's corpus.
class language_counts {
 public:
  /// Counts with the hashing of the format langsift-train writes (feature_hashing::window),
  /// whatever `features.hashing` says.
  explicit language_counts(std::string code, const ngram_config& features = {}) : code_(std::move(code)), features_(features) {
    features_.hashing = hashing_of_version(kModelFormatVersion);
  }

  /// Adds a piece of text (a line, a paragraph...). Returns the number of letters counted.
  std::size_t add_text(std::string_view text);

  /// Adds `p` (its share of a frequency list's tokens) to the list probability of each word
  /// feature of `word` (a listed word normally is one word feature; see train_config::word_list_weight).
  void add_listed_word(std::string_view word, double p);
  const std::unordered_map<std::uint64_t, double>& listed() const noexcept { return listed_; }


  /// Counts only text in runs of script `sc` (the language's own script; detection classifies a
  /// run only against the languages written in its script, so foreign-script words in a corpus —
  /// English in Japanese text — would only be noise). Unset: every run counts.
  void set_script(script sc) noexcept {
    only_script_ = sc;
    restricted_ = true;
  }

  /// The features this counter would count in `text`: those of each script run (as detection
  /// extracts them), of the set script only if one is set. Returns the letters they came from.
  template <class F>
  std::size_t for_each_counted_feature(std::string_view text, F&& f) const {
    split_script_runs(text, runs_);
    std::size_t letters = 0;
    for (const auto& r : runs_)
      if (!restricted_ || r.sc == only_script_) letters += for_each_feature(text.substr(r.begin, r.end - r.begin), features_, f);
    return letters;
  }

  const std::string& code() const noexcept { return code_; }
  std::uint64_t bytes() const noexcept { return bytes_; }
  /// The script most of the letters are in, as a run script (Han with kana is `japanese`,
  /// Hangul `korean`; see script_histogram::dominant) — or the script set by set_script.
  script main_script() const noexcept { return restricted_ ? only_script_ : scripts_.dominant(); }
  const script_histogram& scripts() const noexcept { return scripts_; }

  struct entry {
    std::uint32_t count = 0;
    std::uint8_t kind = 0;
  };
  const std::unordered_map<std::uint64_t, entry>& counts() const noexcept { return counts_; }
  std::uint64_t total(unsigned kind) const noexcept { return totals_[kind]; }
  const std::vector<std::string>& sample() const noexcept { return sample_; }
  /// Holds out every `every`-th piece of text, up to `limit` pieces, for the expected fit.
  void set_fit_sample(std::size_t every, std::size_t limit) {
    sample_every_ = every;
    sample_limit_ = limit;
  }

 private:
  std::string code_;
  ngram_config features_;
  std::unordered_map<std::uint64_t, entry> counts_;
  std::unordered_map<std::uint64_t, double> listed_;
  std::uint64_t totals_[feature_kind_count] = {};
  script_histogram scripts_;
  std::uint64_t bytes_ = 0;
  std::vector<std::string> sample_;
  mutable std::vector<script_run> runs_;  // scratch of for_each_counted_feature
  script only_script_ = script::common;
  bool restricted_ = false;
  std::size_t sample_limit_ = 400, sample_every_ = 50, pieces_ = 0;
};

/// What a model build reports about itself (for models/README.md and the trainer's output).
struct build_report {
  std::size_t features = 0, lists = 0, postings = 0, rows = 0, inline_postings = 0, buckets = 0, bytes = 0;
  double load = 0;
};

/// Builds a model from the counts of each language. Throws std::invalid_argument on a
/// configuration the format cannot hold (too many languages or posting lists), and on a
/// big-endian host (the format is little-endian).
std::string build_model(const std::vector<const language_counts*>& langs, const train_config& cfg,
                               std::string_view info, build_report* report = nullptr);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/train-inl.hpp"
#endif
