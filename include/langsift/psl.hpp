// langsift — the Public Suffix List: which part of a host name is a public suffix ("co.uk",
// "blogspot.com") and which is the registered domain ("bbc.co.uk"). The list is compiled in
// (detail/psl_table.inc, generated from Debian's `publicsuffix` package by tools/gen/gen_psl_table.cpp;
// `psl_version()` names the version), so nothing is read at run time. No allocation.
//
//   split_domain("news.bbc.co.uk")        → suffix "co.uk", registered "bbc.co.uk"
//   split_domain("aksam.blogspot.com")    → suffix "blogspot.com", registered "aksam.blogspot.com"
//   split_domain("www.example.unknowntld") → suffix "unknowntld" (the default rule "*")
//
// Input: a host name in lower case without a trailing dot, labels in UTF-8 (IDN labels decoded;
// see punycode.hpp). Rules compare bytewise. IP literals are the caller's business.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// A host split at its public suffix. Views into the host given to split_domain.
struct domain_parts {
  std::string_view public_suffix;      ///< "co.uk"; the last label when no rule matches
  std::string_view registered_domain;  ///< suffix + one label ("bbc.co.uk"); "" if host is a suffix
  bool listed = false;                 ///< a PSL rule matched (false: the default rule "*")
  bool private_rule = false;           ///< the rule is from the list's private section
};

/// The PSL version compiled in (the Debian package version of `publicsuffix`).
std::string_view psl_version() noexcept;

/// Splits `host` at its public suffix (PSL algorithm: the longest matching rule prevails, an
/// exception rule over the wildcard it excepts, the default rule "*" when none matches).
/// With `use_private = false` only the ICANN section counts ("blogspot.com" is then not a suffix).
domain_parts split_domain(std::string_view host, bool use_private = true) noexcept;

}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/psl-inl.hpp"
#endif
