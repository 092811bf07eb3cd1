// A small WARC writer: records with exact Content-Length, HTTP responses (optionally chunked or
// gzip-encoded), gzip members and zstd frames (WARC-zstd, with an optional dictionary frame). Used
// by langsift-warcgen (test and benchmark inputs) and by the tests, which also use it to write
// malformed files on purpose.
#pragma once

#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace langsift::warcgen {

using fields = std::vector<std::pair<std::string, std::string>>;

/// A deterministic WARC-Record-ID for record number n.
inline std::string record_id(unsigned long long n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "<urn:uuid:%08llx-0000-4000-8000-%012llx>", n & 0xffffffffull, n);
  return buf;
}

struct record_spec {
  std::string version = "WARC/1.1";
  std::string type = "response";
  std::string target_uri;                 ///< empty: no WARC-Target-URI
  std::string id;                         ///< empty: no WARC-Record-ID
  std::string date = "2026-11-23T04:00:00Z";
  std::string content_type;               ///< empty: chosen from the type
  fields extra;                           ///< more header fields
  std::string block;
  long long content_length_delta = 0;     ///< add this to the true Content-Length (malformed files)
  bool omit_content_length = false;
};

/// The bytes of one record: version line, fields, CRLF, block, CRLF CRLF.
inline std::string record(const record_spec& r) {
  std::string out = r.version + "\r\n";
  auto field = [&](std::string_view k, std::string_view v) {
    out.append(k).append(": ").append(v).append("\r\n");
  };
  field("WARC-Type", r.type);
  if (!r.id.empty()) field("WARC-Record-ID", r.id);
  field("WARC-Date", r.date);
  if (!r.target_uri.empty()) field("WARC-Target-URI", r.target_uri);
  std::string ct = r.content_type;
  if (ct.empty()) {
    ct = r.type == "response"   ? "application/http; msgtype=response"
         : r.type == "request"  ? "application/http; msgtype=request"
         : r.type == "warcinfo" ? "application/warc-fields"
                                : "application/octet-stream";
  }
  field("Content-Type", ct);
  for (const auto& [k, v] : r.extra) field(k, v);
  if (!r.omit_content_length)
    field("Content-Length", std::to_string(static_cast<long long>(r.block.size()) + r.content_length_delta));
  out += "\r\n";
  out += r.block;
  out += "\r\n\r\n";
  return out;
}

/// Chunked transfer coding of `body` in chunks of `chunk` bytes.
inline std::string chunked(std::string_view body, std::size_t chunk = 1000) {
  std::string out;
  char buf[32];
  for (std::size_t i = 0; i < body.size(); i += chunk) {
    const std::string_view c = body.substr(i, chunk);
    std::snprintf(buf, sizeof buf, "%zx\r\n", c.size());
    out += buf;
    out += c;
    out += "\r\n";
  }
  out += "0\r\n\r\n";
  return out;
}

/// One gzip member holding `data` (or a zlib stream with window_bits 15, raw deflate with -15).
inline std::string gzip(std::string_view data, int window_bits = 15 + 16) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

/// One zstd frame holding `data`, as WARC-zstd asks: with its content size and checksum (and, with
/// `dict`, the dictionary's ID).
inline std::string zstd(std::string_view data, const ZSTD_CDict* dict = nullptr, int level = 3) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  if (!c) return {};
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
  if (dict) ZSTD_CCtx_refCDict(c, dict);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), data.data(), data.size());
  ZSTD_freeCCtx(c);
  if (ZSTD_isError(n)) return {};
  out.resize(n);
  return out;
}

/// WARC-zstd's dictionary frame: a skippable frame (magic 0x184D2A5D) holding `dict` (a zstd
/// dictionary, 37 a4 30 ec...), itself zstd-compressed when `compress`.
inline std::string zstd_dictionary_frame(std::string_view dict, bool compress = false) {
  const std::string body = compress ? zstd(dict) : std::string(dict);
  std::string out = "\x5d\x2a\x4d\x18";
  for (int i = 0; i < 4; ++i) out += static_cast<char>((body.size() >> (8 * i)) & 0xff);
  return out + body;
}

/// An HTTP/1.1 response: status line, headers, CRLF, body (Content-Length added unless chunked).
inline std::string http_response(int status, const fields& headers, std::string_view body, bool chunked_body = false) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Status") + "\r\n";
  for (const auto& [k, v] : headers) out.append(k).append(": ").append(v).append("\r\n");
  if (chunked_body) {
    out += "Transfer-Encoding: chunked\r\n\r\n";
    out += chunked(body);
  } else {
    out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    out += body;
  }
  return out;
}

/// A warcinfo record's block.
inline std::string warcinfo_block() {
  return "software: langsift-warcgen\r\nformat: WARC File Format 1.1\r\n";
}

}  // namespace langsift::warcgen
