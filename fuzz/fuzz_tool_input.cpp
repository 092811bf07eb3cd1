// Fuzz target: the `langsift` command's input readers (tools/common): input_file (plain, gzip and
// zstd told by their first bytes, decompressed as read) and the JSON lines reader of `detect
// --jsonl` (jsonl::parse_object, unescape, key_is).
// Invariants: reading in pieces of 1..4096 bytes gives exactly what one large read gives, the same
// end state and message; plain input comes back as it is; a parsed object's members are ordered,
// inside it, and '{' + its member slots joined by ',' + '}' is the object's text again (what
// --jsonl writes back); the rebuilt text parses to the same members; a name without escapes is
// compared as it is; unescaping a string without escapes gives its bytes.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/input.hpp"
#include "common/jsonl.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

struct read_result {
  std::string content, error;
  bool malformed = false, failed = false;
};

/// Reads `path` through input_file in pieces of `piece` bytes, at most 1 MiB of content (a small
/// input may decompress to much).
read_result read_in_pieces(const std::string& path, std::size_t piece) {
  read_result r;
  langsift::cli::input_file in;
  std::string error;
  check(in.open(path, error));
  std::string buf(piece, '\0');
  while (r.content.size() < (1u << 20)) {
    const std::size_t n = in.read(buf.data(), buf.size());
    if (n == 0) break;
    check(n <= piece);
    r.content.append(buf.data(), n);
  }
  r.malformed = in.malformed();
  r.failed = in.failed();
  r.error = in.error();
  return r;
}

void fuzz_input(const std::uint8_t* data, std::size_t size) {
  const int fd = ::memfd_create("fuzz_tool_input", 0);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const read_result whole = read_in_pieces(path, 1 << 16);
  const std::size_t piece = size ? 1 + data[0] % 64 * 64 + data[size - 1] % 64 : 1;  // 1..4096
  const read_result pieces = read_in_pieces(path, piece);
  ::close(fd);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (whole.content.size() < (1u << 20)) {  // both ended by themselves
    check(pieces.content == whole.content);
    check(pieces.malformed == whole.malformed && pieces.error == whole.error);
  } else {
    check(pieces.content.compare(0, whole.content.size(), whole.content) == 0 || whole.content.compare(0, pieces.content.size(), pieces.content) == 0);
  }
  check(!whole.failed);
  if (langsift::cli::sniff_compression(bytes.substr(0, 4)) == langsift::cli::compression::none) {
    check(whole.content == bytes.substr(0, whole.content.size()));
    check(!whole.malformed);
  }
}

void fuzz_jsonl(std::string_view line) {
  namespace jl = langsift::cli::jsonl;
  jl::object o;
  jl::parse_error e;
  if (!jl::parse_object(line, o, e)) {
    check(e.at <= line.size());
    return;
  }
  check(o.open < o.close && o.close < line.size() && line[o.open] == '{' && line[o.close] == '}');
  std::string rebuilt = "{";
  std::size_t at = o.open + 1;
  for (std::size_t i = 0; i < o.members.size(); ++i) {
    const jl::member& m = o.members[i];
    check(m.slot_begin == at && m.slot_begin <= m.key_begin && m.key_begin < m.key_end && m.key_end <= m.value_begin &&
          m.value_begin < m.value_end && m.value_end <= m.slot_end && m.slot_end <= o.close);
    check(line[m.key_begin] == '"' && line[m.key_end - 1] == '"');
    if (i) rebuilt += ',';
    rebuilt.append(line.substr(m.slot_begin, m.slot_end - m.slot_begin));
    at = m.slot_end + 1;
    const std::string_view key = line.substr(m.key_begin + 1, m.key_end - m.key_begin - 2);
    if (!m.key_escaped) check(jl::key_is(line, m, key));
    if (m.value_kind == jl::kind::string) {
      const std::string_view quoted = line.substr(m.value_begin, m.value_end - m.value_begin);
      std::string value;
      jl::unescape(quoted, value);
      if (quoted.find('\\') == std::string_view::npos) check(value == quoted.substr(1, quoted.size() - 2));
    }
  }
  if (o.members.empty()) rebuilt = "{}";
  else rebuilt += '}';
  if (!o.members.empty()) check(rebuilt == line.substr(o.open, o.close - o.open + 1));
  jl::object again;
  check(jl::parse_object(rebuilt, again, e) && again.members.size() == o.members.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_input(data, size);
  fuzz_jsonl(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
