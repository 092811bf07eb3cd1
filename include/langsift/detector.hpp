// langsift — language identification of UTF-8 text: up to three languages with percent and bytes.
//
//   const langsift::model& m = langsift::default_model();      // or model::load_file(...)
//   langsift::detection d = langsift::detect(m, text);
//   d.language()            -> "de" (or "und")
//   d.languages[i]          -> {code, percent, bytes, score} for i < d.count, most bytes first
//   d.reliable, d.is_short  -> flags (see below)
//
// The pipeline (docs/detection.md):
//  1. the text is split into runs of one script (script.hpp); a run in a script that only one of
//     the model's languages is written in is that language at once (Hangul -> ko, Thai -> th,
//     Han with kana -> ja...), and a script no model language has decides by the script table;
//  2. other runs are cut into units of about `unit_bytes` at whitespace; each unit is scored
//     against the model languages written in its script: the "bayes" score sums, over the unit's
//     n-grams (orders 1..5) and words, the log-probability weights of the multi-profile table,
//     a feature missing from a language's profile costing that language its floor; the "rank"
//     score is TextCat's out-of-place distance between the n-gram ranks of the text and of each
//     profile (see `scorer`);
//  3. the units of a run are labelled by the best path through them (Viterbi): the sum of the
//     units' scores minus `switch_penalty` for every change of language. A monolingual page is
//     not sprinkled with near-miss languages, and a bilingual one splits where the text does;
//  4. bytes per language give percent (of text bytes) and bytes; the top language's fit to its
//     own training text gives `score` and the `und` decision; its margin gives `reliable`.
// Cost is linear in the input: at most `max_text_bytes` are examined (sampled across longer
// text), and no allocation happens per call once a thread's scratch space has grown.
//
// Thread safety: `detect` only reads the model; any number of threads may call it at once on the
// same model (each thread uses its own scratch space).
#pragma once

#include <algorithm>
#include <bit>
#include <array>
#include <cmath>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/country.hpp"
#include "langsift/model.hpp"
#include "langsift/ngram.hpp"
#include "langsift/script.hpp"

namespace langsift {
inline namespace v1 {

/// How chunks are scored.
enum class scorer : std::uint8_t {
  automatic,  ///< bayes (measured best at every length, see docs/detection.md)
  bayes,      ///< log-probability of the chunk's n-grams and words under each profile
  rank,       ///< Cavnar–Trenkle out-of-place rank distance (TextCat), n-grams of orders 1..5
};

/// Prior knowledge about the document's language. Each hinted language that the model knows
/// gets a prior bonus; it decides close calls on short text and is negligible on long text.
struct detect_hints {
  std::string_view content_language;  ///< HTTP Content-Language or <meta http-equiv>: "de, en-GB"
  std::string_view html_lang;         ///< <html lang>: "pt-BR"
  std::string_view languages;         ///< any other comma-separated language codes
  std::string_view tld;               ///< the page's top-level domain or host ("de", "www.x.co.uk"):
                                      ///< the country's official languages, at half the weight
  float weight = 1.0f;                ///< strength of the bonus; 0 disables hints
};

struct detect_options {
  std::size_t max_text_bytes = 64 * 1024;  ///< examined at most; longer text is sampled evenly
  std::size_t short_text_bytes = 400;      ///< text bytes below which `is_short` is set (ClueWeb09)
  std::size_t unit_bytes = 64;             ///< runs are scored in units of about this size
  std::span<const std::string_view> only;  ///< restrict to these codes ("zh" also allows zh-Hant); empty: all
  detect_hints hints;
  scorer method = scorer::automatic;
  float undefined_score = 0.25f;  ///< normalised score below which the answer is und (not language)
  float switch_penalty = 300.0f;  ///< score a change of language between neighbouring units costs
  /// Skim long runs (6+ units): score every third unit, and the others only between two that
  /// disagree. false: score every unit.
  bool skim = true;
  /// Stop reading a unit once its language is clear (confidence >= exit_confidence); the rest of
  /// the unit counts for that language. false: read every feature.
  bool early_exit = true;
  float exit_confidence = 0.9995f;
  /// Text with at least this many code-like ASCII symbols per letter ({}[]<>=;*/\\|&^~_#$@%+"():, a run
  /// of one symbol counting once) is not natural language (source code, markup, data): the answer
  /// is und. 0 disables the test.
  float max_code_symbols = 0.2f;
};

/// One detected language.
struct language_estimate {
  std::string_view code;   ///< ISO 639-1 where one exists, else 639-3 (+ "-Xxxx" script subtag)
  int percent = 0;         ///< share of the text bytes, 0..100
  std::size_t bytes = 0;   ///< text bytes in this language (total bytes × percent / 100, unrounded)
  float score = 0;         ///< fit to the language's own training text: ~1 normal, < 0.5 unusual
};

/// The answer for one document.
struct detection {
  std::array<language_estimate, 3> languages{};  ///< most bytes first; `count` are valid
  std::size_t count = 0;
  std::size_t text_bytes = 0;      ///< bytes of the text's script runs (letters and what joins them)
  std::size_t examined_bytes = 0;  ///< bytes actually scored (< input size when sampled)
  float confidence = 0;  ///< 0..1: how clearly the top language beats the runner-up on the whole text
  /// What `confidence` is computed from: the top language's score lead over its strongest rival
  /// (model score units; confidence = logistic(a × margin + b) with the model's calibration).
  /// Infinity when the top language has no scored rival (decided by its script); 0 for `und`.
  float margin = 0;
  bool reliable = false; ///< top language clearly ahead, fits its profile, and >= 70 % of the text
  bool is_short = false; ///< fewer than `short_text_bytes` text bytes (the guess is still given)
  bool sampled = false;  ///< the input exceeded `max_text_bytes` and was sampled
  status st = status::ok;  ///< empty_input when there is no letter at all

  /// The top language, or "und" (undefined: no letters, or not natural language).
  std::string_view language() const noexcept { return count ? languages[0].code : std::string_view("und"); }
};

namespace detail {

/// A piece of a script run, scored on its own.
struct unit {
  std::string_view text;               // the unit's text (a view into the input)
  std::size_t bytes;                   // text bytes this unit stands for
  std::uint32_t run;                   // index of its script run (segmentation runs within a run)
  std::uint32_t score_begin;           // into scratch.scores / hits: size_pad floats, by local index
  const group_table* g;                // the languages of its script; null: decided without scores
  std::uint32_t group;
  script sc;
  int lang = -1;                       // model language index, after segmentation
  std::string_view decided;            // a language decided by the script alone, outside the model
  float features = 0;                  // features with a weight (0 until scored)
  float letters = 0;                   // letters those features came from
  bool scored = false;
};

struct language_bytes {
  double bytes;
  int lang;  // model index, or -1 for a language decided by its script alone (`code`)
  std::string_view code;
};

struct detect_scratch {
  std::vector<script_run> runs;
  std::vector<std::uint64_t> feats;
  std::vector<unit> units;
  std::vector<float> scores, hits;       // per scored unit: size_pad floats, by local language
  std::vector<std::uint16_t> acc16;      // per group language: quantised weights of a batch
  std::vector<std::uint32_t> slotv;      // slots of a unit's features
  std::vector<std::uint32_t> by_type;    // their payloads grouped by type (group_table::add_all)
  std::vector<slot_address> addr;        // their bucket addresses
  std::vector<float> allowed;            // per group: size_pad, 0 allowed / -inf not (restricted calls)
  std::vector<std::uint32_t> allowed_at; // per group: offset into `allowed`, or ~0 when not built
  std::vector<std::uint32_t> allowed_count;
  std::vector<float> bonus;              // per model language (hints)
  std::vector<float> viterbi, own;
  std::vector<std::int32_t> back;
  std::vector<std::uint32_t> order;      // the scored units of a run, in order
  std::vector<float> acc;                // per model language (rank scorer)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> ranks;
  std::vector<language_bytes> items;
};

inline detect_scratch& thread_scratch() {
  thread_local detect_scratch s;
  return s;
}

inline bool code_matches(std::string_view code, std::string_view wanted) noexcept {
  if (code == wanted) return true;
  // "zh" allows "zh-Hant"; "sr" allows "sr-Latn"
  return code.size() > wanted.size() && code.substr(0, wanted.size()) == wanted && code[wanted.size()] == '-';
}

inline bool allowed_code(std::string_view code, std::span<const std::string_view> only) noexcept {
  if (only.empty()) return true;
  for (auto w : only)
    if (code_matches(code, w)) return true;
  return false;
}

/// Calls f(tag) for each language tag in a comma/space separated list, lower-cased primary
/// subtag plus the script subtag if any ("pt-BR" -> "pt", "zh-Hant-TW" -> "zh-Hant").
template <class F>
inline void for_each_hint(std::string_view list, F&& f) {
  std::size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && (list[i] == ',' || list[i] == ' ' || list[i] == ';' || list[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < list.size() && list[j] != ',' && list[j] != ' ' && list[j] != ';' && list[j] != '\t') ++j;
    std::string_view tag = list.substr(i, j - i);
    i = j;
    if (tag.empty() || tag.size() > 40) continue;
    char buf[16];
    std::size_t n = 0;
    std::size_t k = 0;
    while (k < tag.size() && tag[k] != '-' && tag[k] != '_' && n < 8) {
      char c = tag[k++];
      buf[n++] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    }
    if (n < 2) continue;
    f(std::string_view(buf, n));
    // script subtag (4 letters) right after the primary one
    if (k < tag.size() && k + 5 <= tag.size() && (k + 5 == tag.size() || tag[k + 5] == '-' || tag[k + 5] == '_')) {
      std::string_view sub = tag.substr(k + 1, 4);
      bool alpha = true;
      for (char c : sub) alpha = alpha && ((c | 32) >= 'a' && (c | 32) <= 'z');
      if (alpha && n + 5 <= sizeof buf) {
        buf[n] = '-';
        buf[n + 1] = static_cast<char>(sub[0] & ~32);
        for (int q = 1; q < 4; ++q) buf[n + 1 + q] = static_cast<char>(sub[q] | 32);
        f(std::string_view(buf, n + 5));
      }
    }
  }
}

constexpr bool is_code_symbol(char c) noexcept {
  switch (c) {
    case '{': case '}': case '[': case ']': case '<': case '>': case '=': case ';': case '*': case '/':
    case '\\': case '|': case '&': case '^': case '~': case '_': case '#': case '$': case '@': case '%': case '+':
    case '"': case '(': case ')': case ':':
      return true;
    default:
      return false;
  }
}

/// The code symbols as ranges of ASCII: " # $ % &  ( ) * +  /  : ; < = >  @  [ \\ ] ^ _  { | } ~
inline constexpr std::pair<char, char> kCodeSymbolRanges[] = {{0x22, 0x26}, {0x28, 0x2B}, {0x2F, 0x2F}, {0x3A, 0x3E},
                                                              {0x40, 0x40}, {0x5B, 0x5F}, {0x7B, 0x7E}};
static_assert(
    [] {
      for (int c = 0; c < 128; ++c) {
        bool in = false;
        for (const auto& [lo, hi] : kCodeSymbolRanges) in = in || (c >= lo && c <= hi);
        if (in != is_code_symbol(static_cast<char>(c))) return false;
      }
      return true;
    }(),
    "kCodeSymbolRanges must be is_code_symbol");

/// Per byte value: 1 = code symbol, 2 = ASCII upper-case letter, 4 = ASCII lower-case letter,
/// 8 = a byte of a letter (an ASCII letter or any byte of a multi-byte sequence).
inline constexpr auto kByteFlags = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    t[b] = static_cast<std::uint8_t>((is_code_symbol(c) ? 1 : 0) | (b >= 'A' && b <= 'Z' ? 2 : 0) |
                                     (b >= 'a' && b <= 'z' ? 4 : 0) | (b >= 0x80 || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') ? 8 : 0));
  }
  return t;
}();

/// Counts, in bytes[0, n), the code symbols (a run of one symbol counting once) and the case
/// switches (an ASCII capital right after an ASCII lower-case letter); the byte before bytes[0]
/// counts as 0. 16 bytes at a time without branches: byte-class masks of each block and of the
/// same block shifted by one byte, combined and counted.
inline void count_symbols_and_case(const unsigned char* bytes, std::size_t n, std::size_t& code_symbols,
                                   std::size_t& case_switches) noexcept {
  auto one = [&](std::size_t i) LANGSIFT_ALWAYS_INLINE {
    const unsigned f = kByteFlags[bytes[i]];
    if ((f & 3u) == 0) return;
    const unsigned char prev = i ? bytes[i - 1] : 0;
    if (f & 1u) code_symbols += bytes[i] != prev;        // "____" counts once
    else case_switches += (kByteFlags[prev] >> 2) & 1u;  // lower-case, then upper-case
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= 17) {
    one(0);
    i = 1;
    // x in [lo, hi] for ASCII lo..hi (signed compares: bytes >= 0x80 are negative, never inside);
    // the bounds as vectors once, outside the loop
    constexpr std::size_t R = std::size(kCodeSymbolRanges);
    __m128i below[R + 2], above[R + 2];
    for (std::size_t r = 0; r < R; ++r) {
      below[r] = _mm_set1_epi8(static_cast<char>(kCodeSymbolRanges[r].first - 1));
      above[r] = _mm_set1_epi8(static_cast<char>(kCodeSymbolRanges[r].second + 1));
    }
    below[R] = _mm_set1_epi8('A' - 1), above[R] = _mm_set1_epi8('Z' + 1);
    below[R + 1] = _mm_set1_epi8('a' - 1), above[R + 1] = _mm_set1_epi8('z' + 1);
    auto in = [&](__m128i x, std::size_t r) LANGSIFT_ALWAYS_INLINE {
      return _mm_and_si128(_mm_cmpgt_epi8(x, below[r]), _mm_cmplt_epi8(x, above[r]));
    };
    // Per-lane counts (a mask lane is -1: subtracting it adds 1), summed every 255 blocks.
    __m128i sym_count = _mm_setzero_si128(), switch_count = _mm_setzero_si128();
    unsigned blocks = 0;
    auto drain = [&] {
      const __m128i zero = _mm_setzero_si128();
      const __m128i a = _mm_sad_epu8(sym_count, zero), b = _mm_sad_epu8(switch_count, zero);
      code_symbols += static_cast<std::size_t>(_mm_cvtsi128_si32(a) + _mm_extract_epi16(a, 4));
      case_switches += static_cast<std::size_t>(_mm_cvtsi128_si32(b) + _mm_extract_epi16(b, 4));
      sym_count = switch_count = zero;
      blocks = 0;
    };
    for (; i + 16 <= n; i += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
      const __m128i prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i - 1));
      static_assert(R == 7);
      const __m128i sym = _mm_or_si128(_mm_or_si128(_mm_or_si128(in(x, 0), in(x, 1)), _mm_or_si128(in(x, 2), in(x, 3))),
                                       _mm_or_si128(_mm_or_si128(in(x, 4), in(x, 5)), in(x, 6)));
      const __m128i new_sym = _mm_andnot_si128(_mm_cmpeq_epi8(x, prev), sym);
      const __m128i switches = _mm_and_si128(in(x, R), in(prev, R + 1));
      sym_count = _mm_sub_epi8(sym_count, new_sym);
      switch_count = _mm_sub_epi8(switch_count, switches);
      if (++blocks == 255) drain();
    }
    drain();
  }
#endif
  for (; i < n; ++i) one(i);
}

/// The end of the piece of about `target` bytes that starts at `begin` (< end): cut at a
/// whitespace within half a target after it, else at a code point boundary.
inline std::size_t next_piece(std::string_view text, std::size_t begin, std::size_t end, std::size_t target) noexcept {
  if (target < 16) target = 16;
  if (end - begin <= target + target / 2) return end;
  std::size_t stop = begin + target;
  std::size_t fwd = stop;  // forward to the next space (within target/2), else back to a boundary
  while (fwd < end && fwd < stop + target / 2 && text[fwd] != ' ' && text[fwd] != '\n') ++fwd;
  if (fwd < end && (text[fwd] == ' ' || text[fwd] == '\n')) return fwd;
  while (stop > begin + target / 2 && (static_cast<unsigned char>(text[stop]) & 0xC0) == 0x80) --stop;
  return stop;
}

/// The first index of the largest of v[0, n) (n >= 1; no NaN): as a scalar loop of strict
/// "greater than" tests, four lanes at a time when n is a multiple of 4.
inline std::uint32_t first_argmax(const float* v, std::uint32_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 4 && n % 4 == 0) {
    __m128 m = _mm_loadu_ps(v);
    for (std::uint32_t i = 4; i < n; i += 4) m = _mm_max_ps(m, _mm_loadu_ps(v + i));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    for (std::uint32_t i = 0; i < n; i += 4)
      if (const int eq = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(v + i), m)))
        return i + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(eq)));
  }
#endif
  std::uint32_t best = 0;
  for (std::uint32_t i = 1; i < n; ++i)
    if (v[i] > v[best]) best = i;
  return best;
}

/// y[k] += a × x[k] for k < n (n a multiple of 4): a floor times a feature count, per language.
inline void add_scaled(float* __restrict y, float a, const float* __restrict x, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 4 == 0) {
    const __m128 va = _mm_set1_ps(a);
    for (std::size_t k = 0; k < n; k += 4)
      _mm_storeu_ps(y + k, _mm_add_ps(_mm_loadu_ps(y + k), _mm_mul_ps(va, _mm_loadu_ps(x + k))));
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) y[k] += a * x[k];
}

/// y[k] = h[k] + a1 × x1[k] + a2 × x2[k] for k < n (n a multiple of 4), added in that order (the
/// same floats as a copy and two add_scaled passes): a unit's scores from its hits and the floors
/// of its two feature kinds, in one pass.
inline void copy_add_scaled2(float* __restrict y, const float* __restrict h, float a1, const float* __restrict x1,
                             float a2, const float* __restrict x2, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 4 == 0) {
    const __m128 v1 = _mm_set1_ps(a1), v2 = _mm_set1_ps(a2);
    for (std::size_t k = 0; k < n; k += 4) {
      const __m128 t = _mm_add_ps(_mm_loadu_ps(h + k), _mm_mul_ps(v1, _mm_loadu_ps(x1 + k)));
      _mm_storeu_ps(y + k, _mm_add_ps(t, _mm_mul_ps(v2, _mm_loadu_ps(x2 + k))));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) y[k] = (h[k] + a1 * x1[k]) + a2 * x2[k];
}

/// hits[k] += acc[k] × step, then acc[k] = 0, for k < n (n a multiple of 8): a batch of
/// quantised weights moved into the float sums.
inline void drain_batch(float* __restrict hits, std::uint16_t* __restrict acc, float step, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n % 8 == 0) {
    const __m128 vs = _mm_set1_ps(step);
    const __m128i zero = _mm_setzero_si128();
    for (std::size_t k = 0; k < n; k += 8) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + k));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + k), zero);
      const __m128 lo = _mm_cvtepi32_ps(_mm_unpacklo_epi16(a, zero)), hi = _mm_cvtepi32_ps(_mm_unpackhi_epi16(a, zero));
      _mm_storeu_ps(hits + k, _mm_add_ps(_mm_loadu_ps(hits + k), _mm_mul_ps(lo, vs)));
      _mm_storeu_ps(hits + k + 4, _mm_add_ps(_mm_loadu_ps(hits + k + 4), _mm_mul_ps(hi, vs)));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) {
    hits[k] += static_cast<float>(acc[k]) * step;
    acc[k] = 0;
  }
}

/// The largest and the second largest of v[0..n) (equal when the largest occurs twice); n >= 2.
inline void top_two(const float* v, std::size_t n, float& best, float& second) noexcept {
#if defined(__SSE2__)
  if (n >= 4 && n % 4 == 0) {
    __m128 m1 = _mm_loadu_ps(v), m2 = _mm_set1_ps(-std::numeric_limits<float>::infinity());
    for (std::size_t k = 4; k < n; k += 4) {  // per lane: the largest and second largest
      const __m128 x = _mm_loadu_ps(v + k);
      m2 = _mm_max_ps(m2, _mm_min_ps(m1, x));
      m1 = _mm_max_ps(m1, x);
    }
    alignas(16) float a[4], b[4];
    _mm_store_ps(a, m1);
    _mm_store_ps(b, m2);
    float s1 = a[0], s2 = b[0];
    for (int l = 1; l < 4; ++l) {
      s2 = std::max(s2, std::max(b[l], std::min(s1, a[l])));
      s1 = std::max(s1, a[l]);
    }
    best = s1;
    second = s2;
    return;
  }
#endif
  best = second = -std::numeric_limits<float>::infinity();
  for (std::size_t k = 0; k < n; ++k) {
    if (v[k] > best) {
      second = best;
      best = v[k];
    } else if (v[k] > second) {
      second = v[k];
    }
  }
}

/// Cuts [begin, end) of `text` into pieces of about `target` bytes at whitespace.
template <class F>
inline void for_each_piece(std::string_view text, std::size_t begin, std::size_t end, std::size_t target, F&& f) {
  while (begin < end) {
    const std::size_t stop = next_piece(text, begin, end, target);
    f(begin, stop);
    begin = stop;
  }
}

}  // namespace detail

/// Identifies the languages of `text` (UTF-8; invalid sequences are skipped).
inline detection detect(const model& m, std::string_view text, const detect_options& opt = {}) {
  detection d;
  auto& S = detail::thread_scratch();
  const std::size_t L = m.language_count();
  if (L == 0) {
    d.st = status::invalid_argument;
    return d;
  }
  constexpr float kNone = -3.0e38f;  // the score of a language that may not be chosen
  const model_params& P = m.params();
  const bool use_rank = opt.method == scorer::rank;
  // Extract only the kinds the scorer uses: the rank profiles hold orders 1..5 (rank_cfg below), a
  // group's table the kinds weighted for its script (group_table::features).
  S.units.clear();
  const std::size_t cap = std::max<std::size_t>(opt.max_text_bytes, 256);
  // Per unit, the scores and hit sums of its group's languages: [score_begin, + size_pad) of
  // S.scores and S.hits. Only scored units' entries are read, and score_unit writes them all, so
  // the buffers are grown, never cleared or filled per call.
  std::size_t score_size = 0;

  // Restrictions (`only`): per group a mask of allowed languages, built for the groups the text
  // uses. Nothing per call is proportional to the model's size without restrictions or hints.
  const bool restricted = !opt.only.empty();
  if (restricted) {
    S.allowed.clear();
    S.allowed_at.assign(m.group_count(), ~0u);
    S.allowed_count.assign(m.group_count(), 0);
  }
  auto allowed_mask = [&](std::uint32_t gi) -> const float* {
    if (S.allowed_at[gi] == ~0u) {
      const group_table& g = m.group(gi);
      S.allowed_at[gi] = static_cast<std::uint32_t>(S.allowed.size());
      S.allowed.resize(S.allowed.size() + g.size_pad(), kNone);
      for (std::uint32_t i = 0; i < g.size(); ++i)
        if (detail::allowed_code(m.language_code(g.langs[i]), opt.only)) {
          S.allowed[S.allowed_at[gi] + i] = 0.0f;
          ++S.allowed_count[gi];
        }
    }
    return S.allowed.data() + S.allowed_at[gi];
  };
  const bool hinted = opt.hints.weight > 0 && (!opt.hints.content_language.empty() || !opt.hints.html_lang.empty() ||
                                               !opt.hints.languages.empty() || !opt.hints.tld.empty());
  if (hinted) {
    S.bonus.assign(L, 0.0f);
    auto add_hint = [&](std::string_view tag, float w) {
      const int l = m.find_language(tag);
      if (l >= 0) S.bonus[static_cast<std::size_t>(l)] = std::max(S.bonus[static_cast<std::size_t>(l)], w * opt.hints.weight);
    };
    detail::for_each_hint(opt.hints.content_language, [&](std::string_view t) { add_hint(t, 30.0f); });
    detail::for_each_hint(opt.hints.html_lang, [&](std::string_view t) { add_hint(t, 30.0f); });
    detail::for_each_hint(opt.hints.languages, [&](std::string_view t) { add_hint(t, 30.0f); });
    const std::string_view country = tld_country(opt.hints.tld);
    if (!country.empty()) for_each_country_language(country, [&](std::string_view code, float) { add_hint(code, 15.0f); });
  }
  // Han: Simplified Chinese is the default written form; Traditional needs a margin (characters
  // that Simplified writes differently), so "中文" stays zh.
  const int zh = m.chinese();

  // 1. Regions to examine: all of the text, or evenly spaced windows of it.
  std::array<std::pair<std::size_t, std::size_t>, 16> regions;
  std::size_t nregions = 0;
  if (text.size() <= cap) {
    regions[nregions++] = {0, text.size()};
  } else {
    d.sampled = true;
    const std::size_t n = regions.size(), win = cap / n, gap = text.size() / n;
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t a = i * gap, b = std::min(text.size(), a + win);
      while (a < b && (static_cast<unsigned char>(text[a]) & 0xC0) == 0x80) ++a;  // code point boundary
      while (b < text.size() && b > a && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) --b;
      regions[nregions++] = {a, b};
    }
  }

  // 2. Script runs -> units with their features. Also the signs of text that is not natural
  //    language: code-like symbols, case changes inside words (base64), very few distinct letters.
  std::size_t examined = 0, text_bytes = 0, letters = 0, code_symbols = 0, case_switches = 0;
  std::uint64_t letter_bytes[4] = {};  // which byte values occur in letters (ASCII or UTF-8 sequences)
  int distinct = 0;                    // how many (counted up to 5)
  std::uint32_t run_index = 0;
  for (std::size_t r = 0; r < nregions; ++r) {
    const std::string_view region = text.substr(regions[r].first, regions[r].second - regions[r].first);
    examined += region.size();
    const auto* bytes = reinterpret_cast<const unsigned char*>(region.data());
    detail::count_symbols_and_case(bytes, region.size(), code_symbols, case_switches);
    // Distinct byte values of letters, until there are more than 4 (natural text: a few letters).
    for (std::size_t i = 0; i < region.size() && distinct <= 4; ++i) {
      const unsigned b = bytes[i];
      const std::uint64_t bit = std::uint64_t{1} << (b & 63);
      if ((detail::kByteFlags[b] & 8u) && !(letter_bytes[b >> 6] & bit)) {
        letter_bytes[b >> 6] |= bit;
        ++distinct;
      }
    }
    split_script_runs(region, S.runs);
    for (const script_run& run : S.runs) {
      const std::size_t run_bytes = run.end - run.begin;
      text_bytes += run_bytes;
      letters += run.letters;
      ++run_index;
      detail::unit u{};
      u.sc = run.sc;
      u.run = run_index;
      const group_table* g = m.group_of_script(run.sc);
      std::size_t candidates = 0;
      if (g) {
        u.group = static_cast<std::uint32_t>(g - &m.group(0));
        candidates = restricted ? (allowed_mask(u.group), S.allowed_count[u.group]) : g->size();
      }
      if (candidates <= 1) {  // decided by the script
        u.bytes = run_bytes;
        u.text = region.substr(run.begin, run_bytes);
        if (candidates == 1) {
          for (std::uint32_t i = 0; i < g->size(); ++i)
            if (!restricted || allowed_mask(u.group)[i] == 0.0f) u.lang = g->langs[i];
        } else if (!g) {
          const std::string_view code = script_language(run.sc);
          if (!code.empty() && detail::allowed_code(code, opt.only)) u.decided = code;
        }
        S.units.push_back(u);
        continue;
      }
      u.g = g;
      // A run too short to hold two languages worth telling apart (under 3 units) is one unit.
      const std::size_t piece = run_bytes < 3 * opt.unit_bytes ? run_bytes : opt.unit_bytes;
      detail::for_each_piece(region, run.begin, run.end, piece, [&](std::size_t a, std::size_t b) {
        u.bytes = b - a;
        u.text = region.substr(a, b - a);
        u.score_begin = static_cast<std::uint32_t>(score_size);
        score_size += g->size_pad();
        S.units.push_back(u);
      });
    }
  }
  d.examined_bytes = examined;
  if (text_bytes == 0) {
    d.st = status::empty_input;
    d.is_short = true;
    return d;
  }
  if (S.scores.size() < score_size) S.scores.resize(score_size);
  if (S.hits.size() < score_size) S.hits.resize(score_size);
  if (S.by_type.size() < 4 * 256) S.by_type.resize(4 * 256);  // group_table::add_all's scratch

  // 3. Score units: scores[local] for each language of its group (kNone where not allowed).
  //    Features are extracted into a buffer sized for the worst case (a feature per order and
  //    one per word for every byte of a unit), written through a pointer.
  auto extract = [&](std::string_view t, const ngram_config& cfg, float* n_kind, float& unit_letters) -> std::uint32_t {
    const std::size_t need = t.size() * (kMaxNgramOrder + 1) + 64;
    if (S.feats.size() < need) S.feats.resize(need);
    std::uint64_t* f = S.feats.data();
    std::uint32_t n = 0;
    std::uint32_t count[feature_kind_count] = {};  // per kind (in registers once inlined)
    auto sink = [&](std::uint64_t h, unsigned kind) LANGSIFT_ALWAYS_INLINE {
      f[n++] = h;
      ++count[kind];
    };
    // The built-in model's configurations with their orders and hashing known at compile time
    // (fewer rolling hashes and tests per code point); any other, and models of formats 1 and 2
    // (polynomial hashing), through the general loop.
    std::size_t seen;
    const bool window = cfg.hashing == feature_hashing::window;
    if (window && cfg.min_order == 4 && cfg.max_order == 4) seen = for_each_feature<4, 4, 1>(t, cfg, sink);
    else if (window && cfg.min_order == 3 && cfg.max_order == 4) seen = for_each_feature<3, 4, 1>(t, cfg, sink);
    else seen = for_each_feature(t, cfg, sink);
    unit_letters += static_cast<float>(seen);
    for (unsigned k = 0; k < feature_kind_count; ++k) n_kind[k] += static_cast<float>(count[k]);
    return n;
  };
  const double total_bytes = static_cast<double>(text_bytes);
  // Early exit (as CLD2 does): a unit is read in pieces of about 48 bytes, and once one
  // language leads every other by a margin worth a confidence of `exit_confidence`, the rest of
  // the unit is not looked up — its bytes still count for the unit's language.
  const double exit_z = opt.early_exit && !use_rank && opt.exit_confidence < 1.0f
                            ? std::log(static_cast<double>(opt.exit_confidence) / (1.0 - opt.exit_confidence))
                            : 1e300;
  auto score_unit = [&](detail::unit& u) {
    u.scored = true;
    const group_table& g = *u.g;
    const std::size_t pad = g.size_pad();
    if (S.acc16.size() < pad) S.acc16.resize(pad);
    std::uint16_t* acc = S.acc16.data();  // all zero: grown with zeros, and every flush zeroes it
    float* hits = S.hits.data() + u.score_begin;
    std::fill_n(hits, pad, 0.0f);
    float* sc = S.scores.data() + u.score_begin;
    const float step = P.weight_step;
    const float* fl = m.floors(u.group);
    const float* mask = restricted ? allowed_mask(u.group) : nullptr;
    const int zh_local = u.sc == script::han && zh >= 0 && m.language(static_cast<std::size_t>(zh)).group == u.group
                             ? m.language(static_cast<std::size_t>(zh)).local
                             : -1;
    float n_kind[feature_kind_count] = {};
    std::uint32_t n = 0, batch = 0;
    auto flush = [&] {
      detail::drain_batch(hits, acc, step, pad);
      batch = 0;
    };
    // score = hits + Σ over kinds of (features of the kind) × floor: a missing feature costs its floor
    auto make_scores = [&] {
      unsigned kinds[feature_kind_count], nk = 0;  // the kinds seen, in order
      for (unsigned kind = 1; kind < feature_kind_count; ++kind)
        if (n_kind[kind] > 0) kinds[nk++] = kind;
      if (nk == 2) {  // the common case (order 4 and words): one pass
        detail::copy_add_scaled2(sc, hits, n_kind[kinds[0]], fl + kinds[0] * pad, n_kind[kinds[1]], fl + kinds[1] * pad, pad);
      } else {
        std::memcpy(sc, hits, pad * sizeof(float));  // a copy loop stays scalar: the arrays may alias
        for (unsigned k = 0; k < nk; ++k) detail::add_scaled(sc, n_kind[kinds[k]], fl + kinds[k] * pad, pad);
      }
      if (hinted) {
        const float share = static_cast<float>(static_cast<double>(u.bytes) / total_bytes);
        for (std::size_t k = 0; k < g.size(); ++k) sc[k] += S.bonus[g.langs[k]] * share;
      }
      if (zh_local >= 0) sc[zh_local] += 0.8f * static_cast<float>(n);
      for (std::size_t k = g.size(); k < pad; ++k) sc[k] = kNone;
      if (mask)
        for (std::size_t k = 0; k < pad; ++k) sc[k] += mask[k];
    };
    std::size_t pos = 0;
    while (pos < u.text.size()) {
      const std::size_t stop = exit_z < 1e299 ? detail::next_piece(u.text, pos, u.text.size(), 48) : u.text.size();
      const std::uint32_t np = extract(u.text.substr(pos, stop - pos), g.features, n_kind, u.letters);
      pos = stop;
      n += np;
      const std::uint64_t* feats = S.feats.data();
      // Three passes, so that the memory accesses of many features are in flight at once: fetch
      // every feature's buckets, find every slot (fetching its payload), add every payload.
      if (S.slotv.size() < np) S.slotv.resize(np);
      if (S.addr.size() < np) S.addr.resize(np);
      std::uint32_t* sv = S.slotv.data();
      detail::slot_address* ad = S.addr.data();
      for (std::uint32_t i = 0; i < np; ++i) {
        ad[i] = g.address(feats[i]);
        g.prefetch(ad[i]);
      }
      std::uint32_t found = 0;  // the slots of the features some language holds, packed
      for (std::uint32_t i = 0; i < np; ++i) {
        const std::uint32_t v = g.find(ad[i]);
        g.prefetch_payload(v);
        sv[found] = v;
        found += v != 0;
      }
      for (std::uint32_t i = 0; i < found;) {  // q <= 255: 256 features cannot overflow 16 bits
        const std::uint32_t take = std::min<std::uint32_t>(found - i, 256 - batch);
        g.add_all(sv + i, take, S.by_type.data(), acc);
        i += take;
        batch += take;
        if (batch == 256) flush();
      }
      if (pos < u.text.size()) {  // more to read: is the unit decided already?
        flush();
        make_scores();
        float best, second;  // the entries past the group's languages are kNone
        detail::top_two(sc, pad, best, second);
        if (second > kNone / 2 && P.calibration_a * (static_cast<double>(best) - second) + P.calibration_b >= exit_z) break;
      }
    }
    flush();
    make_scores();
    u.features = static_cast<float>(n);
  };

  // Segmentation of a run's scored units: the best labelling, a change of language costing
  // switch_penalty (Viterbi over the group's languages); unscored units take their neighbours'.
  // label_by_viterbi labels the scored units of [i, j); segment adds the shortcut and the fill.
  auto label_by_viterbi = [&](std::size_t i, std::size_t j, const group_table* g, std::uint32_t nc) {
    S.viterbi.assign(nc, 0.0f);
    S.back.resize((j - i) * nc);
    std::uint32_t k = 0;  // scored units seen
    std::vector<std::uint32_t>& order = S.order;
    order.clear();
    for (std::size_t x = i; x < j; ++x) {
      if (!S.units[x].scored) continue;
      order.push_back(static_cast<std::uint32_t>(x));
      const float* sc = S.scores.data() + S.units[x].score_begin;
      if (k == 0) {  // the first unit: no switch to weigh
        for (std::uint32_t c = 0; c < nc; ++c) {
          S.back[c] = static_cast<std::int32_t>(c);
          S.viterbi[c] = sc[c];
        }
        ++k;
        continue;
      }
      const std::uint32_t best_prev = detail::first_argmax(S.viterbi.data(), nc);
      const float switch_from = S.viterbi[best_prev] - (k ? opt.switch_penalty : 0.0f);
      for (std::uint32_t c = 0; c < nc; ++c) {
        const bool sw = switch_from > S.viterbi[c];
        S.back[std::size_t{k} * nc + c] = sw ? static_cast<std::int32_t>(best_prev) : static_cast<std::int32_t>(c);
        S.viterbi[c] = (sw ? switch_from : S.viterbi[c]) + sc[c];
      }
      ++k;
    }
    std::uint32_t c = detail::first_argmax(S.viterbi.data(), nc);
    for (std::uint32_t q = k; q-- > 0;) {
      S.units[order[q]].lang = g->langs[c];
      c = static_cast<std::uint32_t>(S.back[std::size_t{q} * nc + c]);
    }
  };
  auto segment = [&](std::size_t i, std::size_t j) {
    const group_table* g = S.units[i].g;
    const std::uint32_t nc = static_cast<std::uint32_t>(g->size_pad());
    // One scored unit (a sentence, a short page): its best language, as the Viterbi pass would find.
    std::size_t only = j, scored = 0;
    for (std::size_t x = i; x < j && scored < 2; ++x)
      if (S.units[x].scored) {
        only = x;
        ++scored;
      }
    if (scored == 1)
      S.units[only].lang = g->langs[detail::first_argmax(S.scores.data() + S.units[only].score_begin, nc)];
    else
      label_by_viterbi(i, j, g, nc);
    int last = -1;  // unscored units: the label of the scored unit before (after, at the start)
    for (std::size_t x = i; x < j; ++x) {
      if (S.units[x].scored)
        last = S.units[x].lang;
      else if (last >= 0)
        S.units[x].lang = last;
    }
    for (std::size_t x = j; x-- > i;) {
      if (S.units[x].scored) last = S.units[x].lang;
      else if (S.units[x].lang < 0) S.units[x].lang = last;
    }
  };

  if (use_rank) {
    // TextCat: one profile of the text per run (rank distance needs more than a unit of text),
    // spread over the run's units in proportion to their bytes.
    const ngram_config rank_cfg{1, static_cast<std::uint8_t>(kMaxNgramOrder), false, m.features().hashing};
    S.acc.assign(L, 0.0f);
    std::size_t i = 0;
    while (i < S.units.size()) {
      std::size_t j = i;
      while (j < S.units.size() && S.units[j].run == S.units[i].run) ++j;
      if (const group_table* g = S.units[i].g) {
        S.ranks.clear();
        for (std::size_t k = i; k < j; ++k) {
          float n_kind[feature_kind_count] = {};
          const std::uint32_t n = extract(S.units[k].text, rank_cfg, n_kind, S.units[k].letters);
          for (std::uint32_t f = 0; f < n; ++f) S.ranks.push_back({S.feats[f], 1});
          S.units[k].scored = true;
        }
        std::sort(S.ranks.begin(), S.ranks.end());
        std::size_t w = 0;
        for (std::size_t k = 0; k < S.ranks.size(); ++k) {
          if (w && S.ranks[w - 1].first == S.ranks[k].first)
            ++S.ranks[w - 1].second;
          else
            S.ranks[w++] = S.ranks[k];
        }
        S.ranks.resize(w);
        std::sort(S.ranks.begin(), S.ranks.end(), [](const auto& a, const auto& b) {
          return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        const std::size_t R = P.rank_profile_size;
        if (S.ranks.size() > R) S.ranks.resize(R);
        for (std::uint32_t c = 0; c < g->size(); ++c) S.acc[g->langs[c]] = 0.0f;
        for (std::size_t r = 0; r < S.ranks.size(); ++r)
          m.for_each_rank(S.ranks[r].first, [&](std::uint16_t l, std::uint16_t rank) {
            S.acc[l] += static_cast<float>(R) - static_cast<float>(r > rank ? r - rank : rank - r);
          });
        double run_bytes = 0;
        for (std::size_t k = i; k < j; ++k) run_bytes += static_cast<double>(S.units[k].bytes);
        const float* mask = restricted ? allowed_mask(S.units[i].group) : nullptr;
        for (std::size_t k = i; k < j; ++k) {
          detail::unit& u = S.units[k];
          const float share = static_cast<float>(static_cast<double>(u.bytes) / run_bytes);
          float* sc = S.scores.data() + u.score_begin;
          for (std::uint32_t c = 0; c < g->size_pad(); ++c) {
            if (c >= g->size() || (mask && mask[c] != 0.0f)) {
              sc[c] = kNone;
              continue;
            }
            const std::uint16_t l = g->langs[c];
            sc[c] = (S.acc[l] + (hinted ? S.bonus[l] : 0.0f) * 0.1f * static_cast<float>(S.ranks.size()) / 30.0f) * share;
          }
        }
        segment(i, j);
      }
      i = j;
    }
  } else {
    // Long runs are skimmed: every third unit first. When those all agree, the run is in that
    // language and the units between them are not read: a page in one language is decided on a
    // third of its text. When any two disagree, every unit is scored: a language may also hide in
    // the gaps (boilerplate every few units, as in a page that alternates HTTP headers and
    // Portuguese), so scoring only between disagreeing neighbours is not enough.
    constexpr std::size_t kStride = 3, kSkimFrom = 6;
    std::size_t i = 0;
    while (i < S.units.size()) {
      std::size_t j = i;
      while (j < S.units.size() && S.units[j].run == S.units[i].run) ++j;
      if (S.units[i].g) {
        const bool skim = opt.skim && j - i >= kSkimFrom;
        for (std::size_t k = i; k < j; ++k)
          if (!skim || (k - i) % kStride == 0 || k == j - 1) score_unit(S.units[k]);
        segment(i, j);
        if (skim) {
          bool mixed = false;
          for (std::size_t k = i + 1; k < j && !mixed; ++k) mixed = S.units[k].scored && S.units[k].lang != S.units[i].lang;
          if (mixed) {
            for (std::size_t k = i; k < j; ++k)
              if (!S.units[k].scored) score_unit(S.units[k]);
            segment(i, j);
          }
        }
      }
      i = j;
    }
  }

  // A short run in a document that is mostly other text ("iPhone" in Russian prose, "COVID" in
  // Khmer) is left unattributed unless its language is clear: a label for two words is noise.
  if (!use_rank) {
    std::size_t i = 0;
    while (i < S.units.size()) {
      std::size_t j = i;
      double run_bytes = 0;
      while (j < S.units.size() && S.units[j].run == S.units[i].run) run_bytes += static_cast<double>(S.units[j++].bytes);
      if (const group_table* g = S.units[i].g; g && run_bytes < 24 && run_bytes * 10 < static_cast<double>(text_bytes)) {
        float best = kNone, second = kNone;
        for (std::uint32_t c = 0; c < g->size(); ++c) {
          float sum = 0;
          for (std::size_t k = i; k < j; ++k)
            if (S.units[k].scored) sum += S.scores[S.units[k].score_begin + c];
          if (sum > best) {
            second = best;
            best = sum;
          } else if (sum > second) {
            second = sum;
          }
        }
        const double z = P.calibration_a * (static_cast<double>(best) - second) + P.calibration_b;
        if (z < 2.2)  // confidence < 0.9
          for (std::size_t k = i; k < j; ++k) S.units[k].lang = -1;
      }
      i = j;
    }
  }

  // 5. Bytes per language, top three.
  auto& items = S.items;
  items.clear();
  for (const auto& u : S.units) {
    if (u.lang < 0 && u.decided.empty()) continue;  // unattributed
    auto it = std::find_if(items.begin(), items.end(), [&](const auto& x) {
      return u.lang >= 0 ? x.lang == u.lang : (x.lang < 0 && x.code == u.decided);
    });
    if (it == items.end())
      items.push_back({static_cast<double>(u.bytes), u.lang, u.lang >= 0 ? m.language_code(static_cast<std::size_t>(u.lang)) : u.decided});
    else
      it->bytes += static_cast<double>(u.bytes);
  }
  std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.code < b.code;
  });

  // Fit of a model language on its units: mean hit weight per feature, relative to the same on
  // held-out text of the language.
  double top_fit_letters = 0;  // evidence behind the top language's fit
  auto fit_of = [&](int l) -> float {
    if (use_rank) return 1.0f;
    double hits = 0, nfeat = 0, nletters = 0;
    const auto& rec = m.language(static_cast<std::size_t>(l));
    for (const auto& u : S.units) {
      if (u.lang != l || !u.scored) continue;
      hits += S.hits[u.score_begin + rec.local];
      nfeat += u.features;
      nletters += u.letters;
    }
    if (l == items[0].lang) top_fit_letters = nletters;
    if (nfeat <= 0 || rec.expected_fit <= 0) return 1.0f;
    return static_cast<float>(hits / nfeat / rec.expected_fit);
  };

  const double scale = d.sampled ? static_cast<double>(text.size()) / static_cast<double>(examined) : 1.0;
  d.text_bytes = static_cast<std::size_t>(std::llround(static_cast<double>(text_bytes) * scale));
  d.is_short = d.text_bytes < opt.short_text_bytes;
  const double total = static_cast<double>(text_bytes);
  int percent_left = 100;
  for (const auto& it : items) {
    if (d.count == 3) break;
    language_estimate e;
    e.code = it.code;
    e.percent = std::min(percent_left, static_cast<int>(std::lround(100.0 * it.bytes / total)));
    percent_left -= e.percent;
    e.bytes = static_cast<std::size_t>(std::llround(it.bytes * scale));
    // Languages decided by their script (and Chinese, decided by Han) fit by definition.
    const bool by_script = it.lang < 0 || static_cast<script>(m.language(static_cast<std::size_t>(it.lang)).script) == script::han;
    e.score = by_script ? 1.0f : fit_of(it.lang);
    d.languages[d.count++] = e;
  }
  if (!d.count) return d;

  // 6. Confidence of the top language: its margin, on its own units, over its strongest rival
  //    there (another language: zh-Hant is not zh's rival, nor sr-Latn sr's).
  const int top = items[0].lang;
  d.confidence = 1.0f;
  d.margin = std::numeric_limits<float>::infinity();
  if (top >= 0) {
    const auto& rec = m.language(static_cast<std::size_t>(top));
    const group_table& g = m.group(rec.group);
    S.own.assign(g.size_pad(), 0.0f);
    bool contested = false;
    for (const auto& u : S.units) {
      if (u.lang != top || !u.scored) continue;
      contested = true;
      const float* sc = S.scores.data() + u.score_begin;
      detail::add_scaled(S.own.data(), 1.0f, sc, g.size_pad());  // padding lanes are reset below
    }
    const std::uint16_t top_base = m.base_id(static_cast<std::size_t>(top));
    // The rival: the best other language of another base (zh-Hant is not zh's). The top language,
    // the padding and any same-base winner are masked out until the best left is another base.
    const float own_top = S.own[rec.local];
    for (std::size_t c = g.size(); c < g.size_pad(); ++c) S.own[c] = kNone;
    S.own[rec.local] = kNone;
    double rival = -1e300;
    for (;;) {
      const std::uint32_t c = detail::first_argmax(S.own.data(), static_cast<std::uint32_t>(g.size_pad()));
      if (S.own[c] <= kNone / 2) break;  // none left: the rest, padding included, is kNone
      if (m.base_id(g.langs[c]) != top_base) {
        rival = S.own[c];
        break;
      }
      S.own[c] = kNone;
    }
    if (contested && rival > -1e299) {
      const double own = own_top;
      const double z = use_rank ? (own - rival) / std::max(1.0, own) * 20.0 - 1.0
                                : P.calibration_a * (own - rival) + P.calibration_b;
      d.confidence = static_cast<float>(1.0 / (1.0 + std::exp(-std::clamp(z, -50.0, 50.0))));
      d.margin = static_cast<float>(own - rival);
    }
  }
  const language_estimate& first = d.languages[0];
  const bool code_like = opt.max_code_symbols > 0 && code_symbols >= 4 &&
                         static_cast<float>(code_symbols) >= opt.max_code_symbols * static_cast<float>(letters);
  const bool scrambled_case = case_switches >= 4 && case_switches * 20 >= letters;  // base64, hashes
  // "aaaaaaaa...", "hahahahaha...": 40 letters or more made of at most 4 byte values.
  const bool repetitive = letters >= 40 && distinct <= 4;
  // The fit says "not language" only with enough evidence: a few words may be rare words.
  const bool unfit = first.score < opt.undefined_score && top_fit_letters >= 15;
  if (unfit || code_like || scrambled_case || repetitive) {
    d.count = 0;  // not natural language, in any language we know
    d.confidence = 0;
    d.margin = 0;
    return d;
  }
  d.reliable = d.confidence >= 0.9f && first.percent >= 70 && first.score >= 0.5f;
  return d;
}

}  // namespace v1
}  // namespace langsift
