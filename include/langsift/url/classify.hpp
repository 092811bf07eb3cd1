// langsift — URL classification (part of langsift/url.hpp): the URL models combined with
// language-code patterns and country hints; and the ccTLD baselines of Baykan et al.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/url/features.hpp"
#include "langsift/url/model_file.hpp"
#include "langsift/url/parse.hpp"

namespace langsift {
inline namespace v1 {

// Baselines

/// ccTLD baseline (Baykan et al.): the language of the URL's country-code TLD — the first official
/// language of the country (CLDR), e.g. "de" → de, "ch" → de, "ca" → en; "" for generic TLDs.
std::string_view cctld_language(const url_parts& u) noexcept;

/// ccTLD+ baseline: ccTLD, and English for the generic TLDs com, org, net, edu, gov, mil, info, biz.
std::string_view cctld_plus_language(const url_parts& u) noexcept;

// The classifier

/// How the classifier's top answer was reached.
enum class url_decision : std::uint8_t {
  none,     ///< nothing known: "und"
  model,    ///< the models (linear and/or words)
  pattern,  ///< an explicit language code in the URL (/de/, ?lang=fr, fr. subdomain, _en.html)
  country,  ///< the host-country hint or the ccTLD decided a close call
};

/// "none", "model", "pattern", "country": the name of a url_decision (in the tools' output and Python's).
constexpr std::string_view url_decision_name(url_decision d) noexcept {
  switch (d) {
    case url_decision::none: return "none";
    case url_decision::model: return "model";
    case url_decision::pattern: return "pattern";
    case url_decision::country: return "country";
  }
  return "none";
}

struct url_language {
  std::string_view code;  ///< points into the classifier's models (static storage)
  float score = 0;        ///< probability-like, sums to <= 1 over all languages
};

struct url_result {
  status st = status::ok;  ///< ok, truncated (prefix classified), empty_input, invalid_argument, out_of_memory
  std::array<url_language, 3> languages{};
  std::size_t count = 0;  ///< 0 = und
  url_decision decision = url_decision::none;
  std::string_view language() const noexcept { return count ? languages[0].code : std::string_view("und"); }
  bool is_ok() const noexcept { return st == status::ok; }
};

struct url_options {
  /// ISO 3166-1 alpha-2 country of the host (e.g. from geo-IP), "" if unknown. Languages spoken
  /// there (CLDR) gain weight (Baykan et al. §4.7.1: it raises recall).
  std::string_view country_hint;
  bool use_linear = true;   ///< the discriminative model (when the classifier has one)
  bool use_words = true;    ///< the generative words model (when the classifier has one)
  bool use_patterns = true; ///< explicit language codes in the URL
  bool use_cctld = true;    ///< the ccTLD's country as a weak hint (like country_hint, weaker)
  std::size_t max_bytes = kUrlMaxBytes;
  // Combination weights (see docs/url.md for how they were chosen).
  float words_weight = 0.5f;    ///< share of the words model's posterior when both models answer
  float words_below = 0.5f;     ///< ... and only where the linear model's top probability is below this
  bool words_path_first = true; ///< the words model reads host labels only when the path has no words
  float pattern_boost = 10.0f;  ///< multiplier of a language named by a code pattern
  float pattern_floor = 1.0f;   ///< added to it
  float hint_boost = 3.0f;      ///< multiplier of the hint country's official languages
  float hint_floor = 0.15f;     ///< added to the hint country's official languages
  float cctld_boost = 20.0f;    ///< multiplier of the ccTLD country's official languages
  float cctld_floor = 0.5f;     ///< added to them
  float min_score = 0.0f;       ///< below this top score the answer is "und"
};

/// The URL classifier: a linear model and/or a words model (non-owning pointers; the models must
/// outlive it), combined with language-code patterns and country hints. Immutable after
/// construction; classify() is thread-safe. It allocates as parse_url does (url.hpp says where; the
/// strings of a reused `scratch` stop growing), and a feature buffer for the words model when that
/// model is consulted with a feature configuration other than the linear model's (the default
/// options: url_options::words_path_first).
class url_classifier {
 public:
  static constexpr std::size_t kMaxLanguages = 512;

  url_classifier() = default;
  url_classifier(const url_model* linear, const url_model* words);

  const url_model* linear() const noexcept { return linear_; }
  const url_model* words() const noexcept { return words_; }
  const std::vector<std::string>& languages() const noexcept { return codes_; }
  const url_feature_config& feature_config() const noexcept { return cfg_; }

  /// Reusable buffers for one thread.
  struct scratch {
    url_parts parts;
    url_features features;
  };

  /// Classifies a URL. Never throws: running out of memory (parse_url and the feature buffers
  /// allocate) is st == out_of_memory with no answer.
  url_result classify(std::string_view url, const url_options& o = {}) const noexcept;
  /// classify() with the caller's buffers (one per thread).
  url_result classify(std::string_view url, const url_options& o, scratch& s) const noexcept;

  /// Scores from extracted features (for tools that extract once and score variants).
  url_result classify_features(const url_parts& u, const url_features& f, const url_options& o,
                               url_result r = {}) const noexcept;

  /// The softmax posterior of one model over its languages; false when no feature fired (the
  /// model knows nothing about this URL beyond its prior).
  static bool posterior(const url_model& m, const std::array<bool, 256>& accept, const url_features& f,
                        float* out) noexcept;

 private:
  const url_model* linear_ = nullptr;
  const url_model* words_ = nullptr;
  std::vector<std::string> codes_;
  std::vector<std::uint16_t> lmap_, wmap_;
  std::size_t lused_ = 0, wused_ = 0;  ///< 1 + the largest index in lmap_, wmap_
  bool lmap_identity_ = true;          ///< lmap_[i] == i (always, unless a model repeats a code)
  std::vector<std::uint64_t> keys_;  ///< codes_ packed for comparison

  static std::uint64_t code_key(std::string_view c) noexcept {
    if (c.size() > 8) return ~std::uint64_t{0};
    std::uint64_t k = 0;
    std::memcpy(&k, c.data(), c.size());
    return k;
  }
  std::array<bool, 256> accept_l_{}, accept_w_{};
  url_feature_config cfg_, words_cfg_;
  bool same_cfg_ = true;
};

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/url/classify-inl.hpp"
#endif
