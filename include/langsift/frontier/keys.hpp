// langsift — the crawl frontier's URL keys (part of langsift/frontier.hpp): a URL normalised as the
// WHATWG URL Standard serialises it, and its 64-bit hash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// The URL as the frontier keys it. For http, https (and ws, wss, ftp): the WHATWG URL Standard's
/// serialization (resolve_uri, uri.hpp) without the fragment: scheme and host lower-cased, the
/// host mapped by UTS #46 to ASCII ("xn--" labels: "münchen.de" and "xn--mnchen-3ya.de" are one
/// key), IPv4 and IPv6 addresses in their canonical form, the default port removed, an empty path
/// written "/", "." and ".." segments (also as "%2e") removed, non-ASCII and the standard's
/// other bytes percent-encoded in userinfo, path and query. For other schemes with a host (RFC
/// 3986): resolved, fragment removed, scheme and ASCII host lower-cased, an empty path written
/// "/", non-ASCII in path and query percent-encoded. Returns false (out untouched) for what is
/// not an absolute URL with a host, and for what the standard fails (a bad host or port).
bool normalize_url(std::string_view url, std::string& out);

/// The frontier's 64-bit key of a URL: XXH3-64 of normalize_url(url) (of the bytes as given when
/// they do not parse as an absolute URL). Never 0.
std::uint64_t url_key(std::string_view url);

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/frontier/keys-inl.hpp"
#endif
