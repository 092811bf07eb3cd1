// Internals of langsift::encoding shared by the .cpp files of src/encoding. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {
namespace enc_detail {

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

/// Appends the UTF-8 form of code point `cp` (must be a scalar value) to `out`.
inline void append_utf8(std::string& out, char32_t cp) {
  char buf[4];
  std::size_t n;
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    n = 1;
  } else if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    buf[0] = static_cast<char>(0xF0 | (cp >> 18));
    buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  out.append(buf, n);
}

inline constexpr char k_replacement_utf8[] = "\xEF\xBF\xBD";

/// Result of one UTF-8 decoding step at p[0..n).
enum class utf8_step_kind : std::uint8_t { valid, invalid, incomplete };
struct utf8_step {
  utf8_step_kind kind;
  std::uint8_t length;  ///< bytes of the sequence (valid) or of the maximal invalid subpart
};

/// Decodes one sequence starting at p (n ≥ 1) by the Unicode "maximal subpart" rule:
/// `incomplete` when the bytes are a valid prefix that runs out at n.
inline utf8_step utf8_decode_step(const unsigned char* p, std::size_t n) noexcept {
  unsigned char b = p[0];
  if (b < 0x80) return {utf8_step_kind::valid, 1};
  std::size_t need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return {utf8_step_kind::invalid, 1};
  }
  for (std::size_t i = 1; i <= need; ++i) {
    if (i >= n) return {utf8_step_kind::incomplete, static_cast<std::uint8_t>(i)};
    unsigned char c = p[i];
    if (c < lo || c > hi) return {utf8_step_kind::invalid, static_cast<std::uint8_t>(i)};
    lo = 0x80;
    hi = 0xBF;
  }
  return {utf8_step_kind::valid, static_cast<std::uint8_t>(need + 1)};
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

}  // namespace enc_detail
}  // namespace v1
}  // namespace langsift
