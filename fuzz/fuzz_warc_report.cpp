// libFuzzer target: the WARC record report, the statistics' TSV reader and the ISO 639 code
// conversions (langsift/warc_report.hpp, langsift/language_codes.hpp), the entry points that the
// Python package and `langsift warc --merge-stats` add.
//   byte 0 % 3 == 0   the rest is a statistics TSV: parse_tsv; when it parses, tsv() parses back
//                     to the same statistics, and the text twice over to the statistics merged
//                     with themselves
//   byte 0 % 3 == 1   the rest is a language code: to_iso639_3 and to_iso639_1 agree
//                     (to_iso639_1(to_iso639_3(c)) == to_iso639_1(c)) and never grow a code by
//                     more than one letter
//   byte 0 % 3 == 2   the rest is a WARC file: every record's report (with --all) is one line of
//                     valid UTF-8 in braces, a classified record has its page, and the statistics
//                     count every record. byte 0 / 3 also chooses the text (bit 0), the corpus
//                     schema (bit 1) and a language filter (bit 2; bits 3-5 its min_probability):
//                     a line holds the page's text (valid UTF-8) as its last field, a corpus line
//                     starts with its id, a filtered page has no line, and pages_only modes give
//                     lines for kept pages only
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "langsift/default_model.hpp"
#include "langsift/impl/json.hpp"  // detail::json::string, as the report writes "text"
#include "langsift/language_codes.hpp"
#include "langsift/warc_report.hpp"

namespace {

void check_at(bool ok, int line) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_warc_report: invariant at line %d failed\n", line);
    std::abort();
  }
}
#define check(x) check_at((x), __LINE__)

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += len;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      langsift::warc_statistics s;
      std::string error;
      if (!langsift::warc_statistics::parse_tsv(in, s, &error)) {
        check(!error.empty());
        break;
      }
      langsift::warc_statistics back, twice;
      check(langsift::warc_statistics::parse_tsv(s.tsv(), back));
      check(back == s);
      const std::string doubled = std::string(in) + "\n" + std::string(in);
      check(langsift::warc_statistics::parse_tsv(doubled, twice));
      langsift::warc_statistics merged = s;
      merged.merge(s);
      check(twice == merged);
      break;
    }
    case 1: {
      const std::string three = langsift::to_iso639_3(in), one = langsift::to_iso639_1(in);
      check(langsift::to_iso639_1(three) == one);
      check(three.size() <= in.size() + 1 && one.size() <= in.size());
      break;
    }
    default: {
      langsift::warc_options wo;
      wo.max_block_bytes = 64 * 1024;
      langsift::warc_reader reader(in, wo);
      langsift::warc_report_options o;
      o.all = true;
      o.max_body_bytes = wo.max_block_bytes;
      const unsigned variant = data[0] / 3u;
      o.text = variant & 1;
      if (variant & 2) o.schema = langsift::warc_schema::corpus;
      if (variant & 4) {
        o.languages = {"de", "zh", "en"};
        o.min_probability = static_cast<float>((variant >> 3) & 7) / 7.0f;
      }
      const bool pages_only = (variant & 6) != 0;
      const std::string source = "fuzz.warc";
      langsift::warc_statistics stats;
      langsift::warc_record r;
      std::uint64_t records = 0;
      for (std::size_t guard = 0; guard <= in.size() + 1; ++guard) {
        const langsift::warc_status st = reader.next(r);
        if (st == langsift::warc_status::end) break;
        if (st == langsift::warc_status::error) continue;
        const langsift::warc_report x = langsift::report_warc_record(langsift::default_model(), r, o, &source);
        check(x.classified != x.skipped);
        check(!x.classified || x.languages.size() == x.page.detection.count);
        check(!x.filtered || (x.classified && x.line.empty()));
        if (pages_only && !x.classified) check(x.line.empty());
        if (x.line.empty()) {
          check(pages_only);
          stats.add(x);
          ++records;
          continue;
        }
        check(x.line.size() >= 3 && x.line.front() == '{' && x.line.substr(x.line.size() - 2) == "}\n");
        check(x.line.find('\n') == x.line.size() - 1);
        check(valid_utf8(x.line));
        if (variant & 2) check(x.line.rfind("{\"id\":\"", 0) == 0 && x.line.find(",\"metadata\":{\"offset\":") != std::string::npos);
        if (x.classified && (o.text || (variant & 2))) {
          check(valid_utf8(x.page.text));
          std::string last = ",\"text\":";
          langsift::detail::json::string(last, x.page.text);
          last += "}\n";
          check(x.line.size() > last.size() && x.line.compare(x.line.size() - last.size(), last.size(), last) == 0);
        }
        if (x.classified && (variant & 4))
          check(langsift::warc_language_score(x.page.detection) >= o.min_probability && !x.top.empty());
        stats.add(x);
        ++records;
      }
      check(stats.records == records);
      langsift::warc_statistics back;
      check(langsift::warc_statistics::parse_tsv(stats.tsv(), back) && back == stats);
      break;
    }
  }
  return 0;
}
