// langsift — implementation of langsift/train.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include <unordered_set>

#include "langsift/train.hpp"
#include "langsift/detail/binio.hpp"
#include "langsift/detail/xxhash.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE std::size_t language_counts::add_text(std::string_view text) {
  if (sample_every_ && ++pieces_ % sample_every_ == 0 && sample_.size() < sample_limit_ && !text.empty()) {
    sample_.emplace_back(text);  // held out: estimates the expected fit on unseen text
    return 0;
  }
  bytes_ += text.size();
  scripts_.add(text);
  return for_each_counted_feature(text, [&](std::uint64_t h, unsigned kind) {
    auto& e = counts_[h];
    if (e.count++ == 0) e.kind = static_cast<std::uint8_t>(kind);
    ++totals_[kind];
  });
}

LANGSIFT_INLINE void language_counts::add_listed_word(std::string_view word, double p) {
  for_each_counted_feature(word, [&](std::uint64_t h, unsigned kind) {
    if (kind == feature_word) listed_[h] += p;
  });
}

namespace detail {

struct kept_feature {
  std::uint64_t hash;
  std::uint32_t count;
  std::uint8_t kind;
};

inline std::vector<kept_feature> select_features(const language_counts& c, const float* weight, std::size_t limit,
                                                 std::uint32_t min_count, bool ngrams_only) {
  std::vector<kept_feature> v;
  v.reserve(c.counts().size());
  for (const auto& [h, e] : c.counts()) {
    if (e.count < min_count) continue;
    if (ngrams_only && e.kind == feature_word) continue;
    if (!ngrams_only && weight[e.kind] <= 0) continue;
    v.push_back({h, e.count, e.kind});
  }
  auto by_count = [](const kept_feature& a, const kept_feature& b) {
    return a.count != b.count ? a.count > b.count : a.hash < b.hash;
  };
  if (v.size() > limit) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(limit), v.end(), by_count);
    v.resize(limit);
  }
  std::sort(v.begin(), v.end(), by_count);
  return v;
}

inline void put_bytes(std::string& out, const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }
template <class T>
inline void put(std::string& out, const T& v) {
  put_bytes(out, &v, sizeof v);
}

// Stage 1 of build_model, for one language: its kept features and their unquantised weights,
// the floor of each feature kind, and its rank profile.
struct lang_model {
  std::vector<kept_feature> kept;
  std::vector<float> weight;  // unquantised, parallel to kept
  float floor[feature_kind_count] = {};
  std::vector<std::uint64_t> rank;  // rank profile, most frequent first
};

inline lang_model build_lang_model(const language_counts& c, const train_config& cfg) {
  lang_model m;
  const float* W = cfg.weights_for(c.main_script());
  m.kept = select_features(c, W, cfg.top_k, cfg.min_count, false);
  // log P(feature): its share of the corpus' features of its kind, and for words of a language
  // with a word list, mixed with the list's share (listed words are all kept).
  const double beta = W[feature_word] > 0 && !c.listed().empty() ? cfg.word_list_weight : 0.0;
  const std::size_t corpus_kept = m.kept.size();  // the floors come from these
  if (beta > 0) {
    std::unordered_set<std::uint64_t> have;
    for (const auto& f : m.kept) have.insert(f.hash);
    std::vector<kept_feature> extra;
    for (const auto& [h, p] : c.listed()) {
      if (have.count(h) || !(p > 0)) continue;
      const auto it = c.counts().find(h);
      extra.push_back({h, it == c.counts().end() ? 0u : it->second.count, static_cast<std::uint8_t>(feature_word)});
    }
    std::sort(extra.begin(), extra.end(), [](const kept_feature& a, const kept_feature& b) { return a.hash < b.hash; });
    m.kept.insert(m.kept.end(), extra.begin(), extra.end());
  }
  std::vector<double> lp(m.kept.size());  // once per feature: the floors and the weights read it
  for (std::size_t i = 0; i < m.kept.size(); ++i) {
    const kept_feature& f = m.kept[i];
    const double corpus = static_cast<double>(f.count) / static_cast<double>(c.total(f.kind));
    if (beta <= 0 || f.kind != feature_word) {
      lp[i] = std::log(corpus);
      continue;
    }
    const auto it = c.listed().find(f.hash);  // a mixture: unlisted words keep (1 − b) of their share
    lp[i] = std::log((1 - beta) * corpus + beta * (it == c.listed().end() ? 0.0 : it->second));
  }
  double min_lp[feature_kind_count];
  for (double& x : min_lp) x = 0;
  // The floors come from the corpus' features, not from listed words: a listed word's share
  // may be far below anything the corpus shows, and would make every unseen feature cost more.
  const std::size_t floor_from = cfg.floor_rank ? std::min<std::size_t>(corpus_kept, cfg.floor_rank) : corpus_kept;
  for (std::size_t i = 0; i < floor_from; ++i) min_lp[m.kept[i].kind] = std::min(min_lp[m.kept[i].kind], lp[i]);
  for (unsigned k = 1; k < feature_kind_count; ++k) {
    double base = min_lp[k];
    if (base == 0) base = c.total(k) ? std::log(1.0 / static_cast<double>(c.total(k) + 1)) : -20.0;
    m.floor[k] = static_cast<float>(W[k] * (base - cfg.floor_offset));
  }
  m.weight.resize(m.kept.size());
  for (std::size_t i = 0; i < m.kept.size(); ++i)
    m.weight[i] = static_cast<float>(W[m.kept[i].kind] * lp[i]) - m.floor[m.kept[i].kind];
  for (const auto& f : select_features(c, W, cfg.rank_profile_size, 1, true)) m.rank.push_back(f.hash);
  return m;
}

// Weights are quantised to q in 1..255 (weight = q × step): 8 bits lose nothing measurable on
// lingua-dev (6 bits neither), and let a dense row hold one byte per language.
struct weight_quantiser {
  unsigned qmax;
  float step;
  weight_quantiser(const std::vector<lang_model>& lm, unsigned weight_bits) {
    float max_weight = 0;
    for (const lang_model& m : lm)
      for (float w : m.weight) max_weight = std::max(max_weight, w);
    qmax = weight_bits ? (1u << std::min(weight_bits, 8u)) - 1 : 255;
    step = max_weight > 0 ? max_weight / static_cast<float>(qmax) : 1.0f;
  }
  std::uint32_t operator()(float w) const {
    return static_cast<std::uint32_t>(std::clamp<long>(std::lround(w / step), 1, static_cast<long>(qmax)));
  }
};

// Stage 2: the script groups, the languages written in each script, in language order.
struct script_groups {
  std::vector<script> group_script;
  std::vector<std::uint16_t> lang_group, lang_local;  // per language: its group, its index there
  std::vector<std::vector<std::uint16_t>> group_langs;
  std::size_t size() const { return group_script.size(); }
};

inline script_groups group_by_script(const std::vector<const language_counts*>& langs) {
  const std::size_t L = langs.size();
  script_groups s;
  s.lang_group.resize(L);
  s.lang_local.resize(L);
  for (std::size_t l = 0; l < L; ++l) {
    const script sc = langs[l]->main_script();
    auto it = std::find(s.group_script.begin(), s.group_script.end(), sc);
    std::size_t g = static_cast<std::size_t>(it - s.group_script.begin());
    if (it == s.group_script.end()) {
      s.group_script.push_back(sc);
      s.group_langs.emplace_back();
    }
    s.lang_group[l] = static_cast<std::uint16_t>(g);
    s.lang_local[l] = static_cast<std::uint16_t>(s.group_langs[g].size());
    s.group_langs[g].push_back(static_cast<std::uint16_t>(l));
  }
  return s;
}

// Stage 3, the table of one script group: its record and arrays.
struct group_build {
  group_record rec{};
  std::vector<std::uint32_t> slots, lists, short_lists;  // 8 and 4 entries per record
  std::vector<std::uint8_t> rows;
};

// The record's layout fields for a group of n languages (throws if the slot layout cannot hold it).
inline group_record group_layout(std::size_t n, script sc, const train_config& cfg, unsigned payload_bits) {
  group_record rec{};
  rec.script = static_cast<std::uint8_t>(sc);
  rec.size = static_cast<std::uint32_t>(n);
  rec.size_pad = static_cast<std::uint32_t>((n + 31) / 32 * 32);
  unsigned lang_bits = 1;
  while ((std::size_t{1} << lang_bits) < n) ++lang_bits;
  if (lang_bits + 1 > payload_bits) throw std::invalid_argument("too many languages in one script for the slot layout");
  rec.lang_bits = static_cast<std::uint8_t>(lang_bits);
  rec.inline_q_bits = static_cast<std::uint8_t>(std::min(8u, payload_bits - lang_bits));
  if (rec.inline_q_bits < 8 || rec.size_pad > 512)
    throw std::invalid_argument("too many languages in one script (at most 512)");
  rec.entry_bytes = n <= 256 ? 2 : 4;
  rec.kinds = weighted_kinds(cfg.weights_for(sc));
  return rec;
}

// Encodes each feature's postings (local language << 8 | q, sorted) as a slot value: one posting
// inline in the slot, 2..4 in a short list record, 5..8 in a list record, more in a dense row;
// records and rows are de-duplicated, and counted in B.rec and rep. Returns the values, parallel
// to `postings`.
inline std::vector<std::uint32_t> encode_postings(std::vector<std::vector<std::uint32_t>>& postings, group_build& B,
                                                  unsigned payload_bits, build_report& rep) {
  std::map<std::vector<std::uint32_t>, std::uint32_t> list_ids, short_list_ids, row_ids;
  std::vector<std::uint32_t> value(postings.size());
  for (std::size_t i = 0; i < postings.size(); ++i) {
    auto& v = postings[i];
    std::sort(v.begin(), v.end());
    std::uint32_t type, payload;
    if (v.size() == 1) {
      type = 0;
      payload = (v[0] >> 8) << B.rec.inline_q_bits | (v[0] & 0xFF);
      ++rep.inline_postings;
    } else if (v.size() > group_table::kListEntries) {
      type = 2;
      auto [it, fresh] = row_ids.emplace(v, static_cast<std::uint32_t>(row_ids.size()));
      if (fresh) {
        B.rows.resize(B.rows.size() + B.rec.size_pad, 0);
        std::uint8_t* row = B.rows.data() + B.rows.size() - B.rec.size_pad;
        for (std::uint32_t x : v) row[x >> 8] = static_cast<std::uint8_t>(x & 0xFF);
      }
      payload = it->second;
    } else {
      const bool small = v.size() <= group_table::kShortListEntries;
      type = small ? 3 : 1;
      auto& ids = small ? short_list_ids : list_ids;
      auto& records = small ? B.short_lists : B.lists;
      const std::size_t cap = small ? group_table::kShortListEntries : group_table::kListEntries;
      auto [it, fresh] = ids.emplace(v, static_cast<std::uint32_t>(ids.size()));
      if (fresh) {
        records.insert(records.end(), v.begin(), v.end());
        records.resize(records.size() + cap - v.size(), 0);
      }
      payload = it->second;
    }
    if (payload >= (1u << payload_bits)) throw std::invalid_argument("too many distinct posting lists; lower top_k");
    value[i] = type << payload_bits | payload;
  }
  B.rec.list_count = static_cast<std::uint32_t>(list_ids.size());
  B.rec.short_list_count = static_cast<std::uint32_t>(short_list_ids.size());
  B.rec.row_count = static_cast<std::uint32_t>(row_ids.size());
  rep.lists += list_ids.size() + short_list_ids.size();
  rep.postings += B.lists.size() + B.short_lists.size();
  rep.rows += row_ids.size();
  return value;
}

// Bucketed cuckoo hashing: 4 slots per bucket, two candidate buckets per feature. Fills B.slots
// (fingerprint and value) and B.rec.bucket_count.
inline void place_in_buckets(const std::vector<std::uint64_t>& hashes, const std::vector<std::uint32_t>& value,
                             group_build& B, double max_load, unsigned fp_bits) {
  std::uint32_t buckets = static_cast<std::uint32_t>(
      std::max<double>(1, std::ceil(static_cast<double>(hashes.size()) / (4 * max_load))));
  std::vector<std::int64_t> slot_item;  // index into hashes, -1 empty
  for (int attempt = 0;; ++attempt) {
    slot_item.assign(std::size_t{buckets} * 4, -1);
    std::uint64_t rng = 0x853c49e6748fea9bull;
    bool ok = true;
    for (std::size_t i = 0; i < hashes.size() && ok; ++i) {
      std::int64_t item = static_cast<std::int64_t>(i);
      for (int kick = 0; kick < 2000 && item >= 0; ++kick) {
        const auto a = address_of(hashes[static_cast<std::size_t>(item)], buckets, fp_bits);
        for (std::uint32_t b : {a.b1, a.b2})
          for (int s = 0; s < 4 && item >= 0; ++s)
            if (slot_item[std::size_t{b} * 4 + s] < 0) {
              slot_item[std::size_t{b} * 4 + s] = item;
              item = -1;
            }
        if (item < 0) break;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint32_t b = (rng >> 40) & 1 ? a.b1 : a.b2;
        std::swap(item, slot_item[std::size_t{b} * 4 + ((rng >> 33) & 3)]);
      }
      if (item >= 0) ok = false;
    }
    if (ok) break;
    if (attempt > 20) throw std::runtime_error("could not build the feature table");
    buckets = static_cast<std::uint32_t>(buckets * 1.03) + 1;
  }
  B.slots.assign(std::size_t{buckets} * 4, 0);
  for (std::size_t s = 0; s < B.slots.size(); ++s) {
    if (slot_item[s] < 0) continue;
    const std::size_t i = static_cast<std::size_t>(slot_item[s]);
    B.slots[s] = address_of(hashes[i], buckets, fp_bits).fp << (32 - fp_bits) | value[i];
  }
  B.rec.bucket_count = buckets;
}

// Stage 3 for group g: feature -> (local language, q) postings, encoded and placed in buckets.
inline group_build build_group(const script_groups& groups, std::size_t g, const std::vector<lang_model>& lm,
                               const weight_quantiser& quantise, const train_config& cfg, unsigned fp_bits,
                               build_report& rep) {
  const unsigned payload_bits = 32 - fp_bits - 2;
  group_build B;
  B.rec = group_layout(groups.group_langs[g].size(), groups.group_script[g], cfg, payload_bits);
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_hash;  // (local << 8 | q)
  for (std::uint16_t l : groups.group_langs[g])
    for (std::size_t i = 0; i < lm[l].kept.size(); ++i)
      by_hash[lm[l].kept[i].hash].push_back(static_cast<std::uint32_t>(groups.lang_local[l]) << 8 |
                                            quantise(lm[l].weight[i]));
  std::vector<std::uint64_t> hashes;
  hashes.reserve(by_hash.size());
  for (auto& [h, v] : by_hash) hashes.push_back(h);
  std::sort(hashes.begin(), hashes.end());
  std::vector<std::vector<std::uint32_t>> postings(hashes.size());  // in hash order
  for (std::size_t i = 0; i < hashes.size(); ++i) postings[i] = std::move(by_hash[hashes[i]]);

  const std::vector<std::uint32_t> value = encode_postings(postings, B, payload_bits, rep);
  rep.features += hashes.size();
  place_in_buckets(hashes, value, B, cfg.max_load, fp_bits);
  rep.buckets += B.rec.bucket_count;
  return B;
}

// Stage 4: the expected fit of a language on held-out text of its own (for the normalised
// score): over its held-out sample lines, the mean of a line's quantised weights (0 for a
// feature not kept) per feature of a weighted kind.
inline float held_out_fit(const language_counts& c, const lang_model& m, const weight_quantiser& quantise,
                          const train_config& cfg) {
  std::unordered_map<std::uint64_t, float> w;
  w.reserve(m.kept.size());
  for (std::size_t i = 0; i < m.kept.size(); ++i)
    w.emplace(m.kept[i].hash, static_cast<float>(quantise(m.weight[i])) * quantise.step);
  double sum = 0;
  std::size_t n = 0;
  const float* W = cfg.weights_for(c.main_script());
  for (const auto& line : c.sample()) {
    double hit = 0;
    std::size_t feats = 0;
    c.for_each_counted_feature(line, [&](std::uint64_t h, unsigned kind) {
      if (W[kind] <= 0) return;
      ++feats;
      auto it = w.find(h);
      if (it != w.end()) hit += it->second;
    });
    if (feats) {
      sum += hit / static_cast<double>(feats);
      ++n;
    }
  }
  return n ? static_cast<float>(sum / static_cast<double>(n)) : 0.0f;
}

// Stage 5, serialisation: the PARM section.
inline model_params model_params_of(const train_config& cfg, unsigned fp_bits, float step, std::size_t L,
                                    std::size_t G) {
  model_params P{};
  P.min_order = cfg.features.min_order;
  P.max_order = cfg.features.max_order;
  P.words = cfg.features.words ? 1 : 0;
  P.fp_bits = static_cast<std::uint8_t>(fp_bits);
  for (unsigned k = 0; k < feature_kind_count; ++k) P.order_weight[k] = cfg.order_weight[k];
  P.weight_step = step;
  P.language_count = static_cast<std::uint32_t>(L);
  P.group_count = static_cast<std::uint32_t>(G);
  P.rank_profile_size = cfg.rank_profile_size;
  P.calibration_a = cfg.calibration_a;
  P.calibration_b = cfg.calibration_b;
  return P;
}

// The LANG section's record of language l.
inline language_record language_record_of(const language_counts& c, const lang_model& m, const script_groups& groups,
                                           std::size_t l, float fit) {
  language_record r;
  std::memset(&r, 0, sizeof r);
  const std::string& code = c.code();
  if (code.empty() || code.size() >= sizeof r.code) throw std::invalid_argument("bad language code '" + code + "'");
  std::memcpy(r.code, code.data(), code.size());
  r.script = static_cast<std::uint8_t>(c.main_script());
  r.group = groups.lang_group[l];
  r.local = groups.lang_local[l];
  r.train_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(c.bytes(), 0xFFFFFFFFu));
  for (unsigned k = 0; k < feature_kind_count; ++k) r.floor[k] = m.floor[k];
  r.expected_fit = fit;
  return r;
}

// Appends `bytes` to a TABL section at the next 64-byte boundary; returns its offset.
inline std::uint64_t place_aligned(std::string& tabl, const void* data, std::size_t bytes) {
  while (tabl.size() % 64) tabl.push_back('\0');
  const std::uint64_t off = tabl.size();
  put_bytes(tabl, data, bytes);
  return off;
}

// List entries are stored in entry_bytes (2 or 4) each.
inline std::uint64_t place_entries(std::string& tabl, const std::vector<std::uint32_t>& e, unsigned entry_bytes) {
  if (entry_bytes == 4) return place_aligned(tabl, e.data(), e.size() * 4);
  std::vector<std::uint16_t> e16(e.begin(), e.end());
  return place_aligned(tabl, e16.data(), e16.size() * 2);
}

// The GRUP and TABL sections: every group's record, and its arrays, each 64-byte aligned within
// TABL (the records get the arrays' offsets).
inline void group_sections(std::vector<group_build>& gb, const script_groups& groups, std::string& grup,
                           std::string& tabl) {
  for (std::size_t g = 0; g < gb.size(); ++g) {
    group_build& B = gb[g];
    B.rec.langs_offset = place_aligned(tabl, groups.group_langs[g].data(), groups.group_langs[g].size() * 2);
    B.rec.slots_offset = place_aligned(tabl, B.slots.data(), B.slots.size() * 4);
    B.rec.lists_offset = place_entries(tabl, B.lists, B.rec.entry_bytes);
    B.rec.short_lists_offset = place_entries(tabl, B.short_lists, B.rec.entry_bytes);
    B.rec.rows_offset = place_aligned(tabl, B.rows.data(), B.rows.size());
    put(grup, B.rec);
  }
  while (tabl.size() % 64) tabl.push_back('\0');
}

// The RANK section: the rank-order multi-profile hash, ready to use: sorted n-gram hashes and
// their (language, rank) postings.
inline std::string rank_section(const std::vector<lang_model>& lm) {
  struct entry {
    std::uint64_t h;
    std::uint16_t lang, rank;
  };
  std::vector<entry> all;
  for (std::size_t l = 0; l < lm.size(); ++l)
    for (std::size_t r = 0; r < lm[l].rank.size(); ++r)
      all.push_back({lm[l].rank[r], static_cast<std::uint16_t>(l), static_cast<std::uint16_t>(r)});
  std::sort(all.begin(), all.end(), [](const entry& a, const entry& b) { return a.h != b.h ? a.h < b.h : a.lang < b.lang; });
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> offsets;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i == 0 || all[i].h != all[i - 1].h) {
      keys.push_back(all[i].h);
      offsets.push_back(static_cast<std::uint32_t>(i));
    }
  offsets.push_back(static_cast<std::uint32_t>(all.size()));
  std::string x;
  put(x, static_cast<std::uint32_t>(keys.size()));
  put(x, static_cast<std::uint32_t>(all.size()));
  put_bytes(x, keys.data(), keys.size() * 8);
  put_bytes(x, offsets.data(), offsets.size() * 4);
  for (const auto& e : all) {
    put(x, e.lang);
    put(x, e.rank);
  }
  return x;
}

struct model_section {
  std::uint32_t tag;
  std::string data;
};

// The file: a 64-byte header, the section table (tag, offset, size: 24 bytes each), then the
// sections. Sections start 64-byte aligned in the file (the TABL arrays are then 64-byte aligned
// in memory for a model loaded from a 64-byte aligned buffer, such as the embedded one).
inline std::string assemble_model_file(const std::vector<model_section>& secs) {
  std::string out(64, '\0');
  const std::size_t table_at = out.size();
  out.append(secs.size() * 24, '\0');
  for (std::size_t i = 0; i < secs.size(); ++i) {
    while (out.size() % 64) out.push_back('\0');
    const std::uint64_t off = out.size(), size = secs[i].data.size();
    out += secs[i].data;
    char* e = out.data() + table_at + i * 24;
    binio::put_at(e, secs[i].tag);
    binio::put_at(e + 8, off);
    binio::put_at(e + 16, size);
  }
  while (out.size() % 64) out.push_back('\0');
  std::memcpy(out.data(), kModelMagic, 8);
  binio::put_at(out.data() + 8, std::uint32_t{kModelFormatVersion});
  binio::put_at(out.data() + 12, std::uint32_t{64});  // header size
  binio::put_at(out.data() + 16, std::uint64_t{out.size()});
  binio::put_at(out.data() + 32, static_cast<std::uint32_t>(secs.size()));
  binio::put_at(out.data() + 24, std::uint64_t{XXH3_64bits(out.data() + 64, out.size() - 64)});
  return out;
}

}  // namespace detail

LANGSIFT_INLINE std::string build_model(const std::vector<const language_counts*>& langs, const train_config& cfg,
                               std::string_view info, build_report* report) {
  using namespace detail;
  const std::size_t L = langs.size();
  if (L == 0) throw std::invalid_argument("no languages to train");
  if (L > 65535) throw std::invalid_argument("too many languages");
  const unsigned fp_bits = cfg.fingerprint_bits;
  if (fp_bits < 8 || fp_bits > 20) throw std::invalid_argument("fingerprint bits must be 8..20");
  // Every value is written in host order, which is the format's little-endian order only here.
  if (binio::host_order() != status::ok) throw std::invalid_argument("a big-endian host cannot write the model format");

  // 1. Per language: kept features, weights, floors, rank profile; one quantisation for all.
  std::vector<lang_model> lm;
  lm.reserve(L);
  for (const language_counts* c : langs) lm.push_back(build_lang_model(*c, cfg));
  const weight_quantiser quantise(lm, cfg.weight_bits);

  // 2. Script groups.
  const script_groups groups = group_by_script(langs);
  const std::size_t G = groups.size();

  // 3. Per group: its feature table.
  std::vector<group_build> gb;
  gb.reserve(G);
  build_report rep;
  for (std::size_t g = 0; g < G; ++g) gb.push_back(build_group(groups, g, lm, quantise, cfg, fp_bits, rep));
  rep.load = rep.buckets ? static_cast<double>(rep.features) / (4.0 * static_cast<double>(rep.buckets)) : 0;

  // 4. Expected fit of each language on held-out text of its own.
  std::vector<float> fit(L);
  for (std::size_t l = 0; l < L; ++l) fit[l] = held_out_fit(*langs[l], lm[l], quantise, cfg);

  // 5. Serialise.
  std::vector<language_record> records(L);
  for (std::size_t l = 0; l < L; ++l) records[l] = language_record_of(*langs[l], lm[l], groups, l, fit[l]);
  std::string grup, tabl;
  group_sections(gb, groups, grup, tabl);
  std::vector<model_section> secs;
  secs.push_back({model_tag("INFO"), std::string(info)});
  {
    std::string x;
    put(x, model_params_of(cfg, fp_bits, quantise.step, L, G));
    secs.push_back({model_tag("PARM"), std::move(x)});
  }
  {
    std::string x;
    put_bytes(x, records.data(), records.size() * sizeof(language_record));
    secs.push_back({model_tag("LANG"), std::move(x)});
  }
  secs.push_back({model_tag("GRUP"), std::move(grup)});
  secs.push_back({model_tag("TABL"), std::move(tabl)});
  secs.push_back({model_tag("RANK"), rank_section(lm)});

  std::string out = assemble_model_file(secs);
  rep.bytes = out.size();
  if (report) *report = rep;
  return out;
}

}  // namespace v1
}  // namespace langsift
