// langsift — trained language profiles: the model file format and its loader.
//
// A model holds, for every language it knows, two views of the same trained n-gram counts:
//  - the log-probability table ("bayes"): for every kept feature (n-gram of order 1..5 or whole
//    word), the languages whose profile holds it with a quantised weight q (1..255; weight =
//    q × weight_step = order weight × (log P(feature | language) − floor(language, order))); the
//    floor is what a feature that a language does not hold costs it. The languages are grouped by
//    the script they are written in, and each group has one multi-profile hash mapping a feature
//    to the weights of every language of the group at once (the Language Observatory's design):
//    a feature held by one language is stored in its slot, by a few in a list of (language, q),
//    by many in a dense row of q per language that is added with SIMD instructions. The tables
//    are stored ready to use, so loading is a validation pass and no copy (the default model is
//    used in place from the library's read-only data);
//  - the rank-order profiles (Cavnar–Trenkle / TextCat): the top R n-grams of each language in
//    rank order. Their multi-profile hash (n-gram → (language, rank) of every profile holding it)
//    is built once when the model loads.
//
// File layout (little-endian, every section 8-byte aligned):
//   header (64 bytes): magic "LSMODEL\x1a", u32 format version, u32 header size, u64 file size,
//                      u64 XXH3-64 of bytes [64, file size), u32 section count, u32 flags, padding
//   section table:     section count × {u32 tag, u32 reserved, u64 offset, u64 size}
//   sections:          INFO (text), PARM (model_params), LANG (language_record[]), GRUP
//                      (group_record[]), TABL (the groups' arrays), RANK (rank profiles)
// Format 3 differs from 2 by its feature hashing only (feature_hashing::window; 1 and 2 are read
// with feature_hashing::polynomial). A truncated, bit-flipped, foreign or other-version file is
// rejected with a status, never read out of bounds.
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
#include <tuple>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#if defined(__SSE2__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#include "langsift/common.hpp"
#include "langsift/ngram.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

constexpr std::uint32_t kModelFormatVersion = 3;  ///< written by langsift-train
/// The oldest version read: 1 has no per-group kinds (every group holds the kinds PARM weights);
/// 1 and 2 hash features with feature_hashing::polynomial, 3 with feature_hashing::window.
constexpr std::uint32_t kOldestModelFormatVersion = 1;

/// The feature hashing of a model file of format `version`.
constexpr feature_hashing hashing_of_version(std::uint32_t version) noexcept {
  return version >= 3 ? feature_hashing::window : feature_hashing::polynomial;
}
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
  std::uint8_t min_order;      ///< n-gram orders counted, 1..5
  std::uint8_t max_order;
  std::uint8_t words;          ///< whole-word features kept
  std::uint8_t fp_bits;        ///< fingerprint bits of a slot
  std::uint8_t reserved_u8[4];
  float order_weight[feature_kind_count];  ///< weight of each feature kind; 0 = not in the table
  float weight_step;           ///< a quantised weight q (1..255) stands for q × weight_step
  std::uint32_t language_count;
  std::uint32_t group_count;
  std::uint32_t rank_profile_size;  ///< R of the rank-order profiles
  float calibration_a;   ///< confidence = logistic(a × margin + b), margin = top score − runner-up's
  float calibration_b;
  std::uint32_t reserved[5];
};
static_assert(sizeof(model_params) == 80);

/// The feature kinds (bit k = kind k) that weights w[1..feature_kind_count-1] put in a table.
constexpr std::uint32_t weighted_kinds(const float* w) noexcept {
  std::uint32_t kinds = 0;
  for (unsigned k = 1; k < feature_kind_count; ++k) kinds |= (w[k] > 0 ? 1u : 0u) << k;
  return kinds;
}

/// What to extract from text for a table holding `kinds`: orders from the lowest to the highest
/// held (an order in between that is not held is extracted but never found), words if held;
/// words only → min_order above max_order.
constexpr ngram_config features_of_kinds(std::uint32_t kinds) noexcept {
  ngram_config f{static_cast<std::uint8_t>(kMaxNgramOrder + 1), static_cast<std::uint8_t>(kMaxNgramOrder),
                 ((kinds >> feature_word) & 1u) != 0};
  bool any = false;
  for (unsigned k = 1; k <= kMaxNgramOrder; ++k)
    if ((kinds >> k) & 1u) {
      if (!any) f.min_order = static_cast<std::uint8_t>(k);
      f.max_order = static_cast<std::uint8_t>(k);
      any = true;
    }
  return f;
}

/// One language of a model (the LANG section is an array of these).
struct language_record {
  char code[16];               ///< ISO 639-1 where one exists, else 639-3, + "-Xxxx" script subtag; NUL padded
  std::uint8_t script;         ///< the script the language is written in (langsift::script value)
  std::uint8_t flags;
  std::uint16_t group;         ///< its script group
  std::uint16_t local;         ///< its index within the group
  std::uint16_t reserved0;
  std::uint32_t train_bytes;   ///< bytes of training text
  float floor[feature_kind_count];  ///< order weight × floor log-probability, per feature kind
  float expected_fit;          ///< mean hit weight per weighted feature, on held-out text
  std::uint32_t reserved[5];
};
static_assert(sizeof(language_record) == 80);

/// The table of one script group (the GRUP section is an array of these; offsets are into TABL).
/// Slots: 4 per bucket, two candidate buckets per feature, u32 = fingerprint (fp_bits) | type (2)
/// | payload: type 0 = one posting (local language << inline_q_bits | q); 1 = a list record of up
/// to 8 entries (local << 8 | q) of entry_bytes each, a zero entry ending a shorter list (and the
/// rest of the record zero, checked at load); 3 = a short list record of up to 4 entries; 2 = a
/// row of q per language. Every feature is thus at most two memory accesses: its slot, its payload.
struct group_record {
  std::uint8_t script;
  std::uint8_t lang_bits;      ///< bits of a local language index in a slot
  std::uint8_t inline_q_bits;  ///< bits of q in a slot (<= 8)
  std::uint8_t entry_bytes;    ///< 2 (local << 8 | q) or 4, per list entry; a list record is 8 entries
  std::uint32_t size;          ///< languages in the group
  std::uint32_t size_pad;      ///< bytes of a dense row (size rounded up to 32)
  std::uint32_t bucket_count;
  std::uint32_t list_count, row_count, short_list_count;
  std::uint32_t kinds;           ///< bit k: feature kind k is in the table (format 2; reserved, 0, in 1)
  std::uint64_t langs_offset;    ///< u16[size]: global language indices, ascending
  std::uint64_t slots_offset;    ///< u32[4 × bucket_count]
  std::uint64_t lists_offset;    ///< 8 × entry_bytes × list_count
  std::uint64_t short_lists_offset;  ///< 4 × entry_bytes × short_list_count
  std::uint64_t rows_offset;     ///< size_pad × row_count bytes of q
};
static_assert(sizeof(group_record) == 72);

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

/// acc[i] += row[i] for i < n (n a multiple of 32): widening byte adds, 16 or 32 lanes at a time.
inline void add_row(std::uint16_t* acc, const std::uint8_t* row, std::size_t n) noexcept {
#if defined(__AVX2__)
  for (std::size_t i = 0; i < n; i += 16) {
    const __m256i w = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i)));
    __m256i* a = reinterpret_cast<__m256i*>(acc + i);
    _mm256_storeu_si256(a, _mm256_add_epi16(_mm256_loadu_si256(a), w));
  }
#elif defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (std::size_t i = 0; i < n; i += 16) {
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
    __m128i* a0 = reinterpret_cast<__m128i*>(acc + i);
    __m128i* a1 = reinterpret_cast<__m128i*>(acc + i + 8);
    _mm_storeu_si128(a0, _mm_add_epi16(_mm_loadu_si128(a0), _mm_unpacklo_epi8(w, zero)));
    _mm_storeu_si128(a1, _mm_add_epi16(_mm_loadu_si128(a1), _mm_unpackhi_epi8(w, zero)));
  }
#else
  for (std::size_t i = 0; i < n; ++i) acc[i] = static_cast<std::uint16_t>(acc[i] + row[i]);
#endif
}

}  // namespace detail

/// The (language index, quantised weight) of one posting.
struct posting {
  std::uint16_t lang;
  std::uint16_t q;
};

/// A script group's table, ready to use (pointers into the model's bytes).
struct group_table {
  static constexpr unsigned kListEntries = 8, kShortListEntries = 4;
  const group_record* rec = nullptr;
  const std::uint16_t* langs = nullptr;  ///< global indices of the group's languages
  const std::uint32_t* slots = nullptr;
  const unsigned char* lists = nullptr;
  const unsigned char* short_lists = nullptr;
  const std::uint8_t* rows = nullptr;
  unsigned fp_bits = 12;
  /// The features the group's table holds, to extract from its text (orders min..max, words);
  /// min_order > max_order when it holds words only.
  ngram_config features{};

  std::size_t size() const noexcept { return rec->size; }
  std::size_t size_pad() const noexcept { return rec->size_pad; }

  /// Where feature `h` may be (compute once, then prefetch and find).
  detail::slot_address address(std::uint64_t h) const noexcept { return detail::address_of(h, rec->bucket_count, fp_bits); }
  void prefetch(const detail::slot_address& a) const noexcept {
    __builtin_prefetch(slots + 4 * static_cast<std::size_t>(a.b1));
    __builtin_prefetch(slots + 4 * static_cast<std::size_t>(a.b2));
  }
  /// The slot of feature `h`, or 0 when no language of the group holds it.
  std::uint32_t find(std::uint64_t h) const noexcept { return find(address(h)); }
  std::uint32_t find(const detail::slot_address& a) const noexcept {
    const std::uint32_t* s1 = slots + 4 * static_cast<std::size_t>(a.b1);
    const std::uint32_t* s2 = slots + 4 * static_cast<std::size_t>(a.b2);
    const unsigned shift = 32 - fp_bits;
#if defined(__SSE2__)
    // The last match in the first bucket, else the first in the second (as the loops below).
    const __m128i fp = _mm_set1_epi32(static_cast<int>(a.fp)), count = _mm_cvtsi32_si128(static_cast<int>(shift));
    const auto match = [&](const std::uint32_t* b) {
      const __m128i x = _mm_srl_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), count);
      return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, fp))));
    };
    // Both buckets are fetched anyway; selects instead of branches (which bucket holds a feature,
    // and whether any does, is a coin toss the branch predictor loses).
    const unsigned m1 = match(s1), m2 = match(s2);
    const std::uint32_t v1 = s1[31 - __builtin_clz(m1 | 1u)], v2 = s2[__builtin_ctz(m2 | 8u)];
    const std::uint32_t use1 = 0u - static_cast<std::uint32_t>(m1 != 0), use2 = 0u - static_cast<std::uint32_t>(m2 != 0);
    return (v1 & use1) | (v2 & use2 & ~use1);  // masks: the compiler kept a branch for "?:"
#else
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (s1[i] >> shift) == a.fp ? s1[i] : v;
    for (int i = 0; i < 4; ++i) v = (!v && (s2[i] >> shift) == a.fp) ? s2[i] : v;
    return v;
#endif
  }
  /// Hints the CPU to fetch the buckets of `h` (call some features ahead of find).
  void prefetch(std::uint64_t h) const noexcept {
    const auto a = detail::address_of(h, rec->bucket_count, fp_bits);
    __builtin_prefetch(slots + 4 * static_cast<std::size_t>(a.b1));
    __builtin_prefetch(slots + 4 * static_cast<std::size_t>(a.b2));
  }
  /// Hints the CPU to fetch the payload of slot `v` (call some features ahead of add).
  /// Without branches: a slot of type 0 (or 0) prefetches the start of the lists, harmlessly.
  void prefetch_payload(std::uint32_t v) const noexcept {
    const unsigned payload_bits = 30 - fp_bits;
    const std::uint32_t type = (v >> payload_bits) & 3u, payload = v & ((1u << payload_bits) - 1);
    const unsigned char* const base[4] = {lists, lists, rows, short_lists};
    const std::size_t stride[4] = {0, kListEntries * rec->entry_bytes, rec->size_pad, kShortListEntries * rec->entry_bytes};
    __builtin_prefetch(base[type] + std::size_t{payload} * stride[type]);
  }
  /// Adds the q of every language holding the feature of slot `v` (non-zero) to acc[local]
  /// (acc has size_pad() u16s). One slot through add_all (the slow path of tools and tests).
  void add(std::uint32_t v, std::uint16_t* acc) const noexcept {
    std::uint32_t scratch[4];
    add_all(&v, 1, scratch, acc);
  }
  /// add() for the n (<= 256) non-zero slots v[0, n), grouped by type first so that each group is
  /// a loop without type tests (a feature's type is a coin toss for the branch predictor; the
  /// integer sums do not depend on the order). `scratch` has room for 4 * n values.
  void add_all(const std::uint32_t* v, std::size_t n, std::uint32_t* scratch, std::uint16_t* acc) const noexcept {
    const unsigned payload_bits = 30 - fp_bits;
    const std::uint32_t payload_mask = (1u << payload_bits) - 1;
    std::uint32_t* const by_type[4] = {scratch, scratch + n, scratch + 2 * n, scratch + 3 * n};
    std::size_t count[4] = {};
    for (std::size_t i = 0; i < n; ++i) {  // without branches: every list written, one advances
      const std::uint32_t type = (v[i] >> payload_bits) & 3u, payload = v[i] & payload_mask;
      for (std::uint32_t t = 0; t < 4; ++t) {
        by_type[t][count[t]] = payload;
        count[t] += t == type;
      }
    }
    const unsigned qb = rec->inline_q_bits;
    const std::uint32_t qmask = (1u << qb) - 1;
    for (std::size_t i = 0; i < count[0]; ++i) acc[by_type[0][i] >> qb] += static_cast<std::uint16_t>(by_type[0][i] & qmask);
    auto add_lists = [&](auto entry) LANGSIFT_ALWAYS_INLINE {  // the entry width tested once, not per record
      using Entry = decltype(entry);
      for (std::size_t i = 0; i < count[1]; ++i) add_record<kListEntries, Entry>(lists, by_type[1][i], acc);
      for (std::size_t i = 0; i < count[3]; ++i) add_record<kShortListEntries, Entry>(short_lists, by_type[3][i], acc);
    };
    if (rec->entry_bytes == 2) add_lists(std::uint16_t{});
    else add_lists(std::uint32_t{});
    for (std::size_t i = 0; i < count[2]; ++i)
      detail::add_row(acc, rows + static_cast<std::size_t>(by_type[2][i]) * rec->size_pad, rec->size_pad);
  }
  /// Adds the entries (local << 8 | q) of list record `payload` of `base` (Cap entries each).
  /// Every entry, without testing for the end: a zero entry adds 0 to acc[0], and the loader
  /// checks that a record is zero after its first zero entry (a fixed trip count instead of a
  /// data-dependent loop exit the branch predictor keeps missing).
  template <unsigned Cap, class Entry>  // Entry: std::uint16_t or std::uint32_t (entry_bytes)
  void add_record(const unsigned char* base, std::uint32_t payload, std::uint16_t* acc) const noexcept {
    const auto* x = reinterpret_cast<const Entry*>(base) + std::size_t{payload} * Cap;
    for (unsigned k = 0; k < Cap; ++k) acc[x[k] >> 8] += static_cast<std::uint16_t>(x[k] & 0xFF);
  }
  /// Adds feature `h` (see add); false when no language of the group holds it.
  bool accumulate(std::uint64_t h, std::uint16_t* acc) const noexcept {
    const std::uint32_t v = find(h);
    if (v) add(v, acc);
    return v != 0;
  }
  /// Calls f(posting{local, q}) for every language holding `h` (slow path, for tools and tests).
  template <class F>
  std::size_t for_each_posting(std::uint64_t h, F&& f) const noexcept {
    const std::uint32_t v = find(h);
    if (!v) return 0;
    std::uint16_t acc[512 + 32];
    std::size_t n = 0;
    if (rec->size_pad <= 512) {
      std::fill_n(acc, rec->size_pad, std::uint16_t{0});
      add(v, acc);
      for (std::uint32_t i = 0; i < rec->size; ++i)
        if (acc[i]) {
          f(posting{static_cast<std::uint16_t>(i), acc[i]});
          ++n;
        }
    }
    return n;
  }
};

namespace detail {
struct builtin_model_loader;  // default_model.cpp: loads the bytes linked into the library
}

/// A loaded model: immutable once loaded, shared by any number of threads.
class model {
 public:
  model() = default;

  /// Loads a model from bytes that outlive the model (e.g. the library's embedded default model,
  /// or a caller's mmap; 8-byte aligned). Nothing is copied. The checksum is always verified; the
  /// structure (every slot, list, row and rank entry within bounds) unless `verify_structure` is
  /// false, which only a model known to come from langsift-train should be loaded with (the
  /// built-in model is: the tests load it fully verified).
  static status load_view(std::string_view bytes, model& out, bool verify_structure = true) noexcept;
  /// Loads a model from bytes it copies and owns.
  static status load_copy(std::string_view bytes, model& out) noexcept;
  /// Loads a model file. `error` (optional) receives a human-readable reason on failure.
  static status load_file(const std::string& path, model& out, std::string* error = nullptr) noexcept;

  bool empty() const noexcept { return langs_.empty(); }
  std::size_t language_count() const noexcept { return langs_.size(); }
  std::string_view language_code(std::size_t i) const noexcept { return codes_[i]; }
  const language_record& language(std::size_t i) const noexcept { return langs_[i]; }
  /// Index of "zh" (Simplified Chinese, the default for Han text), or -1.
  int chinese() const noexcept { return zh_; }
  /// An id shared by the languages with the same primary subtag (zh and zh-Hant, sr and sr-Latn).
  std::uint16_t base_id(std::size_t i) const noexcept { return base_ids_[i]; }
  /// Index of a language code (exact match), or -1.
  int find_language(std::string_view code) const noexcept {
    for (std::size_t i = 0; i < codes_.size(); ++i)
      if (codes_[i] == code) return static_cast<int>(i);
    return -1;
  }
  const model_params& params() const noexcept { return params_; }
  std::string_view info() const noexcept { return info_; }
  std::uint64_t checksum() const noexcept { return checksum_; }
  std::size_t size_bytes() const noexcept { return bytes_.size(); }
  /// The n-gram orders counted at training (what the rank-order profiles hold). What a group's
  /// table holds, and detection extracts, is group(g).features.
  ngram_config features() const noexcept {
    return ngram_config{params_.min_order, params_.max_order, params_.words != 0, hashing_};
  }
  std::size_t group_count() const noexcept { return groups_.size(); }
  const group_table& group(std::size_t g) const noexcept { return groups_[g]; }
  /// The group of languages written in script `sc`, or nullptr.
  const group_table* group_of_script(script sc) const noexcept {
    const auto s = static_cast<std::size_t>(sc);
    return s < script_group_.size() && script_group_[s] >= 0 ? &groups_[static_cast<std::size_t>(script_group_[s])]
                                                              : nullptr;
  }
  /// Languages whose profile is written in script `sc` (global indices, ascending).
  std::span<const std::uint16_t> languages_of_script(script sc) const noexcept {
    const group_table* g = group_of_script(sc);
    return g ? std::span<const std::uint16_t>(g->langs, g->size()) : std::span<const std::uint16_t>();
  }
  /// Calls `f(posting{global language, q})` for every language holding feature `h` (any group).
  template <class F>
  std::size_t for_each_posting(std::uint64_t h, F&& f) const noexcept {
    std::size_t n = 0;
    for (const auto& g : groups_)
      n += g.for_each_posting(h, [&](posting p) { f(posting{g.langs[p.lang], p.q}); });
    return n;
  }
  /// The weight a quantised value stands for, in score units.
  float weight(std::uint16_t q) const noexcept { return static_cast<float>(q) * params_.weight_step; }

  /// Rank-order profiles: calls `f(lang, rank)` for every profile holding n-gram `h`.
  template <class F>
  void for_each_rank(std::uint64_t h, F&& f) const noexcept {
    const std::uint64_t* end = rank_keys_ + rank_key_count_;
    const std::uint64_t* it = std::lower_bound(rank_keys_, end, h);
    if (it == end || *it != h) return;
    const auto k = static_cast<std::size_t>(it - rank_keys_);
    for (std::uint32_t i = rank_offsets_[k]; i < rank_offsets_[k + 1]; ++i) f(rank_postings_[i].lang, rank_postings_[i].q);
  }
  /// Per group, per feature kind, per local language (size_pad() of them): the language's floor
  /// (the cost of a feature it lacks), 0 in padding lanes: floors(g)[kind * size_pad + local].
  const float* floors(std::size_t g) const noexcept { return group_floors_[g].data(); }

 private:
  friend struct detail::builtin_model_loader;
  // verify_checksum is false only for the built-in model: its bytes are part of the library's own
  // binary (not a file read at run time), and hashing all of them would cost most of the start-up
  // time; the tests check its checksum and structure.
  status parse(bool verify_checksum, bool verify_structure) noexcept;
  static status load_in_place(std::string_view bytes, model& out, bool verify_checksum, bool verify_structure) noexcept;

  std::shared_ptr<const std::string> owned_;
  std::string_view bytes_;
  std::uint64_t checksum_ = 0;
  feature_hashing hashing_ = feature_hashing::window;  ///< from the format version
  std::string_view info_;
  model_params params_{};
  std::span<const language_record> langs_;
  std::vector<std::string_view> codes_;
  std::vector<std::uint16_t> base_ids_;
  int zh_ = -1;
  std::vector<group_table> groups_;
  std::vector<int> script_group_;  // by script value: group index or -1
  std::vector<std::vector<float>> group_floors_;
  // The rank-order multi-profile hash, stored by the trainer: sorted distinct n-gram hashes, and
  // for the k-th the (language, rank) postings [rank_offsets_[k], rank_offsets_[k + 1]).
  const std::uint64_t* rank_keys_ = nullptr;
  std::size_t rank_key_count_ = 0;
  const std::uint32_t* rank_offsets_ = nullptr;
  const posting* rank_postings_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Implementation

inline status model::load_in_place(std::string_view bytes, model& out, bool verify_checksum,
                                    bool verify_structure) noexcept {
  model m;
  m.bytes_ = bytes;
  status s = m.parse(verify_checksum, verify_structure);
  if (s == status::ok) out = std::move(m);
  return s;
}

inline status model::load_view(std::string_view bytes, model& out, bool verify_structure) noexcept {
  return load_in_place(bytes, out, /*verify_checksum=*/true, verify_structure);
}

inline status model::load_copy(std::string_view bytes, model& out) noexcept {
  try {
    auto owned = std::make_shared<const std::string>(bytes);
    model m;
    m.owned_ = owned;
    m.bytes_ = *owned;
    status s = m.parse(/*verify_checksum=*/true, /*verify_structure=*/true);
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
        set_error(path + ": model format version is not " + std::to_string(kOldestModelFormatVersion) + " to " +
                  std::to_string(kModelFormatVersion));
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

inline status model::parse(bool verify_checksum, bool verify) noexcept {
  using detail::load_le;
  if (!detail::host_is_little_endian()) return status::model_version;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data());
  const std::size_t n = bytes_.size();
  if (n < 64 || std::memcmp(b, kModelMagic, 8) != 0) return status::corrupt_model;
  const std::uint32_t version = load_le<std::uint32_t>(b + 8);
  if (version < kOldestModelFormatVersion || version > kModelFormatVersion) return status::model_version;
  if (load_le<std::uint32_t>(b + 12) != 64 || load_le<std::uint64_t>(b + 16) != n) return status::corrupt_model;
  checksum_ = load_le<std::uint64_t>(b + 24);
  hashing_ = hashing_of_version(version);
  for (std::size_t i = 36; i < 64; ++i)  // flags and padding: reserved, zero (the checksum starts at 64)
    if (b[i]) return status::corrupt_model;
  if (verify_checksum && XXH3_64bits(b + 64, n - 64) != checksum_) return status::corrupt_model;
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
  if (P.fp_bits < 8 || P.fp_bits > 20) return status::corrupt_model;
  if (!(P.weight_step > 0) || P.weight_step > 1e6f) return status::corrupt_model;
  if (P.language_count == 0 || P.language_count > 65535) return status::corrupt_model;
  if (P.group_count == 0 || P.group_count > P.language_count) return status::corrupt_model;
  for (float w : P.order_weight)
    if (!(w >= 0) || w > 1e6f) return status::corrupt_model;
  if (!(P.calibration_a > 0) || P.calibration_a > 1e3f || !(std::fabs(P.calibration_b) < 1e3f)) return status::corrupt_model;

  p = section("LANG", sz);
  if (!p || sz != std::size_t{P.language_count} * sizeof(language_record)) return status::corrupt_model;
  langs_ = {reinterpret_cast<const language_record*>(p), P.language_count};
  for (const auto& L : langs_) {
    if (L.code[0] == 0 || L.code[sizeof L.code - 1] != 0) return status::corrupt_model;
    if (L.script >= script_count || L.group >= P.group_count) return status::corrupt_model;
    for (float f : L.floor)
      if (!(f <= 0) || f < -1e9f) return status::corrupt_model;
    if (!(L.expected_fit >= 0) || L.expected_fit > 1e9f) return status::corrupt_model;
  }

  std::size_t gsz = 0, tsz = 0;
  const unsigned char* gp = section("GRUP", gsz);
  const unsigned char* tp = section("TABL", tsz);
  if (!gp || !tp || gsz != std::size_t{P.group_count} * sizeof(group_record)) return status::corrupt_model;
  try {
    codes_.clear();
    for (const auto& L : langs_) codes_.emplace_back(L.code, strnlen(L.code, sizeof L.code));
    base_ids_.assign(codes_.size(), 0);
    for (std::size_t i = 0; i < codes_.size(); ++i) {
      const std::string_view base = codes_[i].substr(0, codes_[i].find('-'));
      base_ids_[i] = static_cast<std::uint16_t>(i);
      for (std::size_t j = 0; j < i; ++j)
        if (codes_[j].substr(0, codes_[j].find('-')) == base) {
          base_ids_[i] = base_ids_[j];
          break;
        }
    }
    zh_ = find_language("zh");
    groups_.assign(P.group_count, group_table{});
    script_group_.assign(script_count, -1);
    std::vector<std::uint8_t> seen(P.language_count, 0);
    const unsigned shift = 32 - P.fp_bits, payload_bits = shift - 2;
    for (std::uint32_t gi = 0; gi < P.group_count; ++gi) {
      const auto* rec = reinterpret_cast<const group_record*>(gp + std::size_t{gi} * sizeof(group_record));
      // Every array must lie inside TABL, aligned for its type.
      auto array = [&](std::uint64_t off, std::uint64_t count, std::uint64_t elem, std::uint64_t align) -> const unsigned char* {
        if (off % align || off > tsz || count > (tsz - off) / elem) return nullptr;
        return tp + off;
      };
      if (rec->script >= script_count || script_group_[rec->script] >= 0) return status::corrupt_model;
      if (rec->size == 0 || rec->size > P.language_count || rec->size_pad < rec->size || rec->size_pad % 32 ||
          rec->size_pad > 65536)
        return status::corrupt_model;
      if (rec->entry_bytes != 2 && rec->entry_bytes != 4) return status::corrupt_model;
      if (rec->entry_bytes == 2 && rec->size > 256) return status::corrupt_model;
      if (rec->inline_q_bits < 1 || rec->inline_q_bits > 8 || rec->lang_bits + rec->inline_q_bits > payload_bits ||
          (std::size_t{1} << rec->lang_bits) < rec->size)
        return status::corrupt_model;
      if (rec->size_pad > 512 || rec->bucket_count == 0 || rec->list_count >= (1u << payload_bits) ||
          rec->short_list_count >= (1u << payload_bits) || rec->row_count >= (1u << payload_bits))
        return status::corrupt_model;
      group_table& g = groups_[gi];
      g.rec = rec;
      g.fp_bits = P.fp_bits;
      // Format 1 had no per-group kinds: every group holds the kinds weighted in PARM.
      const std::uint32_t kinds = version >= 2 ? rec->kinds : weighted_kinds(P.order_weight);
      if (kinds == 0 || (kinds & ~0x7Eu)) return status::corrupt_model;
      g.features = features_of_kinds(kinds);
      g.features.hashing = hashing_;
      g.langs = reinterpret_cast<const std::uint16_t*>(array(rec->langs_offset, rec->size, 2, 2));
      g.slots = reinterpret_cast<const std::uint32_t*>(array(rec->slots_offset, std::uint64_t{rec->bucket_count} * 4, 4, 4));
      g.lists = array(rec->lists_offset, std::uint64_t{rec->list_count} * group_table::kListEntries, rec->entry_bytes,
                      rec->entry_bytes);
      g.short_lists = array(rec->short_lists_offset, std::uint64_t{rec->short_list_count} * group_table::kShortListEntries,
                            rec->entry_bytes, rec->entry_bytes);
      g.rows = array(rec->rows_offset, std::uint64_t{rec->row_count} * rec->size_pad, 1, 1);
      if (!g.langs || !g.slots || !g.lists || !g.short_lists || !g.rows) return status::corrupt_model;
      for (std::uint32_t i = 0; i < rec->size; ++i) {
        const std::uint16_t l = g.langs[i];
        if (l >= P.language_count || seen[l] || langs_[l].group != gi || langs_[l].local != i ||
            (i && g.langs[i - 1] >= l))
          return status::corrupt_model;
        seen[l] = 1;
      }
      // List entries name languages of the group; a zero entry ends a list, and the rest of its
      // record is zero too (detection adds every entry of a record, without testing for the end).
      for (const auto& [base, count, cap] :
           {std::tuple{g.lists, std::size_t{rec->list_count} * group_table::kListEntries, std::size_t{group_table::kListEntries}},
            std::tuple{g.short_lists, std::size_t{rec->short_list_count} * group_table::kShortListEntries,
                       std::size_t{group_table::kShortListEntries}}}) {
        bool ended = false;
        for (std::size_t i = 0; verify && i < count; ++i) {
          const std::uint32_t x = rec->entry_bytes == 2 ? reinterpret_cast<const std::uint16_t*>(base)[i]
                                                        : reinterpret_cast<const std::uint32_t*>(base)[i];
          if (i % cap == 0) ended = false;
          if ((x >> 8) >= rec->size || (ended && x)) return status::corrupt_model;
          ended = ended || !x;
        }
      }
      // Padding lanes of the rows are zero, so no weight lands beyond the group's languages.
      for (std::uint32_t r = 0; verify && r < rec->row_count; ++r)
        for (std::uint32_t i = rec->size; i < rec->size_pad; ++i)
          if (g.rows[std::size_t{r} * rec->size_pad + i]) return status::corrupt_model;
      for (std::size_t i = 0; verify && i < std::size_t{rec->bucket_count} * 4; ++i) {
        const std::uint32_t v = g.slots[i];
        if (!v) continue;
        const std::uint32_t type = (v >> payload_bits) & 3u, payload = v & ((1u << payload_bits) - 1);
        if (type == 0 ? (payload >> rec->inline_q_bits) >= rec->size
                      : type == 1 ? payload >= rec->list_count
                                  : type == 2 ? payload >= rec->row_count : payload >= rec->short_list_count)
          return status::corrupt_model;
      }
      script_group_[rec->script] = static_cast<int>(gi);
    }
    for (std::uint8_t x : seen)
      if (!x) return status::corrupt_model;  // every language in exactly one group
    group_floors_.assign(P.group_count, {});
    for (std::uint32_t gi = 0; gi < P.group_count; ++gi) {
      const group_table& g = groups_[gi];
      auto& f = group_floors_[gi];
      f.assign(std::size_t{feature_kind_count} * g.size_pad(), 0.0f);
      for (std::uint32_t i = 0; i < g.size(); ++i)
        for (unsigned k = 0; k < feature_kind_count; ++k) f[k * g.size_pad() + i] = langs_[g.langs[i]].floor[k];
    }
    for (const auto& L : langs_)
      if (static_cast<int>(L.group) != script_group_[L.script]) return status::corrupt_model;
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }

  // Rank-order profiles: u32 key count, u32 posting count, u64 keys (ascending), u32 offsets
  // [key count + 1], then (u16 language, u16 rank) postings.
  p = section("RANK", sz);
  if (!p || sz < 8) return status::corrupt_model;
  {
    const std::uint32_t nk = load_le<std::uint32_t>(p), np = load_le<std::uint32_t>(p + 4);
    const std::size_t need = 8 + std::size_t{nk} * 8 + (std::size_t{nk} + 1) * 4 + std::size_t{np} * 4;
    if (nk > sz / 8 || np > sz / 4 || need > sz) return status::corrupt_model;
    rank_keys_ = reinterpret_cast<const std::uint64_t*>(p + 8);
    rank_key_count_ = nk;
    rank_offsets_ = reinterpret_cast<const std::uint32_t*>(p + 8 + std::size_t{nk} * 8);
    rank_postings_ = reinterpret_cast<const posting*>(p + 8 + std::size_t{nk} * 8 + (std::size_t{nk} + 1) * 4);
    if (rank_offsets_[0] != 0 || rank_offsets_[nk] != np) return status::corrupt_model;
    for (std::uint32_t i = 0; verify && i < nk; ++i)
      if ((i && rank_keys_[i - 1] >= rank_keys_[i]) || rank_offsets_[i] > rank_offsets_[i + 1]) return status::corrupt_model;
    for (std::uint32_t i = 0; verify && i < np; ++i)
      if (rank_postings_[i].lang >= P.language_count || rank_postings_[i].q >= P.rank_profile_size)
        return status::corrupt_model;
  }
  return status::ok;
}

}  // namespace v1
}  // namespace langsift
