// langsift — URL-only language classification (Baykan, Henzinger & Weber 2013): given only a URL,
// which language is the page likely in? Header-only, no allocation on the classification path.
//
//   langsift::url_parts p;  langsift::parse_url("http://www.xn--mnchen-3ya.de/Stadt%C3%A9/", p);
//   // p.host() "www.münchen.de", p.registered_domain() "münchen.de", p.public_suffix() "de",
//   // p.path() "/Stadté/" (percent-decoded to UTF-8)
//   langsift::url_classifier c(&lr_model, &words_model);      // either may be null
//   langsift::url_result r = c.classify("http://www.spiegel.de/politik/");
//   r.language();  // "de";  r.languages[0..r.count) ranked with scores; "und" when nothing is known
//
// Stages: parse_url (scheme, host with IDN labels decoded, public suffix / registered domain by the
// compiled-in Public Suffix List, IPv4/IPv6 literals, path and query percent-decoded to UTF-8) →
// for_each_url_feature (tokens split at non-letters, lower-cased, stop tokens removed; words;
// character 3–7-grams of "^token$"; TLD; 2-letter country/language labels in the host; language-
// code patterns in subdomain, path segment, query parameter and file name; hyphens in the host) →
// url_model (a hashed feature → per-language weight table: the generative words model, trained
// from text corpora, or the discriminative linear model, trained from labelled URLs) →
// url_classifier (the models combined with language-code patterns and an optional host-country
// hint). Baselines: cctld_language (ccTLD) and cctld_plus_language (ccTLD+). See docs/url.md.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "langsift/common.hpp"
#include "langsift/country.hpp"
#include "langsift/ngram.hpp"
#include "langsift/psl.hpp"
#include "langsift/punycode.hpp"
#include "langsift/unicode.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {

// ================================================================================================
// Parsing

enum class host_kind : std::uint8_t { none, name, ipv4, ipv6 };

/// A parsed URL. Strings are owned (re-used across calls: pass the same object to avoid
/// allocation). All views returned point into this object.
struct url_parts {
  std::string scheme;  ///< lower case; "http" assumed for "example.com/x"
  std::string host_;   ///< lower case, IDN labels as UTF-8, no trailing dot, no brackets
  std::string path_;   ///< percent-decoded to UTF-8 (invalid UTF-8 bytes read as Latin-1)
  std::string query_;  ///< percent-decoded, '+' as space
  host_kind kind = host_kind::none;
  std::size_t suffix_at = 0, registered_at = 0;  ///< offsets in host_ (registered_at = npos: none)
  bool idn = false;        ///< some host label was punycode
  bool truncated = false;  ///< the URL was longer than the cap; only a prefix was parsed

  std::string_view host() const noexcept { return host_; }
  std::string_view path() const noexcept { return path_; }
  std::string_view query() const noexcept { return query_; }
  /// "co.uk" (for host names; "" for IP literals and empty hosts)
  std::string_view public_suffix() const noexcept {
    return kind == host_kind::name ? std::string_view(host_).substr(suffix_at) : std::string_view();
  }
  /// "bbc.co.uk"; "" when the host is itself a public suffix or not a name
  std::string_view registered_domain() const noexcept {
    return kind == host_kind::name && registered_at != std::string::npos ? std::string_view(host_).substr(registered_at)
                                                                          : std::string_view();
  }
  /// The last label ("uk"); "" for IP literals.
  std::string_view tld() const noexcept {
    if (kind != host_kind::name) return {};
    const std::size_t d = host_.rfind('.');
    return d == std::string::npos ? std::string_view(host_) : std::string_view(host_).substr(d + 1);
  }
};

namespace detail {

inline int url_hex(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The length of the prefix of `s` that url_percent_decode copies as it is: printable ASCII
/// without '%' (and without '+' when that is a space). Usually the whole path or query.
inline std::size_t url_plain_prefix(std::string_view s, bool plus_is_space) noexcept {
  const std::size_t n = s.size();
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= 16) {
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F), pct = _mm_set1_epi8('%'),
                  plus = _mm_set1_epi8(plus_is_space ? '+' : '%');
    auto special = [&](std::size_t at) {  // bit k: s[at + k] is not plain
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + at));
      // signed: bytes >= 0x80 compare below 0x20 too
      const __m128i c = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, pct), _mm_cmpeq_epi8(v, plus)));
      return static_cast<unsigned>(_mm_movemask_epi8(c));
    };
    for (; i + 16 <= n; i += 16)
      if (const unsigned m = special(i)) return i + static_cast<std::size_t>(std::countr_zero(m));
    if (i == n) return n;
    // The last 16 bytes, without those already checked.
    const unsigned m = special(n - 16) >> (16 - (n - i));
    return m ? i + static_cast<std::size_t>(std::countr_zero(m)) : n;
  }
#endif
  for (; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7F || c == '%' || (c == '+' && plus_is_space)) break;
  }
  return i;
}

/// Percent-decodes `s` (optionally '+' → ' ') and appends UTF-8 to `out`: decoded bytes that do not
/// form valid UTF-8 are read as Latin-1 (old sites encode "é" as %E9); a '%' not followed by two
/// hex digits stays as it is; C0 controls become spaces.
inline void url_percent_decode(std::string_view s, bool plus_is_space, std::string& out) {
  // A plain prefix is its own decoding, and ASCII: the passes below need not see it.
  const std::size_t plain = url_plain_prefix(s, plus_is_space);
  out.append(s.data(), plain);
  s.remove_prefix(plain);
  if (s.empty()) return;
  // First pass into raw bytes, then a UTF-8 validity pass that maps bad bytes as Latin-1.
  std::string& o = out;
  const std::size_t start = o.size();
  o.resize(start + s.size());  // decoding never grows
  char* w = o.data() + start;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size() && url_hex(s[i + 1]) >= 0 && url_hex(s[i + 2]) >= 0) {
      c = static_cast<char>(url_hex(s[i + 1]) * 16 + url_hex(s[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    *w++ = c;
  }
  o.resize(static_cast<std::size_t>(w - o.data()));
  // Repair: keep valid UTF-8 sequences, read other bytes >= 0x80 as Latin-1.
  bool ascii = true;
  for (std::size_t i = start; i < o.size(); ++i)
    if (static_cast<unsigned char>(o[i]) >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii || is_valid_utf8(std::string_view(o).substr(start))) return;
  std::string fixed;
  fixed.reserve((o.size() - start) * 2);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(o.data()) + start;
  const unsigned char* e = reinterpret_cast<const unsigned char*>(o.data()) + o.size();
  while (p < e) {
    if (*p < 0x80) {
      fixed += static_cast<char>(*p++);
      continue;
    }
    const utf8_decoded d = decode_utf8_step(p, e);
    if (d.cp == 0xFFFD && !(d.len == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] == 0xBD)) {
      puny_append_utf8(fixed, static_cast<char32_t>(*p));  // Latin-1
      ++p;
    } else {
      fixed.append(reinterpret_cast<const char*>(p), d.len);
      p += d.len;
    }
  }
  o.resize(start);
  o += fixed;
}

inline bool url_parse_ipv4(std::string_view h) noexcept {
  int parts = 0;
  std::size_t i = 0;
  while (i <= h.size()) {
    std::size_t j = h.find('.', i);
    if (j == std::string_view::npos) j = h.size();
    const std::string_view p = h.substr(i, j - i);
    if (p.empty() || p.size() > 3) return false;
    int v = 0;
    for (char c : p) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v > 255) return false;
    ++parts;
    i = j + 1;
    if (j == h.size()) break;
  }
  return parts == 4;
}

inline bool url_parse_ipv6(std::string_view h) noexcept {  // inside the brackets; loose check
  if (h.empty() || h.size() > 45) return false;
  int colons = 0;
  for (char c : h) {
    if (c == ':') ++colons;
    else if (!(url_hex(c) >= 0 || c == '.')) return false;
  }
  return colons >= 2 && colons <= 7;
}

}  // namespace detail

/// Default cap on the bytes of a URL examined.
constexpr std::size_t kUrlMaxBytes = 2048;

/// Parses `url` into `out`. Accepts absolute URLs of any scheme with an authority, and bare
/// "host/path" strings (read as http). Returns status::ok, status::truncated (longer than
/// `max_bytes`: the prefix was parsed), status::empty_input (empty or blank), or
/// status::invalid_argument (not a URL with a host: "mailto:x", "/relative", a malformed authority,
/// an empty host). On any status but ok/truncated, `out.kind == host_kind::none`; the path may
/// still be filled when there is one.
inline status parse_url(std::string_view url, url_parts& out, std::size_t max_bytes = kUrlMaxBytes) {
  out.scheme.clear();
  out.host_.clear();
  out.path_.clear();
  out.query_.clear();
  out.kind = host_kind::none;
  out.suffix_at = 0;
  out.registered_at = std::string::npos;
  out.idn = false;
  out.truncated = false;
  if (url.size() > max_bytes) {
    url = url.substr(0, max_bytes);
    out.truncated = true;
  }
  url = detail::uri_trim(url);
  if (url.empty()) return status::empty_input;
  std::optional<uri_view> u = parse_uri(url);
  // "example.com/x", "www.example.com": no scheme → read as http://...
  std::string with_scheme;
  if (!u || !u->has_authority) {
    const bool looks_like_host =
        !url.empty() && url[0] != '/' && url.find("://") == std::string_view::npos &&
        (!u || u->scheme.empty() || url.find('.') < url.find(':'));
    if (looks_like_host) {
      with_scheme.reserve(url.size() + 7);
      with_scheme = "http://";
      with_scheme.append(url);
      u = parse_uri(with_scheme);
    }
  }
  if (!u || !u->has_authority) {
    if (u) detail::url_percent_decode(u->path, false, out.path_);
    return status::invalid_argument;
  }
  for (char c : u->scheme) out.scheme += detail::uri_lower(c);
  if (out.scheme.empty()) out.scheme = "http";
  detail::url_percent_decode(u->path, false, out.path_);
  detail::url_percent_decode(u->query, true, out.query_);
  std::string_view h = u->host;
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') {
    h = h.substr(1, h.size() - 2);
    if (!detail::url_parse_ipv6(h)) return status::invalid_argument;
    for (char c : h) out.host_ += detail::uri_lower(c);
    out.kind = host_kind::ipv6;
    return out.truncated ? status::truncated : status::ok;
  }
  while (!h.empty() && h.back() == '.') h.remove_suffix(1);
  if (h.empty()) return status::invalid_argument;
  // Percent-encoded host bytes ("%C3%BC") are decoded; then IDN labels.
  std::string decoded;
  if (h.find('%') != std::string_view::npos) {
    detail::url_percent_decode(h, false, decoded);
    h = decoded;
  }
  if (detail::url_parse_ipv4(h)) {
    out.host_.assign(h);
    out.kind = host_kind::ipv4;
    return out.truncated ? status::truncated : status::ok;
  }
  out.idn = idn_to_unicode(h, out.host_) > 0;
  // One pass for bytes to fold (>= 0x80) and for spaces and controls (which make it no host
  // name): the highest and lowest byte, reductions the compiler vectorises.
  unsigned char high = 0, low = 0xFF;
  for (char ch : out.host_) {
    high = std::max(high, static_cast<unsigned char>(ch));
    low = std::min(low, static_cast<unsigned char>(ch));
  }
  bool control = low <= 0x20;
  // Lower-case non-ASCII letters too (simple case folding), keeping the string valid UTF-8.
  if (high >= 0x80) {
    std::string folded;
    folded.reserve(out.host_.size());
    const char* p = out.host_.data();
    const char* e = p + out.host_.size();
    while (p < e) {
      const char32_t cp = ::langsift::decode_utf8(p, e);
      detail::puny_append_utf8(folded, code_point_props(cp).lower);
    }
    out.host_.swap(folded);
    control = false;  // of what the folding wrote
    for (char c : out.host_) control |= static_cast<unsigned char>(c) <= 0x20;
  }
  while (!out.host_.empty() && out.host_.back() == '.') out.host_.pop_back();
  if (control) return status::invalid_argument;
  const domain_parts d = split_domain(out.host_);
  if (d.public_suffix.empty()) return status::invalid_argument;
  out.kind = host_kind::name;
  out.suffix_at = static_cast<std::size_t>(d.public_suffix.data() - out.host_.data());
  out.registered_at = d.registered_domain.empty()
                          ? std::string::npos
                          : static_cast<std::size_t>(d.registered_domain.data() - out.host_.data());
  return out.truncated ? status::truncated : status::ok;
}

// ================================================================================================
// Features

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

inline std::uint64_t url_string_hash(std::string_view s, unsigned tag) noexcept {
  std::uint64_t h = 0;
  for (unsigned char c : s) h = h * kPolyBase + c + 1;
  return url_finish(h, tag);
}

/// Tokens dropped (the paper's stop tokens, plus file extensions and URL syntax words that say
/// nothing about language: they would only teach a model the shape of a source's URLs).
inline bool url_stop_token(const char32_t* t, std::size_t n) noexcept {
  if (n < 2) return true;
  if (n > 6) return false;
  char s[7];
  for (std::size_t i = 0; i < n; ++i) {
    if (t[i] >= 0x80) return false;
    s[i] = static_cast<char>(t[i]);
  }
  const std::string_view v(s, n);
  static constexpr std::string_view stops[] = {"www", "index", "html", "htm", "http", "https", "php",
                                               "asp", "aspx", "jsp", "cgi", "shtml", "cfm", "amp"};
  for (auto x : stops)
    if (v == x) return true;
  return false;
}

inline bool url_is_alpha_lower(std::string_view s) noexcept {
  for (char c : s)
    if (c < 'a' || c > 'z') return false;
  return !s.empty();
}

/// "de", "de-de", "de_DE", "pt-br", "fra" (3 letters only where `allow3`) → the language part.
inline bool url_code_token(std::string_view s, bool allow3, url_language_code& c) noexcept {
  char low[8];
  if (s.size() > 7) return false;
  for (std::size_t i = 0; i < s.size(); ++i) low[i] = uri_lower(s[i]);
  std::string_view v(low, s.size());
  std::string_view lang = v;
  if (v.size() == 5 && (v[2] == '-' || v[2] == '_')) {
    if (!url_is_alpha_lower(v.substr(3))) return false;
    lang = v.substr(0, 2);
  }
  if (!(lang.size() == 2 || (allow3 && lang.size() == 3)) || !url_is_alpha_lower(lang)) return false;
  c = {};
  std::memcpy(c.code, lang.data(), lang.size());
  return true;
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
inline void url_token_features(std::string_view text, const url_feature_config& cfg, url_features& f,
                               bool host = false) {
  // tag offsets: 0 the shared space, 16 the host space
  const bool shared = !host || cfg.host_space != 1;
  const bool own = host && cfg.host_space != 0;
  constexpr std::size_t kMaxToken = 64;
  char32_t tok[kMaxToken];
  std::size_t n = 0;
  bool overlong = false;
  const bool want_words = cfg.kinds & (1u << url_feat_word);
  const bool want_ngrams = cfg.kinds & (1u << url_feat_ngram);
  const unsigned lo = cfg.min_order < 1 ? 1 : cfg.min_order, hi = cfg.max_order > 7 ? 7 : cfg.max_order;
  auto flush = [&]() {
    if (n == 0) return;
    if (!overlong && !url_stop_token(tok, n)) {
      ++f.tokens;
      if (want_words) {
        std::uint64_t h = 0;
        for (std::size_t i = 0; i < n; ++i) h = h * kPolyBase + tok[i] + 1;
        if (shared) f.add(url_finish(h, 100), static_cast<std::uint8_t>(url_feat_word | (host ? 64 : 0)));
        if (own) f.add(url_finish(h, 116), static_cast<std::uint8_t>(url_feat_word | 128));
      }
      if (want_ngrams) {
        const std::uint8_t space = host ? 64 : 0;
        auto orders = [&](auto shared_c, auto own_c) {
          constexpr bool S = decltype(shared_c)::value, O = decltype(own_c)::value;
          if (lo == 3 && hi == 7) url_ngram_features<3, 7, S, O>(tok, n, lo, hi, space, f);  // the linear model's
          else if (lo == 3 && hi == 5) url_ngram_features<3, 5, S, O>(tok, n, lo, hi, space, f);  // the words model's
          else url_ngram_features<0, 0, S, O>(tok, n, lo, hi, space, f);
        };
        using yes = std::true_type;
        using no = std::false_type;
        if (shared && own) orders(yes{}, yes{});
        else if (shared) orders(yes{}, no{});
        else if (own) orders(no{}, yes{});
      }
    }
    n = 0;
    overlong = false;
  };
  const char* p = text.data();
  const char* const e = p + text.size();
  while (p < e) {
    char32_t cp;
    const unsigned char b = static_cast<unsigned char>(*p);
    if (b < 0x80) {
      ++p;
      if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') {
        if (n < kMaxToken) tok[n++] = b | 0x20;
        else overlong = true;
        continue;
      }
      flush();
      continue;
    }
    cp = ::langsift::decode_utf8(p, e);
    const code_point_info info = code_point_props(cp);
    if ((info.cls == char_class::letter || info.cls == char_class::mark) && cp != 0xFFFD) {
      if (n < kMaxToken) tok[n++] = info.lower;
      else overlong = true;
    } else {
      flush();
    }
  }
  flush();
}

}  // namespace detail

/// Extracts the features of a parsed URL into `f` (reset first).
inline void url_extract_features(const url_parts& u, const url_feature_config& cfg, url_features& f) {
  f.count = 0;
  f.tokens = 0;
  f.code_count = 0;
  f.country[0] = f.country[1] = f.country[2] = 0;
  const auto want = [&](url_feature_kind k) { return (cfg.kinds & (1u << k)) != 0; };
  std::string_view host_head;
  if (u.kind == host_kind::ipv4 || u.kind == host_kind::ipv6) {
    if (want(url_feat_tld)) f.add(detail::url_string_hash("*ip", url_feat_tld), url_feat_tld);
  } else if (u.kind == host_kind::name) {
    const std::string_view host = u.host();
    const std::string_view tld = u.tld();
    if (want(url_feat_tld)) f.add(detail::url_string_hash(tld, url_feat_tld), url_feat_tld);
    const std::string_view suffix = u.public_suffix();
    if (want(url_feat_suffix) && suffix.find('.') != std::string_view::npos)
      f.add(detail::url_string_hash(suffix, url_feat_suffix), url_feat_suffix);
    const std::string_view cc = tld_country(tld);
    if (cc.size() == 2) {
      f.country[0] = cc[0];
      f.country[1] = cc[1];
    }
    // Labels before the public suffix: tokens, 2-letter labels, hyphens.
    const std::string_view head = host.substr(0, u.suffix_at > 0 ? u.suffix_at - 1 : 0);
    std::size_t hyphens = 0;
    for (char c : head) hyphens += c == '-';
    if (want(url_feat_hyphens))
      f.add(detail::url_string_hash(std::string_view("0123").substr(hyphens > 3 ? 3 : hyphens, 1), url_feat_hyphens),
            url_feat_hyphens);
    // Subdomain labels (left of the registered domain's label): language codes and country codes.
    const std::size_t reg = u.registered_at == std::string::npos ? 0 : u.registered_at;
    std::size_t i = 0;
    while (i < reg) {
      std::size_t dot = host.find('.', i);
      if (dot == std::string_view::npos || dot >= reg) dot = reg > 0 ? reg - 1 : 0;
      const std::string_view label = host.substr(i, dot - i);
      url_language_code c;
      if (detail::url_code_token(label, false, c)) {
        c.place = url_code_place::subdomain;
        f.add_code(c);
        if (want(url_feat_hostcc)) f.add(detail::url_string_hash(label, url_feat_hostcc), url_feat_hostcc);
        if (want(url_feat_langcode))
          f.add(detail::url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
      }
      if (dot <= i) break;
      i = dot + 1;
    }
    if (!cfg.host_if_no_path) detail::url_token_features(head, cfg, f, /*host=*/true);
    host_head = head;
  }
  // Path: segments that are language codes ("/de/", "/en-us/"), file names ending in _xx / -xx.
  const std::string_view path = u.path();
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    const std::string_view seg = path.substr(i, j - i);
    url_language_code c;
    if (!seg.empty() && detail::url_code_token(seg, false, c)) {
      c.place = url_code_place::path_segment;
      f.add_code(c);
      if (want(url_feat_langcode)) f.add(detail::url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
    } else if (seg.size() > 3) {
      // file name stem ending in [_-.]xx before an extension (or at the end): "article153_en.html"
      std::string_view stem = seg;
      if (const std::size_t dot = stem.rfind('.'); dot != std::string_view::npos && dot > 0) stem = stem.substr(0, dot);
      if (stem.size() > 3) {
        const char sep = stem[stem.size() - 3];
        if ((sep == '_' || sep == '-' || sep == '.') && detail::url_code_token(stem.substr(stem.size() - 2), false, c)) {
          c.place = url_code_place::file_name;
          f.add_code(c);
          if (want(url_feat_langcode))
            f.add(detail::url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
        }
      }
    }
    i = j;
  }
  // Query: lang=, language=, hl=, locale=, lng=, ln=, l= parameters.
  const std::string_view q = u.query();
  i = 0;
  while (i < q.size()) {
    std::size_t j = q.find_first_of("&;", i);
    if (j == std::string_view::npos) j = q.size();
    const std::string_view kv = q.substr(i, j - i);
    const std::size_t eq = kv.find('=');
    if (eq != std::string_view::npos) {
      std::string_view key = kv.substr(0, eq);
      char kl[10];
      if (key.size() <= sizeof kl) {
        for (std::size_t k = 0; k < key.size(); ++k) kl[k] = detail::uri_lower(key[k]);
        const std::string_view k2(kl, key.size());
        if (k2 == "lang" || k2 == "language" || k2 == "hl" || k2 == "locale" || k2 == "lng" || k2 == "ln" ||
            k2 == "l" || k2 == "lang_id" || k2 == "sprache" || k2 == "langue" || k2 == "idioma") {
          url_language_code c;
          if (detail::url_code_token(kv.substr(eq + 1), true, c)) {
            c.place = url_code_place::query;
            f.add_code(c);
            if (want(url_feat_langcode))
              f.add(detail::url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
          }
        }
      }
    }
    i = j + 1;
  }
  const std::size_t before = f.tokens;
  detail::url_token_features(path, cfg, f);
  detail::url_token_features(q, cfg, f);
  if (cfg.host_if_no_path && f.tokens == before) detail::url_token_features(host_head, cfg, f, /*host=*/true);
}

// ================================================================================================
// Baselines

/// ccTLD baseline (Baykan et al.): the language of the URL's country-code TLD — the first official
/// language of the country (CLDR), e.g. "de" → de, "ch" → de, "ca" → en; "" for generic TLDs.
inline std::string_view cctld_language(const url_parts& u) noexcept {
  std::string_view lang;
  const std::string_view cc = tld_country(u.tld());
  if (cc.empty()) return {};
  for_each_country_language(cc, [&](std::string_view l, float) {
    if (lang.empty()) lang = l;
  });
  return lang;
}

/// ccTLD+ baseline: ccTLD, and English for the generic TLDs com, org, net, edu, gov, mil, info, biz.
inline std::string_view cctld_plus_language(const url_parts& u) noexcept {
  std::string_view l = cctld_language(u);
  if (!l.empty()) return l;
  static constexpr std::string_view generic[] = {"com", "org", "net", "edu", "gov", "mil", "info", "biz"};
  const std::string_view t = u.tld();
  for (auto g : generic)
    if (t == g) return "en";
  return {};
}

// ================================================================================================
// Models

namespace detail {

/// e^x for x <= 0 (relative error < 2e-4; 0 below -80): softmax over many languages per URL
/// needs no more, and std::exp would cost more than the model lookups.
inline float url_fast_exp(float x) noexcept {
  if (x < -80.f) return 0.f;
  const float t = x * 1.44269504f;  // log2(e)
  // floor(t) for t in [-116, 0], without std::floor (a long sequence without SSE4.1)
  std::int32_t ti = static_cast<std::int32_t>(t);  // toward zero
  ti -= static_cast<float>(ti) > t;
  const float fi = static_cast<float>(ti);
  const float f = t - fi;  // [0, 1)
  // 2^f on [0,1): minimax cubic
  const float p = 1.f + f * (0.6951786f + f * (0.2261560f + f * 0.0784723f));
  std::int32_t bits;
  std::memcpy(&bits, &p, 4);
  bits += ti * (1 << 23);
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

#if defined(__SSE2__)
/// url_fast_exp of 4 values, operation for operation (the same results).
inline __m128 url_fast_exp4(__m128 x) noexcept {
  const __m128 t = _mm_mul_ps(x, _mm_set1_ps(1.44269504f));
  const __m128i trunc = _mm_cvttps_epi32(t);
  const __m128i ti = _mm_add_epi32(trunc, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(trunc), t)));  // -1 where above
  const __m128 f = _mm_sub_ps(t, _mm_cvtepi32_ps(ti));
  __m128 p = _mm_add_ps(_mm_set1_ps(0.2261560f), _mm_mul_ps(f, _mm_set1_ps(0.0784723f)));
  p = _mm_add_ps(_mm_set1_ps(0.6951786f), _mm_mul_ps(f, p));
  p = _mm_add_ps(_mm_set1_ps(1.f), _mm_mul_ps(f, p));
  const __m128 r = _mm_castsi128_ps(_mm_add_epi32(_mm_castps_si128(p), _mm_slli_epi32(ti, 23)));
  return _mm_andnot_ps(_mm_cmplt_ps(x, _mm_set1_ps(-80.f)), r);
}
#endif

/// The softmax of a model's scores: out[i] = e^(s[i] - max) / Σ e^(s - max), with
/// s[i] = acc[i] * k + bias[i] / temperature (elementwise 4 at a time; the sum in index order).
/// `out` (nl values) holds s, then the exponentials, then the result.
inline void url_softmax(const std::int32_t* acc, const float* bias, std::size_t nl, float k, float temperature,
                        float* out) noexcept {
  float mx = -1e30f;
  std::size_t i = 0;
#if defined(__SSE2__)
  __m128 mx4 = _mm_set1_ps(mx);
  for (; i + 4 <= nl; i += 4) {
    const __m128 v = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i))),
                                           _mm_set1_ps(k)),
                                _mm_div_ps(_mm_loadu_ps(bias + i), _mm_set1_ps(temperature)));
    _mm_storeu_ps(out + i, v);
    mx4 = _mm_max_ps(mx4, v);
  }
  mx4 = _mm_max_ps(mx4, _mm_shuffle_ps(mx4, mx4, _MM_SHUFFLE(1, 0, 3, 2)));
  mx4 = _mm_max_ps(mx4, _mm_shuffle_ps(mx4, mx4, _MM_SHUFFLE(2, 3, 0, 1)));
  mx = _mm_cvtss_f32(mx4);
#endif
  for (; i < nl; ++i) {
    out[i] = static_cast<float>(acc[i]) * k + bias[i] / temperature;
    mx = std::max(mx, out[i]);
  }
  i = 0;
#if defined(__SSE2__)
  for (; i + 4 <= nl; i += 4) _mm_storeu_ps(out + i, url_fast_exp4(_mm_sub_ps(_mm_loadu_ps(out + i), _mm_set1_ps(mx))));
#endif
  for (; i < nl; ++i) out[i] = url_fast_exp(out[i] - mx);
  float z = 0;
  for (i = 0; i < nl; ++i) z += out[i];
  const float inv = 1.f / z;
  for (i = 0; i < nl; ++i) out[i] *= inv;
}

/// s[k] += r[k] for k < n (a dense row of int8 weights into int32 sums), 16 weights at a time.
inline void url_add_row(std::int32_t* s, const std::int8_t* r, std::size_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 16) {
    const auto add16 = [s](std::size_t at, __m128i v) {
      const __m128i lo = _mm_unpacklo_epi8(v, _mm_cmplt_epi8(v, _mm_setzero_si128()));  // int16
      const __m128i hi = _mm_unpackhi_epi8(v, _mm_cmplt_epi8(v, _mm_setzero_si128()));
      const __m128i lo_sign = _mm_srai_epi16(lo, 15), hi_sign = _mm_srai_epi16(hi, 15);
      __m128i* d = reinterpret_cast<__m128i*>(s + at);
      _mm_storeu_si128(d, _mm_add_epi32(_mm_loadu_si128(d), _mm_unpacklo_epi16(lo, lo_sign)));
      _mm_storeu_si128(d + 1, _mm_add_epi32(_mm_loadu_si128(d + 1), _mm_unpackhi_epi16(lo, lo_sign)));
      _mm_storeu_si128(d + 2, _mm_add_epi32(_mm_loadu_si128(d + 2), _mm_unpacklo_epi16(hi, hi_sign)));
      _mm_storeu_si128(d + 3, _mm_add_epi32(_mm_loadu_si128(d + 3), _mm_unpackhi_epi16(hi, hi_sign)));
    };
    std::size_t k = 0;
    for (; k + 16 <= n; k += 16) add16(k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + k)));
    if (k < n) {  // the row's last 16 weights, those already added masked to 0 (no read past the row)
      const int done = static_cast<int>(k - (n - 16));  // 1..15
      const __m128i keep = _mm_cmpgt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm_set1_epi8(static_cast<char>(done - 1)));
      add16(n - 16, _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + n - 16)), keep));
    }
    return;
  }
#endif
  for (std::size_t k = 0; k < n; ++k) s[k] += r[k];
}

}  // namespace detail

/// A URL model: per-language bias and a hashed feature → (language, weight) table. Both the
/// generative words model and the discriminative linear model are of this form; scores are
/// bias[l] + Σ weight(bucket(feature), l) over the URL's features (a log-linear model). Features
/// are hashed into 2^bits buckets without fingerprints (the hashing trick: the linear model is
/// trained on the buckets themselves, so collisions are part of what it learned), which keeps the
/// table small enough to stay in cache: one 4-byte bucket read per feature.
///
/// File format (little-endian): "LSURL\0\0\1" (magic, version 1), u32 header size (64), u32 kind
/// (1 words/generative, 2 linear/discriminative), u32 languages, u32 bucket bits, u32 postings,
/// f32 weight scale, u32 feature kinds, u8 min order, u8 max order, u8 host space, u8 0, f32 temperature,
/// u64 XXH3-64 of everything after the header, char name[8]; then languages × char[8] codes,
/// languages × f32 bias, 2^bits × u32 buckets, postings × {u8 language, i8 weight}, rows ×
/// languages × i8 (dense rows; their count is the u32 at header offset 60).
/// A bucket is 0 (empty); with bits 31 and 30 set a dense row (bits 0..29 its index); with bit 31
/// alone a list (bits 8..29 first posting, bits 0..7 count); or else up to two inline postings of
/// 15 bits (language 8 bits, weight 7 bits signed, -63..63).
class url_model {
 public:
  enum kind_t : std::uint32_t { none = 0, words = 1, linear = 2 };
  struct posting {
    std::uint8_t lang;
    std::int8_t weight;
  };

  kind_t kind = none;
  std::vector<std::string> languages;
  std::vector<float> bias;
  std::vector<std::uint32_t> buckets;  ///< power of two
  std::vector<posting> postings;
  std::vector<std::int8_t> rows;  ///< dense rows (languages.size() weights each)
  float scale = 1;        ///< weight = posting.weight * scale
  float temperature = 1;  ///< scores / temperature before the softmax
  url_feature_config features;
  std::string name;
  unsigned bits = 0;

  bool empty() const noexcept { return languages.empty(); }
  static constexpr std::size_t kDenseFrom = 8;  ///< buckets with more postings are dense rows

  /// Whether a feature of class `c` (url_features::kind) is one this model was trained with.
  bool accepts(std::uint8_t c) const noexcept {
    const unsigned k = c & 7, order = (c >> 3) & 7, space = c >> 6;
    if (!(features.kinds & (1u << k))) return false;
    if (k == url_feat_ngram && (order < features.min_order || order > features.max_order)) return false;
    if (space == 1 && features.host_space == 1) return false;
    if (space == 2 && features.host_space == 0) return false;
    return true;
  }

  std::size_t size_bytes() const noexcept {
    return 64 + languages.size() * 12 + buckets.size() * 4 + postings.size() * sizeof(posting) + rows.size();
  }

  /// The bucket of a feature hash in a table of 2^bits (the hash's top bits).
  static constexpr std::size_t bucket_of(std::uint64_t h, unsigned b) noexcept {
    return b == 0 ? 0 : static_cast<std::size_t>(h >> (64 - b));
  }
  std::uint32_t bucket(std::uint64_t h) const noexcept { return buckets[bucket_of(h, bits)]; }

  /// Adds the weights of a bucket to s[lang] (in units of `scale`).
  void add_bucket(std::uint32_t b, std::int32_t* s) const noexcept {
    if (b & 0x80000000u) {
      if (b & 0x40000000u) {  // a dense row of all languages' weights
        detail::url_add_row(s, rows.data() + std::size_t{b & 0x3FFFFFFFu} * languages.size(), languages.size());
        return;
      }
      const posting* p = postings.data() + ((b >> 8) & 0x3FFFFF);
      const std::size_t n = b & 0xFF;
      for (std::size_t k = 0; k < n; ++k) s[p[k].lang] += p[k].weight;
      return;
    }
    // inline: two 15-bit postings (weight 0 = none)
    for (int k = 0; k < 2; ++k, b >>= 15) {
      const std::uint32_t x = b & 0x7FFF;
      s[x & 0xFF] += static_cast<std::int32_t>(x << 17) >> 25;  // the 7-bit signed weight in bits 8-14
    }
  }

  void prefetch(std::uint64_t h) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(buckets.data() + bucket_of(h, bits));
#else
    (void)h;
#endif
  }

  /// Builds the table from (feature hash → [(language, weight)]) entries hashed into 2^bits
  /// buckets (weights of colliding features add up); weights are quantised to int8 with a common
  /// scale; |weight| < prune is dropped.
  template <class Entries>  // range of pair<uint64_t, vector<pair<uint8_t, float>>>
  void build(const Entries& entries, unsigned table_bits, float prune = 0) {
    bits = table_bits;
    std::vector<std::vector<std::pair<std::uint8_t, float>>> acc(std::size_t{1} << bits);
    for (const auto& [h, list] : entries) {
      auto& a = acc[bucket_of(h, bits)];
      for (const auto& [l, w] : list) {
        bool found = false;
        for (auto& [l2, w2] : a)
          if (l2 == l) {
            w2 += w;
            found = true;
            break;
          }
        if (!found) a.emplace_back(l, w);
      }
    }
    build_buckets(acc, prune);
  }

  /// Builds from per-bucket (language, weight) lists (acc.size() must be 2^bits).
  void build_buckets(std::vector<std::vector<std::pair<std::uint8_t, float>>>& acc, float prune) {
    float maxw = 1e-6f;
    for (const auto& a : acc)
      for (const auto& [l, w] : a) maxw = std::max(maxw, std::fabs(w));
    scale = maxw / 127.f;
    buckets.assign(acc.size(), 0);
    postings.clear();
    rows.clear();
    for (std::size_t i = 0; i < acc.size(); ++i) {
      auto& list = acc[i];
      std::sort(list.begin(), list.end(),
                [](const auto& a, const auto& b) { return std::fabs(a.second) > std::fabs(b.second); });
      if (list.size() > 255) list.resize(255);
      posting q[255];
      std::size_t kept = 0;
      bool small = true;
      for (const auto& [l, w] : list) {
        if (std::fabs(w) < prune) continue;
        const long v = std::lround(w / scale);
        if (v == 0) continue;
        q[kept++] = {l, static_cast<std::int8_t>(std::clamp(v, -127L, 127L))};
        small = small && v >= -63 && v <= 63;
      }
      if (kept == 0) continue;
      if (kept <= 2 && small) {
        std::uint32_t b = 0;
        for (std::size_t k = 0; k < kept; ++k)
          b |= (static_cast<std::uint32_t>(q[k].lang) | (static_cast<std::uint32_t>(q[k].weight) & 0x7F) << 8) << (15 * k);
        buckets[i] = b;
      } else if (kept > kDenseFrom) {
        const std::size_t row = rows.size() / languages.size();
        rows.resize(rows.size() + languages.size(), 0);
        for (std::size_t k = 0; k < kept; ++k) rows[row * languages.size() + q[k].lang] = q[k].weight;
        buckets[i] = 0xC0000000u | static_cast<std::uint32_t>(row);
      } else {
        buckets[i] = 0x80000000u | static_cast<std::uint32_t>(postings.size() << 8 | kept);
        postings.insert(postings.end(), q, q + kept);
      }
    }
  }

  /// Serialises the model (see the format above).
  std::string save() const {
    std::string body;
    auto put = [&](const void* p, std::size_t n) { body.append(static_cast<const char*>(p), n); };
    for (const auto& l : languages) {
      char code[8] = {};
      std::memcpy(code, l.data(), std::min<std::size_t>(l.size(), 8));
      put(code, 8);
    }
    put(bias.data(), bias.size() * 4);
    put(buckets.data(), buckets.size() * 4);
    put(postings.data(), postings.size() * sizeof(posting));
    put(rows.data(), rows.size());
    std::string h(64, '\0');
    char* p = h.data();
    std::memcpy(p, "LSURL\0\0\1", 8);
    auto w32 = [&](std::size_t at, std::uint32_t v) { std::memcpy(p + at, &v, 4); };
    w32(8, 64);
    w32(12, kind);
    w32(16, static_cast<std::uint32_t>(languages.size()));
    w32(20, bits);
    w32(24, static_cast<std::uint32_t>(postings.size()));
    std::memcpy(p + 28, &scale, 4);
    w32(32, features.kinds);
    p[36] = static_cast<char>(features.min_order);
    p[37] = static_cast<char>(features.max_order);
    p[38] = static_cast<char>(features.host_space);
    std::memcpy(p + 40, &temperature, 4);
    const std::uint64_t sum = XXH3_64bits(body.data(), body.size());
    std::memcpy(p + 44, &sum, 8);
    std::memcpy(p + 52, name.data(), std::min<std::size_t>(name.size(), 8));
    w32(60, static_cast<std::uint32_t>(languages.empty() ? 0 : rows.size() / languages.size()));
    return h + body;
  }

  /// Loads a model from bytes (copied). Returns ok, corrupt_model (truncated, bit flips, bad
  /// structure) or model_version.
  static status load(std::string_view bytes, url_model& out) {
    out = url_model{};
    if (bytes.size() < 64 || std::memcmp(bytes.data(), "LSURL\0\0", 7) != 0) return status::corrupt_model;
    if (bytes[7] != 1) return status::model_version;
    const char* p = bytes.data();
    auto r32 = [&](std::size_t at) {
      std::uint32_t v;
      std::memcpy(&v, p + at, 4);
      return v;
    };
    if (r32(8) != 64) return status::corrupt_model;
    const std::uint32_t kind = r32(12), nl = r32(16), bits = r32(20), np = r32(24), nr = r32(60);
    if ((kind != words && kind != linear) || nl == 0 || nl > 255 || bits < 4 || bits > 26 || np >= (1u << 22) ||
        nr >= (1u << 22))
      return status::corrupt_model;
    const std::size_t nb = std::size_t{1} << bits;
    const std::size_t need =
        64 + std::size_t{nl} * 12 + nb * 4 + std::size_t{np} * sizeof(posting) + std::size_t{nr} * nl;
    if (bytes.size() != need) return status::corrupt_model;
    std::uint64_t sum;
    std::memcpy(&sum, p + 44, 8);
    if (XXH3_64bits(p + 64, bytes.size() - 64) != sum) return status::corrupt_model;
    url_model m;
    m.kind = static_cast<kind_t>(kind);
    m.bits = bits;
    std::memcpy(&m.scale, p + 28, 4);
    std::memcpy(&m.temperature, p + 40, 4);
    m.features.kinds = r32(32);
    m.features.min_order = static_cast<std::uint8_t>(p[36]);
    m.features.max_order = static_cast<std::uint8_t>(p[37]);
    m.features.host_space = static_cast<std::uint8_t>(p[38]);
    if (!(m.scale > 0) || !(m.scale < 1e6f) || !(m.temperature > 0) || !(m.temperature < 1e6f) ||
        m.features.min_order < 1 || m.features.max_order > 7 || m.features.min_order > m.features.max_order ||
        m.features.host_space > 2)
      return status::corrupt_model;
    m.name.assign(p + 52, strnlen(p + 52, 8));
    const char* q = p + 64;
    for (std::uint32_t i = 0; i < nl; ++i, q += 8) {
      const std::size_t len = strnlen(q, 8);
      if (len == 0) return status::corrupt_model;
      m.languages.emplace_back(q, len);
    }
    m.bias.resize(nl);
    std::memcpy(m.bias.data(), q, nl * 4);
    q += nl * 4;
    for (float b : m.bias)
      if (!(std::fabs(b) < 1e6f)) return status::corrupt_model;
    m.buckets.resize(nb);
    std::memcpy(m.buckets.data(), q, nb * 4);
    q += nb * 4;
    m.postings.resize(np);
    std::memcpy(m.postings.data(), q, np * sizeof(posting));
    q += np * sizeof(posting);
    m.rows.resize(std::size_t{nr} * nl);
    if (!m.rows.empty()) std::memcpy(m.rows.data(), q, m.rows.size());
    for (std::uint32_t b : m.buckets) {
      if ((b & 0xC0000000u) == 0xC0000000u) {
        if ((b & 0x3FFFFFFFu) >= nr) return status::corrupt_model;
      } else if (b & 0x80000000u) {
        const std::uint32_t c = b & 0xFF, first = (b >> 8) & 0x3FFFFF;
        if (c == 0 || first + c > np) return status::corrupt_model;
      } else if ((b & 0xFF) >= nl || ((b >> 15) & 0xFF) >= nl) {
        return status::corrupt_model;
      }
    }
    for (const posting& x : m.postings)
      if (x.lang >= nl) return status::corrupt_model;
    out = std::move(m);
    return status::ok;
  }
};

// ================================================================================================
// Classification

/// How the classifier's top answer was reached.
enum class url_decision : std::uint8_t {
  none,     ///< nothing known: "und"
  model,    ///< the models (linear and/or words)
  pattern,  ///< an explicit language code in the URL (/de/, ?lang=fr, fr. subdomain, _en.html)
  country,  ///< the host-country hint or the ccTLD decided a close call
};

struct url_language {
  std::string_view code;  ///< points into the classifier's models (static storage)
  float score = 0;        ///< probability-like, sums to <= 1 over all languages
};

struct url_result {
  status error = status::ok;  ///< ok, truncated (prefix classified), empty_input, invalid_argument
  std::array<url_language, 3> languages{};
  std::size_t count = 0;  ///< 0 = und
  url_decision decision = url_decision::none;
  std::string_view language() const noexcept { return count ? languages[0].code : std::string_view("und"); }
};

struct url_options {
  /// ISO 3166-1 alpha-2 country of the host (e.g. from geo-IP), "" if unknown. Languages spoken
  /// there (CLDR) gain weight (Baykan et al. §4.7.1: it raises recall).
  std::string_view country_hint;
  bool use_linear = true;   ///< the discriminative model (when the classifier has one)
  bool use_words = true;    ///< the generative words model (when the classifier has one)
  bool use_patterns = true; ///< explicit language codes in the URL
  bool use_cctld = true;    ///< the ccTLD's country as a weak hint (like country_hint, weaker)
  std::size_t max_bytes = kUrlMaxBytes;
  // Combination weights (see docs/url.md for how they were chosen).
  float words_weight = 0.5f;    ///< share of the words model's posterior when both models answer
  float words_below = 0.5f;     ///< ... and only where the linear model's top probability is below this
  bool words_path_first = true; ///< the words model reads host labels only when the path has no words
  float pattern_boost = 10.0f;  ///< multiplier of a language named by a code pattern
  float pattern_floor = 1.0f;   ///< added to it
  float hint_boost = 3.0f;      ///< multiplier of the hint country's official languages
  float hint_floor = 0.15f;     ///< added to the hint country's official languages
  float cctld_boost = 20.0f;    ///< multiplier of the ccTLD country's official languages
  float cctld_floor = 0.5f;     ///< added to them
  float min_score = 0.0f;       ///< below this top score the answer is "und"
};

/// The URL classifier: a linear model and/or a words model (non-owning pointers; the models must
/// outlive it), combined with language-code patterns and country hints. Immutable after
/// construction; classify() is thread-safe, noexcept, and does not allocate unless the URL needs
/// percent-decoding beyond the small-string buffers of its scratch (pass a url_scratch to reuse).
class url_classifier {
 public:
  static constexpr std::size_t kMaxLanguages = 512;

  url_classifier() = default;
  url_classifier(const url_model* linear, const url_model* words) : linear_(linear), words_(words) {
    if (linear_ && linear_->empty()) linear_ = nullptr;
    if (words_ && words_->empty()) words_ = nullptr;
    auto add = [&](const url_model* m, std::vector<std::uint16_t>& map) {
      if (!m) return;
      for (const auto& l : m->languages) {
        std::size_t i = 0;
        while (i < codes_.size() && codes_[i] != l) ++i;
        if (i == codes_.size() && codes_.size() < kMaxLanguages) codes_.push_back(l);
        map.push_back(static_cast<std::uint16_t>(std::min(i, kMaxLanguages - 1)));
      }
    };
    add(linear_, lmap_);
    add(words_, wmap_);
    for (auto i : lmap_) lused_ = std::max<std::size_t>(lused_, i + 1u);
    for (std::size_t i = 0; i < lmap_.size(); ++i) lmap_identity_ = lmap_identity_ && lmap_[i] == i;
    for (auto i : wmap_) wused_ = std::max<std::size_t>(wused_, i + 1u);
    for (const auto& c : codes_) keys_.push_back(code_key(c));
    // features are extracted for the linear model (or the words model alone); for the words model
    // again, with its own configuration, only where it is consulted
    if (linear_) cfg_ = linear_->features;
    else if (words_) cfg_ = words_->features;
    if (words_) words_cfg_ = words_->features;
    same_cfg_ = !linear_ || !words_ ||
                (cfg_.kinds == words_cfg_.kinds && cfg_.min_order == words_cfg_.min_order &&
                 cfg_.max_order == words_cfg_.max_order && cfg_.host_space == words_cfg_.host_space);
    if (cfg_.min_order > cfg_.max_order) cfg_ = {};
    for (unsigned c = 0; c < 256; ++c) {
      if (linear_) accept_l_[c] = linear_->accepts(static_cast<std::uint8_t>(c));
      if (words_) accept_w_[c] = words_->accepts(static_cast<std::uint8_t>(c));
    }
  }

  const url_model* linear() const noexcept { return linear_; }
  const url_model* words() const noexcept { return words_; }
  const std::vector<std::string>& languages() const noexcept { return codes_; }
  const url_feature_config& feature_config() const noexcept { return cfg_; }

  /// Reusable buffers for one thread.
  struct scratch {
    url_parts parts;
    url_features features;
  };

  url_result classify(std::string_view url, const url_options& o = {}) const noexcept {
    try {
      thread_local scratch s;  // per thread; reused
      return classify(url, o, s);
    } catch (...) {
      url_result r;
      r.error = status::out_of_memory;
      return r;
    }
  }

  url_result classify(std::string_view url, const url_options& o, scratch& s) const {
    url_result r;
    r.error = parse_url(url, s.parts, o.max_bytes);
    if (r.error != status::ok && r.error != status::truncated) {
      // not a URL with a host: classify what there is (a path), if anything
      if (s.parts.path_.empty()) return r;
    }
    url_extract_features(s.parts, cfg_, s.features);
    return classify_features(s.parts, s.features, o, r);
  }

  /// Scores from extracted features (for tools that extract once and score variants).
  url_result classify_features(const url_parts& u, const url_features& f, const url_options& o,
                               url_result r = {}) const noexcept {
    float p[kMaxLanguages];
    const std::size_t nl = codes_.size();
    std::fill(p, p + nl, 0.f);
    std::size_t used = 0;  // p[used, nl) stay 0: the sums and the top 3 stop there
    float total = 0;
    bool any = false;
    const float lw = (o.use_linear && linear_) ? 1.f : 0.f;
    const float ww = (o.use_words && words_) ? (lw > 0 ? o.words_weight : 1.f) : 0.f;
    float post[256];
    float linear_top = 0;
    if (lw > 0 && posterior(*linear_, accept_l_, f, post)) {
      any = true;
      const float share = ww > 0 ? 1.f - ww : 1.f;
      const std::size_t ln = linear_->languages.size();
      if (lmap_identity_) {  // the linear model's languages come first (no indirection: vectorised)
        for (std::size_t i = 0; i < ln; ++i) p[i] += share * post[i];
      } else {
        for (std::size_t i = 0; i < ln; ++i) p[lmap_[i]] += share * post[i];
      }
      for (std::size_t i = 0; i < ln; ++i) linear_top = std::max(linear_top, post[i]);
      used = std::max(used, lused_);
      total += share;
    }
    // The words model is consulted where the linear model is unsure (or absent).
    const bool consult = ww > 0 && (total == 0 || linear_top < o.words_below);
    std::unique_ptr<url_features> own;
    const bool same = same_cfg_ && !o.words_path_first;
    if (consult && !same) {
      own.reset(new (std::nothrow) url_features);
      url_feature_config wc = words_cfg_;
      wc.host_if_no_path = o.words_path_first;
      if (own) url_extract_features(u, wc, *own);
    }
    if (consult && (same || own) && posterior(*words_, accept_w_, same ? f : *own, post)) {
      any = true;
      const float share = total > 0 ? ww : 1.f;
      for (std::size_t i = 0; i < words_->languages.size(); ++i) p[wmap_[i]] += share * post[i];
      used = std::max(used, wused_);
      total += share;
    }
    r.decision = any ? url_decision::model : url_decision::none;
    // Explicit language codes and country hints.
    // p[l] = p[l] * factor + floor: the factor sharpens what the models say, the floor lets a
    // hint win where the models know little (Baykan et al. §4.7.1: trust the host country when
    // the classifier says no).
    auto boost = [&](std::string_view code, float factor, float floor) {
      const std::uint64_t key = code_key(code);
      for (std::size_t i = 0; i < nl; ++i)
        if (keys_[i] == key) {
          if (!any) p[i] += 1.f / static_cast<float>(nl);  // nothing else known: a flat prior
          p[i] = p[i] * factor + floor;
          used = std::max(used, i + 1);
          return true;
        }
      return false;
    };
    bool patterned = false;
    if (o.use_patterns)
      for (std::size_t i = 0; i < f.code_count; ++i) patterned |= boost(f.codes[i].view(), o.pattern_boost, o.pattern_floor);
    bool hinted = false;
    auto country = [&](std::string_view cc, float factor, float floor) {
      for_each_country_language(cc, [&](std::string_view l, float) { hinted |= boost(l, factor, floor); });
    };
    if (!o.country_hint.empty()) country(o.country_hint, o.hint_boost, o.hint_floor);
    if (o.use_cctld && f.country[0]) country(std::string_view(f.country, 2), o.cctld_boost, o.cctld_floor);
    float sum = 0;
    for (std::size_t i = 0; i < used; ++i) sum += p[i];
    if (!(sum > 0)) return r;
    // top 3
    std::size_t best[3] = {nl, nl, nl};
    for (std::size_t i = 0; i < used; ++i) {
      if (!(p[i] > 0) || (best[2] != nl && !(p[i] > p[best[2]]))) continue;  // not in the top 3 so far
      for (int k = 0; k < 3; ++k)
        if (best[k] == nl || p[i] > p[best[k]]) {
          for (int j = 2; j > k; --j) best[j] = best[j - 1];
          best[k] = i;
          break;
        }
    }
    for (int k = 0; k < 3 && best[k] != nl; ++k) r.languages[r.count++] = {codes_[best[k]], p[best[k]] / sum};
    if (r.count && r.languages[0].score < o.min_score) r.count = 0;
    if (r.count) {
      if (patterned) r.decision = url_decision::pattern;
      else if (!any) r.decision = url_decision::country;
    }
    return r;
  }

  /// The softmax posterior of one model over its languages; false when no feature fired (the
  /// model knows nothing about this URL beyond its prior).
  static bool posterior(const url_model& m, const std::array<bool, 256>& accept, const url_features& f,
                        float* out) noexcept {
    const std::size_t nl = m.languages.size();
    if (m.buckets.empty() || nl == 0 || nl > 255 || m.bias.size() != nl) return false;
    std::int32_t acc[256];
    std::fill(acc, acc + nl, 0);
    std::size_t hits = 0;
    // Three passes so that the memory reads overlap: bucket addresses (prefetched), bucket
    // values (their lists and rows prefetched), then the sums.
    std::uint32_t idx[url_features::kMaxFeatures];
    std::size_t n = 0;
    const unsigned shift = (64 - m.bits) & 63;  // bucket_of without its test per feature
    const std::uint64_t keep = m.bits ? ~std::uint64_t{0} : 0;
    for (std::size_t i = 0; i < f.count; ++i) {
      if (!accept[f.kind[i]]) continue;
      const std::size_t b = static_cast<std::size_t>((f.hash[i] >> shift) & keep);
#if defined(__GNUC__) || defined(__clang__)
      __builtin_prefetch(m.buckets.data() + b);
#endif
      // a generic TLD (com, org...) or the hyphen count alone is a prior, not knowledge
      const unsigned kind = f.kind[i] & 7;
      const bool counts = kind != url_feat_hyphens && (kind != url_feat_tld || f.country[0]);
      idx[n++] = static_cast<std::uint32_t>(b) | (counts ? 0x80000000u : 0u);
    }
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint32_t b = m.buckets[idx[j] & 0x7FFFFFFFu];
      if (b && (idx[j] & 0x80000000u)) ++hits;
#if defined(__GNUC__) || defined(__clang__)
      if ((b & 0xC0000000u) == 0xC0000000u)
        __builtin_prefetch(m.rows.data() + std::size_t{b & 0x3FFFFFFFu} * nl);
      else if (b & 0x80000000u)
        __builtin_prefetch(m.postings.data() + ((b >> 8) & 0x3FFFFF));
#endif
      idx[j] = b;
    }
    for (std::size_t j = 0; j < n; ++j)
      if (idx[j]) m.add_bucket(idx[j], acc);
    if (hits == 0) return false;
    detail::url_softmax(acc, m.bias.data(), nl, m.scale / m.temperature, m.temperature, out);
    return true;
  }

 private:
  const url_model* linear_ = nullptr;
  const url_model* words_ = nullptr;
  std::vector<std::string> codes_;
  std::vector<std::uint16_t> lmap_, wmap_;
  std::size_t lused_ = 0, wused_ = 0;  ///< 1 + the largest index in lmap_, wmap_
  bool lmap_identity_ = true;          ///< lmap_[i] == i (always, unless a model repeats a code)
  std::vector<std::uint64_t> keys_;  ///< codes_ packed for comparison

  static std::uint64_t code_key(std::string_view c) noexcept {
    if (c.size() > 8) return ~std::uint64_t{0};
    std::uint64_t k = 0;
    std::memcpy(&k, c.data(), c.size());
    return k;
  }
  std::array<bool, 256> accept_l_{}, accept_w_{};
  url_feature_config cfg_, words_cfg_;
  bool same_cfg_ = true;
};

}  // namespace v1
}  // namespace langsift
