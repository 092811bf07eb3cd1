// langsift — URL parsing and reference resolution, shared by the HTML link extractor, the URL
// classifier and the crawl frontier. Declared here, defined in impl/uri-inl.hpp (compiled into
// langsift::core).
//
//   parse_uri("http://u@Example.com:8080/a/b?q#f") → scheme "http", authority "u@Example.com:8080",
//       userinfo "u", host "Example.com", port "8080", path "/a/b", query "q", fragment "f"
//   resolve_uri("http://a/b/c/d;p?q", "../g")        → "http://a/b/g"
//   resolve_uri("", "HTTP://Bücher.example:80/%7Ex/./y z?q=ä") → "http://xn--bcher-kva.example/%7Ex/y%20z?q=%C3%A4"
//
// parse_uri splits an RFC 3986 reference into views, without allocation and without judging it
// beyond the authority's syntax (see its comment). Its tolerance: leading and trailing C0 controls
// and spaces are ignored; for http and https a backslash counts as a slash, and any number of
// slashes may follow "http:" before the host ("http:\\\\host\\p" has host "host").
//
// resolve_uri follows the WHATWG URL Standard (its "basic URL parser" and serializer) where the
// result has a special scheme other than file — http, https, ws, wss, ftp — which is what
// browsers, and so the web's links, do:
//   * leading and trailing C0 controls and spaces are ignored; tab, CR and LF anywhere are dropped;
//   * a backslash counts as a slash, and any number of slashes (or none: "http:host") may come
//     before the host; "http:g" against an http base is relative, as is "http:/g";
//   * the host is percent-decoded, then mapped by UTS #46 (langsift/idna.hpp: non-transitional,
//     CheckBidi, CheckJoiners, no STD3 rules, no DNS lengths) to its ASCII form ("xn--" labels),
//     lower-cased; IPv4 addresses in any of the forms the standard reads (0x7f.1, 2130706433,
//     0177.0.0.1) are written in dotted decimal and IPv6 addresses in their shortest form; a host
//     the standard refuses (forbidden code points, bad IDNA, a bad address) makes the URL fail;
//   * the default port of the scheme (80, 443, 80, 443, 21) is removed, other ports are written
//     without leading zeros, ports above 65535 fail;
//   * userinfo, path, query and fragment are percent-encoded with the standard's userinfo, path,
//     special-query (the query set and ') and fragment sets; '%' is never encoded, and what is
//     already escaped is left as it is ("%7e" stays "%7e");
//   * "." and ".." segments, also written "%2e", are removed;
//   * the path is never empty ("http://a" is "http://a/").
// One deviation, where the standard has nothing to say: the input is bytes, not code points, and a
// byte that is not part of valid UTF-8 is percent-encoded as itself (%FF) where the standard, which
// decodes first, would write U+FFFD (%EF%BF%BD); in a host it is U+FFFD, which fails.
// tests/conformance/test_conformance_url.cpp runs the standard's own tests (urltestdata.json).
//
// For other schemes (file, mailto, javascript, data, made-up ones) resolve_uri does RFC 3986 §5.2
// resolution with the same whitespace tolerance; it percent-encodes what cannot stand in a URL
// (C0 controls, space, " < > ` { } DEL and every byte >= 0x80) in userinfo, path, query and
// fragment, lower-cases the scheme and an ASCII host, and keeps a non-ASCII host as UTF-8.
// resolve_uri's output is therefore always valid UTF-8, and ASCII except for such a host.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "langsift/config.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/idna.hpp"

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

/// Resolves `ref` against `base` (either may be empty): the WHATWG URL Standard's parser and
/// serializer when the result has a special scheme other than file (http, https, ws, wss, ftp),
/// RFC 3986 §5.2 resolution (with remove_dot_segments, recomposed as in §5.3) otherwise; see the
/// top of this file. Returns "" when the standard fails the URL (a bad host or port, a special
/// URL without a host, a relative reference against a base it cannot parse), when `ref` is
/// relative and `base` is not an absolute URI, or when an RFC 3986 reference does not parse. The
/// fragment of `ref` is kept. Which schemes to follow (javascript:, mailto:...) is the caller's
/// decision.
std::string resolve_uri(std::string_view base, std::string_view ref);

/// As above, writing into `out` (cleared first, capacity reused). Returns false (and leaves `out`
/// empty) when the reference cannot be resolved.
bool resolve_uri(std::string_view base, std::string_view ref, std::string& out);

// ------------------------------------------------------------------------------------------------
// Implementation.

namespace detail {

/// http and https: the schemes for which browsers treat '\' as '/' and insist on a host.
inline bool uri_is_special(std::string_view scheme) noexcept {
  return iequals(scheme, "http") || iequals(scheme, "https");
}

/// WHATWG forbidden domain code points (forbidden host code points, C0 controls, '%', DEL; parse_uri
/// does not percent-decode hosts): every host resolve_uri writes for a special URL passes.
inline constexpr bool uri_host_forbidden(unsigned char c) noexcept {
  return c <= 0x20 || c == 0x7F || c == '#' || c == '%' || c == '/' || c == ':' || c == '<' ||
         c == '>' || c == '?' || c == '@' || c == '[' || c == '\\' || c == ']' || c == '^' ||
         c == '|';
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
bool uri_split_authority(uri_view& u) noexcept;

}  // namespace detail

std::optional<uri_view> parse_uri(std::string_view s) noexcept;

namespace detail {

/// Appends `s`, dropping tab/CR/LF, turning '\' into '/' when `slashes`, and percent-encoding
/// controls, space, " < > ` { } DEL and bytes >= 0x80.
inline constexpr bool uri_plain_byte(unsigned char c) noexcept {
  return c > 0x20 && c < 0x7F && c != '\\' && c != '"' && c != '<' && c != '>' && c != '`' &&
         c != '{' && c != '}';
}

void uri_append_encoded(std::string& out, std::string_view s, bool slashes);

/// True when `s` is valid UTF-8 (used for non-ASCII hosts, which are kept as they are).
bool uri_valid_utf8(std::string_view s) noexcept;

/// Appends the authority: userinfo (encoded), lower-cased host, port. False for a bad host.
bool uri_append_authority(std::string& out, const uri_view& u);

/// RFC 3986 §5.2.4 remove_dot_segments, in place on out[from, end). Every byte is read once and
/// written at most once (the write position never passes the read position); removing a
/// segment ("/..") scans back over bytes that were written, each of which is removed then, so
/// the whole is linear.
void uri_remove_dot_segments(std::string& out, std::size_t from);

/// RFC 3986 resolution of `ref` against an already parsed absolute `base` (or none), for
/// results without a special scheme: see resolve_uri and uri_resolve_into.
bool uri_resolve_rfc(const uri_view* base, std::string_view ref, std::string& out);

// ---- WHATWG URL Standard: URLs with a special scheme other than file --------------------------------

/// The default port of a special scheme other than file (`s` in lower case): http 80, https 443,
/// ws 80, wss 443, ftp 21; -1 for every other scheme.
int whatwg_default_port(std::string_view s) noexcept;

/// whatwg_default_port of a scheme in any case.
int whatwg_special_port(std::string_view scheme) noexcept;

/// The scheme of `s` as written (an ASCII letter, then letters, digits, '+', '-', '.', up to a
/// ':'), or "" when `s` does not start with one.
std::string_view uri_scheme_prefix(std::string_view s) noexcept;

/// The standard's percent-encode sets (bytes >= 0x80 are in all of them) and its forbidden domain
/// code points, one bit each.
enum : std::uint8_t {
  whatwg_set_fragment = 1,
  whatwg_set_special_query = 2,
  whatwg_set_path = 4,
  whatwg_set_userinfo = 8,
  whatwg_forbidden_domain = 16,
};
inline constexpr std::array<std::uint8_t, 256> whatwg_byte_sets = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned c = 0; c < 256; ++c) {
    auto in = [c](std::string_view set) { return c > 0 && set.find(static_cast<char>(c)) != std::string_view::npos; };
    const bool c0 = c < 0x20 || c > 0x7E;                          // C0 control percent-encode set
    const bool query = c0 || in(" \"#<>");                         // query percent-encode set
    const bool path = query || in("?^`{}");                        // path percent-encode set
    std::uint8_t v = 0;
    if (c0 || in(" \"<>`")) v |= whatwg_set_fragment;
    if (query || c == '\'') v |= whatwg_set_special_query;
    if (path) v |= whatwg_set_path;
    if (path || in("/:;=@[\\]^|")) v |= whatwg_set_userinfo;
    if (c < 0x21 || c == 0x7F || in("#%/:<>?@[\\]^|")) v |= whatwg_forbidden_domain;
    t[c] = v;
  }
  return t;
}();

/// Appends `s`, percent-encoding the bytes in `set` (upper-case hex).
void whatwg_append_encoded(std::string& out, std::string_view s, std::uint8_t set);

/// The basic URL parser's first steps: leading and trailing C0 controls and spaces trimmed, every
/// tab, LF and CR removed. A view of `s`, or of `buf` when something had to be removed inside.
std::string_view whatwg_preprocess(std::string_view s, std::string& buf);

/// The IPv4 number parser: decimal, octal (leading 0) or hexadecimal (0x); false for failure.
/// Values above 2^32 saturate (the callers only compare them with bounds below that).
bool whatwg_ipv4_number(std::string_view s, std::uint64_t& v) noexcept;

/// The "ends in a number" checker: the last label (after a trailing dot) is digits, or an IPv4
/// number.
bool whatwg_ends_in_number(std::string_view h) noexcept;

/// The IPv4 parser: one to four numbers; false for failure.
bool whatwg_ipv4(std::string_view h, std::uint32_t& address) noexcept;

/// The IPv6 parser (the text between the brackets); false for failure.
bool whatwg_ipv6(std::string_view s, std::uint16_t (&a)[8]) noexcept;

/// The IPv6 serializer, with brackets: lower-case hex, the first longest run of two or more zero
/// pieces written "::".
void whatwg_append_ipv6(std::string& out, const std::uint16_t (&a)[8]);

/// The host parser for special URLs: appends the serialized host of `raw` (as written between
/// "//" or the userinfo's '@' and the port) to `out`; false for failure (out then has garbage
/// after its old end).
bool whatwg_append_host(std::string& out, std::string_view raw);

/// A parsed URL with a special scheme: its serialization and where its parts start.
struct whatwg_url {
  std::string_view href;
  std::size_t scheme_len = 0;                            ///< before the ':'
  std::size_t path_start = 0;                            ///< after "scheme://userinfo@host:port"
  std::size_t query_start = std::string_view::npos;      ///< the '?', if any
  std::size_t fragment_start = std::string_view::npos;   ///< the '#', if any
  std::size_t path_end() const noexcept { return std::min({query_start, fragment_start, href.size()}); }
};

inline bool whatwg_single_dot(std::string_view s) noexcept {
  return s == "." || (s.size() == 3 && s[0] == '%' && s[1] == '2' && (s[2] == 'e' || s[2] == 'E'));
}
inline bool whatwg_double_dot(std::string_view s) noexcept {
  if (s == "..") return true;
  if (s.size() == 4) return (s[0] == '.' && whatwg_single_dot(s.substr(1))) || (whatwg_single_dot(s.substr(0, 3)) && s[3] == '.');
  return s.size() == 6 && whatwg_single_dot(s.substr(0, 3)) && whatwg_single_dot(s.substr(3));
}

/// The basic URL parser, for `in` (preprocessed: whatwg_preprocess) with a special scheme other
/// than file, or without a scheme (or with the base's, and no "//" after it) against `base`, a
/// parsed URL of such a scheme. Writes the serialization into `out` (cleared first) and where its
/// parts start into `url` (whose href is then `out`); false when the standard fails the URL.
bool whatwg_parse(std::string_view in, const whatwg_url* base, std::string& out, whatwg_url& url);

/// How to resolve `ref` (preprocessed) against a base of scheme `base_scheme` ("" if none):
/// 0 RFC 3986 (uri_resolve_rfc), 1 WHATWG without the base, 2 WHATWG against the base.
int uri_resolve_mode(std::string_view ref, std::string_view base_scheme) noexcept;

/// The base of a WHATWG resolution, from its text (`src`, preprocessed), parsed once per thread
/// and kept while the same base comes again (the links of one page). Null when it does not parse.
const whatwg_url* whatwg_cached_base(std::string_view src);

/// Resolves `ref` against an already parsed absolute `base` (or none), as resolve_uri does.
bool uri_resolve_into(const uri_view* base, std::string_view ref, std::string& out);

}  // namespace detail

bool resolve_uri(std::string_view base, std::string_view ref, std::string& out);

std::string resolve_uri(std::string_view base, std::string_view ref);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/uri-inl.hpp"
#endif
