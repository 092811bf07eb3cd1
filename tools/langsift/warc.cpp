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

constexpr const char* kProgram = "langsift warc";

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift warc [options] [FILE...|-]\n"
      "\n"
      "Reads WARC/1.0 and WARC/1.1 files (uncompressed, gzip with any number of records per member,\n"
      "or zstd (.warc.zst, with or without a dictionary), recognised by their first bytes; '-' or no\n"
      "FILE: stdin, so it works as a Hadoop Streaming mapper) and identifies the\n"
      "language and encoding of every response, resource and conversion record: the HTTP status\n"
      "line and headers are parsed (Content-Type charset, Content-Language), chunked transfer\n"
      "coding and gzip/deflate content coding are undone, and the body goes through the whole\n"
      "pipeline of `langsift detect` (encoding, HTML text, languages with the URL's TLD, <html lang>\n"
      "and Content-Language as hints).\n"
      "\n"
      "Output: one JSON object per line and record, in input order, with the fields\n"
      "file (when several are read, or stdin has a --name), offset, length (the record's gzip member,\n"
      "or bytes of uncompressed input), warc_type, target_uri, record_id, warc_date, payload_digest\n"
      "(when the record has them), http_status,\n"
      "content_type, body_bytes, language, languages [{code, percent, bytes, score}], text_bytes,\n"
      "reliable, short, confidence, encoding, encoding_source, and flags when something was cut\n"
      "or skipped; with --text, the page's text. --schema corpus writes documents for corpus tools\n"
      "(datatrove, Dolma): id, source, url, language, language_score, metadata, text.\n"
      "\n"
      "options:\n"
      "  -j, --threads N        worker threads (default 1); output order is kept\n"
      "  --max-record-bytes N   keep at most N bytes of a record's block (and of its decoded\n"
      "                         body); the rest is skipped, and the output says so: \"capped\" in\n"
      "                         the line, `total capped` in the statistics, and a line on stderr\n"
      "                         per page classified from its kept part (default 4M)\n"
      "  --stats                print statistics instead of one line per record: pages and bytes\n"
      "                         per language, per encoding and per language x encoding (TSV)\n"
      "  --stats-file FILE      write the statistics to FILE (records still go to stdout);\n"
      "                         compressed by its name as -o's\n"
      "  -o, --output FILE      write what goes to stdout (the lines, or --stats) to FILE instead,\n"
      "                         complete or not at all (a temporary file renamed into place);\n"
      "                         FILE.gz: gzip, FILE.zst: zstd, else plain. With {language} in\n"
      "                         FILE, a file per language: each line goes to the file named by\n"
      "                         its \"language\" (as --codes writes it; und: pages without one, and\n"
      "                         records that are not pages), e.g. -o 'out/{language}.jsonl.zst'\n"
      "                         (out/ must exist; a directory named with {language} is made).\n"
      "                         Files are made on their language's first line (with --languages,\n"
      "                         those asked for, at the start) and renamed into place together\n"
      "                         at the end, or none on an error\n"
      "  --text                 add \"text\", the page's text (the HTML's text, with --main its main\n"
      "                         content, as `langsift text` gives it; a body that is not HTML: its\n"
      "                         decoded text), to each page's line\n"
      "  --schema default|corpus  corpus: one document per page: {\"id\" (WARC-Record-ID), \"source\"\n"
      "                         (the input's name), \"url\", \"language\", \"language_score\" (the\n"
      "                         calibrated probability of the language), \"metadata\" (the other\n"
      "                         fields), \"text\"}, as datatrove's JsonlReader and Dolma read them;\n"
      "                         records that are not pages get no line (default: default)\n"
      "  --languages CODES      write only pages whose top language is one of these (comma-separated;\n"
      "                         'zh' includes zh-Hant); the others are counted (`total filtered`)\n"
      "  --min-probability P    write only pages whose language has at least this calibrated\n"
      "                         probability (0 to 1); the others are counted (`total filtered`)\n"
      "  --merge-stats          FILEs are statistics (of --stats), not WARC files: print their sum,\n"
      "                         the statistics of all their inputs together (lines in any order:\n"
      "                         a Hadoop Streaming reducer of sorted --stats output); a sum over\n"
      "                         2^64 - 1 is an error\n"
      "  --all                  also print a line for records that are not classified (warcinfo,\n"
      "                         request, metadata, revisit...: \"skipped\":\"warc_type\")\n"
      "  --any-type             classify every Content-Type (default: text/*, *html*, *xml*, none)\n"
      "  --main                 HTML: classify only the main content\n"
      "  --model NAME|FILE      a built-in model (`default`, `wide`) or a model file (default:\n"
      "                         `default`; a built-in name wins: write ./wide for a file so named)\n"
      "  --short-bytes N        pages with fewer text bytes are flagged short (default 400)\n"
      "  --max-text-bytes N     examine at most N bytes of a page's text (default 64K)\n"
      "  --codes iso639-1|iso639-3  language codes in lines and statistics (default iso639-1: ISO\n"
      "                         639-1 where one exists; iso639-3, as Common Crawl's index writes them)\n"
      "  --name NAME            the name of stdin's input, written as each line's \"file\" (default:\n"
      "                         $mapreduce_map_input_file or $map_input_file, which Hadoop Streaming\n"
      "                         sets, else none)\n"
      "  --timing               print records, pages, bytes, seconds and pages/s to stderr at the end\n"      "\n"
      "When stderr is a terminal, progress is shown there (MB read of the files' total, rate, time\n"
      "left); never when it is not.\n"
      "\n"
      "Malformed input (a record that is not WARC, a wrong Content-Length, a truncated or corrupt\n"
      "gzip member) is reported on stderr as 'FILE: offset N: what' and reading goes on with the\n"
      "next record. Exit status: 0 when all went well, 3 when some input was malformed (and\n"
      "reported), 1 when a file cannot be read, the model cannot be loaded, memory ran out or the\n"
      "output cannot be written, 2 on a usage error.\n");
}

struct settings {
  unsigned threads = 1;
  bool stats = false, timing = false, merge_stats = false;
  std::string stats_file, output;
  std::optional<langsift::cli::output_template> split;  // -o with {language}
  langsift::warc_options warc;
  langsift::warc_report_options report;
  const langsift::model* model = nullptr;
};

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

}  // namespace

int langsift::cli::cmd_warc(int argc, char** argv) {
  settings s;
  std::vector<std::string> files;
  std::string model_path, value, stdin_label, languages_arg;
  bool languages_given = false, probability_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    bool missing = false;
    auto size_value = [&](const char* name, unsigned long long lo, unsigned long long hi, unsigned long long& v) {
      return size_in_range(kProgram, name, value, missing, lo, hi, v);
    };
    unsigned long long v = 0;
    if (a == "--version") return langsift::cli::print_version("langsift warc");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--merge-stats") {
      s.merge_stats = true;
    } else if (a == "--stats") {
      s.stats = true;
    } else if (a == "--all") {
      s.report.all = true;
    } else if (a == "--any-type") {
      s.report.any_type = true;
    } else if (a == "--main") {
      s.report.main_content = true;
    } else if (a == "--timing") {
      s.timing = true;
    } else if (take_option(argc, argv, i, "-j", value, missing) || take_option(argc, argv, i, "--threads", value, missing)) {
      if (!size_value("--threads", 1, 256, v)) return 2;
      s.threads = static_cast<unsigned>(v);
    } else if (a.size() > 2 && a.substr(0, 2) == "-j") {  // -j2
      value = std::string(a.substr(2));
      if (!size_value("-j", 1, 256, v)) return 2;
      s.threads = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--max-record-bytes", value, missing)) {
      if (!size_value("--max-record-bytes", 1024, 1ull << 32, v)) return 2;
      s.warc.max_block_bytes = static_cast<std::size_t>(v);
      s.report.max_body_bytes = s.warc.max_block_bytes;
    } else if (take_option(argc, argv, i, "--stats-file", s.stats_file, missing)) {
      if (missing || s.stats_file.empty()) return fail(kProgram, "--stats-file needs a file name") + 1;
    } else if (take_option(argc, argv, i, "-o", s.output, missing) || take_option(argc, argv, i, "--output", s.output, missing)) {
      if (missing || s.output.empty()) return fail(kProgram, "-o needs a file name") + 1;
    } else if (a == "--text") {
      s.report.text = true;
    } else if (take_option(argc, argv, i, "--schema", value, missing)) {
      if (!missing && value == "corpus") s.report.schema = langsift::warc_schema::corpus;
      else if (!missing && value == "default") s.report.schema = langsift::warc_schema::standard;
      else return fail(kProgram, "--schema is default or corpus") + 1;
    } else if (take_option(argc, argv, i, "--languages", languages_arg, missing)) {
      if (missing || langsift::split_code_list(languages_arg).empty())
        return fail(kProgram, "--languages needs language codes") + 1;
      languages_given = true;
    } else if (take_option(argc, argv, i, "--min-probability", value, missing)) {
      char* end = nullptr;
      const double p = missing ? -1 : std::strtod(value.c_str(), &end);
      if (missing || value.empty() || *end != '\0' || !(p >= 0 && p <= 1))
        return fail(kProgram, "--min-probability needs a probability from 0 to 1") + 1;
      s.report.min_probability = static_cast<float>(p);
      probability_given = true;
    } else if (take_option(argc, argv, i, "--model", model_path, missing)) {
      if (missing) return fail(kProgram, "--model needs a built-in model's name or a file") + 1;
    } else if (take_option(argc, argv, i, "--short-bytes", value, missing)) {
      if (!size_value("--short-bytes", 0, 1ull << 30, v)) return 2;
      s.report.detect.short_text_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--max-text-bytes", value, missing)) {
      if (!size_value("--max-text-bytes", 256, 1ull << 32, v)) return 2;
      s.report.detect.max_text_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--codes", value, missing)) {
      const auto c = missing ? std::nullopt : langsift::parse_code_style(value);
      if (!c) return fail(kProgram, "--codes is iso639-1 or iso639-3") + 1;
      s.report.codes = *c;
    } else if (take_option(argc, argv, i, "--name", stdin_label, missing)) {
      if (missing || stdin_label.empty()) return fail(kProgram, "--name needs a name") + 1;
    } else if (a == "-") {
      files.emplace_back("-");
    } else if (a.size() > 1 && a[0] == '-') {
      return unknown_option(kProgram, a, usage);
    } else {
      files.emplace_back(a);
    }
  }
  if (files.empty()) files.emplace_back("-");
  if (s.merge_stats) {
    if (s.stats || !s.stats_file.empty() || s.threads > 1 || s.timing || !s.output.empty() || s.report.text ||
        s.report.schema != langsift::warc_schema::standard || languages_given || probability_given)
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

  if (s.report.all && (s.report.schema == langsift::warc_schema::corpus || languages_given || probability_given))
    return fail(kProgram, "--all writes every record; --schema corpus, --languages and --min-probability write "
                          "only pages: choose one") + 1;
  if (int t = parse_templates(s); t != 0) return t;

  langsift::model loaded;
  {
    std::string error;
    if (langsift::cli::resolve_model(model_path, s.model, loaded, error) != langsift::status::ok)
      return fail(kProgram, error);
  }
  if (languages_given) {
    std::vector<std::string> codes = langsift::parse_code_list(languages_arg);  // either ISO form, any case
    if (!check_language_codes(kProgram, "--languages", *s.model, codes, model_path)) return 2;
    s.report.languages = std::move(codes);
  }
  // -o and --stats-file: written atomically at the end; opened first, so that an unwritable place
  // is an error before any work. A template's files: its directory checked, and with --languages
  // the files of the languages asked for opened.
  std::optional<split_output> split;
  if (s.split) {
    split.emplace(*s.split);
    if (int rc = open_split(s, *split); rc != 0) return rc;
  }
  std::optional<compressed_output> out, stats_out;
  for (auto [name, file] : {std::pair{&s.output, &out}, std::pair{&s.stats_file, &stats_out}}) {
    if (name->empty() || (file == &out && (*name == "-" || split))) continue;  // -o -: stdout
    std::string error;
    file->emplace(*name);
    if (!(*file)->open(error)) return fail(kProgram, error);
  }
  // Where the lines (or --stats) go: -o's file, or stdout. False once a write failed.
  auto put = [&](std::string&& text) {
    if (out) return out->write(std::move(text));
    langsift::cli::write_stdout(text);
    return !stdout_failed(kProgram);
  };
  // A record's line: to the file of its language with a template (the line's "language": und
  // for a record that is not classified), else as put().
  const std::string und = "und";
  auto put_line = [&](outcome& o) {
    if (split) return split->write(o.classified ? o.top : und, std::move(o.line));
    return put(std::move(o.line));
  };

  const auto t0 = std::chrono::steady_clock::now();
  statistics stats;
  // Records are worked on by --threads workers and printed in input order, with at most
  // 2 * threads + 2 of them (each at most --max-record-bytes) read but not yet printed.
  struct job {
    langsift::warc_record record;
    const std::string* name;  // for messages
    const std::string* file;  // the line's "file" field, or null
  };
  std::atomic<bool> write_failed{false};  // the output cannot be written: stop reading
  langsift::ordered_pool<job, outcome> pool(
      s.threads, 2 * static_cast<std::size_t>(s.threads) + 2,
      [&](job& j) { return process(s, j.record, *j.name, j.file); },
      [&](outcome& o) {
        stats.add(o);
        if (!s.stats && !o.line.empty() && !put_line(o)) write_failed = true;
      });

  int rc = 0;
  bool malformed = false;
  std::uint64_t malformed_records = 0;  // counted here, added to stats once the workers are done
  // stdin's name: --name, else what Hadoop Streaming puts in the environment (mapreduce_map_input_file
  // from Hadoop 2 on, map_input_file before), else "stdin" for messages and no "file" field.
  if (stdin_label.empty())
    for (const char* var : {"mapreduce_map_input_file", "map_input_file"})
      if (const char* v = std::getenv(var); v && *v) {
        stdin_label = v;
        break;
      }
  const std::string stdin_name = stdin_label.empty() ? "stdin" : stdin_label;
  std::uint64_t input_bytes = 0;
  // Progress (on a terminal only): input bytes read of
  // the files' total (stdin's size is unknown).
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
      rc = fail(kProgram, path + ": " + std::strerror(errno));
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
        malformed = true;
        ++malformed_records;
        if (st == langsift::warc_status::error) continue;
      }
      shown.update(input_bytes + reader.input_bytes());
      pool.submit(job{std::move(r), &name, file_field});
      r = langsift::warc_record{};
    }
    input_bytes += reader.input_bytes();
    if (std::ferror(f)) rc = fail(kProgram, name + ": read error");
    if (f != stdin) std::fclose(f);
  }
  pool.finish();
  stats.add_malformed(malformed_records);
  shown.finish();
  // Statistics of part of the input are not written anywhere (a --stats-file keeps what it had).
  if (write_failed || stdout_failed(kProgram, true)) {
    std::string error;
    if (out && !out->commit(error)) fail(kProgram, error);
    if (split && !split->commit(error)) fail(kProgram, error);  // the failure's message; none renamed
    return 1;
  }

  if (s.stats && !stats_out) put(stats.tsv());
  if (out) {
    std::string error;
    if (!out->commit(error)) return fail(kProgram, error);
  }
  if (split) {
    std::string error;
    if (!split->commit(error)) return fail(kProgram, error);
  }
  if (stats_out) {
    std::string error;
    stats_out->write(stats.tsv());
    if (!stats_out->commit(error)) rc = fail(kProgram, error);
  }
  if (s.timing) {
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
  if (stdout_failed(kProgram, true)) return 1;
  if (rc) return rc;
  if (g_out_of_memory.load()) return 1;
  return malformed ? 3 : 0;
}
