// Script prefilter and Unicode table throughput: MB/s of UTF-8 in, and code points/s.
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLANGSIFT_BUILD_BENCHMARKS=ON
//   ninja -C build-bench langsift-microbench
//   build-bench/langsift-microbench --benchmark_filter='script|props|decode'
//
// Inputs: the UTF-8 test texts of tests/data/encoding (en: English, ASCII; ru: Russian; zh:
// Chinese; ja: Japanese), each repeated to ~2 KB ("2k"), and each cut to at most 145 bytes at a
// code-point boundary ("145").
//   decode   decode_utf8 alone over the text
//   props    decode_utf8 + code_point_props (script, class, case folding) per code point
//   runs     split_script_runs into a reused vector
//   counts   script_counts (a histogram of letters per script)
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "langsift/script.hpp"
#include "langsift/unicode.hpp"

namespace {

std::string read(const std::string& name) {
  std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/encoding/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

enum lang { en, ru, zh, ja, ko };  // ko: a run of three-byte letters (skip_run_letters3)

const std::string& text(int which, bool small) {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> v;
    for (const char* n : {"en.ascii.txt", "ru.utf-8.txt", "zh.utf-8.txt", "ja.utf-8.txt", "ko.utf-8.txt"}) {
      std::string t = read(n), big;
      while (!t.empty() && big.size() < 2048) big += t + "\n";
      std::size_t cut = std::min<std::size_t>(145, t.size());
      while (cut > 0 && cut < t.size() && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
      v.push_back(big);
      v.push_back(t.substr(0, cut));
    }
    return v;
  }();
  return texts[static_cast<std::size_t>(which * 2 + (small ? 1 : 0))];
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void finish(benchmark::State& state, const std::string& t) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * code_points(t)));
  state.counters["bytes"] = static_cast<double>(t.size());
}

void BM_decode(benchmark::State& state) {
  const std::string& t = text(static_cast<int>(state.range(0)), state.range(1) != 0);
  for (auto _ : state) {
    const char* p = t.data();
    const char* e = p + t.size();
    char32_t acc = 0;
    while (p < e) acc += langsift::decode_utf8(p, e);
    benchmark::DoNotOptimize(acc);
  }
  finish(state, t);
}

void BM_props(benchmark::State& state) {
  const std::string& t = text(static_cast<int>(state.range(0)), state.range(1) != 0);
  for (auto _ : state) {
    const char* p = t.data();
    const char* e = p + t.size();
    std::uint32_t acc = 0;
    while (p < e) {
      const langsift::code_point_info i = langsift::code_point_props(langsift::decode_utf8(p, e));
      acc += static_cast<std::uint32_t>(i.sc) + static_cast<std::uint32_t>(i.cls) + i.lower;
    }
    benchmark::DoNotOptimize(acc);
  }
  finish(state, t);
}

void BM_script_runs(benchmark::State& state) {
  const std::string& t = text(static_cast<int>(state.range(0)), state.range(1) != 0);
  std::vector<langsift::script_run> runs;
  for (auto _ : state) {
    langsift::split_script_runs(t, runs);
    benchmark::DoNotOptimize(runs.data());
  }
  finish(state, t);
}

void BM_script_counts(benchmark::State& state) {
  const std::string& t = text(static_cast<int>(state.range(0)), state.range(1) != 0);
  for (auto _ : state) {
    langsift::script_histogram h = langsift::script_counts(t);
    benchmark::DoNotOptimize(h.letters.data());
  }
  finish(state, t);
}

// Args: {language (0 en, 1 ru, 2 zh, 3 ja, 4 ko), small (0: ~2 KB, 1: <= 145 bytes)}.
void args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"lang", "small"});
  for (int l : {en, ru, zh, ja, ko})
    for (int small : {0, 1}) b->Args({l, small});
}

}  // namespace

BENCHMARK(BM_decode)->Apply(args);
BENCHMARK(BM_props)->Apply(args);
BENCHMARK(BM_script_runs)->Apply(args);
BENCHMARK(BM_script_counts)->Apply(args);
