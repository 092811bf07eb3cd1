// JSON output shared by the command-line tools (`langsift detect --format jsonl`, `langsift warc`)
// and the WARC report (langsift/warc_report.hpp), so that the same result has the same field names
// in both. The Python package builds its dicts itself (bindings/python/src/results.cpp,
// detection_dict) with the same names: its tests compare them with the CLI's JSON.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>  // SSE2: the x86-64 baseline, so no run-time choice is needed
#endif

#include "langsift/detector.hpp"
#include "langsift/language_codes.hpp"

namespace langsift::detail::json {

/// The first index from `i` on of a byte JSON escapes (a quote, a backslash, a control
/// character), or s.size(). Sixteen bytes at a time where SSE2 is there (page texts are long).
inline std::size_t next_escape(std::string_view s, std::size_t i) noexcept {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), controls = _mm_set1_epi8(0x1F);
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, controls), x),  // x <= 0x1F
                                     _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    if (const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(hit))) return i + static_cast<std::size_t>(std::countr_zero(m));
  }
#endif
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return i;
  }
  return s.size();
}

/// Appends `s` as a JSON string. Bytes are copied as they are (the tools' strings are UTF-8);
/// quotes, backslashes and control characters are escaped.
inline void string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;  // bytes from here on are copied as they are, in one append (texts are long)
  for (std::size_t i = next_escape(s, 0); i < s.size(); i = next_escape(s, i + 1)) {
    const auto c = static_cast<unsigned char>(s[i]);
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

/// Appends `s` as a JSON string with every byte sequence that is not valid UTF-8 replaced by
/// U+FFFD, for strings taken from input (URLs, header values), so that every line is valid JSON.
inline void utf8_string(std::string& out, std::string_view s) {
  std::string clean;
  clean.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok && len > 1) {  // overlong forms, surrogates, > U+10FFFF
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      if (len == 2) ok = c >= 0xc2;
      else if (len == 3) ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
      else ok = c <= 0xf4 && !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    if (ok) {
      clean.append(s.data() + i, len);
      i += len;
    } else {
      clean += "\xef\xbf\xbd";
      ++i;
    }
  }
  string(out, clean);
}

/// `"name":` (the name needs no escaping).
inline void key(std::string& out, std::string_view name) {
  out += '"';
  out += name;
  out += "\":";
}

inline void boolean(std::string& out, bool b) { out += b ? "true" : "false"; }

/// A language code as a JSON string, in the form `codes`.
inline void code(std::string& out, std::string_view c, code_style codes) {
  if (codes == code_style::iso639_1) string(out, c);
  else string(out, to_iso639_3(c));
}

/// The fields of a detection, as `langsift detect --format jsonl` writes them (no braces):
/// "language", "languages" [{code, percent, bytes, score}], "text_bytes", "reliable", "short",
/// "confidence", and "sampled" / "status" when they say something. Codes in the form `codes`.
inline void detection_fields(std::string& out, const langsift::detection& d, code_style codes = code_style::iso639_1) {
  out += "\"language\":";
  code(out, d.language(), codes);
  out += ",\"languages\":[";
  for (std::size_t i = 0; i < d.count; ++i) {
    if (i) out += ',';
    out += "{\"code\":";
    code(out, d.languages[i].code, codes);
    char buf[96];
    std::snprintf(buf, sizeof buf, ",\"percent\":%d,\"bytes\":%zu,\"score\":%.3f}", d.languages[i].percent,
                  d.languages[i].bytes, d.languages[i].score);
    out += buf;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "],\"text_bytes\":%zu,\"reliable\":%s,\"short\":%s,\"confidence\":%.3f",
                d.text_bytes, d.reliable ? "true" : "false", d.is_short ? "true" : "false", d.confidence);
  out += buf;
  if (d.sampled) out += ",\"sampled\":true";
  if (d.st != langsift::status::ok) {
    out += ",\"status\":";
    string(out, langsift::status_name(d.st));
  }
}

/// `,"probabilities":[["de",0.9712],["nl",0.0213]]`: detection::probabilities (code, p), most
/// probable first (`langsift detect --top-k`); p with 4 significant digits.
inline void probabilities_field(std::string& out, const langsift::detection& d, code_style codes = code_style::iso639_1) {
  out += ",\"probabilities\":[";
  for (std::size_t i = 0; i < d.probability_count; ++i) {
    if (i) out += ',';
    out += '[';
    code(out, d.probabilities[i].code, codes);
    char buf[32];
    std::snprintf(buf, sizeof buf, ",%.4g]", static_cast<double>(d.probabilities[i].p));
    out += buf;
  }
  out += ']';
}

}  // namespace langsift::detail::json
