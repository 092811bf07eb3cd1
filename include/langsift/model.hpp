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

#include "langsift/close_groups.hpp"
#include "langsift/common.hpp"
#include "langsift/config.hpp"
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
  std::uint32_t find(const detail::slot_address& a) const noexcept;
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
  void add_all(const std::uint32_t* v, std::size_t n, std::uint32_t* scratch, std::uint16_t* acc) const noexcept;
  /// Adds the entries (local << 8 | q) of list record `payload` of `base` (Cap entries each).
  /// Every entry, without testing for the end: a zero entry adds 0 to acc[0], and the loader
  /// checks that a record is zero after its first zero entry (a fixed trip count instead of a
  /// data-dependent loop exit the branch predictor keeps missing).
  template <unsigned Cap, class Entry>  // Entry: std::uint16_t or std::uint32_t (entry_bytes)
  void add_record(const unsigned char* base, std::uint32_t payload, std::uint16_t* acc) const noexcept {
    const auto* x = reinterpret_cast<const Entry*>(base) + std::size_t{payload} * Cap;
    for (unsigned k = 0; k < Cap; ++k) acc[x[k] >> 8] += static_cast<std::uint16_t>(x[k] & 0xFF);
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

/// How `detect` turns the scores of a language's units into probabilities (docs/detection.md,
/// "Probabilities"): over the units labelled with one language, with S_c the summed score of
/// candidate c and n the features read,
///   p(c) = exp(τ (S_c − S_max)) / (Σ_j exp(τ (S_j − S_max)) + rest),   τ = scale / √n.
/// Naive Bayes counts overlapping n-grams as independent evidence, so its score gaps grow like n
/// while what they are worth grows like √n; `rest` is the mass left to "none of these" (labels
/// the model's languages do not explain): the top probability of one language's units is at most
/// 1 / (1 + rest). Fitted per model on held-out training text (`langsift-eval calibrate
/// --probability`, models/README.md).
struct probability_calibration {
  float scale = 0;  ///< τ × √(features read): > 0
  float rest = 0;   ///< >= 0
};

namespace detail {
struct builtin_model_loader;  // default_model.cpp: loads the bytes linked into the library
struct model_sections;        // the checked header and section table of a file (impl/model-inl.hpp)
}

/// A loaded model: immutable once loaded, shared by any number of threads.
class model {
 public:
  model() = default;

  /// Loads a model from bytes that outlive the model (e.g. the library's embedded default model,
  /// or a caller's mmap; 8-byte aligned). Nothing is copied. The checksum is always verified; the
  /// structure (every slot, list, row and rank entry within bounds) unless `verify_structure` is
  /// false, which only a model known to come from langsift-train should be loaded with (the
  /// built-in model is: the tests load it fully verified). `message` as for load_copy.
  static status load_view(std::string_view bytes, model& out, std::string* message = nullptr,
                          bool verify_structure = true) noexcept;
  /// Loads a model from bytes it copies and owns. `message` (optional) receives a reason for
  /// people on failure. `max_bytes` (0: no cap): bytes over it are refused (too_large) before
  /// they are copied.
  static status load_copy(std::string_view bytes, model& out, std::string* message = nullptr,
                          std::size_t max_bytes = 0) noexcept;
  /// Loads a model file. `message` (optional) receives a reason for people on failure.
  /// `max_bytes` (0: no cap): a file larger than that is refused (too_large) before it is read. A
  /// loaded model keeps its file's bytes in memory, and beside them per group a table of floors
  /// (feature kinds × the group's padded size, in floats) and per language its code's view.
  ///
  /// The loaders return ok (`out` replaced), corrupt_model (truncated, bit-flipped, bad structure
  /// or not a model), model_version, unsupported_platform (a big-endian host), out_of_memory;
  /// load_file also io_error; load_view also invalid_argument (bytes not 8-byte aligned); with a
  /// cap, too_large.
  static status load_file(const std::string& path, model& out, std::string* message = nullptr,
                          std::size_t max_bytes = 0) noexcept;

  bool empty() const noexcept { return langs_.empty(); }
  std::size_t language_count() const noexcept { return langs_.size(); }
  std::string_view language_code(std::size_t i) const noexcept { return codes_[i]; }
  const language_record& language(std::size_t i) const noexcept { return langs_[i]; }
  /// Index of "zh" (Simplified Chinese, the default for Han text), or -1.
  int chinese() const noexcept { return zh_; }
  /// Index of Traditional Chinese (zh-Hant), or -1.
  int chinese_traditional() const noexcept { return zh_hant_; }
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
  /// The calibration of detection's probabilities: for the built-in models (and the same files
  /// loaded from disk, recognised by their checksum) the one fitted for them; for another model
  /// the default model's, until set_probability_calibration gives its own fit.
  const langsift::probability_calibration& probability_calibration() const noexcept { return prob_; }
  /// Sets the calibration (e.g. one `langsift-eval calibrate --probability` fitted for a model you
  /// trained). invalid_argument (nothing changed) unless scale > 0 and rest >= 0, both finite.
  status set_probability_calibration(const langsift::probability_calibration& c) noexcept;
  /// The prior log-odds of language i against the others, in calibrated nats (<= 0; 0: none):
  /// detect adds it once to the language's calibrated log-odds (detect_options::web_prior), so
  /// its weight falls as the text grows. The built-in wide model gives its languages that the
  /// default model lacks one (models/README.md, "Language priors"); other models have none
  /// until set_language_prior.
  float language_prior(std::size_t i) const noexcept {
    const float* row = group_priors(langs_[i].group);
    return row ? row[langs_[i].local] : 0.0f;
  }
  /// Whether some language has a prior (set_language_prior was called, or a built-in model's).
  bool has_language_priors() const noexcept { return !group_priors_.empty(); }
  /// Sets language i's prior log-odds. invalid_argument (nothing changed) unless i is a language
  /// and -50 <= log_odds <= 0. Not safe while other threads detect with this model.
  status set_language_prior(std::size_t i, float log_odds) noexcept;
  std::size_t size_bytes() const noexcept { return bytes_.size(); }
  /// Attaches close groups (close_groups.hpp): detect's close-group stage then decides among the
  /// members of each. Every member must be one of the model's languages (exact code), the members
  /// of a group written in one script group, and a language in one group at most; otherwise
  /// invalid_argument (`message` names the code) and nothing changes. Null detaches them. The
  /// built-in models come with theirs. Not safe while other threads detect with this model.
  status set_close_groups(std::shared_ptr<const langsift::close_groups> groups, std::string* message = nullptr) noexcept;
  /// The attached close groups, or null.
  const langsift::close_groups* close_groups() const noexcept { return close_.get(); }
  /// The close group of model language `l` (an index of close_groups()), or -1.
  int close_group_of(std::size_t l) const noexcept { return l < close_of_.size() ? close_of_[l] : -1; }
  /// The members of close group `g` as model language indices, in the file's member order.
  std::span<const std::uint16_t> close_members(std::size_t g) const noexcept { return close_members_[g]; }
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
  /// Per group, per local language (size_pad() of them): language_prior, 0 in padding lanes; null
  /// for a group without priors.
  const float* group_priors(std::size_t g) const noexcept {
    return g < group_priors_.size() && !group_priors_[g].empty() ? group_priors_[g].data() : nullptr;
  }

 private:
  friend struct detail::builtin_model_loader;
  // verify_checksum is false only for the built-in model: its bytes are part of the library's own
  // binary (not a file read at run time), and hashing all of them would cost most of the start-up
  // time; the tests check its checksum and structure.
  status parse(bool verify_checksum, bool verify_structure) noexcept;
  // The steps of parse, in order.
  status parse_header(bool verify_checksum, detail::model_sections& sec) noexcept;
  status parse_params(const detail::model_sections& sec) noexcept;
  status parse_languages(const detail::model_sections& sec) noexcept;
  status parse_groups(const detail::model_sections& sec, bool verify_structure);  // may throw std::bad_alloc
  status parse_group(std::uint32_t gi, const group_record* rec, const unsigned char* tabl, std::size_t tabl_size,
                     std::uint32_t version, bool verify_structure, std::vector<std::uint8_t>& seen) noexcept;
  static bool group_entries_valid(const group_table& g, unsigned payload_bits) noexcept;
  status parse_rank(const detail::model_sections& sec, bool verify_structure) noexcept;
  static status load_in_place(std::string_view bytes, model& out, bool verify_checksum, bool verify_structure) noexcept;
  static void set_load_message(status s, std::string_view what, std::string* message) noexcept;
  static void set_over_cap_message(std::uint64_t size, std::size_t max_bytes, std::string_view what,
                                   std::string* message) noexcept;

  /// The priors of a built-in model's file (kFittedLanguagePriors, by checksum); none for others.
  status apply_fitted_priors() noexcept;
  std::shared_ptr<const std::string> owned_;
  /// Parses `owned` (fully verified) into `out`, which then keeps it.
  static status adopt(std::shared_ptr<const std::string> owned, model& out) noexcept;
  std::string_view bytes_;
  std::uint64_t checksum_ = 0;
  feature_hashing hashing_ = feature_hashing::window;  ///< from the format version
  std::string_view info_;
  model_params params_{};
  langsift::probability_calibration prob_{};
  std::vector<std::vector<float>> group_priors_;  // per group: group_priors (all empty: no priors; an empty row: none in the group)
  std::shared_ptr<const langsift::close_groups> close_;
  std::vector<std::int16_t> close_of_;                     // per language: its close group, or -1
  std::vector<std::vector<std::uint16_t>> close_members_;  // per close group: member indices
  std::span<const language_record> langs_;
  std::vector<std::string_view> codes_;
  std::vector<std::uint16_t> base_ids_;
  int zh_ = -1, zh_hant_ = -1;
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

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/model-inl.hpp"
#endif
