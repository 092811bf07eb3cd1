// langsift — the WARC reader and HTTP response parsing (langsift/warc.hpp), compiled into
// langsift::warc, which links zlib.
#include "langsift/warc.hpp"
#include "langsift/detail/hex.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace langsift {
inline namespace v1 {

namespace detail {

/// zlib's stream state of a gzip-compressed input, ended with the reader.
struct warc_inflater {
  z_stream z{};
  bool live = false;  ///< inflateInit2 succeeded: inflateEnd is due
  warc_inflater() = default;
  warc_inflater(const warc_inflater&) = delete;
  warc_inflater& operator=(const warc_inflater&) = delete;
  ~warc_inflater() {
    if (live) inflateEnd(&z);
  }
};

}  // namespace detail

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
// a problem.
warc_status warc_reader::next(warc_record& r) {
  r.clear();
  if (!started_) start();
  if (resync_) {
    resync_ = false;
    skip_to_record_start();
  }
  if (!skip_blank_lines()) return pending_.empty() ? warc_status::end : take_pending();
  if (!pending_.empty()) return take_pending();
  const std::uint64_t data_off = data_offset();
  const std::uint64_t off = gzip_ ? member_offset_ : data_off;
  std::size_t hend = 0, hlen = 0;
  if (!find_header_end(off, hend, hlen)) return warc_status::error;
  if (const warc_status st = parse_header(std::string_view(buf_.data() + pos_, hend), off, r); st != warc_status::record)
    return st;
  pos_ += hlen;
  r.offset = off;
  r.data_offset = data_off;
  read_block(r);
  if (r.truncated()) {
    r.problem = member_bad_   ? "corrupt gzip data inside the record's block"
                : member_cut_ ? "the input ends inside a gzip member, in the record's block (truncated file?)"
                : gzip_       ? "the gzip member ends inside the record's block (Content-Length too large?)"
                              : "the input ends inside the record's block";
    member_reported_ = member_bad_ || member_cut_;
    note_problem(off, r.problem);
    return warc_status::record;
  }
  if (!read_block_end()) {
    // (A corrupt gzip member may be the cause; it is reported when reading reaches its end.)
    r.problem = "no CRLF CRLF after the record's block (Content-Length wrong?); reading resumes at the next record";
    note_problem(off, r.problem);
    resync_ = true;
    return warc_status::record;
  }
  record_length(r);
  return warc_status::record;
}

bool warc_reader::skip_blank_lines() {
  // Blank lines between records (a writer's extra CRLFs) are tolerated.
  for (;;) {
    if (avail(1) == 0) {
      if (gzip_ && member_done_ && next_member()) continue;
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
        fail(off, member_bad_   ? "corrupt gzip data inside a WARC header section"
                  : member_cut_ ? "the input ends inside a gzip member, in a WARC header section"
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

bool warc_reader::read_block_end() {
  const std::size_t n = avail(4);
  const std::string_view tail(buf_.data() + pos_, n);
  if (tail.substr(0, 4) == "\r\n\r\n") {
    pos_ += 4;
  } else if (tail.substr(0, 2) == "\n\n") {
    pos_ += 2;
  } else if (n <= 2 && tail == std::string_view("\r\n").substr(0, n) && (!gzip_ || member_done_)) {
    // The input or member ends right after the block, without (all of) CRLF CRLF: tolerated.
    pos_ += n;
  } else {
    return false;
  }
  return true;
}

void warc_reader::record_length(warc_record& r) {
  if (!gzip_) {
    r.length = data_offset() - r.offset;
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
    if (gzip_ && member_offset_ >= raw_base_ && member_offset_ < raw_base_ + raw_pos_ &&
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
  if (raw_have(2) && static_cast<unsigned char>(raw_data()[raw_pos_]) == 0x1f &&
      static_cast<unsigned char>(raw_data()[raw_pos_ + 1]) == 0x8b) {
    auto z = std::make_unique<detail::warc_inflater>();
    if (inflateInit2(&z->z, 15 + 16) != Z_OK) return;  // out of memory: read as uncompressed
    z->live = true;
    z_ = std::move(z);
    gzip_ = true;
    member_offset_ = raw_offset();
  }
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
    if (!gzip_) {
      if (!raw_have(1)) break;
      const std::size_t take = raw_size() - raw_pos_;
      buf_.append(raw_data() + raw_pos_, take);
      raw_pos_ += take;
      continue;
    }
    if (member_done_) break;
    if (!raw_have(1)) {  // the input ends inside the member
      member_done_ = member_cut_ = true;
      break;
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
    // another), so the search starts right after this member's first byte.
    raw_pos_ = static_cast<std::size_t>(member_offset_ + 1 - raw_base_);
  }
  member_done_ = member_bad_ = member_cut_ = member_reported_ = false;
  const std::uint64_t search_from = raw_offset();
  bool found = false;
  while (raw_have(3)) {
    const char* d = raw_data();
    const std::size_t size = raw_size();
    std::size_t k = raw_pos_;
    for (; k + 2 < size; ++k)
      if (static_cast<unsigned char>(d[k]) == 0x1f && static_cast<unsigned char>(d[k + 1]) == 0x8b &&
          d[k + 2] == 0x08)
        break;
    raw_pos_ = k;  // at the magic, or at the last two bytes (which may start it)
    if (k + 2 < size) {
      found = true;
      break;
    }
  }
  if (!found) raw_pos_ = raw_size();
  const bool junk = !bad && raw_offset() != search_from;
  if (bad && !reported) {
    pending_ = "corrupt gzip member; reading resumes at the next gzip member";
    pending_offset_ = at;
  } else if (cut && !reported) {
    // The input ended inside the member: in its compressed data before any of it came out (the
    // record is lost), or in its last bytes, the CRC and length trailer (the record was read,
    // but the file is still cut short).
    pending_ = "the input ends inside a gzip member (truncated file?)";
    pending_offset_ = at;
  } else if (junk) {
    pending_ = "bytes that are not a gzip member were skipped";
    pending_offset_ = search_from;
  }
  if (!found) {
    member_done_ = member_reported_ = true;  // the input is over: nothing more to find or report
    return false;
  }
  inflateReset(&z_->z);
  member_offset_ = raw_offset();
  member_data_offset_ = data_offset();
  return true;
}

void warc_reader::skip_to_record_start() {
  for (;;) {
    const std::size_t n = avail(kChunk);
    if (n == 0) return;
    const std::string_view v(buf_.data() + pos_, n);
    for (std::size_t k = 0;; ++k) {
      k = v.find("WARC/1.", k);
      if (k == std::string_view::npos) break;
      const char before = k > 0 ? v[k - 1] : (pos_ > 0 ? buf_[pos_ - 1] : last_char_);
      if (before == '\n') {
        pos_ += k;
        return;
      }
    }
    // Keep the last 6 bytes: "WARC/1." may straddle the end of what is there.
    if (n > 6) {
      pos_ += n - 6;
    } else if (avail(n + 1) == n) {  // nothing more will come
      pos_ += n;
      return;
    }
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
