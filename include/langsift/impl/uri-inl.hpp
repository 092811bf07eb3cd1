// langsift — implementation of langsift/uri.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/uri.hpp"
#include "langsift/detail/hex.hpp"

namespace langsift {
inline namespace v1 {

namespace detail {

LANGSIFT_INLINE bool uri_split_authority(uri_view& u) noexcept {
  std::string_view a = u.authority;
  std::size_t at = a.rfind('@');
  std::string_view hostport = a;
  if (at != std::string_view::npos) {
    u.userinfo = a.substr(0, at);
    hostport = a.substr(at + 1);
  }
  std::string_view host = hostport, port;
  if (!hostport.empty() && hostport.front() == '[') {
    std::size_t close = hostport.find(']');
    if (close == std::string_view::npos) return false;
    host = hostport.substr(0, close + 1);
    std::string_view rest = hostport.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
    }
    for (char c : host.substr(1, host.size() - 2))  // hex digits, ':', '.', and "v1.x" forms
      if (!(is_ascii_alpha(c) || is_ascii_digit(c) || c == ':' || c == '.' || c == '-' || c == '_' ||
            c == '~' || c == '%'))
        return false;
  } else {
    std::size_t colon = hostport.rfind(':');
    if (colon != std::string_view::npos) {
      host = hostport.substr(0, colon);
      port = hostport.substr(colon + 1);
    }
    for (char c : host)
      if (uri_byte_class[static_cast<unsigned char>(c)] & uri_class_forbidden) return false;
  }
  for (char c : port)
    if (!is_ascii_digit(c)) return false;
  u.host = host;
  u.port = port;
  return true;
}

}  // namespace detail

LANGSIFT_INLINE std::optional<uri_view> parse_uri(std::string_view s) noexcept {
  using namespace detail;
  s = trim_c0_or_space(s);
  uri_view u;
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  std::size_t i = 0;
  if (!s.empty() && is_ascii_alpha(s[0])) {
    std::size_t j = 1;
    while (j < s.size() && (is_ascii_alpha(s[j]) || is_ascii_digit(s[j]) || s[j] == '+' ||
                            s[j] == '-' || s[j] == '.'))
      ++j;
    if (j < s.size() && s[j] == ':') {
      u.scheme = s.substr(0, j);
      i = j + 1;
    }
  }
  const bool special = uri_is_special(u.scheme);
  auto is_slash = [special](char c) { return c == '/' || (special && c == '\\'); };
  std::string_view rest = s.substr(i);
  // For a relative reference we do not know the scheme; backslashes then count as slashes only
  // when resolve_uri knows the base is special (it parses with that knowledge; see below).
  if (rest.size() >= 2 && is_slash(rest[0]) && is_slash(rest[1])) {
    std::size_t k = 2;
    if (special)
      while (k < rest.size() && is_slash(rest[k])) ++k;  // "http:////host" → host
    const std::uint8_t stop = special ? uri_class_end | uri_class_backslash : uri_class_end;
    std::uint8_t seen = 0;  // the classes of the authority's bytes
    std::size_t e = k;
    for (; e < rest.size(); ++e) {
      const std::uint8_t c = uri_byte_class[static_cast<unsigned char>(rest[e])];
      if (c & stop) break;
      seen |= c;
    }
    u.has_authority = true;
    u.authority = rest.substr(k, e - k);
    rest = rest.substr(e);
    if (!(seen & uri_class_forbidden))
      u.host = u.authority;  // no userinfo, port or IP literal (the common case)
    else if (!uri_split_authority(u))
      return std::nullopt;
  }
  std::size_t hash = rest.find('#');
  if (hash != std::string_view::npos) {
    u.has_fragment = true;
    u.fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  std::size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    u.has_query = true;
    u.query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  u.path = rest;
  return u;
}

namespace detail {

LANGSIFT_INLINE void uri_append_encoded(std::string& out, std::string_view s, bool slashes) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::size_t j = i;  // a run that needs nothing: append at once
    while (j < s.size() && uri_plain_byte(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) {
      out.append(s.data() + i, j - i);
      i = j;
      if (i == s.size()) break;
    }
    const char ch = s[i];
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '\\' && slashes) {
      out.push_back('/');
    } else if (c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '`' ||
               c == '{' || c == '}') {
      out.push_back('%');
      out.push_back(hex_digits_upper[c >> 4]);
      out.push_back(hex_digits_upper[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
}

LANGSIFT_INLINE bool uri_valid_utf8(std::string_view s) noexcept {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* e = p + s.size();
  while (p < e) {
    unsigned c = *p;
    if (c < 0x80) { ++p; continue; }
    unsigned need, lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c >= 0xE0 && c <= 0xEF) { need = 2; if (c == 0xE0) lo = 0xA0; else if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 3; if (c == 0xF0) lo = 0x90; else if (c == 0xF4) hi = 0x8F; }
    else return false;
    if (static_cast<std::size_t>(e - p) <= need) return false;
    for (unsigned k = 1; k <= need; ++k) {
      if (p[k] < lo || p[k] > hi) return false;
      lo = 0x80; hi = 0xBF;
    }
    p += need + 1;
  }
  return true;
}

LANGSIFT_INLINE bool uri_append_authority(std::string& out, const uri_view& u) {
  if (!u.userinfo.empty() || u.authority.find('@') != std::string_view::npos) {
    uri_append_encoded(out, u.userinfo, false);
    out.push_back('@');
  }
  if (!uri_valid_utf8(u.host)) return false;
  const std::size_t h = out.size();
  out.append(u.host);
  for (std::size_t i = h; i < out.size(); ++i) out[i] = ascii_lower(out[i]);
  if (!u.port.empty()) {
    out.push_back(':');
    out.append(u.port);
  }
  return true;
}

LANGSIFT_INLINE void uri_remove_dot_segments(std::string& out, std::size_t from) {
  char* b = out.data() + from;
  const std::size_t n = out.size() - from;
  std::size_t r = 0, w = 0;
  auto rest_is = [&](std::string_view x) {
    return n - r >= x.size() && std::string_view(b + r, x.size()) == x;
  };
  auto rest_eq = [&](std::string_view x) { return n - r == x.size() && rest_is(x); };
  auto pop_segment = [&] {
    while (w > 0 && b[w - 1] != '/') --w;
    if (w > 0) --w;  // also the '/' that began the segment
  };
  while (r < n) {
    if (rest_is("../")) {
      r += 3;
    } else if (rest_is("./")) {
      r += 2;
    } else if (rest_is("/./")) {
      r += 2;  // leaves "/..." to read
    } else if (rest_eq("/.")) {
      b[w++] = '/';
      r = n;
    } else if (rest_is("/../")) {
      r += 3;
      pop_segment();
    } else if (rest_eq("/..")) {
      pop_segment();
      b[w++] = '/';
      r = n;
    } else if (rest_eq(".") || rest_eq("..")) {
      r = n;
    } else {
      // Move the first segment (with its leading '/', if any) to the output.
      std::size_t e = r + 1;
      while (e < n && b[e] != '/') ++e;
      while (r < e) b[w++] = b[r++];
    }
  }
  out.resize(from + w);
}

// A relative reference that starts with two slashes or backslashes, against a special base
// (where backslashes are slashes too, which changes where an authority ends): "\\host\p"
// behaves as "//host/p". Reparses `ref` into r that way; false if it is invalid then.
LANGSIFT_INLINE bool uri_reparse_backslashes(std::string_view ref, uri_view& r) {
  uri_view t;
  std::size_t k = 2;
  while (k < ref.size() && (ref[k] == '/' || ref[k] == '\\')) ++k;
  std::size_t e = k;
  while (e < ref.size() && ref[e] != '/' && ref[e] != '\\' && ref[e] != '?' && ref[e] != '#') ++e;
  t.has_authority = true;
  t.authority = ref.substr(k, e - k);
  if (!uri_split_authority(t)) return false;
  std::optional<uri_view> tail = parse_uri(ref.substr(e));
  if (!tail) return false;
  t.path = tail->path;
  t.query = tail->query;
  t.fragment = tail->fragment;
  t.has_query = tail->has_query;
  t.has_fragment = tail->has_fragment;
  r = t;
  return true;
}

// RFC 3986 §5.2.2: the target's path (appended to `out`, which ends at path_start, with dot
// segments removed) and query, from the reference r and the base.
LANGSIFT_INLINE void uri_target_path(const uri_view& r, const uri_view* base, bool special, std::size_t path_start,
                                     std::string& out, std::string_view& query, bool& has_query) {
  if (!r.scheme.empty() || r.has_authority) {
    uri_append_encoded(out, r.path, special);
    uri_remove_dot_segments(out, path_start);
    query = r.query;
    has_query = r.has_query;
  } else if (r.path.empty()) {
    // §5.2.2 takes the base path as it is; browsers normalise the base when they parse it, so
    // dot segments in a base ("/b/./c") are removed here too, and resolution is idempotent.
    uri_append_encoded(out, base->path, special);
    uri_remove_dot_segments(out, path_start);
    if (r.has_query) {
      query = r.query;
      has_query = true;
    } else {
      query = base->query;
      has_query = base->has_query;
    }
  } else {
    if (r.path.front() == '/' || (special && r.path.front() == '\\')) {
      uri_append_encoded(out, r.path, special);
    } else {
      // §5.2.3 merge: base path up to its last '/', or "/" when the base has an authority and
      // an empty path.
      if (base->has_authority && base->path.empty()) {
        out.push_back('/');
      } else {
        std::string_view bp = base->path;
        std::size_t last = bp.find_last_of(special ? std::string_view("/\\") : std::string_view("/"));
        if (last != std::string_view::npos) uri_append_encoded(out, bp.substr(0, last + 1), special);
      }
      uri_append_encoded(out, r.path, special);
    }
    uri_remove_dot_segments(out, path_start);
    query = r.query;
    has_query = r.has_query;
  }
}

LANGSIFT_INLINE bool uri_resolve_rfc(const uri_view* base, std::string_view ref, std::string& out) {
  out.clear();
  ref = trim_c0_or_space(ref);
  std::optional<uri_view> rp = parse_uri(ref);
  if (!rp) return false;
  uri_view r = *rp;
  // A relative reference against a special base, "\\host\p" or the like: see uri_reparse_backslashes.
  if (r.scheme.empty() && base && uri_is_special(base->scheme) && ref.find('\\') != std::string_view::npos &&
      ref.size() >= 2 && (ref[0] == '/' || ref[0] == '\\') && (ref[1] == '/' || ref[1] == '\\') &&
      !uri_reparse_backslashes(ref, r))
    return false;
  // RFC 3986 §5.2.2 "for backward compatibility": "http:g" against an http base is relative.
  if (!r.scheme.empty() && base && !r.has_authority && uri_is_special(r.scheme) &&
      iequals(r.scheme, base->scheme))
    r.scheme = {};

  const uri_view* auth_from = nullptr;  // whose authority the target takes
  std::string_view scheme;
  if (!r.scheme.empty()) {
    scheme = r.scheme;
    if (r.has_authority) auth_from = &r;
  } else {
    if (!base || base->scheme.empty()) return false;
    scheme = base->scheme;
    auth_from = r.has_authority ? &r : (base->has_authority ? base : nullptr);
  }
  const bool special = uri_is_special(scheme);
  if (special && (!auth_from || auth_from->host.empty())) return false;

  for (char c : scheme) out.push_back(ascii_lower(c));
  out.push_back(':');
  if (auth_from) {
    out.append("//");
    if (!uri_append_authority(out, *auth_from)) {
      out.clear();
      return false;
    }
  }
  const std::size_t path_start = out.size();
  std::string_view query;
  bool has_query = false;
  uri_target_path(r, base, special, path_start, out, query, has_query);
  // A path that starts with "//" without an authority would read back as one ("g:/.//x"
  // becomes "g://x"); as WHATWG does, keep it a path with a "/." prefix.
  if (!auth_from && out.size() - path_start >= 2 && out[path_start] == '/' && out[path_start + 1] == '/')
    out.insert(path_start, "/.");
  if (has_query) {
    out.push_back('?');
    uri_append_encoded(out, query, false);
  }
  if (r.has_fragment) {
    out.push_back('#');
    uri_append_encoded(out, r.fragment, false);
  }
  return true;
}

LANGSIFT_INLINE int whatwg_default_port(std::string_view s) noexcept {
  switch (s.size()) {
    case 2: return s == "ws" ? 80 : -1;
    case 3: return s == "wss" ? 443 : s == "ftp" ? 21 : -1;
    case 4: return s == "http" ? 80 : -1;
    case 5: return s == "https" ? 443 : -1;
    default: return -1;
  }
}

LANGSIFT_INLINE int whatwg_special_port(std::string_view scheme) noexcept {
  if (scheme.size() < 2 || scheme.size() > 5) return -1;
  char b[5];
  for (std::size_t i = 0; i < scheme.size(); ++i) b[i] = ascii_lower(scheme[i]);
  return whatwg_default_port(std::string_view(b, scheme.size()));
}

LANGSIFT_INLINE std::string_view uri_scheme_prefix(std::string_view s) noexcept {
  if (s.empty() || !is_ascii_alpha(s[0])) return {};
  std::size_t j = 1;
  while (j < s.size() && (is_ascii_alpha(s[j]) || is_ascii_digit(s[j]) || s[j] == '+' || s[j] == '-' || s[j] == '.')) ++j;
  return j < s.size() && s[j] == ':' ? s.substr(0, j) : std::string_view();
}

LANGSIFT_INLINE void whatwg_append_encoded(std::string& out, std::string_view s, std::uint8_t set) {
  std::size_t i = 0;
  for (;;) {
    std::size_t j = i;
    while (j < s.size() && !(whatwg_byte_sets[static_cast<unsigned char>(s[j])] & set)) ++j;
    out.append(s.data() + i, j - i);
    if (j == s.size()) return;
    const unsigned char c = static_cast<unsigned char>(s[j]);
    const char e[3] = {'%', hex_digits_upper[c >> 4], hex_digits_upper[c & 15]};
    out.append(e, 3);
    i = j + 1;
  }
}

LANGSIFT_INLINE std::string_view whatwg_preprocess(std::string_view s, std::string& buf) {
  s = trim_c0_or_space(s);
  std::size_t i = 0;
  while (i < s.size() && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') ++i;
  if (i == s.size()) return s;
  buf.assign(s.data(), i);
  for (; i < s.size(); ++i)
    if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r') buf.push_back(s[i]);
  return buf;
}

LANGSIFT_INLINE bool whatwg_ipv4_number(std::string_view s, std::uint64_t& v) noexcept {
  if (s.empty()) return false;
  unsigned radix = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    radix = 16;
    s.remove_prefix(2);
  } else if (s.size() >= 2 && s[0] == '0') {
    radix = 8;
    s.remove_prefix(1);
  }
  v = 0;
  for (char c : s) {
    const int d = hex_digit_value(c);
    if (d < 0 || static_cast<unsigned>(d) >= radix) return false;
    v = std::min<std::uint64_t>(v * radix + static_cast<unsigned>(d), std::uint64_t{1} << 32);
  }
  return true;
}

LANGSIFT_INLINE bool whatwg_ends_in_number(std::string_view h) noexcept {
  if (!h.empty() && h.back() == '.') h.remove_suffix(1);
  if (h.empty()) return false;
  const std::size_t dot = h.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? h : h.substr(dot + 1);
  if (last.empty()) return false;
  bool digits = true;
  for (char c : last) digits = digits && is_ascii_digit(c);
  std::uint64_t v;
  return digits || whatwg_ipv4_number(last, v);
}

LANGSIFT_INLINE bool whatwg_ipv4(std::string_view h, std::uint32_t& address) noexcept {
  if (!h.empty() && h.back() == '.') h.remove_suffix(1);
  std::uint64_t n[4];
  std::size_t count = 0;
  for (;;) {
    const std::size_t dot = h.find('.');
    if (count == 4 || !whatwg_ipv4_number(h.substr(0, dot), n[count])) return false;
    ++count;
    if (dot == std::string_view::npos) break;
    h.remove_prefix(dot + 1);
  }
  for (std::size_t i = 0; i + 1 < count; ++i)
    if (n[i] > 255) return false;
  if (n[count - 1] >= (std::uint64_t{1} << (8 * (5 - count)))) return false;
  std::uint64_t a = n[count - 1];
  for (std::size_t i = 0; i + 1 < count; ++i) a += n[i] << (8 * (3 - i));
  address = static_cast<std::uint32_t>(a);
  return true;
}

LANGSIFT_INLINE bool whatwg_ipv6(std::string_view s, std::uint16_t (&a)[8]) noexcept {
  for (auto& x : a) x = 0;
  int piece = 0, compress = -1;
  std::size_t p = 0;
  const std::size_t n = s.size();
  auto at = [&](std::size_t i) -> int { return i < n ? static_cast<unsigned char>(s[i]) : -1; };
  if (at(p) == ':') {
    if (at(p + 1) != ':') return false;
    p += 2;
    compress = ++piece;
  }
  while (at(p) != -1) {
    if (piece == 8) return false;
    if (at(p) == ':') {
      if (compress != -1) return false;
      ++p;
      compress = ++piece;
      continue;
    }
    unsigned value = 0;
    std::size_t length = 0;
    while (length < 4 && hex_digit_value(at(p)) >= 0) {
      value = value * 16 + static_cast<unsigned>(hex_digit_value(at(p)));
      ++p;
      ++length;
    }
    if (at(p) == '.') {  // an IPv4 address in the last 32 bits
      if (length == 0) return false;
      p -= length;
      if (piece > 6) return false;
      int seen = 0;
      while (at(p) != -1) {
        int v4 = -1;
        if (seen > 0) {
          if (at(p) == '.' && seen < 4) ++p;
          else return false;
        }
        if (!is_ascii_digit(static_cast<char>(at(p)))) return false;
        while (at(p) != -1 && is_ascii_digit(static_cast<char>(at(p)))) {
          const int d = at(p) - '0';
          if (v4 == -1) v4 = d;
          else if (v4 == 0) return false;
          else v4 = v4 * 10 + d;
          if (v4 > 255) return false;
          ++p;
        }
        a[piece] = static_cast<std::uint16_t>(a[piece] * 0x100 + v4);
        ++seen;
        if (seen == 2 || seen == 4) ++piece;
      }
      if (seen != 4) return false;
      break;
    }
    if (at(p) == ':') {
      ++p;
      if (at(p) == -1) return false;
    } else if (at(p) != -1) {
      return false;
    }
    a[piece++] = static_cast<std::uint16_t>(value);
  }
  if (compress != -1) {
    int swaps = piece - compress;
    piece = 7;
    while (piece != 0 && swaps > 0) {
      std::swap(a[piece], a[compress + swaps - 1]);
      --piece;
      --swaps;
    }
  } else if (piece != 8) {
    return false;
  }
  return true;
}

LANGSIFT_INLINE void whatwg_append_ipv6(std::string& out, const std::uint16_t (&a)[8]) {
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    if (a[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && a[j] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  out.push_back('[');
  bool ignore0 = false;
  for (int i = 0; i < 8; ++i) {
    if (ignore0 && a[i] == 0) continue;
    ignore0 = false;
    if (best == i) {
      out.append(i == 0 ? "::" : ":");
      ignore0 = true;
      continue;
    }
    bool lead = true;
    for (int sh = 12; sh >= 0; sh -= 4) {
      const unsigned d = (a[i] >> sh) & 15;
      if (lead && d == 0 && sh > 0) continue;
      lead = false;
      out.push_back(hex_digits_lower[d]);
    }
    if (i != 7) out.push_back(':');
  }
  out.push_back(']');
}

LANGSIFT_INLINE bool whatwg_append_host(std::string& out, std::string_view raw) {
  if (raw.front() == '[') {
    std::uint16_t a[8];
    if (raw.size() < 2 || raw.back() != ']' || !whatwg_ipv6(raw.substr(1, raw.size() - 2), a)) return false;
    whatwg_append_ipv6(out, a);
    return true;
  }
  const std::size_t start = out.size();
  // An ASCII host without '%' and without an "xn--" label: UTS #46 would only lower-case it.
  bool simple = true;
  for (char c : raw) {
    if (static_cast<unsigned char>(c) >= 0x80 || c == '%') {
      simple = false;
      break;
    }
    out.push_back(ascii_lower(c));
  }
  if (simple) {
    const char* h = out.data() + start;
    const std::size_t n = out.size() - start;
    for (std::size_t k = 0; k + 4 <= n; ++k)
      if (h[k] == 'x' && (k == 0 || h[k - 1] == '.') && h[k + 1] == 'n' && h[k + 2] == '-' && h[k + 3] == '-') {
        simple = false;
        break;
      }
  }
  if (!simple) {
    out.resize(start);
    std::string decoded, ascii;
    decoded.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {  // percent-decode
      if (raw[i] == '%' && i + 2 < raw.size() && hex_digit_value(raw[i + 1]) >= 0 && hex_digit_value(raw[i + 2]) >= 0) {
        decoded.push_back(static_cast<char>(hex_digit_value(raw[i + 1]) * 16 + hex_digit_value(raw[i + 2])));
        i += 2;
      } else {
        decoded.push_back(raw[i]);
      }
    }
    if (idna_to_ascii(decoded, ascii) != 0) return false;
    out.append(ascii);
  }
  const std::string_view h(out.data() + start, out.size() - start);
  if (h.empty()) return false;
  for (char c : h)
    if (whatwg_byte_sets[static_cast<unsigned char>(c)] & whatwg_forbidden_domain) return false;
  if (whatwg_ends_in_number(h)) {
    std::uint32_t a;
    if (!whatwg_ipv4(h, a)) return false;
    out.resize(start);
    for (int i = 3; i >= 0; --i) {
      out.append(std::to_string((a >> (8 * i)) & 255));
      if (i) out.push_back('.');
    }
  }
  return true;
}

// '/' or a backslash: a slash in the special URLs that whatwg_parse handles.
inline bool whatwg_is_slash(char c) noexcept { return c == '/' || c == '\\'; }

// The reference's authority in[p..] (after any slashes), appended to `out` as "//userinfo@host:port"
// with the port left out when it is the scheme's default. Leaves p at the end of the authority.
// False if the host or the port is invalid.
LANGSIFT_INLINE bool whatwg_parse_authority(std::string_view in, std::size_t& p, int default_port, std::string& out) {
  constexpr auto npos = std::string_view::npos;
  const std::size_t n = in.size();
  while (p < n && whatwg_is_slash(in[p])) ++p;  // the special authority ignore slashes state
  std::size_t e = p;
  while (e < n && !whatwg_is_slash(in[e]) && in[e] != '?' && in[e] != '#') ++e;
  const std::string_view auth = in.substr(p, e - p);
  p = e;
  out.append("//");
  std::string_view hostport = auth;
  if (const std::size_t at = auth.rfind('@'); at != npos) {
    const std::string_view userinfo = auth.substr(0, at);
    hostport = auth.substr(at + 1);
    if (hostport.empty()) return false;
    const std::size_t colon = userinfo.find(':');
    const std::string_view user = userinfo.substr(0, colon);
    const std::string_view pass = colon == npos ? std::string_view() : userinfo.substr(colon + 1);
    if (!user.empty() || !pass.empty()) {
      whatwg_append_encoded(out, user, whatwg_set_userinfo);
      if (!pass.empty()) {
        out.push_back(':');
        whatwg_append_encoded(out, pass, whatwg_set_userinfo);
      }
      out.push_back('@');
    }
  }
  std::size_t colon = npos;
  bool bracket = false;
  for (std::size_t i = 0; i < hostport.size(); ++i) {
    if (hostport[i] == '[') bracket = true;
    else if (hostport[i] == ']') bracket = false;
    else if (hostport[i] == ':' && !bracket) {
      colon = i;
      break;
    }
  }
  const std::string_view host = hostport.substr(0, colon);
  if (host.empty() || !whatwg_append_host(out, host)) return false;
  if (colon != npos) {
    std::uint32_t port = 0;
    const std::string_view digits = hostport.substr(colon + 1);
    for (char c : digits) {
      if (!is_ascii_digit(c)) return false;
      port = port * 10 + static_cast<std::uint32_t>(c - '0');
      if (port > 65535) return false;
    }
    if (!digits.empty() && static_cast<int>(port) != default_port) {
      out.push_back(':');
      out.append(std::to_string(port));
    }
  }
  return true;
}

// The relative state, for a reference without an authority of its own at in[p..]: appends what
// it takes of `base` to `out` (and sets url's path and query starts). Returns false if the
// reference is "//host" after all (p unchanged); else sets path_done if the base's path is
// the whole path, and leaves p where the reference's path starts.
LANGSIFT_INLINE bool whatwg_relative(std::string_view in, std::size_t& p, const whatwg_url& base, std::string& out,
                                     whatwg_url& url, bool& path_done) {
  const std::size_t n = in.size();
  if (p < n && whatwg_is_slash(in[p])) {
    if (p + 1 < n && whatwg_is_slash(in[p + 1])) return false;  // "//host" (or "\\host", "/\host"...)
    out.append(base.href.substr(base.scheme_len + 1, base.path_start - base.scheme_len - 1));
    url.path_start = out.size();
    ++p;  // the path state, at the first segment
    return true;
  }
  // The base's authority and path, and its query unless the reference has one.
  const std::size_t keep = p >= n ? std::min(base.fragment_start, base.href.size())
                           : in[p] == '#' ? std::min(base.fragment_start, base.href.size())
                                          : base.path_end();
  out.append(base.href.substr(base.scheme_len + 1, keep - base.scheme_len - 1));
  url.path_start = base.path_start;
  if (keep > base.query_start) url.query_start = base.query_start;
  if (p >= n || in[p] == '?' || in[p] == '#') {
    path_done = true;
  } else {  // a relative path: the base's path without its last segment
    const std::size_t last = out.rfind('/');
    if (last != std::string_view::npos && last >= url.path_start) out.resize(last);
  }
  return true;
}

// The path state: the segments of in[p..] up to '?', '#' or the end, appended to `out` with dot
// segments applied (".." removes a segment of `out` after path_start). Leaves p after them.
LANGSIFT_INLINE void whatwg_parse_path(std::string_view in, std::size_t& p, std::size_t path_start, std::string& out) {
  const std::size_t n = in.size();
  for (;;) {
    std::size_t e = p;
    while (e < n && !whatwg_is_slash(in[e]) && in[e] != '?' && in[e] != '#') ++e;
    const std::string_view seg = in.substr(p, e - p);
    const bool slash = e < n && whatwg_is_slash(in[e]);
    if (whatwg_double_dot(seg)) {
      const std::size_t last = out.rfind('/');  // shorten the path
      if (last != std::string_view::npos && last >= path_start) out.resize(last);
      if (!slash) out.push_back('/');
    } else if (whatwg_single_dot(seg)) {
      if (!slash) out.push_back('/');
    } else {
      out.push_back('/');
      whatwg_append_encoded(out, seg, whatwg_set_path);
    }
    p = e;
    if (!slash) break;
    ++p;
  }
}

LANGSIFT_INLINE bool whatwg_parse(std::string_view in, const whatwg_url* base, std::string& out, whatwg_url& url) {
  out.clear();
  url = whatwg_url{};
  const std::size_t n = in.size();
  std::size_t p = 0;
  int default_port;
  bool authority;
  const std::string_view scheme = uri_scheme_prefix(in);
  if (!scheme.empty()) {
    default_port = whatwg_special_port(scheme);
    if (default_port < 0) return false;
    for (char c : scheme) out.push_back(ascii_lower(c));
    out.push_back(':');
    p = scheme.size() + 1;
    // "special relative or authority state": the base's scheme and no "//" is relative.
    authority = !base || base->scheme_len != scheme.size() ||
                !iequals(base->href.substr(0, base->scheme_len), scheme) ||
                (p + 1 < n && in[p] == '/' && in[p + 1] == '/');
  } else {
    if (!base) return false;
    default_port = whatwg_special_port(base->href.substr(0, base->scheme_len));
    out.append(base->href.substr(0, base->scheme_len + 1));
    authority = false;
  }
  url.scheme_len = out.size() - 1;

  bool path_done = false;  // the path of the base was taken as it is
  if (!authority) authority = !whatwg_relative(in, p, *base, out, url, path_done);
  if (authority) {
    if (!whatwg_parse_authority(in, p, default_port, out)) return false;
    url.path_start = out.size();
    if (p < n && whatwg_is_slash(in[p])) ++p;  // the path start state
  }
  if (!path_done) whatwg_parse_path(in, p, url.path_start, out);
  if (p < n && in[p] == '?') {
    const std::size_t e = std::min(in.find('#', p), n);
    url.query_start = out.size();
    out.push_back('?');
    whatwg_append_encoded(out, in.substr(p + 1, e - p - 1), whatwg_set_special_query);
    p = e;
  }
  if (p < n && in[p] == '#') {
    url.fragment_start = out.size();
    out.push_back('#');
    whatwg_append_encoded(out, in.substr(p + 1), whatwg_set_fragment);
  }
  url.href = out;
  return true;
}

LANGSIFT_INLINE int uri_resolve_mode(std::string_view ref, std::string_view base_scheme) noexcept {
  const std::string_view scheme = uri_scheme_prefix(ref);
  const bool base_special = whatwg_special_port(base_scheme) >= 0;
  if (scheme.empty()) return base_special ? 2 : 0;
  if (whatwg_special_port(scheme) < 0) return 0;
  if (base_special && iequals(scheme, base_scheme)) {
    const std::size_t p = scheme.size() + 1;
    if (!(p + 1 < ref.size() && ref[p] == '/' && ref[p + 1] == '/')) return 2;
  }
  return 1;
}

LANGSIFT_INLINE const whatwg_url* whatwg_cached_base(std::string_view src) {
  struct cache {
    std::string src, href;
    whatwg_url url;
    bool ok = false, valid = false;
  };
  thread_local cache c;
  if (!c.valid || c.src != src) {
    c.src.assign(src);
    c.ok = whatwg_parse(c.src, nullptr, c.href, c.url);
    c.valid = true;
  }
  return c.ok ? &c.url : nullptr;
}

LANGSIFT_INLINE bool uri_resolve_into(const uri_view* base, std::string_view ref, std::string& out) {
  thread_local std::string ref_buf, base_buf;
  const std::string_view r = whatwg_preprocess(ref, ref_buf);
  const std::string_view base_scheme = base && base->is_absolute() ? base->scheme : std::string_view();
  whatwg_url url;
  switch (uri_resolve_mode(r, base_scheme)) {
    case 1:
      if (whatwg_parse(r, nullptr, out, url)) return true;
      out.clear();
      return false;
    case 2: {
      // The base's text again, from its parts (they are views of one string, minus its fragment).
      base_buf.assign(base->scheme);
      base_buf.push_back(':');
      if (base->has_authority) {
        base_buf.append("//");
        base_buf.append(base->authority);
      }
      base_buf.append(base->path);
      if (base->has_query) {
        base_buf.push_back('?');
        base_buf.append(base->query);
      }
      std::string tmp;
      const whatwg_url* b = whatwg_cached_base(whatwg_preprocess(base_buf, tmp));
      if (b && whatwg_parse(r, b, out, url)) return true;
      out.clear();
      return false;
    }
    default:
      return uri_resolve_rfc(base, r, out);  // r: what decided the mode ("h\ttp:" is "http:")
  }
}

}  // namespace detail

LANGSIFT_INLINE bool resolve_uri(std::string_view base, std::string_view ref, std::string& out) {
  thread_local std::string ref_buf, base_buf;
  const std::string_view r = detail::whatwg_preprocess(ref, ref_buf);
  const std::string_view b = detail::whatwg_preprocess(base, base_buf);
  detail::whatwg_url url;
  bool ok;
  switch (detail::uri_resolve_mode(r, detail::uri_scheme_prefix(b))) {
    case 1:
      ok = detail::whatwg_parse(r, nullptr, out, url);
      break;
    case 2: {
      const detail::whatwg_url* bu = detail::whatwg_cached_base(b);
      ok = bu && detail::whatwg_parse(r, bu, out, url);
      break;
    }
    default: {  // the preprocessed texts, which decided the mode ("h\ttp:" is "http:")
      std::optional<uri_view> bv = parse_uri(b);
      ok = detail::uri_resolve_rfc((bv && bv->is_absolute()) ? &*bv : nullptr, r, out);
    }
  }
  if (!ok) out.clear();
  return ok;
}

LANGSIFT_INLINE std::string resolve_uri(std::string_view base, std::string_view ref) {
  std::string out;
  resolve_uri(base, ref, out);
  return out;
}

}  // namespace v1
}  // namespace langsift
