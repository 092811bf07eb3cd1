// The `langsift` command's inputs (#30, "Input and scale"): gzip and zstd told by their first bytes
// and decompressed as they are read, by every subcommand that reads files (tools/common/input.hpp);
// `detect --jsonl` (tools/common/jsonl.hpp: the strict reader, the line written back with the
// result added, bad lines reported and counted); `detect -j N` writing what -j 1 writes.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/input.hpp"
#include "common/jsonl.hpp"
#include "tool_run.hpp"

namespace fs = std::filesystem;
using namespace langsift_test;

namespace {

const std::string kTool = kBin + "langsift";
const std::string kData = LANGSIFT_TEST_DATA_DIR;
const std::string kSource = kData + "/../..";

/// One gzip member of `data` (zlib's deflate, gzip wrapper).
std::string gzip(std::string_view data, int level = 6) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

/// One zstd frame of `data`.
std::string zstd(std::string_view data, int level = 3) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  REQUIRE(!ZSTD_isError(n));
  out.resize(n);
  return out;
}

/// A zstd skippable frame of `n` bytes of payload (magic 0x184D2A50, little endian).
std::string skippable(std::size_t n) {
  std::string f = "\x50\x2a\x4d\x18";
  for (int i = 0; i < 4; ++i) f += static_cast<char>((n >> (8 * i)) & 0xff);
  return f + std::string(n, 'x');
}

void write(const fs::path& p, std::string_view data) {
  std::ofstream f(p, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  REQUIRE(f.good());
}

/// Everything input_file gives for `path`, and its state at the end.
struct read_back {
  std::string content, error;
  bool opened = false, malformed = false, failed = false;
  langsift::cli::compression kind = langsift::cli::compression::none;
};

read_back read_all(const fs::path& path, std::size_t chunk = 7) {
  read_back r;
  langsift::cli::input_file in;
  r.opened = in.open(path.string(), r.error);
  if (!r.opened) return r;
  r.kind = in.kind();
  std::vector<char> buf(chunk);
  for (std::size_t n; (n = in.read(buf.data(), buf.size())) > 0;) r.content.append(buf.data(), n);
  r.malformed = in.malformed();
  r.failed = in.failed();
  r.error = in.error();
  return r;
}

const std::string kLines =
    "Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\n"
    "Le chat dort sur le canapé depuis ce matin.\n"
    "\n"
    "The weather is fine today, and the sea is calm.\n"
    "Dit is een zin in het Nederlands, over het weer van vandaag.\n";

/// A scratch directory of this test process, emptied.
fs::path fresh(const std::string& name) {
  const fs::path d = scratch("test-input") / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

// ---- input_file ------------------------------------------------------------------------------------

TEST_CASE("input_file: plain, gzip and zstd are told by their first bytes, not their names") {
  const fs::path d = fresh("kinds");
  const std::string text = kLines + std::string(100000, 'a') + "\nend\n";
  write(d / "plain.gz", text);  // a name says nothing
  write(d / "gzipped.txt", gzip(text));
  write(d / "zstded", zstd(text));
  write(d / "empty", "");
  write(d / "short", "\x1f");  // fewer bytes than a magic number: plain
  for (const auto& [name, kind] : {std::pair{"plain.gz", langsift::cli::compression::none},
                                   std::pair{"gzipped.txt", langsift::cli::compression::gzip},
                                   std::pair{"zstded", langsift::cli::compression::zstd}}) {
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 16}) {
      INFO(name << ", reads of " << chunk);
      const read_back r = read_all(d / name, chunk);
      REQUIRE(r.opened);
      CHECK(r.kind == kind);
      CHECK(r.content == text);
      CHECK_FALSE(r.malformed);
      CHECK(r.error.empty());
    }
  }
  CHECK(read_all(d / "empty").content.empty());
  CHECK(read_all(d / "short").content == "\x1f");
  const read_back missing = read_all(d / "missing");
  CHECK_FALSE(missing.opened);
  CHECK(contains(missing.error, "missing: No such file or directory"));
}

TEST_CASE("input_file: gzip members and zstd frames one after the other are one stream") {
  const fs::path d = fresh("streams");
  write(d / "members.gz", gzip("first member\n") + gzip("") + gzip("second member\n", 1));
  write(d / "frames.zst", zstd("first frame\n") + skippable(10) + zstd("second frame\n") + skippable(0));
  write(d / "skippable-first.zst", skippable(3) + zstd("after a skippable frame\n"));
  CHECK(read_all(d / "members.gz").content == "first member\nsecond member\n");
  CHECK(read_all(d / "frames.zst").content == "first frame\nsecond frame\n");
  const read_back s = read_all(d / "skippable-first.zst");
  CHECK(s.kind == langsift::cli::compression::zstd);
  CHECK(s.content == "after a skippable frame\n");
  CHECK_FALSE(s.malformed);
}

TEST_CASE("input_file: corrupt, truncated or trailing data: the content before it, and what went wrong") {
  const fs::path d = fresh("bad");
  const std::string text = kLines + std::string(50000, 'b') + "\n";
  const std::string gz = gzip(text), zs = zstd(text);
  write(d / "cut.gz", gz.substr(0, gz.size() / 2));
  write(d / "cut.zst", zs.substr(0, zs.size() / 2));
  write(d / "trailing.gz", gz + "garbage");
  write(d / "trailing.zst", zs + "garbage");
  std::string flipped = gz;
  flipped[20] = static_cast<char>(flipped[20] ^ 0x55);
  flipped[21] = static_cast<char>(flipped[21] ^ 0x55);
  write(d / "corrupt.gz", flipped);
  for (const char* name : {"cut.gz", "cut.zst", "trailing.gz", "trailing.zst", "corrupt.gz"}) {
    INFO(name);
    const read_back r = read_all(d / name);
    REQUIRE(r.opened);
    CHECK(r.malformed);
    CHECK_FALSE(r.failed);
    CHECK(text.compare(0, r.content.size(), r.content) == 0);  // a prefix of the content
    const std::string kind = std::string(name).find(".gz") != std::string::npos ? "gzip: " : "zstd: ";
    CHECK(r.error.rfind(kind, 0) == 0);
  }
  // A frame whose window is over 128 MiB (zstd --long=28) is refused, as `zstd -d` refuses it.
  ZSTD_CCtx* c = ZSTD_createCCtx();
  REQUIRE(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 28)));
  std::string big(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_outBuffer out{big.data(), big.size(), 0};
  ZSTD_inBuffer in{text.data(), text.size(), 0};
  REQUIRE(!ZSTD_isError(ZSTD_compressStream2(c, &out, &in, ZSTD_e_continue)));  // streamed: the size is
  ZSTD_inBuffer none{nullptr, 0, 0};                                              // not known, the window stays
  REQUIRE(ZSTD_compressStream2(c, &out, &none, ZSTD_e_end) == 0);
  ZSTD_freeCCtx(c);
  big.resize(out.pos);
  write(d / "window.zst", big);
  const read_back w = read_all(d / "window.zst");
  CHECK(w.malformed);
  CHECK(w.content.empty());
  CHECK(contains(w.error, "window is over 128 MiB"));
  CHECK(contains(read_all(d / "cut.gz").error, "truncated"));
  CHECK(contains(read_all(d / "cut.zst").error, "truncated"));
  CHECK(read_all(d / "trailing.gz").content == text);
  CHECK(contains(read_all(d / "trailing.gz").error, "trailing bytes"));
  CHECK(read_all(d / "trailing.zst").content == text);
  CHECK(contains(read_all(d / "trailing.zst").error, "trailing bytes"));
}

// ---- the JSON lines reader ---------------------------------------------------------------------------

TEST_CASE("jsonl reader: RFC 8259's grammar, strictly") {
  namespace jl = langsift::cli::jsonl;
  jl::object o;
  jl::parse_error e;
  for (const char* good : {"{}", " { } ", "{\"a\":1}", "{\"a\":-0.5e+10,\"b\":[true,false,null,[],{}],\"c\":{\"d\":\"\\u00e9\\n\"}}",
                           "{\"a\" : [ 1 , 2 ] }\r", "{\"\\ud83d\\ude00\":\"x\"}", "{\"a\":\"\xff raw bytes\"}",
                           "{\"a\":0,\"a\":1}", "{\"deep\":[[[[[[[[[[1,{\"x\":[{}]}]]]]]]]]]]}"}) {
    INFO(good);
    CHECK(jl::parse_object(good, o, e));
  }
  for (const char* bad : {"", "   ", "[1]", "\"text\"", "1", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{'a':1}",
                          "{a:1}", "{\"a\":01}", "{\"a\":+1}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":NaN}", "{\"a\":tru}",
                          "{\"a\":\"\t\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"x}", "{\"a\":1}x", "{\"a\":1}{}",
                          "{\"a\":[1,]}", "{\"a\":[1 2]}", "{\"a\":{\"b\"}}", "{\"a\":1 // c\n}"}) {
    INFO(bad);
    CHECK_FALSE(jl::parse_object(bad, o, e));
  }
  // Nesting is followed without recursion: a million brackets are no problem.
  const std::string deep = "{\"a\":" + std::string(1000000, '[') + std::string(1000000, ']') + "}";
  CHECK(jl::parse_object(deep, o, e));
  CHECK_FALSE(jl::parse_object("{\"a\":" + std::string(1000000, '['), o, e));
}

TEST_CASE("jsonl reader: members with their byte ranges, names and string values decoded") {
  namespace jl = langsift::cli::jsonl;
  jl::object o;
  jl::parse_error e;
  const std::string line = "{ \"id\" : 7,\"te\\u0078t\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud800x\\udc00\", \"n\":{\"text\":1} }";
  REQUIRE(jl::parse_object(line, o, e));
  REQUIRE(o.members.size() == 3);
  CHECK(line.substr(o.members[0].slot_begin, o.members[0].slot_end - o.members[0].slot_begin) == " \"id\" : 7");
  CHECK(line.substr(o.members[2].slot_begin, o.members[2].slot_end - o.members[2].slot_begin) == " \"n\":{\"text\":1} ");
  CHECK(jl::key_is(line, o.members[0], "id"));
  CHECK(jl::key_is(line, o.members[1], "text"));  // an escaped name is compared decoded
  CHECK_FALSE(jl::key_is(line, o.members[2], "text"));
  CHECK(o.members[0].value_kind == jl::kind::number);
  CHECK(o.members[1].value_kind == jl::kind::string);
  CHECK(o.members[2].value_kind == jl::kind::object);
  std::string v;
  jl::unescape(std::string_view(line).substr(o.members[1].value_begin, o.members[1].value_end - o.members[1].value_begin), v);
  // A surrogate pair is one code point; a lone surrogate (either half) becomes U+FFFD.
  CHECK(v == "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx\xef\xbf\xbd");
}

// ---- compressed input through the tool ---------------------------------------------------------------

TEST_CASE("gzip and zstd input give the output of the plain input, in every subcommand") {
  const fs::path d = fresh("subcommands");
  const std::string page = slurp(kSource + "/examples/pages/de-news.windows-1252.html");
  REQUIRE(!page.empty());
  write(d / "lines.txt", kLines);
  write(d / "lines.gz.txt", gzip(kLines));
  write(d / "lines.zst.txt", zstd(kLines));
  write(d / "page.html", page);
  write(d / "page-gz.html", gzip(page));  // a page saved as it was sent with Content-Encoding: gzip
  write(d / "page-zst.html", zstd(page));
  write(d / "urls", "http://www.beispiel.de/seite\nhttp://www.exemple.fr/page\n");
  write(d / "urls.gz", gzip("http://www.beispiel.de/seite\nhttp://www.exemple.fr/page\n"));
  const outcome stats = sh(kTool + " warc --stats " + q(kData + "/warc/sample.warc.gz"));
  REQUIRE(stats.status == 0);
  write(d / "stats.tsv", stats.out);
  write(d / "stats.tsv.zst", zstd(stats.out));
  const std::string w = d.string() + "/";
  struct cmp {
    std::string plain, packed;
  };
  const std::vector<cmp> cases = {
      {"detect --lines " + q(w + "lines.txt"), "detect --lines " + q(w + "lines.gz.txt")},
      {"detect --lines " + q(w + "lines.txt"), "detect --lines " + q(w + "lines.zst.txt")},
      {"detect --lines --format jsonl - < " + q(w + "lines.txt"), "detect --lines --format jsonl - < " + q(w + "lines.zst.txt")},
      {"detect --format jsonl < " + q(w + "page.html"), "detect --format jsonl < " + q(w + "page-gz.html")},
      {"detect --format jsonl < " + q(w + "page.html"), "detect --format jsonl < " + q(w + "page-zst.html")},
      {"text --meta " + q(w + "page.html"), "text --meta " + q(w + "page-gz.html")},
      {"text --main - < " + q(w + "page.html"), "text --main - < " + q(w + "page-zst.html")},
      {"encoding - < " + q(w + "page.html"), "encoding - < " + q(w + "page-gz.html")},
      {"url --lines " + q(w + "urls"), "url --lines " + q(w + "urls.gz")},
      {"warc --merge-stats " + q(w + "stats.tsv"), "warc --merge-stats " + q(w + "stats.tsv.zst")},
  };
  for (const cmp& c : cases) {
    INFO(c.packed);
    const outcome a = sh(kTool + " " + c.plain), b = sh(kTool + " " + c.packed);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(!a.out.empty());
    CHECK(b.out == a.out);
    CHECK(b.err == a.err);
  }
  // The page is German and windows-1252, read from the decompressed bytes.
  const outcome p = sh(kTool + " detect --format jsonl " + q(w + "page-gz.html"));
  CHECK(contains(p.out, "\"language\":\"de\""));
  CHECK(contains(p.out, "\"encoding\":\"windows-1252\""));
}

TEST_CASE("corrupt or truncated compressed input: the part before it is used, reported, exit status 3") {
  const fs::path d = fresh("truncated");
  std::string many;  // numbered, so that half of the compressed file holds whole blocks of it
  for (int i = 0; i < 3000; ++i) many += std::to_string(i * 7919 % 10007) + " " + kLines;
  const std::string gz = gzip(many), zs = zstd(many);
  write(d / "cut.gz", gz.substr(0, gz.size() / 2));
  write(d / "cut.zst", zs.substr(0, zs.size() / 2));
  for (const char* name : {"cut.gz", "cut.zst"}) {
    const std::string path = (d / name).string();
    INFO(name);
    const outcome r = sh(kTool + " detect --lines --format code " + q(path));
    CHECK(r.status == 3);
    const auto lines = static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n'));
    CHECK(lines > 1000);  // the lines before the damage were classified, in order
    CHECK(lines < 15000);
    CHECK(r.out.rfind("de\nfr\nund\nen\nnl\nde\nfr\nund\nen\nnl\n", 0) == 0);
    CHECK(contains(r.err, "langsift detect: " + path + ": " + (name[4] == 'g' ? "gzip" : "zstd") + ": truncated"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    // A page: classified from its part, status truncated.
    const outcome p = sh(kTool + " detect --text " + q(path));
    CHECK(p.status == 3);
    CHECK(contains(p.out, "\ttruncated\n"));
    CHECK(contains(p.err, "truncated"));
    CHECK(sh(kTool + " text " + q(path)).status == 3);
    CHECK(sh(kTool + " encoding " + q(path)).status == 3);
    CHECK(sh(kTool + " url --lines " + q(path)).status == 3);
  }
  // Not readable at all is still status 1.
  CHECK(sh(kTool + " detect --lines " + q((d / "missing").string())).status == 1);
}

TEST_CASE("the caps count content: a small file of much content (512 MB of one line) stays within bounds") {
  // 512 MB of one line in a file of 0.5 MB: read with a cap of 16 MB, under a 300 MB address space
  // (not in a sanitized build, which cannot start under any `ulimit -v`: there the caps' output
  // is checked without the limit).
  const fs::path d = fresh("bomb");
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out;
  const std::string chunk(1 << 20, 'a');
  std::vector<char> buf(1 << 16);
  for (int i = 0; i < 512; ++i) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
    z.avail_in = static_cast<uInt>(chunk.size());
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf.data());
      z.avail_out = static_cast<uInt>(buf.size());
      deflate(&z, i == 511 ? Z_FINISH : Z_NO_FLUSH);
      out.append(buf.data(), buf.size() - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  write(d / "bomb.gz", out);
  const std::string path = (d / "bomb.gz").string();
  const outcome r = sh(address_limit(300000) + kTool + " detect --lines --format code " + q(path));
  CHECK(r.status == 0);
  CHECK(r.out == "und\ttruncated\n");
  CHECK(contains(r.err, "line 1: cut at 16777216 bytes"));
  const outcome p = sh(address_limit(300000) + kTool + " detect --format code --max-input-bytes 1M " + q(path));
  CHECK(p.status == 0);
  CHECK(p.out == path + "\tund\ttruncated\n");
}

// ---- --jsonl ---------------------------------------------------------------------------------------

TEST_CASE("detect --jsonl: each object written back as it was, with the result's fields added") {
  const fs::path d = fresh("jsonl");
  const std::string in =
      "{\"id\": 1, \"text\": \"Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\", \"meta\": {\"text\": [1, {\"a\": null}]}}\n"
      "  {\"id\":2,\"text\":\"Le chat dort sur le canap\\u00e9 depuis ce matin.\",\"language\":\"xx\",\"confidence\":0}  \r\n"
      "{\"text\":\"The weather is fine today, and the sea is calm.\"}\n"
      "{\"id\":\"\\ud83d\\ude00\",\"te\\u0078t\":\"Dit is een zin in het Nederlands, over het weer van vandaag.\"}\n";
  write(d / "docs.jsonl", in);
  const outcome r = sh(kTool + " detect --jsonl " + q((d / "docs.jsonl").string()));
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  const outcome plain = sh("printf '%s\\n' 'Guten Morgen, wie geht es dir heute? Ich hoffe, gut.' 'Le chat dort sur le canapé depuis ce matin.' "
                           "'The weather is fine today, and the sea is calm.' 'Dit is een zin in het Nederlands, over het weer van vandaag.' | " +
                           kTool + " detect --lines --format jsonl");
  REQUIRE(plain.status == 0);
  std::vector<std::string> fields;  // the result of each text, as --format jsonl writes it
  std::istringstream ps(plain.out);
  for (std::string l; std::getline(ps, l);) fields.push_back(l.substr(1, l.size() - 2));
  REQUIRE(fields.size() == 4);
  const std::string expected =
      "{\"id\": 1, \"text\": \"Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\", \"meta\": {\"text\": [1, {\"a\": null}]}," +
      fields[0] + "}\n" +
      // Members named as result fields are replaced; whitespace around the object is not kept.
      "{\"id\":2,\"text\":\"Le chat dort sur le canap\\u00e9 depuis ce matin.\"," + fields[1] + "}\n" +
      "{\"text\":\"The weather is fine today, and the sea is calm.\"," + fields[2] + "}\n" +
      "{\"id\":\"\\ud83d\\ude00\",\"te\\u0078t\":\"Dit is een zin in het Nederlands, over het weer van vandaag.\"," + fields[3] + "}\n";
  CHECK(r.out == expected);
  CHECK(contains(fields[0], "\"language\":\"de\""));
  CHECK(contains(fields[1], "\"language\":\"fr\""));
  // Its own output read again: the same lines (the fields replaced, not repeated).
  write(d / "again.jsonl", r.out);
  CHECK(sh(kTool + " detect --jsonl " + q((d / "again.jsonl").string())).out == r.out);
  // --text-field; --kept-only writes the kept objects, with "keep".
  write(d / "body.jsonl", "{\"body\":\"Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\",\"text\":\"The weather is fine.\"}\n");
  const outcome b = sh(kTool + " detect --jsonl --text-field body --format code " + q((d / "body.jsonl").string()));
  CHECK(b.status == 2);  // --jsonl writes JSON
  CHECK(contains(b.err, "--jsonl writes JSON lines"));
  const outcome k = sh(kTool + " detect --jsonl --text-field body --label de --kept-only " + q((d / "body.jsonl").string()) +
                       " " + q((d / "docs.jsonl").string()));
  CHECK(k.status == 3);  // docs.jsonl has no "body"
  CHECK(std::count(k.out.begin(), k.out.end(), '\n') == 1);
  CHECK(k.out.rfind("{\"body\":\"Guten Morgen", 0) == 0);
  CHECK(contains(k.out, "\"language\":\"de\""));
  CHECK(contains(k.out, "\"keep\":true}\n"));
  CHECK(contains(k.err, "docs.jsonl: line 1: no \"body\" member; skipped"));
  CHECK(sh(kTool + " detect --jsonl --lines " + q((d / "docs.jsonl").string())).status == 2);
}

TEST_CASE("detect --jsonl: a line it cannot classify is named on stderr, counted, not written, exit status 3") {
  const fs::path d = fresh("jsonl-bad");
  const std::string good = "{\"text\":\"Guten Morgen, wie geht es dir heute? Ich hoffe, gut.\"}";
  const std::string in = good + "\n" +
                         "not json at all\n" +                     // 2
                         "{\"id\":3}\n" +                          // 3
                         "{\"text\":42}\n" +                       // 4
                         "\n   \n" +                               // 5, 6: blank, skipped
                         "{\"text\":\"a\",}\n" +                   // 7
                         "{\"text\":null}\n" +                     // 8
                         "{\"text\":\"" + std::string(300, 'x') + "\"}\n" +  // 9: over --max-input-bytes 200
                         good + "\n" +                             // 10
                         "{\"text\":\"last line without newline\"}";  // 11
  write(d / "bad.jsonl", in);
  const std::string path = (d / "bad.jsonl").string();
  const outcome r = sh(kTool + " detect --jsonl --max-input-bytes 200 " + q(path));
  CHECK(r.status == 3);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3);
  const std::string p = "langsift detect: " + path + ": ";
  CHECK(r.err == p + "line 2: not JSON: not an object (expected '{') at byte 0; skipped\n" +
                     p + "line 3: no \"text\" member; skipped\n" +
                     p + "line 4: \"text\" is a number, not a string; skipped\n" +
                     p + "line 7: not JSON: expected a member name (a string) at byte 12; skipped\n" +
                     p + "line 8: \"text\" is null, not a string; skipped\n" +
                     p + "line 9: longer than 200 bytes (--max-input-bytes); skipped\n" +
                     p + "6 of 11 lines not classified and not written (2 not JSON, 1 without \"text\", "
                         "2 \"text\" not a string, 1 too long)\n");
  // Past 100 per input, bad lines are counted, not named.
  std::string many;
  for (int i = 0; i < 250; ++i) many += "{}\n";
  write(d / "many.jsonl", many + good + "\n");
  const outcome m = sh(kTool + " detect --jsonl " + q((d / "many.jsonl").string()) + " " + q(path));
  CHECK(m.status == 3);
  CHECK(std::count(m.out.begin(), m.out.end(), '\n') == 1 + 4);  // line 9 is not too long for 16 MB
  const std::string mp = "langsift detect: " + (d / "many.jsonl").string() + ": ";
  CHECK(contains(m.err, mp + "line 100: no \"text\" member; skipped\n" + mp +
                            "more lines not classified: counted below, not named\n" + mp +
                            "250 of 251 lines not classified and not written (250 without \"text\")\n"));
  CHECK_FALSE(contains(m.err, "line 101:"));
  CHECK(contains(m.err, p + "line 2: not JSON"));  // the next input is named again
}

// ---- -j ------------------------------------------------------------------------------------------------

TEST_CASE("detect -j N writes exactly what -j 1 writes, messages included") {
  const fs::path d = fresh("threads");
  std::string lines, jsonl;
  for (int i = 0; i < 4000; ++i) {
    const std::string l = i % 97 == 0 ? std::string(3000, 'w') : i % 13 == 0 ? "" : std::to_string(i) + " " + kLines.substr((i * 7) % 150, 60);
    lines += l + "\n";
    jsonl += i % 101 == 5 ? "{broken\n" : "{\"n\":" + std::to_string(i) + ",\"text\":\"" + l.substr(0, l.find('"')) + "\"}\n";
  }
  write(d / "lines.txt", lines);
  write(d / "lines.zst", zstd(lines));
  write(d / "docs.jsonl.gz", gzip(jsonl));
  std::vector<std::string> pages;
  for (const auto& e : fs::directory_iterator(kData + "/html/main-content"))
    if (e.path().extension() == ".html") pages.push_back(q(e.path().string()));
  std::sort(pages.begin(), pages.end());
  REQUIRE(pages.size() >= 4);
  pages.insert(pages.begin() + 2, q((d / "missing.html").string()));  // a file that cannot be read, in the middle
  std::string page_args;
  for (const std::string& p : pages) page_args += " " + p;
  const std::vector<std::string> runs = {
      "detect --lines --max-input-bytes 2000 " + q((d / "lines.txt").string()),
      "detect --lines --format jsonl --max-input-bytes 2000 " + q((d / "lines.zst").string()),
      "detect --jsonl " + q((d / "docs.jsonl.gz").string()),
      "detect --format jsonl" + page_args,
      "detect --lines --label en --kept-only - < " + q((d / "lines.txt").string()),
  };
  for (const std::string& args : runs) {
    INFO(args);
    const outcome one = sh(kTool + " " + args + " -j 1");
    CHECK(!one.out.empty());
    for (const char* j : {" -j 2", " -j3", " --threads 8"}) {
      INFO(j);
      const outcome many = sh(kTool + " " + args + j);
      CHECK(many.status == one.status);
      CHECK(many.out == one.out);
      CHECK(many.err == one.err);
    }
  }
  CHECK(sh(kTool + " detect --lines -j 2 " + q((d / "lines.txt").string())).out ==
        sh(kTool + " detect --lines " + q((d / "lines.txt").string())).out);
  CHECK(sh(kTool + " detect -j 0 " + q((d / "lines.txt").string())).status == 2);
  CHECK(sh(kTool + " detect -j 257 " + q((d / "lines.txt").string())).status == 2);
  CHECK(sh(kTool + " detect --format jsonl" + page_args + " -j 2").status == 1);  // the missing file
}
