// langsift — URL parsing for the URL classifier (part of langsift/url.hpp): scheme, host with IDN
// labels decoded and lower-cased, public suffix and registered domain (the compiled-in Public
// Suffix List), IPv4/IPv6 literals, path and query percent-decoded to UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "langsift/common.hpp"
#include "langsift/detail/hex.hpp"

namespace langsift {
inline namespace v1 {

enum class host_kind : std::uint8_t { none, name, ipv4, ipv6 };

/// A parsed URL. Strings are owned (re-used across calls: passed the same object, they stop
/// growing). All views returned point into this object.
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

/// The length of the prefix of `s` that url_percent_decode copies as it is: printable ASCII
/// without '%' (and without '+' when that is a space). Usually the whole path or query.
std::size_t url_plain_prefix(std::string_view s, bool plus_is_space) noexcept;

/// Percent-decodes `s` (optionally '+' → ' ') and appends UTF-8 to `out`: decoded bytes that do not
/// form valid UTF-8 are read as Latin-1 (old sites encode "é" as %E9); a '%' not followed by two
/// hex digits stays as it is; C0 controls become spaces.
void url_percent_decode(std::string_view s, bool plus_is_space, std::string& out);

}  // namespace detail

/// Default cap on the bytes of a URL examined.
constexpr std::size_t kUrlMaxBytes = 2048;

/// Parses `url` into `out`. Accepts absolute URLs of any scheme with an authority, and bare
/// "host/path" strings (read as http). Returns status::ok, status::truncated (longer than
/// `max_bytes`: the prefix was parsed), status::empty_input (empty or blank), or
/// status::invalid_argument (not a URL with a host: "mailto:x", "/relative", a malformed authority,
/// an empty host). On any status but ok/truncated, `out.kind == host_kind::none`; the path may
/// still be filled when there is one. Allocates where `out`'s strings grow, and for temporary
/// strings: a URL without a scheme (copied behind "http://"), a percent-encoded host (decoded) and
/// a host with non-ASCII letters (case-folded); short ones fit in the strings' own buffers.
status parse_url(std::string_view url, url_parts& out, std::size_t max_bytes = kUrlMaxBytes);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/url/parse-inl.hpp"
#endif
