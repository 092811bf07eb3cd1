// langsift — implementation of langsift/punycode.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/punycode.hpp"
#include "langsift/detail/ascii.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

LANGSIFT_INLINE std::size_t punycode_decode_cps(std::string_view in, char32_t* cps, std::size_t cap) noexcept {
  constexpr std::size_t fail = static_cast<std::size_t>(-1);
  std::size_t n_out = 0;
  const std::size_t last_dash = in.rfind('-');
  std::size_t pos = 0;
  // RFC 3492 6.2: copy the code points before the last delimiter, and consume the delimiter only
  // when there were some ("-abc" has no basic part: its '-' is then read, and refused, as a digit).
  if (last_dash != std::string_view::npos && last_dash > 0) {
    if (last_dash > cap) return fail;
    for (std::size_t i = 0; i < last_dash; ++i) {
      const unsigned char c = static_cast<unsigned char>(in[i]);
      if (c >= 0x80) return fail;
      cps[n_out++] = c;
    }
    pos = last_dash + 1;
  }
  std::uint32_t n = kPunyInitialN, bias = kPunyInitialBias, i = 0;
  while (pos < in.size()) {
    const std::uint32_t oldi = i;
    std::uint32_t w = 1;
    for (std::uint32_t k = kPunyBase;; k += kPunyBase) {
      if (pos >= in.size()) return fail;
      const std::uint32_t digit = puny_digit_value(in[pos++]);
      if (digit >= kPunyBase) return fail;
      if (digit > (0xFFFFFFFFu - i) / w) return fail;
      i += digit * w;
      const std::uint32_t t = k <= bias ? kPunyTMin : (k >= bias + kPunyTMax ? kPunyTMax : k - bias);
      if (digit < t) break;
      if (w > 0xFFFFFFFFu / (kPunyBase - t)) return fail;
      w *= kPunyBase - t;
    }
    const std::uint32_t count = static_cast<std::uint32_t>(n_out + 1);
    bias = puny_adapt(i - oldi, count, oldi == 0);
    if (i / count > 0x10FFFFu - n) return fail;
    n += i / count;
    i %= count;
    if (n < 0x80 || n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) return fail;
    if (n_out >= cap) return fail;
    for (std::size_t j = n_out; j > i; --j) cps[j] = cps[j - 1];
    cps[i] = n;
    ++n_out;
    ++i;
  }
  return n_out;
}

LANGSIFT_INLINE bool punycode_encode_cps(const char32_t* cps, std::size_t len, std::string& out) {
  std::string r;
  for (std::size_t j = 0; j < len; ++j)
    if (cps[j] < 0x80) r += static_cast<char>(cps[j]);
  const std::size_t b = r.size();
  std::size_t h = b;
  if (b > 0) r += '-';
  constexpr std::uint64_t kMax = 0xFFFFFFFFu;
  std::uint64_t n = kPunyInitialN, delta = 0;
  std::uint32_t bias = kPunyInitialBias;
  while (h < len) {
    std::uint64_t m = 0x10FFFF + 1;
    for (std::size_t j = 0; j < len; ++j)
      if (cps[j] >= n && cps[j] < m) m = cps[j];
    if (m > 0x10FFFF) return false;  // not a code point
    if ((m - n) > (kMax - delta) / (h + 1)) return false;
    delta += (m - n) * (h + 1);
    n = m;
    for (std::size_t j = 0; j < len; ++j) {
      if (cps[j] < n && ++delta > kMax) return false;
      if (cps[j] == n) {
        std::uint64_t q = delta;
        for (std::uint32_t k = kPunyBase;; k += kPunyBase) {
          const std::uint32_t t = k <= bias ? kPunyTMin : (k >= bias + kPunyTMax ? kPunyTMax : k - bias);
          if (q < t) break;
          r += puny_digit_char(static_cast<std::uint32_t>(t + (q - t) % (kPunyBase - t)));
          q = (q - t) / (kPunyBase - t);
        }
        r += puny_digit_char(static_cast<std::uint32_t>(q));
        bias = puny_adapt(static_cast<std::uint32_t>(delta), static_cast<std::uint32_t>(h + 1), h == b);
        delta = 0;
        ++h;
      }
    }
    ++delta;
    ++n;
  }
  out += r;
  return true;
}

}  // namespace detail

LANGSIFT_INLINE bool punycode_decode(std::string_view in, std::string& out) {
  char32_t cps[detail::kPunyMaxOutput];
  const std::size_t n = detail::punycode_decode_cps(in, cps, detail::kPunyMaxOutput);
  if (n == static_cast<std::size_t>(-1)) return false;
  for (std::size_t j = 0; j < n; ++j) detail::append_utf8(out, cps[j]);
  return true;
}

LANGSIFT_INLINE bool punycode_encode(std::string_view utf8, std::string& out) {
  if (!is_valid_utf8(utf8)) return false;
  char32_t cps[detail::kPunyMaxOutput];
  std::size_t len = 0;
  for (const char *p = utf8.data(), *e = p + utf8.size(); p < e;) {
    if (len >= detail::kPunyMaxOutput) return false;
    cps[len++] = ::langsift::decode_utf8(p, e);
  }
  return detail::punycode_encode_cps(cps, len, out);
}

LANGSIFT_INLINE std::size_t idn_to_unicode(std::string_view host, std::string& out) {
  out.clear();
  // fast path: no "xn--" label. Most hosts have no '-' at all: memchr for the "--".
  bool ace_any = false;
  for (std::size_t k = host.find('-', 2); k != std::string_view::npos && k + 1 < host.size();
       k = host.find('-', k + 1))
    if (host[k + 1] == '-' && (host[k - 2] | 0x20) == 'x' && (host[k - 1] | 0x20) == 'n' &&
        (k == 2 || host[k - 3] == '.')) {
      ace_any = true;
      break;
    }
  if (!ace_any) {
    out.assign(host);
    for (char& c : out) c = detail::ascii_lower(c);  // a store per byte, which the compiler vectorises
    return 0;
  }
  std::size_t decoded = 0, start = 0;
  while (start <= host.size()) {
    std::size_t dot = host.find('.', start);
    if (dot == std::string_view::npos) dot = host.size();
    const std::string_view label = host.substr(start, dot - start);
    const bool ace = label.size() > 4 && (label[0] == 'x' || label[0] == 'X') &&
                     (label[1] == 'n' || label[1] == 'N') && label[2] == '-' && label[3] == '-';
    const std::size_t before = out.size();
    char low[64];
    const bool fits = ace && label.size() - 4 <= sizeof low;
    if (fits)
      for (std::size_t i = 4; i < label.size(); ++i) low[i - 4] = detail::ascii_lower(label[i]);
    if (fits && punycode_decode(std::string_view(low, label.size() - 4), out) && out.size() > before) {
      ++decoded;
    } else {
      out.resize(before);
      for (char c : label) out += detail::ascii_lower(c);
    }
    if (dot == host.size()) break;
    out += '.';
    start = dot + 1;
  }
  return decoded;
}

}  // namespace v1
}  // namespace langsift
