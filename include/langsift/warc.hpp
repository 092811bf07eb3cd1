// langsift — reading WARC files (ISO 28500, WARC/1.0 and WARC/1.1) record by record, and the HTTP
// responses inside them.
//
//   langsift::warc_reader reader(data);           // or a source function reading a file / stdin
//   langsift::warc_record r;
//   for (;;) {
//     const langsift::warc_status st = reader.next(r);
//     if (st == langsift::warc_status::end) break;
//     if (st == langsift::warc_status::error) { /* reader.error(), reader.error_offset() */ continue; }
//     if (r.type() != "response") continue;
//     langsift::http_response h;
//     if (langsift::parse_http_response(r.block, h)) { ... h.field("Content-Type") ... }
//   }
//
// Input: a concatenation of records, uncompressed, gzip-compressed (every record its own gzip
// member, as the standard recommends, or any number of records per member) or zstd-compressed
// (the IIPC's WARC-zstd: zstd frames, one or more per record or several records per frame, with an
// optional dictionary frame first; a whole file compressed by `zstd` is one frame); which one is
// decided from the first bytes. Memory is bounded: a record's block is kept up to
// warc_options::max_block_bytes (the rest is read and dropped), header sections up to
// max_header_bytes, and input is read in chunks of 64 KB.
//
// Bad input never stops the reader: a record whose header cannot be parsed is an error (with the
// offset of the record) and reading resumes at the next record ("WARC/1." at the start of a line,
// or a version line and a header field after any byte, or the next gzip member); a record that
// ends early (truncated file, truncated or corrupt gzip member, a gzip member that ends before
// Content-Length; a corrupt or truncated zstd frame) is delivered with `truncated()` and a
// `problem`; a block not followed by CRLF CRLF (a wrong Content-Length) is delivered with a
// `problem` and reading resumes at the next record. Records never span gzip members (zstd frames
// are one stream: a record may span frames, as WARC-zstd allows), and never each other: a header section that holds the
// next record's version line (a record cut in its header) is an error and reading resumes at that
// line; a block whose framing the bytes do not confirm (not followed by CRLF CRLF and then a
// record or the end) ends where the next record starts inside it, delivered `truncated()` with a
// `problem` (docs/warc.md, "Damaged framing").
//
// Compiled into langsift::warc (src/warc/warc.cpp), which links zlib and zstd. Nothing here prints, exits or
// throws except std::bad_alloc (and what the source function throws). A warc_reader belongs to one
// thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/detail/ascii.hpp"

namespace langsift {
inline namespace v1 {

// ---------------------------------------------------------------------------------------------
// Small helpers

namespace detail {

/// A header line or value without its optional white space (SP, HTAB) at either end and the CR
/// of a CRLF line end.
inline std::string_view warc_trim(std::string_view s) noexcept {
  s = trim_front_if(s, [](unsigned char c) { return c == ' ' || c == '\t'; });
  return trim_back_if(s, [](unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

/// Decimal digits only (no sign, no spaces inside), at most 18 of them.
inline bool parse_decimal(std::string_view s, std::uint64_t& v) noexcept {
  s = warc_trim(s);
  if (s.empty() || s.size() > 18) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// zlib one-shot inflation with a cap on the output

enum class inflate_status : unsigned char {
  ok,         ///< the whole stream was decoded
  capped,     ///< stopped at max_out bytes of output
  truncated,  ///< the input ended before the end of the stream (what was decoded is kept)
  corrupt,    ///< not a valid stream (what was decoded before the error is kept)
};

/// The inflate_status as a status (common.hpp): ok; capped and truncated: truncated (a prefix was
/// decoded); corrupt: conversion_error.
constexpr status to_status(inflate_status s) noexcept {
  switch (s) {
    case inflate_status::ok: return status::ok;
    case inflate_status::capped:
    case inflate_status::truncated: return status::truncated;
    case inflate_status::corrupt: return status::conversion_error;
  }
  return status::internal_error;
}

/// Inflates `in` (gzip, zlib or raw deflate: `window_bits` as for zlib's inflateInit2, 15+32 =
/// gzip or zlib, auto-detected; -15 = raw deflate) appending at most `max_out` bytes to `out`.
/// Only the first stream (gzip member) is decoded.
inflate_status inflate_bytes(std::string_view in, std::string& out, std::size_t max_out,
                             int window_bits = 15 + 32);

// ---------------------------------------------------------------------------------------------
// WARC records

struct warc_options {
  std::size_t max_block_bytes = std::size_t{4} << 20;   ///< bytes of a block kept; the rest is skipped
  std::size_t max_header_bytes = std::size_t{64} << 10;  ///< a longer WARC header section is an error
};

struct warc_field {
  std::string name, value;
};

struct warc_record {
  /// Where the record starts in the input: the first byte of its "WARC/" line (uncompressed input)
  /// or of the gzip member or zstd frame holding its start (compressed input).
  std::uint64_t offset = 0;
  /// Where the record starts in the uncompressed stream (== offset for uncompressed input).
  std::uint64_t data_offset = 0;
  /// Bytes of the input the record occupies from `offset`: its gzip member, when the member holds
  /// this record only (Common Crawl's index gives offset and length so); its zstd frames, when they
  /// start with the record and end with it (with a dictionary, reading them needs it too); the record with its
  /// trailing CRLF CRLF in uncompressed input. 0 when not known: several records in one member, or
  /// a record whose framing is broken.
  std::uint64_t length = 0;
  std::string version;              ///< "WARC/1.0", "WARC/1.1"
  std::vector<warc_field> fields;   ///< the header fields in order (continuation lines joined)
  std::uint64_t content_length = 0; ///< the Content-Length field
  std::string block;                ///< the first min(block_bytes, max_block_bytes) bytes of the block
  std::uint64_t block_bytes = 0;    ///< bytes of the block present in the input (< content_length if truncated)
  std::string problem;              ///< set when the record was delivered despite bad framing

  /// The value of the first field called `name` (case-insensitive), "" when there is none.
  std::string_view field(std::string_view name) const noexcept {
    for (const auto& f : fields)
      if (detail::iequals(f.name, name)) return f.value;
    return {};
  }
  std::string_view type() const noexcept { return field("WARC-Type"); }
  std::string_view record_id() const noexcept { return field("WARC-Record-ID"); }
  /// WARC-Target-URI without the angle brackets of the WARC/1.0 grammar's examples, if present.
  std::string_view target_uri() const noexcept {
    std::string_view u = field("WARC-Target-URI");
    if (u.size() >= 2 && u.front() == '<' && u.back() == '>') u = u.substr(1, u.size() - 2);
    return u;
  }
  /// Bytes of the block read but not kept (max_block_bytes).
  std::uint64_t skipped_bytes() const noexcept { return block_bytes - block.size(); }
  /// The input ended (or the gzip member ended or broke, or the zstd data broke) before
  /// content_length bytes of block.
  bool truncated() const noexcept { return block_bytes < content_length; }

  void clear() {
    offset = data_offset = length = content_length = block_bytes = 0;
    version.clear();
    fields.clear();
    block.clear();
    problem.clear();
  }
};

enum class warc_status : unsigned char {
  record,  ///< a record was read (check record.problem / truncated())
  end,     ///< no more input
  error,   ///< input that is not a record was skipped: error(), error_offset(); call next() again
};

/// The warc_status as a status (common.hpp): record and end: ok; error: invalid_argument (input
/// that is not a well-formed record, as the Python binding's WarcFormatError reports it).
constexpr status to_status(warc_status s) noexcept {
  return s == warc_status::error ? status::invalid_argument : status::ok;
}

/// How a WARC input is compressed (decided from its first bytes).
enum class warc_compression : unsigned char {
  none,
  gzip,  ///< 1f 8b: gzip members
  zstd,  ///< 28 b5 2f fd (a zstd frame) or a skippable frame (5? 2a 4d 18; 0x184D2A5D: a dictionary)
};

namespace detail {
struct warc_inflater;  // zlib's stream (src/warc/warc.cpp)
struct warc_unzstd;    // zstd's stream and the frames seen (src/warc/warc.cpp)
}  // namespace detail

class warc_reader {
 public:
  /// Reads up to n bytes into buf; returns 0 at the end of input.
  using source = std::function<std::size_t(char* buf, std::size_t n)>;

  explicit warc_reader(source src, warc_options o = {});
  /// Reads records from memory (not copied: `data` must outlive the reader).
  explicit warc_reader(std::string_view data, warc_options o = {});
  /// A temporary string would dangle: refused at compile time.
  warc_reader(std::string&&, warc_options = {}) = delete;
  warc_reader(const warc_reader&) = delete;
  warc_reader& operator=(const warc_reader&) = delete;
  ~warc_reader();

  /// True when the input is compressed (gzip or zstd; known after the first next()).
  bool compressed() const noexcept { return codec_ != warc_compression::none; }
  /// How the input is compressed (known after the first next()).
  warc_compression compression() const noexcept { return codec_; }
  /// The message and input offset of the last error (or of the last record's problem).
  const std::string& error() const noexcept { return error_; }
  std::uint64_t error_offset() const noexcept { return error_offset_; }
  /// Bytes of input consumed so far.
  std::uint64_t input_bytes() const noexcept { return raw_base_ + raw_pos_; }

  /// Reads the next record into `r`.
  warc_status next(warc_record& r);

 private:
  static constexpr std::size_t kChunk = 64 * 1024;
  /// Raw bytes of the current gzip member (zstd frame) kept for the search after a corrupt one.
  static constexpr std::size_t kKeepMember = 256 * 1024;

  /// Sets r.length once the record's trailer is read: for gzip input, the member's compressed size
  /// when the member ends here (driving inflate to its end reads only this member's bytes); for
  /// uncompressed input, the bytes up to here.
  // The parts of next(), in order.
  bool skip_blank_lines();  // false at the end of the input
  bool find_header_end(std::uint64_t off, std::size_t& hend, std::size_t& hlen);  // false: an error was noted
  warc_status parse_header(std::string_view head, std::uint64_t off, warc_record& r);
  void read_block(warc_record& r);
  /// The CRLF CRLF after the block (or its tolerated absence at the end): sep = its bytes (not consumed).
  bool block_end(std::size_t& sep);
  /// Blank lines and then "WARC/", or the end of the input or gzip member, from buf_[pos_ + from].
  bool record_follows(std::size_t from);
  /// When the next record starts inside r's block: r ends there (with a problem) and reading
  /// resumes at that record. False when it does not, or the block was capped.
  bool split_at_record_start(warc_record& r, std::uint64_t block_off);
  void record_length(warc_record& r);

  warc_status fail(std::uint64_t off, std::string msg) {
    note_problem(off, std::move(msg));
    return warc_status::error;
  }
  void note_problem(std::uint64_t off, std::string msg) {
    error_ = std::move(msg);
    error_offset_ = off;
  }
  warc_status take_pending();

  // ---- raw input ----------------------------------------------------------------------------
  const char* raw_data() const noexcept { return in_memory_ ? mem_.data() : raw_.data(); }
  std::size_t raw_size() const noexcept { return in_memory_ ? mem_.size() : raw_len_; }
  std::uint64_t raw_offset() const noexcept { return raw_base_ + raw_pos_; }

  /// Makes at least n unread raw bytes available (fewer at the end of input: false).
  bool raw_have(std::size_t n);

  // ---- the uncompressed stream --------------------------------------------------------------
  std::uint64_t data_offset() const noexcept { return buf_base_ + pos_; }

  void start();

  /// Drops consumed bytes from buf_.
  void compact();

  /// Makes up to `want` bytes available at buf_[pos_] without crossing a gzip member boundary
  /// (zstd: the end of a run of well-formed frames); returns how many there are.
  std::size_t avail(std::size_t want);
  /// avail()'s zstd part: decodes one step into buf_; false when the run of frames is over.
  bool unzstd_step();
  /// A zstd dictionary frame at the start of the input: loaded (or reported).
  void zstd_dictionary();
  /// Where the record starting at `data_off` starts in the input (its member's or frame's offset).
  std::uint64_t record_offset(std::uint64_t data_off);

  /// After the end of the current gzip member: starts the next one. Bytes between members that
  /// are not a gzip member, and corrupt members, are skipped up to the next gzip header (1f 8b 08)
  /// and reported through pending_. False at the end of input. For zstd, the same after the end of
  /// a run of frames, up to the next zstd frame (28 b5 2f fd).
  bool next_member();

  /// After a bad record: skips to the next "WARC/1." at the start of a line (or to the end of the
  /// gzip member: next() moves on to the next member).
  void skip_to_record_start();

  source src_;
  std::string_view mem_;
  bool in_memory_ = false;
  warc_options opt_;

  std::vector<char> raw_;
  std::size_t raw_pos_ = 0, raw_len_ = 0;
  std::uint64_t raw_base_ = 0;
  bool raw_eof_ = false;

  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t buf_base_ = 0;
  char last_char_ = '\n';  // the byte before buf_[0]

  bool started_ = false;
  warc_compression codec_ = warc_compression::none;
  std::unique_ptr<detail::warc_inflater> z_;  ///< zlib's stream of gzip input (langsift::warc links zlib)
  std::unique_ptr<detail::warc_unzstd> zs_;   ///< zstd's stream of zstd input (and links zstd)
  bool member_done_ = false, member_bad_ = false, member_cut_ = false, member_reported_ = false;
  std::uint64_t member_offset_ = 0;
  std::uint64_t member_data_offset_ = 0;  // where the current member's output starts in the uncompressed stream

  bool resync_ = false;
  std::string pending_;
  std::uint64_t pending_offset_ = 0;
  std::string error_;
  std::uint64_t error_offset_ = 0;
};

// ---------------------------------------------------------------------------------------------
// HTTP responses inside `response` records

struct http_field {
  std::string_view name, value;
};

struct http_response {
  std::string_view version;  ///< "HTTP/1.1"
  int status = 0;            ///< 200, 404, ...
  std::string_view reason;
  std::vector<http_field> fields;
  std::size_t body_offset = 0;  ///< where the body starts in the block
  bool complete = true;         ///< false: the block ends inside the header section (no body)

  /// The value of the first field called `name` (case-insensitive), "" when there is none.
  std::string_view field(std::string_view name) const noexcept {
    for (const auto& f : fields)
      if (detail::iequals(f.name, name)) return f.value;
    return {};
  }
};

/// Parses the status line and header fields at the start of a `response` block. False when the
/// block does not start with an HTTP status line ("HTTP/x.y NNN"). Line ends may be CRLF or LF;
/// continuation lines are ignored. The views point into `block`.
bool parse_http_response(std::string_view block, http_response& h);

/// What decode_http_body did to the body.
enum class body_status : unsigned char {
  ok,
  chunked_malformed,     ///< chunked transfer coding broke off: the chunks before it are kept
  encoding_corrupt,      ///< gzip/deflate data broke off: the bytes decoded before are kept
  encoding_unsupported,  ///< a Content-Encoding other than gzip, deflate, identity (br, zstd...): raw bytes returned
  capped,                ///< decoded output stopped at max_bytes
};

constexpr std::string_view body_status_name(body_status s) noexcept {
  switch (s) {
    case body_status::ok: return "ok";
    case body_status::chunked_malformed: return "chunked_malformed";
    case body_status::encoding_corrupt: return "content_encoding_corrupt";
    case body_status::encoding_unsupported: return "content_encoding_unsupported";
    case body_status::capped: return "capped";
  }
  return "?";
}

/// The body_status as a status (common.hpp): ok; chunked_malformed and capped: truncated (the
/// bytes before are kept); encoding_corrupt: conversion_error; encoding_unsupported:
/// unknown_encoding (raw bytes returned).
constexpr status to_status(body_status s) noexcept {
  switch (s) {
    case body_status::ok: return status::ok;
    case body_status::chunked_malformed:
    case body_status::capped: return status::truncated;
    case body_status::encoding_corrupt: return status::conversion_error;
    case body_status::encoding_unsupported: return status::unknown_encoding;
  }
  return status::internal_error;
}


/// The payload of an HTTP response as the user agent would see it: chunked Transfer-Encoding
/// removed, and gzip / deflate Content-Encoding decoded (at most max_bytes of output, so a
/// compression bomb costs bounded memory). A header that claims a coding the bytes do not have
/// (chunked without chunk framing, gzip without the gzip magic: writers that store decoded
/// payloads but keep the header) is ignored. Returns a view of `raw` or of `scratch`.
std::string_view decode_http_body(const http_response& h, std::string_view raw, std::string& scratch,
                                  std::size_t max_bytes, body_status& st);

}  // namespace v1
}  // namespace langsift
