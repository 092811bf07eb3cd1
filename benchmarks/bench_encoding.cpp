// Encoding detection + conversion throughput, beside uchardet alone on the same inputs.
//   build-bench/langsift-microbench --benchmark_filter=Encoding
// Inputs come from tests/data/encoding: "short" is one file (250..800 bytes), "long" the same
// text repeated to at least 32 KB.
#include <benchmark/benchmark.h>
#include <uchardet/uchardet.h>

#include <fstream>
#include <sstream>
#include <string>

#include "langsift/encoding.hpp"

namespace {

std::string load(const char* name) {
  std::ifstream f(std::string(LANGSIFT_TEST_DATA_DIR) + "/encoding/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string input(const char* file, bool long_input) {
  std::string s = load(file);
  if (!long_input || s.empty()) return s;
  std::string out;
  while (out.size() < 32 * 1024) out += s;
  return out;
}

void set_bytes(benchmark::State& state, std::size_t n) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
}

// langsift: detect + convert to UTF-8 (what a crawler calls per page).
void Encoding_langsift_decode(benchmark::State& state, const char* file, bool long_input) {
  const std::string in = input(file, long_input);
  for (auto _ : state) {
    langsift::decoded_text d = langsift::decode_to_utf8(in);
    benchmark::DoNotOptimize(d.text.data());
  }
  set_bytes(state, in.size());
}

// langsift: detection only.
void Encoding_langsift_detect(benchmark::State& state, const char* file, bool long_input) {
  const std::string in = input(file, long_input);
  for (auto _ : state) {
    langsift::encoding_result r = langsift::detect_encoding(in);
    benchmark::DoNotOptimize(r.name.data());
  }
  set_bytes(state, in.size());
}

// uchardet alone: one handle reused (reset per input), as langsift does; detection only.
void Encoding_uchardet_detect(benchmark::State& state, const char* file, bool long_input) {
  const std::string in = input(file, long_input);
  uchardet_t u = uchardet_new();
  for (auto _ : state) {
    uchardet_reset(u);
    uchardet_handle_data(u, in.data(), in.size());
    uchardet_data_end(u);
    benchmark::DoNotOptimize(uchardet_get_charset(u));
  }
  uchardet_delete(u);
  set_bytes(state, in.size());
}

#define LANGSIFT_ENC_BENCH(tag, file)                                                          \
  BENCHMARK_CAPTURE(Encoding_langsift_decode, tag##_short, file, false);                    \
  BENCHMARK_CAPTURE(Encoding_langsift_detect, tag##_short, file, false);                    \
  BENCHMARK_CAPTURE(Encoding_uchardet_detect, tag##_short, file, false);                    \
  BENCHMARK_CAPTURE(Encoding_langsift_decode, tag##_long, file, true);                      \
  BENCHMARK_CAPTURE(Encoding_langsift_detect, tag##_long, file, true);                      \
  BENCHMARK_CAPTURE(Encoding_uchardet_detect, tag##_long, file, true)

LANGSIFT_ENC_BENCH(ascii, "en.ascii.txt");
LANGSIFT_ENC_BENCH(utf8_fr, "fr.utf-8.txt");
LANGSIFT_ENC_BENCH(utf8_ja, "ja.utf-8.txt");
LANGSIFT_ENC_BENCH(windows1252_fr, "fr.windows-1252.txt");
LANGSIFT_ENC_BENCH(windows1251_ru, "ru.windows-1251.txt");
LANGSIFT_ENC_BENCH(shift_jis_ja, "ja.shift_jis.txt");
LANGSIFT_ENC_BENCH(gb18030_zh, "zh.gb18030.txt");
LANGSIFT_ENC_BENCH(utf16le_fr, "fr.utf-16le.txt");

}  // namespace
