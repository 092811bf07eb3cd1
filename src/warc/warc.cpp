// langsift — the WARC reader and HTTP response parsing (langsift/warc.hpp), compiled into
// langsift::warc, which links zlib, libdeflate and zstd.
#include "langsift/warc.hpp"
#include "langsift/detail/hex.hpp"

#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>

namespace langsift {
inline namespace v1 {

namespace detail {

/// zlib's stream state of a gzip-compressed input, ended with the reader.
/// A member is first decoded whole by libdeflate (2.5x zlib's speed on WARC records), from the
/// input already read into `out`, when it ends there and comes out in at most kWholeMax bytes;
/// any other member (longer, cut short, corrupt, or running past the bytes read so far:
/// libdeflate decodes all or nothing) is decoded by zlib's stream, from its start, as if
/// libdeflate had not been tried.
struct warc_inflater {
  static constexpr std::size_t kWholeFirst = 1u << 20, kWholeMax = 8u << 20;
  z_stream z{};
  bool live = false;  ///< inflateInit2 succeeded: inflateEnd is due
  bool fresh = true;  ///< at the start of a member: zlib has not been fed from it yet
  libdeflate_decompressor* whole = nullptr;  ///< made on first use
  std::unique_ptr<char[]> out;               ///< libdeflate's output (not zero-filled)
  std::size_t out_size = 0;
  warc_inflater() = default;
  warc_inflater(const warc_inflater&) = delete;
  warc_inflater& operator=(const warc_inflater&) = delete;
  ~warc_inflater() {
    if (live) inflateEnd(&z);
    if (whole) libdeflate_free_decompressor(whole);
  }
  /// Decodes the gzip member at the start of [in, in + n) whole into `out`: its compressed size
  /// in `used` and decoded size in `made`; false when it does not end within n bytes, is not
  /// valid, comes out longer than kWholeMax, or memory runs out.
  bool decode_whole(const char* in, std::size_t n, std::size_t& used, std::size_t& made) {
    if (!whole && !(whole = libdeflate_alloc_decompressor())) return false;
    for (std::size_t size = std::max(out_size, kWholeFirst); size <= kWholeMax; size *= 2) {
      if (out_size < size) {
        out.reset(new (std::nothrow) char[size]);
        out_size = out ? size : 0;
        if (!out) return false;
      }
      const libdeflate_result r = libdeflate_gzip_decompress_ex(whole, in, n, out.get(), out_size, &used, &made);
      if (r == LIBDEFLATE_SUCCESS) return true;
      if (r != LIBDEFLATE_INSUFFICIENT_SPACE) return false;
    }
    return false;
  }
};

/// zstd's stream state of a zstd-compressed input, and the frames whose output is being read:
/// where a record's frames start and end in the input (its offset and length). Frames follow one
/// another as one stream (WARC-zstd lets a record span frames).
struct warc_unzstd {
  struct frame {
    std::uint64_t out_begin = 0, raw_begin = 0;  ///< where its output starts (stream), and the frame (input)
    std::uint64_t out_end = UINT64_MAX, raw_end = 0;  ///< the same at its end, once decoded
  };
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::deque<frame> frames;
  bool at_boundary = true;  ///< no frame is being decoded: the next input bytes start one (or not)
  // zstd is given one part of a frame at a time (its header, one block, its checksum; a skippable
  // frame whole): a call then never decodes past the block it is given, and never takes zstd's
  // one-pass shortcut for a frame it holds whole. When zstd returns an error, the output of the
  // blocks decoded in that same call is lost (ZSTD_decompressStream does not advance the output
  // position); fed block by block, and given no input while it still has output to flush (the
  // call before filled the output), what comes out before corrupt data is every block before it,
  // however the input arrives (read whole from memory or from a pipe in small reads).
  enum class part : unsigned char { header, block, checksum, rest } next = part::header;
  std::uint64_t part_end = 0;   ///< where the part being fed ends in the input; 0: not known yet
  bool checksum = false;        ///< the frame has a 4-byte checksum after its last block
  bool flush = false;           ///< the last call filled the output: the next one only flushes
  warc_unzstd() = default;
  warc_unzstd(const warc_unzstd&) = delete;
  warc_unzstd& operator=(const warc_unzstd&) = delete;
  ~warc_unzstd() { ZSTD_freeDCtx(d); }
};

}  // namespace detail

namespace {

// ---- zstd ------------------------------------------------------------------------------------

std::uint32_t read_le32(const char* p) noexcept {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint32_t>(u[0]) | static_cast<std::uint32_t>(u[1]) << 8 |
         static_cast<std::uint32_t>(u[2]) << 16 | static_cast<std::uint32_t>(u[3]) << 24;
}

constexpr std::uint32_t kZstdMagic = 0xFD2FB528;       // a zstd frame: 28 b5 2f fd
constexpr std::uint32_t kZstdDictFrame = 0x184D2A5D;   // WARC-zstd's dictionary frame (a skippable frame)
constexpr std::uint32_t kZstdDictMagic = 0xEC30A437;   // a zstd dictionary
/// WARC-zstd asks readers to support dictionaries (compressed or not) up to 8 MiB.
constexpr std::size_t kMaxZstdDictionary = std::size_t{8} << 20;

/// A zstd frame or a skippable frame (0x184D2A50..5F) starts at p (4 bytes).
bool zstd_frame_at(const char* p) noexcept {
  const std::uint32_t m = read_le32(p);
  return m == kZstdMagic || (m & 0xFFFFFFF0u) == 0x184D2A50u;
}

// ---- where a record starts -------------------------------------------------------------------
// A record starts with its version line, "WARC/1.<digits>", then CRLF (or LF) and a header field.
// In damaged input that line may follow any byte: a record cut anywhere, then the next one.

constexpr std::string_view kMagic = "WARC/1.";
constexpr std::size_t kMaxFieldName = 128;
/// Bytes from a "WARC/1." that always decide record_start_at: magic, 4 digits, CR LF, a field
/// name and its colon.
constexpr std::size_t kStartLook = 7 + 4 + 2 + kMaxFieldName + 1;

enum class start_match : unsigned char { no, yes, need_more };

/// A token character of a field name (RFC 9110).
bool is_tchar(char c) noexcept {
  return detail::is_ascii_alnum(static_cast<unsigned char>(c)) || (c != 0 && std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos);
}

/// Does a record start at v[i]: "WARC/1.", 1-4 digits, CR LF or LF, then a field name and ':'?
/// need_more: v ends before it is decided.
start_match record_start_at(std::string_view v, std::size_t i) noexcept {
  const std::string_view s = v.substr(i);
  if (s.size() < kMagic.size()) return kMagic.substr(0, s.size()) == s ? start_match::need_more : start_match::no;
  if (s.substr(0, kMagic.size()) != kMagic) return start_match::no;
  std::size_t j = kMagic.size();
  while (j < s.size() && s[j] >= '0' && s[j] <= '9')
    if (++j - kMagic.size() > 4) return start_match::no;
  if (j == s.size()) return start_match::need_more;
  if (j == kMagic.size()) return start_match::no;
  if (s[j] == '\r' && ++j == s.size()) return start_match::need_more;
  if (s[j] != '\n') return start_match::no;
  const std::size_t name = ++j;
  while (j < s.size() && is_tchar(s[j]))
    if (++j - name > kMaxFieldName) return start_match::no;
  if (j == s.size()) return start_match::need_more;
  return j > name && s[j] == ':' ? start_match::yes : start_match::no;
}

/// Where a line (without its line end) ends in "WARC/1.<digits>", npos if it does not.
std::size_t version_suffix(std::string_view line) noexcept {
  if (line.empty() || line.back() < '0' || line.back() > '9') return std::string_view::npos;
  const std::size_t p = line.rfind(kMagic);
  if (p == std::string_view::npos) return p;
  const std::string_view digits = line.substr(p + kMagic.size());
  if (digits.empty() || digits.size() > 4) return std::string_view::npos;
  for (char c : digits)
    if (c < '0' || c > '9') return std::string_view::npos;
  return p;
}

/// The lines of a header section: each without its line end (LF, or CR LF).
struct header_lines {
  std::string_view head;
  std::size_t at = 0;     ///< where the next line starts
  std::size_t start = 0;  ///< where the line last returned starts
  bool next(std::string_view& line) noexcept {
    if (at >= head.size()) return false;
    start = at;
    std::size_t e = head.find('\n', at);
    if (e == std::string_view::npos) e = head.size();
    line = head.substr(at, e - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at = e + 1;
    return true;
  }
};

/// The header fields that every record has, once (WARC 1.1, 5.1): the next record's header always
/// repeats them.
int mandatory_field(std::string_view line) noexcept {
  static constexpr std::string_view names[] = {"WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length"};
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || line.empty() || line[0] == ' ' || line[0] == '\t') return -1;
  const std::string_view name = detail::warc_trim(line.substr(0, colon));
  for (int k = 0; k < 4; ++k)
    if (detail::iequals(name, names[k])) return k;
  return -1;
}

/// Where another record starts inside a header section whose first line starts with "WARC/": a
/// record cut in its header runs into the next record's version line, which then ends a line of
/// this one ("...example.org/paWARC/1.1"). npos when none. A line that is a well-formed field and
/// ends so ("WARC-Target-URI: http://h/WARC/1.0") is a record start only when a field every record
/// has once comes both before it (or on it) and after it: a well-formed header never holds one
/// twice, the header of a cut record followed by the next one always does (from the first field
/// of a writer that starts with WARC-Type, as all known ones do).
std::size_t record_start_in_header(std::string_view head) noexcept {
  if (head.find(kMagic, 1) == std::string_view::npos) return std::string_view::npos;  // (almost always)
  header_lines lines{head};
  std::string_view line;
  unsigned before = 0;  // bit k: mandatory field k seen
  for (std::size_t li = 0; lines.next(line); ++li) {
    const int m = li > 0 ? mandatory_field(line) : -1;
    if (m >= 0) before |= 1u << m;
    const std::size_t p = version_suffix(line);
    if (p == std::string_view::npos || (li == 0 && p == 0)) continue;
    const std::size_t at = lines.start + p;
    if (record_start_at(head, at) != start_match::yes) continue;
    const bool field = line[0] == ' ' || line[0] == '\t' || (line.find(':') != std::string_view::npos && line[0] != ':');
    if (li == 0 || p == 0 || !field) return at;
    header_lines rest{head, lines.at};
    std::string_view later;
    while (rest.next(later)) {
      const int k = mandatory_field(later);
      if (k >= 0 && (before & (1u << k))) return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace

inflate_status inflate_bytes(std::string_view in, std::string& out, std::size_t max_out, int window_bits) {
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return inflate_status::corrupt;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), 1u << 30));
  const std::size_t start = out.size();
  inflate_status st = inflate_status::truncated;
  for (;;) {
    const std::size_t have = out.size() - start;
    if (have >= max_out) {
      st = inflate_status::capped;
      break;
    }
    const std::size_t chunk = std::min<std::size_t>(max_out - have, 64 * 1024);
    const std::size_t old = out.size();
    out.resize(old + chunk);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + old);
    z.avail_out = static_cast<uInt>(chunk);
    const int rc = inflate(&z, Z_NO_FLUSH);
    out.resize(old + (chunk - z.avail_out));
    if (rc == Z_STREAM_END) {
      st = inflate_status::ok;
      break;
    }
    if (rc == Z_BUF_ERROR || (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0)) {
      st = inflate_status::truncated;
      break;
    }
    if (rc != Z_OK) {
      st = inflate_status::corrupt;
      break;
    }
  }
  inflateEnd(&z);
  return st;
}

bool parse_http_response(std::string_view block, http_response& h) {
  h = http_response{};
  if (block.substr(0, 5) != "HTTP/") return false;
  std::size_t eol = block.find('\n');
  std::string_view line = block.substr(0, eol);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::size_t sp = line.find(' ');
  if (sp == std::string_view::npos) return false;
  h.version = line.substr(0, sp);
  std::string_view rest = detail::warc_trim(line.substr(sp + 1));
  if (rest.size() < 3) return false;
  int code = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    if (rest[i] < '0' || rest[i] > '9') return false;
    code = code * 10 + (rest[i] - '0');
  }
  if (rest.size() > 3 && rest[3] != ' ') return false;
  h.status = code;
  h.reason = rest.size() > 4 ? detail::warc_trim(rest.substr(4)) : std::string_view{};
  if (eol == std::string_view::npos) {
    h.complete = false;
    h.body_offset = block.size();
    return true;
  }
  std::size_t i = eol + 1;
  for (;;) {
    if (i >= block.size()) {
      h.complete = false;
      h.body_offset = block.size();
      return true;
    }
    std::size_t e = block.find('\n', i);
    if (e == std::string_view::npos) {
      h.complete = false;
      h.body_offset = block.size();
      return true;
    }
    std::string_view l = block.substr(i, e - i);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    i = e + 1;
    if (l.empty()) break;
    if (l[0] == ' ' || l[0] == '\t') continue;
    const std::size_t colon = l.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    h.fields.push_back({detail::warc_trim(l.substr(0, colon)), detail::warc_trim(l.substr(colon + 1))});
  }
  h.body_offset = i;
  return true;
}

// ---------------------------------------------------------------------------------------------
// warc_reader

warc_reader::warc_reader(source src, warc_options o) : src_(std::move(src)), opt_(o) {
  raw_.resize(kChunk);
}

warc_reader::warc_reader(std::string_view data, warc_options o) : mem_(data), in_memory_(true), opt_(o) {}

warc_reader::~warc_reader() = default;

// A record: blank lines, the header section (up to the first empty line), its fields, the block
// (Content-Length bytes) and the CRLF CRLF after it. A header that cannot be read is an error and
// reading resumes at the next record; a block cut short or without its CRLF CRLF is a record with
// a problem. A record is taken as its framing says when that framing holds: a block followed by
// CRLF CRLF, then a record or the end. When it does not, and the next record starts inside the
// block (a record cut short, or a Content-Length too large), the record ends there and reading
// resumes at that record.
warc_status warc_reader::next(warc_record& r) {
  r.clear();
  if (!started_) {
    start();
    if (!pending_.empty()) return take_pending();  // a zstd dictionary frame that cannot be used
  }
  if (resync_) {
    resync_ = false;
    skip_to_record_start();
  }
  if (!skip_blank_lines()) return pending_.empty() ? warc_status::end : take_pending();
  if (!pending_.empty()) return take_pending();
  const std::uint64_t data_off = data_offset();
  const std::uint64_t off = record_offset(data_off);
  std::size_t hend = 0, hlen = 0;
  if (!find_header_end(off, hend, hlen)) return warc_status::error;
  if (const warc_status st = parse_header(std::string_view(buf_.data() + pos_, hend), off, r); st != warc_status::record)
    return st;
  pos_ += hlen;
  r.offset = off;
  r.data_offset = data_off;
  const std::uint64_t block_off = data_offset();
  read_block(r);
  std::size_t sep = 0;
  const bool cut = r.truncated();
  const bool sep_ok = !cut && block_end(sep);
  const bool followed = sep_ok && record_follows(sep);
  if (!followed && split_at_record_start(r, block_off)) return warc_status::record;
  if (cut) {
    const bool z = codec_ == warc_compression::zstd;
    r.problem = member_bad_   ? (z ? "corrupt zstd data inside the record's block" : "corrupt gzip data inside the record's block")
                : member_cut_ ? (z ? "the input ends inside a zstd frame, in the record's block (truncated file?)"
                                   : "the input ends inside a gzip member, in the record's block (truncated file?)")
                : z           ? "the zstd frames end inside the record's block, and what follows is not a zstd frame"
                : compressed() ? "the gzip member ends inside the record's block (Content-Length too large?)"
                              : "the input ends inside the record's block";
    member_reported_ = member_bad_ || member_cut_;
    note_problem(off, r.problem);
    return warc_status::record;
  }
  if (!sep_ok) {
    // (A corrupt gzip member may be the cause; it is reported when reading reaches its end.)
    r.problem = "no CRLF CRLF after the record's block (Content-Length wrong?); reading resumes at the next record";
    note_problem(off, r.problem);
    resync_ = true;
    return warc_status::record;
  }
  pos_ += sep;
  if (!followed) {
    // What follows is reported when it is read.
    r.problem = "the record's block is not followed by a WARC record (Content-Length too small, or bytes between records)";
    note_problem(off, r.problem);
    return warc_status::record;
  }
  record_length(r);
  return warc_status::record;
}

bool warc_reader::skip_blank_lines() {
  // Blank lines between records (a writer's extra CRLFs) are tolerated.
  for (;;) {
    if (avail(1) == 0) {
      if (compressed() && member_done_ && next_member()) continue;
      return false;
    }
    const char c = buf_[pos_];
    if (c != '\r' && c != '\n') return true;
    ++pos_;
  }
}

bool warc_reader::find_header_end(std::uint64_t off, std::size_t& hend, std::size_t& hlen) {
  for (std::size_t look = 0;;) {
    const std::size_t n = avail(std::min(opt_.max_header_bytes, look + 4096));
    const std::string_view v(buf_.data() + pos_, n);
    const std::size_t from = look > 3 ? look - 3 : 0;
    const std::size_t a = v.find("\r\n\r\n", from), b = v.find("\n\n", from);
    if (a != std::string_view::npos && (b == std::string_view::npos || a <= b)) {
      hend = a;
      hlen = a + 4;
      return true;
    }
    if (b != std::string_view::npos) {
      hend = b;
      hlen = b + 2;
      return true;
    }
    if (n <= look || n >= opt_.max_header_bytes) {
      const bool looks_warc = v.substr(0, 5) == "WARC/";
      resync_ = true;
      ++pos_;  // so that the scan does not find this record again
      if (!looks_warc) fail(off, "not a WARC record (expected a WARC/1.0 or WARC/1.1 line)");
      else if (n >= opt_.max_header_bytes) fail(off, "WARC header section longer than the limit");
      else {
        // The member (or input) is over here, so its state is known whatever the read sizes.
        member_reported_ = member_bad_ || member_cut_;
        const bool z = codec_ == warc_compression::zstd;
        fail(off, member_bad_   ? (z ? "corrupt zstd data inside a WARC header section" : "corrupt gzip data inside a WARC header section")
                  : member_cut_ ? (z ? "the input ends inside a zstd frame, in a WARC header section"
                                     : "the input ends inside a gzip member, in a WARC header section")
                                : "the input ends inside a WARC header section");
      }
      return false;
    }
    look = n;
  }
}

warc_status warc_reader::parse_header(std::string_view head, std::uint64_t off, warc_record& r) {
  const std::size_t eol = head.find('\n');
  std::string_view first = detail::warc_trim(head.substr(0, eol));
  if (first.substr(0, 5) != "WARC/") {
    resync_ = true;
    ++pos_;
    return fail(off, "not a WARC record (expected a WARC/1.0 or WARC/1.1 line)");
  }
  if (const std::size_t at = record_start_in_header(head); at != std::string_view::npos) {
    pos_ += at;  // reading resumes at that record
    return fail(off, "the WARC header section is cut short: another record starts inside it");
  }
  r.version = std::string(first);
  std::size_t i = eol == std::string_view::npos ? head.size() : eol + 1;
  while (i < head.size()) {
    std::size_t e = head.find('\n', i);
    if (e == std::string_view::npos) e = head.size();
    std::string_view line = head.substr(i, e - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    i = e + 1;
    if (line.empty()) continue;
    if ((line[0] == ' ' || line[0] == '\t') && !r.fields.empty()) {  // continuation line
      r.fields.back().value += ' ';
      r.fields.back().value += detail::warc_trim(line);
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;  // not a field: ignored
    r.fields.push_back({std::string(detail::warc_trim(line.substr(0, colon))),
                        std::string(detail::warc_trim(line.substr(colon + 1)))});
  }
  const std::string_view cl = r.field("Content-Length");
  if (!detail::parse_decimal(cl, r.content_length)) {
    resync_ = true;
    ++pos_;
    return fail(off, cl.empty() ? "WARC record without Content-Length" : "WARC record with an invalid Content-Length");
  }
  return warc_status::record;
}

void warc_reader::read_block(warc_record& r) {
  // Keep up to max_block_bytes, skip the rest, stop early at the end of the member.
  std::uint64_t want = r.content_length;
  while (want > 0) {
    const std::size_t n = avail(static_cast<std::size_t>(std::min<std::uint64_t>(want, kChunk)));
    if (n == 0) break;
    if (r.block.size() < opt_.max_block_bytes) {
      const std::size_t keep = std::min(n, opt_.max_block_bytes - r.block.size());
      if (r.block.empty())
        r.block.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(want, opt_.max_block_bytes)));
      r.block.append(buf_.data() + pos_, keep);
    }
    pos_ += n;
    want -= n;
    r.block_bytes += n;
  }
}

bool warc_reader::block_end(std::size_t& sep) {
  const std::size_t n = avail(4);
  const std::string_view tail(buf_.data() + pos_, n);
  if (tail.substr(0, 4) == "\r\n\r\n") {
    sep = 4;
  } else if (tail.substr(0, 2) == "\n\n") {
    sep = 2;
  } else if (n <= 2 && tail == std::string_view("\r\n").substr(0, n) && (!compressed() || member_done_)) {
    // The input or member ends right after the block, without (all of) CRLF CRLF: tolerated.
    sep = n;
  } else {
    return false;
  }
  return true;
}

bool warc_reader::record_follows(std::size_t from) {
  // Blank lines, then "WARC/" or the end of the input (or of the gzip member). Not consumed.
  constexpr std::size_t kMaxBlank = 4096;  // more blank lines than that: taken as the end of the record
  for (std::size_t want = from + 5;; want += 256) {  // no more read-ahead than needed (a pipe may be live)
    const std::size_t n = avail(want);
    const char* d = buf_.data() + pos_;
    std::size_t i = from;
    while (i < n && (d[i] == '\r' || d[i] == '\n')) ++i;
    if (i - from >= kMaxBlank) return true;
    if (i + 5 <= n) return std::memcmp(d + i, "WARC/", 5) == 0;
    if (n < want) return std::memcmp(d + i, "WARC/", n - i) == 0;  // the end (maybe in a version line)
  }
}

bool warc_reader::split_at_record_start(warc_record& r, std::uint64_t block_off) {
  if (r.block.size() != r.block_bytes) return false;  // a capped block: the bytes skipped cannot be read again
  const std::string_view b(r.block);
  // Inside the block, where record_start_at can decide; then its last bytes with what follows.
  const std::size_t inner = b.size() > kStartLook ? b.size() - kStartLook : 0;
  std::size_t k = std::string_view::npos;
  for (std::size_t i = b.find(kMagic); i < inner; i = b.find(kMagic, i + 1))
    if (record_start_at(b, i) == start_match::yes) {
      k = i;
      break;
    }
  if (k == std::string_view::npos) {
    std::string edge(b.substr(inner));
    const std::size_t after = avail(kStartLook);  // (may move buf_)
    edge.append(buf_.data() + pos_, after);
    for (std::size_t i = 0; i < b.size() - inner; ++i)
      if (edge[i] == 'W' && record_start_at(edge, i) == start_match::yes) {
        k = inner + i;
        break;
      }
  }
  if (k == std::string_view::npos) return false;
  // Put the bytes from k back in front of the stream (they are still in buf_ unless compacted away).
  const std::size_t back = b.size() - k;
  if (pos_ >= back) {
    pos_ -= back;
  } else {
    std::string unread;
    unread.reserve(back + buf_.size() - pos_);
    unread.append(b.substr(k));
    unread.append(buf_, pos_, std::string::npos);
    buf_.swap(unread);
    pos_ = 0;
    buf_base_ = block_off + k;
    last_char_ = k > 0 ? b[k - 1] : '\n';
  }
  r.block.resize(k);
  r.block_bytes = k;
  r.problem = "another record starts inside the record's block (the record was cut short, or its Content-Length is too large); reading resumes there";
  note_problem(r.offset, r.problem);
  return true;
}

void warc_reader::record_length(warc_record& r) {
  if (codec_ == warc_compression::none) {
    r.length = data_offset() - r.offset;
    return;
  }
  if (codec_ == warc_compression::zstd) {
    // The frames from the one that starts with the record to the one that ends with it.
    if (member_bad_ || member_cut_) return;
    const std::uint64_t end = data_offset();
    bool starts = false;
    for (const auto& f : zs_->frames) {
      if (f.raw_begin == r.offset && f.out_begin == r.data_offset) starts = true;
      if (starts && f.out_end == end && f.out_begin < end && f.raw_end > r.offset) {
        r.length = f.raw_end - r.offset;
        return;
      }
    }
    return;
  }
  if (r.data_offset != member_data_offset_) return;  // not the member's first record
  if (avail(1) != 0 || member_bad_ || member_cut_) return;  // more records in this member, or a damaged one
  r.length = raw_offset() - member_offset_;
}

warc_status warc_reader::take_pending() {
  error_ = std::move(pending_);
  error_offset_ = pending_offset_;
  pending_.clear();
  return warc_status::error;
}

bool warc_reader::raw_have(std::size_t n) {
  while (raw_size() - raw_pos_ < n) {
    if (in_memory_ || raw_eof_) return false;
    // Drop what was read, except (up to kKeepMember of) the current gzip member.
    std::size_t keep_from = raw_pos_;
    if (compressed() && member_offset_ >= raw_base_ && member_offset_ < raw_base_ + raw_pos_ &&
        raw_base_ + raw_pos_ - member_offset_ <= kKeepMember)
      keep_from = static_cast<std::size_t>(member_offset_ - raw_base_);
    if (keep_from > 0) {
      std::memmove(raw_.data(), raw_.data() + keep_from, raw_len_ - keep_from);
      raw_base_ += keep_from;
      raw_len_ -= keep_from;
      raw_pos_ -= keep_from;
    }
    if (raw_.size() - raw_len_ < kChunk) raw_.resize(raw_len_ + kChunk);
    const std::size_t got = src_(raw_.data() + raw_len_, raw_.size() - raw_len_);
    if (got == 0) {
      raw_eof_ = true;
      return false;
    }
    raw_len_ += got;
  }
  return true;
}

void warc_reader::start() {
  started_ = true;
  raw_have(4);
  const std::size_t have = raw_size() - raw_pos_;
  if (have >= 2 && static_cast<unsigned char>(raw_data()[raw_pos_]) == 0x1f &&
      static_cast<unsigned char>(raw_data()[raw_pos_ + 1]) == 0x8b) {
    auto z = std::make_unique<detail::warc_inflater>();
    if (inflateInit2(&z->z, 15 + 16) != Z_OK) return;  // out of memory: read as uncompressed
    z->live = true;
    z_ = std::move(z);
    codec_ = warc_compression::gzip;
    member_offset_ = raw_offset();
  } else if (have >= 4 && zstd_frame_at(raw_data() + raw_pos_)) {
    auto z = std::make_unique<detail::warc_unzstd>();
    if (!z->d) return;  // out of memory: read as uncompressed
    zs_ = std::move(z);
    codec_ = warc_compression::zstd;
    member_offset_ = raw_offset();
    if (read_le32(raw_data() + raw_pos_) == kZstdDictFrame) zstd_dictionary();
  }
}

void warc_reader::zstd_dictionary() {
  // WARC-zstd: a skippable frame (magic, 4-byte little-endian size) holding a dictionary, plain
  // (37 a4 30 ec) or itself a zstd frame. Reported problems leave the frames that need it to be
  // reported as corrupt, one by one.
  const std::uint64_t at = raw_offset();
  auto problem = [&](std::string msg) {
    pending_ = std::move(msg);
    pending_offset_ = at;
  };
  if (!raw_have(8)) {
    problem("the input ends inside the zstd dictionary frame (truncated file?)");
    raw_pos_ = raw_size();
    return;
  }
  const std::uint32_t size = read_le32(raw_data() + raw_pos_ + 4);
  if (size > kMaxZstdDictionary) {  // skipped by the decoder as any skippable frame
    problem("the zstd dictionary frame holds " + std::to_string(size) +
            " bytes, over the 8 MiB that WARC-zstd readers support: not loaded");
    return;
  }
  if (!raw_have(8 + std::size_t{size})) {
    problem("the input ends inside the zstd dictionary frame (truncated file?)");
    raw_pos_ = raw_size();
    return;
  }
  const char* dict = raw_data() + raw_pos_ + 8;
  std::string unpacked;
  std::size_t dict_size = size;
  if (size >= 4 && read_le32(dict) == kZstdMagic) {
    const unsigned long long n = ZSTD_getFrameContentSize(dict, size);
    if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > kMaxZstdDictionary) {
      problem("the zstd dictionary frame's compressed dictionary has no size up to 8 MiB: not loaded");
    } else {
      unpacked.resize(static_cast<std::size_t>(n));
      const std::size_t got = ZSTD_decompress(unpacked.data(), unpacked.size(), dict, size);
      if (ZSTD_isError(got) || got != n) {
        problem("the zstd dictionary frame's compressed dictionary is corrupt: not loaded");
        unpacked.clear();
      }
      dict = unpacked.data();
      dict_size = unpacked.size();
    }
  }
  if (pending_.empty()) {
    if (dict_size < 8 || read_le32(dict) != kZstdDictMagic)
      problem("the zstd dictionary frame holds no zstd dictionary: not loaded");
    else if (ZSTD_isError(ZSTD_DCtx_loadDictionary(zs_->d, dict, dict_size)))
      problem("the zstd dictionary frame's dictionary cannot be loaded");
  }
  raw_pos_ += 8 + std::size_t{size};
  member_offset_ = raw_offset();
}

std::uint64_t warc_reader::record_offset(std::uint64_t data_off) {
  if (codec_ == warc_compression::none) return data_off;
  if (codec_ == warc_compression::gzip) return member_offset_;
  // zstd: the frame whose output holds data_off. Frames that ended before it are forgotten.
  auto& frames = zs_->frames;
  while (frames.size() > 1 && frames.front().out_end <= data_off) frames.pop_front();
  for (auto f = frames.rbegin(); f != frames.rend(); ++f)
    if (f->out_begin <= data_off && f->out_end > data_off) return f->raw_begin;
  return member_offset_;
}

/// The end of the next part of a zstd frame that starts at raw offset `at` (warc_unzstd's feeding),
/// read from `p` (`n` bytes there): its header, a block, or its checksum; 0 when `n` is too short
/// to tell (then the input ends there: what is left is fed as it is).
std::uint64_t zstd_part_end(detail::warc_unzstd& zs, std::uint64_t at, const unsigned char* p, std::size_t n) {
  using part = detail::warc_unzstd::part;
  switch (zs.next) {
    case part::header: {
      if (n < 8) return 0;
      const std::uint32_t magic = read_le32(reinterpret_cast<const char*>(p));
      if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {  // a skippable frame: magic, size, content
        zs.next = part::rest;
        return at + 8 + read_le32(reinterpret_cast<const char*>(p) + 4);
      }
      const unsigned fhd = p[4];  // RFC 8878, 3.1.1.1: the frame header's size
      const bool single = (fhd >> 5) & 1;
      static constexpr unsigned kDid[] = {0, 1, 2, 4}, kFcs[] = {0, 2, 4, 8};
      const unsigned fcs = (fhd >> 6) == 0 ? (single ? 1 : 0) : kFcs[fhd >> 6];
      zs.checksum = (fhd >> 2) & 1;
      zs.next = part::block;
      return at + 5 + (single ? 0 : 1) + kDid[fhd & 3] + fcs;
    }
    case part::block: {  // a 3-byte header: last block, type, size
      if (n < 3) return 0;
      const std::uint32_t h = p[0] | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16;
      if (h & 1) zs.next = zs.checksum ? part::checksum : part::rest;
      return at + 3 + (((h >> 1) & 3) == 1 ? 1 : (h >> 3));  // RLE: one byte of content
    }
    case part::checksum:
      zs.next = part::rest;
      return at + 4;
    case part::rest:
      break;
  }
  return UINT64_MAX;  // the rest of the frame (zstd says where it ends)
}

bool warc_reader::unzstd_step() {
  detail::warc_unzstd& zs = *zs_;
  if (zs.at_boundary) {
    const bool four = raw_have(4);
    if (raw_size() == raw_pos_ || !four || !zstd_frame_at(raw_data() + raw_pos_)) {
      // The end of the input, or bytes that are not a frame (next_member() skips and reports them).
      member_done_ = true;
      return false;
    }
    zs.at_boundary = false;
    zs.next = detail::warc_unzstd::part::header;
    zs.part_end = 0;
    zs.flush = false;
    member_offset_ = raw_offset();
    member_data_offset_ = buf_base_ + buf_.size();
    zs.frames.push_back({member_data_offset_, member_offset_});
    if (zs.frames.size() > 1024)  // a record over very many frames: keep its first and the last ones
      zs.frames.erase(zs.frames.begin() + 1, zs.frames.end() - 512);
  }
  if (zs.part_end == 0 || raw_offset() >= zs.part_end) {  // the next part of the frame
    raw_have(zs.next == detail::warc_unzstd::part::header ? 8 : 3);  // (fewer at the end of the input)
    zs.part_end = zstd_part_end(zs, raw_offset(), reinterpret_cast<const unsigned char*>(raw_data() + raw_pos_),
                                raw_size() - raw_pos_);
    if (zs.part_end == 0) zs.part_end = UINT64_MAX;
  }
  const bool more = raw_have(1);
  const std::size_t fed =
      zs.flush ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(raw_size() - raw_pos_, zs.part_end - raw_offset()));
  const std::size_t old = buf_.size();
  buf_.resize(old + kChunk);
  ZSTD_inBuffer in{raw_data() + raw_pos_, fed, 0};
  ZSTD_outBuffer out{buf_.data() + old, kChunk, 0};
  const std::size_t rc = ZSTD_decompressStream(zs.d, &out, &in);
  raw_pos_ += in.pos;
  buf_.resize(old + out.pos);
  if (ZSTD_isError(rc)) {
    member_done_ = member_bad_ = true;
    return false;
  }
  const bool flushed = zs.flush;
  zs.flush = out.pos == out.size;
  if (!more && !flushed && rc != 0 && out.pos == 0) {  // the input ends inside the frame (what zstd held is out)
    member_done_ = member_cut_ = true;
    return false;
  }
  if (rc == 0) {  // the frame is decoded and flushed
    zs.frames.back().out_end = buf_base_ + buf_.size();
    zs.frames.back().raw_end = raw_offset();
    zs.at_boundary = true;
  }
  return true;
}

void warc_reader::compact() {
  if (pos_ == 0) return;
  last_char_ = buf_[pos_ - 1];
  if (pos_ >= buf_.size()) {
    buf_base_ += buf_.size();
    buf_.clear();
    pos_ = 0;
    return;
  }
  if (pos_ < kChunk && buf_.size() < 4 * kChunk) return;  // cheap enough to keep
  buf_base_ += pos_;
  buf_.erase(0, pos_);
  pos_ = 0;
}

std::size_t warc_reader::avail(std::size_t want) {
  if (buf_.size() - pos_ >= want) return want;
  compact();
  while (buf_.size() - pos_ < want) {
    if (codec_ == warc_compression::none) {
      if (!raw_have(1)) break;
      const std::size_t take = raw_size() - raw_pos_;
      buf_.append(raw_data() + raw_pos_, take);
      raw_pos_ += take;
      continue;
    }
    if (member_done_) break;
    if (codec_ == warc_compression::zstd) {
      if (!unzstd_step()) break;
      continue;
    }
    if (!raw_have(1)) {  // the input ends inside the member
      member_done_ = member_cut_ = true;
      break;
    }
    if (z_->fresh) {
      // Only the input at hand: reading ahead for a whole member would wait on a pipe or a
      // socket for bytes that zlib's stream does not need yet (a record already there would not
      // come out until more arrive). A member cut by the end of the buffer goes to zlib.
      z_->fresh = false;
      std::size_t used = 0, made = 0;
      if (z_->decode_whole(raw_data() + raw_pos_, raw_size() - raw_pos_, used, made)) {
        raw_pos_ += used;
        buf_.append(z_->out.get(), made);
        member_done_ = true;
        break;
      }
    }
    const std::size_t old = buf_.size();
    buf_.resize(old + kChunk);
    const std::size_t in_before = std::min<std::size_t>(raw_size() - raw_pos_, 1u << 30);
    z_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw_data() + raw_pos_));
    z_->z.avail_in = static_cast<uInt>(in_before);
    z_->z.next_out = reinterpret_cast<Bytef*>(buf_.data() + old);
    z_->z.avail_out = static_cast<uInt>(kChunk);
    const int rc = inflate(&z_->z, Z_NO_FLUSH);
    raw_pos_ += in_before - z_->z.avail_in;
    buf_.resize(old + (kChunk - z_->z.avail_out));
    if (rc == Z_STREAM_END) {
      member_done_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      member_done_ = member_bad_ = true;
    }
  }
  return std::min(want, buf_.size() - pos_);
}

bool warc_reader::next_member() {
  buf_base_ += buf_.size();  // what is left of the member's output is dropped
  buf_.clear();
  pos_ = 0;
  last_char_ = '\n';
  const std::uint64_t at = member_offset_;
  const bool bad = member_bad_, cut = member_cut_, reported = member_reported_;
  if (bad && member_offset_ + 1 >= raw_base_ && member_offset_ + 1 <= raw_base_ + raw_size()) {
    // zlib may have read past the start of the next member (a truncated member followed by
    // another; zstd likewise), so the search starts right after this member's first byte.
    raw_pos_ = static_cast<std::size_t>(member_offset_ + 1 - raw_base_);
  }
  member_done_ = member_bad_ = member_cut_ = member_reported_ = false;
  const std::uint64_t search_from = raw_offset();
  // The next gzip header (1f 8b 08) or zstd frame (28 b5 2f fd).
  const bool z = codec_ == warc_compression::zstd;
  const std::string_view magic = z ? std::string_view("\x28\xb5\x2f\xfd", 4) : std::string_view("\x1f\x8b\x08", 3);
  bool found = false;
  while (raw_have(magic.size())) {
    const std::string_view d(raw_data(), raw_size());
    const std::size_t k = d.find(magic, raw_pos_);
    if (k != std::string_view::npos) {
      raw_pos_ = k;
      found = true;
      break;
    }
    raw_pos_ = d.size() - (magic.size() - 1);  // the last bytes may start it
  }
  if (!found) raw_pos_ = raw_size();
  const bool junk = !bad && raw_offset() != search_from;
  const std::string unit = z ? "zstd frame" : "gzip member";
  if (bad && !reported) {
    pending_ = "corrupt " + unit + "; reading resumes at the next " + unit;
    pending_offset_ = at;
  } else if (cut && !reported) {
    // The input ended inside the member: in its compressed data before any of it came out (the
    // record is lost), or in its last bytes, the CRC and length trailer (the record was read,
    // but the file is still cut short).
    pending_ = "the input ends inside a " + unit + " (truncated file?)";
    pending_offset_ = at;
  } else if (junk) {
    pending_ = "bytes that are not a " + unit + " were skipped";
    pending_offset_ = search_from;
  }
  if (!found) {
    member_done_ = member_reported_ = true;  // the input is over: nothing more to find or report
    return false;
  }
  if (z) {
    ZSTD_DCtx_reset(zs_->d, ZSTD_reset_session_only);  // the dictionary stays
    zs_->at_boundary = true;
  } else {
    inflateReset(&z_->z);
    z_->fresh = true;
  }
  member_offset_ = raw_offset();
  member_data_offset_ = data_offset();
  return true;
}

void warc_reader::skip_to_record_start() {
  // "WARC/1." at the start of a line, or after any byte when a version line and a field follow
  // (a record cut short, then the next one).
  for (;;) {
    const std::size_t n = avail(kChunk);
    if (n == 0) return;
    const bool more = n == kChunk;  // else the input (or the gzip member) ends here
    const std::string_view v(buf_.data() + pos_, n);
    bool moved = false;
    for (std::size_t k = v.find(kMagic); k != std::string_view::npos; k = v.find(kMagic, k + 1)) {
      const char before = k > 0 ? v[k - 1] : (pos_ > 0 ? buf_[pos_ - 1] : last_char_);
      const start_match m = before == '\n' ? start_match::yes : record_start_at(v, k);
      if (m == start_match::yes) {
        pos_ += k;
        return;
      }
      if (m == start_match::need_more && more && k > 0) {  // decided once more is read
        pos_ += k;
        moved = true;
        break;
      }
    }
    if (moved) continue;
    if (!more) {
      pos_ += n;
      return;
    }
    pos_ += n - (kMagic.size() - 1);  // "WARC/1." may straddle the end of what is there
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP responses

namespace detail {

/// Removes chunked transfer coding; false when the framing breaks off (what was read is kept).
/// A body whose end is missing (the block was capped or truncated) keeps what is there.
bool dechunk(std::string_view in, std::string& out) {
  std::size_t i = 0;
  for (;;) {
    const std::size_t e = in.find('\n', i);
    if (e == std::string_view::npos) return i >= in.size();
    std::string_view line = in.substr(i, e - i);
    const std::size_t semi = line.find(';');  // chunk extensions
    line = warc_trim(line.substr(0, semi));
    if (line.empty() || line.size() > 15) return false;
    std::uint64_t size = 0;
    for (char c : line) {
      const int d = hex_digit_value(c);
      if (d < 0) return false;
      size = size * 16 + static_cast<std::uint64_t>(d);
    }
    i = e + 1;
    if (size == 0) return true;  // the last chunk (trailers ignored)
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(size, in.size() - i));
    out.append(in.data() + i, take);
    if (take < size) return true;  // the body was cut short: keep what there is
    i += take;
    if (in.substr(i, 2) == "\r\n") i += 2;
    else if (in.substr(i, 1) == "\n") i += 1;
    else if (i < in.size()) return false;
  }
}

/// True when a body starts like chunked coding ("1a2f\r\n", possibly with extensions).
bool looks_chunked(std::string_view b) noexcept {
  std::size_t i = 0;
  while (i < b.size() && i < 16 && is_hex_digit(b[i])) ++i;
  if (i == 0 || i == b.size()) return false;
  return b[i] == '\r' || b[i] == '\n' || b[i] == ';' || b[i] == ' ';
}

}  // namespace detail

std::string_view decode_http_body(const http_response& h, std::string_view raw, std::string& scratch,
                                         std::size_t max_bytes, body_status& st) {
  st = body_status::ok;
  std::string_view body = raw;
  std::string chunks;
  const std::string_view te = h.field("Transfer-Encoding");
  if (!te.empty() && te.find("chunked") != std::string_view::npos && detail::looks_chunked(body)) {
    if (!detail::dechunk(body, chunks)) st = body_status::chunked_malformed;
    body = chunks;
  }
  std::string_view ce = h.field("Content-Encoding");
  if (!ce.empty() && !detail::iequals(ce, "identity")) {
    const bool gz = detail::iequals(ce, "gzip") || detail::iequals(ce, "x-gzip");
    const bool df = detail::iequals(ce, "deflate");
    if (!gz && !df) {
      if (st == body_status::ok) st = body_status::encoding_unsupported;
    } else if (body.size() >= 2) {
      const bool magic = static_cast<unsigned char>(body[0]) == 0x1f && static_cast<unsigned char>(body[1]) == 0x8b;
      // deflate is zlib-wrapped (RFC 9110) but raw deflate is common: the zlib header's check
      // bits tell them apart.
      const bool zlib_hdr = (static_cast<unsigned char>(body[0]) & 0x0f) == 8 &&
                            ((static_cast<unsigned>(static_cast<unsigned char>(body[0])) << 8) |
                             static_cast<unsigned char>(body[1])) % 31 == 0;
      if ((gz && magic) || df) {
        scratch.clear();
        const int bits = gz || zlib_hdr ? 15 + 32 : -15;
        const inflate_status is = inflate_bytes(body, scratch, max_bytes, bits);
        if (is == inflate_status::capped) st = body_status::capped;
        else if (is == inflate_status::corrupt && st == body_status::ok) st = body_status::encoding_corrupt;
        // truncated: the block was cut (capped or a short record): keep what was decoded.
        return scratch;
      }
    }
  }
  if (body.data() == chunks.data() && !chunks.empty()) {
    scratch = std::move(chunks);
    return scratch;
  }
  if (body.data() == chunks.data()) return {};
  return body;
}

}  // namespace v1
}  // namespace langsift
