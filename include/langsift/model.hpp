// langsift — trained language profiles: the model file format and its loader.
//
// A model holds, for every language it knows, two views of the same trained n-gram counts:
//  - the log-probability table ("bayes"): for every kept feature (n-gram of order 1..5 or whole
//    word), the languages whose profile holds it with a quantised weight = order weight ×
//    (log P(feature | language) − floor(language, order)); the floor is what a feature that a
//    language does not hold costs it. One multi-profile hash maps a feature to the postings of
//    every language at once (the Language Observatory's design), stored ready to use, so loading
//    is a validation pass and no copy (the default model is used in place from the library's
//    read-only data);
//  - the rank-order profiles (Cavnar–Trenkle / TextCat): the top R n-grams of each language in
//    rank order. Their multi-profile hash (n-gram → (language, rank) of every profile holding it)
//    is built once when the model loads.
//
// File layout (little-endian, every section 8-byte aligned):
//   header (64 bytes): magic "LSMODEL\x1a", u32 format version, u32 header size, u64 file size,
//                      u64 XXH3-64 of bytes [64, file size), u32 section count, u32 flags, padding
//   section table:     section count × {u32 tag, u32 reserved, u64 offset, u64 size}
//   sections:          INFO (text), PARM (model_params), LANG (language_record[]), SLOT (u32
//                      slots), LOFF (u32 list offsets), POST (u16/u32 postings), RANK (rank profiles)
// A truncated, bit-flipped, foreign or other-version file is rejected with a status, never read
// out of bounds.
#pragma once

#include <algorithm>
#include <cmath>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "langsift/common.hpp"
#include "langsift/ngram.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

constexpr std::uint32_t kModelFormatVersion = 1;
constexpr char kModelMagic[8] = {'L', 'S', 'M', 'O', 'D', 'E', 'L', '\x1a'};

/// Section tags (four ASCII characters, little-endian).
constexpr std::uint32_t model_tag(const char (&s)[5]) noexcept {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[3])) << 24;
}

/// Global parameters of a model (the PARM section, stored as is).
struct model_params {
  std::uint8_t min_order;      ///< n-gram orders kept, 1..5
  std::uint8_t max_order;
  std::uint8_t words;          ///< whole-word features kept
  std::uint8_t lang_bits;      ///< bits of a language index in a posting
  std::uint8_t fp_bits;        ///< fingerprint bits of a slot
  std::uint8_t inline_weight_bits;  ///< weight bits of a posting stored in its slot
  std::uint8_t posting_bytes;  ///< 2 or 4
  std::uint8_t list_weight_bits;    ///< weight bits of a posting in a list
  float order_weight[feature_kind_count];  ///< weight of each feature kind in the bayes score
  float weight_step;           ///< a quantised weight q stands for (q + 0.5) × weight_step
  std::uint32_t bucket_count;  ///< slots = 4 × bucket_count; two candidate buckets per feature
  std::uint32_t feature_count;
  std::uint32_t list_count;
  std::uint32_t posting_count;
  std::uint32_t rank_profile_size;  ///< R of the rank-order profiles
  std::uint32_t language_count;
  float calibration_a;   ///< confidence = logistic(a × margin + b), margin = top score − runner-up's
  float calibration_b;
  std::uint32_t reserved[4];
};
static_assert(sizeof(model_params) == 88);

/// One language of a model (the LANG section is an array of these).
struct language_record {
  char code[16];               ///< ISO 639-1 where one exists, else 639-3, + "-Xxxx" script subtag; NUL padded
  std::uint8_t script;         ///< the script the language is written in (langsift::script value)
  std::uint8_t flags;
  std::uint16_t reserved0;
  std::uint32_t train_bytes;   ///< bytes of training text
  float floor[feature_kind_count];  ///< order weight × floor log-probability, per feature kind
  float expected_fit;          ///< mean hit weight per feature of orders 3..5 and words, on held-out text
  std::uint32_t reserved[6];
};
static_assert(sizeof(language_record) == 80);

namespace detail {

template <class T>
inline T load_le(const unsigned char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;  // little-endian hosts only; checked at load
}

inline bool host_is_little_endian() noexcept {
  const std::uint16_t one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

/// The two candidate buckets and the fingerprint of a feature hash in a table of `buckets`.
struct slot_address {
  std::uint32_t b1, b2, fp;
};
inline slot_address address_of(std::uint64_t h, std::uint32_t buckets, unsigned fp_bits) noexcept {
  const std::uint32_t hi = static_cast<std::uint32_t>(h >> 32);
  const std::uint32_t lo = static_cast<std::uint32_t>(h);
  slot_address a;
  a.b1 = static_cast<std::uint32_t>((static_cast<std::uint64_t>(hi) * buckets) >> 32);
  a.b2 = static_cast<std::uint32_t>((static_cast<std::uint64_t>(lo * 0x9E3779B1u) * buckets) >> 32);
  a.fp = (lo >> (32 - fp_bits));
  if (a.fp == 0) a.fp = 1;  // 0 marks an empty slot
  return a;
}

}  // namespace detail

/// The (language index, quantised weight) of one posting.
struct posting {
  std::uint16_t lang;
  std::uint16_t q;
};

/// A loaded model: immutable once loaded, shared by any number of threads.
class model {
 public:
  model() = default;

  /// Loads a model from bytes that outlive the model (e.g. the library's embedded default model,
  /// or a caller's mmap). Nothing is copied but the rank-order hash built at load.
  static status load_view(std::string_view bytes, model& out) noexcept;
  /// Loads a model from bytes it copies and owns.
  static status load_copy(std::string_view bytes, model& out) noexcept;
  /// Loads a model file. `error` (optional) receives a human-readable reason on failure.
  static status load_file(const std::string& path, model& out, std::string* error = nullptr) noexcept;

  bool empty() const noexcept { return langs_.empty(); }
  std::size_t language_count() const noexcept { return langs_.size(); }
  std::string_view language_code(std::size_t i) const noexcept {
    const char* c = langs_[i].code;
    return std::string_view(c, strnlen(c, sizeof langs_[i].code));
  }
  const language_record& language(std::size_t i) const noexcept { return langs_[i]; }
  /// Index of a language code (exact match), or -1.
  int find_language(std::string_view code) const noexcept {
    for (std::size_t i = 0; i < langs_.size(); ++i)
      if (language_code(i) == code) return static_cast<int>(i);
    return -1;
  }
  const model_params& params() const noexcept { return params_; }
  std::string_view info() const noexcept { return info_; }
  std::uint64_t checksum() const noexcept { return checksum_; }
  std::size_t size_bytes() const noexcept { return bytes_.size(); }
  ngram_config features() const noexcept {
    return ngram_config{params_.min_order, params_.max_order, params_.words != 0};
  }
  /// Languages whose profile is written in script `sc` (indices, ascending).
  std::span<const std::uint16_t> languages_of_script(script sc) const noexcept {
    const auto s = static_cast<std::size_t>(sc);
    if (s + 1 >= script_start_.size()) return {};
    return {script_langs_.data() + script_start_[s], script_start_[s + 1] - script_start_[s]};
  }

  /// Calls `f(posting)` for every posting of feature `h` in the bayes table; returns how many.
  template <class F>
  std::size_t for_each_posting(std::uint64_t h, F&& f) const noexcept {
    const auto a = detail::address_of(h, params_.bucket_count, params_.fp_bits);
    const std::uint32_t* s1 = slots_ + 4 * static_cast<std::size_t>(a.b1);
    const std::uint32_t* s2 = slots_ + 4 * static_cast<std::size_t>(a.b2);
    const unsigned shift = 32 - params_.fp_bits;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      if ((s1[i] >> shift) == a.fp) v = s1[i];
    if (!v)
      for (int i = 0; i < 4; ++i)
        if ((s2[i] >> shift) == a.fp) v = s2[i];
    if (!v) return 0;
    const std::uint32_t payload = v & ((1u << shift) - 1);
    const unsigned payload_bits = shift - 1;
    if (payload >> payload_bits) {  // inline single posting
      const std::uint32_t x = payload & ((1u << payload_bits) - 1);
      f(posting{static_cast<std::uint16_t>(x >> params_.inline_weight_bits),
                static_cast<std::uint16_t>(x & ((1u << params_.inline_weight_bits) - 1))});
      return 1;
    }
    const std::uint32_t begin = list_offsets_[payload], end = list_offsets_[payload + 1];
    const unsigned wb = params_.list_weight_bits;
    if (params_.posting_bytes == 2) {
      for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint16_t x = postings16_[i];
        f(posting{static_cast<std::uint16_t>(x >> wb), static_cast<std::uint16_t>(x & ((1u << wb) - 1))});
      }
    } else {
      for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint32_t x = postings32_[i];
        f(posting{static_cast<std::uint16_t>(x >> wb), static_cast<std::uint16_t>(x & ((1u << wb) - 1))});
      }
    }
    return end - begin;
  }
  /// The weight a quantised value stands for, in score units.
  float weight(std::uint16_t q, bool in_list) const noexcept {
    (void)in_list;
    return (static_cast<float>(q) + 0.5f) * params_.weight_step;
  }

  /// Rank-order profiles: calls `f(lang, rank)` for every profile holding n-gram `h`.
  template <class F>
  void for_each_rank(std::uint64_t h, F&& f) const noexcept {
    const auto it = std::lower_bound(rank_keys_.begin(), rank_keys_.end(), h);
    if (it == rank_keys_.end() || *it != h) return;
    const auto k = static_cast<std::size_t>(it - rank_keys_.begin());
    for (std::uint32_t i = rank_offsets_[k]; i < rank_offsets_[k + 1]; ++i) f(rank_postings_[i].lang, rank_postings_[i].q);
  }

 private:
  status parse() noexcept;

  std::shared_ptr<const std::string> owned_;
  std::string_view bytes_;
  std::uint64_t checksum_ = 0;
  std::string_view info_;
  model_params params_{};
  std::span<const language_record> langs_;
  const std::uint32_t* slots_ = nullptr;
  const std::uint32_t* list_offsets_ = nullptr;
  const std::uint16_t* postings16_ = nullptr;
  const std::uint32_t* postings32_ = nullptr;
  std::vector<std::uint32_t> script_start_;
  std::vector<std::uint16_t> script_langs_;
  // The rank-order multi-profile hash, built at load: sorted distinct n-gram hashes, and for the
  // k-th the (language, rank) postings [rank_offsets_[k], rank_offsets_[k + 1]).
  std::vector<std::uint64_t> rank_keys_;
  std::vector<std::uint32_t> rank_offsets_;
  std::vector<posting> rank_postings_;
};

// ---------------------------------------------------------------------------------------------
// Implementation

inline status model::load_view(std::string_view bytes, model& out) noexcept {
  model m;
  m.bytes_ = bytes;
  status s = m.parse();
  if (s == status::ok) out = std::move(m);
  return s;
}

inline status model::load_copy(std::string_view bytes, model& out) noexcept {
  try {
    auto owned = std::make_shared<const std::string>(bytes);
    model m;
    m.owned_ = owned;
    m.bytes_ = *owned;
    status s = m.parse();
    if (s == status::ok) out = std::move(m);
    return s;
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
}

inline status model::load_file(const std::string& path, model& out, std::string* error) noexcept {
  auto set_error = [&](const std::string& e) {
    if (error) {
      try {
        *error = e;
      } catch (...) {
      }
    }
  };
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    set_error(path + ": cannot open");
    return status::io_error;
  }
  std::string data;
  bool ok = true;
  try {
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
      data.append(buf, n);
      if (data.size() > (std::size_t{1} << 32)) {  // no model is this large; stop reading junk
        ok = false;
        break;
      }
    }
    if (std::ferror(f)) ok = false;
  } catch (const std::bad_alloc&) {
    std::fclose(f);
    set_error(path + ": out of memory");
    return status::out_of_memory;
  }
  std::fclose(f);
  if (!ok) {
    set_error(path + ": read error or not a model file");
    return status::io_error;
  }
  status s = load_copy(data, out);
  if (s != status::ok) {
    switch (s) {
      case status::model_version:
        set_error(path + ": model format version is not " + std::to_string(kModelFormatVersion));
        break;
      case status::corrupt_model:
        set_error(path + ": not a langsift model, or truncated or corrupt (checksum or structure)");
        break;
      default:
        set_error(path + ": " + std::string(status_name(s)));
    }
  }
  return s;
}

inline status model::parse() noexcept {
  using detail::load_le;
  if (!detail::host_is_little_endian()) return status::model_version;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data());
  const std::size_t n = bytes_.size();
  if (n < 64 || std::memcmp(b, kModelMagic, 8) != 0) return status::corrupt_model;
  if (load_le<std::uint32_t>(b + 8) != kModelFormatVersion) return status::model_version;
  if (load_le<std::uint32_t>(b + 12) != 64 || load_le<std::uint64_t>(b + 16) != n) return status::corrupt_model;
  checksum_ = load_le<std::uint64_t>(b + 24);
  if (XXH3_64bits(b + 64, n - 64) != checksum_) return status::corrupt_model;
  const std::uint32_t nsec = load_le<std::uint32_t>(b + 32);
  if (nsec > 64 || 64 + std::size_t{nsec} * 24 > n) return status::corrupt_model;
  if (reinterpret_cast<std::uintptr_t>(b) % 8 != 0) return status::invalid_argument;  // needs 8-byte alignment

  auto section = [&](const char (&name)[5], std::size_t& size) -> const unsigned char* {
    const std::uint32_t tag = model_tag(name);
    for (std::uint32_t i = 0; i < nsec; ++i) {
      const unsigned char* e = b + 64 + std::size_t{i} * 24;
      if (load_le<std::uint32_t>(e) != tag) continue;
      const std::uint64_t off = load_le<std::uint64_t>(e + 8), sz = load_le<std::uint64_t>(e + 16);
      if (off % 8 || off > n || sz > n - off) return nullptr;
      size = static_cast<std::size_t>(sz);
      return b + off;
    }
    return nullptr;
  };

  std::size_t sz = 0;
  const unsigned char* p = section("INFO", sz);
  if (!p) return status::corrupt_model;
  info_ = std::string_view(reinterpret_cast<const char*>(p), sz);

  p = section("PARM", sz);
  if (!p || sz != sizeof(model_params)) return status::corrupt_model;
  std::memcpy(&params_, p, sizeof params_);
  const model_params& P = params_;
  if (P.min_order < 1 || P.max_order > kMaxNgramOrder || P.min_order > P.max_order) return status::corrupt_model;
  if (P.fp_bits < 4 || P.fp_bits > 24 || P.lang_bits < 1 || P.lang_bits > 16) return status::corrupt_model;
  if (P.inline_weight_bits + P.lang_bits + 1 + P.fp_bits != 32) return status::corrupt_model;
  if (P.posting_bytes != 2 && P.posting_bytes != 4) return status::corrupt_model;
  if (P.list_weight_bits + P.lang_bits != 8u * P.posting_bytes) return status::corrupt_model;
  if (P.bucket_count == 0 || !(P.weight_step > 0) || P.weight_step > 1e6f) return status::corrupt_model;
  if (P.language_count == 0 || P.language_count > (1u << P.lang_bits) || P.language_count > 65535)
    return status::corrupt_model;
  if (P.list_count >= (1u << (32 - P.fp_bits - 1))) return status::corrupt_model;
  for (float w : P.order_weight)
    if (!(w >= 0) || w > 1e6f) return status::corrupt_model;
  if (!(P.calibration_a > 0) || P.calibration_a > 1e3f || !(std::fabs(P.calibration_b) < 1e3f)) return status::corrupt_model;

  p = section("LANG", sz);
  if (!p || sz != std::size_t{P.language_count} * sizeof(language_record)) return status::corrupt_model;
  langs_ = {reinterpret_cast<const language_record*>(p), P.language_count};
  for (const auto& L : langs_) {
    if (L.code[0] == 0 || L.code[sizeof L.code - 1] != 0) return status::corrupt_model;
    if (L.script >= script_count) return status::corrupt_model;
    for (float f : L.floor)
      if (!(f <= 0) || f < -1e9f) return status::corrupt_model;
  }

  p = section("SLOT", sz);
  if (!p || sz != std::size_t{P.bucket_count} * 16) return status::corrupt_model;
  slots_ = reinterpret_cast<const std::uint32_t*>(p);

  p = section("LOFF", sz);
  if (!p || sz != (std::size_t{P.list_count} + 1) * 4) return status::corrupt_model;
  list_offsets_ = reinterpret_cast<const std::uint32_t*>(p);
  if (list_offsets_[0] != 0 || list_offsets_[P.list_count] != P.posting_count) return status::corrupt_model;
  for (std::uint32_t i = 0; i < P.list_count; ++i)
    if (list_offsets_[i] > list_offsets_[i + 1]) return status::corrupt_model;

  p = section("POST", sz);
  if (!p || sz < std::size_t{P.posting_count} * P.posting_bytes) return status::corrupt_model;
  if (P.posting_bytes == 2)
    postings16_ = reinterpret_cast<const std::uint16_t*>(p);
  else
    postings32_ = reinterpret_cast<const std::uint32_t*>(p);
  {
    const unsigned wb = P.list_weight_bits;
    for (std::uint32_t i = 0; i < P.posting_count; ++i) {
      const std::uint32_t x = P.posting_bytes == 2 ? postings16_[i] : postings32_[i];
      if ((x >> wb) >= P.language_count) return status::corrupt_model;
    }
  }
  // Every inline posting must name an existing language, every list id an existing list.
  {
    const unsigned shift = 32 - P.fp_bits, payload_bits = shift - 1;
    for (std::size_t i = 0; i < std::size_t{P.bucket_count} * 4; ++i) {
      const std::uint32_t v = slots_[i];
      if (!v) continue;
      const std::uint32_t payload = v & ((1u << shift) - 1);
      if (payload >> payload_bits) {
        if (((payload & ((1u << payload_bits) - 1)) >> P.inline_weight_bits) >= P.language_count)
          return status::corrupt_model;
      } else if (payload >= P.list_count) {
        return status::corrupt_model;
      }
    }
  }

  // Rank-order profiles: u32 language count, u32 offsets[count + 1], then u64 hashes in rank order.
  p = section("RANK", sz);
  if (!p || sz < 4) return status::corrupt_model;
  try {
    const std::uint32_t nl = load_le<std::uint32_t>(p);
    if (nl != P.language_count || sz < 4 + (std::size_t{nl} + 1) * 4) return status::corrupt_model;
    const unsigned char* offs = p + 4;
    std::size_t hash_base = 4 + (std::size_t{nl} + 1) * 4;
    hash_base = (hash_base + 7) & ~std::size_t{7};
    const std::uint32_t total = load_le<std::uint32_t>(offs + std::size_t{nl} * 4);
    if (hash_base + std::size_t{total} * 8 > sz) return status::corrupt_model;
    struct entry {
      std::uint64_t h;
      posting p;
    };
    std::vector<entry> all;
    all.reserve(total);
    for (std::uint32_t l = 0; l < nl; ++l) {
      const std::uint32_t a = load_le<std::uint32_t>(offs + l * 4), e = load_le<std::uint32_t>(offs + (l + 1) * 4);
      if (a > e || e > total || e - a > 65535) return status::corrupt_model;
      for (std::uint32_t i = a; i < e; ++i)
        all.push_back({load_le<std::uint64_t>(p + hash_base + std::size_t{i} * 8),
                       posting{static_cast<std::uint16_t>(l), static_cast<std::uint16_t>(i - a)}});
    }
    std::sort(all.begin(), all.end(), [](const entry& x, const entry& y) {
      return x.h != y.h ? x.h < y.h : x.p.lang < y.p.lang;
    });
    rank_keys_.clear();
    rank_offsets_.clear();
    rank_postings_.clear();
    rank_postings_.reserve(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i == 0 || all[i].h != all[i - 1].h) {
        rank_keys_.push_back(all[i].h);
        rank_offsets_.push_back(static_cast<std::uint32_t>(rank_postings_.size()));
      }
      rank_postings_.push_back(all[i].p);
    }
    rank_offsets_.push_back(static_cast<std::uint32_t>(rank_postings_.size()));
    rank_keys_.shrink_to_fit();
    rank_offsets_.shrink_to_fit();

    // Languages by script.
    script_start_.assign(script_count + 1, 0);
    for (const auto& L : langs_) ++script_start_[L.script + 1];
    for (std::size_t s = 1; s < script_start_.size(); ++s) script_start_[s] += script_start_[s - 1];
    script_langs_.assign(langs_.size(), 0);
    std::vector<std::uint32_t> fill(script_start_.begin(), script_start_.end() - 1);
    for (std::size_t i = 0; i < langs_.size(); ++i) script_langs_[fill[langs_[i].script]++] = static_cast<std::uint16_t>(i);
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
  return status::ok;
}

}  // namespace v1
}  // namespace langsift
