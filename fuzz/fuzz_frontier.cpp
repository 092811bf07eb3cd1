// libFuzzer target for the crawl frontier (langsift/frontier.hpp).
//   first byte even: the input is a state file (bit 1: with its checksum fixed up, to reach the
//                    structure checks). load_copy() must not crash; a loaded state must save to the
//                    same bytes (the format is canonical) and load again.
//   first byte odd:  the input is a program of frontier calls (votes, fetches, quotas, decisions);
//                    afterwards the state must round-trip through save/load unchanged.
// Run: build-frontier-fuzz/fuzz_frontier fuzz/corpus/frontier -max_total_time=600
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "langsift/detail/xxhash.hpp"  // XXH3-64, to forge state files
#include "langsift/frontier.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();  // the fuzzer's finding, not the library's behaviour
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  using namespace langsift;
  if ((data[0] & 1) == 0) {
    // bit 1: fix the checksum up first, so the structure checks behind it are reached too
    std::string fixed(in);
    if ((data[0] & 2) && fixed.size() >= 16) {
      const std::uint64_t sum = XXH3_64bits(fixed.data(), fixed.size() - 8);
      std::memcpy(&fixed[fixed.size() - 8], &sum, 8);
    }
    frontier f;
    std::string message;
    if (frontier::load_copy(fixed, f, &message) == status::ok) {
      const std::string s = f.save();
      check(s == fixed);
      frontier g;
      check(frontier::load_copy(s, g) == status::ok);
      check(g.save() == s);
      check(g.size() == f.size());
    } else {
      check(!message.empty());
      check(f.size() == 0);
    }
    return 0;
  }
  frontier_options o;
  o.max_urls = data[0] & 2 ? 200 : 0;
  o.skip_unwanted = (data[0] & 4) != 0;
  frontier f(o);
  static constexpr std::string_view langs[] = {"de", "en", "fr", "ja", "zh-Hant", "x", "abcdefghijklmnop", ""};
  std::size_t i = 0;
  while (i + 2 <= in.size()) {
    const std::uint8_t op = static_cast<std::uint8_t>(in[i]);
    const std::size_t len = std::min<std::size_t>(static_cast<std::uint8_t>(in[i + 1]) % 48, in.size() - i - 2);
    const std::string_view url = in.substr(i + 2, len);
    i += 2 + len;
    const std::string_view lang = langs[(op >> 3) & 7];
    switch (op & 7) {
      case 0:
      case 1: f.vote(url, lang); break;
      case 2: {
        detection d;
        d.count = 2;
        d.languages[0].code = lang;
        d.languages[0].percent = 60 + (op >> 6) * 10;
        d.languages[1].code = langs[(op >> 4) & 7];
        d.languages[1].percent = 100 - d.languages[0].percent;
        d.is_short = (op & 0x40) != 0;
        const std::string_view targets[] = {url, "http://fixed.example/"};
        f.add_votes(d, targets);
        break;
      }
      case 3: {
        detection d;
        d.count = 1;
        d.languages[0].code = lang;
        d.languages[0].percent = 100;
        f.record_fetch(url, d);
        break;
      }
      case 4: f.set_quota(lang, op >> 6); break;
      case 5: {
        url_result u;
        u.count = 2;
        u.languages[0] = {lang, (op >> 6) / 3.0f};
        u.languages[1] = {langs[(op >> 5) & 7], 0.25f};
        const frontier_decision d = f.decide(url, &u);
        check(d.priority >= 0 && d.priority <= 1);
        break;
      }
      case 6: {
        const frontier_decision d = f.decide(url);
        check(d.priority >= 0 && d.priority <= 1);
        check(d.count <= d.guesses.size());
        break;
      }
      case 7: f.count_page(lang, op >> 6); break;
    }
  }
  const std::string s = f.save();
  frontier g;
  check(frontier::load_copy(s, g) == status::ok);
  check(g.save() == s);
  check(g.size() == f.size());
  return 0;
}
