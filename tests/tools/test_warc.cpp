// `langsift warc` end to end: known answers on tests/data/warc (written by make_fixtures.py,
// independently of langsift's writer) and on files written by langsift-warcgen from the encoding
// fixtures; ordered output with threads; statistics; malformed input; the record cap.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tool_run.hpp"

using namespace langsift_test;

namespace {

const std::string kData = std::string(LANGSIFT_TEST_DATA_DIR) + "/";
const std::string kWarc = kBin + "langsift warc";
const std::string kGen = kBin + "langsift-warcgen";

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// The string value of a top-level field of one JSON line ("" if absent); enough for our output,
/// whose string values hold no escaped quotes in these tests.
std::string str_field(const std::string& line, const std::string& key) {
  std::string k = "\"";
  k += key;
  k += "\":\"";
  const std::size_t a = line.find(k);
  if (a == std::string::npos) return {};
  const std::size_t b = line.find('"', a + k.size());
  return line.substr(a + k.size(), b - a - k.size());
}

/// A numeric (or true/false) field.
std::string num_field(const std::string& line, const std::string& key) {
  std::string k = "\"";
  k += key;
  k += "\":";
  const std::size_t a = line.find(k);
  if (a == std::string::npos) return {};
  const std::size_t b = line.find_first_of(",}", a + k.size());
  return line.substr(a + k.size(), b - a - k.size());
}

/// The line without its offset and length (which depend on the input's compression).
std::string without_offset(const std::string& line) {
  std::size_t b = line.find(',');
  if (line.compare(b, 10, ",\"length\":") == 0) b = line.find(',', b + 1);
  return line.substr(b);
}

}  // namespace

TEST_CASE("warc tool: known answers on an uncompressed WARC/1.0 and a gzip WARC/1.1 file") {
  const outcome plain = sh(kWarc + " " + q(kData + "warc/sample.warc"));
  REQUIRE(plain.status == 0);
  CHECK(plain.err.empty());
  const auto pl = lines(plain.out);
  REQUIRE(pl.size() == 8);
  struct expect {
    const char *type, *uri, *language, *encoding, *source;
  };
  const expect want[] = {
      {"response", "http://bibliothek.example.de/", "de", "utf-8", "http"},         // chunked
      {"response", "http://www.example.com/obras", "es", "windows-1252", "meta"},   // gzip, <meta> latin1
      {"response", "http://example.com/ru", "ru", "windows-1251", "detected"},      // no declaration
      {"response", "http://exemple.example.fr/ancien", "fr", "utf-8", "http"},      // 404
      {"response", "http://example.com/logo.png", "und", "", ""},                   // image: skipped
      {"resource", "file:///museum.txt", "en", "ascii", "detected"},                // no HTTP
      {"response", "http://example.jp/", "ja", "shift_jis", "http"},                // deflate
      {"conversion", "http://mercato.example.it/", "it", "ascii", "detected"},
  };
  for (std::size_t k = 0; k < 8; ++k) {
    INFO(pl[k]);
    CHECK(str_field(pl[k], "warc_type") == want[k].type);
    CHECK(str_field(pl[k], "target_uri") == want[k].uri);
    CHECK(str_field(pl[k], "record_id") == "<urn:uuid:fixture-000" + std::to_string(k + 2) + ">");
    CHECK(str_field(pl[k], "language") == want[k].language);
    CHECK(str_field(pl[k], "encoding") == want[k].encoding);
    CHECK(str_field(pl[k], "encoding_source") == want[k].source);
  }
  CHECK(num_field(pl[0], "offset") == "500");
  CHECK(num_field(pl[0], "reliable") == "true");
  CHECK(num_field(pl[3], "http_status") == "404");
  CHECK(str_field(pl[3], "content_language") == "fr");
  CHECK(str_field(pl[4], "skipped") == "content_type");
  CHECK(num_field(pl[5], "http_status").empty());
  CHECK(pl[0].find("\"languages\":[{\"code\":\"de\",\"percent\":100,") != std::string::npos);

  // The same records as gzip members: the same lines apart from the offsets.
  const outcome gz = sh(kWarc + " " + q(kData + "warc/sample.warc.gz"));
  REQUIRE(gz.status == 0);
  const auto gl = lines(gz.out);
  REQUIRE(gl.size() == 8);
  for (std::size_t k = 0; k < 8; ++k) CHECK(without_offset(gl[k]) == without_offset(pl[k]));
  CHECK(num_field(gl[0], "offset") == "409");  // the third gzip member
  CHECK(num_field(gl[0], "length") == "529");  // ... which ends where the fourth begins
  CHECK(num_field(gl[1], "offset") == "938");
  CHECK(num_field(pl[0], "length") == std::to_string(std::stoull(num_field(pl[1], "offset")) - std::stoull(num_field(pl[0], "offset"))));

  // --all: a line for every record; stdin; several files in one run.
  const outcome all = sh("cat " + q(kData + "warc/sample.warc") + " | " + kWarc + " --all");
  CHECK(lines(all.out).size() == 12);
  CHECK(str_field(lines(all.out)[0], "skipped") == "warc_type");
  const outcome two = sh(kWarc + " " + q(kData + "warc/sample.warc") + " " + q(kData + "warc/sample.warc.gz"));
  const auto tl = lines(two.out);
  REQUIRE(tl.size() == 16);
  CHECK(str_field(tl[0], "file") == kData + "warc/sample.warc");  // several files: a file field first
  CHECK(str_field(tl[15], "file") == kData + "warc/sample.warc.gz");
  CHECK(tl[8].substr(tl[8].find(",\"offset\"") + 1) == gl[0].substr(1));
  CHECK(str_field(pl[0], "file").empty());
  // stdin's name: --name, else Hadoop Streaming's environment; the record's date and digest;
  // ISO 639-3 codes on request, in the lines and the statistics.
  const std::string cat = "cat " + q(kData + "warc/sample.warc.gz") + " | ";
  CHECK(str_field(lines(sh(cat + kWarc + " --name shard-7.warc.gz -").out)[0], "file") == "shard-7.warc.gz");
  CHECK(str_field(lines(sh(cat + "mapreduce_map_input_file=hdfs://nn/c/x.warc.gz " + kWarc + " -").out)[0], "file") ==
        "hdfs://nn/c/x.warc.gz");
  CHECK(str_field(lines(sh(cat + "map_input_file=old.warc.gz " + kWarc + " -").out)[0], "file") == "old.warc.gz");
  CHECK(str_field(gl[0], "warc_date") == "2026-11-23T05:00:02Z");
  const auto iso3 = lines(sh(kWarc + " --codes iso639-3 " + q(kData + "warc/sample.warc.gz")).out);
  CHECK(str_field(iso3[0], "language") == "deu");
  CHECK(contains(sh(kWarc + " --stats --codes iso639-3 " + q(kData + "warc/sample.warc.gz")).out, "\nlanguage\tdeu\t"));
  CHECK(sh(kWarc + " --codes iso639-2 " + q(kData + "warc/sample.warc.gz")).status == 2);
}

TEST_CASE("warc tool: --model wide selects the built-in wide model, another value is a file") {
  const outcome wide = sh(kWarc + " --model wide " + q(kData + "warc/sample.warc"));
  REQUIRE(wide.status == 0);
  CHECK(wide.err.empty());
  const auto wl = lines(wide.out);
  REQUIRE(wl.size() == 8);
  CHECK(wl[0].find("\"language\":\"de\"") != std::string::npos);
  const outcome file = sh(kWarc + " --model ./wide " + q(kData + "warc/sample.warc"));
  CHECK(file.status == 1);
  CHECK(file.err.find("./wide") != std::string::npos);
}

TEST_CASE("warc tool: pages written by langsift-warcgen in 20 encodings, as gzip with chunked gzip bodies") {
  const std::string enc = kData + "encoding/";
  const char* files[] = {"en.ascii", "fr.utf-16be", "fr.utf-16le", "fr.utf-32be", "fr.utf-32le", "fr.utf-8",
                         "fr.windows-1252", "ja.euc-jp", "ja.shift_jis", "ja.utf-16be", "ja.utf-16le", "ja.utf-8",
                         "ko.euc-kr", "ko.utf-8", "ru.koi8-r", "ru.utf-8", "ru.windows-1251", "zh.big5",
                         "zh.gb18030", "zh.utf-8"};
  std::string args;
  for (const char* f : files) {
    args += ' ';
    args += q(enc + f + ".txt");
  }
  for (const std::string coding : {"", " --gzip --chunked --content-gzip", " --warc-version 1.0 --requests"}) {
    INFO(coding);
    const outcome r = sh(kGen + " --charset-from-name --wrap-html" + coding + args + " | " + kWarc + " -j 2");
    REQUIRE(r.status == 0);
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 20);
    for (std::size_t k = 0; k < 20; ++k) {
      INFO(ls[k]);
      const std::string name = files[k];
      const std::string lang = name.substr(0, 2), charset = name.substr(3);
      CHECK(str_field(ls[k], "target_uri") == "http://example.com/" + name + ".txt");
      CHECK(str_field(ls[k], "language").substr(0, 2) == lang);
      CHECK(str_field(ls[k], "encoding") == charset);
      CHECK(str_field(ls[k], "encoding_source") == "http");
    }
  }
}

TEST_CASE("warc tool: -j 4 keeps the input order and gives the same output as one thread") {
  const std::string dir = scratch("test-warc-tool").string();
  const std::string file = dir + "/many.warc.gz";
  std::string args;
  for (const char* f : {"ru.koi8-r", "ja.shift_jis", "fr.windows-1252", "zh.big5", "ko.euc-kr", "en.ascii"}) {
    args += ' ';
    args += q(kData + "encoding/" + f + ".txt");
  }
  REQUIRE(sh(kGen + " --gzip --requests --wrap-html --repeat 40" + args + " -o " + q(file)).status == 0);
  const outcome one = sh(kWarc + " " + q(file));
  const outcome four = sh(kWarc + " -j4 " + q(file));
  const outcome stdin4 = sh("cat " + q(file) + " | " + kWarc + " --threads 4 -");
  REQUIRE(one.status == 0);
  CHECK(lines(one.out).size() == 240);
  CHECK(four.out == one.out);
  CHECK(stdin4.out == one.out);
  const auto ls = lines(one.out);
  CHECK(str_field(ls[0], "target_uri") == "http://example.com/ru.koi8-r.txt?0");
  CHECK(str_field(ls[239], "target_uri") == "http://example.com/en.ascii.txt?39");
}

TEST_CASE("warc tool: --stats counts pages and bytes per language, encoding and language x encoding") {
  const outcome recs = sh(kWarc + " " + q(kData + "warc/sample.warc"));
  const outcome st = sh(kWarc + " --stats -j 2 " + q(kData + "warc/sample.warc"));
  REQUIRE(st.status == 0);
  std::map<std::string, std::string> row;  // "kind\tkey[\tkey2]" -> "pages\tbytes"
  for (const auto& l : lines(st.out)) {
    if (l.empty() || l[0] == '#') continue;
    const std::size_t last = l.rfind('\t'), mid = l.rfind('\t', last - 1);
    if (l.compare(0, 6, "total\t") == 0) row[l.substr(0, last)] = l.substr(last + 1);
    else row[l.substr(0, mid)] = l.substr(mid + 1);
  }
  CHECK(row["total\trecords"] == "12");  // every record read
  CHECK(row["total\tpages"] == "7");
  CHECK(row["total\tskipped"] == "5");   // warcinfo, request, metadata, revisit, the image
  CHECK(row["total\tmalformed"] == "0");
  // Bytes: the text bytes each JSON line gives its language; body bytes per encoding.
  for (const auto& l : lines(recs.out)) {
    if (!str_field(l, "skipped").empty()) continue;
    const std::string lang = str_field(l, "language"), enc = str_field(l, "encoding");
    INFO(l);
    CHECK(row["language\t" + lang] == "1\t" + num_field(l, "text_bytes"));
    CHECK(row["language_encoding\t" + lang + "\t" + enc] == "1\t" + num_field(l, "text_bytes"));
  }
  CHECK(row["encoding\tascii"].substr(0, 2) == "2\t");  // the resource and the conversion record
  CHECK(row["encoding\twindows-1251"] == "1\t330");
  // --stats-file: records on stdout, statistics in the file.
  const std::string file = scratch("test-warc-tool").string() + "/stats.tsv";
  const outcome both = sh(kWarc + " --stats-file " + q(file) + " " + q(kData + "warc/sample.warc"));
  CHECK(both.out == recs.out);
  CHECK(slurp(file) == st.out);
}

TEST_CASE("warc tool: --merge-stats sums statistics of shards into those of all the input (a streaming reducer)") {
  const std::string dir = scratch("test-warc-tool-merge").string();
  const std::string a = dir + "/a.tsv", b = dir + "/b.tsv", c = dir + "/c.tsv";
  REQUIRE(sh(kWarc + " --stats " + q(kData + "warc/sample.warc") + " > " + q(a)).status == 0);
  REQUIRE(sh(kWarc + " --stats " + q(kData + "warc/sample.warc.gz") + " > " + q(b)).status == 0);
  REQUIRE(sh(kWarc + " --stats " + q(kData + "warc/bad.warc.gz") + " > " + q(c)).status == 3);
  const outcome all = sh(kWarc + " --stats " + q(kData + "warc/sample.warc") + " " + q(kData + "warc/sample.warc.gz") +
                         " " + q(kData + "warc/bad.warc.gz"));
  REQUIRE(all.status == 3);
  // Files, and sorted lines on stdin (what a Hadoop Streaming reducer gets), give the same sum.
  const outcome files = sh(kWarc + " --merge-stats " + q(a) + " " + q(b) + " " + q(c));
  const outcome piped = sh("cat " + q(a) + " " + q(b) + " " + q(c) + " | LC_ALL=C sort | " + kWarc + " --merge-stats -");
  CHECK(files.status == 0);
  CHECK(piped.status == 0);
  CHECK(files.out == all.out);
  CHECK(piped.out == all.out);
  CHECK(contains(all.out, "total\tmalformed\t"));
  const outcome bad = sh("printf 'language\tde\tx\t1\n' | " + kWarc + " --merge-stats -");
  CHECK(bad.status == 1);
  CHECK(contains(bad.err, "line 1: not a number"));
  CHECK(sh(kWarc + " --merge-stats --stats " + q(a)).status == 2);
}

TEST_CASE("warc tool: malformed records are reported with their offsets, the others are classified") {
  const outcome r = sh(kWarc + " -j 2 " + q(kData + "warc/bad.warc.gz"));
  CHECK(r.status == 3);
  // Member offsets (make_fixtures.py prints them): 479 Content-Length 7 too small, 1359 a
  // truncated member, 2002 not gzip, 2501 no Content-Length.
  CHECK(contains(r.err, "bad.warc.gz: offset 479: no CRLF CRLF"));
  CHECK(contains(r.err, "bad.warc.gz: offset 1359: no CRLF CRLF"));  // garbage decoded past the cut
  CHECK(contains(r.err, "bad.warc.gz: offset 1359: corrupt gzip member"));
  CHECK(contains(r.err, "bad.warc.gz: offset 2002: bytes that are not a gzip member"));
  CHECK(contains(r.err, "bad.warc.gz: offset 2501: WARC record without Content-Length"));
  std::map<std::string, std::string> lang;  // record id -> language
  std::map<std::string, std::string> line;
  for (const auto& l : lines(r.out)) {
    lang[str_field(l, "record_id")] = str_field(l, "language");
    line[str_field(l, "record_id")] = l;
  }
  CHECK(lang["<urn:uuid:fixture-0000>"] == "de");
  CHECK(lang["<urn:uuid:fixture-0002>"] == "fr");
  CHECK(lang["<urn:uuid:fixture-0004>"] == "it");
  CHECK(lang["<urn:uuid:fixture-0005>"] == "de");
  CHECK(lang["<urn:uuid:fixture-0008>"] == "es");
  // The record whose Content-Length is 7 short: classified from what there is, and flagged.
  CHECK(lang["<urn:uuid:fixture-0001>"] == "es");
  CHECK(contains(line["<urn:uuid:fixture-0001>"], "\"warc_problem\":"));
  // A response record without HTTP headers: the block is the body.
  CHECK(lang["<urn:uuid:fixture-0007>"] == "it");
  CHECK(contains(line["<urn:uuid:fixture-0007>"], "\"http\":false"));
  CHECK(line.count("<urn:uuid:fixture-0006>") == 0);
  const outcome st = sh(kWarc + " --stats " + q(kData + "warc/bad.warc.gz"));
  CHECK(contains(st.out, "total\tmalformed\t5\n"));
}

TEST_CASE("warc tool: --max-record-bytes keeps part of a large record and says so") {
  const std::string dir = scratch("test-warc-tool").string();
  const std::string page = dir + "/big.html";
  std::string text;
  const std::string de = slurp(kData + "corpus/de.txt");
  while (text.size() < 200000) text += de;
  {
    std::ofstream f(page, std::ios::binary);
    f << "<html><body><p>" << text << "</p></body></html>";
  }
  const outcome r = sh(kGen + " --gzip " + q(page) + " " + q(kData + "encoding/ru.utf-8.txt") + " | " + kWarc +
                       " --max-record-bytes 8K");
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 2);
  CHECK(num_field(ls[0], "capped") == "true");
  CHECK(num_field(ls[0], "kept_bytes") == "8192");
  CHECK(std::stoull(num_field(ls[0], "block_bytes")) > 200000);
  CHECK(str_field(ls[0], "language") == "de");
  CHECK(std::stoull(num_field(ls[0], "body_bytes")) < 8192);
  CHECK(num_field(ls[1], "capped").empty());
  CHECK(str_field(ls[1], "language") == "ru");
}

TEST_CASE("warc tool: a page classified from the part of its record kept says so on stderr and in --stats") {
  // #29: only the JSON line said "capped"; the statistics and stderr did not.
  const std::string dir = scratch("test-warc-tool").string();
  const std::string page = dir + "/big-capped.html";
  std::string text;
  const std::string de = slurp(kData + "corpus/de.txt");
  while (text.size() < 200000) text += de;
  {
    std::ofstream f(page, std::ios::binary);
    f << "<html><body><p>" << text << "</p></body></html>";
  }
  const std::string warc = dir + "/capped.warc.gz";
  REQUIRE(sh(kGen + " --gzip " + q(page) + " " + q(kData + "encoding/ru.utf-8.txt") + " -o " + q(warc)).status == 0);
  for (const std::string mode : {"", " --stats"}) {
    INFO(mode);
    const outcome r = sh(kWarc + " --max-record-bytes 8K" + mode + " " + q(warc));
    CHECK(r.status == 0);
    CHECK(r.err == "langsift warc: " + warc + ": offset 195: record cut at 8192 bytes (--max-record-bytes): its "
                   "languages are those of that part\n");
  }
  CHECK(contains(sh(kWarc + " --max-record-bytes 8K --stats " + q(warc)).out, "\ntotal\tcapped\t1\n"));
  const outcome whole = sh(kWarc + " --stats " + q(warc));
  CHECK(contains(whole.out, "\ntotal\tcapped\t0\n"));
  CHECK(whole.err.empty());
}

TEST_CASE("warc tool: --merge-stats refuses sums past 2^64 - 1 instead of wrapping") {
  // #29: 18446744073709551615 + 1 records printed 0, exit 0.
  const std::string dir = scratch("test-warc-tool-overflow").string();
  const std::string a = dir + "/a.tsv", b = dir + "/b.tsv";
  {
    std::ofstream(a) << "total\trecords\t18446744073709551615\nlanguage\tde\t1\t18446744073709551615\n";
    std::ofstream(b) << "total\trecords\t1\nlanguage\tde\t1\t1\n";
  }
  const outcome files = sh(kWarc + " --merge-stats " + q(a) + " " + q(b));
  CHECK(files.status == 1);
  CHECK(files.out.empty());
  CHECK(files.err == "langsift warc: " + b + ": the sum of the counts exceeds 2^64 - 1\n");
  // Within one input (lines of several shards, concatenated), and in a table's bytes.
  const outcome piped = sh("cat " + q(a) + " " + q(a) + " | " + kWarc + " --merge-stats -");
  CHECK(piped.status == 1);
  CHECK(piped.err == "langsift warc: stdin: line 3: the sum of the counts exceeds 2^64 - 1\n");
  const outcome bytes = sh("printf 'language\\tde\\t1\\t18446744073709551615\\nlanguage\\tde\\t1\\t1\\n' | " + kWarc +
                           " --merge-stats -");
  CHECK(bytes.status == 1);
  CHECK(contains(bytes.err, "line 2: the sum of the counts exceeds 2^64 - 1"));
  // Up to the limit is fine.
  const outcome max = sh(kWarc + " --merge-stats " + q(a));
  CHECK(max.status == 0);
  CHECK(contains(max.out, "\ntotal\trecords\t18446744073709551615\n"));
}

// Not under sanitizers: their runtimes reserve terabytes of address space (nothing starts under
// `ulimit -v`). The Release build's run counts.
#ifndef LANGSIFT_TOOL_RUN_SANITIZED  // tool_run.hpp
TEST_CASE("warc tool: threads that cannot start are 'out of memory' naming warc's own options, exit 1") {
  // #29: under `ulimit -v 300000`, -j 32 aborted (an uncaught std::system_error, exit 134); then
  // its message suggested --max-input-bytes, an option of `langsift detect`.
  const outcome r = sh("sh -c 'ulimit -v 300000; exec " + kWarc + " -j 32 --stats " + q(kData + "warc/sample.warc.gz") + "'");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "langsift warc: out of memory (give the process more memory, or lower --max-record-bytes or -j)\n");
}
#endif

TEST_CASE("warc tool: --help, usage errors and unreadable files") {
  const outcome h = sh(kWarc + " --help");
  CHECK(h.status == 0);
  CHECK(contains(h.out, "--stats"));
  CHECK(contains(h.out, "--max-record-bytes"));
  CHECK(sh(kWarc + " --bogus").status == 2);
  CHECK(sh(kWarc + " -j 0 x").status == 2);
  CHECK(sh(kWarc + " --max-record-bytes 12").status == 2);
  const outcome missing = sh(kWarc + " /nonexistent/file.warc");
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "/nonexistent/file.warc"));
  const outcome empty = sh(kWarc + " /dev/null");
  CHECK(empty.status == 0);
  CHECK(empty.out.empty());
  CHECK(sh(kGen + " --help").status == 0);
  CHECK(sh(kGen).status == 2);
}

TEST_CASE("warc tool: WARC-Truncated is passed on (a record written by printf, read from a pipe)") {
  std::string cmd =
      "printf 'WARC/1.1\\r\\nWARC-Type: resource\\r\\nWARC-Truncated: length\\r\\nContent-Type: text/plain\\r\\n"
      "WARC-Payload-Digest: sha1:WRRK4YHXU7ZVBLPQXRHTXWTKJO2KBBRB\\r\\n"
      "Content-Length: 44\\r\\n\\r\\nThe quick brown fox jumps over the lazy dog.\\r\\n\\r\\n' | ";
  cmd += kWarc;
  const outcome r = sh(cmd);
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 1);
  CHECK(str_field(ls[0], "warc_truncated") == "length");
  CHECK(str_field(ls[0], "language") == "en");
  CHECK(num_field(ls[0], "offset") == "0");
  CHECK(str_field(ls[0], "payload_digest") == "sha1:WRRK4YHXU7ZVBLPQXRHTXWTKJO2KBBRB");
  CHECK(num_field(ls[0], "length") == "211");  // the whole record with its CRLF CRLF
}

TEST_CASE("warc tool: progress on stderr when it is a terminal, never when it is not") {
  // `script` (util-linux, in every Debian) runs the command on a pseudo-terminal.
  const outcome tty = sh("script -qec " + q(kWarc + " " + kData + "warc/sample.warc.gz > /dev/null") + " /dev/null");
  REQUIRE(tty.status == 0);
  CHECK(contains(tty.out, "langsift warc: "));
  CHECK(contains(tty.out, " MB of 0.0 MB ("));
  CHECK(contains(tty.out, " left"));
  const outcome piped = sh(kWarc + " " + q(kData + "warc/sample.warc.gz"));
  CHECK(piped.status == 0);
  CHECK(piped.err.empty());
}

// ---------------------------------------------------------------------------------------------
// Text, corpus documents, the language filter, compressed output and zstd input (issue 30). The
// JSON of these lines is checked field by field in bindings/python/tests/test_text.py.

namespace {

/// The 20 encoding fixtures as a WARC (gzip members, HTTP charset from the names).
std::string encodings_warc(const std::string& dir, const std::string& flag = "--gzip", const std::string& name = "enc.warc.gz") {
  const std::string out = dir + "/" + name;
  REQUIRE(sh(kGen + " " + flag + " --requests --charset-from-name --wrap-html " + q(kData + "encoding") + "/*.txt -o " +
             q(out)).status == 0);
  return out;
}

}  // namespace

TEST_CASE("warc tool: --text adds the page's text last and changes nothing else, so the languages are those of plain warc") {
  const std::string dir = scratch("test-warc-tool-text").string();
  for (const std::string& in : {kData + "warc/sample.warc.gz", encodings_warc(dir)}) {
    for (const std::string main : {"", " --main"}) {
      INFO(in << main);
      const outcome plain = sh(kWarc + main + " " + q(in));
      const outcome text = sh(kWarc + main + " --text -j 2 " + q(in));
      REQUIRE(plain.status == 0);
      REQUIRE(text.status == 0);
      const auto a = lines(plain.out), b = lines(text.out);
      REQUIRE(a.size() == b.size());
      REQUIRE(a.size() >= 8);
      for (std::size_t k = 0; k < a.size(); ++k) {
        INFO(b[k]);
        if (!str_field(a[k], "skipped").empty()) {
          CHECK(b[k] == a[k]);
          continue;
        }
        CHECK(b[k].compare(0, a[k].size() - 1, a[k], 0, a[k].size() - 1) == 0);
        CHECK(b[k].compare(a[k].size() - 1, 9, ",\"text\":\"") == 0);
      }
    }
  }
}

TEST_CASE("warc tool: --schema corpus, --languages and --min-probability, with the filtered pages counted") {
  const std::string dir = scratch("test-warc-tool-corpus").string();
  const std::string in = encodings_warc(dir);
  const outcome plain = sh(kWarc + " " + q(in));
  REQUIRE(plain.status == 0);
  const outcome docs = sh(kWarc + " --schema corpus " + q(in));
  REQUIRE(docs.status == 0);
  const auto pl = lines(plain.out), dl = lines(docs.out);
  REQUIRE(pl.size() == 20);
  REQUIRE(dl.size() == 20);  // every record here is a page
  for (std::size_t k = 0; k < dl.size(); ++k) {
    INFO(dl[k]);
    CHECK(dl[k].rfind("{\"id\":\"" + str_field(pl[k], "record_id") + "\",\"source\":\"" + in + "\",\"url\":\"" +
                          str_field(pl[k], "target_uri") + "\",\"language\":\"" + str_field(pl[k], "language") +
                          "\",\"language_score\":",
                      0) == 0);
    CHECK(contains(dl[k], ",\"metadata\":{\"offset\":" + num_field(pl[k], "offset") + ","));
    CHECK(contains(dl[k], "},\"text\":\""));
  }
  // Only German and Russian pages, at a probability of at least 0.9.
  const std::string stats = dir + "/stats.tsv";
  const outcome de = sh(kWarc + " --languages deu,ru --min-probability 0.9 --stats-file " + q(stats) + " " + q(in));
  REQUIRE(de.status == 0);
  std::size_t wanted = 0;
  std::string expect;
  for (const auto& l : pl) {
    const std::string lang = str_field(l, "language");
    if ((lang == "de" || lang == "ru") && std::stod(num_field(l, "confidence")) >= 0.9) {
      ++wanted;
      expect += l + "\n";
    }
  }
  CHECK(wanted >= 3);
  CHECK(de.out == expect);
  CHECK(contains(slurp(stats), "total\tpages\t20\n"));
  CHECK(contains(slurp(stats), "total\tfiltered\t" + std::to_string(20 - wanted) + "\n"));
  // With --schema corpus too: the same pages, as documents.
  const outcome both = sh(kWarc + " --schema corpus --languages de,ru --min-probability 0.9 " + q(in));
  CHECK(lines(both.out).size() == wanted);
  // Codes are checked as everywhere: a usage error naming them, with a suggestion.
  const outcome bad = sh(kWarc + " --languages de-DE,xx " + q(in));
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--languages: not a language of the model: de-DE (did you mean de?), xx "
                          "(`langsift detect --list-languages` lists them)\n"));
  CHECK(!contains(bad.err, "models/"));
  CHECK(bad.out.empty());
  for (const std::string args : {"--min-probability 1.5", "--min-probability x", "--min-probability", "--schema cvs",
                                  "--schema corpus --all", "--languages de --all", "--languages ,", "--merge-stats --text"}) {
    INFO(args);
    const outcome u = sh(kWarc + " " + args + " " + q(in));
    CHECK(u.status == 2);
    CHECK(lines(u.err).size() == 1);
  }
}

TEST_CASE("warc tool: -o FILE, FILE.gz and FILE.zst hold what stdout gets (Debian's gzip and zstd read them back), and --stats-file too") {
  const std::string dir = scratch("test-warc-tool-output").string();
  const std::string in = kData + "warc/sample.warc.gz";
  for (const std::string args : {"", "--text -j 2", "--schema corpus", "--stats"}) {
    INFO(args);
    const outcome ref = sh(kWarc + " " + args + " " + q(in));
    REQUIRE(ref.status == 0);
    REQUIRE(ref.out.size() > 500);
    for (const std::string name : {"out.jsonl", "out.jsonl.gz", "out.jsonl.zst"}) {
      const std::string file = dir + "/" + name;
      const outcome r = sh(kWarc + " " + args + " -o " + q(file) + " " + q(in));
      CHECK(r.status == 0);
      CHECK(r.out.empty());
      const std::string back = name.back() == 'z' ? "gzip -dc " : name.back() == 't' ? "zstd -dcq " : "cat ";
      const outcome d = sh(back + q(file));
      CHECK(d.status == 0);
      CHECK(d.out == ref.out);
      if (name != "out.jsonl") CHECK(slurp(file) != ref.out);  // compressed indeed
    }
  }
  const std::string st = dir + "/stats.tsv.zst";
  CHECK(sh(kWarc + " --stats-file " + q(st) + " -o /dev/null " + q(in)).status == 0);
  CHECK(sh("zstd -dcq " + q(st)).out == sh(kWarc + " --stats " + q(in)).out);
  // A write error (a full disk: a file size limit) is one line and exit status 1, the file
  // named is left as it was, and no temporary file is left beside it.
  for (const std::string name : {"full.jsonl", "full.jsonl.gz", "full.jsonl.zst"}) {
    const std::string sub = dir + "/" + name + ".d";
    sh("rm -rf " + q(sub) + " && mkdir " + q(sub) + " && echo PRECIOUS > " + q(sub + "/" + name));
    const outcome r = sh("ulimit -f 1; trap '' XFSZ; " + kWarc + " --text -o " + q(sub + "/" + name) + " " + q(in) + " " +
                         q(in) + " " + q(in));
    INFO(name << ": " << r.err);
    CHECK(r.status == 1);
    CHECK(lines(r.err).size() == 1);
    CHECK(contains(r.err, "langsift warc: " + sub + "/" + name + ": write error"));
    CHECK(slurp(sub + "/" + name) == "PRECIOUS\n");
    CHECK(sh("ls " + q(sub)).out == name + "\n");
  }
}

TEST_CASE("warc tool: zstd input (a frame per record, or the whole file by zstd) reads as gzip and plain input") {
  const std::string dir = scratch("test-warc-tool-zstd").string();
  const std::string gz = encodings_warc(dir), zst = encodings_warc(dir, "--zstd", "enc.warc.zst");
  REQUIRE(sh("zstd -dcq " + q(zst) + " > " + q(dir + "/enc.warc") + " && zstd -qf -19 " + q(dir + "/enc.warc") + " -o " +
             q(dir + "/whole.warc.zst")).status == 0);
  const outcome ref = sh(kWarc + " --text " + q(gz));
  REQUIRE(ref.status == 0);
  const auto want = lines(ref.out);
  REQUIRE(want.size() == 20);
  for (const std::string& in : {zst, dir + "/enc.warc", dir + "/whole.warc.zst"}) {
    for (const std::string how : {"", "cat FILE | "}) {
      INFO(in << " " << how);
      const std::string cmd = how.empty() ? kWarc + " --text -j 2 " + q(in) : "cat " + q(in) + " | " + kWarc + " --text -";
      const outcome r = sh(cmd);
      CHECK(r.status == 0);
      CHECK(r.err.empty());
      const auto got = lines(r.out);
      REQUIRE(got.size() == want.size());
      for (std::size_t k = 0; k < got.size(); ++k) CHECK(without_offset(got[k]) == without_offset(want[k]));
    }
  }
  // A frame per record: offset and length cut a record's frame out of the file (what an index gives).
  const outcome r = sh(kWarc + " " + q(zst));
  for (const auto& l : lines(r.out)) {
    INFO(l);
    REQUIRE(!num_field(l, "length").empty());
    const outcome one = sh("tail -c +" + std::to_string(std::stoull(num_field(l, "offset")) + 1) + " " + q(zst) + " | head -c " +
                           num_field(l, "length") + " | " + kWarc + " -");
    CHECK(without_offset(one.out) == without_offset(l + "\n"));
  }
}

TEST_CASE("warc tool: cut and corrupt zstd input is reported (exit status 3), the other records classified") {
  const std::string dir = scratch("test-warc-tool-zstd-bad").string();
  const std::string zst = encodings_warc(dir, "--zstd", "enc.warc.zst");
  const std::string data = slurp(zst);
  const outcome whole = sh(kWarc + " " + q(zst));
  REQUIRE(whole.status == 0);
  // Cut in the middle; a stretch of bytes overwritten in the middle.
  std::ofstream(dir + "/cut.warc.zst", std::ios::binary) << data.substr(0, data.size() / 2);
  std::string bad = data;
  for (std::size_t i = data.size() / 3; i < data.size() / 3 + 200; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x33);
  std::ofstream(dir + "/bad.warc.zst", std::ios::binary) << bad;
  for (const std::string name : {"cut.warc.zst", "bad.warc.zst"}) {
    INFO(name);
    const outcome r = sh(kWarc + " " + q(dir + "/" + name));
    CHECK(r.status == 3);
    CHECK(contains(r.err, "langsift warc: " + dir + "/" + name + ": offset "));
    CHECK(contains(r.err, "zstd"));
    const auto got = lines(r.out), all = lines(whole.out);
    CHECK(got.size() >= 8);
    CHECK(got.front() == all.front());
    if (name == "bad.warc.zst") CHECK(without_offset(got.back()) == without_offset(all.back()));
  }
}

// ---------------------------------------------------------------------------------------------
// A file per language in one pass: -o with {language} (issue 30: "turn a WARC into per-language
// JSONL ... in one command").

namespace {

/// What a file holds, decompressed by Debian's gzip or zstd as its name says.
std::string decompressed(const std::string& file) {
  const bool gz = file.size() > 3 && file.compare(file.size() - 3, 3, ".gz") == 0;
  const bool zst = file.size() > 4 && file.compare(file.size() - 4, 4, ".zst") == 0;
  const outcome d = sh(std::string(gz ? "gzip -dc " : zst ? "zstd -dcq " : "cat ") + q(file));
  INFO(file << ": " << d.err);
  CHECK(d.status == 0);
  return d.out;
}

/// The names in `dir`, sorted, one a line ("" when it is empty or missing).
std::string listing(const std::string& dir) { return sh("LC_ALL=C ls -A " + q(dir) + " 2>/dev/null").out; }

/// The lines of `out` whose "language" is `code`, in order.
std::string lines_of(const std::string& out, const std::string& code) {
  std::string s;
  for (const auto& l : lines(out))
    if (str_field(l, "language") == code) s += l + "\n";
  return s;
}

}  // namespace

TEST_CASE("warc tool: -o with {language} writes each line to its language's file, the bytes --languages X -o FILE writes") {
  const std::string dir = scratch("test-warc-tool-split").string();
  const std::string in = q(encodings_warc(dir)) + " " + q(kData + "warc/sample.warc.gz");  // 28 pages, 11 languages
  for (const std::string args : {"--schema corpus", "--text", ""}) {
    const outcome all = sh(kWarc + " " + args + " " + in);
    REQUIRE(all.status == 0);
    std::set<std::string> codes;  // the languages of the lines
    for (const auto& l : lines(all.out)) codes.insert(str_field(l, "language"));
    CHECK(codes.size() >= 10);
    CHECK(codes.count("zh-Hant") == 1);
    CHECK(codes.count("und") == (args == "--schema corpus" ? 0u : 1u));  // the image: a line in the default schema
    for (const std::string threads : {"-j 1", "-j 2"}) {
      for (const std::string ext : {"", ".gz", ".zst"}) {
        INFO(args << " " << threads << " " << ext);
        static int round = 0;
        const std::string out = dir + "/out" + std::to_string(++round);
        sh("rm -rf " + q(out) + " && mkdir " + q(out));
        const outcome r = sh(kWarc + " " + args + " " + threads + " -o " + q(out + "/{language}.jsonl" + ext) + " " + in);
        CHECK(r.status == 0);
        CHECK(r.out.empty());
        CHECK(r.err.empty());
        std::set<std::string> names;
        for (const std::string& c : codes) names.insert(c + ".jsonl" + ext);
        std::string want_names;
        for (const std::string& n : names) want_names += n + "\n";
        CHECK(listing(out) == want_names);  // a file per language met, nothing else (no temporary file)
        for (const std::string& c : codes) {
          INFO(c);
          const std::string file = out + "/" + c + ".jsonl" + ext;
          const std::string got = decompressed(file);
          CHECK(got == lines_of(all.out, c));  // its language's lines, in input order
          if (!ext.empty()) CHECK(slurp(file) != got);  // compressed indeed
          // The same bytes as one language asked for (zh asks for zh-Hant too: not that file).
          if (c == "und" || codes.count(c + "-Hant")) continue;
          const std::string ref = dir + "/ref.jsonl" + ext;
          REQUIRE(sh(kWarc + " " + args + " " + threads + " --languages " + c + " -o " + q(ref) + " " + in).status == 0);
          CHECK(decompressed(ref) == got);
          CHECK(slurp(ref) == slurp(file));  // (compressed alike: zlib and zstd are deterministic)
        }
      }
    }
  }
}

TEST_CASE("warc tool: -o with {language}: codes as --codes writes them, directories made after the fixed one, --languages' files made at the start") {
  const std::string dir = scratch("test-warc-tool-split-names").string();
  const std::string in = kData + "warc/sample.warc.gz";
  const outcome all = sh(kWarc + " --codes iso639-3 " + q(in));
  REQUIRE(all.status == 0);
  // ISO 639-3 names; {language} in a directory's name: that directory made, hive style too.
  sh("rm -rf " + q(dir + "/c") + " && mkdir " + q(dir + "/c"));
  const outcome r = sh(kWarc + " --codes iso639-3 -o " + q(dir + "/c/lang={language}/part-0.jsonl.gz") + " " + q(in));
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(listing(dir + "/c") == "lang=deu\nlang=eng\nlang=fra\nlang=ita\nlang=jpn\nlang=rus\nlang=spa\nlang=und\n");
  CHECK(listing(dir + "/c/lang=deu") == "part-0.jsonl.gz\n");
  CHECK(decompressed(dir + "/c/lang=deu/part-0.jsonl.gz") == lines_of(all.out, "deu"));
  CHECK(decompressed(dir + "/c/lang=und/part-0.jsonl.gz") == lines_of(all.out, "und"));  // the image's line
  // The directory before {language} is not made: an error before any work, nothing written.
  const outcome missing = sh(kWarc + " -o " + q(dir + "/none/{language}.jsonl") + " " + q(in));
  CHECK(missing.status == 1);
  CHECK(missing.err == "langsift warc: " + dir + "/none/: No such file or directory\n");
  CHECK(listing(dir + "/none").empty());
  // A relative template: the current directory.
  sh("rm -rf " + q(dir + "/rel") + " && mkdir " + q(dir + "/rel"));
  CHECK(sh("cd " + q(dir + "/rel") + " && " + kWarc + " --schema corpus -o '{language}' " + q(in)).status == 0);
  CHECK(listing(dir + "/rel") == "de\nen\nes\nfr\nit\nja\nru\n");
  // --languages: the files asked for are made at the start, so a language without pages has an
  // empty file (as --languages ko -o FILE writes one); zh asks for zh-Hant too.
  sh("rm -rf " + q(dir + "/l") + " && mkdir " + q(dir + "/l"));
  const outcome asked = sh(kWarc + " --schema corpus --languages de,ko,zh -o " + q(dir + "/l/{language}.jsonl.zst") + " " + q(in));
  CHECK(asked.status == 0);
  CHECK(listing(dir + "/l") == "de.jsonl.zst\nko.jsonl.zst\nzh-Hant.jsonl.zst\nzh.jsonl.zst\n");
  CHECK(lines(decompressed(dir + "/l/de.jsonl.zst")).size() == 1);
  CHECK(decompressed(dir + "/l/ko.jsonl.zst").empty());
  CHECK(sh("zstd -tq " + q(dir + "/l/ko.jsonl.zst")).status == 0);  // an empty frame, not an empty file
  // No lines at all: no file.
  sh("rm -rf " + q(dir + "/e") + " && mkdir " + q(dir + "/e"));
  CHECK(sh(kWarc + " -o " + q(dir + "/e/{language}.jsonl") + " /dev/null").status == 0);
  CHECK(listing(dir + "/e").empty());
  // --all: the records that are not pages say "language":"und", and go to und's file; together
  // the files hold exactly stdout's lines.
  sh("rm -rf " + q(dir + "/a") + " && mkdir " + q(dir + "/a"));
  const outcome every = sh(kWarc + " --all " + q(in));
  CHECK(sh(kWarc + " --all -j 2 -o " + q(dir + "/a/{language}.jsonl") + " " + q(in)).status == 0);
  CHECK(slurp(dir + "/a/und.jsonl") == lines_of(every.out, "und"));
  CHECK(lines(slurp(dir + "/a/und.jsonl")).size() == 5);  // warcinfo, request, metadata, revisit, the image
  std::size_t total = 0;
  for (const auto& name : lines(listing(dir + "/a"))) total += lines(slurp(dir + "/a/" + name)).size();
  CHECK(total == lines(every.out).size());
}

TEST_CASE("warc tool: -o with {language}: usage errors, one line and exit status 2, before anything is written") {
  const std::string dir = scratch("test-warc-tool-split-usage").string();
  const std::string in = q(kData + "warc/sample.warc.gz");
  sh("rm -rf " + q(dir + "/u") + " && mkdir " + q(dir + "/u"));
  const std::string t = q(dir + "/u/{language}.jsonl");
  const std::pair<std::string, std::string> cases[] = {
      {"-o " + q(dir + "/u/{language}-{language}.jsonl"), "-o: {language} may appear once"},
      {"-o " + q(dir + "/u/{lang}.jsonl"), "-o: unknown field {lang} (the one field is {language})"},
      {"-o " + q(dir + "/u/{language}/{year}.jsonl"), "-o: unknown field {year} (the one field is {language})"},
      {"-o " + q(dir + "/u/{language}/"), "-o: the template names a directory, not a file"},
      {"-o " + q(dir + "/u/{language}/../all.jsonl"), "-o: '..' after {language} would put every language in one file"},
      {"--stats -o " + t, "-o with {language} writes the lines per language; --stats writes one table (--stats-file FILE "
                          "writes it beside the lines)"},
      {"--stats-file " + t, "--stats-file: the statistics are one file: {language} is for -o"},
      {"--merge-stats -o " + t, "--merge-stats takes statistics files and no other option"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    const outcome r = sh(kWarc + " " + args + " " + in);
    CHECK(r.status == 2);
    CHECK(r.err == "langsift warc: " + message + "\n");
    CHECK(listing(dir + "/u").empty());
  }
  // Braces that make no field are the name's own.
  CHECK(sh(kWarc + " -o " + q(dir + "/u/{}{-x}{language}.jsonl") + " " + in).status == 0);
  CHECK(contains(listing(dir + "/u"), "{}{-x}de.jsonl\n"));
  // A trained model's code is what its corpus file or --langs said: one that cannot make a file
  // name is refused before any work.
  sh("mkdir -p " + q(dir + "/corpus/sub") + " && cp " + q(kData + "corpus/de.txt") + " " + q(dir + "/corpus/sub/de.txt") +
     " && cp " + q(kData + "corpus/fr.txt") + " " + q(dir + "/corpus/fr.txt"));
  REQUIRE(sh(kBin + "langsift-train -q --langs sub/de,fr " + q(dir + "/corpus") + " -o " + q(dir + "/m.lsm")).status == 0);
  const outcome plain = sh(kWarc + " --model " + q(dir + "/m.lsm") + " " + in);
  CHECK(plain.status == 0);
  CHECK(contains(plain.out, "\"language\":\"sub/de\""));  // such a code does occur
  const outcome bad = sh(kWarc + " --model " + q(dir + "/m.lsm") + " -o " + q(dir + "/u2/{language}.jsonl") + " " + in);
  CHECK(bad.status == 2);
  CHECK(bad.err == "langsift warc: -o: the model's language code 'sub/de' cannot be part of a file name (letters, digits, "
                   "'-' and '_' only): write one file, or use another model\n");
  CHECK(listing(dir + "/u2").empty());
}

TEST_CASE("warc tool: -o with {language}: a failure on any file replaces none of them and leaves no temporary file") {
  const std::string dir = scratch("test-warc-tool-split-fail").string();
  const std::string in = q(kData + "warc/sample.warc.gz");
  // Three pages of 30 KB of text: each language's file, compressed too, is over the 1 KB limit
  // (which leaves room for the message on stderr, a file here).
  const std::string big = dir + "/big.warc.gz";
  REQUIRE(sh(kGen + " --gzip " + q(kData + "site/de.txt") + " " + q(kData + "site/fr.txt") + " " + q(kData + "site/en.txt") +
             " -o " + q(big)).status == 0);
  const std::string in3 = q(big);
  for (const std::string ext : {"", ".gz", ".zst"}) {
    INFO(ext);
    // A full disk (a file size limit): one line, exit 1, the files there kept, nothing else.
    const std::string sub = dir + "/full" + ext;
    sh("rm -rf " + q(sub) + " && mkdir " + q(sub) + " && echo PRECIOUS > " + q(sub + "/de.jsonl" + ext) + " && echo PRECIOUS > " +
       q(sub + "/fr.jsonl" + ext));
    const std::string before = listing(sub);
    const outcome r = sh("ulimit -f 1; trap '' XFSZ; " + kWarc + " --text -j 2 -o " + q(sub + "/{language}.jsonl" + ext) + " " + in3);
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.rfind("langsift warc: " + sub + "/", 0) == 0);
    CHECK(contains(r.err, ": write error"));
    CHECK(listing(sub) == before);
    CHECK(slurp(sub + "/de.jsonl" + ext) == "PRECIOUS\n");
    CHECK(slurp(sub + "/fr.jsonl" + ext) == "PRECIOUS\n");
    // The directories the template made go too.
    sh("rm -rf " + q(sub) + " && mkdir " + q(sub));
    const outcome d = sh("ulimit -f 1; trap '' XFSZ; " + kWarc + " --text -o " + q(sub + "/{language}/p.jsonl" + ext) + " " + in3);
    CHECK(d.status == 1);
    CHECK(lines(d.err).size() == 1);
    CHECK(listing(sub).empty());
  }
  // One language's file is a device that fails (/dev/full, through a link): the others are not
  // replaced either.
  const std::string dev = dir + "/dev";
  sh("rm -rf " + q(dev) + " && mkdir " + q(dev) + " && ln -s /dev/full " + q(dev + "/ja.jsonl") + " && echo PRECIOUS > " +
     q(dev + "/de.jsonl"));
  const outcome full = sh(kWarc + " --text -o " + q(dev + "/{language}.jsonl") + " " + in);
  CHECK(full.status == 1);
  CHECK(full.err == "langsift warc: " + dev + "/ja.jsonl: write error: No space left on device\n");
  CHECK(listing(dev) == "de.jsonl\nja.jsonl\n");
  CHECK(slurp(dev + "/de.jsonl") == "PRECIOUS\n");
  // A language's file that cannot be made in the middle of the run (its directory's name is taken
  // by a file): one line naming it, exit 1, nothing replaced, the directories made removed.
  const std::string mid = dir + "/mid";
  sh("rm -rf " + q(mid) + " && mkdir " + q(mid) + " && echo PRECIOUS > " + q(mid + "/ru"));
  const outcome taken = sh(kWarc + " --text -o " + q(mid + "/{language}/p.jsonl.zst") + " " + in);
  CHECK(taken.status == 1);
  CHECK(taken.err == "langsift warc: " + mid + "/ru: cannot make the directory: Not a directory\n");
  CHECK(listing(mid) == "ru\n");
}
