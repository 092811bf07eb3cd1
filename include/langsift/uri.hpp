// langsift — URI parsing and reference resolution (RFC 3986), shared by the HTML link
// extractor, the URL classifier and the crawl frontier. Header-only, no allocation in parse_uri.
//
//   parse_uri("http://u@Example.com:8080/a/b?q#f") → scheme "http", authority "u@Example.com:8080",
//       userinfo "u", host "Example.com", port "8080", path "/a/b", query "q", fragment "f"
//   resolve_uri("http://a/b/c/d;p?q", "../g")        → "http://a/b/g"
//
// Tolerance (what browsers accept and RFC 3986 does not):
//   * leading and trailing C0 controls and spaces are ignored; tab, CR and LF inside are dropped
//     from the output of resolve_uri (not from parse_uri's views, which point into the input);
//   * for http and https a backslash counts as a slash, and any number of slashes may follow
//     "http:" before the host ("http:\\\\host\\p" is "http://host/p");
//   * a reference "http:g" against an http base is resolved as "g" (RFC 3986 §5.2.2's
//     "backward compatibility" option, which browsers follow);
//   * resolve_uri percent-encodes what cannot stand in a URL (C0 controls, space, " < > ` { } DEL
//     and every byte >= 0x80, i.e. non-ASCII as UTF-8 %XX) in userinfo, path, query and fragment,
//     lower-cases the scheme and an ASCII host, and keeps a non-ASCII host as UTF-8 (no IDNA).
//     Its output is therefore always valid UTF-8, and ASCII except for such a host.
// Not done: IDNA/punycode, IPv4 canonicalisation, default-port removal, "%2e" as a dot segment.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {

/// The components of a URI reference, as views into the parsed string (RFC 3986 §3).
/// Delimiters are not included ("//", ":", "?", "#"); `host` keeps the brackets of an IP literal.
struct uri_view {
  std::string_view scheme, authority, userinfo, host, port, path, query, fragment;
  bool has_authority = false, has_query = false, has_fragment = false;

  bool is_absolute() const noexcept { return !scheme.empty(); }
};

/// Parses a URI reference (absolute or relative). Returns nullopt only for a malformed authority:
/// a non-numeric port, an unclosed '[' or a host with a forbidden character (space, control,
/// < > ^ | % @ and the like). Views point into `s`; see the tolerance notes at the top.
std::optional<uri_view> parse_uri(std::string_view s) noexcept;

/// RFC 3986 §5.2 reference resolution (with remove_dot_segments) of `ref` against `base`,
/// recomposed as in §5.3. Returns "" when `ref` is relative and `base` is not an absolute URI,
/// when either does not parse, or when the result is an http(s) URL without a host.
/// The fragment of `ref` is kept. Which schemes to follow (javascript:, mailto:...) is the
/// caller's decision.
std::string resolve_uri(std::string_view base, std::string_view ref);

/// As above, writing into `out` (cleared first, capacity reused). Returns false (and leaves `out`
/// empty) when the reference cannot be resolved.
bool resolve_uri(std::string_view base, std::string_view ref, std::string& out);

// ------------------------------------------------------------------------------------------------
// Implementation.

namespace detail {

inline constexpr bool uri_is_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline constexpr bool uri_is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr char uri_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c;
}

inline bool uri_iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (uri_lower(a[i]) != uri_lower(b[i])) return false;
  return true;
}

/// http and https: the schemes for which browsers treat '\' as '/' and insist on a host.
inline bool uri_is_special(std::string_view scheme) noexcept {
  return uri_iequals(scheme, "http") || uri_iequals(scheme, "https");
}

inline std::string_view uri_trim(std::string_view s) noexcept {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return s;
}

/// WHATWG forbidden host code points, plus '%' (we do not percent-decode hosts).
inline constexpr bool uri_host_forbidden(unsigned char c) noexcept {
  return c <= 0x20 || c == 0x7F || c == '#' || c == '%' || c == '/' || c == ':' || c == '<' ||
         c == '>' || c == '?' || c == '@' || c == '[' || c == '\\' || c == ']' || c == '^' ||
         c == '|' || c == '"' || c == '`' || c == '{' || c == '}';
}

/// Byte classes for parse_uri's authority scan, one table load per byte instead of a chain of
/// comparisons: where the authority ends ('\' only for http(s)), and the forbidden host bytes.
/// The forbidden set includes '@', ':' and '[', so an authority without any forbidden byte is a
/// valid bare host and uri_split_authority has nothing to do.
enum : std::uint8_t { uri_class_end = 1, uri_class_backslash = 2, uri_class_forbidden = 4 };
inline constexpr std::array<std::uint8_t, 256> uri_byte_class = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned c = 0; c < 256; ++c) {
    if (uri_host_forbidden(static_cast<unsigned char>(c))) t[c] |= uri_class_forbidden;
    if (c == '/' || c == '?' || c == '#') t[c] |= uri_class_end;
    if (c == '\\') t[c] |= uri_class_backslash;
  }
  return t;
}();

/// Splits an authority into userinfo, host and port. False for a malformed authority.
inline bool uri_split_authority(uri_view& u) noexcept {
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
      if (!(uri_is_alpha(c) || uri_is_digit(c) || c == ':' || c == '.' || c == '-' || c == '_' ||
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
    if (!uri_is_digit(c)) return false;
  u.host = host;
  u.port = port;
  return true;
}

}  // namespace detail

inline std::optional<uri_view> parse_uri(std::string_view s) noexcept {
  using namespace detail;
  s = uri_trim(s);
  uri_view u;
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  std::size_t i = 0;
  if (!s.empty() && uri_is_alpha(s[0])) {
    std::size_t j = 1;
    while (j < s.size() && (uri_is_alpha(s[j]) || uri_is_digit(s[j]) || s[j] == '+' ||
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

/// Appends `s`, dropping tab/CR/LF, turning '\' into '/' when `slashes`, and percent-encoding
/// controls, space, " < > ` { } DEL and bytes >= 0x80.
inline constexpr bool uri_plain_byte(unsigned char c) noexcept {
  return c > 0x20 && c < 0x7F && c != '\\' && c != '"' && c != '<' && c != '>' && c != '`' &&
         c != '{' && c != '}';
}

inline void uri_append_encoded(std::string& out, std::string_view s, bool slashes) {
  static constexpr char hex[] = "0123456789ABCDEF";
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
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
}

/// True when `s` is valid UTF-8 (used for non-ASCII hosts, which are kept as they are).
inline bool uri_valid_utf8(std::string_view s) noexcept {
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

/// Appends the authority: userinfo (encoded), lower-cased host, port. False for a bad host.
inline bool uri_append_authority(std::string& out, const uri_view& u) {
  if (!u.userinfo.empty() || u.authority.find('@') != std::string_view::npos) {
    uri_append_encoded(out, u.userinfo, false);
    out.push_back('@');
  }
  if (!uri_valid_utf8(u.host)) return false;
  const std::size_t h = out.size();
  out.append(u.host);
  for (std::size_t i = h; i < out.size(); ++i) out[i] = uri_lower(out[i]);
  if (!u.port.empty()) {
    out.push_back(':');
    out.append(u.port);
  }
  return true;
}

/// RFC 3986 §5.2.4 remove_dot_segments, in place on out[from, end). Every byte is read once and
/// written at most once (the write position never passes the read position); removing a
/// segment ("/..") scans back over bytes that were written, each of which is removed then, so
/// the whole is linear.
inline void uri_remove_dot_segments(std::string& out, std::size_t from) {
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

/// Resolves `ref` against an already parsed absolute `base` (or none). See resolve_uri.
inline bool uri_resolve_into(const uri_view* base, std::string_view ref, std::string& out) {
  out.clear();
  ref = uri_trim(ref);
  std::optional<uri_view> rp = parse_uri(ref);
  if (!rp) return false;
  uri_view r = *rp;
  // A relative reference against a special base: backslashes are slashes there too, which
  // changes where an authority ends; reparse with that knowledge.
  if (r.scheme.empty() && base && uri_is_special(base->scheme) &&
      ref.find('\\') != std::string_view::npos) {
    // "\\host\p" behaves as "//host/p".
    if (ref.size() >= 2 && (ref[0] == '/' || ref[0] == '\\') && (ref[1] == '/' || ref[1] == '\\')) {
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
    }
  }
  // RFC 3986 §5.2.2 "for backward compatibility": "http:g" against an http base is relative.
  if (!r.scheme.empty() && base && !r.has_authority && uri_is_special(r.scheme) &&
      uri_iequals(r.scheme, base->scheme))
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

  for (char c : scheme) out.push_back(uri_lower(c));
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

}  // namespace detail

inline bool resolve_uri(std::string_view base, std::string_view ref, std::string& out) {
  std::optional<uri_view> b = parse_uri(base);
  const uri_view* bp = (b && b->is_absolute()) ? &*b : nullptr;
  if (!detail::uri_resolve_into(bp, ref, out)) {
    out.clear();
    return false;
  }
  return true;
}

inline std::string resolve_uri(std::string_view base, std::string_view ref) {
  std::string out;
  resolve_uri(base, ref, out);
  return out;
}

}  // namespace v1
}  // namespace langsift
