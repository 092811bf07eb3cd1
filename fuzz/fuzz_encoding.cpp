// libFuzzer target: detect + convert on arbitrary bytes.
//   byte 0      selects a Content-Type (none, a charset from a list, or the next bytes as a label)
//   byte 1..2   a split point for the streaming check
//   the rest    the body
// Invariants: output is valid UTF-8; replaced_bytes <= input_bytes == body size; streaming with
// a split gives the same output and counts as one-shot; detection never names an empty encoding;
// the <meta> prescan depends on the first 1024 bytes only and answers canonical names; the
// vectorised UTF-8 scan counts as the byte-by-byte one (on the whole input).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "langsift/encoding.hpp"
#include "../src/encoding/internal.hpp"  // scan_utf8 (internal to the encoding library)

namespace {

constexpr const char* k_labels[] = {
    "",          "utf-8",     "iso-8859-1", "shift_jis", "euc-jp",      "iso-2022-jp", "gb18030",
    "gbk",       "big5",      "euc-kr",     "utf-16le",  "utf-16be",    "utf-16",      "windows-1251",
    "koi8-r",    "ibm866",    "iso-8859-16", "viscii",   "x-user-defined", "replacement", "iso-2022-kr",
    "hz-gb-2312", "utf-32le", "ascii",      "johab",     "bogus",
};
constexpr std::size_t k_nlabels = sizeof k_labels / sizeof k_labels[0];

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return false;
    if (i + len > s.size()) return false;
    if (p[i + 1] < lo || p[i + 1] > hi) return false;
    for (std::size_t k = 2; k < len; ++k)
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    i += len;
  }
  return true;
}

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The UTF-8 scan's 32-byte blocks (AVX2) count as its byte-by-byte reference, on every input.
  {
    const langsift::detail::utf8_stats a = langsift::detail::scan_utf8(data, size);
    const langsift::detail::utf8_stats b = langsift::detail::scan_utf8_bytewise(data, size, 0, {});
    if (a.multibyte != b.multibyte || a.long_sequences != b.long_sequences || a.invalid != b.invalid ||
        a.nonascii_bytes != b.nonascii_bytes || a.incomplete_tail != b.incomplete_tail)
      std::abort();
  }
  if (size < 3) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  unsigned sel = data[0];
  std::size_t split_seed = static_cast<std::size_t>(data[1]) << 8 | data[2];
  std::string_view body = in.substr(3);
  std::string ct;
  if (sel < k_nlabels * 4) {
    ct = k_labels[sel % k_nlabels];
    if (sel >= k_nlabels * 2 && !ct.empty()) ct = "text/html; charset=\"" + ct + "\"";
  } else if (sel >= 0xF0) {  // the first bytes of the body as a raw Content-Type
    ct = std::string(body.substr(0, sel - 0xF0 + 1));
  }
  langsift::encoding_options opt;
  opt.content_type = ct;
  opt.max_detect_bytes = (sel & 1) ? 64 : 64 * 1024;

  langsift::decoded_text d = langsift::decode_to_utf8(body, opt);
  check(!d.encoding.name.empty());
  check(d.encoding.confidence >= 0.0f && d.encoding.confidence <= 1.0f);
  check(d.encoding.bom_bytes <= body.size());
  check(valid_utf8(d.text));
  check(d.conversion.replaced_bytes <= d.conversion.input_bytes);
  check(d.conversion.input_bytes == body.size() - d.encoding.bom_bytes || body.empty());
  check(d.conversion.output_bytes == d.text.size());
  check(langsift::canonical_encoding_name(d.encoding.name) == d.encoding.name);

  // Convert the body in every encoding named by the selector byte, one-shot vs streaming.
  const char* enc = k_labels[sel % k_nlabels];
  std::string whole;
  langsift::conversion_result one = langsift::convert_to_utf8(body, enc, whole);
  if (one.st != langsift::status::ok) return 0;
  check(valid_utf8(whole));
  check(one.replaced_bytes <= one.input_bytes && one.input_bytes == body.size());
  langsift::utf8_converter c;
  check(c.open(enc) == langsift::status::ok);
  std::size_t split = body.empty() ? 0 : split_seed % (body.size() + 1);
  std::size_t split2 = split + (body.size() - split) / 2;
  std::string streamed;
  auto a = c.convert(body.substr(0, split), false, streamed);
  auto b = c.convert(body.substr(split, split2 - split), false, streamed);
  auto e = c.convert(body.substr(split2), true, streamed);
  check(streamed == whole);
  check(a.replaced_bytes + b.replaced_bytes + e.replaced_bytes == one.replaced_bytes);
  // The <meta> prescan reads the first 1024 bytes only, and answers a canonical name, never one
  // WHATWG post-processes away (UTF-16 → UTF-8, x-user-defined → windows-1252).
  std::optional<std::string> meta = langsift::prescan_meta_charset(body);
  check(meta == langsift::prescan_meta_charset(body.substr(0, 1024)));
  if (meta) {
    check(!meta->empty() && langsift::canonical_encoding_name(*meta) == *meta);
    check(*meta != "utf-16le" && *meta != "utf-16be" && *meta != "x-user-defined");
  }
  langsift::content_type_charset(body.substr(0, 200));
  return 0;
}
