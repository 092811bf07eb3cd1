// html5lib's encoding-sniffing suite (html5lib-tests encoding/*.dat and encoding/scripted/*.dat),
// read in place from LANGSIFT_CONFORMANCE_DIR, against langsift's <meta> prescan.
//
// Each case is a document (#data) and the encoding a browser settles on (#encoding). The answer
// under test follows the WHATWG encoding sniffing algorithm as langsift implements it, stage by
// stage, with no transport-layer charset:
//   1. a byte order mark (detect_encoding, source bom);
//   2. else the <meta> prescan (prescan_meta_charset: the first 1024 bytes);
//   3. else what langsift detects without a declaration (detect_encoding: structure, uchardet,
//      the single-byte search, the default windows-1252) — html5lib's harness uses its default
//      windows-1252 there, and langsift's answer for 7-bit bytes, `ascii`, is windows-1252.
// langsift's override of a declaration the bytes cannot be in (docs/encoding.md) is a later,
// deliberate step and not part of this comparison: the prescan's answer is compared as found.
// Names compare canonically (canonical_encoding_name: iso-8859-1 = windows-1252).
//
// tests/conformance/html5lib-encoding.tsv lists the cases expected to fail, with the reason. The
// test fails when a case not in the list fails, and when a listed case passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/support.hpp"
#include "langsift/encoding.hpp"

namespace fs = std::filesystem;
using namespace langsift_test::conformance;

namespace {

struct enc_case {
  std::string id;        // "tests1.dat:12" (1-based case number in the file)
  std::string data;      // #data, the final newline before the next section removed
  std::string expected;  // #encoding, first line
};

/// html5lib's .dat format: "#name" lines open sections; a section's text is the lines up to the
/// next section, without the newline that ends its last line (html5lib's TestData strips it).
std::vector<enc_case> read_dat(const fs::path& path, const std::string& id_prefix) {
  const std::string text = read_file(path);
  std::vector<enc_case> out;
  std::string section;
  std::string buf;
  enc_case cur;
  auto close_section = [&] {
    if (!buf.empty() && buf.back() == '\n') buf.pop_back();
    if (section == "data") cur.data = buf;
    else if (section == "encoding") cur.expected = buf.substr(0, buf.find('\n'));
    buf.clear();
  };
  auto close_case = [&] {
    if (section.empty()) return;
    close_section();
    cur.id = id_prefix + ":" + std::to_string(out.size() + 1);
    out.push_back(cur);
    cur = enc_case{};
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    std::string_view line(text.data() + pos, end - pos);
    if (line == "#data\n" || line == "#data") {
      close_case();
      section = "data";
    } else if (line == "#encoding\n" || line == "#encoding") {
      close_section();
      section = "encoding";
    } else {
      buf.append(line);
    }
    pos = end;
  }
  close_case();
  return out;
}

std::string canonical(std::string_view label) {
  std::string c(langsift::canonical_encoding_name(label));
  if (c == "ascii") c = "windows-1252";  // WHATWG: the ASCII labels are windows-1252
  return c.empty() ? std::string(label) : c;
}

struct answer {
  std::string encoding;
  const char* stage;
};

answer sniff(std::string_view data) {
  langsift::encoding_result full = langsift::detect_encoding(data);
  if (full.source == langsift::encoding_source::bom) return {full.name, "bom"};
  if (std::optional<std::string> meta = langsift::prescan_meta_charset(data)) return {*meta, "prescan"};
  return {full.name, full.source == langsift::encoding_source::fallback ? "default" : "detected"};
}

}  // namespace

TEST_CASE("html5lib encoding suite: BOM, <meta> prescan, then detection", "[conformance][html5lib][encoding]") {
  const fs::path dir = kSuitesDir / "html5lib" / "encoding";
  REQUIRE(fs::is_directory(dir));
  std::vector<fs::path> files;
  for (const fs::path& sub : {dir, dir / "scripted"})
    for (const auto& e : fs::directory_iterator(sub))
      if (e.is_regular_file() && e.path().extension() == ".dat") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());

  // "case<TAB>expected encoding (as in the suite)<TAB>reason"
  expected_failures failures("html5lib-encoding.tsv", true);
  std::size_t total = 0, passed = 0, expected_failed = 0;
  std::map<std::string, std::size_t> by_stage;
  for (const fs::path& f : files) {
    const std::string prefix = fs::relative(f, dir).generic_string();
    std::vector<enc_case> cases = read_dat(f, prefix);
    REQUIRE(!cases.empty());
    for (const enc_case& c : cases) {
      ++total;
      REQUIRE(!c.expected.empty());
      const answer a = sniff(c.data);
      const bool ok = canonical(a.encoding) == canonical(c.expected);
      INFO(c.id << ": expected " << c.expected << ", got " << a.encoding << " (" << a.stage << ")\n#data\n"
                << c.data.substr(0, 300));
      if (const expected_failures::entry* listed = failures.check(c.id, ok)) {
        CHECK(canonical(listed->note) == canonical(c.expected));  // the list matches the suite
        if (!ok) ++expected_failed;
      }
      if (ok) {
        ++passed;
        ++by_stage[a.stage];
      }
    }
  }
  failures.check_all_seen();
  std::string stages;
  for (const auto& [s, n] : by_stage) stages += " " + s + " " + std::to_string(n);
  std::printf("html5lib encoding: %zu cases, %zu pass (by stage:%s), %zu expected failures\n", total, passed,
              stages.c_str(), expected_failed);
  WARN("html5lib encoding: " << total << " cases, " << passed << " pass (by stage:" << stages << "), "
                             << expected_failed << " expected failures");
}
