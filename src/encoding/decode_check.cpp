// How well the sample decodes in an encoding.
#include <string>
#include <string_view>

#include "detect_parts.hpp"
#include "internal.hpp"
#include "langsift/encoding.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

decode_check check_decoding(std::string_view sample, const encoding_info& e) {
  decode_check d;
  sample = sample.substr(0, 16 * 1024);  // enough to judge; bounds the cost
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  for (std::size_t i = 0; i < sample.size(); ++i) d.nonascii += p[i] >= 0x80;
  if (const sbcs_table* t = get_sbcs_table(e)) {
    d.ok = true;
    for (std::size_t i = 0; i < sample.size(); ++i) {
      char16_t u = t->map[p[i]];
      if (u == 0xFFFF) ++d.replaced;
      else if (u >= 0x80 && u < 0xA0) ++d.c1;
    }
    return d;
  }
  utf8_converter c;
  if (c.open(e.name) != status::ok) return d;
  std::string out;
  // `last` = false: a sequence cut by the end of the sample is not an error.
  conversion_result r = c.convert(sample, false, out);
  d.ok = r.st == status::ok;
  d.replaced = r.replaced_bytes;
  return d;
}

// True when most ideographs and syllables of the decoding touch a Latin letter ("g象ddi"): single
// 8-bit letters of a Latin text read as a double-byte encoding, not CJK text, which runs its
// characters together.
bool cjk_between_latin(std::string_view sample, const encoding_info& e) {
  utf8_converter c;
  if (c.open(e.name) != status::ok) return false;
  std::string out;
  c.convert(sample.substr(0, 4096), false, out);
  const auto* p = reinterpret_cast<const unsigned char*>(out.data());
  const auto* const end = p + out.size();
  auto latin = [](char32_t u) { return (u | 0x20) >= 'a' && (u | 0x20) <= 'z'; };
  char32_t prev2 = 0, prev = 0;
  std::size_t wide = 0, alone = 0;
  auto step = [&](char32_t u) {
    if (prev >= 0x2E80) {
      ++wide;
      if (latin(prev2) || latin(u)) ++alone;
    }
    prev2 = prev;
    prev = u;
  };
  while (p < end) {
    const detail::utf8_decoded d = detail::decode_utf8_step(p, end);
    step(d.valid ? d.cp : 0xFFFD);
    p += d.len ? d.len : 1;
  }
  step(0);
  return wide > 0 && alone * 2 > wide;
}

bool has_any_byte(std::string_view s, const char* set) {
  return s.find_first_of(set) != std::string_view::npos;
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
