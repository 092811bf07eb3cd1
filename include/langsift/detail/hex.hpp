// langsift — hexadecimal digits, for percent-decoding, character references, IPv4/IPv6 literals
// and chunked transfer coding. Tiny and dependency-free, so public headers include it.
#pragma once

namespace langsift {
inline namespace v1 {
namespace detail {

/// The value of the hex digit c ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for any other value
/// (including negative ones, such as an end-of-input sentinel).
inline constexpr int hex_digit_value(int c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline constexpr bool is_hex_digit(int c) noexcept { return hex_digit_value(c) >= 0; }

/// The digits of the values 0-15, for writing hex: upper case (percent-encoding) and lower case.
inline constexpr char hex_digits_upper[] = "0123456789ABCDEF";
inline constexpr char hex_digits_lower[] = "0123456789abcdef";

}  // namespace detail
}  // namespace v1
}  // namespace langsift
