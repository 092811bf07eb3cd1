// langsift — training: count n-gram features of per-language corpora and write a model.
//
// Used by `langsift-train` and by the tests; header-only so that a user can train a model for a
// new language in-process. Deterministic: the same corpora and configuration give the same bytes.
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
  /// Orders 3 and 4 and words: as accurate as all orders on lingua-dev, at 2 lookups per letter.
  float order_weight[feature_kind_count] = {0, 0, 0, 2, 4, 0, 8};
  float floor_offset = 4.0f;        ///< floor = lowest kept log-probability − this (per kind)
  unsigned weight_bits = 0;         ///< quantisation of weights (0: as many bits as the layout has)
  unsigned fingerprint_bits = 12;   ///< per slot; false-positive rate ≈ 8 / 2^bits per absent feature
  double max_load = 0.95;           ///< slots used / slots
  /// Every fit_sample_every-th piece of text (up to fit_sample_lines of them) is not counted but
  /// kept aside to estimate each language's expected fit on text it was not trained on.
  std::size_t fit_sample_lines = 400;
  std::size_t fit_sample_every = 50;
  /// confidence = logistic(a × margin + b): fitted on held-out lines (see models/README.md)
  float calibration_a = 0.0196f, calibration_b = -0.44f;
};

/// Feature counts of one language's corpus.
class language_counts {
 public:
  explicit language_counts(std::string code, const ngram_config& features = {}) : code_(std::move(code)), features_(features) {}

  /// Adds a piece of text (a line, a paragraph...). Returns the number of letters counted.
  std::size_t add_text(std::string_view text) {
    if (sample_every_ && ++pieces_ % sample_every_ == 0 && sample_.size() < sample_limit_ && !text.empty()) {
      sample_.emplace_back(text);  // held out: estimates the expected fit on unseen text
      return 0;
    }
    bytes_ += text.size();
    const std::size_t letters = for_each_feature(text, features_, [&](std::uint64_t h, unsigned kind) {
      auto& e = counts_[h];
      if (e.count++ == 0) e.kind = static_cast<std::uint8_t>(kind);
      ++totals_[kind];
    });
    scripts_.add(text);
    return letters;
  }

  const std::string& code() const noexcept { return code_; }
  std::uint64_t bytes() const noexcept { return bytes_; }
  /// The script most of the letters are in, as a run script (Han with kana is `japanese`,
  /// Hangul `korean`; see script_histogram::dominant).
  script main_script() const noexcept { return scripts_.dominant(); }
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
  std::uint64_t totals_[feature_kind_count] = {};
  script_histogram scripts_;
  std::uint64_t bytes_ = 0;
  std::vector<std::string> sample_;
  std::size_t sample_limit_ = 400, sample_every_ = 50, pieces_ = 0;
};

/// What a model build reports about itself (for models/README.md and the trainer's output).
struct build_report {
  std::size_t features = 0, lists = 0, postings = 0, inline_postings = 0, buckets = 0, bytes = 0;
  double load = 0;
};

namespace detail {

struct kept_feature {
  std::uint64_t hash;
  std::uint32_t count;
  std::uint8_t kind;
};

inline std::vector<kept_feature> select_features(const language_counts& c, const train_config& cfg,
                                                 std::size_t limit, std::uint32_t min_count, bool ngrams_only) {
  std::vector<kept_feature> v;
  v.reserve(c.counts().size());
  for (const auto& [h, e] : c.counts()) {
    if (e.count < min_count) continue;
    if (ngrams_only && e.kind == feature_word) continue;
    if (!ngrams_only && cfg.order_weight[e.kind] <= 0) continue;
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
inline void pad8(std::string& out) {
  while (out.size() % 8) out.push_back('\0');
}

}  // namespace detail

/// Builds a model from the counts of each language. Throws std::invalid_argument on a
/// configuration the format cannot hold (too many languages or posting lists).
inline std::string build_model(const std::vector<const language_counts*>& langs, const train_config& cfg,
                               std::string_view info, build_report* report = nullptr) {
  using detail::kept_feature;
  const std::size_t L = langs.size();
  if (L == 0) throw std::invalid_argument("no languages to train");
  if (L > 65535) throw std::invalid_argument("too many languages");
  unsigned lang_bits = 1;
  while ((std::size_t{1} << lang_bits) < L) ++lang_bits;
  const unsigned fp_bits = cfg.fingerprint_bits;
  if (fp_bits < 8 || fp_bits > 20) throw std::invalid_argument("fingerprint bits must be 8..20");
  if (fp_bits + 1 + lang_bits + 4 > 32) throw std::invalid_argument("too many languages for the slot layout");
  const unsigned inline_weight_bits = 32 - fp_bits - 1 - lang_bits;
  const unsigned posting_bytes = lang_bits <= 8 ? 2 : 4;
  const unsigned list_weight_bits = 8 * posting_bytes - lang_bits;
  const unsigned weight_bits = cfg.weight_bits ? std::min({cfg.weight_bits, inline_weight_bits, list_weight_bits}) : std::min(inline_weight_bits, list_weight_bits);

  // 1. Per language: kept features, log-probabilities, floors.
  struct lang_model {
    std::vector<kept_feature> kept;
    std::vector<float> weight;  // unquantised, parallel to kept
    float floor[feature_kind_count] = {};
    std::vector<std::uint64_t> rank;  // rank profile, most frequent first
  };
  std::vector<lang_model> lm(L);
  float max_weight = 0;
  for (std::size_t l = 0; l < L; ++l) {
    const language_counts& c = *langs[l];
    lang_model& m = lm[l];
    m.kept = detail::select_features(c, cfg, cfg.top_k, cfg.min_count, false);
    double min_lp[feature_kind_count];
    for (double& x : min_lp) x = 0;
    for (const auto& f : m.kept) {
      const double lp = std::log(static_cast<double>(f.count) / static_cast<double>(c.total(f.kind)));
      min_lp[f.kind] = std::min(min_lp[f.kind], lp);
    }
    for (unsigned k = 1; k < feature_kind_count; ++k) {
      double base = min_lp[k];
      if (base == 0) base = c.total(k) ? std::log(1.0 / static_cast<double>(c.total(k) + 1)) : -20.0;
      m.floor[k] = static_cast<float>(cfg.order_weight[k] * (base - cfg.floor_offset));
    }
    m.weight.resize(m.kept.size());
    for (std::size_t i = 0; i < m.kept.size(); ++i) {
      const auto& f = m.kept[i];
      const double lp = std::log(static_cast<double>(f.count) / static_cast<double>(c.total(f.kind)));
      m.weight[i] = static_cast<float>(cfg.order_weight[f.kind] * lp) - m.floor[f.kind];
      max_weight = std::max(max_weight, m.weight[i]);
    }
    for (const auto& f : detail::select_features(c, cfg, cfg.rank_profile_size, 1, true)) m.rank.push_back(f.hash);
  }
  const float step = max_weight > 0 ? max_weight / static_cast<float>((1u << weight_bits) - 1) : 1.0f;
  auto quantise = [&](float w) -> std::uint32_t {
    const long q = std::lround(w / step - 0.5);
    return static_cast<std::uint32_t>(std::clamp<long>(q, 0, (1l << weight_bits) - 1));
  };

  // 2. The multi-profile table: feature -> postings (lang, q), lists de-duplicated.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> postings;  // (lang << 16 | q)
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t i = 0; i < lm[l].kept.size(); ++i)
      postings[lm[l].kept[i].hash].push_back(static_cast<std::uint32_t>(l) << 16 | quantise(lm[l].weight[i]));
  std::vector<std::uint64_t> hashes;
  hashes.reserve(postings.size());
  for (auto& [h, v] : postings) hashes.push_back(h);
  std::sort(hashes.begin(), hashes.end());

  std::map<std::vector<std::uint32_t>, std::uint32_t> list_ids;
  std::vector<std::uint32_t> list_offsets{0};
  std::vector<std::uint32_t> list_postings;
  std::vector<std::uint32_t> slot_value(hashes.size());
  build_report rep;
  const unsigned shift = 32 - fp_bits, payload_bits = shift - 1;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    auto& v = postings[hashes[i]];
    std::sort(v.begin(), v.end());
    std::uint32_t payload;
    if (v.size() == 1) {
      payload = (1u << payload_bits) | (v[0] >> 16) << inline_weight_bits | (v[0] & 0xFFFF);
      ++rep.inline_postings;
    } else {
      auto [it, fresh] = list_ids.emplace(v, static_cast<std::uint32_t>(list_ids.size()));
      if (fresh) {
        for (std::uint32_t x : v) list_postings.push_back((x >> 16) << list_weight_bits | (x & 0xFFFF));
        list_offsets.push_back(static_cast<std::uint32_t>(list_postings.size()));
      }
      payload = it->second;
      if (payload >= (1u << payload_bits)) throw std::invalid_argument("too many distinct posting lists; lower top_k");
    }
    slot_value[i] = payload;
  }
  rep.features = hashes.size();
  rep.lists = list_ids.size();
  rep.postings = list_postings.size();

  // 3. Bucketed cuckoo hashing: 4 slots per bucket, two candidate buckets per feature.
  std::uint32_t buckets = static_cast<std::uint32_t>(
      std::max<double>(1, std::ceil(static_cast<double>(hashes.size()) / (4 * cfg.max_load))));
  std::vector<std::uint32_t> slots;
  std::vector<std::int64_t> slot_item;  // index into hashes, -1 empty
  for (int attempt = 0;; ++attempt) {
    slots.assign(std::size_t{buckets} * 4, 0);
    slot_item.assign(std::size_t{buckets} * 4, -1);
    std::uint64_t rng = 0x853c49e6748fea9bull;
    bool ok = true;
    for (std::size_t i = 0; i < hashes.size() && ok; ++i) {
      std::int64_t item = static_cast<std::int64_t>(i);
      for (int kick = 0; kick < 2000; ++kick) {
        const auto a = detail::address_of(hashes[static_cast<std::size_t>(item)], buckets, fp_bits);
        bool placed = false;
        for (std::uint32_t b : {a.b1, a.b2}) {
          for (int s = 0; s < 4 && !placed; ++s)
            if (slot_item[std::size_t{b} * 4 + s] < 0) {
              slot_item[std::size_t{b} * 4 + s] = item;
              placed = true;
            }
          if (placed) break;
        }
        if (placed) {
          item = -1;
          break;
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint32_t b = (rng >> 40) & 1 ? a.b1 : a.b2;
        const std::size_t s = std::size_t{b} * 4 + ((rng >> 33) & 3);
        std::swap(item, slot_item[s]);
      }
      if (item >= 0) ok = false;
    }
    if (ok) break;
    if (attempt > 20) throw std::runtime_error("could not build the feature table");
    buckets = static_cast<std::uint32_t>(buckets * 1.03) + 1;
  }
  // A feature must not collide with another on (bucket, fingerprint): the first match wins at
  // lookup, so two features sharing a candidate bucket and fingerprint would shadow each other.
  // Such pairs are rare (~ features × 8 / 2^fp_bits); the less frequent one's postings are lost,
  // which only makes that feature absent. Count them for the report.
  for (std::size_t s = 0; s < slots.size(); ++s) {
    if (slot_item[s] < 0) continue;
    const std::size_t i = static_cast<std::size_t>(slot_item[s]);
    const auto a = detail::address_of(hashes[i], buckets, fp_bits);
    slots[s] = a.fp << shift | slot_value[i];
  }
  rep.buckets = buckets;
  rep.load = static_cast<double>(hashes.size()) / (4.0 * buckets);

  // 4. Expected fit of each language on a sample of its own text (for the normalised score).
  std::vector<float> expected_fit(L, 0);
  for (std::size_t l = 0; l < L; ++l) {
    std::unordered_map<std::uint64_t, float> w;
    w.reserve(lm[l].kept.size());
    for (std::size_t i = 0; i < lm[l].kept.size(); ++i)
      w.emplace(lm[l].kept[i].hash, (static_cast<float>(quantise(lm[l].weight[i])) + 0.5f) * step);
    double sum = 0;
    std::size_t n = 0;
    for (const auto& line : langs[l]->sample()) {
      double hit = 0;
      std::size_t feats = 0;
      for_each_feature(line, cfg.features, [&](std::uint64_t h, unsigned kind) {
        if (cfg.order_weight[kind] <= 0 || kind < 3) return;  // the fit counts orders 3..5 and words
        ++feats;
        auto it = w.find(h);
        if (it != w.end()) hit += it->second;
      });
      if (feats) {
        sum += hit / static_cast<double>(feats);
        ++n;
      }
    }
    expected_fit[l] = n ? static_cast<float>(sum / static_cast<double>(n)) : 0.0f;
  }

  // 5. Serialise.
  model_params P{};
  P.min_order = cfg.features.min_order;
  P.max_order = cfg.features.max_order;
  P.words = cfg.features.words ? 1 : 0;
  P.lang_bits = static_cast<std::uint8_t>(lang_bits);
  P.fp_bits = static_cast<std::uint8_t>(fp_bits);
  P.inline_weight_bits = static_cast<std::uint8_t>(inline_weight_bits);
  P.posting_bytes = static_cast<std::uint8_t>(posting_bytes);
  P.list_weight_bits = static_cast<std::uint8_t>(list_weight_bits);
  for (unsigned k = 0; k < feature_kind_count; ++k) P.order_weight[k] = cfg.order_weight[k];
  P.weight_step = step;
  P.bucket_count = buckets;
  P.feature_count = static_cast<std::uint32_t>(hashes.size());
  P.list_count = static_cast<std::uint32_t>(list_ids.size());
  P.posting_count = static_cast<std::uint32_t>(list_postings.size());
  P.rank_profile_size = cfg.rank_profile_size;
  P.language_count = static_cast<std::uint32_t>(L);
  P.calibration_a = cfg.calibration_a;
  P.calibration_b = cfg.calibration_b;

  std::vector<language_record> records(L);
  for (std::size_t l = 0; l < L; ++l) {
    language_record& r = records[l];
    std::memset(&r, 0, sizeof r);
    const std::string& code = langs[l]->code();
    if (code.empty() || code.size() >= sizeof r.code) throw std::invalid_argument("bad language code '" + code + "'");
    std::memcpy(r.code, code.data(), code.size());
    r.script = static_cast<std::uint8_t>(langs[l]->main_script());
    r.train_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(langs[l]->bytes(), 0xFFFFFFFFu));
    for (unsigned k = 0; k < feature_kind_count; ++k) r.floor[k] = lm[l].floor[k];
    r.expected_fit = expected_fit[l];
  }

  struct section {
    std::uint32_t tag;
    std::string data;
  };
  std::vector<section> secs;
  secs.push_back({model_tag("INFO"), std::string(info)});
  {
    std::string s;
    detail::put(s, P);
    secs.push_back({model_tag("PARM"), std::move(s)});
  }
  {
    std::string s;
    detail::put_bytes(s, records.data(), records.size() * sizeof(language_record));
    secs.push_back({model_tag("LANG"), std::move(s)});
  }
  {
    std::string s;
    detail::put_bytes(s, slots.data(), slots.size() * 4);
    secs.push_back({model_tag("SLOT"), std::move(s)});
  }
  {
    std::string s;
    detail::put_bytes(s, list_offsets.data(), list_offsets.size() * 4);
    secs.push_back({model_tag("LOFF"), std::move(s)});
  }
  {
    std::string s;
    for (std::uint32_t x : list_postings) {
      if (posting_bytes == 2)
        detail::put(s, static_cast<std::uint16_t>(x));
      else
        detail::put(s, x);
    }
    secs.push_back({model_tag("POST"), std::move(s)});
  }
  {
    std::string s;
    detail::put(s, static_cast<std::uint32_t>(L));
    std::uint32_t off = 0;
    detail::put(s, off);
    for (std::size_t l = 0; l < L; ++l) {
      off += static_cast<std::uint32_t>(lm[l].rank.size());
      detail::put(s, off);
    }
    detail::pad8(s);
    for (std::size_t l = 0; l < L; ++l)
      for (std::uint64_t h : lm[l].rank) detail::put(s, h);
    secs.push_back({model_tag("RANK"), std::move(s)});
  }

  std::string out(64, '\0');
  const std::size_t table_at = out.size();
  out.append(secs.size() * 24, '\0');
  detail::pad8(out);
  for (std::size_t i = 0; i < secs.size(); ++i) {
    const std::uint64_t off = out.size(), size = secs[i].data.size();
    out += secs[i].data;
    detail::pad8(out);
    char* e = out.data() + table_at + i * 24;
    std::memcpy(e, &secs[i].tag, 4);
    std::memcpy(e + 8, &off, 8);
    std::memcpy(e + 16, &size, 8);
  }
  std::memcpy(out.data(), kModelMagic, 8);
  const std::uint32_t version = kModelFormatVersion, header = 64, nsec = static_cast<std::uint32_t>(secs.size());
  const std::uint64_t file_size = out.size();
  std::memcpy(out.data() + 8, &version, 4);
  std::memcpy(out.data() + 12, &header, 4);
  std::memcpy(out.data() + 16, &file_size, 8);
  std::memcpy(out.data() + 32, &nsec, 4);
  const std::uint64_t sum = XXH3_64bits(out.data() + 64, out.size() - 64);
  std::memcpy(out.data() + 24, &sum, 8);
  rep.bytes = out.size();
  if (report) *report = rep;
  return out;
}

}  // namespace v1
}  // namespace langsift
