// langsift — implementation of langsift/url/parse.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/url/parse.hpp"

#include <algorithm>
#include <bit>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "langsift/psl.hpp"
#include "langsift/punycode.hpp"
#include "langsift/unicode.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// The length of the prefix of `s` that url_percent_decode copies as it is: printable ASCII
/// without '%' (and without '+' when that is a space). Usually the whole path or query.
LANGSIFT_INLINE std::size_t url_plain_prefix(std::string_view s, bool plus_is_space) noexcept {
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
LANGSIFT_INLINE void url_percent_decode(std::string_view s, bool plus_is_space, std::string& out) {
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
    if (c == '%' && i + 2 < s.size() && hex_digit_value(s[i + 1]) >= 0 && hex_digit_value(s[i + 2]) >= 0) {
      c = static_cast<char>(hex_digit_value(s[i + 1]) * 16 + hex_digit_value(s[i + 2]));
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
      append_utf8(fixed, static_cast<char32_t>(*p));  // Latin-1
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
    else if (!(hex_digit_value(c) >= 0 || c == '.')) return false;
  }
  return colons >= 2 && colons <= 7;
}

}  // namespace detail

LANGSIFT_INLINE status parse_url(std::string_view url, url_parts& out, std::size_t max_bytes) {
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
  url = detail::trim_c0_or_space(url);
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
  for (char c : u->scheme) out.scheme += detail::ascii_lower(c);
  if (out.scheme.empty()) out.scheme = "http";
  detail::url_percent_decode(u->path, false, out.path_);
  detail::url_percent_decode(u->query, true, out.query_);
  std::string_view h = u->host;
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') {
    h = h.substr(1, h.size() - 2);
    if (!detail::url_parse_ipv6(h)) return status::invalid_argument;
    for (char c : h) out.host_ += detail::ascii_lower(c);
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
      detail::append_utf8(folded, code_point_props(cp).lower);
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

}  // namespace v1
}  // namespace langsift
