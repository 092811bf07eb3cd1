// Internals of langsift::encoding shared by the .cpp files of src/encoding. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "langsift/detail/utf8.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// How an encoding is decoded.
enum class codec : std::uint8_t {
  utf8,         ///< own validator/copier
  ascii,        ///< windows-1252 bytes; named "ascii" when the bytes are 7-bit
  utf16le,      ///< own
  utf16be,      ///< own
  sbcs_icu,     ///< single-byte: a 256-entry table built once from the ICU converter
  sbcs_table,   ///< single-byte: a generated table (sbcs_tables.inc) for what ICU lacks
  user_defined, ///< WHATWG x-user-defined: 0x80..0xFF → U+F780..U+F7FF
  replacement,  ///< WHATWG replacement: one U+FFFD for any non-empty input
  icu,          ///< multi-byte or stateful: an ICU converter
  none,         ///< a known name without a converter (johab)
};

/// What detection needs to know about a family of encodings.
enum class family : std::uint8_t { unicode8, unicode16, unicode32, single_byte, cjk, iso2022, other };

struct encoding_info {
  std::string_view name;   ///< canonical name
  codec kind;
  const char* icu_name;    ///< for sbcs_icu/icu; for sbcs_table the table id as text
  family fam;
  bool whatwg;             ///< an encoding of the WHATWG Encoding Standard
};

/// The entry of a canonical name or any label; nullptr if unknown.
const encoding_info* find_encoding(std::string_view label) noexcept;

/// 256 code units, 0xFFFF = undefined byte. Built on first use (thread-safe). nullptr when the
/// encoding is not single-byte or ICU cannot build it.
struct sbcs_table {
  char16_t map[256];
  bool ascii_identity;  ///< map[b] == b for every b < 0x80
};
const sbcs_table* get_sbcs_table(const encoding_info& e) noexcept;

inline constexpr char k_replacement_utf8[] = "\xEF\xBF\xBD";

/// Result of one UTF-8 decoding step at p[0..n).
enum class utf8_step_kind : std::uint8_t { valid, invalid, incomplete };
struct utf8_step {
  utf8_step_kind kind;
  std::uint8_t length;  ///< bytes of the sequence (valid) or of the maximal invalid subpart
};

/// One step of detail::decode_utf8_step at p[0..n) (n ≥ 1), by the Unicode "maximal subpart"
/// rule: `incomplete` when the bytes are a valid prefix that runs out at n.
inline utf8_step utf8_decode_step(const unsigned char* p, std::size_t n) noexcept {
  const detail::utf8_decoded d = detail::decode_utf8_step(p, p + n);
  if (d.valid) return {utf8_step_kind::valid, d.len};
  return {detail::utf8_truncated(p, p + n, d) ? utf8_step_kind::incomplete : utf8_step_kind::invalid, d.len};
}

/// Length of the leading run of bytes < 0x80.
inline std::size_t ascii_prefix_length(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    __builtin_memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ULL) break;
  }
  while (i < n && p[i] < 0x80) ++i;
  return i;
}

/// Statistics of the bytes as UTF-8. The scan stops early (counts then partial) once 64 invalid
/// sequences outnumber half the valid multi-byte ones: the text is clearly not UTF-8.
struct utf8_stats {
  std::size_t multibyte = 0;      ///< valid sequences of 2..4 bytes
  std::size_t long_sequences = 0; ///< valid sequences of 3..4 bytes
  std::size_t invalid = 0;        ///< maximal invalid subparts
  std::size_t nonascii_bytes = 0;
  bool incomplete_tail = false;   ///< ends inside a valid prefix of a sequence
};
utf8_stats scan_utf8(const unsigned char* p, std::size_t n) noexcept;
/// scan_utf8 one sequence at a time from p[i] on, adding to `s` (the counts of p[0, i), which ends
/// at a character boundary of well-formed text): the reference the vectorised scan is tested against.
utf8_stats scan_utf8_bytewise(const unsigned char* p, std::size_t n, std::size_t i, utf8_stats s) noexcept;

}  // namespace detail
}  // namespace v1
}  // namespace langsift
