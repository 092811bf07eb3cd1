// langsift/warc.hpp: WARC records (uncompressed and gzip), HTTP responses and bodies, and what
// happens with malformed input. Files are written by tools/warcgen/warc_writer.hpp (and, for
// malformed ones, cut or altered on purpose); tests/data/warc/ holds files written independently
// of it (tests/data/warc/make_fixtures.py).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <zdict.h>
#include <zstd.h>

#include "langsift/default_model.hpp"
#include "langsift/impl/json.hpp"  // detail::json::string, as the report writes "text"
#include "langsift/warc.hpp"
#include "langsift/warc_report.hpp"
#include "warcgen/warc_writer.hpp"

using namespace langsift;
namespace wg = langsift::warcgen;

namespace {

struct read_item {
  warc_status st;
  std::uint64_t offset;      // record offset, or error offset
  std::string type, id, uri, block, problem, error;
  std::uint64_t content_length = 0, block_bytes = 0;
  std::uint64_t data_offset = 0;  // record offset in the uncompressed stream
};

/// Reads everything; `chunk` > 0 reads through a source function in pieces of that size.
std::vector<read_item> read_all(const std::string& data, warc_options o = {}, std::size_t chunk = 0) {
  std::size_t at = 0;
  auto src = [&](char* buf, std::size_t n) {
    const std::size_t k = std::min({n, chunk, data.size() - at});
    std::copy_n(data.data() + at, k, buf);
    at += k;
    return k;
  };
  warc_reader mem(data, o);
  warc_reader streamed(warc_reader::source(src), o);
  warc_reader& reader = chunk ? streamed : mem;
  std::vector<read_item> out;
  warc_record r;
  for (int guard = 0; guard < 1000; ++guard) {
    const warc_status st = reader.next(r);
    if (st == warc_status::end) break;
    read_item it{st, st == warc_status::record ? r.offset : reader.error_offset(), {}, {}, {}, {}, {}, {}};
    if (st == warc_status::record) {
      it.type = std::string(r.type());
      it.id = std::string(r.record_id());
      it.uri = std::string(r.target_uri());
      it.block = r.block;
      it.problem = r.problem;
      it.content_length = r.content_length;
      it.block_bytes = r.block_bytes;
      it.data_offset = r.data_offset;
    } else {
      it.error = reader.error();
    }
    out.push_back(std::move(it));
  }
  return out;
}

wg::record_spec spec(const std::string& type, int n, std::string block, const std::string& version = "WARC/1.1") {
  wg::record_spec s;
  s.version = version;
  s.type = type;
  s.id = wg::record_id(static_cast<unsigned long long>(n));
  if (type != "warcinfo") s.target_uri = "http://example.org/page" + std::to_string(n);
  s.block = std::move(block);
  return s;
}

std::vector<wg::record_spec> three_records(const std::string& version) {
  return {spec("warcinfo", 0, wg::warcinfo_block(), version),
          spec("request", 1, "GET /page1 HTTP/1.1\r\nHost: example.org\r\n\r\n", version),
          spec("response", 2, wg::http_response(200, {{"Content-Type", "text/html"}}, "<p>Hallo Welt</p>"), version)};
}

/// The records' bytes, plain or one gzip member each; `offsets` gets where each starts.
std::string write(const std::vector<wg::record_spec>& recs, bool gz, std::vector<std::uint64_t>* offsets = nullptr) {
  std::string out;
  for (const auto& r : recs) {
    if (offsets) offsets->push_back(out.size());
    const std::string b = wg::record(r);
    out += gz ? wg::gzip(b) : b;
  }
  return out;
}

}  // namespace

TEST_CASE("warc: warc_status, inflate_status and body_status map onto status") {
  CHECK(to_status(warc_status::record) == status::ok);
  CHECK(to_status(warc_status::end) == status::ok);
  CHECK(to_status(warc_status::error) == status::invalid_argument);
  CHECK(to_status(inflate_status::ok) == status::ok);
  CHECK(to_status(inflate_status::capped) == status::truncated);
  CHECK(to_status(inflate_status::truncated) == status::truncated);
  CHECK(to_status(inflate_status::corrupt) == status::conversion_error);
  CHECK(to_status(body_status::ok) == status::ok);
  CHECK(to_status(body_status::chunked_malformed) == status::truncated);
  CHECK(to_status(body_status::capped) == status::truncated);
  CHECK(to_status(body_status::encoding_corrupt) == status::conversion_error);
  CHECK(to_status(body_status::encoding_unsupported) == status::unknown_encoding);
}

TEST_CASE("warc: WARC/1.0 and 1.1 records round-trip, uncompressed and gzip, in memory and streamed") {
  for (const std::string version : {"WARC/1.0", "WARC/1.1"}) {
    for (const bool gz : {false, true}) {
      for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100000}}) {
        INFO(version << " gzip " << gz << " chunk " << chunk);
        const auto recs = three_records(version);
        std::vector<std::uint64_t> offsets;
        const std::string data = write(recs, gz, &offsets);
        const auto got = read_all(data, {}, chunk);
        REQUIRE(got.size() == 3);
        for (std::size_t k = 0; k < 3; ++k) {
          CHECK(got[k].st == warc_status::record);
          CHECK(got[k].offset == offsets[k]);
          CHECK(got[k].type == recs[k].type);
          CHECK(got[k].id == recs[k].id);
          CHECK(got[k].uri == recs[k].target_uri);
          CHECK(got[k].block == recs[k].block);
          CHECK(got[k].content_length == recs[k].block.size());
          CHECK(got[k].problem.empty());
        }
      }
    }
  }
}

TEST_CASE("warc: fields, version, angle-bracketed URIs, LF-only lines and extra blank lines") {
  const std::string data =
      "WARC/1.0\nWARC-Type: resource\nWARC-Target-URI: <http://example.org/a>\nwarc-record-id: <urn:x:1>\n"
      "X-Long: one\n two\nContent-Length: 5\n\nhello\n\n\r\n\r\n"
      "WARC/1.1\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
  warc_reader reader(data);
  warc_record r;
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.version == "WARC/1.0");
  CHECK(r.type() == "resource");
  CHECK(r.target_uri() == "http://example.org/a");
  CHECK(r.record_id() == "<urn:x:1>");  // field names are case-insensitive
  CHECK(r.field("X-Long") == "one two");
  CHECK(r.block == "hello");
  CHECK(r.problem.empty());
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.version == "WARC/1.1");
  CHECK(r.type() == "metadata");
  CHECK(r.block.empty());
  CHECK(r.problem.empty());
  CHECK(reader.next(r) == warc_status::end);
  CHECK(reader.next(r) == warc_status::end);
  warc_reader empty(std::string_view{});
  CHECK(empty.next(r) == warc_status::end);
}

TEST_CASE("warc: all records in one gzip member, and a multi-member file read as a stream") {
  const auto recs = three_records("WARC/1.1");
  const std::string whole = wg::gzip(write(recs, false));
  const auto got = read_all(whole, {}, 3);
  REQUIRE(got.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(got[k].st == warc_status::record);
    CHECK(got[k].offset == 0);  // the member's start
    CHECK(got[k].block == recs[k].block);
  }
}

TEST_CASE("warc: a block longer than max_block_bytes is kept in part, skipped, and the next record is read") {
  std::string big(300000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 97) big[i] = '\n';
  const std::vector<wg::record_spec> recs = {spec("resource", 1, big), spec("resource", 2, "small")};
  for (const bool gz : {false, true}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
      warc_options o;
      o.max_block_bytes = 1000;
      const auto got = read_all(write(recs, gz), o, chunk);
      REQUIRE(got.size() == 2);
      CHECK(got[0].st == warc_status::record);
      CHECK(got[0].block == big.substr(0, 1000));
      CHECK(got[0].block_bytes == big.size());
      CHECK(got[0].content_length == big.size());
      CHECK(got[0].problem.empty());
      CHECK(got[1].block == "small");
    }
  }
  const std::string bytes = write(recs, false);  // the reader views it: it must outlive the reader
  warc_reader reader(bytes, warc_options{1000, 65536});
  warc_record r;
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.skipped_bytes() == big.size() - 1000);
  CHECK_FALSE(r.truncated());
}

TEST_CASE("warc: a Content-Length too small is reported and the next record is read") {
  auto recs = three_records("WARC/1.1");
  recs[1].content_length_delta = -10;
  for (const bool gz : {false, true}) {
    INFO("gzip " << gz);
    std::vector<std::uint64_t> offsets;
    const auto got = read_all(write(recs, gz, &offsets));
    REQUIRE(got.size() == 3);
    CHECK(got[0].problem.empty());
    CHECK(got[1].st == warc_status::record);
    CHECK(got[1].offset == offsets[1]);
    CHECK_THAT(got[1].problem, Catch::Contains("Content-Length"));
    CHECK(got[1].block == recs[1].block.substr(0, recs[1].block.size() - 10));
    CHECK(got[2].st == warc_status::record);
    CHECK(got[2].offset == offsets[2]);
    CHECK(got[2].block == recs[2].block);
    CHECK(got[2].problem.empty());
  }
}

TEST_CASE("warc: a Content-Length too large stops at the end of the gzip member (uncompressed: at the next record)") {
  auto recs = three_records("WARC/1.1");
  recs[1].content_length_delta = +50;
  // gzip: the record never spans members, so nothing else is lost.
  std::vector<std::uint64_t> offsets;
  auto got = read_all(write(recs, true, &offsets));
  REQUIRE(got.size() == 3);
  CHECK(got[1].st == warc_status::record);
  CHECK_THAT(got[1].problem, Catch::Contains("gzip member ends"));
  CHECK(got[1].block_bytes == recs[1].block.size() + 4);  // the block and the CRLF CRLF after it
  CHECK(got[2].offset == offsets[2]);
  CHECK(got[2].block == recs[2].block);
  // Uncompressed: the block runs into the next record, whose version line ends it; reading
  // resumes there (before 2026-11-27 that record was lost).
  recs.push_back(spec("resource", 3, "after"));
  offsets.clear();
  got = read_all(write(recs, false, &offsets));
  REQUIRE(got.size() == 4);
  CHECK(got[1].offset == offsets[1]);
  CHECK_THAT(got[1].problem, Catch::Contains("another record starts inside the record's block"));
  CHECK(got[1].block == recs[1].block + "\r\n\r\n");  // the bytes up to the next record
  CHECK(got[1].block_bytes < got[1].content_length);
  CHECK(got[2].offset == offsets[2]);
  CHECK(got[2].block == recs[2].block);
  CHECK(got[2].problem.empty());
  CHECK(got[3].offset == offsets[3]);
  CHECK(got[3].block == "after");
}

TEST_CASE("warc: a truncated gzip member in the middle is reported at its offset, the next member is read") {
  const auto recs = three_records("WARC/1.1");
  for (const std::size_t keep_percent : {20, 50, 90, 99}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{5}, std::size_t{1000}}) {
      INFO("kept " << keep_percent << "% chunk " << chunk);
      const std::string m0 = wg::gzip(wg::record(recs[0])), m1 = wg::gzip(wg::record(recs[1])),
                        m2 = wg::gzip(wg::record(recs[2]));
      const std::string data = m0 + m1.substr(0, m1.size() * keep_percent / 100) + m2;
      const auto got = read_all(data, {}, chunk);
      REQUIRE(got.size() >= 3);
      CHECK(got.front().block == recs[0].block);
      CHECK(got.back().st == warc_status::record);
      CHECK(got.back().offset == m0.size() + m1.size() * keep_percent / 100);
      CHECK(got.back().block == recs[2].block);
      // Between them: the damaged record (delivered truncated) and/or an error, at m0.size().
      bool reported = false;
      for (std::size_t k = 1; k + 1 < got.size(); ++k) {
        CHECK(got[k].offset == m0.size());
        reported = reported || got[k].st == warc_status::error || !got[k].problem.empty();
      }
      CHECK(reported);
    }
  }
}

TEST_CASE("warc: corrupt gzip data and junk between members are reported, reading goes on") {
  const auto recs = three_records("WARC/1.1");
  const std::string m0 = wg::gzip(wg::record(recs[0])), m1 = wg::gzip(wg::record(recs[1])),
                    m2 = wg::gzip(wg::record(recs[2]));
  std::string bad = m1;
  for (std::size_t i = 12; i < bad.size() - 8; i += 3) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  auto got = read_all(m0 + bad + m2);
  REQUIRE(got.size() >= 3);
  CHECK(got.front().block == recs[0].block);
  CHECK(got.back().block == recs[2].block);
  CHECK(got.back().offset == m0.size() + bad.size());
  bool reported = false;
  for (std::size_t k = 1; k + 1 < got.size(); ++k) reported = reported || got[k].st == warc_status::error || !got[k].problem.empty();
  CHECK(reported);

  got = read_all(m0 + "garbage between members" + m2);
  REQUIRE(got.size() == 3);
  CHECK(got[1].st == warc_status::error);
  CHECK(got[1].offset == m0.size());
  CHECK(got[2].block == recs[2].block);

  // A file that ends inside the last member.
  got = read_all(m0 + m2.substr(0, m2.size() - 20));
  REQUIRE(got.size() == 2);
  CHECK(got[1].offset == m0.size());
  CHECK((got[1].st == warc_status::error || !got[1].problem.empty()));
}

TEST_CASE("warc: records without Content-Length, junk and a file cut inside a header are errors with offsets") {
  auto recs = three_records("WARC/1.0");
  recs[1].omit_content_length = true;
  std::vector<std::uint64_t> offsets;
  auto got = read_all(write(recs, false, &offsets));
  REQUIRE(got.size() == 3);
  CHECK(got[1].st == warc_status::error);
  CHECK(got[1].offset == offsets[1]);
  CHECK_THAT(got[1].error, Catch::Contains("Content-Length"));
  CHECK(got[2].offset == offsets[2]);
  CHECK(got[2].block == recs[2].block);

  const std::string r2 = wg::record(recs[2]);
  got = read_all("this is not a WARC file\r\nat all\r\n\r\n" + r2);
  REQUIRE(got.size() == 2);
  CHECK(got[0].st == warc_status::error);
  CHECK(got[0].offset == 0);
  CHECK(got[1].block == recs[2].block);

  got = read_all(r2 + r2.substr(0, 30));
  REQUIRE(got.size() == 2);
  CHECK(got[1].st == warc_status::error);
  CHECK(got[1].offset == r2.size());
  CHECK_THAT(got[1].error, Catch::Contains("ends inside"));

  got = read_all(r2 + r2.substr(0, r2.size() - 30));  // cut inside the block
  REQUIRE(got.size() == 2);
  CHECK(got[1].st == warc_status::record);
  CHECK(got[1].block_bytes < got[1].content_length);
  CHECK_FALSE(got[1].problem.empty());
}

TEST_CASE("warc: header sections longer than the limit are errors, not memory") {
  std::string data = "WARC/1.1\r\nWARC-Type: resource\r\nX: " + std::string(200000, 'a') + "\r\nContent-Length: 1\r\n\r\nA\r\n\r\n";
  data += wg::record(spec("resource", 2, "next"));
  const auto got = read_all(data, {}, 4096);
  REQUIRE(got.size() == 2);
  CHECK(got[0].st == warc_status::error);
  CHECK_THAT(got[0].error, Catch::Contains("longer than the limit"));
  CHECK(got[1].block == "next");
}

TEST_CASE("http: status line, fields and body offset") {
  const std::string block = "HTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\ncontent-language: de\r\n"
                            "X-Folded: a\r\n b\r\n\r\n<p>body</p>";
  http_response h;
  REQUIRE(parse_http_response(block, h));
  CHECK(h.status == 404);
  CHECK(h.version == "HTTP/1.1");
  CHECK(h.reason == "Not Found");
  CHECK(h.field("Content-Type") == "text/html; charset=utf-8");
  CHECK(h.field("Content-Language") == "de");
  CHECK(h.complete);
  CHECK(block.substr(h.body_offset) == "<p>body</p>");

  REQUIRE(parse_http_response("HTTP/1.0 200\nA: b\n\nx", h));
  CHECK(h.status == 200);
  CHECK(h.field("a") == "b");
  CHECK(h.body_offset == 19);

  REQUIRE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n", h));  // cut in the headers
  CHECK_FALSE(h.complete);
  CHECK(h.field("Content-Type") == "text/html");

  CHECK_FALSE(parse_http_response("<html>no headers</html>", h));
  CHECK_FALSE(parse_http_response("HTTP/1.1 2x0 OK\r\n\r\n", h));
  CHECK_FALSE(parse_http_response("", h));
}

TEST_CASE("http: chunked and gzip/deflate bodies are decoded, headers that lie are ignored") {
  const std::string body = "<p>Der schnelle braune Fuchs springt \xc3\xbc" "ber den faulen Hund.</p>" + std::string(3000, 'z');
  auto decode = [&](const wg::fields& headers, const std::string& raw, std::size_t cap, body_status& st) {
    std::string block = "HTTP/1.1 200 OK\r\n";
    for (const auto& [k, v] : headers) block += k + ": " + v + "\r\n";
    block += "\r\n" + raw;
    http_response h;
    REQUIRE(parse_http_response(block, h));
    std::string scratch;
    return std::string(decode_http_body(h, std::string_view(block).substr(h.body_offset), scratch, cap, st));
  };
  body_status st;
  CHECK(decode({}, body, 1 << 20, st) == body);
  CHECK(st == body_status::ok);
  CHECK(decode({{"Transfer-Encoding", "chunked"}}, wg::chunked(body, 100), 1 << 20, st) == body);
  CHECK(st == body_status::ok);
  CHECK(decode({{"Content-Encoding", "gzip"}}, wg::gzip(body), 1 << 20, st) == body);
  CHECK(st == body_status::ok);
  CHECK(decode({{"Content-Encoding", "x-gzip"}, {"Transfer-Encoding", "chunked"}}, wg::chunked(wg::gzip(body), 50), 1 << 20, st) == body);
  CHECK(st == body_status::ok);
  CHECK(decode({{"Content-Encoding", "deflate"}}, wg::gzip(body, 15), 1 << 20, st) == body);   // zlib wrapper
  CHECK(decode({{"Content-Encoding", "deflate"}}, wg::gzip(body, -15), 1 << 20, st) == body);  // raw deflate
  CHECK(st == body_status::ok);
  // Decoded payloads stored with the original headers kept.
  CHECK(decode({{"Content-Encoding", "gzip"}, {"Transfer-Encoding", "chunked"}}, body, 1 << 20, st) == body);
  CHECK(st == body_status::ok);
  // br cannot be decoded: the raw bytes and a status.
  CHECK(decode({{"Content-Encoding", "br"}}, "\x1b\x02\x00", 1 << 20, st) == "\x1b\x02");
  CHECK(st == body_status::encoding_unsupported);
  // A gzip bomb stops at the cap.
  const std::string zeros(4 << 20, '\0');
  CHECK(decode({{"Content-Encoding", "gzip"}}, wg::gzip(zeros), 65536, st).size() == 65536);
  CHECK(st == body_status::capped);
  // Cut short (a capped block): what there is.
  const std::string gz = wg::gzip(body);
  const std::string part = decode({{"Content-Encoding", "gzip"}}, gz.substr(0, gz.size() / 2), 1 << 20, st);
  CHECK(body.compare(0, part.size(), part) == 0);
  const std::string ch = wg::chunked(body, 100);
  const std::string cpart = decode({{"Transfer-Encoding", "chunked"}}, ch.substr(0, 1234), 1 << 20, st);
  CHECK(cpart.size() > 1000);
  CHECK(body.compare(0, cpart.size(), cpart) == 0);
  // Broken chunk framing keeps the chunks before it.
  CHECK(decode({{"Transfer-Encoding", "chunked"}}, "5\r\nhello\r\nzz\r\nmore", 1 << 20, st) == "hello");
  CHECK(st == body_status::chunked_malformed);
  // Corrupt gzip data.
  std::string bad = gz;
  for (std::size_t i = 20; i < bad.size(); i += 2) bad[i] = static_cast<char>(bad[i] ^ 0x33);
  decode({{"Content-Encoding", "gzip"}}, bad, 1 << 20, st);
  CHECK(st == body_status::encoding_corrupt);
}

TEST_CASE("warc: a gzip file cut anywhere but between members is reported, in its data or its trailer") {
  // Every prefix of a multi-member file: unless it ends exactly between members, reading it
  // reports a problem (before the fix, a cut in a member's compressed data before any output, or in
  // its 8-byte trailer, lost the record or went unreported).
  const auto recs = three_records("WARC/1.1");
  std::vector<std::uint64_t> offsets;
  const std::string data = write(recs, true, &offsets);
  offsets.push_back(data.size());
  for (std::size_t cut = 1; cut < data.size(); ++cut) {
    const bool boundary = std::find(offsets.begin(), offsets.end(), cut) != offsets.end();
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{7}}) {
      INFO("cut at " << cut << " of " << data.size() << ", chunk " << chunk);
      const auto got = read_all(data.substr(0, cut), {}, chunk);
      bool reported = false;
      std::size_t complete = 0;
      for (const auto& g : got) {
        reported = reported || g.st == warc_status::error || !g.problem.empty();
        if (g.st == warc_status::record && g.problem.empty()) ++complete;
      }
      if (boundary) {
        CHECK_FALSE(reported);
        CHECK(complete == static_cast<std::size_t>(std::find(offsets.begin(), offsets.end(), cut) - offsets.begin()));
      } else {
        CHECK(reported);
      }
    }
  }
}

TEST_CASE("warc: the sample file cut in its last member's trailer is reported") {
  const std::string path = std::string(LANGSIFT_TEST_DATA_DIR) + "/warc/sample.warc.gz";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  std::string data;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  std::fclose(f);
  REQUIRE(data.size() > 8);
  const auto whole = read_all(data);
  for (const auto& g : whole) CHECK(g.st == warc_status::record);
  const auto cut = read_all(data.substr(0, data.size() - 6));  // inside the CRC32/ISIZE trailer
  REQUIRE(cut.size() == whole.size() + 1);
  CHECK(cut.back().st == warc_status::error);
  CHECK(cut.back().error.find("truncated") != std::string::npos);
}

TEST_CASE("warc statistics: merge, TSV round trip, concatenated tables add up, bad lines refused") {
  warc_statistics a, b;
  warc_report x;
  x.classified = true;
  x.top = "de";
  x.encoding = "utf-8";
  x.body_bytes = 100;
  x.text_bytes = 80;
  x.languages = {{"de", 60}, {"en", 20}};
  a.add(x);
  warc_report skipped;
  skipped.skipped = true;
  a.add(skipped);
  x.top = "fr";
  x.encoding = "windows-1252";
  x.languages = {{"fr", 80}};
  b.add(x);
  b.add_malformed(2);
  warc_statistics ab = a;
  ab.merge(b);
  CHECK(ab.records == 3);
  CHECK(ab.pages == 2);
  CHECK(ab.skipped == 1);
  CHECK(ab.malformed == 2);
  CHECK(ab.language["de"] == warc_counts{1, 60});
  CHECK(ab.language["en"] == warc_counts{0, 20});
  CHECK(ab.language_encoding[{"fr", "windows-1252"}] == warc_counts{1, 80});
  warc_statistics back;
  REQUIRE(warc_statistics::parse_tsv(ab.tsv(), back));
  CHECK(back == ab);
  CHECK(back.tsv() == ab.tsv());
  warc_statistics sum;
  REQUIRE(warc_statistics::parse_tsv(a.tsv() + b.tsv(), sum));
  CHECK(sum == ab);
  std::string error;
  warc_statistics untouched = a;
  CHECK_FALSE(warc_statistics::parse_tsv("total\trecords\tmany\n", untouched, &error));
  CHECK(error == "line 1: not a number");
  CHECK(untouched == a);
  CHECK_FALSE(warc_statistics::parse_tsv("# comment\nlanguage\tde\t1\n", untouched, &error));
  CHECK(error == "line 2: not a statistics line");
  CHECK_FALSE(warc_statistics::parse_tsv("total\tpagez\t1\n", untouched, &error));
  CHECK(error == "line 1: unknown total");
}

TEST_CASE("warc: a record's length covers its gzip member (or its bytes), so offset and length cut it out alone") {
  const auto recs = three_records("WARC/1.1");
  for (const bool gz : {true, false}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{3}, std::size_t{1000}}) {
      INFO("gzip " << gz << " chunk " << chunk);
      std::vector<std::uint64_t> offsets;
      const std::string data = write(recs, gz, &offsets);
      offsets.push_back(data.size());
      warc_reader mem(data);
      std::size_t at = 0;
      warc_reader streamed(warc_reader::source([&](char* buf, std::size_t n) {
        const std::size_t k = std::min({n, chunk, data.size() - at});
        std::copy_n(data.data() + at, k, buf);
        at += k;
        return k;
      }));
      warc_reader& reader = chunk ? streamed : mem;
      warc_record r;
      for (std::size_t i = 0; i < recs.size(); ++i) {
        REQUIRE(reader.next(r) == warc_status::record);
        CHECK(r.offset == offsets[i]);
        CHECK(r.length == offsets[i + 1] - offsets[i]);
        // The slice [offset, offset + length) is that record, whole (Common Crawl's index use).
        warc_reader alone(std::string_view(data).substr(r.offset, r.length));
        warc_record one;
        REQUIRE(alone.next(one) == warc_status::record);
        CHECK(one.record_id() == r.record_id());
        CHECK(one.block == r.block);
        CHECK(alone.next(one) == warc_status::end);
      }
    }
  }
  // Several records in one gzip member: no length of their own.
  std::string plain;
  for (const auto& s : recs) plain += wg::record(s);
  const std::string member = wg::gzip(plain);
  warc_reader one_member(member);
  warc_record r;
  std::size_t n = 0;
  while (one_member.next(r) == warc_status::record) {
    CHECK(r.length == 0);
    ++n;
  }
  CHECK(n == recs.size());
}

// ---------------------------------------------------------------------------------------------
// Damaged framing in uncompressed input (and inside one gzip member): a record cut anywhere and
// followed by whole records, Content-Length wrong by any amount. Every record must come out whole
// or be reported; none may be merged with the next, made up, or lost without a report.

namespace {

/// A record the reading must deliver whole: where it starts (in the uncompressed stream) and what it holds.
struct whole_record {
  std::uint64_t offset;
  std::string type, id, block;
};

whole_record whole(std::uint64_t offset, const wg::record_spec& s) { return {offset, s.type, s.id, s.block}; }

/// What is wrong with a reading, "" when nothing: the records in `want` come out whole, each once
/// and in order; bytes [dlo, dhi) are a damaged record (dhi > dlo), which must be reported (an
/// error at an offset in [dlo, dhi), or a record at dlo with a problem); nothing else comes out.
/// `data_offsets`: compare records by their offset in the uncompressed stream (one gzip member:
/// every record's offset is the member's), and errors are not placed.
std::string judge(const std::vector<read_item>& got, const std::vector<whole_record>& want, std::uint64_t dlo,
                  std::uint64_t dhi, bool data_offsets = false) {
  std::size_t next = 0;
  bool reported = false;
  for (const auto& g : got) {
    if (g.st == warc_status::error) {
      if (!data_offsets && (g.offset < dlo || g.offset >= dhi))
        return "an error at offset " + std::to_string(g.offset) + " (" + g.error + ")";
      reported = true;
      continue;
    }
    const std::uint64_t off = data_offsets ? g.data_offset : g.offset;
    if (!g.problem.empty()) {
      if (dhi <= dlo || off != dlo) return "a record at " + std::to_string(off) + " with a problem (" + g.problem + ")";
      reported = true;
      continue;
    }
    if (next == want.size() || off != want[next].offset || g.type != want[next].type || g.id != want[next].id ||
        g.block != want[next].block)
      return "a record at " + std::to_string(off) + " (" + g.type + " " + g.id + ", " + std::to_string(g.block.size()) +
             " bytes of block) that is not the next whole record";
    ++next;
  }
  if (next != want.size()) return "the whole record at " + std::to_string(want[next].offset) + " is missing";
  if (dhi > dlo && !reported) return "the damaged record is not reported";
  return {};
}

/// Where the block of the record at the start of `data` ends by its Content-Length, if its header
/// section is all there: a Content-Length that points at CRLF CRLF followed by a record or the end
/// (blank lines between) makes bytes that are well-formed by the framing, whatever they held
/// before. Returns 0 otherwise.
std::size_t framing_end_if_consistent(const std::string& data, std::uint64_t content_length) {
  const std::size_t hend = data.find("\r\n\r\n");
  if (hend == std::string::npos || data.compare(0, 8, "WARC/1.1") != 0) return 0;
  const std::size_t end = hend + 4 + content_length;
  if (end > data.size()) return 0;
  std::size_t i = end;
  if (data.compare(i, 4, "\r\n\r\n") == 0) i += 4;
  else if (data.size() - i <= 2 && std::string_view("\r\n").substr(0, data.size() - i) == data.substr(i)) return end;
  else return 0;
  while (i < data.size() && (data[i] == '\r' || data[i] == '\n')) ++i;
  return i == data.size() || data.compare(i, 5, "WARC/") == 0 ? end : 0;
}

std::string german_text(std::size_t lines) {
  static const char* const s[] = {"Der Stadtrat hat am Dienstag den Haushalt f\xc3\xbcr das kommende Jahr beschlossen.",
                                  "Die Stra\xc3\x9f" "enbahn f\xc3\xa4hrt wieder nach dem gewohnten Fahrplan.",
                                  "Im Museum er\xc3\xb6" "ffnet n\xc3\xa4" "chste Woche eine Ausstellung \xc3\xbc" "ber alte Karten.",
                                  "Viele B\xc3\xbcrger kamen zur Versammlung in der Turnhalle der Grundschule."};
  std::string out;
  for (std::size_t i = 0; i < lines; ++i) out += std::string(s[i % 4]) + "\n";
  return out;
}

/// Records of a crawl (WARC) and of extracted text (WET: conversion records), all different.
std::vector<wg::record_spec> crawl_records() {
  return {spec("warcinfo", 10, wg::warcinfo_block()),
          spec("request", 11, "GET /page11 HTTP/1.1\r\nHost: example.org\r\n\r\n"),
          spec("response", 12, wg::http_response(200, {{"Content-Type", "text/html; charset=utf-8"}},
                                                   "<html><body><p>" + german_text(12) + "</p></body></html>")),
          spec("metadata", 13, "fetchTimeMs: 12\r\n")};
}

std::vector<wg::record_spec> wet_records() {
  auto info = spec("warcinfo", 20, "Software-Info: langsift-test\r\nExtracted-Date: Mon, 23 Nov 2026\r\n");
  std::vector<wg::record_spec> out = {info};
  for (int n = 21; n <= 23; ++n) {
    auto c = spec("conversion", n, german_text(static_cast<std::size_t>(n - 19) * 3));
    c.content_type = "text/plain";
    c.extra = {{"WARC-Refers-To", wg::record_id(static_cast<unsigned long long>(n + 100))},
               {"WARC-Block-Digest", "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}};
    out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("warc: a plain WARC or WET file cut at every byte: the records before the cut are whole, the cut one is reported") {
  for (const auto& recs : {crawl_records(), wet_records()}) {
    std::vector<std::uint64_t> offsets;
    const std::string data = write(recs, false, &offsets);
    offsets.push_back(data.size());
    std::size_t failures = 0;
    for (std::size_t cut = 0; cut <= data.size(); ++cut) {
      const std::size_t k = static_cast<std::size_t>(std::upper_bound(offsets.begin(), offsets.end(), cut) - offsets.begin()) - 1;
      std::vector<whole_record> want;
      for (std::size_t i = 0; i < k; ++i) want.push_back(whole(offsets[i], recs[i]));
      std::uint64_t dlo = offsets[k], dhi = cut;  // empty when the cut is between records
      if (k + 1 < offsets.size() && cut + 4 - offsets[k + 1] <= 2) {
        // The file ends right after a block, without (all of) its CRLF CRLF: tolerated, the
        // record is whole.
        want.push_back(whole(offsets[k], recs[k]));
        dhi = dlo;
      }
      for (const std::size_t chunk : {std::size_t{0}, std::size_t{7}}) {
        const std::string why = judge(read_all(data.substr(0, cut), {}, chunk), want, dlo, dhi);
        if (!why.empty() && ++failures <= 10) FAIL_CHECK("cut at " << cut << " of " << data.size() << ", chunk " << chunk << ": " << why);
      }
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("warc: a record cut at every byte and followed by whole records: each comes out whole or reported, never merged (plain, WET, one gzip member, one zstd frame)") {
  // The issue-29 case: a record cut inside its header swallowed the next record's header (a fake
  // record, no report); cut inside its block, its Content-Length swallowed the next record.
  std::size_t failures = 0, consistent = 0, cases = 0, pairs = 0;
  for (const auto& recs : {crawl_records(), wet_records()}) {
    const wg::record_spec tail = spec("resource", 99, "z");
    for (const auto& a : recs) {
      const std::string ra = wg::record(a);
      for (const auto& b : recs) {
        if (&a == &b) continue;
        ++pairs;
        const std::string rb = wg::record(b), rt = wg::record(tail);
        for (std::size_t cut = 0; cut <= ra.size(); ++cut) {
          const std::string data = ra.substr(0, cut) + rb + rt;
          std::vector<whole_record> want;
          std::uint64_t dhi = cut;  // the cut record [0, cut), reported unless whole or absent
          if (cut == ra.size()) {
            want.push_back(whole(0, a));
            dhi = 0;
          }
          want.push_back(whole(cut, b));
          want.push_back(whole(cut + rb.size(), tail));
          // A cut that leaves the framing consistent (a's Content-Length ends at CRLF CRLF before
          // a record or the end) cannot be told from a well-formed record whose block holds the
          // bytes: then the reading must be what the framing says.
          if (const std::size_t end = cut < ra.size() && cut > 0 ? framing_end_if_consistent(data, a.block.size()) : 0) {
            ++consistent;
            want.clear();
            want.push_back({0, a.type, a.id, data.substr(end - a.block.size(), a.block.size())});
            if (end <= cut + rb.size()) want.push_back(whole(cut + rb.size(), tail));
            dhi = 0;
          }
          for (const int mode : {0, 1, 2, 3}) {  // in memory, streamed 7 bytes at a time, one gzip member, one zstd frame
            ++cases;
            const std::string why = mode == 2   ? judge(read_all(wg::gzip(data)), want, 0, dhi, true)
                                    : mode == 3 ? judge(read_all(wg::zstd(data)), want, 0, dhi, true)
                                                : judge(read_all(data, {}, mode == 1 ? 7 : 0), want, 0, dhi);
            if (!why.empty() && ++failures <= 10)
              FAIL_CHECK(a.type << " " << a.id << " cut at " << cut << " of " << ra.size() << ", then " << b.type << " "
                                << b.id << ", mode " << mode << ": " << why);
          }
        }
      }
    }
  }
  CHECK(failures == 0);
  CHECK(cases > 50000);
  // The consistent cuts are the few where a's Content-Length ends exactly at the end of b or of the
  // record after it (at its CRLF CRLF, before or after blank lines, or at the end of the input with
  // 0 or 2 of its 4 bytes): at most 6 of the about 1,000 cuts of a pair.
  CHECK(consistent <= 6 * pairs);
}

TEST_CASE("warc: a Content-Length too small or too large by any amount: the next records come out whole (uncompressed)") {
  std::size_t failures = 0, consistent = 0, pairs = 0;
  for (const auto& recs : {crawl_records(), wet_records()}) {
    const wg::record_spec tail = spec("resource", 99, "z");
    const std::string rt = wg::record(tail);
    for (std::size_t i = 0; i + 1 < recs.size(); ++i) {
      ++pairs;
      const std::string rb = wg::record(recs[i + 1]);
      const long long size = static_cast<long long>(recs[i].block.size());
      for (long long delta = -size; delta <= static_cast<long long>(rb.size() + rt.size()) + 8; ++delta) {
        if (delta == 0) continue;
        auto a = recs[i];
        a.content_length_delta = delta;
        const std::string ra = wg::record(a);
        const std::string data = ra + rb + rt;
        std::vector<whole_record> want = {whole(ra.size(), recs[i + 1]), whole(ra.size() + rb.size(), tail)};
        std::uint64_t dhi = ra.size();
        if (const std::size_t end = framing_end_if_consistent(data, static_cast<std::uint64_t>(size + delta))) {
          ++consistent;
          want.clear();
          want.push_back({0, a.type, a.id, data.substr(end - static_cast<std::size_t>(size + delta))});
          want.back().block.resize(static_cast<std::size_t>(size + delta));
          for (const auto& w : {whole(ra.size(), recs[i + 1]), whole(ra.size() + rb.size(), tail)})
            if (w.offset >= end) want.push_back(w);
          dhi = 0;
        }
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{7}}) {
          const std::string why = judge(read_all(data, {}, chunk), want, 0, dhi);
          if (!why.empty() && ++failures <= 10)
            FAIL_CHECK(a.type << " " << a.id << " Content-Length " << delta << ", chunk " << chunk << ": " << why);
        }
      }
    }
  }
  CHECK(failures == 0);
  // Consistent: a Content-Length too large by the length of the next record or of the next two
  // (the framing then holds: that record is in the block, unreported).
  CHECK(consistent <= 6 * pairs);
}

TEST_CASE("warc: the issue-29 case: a record cut in its WARC-Target-URI is reported, the next file's warcinfo is read") {
  // head -c N a.warc > c.warc; cat c.warc b.warc: the cut record's header ran into b's warcinfo,
  // which disappeared, and a fake response (b's warcinfo block under a's URI) came out unreported.
  const auto recs = crawl_records();
  const std::string ra = wg::record(recs[2]);
  const std::size_t cut = ra.find("example.org/page12") + 13;
  const std::string rb = wg::record(recs[0]);
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
    const auto got = read_all(ra.substr(0, cut) + rb, {}, chunk);
    REQUIRE(got.size() == 2);
    CHECK(got[0].st == warc_status::error);
    CHECK(got[0].offset == 0);
    CHECK_THAT(got[0].error, Catch::Contains("another record starts inside"));
    CHECK(got[1].st == warc_status::record);
    CHECK(got[1].offset == cut);
    CHECK(got[1].type == "warcinfo");
    CHECK(got[1].id == recs[0].id);
    CHECK(got[1].block == recs[0].block);
    CHECK(got[1].problem.empty());
  }
}

// ---------------------------------------------------------------------------------------------
// zstd input (the IIPC's WARC-zstd): frames read as one stream, a dictionary frame first or not.

namespace {

/// Records of a small crawl, with enough of them and enough alike to train a zstd dictionary.
std::vector<wg::record_spec> many_records(int n) {
  std::vector<wg::record_spec> out = {spec("warcinfo", 0, wg::warcinfo_block())};
  for (int i = 1; i <= n; ++i)
    out.push_back(spec("response", i, wg::http_response(200, {{"Content-Type", "text/html; charset=utf-8"}},
                                                        "<html><body><p>" + german_text(static_cast<std::size_t>(i % 7 + 1)) +
                                                            "</p><p>Seite " + std::to_string(i) + "</p></body></html>")));
  return out;
}

/// A zstd dictionary trained on the records.
std::string train_dictionary(const std::vector<wg::record_spec>& recs) {
  std::string samples;
  std::vector<std::size_t> sizes;
  for (const auto& r : recs) {
    const std::string b = wg::record(r);
    samples += b;
    sizes.push_back(b.size());
  }
  std::string dict(4096, '\0');
  const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(),
                                              static_cast<unsigned>(sizes.size()));
  REQUIRE_FALSE(ZDICT_isError(n));
  dict.resize(n);
  return dict;
}

/// The records, one zstd frame each (with `dict`, after WARC-zstd's dictionary frame, compressed
/// or not); `offsets` gets where each frame starts.
std::string write_zstd(const std::vector<wg::record_spec>& recs, const std::string& dict = {}, bool dict_compressed = false,
                       std::vector<std::uint64_t>* offsets = nullptr) {
  std::string out = dict.empty() ? std::string() : wg::zstd_dictionary_frame(dict, dict_compressed);
  ZSTD_CDict* cd = dict.empty() ? nullptr : ZSTD_createCDict(dict.data(), dict.size(), 3);
  for (const auto& r : recs) {
    if (offsets) offsets->push_back(out.size());
    out += wg::zstd(wg::record(r), cd);
  }
  ZSTD_freeCDict(cd);
  return out;
}

std::string plain_of(const std::vector<wg::record_spec>& recs) {
  std::string out;
  for (const auto& r : recs) out += wg::record(r);
  return out;
}

}  // namespace

TEST_CASE("warc: zstd input reads as the records it holds: a frame per record (with or without a dictionary), one frame, skippable frames between") {
  const auto recs = many_records(60);
  const std::string dict = train_dictionary(recs);
  const std::string plain = plain_of(recs);
  const auto want = read_all(plain);
  REQUIRE(want.size() == recs.size());
  struct way {
    const char* name;
    std::string data;
    std::vector<std::uint64_t> offsets;  // of each record's frame (empty: one frame for all)
  };
  std::vector<way> ways;
  ways.push_back({"a frame per record", {}, {}});
  ways.back().data = write_zstd(recs, {}, false, &ways.back().offsets);
  ways.push_back({"a frame per record, dictionary", {}, {}});
  ways.back().data = write_zstd(recs, dict, false, &ways.back().offsets);
  ways.push_back({"a frame per record, compressed dictionary", {}, {}});
  ways.back().data = write_zstd(recs, dict, true, &ways.back().offsets);
  ways.push_back({"one frame", wg::zstd(plain), {}});
  {
    // Extension frames (skippable, not the dictionary's magic) before each record's frame, and a
    // record split over two frames: both are WARC-zstd.
    way w{"skippable frames between, a record over two frames", {}, {}};
    for (const auto& r : recs) {
      if (!w.data.empty()) w.data += std::string("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
      w.offsets.push_back(w.data.size());
      const std::string b = wg::record(r);
      w.data += &r == &recs[5] ? wg::zstd(b.substr(0, 100)) + wg::zstd(b.substr(100)) : wg::zstd(b);
    }
    ways.push_back(std::move(w));
  }
  for (const way& w : ways) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100000}}) {
      INFO(w.name << ", chunk " << chunk);
      const auto got = read_all(w.data, {}, chunk);
      REQUIRE(got.size() == want.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        CHECK(got[k].st == warc_status::record);
        CHECK(got[k].problem.empty());
        CHECK(got[k].id == want[k].id);
        CHECK(got[k].block == want[k].block);
        CHECK(got[k].data_offset == want[k].offset);
        CHECK(got[k].offset == (w.offsets.empty() ? 0 : w.offsets[k]));
      }
    }
    // A record's offset and length cut its frame(s) out of the file: that slice (after the
    // dictionary frame, when there is one) reads as the record alone.
    warc_reader reader(w.data);
    CHECK_FALSE(reader.compressed());  // known after the first next()
    warc_record r;
    const std::string dict_frame = w.data.substr(0, w.offsets.empty() ? 0 : w.offsets[0]);
    for (std::size_t k = 0; k < recs.size(); ++k) {
      INFO(w.name << ", record " << k);
      REQUIRE(reader.next(r) == warc_status::record);
      CHECK(reader.compression() == warc_compression::zstd);
      if (w.offsets.empty()) {
        CHECK(r.length == 0);  // several records in one frame: no length of their own
        continue;
      }
      REQUIRE(r.length > 0);
      const std::string slice = dict_frame + w.data.substr(r.offset, r.length);
      warc_reader alone(slice);
      warc_record one;
      REQUIRE(alone.next(one) == warc_status::record);
      CHECK(one.record_id() == r.record_id());
      CHECK(one.block == r.block);
      CHECK(alone.next(one) == warc_status::end);
    }
    CHECK(reader.next(r) == warc_status::end);
  }
}

TEST_CASE("warc: zstd input cut at every byte, corrupt frames, junk between frames and bad dictionaries are reported, the next frames read") {
  const auto recs = three_records("WARC/1.1");
  std::vector<std::uint64_t> offsets;
  const std::string data = write_zstd(recs, {}, false, &offsets);
  offsets.push_back(data.size());
  // Cut anywhere but between frames: reported; the records before the cut are whole.
  for (std::size_t cut = 1; cut < data.size(); ++cut) {
    const bool boundary = std::find(offsets.begin(), offsets.end(), cut) != offsets.end();
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{7}}) {
      INFO("cut at " << cut << " of " << data.size() << ", chunk " << chunk);
      const auto got = read_all(data.substr(0, cut), {}, chunk);
      bool reported = false;
      std::size_t complete = 0;
      for (const auto& g : got) {
        reported = reported || g.st == warc_status::error || !g.problem.empty();
        if (g.st == warc_status::record && g.problem.empty()) ++complete;
      }
      const std::size_t before = static_cast<std::size_t>(std::upper_bound(offsets.begin(), offsets.end(), cut) - offsets.begin()) - 1;
      // (A frame cut in its 4-byte checksum has given its record whole, and is reported.)
      CHECK((complete == before || (complete == before + 1 && cut + 4 >= offsets[before + 1])));
      CHECK(reported != boundary);
    }
  }
  const std::string f0 = wg::zstd(wg::record(recs[0])), f1 = wg::zstd(wg::record(recs[1])), f2 = wg::zstd(wg::record(recs[2]));
  // A frame cut short, then the next frame: the cut record reported at its frame, the next one whole.
  for (const std::size_t keep_percent : {20, 50, 90, 99}) {
    INFO("kept " << keep_percent << "%");
    const auto got = read_all(f0 + f1.substr(0, f1.size() * keep_percent / 100) + f2, {}, 5);
    REQUIRE(got.size() >= 3);
    CHECK(got.front().block == recs[0].block);
    CHECK(got.back().block == recs[2].block);
    CHECK(got.back().offset == f0.size() + f1.size() * keep_percent / 100);
    bool reported = false;
    for (std::size_t k = 1; k + 1 < got.size(); ++k) {
      CHECK(got[k].offset == f0.size());
      reported = reported || got[k].st == warc_status::error || !got[k].problem.empty();
    }
    CHECK(reported);
  }
  // Corrupt data (the checksum or the blocks): reported, the next frame read.
  std::string bad = f1;
  for (std::size_t i = 14; i < bad.size() - 4; i += 3) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  auto got = read_all(f0 + bad + f2);
  REQUIRE(got.size() >= 3);
  CHECK(got.front().block == recs[0].block);
  CHECK(got.back().block == recs[2].block);
  bool reported = false;
  for (std::size_t k = 1; k + 1 < got.size(); ++k) reported = reported || got[k].st == warc_status::error || !got[k].problem.empty();
  CHECK(reported);
  // Junk between frames.
  got = read_all(f0 + "garbage between frames" + f2);
  REQUIRE(got.size() == 3);
  CHECK(got[1].st == warc_status::error);
  CHECK(got[1].offset == f0.size());
  CHECK(got[1].error == "bytes that are not a zstd frame were skipped");
  CHECK(got[2].block == recs[2].block);
  CHECK(got[2].offset == f0.size() + 22);
  // A dictionary frame that is cut, holds no dictionary, or is missing: reported (the frames that
  // need the dictionary are reported as corrupt), never a crash.
  const auto many = many_records(40);
  const std::string dict = train_dictionary(many);
  const std::string with_dict = write_zstd(many, dict);
  const std::string frame = wg::zstd_dictionary_frame(dict);
  for (const std::string& damaged : {with_dict.substr(0, 6), with_dict.substr(0, frame.size() - 10),
                                     wg::zstd_dictionary_frame("not a dictionary at all") + with_dict.substr(frame.size()),
                                     wg::zstd_dictionary_frame(wg::zstd("not a dictionary")) + with_dict.substr(frame.size()),
                                     std::string("\x5d\x2a\x4d\x18\xff\xff\xff\x7f", 8) + with_dict.substr(frame.size())}) {
    INFO("damaged dictionary frame, " << damaged.size() << " bytes");
    got = read_all(damaged, {}, 7);
    REQUIRE_FALSE(got.empty());
    CHECK(got.front().st == warc_status::error);
    CHECK(got.front().offset == 0);
    CHECK(got.front().error.find("dictionary") != std::string::npos);
    for (const auto& g : got) CHECK((g.st == warc_status::error || !g.problem.empty() || g.id == many[0].id));
  }
}

TEST_CASE("warc report: the text, the corpus schema and the language filter, and the statistics count what was filtered") {
  const std::string path = std::string(LANGSIFT_TEST_DATA_DIR) + "/warc/sample.warc.gz";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  std::string data;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) data.append(buf, n);
  std::fclose(f);
  auto reports = [&](const warc_report_options& o, const std::string* file = nullptr) {
    std::vector<warc_report> out;
    warc_reader reader(data);
    warc_record r;
    for (warc_status st; (st = reader.next(r)) != warc_status::end;)
      if (st == warc_status::record) out.push_back(report_warc_record(default_model(), r, o, file));
    return out;
  };
  const auto plain = reports({});
  warc_report_options with_text;
  with_text.text = true;
  const auto texts = reports(with_text);
  warc_report_options corpus;
  corpus.schema = warc_schema::corpus;
  const std::string source = "crawl.warc.gz";
  const auto docs = reports(corpus, &source);
  REQUIRE(plain.size() == 12);
  REQUIRE(texts.size() == plain.size());
  REQUIRE(docs.size() == plain.size());
  std::size_t pages = 0;
  for (std::size_t k = 0; k < plain.size(); ++k) {
    const warc_report &p = plain[k], &t = texts[k], &c = docs[k];
    INFO("record " << k << ": " << p.line);
    CHECK(t.classified == p.classified);
    CHECK(p.page.text.empty());
    if (!p.classified) {
      CHECK(t.line == p.line);  // skipped records: no text
      CHECK(c.line.empty());    // no document
      continue;
    }
    ++pages;
    // The same line with the text last, the text that was detected (extract_page_text's).
    CHECK(t.page.detection.language() == p.page.detection.language());
    std::string text_field = ",\"text\":";
    detail::json::string(text_field, t.page.text);
    CHECK(t.line == p.line.substr(0, p.line.size() - 2) + text_field + "}\n");
    CHECK(!t.page.text.empty());
    // The document: its own fields first, then the line's other fields in metadata, the text last.
    CHECK(c.line.rfind("{\"id\":\"<urn:uuid:fixture-", 0) == 0);
    CHECK(c.line.find(",\"source\":\"crawl.warc.gz\",\"url\":\"" + std::string(p.page.is_html ? "http" : "")) != std::string::npos);
    char score[64];
    std::snprintf(score, sizeof score, ",\"language_score\":%.4f,\"metadata\":{\"offset\":",
                  static_cast<double>(warc_language_score(c.page.detection)));
    CHECK(c.line.find(",\"language\":\"" + c.top + "\"" + score) != std::string::npos);
    CHECK(c.line.find("\"record_id\"") == std::string::npos);
    CHECK(c.line.find("\"target_uri\"") == std::string::npos);
    CHECK(c.line.find(",\"languages\":[") != std::string::npos);
    CHECK(c.line.find("\"encoding_source\":") < c.line.find("},\"text\":"));
    CHECK(c.line.size() >= text_field.size() + 2);
    CHECK(c.line.substr(c.line.size() - text_field.size() - 2) == text_field + "}\n");
  }
  CHECK(pages == 7);
  // The language filter: the wanted pages' lines only, the others counted.
  warc_report_options only;
  only.languages = {"de", "ru", "zh"};
  only.min_probability = 0.5f;
  const auto kept = reports(only);
  warc_statistics all, filtered;
  std::size_t lines = 0;
  for (std::size_t k = 0; k < kept.size(); ++k) {
    all.add(plain[k]);
    filtered.add(kept[k]);
    const bool wanted = plain[k].classified && (plain[k].top == "de" || plain[k].top == "ru") &&
                        warc_language_score(plain[k].page.detection) >= 0.5f;
    CHECK(kept[k].line.empty() != wanted);
    CHECK(kept[k].filtered == (plain[k].classified && !wanted));
    if (wanted) CHECK(kept[k].line == plain[k].line);
    lines += !kept[k].line.empty();
  }
  CHECK(lines == 2);
  CHECK(filtered.filtered == 5);
  CHECK(all.filtered == 0);
  // Apart from `filtered`, the statistics are those of all the input.
  warc_statistics same = filtered;
  same.filtered = 0;
  CHECK(same == all);
  // TSV round trip with the new row; a table without it (written before) still reads.
  warc_statistics back;
  REQUIRE(warc_statistics::parse_tsv(filtered.tsv(), back));
  CHECK(back == filtered);
  CHECK(filtered.tsv().find("total\tfiltered\t5\n") != std::string::npos);
  std::string old = all.tsv();
  old.erase(old.find("total\tfiltered\t0\n"), 17);
  REQUIRE(warc_statistics::parse_tsv(old, back));
  CHECK(back == all);
  // min_probability alone drops `und` pages (score 0); a probability of 0 keeps everything.
  warc_report_options sure;
  sure.min_probability = 0.01f;
  for (const auto& x : reports(sure))
    if (x.classified) CHECK(x.filtered == (warc_language_score(x.page.detection) < 0.01f));
  CHECK(warc_language_score(detection{}) == 0.0f);
}

TEST_CASE("warc: damaged zstd input gives the same records, errors and offsets read from memory and streamed in any read size") {
  // zstd loses the output of the blocks it decoded in a call that ends in an error, and decodes a
  // frame it holds whole in one pass: the reader feeds it a block at a time, so that what comes out
  // before corrupt data does not depend on how the input arrived (fuzz_warc found a record
  // delivered when streamed and lost when read from memory: a frame with a damaged checksum).
  auto recs = many_records(6);
  recs.push_back(spec("response", 50, wg::http_response(200, {{"Content-Type", "text/html"}},
                                                        "<p>" + german_text(4000) + "</p>")));  // several blocks
  std::vector<std::uint64_t> offsets;
  const std::string data = write_zstd(recs, {}, false, &offsets);
  offsets.push_back(data.size());
  auto key = [](const std::vector<read_item>& v) {
    std::string k;
    for (const auto& g : v)
      k += std::to_string(static_cast<int>(g.st)) + "@" + std::to_string(g.offset) + ":" + g.id + ":" +
           std::to_string(g.block.size()) + ":" + g.problem + g.error + "\n";
    return k;
  };
  std::size_t damaged = 0, failures = 0;
  for (std::size_t f = 0; f + 1 < offsets.size(); ++f) {
    const std::size_t size = offsets[f + 1] - offsets[f];
    // Flip a byte in the frame header's end, the first block, the middle, the last block and the
    // checksum.
    for (const std::size_t at : {std::size_t{6}, size / 3, size / 2, size - 8, size - 2}) {
      std::string bad = data;
      bad[offsets[f] + at] = static_cast<char>(bad[offsets[f] + at] ^ 0x21);
      const std::string want = key(read_all(bad));
      ++damaged;
      for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{17}, std::size_t{1000}, std::size_t{65536}}) {
        const std::string got = key(read_all(bad, {}, chunk));
        if (got != want && ++failures <= 5)
          FAIL_CHECK("frame " << f << ", byte " << at << " flipped, chunk " << chunk << ":\nmemory:\n" << want << "streamed:\n" << got);
      }
    }
  }
  CHECK(damaged == 40);
  CHECK(failures == 0);
}

TEST_CASE("json::string escapes every quote, backslash and control byte, at any place in a long string") {
  // A byte-at-a-time reference (RFC 8259: '"', '\\' and U+0000..U+001F must be escaped; the
  // escaper reads sixteen bytes at a time, so each special byte is tried at every offset of a
  // 40-byte string, amid ASCII, UTF-8 and DEL bytes that pass through).
  auto reference = [](std::string_view s) {
    std::string out = "\"";
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"') out += "\\\"";
      else if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else out += ch;
    }
    return out + "\"";
  };
  const std::string base = "abc d\xC3\xA9" "f\x7F" "ghij\xE2\x82\xAC" "klmnopqrstuvwxyz01234567";
  REQUIRE(base.size() == 40);
  for (const char special : {'"', '\\', '\n', '\r', '\t', '\0', '\x01', '\x1F'}) {
    for (std::size_t at = 0; at < base.size(); ++at) {
      std::string s = base;
      s[at] = special;
      s += std::string(1, special);  // and one at the end
      std::string out;
      detail::json::string(out, s);
      INFO("byte " << static_cast<int>(special) << " at " << at);
      CHECK(out == reference(s));
    }
  }
  std::string plain;
  detail::json::string(plain, base);
  CHECK(plain == "\"" + base + "\"");
}

TEST_CASE("warc: gzip members decoded whole (libdeflate) or streamed (zlib) give the same records, long, short or damaged") {
  // Members are first decoded whole from the input at hand (up to 8 MB of output, the buffer
  // growing from 1 MB), else streamed by zlib from their start: a 3 MB record (the buffer grows
  // twice), a 9 MB one (over the limit: zlib), a 300 KB incompressible one (longer than the
  // 64 KB read ahead: zlib), short ones, and a member whose CRC is wrong (reported, as zlib
  // reports it), each in memory and streamed in reads of 1 KB and 100 KB.
  std::uint64_t x = 12345;
  auto next = [&x] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(x >> 33);
  };
  auto words = [&](std::size_t n) {
    static const char* const w[] = {"Haus ", "Welt ", "und ", "der ", "Sprache ", "Seite ", "eine ", "Stadt ", "\n"};
    std::string s;
    while (s.size() < n) s += w[next() % 9];
    return s;
  };
  std::string noise(300 * 1024, '\0');
  for (char& c : noise) c = static_cast<char>(next());
  std::vector<wg::record_spec> recs = {
      spec("warcinfo", 0, wg::warcinfo_block()),
      spec("response", 1, wg::http_response(200, {{"Content-Type", "text/plain"}}, words(3u << 20))),
      spec("response", 2, wg::http_response(200, {{"Content-Type", "text/plain"}}, std::string(9u << 20, 'a'))),
      spec("resource", 3, noise),
      spec("response", 4, wg::http_response(200, {{"Content-Type", "text/html"}}, "<p>Hallo Welt</p>"))};
  std::vector<std::uint64_t> offsets;
  const std::string data = write(recs, true, &offsets);
  REQUIRE(offsets[3] - offsets[2] < 8u << 20);  // the 9 MB record compresses to much less
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{1024}, std::size_t{100000}}) {
    INFO("chunk " << chunk);
    const auto got = read_all(data, {}, chunk);
    REQUIRE(got.size() == recs.size());
    for (std::size_t k = 0; k < recs.size(); ++k) {
      INFO("record " << k);
      CHECK(got[k].st == warc_status::record);
      CHECK(got[k].offset == offsets[k]);
      CHECK(got[k].block_bytes == recs[k].block.size());
      CHECK(got[k].problem.empty());
      if (recs[k].block.size() <= warc_options{}.max_block_bytes) CHECK(got[k].block == recs[k].block);
    }
  }
  // A wrong CRC in the trailer of the second member: the record is reported, the third read whole.
  const std::string m0 = wg::gzip(wg::record(recs[0])), m4 = wg::gzip(wg::record(recs[4]));
  std::string bad = wg::gzip(wg::record(recs[4]));
  bad[bad.size() - 8] = static_cast<char>(bad[bad.size() - 8] ^ 0x01);
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{1024}}) {
    INFO("chunk " << chunk);
    const auto got = read_all(m0 + bad + m4, {}, chunk);
    REQUIRE(got.size() >= 3);
    CHECK(got.front().block == recs[0].block);
    CHECK(got.back().st == warc_status::record);
    CHECK(got.back().block == recs[4].block);
    CHECK(got.back().offset == m0.size() + bad.size());
    bool reported = false;
    for (std::size_t k = 1; k + 1 < got.size(); ++k) reported = reported || got[k].st == warc_status::error || !got[k].problem.empty();
    CHECK(reported);
  }
}

TEST_CASE("warc: a gzip record at hand comes out without reading further (a pipe may hold the rest back)") {
  // The source gives the first two members, then would block (a FIFO or socket whose writer has
  // not sent more): the first record must come out before the reader asks for more input. (The
  // whole-member decoder once read 64 KB ahead first: a record sat waiting for bytes it did not need.)
  const auto recs = three_records("WARC/1.1");
  const std::string m0 = wg::gzip(wg::record(recs[0])), m1 = wg::gzip(wg::record(recs[1])),
                    m2 = wg::gzip(wg::record(recs[2]));
  const std::string data = m0 + m1 + m2;
  std::size_t at = 0, calls_past = 0;
  auto src = [&](char* buf, std::size_t n) -> std::size_t {
    const std::size_t limit = at < m0.size() + m1.size() ? m0.size() + m1.size() : data.size();
    if (at >= m0.size() + m1.size()) ++calls_past;  // asked for what the writer holds back
    const std::size_t k = std::min(n, limit - at);
    std::copy_n(data.data() + at, k, buf);
    at += k;
    return k;
  };
  warc_reader reader{warc_reader::source(src)};
  warc_record r;
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.block == recs[0].block);
  CHECK(calls_past == 0);
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.block == recs[1].block);
  REQUIRE(reader.next(r) == warc_status::record);
  CHECK(r.block == recs[2].block);
  CHECK(reader.next(r) == warc_status::end);
}
