// langsift — close groups: discriminators among languages the model confuses (bs/hr, id/ms,
// nb/nn/da, cs/sk/sl...), and the web's prior over their members. See docs/detection.md ("Close
// languages").
//
// A model's close groups are sets of its languages found from the model's own confusions on
// held-out text (scripts/close-groups.py). For each group, a discriminator — word and word-pair
// log-odds between the members, learnt from text all members share (langsift-train close) —
// decides among the members with the evidence of the whole document, once detect's segmentation
// has labelled units with a member (the close-group stage, impl/detect_stages.hpp). The web
// prior (each member's share of Common Crawl's pages) is one more term of that decision, which
// callers can turn off (detect_options::web_prior).
//
// The built-in models carry theirs (models/close-default.lscg, attached by default_model.cpp);
// a model you train gets one with model::set_close_groups.
//
//   langsift::close_groups g;
//   if (langsift::close_groups::load_file("my.lscg", g, &why) == langsift::status::ok)
//     my_model.set_close_groups(std::make_shared<const langsift::close_groups>(std::move(g)), &why);
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// The most members a close group has.
inline constexpr std::size_t max_close_members = 8;

namespace detail {
struct builtin_model_loader;  // default_model.cpp
}

/// What decides among the members of one group (one record of a close-groups file).
struct close_group_params {
  /// Weight of the model's calibrated log-odds between the members (τ (S_c − S_b), see
  /// probability_calibration) in the group's decision.
  float model_weight = 1.0f;
  /// Weight of the discriminator's log-odds (its summed feature weights).
  float discriminator_weight = 1.0f;
  /// Weight of the web prior's log-odds (log share_c − log share_max, floored at −prior_cap).
  float prior_weight = 1.0f;
  /// The prior's log-odds against a member are at most this (a prior must not sink a language).
  float prior_cap = 1.5f;
  /// The stage runs only when the model's calibrated log-odds of the runner-up member against the
  /// best are above −trigger: a group is in play.
  float trigger = 4.0f;
  /// The prior applies to a page: the group's units hold at least this many bytes of text
  /// (ClueWeb09's "short" threshold by default). On shorter text the evidence is too little for
  /// a prior not to decide alone, and it would sink the smaller member.
  std::uint32_t prior_min_bytes = 400;
  /// The stage decides text of at least this many bytes in the group's units: on a word or two
  /// the discriminator only repeats what the model's own word features said.
  std::uint32_t min_bytes = 32;
};

/// One group as a reader sees it.
struct close_group_info {
  std::span<const std::string_view> members;  ///< language codes, as the model writes them
  std::span<const float> web_share;           ///< per member: share of the web's pages (0..1)
  close_group_params params;
  std::size_t features = 0;                   ///< discriminator entries
};

/// The close groups of a model: loaded from a file (langsift-train close writes them), immutable,
/// shared by any number of threads.
class close_groups {
 public:
  close_groups() = default;

  /// Loads from bytes that outlive the object (8-byte aligned). `message` (optional) receives a
  /// reason for people on failure. Returns ok, corrupt_model (not a close-groups file, truncated,
  /// bad checksum or structure), model_version, unsupported_platform (big-endian host),
  /// invalid_argument (not 8-byte aligned).
  static status load_view(std::string_view bytes, close_groups& out, std::string* message = nullptr) noexcept;
  /// Loads from bytes it copies and keeps; also out_of_memory.
  static status load_copy(std::string_view bytes, close_groups& out, std::string* message = nullptr) noexcept;
  /// Loads a file; also io_error; `max_bytes` (0: no cap): a larger file is refused (too_large).
  static status load_file(const std::string& path, close_groups& out, std::string* message = nullptr,
                          std::size_t max_bytes = 0) noexcept;

  bool empty() const noexcept { return groups_.empty(); }
  std::size_t group_count() const noexcept { return groups_.size(); }
  close_group_info group(std::size_t g) const noexcept;
  /// The checksum (model::checksum) of the model whose held-out confusions and training text the
  /// file was made with; 0 when not recorded.
  std::uint64_t model_checksum() const noexcept { return model_checksum_; }
  std::uint64_t checksum() const noexcept { return checksum_; }
  std::string_view info() const noexcept { return info_; }
  std::size_t size_bytes() const noexcept { return bytes_.size(); }

  /// The discriminator's weights of feature `hash` in group `g` (member order), or null.
  const std::int8_t* find(std::size_t g, std::uint64_t hash) const noexcept;
  /// Adds the weights of every feature of `hashes` group `g` holds to sum[0, members): find() for
  /// each, with the memory accesses of many in flight at once (the filter words of all, then the
  /// directory of those that pass, then their keys). `hashes` is used as scratch (reordered, cut).
  void add_weights(std::size_t g, std::span<std::uint64_t> hashes, std::int32_t* sum) const noexcept;
  /// The value of one quantised weight of group g, in log-odds.
  float weight_step(std::size_t g) const noexcept;

 private:
  friend struct detail::builtin_model_loader;  // the library's own bytes: checked by the tests
  static status parse(std::string_view bytes, close_groups& out, bool verify_checksum, bool verify_structure = true) noexcept;
  std::shared_ptr<const std::string> owned_;
  std::string_view bytes_;
  std::uint64_t checksum_ = 0, model_checksum_ = 0;
  std::string_view info_;
  struct group_view {
    std::array<std::string_view, max_close_members> codes{};
    std::array<float, max_close_members> share{};
    std::size_t n = 0;
    close_group_params params;
    float step = 0;
    const std::uint64_t* keys = nullptr;  // sorted
    const std::int8_t* weights = nullptr;  // features × n
    const std::uint32_t* dir = nullptr;    // 2^bits + 1: the keys of each value of their top bits
    std::uint32_t bits = 1;
    const std::uint64_t* filter = nullptr;  // 2^filter_bits bits: a key's low bits set its bit
    std::uint32_t filter_bits = 6;
    std::size_t features = 0;
  };
  std::vector<group_view> groups_;
};

/// The hash of a pair of consecutive words (their word-feature hashes, ngram.hpp), as the
/// discriminators key them.
constexpr std::uint64_t close_pair_hash(std::uint64_t first, std::uint64_t second) noexcept {
  const std::uint64_t k = (first * 0x9E3779B97F4A7C15ull ^ second) * 0xff51afd7ed558ccdull;
  return k ^ (k >> 29) ^ 0x5bd1e9955bd1e995ull;
}

/// Writes a close-groups file (langsift-train close). One entry per group: the member codes (2 to
/// max_close_members, each at most 15 bytes), web shares, parameters, and the discriminator as
/// (feature hash, weights in member order, in log-odds) — quantised to int8 by the largest
/// magnitude of the group. Throws std::invalid_argument on a bad entry (std::bad_alloc).
struct close_group_entry {
  std::vector<std::string> members;
  std::vector<float> web_share;
  close_group_params params;
  std::vector<std::pair<std::uint64_t, std::vector<float>>> features;
};
std::string write_close_groups(const std::vector<close_group_entry>& groups, std::uint64_t model_checksum,
                               std::string_view info);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/close_groups-inl.hpp"
#endif
