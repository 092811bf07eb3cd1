// langsift — implementation of langsift/url_train.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/url_train.hpp"

#include <memory>

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE std::vector<labelled_url> parse_labelled_urls(std::string_view text) {
  std::vector<labelled_url> rows;
  std::size_t i = 0;
  bool first = true;
  while (i < text.size()) {
    std::size_t j = text.find('\n', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view line = text.substr(i, j - i);
    i = j + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t t1 = line.find('\t');
    if (t1 == std::string_view::npos || t1 == 0) continue;
    if (first && line.substr(0, t1) == "language") {
      first = false;
      continue;
    }
    first = false;
    const std::size_t t2 = line.find('\t', t1 + 1);
    labelled_url r;
    r.language = std::string(line.substr(0, t1));
    r.url = std::string(line.substr(t1 + 1, t2 == std::string_view::npos ? std::string_view::npos : t2 - t1 - 1));
    if (t2 != std::string_view::npos) r.source = std::string(line.substr(t2 + 1));
    rows.push_back(std::move(r));
  }
  return rows;
}

namespace detail {

// A training example of train_url_linear: its language, its weight, and its distinct feature
// buckets, sorted.
struct url_linear_example {
  std::uint8_t y;
  float weight;
  std::vector<std::uint32_t> x;
};

// The classes of train_url_linear: the languages with at least o.min_urls rows, other than
// "und", sorted, at most 255.
inline std::vector<std::string> url_linear_classes(const std::unordered_map<std::string, std::size_t>& count,
                                                   const url_linear_options& o) {
  std::vector<std::string> langs;
  for (const auto& [l, c] : count)
    if (c >= o.min_urls && l != "und") langs.push_back(l);
  std::sort(langs.begin(), langs.end());
  if (langs.size() > 255) langs.resize(255);
  return langs;
}

// The rows of the classes as examples, features hashed to buckets (the hashing trick: the model
// is trained on what it will store); each example weighs (n_max / n_language)^o.balance. Marks
// the buckets that occur in `used`.
inline std::vector<url_linear_example> url_linear_examples(const std::vector<labelled_url>& rows,
                                                           const std::vector<std::string>& langs,
                                                           const std::unordered_map<std::string, std::size_t>& count,
                                                           const url_linear_options& o, std::vector<char>& used) {
  std::unordered_map<std::string, std::uint8_t> lidx;
  for (std::size_t i = 0; i < langs.size(); ++i) lidx[langs[i]] = static_cast<std::uint8_t>(i);
  std::vector<url_linear_example> ex;
  url_parts parts;
  auto f = std::make_unique<url_features>();
  std::size_t nmax = 0;
  for (const auto& l : langs) nmax = std::max(nmax, count.at(l));
  for (const auto& r : rows) {
    auto it = lidx.find(r.language);
    if (it == lidx.end()) continue;
    (void)parse_url(r.url, parts);
    url_extract_features(parts, o.features, *f);
    url_linear_example e;
    e.y = it->second;
    e.weight = static_cast<float>(std::pow(static_cast<double>(nmax) / static_cast<double>(count.at(r.language)), o.balance));
    for (std::size_t i = 0; i < f->count; ++i) {
      const auto b = static_cast<std::uint32_t>(url_model::bucket_of(f->hash[i], o.bits));
      used[b] = 1;
      e.x.push_back(b);
    }
    std::sort(e.x.begin(), e.x.end());
    e.x.erase(std::unique(e.x.begin(), e.x.end()), e.x.end());
    ex.push_back(std::move(e));
  }
  return ex;
}

// Softmax regression over K classes by stochastic gradient descent with AdaGrad steps and L2
// shrinkage: o.epochs passes over the examples, shuffled (seeded by o.seed). w is bucket-major
// (w[j * K + k]), b the biases; both start at 0.
inline void url_linear_sgd(const std::vector<url_linear_example>& ex, std::size_t K, const url_linear_options& o,
                           std::vector<float>& w, std::vector<float>& b) {
  std::vector<float> g2(w.size(), 0.f), gb(K, 0.f);
  std::vector<std::size_t> order(ex.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(o.seed);
  std::vector<float> s(K), p(K);
  for (unsigned epoch = 0; epoch < o.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t oi : order) {
      const url_linear_example& e = ex[oi];
      float mx = -1e30f;
      for (std::size_t k = 0; k < K; ++k) {
        float v = b[k];
        for (std::uint32_t j : e.x) v += w[j * K + k];
        s[k] = v;
        mx = std::max(mx, v);
      }
      float z = 0;
      for (std::size_t k = 0; k < K; ++k) z += (p[k] = std::exp(s[k] - mx));
      for (std::size_t k = 0; k < K; ++k) {
        const float g = e.weight * (p[k] / z - (k == e.y ? 1.f : 0.f));
        if (g == 0) continue;
        gb[k] += g * g;
        b[k] -= o.learning_rate * g / std::sqrt(gb[k] + 1e-8f);
        for (std::uint32_t j : e.x) {
          float& gg = g2[j * K + k];
          gg += g * g;
          float& ww = w[j * K + k];
          ww = ww * (1.f - o.l2) - o.learning_rate * g / std::sqrt(gg + 1e-8f);
        }
      }
    }
  }
}

// The weights of the used buckets worth storing: (class, weight) of magnitude at least `prune`,
// per bucket. A softmax is unchanged when one feature's weights all shift by the same amount:
// each feature's weights are first centred on their median so that most become ~0 and are
// pruned.
inline std::vector<std::vector<std::pair<std::uint8_t, float>>> url_linear_kept_weights(std::vector<float>& w,
                                                                                     const std::vector<char>& used,
                                                                                     std::size_t K, float prune) {
  const std::size_t F = used.size();
  std::vector<float> col(K);
  for (std::size_t j = 0; j < F; ++j) {
    if (!used[j]) continue;
    for (std::size_t k = 0; k < K; ++k) col[k] = w[j * K + k];
    std::nth_element(col.begin(), col.begin() + static_cast<std::ptrdiff_t>(K / 2), col.end());
    const float med = col[K / 2];
    for (std::size_t k = 0; k < K; ++k) w[j * K + k] -= med;
  }
  std::vector<std::vector<std::pair<std::uint8_t, float>>> acc(F);
  for (std::size_t j = 0; j < F; ++j) {
    if (!used[j]) continue;
    for (std::size_t k = 0; k < K; ++k)
      if (std::fabs(w[j * K + k]) >= prune) acc[j].emplace_back(static_cast<std::uint8_t>(k), w[j * K + k]);
  }
  return acc;
}

}  // namespace detail

LANGSIFT_INLINE url_model train_url_linear(const std::vector<labelled_url>& rows, const url_linear_options& o) {
  using namespace detail;
  std::unordered_map<std::string, std::size_t> count;
  for (const auto& r : rows) ++count[r.language];
  const std::vector<std::string> langs = url_linear_classes(count, o);
  url_model m;
  if (langs.size() < 2) return m;
  const std::size_t K = langs.size();
  const std::size_t F = std::size_t{1} << o.bits;
  std::vector<char> used(F, 0);
  const std::vector<url_linear_example> ex = url_linear_examples(rows, langs, count, o, used);
  std::vector<float> w(F * K, 0.f), b(K, 0.f);
  url_linear_sgd(ex, K, o, w, b);
  auto acc = url_linear_kept_weights(w, used, K, o.prune);
  m.kind = url_model::linear;
  m.languages = langs;
  m.bias = b;
  m.features = o.features;
  m.name = o.name;
  m.bits = o.bits;
  m.build_buckets(acc, o.prune);
  return m;
}

LANGSIFT_INLINE url_model train_url_words(const std::vector<std::string>& languages,
                                 const std::vector<url_words_counter>& counters, const url_words_options& o) {
  std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint8_t, float>>> table;
  for (std::size_t l = 0; l < languages.size() && l < 255; ++l) {
    const auto& c = counters[l];
    for (int kind : {1, 8}) {
      std::vector<std::pair<std::uint32_t, std::uint64_t>> items;
      for (const auto& [h, n] : c.counts) {
        auto it = c.order_of.find(h);
        if (it != c.order_of.end() && it->second == kind && n >= 2) items.emplace_back(n, h);
      }
      const std::size_t top = kind == 8 ? o.top / 2 : o.top * 3;
      if (items.size() > top) {
        std::nth_element(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(top), items.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
        items.resize(top);
      }
      if (items.empty() || c.totals[kind] == 0) continue;
      std::uint32_t minc = items[0].first;
      for (const auto& it : items) minc = std::min(minc, it.first);
      const double total = static_cast<double>(c.totals[kind]);
      const double floor = std::log(minc / total) - 1.0;
      for (const auto& [n, h] : items)
        table[h].emplace_back(static_cast<std::uint8_t>(l), static_cast<float>(std::log(n / total) - floor));
    }
  }
  std::vector<std::pair<std::uint64_t, std::vector<std::pair<std::uint8_t, float>>>> entries(table.begin(), table.end());
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  url_model m;
  m.kind = url_model::words;
  m.languages.assign(languages.begin(), languages.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(languages.size(), 255)));
  m.bias.assign(m.languages.size(), 0.f);
  m.features = o.features;
  m.temperature = o.temperature;
  m.name = o.name;
  m.build(entries, o.bits);
  return m;
}

LANGSIFT_INLINE void url_words_counter::add_text(std::string_view text, const url_feature_config& cfg) {
  auto f = std::make_unique<url_features>();
  std::size_t i = 0;
  while (i < text.size()) {
    // words, one at a time (the feature buffer holds one word's features easily)
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' && j - i < 60) ++j;
    const std::string_view w = text.substr(i, j - i);
    f->count = 0;
    f->tokens = 0;
    detail::url_token_features(w, cfg, *f);
    // orders: n-grams of a word come in order of position, not order; recompute per feature
    // by re-deriving from the kinds is not possible, so hash kind tags carry the order: count
    // n-grams by kind and attribute totals per kind only (orders are balanced by `top`).
    for (std::size_t k = 0; k < f->count; ++k) {
      ++counts[f->hash[k]];
      ++totals[(f->kind[k] & 7) == url_feat_word ? 8 : 1];
      order_of.emplace(f->hash[k], (f->kind[k] & 7) == url_feat_word ? 8 : 1);
    }
    i = j + 1;
  }
}

}  // namespace v1
}  // namespace langsift
