// Language identification hot path: n-gram extraction, detect on sentences and on ~2 KB text, and
// loading the built-in model. MB/s of UTF-8 in (bytes_per_second) and documents/s or features/s
// (items_per_second).
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON
//   ninja -C build-bench langsift-microbench
//   build-bench/langsift-microbench --benchmark_filter='ngram|detect|model_load'
//
// Inputs (committed test data only, nothing from ../shared):
//   2k        per language, a text repeated to >= 2048 bytes: en, de, fr from tests/data/corpus,
//             ru and zh from tests/data/encoding (the UTF-8 versions)
//   145       the same texts cut to at most 145 bytes at a code point boundary (the average length
//             of a lingua-dev sentence)
//   sentences the 23 natural-language lines of tests/data/detect/known.txt (81-241 bytes, 24
//             languages and scripts incl. Han, kana, Hangul, Arabic, Devanagari, Thai), in turn
//
//   BM_ngram_extract   for_each_feature with the built-in model's feature configuration (orders and
//                      words it scores); items = features emitted
//   BM_detect_sentence detect() on one sentence per iteration, cycling through the sentences
//   BM_detect_2k       detect() on a 2 KB text (scorer::automatic, i.e. bayes)
//   BM_detect_2k_rank  the same with scorer::rank (TextCat's out-of-place distance)
//   BM_model_load      model::load_view on default_model_bytes(); verify:0 checks the checksum
//                      only (default_model() skips even that: its bytes are the library's own);
//                      verify:1 also walks the structure (what a model from a file gets)
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/ngram.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/" + path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

constexpr const char* kLanguages[] = {"en", "de", "fr", "ru", "zh"};

// texts()[lang * 2] = ~2 KB, texts()[lang * 2 + 1] = <= 145 bytes.
const std::vector<std::string>& texts() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    for (const char* path : {"corpus/en.txt", "corpus/de.txt", "corpus/fr.txt", "encoding/ru.utf-8.txt",
                             "encoding/zh.utf-8.txt"}) {
      std::string t = read(path), big;
      while (!t.empty() && t.back() == '\n') t.pop_back();
      for (char& c : t)
        if (c == '\n') c = ' ';
      while (!t.empty() && big.size() < 2048) big += t + " ";
      std::size_t cut = std::min<std::size_t>(145, t.size());
      while (cut > 0 && cut < t.size() && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
      out.push_back(big);
      out.push_back(t.substr(0, cut));
    }
    return out;
  }();
  return v;
}

const std::vector<std::string>& sentences() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    std::istringstream in(read("detect/known.txt"));
    std::string line;
    while (std::getline(in, line) && out.size() < 23) out.push_back(line);  // the natural-language lines
    return out;
  }();
  return v;
}

const std::string& text_arg(const benchmark::State& state) {
  return texts()[static_cast<std::size_t>(state.range(0) * 2 + state.range(1))];
}

void set_label(benchmark::State& state, const std::string& t) {
  state.SetLabel(std::string(kLanguages[state.range(0)]) + " " + std::to_string(t.size()) + " B");
}

void BM_ngram_extract(benchmark::State& state) {
  const std::string& t = text_arg(state);
  const langsift::ngram_config cfg = langsift::default_model().group_of_script(langsift::script::latin)->features;  // what detection extracts from Latin text
  std::int64_t features = 0;
  for (auto _ : state) {
    std::uint64_t acc = 0;
    std::int64_t n = 0;
    langsift::for_each_feature(t, cfg, [&](std::uint64_t h, unsigned) noexcept {
      acc ^= h;
      ++n;
    });
    benchmark::DoNotOptimize(acc);
    features += n;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
  state.SetItemsProcessed(features);
  set_label(state, t);
}

void BM_detect_sentence(benchmark::State& state) {
  const langsift::model& m = langsift::default_model();
  const auto& s = sentences();
  std::size_t i = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& t = s[i];
    i = i + 1 == s.size() ? 0 : i + 1;
    langsift::detection d = langsift::detect(m, t);
    benchmark::DoNotOptimize(d);
    bytes += static_cast<std::int64_t>(t.size());
  }
  state.SetBytesProcessed(bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetLabel(std::to_string(s.size()) + " sentences in turn");
}

void detect_2k(benchmark::State& state, langsift::scorer method) {
  const langsift::model& m = langsift::default_model();
  const std::string& t = texts()[static_cast<std::size_t>(state.range(0) * 2)];
  langsift::detect_options o;
  o.method = method;
  for (auto _ : state) {
    langsift::detection d = langsift::detect(m, t, o);
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetLabel(std::string(kLanguages[state.range(0)]) + " " + std::to_string(t.size()) + " B");
}

void BM_detect_2k(benchmark::State& state) { detect_2k(state, langsift::scorer::automatic); }
void BM_detect_2k_rank(benchmark::State& state) { detect_2k(state, langsift::scorer::rank); }

void BM_model_load(benchmark::State& state) {
  const std::string_view bytes = langsift::default_model_bytes();
  for (auto _ : state) {
    langsift::model m;
    const langsift::status st = langsift::model::load_view(bytes, m, nullptr, state.range(0) != 0);
    if (st != langsift::status::ok) {
      state.SkipWithError("the built-in model does not load");
      break;
    }
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// Args: {language (0 en, 1 de, 2 fr, 3 ru, 4 zh), small (0: ~2 KB, 1: <= 145 bytes)}.
void ngram_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"lang", "small"});
  for (int l = 0; l < 5; ++l)
    for (int small : {0, 1}) b->Args({l, small});
}

void lang_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"lang"});
  for (int l = 0; l < 5; ++l) b->Args({l});
}

}  // namespace

BENCHMARK(BM_ngram_extract)->Apply(ngram_args);
BENCHMARK(BM_detect_sentence);
BENCHMARK(BM_detect_2k)->Apply(lang_args);
BENCHMARK(BM_detect_2k_rank)->Apply(lang_args);
BENCHMARK(BM_model_load)->ArgName("verify")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
