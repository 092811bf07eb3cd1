// `langsift warc` — the languages and encodings of the pages in WARC files: one JSON line per
// record, or statistics per language, per encoding and language x encoding.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common/cli.hpp"
#include "common/compressed_output.hpp"
#include "common/input.hpp"
#include "common/model_arg.hpp"
#include "common/split_output.hpp"
#include "langsift/default_model.hpp"
#include "langsift/options.hpp"
#include "langsift/page.hpp"
#include "langsift/parallel.hpp"
#include "langsift/script.hpp"
#include "langsift/warc.hpp"
#include "langsift/warc_report.hpp"
#include "subcommands.hpp"

namespace {

using langsift::cli::fail;
using langsift::cli::split_output;
using langsift::cli::check_language_codes;
using langsift::cli::compressed_output;
using langsift::cli::parse_options;
using langsift::cli::progress;
using langsift::cli::read_input;
using langsift::cli::stdout_failed;

constexpr const char* kProgram = "langsift warc";

struct settings {
  unsigned threads = 1;
  bool stats = false, timing = false, merge_stats = false;
  std::string stats_file, output;
  std::optional<langsift::cli::output_template> split;  // -o with {language}
  langsift::warc_options warc;
  langsift::warc_report_options report;
  const langsift::model* model = nullptr;
};

/// What the command line gives `langsift warc`: the settings, and what is read once the model is known.
struct warc_args {
  settings s;
  std::string model_path, stdin_label, languages_arg;
  bool languages_given = false, probability_given = false;
};

using option_row = langsift::cli::option<warc_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift warc` that choose what is read and written.
void add_output_options(std::vector<option_row>& t) {
  t.push_back({value_kind::size, "--threads", "-j", "N", "worker threads (default 1); output order is kept",
               [](warc_args& a, const option_value& v) { a.s.threads = static_cast<unsigned>(v.size); return true; }, 1, 256});
  t.push_back({value_kind::size, "--max-record-bytes", nullptr, "N",
               "keep at most N bytes of a record's block (and of its decoded\n"
               "body); the rest is skipped, and the output says so: \"capped\" in\n"
               "the line, `total capped` in the statistics, and a line on stderr\n"
               "per page classified from its kept part (default 4M)",
               [](warc_args& a, const option_value& v) {
                 a.s.warc.max_block_bytes = static_cast<std::size_t>(v.size);
                 a.s.report.max_body_bytes = a.s.warc.max_block_bytes;
                 return true;
               },
               1024, static_cast<double>(1ull << 32)});
  t.push_back({value_kind::flag, "--stats", nullptr, nullptr,
               "print statistics instead of one line per record: pages and bytes\n"
               "per language, per encoding and per language x encoding (TSV)",
               [](warc_args& a, const option_value&) { return a.s.stats = true; }});
  t.push_back({value_kind::text, "--stats-file", nullptr, "FILE",
               "write the statistics to FILE (records still go to stdout);\n"
               "compressed by its name as -o's",
               [](warc_args& a, const option_value& v) { a.s.stats_file = v.text; return !v.text.empty(); }, 0, 0, nullptr,
               "a file name"});
  t.push_back({value_kind::text, "--output", "-o", "FILE",
               "write what goes to stdout (the lines, or --stats) to FILE instead,\n"
               "complete or not at all (a temporary file renamed into place);\n"
               "FILE.gz: gzip, FILE.zst: zstd, else plain. With {language} in\n"
               "FILE, a file per language: each line goes to the file named by\n"
               "its \"language\" (as --codes writes it; und: pages without one, and\n"
               "records that are not pages), e.g. -o 'out/{language}.jsonl.zst'\n"
               "(out/ must exist; a directory named with {language} is made).\n"
               "Files are made on their language's first line (with --languages,\n"
               "those asked for, at the start) and renamed into place together\n"
               "at the end, or none on an error",
               [](warc_args& a, const option_value& v) { a.s.output = v.text; return !v.text.empty(); }, 0, 0, nullptr,
               "a file name"});
  t.push_back({value_kind::flag, "--text", nullptr, nullptr,
               "add \"text\", the page's text (the HTML's text, with --main its main\n"
               "content, as `langsift text` gives it; a body that is not HTML: its\n"
               "decoded text), to each page's line",
               [](warc_args& a, const option_value&) { return a.s.report.text = true; }});
  t.push_back({value_kind::choice, "--schema", nullptr, "default|corpus",
               "corpus: one document per page: {\"id\" (WARC-Record-ID), \"source\"\n"
               "(the input's name), \"url\", \"language\", \"language_score\" (the\n"
               "calibrated probability of the language), \"metadata\" (the other\n"
               "fields), \"text\"}, as datatrove's JsonlReader and Dolma read them;\n"
               "records that are not pages get no line (default: default)",
               [](warc_args& a, const option_value& v) {
                 a.s.report.schema = v.choice == 0 ? langsift::warc_schema::standard : langsift::warc_schema::corpus;
                 return true;
               },
               0, 0, "default|corpus"});
  t.push_back({value_kind::text, "--languages", nullptr, "CODES",
               "write only pages whose top language is one of these (comma-separated;\n"
               "'zh' includes zh-Hant); the others are counted (`total filtered`)",
               [](warc_args& a, const option_value& v) {
                 a.languages_arg = v.text;
                 return a.languages_given = !langsift::split_code_list(v.text).empty();
               },
               0, 0, nullptr, "language codes"});
  t.push_back({value_kind::real, "--min-probability", nullptr, "P",
               "write only pages whose language has at least this calibrated\n"
               "probability (0 to 1); the others are counted (`total filtered`)",
               [](warc_args& a, const option_value& v) {
                 a.s.report.min_probability = static_cast<float>(v.real);
                 return a.probability_given = true;
               },
               0, 1, nullptr, "a probability from 0 to 1"});
  t.push_back({value_kind::flag, "--merge-stats", nullptr, nullptr,
               "FILEs are statistics (of --stats), not WARC files: print their sum,\n"
               "the statistics of all their inputs together (lines in any order:\n"
               "a Hadoop Streaming reducer of sorted --stats output); a sum over\n"
               "2^64 - 1 is an error",
               [](warc_args& a, const option_value&) { return a.s.merge_stats = true; }});
  t.push_back({value_kind::flag, "--all", nullptr, nullptr,
               "also print a line for records that are not classified (warcinfo,\n"
               "request, metadata, revisit...: \"skipped\":\"warc_type\")",
               [](warc_args& a, const option_value&) { return a.s.report.all = true; }});
}

/// The options of `langsift warc` that choose how pages are classified, and the rest.
void add_classify_options(std::vector<option_row>& t) {
  t.push_back({value_kind::flag, "--any-type", nullptr, nullptr,
               "classify every Content-Type (default: text/*, *html*, *xml*, none)",
               [](warc_args& a, const option_value&) { return a.s.report.any_type = true; }});
  t.push_back({value_kind::flag, "--main", nullptr, nullptr, "HTML: classify only the main content",
               [](warc_args& a, const option_value&) { return a.s.report.main_content = true; }});
  t.push_back({value_kind::text, "--model", nullptr, "NAME|FILE",
               "a built-in model (`default`, `wide`) or a model file (default:\n"
               "`default`; a built-in name wins: write ./wide for a file so named)",
               [](warc_args& a, const option_value& v) { a.model_path = v.text; return true; }, 0, 0, nullptr,
               "a built-in model's name or a file"});
  t.push_back({value_kind::size, "--short-bytes", nullptr, "N", "pages with fewer text bytes are flagged short (default 400)",
               [](warc_args& a, const option_value& v) {
                 a.s.report.detect.short_text_bytes = static_cast<std::size_t>(v.size);
                 return true;
               },
               0, static_cast<double>(1ull << 30)});
  t.push_back({value_kind::size, "--max-text-bytes", nullptr, "N", "examine at most N bytes of a page's text (default 64K)",
               [](warc_args& a, const option_value& v) {
                 a.s.report.detect.max_text_bytes = static_cast<std::size_t>(v.size);
                 return true;
               },
               256, static_cast<double>(1ull << 32)});
  t.push_back({value_kind::text, "--codes", nullptr, "iso639-1|iso639-3",
               "language codes in lines and statistics (default iso639-1: ISO\n"
               "639-1 where one exists; iso639-3, as Common Crawl's index writes them)",
               [](warc_args& a, const option_value& v) {
                 const auto c = langsift::parse_code_style(v.text);
                 if (c) a.s.report.codes = *c;
                 return c.has_value();
               },
               0, 0, nullptr, "iso639-1 or iso639-3"});
  t.push_back({value_kind::text, "--name", nullptr, "NAME",
               "the name of stdin's input, written as each line's \"file\" (default:\n"
               "$mapreduce_map_input_file or $map_input_file, which Hadoop Streaming\n"
               "sets, else none)",
               [](warc_args& a, const option_value& v) { a.stdin_label = v.text; return !v.text.empty(); }, 0, 0, nullptr,
               "a name"});
  t.push_back({value_kind::flag, "--timing", nullptr, nullptr,
               "print records, pages, bytes, seconds and pages/s to stderr at the end",
               [](warc_args& a, const option_value&) { return a.s.timing = true; }});
}

/// The options of `langsift warc`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, R"(usage: langsift warc [options] [FILE...|-]

Reads WARC/1.0 and WARC/1.1 files (uncompressed, gzip with any number of records per member,
or zstd (.warc.zst, with or without a dictionary), recognised by their first bytes; '-' or no
FILE: stdin, so it works as a Hadoop Streaming mapper) and identifies the
language and encoding of every response, resource and conversion record: the HTTP status
line and headers are parsed (Content-Type charset, Content-Language), chunked transfer
coding and gzip/deflate content coding are undone, and the body goes through the whole
pipeline of `langsift detect` (encoding, HTML text, languages with the URL's TLD, <html lang>
and Content-Language as hints).

Output: one JSON object per line and record, in input order, with the fields
file (when several are read, or stdin has a --name), offset, length (the record's gzip member,
or bytes of uncompressed input), warc_type, target_uri, record_id, warc_date, payload_digest
(when the record has them), http_status,
content_type, body_bytes, language, languages [{code, percent, bytes, score}], text_bytes,
reliable, short, confidence, encoding, encoding_source, and flags when something was cut
or skipped; with --text, the page's text. --schema corpus writes documents for corpus tools
(datatrove, Dolma): id, source, url, language, language_score, metadata, text.

options:
)"});
    add_output_options(t);
    add_classify_options(t);
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, R"(
When stderr is a terminal, progress is shown there (MB read of the files' total, rate, time
left); never when it is not.

Malformed input (a record that is not WARC, a wrong Content-Length, a truncated or corrupt
gzip member) is reported on stderr as 'FILE: offset N: what' and reading goes on with the
next record. Exit status: 0 when all went well, 3 when some input was malformed (and
reported), 1 when a file cannot be read, the model cannot be loaded, memory ran out or the
output cannot be written, 2 on a usage error.
)"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 25); }

using outcome = langsift::warc_report;
using statistics = langsift::warc_statistics;

/// `file`: the input's name when several files are read (then the first field), else null.
std::atomic<bool> g_out_of_memory{false};

outcome process(const settings& s, const langsift::warc_record& r, const std::string& name, const std::string* file) {
  outcome o = langsift::report_warc_record(*s.model, r, s.report, file);
  std::string().swap(o.page.text);  // in the line already
  if (o.classified && o.page.detection.st == langsift::status::out_of_memory && !g_out_of_memory.exchange(true))
    std::fprintf(stderr, "%s: offset %llu: out of memory: the record's line says status out_of_memory "
                 "(lower --max-record-bytes, or give the process more memory)\n", kProgram,
                 static_cast<unsigned long long>(r.offset));
  if (o.classified && o.capped)  // one line per page classified from a part of its record
    std::fprintf(stderr, "%s: %s: offset %llu: record cut at %zu bytes (--max-record-bytes): its languages are "
                 "those of that part\n", kProgram, name.c_str(), static_cast<unsigned long long>(r.offset),
                 s.warc.max_block_bytes);
  return o;
}

/// -o's template, if it is one, and --stats-file's name (which takes none): 0, or the exit status
/// of a usage error (reported).
int parse_templates(settings& s) {
  std::string error;
  langsift::cli::output_template t;
  if (!s.stats_file.empty() && langsift::cli::parse_output_template(s.stats_file, t, error) != 0)
    return fail(kProgram, "--stats-file: " + (error.empty() ? "the statistics are one file: {language} is for -o" : error)) + 1;
  error.clear();
  const int r = s.output.empty() ? 0 : langsift::cli::parse_output_template(s.output, t, error);
  if (r < 0) return fail(kProgram, "-o: " + error) + 1;
  if (r == 0) return 0;
  if (s.stats)
    return fail(kProgram, "-o with {language} writes the lines per language; --stats writes one table "
                          "(--stats-file FILE writes it beside the lines)") + 1;
  s.split = std::move(t);
  return 0;
}

/// Every code a line's "language" can hold, in the lines' style: the model's languages, those a
/// script decides alone (detect answers them without a model language: chr for Cherokee), und.
std::set<std::string> answer_codes(const settings& s) {
  std::set<std::string> codes{"und"};
  for (std::size_t l = 0; l < s.model->language_count(); ++l) codes.insert(langsift::code_in_style(s.model->language_code(l), s.report.codes));
  for (std::size_t k = 0; k < langsift::script_count; ++k)
    for (const bool kana : {false, true})
      if (const std::string_view c = langsift::script_language(static_cast<langsift::script>(k), kana); !c.empty())
        codes.insert(langsift::code_in_style(c, s.report.codes));
  return codes;
}

/// A template's set-up before any work: every code the lines can name must make a file name (a
/// trained model's need not: a usage error, 2), the template's directory must take files, and
/// with --languages the files of the languages asked for are made now (their variants too: `zh`
/// asks for zh-Hant). 0, or the exit status (reported).
int open_split(const settings& s, split_output& split) {
  const std::set<std::string> codes = answer_codes(s);
  for (const std::string& c : codes)
    if (!langsift::cli::code_fits_file_name(c))
      return fail(kProgram, "-o: the model's language code '" + c + "' cannot be part of a file name (letters, "
                            "digits, '-' and '_' only): write one file, or use another model") + 1;
  std::string error;
  if (!split.check(error)) return fail(kProgram, error);
  for (const std::string& c : codes) {
    bool asked = false;
    for (const std::string& w : s.report.languages)
      asked = asked || langsift::detail::code_matches(langsift::to_iso639_1(c), w);
    if (asked && !split.open(c, error)) return fail(kProgram, error);
  }
  return 0;
}

/// --merge-stats: the sum of the statistics files `files` on stdout; the exit status.
int merge_stats(const warc_args& a, const std::vector<std::string>& files) {
  const settings& s = a.s;
  if (s.stats || !s.stats_file.empty() || s.threads > 1 || s.timing || !s.output.empty() || s.report.text ||
      s.report.schema != langsift::warc_schema::standard || a.languages_given || a.probability_given)
    return fail(kProgram, "--merge-stats takes statistics files and no other option") + 1;
  langsift::warc_statistics total;
  for (const std::string& path : files) {
    std::string text, error;
    bool cut = false;
    if (!read_input(path, text, error, std::size_t{1} << 30, &cut)) return fail(kProgram, error);  // plain, gzip, zstd
    if (cut) return fail(kProgram, path + ": larger than 1 GiB: not a statistics file");
    langsift::warc_statistics one;
    if (!langsift::warc_statistics::parse_tsv(text, one, &error))
      return fail(kProgram, (path == "-" ? std::string("stdin") : path) + ": " + error);
    if (!total.merge(one))
      return fail(kProgram, (path == "-" ? std::string("stdin") : path) + ": the sum of the counts exceeds 2^64 - 1");
  }
  const std::string t = total.tsv();
  langsift::cli::write_stdout(t);
  return stdout_failed(kProgram, true) ? 1 : 0;
}

/// Where the lines and statistics go: -o's file (or a file per language with a template), or
/// stdout; --stats-file's file.
struct outputs {
  std::optional<split_output> split;
  std::optional<compressed_output> out, stats_out;

  /// The lines (or --stats) to -o's file, or stdout. False once a write failed.
  bool put(std::string&& text) {
    if (out) return out->write(std::move(text));
    langsift::cli::write_stdout(text);
    return !stdout_failed(kProgram);
  }
  /// A record's line: to the file of its language with a template (the line's "language": und
  /// for a record that is not classified), else as put().
  bool put_line(outcome& o) {
    if (split) return split->write(o.classified ? o.top : std::string("und"), std::move(o.line));
    return put(std::move(o.line));
  }
};

/// -o and --stats-file, opened before any work (written atomically at the end), so that an
/// unwritable place is an error before it; a template's directory checked, and with --languages
/// the files of the languages asked for opened. 0, or the exit status (reported).
int open_outputs(const settings& s, outputs& o) {
  if (s.split) {
    o.split.emplace(*s.split);
    if (int rc = open_split(s, *o.split); rc != 0) return rc;
  }
  for (auto [name, file] : {std::pair{&s.output, &o.out}, std::pair{&s.stats_file, &o.stats_out}}) {
    if (name->empty() || (file == &o.out && (*name == "-" || o.split))) continue;  // -o -: stdout
    std::string error;
    file->emplace(*name);
    if (!(*file)->open(error)) return fail(kProgram, error);
  }
  return 0;
}

/// A record handed to the workers.
struct job {
  langsift::warc_record record;
  const std::string* name;  // for messages
  const std::string* file;  // the line's "file" field, or null
};

/// What reading the inputs came to.
struct read_result {
  int rc = 0;                             // 1: a file could not be read
  bool malformed = false;                 // some input was malformed (reported)
  std::uint64_t malformed_records = 0;
  std::uint64_t input_bytes = 0;
};

/// stdin's name: --name, else what Hadoop Streaming puts in the environment
/// (mapreduce_map_input_file from Hadoop 2 on, map_input_file before), else none.
std::string stdin_label_of(const std::string& given) {
  if (!given.empty()) return given;
  for (const char* var : {"mapreduce_map_input_file", "map_input_file"})
    if (const char* v = std::getenv(var); v && *v) return v;
  return {};
}

/// Reads the records of `files` into `pool` (messages for malformed ones, progress on a
/// terminal), until done or `write_failed`.
read_result read_inputs(const settings& s, const std::vector<std::string>& files, const std::string& stdin_label,
                        langsift::ordered_pool<job, outcome>& pool, const std::atomic<bool>& write_failed) {
  read_result res;
  const std::string stdin_name = stdin_label.empty() ? "stdin" : stdin_label;
  // Progress (on a terminal only): input bytes read of the files' total (stdin's size is unknown).
  std::uint64_t total_bytes = 0;
  for (const std::string& path : files) {
    struct stat st {};
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) total_bytes += static_cast<std::uint64_t>(st.st_size);
  }
  progress shown(kProgram, total_bytes);
  for (const std::string& path : files) {
    if (write_failed) break;
    std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) {
      res.rc = fail(kProgram, path + ": " + std::strerror(errno));
      continue;
    }
    const std::string& name = path == "-" ? stdin_name : path;
    // The "file" field when several files are read or stdin has a name; the corpus schema's
    // "source", always.
    const bool named = files.size() > 1 || (path == "-" && !stdin_label.empty()) ||
                       s.report.schema == langsift::warc_schema::corpus;
    const std::string* file_field = named ? &name : nullptr;
    langsift::warc_reader reader([f](char* buf, std::size_t n) { return std::fread(buf, 1, n, f); }, s.warc);
    langsift::warc_record r;
    while (!write_failed) {
      const langsift::warc_status st = reader.next(r);
      if (st == langsift::warc_status::end) break;
      if (st == langsift::warc_status::error || !r.problem.empty()) {
        std::fprintf(stderr, "%s: %s: offset %llu: %s\n", kProgram, name.c_str(),
                     static_cast<unsigned long long>(reader.error_offset()), reader.error().c_str());
        res.malformed = true;
        ++res.malformed_records;
        if (st == langsift::warc_status::error) continue;
      }
      shown.update(res.input_bytes + reader.input_bytes());
      pool.submit(job{std::move(r), &name, file_field});
      r = langsift::warc_record{};
    }
    res.input_bytes += reader.input_bytes();
    if (std::ferror(f)) res.rc = fail(kProgram, name + ": read error");
    if (f != stdin) std::fclose(f);
  }
  shown.finish();
  return res;
}

/// The outputs completed once every record is written: --stats on stdout (or -o), -o's file or
/// files renamed into place, --stats-file written. False when -o's failed (reported: exit status
/// 1 at once); `rc` becomes 1 when --stats-file's failed (reported).
bool commit_outputs(const settings& s, outputs& o, const statistics& stats, int& rc) {
  if (s.stats && !o.stats_out) o.put(stats.tsv());
  std::string error;
  if (o.out && !o.out->commit(error)) return fail(kProgram, error) == 0;
  if (o.split && !o.split->commit(error)) return fail(kProgram, error) == 0;
  if (o.stats_out) {
    o.stats_out->write(stats.tsv());
    if (!o.stats_out->commit(error)) rc = fail(kProgram, error);
  }
  return true;
}

/// --timing: records, pages, bytes, seconds, rates, CPU time and peak RSS, one line on stderr.
void print_timing(const settings& s, const statistics& stats, std::uint64_t input_bytes,
                  std::chrono::steady_clock::time_point t0) {
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);  // all threads (model loading included: under 2 ms)
  const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::fprintf(stderr,
               "%s: %llu records, %llu pages classified, %.1f MB of input, %.1f MB of bodies in %.3f s: "
               "%.0f pages/s, %.1f MB/s of bodies (%u thread%s); CPU %.3f s: %.0f pages per CPU second; "
               "peak RSS %.1f MB\n",
               kProgram, static_cast<unsigned long long>(stats.records), static_cast<unsigned long long>(stats.pages),
               static_cast<double>(input_bytes) / 1e6, static_cast<double>(stats.body_bytes) / 1e6, sec,
               static_cast<double>(stats.pages) / sec, static_cast<double>(stats.body_bytes) / 1e6 / sec, s.threads,
               s.threads == 1 ? "" : "s", cpu, cpu > 0 ? static_cast<double>(stats.pages) / cpu : 0.0,
               static_cast<double>(ru.ru_maxrss) / 1024.0);
}

/// The options that cannot go together, the templates, the model and --languages: -1 to go on,
/// else the exit status (reported).
int prepare(warc_args& a, langsift::model& loaded) {
  settings& s = a.s;
  if (s.report.all && (s.report.schema == langsift::warc_schema::corpus || a.languages_given || a.probability_given))
    return fail(kProgram, "--all writes every record; --schema corpus, --languages and --min-probability write "
                          "only pages: choose one") + 1;
  if (int t = parse_templates(s); t != 0) return t;
  std::string error;
  if (langsift::cli::resolve_model(a.model_path, s.model, loaded, error) != langsift::status::ok)
    return fail(kProgram, error);
  if (a.languages_given) {
    std::vector<std::string> codes = langsift::parse_code_list(a.languages_arg);  // either ISO form, any case
    if (!check_language_codes(kProgram, "--languages", *s.model, codes, a.model_path)) return 2;
    s.report.languages = std::move(codes);
  }
  return -1;
}

}  // namespace

int langsift::cli::cmd_warc(int argc, char** argv) {
  warc_args a;
  const settings& s = a.s;
  std::vector<std::string> files;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, files); rc >= 0) return rc;
  if (files.empty()) files.emplace_back("-");
  if (s.merge_stats) return merge_stats(a, files);
  langsift::model loaded;
  if (const int rc = prepare(a, loaded); rc >= 0) return rc;
  outputs o;
  if (int rc = open_outputs(s, o); rc != 0) return rc;

  const auto t0 = std::chrono::steady_clock::now();
  statistics stats;
  // Records are worked on by --threads workers and printed in input order, with at most
  // 2 * threads + 2 of them (each at most --max-record-bytes) read but not yet printed.
  std::atomic<bool> write_failed{false};  // the output cannot be written: stop reading
  langsift::ordered_pool<job, outcome> pool(
      s.threads, 2 * static_cast<std::size_t>(s.threads) + 2,
      [&](job& j) { return process(s, j.record, *j.name, j.file); },
      [&](outcome& r) {
        stats.add(r);
        if (!s.stats && !r.line.empty() && !o.put_line(r)) write_failed = true;
      });
  const read_result in = read_inputs(s, files, stdin_label_of(a.stdin_label), pool, write_failed);
  pool.finish();
  stats.add_malformed(in.malformed_records);
  // Statistics of part of the input are not written anywhere (a --stats-file keeps what it had).
  if (write_failed || stdout_failed(kProgram, true)) {
    std::string error;
    if (o.out && !o.out->commit(error)) fail(kProgram, error);
    if (o.split && !o.split->commit(error)) fail(kProgram, error);  // the failure's message; none renamed
    return 1;
  }
  int rc = in.rc;
  if (!commit_outputs(s, o, stats, rc)) return 1;
  if (s.timing) print_timing(s, stats, in.input_bytes, t0);
  if (stdout_failed(kProgram, true)) return 1;
  if (rc) return rc;
  if (g_out_of_memory.load()) return 1;
  return in.malformed ? 3 : 0;
}
