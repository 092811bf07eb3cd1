// langsift — the WHATWG named character references (detail/html_entities.inc, generated), for the
// character-reference decoder (langsift/impl/html/tables-inl.hpp) and its tests; not included by
// the public headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace langsift {
inline namespace v1 {
namespace detail {

struct html_entity {
  std::uint16_t name_offset;
  std::uint8_t name_length;
  std::uint8_t second;  // index into kHtmlEntitySecond, 0 = a single code point
  char32_t first;
};

#include "langsift/detail/html_entities.inc"

}  // namespace detail
}  // namespace v1
}  // namespace langsift
