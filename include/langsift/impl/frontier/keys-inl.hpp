// langsift — implementation of langsift/frontier/keys.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/frontier/keys.hpp"

#include <optional>

#include "langsift/detail/xxhash.hpp"
#include "langsift/uri.hpp"

namespace langsift {
inline namespace v1 {

LANGSIFT_INLINE bool normalize_url(std::string_view url, std::string& out) {
  thread_local std::string pre, n;
  const std::string_view in = detail::whatwg_preprocess(url, pre);
  if (detail::whatwg_special_port(detail::uri_scheme_prefix(in)) >= 0) {
    detail::whatwg_url u;
    if (!detail::whatwg_parse(in, nullptr, n, u)) return false;
    if (u.fragment_start != std::string::npos) n.resize(u.fragment_start);
    out.swap(n);
    return true;
  }
  std::string r;
  if (!resolve_uri(url, "", r)) return false;
  const auto u = parse_uri(r);
  if (!u || !u->has_authority || u->host.empty() || u->scheme.empty()) return false;
  n.clear();
  n.reserve(r.size() + 1);
  n.append(u->scheme);
  n.append("://");
  if (!u->userinfo.empty()) {
    n.append(u->userinfo);
    n.push_back('@');
  }
  for (char c : u->host) n.push_back(detail::ascii_lower(c));
  if (!u->port.empty()) {
    n.push_back(':');
    n.append(u->port);
  }
  if (u->path.empty()) n.push_back('/');
  else n.append(u->path);
  if (u->has_query) {
    n.push_back('?');
    n.append(u->query);
  }
  out.swap(n);
  return true;
}
LANGSIFT_INLINE std::uint64_t url_key(std::string_view url) {
  thread_local std::string n;
  std::uint64_t h;
  if (normalize_url(url, n)) h = XXH3_64bits(n.data(), n.size());
  else h = XXH3_64bits(url.data(), url.size());
  return h ? h : 1;
}

}  // namespace v1
}  // namespace langsift
