// langsift — a value quoted for an error message ('de-DE', 'a\x00b', 'xxx…'), the same in the
// library's messages and in the Python package's. Tiny and dependency-free.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {
namespace detail {

/// `s` quoted for a message: in single quotes, control bytes written \xNN (as repr() writes them:
/// a NUL would end a message read as a C string), at most 40 code points of it, "…" after a cut.
/// Code points are counted by their lead bytes (every byte but 10xxxxxx), so a cut never splits a
/// UTF-8 sequence: valid UTF-8 in, valid UTF-8 out.
inline std::string quoted_value(std::string_view s) {
  std::string r = "'";
  std::size_t points = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80 && points++ == 40) return r + "…'";
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      r += buf;
    } else {
      r += static_cast<char>(c);
    }
  }
  return r + "'";
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
