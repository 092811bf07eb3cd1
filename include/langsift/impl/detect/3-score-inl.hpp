// langsift — detect, stage 3: n-gram scores of the units, per language of their script's group
// (kNoScore where a language is not allowed). See langsift/impl/detect_stages.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>

#include "langsift/impl/detect_stages.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/detector.hpp"
#include "langsift/impl/detect/0-begin-inl.hpp"
#include "langsift/impl/detect/kernels-inl.hpp"
#include "langsift/ngram.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// Long runs are skimmed (detect_options::skim): from kSkimFrom units on, every kSkimStride-th
/// unit and the last are scored first (stage 3), and the others only if those disagree (stage 4).
/// A run of more than kSkimUnits × kSkimStride units (about 7.7 KB) widens the stride so that
/// about kSkimUnits units (2.5 KB), evenly spread, are scored first. A page in one language is
/// so decided on a third of its text, and a long one on about 2.5 KB of it.
inline constexpr std::size_t kSkimStride = 3, kSkimFrom = 6, kSkimUnits = 40;

/// The stride of a skimmed run of n units.
inline std::size_t skim_stride(std::size_t n) noexcept { return std::max(kSkimStride, n / kSkimUnits); }

/// The end of the run whose units start at s.units[i].
inline std::size_t run_end(const detect_scratch& s, std::size_t i) noexcept {
  std::size_t j = i;
  while (j < s.units.size() && s.units[j].run == s.units[i].run) ++j;
  return j;
}

inline bool skims(const detect_options& opt, const detect_scratch& s, std::size_t i, std::size_t j) noexcept {
  return !s.use_rank && opt.skim && j - i >= kSkimFrom;
}

/// Extracts the features of `t` (configuration `cfg`) into s.feats, adding the count per kind to
/// n_kind and the letters to `unit_letters`; returns the number of features. s.feats is sized for
/// the worst case (a feature per order and one per word for every byte), written through a pointer.
inline std::uint32_t extract_features(detect_scratch& s, std::string_view t, const ngram_config& cfg, float* n_kind,
                                      float& unit_letters) {
  const std::size_t need = t.size() * (kMaxNgramOrder + 1) + 64;
  if (s.feats.size() < need) s.feats.resize(need);
  std::uint64_t* f = s.feats.data();
  std::uint32_t n = 0;
  std::uint32_t count[feature_kind_count] = {};  // per kind (in registers once inlined)
  auto sink = [&](std::uint64_t h, unsigned kind) LANGSIFT_ALWAYS_INLINE {
    f[n++] = h;
    ++count[kind];
  };
  // The built-in model's configurations with their orders and hashing known at compile time
  // (fewer rolling hashes and tests per code point); any other, and models of formats 1 and 2
  // (polynomial hashing), through the general loop.
  std::size_t seen;
  const bool window = cfg.hashing == feature_hashing::window;
  if (window && cfg.min_order == 4 && cfg.max_order == 4) seen = for_each_feature<4, 4, 1>(t, cfg, sink);
  else if (window && cfg.min_order == 3 && cfg.max_order == 4) seen = for_each_feature<3, 4, 1>(t, cfg, sink);
  else seen = for_each_feature(t, cfg, sink);
  unit_letters += static_cast<float>(seen);
  for (unsigned k = 0; k < feature_kind_count; ++k) n_kind[k] += static_cast<float>(count[k]);
  return n;
}

/// Adds the quantised weights of the np features in s.feats to acc (a batch of at most 256, then
/// drained into hits). Three passes, so that the memory accesses of many features are in flight
/// at once: fetch every feature's buckets, find every slot (fetching its payload), add every payload.
inline void add_feature_weights(const group_table& g, detect_scratch& s, std::uint32_t np, std::uint16_t* acc,
                                std::uint32_t& batch, float* hits, float step) {
  const std::uint64_t* feats = s.feats.data();
  if (s.slotv.size() < np) s.slotv.resize(np);
  if (s.addr.size() < np) s.addr.resize(np);
  std::uint32_t* sv = s.slotv.data();
  slot_address* ad = s.addr.data();
  for (std::uint32_t i = 0; i < np; ++i) {
    ad[i] = g.address(feats[i]);
    g.prefetch(ad[i]);
  }
  std::uint32_t found = 0;  // the slots of the features some language holds, packed
  for (std::uint32_t i = 0; i < np; ++i) {
    const std::uint32_t v = g.find(ad[i]);
    g.prefetch_payload(v);
    sv[found] = v;
    found += v != 0;
  }
  for (std::uint32_t i = 0; i < found;) {  // q <= 255: 256 features cannot overflow 16 bits
    const std::uint32_t take = std::min<std::uint32_t>(found - i, 256 - batch);
    g.add_all(sv + i, take, s.by_type.data(), acc);
    i += take;
    batch += take;
    if (batch == 256) {
      drain_batch(hits, acc, step, g.size_pad());
      batch = 0;
    }
  }
}

/// What a unit's scores add to its hits, besides the floors: hint bonuses, Chinese's margin, the mask.
struct unit_priors {
  const float* floors;  // per kind: size_pad floats (model::floors)
  const float* mask;    // allowed_mask, or null when the call is not restricted
  float share;          // the unit's share of the text bytes (hint bonuses are spread by it)
  int zh_local;         // Simplified Chinese's local index in a Han unit's group, else -1
  int hant_local;       // Traditional Chinese's, when zh_local is set, else -1
  int han_forms;        // Traditional-only minus Simplified-only characters of a Han unit (when hant_local is set)
};


/// sc = hits + Σ over kinds of (features of the kind) × floor (a missing feature costs its
/// floor), plus the priors; kNoScore past the group's languages and where not allowed.
inline void make_scores(const group_table& g, const detect_scratch& s, const unit_priors& p, const float* hits,
                        const float* n_kind, std::uint32_t n, float* sc) {
  const std::size_t pad = g.size_pad();
  unsigned kinds[feature_kind_count], nk = 0;  // the kinds seen, in order
  for (unsigned kind = 1; kind < feature_kind_count; ++kind)
    if (n_kind[kind] > 0) kinds[nk++] = kind;
  if (nk == 2) {  // the common case (order 4 and words): one pass
    copy_add_scaled2(sc, hits, n_kind[kinds[0]], p.floors + kinds[0] * pad, n_kind[kinds[1]], p.floors + kinds[1] * pad, pad);
  } else {
    std::memcpy(sc, hits, pad * sizeof(float));  // a copy loop stays scalar: the arrays may alias
    for (unsigned k = 0; k < nk; ++k) add_scaled(sc, n_kind[kinds[k]], p.floors + kinds[k] * pad, pad);
  }
  if (s.hinted)
    for (std::size_t k = 0; k < g.size(); ++k) sc[k] += s.bonus[g.langs[k]] * p.share;
  if (p.zh_local >= 0) {
    // The forms decide between the two (a character-set rule, as an alphabet filter: the n-gram
    // scores of the characters both write swing with the corpora): Traditional where more of its
    // own forms show, else Simplified, the common written form. A model without zh-Hant keeps
    // the margin of Simplified over nothing but the other Han languages' scores.
    // (A restriction that allows only one of the two leaves the choice to it.)
    if (p.hant_local >= 0 && (!p.mask || (p.mask[p.zh_local] == 0 && p.mask[p.hant_local] == 0)))
      sc[p.han_forms > 0 ? p.zh_local : p.hant_local] = kNoScore;
    else sc[p.zh_local] += 0.8f * static_cast<float>(n);
  }
  for (std::size_t k = g.size(); k < pad; ++k) sc[k] = kNoScore;
  if (p.mask)
    for (std::size_t k = 0; k < pad; ++k) sc[k] += p.mask[k];
}

/// TextCat's profile of the units [i, j) of a run into s.ranks: its n-grams (orders 1..5), most
/// frequent first, at most rank_profile_size.
inline void rank_profile(const model& m, detect_scratch& s, std::size_t i, std::size_t j) {
  const ngram_config rank_cfg{1, static_cast<std::uint8_t>(kMaxNgramOrder), false, m.features().hashing};
  s.ranks.clear();
  for (std::size_t k = i; k < j; ++k) {
    float n_kind[feature_kind_count] = {};
    const std::uint32_t n = extract_features(s, s.units[k].text, rank_cfg, n_kind, s.units[k].letters);
    for (std::uint32_t f = 0; f < n; ++f) s.ranks.push_back({s.feats[f], 1});
    s.units[k].scored = true;
  }
  std::sort(s.ranks.begin(), s.ranks.end());
  std::size_t w = 0;
  for (std::size_t k = 0; k < s.ranks.size(); ++k) {
    if (w && s.ranks[w - 1].first == s.ranks[k].first)
      ++s.ranks[w - 1].second;
    else
      s.ranks[w++] = s.ranks[k];
  }
  s.ranks.resize(w);
  std::sort(s.ranks.begin(), s.ranks.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  const std::size_t R = m.params().rank_profile_size;
  if (s.ranks.size() > R) s.ranks.resize(R);
}

/// The rank scorer on the units [i, j) of a run: one profile of the run's text (rank distance
/// needs more than a unit of text), its out-of-place score spread over the units by their bytes.
inline void score_run_by_rank(const model& m, const detect_options& opt, detect_scratch& s, std::size_t i, std::size_t j) {
  const group_table* g = s.units[i].g;
  rank_profile(m, s, i, j);
  const std::size_t R = m.params().rank_profile_size;
  for (std::uint32_t c = 0; c < g->size(); ++c) s.acc[g->langs[c]] = 0.0f;
  for (std::size_t r = 0; r < s.ranks.size(); ++r)
    m.for_each_rank(s.ranks[r].first, [&](std::uint16_t l, std::uint16_t rank) {
      s.acc[l] += static_cast<float>(R) - static_cast<float>(r > rank ? r - rank : rank - r);
    });
  double run_bytes = 0;
  for (std::size_t k = i; k < j; ++k) run_bytes += static_cast<double>(s.units[k].bytes);
  const float* mask = s.restricted ? allowed_mask(m, opt, s, s.units[i].group) : nullptr;
  for (std::size_t k = i; k < j; ++k) {
    unit& u = s.units[k];
    const float share = static_cast<float>(static_cast<double>(u.bytes) / run_bytes);
    float* sc = s.scores.data() + u.score_begin;
    for (std::uint32_t c = 0; c < g->size_pad(); ++c) {
      if (c >= g->size() || (mask && mask[c] != 0.0f)) {
        sc[c] = kNoScore;
        continue;
      }
      const std::uint16_t l = g->langs[c];
      sc[c] = (s.acc[l] + (s.hinted ? s.bonus[l] : 0.0f) * 0.1f * static_cast<float>(s.ranks.size()) / 30.0f) * share;
    }
  }
}

namespace detect_stage {

namespace han_forms {
#include "langsift/detail/han_variants.inc"

// The two sets as bitmaps over U+4E00..U+9FFF (CJK Unified Ideographs, where every entry lies):
// one bit test per character instead of two binary searches (which cost a quarter of the
// instructions of detecting Chinese text).
constexpr char32_t kFirst = 0x4E00, kLast = 0x9FFF;
struct bitmaps {
  std::uint64_t traditional[(kLast - kFirst + 64) / 64] = {};
  std::uint64_t simplified[(kLast - kFirst + 64) / 64] = {};
};
constexpr bitmaps make_bitmaps() {
  bitmaps b{};
  for (char32_t c : kTraditionalOnlyHan) b.traditional[(c - kFirst) / 64] |= std::uint64_t{1} << ((c - kFirst) % 64);
  for (char32_t c : kSimplifiedOnlyHan) b.simplified[(c - kFirst) / 64] |= std::uint64_t{1} << ((c - kFirst) % 64);
  return b;
}
constexpr bool in_range(const char32_t* b, const char32_t* e) {
  for (; b != e; ++b)
    if (*b < kFirst || *b > kLast) return false;
  return true;
}
static_assert(in_range(std::begin(kTraditionalOnlyHan), std::end(kTraditionalOnlyHan)) &&
                  in_range(std::begin(kSimplifiedOnlyHan), std::end(kSimplifiedOnlyHan)),
              "han_variants.inc: a character outside U+4E00..U+9FFF (widen the bitmaps)");
inline constexpr bitmaps kBitmaps = make_bitmaps();
}  // namespace han_forms

LANGSIFT_INLINE int han_form_balance(std::string_view text) noexcept {
  using namespace han_forms;
  int balance = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    // U+4E00..U+9FFF is E4 B8 80 .. E9 BF BF in UTF-8; any other byte (a continuation byte
    // included: none is E4..E9) is stepped over one at a time.
    const unsigned b0 = p[i];
    if (b0 < 0xE4 || b0 > 0xE9 || i + 2 >= n || (p[i + 1] & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80) {
      ++i;
      continue;
    }
    const char32_t c = (b0 & 0x0F) << 12 | (p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F);
    i += 3;
    if (c < kFirst) continue;
    const std::size_t w = (c - kFirst) / 64;
    const std::uint64_t bit = std::uint64_t{1} << ((c - kFirst) % 64);
    balance += (kBitmaps.traditional[w] & bit) ? 1 : (kBitmaps.simplified[w] & bit) ? -1 : 0;
  }
  return balance;
}

LANGSIFT_INLINE void score_unit(const model& m, const detect_options& opt, detect_scratch& s, unit& u) {
  u.scored = true;
  const group_table& g = *u.g;
  const std::size_t pad = g.size_pad();
  if (s.acc16.size() < pad) s.acc16.resize(pad);
  std::uint16_t* acc = s.acc16.data();  // all zero: grown with zeros, and every drain zeroes it
  float* hits = s.hits.data() + u.score_begin;
  std::fill_n(hits, pad, 0.0f);
  float* sc = s.scores.data() + u.score_begin;
  const model_params& P = m.params();
  const int zh = s.zh, hant = m.chinese_traditional();
  const bool chinese = u.sc == script::han && zh >= 0 && m.language(static_cast<std::size_t>(zh)).group == u.group;
  const bool both = chinese && hant >= 0 && m.language(static_cast<std::size_t>(hant)).group == u.group;
  const unit_priors priors{
      m.floors(u.group), s.restricted ? allowed_mask(m, opt, s, u.group) : nullptr,
      s.hinted ? static_cast<float>(static_cast<double>(u.bytes) / static_cast<double>(s.text_bytes)) : 0.0f,
      chinese ? m.language(static_cast<std::size_t>(zh)).local : -1,
      both ? m.language(static_cast<std::size_t>(hant)).local : -1,
      both ? han_form_balance(u.text) : 0};
  float n_kind[feature_kind_count] = {};
  std::uint32_t n = 0, batch = 0;
  std::size_t pos = 0;
  while (pos < u.text.size()) {
    const std::size_t stop = s.exit_z < 1e299 ? next_piece(u.text, pos, u.text.size(), 48) : u.text.size();
    const std::uint32_t np = extract_features(s, u.text.substr(pos, stop - pos), g.features, n_kind, u.letters);
    pos = stop;
    n += np;
    add_feature_weights(g, s, np, acc, batch, hits, P.weight_step);
    if (pos < u.text.size()) {  // more to read: is the unit decided already?
      drain_batch(hits, acc, P.weight_step, pad);
      batch = 0;
      make_scores(g, s, priors, hits, n_kind, n, sc);
      float best, second;  // the entries past the group's languages are kNoScore
      top_two(sc, pad, best, second);
      if (second > kNoScore / 2 && P.calibration_a * (static_cast<double>(best) - second) + P.calibration_b >= s.exit_z) break;
    }
  }
  drain_batch(hits, acc, P.weight_step, pad);
  make_scores(g, s, priors, hits, n_kind, n, sc);
  u.features = static_cast<float>(n);
}

LANGSIFT_INLINE void score(const model& m, const detect_options& opt, detect_scratch& s) {
  // Only scored units' entries are read, and scoring writes them all, so the buffers are grown,
  // never cleared or filled per call.
  if (s.scores.size() < s.score_size) s.scores.resize(s.score_size);
  if (s.hits.size() < s.score_size) s.hits.resize(s.score_size);
  if (s.by_type.size() < 4 * 256) s.by_type.resize(4 * 256);  // group_table::add_all's scratch
  if (s.use_rank) s.acc.assign(m.language_count(), 0.0f);
  for (std::size_t i = 0, j; i < s.units.size(); i = j) {
    j = run_end(s, i);
    if (!s.units[i].g) continue;
    if (s.use_rank) {
      score_run_by_rank(m, opt, s, i, j);
      continue;
    }
    const std::size_t stride = skims(opt, s, i, j) ? skim_stride(j - i) : 1;
    for (std::size_t k = i; k < j; ++k)
      if ((k - i) % stride == 0 || k == j - 1) score_unit(m, opt, s, s.units[k]);
  }
}

}  // namespace detect_stage
}  // namespace detail
}  // namespace v1
}  // namespace langsift
