// URL classification throughput (URLs/s, single thread): parsing alone, parsing + features, and
// classification with the built-in models (linear only, words only, the default combination).
//   cmake -S . -B build-url-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON \
//     -DLANGSIFT_BUILD_TESTS=OFF -DLANGSIFT_BUILD_TOOLS=OFF
//   cmake --build build-url-bench --target langsift-microbench
//   build-url-bench/langsift-microbench --benchmark_filter=url --benchmark_repetitions=5
//
// Input: the URL column of $LANGSIFT_BENCH_URLS (a `lang<TAB>url<TAB>source` file), by default
// ../shared/data/eval/urls-dev.tsv beside the source tree (13,215 URLs of every shape: bare hosts
// and full paths), in a fixed shuffled order, cycled. items_per_second = URLs/s.
// $LANGSIFT_BENCH_URL_LINEAR / $LANGSIFT_BENCH_URL_WORDS: model files to use instead of the built-in ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/url_models.hpp"

namespace {

const std::vector<std::string>& urls() {
  static const std::vector<std::string> v = [] {
    const char* env = std::getenv("LANGSIFT_BENCH_URLS");
    const std::string path = env ? env : std::string(LANGSIFT_TEST_DATA_DIR) + "/../../../shared/data/eval/urls-dev.tsv";
    std::ifstream f(path, std::ios::binary);
    std::vector<std::string> out;
    std::string line;
    bool first = true;
    while (std::getline(f, line)) {
      const std::size_t t1 = line.find('\t');
      if (t1 == std::string::npos) continue;
      if (first && line.rfind("language\t", 0) == 0) {
        first = false;
        continue;
      }
      first = false;
      const std::size_t t2 = line.find('\t', t1 + 1);
      out.push_back(line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1));
    }
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
      std::ifstream f(path, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      if (langsift::url_model::load(ss.str(), m) != langsift::status::ok) return &fallback;
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
    state.SkipWithError("no URLs: set LANGSIFT_BENCH_URLS to a lang<TAB>url file");
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
