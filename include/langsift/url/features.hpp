// langsift — the features of a URL for the URL models (part of langsift/url.hpp): tokens split at
// non-letters, lower-cased, stop tokens removed; words; character n-grams of "^token$"; TLD and
// public suffix; 2-letter country/language labels in the host; language-code patterns in
// subdomain, path segment, query parameter and file name; hyphens in the host. Each feature is a
// 64-bit hash with its class (url_features::kind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "langsift/ngram.hpp"
#include "langsift/url/parse.hpp"

namespace langsift {
inline namespace v1 {

/// Feature kinds; a model records which it uses (bit (1 << kind)).
enum url_feature_kind : std::uint8_t {
  url_feat_word = 1,      ///< a whole token
  url_feat_ngram = 2,     ///< a character n-gram of "^token$" (orders min_order..max_order)
  url_feat_tld = 3,       ///< the last host label ("tld=de"; "tld=*ip" for IP literals)
  url_feat_hostcc = 4,    ///< a 2-letter host label other than the TLD ("fr" in fr.wikipedia.org)
  url_feat_langcode = 5,  ///< a language-code pattern (subdomain, /de/ segment, ?lang=, _en.html)
  url_feat_hyphens = 6,   ///< hyphens in the host: 0, 1, 2, 3+
  url_feat_suffix = 7,    ///< the public suffix when it has 2+ labels ("co.uk", "com.tr")
};

/// Where a language code was found in the URL (see url_features::codes).
enum class url_code_place : std::uint8_t { subdomain, path_segment, query, file_name };

struct url_language_code {
  char code[4] = {};  ///< "de", "fr"; 2 or 3 lower-case letters, NUL-padded
  url_code_place place{};
  std::string_view view() const noexcept { return std::string_view(code, code[2] ? (code[3] ? 4 : 3) : 2); }
};

/// Which features to extract.
struct url_feature_config {
  std::uint8_t min_order = 3;  ///< character n-grams of orders min_order..max_order (1..7)
  std::uint8_t max_order = 7;
  std::uint32_t kinds = 0xFE;  ///< bit (1 << url_feature_kind); default: all
  /// Words and n-grams of host labels: 0 in the same feature space as those of the path and query,
  /// 1 in a space of their own, 2 both (a shared feature and a host-only one).
  std::uint8_t host_space = 0;
  /// Host tokens only when the path and query have none (the path is the more specific part:
  /// bilingual sites share a host). Not stored in models; the classifier sets it for the words
  /// model when url_options::words_path_first.
  bool host_if_no_path = false;
};

namespace detail {

constexpr std::uint64_t url_finish(std::uint64_t poly, unsigned tag) noexcept {
  // one multiplication: models use the top bits (multiplicative hashing)
  const std::uint64_t h = (poly + 0x632BE59BD9B4E019ull * (tag + 1)) * 0xD6E8FEB86659FD93ull;
  return h ^ (h >> 32);
}

}  // namespace detail

/// The features of one URL: hashes in a fixed buffer (no allocation), and the language-code
/// patterns found (for the classifier's pattern rule).
struct url_features {
  static constexpr std::size_t kMaxFeatures = 1024;
  static constexpr std::size_t kMaxCodes = 8;
  std::uint64_t hash[kMaxFeatures];
  /// feature class: kind (bits 0-2, url_feature_kind) | n-gram order << 3 (bits 3-5) | space << 6
  /// (0 path/query or non-token feature, 1 host token in the shared space, 2 host token in its own)
  std::uint8_t kind[kMaxFeatures];
  std::size_t count = 0;
  std::size_t tokens = 0;  ///< tokens kept (after stop tokens)
  url_language_code codes[kMaxCodes];
  std::size_t code_count = 0;
  char country[3] = {};  ///< ISO country of the ccTLD ("" for generic TLDs)

  void add(std::uint64_t h, std::uint8_t k) noexcept {
    if (count < kMaxFeatures) {
      hash[count] = h;
      kind[count] = k;
      ++count;
    }
  }
  void add_code(const url_language_code& c) noexcept {
    for (std::size_t i = 0; i < code_count; ++i)
      if (std::memcmp(codes[i].code, c.code, 4) == 0) return;
    if (code_count < kMaxCodes) codes[code_count++] = c;
  }
};

namespace detail {

/// The character n-grams of orders lo..hi of the padded token ^ tok[0, n) $ (boundary U+0020 on
/// both sides): per position, the n-grams ending there, shortest first, each in the shared space
/// (tag k) and/or the host space (tag k + 16). Lo and Hi fixed at compile time (0: the runtime
/// lo, hi) so that the common configurations run without loops over the orders.
template <unsigned Lo, unsigned Hi, bool Shared, bool Own>
inline void url_ngram_features(const char32_t* tok, std::size_t n, unsigned lo, unsigned hi, std::uint8_t shared_space,
                               url_features& f) noexcept {
  constexpr unsigned kTop = Hi ? Hi : 7;
  if constexpr (Lo != 0) lo = Lo;
  if constexpr (Hi != 0) hi = Hi;
  const std::size_t len = n + 2;
  std::uint64_t poly[kTop + 1] = {};
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint64_t v = static_cast<std::uint64_t>((i == 0 || i == len - 1) ? kBoundary : tok[i - 1]) + 1;
    for (unsigned k = kTop; k >= 2; --k) poly[k] = poly[k - 1] * kPolyBase + v;
    poly[1] = v;
    const auto emit = [&](unsigned k) LANGSIFT_ALWAYS_INLINE {
      if constexpr (Shared) f.add(url_finish(poly[k], k), static_cast<std::uint8_t>(url_feat_ngram | k << 3 | shared_space));
      if constexpr (Own) f.add(url_finish(poly[k], k + 16), static_cast<std::uint8_t>(url_feat_ngram | k << 3 | 128));
    };
    if (i + 1 >= hi) {  // every order ends here (a fixed trip count when Hi is)
      for (unsigned k = lo; k <= hi; ++k) emit(k);
    } else {
      for (unsigned k = lo; k <= i + 1; ++k) emit(k);
    }
  }
}

/// Tokenises UTF-8 `text` at non-letters (letters and marks are word characters; digits,
/// punctuation, symbols separate), lower-cases, drops stop tokens, and emits word and n-gram
/// features.
void url_token_features(std::string_view text, const url_feature_config& cfg, url_features& f, bool host = false);

}  // namespace detail

/// Extracts the features of a parsed URL into `f` (reset first).
void url_extract_features(const url_parts& u, const url_feature_config& cfg, url_features& f);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/url/features-inl.hpp"
#endif
