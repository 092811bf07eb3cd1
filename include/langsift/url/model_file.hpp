// langsift — the URL models and their file format (part of langsift/url.hpp): a hashed feature →
// per-language weight table, read and written as a checksummed binary file.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/url/features.hpp"

namespace langsift {
inline namespace v1 {

/// A URL model: per-language bias and a hashed feature → (language, weight) table. Both the
/// generative words model and the discriminative linear model are of this form; scores are
/// bias[l] + Σ weight(bucket(feature), l) over the URL's features (a log-linear model). Features
/// are hashed into 2^bits buckets without fingerprints (the hashing trick: the linear model is
/// trained on the buckets themselves, so collisions are part of what it learned), which keeps the
/// table small enough to stay in cache: one 4-byte bucket read per feature.
///
/// File format (little-endian; a big-endian host neither reads nor writes it: the loaders say
/// unsupported_platform): "LSURL\0\0\1" (magic,
/// version 1), u32 header size (64), u32 kind
/// (1 words/generative, 2 linear/discriminative), u32 languages, u32 bucket bits, u32 postings,
/// f32 weight scale, u32 feature kinds, u8 min order, u8 max order, u8 host space, u8 0, f32 temperature,
/// u64 XXH3-64 of everything after the header, char name[8]; then languages × char[8] codes,
/// languages × f32 bias, 2^bits × u32 buckets, postings × {u8 language, i8 weight}, rows ×
/// languages × i8 (dense rows; their count is the u32 at header offset 60).
/// A bucket is 0 (empty); with bits 31 and 30 set a dense row (bits 0..29 its index); with bit 31
/// alone a list (bits 8..29 first posting, bits 0..7 count); or else up to two inline postings of
/// 15 bits (language 8 bits, weight 7 bits signed, -63..63).
class url_model {
 public:
  enum kind_t : std::uint32_t { none = 0, words = 1, linear = 2 };
  struct posting {
    std::uint8_t lang;
    std::int8_t weight;
  };

  kind_t kind = none;
  std::vector<std::string> languages;
  std::vector<float> bias;
  std::vector<std::uint32_t> buckets;  ///< power of two
  std::vector<posting> postings;
  std::vector<std::int8_t> rows;  ///< dense rows (languages.size() weights each)
  float scale = 1;        ///< weight = posting.weight * scale
  float temperature = 1;  ///< scores / temperature before the softmax
  url_feature_config features;
  std::string name;
  unsigned bits = 0;

  bool empty() const noexcept { return languages.empty(); }
  static constexpr std::size_t kDenseFrom = 8;  ///< buckets with more postings are dense rows

  /// Whether a feature of class `c` (url_features::kind) is one this model was trained with.
  bool accepts(std::uint8_t c) const noexcept {
    const unsigned k = c & 7, order = (c >> 3) & 7, space = c >> 6;
    if (!(features.kinds & (1u << k))) return false;
    if (k == url_feat_ngram && (order < features.min_order || order > features.max_order)) return false;
    if (space == 1 && features.host_space == 1) return false;
    if (space == 2 && features.host_space == 0) return false;
    return true;
  }

  std::size_t size_bytes() const noexcept {
    return 64 + languages.size() * 12 + buckets.size() * 4 + postings.size() * sizeof(posting) + rows.size();
  }

  /// The bucket of a feature hash in a table of 2^bits (the hash's top bits).
  static constexpr std::size_t bucket_of(std::uint64_t h, unsigned b) noexcept {
    return b == 0 ? 0 : static_cast<std::size_t>(h >> (64 - b));
  }
  std::uint32_t bucket(std::uint64_t h) const noexcept { return buckets[bucket_of(h, bits)]; }

  /// Adds the weights of a bucket to s[lang] (in units of `scale`).
  void add_bucket(std::uint32_t b, std::int32_t* s) const noexcept;

  void prefetch(std::uint64_t h) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(buckets.data() + bucket_of(h, bits));
#else
    (void)h;
#endif
  }

  /// Builds the table from (feature hash → [(language, weight)]) entries hashed into 2^bits
  /// buckets (weights of colliding features add up); weights are quantised to int8 with a common
  /// scale; |weight| < prune is dropped.
  template <class Entries>  // range of pair<uint64_t, vector<pair<uint8_t, float>>>
  void build(const Entries& entries, unsigned table_bits, float prune = 0) {
    bits = table_bits;
    std::vector<std::vector<std::pair<std::uint8_t, float>>> acc(std::size_t{1} << bits);
    for (const auto& [h, list] : entries) {
      auto& a = acc[bucket_of(h, bits)];
      for (const auto& [l, w] : list) {
        bool found = false;
        for (auto& [l2, w2] : a)
          if (l2 == l) {
            w2 += w;
            found = true;
            break;
          }
        if (!found) a.emplace_back(l, w);
      }
    }
    build_buckets(acc, prune);
  }

  /// Builds from per-bucket (language, weight) lists (acc.size() must be 2^bits).
  void build_buckets(std::vector<std::vector<std::pair<std::uint8_t, float>>>& acc, float prune);

  /// Serialises the model (see the format above). A big-endian host gets an empty string.
  std::string save() const;

  /// Loads a model from bytes (copied). Returns ok (`out` replaced), corrupt_model (truncated,
  /// bit flips, bad structure), model_version, unsupported_platform (a big-endian host) or
  /// out_of_memory; `message` (optional) receives a reason for people on failure.
  static status load_copy(std::string_view bytes, url_model& out, std::string* message = nullptr) noexcept;
  /// Loads a model file: load_copy of its bytes, or io_error.
  static status load_file(const std::string& path, url_model& out, std::string* message = nullptr) noexcept;

 private:
  static status parse(std::string_view bytes, url_model& out);
};

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/url/model_file-inl.hpp"
#endif
