// langsift — UTS #46 (Unicode IDNA Compatibility Processing) without ICU: the ToASCII and
// ToUnicode operations on domain names, non-transitional, as the WHATWG URL Standard's "domain to
// ASCII" uses them for hosts (uri.hpp). Declared here, defined in impl/idna-inl.hpp (compiled
// into langsift::core).
//
//   std::string a;
//   idna_to_ascii("Bücher.Example", a);        // 0 (no error), a == "xn--bcher-kva.example"
//   idna_to_ascii("faß.de", a);                // 0, a == "xn--fa-hia.de" (non-transitional: ß kept)
//   idna_to_unicode("xn--mnchen-3ya.de", a);   // 0, a == "münchen.de"
//   idna_to_ascii("a\u200Db.de" (UTF-8), a);   // idna_error_contextj: a joiner out of context
//
// Processing (UTS #46 section 4, Unicode 17.0 text): map every code point (the IDNA Mapping Table:
// valid / mapped / ignored / disallowed; deviations are valid, as in non-transitional processing),
// normalise to NFC, split at U+002E, decode "xn--" labels (Punycode, RFC 3492: langsift/punycode.hpp)
// and check the validity criteria (4.1): NFC for decoded labels, hyphens (check_hyphens), no
// decoded label starting with "xn--", no leading combining mark, only valid code points,
// STD3 ASCII (use_std3_ascii_rules), the ContextJ rules of RFC 5892 (check_joiners) and the Bidi
// rule of RFC 5893 in a Bidi domain name (check_bidi). ToASCII then encodes the labels that are
// not ASCII as "xn--" + Punycode and checks DNS lengths (verify_dns_length).
//
// The data (detail/idna_tables.inc: mapping, Bidi_Class, Joining_Type, General_Category=Mark) and
// the combining classes and compositions of unicode.hpp are generated from ICU by
// tools/gen/gen_idna_table.cpp and tools/gen/gen_unicode_tables.cpp, from the same Unicode version
// (checked at compile time). Characters newer than that version are unassigned, hence
// disallowed. The conformance test (tests/conformance/test_conformance_idna.cpp) runs Unicode's
// IdnaTestV2.txt; tests/conformance/idna.tsv lists the cases that fail and why.
//
// Input is UTF-8; a byte sequence that is not UTF-8 becomes U+FFFD (disallowed). Limits (far beyond
// DNS's 63-byte labels, there to bound the quadratic Punycode steps): an "xn--" label longer than
// 4,096 bytes is a Punycode error, and a label of more than 4,096 code points cannot be encoded
// (idna_error_punycode_encode).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "langsift/config.hpp"
#include "langsift/punycode.hpp"
#include "langsift/unicode.hpp"

namespace langsift {
inline namespace v1 {

/// The flags of UTS #46. The defaults are the WHATWG URL Standard's for hosts (domain to ASCII
/// with beStrict = false): no hyphen checks, no STD3 rules, no DNS length checks; Bidi and
/// ContextJ checks on. Processing is always non-transitional.
struct idna_options {
  bool check_hyphens = false;         ///< V2, V3: no "--" at positions 3-4, no leading/trailing '-'
  bool check_bidi = true;             ///< RFC 5893 in a domain with RTL labels (B1-B6)
  bool check_joiners = true;          ///< RFC 5892 appendix A.1/A.2 (ZWNJ, ZWJ) (C1, C2)
  bool use_std3_ascii_rules = false;  ///< only a-z, 0-9 and '-' in ASCII (U1)
  bool verify_dns_length = false;     ///< ToASCII: 1..253 bytes, labels 1..63 (A4_1, A4_2)
};

/// Errors of idna_to_ascii / idna_to_unicode, one bit each (0 = success). The names in brackets
/// are the status codes of UTS #46's IdnaTestV2.txt.
enum idna_error : std::uint32_t {
  idna_error_punycode = 1u << 0,         ///< [P4] "xn--" label not ASCII, not Punycode, or decoding to ASCII/nothing
  idna_error_not_nfc = 1u << 1,          ///< [V1] a decoded label is not in NFC
  idna_error_hyphen_3_4 = 1u << 2,       ///< [V2] "--" at positions 3-4 (check_hyphens)
  idna_error_hyphen_edge = 1u << 3,      ///< [V3] leading or trailing '-' (check_hyphens)
  idna_error_ace_prefix = 1u << 4,       ///< [V4] a decoded label starts with "xn--"
  idna_error_leading_mark = 1u << 5,     ///< [V6] a label starts with a combining mark
  idna_error_disallowed = 1u << 6,       ///< [V7] a code point that is not valid (disallowed, or mapped in a decoded label)
  idna_error_std3 = 1u << 7,             ///< [U1] ASCII other than a-z, 0-9, '-' (use_std3_ascii_rules)
  idna_error_contextj = 1u << 8,         ///< [C1, C2] ZWNJ or ZWJ out of context (check_joiners)
  idna_error_bidi = 1u << 9,             ///< [B1-B6] the Bidi rule (check_bidi)
  idna_error_punycode_encode = 1u << 10, ///< [A3] a label could not be encoded
  idna_error_domain_length = 1u << 11,   ///< [A4_1] not 1..253 bytes (verify_dns_length)
  idna_error_label_length = 1u << 12,    ///< [A4_2] a label not 1..63 bytes (verify_dns_length)
};

/// UTS #46 ToASCII of a domain name (UTF-8), non-transitional. Writes the result into `out`
/// (cleared first; written even when there are errors, as far as it goes) and returns the errors
/// (a combination of idna_error; 0 = success).
std::uint32_t idna_to_ascii(std::string_view domain, std::string& out, const idna_options& o = {});

/// UTS #46 ToUnicode: the processed domain name in UTF-8 (mapped, NFC, "xn--" labels decoded
/// where they decode), and the errors found (0 = none). An empty label is not an error here.
std::uint32_t idna_to_unicode(std::string_view domain, std::string& out, const idna_options& o = {});

namespace detail {

/// Status in the IDNA Mapping Table (deviations count as valid; ignored = mapped to nothing).
enum class idna_status : std::uint8_t { valid = 0, mapped = 1, disallowed = 2 };
/// Bidi_Class, in ICU's UCharDirection order (the table stores these numbers).
enum class idna_bidi : std::uint8_t {
  L = 0, R = 1, EN = 2, ES = 3, ET = 4, AN = 5, CS = 6, B = 7, S = 8, WS = 9, ON = 10, LRE = 11,
  LRO = 12, AL = 13, RLE = 14, RLO = 15, PDF = 16, NSM = 17, BN = 18, FSI = 19, LRI = 20, RLI = 21, PDI = 22
};
/// Joining_Type, in ICU's UJoiningType order.
enum class idna_joining : std::uint8_t { U = 0, C = 1, D = 2, L = 3, R = 4, T = 5 };

}  // namespace detail
}  // namespace v1
}  // namespace langsift

#if defined(LANGSIFT_HEADER_ONLY)
#include "langsift/impl/idna-inl.hpp"
#endif
