// langsift — one WARC record's report, as `langsift warc` prints it, and statistics over records.
//
// A line has today's fields (warc_schema::standard, with the page's text under `text`) or the
// shape corpus tools read (warc_schema::corpus: id, source, url, language, language_score,
// metadata, text; datatrove's JsonlReader, Dolma). warc_report_options::languages and
// min_probability keep only the pages wanted: the others are classified and counted, not written.
//
// The command-line tool, the Python package (langsift.read_warc) and its Dask job all report a
// record through report_warc_record(), so the same record gives the same JSON line everywhere, and
// warc_statistics sums, merges and prints the `--stats` tables the same way.
//
//   langsift::warc_reader reader(bytes);
//   langsift::warc_record r;
//   langsift::warc_statistics stats;
//   while (reader.next(r) != langsift::warc_status::end) {   // (check errors: see langsift warc)
//     langsift::warc_report x = langsift::report_warc_record(langsift::default_model(), r, {});
//     std::fputs(x.line.c_str(), stdout);                     // {"offset":0,"warc_type":...}\n
//     stats.add(x);
//   }
//   std::string tsv = stats.tsv();
//
// Link langsift::page (src/page/warc_report.cpp; it brings langsift::encoding and langsift::warc). Thread safety:
// report_warc_record is re-entrant (the model is shared read-only); a warc_statistics belongs to
// one thread at a time. Only std::bad_alloc escapes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "langsift/language_codes.hpp"
#include "langsift/page.hpp"
#include "langsift/warc.hpp"

namespace langsift {
inline namespace v1 {

/// The calibrated probability that a page's top language is right: what `--min-probability`
/// compares and the corpus schema's `language_score`. It is detection::confidence, the calibrated
/// probability of `d.language()` (docs/detection.md, "Probabilities"), as language_filter's
/// min_probability compares it; 0 for `und`.
inline float warc_language_score(const detection& d) noexcept { return d.count ? d.confidence : 0.0f; }

/// The shape of a record's line.
enum class warc_schema : unsigned char {
  /// `langsift warc`'s fields (docs/warc.md), "text" last when asked for.
  standard,
  /// One document per classified page, as datatrove's JsonlReader and Dolma read them:
  /// {"id" (WARC-Record-ID), "source" (the input's name), "url", "language", "language_score"
  /// (warc_language_score), "metadata" (the other fields of the standard line), "text"}.
  corpus,
};

struct warc_report_options {
  bool all = false;           ///< also report records that are not classified (warcinfo, request...);
                              ///< not with the corpus schema or a language filter (only kept pages have lines)
  bool any_type = false;      ///< classify every Content-Type (default: text/*, *html*, *xml*, none)
  bool main_content = false;  ///< HTML: classify only the main content
  /// Bytes of a decoded (de-chunked, decompressed) body kept; `langsift warc` uses its
  /// --max-record-bytes, as for the record's block (warc_options::max_block_bytes).
  std::size_t max_body_bytes = warc_options{}.max_block_bytes;
  detect_options detect{};    ///< detection settings (the page's hints are added)
  code_style codes = code_style::iso639_1;  ///< language codes in the line and the statistics
  bool text = false;          ///< add "text", the page's text (page_result::text), to the line
  warc_schema schema = warc_schema::standard;  ///< corpus: always with the text
  /// Write only pages whose top language is one of these (langsift's form, to_iso639_1; "zh" names
  /// zh-Hant too)...
  std::vector<std::string> languages;
  /// ... and whose warc_language_score is at least this (0: any). Pages left out are `filtered`:
  /// classified and counted in the statistics, without a line; records that are not classified
  /// have no line then either.
  float min_probability = 0;
};

/// What one record gave.
struct warc_report {
  /// The record's JSON object and a '\n', as `langsift warc` prints it; empty when there is nothing
  /// to print (a record that carries no page, without `all`).
  std::string line;
  bool classified = false;      ///< the body went through detect_page: `page` holds its result
  /// Classified, but not one of the pages wanted (languages, min_probability): no line.
  bool filtered = false;
  bool skipped = false;         ///< not classified; `skip_reason` says why
  std::string_view skip_reason; ///< "warc_type", "content_type", "content_encoding" (static storage)
  int http_status = -1;         ///< the HTTP status of a response record, -1 when there is none
  std::string_view content_type, content_language;  ///< views into the record
  /// The record's block or its decoded body was cut at its cap (warc_options::max_block_bytes,
  /// max_body_bytes; the line says "capped" or "body_status":"capped"): a classified page's
  /// languages are those of the part kept.
  bool capped = false;
  page_result page;             ///< languages, encoding... (codes: views into the model); its
                                ///< `text` with options' text or the corpus schema
  // What the record adds to the statistics (codes in the report's form):
  std::string top, encoding;
  std::uint64_t body_bytes = 0, text_bytes = 0;
  std::vector<std::pair<std::string, std::uint64_t>> languages;  ///< code, bytes (up to three)
};

/// Reports one record: response, resource and conversion records are classified (the HTTP
/// response of a `response` record is parsed, its body de-chunked and decompressed); other records
/// are skipped. `file`: the input's name, written as the line's first field when not null (the
/// tool does so when it reads several files), and the corpus schema's "source".
LANGSIFT_PAGE_API warc_report report_warc_record(const model& m, const warc_record& r, const warc_report_options& o,
                                                 const std::string* file = nullptr);

/// Pages and bytes of one table row.
struct warc_counts {
  std::uint64_t pages = 0, bytes = 0;
  bool operator==(const warc_counts&) const = default;
};

/// Statistics over the records (`langsift warc --stats`): per language (pages by top language;
/// bytes = text bytes of that language in every page, up to three languages a page), per encoding
/// (pages, body bytes) and per language x encoding (pages by top language, text bytes of that
/// language). Sums commute, so statistics of shards merge into those of the whole input.
struct LANGSIFT_PAGE_API warc_statistics {
  std::uint64_t records = 0, pages = 0, skipped = 0, malformed = 0, body_bytes = 0, text_bytes = 0;
  std::uint64_t capped = 0;  ///< pages classified from the part of their record kept (warc_report::capped)
  /// Pages classified but not written (warc_report::filtered: languages, min_probability); they are
  /// in the tables like the others.
  std::uint64_t filtered = 0;
  std::map<std::string, warc_counts> language, encoding;
  std::map<std::pair<std::string, std::string>, warc_counts> language_encoding;

  bool operator==(const warc_statistics&) const = default;

  /// Counts one record's report.
  void add(const warc_report& x);

  /// Counts input that was not a record (reported as malformed).
  void add_malformed(std::uint64_t n = 1) { malformed += n; }

  /// Adds another input's statistics. False, with nothing added, when a sum would exceed
  /// 2^64 - 1 (counts read from files that are not what they claim): a wrapped count is wrong.
  bool merge(const warc_statistics& o);

  /// The tables as `langsift warc --stats` prints them (TSV; docs/warc.md describes them): totals, then each table
  /// by pages and bytes, most first, ties by key.
  std::string tsv() const;

  /// Reads what tsv() wrote (so that statistics cross process boundaries as text), adding up
  /// lines with the same key: the concatenated (or sorted) tables of several inputs read as their
  /// merged statistics, which makes a Hadoop Streaming reducer of `cat parts | sort`. False, with
  /// `error` set and `out` unchanged, on a line that is not of that form, or when a sum would
  /// exceed 2^64 - 1.
  static bool parse_tsv(std::string_view text, warc_statistics& out, std::string* error = nullptr);
};

}  // namespace v1
}  // namespace langsift
