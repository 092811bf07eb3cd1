// URL classification throughput (URLs/s, single thread): parsing alone, parsing + features, and
// classification with the built-in models (linear only, words only, the default combination).
//   cmake -S . -B build-url-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON
//     (optionally -DLANGSIFT_BUILD_TESTS=OFF -DLANGSIFT_BUILD_TOOLS=OFF)
//   cmake --build build-url-bench --target langsift-microbench
//   build-url-bench/langsift-microbench --benchmark_filter=url --benchmark_repetitions=5
//
// Input: by default 4,000 URLs generated from the words of the committed test corpus
// (tests/data/corpus: de en es fr nl) — bare hosts, ccTLD and generic hosts, slug paths, some
// language-code patterns and query strings — so the benchmark needs nothing outside the
// repository. $LANGSIFT_BENCH_URLS: the URL column of a `lang<TAB>url[<TAB>source]` file instead
// (e.g. a labelled URL set of your own). Fixed shuffled order, cycled;
// items_per_second = URLs/s.
// $LANGSIFT_BENCH_URL_LINEAR / $LANGSIFT_BENCH_URL_WORDS: model files to use instead of the built-in ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/url_models.hpp"
#include "langsift/url_train.hpp"

namespace {

// The URL column of a `lang<TAB>url[<TAB>source]` file (as langsift-train url reads it).
std::vector<std::string> read_url_column(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<std::string> out;
  for (auto& row : langsift::parse_labelled_urls(text)) out.push_back(std::move(row.url));
  return out;
}

// Deterministic URLs built from the words of tests/data/corpus/<lang>.txt.
std::vector<std::string> generated_urls() {
  const char* const langs[] = {"de", "en", "es", "fr", "nl"};
  const char* const tlds[] = {"de", "com", "es", "fr", "nl", "org", "net", "co.uk", "com.mx", "be"};
  std::mt19937 rng(7);
  std::vector<std::string> out;
  for (const char* lang : langs) {
    std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/corpus/" + lang + ".txt", std::ios::binary);
    std::vector<std::string> words;
    for (std::string w; f >> w;) {
      std::string clean;
      for (const char c : w)
        if (std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) clean += c;
      if (clean.size() >= 3) words.push_back(clean);
    }
    if (words.empty()) continue;
    auto word = [&] { return words[rng() % words.size()]; };
    for (int i = 0; i < 800; ++i) {
      std::string u = (i % 3 ? "https://" : "http://") + std::string(i % 4 ? "www." : "") + word() + "." + tlds[rng() % 10];
      const int shape = static_cast<int>(rng() % 5);
      if (shape == 0) {  // bare host
      } else if (shape == 1) {
        u += std::string("/") + lang + "/" + word() + "-" + word() + ".html";
      } else if (shape == 2) {
        u += "/" + word() + "/" + word() + "-" + word() + "-" + word() + "/?id=" + std::to_string(rng() % 100000);
      } else if (shape == 3) {
        u += "/index.php?lang=" + std::string(lang) + "&page=" + word();
      } else {
        u += "/" + word() + "_" + word() + "/" + std::to_string(2000 + rng() % 25) + "/" + word();
      }
      out.push_back(u);
    }
  }
  return out;
}

const std::vector<std::string>& urls() {
  static const std::vector<std::string> v = [] {
    const char* env = std::getenv("LANGSIFT_BENCH_URLS");
    std::vector<std::string> out = env ? read_url_column(env) : generated_urls();
    std::mt19937 rng(42);
    std::shuffle(out.begin(), out.end(), rng);
    return out;
  }();
  return v;
}

// $LANGSIFT_BENCH_URL_LINEAR / $LANGSIFT_BENCH_URL_WORDS: model files instead of the built-in ones.
const langsift::url_classifier& classifier() {
  static langsift::url_model linear, words;
  static const langsift::url_classifier c = [] {
    auto load = [](const char* env, langsift::url_model& m, const langsift::url_model& fallback) -> const langsift::url_model* {
      const char* path = std::getenv(env);
      if (!path) return &fallback;
      if (langsift::url_model::load_file(path, m) != langsift::status::ok) return &fallback;
      return &m;
    };
    const langsift::url_model* l = load("LANGSIFT_BENCH_URL_LINEAR", linear, langsift::default_url_linear_model());
    const langsift::url_model* w = load("LANGSIFT_BENCH_URL_WORDS", words, langsift::default_url_words_model());
    return langsift::url_classifier(l, w);
  }();
  return c;
}

std::size_t total_bytes() {
  std::size_t n = 0;
  for (const auto& u : urls()) n += u.size();
  return n;
}

template <class F>
void run(benchmark::State& state, F&& f) {
  const auto& v = urls();
  if (v.empty()) {
    state.SkipWithError("no URLs: tests/data/corpus unreadable, or LANGSIFT_BENCH_URLS names an empty file");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    f(v[i]);
    if (++i == v.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total_bytes() / v.size()));
}

void BM_url_parse(benchmark::State& state) {
  langsift::url_parts p;
  run(state, [&](const std::string& u) {
    benchmark::DoNotOptimize(langsift::parse_url(u, p));
  });
}
BENCHMARK(BM_url_parse);

void BM_url_features(benchmark::State& state) {
  langsift::url_parts p;
  auto f = std::make_unique<langsift::url_features>();
  const auto cfg = classifier().feature_config();
  run(state, [&](const std::string& u) {
    (void)langsift::parse_url(u, p);
    langsift::url_extract_features(p, cfg, *f);
    benchmark::DoNotOptimize(f->count);
  });
}
BENCHMARK(BM_url_features);

void classify(benchmark::State& state, bool linear, bool words, bool rules) {
  const langsift::url_classifier& c = classifier();
  langsift::url_options o;
  o.use_linear = linear;
  o.use_words = words;
  o.use_patterns = o.use_cctld = rules;
  langsift::url_classifier::scratch s;
  run(state, [&](const std::string& u) {
    benchmark::DoNotOptimize(c.classify(u, o, s).count);
  });
}
void BM_url_classify_linear(benchmark::State& state) { classify(state, true, false, false); }
void BM_url_classify_words(benchmark::State& state) { classify(state, false, true, false); }
void BM_url_classify_combined(benchmark::State& state) { classify(state, true, true, true); }
BENCHMARK(BM_url_classify_linear);
BENCHMARK(BM_url_classify_words);
BENCHMARK(BM_url_classify_combined);

}  // namespace
