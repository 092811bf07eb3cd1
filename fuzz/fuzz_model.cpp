// libFuzzer: model loading. The input is taken as a model file whose header's size and checksum
// are made consistent first (so the fuzzer reaches the structural checks instead of stopping at
// the checksum), then loaded; a model that loads must classify text without reading out of
// bounds (ASan) or crashing.
// Seed: fuzz/corpus/model/mini.lsm, a model of the current format (a test checks that it loads;
// after a format change rebuild it with
//   build/langsift-train tests/data/corpus --top-k 150 --rank-size 40 --name mini -j 1 -o fuzz/corpus/model/mini.lsm
// — under 8 KB, the -max_len of CI's fuzzing step), and mini-v1.lsm and mini-v2.lsm, the same of
// format versions 1 and 2 (still read: in 1 every group holds the kinds PARM weights; both hash
// features with feature_hashing::polynomial).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "langsift/detector.hpp"
#include "langsift/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  langsift::model m;
  (void)langsift::model::load_copy(bytes, m);  // as is: must fail cleanly or load
  if (bytes.size() >= 64 && !(bytes[63] & 1)) {
    const std::uint64_t n = bytes.size();
    std::memcpy(bytes.data() + 16, &n, 8);
    const std::uint64_t sum = XXH3_64bits(bytes.data() + 64, bytes.size() - 64);
    std::memcpy(bytes.data() + 24, &sum, 8);
  }
  if (langsift::model::load_copy(bytes, m) == langsift::status::ok) {
    for (const char* text : {"The quick brown fox jumps over the lazy dog.", "Über den Wolken muss die Freiheit wohl grenzenlos sein",
                             "Москва — столица России", "東京都は日本の首都です", ""}) {
      const auto d = langsift::detect(m, text);
      if (d.count > 3) __builtin_trap();
      langsift::detect_options o;
      o.method = langsift::scorer::rank;
      (void)langsift::detect(m, text, o);
    }
  }
  return 0;
}
