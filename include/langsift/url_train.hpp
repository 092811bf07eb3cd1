// langsift — training the URL models (used by `langsift-train url`, `langsift-train url-words` and
// by `langsift-eval url` for cross-validation). Allocates freely (training only).
//
//   train_url_linear(rows, opts)  — multinomial logistic regression (softmax) by SGD with AdaGrad
//       steps and L2, over the URL features (words, 3–7-grams, TLD, host labels, language-code
//       patterns, hyphens), from labelled URLs;
//   url_words_counter / train_url_words — a generative model (multinomial naive Bayes over
//       character n-grams and words) from the words of plain-text corpora, one per language.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "langsift/url.hpp"

namespace langsift {
inline namespace v1 {

struct labelled_url {
  std::string language;
  std::string url;
  std::string source;  ///< third TSV field, if any
};

/// Parses `lang<TAB>url[<TAB>source]` lines (a first line starting "language\t" is a header;
/// blank lines and lines without a TAB are skipped).
std::vector<labelled_url> parse_labelled_urls(std::string_view text);

struct url_linear_options {
  std::size_t min_urls = 20;     ///< languages with fewer training URLs are left out
  unsigned epochs = 4;
  float learning_rate = 0.15f;   ///< AdaGrad base step
  float l2 = 1e-6f;              ///< per-update L2 shrinkage factor
  float balance = 0.f;           ///< example weight (n_max / n_language)^balance (0 = none)
  float prune = 0.3f;            ///< weights below this magnitude are dropped from the table
  unsigned bits = 17;            ///< 2^bits hashed feature buckets
  std::uint32_t seed = 1;
  url_feature_config features{3, 7, 0xFE, 1};
  std::string name = "linear";
};

/// Trains the discriminative model. Rows whose URL does not parse still count by their path
/// tokens. Deterministic for a given input order and seed.
url_model train_url_linear(const std::vector<labelled_url>& rows, const url_linear_options& o);

struct url_words_options {
  std::size_t max_bytes = 4u << 20;  ///< text read per language
  std::size_t top = 2000;            ///< features kept per language and kind (order / words)
  url_feature_config features{3, 5, (1u << url_feat_word) | (1u << url_feat_ngram)};
  float temperature = 8.f;           ///< divides the summed log-probability ratios
  unsigned bits = 19;                ///< 2^bits hashed feature buckets
  std::string name = "words";
};

/// Counts the features of one language's text for train_url_words.
struct url_words_counter {
  std::unordered_map<std::uint64_t, std::uint32_t> counts;
  std::uint64_t totals[9] = {};  // per n-gram order (1..7), [8] = words
  std::unordered_map<std::uint64_t, std::uint8_t> order_of;

  void add_text(std::string_view text, const url_feature_config& cfg);

};

/// Builds the words model from per-language counters (languages[i] ↔ counters[i]).
/// Weight of feature g for language l: log P(g|l) − log P_floor(l, kind), kept for the `top` most
/// frequent features of each kind; an unseen feature scores 0 (the floor).
url_model train_url_words(const std::vector<std::string>& languages,
                                 const std::vector<url_words_counter>& counters, const url_words_options& o);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/url_train-inl.hpp"
#endif
