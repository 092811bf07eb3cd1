// libFuzzer: close-groups files (langsift/close_groups.hpp). The input is taken as a close-groups
// file whose size and checksum fields are made consistent first (so the fuzzer reaches the
// structural checks instead of stopping at the checksum), then loaded; groups that load and
// attach to the default model must detect text without reading out of bounds (ASan) or crashing,
// and the probabilities must stay a distribution (each in [0, 1], summing to at most 1).
// Seed: fuzz/corpus/close_groups/mini.lscg (two groups, bs/hr and id/ms, a few words each), made by
//   write_close_groups() as tests/unit/test_close_groups.cpp does (under 8 KB, CI's -max_len).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "langsift/close_groups.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  langsift::close_groups g;
  (void)langsift::close_groups::load_copy(bytes, g);  // as is: must fail cleanly or load
  if (bytes.size() >= 40) {
    const std::uint64_t n = bytes.size();
    std::memcpy(bytes.data() + 16, &n, 8);
    const std::uint64_t sum = XXH3_64bits(bytes.data() + 16, bytes.size() - 16);
    std::memcpy(bytes.data() + 8, &sum, 8);
  }
  if (langsift::close_groups::load_copy(bytes, g) != langsift::status::ok) return 0;
  for (std::size_t i = 0; i < g.group_count(); ++i) (void)g.group(i);
  langsift::model m = langsift::default_model();
  if (m.set_close_groups(std::make_shared<const langsift::close_groups>(g)) != langsift::status::ok) return 0;
  langsift::detect_options o;
  o.top_k = 5;
  for (const char* text : {"Tokom sedmice je hiljadu ljudi posjetilo historijski muzej u opštini.",
                           "Saya sudah menunggu di stasiun selama dua jam, tapi keretanya belum datang.",
                           "Tijekom tjedna je tisuću ljudi posjetilo muzej. The end.", "hiljada", ""}) {
    for (const bool prior : {true, false}) {
      o.web_prior = prior;
      const auto d = langsift::detect(m, text, o);
      if (d.count > 3 || !(d.confidence >= 0 && d.confidence <= 1)) __builtin_trap();
      double total = 0;
      for (const auto& p : d.top_probabilities()) {
        if (!(p.p >= 0 && p.p <= 1)) __builtin_trap();
        total += p.p;
      }
      if (total > 1.0 + 1e-5) __builtin_trap();
    }
  }
  return 0;
}
