// langsift — implementation of langsift/url/features.hpp (compiled into langsift::core, or included
// by the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/url/features.hpp"

#include <type_traits>

#include "langsift/country.hpp"
#include "langsift/unicode.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

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
  for (std::size_t i = 0; i < s.size(); ++i) low[i] = ascii_lower(s[i]);
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

/// Tokenises UTF-8 `text` at non-letters (letters and marks are word characters; digits,
/// punctuation, symbols separate), lower-cases, drops stop tokens, and emits word and n-gram
/// features.
LANGSIFT_INLINE void url_token_features(std::string_view text, const url_feature_config& cfg, url_features& f,
                                        bool host) {
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
      if (is_ascii_alpha(b)) {
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

/// Whether cfg asks for features of kind k.
inline bool url_wants(const url_feature_config& cfg, url_feature_kind k) noexcept { return (cfg.kinds & (1u << k)) != 0; }

/// A language code found in the URL at `place`, and its langcode feature.
inline void url_add_code_feature(url_language_code& c, url_code_place place, const url_feature_config& cfg,
                                 url_features& f) {
  c.place = place;
  f.add_code(c);
  if (url_wants(cfg, url_feat_langcode)) f.add(url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
}

/// The host's features: TLD, multi-label public suffix, the TLD's country, hyphens, language and country
/// codes of subdomain labels, and (unless cfg.host_if_no_path) the tokens of the labels before
/// the public suffix. Returns those labels.
inline std::string_view url_host_features(const url_parts& u, const url_feature_config& cfg, url_features& f) {
  if (u.kind == host_kind::ipv4 || u.kind == host_kind::ipv6) {
    if (url_wants(cfg, url_feat_tld)) f.add(url_string_hash("*ip", url_feat_tld), url_feat_tld);
    return {};
  }
  if (u.kind != host_kind::name) return {};
  const std::string_view host = u.host();
  const std::string_view tld = u.tld();
  if (url_wants(cfg, url_feat_tld)) f.add(url_string_hash(tld, url_feat_tld), url_feat_tld);
  const std::string_view suffix = u.public_suffix();
  if (url_wants(cfg, url_feat_suffix) && suffix.find('.') != std::string_view::npos)
    f.add(url_string_hash(suffix, url_feat_suffix), url_feat_suffix);
  const std::string_view cc = tld_country(tld);
  if (cc.size() == 2) {
    f.country[0] = cc[0];
    f.country[1] = cc[1];
  }
  // Labels before the public suffix: tokens, 2-letter labels, hyphens.
  const std::string_view head = host.substr(0, u.suffix_at > 0 ? u.suffix_at - 1 : 0);
  std::size_t hyphens = 0;
  for (char c : head) hyphens += c == '-';
  if (url_wants(cfg, url_feat_hyphens))
    f.add(url_string_hash(std::string_view("0123").substr(hyphens > 3 ? 3 : hyphens, 1), url_feat_hyphens),
          url_feat_hyphens);
  // Subdomain labels (left of the registered domain's label): language codes and country codes.
  const std::size_t reg = u.registered_at == std::string::npos ? 0 : u.registered_at;
  std::size_t i = 0;
  while (i < reg) {
    std::size_t dot = host.find('.', i);
    if (dot == std::string_view::npos || dot >= reg) dot = reg > 0 ? reg - 1 : 0;
    const std::string_view label = host.substr(i, dot - i);
    url_language_code c;
    if (url_code_token(label, false, c)) {
      c.place = url_code_place::subdomain;
      f.add_code(c);
      if (url_wants(cfg, url_feat_hostcc)) f.add(url_string_hash(label, url_feat_hostcc), url_feat_hostcc);
      if (url_wants(cfg, url_feat_langcode)) f.add(url_string_hash(c.view(), url_feat_langcode), url_feat_langcode);
    }
    if (dot <= i) break;
    i = dot + 1;
  }
  if (!cfg.host_if_no_path) url_token_features(head, cfg, f, /*host=*/true);
  return head;
}

/// Path segments that are language codes ("/de/", "/en-us/"), file names ending in _xx / -xx.
inline void url_path_codes(std::string_view path, const url_feature_config& cfg, url_features& f) {
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    const std::string_view seg = path.substr(i, j - i);
    url_language_code c;
    if (!seg.empty() && url_code_token(seg, false, c)) {
      url_add_code_feature(c, url_code_place::path_segment, cfg, f);
    } else if (seg.size() > 3) {
      // file name stem ending in [_-.]xx before an extension (or at the end): "article153_en.html"
      std::string_view stem = seg;
      if (const std::size_t dot = stem.rfind('.'); dot != std::string_view::npos && dot > 0) stem = stem.substr(0, dot);
      if (stem.size() > 3) {
        const char sep = stem[stem.size() - 3];
        if ((sep == '_' || sep == '-' || sep == '.') && url_code_token(stem.substr(stem.size() - 2), false, c))
          url_add_code_feature(c, url_code_place::file_name, cfg, f);
      }
    }
    i = j;
  }
}

/// Query parameters lang=, language=, hl=, locale=, lng=, ln=, l= (and a few more) whose value is
/// a language code.
inline void url_query_codes(std::string_view q, const url_feature_config& cfg, url_features& f) {
  std::size_t i = 0;
  while (i < q.size()) {
    std::size_t j = q.find_first_of("&;", i);
    if (j == std::string_view::npos) j = q.size();
    const std::string_view kv = q.substr(i, j - i);
    const std::size_t eq = kv.find('=');
    if (eq != std::string_view::npos) {
      std::string_view key = kv.substr(0, eq);
      char kl[10];
      if (key.size() <= sizeof kl) {
        for (std::size_t k = 0; k < key.size(); ++k) kl[k] = ascii_lower(key[k]);
        const std::string_view k2(kl, key.size());
        if (k2 == "lang" || k2 == "language" || k2 == "hl" || k2 == "locale" || k2 == "lng" || k2 == "ln" ||
            k2 == "l" || k2 == "lang_id" || k2 == "sprache" || k2 == "langue" || k2 == "idioma") {
          url_language_code c;
          if (url_code_token(kv.substr(eq + 1), true, c)) url_add_code_feature(c, url_code_place::query, cfg, f);
        }
      }
    }
    i = j + 1;
  }
}

}  // namespace detail

/// Extracts the features of a parsed URL into `f` (reset first).
LANGSIFT_INLINE void url_extract_features(const url_parts& u, const url_feature_config& cfg, url_features& f) {
  f.count = 0;
  f.tokens = 0;
  f.code_count = 0;
  f.country[0] = f.country[1] = f.country[2] = 0;
  const std::string_view host_head = detail::url_host_features(u, cfg, f);
  const std::string_view path = u.path(), q = u.query();
  detail::url_path_codes(path, cfg, f);
  detail::url_query_codes(q, cfg, f);
  // Tokens of the path and the query; of the host too when cfg.host_if_no_path and they have none.
  const std::size_t before = f.tokens;
  detail::url_token_features(path, cfg, f);
  detail::url_token_features(q, cfg, f);
  if (cfg.host_if_no_path && f.tokens == before) detail::url_token_features(host_head, cfg, f, /*host=*/true);
}

}  // namespace v1
}  // namespace langsift
