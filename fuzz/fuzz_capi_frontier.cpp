// libFuzzer: the crawl frontier of the C ABI (include/langsift.h, "Crawl frontier") against the C++
// frontier it wraps (langsift/frontier.hpp), differential. The input is a program, as for
// fuzz_frontier.cpp: byte 0 (and, for some options, the bytes after it) picks the options (NULL,
// the defaults, values from tables or raw floats, some out of range); then each operation is run on
// a langsift_frontier* and on a langsift::frontier alike: set_quota / get_quota, record_fetch,
// add_votes (pages of 0-3 languages, counts out of range, percents, is_short; URL lengths given,
// (size_t)-1 or lens NULL), decide (with a langsift_url_result or NULL), a full language table, and
// calls with invalid arguments (NULL pointers, empty or over-long codes) that must answer
// LANGSIFT_INVALID_ARGUMENT and change nothing.
// Invariants: every C decision is the C++ one (fetch, reason, priority, votes, language) and has a
// priority in 0..1; statuses, quotas and vote counts agree; options out of range (NaN, infinite,
// over 1e6) are refused by the C ABI, and brought into range by the C++ frontier. At the end the
// C frontier is saved to langsift-fuzz-capi-frontier-<pid>.state in $TMPDIR: the file must hold
// the C++ frontier's save() bytes, load into a fresh C frontier deciding as a C++ frontier loaded
// from the same bytes (and as the live one: ties between guesses are broken by code, so the order
// votes came in does not matter), and, truncated or with a byte flipped (where: the input's last
// bytes), fail to load with CORRUPT_STATE (MODEL_VERSION for the version field) and leave that
// frontier unchanged. One save and three loads (one of a missing file) per input.
// Run: build-fuzz/fuzz_capi_frontier fuzz/corpus/capi_frontier -max_total_time=600
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift.h"
#include "langsift/frontier.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();  // the fuzzer's finding, not the library's behaviour
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kMaxF = std::numeric_limits<float>::max();
constexpr std::size_t kNul = static_cast<std::size_t>(-1);  // "NUL-terminated" for a length

// The input, a byte at a time; 0 once it is used up.
struct reader {
  const std::uint8_t* p;
  std::size_t n;
  std::size_t at = 0;
  bool done() const { return at >= n; }
  std::uint8_t byte() { return at < n ? p[at++] : 0; }
  std::string bytes(std::size_t len) {
    len = std::min(len, n - std::min(at, n));
    std::string s(reinterpret_cast<const char*>(p + at), len);
    at += len;
    return s;
  }
  float raw_float() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(byte()) << (8 * i);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
  }
};

// A percent (or min_vote_percent) from a byte: mostly 0..100, some negative, the int extremes.
int percent_of(std::uint8_t b) {
  if (b <= 200) return b / 2;
  if (b == 254) return std::numeric_limits<int>::min();
  if (b == 255) return std::numeric_limits<int>::max();
  return static_cast<std::int8_t>(b);  // -55..-3
}

// Language codes: 14 fixed (valid, 15 bytes, over-long, empty, 24 bytes filling a code array) and
// two set by the program (op 8).
using codes_t = std::array<std::string, 16>;
codes_t initial_codes() {
  return {"de", "en", "fr", "ja", "zh-Hant", "x", "pt", "abcdefghijklmno", "abcdefghijklmnop", "",
          "abcdefghijklmnopqrstuvwx", "ru", "es", "it", "nl", "sv"};
}

// URLs: eight slots, the program may replace them (ops 9, 10). Some normalise to the same key.
using urls_t = std::array<std::string, 8>;
urls_t initial_urls() {
  return {"http://a.example/", "HTTP://A.Example:80/#frag", "https://b.example/de/seite?x=1",
          "https://b.example:443/de/seite?x=1", "http://c.example/\xC3\xBCnicode", "", "not a url",
          "http://d.example/fr/"};
}

// A code into a C array: what follows the terminator is junk the C ABI must not read; a code of
// N bytes fills the array without a terminator.
template <std::size_t N>
void set_code(char (&dst)[N], const std::string& code) {
  std::memset(dst, 'Z', N);
  std::memcpy(dst, code.data(), std::min(code.size(), N));
  if (code.size() < N) dst[code.size()] = '\0';
}

// A URL as passed to the C ABI, and as the C++ frontier must see it.
struct url_arg {
  const char* p;
  std::size_t len;
  std::string_view view;
};
url_arg pass_url(const std::string& u, bool nul_terminated) {
  if (nul_terminated) return {u.c_str(), kNul, std::string_view(u.c_str())};
  return {u.data(), u.size(), std::string_view(u)};
}

// A fetched page: the langsift_result and the detection the C ABI must read from it.
struct page {
  langsift_result c;
  langsift::detection d;
};
page make_page(reader& r, const codes_t& codes) {
  page pg;
  std::memset(&pg.c, 0x5A, sizeof pg.c);  // fields the frontier does not read hold junk
  pg.c.status = LANGSIFT_OK;
  const std::uint8_t b = r.byte();
  static constexpr int kCounts[8] = {1, 2, 3, 0, 1, 2, -1, 4};
  pg.c.count = kCounts[b & 7];
  pg.c.is_short = (b & 8) ? ((b & 16) ? 1 : -7) : 0;
  pg.c.text_bytes = static_cast<std::size_t>(b) * 7;
  for (int i = 0; i < 3; ++i) {
    const std::string& code = codes[r.byte() & 15];
    set_code(pg.c.languages[i].code, code);
    pg.c.languages[i].percent = percent_of(r.byte());
    pg.c.languages[i].bytes = static_cast<std::size_t>(pg.c.languages[i].percent) * 3;
    if (static_cast<int>(pg.d.count) < pg.c.count) {
      pg.d.languages[pg.d.count].code = code;
      pg.d.languages[pg.d.count].percent = pg.c.languages[i].percent;
      pg.d.languages[pg.d.count].bytes = pg.c.languages[i].bytes;
      ++pg.d.count;
    }
  }
  pg.d.text_bytes = pg.c.text_bytes;
  pg.d.is_short = pg.c.is_short != 0;
  return pg;
}

// A URL classifier's answer: the langsift_url_result and the url_result the C ABI must read.
struct scores {
  langsift_url_result c;
  langsift::url_result u;
};
scores make_scores(reader& r, const codes_t& codes) {
  scores s;
  std::memset(&s.c, 0x5A, sizeof s.c);
  s.c.status = LANGSIFT_OK;
  const std::uint8_t b = r.byte();
  static constexpr int kCounts[8] = {1, 2, 3, 0, 1, 3, -2, 5};
  s.c.count = kCounts[b & 7];
  static constexpr float kScores[16] = {0.9f, 0.5f, 0.3f,  0.29f, 0.1f,  1.0f,   0.0f,  0.7f,
                                        1.5f, -0.5f, kNaN, kInf,  -kInf, 1e-30f, 0.31f, 0.05f};
  for (int i = 0; i < 3; ++i) {
    const std::string& code = codes[r.byte() & 15];
    set_code(s.c.languages[i].code, code);
    s.c.languages[i].score = kScores[r.byte() & 15];
    if (static_cast<int>(s.u.count) < s.c.count) {
      s.u.languages[s.u.count] = {code, s.c.languages[i].score};
      ++s.u.count;
    }
  }
  return s;
}

bool same_float(float a, float b) {
  if (a != a && b != b) return true;  // both NaN
  return std::memcmp(&a, &b, sizeof a) == 0;
}

int c_reason(langsift::frontier_reason r) {
  switch (r) {
    case langsift::frontier_reason::wanted: return LANGSIFT_FRONTIER_WANTED;
    case langsift::frontier_reason::unknown: return LANGSIFT_FRONTIER_UNKNOWN;
    case langsift::frontier_reason::unwanted: return LANGSIFT_FRONTIER_UNWANTED;
    case langsift::frontier_reason::saturated: return LANGSIFT_FRONTIER_SATURATED;
    case langsift::frontier_reason::fetched: return LANGSIFT_FRONTIER_FETCHED;
    case langsift::frontier_reason::invalid: return LANGSIFT_FRONTIER_INVALID;
  }
  return -1;
}

// Whether decide() keeps its priority in 0..1: not with infinite or huge url_weight / vote_prior,
// which the C ABI accepts (they give NaN; see the report of the fuzzer's first run).

void same_decision(const langsift_frontier_decision& c, const langsift::frontier_decision& d) {
  check(std::memchr(c.language, '\0', sizeof c.language) != nullptr);
  check(c.fetch == (d.fetch() ? 1 : 0));
  check(c.reason == c_reason(d.reason));
  check(same_float(c.priority, d.priority));
  check(c.votes == d.votes);
  check(std::string_view(c.language) == d.language());
  // the documented ranges
  check(c.priority >= 0 && c.priority <= 1);
  check(c.fetch == (c.reason <= LANGSIFT_FRONTIER_UNWANTED ? 1 : 0));
}

// decide() on both; the C decision is returned.
langsift_frontier_decision decide_both(const langsift_frontier* cf, const langsift::frontier& f, const url_arg& u,
                                       const scores* s) {
  langsift_frontier_decision x;
  std::memset(&x, 0xA5, sizeof x);  // the C ABI must write every field
  check(langsift_frontier_decide(cf, u.p, u.len, s ? &s->c : nullptr, &x) == LANGSIFT_OK);
  same_decision(x, f.decide(u.view, s ? &s->u : nullptr));
  return x;
}

struct options {
  langsift_frontier_options c;
  bool null = false;  // langsift_frontier_new(NULL, ...)
};

options make_options(reader& r) {
  options o;
  langsift_frontier_default_options(&o.c);
  const std::uint8_t b = r.byte();
  const int mode = b & 3;
  if (mode == 0) {
    o.null = true;
    return o;
  }
  static constexpr std::size_t kMaxUrls[4] = {0, 1, 64, static_cast<std::size_t>(-1)};
  o.c.max_urls = kMaxUrls[(b >> 2) & 3];
  const int on = (b & 0x40) ? 1 : -1;  // any nonzero int is "on"
  o.c.skip_saturated = (b & 0x10) ? 0 : on;
  o.c.skip_unwanted = (b & 0x20) ? on : 0;
  if (b & 0x80) o.c.min_vote_percent = percent_of(r.byte());
  if (mode == 2) {  // from tables, some out of range
    static constexpr float kWeights[16] = {0, 0.5f, 1, 2, 3, 10, 1e6f, kMaxF, kInf, -1, kNaN, -0.0f, 1e-30f, 0.25f, 5, 100};
    static constexpr float kGuess[8] = {0, 0.1f, 0.3f, 0.5f, 1, 2, -0.1f, kNaN};
    static constexpr float kUnknown[8] = {0, 0.05f, 0.1f, 0.5f, 1, 1.0001f, -0.01f, kNaN};
    o.c.url_weight = kWeights[r.byte() & 15];
    o.c.vote_prior = kWeights[r.byte() & 15];
    o.c.min_url_guess = kGuess[r.byte() & 7];
    o.c.unknown_priority = kUnknown[r.byte() & 7];
  } else if (mode == 3) {  // raw floats
    o.c.url_weight = r.raw_float();
    o.c.vote_prior = r.raw_float();
    o.c.min_url_guess = r.raw_float();
    o.c.unknown_priority = r.raw_float();
  }
  return o;
}

// langsift.h's contract for langsift_frontier_new, restated here on purpose (an oracle independent
// of frontier::in_range, which the C ABI calls).
bool valid(const langsift_frontier_options& o) {
  return o.url_weight >= 0 && o.url_weight <= 1e6f && o.vote_prior >= 0 && o.vote_prior <= 1e6f &&
         o.min_url_guess >= 0 && o.min_url_guess <= 1e6f && o.unknown_priority >= 0 && o.unknown_priority <= 1;
}

langsift::frontier_options cpp_options(const options& o) {
  langsift::frontier_options r;
  if (o.null) return r;
  r.min_vote_percent = o.c.min_vote_percent;
  r.url_weight = o.c.url_weight;
  r.vote_prior = o.c.vote_prior;
  r.min_url_guess = o.c.min_url_guess;
  r.unknown_priority = o.c.unknown_priority;
  r.skip_saturated = o.c.skip_saturated != 0;
  r.skip_unwanted = o.c.skip_unwanted != 0;
  r.max_urls = o.c.max_urls;
  return r;
}

langsift_frontier* new_frontier(const options& o) {
  langsift_frontier* cf = reinterpret_cast<langsift_frontier*>(&cf);  // must be overwritten
  check(langsift_frontier_new(o.null ? nullptr : &o.c, &cf) == LANGSIFT_OK && cf != nullptr);
  return cf;
}

// The state of a C frontier is the C++ one: decisions on every URL slot (without URL scores, and
// with them unless `quick`) and every quota the C++ frontier knows of.
void same_state(const langsift_frontier* cf, const langsift::frontier& f, const urls_t& urls, const codes_t& codes,
                bool quick = false) {
  static const std::string probe_codes[3] = {"de", "fr", "abcdefghijklmnopqrstuvwx"};
  scores s;
  std::memset(&s.c, 0, sizeof s.c);
  s.c.count = 3;
  for (int i = 0; i < 3; ++i) {
    set_code(s.c.languages[i].code, probe_codes[i]);
    s.c.languages[i].score = 0.4f - 0.1f * static_cast<float>(i);
    s.u.languages[i] = {probe_codes[i], s.c.languages[i].score};
  }
  s.u.count = 3;
  for (const std::string& u : urls) {
    decide_both(cf, f, pass_url(u, false), nullptr);
    if (!quick) decide_both(cf, f, pass_url(u, false), &s);
  }
  for (const auto& [code, q] : f.quotas()) {
    unsigned long long t = 1, c = 1;
    check(langsift_frontier_get_quota(cf, code.c_str(), &t, &c) == LANGSIFT_OK);
    check(t == q.target && c == q.count);
  }
  for (const std::string& code : codes) {
    unsigned long long t = 1, c = 1;
    check(langsift_frontier_get_quota(cf, code.c_str(), &t, &c) == LANGSIFT_OK);
    const langsift::frontier_quota q = f.quota(code);
    check(t == q.target && c == q.count);
  }
}

// A frontier loaded from a state file against the live one it was saved from: the same quotas and
// the same decisions, exactly (a live slot holds its guesses in the order they were voted for, a
// loaded one in code order: the answer must not depend on it).
void equivalent(const langsift::frontier& loaded, const langsift::frontier& live, const urls_t& urls) {
  for (const std::string& u : urls) {
    const langsift::frontier_decision a = loaded.decide(u), b = live.decide(u);
    check(a.action == b.action && a.reason == b.reason && a.votes == b.votes && a.count == b.count);
    check(a.priority == b.priority && a.language() == b.language());
  }
  const auto qa = loaded.quotas(), qb = live.quotas();
  check(qa.size() == qb.size());
  for (std::size_t i = 0; i < qa.size(); ++i)
    check(qa[i].first == qb[i].first && qa[i].second.target == qb[i].second.target &&
          qa[i].second.count == qb[i].second.count);
  check(loaded.size() == live.size() && loaded.dropped_votes() == live.dropped_votes());
}

// An error buffer of a size from the input, with a canary after it.
struct error_buffer {
  char b[300];
  std::size_t size;
  explicit error_buffer(std::uint8_t sel) {
    static constexpr std::size_t kSizes[4] = {0, 1, 9, 256};
    size = kSizes[sel & 3];
    std::memset(b, '#', sizeof b);
  }
  char* ptr() { return size ? b : nullptr; }
  void check_message(bool want_text) const {
    check(b[size] == '#');  // nothing written past error_size
    if (!size) return;
    check(std::memchr(b, '\0', size) != nullptr);
    if (size > 1) check((b[0] != '\0') == want_text);
  }
};

std::string read_file(const std::string& path) {
  std::string r;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  check(f != nullptr);
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) r.append(buf, got);
  check(std::ferror(f) == 0);
  std::fclose(f);
  return r;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  check(f != nullptr);
  check(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  check(std::fclose(f) == 0);
}

// Op 7: a call with an invalid argument; it must answer LANGSIFT_INVALID_ARGUMENT and do nothing.
void invalid_call(langsift_frontier* cf, std::uint8_t which, const urls_t& urls) {
  langsift_result pg;
  std::memset(&pg, 0, sizeof pg);
  pg.count = 1;
  set_code(pg.languages[0].code, "de");
  pg.languages[0].percent = 100;
  const char* u = urls[which >> 5].c_str();
  unsigned long long t = 7, c = 7;
  std::size_t votes = 7;
  langsift_frontier_decision x;
  std::memset(&x, 0xA5, sizeof x);
  const char* some[3] = {urls[0].c_str(), u, nullptr};
  constexpr langsift_status kBad = LANGSIFT_INVALID_ARGUMENT;
  switch (which % 18) {
    case 0: check(langsift_frontier_set_quota(nullptr, "de", 5) == kBad); break;
    case 1: check(langsift_frontier_set_quota(cf, nullptr, 5) == kBad); break;
    case 2:
      check(langsift_frontier_get_quota(nullptr, "de", &t, &c) == kBad);
      check(t == 0 && c == 0);
      break;
    case 3:
      check(langsift_frontier_get_quota(cf, nullptr, &t, &c) == kBad);
      check(t == 0 && c == 0);
      break;
    case 4: check(langsift_frontier_record_fetch(nullptr, u, kNul, &pg) == kBad); break;
    case 5: check(langsift_frontier_record_fetch(cf, nullptr, 3, &pg) == kBad); break;
    case 6: check(langsift_frontier_record_fetch(cf, u, kNul, nullptr) == kBad); break;
    case 7:
      check(langsift_frontier_add_votes(nullptr, &pg, some, nullptr, 2, &votes) == kBad);
      check(votes == 0);
      break;
    case 8:
      check(langsift_frontier_add_votes(cf, nullptr, some, nullptr, 2, &votes) == kBad);
      check(votes == 0);
      break;
    case 9:
      check(langsift_frontier_add_votes(cf, &pg, nullptr, nullptr, 2, &votes) == kBad);
      check(votes == 0);
      break;
    case 10:  // a NULL among the URLs: no vote at all, not even for the URLs before it
      check(langsift_frontier_add_votes(cf, &pg, some, nullptr, 3, &votes) == kBad);
      check(votes == 0);
      break;
    case 11:
      check(langsift_frontier_decide(nullptr, u, kNul, nullptr, &x) == kBad);
      check(x.fetch == 0 && x.reason == LANGSIFT_FRONTIER_INVALID && std::strcmp(x.language, "und") == 0);
      break;
    case 12:
      check(langsift_frontier_decide(cf, nullptr, 0, nullptr, &x) == kBad);
      check(x.fetch == 0 && x.reason == LANGSIFT_FRONTIER_INVALID && std::strcmp(x.language, "und") == 0);
      break;
    case 13: check(langsift_frontier_decide(cf, u, kNul, nullptr, nullptr) == kBad); break;
    case 14:
    case 15:
    case 16:
    case 17: {  // save (14, 15) or load (16, 17) with a NULL frontier (even) or a NULL path (odd)
      const bool null_path = (which % 18) & 1;
      langsift_frontier* target = null_path ? cf : nullptr;
      const char* path = null_path ? nullptr : "never-opened.state";
      error_buffer e(which >> 5);
      check(((which % 18) < 16 ? langsift_frontier_save(target, path, e.ptr(), e.size)
                               : langsift_frontier_load(target, path, e.ptr(), e.size)) == kBad);
      e.check_message(true);
      break;
    }
  }
}

// One file per fuzzing process, in the system's temporary directory ($TMPDIR).
const std::string& state_path() {
  static const std::string p =
      (std::filesystem::temp_directory_path() / ("langsift-fuzz-capi-frontier-" + std::to_string(getpid()) + ".state"))
          .string();
  return p;
}

// The end of a program: save, load into a fresh frontier, load corrupted bytes.
void save_and_load(const langsift_frontier* cf, const langsift::frontier& f, const options& o, const urls_t& urls,
                   const codes_t& codes, const std::uint8_t* data, std::size_t size) {
  const std::uint8_t c0 = data[size - 1], c1 = size > 1 ? data[size - 2] : 0, c2 = size > 2 ? data[size - 3] : 0;
  const std::string& path = state_path();
  error_buffer e(c0 >> 6);
  check(langsift_frontier_save(cf, path.c_str(), e.ptr(), e.size) == LANGSIFT_OK);
  e.check_message(false);
  const std::string bytes = read_file(path);
  check(bytes == f.save());  // the format is canonical: the same state, the same bytes

  langsift_frontier* g = new_frontier(o);
  error_buffer e2(c0 >> 4);
  check(langsift_frontier_load(g, path.c_str(), e2.ptr(), e2.size) == LANGSIFT_OK);
  e2.check_message(false);
  langsift::frontier h(cpp_options(o));  // the C++ frontier loaded from the same bytes
  check(langsift::frontier::load_copy(bytes, h) == langsift::status::ok);
  same_state(g, h, urls, codes);
  equivalent(h, f, urls);

  // truncated or one byte flipped: rejected, g unchanged
  std::string bad = bytes;
  const std::size_t pos = (static_cast<std::size_t>(c1) | static_cast<std::size_t>(c2) << 8) % bytes.size();
  langsift_status want = LANGSIFT_CORRUPT_STATE;
  if (c0 & 1) {
    bad.resize(pos);
  } else {
    const std::size_t at = (c0 & 2) ? 8 + (c1 & 3) : pos;  // sometimes the format version
    bad[at] = static_cast<char>(bad[at] ^ ((c0 >> 2) | 1));
    if (at >= 8 && at < 12) want = LANGSIFT_MODEL_VERSION;
  }
  write_file(path, bad);
  error_buffer e3(c0 >> 2);
  check(langsift_frontier_load(g, path.c_str(), e3.ptr(), e3.size) == want);
  e3.check_message(true);
  std::remove(path.c_str());
  error_buffer e4(c0 >> 3);
  check(langsift_frontier_load(g, path.c_str(), e4.ptr(), e4.size) == LANGSIFT_IO_ERROR);  // now missing
  e4.check_message(true);
  same_state(g, h, urls, codes, true);
  langsift_frontier_free(g);
}

// The C defaults are the C++ ones; NULL arguments of the constructor and destructor.
void check_defaults() {
  langsift_frontier_options d;
  std::memset(&d, 0x5A, sizeof d);
  langsift_frontier_default_options(&d);
  const langsift::frontier_options x;
  check(d.min_vote_percent == x.min_vote_percent && same_float(d.url_weight, x.url_weight) &&
        same_float(d.vote_prior, x.vote_prior) && same_float(d.min_url_guess, x.min_url_guess) &&
        same_float(d.unknown_priority, x.unknown_priority) && d.skip_saturated == (x.skip_saturated ? 1 : 0) &&
        d.skip_unwanted == (x.skip_unwanted ? 1 : 0) && d.max_urls == x.max_urls);
  langsift_frontier_default_options(nullptr);
  langsift_frontier_free(nullptr);
  check(langsift_frontier_new(nullptr, nullptr) == LANGSIFT_INVALID_ARGUMENT);
}

// Options out of range: the C frontier refuses them, the C++ one brings them into range (its
// priorities are numbers in 0..1 too); the program goes on with the defaults.
void check_invalid_options(options& o) {
  if (o.null || valid(o.c)) return;
  langsift_frontier* bad = reinterpret_cast<langsift_frontier*>(&bad);
  check(langsift_frontier_new(&o.c, &bad) == LANGSIFT_INVALID_ARGUMENT);
  check(bad == nullptr);
  langsift::frontier g(cpp_options(o));
  const langsift::frontier_options& k = g.options();
  check(valid({k.min_vote_percent, k.url_weight, k.vote_prior, k.min_url_guess, k.unknown_priority, 1, 0, 0}));
  o.null = true;
}

// The two frontiers a program drives side by side, and the program's codes and URLs.
struct program {
  reader& r;
  langsift_frontier* cf;
  langsift::frontier& f;
  codes_t codes = initial_codes();
  urls_t urls = initial_urls();
  bool filled = false;               // op 11 done
  std::size_t repeat_budget = 2048;  // URLs op 13 may still pass

  // ops 0, 1: one page's votes for up to 5 URLs, with the lengths or the URL array in every form.
  void add_votes() {
    const std::uint8_t p = r.byte();
    std::size_t n = p % 6;
    const int lens_mode = (p >> 3) & 3;  // 0: lens NULL, 1: lengths, 2: some (size_t)-1, 3: urls NULL if n == 0
    const page pg = make_page(r, codes);
    std::vector<const char*> ptrs;
    std::vector<std::size_t> lens;
    std::vector<std::string_view> views;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t u = r.byte();
      const bool nul = lens_mode == 0 || lens_mode == 3 || (lens_mode == 2 && (u & 8));
      const url_arg a = pass_url(urls[u & 7], nul);
      ptrs.push_back(a.p);
      lens.push_back(a.len);
      views.push_back(a.view);
    }
    std::size_t votes = 12345;
    const bool want_votes = (p & 0x80) == 0;
    const char* const* up = (lens_mode == 3 && n == 0) ? nullptr : ptrs.data();
    const std::size_t* lp = (lens_mode == 0 || lens_mode == 3) ? nullptr : lens.data();
    check(langsift_frontier_add_votes(cf, &pg.c, up, lp, n, want_votes ? &votes : nullptr) == LANGSIFT_OK);
    const std::size_t k = f.add_votes(pg.d, std::span<const std::string_view>(views));
    if (want_votes) check(votes == k);
  }

  // op 2
  void record_fetch() {
    const std::uint8_t p = r.byte();
    const url_arg a = pass_url(urls[p & 7], (p & 8) != 0);
    const page pg = make_page(r, codes);
    check(langsift_frontier_record_fetch(cf, a.p, a.len, &pg.c) == LANGSIFT_OK);
    f.record_fetch(a.view, pg.d);
  }

  // ops 3, 4, 14: with or without URL scores
  void decide() {
    const std::uint8_t p = r.byte();
    const url_arg a = pass_url(urls[p & 7], (p & 8) != 0);
    if (p & 16) {
      const scores s = make_scores(r, codes);
      decide_both(cf, f, a, &s);
    } else {
      decide_both(cf, f, a, nullptr);
    }
  }

  // ops 5, 15
  void set_quota() {
    const std::uint8_t p = r.byte();
    const std::string& code = codes[p & 15];
    static constexpr unsigned long long kTargets[16] = {
        0, 1, 2, 3, 1, 2, 5, 10, 100, 0, 1, 1ULL << 32, ~0ULL, ~0ULL - 1, 4, 7};
    const unsigned long long t = kTargets[r.byte() & 15];
    const langsift_status st = langsift_frontier_set_quota(cf, code.c_str(), t);
    const bool ok = f.set_quota(code, t);
    check(st == (ok ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT));
    if (code.empty() || code.size() > 15) check(st == LANGSIFT_INVALID_ARGUMENT);
  }

  // op 6: get_quota, with either pointer NULL
  void get_quota() {
    const std::uint8_t p = r.byte();
    const std::string& code = codes[p & 15];
    unsigned long long t = 99, c = 99;
    check(langsift_frontier_get_quota(cf, code.c_str(), (p & 16) ? nullptr : &t, (p & 32) ? nullptr : &c) ==
          LANGSIFT_OK);
    const langsift::frontier_quota q = f.quota(code);
    check((p & 16) ? t == 99 : t == q.target);
    check((p & 32) ? c == 99 : c == q.count);
  }

  // ops 8-10: a code of the program's own (0-24 bytes, up to a NUL: it is a C string), a URL of
  // its own (NULs included), a long URL
  void own_code() {
    const std::uint8_t p = r.byte();
    std::string code = r.bytes(p % 25);
    code.resize(std::strlen(code.c_str()));
    codes[14 + (p >> 7)] = code;
  }
  void own_url() {
    const std::uint8_t p = r.byte();
    urls[p & 7] = r.bytes(r.byte());
  }
  void long_url() {
    const std::uint8_t p = r.byte();
    urls[p & 7] = "http://long.example/" + std::string(static_cast<std::size_t>(r.byte()) * 40, 'a' + (p >> 3) % 26);
  }

  // op 11: many codes, up to a full language table (once per input: it is slow)
  void many_codes() {
    const std::size_t k = filled ? 0 : static_cast<std::size_t>(r.byte()) + 1;
    filled = true;
    for (std::size_t i = 0; i < k; ++i) {
      const std::string code = "q" + std::to_string(i);
      const langsift_status st = langsift_frontier_set_quota(cf, code.c_str(), i % 3);
      check(st == (f.set_quota(code, i % 3) ? LANGSIFT_OK : LANGSIFT_INVALID_ARGUMENT));
    }
  }

  // op 12: every URL slot, without URL scores
  void decide_all(std::uint8_t op) {
    const bool nul = (op & 16) != 0;
    for (const std::string& u : urls) decide_both(cf, f, pass_url(u, nul), nullptr);
  }

  // op 13: one page voting many times for one URL (vote counts saturate at 255)
  void repeated_votes() {
    const std::uint8_t p = r.byte();
    const page pg = make_page(r, codes);
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(r.byte()) * 2, repeat_budget);
    repeat_budget -= n;
    const url_arg a = pass_url(urls[p & 7], (p & 8) != 0);
    const std::vector<const char*> ptrs(n, a.p);
    const std::vector<std::size_t> lens(n, a.len);
    const std::vector<std::string_view> views(n, a.view);
    std::size_t votes = 0;
    check(langsift_frontier_add_votes(cf, &pg.c, ptrs.data(), lens.data(), n, &votes) == LANGSIFT_OK);
    check(votes == f.add_votes(pg.d, std::span<const std::string_view>(views)));
  }

  // One operation: the low 4 bits of `op` choose it.
  void step(std::uint8_t op) {
    switch (op & 15) {
      case 0: case 1: add_votes(); break;
      case 2: record_fetch(); break;
      case 3: case 4: case 14: decide(); break;
      case 5: case 15: set_quota(); break;
      case 6: get_quota(); break;
      case 7: invalid_call(cf, r.byte(), urls); break;
      case 8: own_code(); break;
      case 9: own_url(); break;
      case 10: long_url(); break;
      case 11: many_codes(); break;
      case 12: decide_all(op); break;
      case 13: repeated_votes(); break;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  reader r{data, size};
  check_defaults();
  options o = make_options(r);
  check_invalid_options(o);
  langsift_frontier* cf = new_frontier(o);
  langsift::frontier f(cpp_options(o));
  program prog{r, cf, f};
  while (!r.done()) prog.step(r.byte());
  same_state(cf, f, prog.urls, prog.codes);
  save_and_load(cf, f, o, prog.urls, prog.codes, data, size);
  langsift_frontier_free(cf);
  return 0;
}
