// libFuzzer target: the WARC reader and the HTTP parts (langsift/warc.hpp) on arbitrary bytes.
//   byte 0      the cap on a record's block (max_block_bytes: 1 KB .. 64 KB) and header section
//   byte 1      the chunk size of the streamed reader (1 .. 256 bytes per read)
//   the rest    the input: uncompressed WARC, gzip members or zstd frames (the corpus holds each,
//               and a zstd file with a dictionary frame)
// Invariants: reading ends (at most one result per input byte, plus one); the streamed reader
// gives exactly the records, errors and offsets of the in-memory one; kept blocks respect the
// cap and block_bytes <= content_length; record offsets grow; decoded HTTP bodies respect their
// cap and lie inside the block when nothing was decoded.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "langsift/warc.hpp"

namespace {

void check_at(bool ok, int line) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_warc: invariant at line %d failed\n", line);
    std::abort();
  }
}
#define check(x) check_at((x), __LINE__)

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  langsift::warc_options o;
  o.max_block_bytes = std::size_t{1024} << (data[0] % 7);
  o.max_header_bytes = 256 + (std::size_t{data[0]} << 4);
  const std::size_t chunk = 1 + data[1];
  const std::string_view in(reinterpret_cast<const char*>(data) + 2, size - 2);

  std::size_t at = 0;
  langsift::warc_reader mem(in, o);
  langsift::warc_reader streamed(
      [&](char* buf, std::size_t n) {
        const std::size_t k = std::min({n, chunk, in.size() - at});
        for (std::size_t i = 0; i < k; ++i) buf[i] = in[at + i];
        at += k;
        return k;
      },
      o);
  langsift::warc_record a, b;
  std::uint64_t last_offset = 0;
  std::string scratch;
  for (std::size_t steps = 0;; ++steps) {
    check(steps <= in.size() + 1);
    const langsift::warc_status sa = mem.next(a), sb = streamed.next(b);
    check(sa == sb);
    if (sa == langsift::warc_status::end) break;
    if (sa == langsift::warc_status::error) {
      check(mem.error() == streamed.error());
      check(mem.error_offset() == streamed.error_offset());
      check(!mem.error().empty());
      continue;
    }
    check(a.offset == b.offset && a.data_offset == b.data_offset);
    check(a.fields.size() == b.fields.size() && a.block == b.block && a.block_bytes == b.block_bytes);
    check(a.content_length == b.content_length && a.problem == b.problem && a.version == b.version);
    check(a.block.size() <= o.max_block_bytes && a.block.size() <= a.block_bytes);
    check(a.block_bytes <= a.content_length);
    check(a.offset >= last_offset && a.offset < in.size());
    last_offset = a.offset;

    langsift::http_response h;
    if (langsift::parse_http_response(a.block, h)) {
      check(h.body_offset <= a.block.size());
      check(h.status >= 0 && h.status <= 999);
      langsift::body_status st;
      const std::string_view raw = std::string_view(a.block).substr(h.body_offset);
      const std::string_view body = langsift::decode_http_body(h, raw, scratch, 8192, st);
      check(body.size() <= std::max<std::size_t>(raw.size(), 8192));
      if (body.data() != scratch.data() && !body.empty())
        check(body.data() >= raw.data() && body.data() + body.size() <= raw.data() + raw.size());
    }
  }
  check(at <= in.size());
  return 0;
}
