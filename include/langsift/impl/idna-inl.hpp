// langsift — implementation of langsift/idna.hpp (compiled into langsift::core, or included by the
// header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include "langsift/idna.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"

#include "langsift/detail/idna_tables.inc"

namespace langsift {
inline namespace v1 {
namespace detail {

#ifndef LANGSIFT_IDNA_GENERATOR  // the generator builds on a stale table, and reports this itself
static_assert(std::string_view(LANGSIFT_IDNA_UNICODE_VERSION) == std::string_view(LANGSIFT_UNICODE_VERSION),
              "idna_tables.inc and unicode_tables.inc must come from the same Unicode version");
#endif

constexpr std::size_t kIdnaMaxLabel = 4096;

/// The property word of cp (see idna_range_props).
inline std::uint16_t idna_props(char32_t cp) noexcept {
  if (cp > 0x10FFFF) cp = 0xFFFD;
  const std::uint32_t* b = idna_range_starts;
  const std::uint32_t* e = b + std::size(idna_range_starts);
  const std::uint32_t* it = std::upper_bound(b, e, static_cast<std::uint32_t>(cp));
  return idna_range_props[static_cast<std::size_t>(it - b) - 1];
}
inline idna_status idna_status_of(std::uint16_t p) noexcept { return static_cast<idna_status>(p & 3); }
inline idna_bidi idna_bidi_of(std::uint16_t p) noexcept { return static_cast<idna_bidi>((p >> 3) & 31); }
inline idna_joining idna_joining_of(std::uint16_t p) noexcept { return static_cast<idna_joining>((p >> 8) & 7); }
inline bool idna_is_mark(std::uint16_t p) noexcept { return (p >> 11) & 1; }

/// Appends cp's expansion (its mapping, or its own canonical decomposition when valid) to s.
inline void idna_append_expansion(char32_t cp, std::u32string& s) {
  const std::uint32_t* b = idna_expansion_cps;
  const std::uint32_t* e = b + std::size(idna_expansion_cps);
  const std::uint32_t* it = std::lower_bound(b, e, static_cast<std::uint32_t>(cp));
  if (it == e || *it != cp) {  // not reached: the property word said there is one
    s.push_back(cp);
    return;
  }
  const std::uint32_t ref = idna_expansion_refs[it - b];
  s.append(idna_expansion_pool + (ref >> 5), ref & 31);
}

/// Canonical ordering and composition (UAX #15) of s[from..), whose non-Hangul code points are
/// fully decomposed: NFC.
LANGSIFT_INLINE void idna_compose(std::u32string& s, std::size_t from) {
  // Reorder runs of non-starters by combining class (stable).
  for (std::size_t i = from; i < s.size();) {
    if (combining_class(s[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && combining_class(s[j]) != 0) ++j;
    if (j - i <= 32) {  // insertion sort (stable) of a short run, the usual case
      for (std::size_t k = i + 1; k < j; ++k) {
        const char32_t c = s[k];
        const std::uint8_t cc = combining_class(c);
        std::size_t m = k;
        for (; m > i && combining_class(s[m - 1]) > cc; --m) s[m] = s[m - 1];
        s[m] = c;
      }
    } else {  // counting sort (stable), linear however long the run
      std::size_t start[257] = {};
      for (std::size_t k = i; k < j; ++k) ++start[combining_class(s[k]) + 1];
      for (std::size_t c = 1; c < 257; ++c) start[c] += start[c - 1];
      std::u32string t(j - i, 0);
      for (std::size_t k = i; k < j; ++k) t[start[combining_class(s[k])]++] = s[k];
      std::copy(t.begin(), t.end(), s.begin() + static_cast<std::ptrdiff_t>(i));
    }
    i = j;
  }
  if (s.size() - from < 2) return;
  std::size_t starter = from, out = from + 1;
  int last_class = combining_class(s[from]) == 0 ? 0 : 256;
  for (std::size_t i = from + 1; i < s.size(); ++i) {
    const char32_t ch = s[i];
    const int cls = combining_class(ch);
    if (last_class < cls || last_class == 0) {
      if (last_class != 256) {
        if (const char32_t c = compose_pair(s[starter], ch)) {
          s[starter] = c;
          continue;
        }
      }
    }
    if (cls == 0) starter = out;
    last_class = cls;
    s[out++] = ch;
  }
  s.resize(out);
}

/// NFC of a label of valid code points (V1 check of decoded labels).
inline bool idna_is_nfc(std::u32string_view label) {
  std::u32string t;
  for (char32_t c : label) {
    if (c >= 0x80 && (idna_props(c) & 4)) idna_append_expansion(c, t);
    else t.push_back(c);
  }
  idna_compose(t, 0);
  return t == label;
}

/// The RFC 5893 section 2 rules for one (non-empty) label of a Bidi domain name.
LANGSIFT_INLINE bool idna_bidi_ok(std::u32string_view l) {
  using B = idna_bidi;
  const B first = idna_bidi_of(idna_props(l[0]));
  if (first != B::L && first != B::R && first != B::AL) return false;  // rule 1
  const bool rtl = first != B::L;
  bool en = false, an = false;
  B last = first;
  for (char32_t c : l) {
    const B b = idna_bidi_of(idna_props(c));
    if (rtl) {  // rule 2
      if (!(b == B::R || b == B::AL || b == B::AN || b == B::EN || b == B::ES || b == B::CS || b == B::ET ||
            b == B::ON || b == B::BN || b == B::NSM))
        return false;
    } else {  // rule 5
      if (!(b == B::L || b == B::EN || b == B::ES || b == B::CS || b == B::ET || b == B::ON || b == B::BN ||
            b == B::NSM))
        return false;
    }
    en |= b == B::EN;
    an |= b == B::AN;
    if (b != B::NSM) last = b;
  }
  if (rtl) return (last == B::R || last == B::AL || last == B::EN || last == B::AN) && !(en && an);  // rules 3, 4
  return last == B::L || last == B::EN;                                                              // rule 6
}

/// The ContextJ rules (RFC 5892 appendix A.1, A.2) for the joiner at l[i].
LANGSIFT_INLINE bool idna_joiner_ok(std::u32string_view l, std::size_t i) {
  if (i > 0 && combining_class(l[i - 1]) == 9) return true;  // after a virama
  if (l[i] == 0x200D) return false;
  // ZWNJ: (Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D})
  using J = idna_joining;
  std::size_t k = i;
  J left = J::U;
  while (k > 0) {
    left = idna_joining_of(idna_props(l[--k]));
    if (left != J::T) break;
  }
  if (left != J::L && left != J::D) return false;
  J right = J::U;
  for (k = i + 1; k < l.size(); ++k) {
    right = idna_joining_of(idna_props(l[k]));
    if (right != J::T) break;
  }
  return right == J::R || right == J::D;
}

/// Validity criteria (UTS #46 4.1) of one label, except Bidi (a property of the whole domain).
LANGSIFT_INLINE std::uint32_t idna_validate(std::u32string_view l, bool decoded, const idna_options& o) {
  if (l.empty()) return 0;
  std::uint32_t err = 0;
  if (o.check_hyphens) {
    if (l.size() >= 4 && l[2] == '-' && l[3] == '-') err |= idna_error_hyphen_3_4;
    if (l.front() == '-' || l.back() == '-') err |= idna_error_hyphen_edge;
  }
  if (l.size() >= 4 && l[0] == 'x' && l[1] == 'n' && l[2] == '-' && l[3] == '-') err |= idna_error_ace_prefix;
  bool all_valid = true;
  for (std::size_t i = 0; i < l.size(); ++i) {
    const char32_t c = l[i];
    if (c < 0x80) {
      if (c == '.' || (c >= 'A' && c <= 'Z')) all_valid = false;  // V5; upper case only in decoded labels
      if (o.use_std3_ascii_rules && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
        err |= idna_error_std3;
      continue;
    }
    const std::uint16_t p = idna_props(c);
    if (i == 0 && idna_is_mark(p)) err |= idna_error_leading_mark;
    if (idna_status_of(p) != idna_status::valid) all_valid = false;
    if ((c == 0x200C || c == 0x200D) && o.check_joiners && !idna_joiner_ok(l, i)) err |= idna_error_contextj;
  }
  if (!all_valid) err |= idna_error_disallowed;
  else if (decoded && !idna_is_nfc(l)) err |= idna_error_not_nfc;
  return err;
}

/// UTS #46 section 4 Processing of `domain` into `s` (labels separated by '.'), returning the
/// errors.
LANGSIFT_INLINE std::uint32_t idna_process(std::string_view domain, const idna_options& o, std::u32string& s) {
  s.clear();
  s.reserve(domain.size());
  bool non_ascii = false;
  // 1. Map.
  for (const char *p = domain.data(), *e = p + domain.size(); p < e;) {
    const char32_t c = ::langsift::decode_utf8(p, e);
    if (c < 0x80) {
      s.push_back(static_cast<unsigned char>(detail::ascii_lower(static_cast<char>(c))));
      continue;
    }
    non_ascii = true;
    const std::uint16_t pr = idna_props(c);
    if (pr & 4) idna_append_expansion(c, s);
    else s.push_back(c);
  }
  // 2. Normalise.
  if (non_ascii) idna_compose(s, 0);
  // 3., 4. Break into labels; convert and validate.
  std::uint32_t err = 0;
  bool bidi_domain = false;
  std::u32string out;
  out.reserve(s.size());
  std::u32string_view rest(s);
  std::u32string buf;
  for (;;) {
    const std::size_t dot = rest.find(U'.');
    const std::u32string_view label = rest.substr(0, dot);
    const std::size_t begin = out.size();
    if (label.size() >= 4 && label[0] == 'x' && label[1] == 'n' && label[2] == '-' && label[3] == '-') {
      std::string ascii;
      bool ok = label.size() - 4 <= kIdnaMaxLabel;
      for (std::size_t i = 4; ok && i < label.size(); ++i) {
        if (label[i] >= 0x80) ok = false;
        else ascii.push_back(static_cast<char>(label[i]));
      }
      std::size_t n = static_cast<std::size_t>(-1);
      if (ok) {
        buf.resize(ascii.size());  // a code point takes at least one byte
        n = punycode_decode_cps(ascii, buf.data(), buf.size());
      }
      if (n == static_cast<std::size_t>(-1)) {
        err |= idna_error_punycode;
        out.append(label);
      } else {
        out.append(buf.data(), n);
        const std::u32string_view d(out.data() + begin, n);
        if (std::all_of(d.begin(), d.end(), [](char32_t c) { return c < 0x80; })) err |= idna_error_punycode;
        err |= idna_validate(d, true, o);
      }
    } else {
      out.append(label);
      err |= idna_validate(label, false, o);
    }
    if (o.check_bidi && !bidi_domain)
      for (std::size_t i = begin; i < out.size(); ++i) {
        if (out[i] < 0x0590) continue;
        const idna_bidi b = idna_bidi_of(idna_props(out[i]));
        if (b == idna_bidi::R || b == idna_bidi::AL || b == idna_bidi::AN) {
          bidi_domain = true;
          break;
        }
      }
    if (dot == std::u32string_view::npos) break;
    out.push_back(U'.');
    rest.remove_prefix(dot + 1);
  }
  if (bidi_domain) {
    std::u32string_view all(out);
    for (;;) {
      const std::size_t dot = all.find(U'.');
      const std::u32string_view label = all.substr(0, dot);
      if (!label.empty() && !idna_bidi_ok(label)) err |= idna_error_bidi;
      if (dot == std::u32string_view::npos) break;
      all.remove_prefix(dot + 1);
    }
  }
  s.swap(out);
  return err;
}

}  // namespace detail

LANGSIFT_INLINE std::uint32_t idna_to_ascii(std::string_view domain, std::string& out, const idna_options& o) {
  out.clear();
  std::u32string s;
  std::uint32_t err = detail::idna_process(domain, o, s);
  std::u32string_view rest(s);
  std::size_t root = 0;
  for (;;) {
    const std::size_t dot = rest.find(U'.');
    const std::u32string_view label = rest.substr(0, dot);
    const std::size_t begin = out.size();
    if (std::all_of(label.begin(), label.end(), [](char32_t c) { return c < 0x80; })) {
      for (char32_t c : label) out.push_back(static_cast<char>(c));
    } else {
      out += "xn--";
      if (label.size() > detail::kIdnaMaxLabel || !detail::punycode_encode_cps(label.data(), label.size(), out)) {
        err |= idna_error_punycode_encode;
      }
    }
    const bool last = dot == std::u32string_view::npos;
    if (o.verify_dns_length) {
      // Every label 1..63 bytes, also the root label of "example.com." (IdnaTestV2 17.0: A4_2);
      // the domain 1..253 bytes without the root label's dot.
      const std::size_t len = out.size() - begin;
      if (len < 1 || len > 63) err |= idna_error_label_length;
      if (last && len == 0 && begin > 0) root = 1;
    }
    if (last) break;
    out.push_back('.');
    rest.remove_prefix(dot + 1);
  }
  if (o.verify_dns_length) {
    const std::size_t len = out.size() - root;
    if (len < 1 || len > 253) err |= idna_error_domain_length;
  }
  return err;
}

LANGSIFT_INLINE std::uint32_t idna_to_unicode(std::string_view domain, std::string& out, const idna_options& o) {
  out.clear();
  std::u32string s;
  const std::uint32_t err = detail::idna_process(domain, o, s);
  out.reserve(s.size());
  for (char32_t c : s) detail::append_utf8(out, c);
  return err;
}

}  // namespace v1
}  // namespace langsift
