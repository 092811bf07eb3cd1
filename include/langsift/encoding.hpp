// langsift::encoding — from HTTP body bytes to UTF-8.
//
// Input: the raw bytes of a response body, plus the Content-Type header value if there is one.
// Output: the encoding (which source decided it, how sure we are) and the text as UTF-8.
//
//   auto d = langsift::decode_to_utf8(body, {.content_type = "text/html; charset=Shift_JIS"});
//   d.encoding.name        // "shift_jis"
//   d.encoding.source      // encoding_source::http
//   d.text                 // UTF-8, BOM stripped, bad sequences replaced by U+FFFD
//
// Sniffing order (WHATWG "encoding sniffing algorithm", then statistics): byte order mark →
// charset of the caller's Content-Type → <meta> prescan of the first 1024 bytes (and an XML
// declaration) → structural checks (ASCII, valid UTF-8, UTF-16/32 without BOM) → uchardet →
// fallback. A declared charset the bytes cannot be in is overridden, and the result says so.
// See docs/encoding.md for the rules and measured accuracy.
//
// Link target: langsift::encoding (ICU + uchardet). This header includes neither.
// Thread safety: every function is reentrant; a utf8_converter object is used by one thread at
// a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "langsift/common.hpp"

// Symbols of the compiled langsift::encoding library (built with hidden visibility).
#if defined(_WIN32)
#define LANGSIFT_ENCODING_API
#elif defined(__GNUC__) || defined(__clang__)
#define LANGSIFT_ENCODING_API __attribute__((visibility("default")))
#else
#define LANGSIFT_ENCODING_API
#endif

namespace langsift {
inline namespace v1 {

/// Which step of the sniffing order decided the encoding.
enum class encoding_source : std::uint8_t {
  bom,       ///< a byte order mark at the start of the input
  http,      ///< the charset parameter of the caller's Content-Type
  meta,      ///< <meta charset>, <meta http-equiv=content-type> or <?xml encoding=?> prescan
  detected,  ///< the bytes themselves: ASCII/UTF-8/UTF-16/UTF-32 structure, or uchardet
  fallback,  ///< nothing decided; encoding_options::fallback was used
};

/// "bom", "http", "meta", "detected", "default".
constexpr std::string_view encoding_source_name(encoding_source s) noexcept {
  switch (s) {
    case encoding_source::bom: return "bom";
    case encoding_source::http: return "http";
    case encoding_source::meta: return "meta";
    case encoding_source::detected: return "detected";
    case encoding_source::fallback: return "default";
  }
  return "default";
}

struct encoding_options {
  /// HTTP Content-Type value ("text/html; charset=Shift_JIS") or a bare label ("Shift_JIS");
  /// empty = none.
  std::string_view content_type;
  /// Cap on the bytes examined for detection (meta prescan always looks at 1024 bytes at most).
  /// Cost of detection is linear in min(input, cap). 0 means "no cap".
  std::size_t max_detect_bytes = 64 * 1024;
  /// Encoding used when nothing decides (WHATWG default for an unknown locale). An unknown
  /// label here means windows-1252.
  std::string_view fallback = "windows-1252";
  /// Consult the <meta>/XML-declaration prescan (turn off for non-HTML bodies).
  bool prescan_meta = true;
};

struct encoding_result {
  /// Canonical lowercase name: the WHATWG encoding name where one exists ("utf-8",
  /// "windows-1252", "shift_jis", "euc-kr", "utf-16le", ...), else the IANA/ICU name in
  /// lowercase ("ibm852", "x-mac-ce", "utf-32le", ...). Special: "ascii" when the examined
  /// bytes were all 7-bit (converts exactly like windows-1252, see docs/encoding.md).
  std::string name;
  encoding_source source = encoding_source::fallback;
  /// 0..1, how likely decoding with `name` gives the intended text — tiers, not a calibrated
  /// probability (docs/encoding.md lists them): 1.0 BOM, valid UTF-8 confirming a declaration,
  /// or 7-bit input examined whole; 0.9..0.999 structural detection (UTF-8, UTF-16/32) and
  /// accepted declarations; 0.3..0.8 statistical answers (uchardet, the single-byte search);
  /// 0.1 fallback; 0 empty input.
  float confidence = 0.0f;
  /// Length of a byte order mark at the start (skip it before converting), 0 if none.
  std::size_t bom_bytes = 0;
  /// The declared label (Content-Type charset, else meta/XML) as found; empty if none.
  std::string declared;
  /// A declared charset was rejected: the label is unknown, or the bytes cannot be in it.
  bool declared_overridden = false;
  /// uchardet's raw answer when uchardet was consulted (may be empty), else empty.
  std::string detector_answer;
  /// Bytes examined by detection: min(input, max_detect_bytes) (0 when a BOM decided).
  std::size_t examined_bytes = 0;
  /// The examined bytes were the whole input, without a BOM, and they are well-formed UTF-8
  /// (7-bit input included): converting it to UTF-8 needs no second check.
  bool whole_valid_utf8 = false;
};

/// Runs the sniffing order on `data` (never needs NUL termination). Only std::bad_alloc escapes.
LANGSIFT_ENCODING_API encoding_result detect_encoding(const char* data, std::size_t len, const encoding_options& options = {});
LANGSIFT_ENCODING_API encoding_result detect_encoding(std::string_view bytes, const encoding_options& options = {});

/// Maps a label (case-insensitive, ASCII whitespace trimmed) to a canonical name: every label
/// of the WHATWG Encoding Standard; also uchardet's and common IANA/ICU names ("UHC" →
/// "euc-kr", "IBM852" → "ibm852", "MAC-CENTRALEUROPE" → "x-mac-ce"). Returns "" if unknown.
/// Deviations from WHATWG: the ASCII labels give "ascii" (decodes as windows-1252), and the
/// labels WHATWG maps to "replacement" (iso-2022-kr, iso-2022-cn, hz-gb-2312) keep their own
/// names so their text can be decoded.
LANGSIFT_ENCODING_API std::string_view canonical_encoding_name(std::string_view label) noexcept;

/// True when `name` (any label) is an encoding of the WHATWG Encoding Standard ("ascii" counts:
/// it is a WHATWG label of windows-1252).
LANGSIFT_ENCODING_API bool is_whatwg_encoding(std::string_view label) noexcept;

/// True when convert_to_utf8 can decode `label`.
LANGSIFT_ENCODING_API bool can_convert(std::string_view label) noexcept;

struct conversion_result {
  status st = status::ok;           ///< ok; unknown_encoding; conversion_error; out_of_memory
  std::size_t input_bytes = 0;      ///< input bytes consumed
  std::size_t output_bytes = 0;     ///< UTF-8 bytes appended
  std::size_t replaced_bytes = 0;   ///< input bytes that were invalid and became U+FFFD
  bool is_ok() const noexcept { return st == status::ok; }
};

/// Converts `input` in `encoding` (any label) to UTF-8, appending to `out`. Invalid or unmapped
/// sequences become U+FFFD; their input bytes are counted in replaced_bytes (status stays ok).
/// A BOM in the input is decoded like any character (U+FEFF); skip encoding_result::bom_bytes.
/// Returns status::unknown_encoding (nothing appended) when no converter exists.
LANGSIFT_ENCODING_API conversion_result convert_to_utf8(std::string_view input, std::string_view encoding, std::string& out) noexcept;
LANGSIFT_ENCODING_API conversion_result convert_to_utf8(const char* data, std::size_t len, std::string_view encoding,
                                  std::string& out) noexcept;

/// Streaming conversion to UTF-8, chunk by chunk: sequences split across chunks are joined, so
/// the concatenated output equals convert_to_utf8 on the concatenated input.
class LANGSIFT_ENCODING_API utf8_converter {
 public:
  utf8_converter() noexcept;
  ~utf8_converter();
  utf8_converter(utf8_converter&& other) noexcept;
  utf8_converter& operator=(utf8_converter&& other) noexcept;
  utf8_converter(const utf8_converter&) = delete;
  utf8_converter& operator=(const utf8_converter&) = delete;

  /// Selects the encoding (any label); resets all state. ok or unknown_encoding.
  status open(std::string_view encoding) noexcept;
  /// Converts one chunk, appending UTF-8 to `out_append`. Pass last = true with the final chunk
  /// (it may be empty): an incomplete sequence at the end then becomes U+FFFD. Counts are per
  /// call. After `last`, the converter is reset for a new stream in the same encoding.
  conversion_result convert(std::string_view chunk, bool last, std::string& out_append) noexcept;
  /// Forgets any partial sequence; keeps the encoding.
  void reset() noexcept;
  /// Canonical name of the open encoding, "" if none.
  std::string_view encoding() const noexcept;
  bool is_open() const noexcept;

  struct impl;

 private:
  impl* impl_;
};

struct decoded_text {
  std::string text;
  encoding_result encoding;
  conversion_result conversion;
};

/// detect_encoding + convert_to_utf8 (BOM stripped), without copying the input. When no converter
/// exists for the detected encoding, the text is decoded with options.fallback and
/// conversion.st is status::unknown_encoding. Empty input → empty text, conversion.st
/// empty_input. Only std::bad_alloc escapes.
LANGSIFT_ENCODING_API decoded_text decode_to_utf8(std::string_view bytes, const encoding_options& options = {});
LANGSIFT_ENCODING_API decoded_text decode_to_utf8(const char* data, std::size_t len, const encoding_options& options = {});

/// WHATWG "prescan a byte stream to determine its encoding" over the first 1024 bytes of
/// `first_bytes`: <meta charset=...>, <meta http-equiv="content-type" content="...charset=...">;
/// if no <meta> decides, an XML declaration <?xml ... encoding="..."?> at the very start.
/// Returns the canonical encoding name (utf-16le/be → utf-8 and x-user-defined → windows-1252, as
/// WHATWG says), or nullopt. Unknown labels are skipped, as WHATWG says.
LANGSIFT_ENCODING_API std::optional<std::string> prescan_meta_charset(std::string_view first_bytes);

/// The charset parameter of a Content-Type value (`text/html; charset="utf-8"` → `utf-8`), or
/// the whole trimmed value when it is a bare label (no '/', ';' or '='). "" if none.
LANGSIFT_ENCODING_API std::string_view content_type_charset(std::string_view content_type) noexcept;

/// uchardet's raw answer for `bytes` ("" when it has none), without any of langsift's checks:
/// the reference the evaluation and the benchmarks compare against.
LANGSIFT_ENCODING_API std::string uchardet_charset(std::string_view bytes);

}  // namespace v1
}  // namespace langsift
