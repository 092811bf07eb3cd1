// libFuzzer target for the script prefilter and the UTF-8 / Unicode primitives:
//   CC=clang CXX=clang++ cmake -B build-fuzz -DLANGSIFT_BUILD_FUZZERS=ON -DLANGSIFT_SANITIZE=address,undefined
//   build-fuzz/fuzz_script fuzz/corpus/script -max_total_time=300
//
// The input is arbitrary bytes, read as UTF-8.
// Invariants:
//  - decode_utf8 always advances, by 1-4 bytes, never past the end, and yields a scalar value
//    (<= U+10FFFF, no surrogate); it agrees with detail::decode_utf8_step, which decode_utf8
//    bypasses for ASCII;
//    is_valid_utf8 is true exactly when no sequence was invalid, and then re-encoding the code
//    points gives back the input.
//  - split_script_runs: runs are ordered, disjoint, non-empty, within bounds, on code-point
//    boundaries, never start or end with whitespace, have a real run script, differ in script
//    from their neighbour, count exactly the letters and marks in their range, and contain every
//    voter (letter or mark of a real script) with a run of its script; they equal the runs of
//    tests/script_reference.hpp (the rules restated as a slow batch algorithm); a reused output
//    vector gives the same runs.
//  - script_counts: its real-script letters are at most the runs' letters, which are at most all
//    letters and marks of the text.
//  - code_point_props, combining_class, compose_pair on arbitrary 32-bit values stay in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/script.hpp"
#include "langsift/unicode.hpp"
#include "../tests/script_reference.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

using langsift::detail::append_utf8;

struct cp_at {
  std::size_t begin, end;
  char32_t cp;
};

// Code points that drive the run rules: letters of several scripts (CJK among them), Inherited
// marks, ZWJ, Common letters, spaces, digits, punctuation, symbols, U+FFFD.
constexpr char32_t interesting[] = {
    U'a', U'Z', U'é', U'ж', U'Ω', U'ά', U'ا', U'ש', 0x05B8, U'क', 0x094D, U'ष', 0x0966, U'ก', U'한',
    U'漢', U'字', 0x3005, U'の', U'カ', 0xFF76, 0x30FC, U'ㄅ', 0x0301, 0x0306, 0x200D, 0x200C,
    0xFE0F, U' ', U'\n', 0x3000, 0x00A0, U'1', U'٣', U',', U'。', U'«', U'-', U'😀', 0x1F1E9,
    0xFFFD, U'ª', 0x02BC, U'Ⅻ', 0x10400, 0xE000, 0x0378, U'\0', 0x1F3FB, U'ᄀ', U'ᅡ', 0x11A8,
};

// Input starting with 0xFF: each further byte picks one of `interesting` (valid UTF-8 with the
// script mixes the run rules care about); otherwise the bytes themselves. Either way the text goes
// into an exact-size heap buffer so ASan sees any read past the end.
std::vector<char> fuzz_text(const std::uint8_t* data, std::size_t size) {
  std::vector<char> buf;
  if (size > 0 && data[0] == 0xFF) {
    std::string s;
    for (std::size_t i = 1; i < size; ++i)
      append_utf8(s, interesting[data[i] % (sizeof interesting / sizeof interesting[0])]);
    buf.assign(s.begin(), s.end());
  } else {
    buf.assign(data, data + size);
  }
  return buf;
}

// The text's code points and which byte offsets start one (and the end).
struct decoded {
  std::vector<cp_at> cps;
  std::vector<bool> boundary;
};

// decode_utf8 and decode_utf8_step agree, step forward, give scalar values; valid text re-encodes
// to itself.
decoded check_decode_utf8(const std::vector<char>& buf, std::string_view text) {
  const std::size_t size = buf.size();
  decoded d;
  std::vector<cp_at>& cps = d.cps;
  std::vector<bool>& boundary = d.boundary;
  boundary.assign(size + 1, false);
  bool all_valid = true;
  std::string reencoded;
  {
    const char* p = buf.data();
    const char* e = p + size;
    while (p < e) {
      boundary[static_cast<std::size_t>(p - buf.data())] = true;
      const char* before = p;
      const char32_t cp = langsift::decode_utf8(p, e);
      check(p > before && p <= e && p - before <= 4);
      check(cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF));
      const auto* u = reinterpret_cast<const unsigned char*>(before);
      const langsift::detail::utf8_decoded other =
          langsift::detail::decode_utf8_step(u, reinterpret_cast<const unsigned char*>(e));
      check(other.cp == cp && other.len == p - before);
      all_valid = all_valid && other.valid;
      append_utf8(reencoded, cp);
      cps.push_back({static_cast<std::size_t>(before - buf.data()), static_cast<std::size_t>(p - buf.data()), cp});
    }
    boundary[size] = true;
  }
  check(langsift::is_valid_utf8(text) == all_valid);
  if (all_valid) check(reencoded == text);
  return d;
}

// Letters of the text (letters and marks), and those inside script runs.
struct letter_counts {
  std::size_t all = 0, in_runs = 0;
};

// split_script_runs: runs in order, on code point boundaries, of real scripts, letters counted,
// whitespace inside, every letter of a real script covered by a run of its script; the same as the
// batch restatement of the rules; a reused output vector is replaced.
letter_counts check_script_runs(std::string_view text, const decoded& dec) {
  const std::size_t size = text.size();
  const std::vector<cp_at>& cps = dec.cps;
  const std::vector<bool>& boundary = dec.boundary;
  std::vector<langsift::script_run> runs;
  langsift::split_script_runs(text, runs);
  std::size_t prev_end = 0, run_letters = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const langsift::script_run& r = runs[i];
    check(r.begin >= prev_end && r.begin < r.end && r.end <= size);
    check(boundary[r.begin] && boundary[r.end]);
    check(langsift::is_real_script(r.sc) && langsift::run_script(r.sc) == r.sc);
    if (i > 0) check(runs[i - 1].sc != r.sc);
    prev_end = r.end;
    run_letters += r.letters;
  }
  // Per code point: letters inside runs, whitespace at run edges, every voter inside a run.
  std::size_t ri = 0, all_letters = 0;
  std::vector<std::size_t> letters_in(runs.size(), 0);
  for (const cp_at& c : cps) {
    while (ri < runs.size() && runs[ri].end <= c.begin) ++ri;
    const bool inside = ri < runs.size() && runs[ri].begin <= c.begin;
    const langsift::code_point_info info = langsift::code_point_props(c.cp);
    const bool letter = info.cls == langsift::char_class::letter || info.cls == langsift::char_class::mark;
    all_letters += letter;
    if (inside && letter) ++letters_in[ri];
    if (letter && langsift::is_real_script(info.sc)) {  // voters are covered, by a run of their script
      check(inside);
      const langsift::script v = langsift::run_script(info.sc), r = runs[ri].sc;
      using langsift::script;
      check(v == r || r == script::han ? v == r || v == script::japanese || v == script::korean
                                       : v == script::han && (r == script::japanese || r == script::korean));
    }
    if (inside && info.cls == langsift::char_class::space)
      check(c.begin != runs[ri].begin && c.end != runs[ri].end);
  }
  for (std::size_t i = 0; i < runs.size(); ++i) check(letters_in[i] == runs[i].letters && runs[i].letters >= 1);
  check(run_letters <= all_letters);

  check(runs == langsift_test::reference_script_runs(text));  // the batch restatement of the rules

  std::vector<langsift::script_run> again = {{0, 1, langsift::script::latin, 1}};
  langsift::split_script_runs(text, again);
  check(again == runs);
  return {all_letters, run_letters};
}

// script_counts: the letters of the text, at most those inside runs, a dominant script among them.
void check_script_counts(std::string_view text, letter_counts letters) {
  const langsift::script_histogram h = langsift::script_counts(text);
  std::size_t hist_all = 0;
  for (std::size_t n : h.letters) hist_all += n;
  check(hist_all == letters.all);
  check(h.total() <= letters.in_runs);
  const langsift::script_histogram rs = h.run_scripts();
  check(rs.total() == h.total());
  const langsift::script d = h.dominant();
  check(d == langsift::script::common ? h.total() == 0 : rs[d] > 0);
}

// Properties of arbitrary values read from the text: scripts, classes, case, composition.
void check_arbitrary_values(const std::vector<char>& buf) {
  const std::size_t size = buf.size();
  for (std::size_t i = 0; i + 8 <= size && i < 64; i += 8) {
    char32_t a, b;
    std::memcpy(&a, buf.data() + i, 4);
    std::memcpy(&b, buf.data() + i + 4, 4);
    for (char32_t x : {a, b, static_cast<char32_t>(a & 0x1FFFFF), static_cast<char32_t>(b & 0xFFFF)}) {
      const langsift::code_point_info info = langsift::code_point_props(x);
      check(static_cast<std::size_t>(info.sc) < langsift::script_count);
      check(info.cls <= langsift::char_class::control);
      check(x > 0x10FFFF ? info.lower == x : info.lower <= 0x10FFFF);
      (void)langsift::combining_class(x);
    }
    const char32_t c = langsift::compose_pair(a & 0x1FFFFF, b & 0xFFFF);
    check(c <= 0x10FFFF);
    (void)langsift::compose_pair(a, b);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<char> buf = fuzz_text(data, size);
  const std::string_view text(buf.data(), buf.size());
  const decoded dec = check_decode_utf8(buf, text);
  check_script_counts(text, check_script_runs(text, dec));
  check_arbitrary_values(buf);
  return 0;
}
