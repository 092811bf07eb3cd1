// Encoding detection: BOM → Content-Type → meta prescan → structure → uchardet → fallback.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <uchardet/uchardet.h>

#include "detect_parts.hpp"
#include "internal.hpp"
#include "langsift/detail/immortal.hpp"
#include "langsift/encoding.hpp"
#include "prescan.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

// ---------------------------------------------------------------------------------------------
// The decision's steps.

struct sample_facts {
  std::string_view sample;  // the examined prefix
  bool complete = false;    // the sample is the whole input
  utf8_stats utf8;
  bool has_nul = false;
  bool computed_wide = false;
  wide_guess wide;

  const wide_guess& wide_guess_() {
    if (!computed_wide) {
      computed_wide = true;
      // 4 KB of code units decide; more only costs time.
      const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
      const std::size_t m = std::min<std::size_t>(sample.size(), 4096);
      wide = guess_utf32(p, m);
      if (wide.name.empty()) wide = guess_utf16(p, m, complete && m == sample.size());
    }
    return wide;
  }
  bool utf8_valid_multibyte() const { return utf8.invalid == 0 && utf8.multibyte > 0; }
  bool ascii_only() const { return utf8.nonascii_bytes == 0; }
};

// More than a quarter of the first 64 bytes are C0 controls other than whitespace and ESC (UTF-16
// has them from its first unit on; a short look keeps 7-bit input fast).
bool mostly_controls(std::string_view sample) {
  const std::size_t n = std::min<std::size_t>(sample.size(), 64);
  std::size_t c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(sample[i]);
    c += b < 0x20 && (b < 0x09 || b > 0x0D) && b != 0x1B;
  }
  return n >= 8 && c * 4 > n;
}

float utf8_confidence(const utf8_stats& s) {
  if (s.multibyte >= 3) return 0.999f;
  if (s.multibyte == 2) return 0.99f;
  return 0.9f;
}

// True when the sample cannot be in the declared encoding (or very likely is not).
bool declared_impossible(const encoding_info& e, sample_facts& f) {
  if (f.sample.empty()) return false;
  switch (e.fam) {
    case family::unicode8:
      if (f.utf8.invalid == 0) return false;
      // A few stray bytes in a UTF-8 page are common; many mean another encoding.
      return f.utf8.invalid * 10 > f.utf8.multibyte;
    case family::unicode16:
    case family::unicode32: {
      // Declared UTF-16 but the bytes are 7-bit without NUL bytes: no UTF-16 text looks so.
      if (f.ascii_only() && !f.has_nul && f.sample.size() >= 16) return true;
      const wide_guess& w = f.wide_guess_();
      if (!w.name.empty() && w.name != e.name && w.nul_pattern) return true;  // other byte order
      if (f.utf8_valid_multibyte() && !f.has_nul) return true;
      return false;
    }
    case family::iso2022:
      // 7-bit encodings: any byte ≥ 0x80 is impossible.
      return !f.ascii_only();
    case family::single_byte: {
      if (f.ascii_only() && !f.has_nul) return false;
      if (f.utf8_valid_multibyte()) return true;  // valid multi-byte UTF-8 is not Latin-1 text
      if (f.has_nul && f.wide_guess_().nul_pattern) return true;
      decode_check d = check_decoding(f.sample, e);
      return d.ok && d.replaced * 8 > d.nonascii && d.replaced >= 2;
    }
    case family::cjk: {
      if (f.ascii_only() && !f.has_nul) return false;
      if (f.utf8_valid_multibyte() && f.utf8.multibyte >= 2) return true;
      if (f.has_nul && f.wide_guess_().nul_pattern) return true;
      decode_check d = check_decoding(f.sample, e);
      if (!d.ok) return false;
      return d.replaced * 20 > d.nonascii && d.replaced >= 2;
    }
    case family::other: return false;
  }
  return false;
}

// Preference between encodings that decode the sample identically: the more common one.
std::string_view prefer_equivalent(std::string_view name, std::string_view sample) {
  // ISO-8859-15 differs from windows-1252 at 8 bytes in A0..FF (and 80..9F are C1 controls).
  if (name == "iso-8859-15" && !has_any_byte(sample, "\xA4\xA6\xA8\xB4\xB8\xBC\xBD\xBE")) return "windows-1252";
  return name;
}

// The byte order mark at the start of p[0..n) and its length, or 0. FF FE 00 00 is UTF-32LE
// unless what follows is not UTF-32.
std::size_t byte_order_mark(const unsigned char* p, std::size_t n, std::string_view& name) {
  if (n >= 4 && p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0 &&
      (n == 4 || (n % 4 == 0 && utf32_valid(p + 4, std::min<std::size_t>(n - 4, 4096), false)))) {
    name = "utf-32le";
    return 4;
  }
  if (n >= 4 && p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF) {
    name = "utf-32be";
    return 4;
  }
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
    name = "utf-8";
    return 3;
  }
  if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
    name = "utf-16le";
    return 2;
  }
  if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF) {
    name = "utf-16be";
    return 2;
  }
  return 0;
}

// The result for a declared encoding that the sample does not contradict.
encoding_result& finish_declared(encoding_result& r, const encoding_info& e, encoding_source src,
                                 const sample_facts& f) {
  r.source = src;
  // "ascii" labels decode as windows-1252; name the bytes for what they are.
  r.name = (e.kind == codec::ascii && !f.ascii_only()) ? std::string_view("windows-1252") : e.name;
  if (f.ascii_only() && !f.has_nul && e.fam != family::unicode16 && e.fam != family::unicode32)
    r.confidence = 0.95f;  // any ASCII-compatible label reads 7-bit bytes the same way
  else if (e.fam == family::unicode8 && f.utf8.invalid == 0)
    r.confidence = 1.0f;
  else if (e.fam == family::cjk || e.fam == family::unicode8)
    r.confidence = 0.95f;  // decoded (nearly) cleanly
  else
    r.confidence = 0.9f;  // single-byte: bytes cannot confirm, declarations are usually right
  return r;
}

// Whether uchardet's answer d is plausible for the sample; sets the name to report (d's, or an
// equivalent or clearly better single-byte encoding) and its confidence.
bool check_detector_answer(const encoding_info& d, const sample_facts& f, std::string_view& name, float& conf) {
  name = d.name;
  conf = 0.5f;
  switch (d.fam) {
    case family::unicode8: return f.utf8.multibyte >= 2 * f.utf8.invalid && f.utf8.multibyte > 0;
    case family::unicode16:
    case family::unicode32: return false;  // no BOM and our own check said no
    case family::iso2022: conf = 0.9f; return f.ascii_only();
    case family::cjk: {
      decode_check c = check_decoding(f.sample, d);
      conf = c.nonascii >= 20 ? 0.8f : 0.6f;
      if (c.ok && c.nonascii < 256 && cjk_between_latin(f.sample, d)) return false;
      return !c.ok || c.replaced * 50 <= c.nonascii;
    }
    case family::single_byte: {
      if (d.kind == codec::ascii) return f.ascii_only();
      decode_check c = check_decoding(f.sample, d);
      conf = c.nonascii >= 20 ? 0.6f : 0.4f;
      name = prefer_equivalent(name, f.sample);
      if (const sbcs_table* t = get_sbcs_table(d)) {
        sb_plausibility mine = single_byte_plausibility(f.sample, *t);
        if (mine.bad_fraction() > 0.1) {
          // uchardet's answer makes poor words; take a clearly better single-byte encoding
          sb_choice b = best_single_byte(f.sample);
          if (!b.name.empty() && b.p.bad_fraction() <= 0.05 && b.p.score() > mine.score() + 0.2) {
            name = b.name;
            conf = 0.4f;
          }
        }
      }
      name = review_single_byte(f.sample, name, name != d.name);
      return !c.ok || c.replaced * 100 <= c.nonascii;
    }
    case family::other: break;
  }
  return true;
}

// Steps 2 and 3 of detect_encoding: the Content-Type charset (`http`, its encoding if known),
// then the <meta> / XML declaration prescan (if options.prescan_meta). Records the label in
// r.declared if none is yet, and r.declared_overridden when the bytes rule a label out. Returns
// true, with r finished, if a declared encoding is taken.
bool declared_encoding(std::string_view bytes, const encoding_options& options, const encoding_info* http,
                       sample_facts& f, encoding_result& r) {
  if (!r.declared.empty()) {
    if (http && !declared_impossible(*http, f)) {
      finish_declared(r, *http, encoding_source::http, f);
      return true;
    }
    r.declared_overridden = true;
  }
  if (options.prescan_meta) {
    prescan_result m = prescan(bytes);
    if (!m.encoding.empty()) {
      if (r.declared.empty()) r.declared = m.label;
      const encoding_info* e = find_encoding(m.encoding);
      if (e && !declared_impossible(*e, f)) {
        finish_declared(r, *e, encoding_source::meta, f);
        return true;
      }
      r.declared_overridden = true;
    } else if (!m.unknown_label.empty()) {
      if (r.declared.empty()) r.declared = m.unknown_label;
      r.declared_overridden = true;
    }
  }
  return false;
}

// Step 4 of detect_encoding, structure: UTF-32/UTF-16 without BOM, then UTF-8 and ASCII. Sets
// r's name and confidence and returns true if the structure decides.
bool structural_guess(sample_facts& f, encoding_result& r) {
  // (Valid multi-byte UTF-8 without NUL bytes is never UTF-16 text: skip the UTF-16 analysis.
  // 7-bit bytes are text unless a quarter of them are controls other than whitespace and ESC:
  // Thai or Lao in UTF-16 without spaces.)
  if (f.has_nul || (!f.ascii_only() && !f.utf8_valid_multibyte()) || (f.ascii_only() && mostly_controls(f.sample))) {
    const wide_guess& w = f.wide_guess_();
    if (!w.name.empty() && (w.nul_pattern || !f.utf8_valid_multibyte())) {
      r.name = w.name;
      r.confidence = w.confidence;
      return true;
    }
  }
  if (f.utf8_valid_multibyte()) {
    r.name = "utf-8";
    r.confidence = utf8_confidence(f.utf8);
    return true;
  }
  bool maybe_7bit_cjk = f.ascii_only() && (std::memchr(f.sample.data(), 0x1B, f.sample.size()) ||
                                           f.sample.find("~{") != std::string_view::npos);
  if (f.ascii_only() && !maybe_7bit_cjk) {
    r.name = "ascii";
    r.confidence = f.complete ? 1.0f : 0.6f;
    return true;
  }
  if (f.utf8.multibyte >= 8 && f.utf8.invalid * 20 <= f.utf8.multibyte) {
    r.name = "utf-8";  // UTF-8 with a few stray bytes
    r.confidence = 0.8f;
    return true;
  }
  return false;
}

// The bytes of the sample uchardet reads: up to its kUchardetHighBytes-th 8-bit byte. uchardet
// costs up to ~1,300 instructions a byte on single-byte pages (its probers model each script's
// languages: a 19 KB Greek page took 24.6 M instructions, a 30 KB UTF-8 page 6 M in all), and
// its evidence is the 8-bit bytes: 4,096 of them are twice the longest texts of the synthetic
// dev set (2,048 bytes in all, 99.8 % decoded identically). What a prefix cannot see, a byte
// that tells two code pages of one script apart coming late, the review reads: it scores the
// whole sample (up to 64 KB) and all its 8-bit bytes (single_byte_review.cpp). On 1,556 legacy
// texts of 8 and 32 KB (make-encoding-devset.py --lengths 8192,32768) this pair decodes 98.2 %
// identically where uchardet on the whole sample with the review on 16 KB gave 97.3 % (a second
// draw: 98.2 against 97.6 %), with no text lost (docs/encoding.md).
constexpr std::size_t kUchardetHighBytes = 4096;

std::size_t uchardet_prefix(std::string_view sample) noexcept {
  std::size_t high = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    high += static_cast<unsigned char>(sample[i]) >> 7;
    if (high == kUchardetHighBytes) return i + 1;
  }
  return sample.size();
}

// Steps 5 and 6 of detect_encoding: uchardet's answer (recorded in r.detector_answer) if the
// bytes make it plausible; else ASCII for 7-bit bytes; else the single-byte encoding that makes
// the best words, if it makes good ones. Sets r's name and confidence and returns true if one
// of them decides.
bool content_guess(const sample_facts& f, std::string_view fallback, encoding_result& r) {
  // 5. uchardet, checked against the bytes.
  r.detector_answer = run_uchardet(f.sample.data(), uchardet_prefix(f.sample));
  const encoding_info* d = find_encoding(r.detector_answer);
  std::string_view name;
  float conf;
  if (d && check_detector_answer(*d, f, name, conf)) {
    r.name = name;
    r.confidence = conf;
    return true;
  }
  if (f.ascii_only()) {
    r.name = "ascii";
    r.confidence = f.complete ? 1.0f : 0.6f;
    return true;
  }
  // 6. No plausible answer from uchardet: the single-byte encoding that makes the best words.
  if (!f.has_nul) {
    sb_choice b = best_single_byte(f.sample);
    if (!b.name.empty() && b.p.nonascii >= 8 && b.p.bad_fraction() <= 0.05 && b.p.score() >= 0.5) {
      r.name = review_single_byte(f.sample, b.name, true);
      r.confidence = 0.3f;
      return true;
    }
    // Too few 8-bit bytes to make words of (a short text): a page whose letters and pairs a
    // language writes clearly better than the fallback's reading (when that is windows-1252).
    std::string_view fb = canonical_encoding_name(fallback);
    if (fb.empty() || fb == "windows-1252") {
      std::string_view reviewed = review_single_byte(f.sample, "windows-1252", true);
      if (reviewed != "windows-1252") {
        r.name = reviewed;
        r.confidence = 0.2f;
        return true;
      }
    }
  }
  return false;
}

}  // namespace
}  // namespace detail

using namespace detail;

encoding_result detect_encoding(std::string_view bytes, const encoding_options& options) {
  encoding_result r;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();

  // 0. The declared labels (kept even when a BOM decides).
  std::string_view http_label = content_type_charset(options.content_type);
  const encoding_info* http = http_label.empty() ? nullptr : find_encoding(http_label);
  if (!http_label.empty()) r.declared.assign(http_label.data(), http_label.size());

  // 1. Byte order mark.
  std::string_view bom_name;
  if (const std::size_t bom = byte_order_mark(p, n, bom_name)) {
    r.name = bom_name;
    r.source = encoding_source::bom;
    r.confidence = 1.0f;
    r.bom_bytes = bom;
    r.declared_overridden = !r.declared.empty() && (!http || http->name != bom_name);
    return r;
  }

  const std::size_t cap = options.max_detect_bytes ? options.max_detect_bytes : n;
  sample_facts f;
  f.sample = bytes.substr(0, std::min(n, cap));
  f.complete = f.sample.size() == n;
  f.utf8 = scan_utf8(p, f.sample.size());
  r.whole_valid_utf8 = f.complete && f.utf8.invalid == 0 && !f.utf8.incomplete_tail;
  f.has_nul = !f.sample.empty() && std::memchr(f.sample.data(), 0, f.sample.size()) != nullptr;
  r.examined_bytes = f.sample.size();

  if (n == 0) {
    std::string_view fb = canonical_encoding_name(options.fallback);
    if (http) return finish_declared(r, *http, encoding_source::http, f);
    r.name = fb.empty() ? std::string_view("windows-1252") : fb;
    r.source = encoding_source::fallback;
    r.confidence = 0.0f;
    r.declared_overridden = !r.declared.empty();
    return r;
  }

  // 2. Content-Type charset; 3. <meta> / XML declaration prescan.
  if (declared_encoding(bytes, options, http, f, r)) return r;
  // 4. Structure; 5. uchardet, checked against the bytes; 6. the best single-byte encoding.
  r.source = encoding_source::detected;
  if (structural_guess(f, r) || content_guess(f, options.fallback, r)) return r;
  // 7. Fallback.
  std::string_view fb = canonical_encoding_name(options.fallback);
  r.name = fb.empty() ? std::string_view("windows-1252") : fb;
  r.source = encoding_source::fallback;
  r.confidence = 0.1f;
  return r;
}

encoding_result detect_encoding(const char* data, std::size_t len, const encoding_options& options) {
  if (!data) len = 0;
  return detect_encoding(std::string_view(data ? data : "", len), options);
}

decoded_text decode_to_utf8(std::string_view bytes, const encoding_options& options) {
  decoded_text d;
  d.encoding = detect_encoding(bytes, options);
  if (bytes.empty()) {
    d.conversion.st = status::empty_input;
    return d;
  }
  std::string_view body = bytes.substr(std::min(d.encoding.bom_bytes, bytes.size()));
  if (d.encoding.whole_valid_utf8 && d.encoding.name == "utf-8") {  // checked whole already: a copy
    d.text.assign(body.data(), body.size());
    d.conversion.input_bytes = d.conversion.output_bytes = body.size();
    return d;
  }
  d.text.reserve(body.size() + body.size() / 8 + 16);
  d.conversion = convert_to_utf8(body, d.encoding.name, d.text);
  if (d.conversion.st == status::unknown_encoding) {
    std::string_view fb = canonical_encoding_name(options.fallback);
    if (fb.empty() || !can_convert(fb)) fb = "windows-1252";
    d.text.clear();
    conversion_result c = convert_to_utf8(body, fb, d.text);
    d.conversion.input_bytes = c.input_bytes;
    d.conversion.output_bytes = c.output_bytes;
    d.conversion.replaced_bytes = c.replaced_bytes;
  }
  if (d.conversion.st == status::out_of_memory) throw std::bad_alloc();
  return d;
}

std::string uchardet_charset(std::string_view bytes) { return run_uchardet(bytes.data(), bytes.size()); }

decoded_text decode_to_utf8(const char* data, std::size_t len, const encoding_options& options) {
  if (!data) len = 0;
  return decode_to_utf8(std::string_view(data ? data : "", len), options);
}

}  // namespace v1
}  // namespace langsift
