// langsift — n-gram features of text, shared by training and classification.
//
// Input: UTF-8 text (invalid sequences count as separators). Output: a stream of 64-bit feature
// hashes, each with its kind: a character n-gram of order 1..5 or a whole word.
//
// Normalisation (identical at training and detection time, so profiles match):
//  - letters and combining marks (and ZWJ/ZWNJ) are word characters; everything else — digits,
//    punctuation, symbols, spaces, controls — separates words and carries no vote (TextCat);
//  - letters are case-folded (simple Unicode case folding);
//  - a combining mark that composes canonically with the preceding character is composed
//    (so "e" + U+0301 and U+00E9 give the same features: the NFC of the common cases);
//  - each word is padded with one boundary marker on each side (" word "), and n-grams never
//    span two words: " w", " wo", "wor", "ord ", "d " ... and the lone boundary is not a feature;
//  - very long words (URLs without separators, Chinese runs) are windowed: n-grams are taken at
//    every position, the whole-word feature only for words of at most kMaxWordFeatureLength.
//
// Hashing (`feature_hashing`; a model file records which through its format version):
//  - window (format 3 on): an n-gram of order 1..4 is its code points packed 16 bits each into a
//    64-bit word (shifted in one per code point; the bits of a code point above U+FFFF xor into
//    the next slot, and are lost for the oldest code point of the n-gram, so such an n-gram may
//    share its hash with one of BMP code points — rare in text, and only a collision), order 5
//    and words a polynomial hash of the code points modulo 2^64; finished with one multiply and
//    an xor-shift that also mix in the kind, so an n-gram of order 3 and one of order 4 never
//    collide by construction. With the built-in model's order 4 it takes 5 % fewer instructions
//    per sentence than (callgrind, 17,045 against 17,997 per 145-byte sentence of the benchmark):
//  - polynomial (formats 1 and 2): the polynomial hash for every order, updated in O(1) per code
//    point, finished with a 64-bit avalanche (murmur3 fmix64) that also mixes in the kind.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "langsift/config.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

/// Kinds of feature: n-gram orders 1..5, and whole words.
enum feature_kind : std::uint8_t {
  feature_kind_none = 0,
  feature_word = 6,        ///< a whole word (between boundaries)
  feature_kind_count = 7,  ///< array size for per-kind tables, index = order or feature_word
};

constexpr unsigned kMaxNgramOrder = 5;
constexpr unsigned kMaxWordFeatureLength = 24;  ///< code points; longer words give n-grams only

/// How feature hashes are computed (see the file comment). A model's tables are keyed by the
/// hashing it was trained with; langsift-train writes `window`.
enum class feature_hashing : std::uint8_t {
  polynomial = 0,  ///< model formats 1 and 2
  window = 1,      ///< model format 3 on
};

/// Which features to extract.
struct ngram_config {
  std::uint8_t min_order = 1;  ///< 1..5 (above max_order: no n-grams, words only)
  std::uint8_t max_order = 5;  ///< 1..5
  bool words = true;           ///< also emit whole-word features
  feature_hashing hashing = feature_hashing::window;
};

namespace detail {

constexpr std::uint64_t kPolyBase = 0x9E3779B97F4A7C15ull;  // odd: multiplication is a bijection

constexpr std::uint64_t fmix64(std::uint64_t k) noexcept {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

/// feature_hashing::polynomial's finish.
constexpr std::uint64_t finish_hash(std::uint64_t poly, unsigned kind) noexcept {
  return fmix64(poly + 0x632BE59BD9B4E019ull * (kind + 1));
}

/// feature_hashing::window's finish (of a packed window or, for order 5 and words, a polynomial).
constexpr std::uint64_t finish_hash_window(std::uint64_t x, unsigned kind) noexcept {
  const std::uint64_t k = (x + 0x632BE59BD9B4E019ull * (kind + 1)) * 0xff51afd7ed558ccdull;
  return k ^ (k >> 32);
}

/// The finish of a feature hash: of the window hashing (`window`, x a packed window or, for
/// order 5 and words, a polynomial) or of the polynomial hashing.
constexpr std::uint64_t finish_feature(std::uint64_t x, unsigned kind, bool window) noexcept {
  return window ? finish_hash_window(x, kind) : finish_hash(x, kind);
}

/// The bits of the packed window that hold the last `order` (1..4) code points.
constexpr std::uint64_t window_mask(unsigned order) noexcept {
  return order >= 4 ? ~std::uint64_t{0} : (std::uint64_t{1} << (16 * order)) - 1;
}

constexpr std::uint32_t kBoundary = 0x20;  // the padding marker (a space never occurs in a word)

/// ASCII: the case-folded letter, or 0 for a byte that is not a word character (from the tables;
/// defined in impl/ngram-inl.hpp).
extern const std::array<char32_t, 128> kAsciiWordFold;

}  // namespace detail

/// The hash of one feature given its (normalised) code points, for tests and tools: an n-gram
/// of order n (with boundary markers as U+0020), or a word when `kind == feature_word`.
constexpr std::uint64_t feature_hash(const char32_t* cps, std::size_t n, unsigned kind,
                                     feature_hashing hashing = feature_hashing::window) noexcept {
  if (hashing == feature_hashing::window && kind >= 1 && kind <= 4) {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < n; ++i) w = (w << 16) ^ static_cast<std::uint64_t>(cps[i]);
    return detail::finish_hash_window(w & detail::window_mask(kind), kind);
  }
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < n; ++i) h = h * detail::kPolyBase + static_cast<std::uint64_t>(cps[i]) + 1;
  return detail::finish_feature(h, kind, hashing == feature_hashing::window);
}

namespace detail {

/// The state of for_each_feature within a word: the rolling hashes of the padded word and the
/// word character waiting for a mark to compose with. Its members are scalars, not arrays, and
/// its functions always inlined, so that the rolling hashes live in registers (orders above hi,
/// and with window hashing orders up to 4, are computed but never read: the compiler drops them
/// where hi and the hashing are known at compile time).
template <class Sink>
struct feature_roller {
  Sink& sink;
  const unsigned lo, hi;
  const bool window, words;
  // pK = polynomial hash of the last K code points of the current padded word (K <= len+1).
  std::uint64_t p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0;
  std::uint64_t w = 0;          // window hashing: the last four code points, 16 bits each
  std::uint64_t word_poly = 0;  // hash of the word without padding
  std::size_t word_len = 0;     // code points in the current word
  std::size_t letters = 0;
  char32_t pending = 0;  // a word character not yet emitted (it may compose with a following mark)
  bool in_word = false;

  LANGSIFT_ALWAYS_INLINE std::uint64_t hash(unsigned order, std::uint64_t poly) const noexcept {
    return finish_feature(window && order <= 4 ? w & window_mask(order) : poly, order, window);
  }

  /// Feeds one code point of the padded word: updates the rolling hashes and emits the n-grams
  /// that end with it. `avail` = how many code points of the padded word end here (incl. this one).
  LANGSIFT_ALWAYS_INLINE void push(char32_t c, std::size_t avail) {
    const std::uint64_t v = static_cast<std::uint64_t>(c) + 1;
    p5 = p4 * kPolyBase + v;
    p4 = p3 * kPolyBase + v;
    p3 = p2 * kPolyBase + v;
    p2 = p1 * kPolyBase + v;
    p1 = v;
    w = (w << 16) ^ static_cast<std::uint64_t>(c);
    const unsigned top = avail < hi ? static_cast<unsigned>(avail) : hi;
    if (lo <= 1 && top >= 1 && c != kBoundary) sink(hash(1, p1), 1);  // not the lone boundary
    if (lo <= 2 && top >= 2) sink(hash(2, p2), 2);
    if (lo <= 3 && top >= 3) sink(hash(3, p3), 3);
    if (lo <= 4 && top >= 4) sink(hash(4, p4), 4);
    if (lo <= 5 && top >= 5) sink(hash(5, p5), 5);
  }
  static_assert(kMaxNgramOrder == 5, "push above rolls orders 1..5");

  LANGSIFT_ALWAYS_INLINE void flush_pending() {
    if (!pending) return;
    ++word_len;
    ++letters;
    word_poly = word_poly * kPolyBase + static_cast<std::uint64_t>(pending) + 1;
    push(pending, word_len + 1);  // + the leading boundary
    pending = 0;
  }
  LANGSIFT_ALWAYS_INLINE void start_word() {
    in_word = true;
    word_len = 0;
    word_poly = 0;
    push(kBoundary, 1);
  }
  LANGSIFT_ALWAYS_INLINE void end_word() {
    flush_pending();
    push(kBoundary, word_len + 2);
    if (words && word_len <= kMaxWordFeatureLength) sink(finish_feature(word_poly, feature_word, window), feature_word);
    in_word = false;
  }
};

}  // namespace detail

/// Streams the features of `text` to `sink(std::uint64_t hash, unsigned kind)`.
/// Returns the number of word characters (letters and marks, after composition) seen.
/// Cost: O(text.size() * max_order), no allocation.
/// `Lo`, `Hi` (optional): the orders fixed at compile time, for a hot loop that knows them (they
/// must equal cfg's); 0 = from cfg. `Hashing` (optional): cfg.hashing fixed at compile time
/// (0 polynomial, 1 window, -1 = from cfg).
template <unsigned Lo = 0, unsigned Hi = 0, int Hashing = -1, class Sink>
std::size_t for_each_feature(std::string_view text, const ngram_config& cfg, Sink&& sink) noexcept(
    noexcept(sink(std::uint64_t{}, 0u))) {
  static_assert(Lo <= kMaxNgramOrder + 1 && Hi <= kMaxNgramOrder);
  static_assert(Hashing >= -1 && Hashing <= 1);
  detail::feature_roller<std::remove_reference_t<Sink>> r{
      sink,
      Lo ? Lo : cfg.min_order < 1 ? 1 : cfg.min_order,
      Hi ? Hi : cfg.max_order > kMaxNgramOrder ? kMaxNgramOrder : cfg.max_order,
      Hashing < 0 ? cfg.hashing == feature_hashing::window : Hashing == 1,
      cfg.words};
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const unsigned char b = static_cast<unsigned char>(*p);
    if (b < 0x80) {  // the common case: an ASCII letter (never a mark) or separator
      ++p;
      const char32_t folded = detail::kAsciiWordFold[b];
      if (!folded) {
        if (r.in_word) r.end_word();
        continue;
      }
      if (!r.in_word) r.start_word();
      r.flush_pending();
      r.pending = folded;
      continue;
    }
    const detail::decoded_props d = detail::decode_props(p, end);
    const auto cls = static_cast<char_class>(d.v->cls);
    const bool word_char = cls == char_class::letter || cls == char_class::mark;
    if (!word_char || d.cp == 0xFFFD) {
      if (r.in_word) r.end_word();
      continue;
    }
    if (!r.in_word) r.start_word();
    if (cls == char_class::mark && r.pending) {
      if (char32_t composed = compose_pair(r.pending, d.cp)) {
        r.pending = composed;
        continue;
      }
    }
    r.flush_pending();
    r.pending = static_cast<char32_t>(static_cast<std::int32_t>(d.cp) + d.v->fold);
  }
  if (r.in_word) r.end_word();
  return r.letters;
}

/// Same, with the default configuration (orders 1..5 and words).
template <class Sink>
std::size_t for_each_feature(std::string_view text, Sink&& sink) {
  return for_each_feature(text, ngram_config{}, static_cast<Sink&&>(sink));
}

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/ngram-inl.hpp"
#endif
