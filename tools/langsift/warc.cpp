// `langsift warc` — the languages and encodings of the pages in WARC files: one JSON line per
// record, or statistics per language, per encoding and language x encoding.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "common/cli.hpp"
#include "common/json.hpp"
#include "langsift/default_model.hpp"
#include "langsift/page.hpp"
#include "langsift/warc.hpp"
#include "subcommands.hpp"

namespace {

constexpr const char* kProgram = "langsift warc";

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift warc [options] [FILE...|-]\n"
      "\n"
      "Reads WARC/1.0 and WARC/1.1 files (uncompressed, or gzip with any number of records per\n"
      "member; '-' or no FILE: stdin, so it works as a Hadoop Streaming mapper) and identifies the\n"
      "language and encoding of every response, resource and conversion record: the HTTP status\n"
      "line and headers are parsed (Content-Type charset, Content-Language), chunked transfer\n"
      "coding and gzip/deflate content coding are undone, and the body goes through the whole\n"
      "pipeline of `langsift detect` (encoding, HTML text, languages with the URL's TLD, <html lang>\n"
      "and Content-Language as hints).\n"
      "\n"
      "Output: one JSON object per line and record, in input order (docs/warc.md lists the fields):\n"
      "file (when several are read), offset, warc_type, target_uri, record_id, http_status,\n"
      "content_type, body_bytes, language, languages [{code, percent, bytes, score}], text_bytes,\n"
      "reliable, short, confidence, encoding, encoding_source, and flags when something was cut\n"
      "or skipped.\n"
      "\n"
      "options:\n"
      "  -j, --threads N        worker threads (default 1); output order is kept\n"
      "  --max-record-bytes N   keep at most N bytes of a record's block (and of its decoded\n"
      "                         body); the rest is skipped and the output says so (default 4M)\n"
      "  --stats                print statistics instead of one line per record: pages and bytes\n"
      "                         per language, per encoding and per language x encoding (TSV)\n"
      "  --stats-file FILE      write the statistics to FILE (records still go to stdout)\n"
      "  --all                  also print a line for records that are not classified (warcinfo,\n"
      "                         request, metadata, revisit...: \"skipped\":\"warc_type\")\n"
      "  --any-type             classify every Content-Type (default: text/*, *html*, *xml*, none)\n"
      "  --main                 HTML: classify only the main content\n"
      "  --model FILE           a model file (default: the built-in model)\n"
      "  --short-bytes N        pages with fewer text bytes are flagged short (default 400)\n"
      "  --max-text-bytes N     examine at most N bytes of a page's text (default 64K)\n"
      "  --timing               print records, pages, bytes, seconds and pages/s to stderr at the end\n"
      "\n"
      "Malformed input (a record that is not WARC, a wrong Content-Length, a truncated or corrupt\n"
      "gzip member) is reported on stderr as 'FILE: offset N: what' and reading goes on with the\n"
      "next record. Exit status: 0 when all went well, 3 when some input was malformed (and\n"
      "reported), 1 when a file cannot be read or the model cannot be loaded, 2 on a usage error.\n");
}

struct settings {
  unsigned threads = 1;
  bool stats = false, all = false, any_type = false, main_content = false, timing = false;
  std::string stats_file;
  langsift::warc_options warc;
  langsift::detect_options opt;
  const langsift::model* model = nullptr;
};

/// One record's result: its output line and what it adds to the statistics.
struct outcome {
  std::string line;  // empty: nothing printed
  bool classified = false, skipped = false;
  std::string top, encoding;
  std::uint64_t body_bytes = 0, text_bytes = 0;
  std::vector<std::pair<std::string, std::uint64_t>> languages;  // code, bytes (up to three)
};

std::string lower_mime(std::string_view ct) {
  std::string_view m = ct.substr(0, ct.find(';'));
  m = langsift::detail::warc_trim(m);
  std::string s(m);
  for (char& c : s) c = langsift::detail::warc_lower(c);
  return s;
}

/// Content types worth classifying: none given, text/*, anything HTML or XML, and values that
/// are not a MIME type at all (left to sniffing).
bool textual(std::string_view content_type) {
  const std::string m = lower_mime(content_type);
  if (m.empty() || m.find('/') == std::string::npos) return true;
  return m.compare(0, 5, "text/") == 0 || m.find("html") != std::string::npos || m.find("xml") != std::string::npos;
}

void number(std::string& out, std::string_view key, std::uint64_t v) {
  out += ',';
  langsift::cli::json::key(out, key);
  out += std::to_string(v);
}

void text_field(std::string& out, std::string_view key, std::string_view v) {
  out += ',';
  langsift::cli::json::key(out, key);
  langsift::cli::json::utf8_string(out, v);
}

/// `file`: the input's name when several files are read (then the first field), else null.
outcome process(const settings& s, const langsift::warc_record& r, const std::string* file) {
  namespace json = langsift::cli::json;
  outcome o;
  const std::string_view type = r.type();
  const bool payload = type == "response" || type == "resource" || type == "conversion";
  if (!payload && !s.all) {
    o.skipped = true;
    return o;
  }
  std::string& l = o.line;
  l += '{';
  if (file) {
    json::key(l, "file");
    json::utf8_string(l, *file);
    l += ',';
  }
  l += "\"offset\":";
  l += std::to_string(r.offset);
  text_field(l, "warc_type", type);
  text_field(l, "target_uri", r.target_uri());
  text_field(l, "record_id", r.record_id());
  std::string skipped;
  std::string_view body, content_type, content_language;
  std::string scratch;
  langsift::body_status bst = langsift::body_status::ok;
  bool no_http = false;
  if (!payload) {
    skipped = "warc_type";
  } else if (type == "response") {
    langsift::http_response h;
    if (langsift::parse_http_response(r.block, h)) {
      number(l, "http_status", static_cast<std::uint64_t>(h.status));
      content_type = h.field("Content-Type");
      content_language = h.field("Content-Language");
      body = langsift::decode_http_body(h, std::string_view(r.block).substr(h.body_offset), scratch,
                                        s.warc.max_block_bytes, bst);
      if (!h.complete) l += ",\"http_headers_truncated\":true";
    } else {
      no_http = true;  // the block is taken as the body
      body = r.block;
      content_type = r.field("WARC-Identified-Payload-Type");
    }
  } else {
    content_type = r.field("Content-Type");
    body = r.block;
  }
  if (!content_type.empty()) text_field(l, "content_type", content_type);
  if (!content_language.empty()) text_field(l, "content_language", content_language);
  if (no_http) l += ",\"http\":false";
  if (payload) number(l, "body_bytes", body.size());
  if (r.skipped_bytes() > 0) {
    // The block was longer than --max-record-bytes: only the kept bytes were examined.
    l += ",\"capped\":true";
    number(l, "block_bytes", r.block_bytes);
    number(l, "kept_bytes", r.block.size());
  }
  if (r.truncated()) {
    l += ",\"truncated\":true";
    number(l, "content_length", r.content_length);
    number(l, "block_bytes", r.block_bytes);
  }
  if (bst != langsift::body_status::ok) text_field(l, "body_status", langsift::body_status_name(bst));
  if (!r.problem.empty()) text_field(l, "warc_problem", r.problem);
  if (const std::string_view t = r.field("WARC-Truncated"); !t.empty()) text_field(l, "warc_truncated", t);
  if (skipped.empty() && bst == langsift::body_status::encoding_unsupported) skipped = "content_encoding";
  if (skipped.empty() && !s.any_type && !textual(content_type)) skipped = "content_type";
  if (!skipped.empty()) {
    o.skipped = true;
    l += ",\"language\":\"und\",\"skipped\":";
    json::string(l, skipped);
    l += "}\n";
    return o;
  }
  langsift::page_options po;
  po.content_type = content_type;
  po.content_language = content_language;
  po.url = r.target_uri();
  po.main_content = s.main_content;
  po.detect = s.opt;
  const langsift::page_result pr = langsift::detect_page(*s.model, body, po);
  const langsift::detection& d = pr.detection;
  l += ',';
  json::detection_fields(l, d);
  text_field(l, "encoding", pr.encoding.name);
  text_field(l, "encoding_source", langsift::encoding_source_name(pr.encoding.source));
  l += "}\n";
  o.classified = true;
  o.top = std::string(d.language());
  o.encoding = pr.encoding.name.empty() ? "unknown" : pr.encoding.name;
  o.body_bytes = body.size();
  o.text_bytes = d.text_bytes;
  for (std::size_t i = 0; i < d.count; ++i) o.languages.emplace_back(std::string(d.languages[i].code), d.languages[i].bytes);
  return o;
}

struct counts {
  std::uint64_t pages = 0, bytes = 0;
};

/// Statistics over the pages: per language (pages by top language; bytes = text bytes of that
/// language in every page, up to three languages a page), per encoding (pages, body bytes) and per
/// language x encoding (pages by top language, text bytes of that language).
struct statistics {
  std::uint64_t records = 0, pages = 0, skipped = 0, malformed = 0, body_bytes = 0, text_bytes = 0;
  std::map<std::string, counts> language, encoding;
  std::map<std::pair<std::string, std::string>, counts> language_encoding;

  void add(const outcome& o) {
    ++records;
    if (o.skipped) ++skipped;
    if (!o.classified) return;
    ++pages;
    body_bytes += o.body_bytes;
    text_bytes += o.text_bytes;
    ++language[o.top].pages;
    ++language_encoding[{o.top, o.encoding}].pages;
    if (o.languages.empty()) language[o.top];  // und: pages, no bytes
    for (const auto& [code, bytes] : o.languages) {
      language[code].bytes += bytes;
      language_encoding[{code, o.encoding}].bytes += bytes;
    }
    auto& e = encoding[o.encoding];
    ++e.pages;
    e.bytes += o.body_bytes;
  }

  template <class Key>
  static std::vector<std::pair<Key, counts>> sorted(const std::map<Key, counts>& m) {
    std::vector<std::pair<Key, counts>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return std::tie(b.second.pages, b.second.bytes) < std::tie(a.second.pages, a.second.bytes);
    });
    return v;
  }

  std::string tsv() const {
    std::string out =
        "# langsift warc statistics: kind<TAB>key[<TAB>key2]<TAB>pages<TAB>bytes (see docs/warc.md)\n";
    auto total = [&](const char* k, std::uint64_t v) { out += std::string("total\t") + k + '\t' + std::to_string(v) + '\n'; };
    total("records", records);
    total("pages", pages);
    total("skipped", skipped);
    total("malformed", malformed);
    total("body_bytes", body_bytes);
    total("text_bytes", text_bytes);
    for (const auto& [k, c] : sorted(language))
      out += "language\t" + k + '\t' + std::to_string(c.pages) + '\t' + std::to_string(c.bytes) + '\n';
    for (const auto& [k, c] : sorted(encoding))
      out += "encoding\t" + k + '\t' + std::to_string(c.pages) + '\t' + std::to_string(c.bytes) + '\n';
    for (const auto& [k, c] : sorted(language_encoding))
      out += "language_encoding\t" + k.first + '\t' + k.second + '\t' + std::to_string(c.pages) + '\t' +
             std::to_string(c.bytes) + '\n';
    return out;
  }
};

/// Prints outcomes in input order and adds them to the statistics. Workers hand in results in any
/// order; the reader waits while too many records are in flight (bounded memory).
class ordered_output {
 public:
  ordered_output(const settings& s, statistics& st, std::size_t max_in_flight)
      : s_(s), stats_(st), max_in_flight_(max_in_flight) {}

  /// The reader: waits for room, then returns the record's sequence number.
  std::uint64_t admit() {
    std::unique_lock lock(m_);
    room_.wait(lock, [&] { return in_flight_ < max_in_flight_; });
    ++in_flight_;
    return admitted_++;
  }

  void done(std::uint64_t seq, outcome o) {
    std::lock_guard lock(m_);
    ready_.emplace(seq, std::move(o));
    while (!ready_.empty() && ready_.begin()->first == next_) {
      emit(ready_.begin()->second);
      ready_.erase(ready_.begin());
      ++next_;
      --in_flight_;
    }
    room_.notify_all();
  }

  void count_malformed() {
    std::lock_guard lock(m_);
    ++stats_.malformed;
  }

 private:
  void emit(const outcome& o) {
    stats_.add(o);
    if (!s_.stats && !o.line.empty()) std::fwrite(o.line.data(), 1, o.line.size(), stdout);
  }

  const settings& s_;
  statistics& stats_;
  std::size_t max_in_flight_;
  std::mutex m_;
  std::condition_variable room_;
  std::map<std::uint64_t, outcome> ready_;
  std::uint64_t admitted_ = 0, next_ = 0;
  std::size_t in_flight_ = 0;
};

/// A queue of records for the workers.
class work_queue {
 public:
  void push(std::uint64_t seq, langsift::warc_record r, const std::string* file) {
    {
      std::lock_guard lock(m_);
      q_.push_back({seq, std::move(r), file});
    }
    cv_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(m_);
      closed_ = true;
    }
    cv_.notify_all();
  }
  bool pop(std::uint64_t& seq, langsift::warc_record& r, const std::string*& file) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return closed_ || !q_.empty(); });
    if (q_.empty()) return false;
    seq = q_.front().seq;
    r = std::move(q_.front().record);
    file = q_.front().file;
    q_.pop_front();
    return true;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  struct job {
    std::uint64_t seq;
    langsift::warc_record record;
    const std::string* file;
  };
  std::deque<job> q_;
  bool closed_ = false;
};

}  // namespace

int langsift::cli::cmd_warc(int argc, char** argv) {
  settings s;
  std::vector<std::string> files;
  std::string model_path, value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    bool missing = false;
    auto size_value = [&](const char* name, unsigned long long lo, unsigned long long hi, unsigned long long& v) {
      return size_in_range(kProgram, name, value, missing, lo, hi, v);
    };
    unsigned long long v = 0;
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--stats") {
      s.stats = true;
    } else if (a == "--all") {
      s.all = true;
    } else if (a == "--any-type") {
      s.any_type = true;
    } else if (a == "--main") {
      s.main_content = true;
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
    } else if (take_option(argc, argv, i, "--stats-file", s.stats_file, missing)) {
      if (missing || s.stats_file.empty()) return fail(kProgram, "--stats-file needs a file name") + 1;
    } else if (take_option(argc, argv, i, "--model", model_path, missing)) {
      if (missing) return fail(kProgram, "--model needs a file") + 1;
    } else if (take_option(argc, argv, i, "--short-bytes", value, missing)) {
      if (!size_value("--short-bytes", 0, 1ull << 30, v)) return 2;
      s.opt.short_text_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--max-text-bytes", value, missing)) {
      if (!size_value("--max-text-bytes", 256, 1ull << 32, v)) return 2;
      s.opt.max_text_bytes = static_cast<std::size_t>(v);
    } else if (a == "-") {
      files.emplace_back("-");
    } else if (a.size() > 1 && a[0] == '-') {
      usage(stderr);
      return fail(kProgram, "unknown option '" + std::string(a) + "'") + 1;
    } else {
      files.emplace_back(a);
    }
  }
  if (files.empty()) files.emplace_back("-");

  langsift::model loaded;
  if (!model_path.empty()) {
    std::string error;
    if (langsift::model::load_file(model_path, loaded, &error) != langsift::status::ok) return fail(kProgram, error);
    s.model = &loaded;
  } else {
    s.model = &langsift::default_model();
    if (s.model->empty()) return fail(kProgram, "the built-in model failed to load (a broken build)");
  }
  std::FILE* stats_out = nullptr;
  if (!s.stats_file.empty()) {
    stats_out = std::fopen(s.stats_file.c_str(), "wb");
    if (!stats_out) return fail(kProgram, s.stats_file + ": " + std::strerror(errno));
  }

  const auto t0 = std::chrono::steady_clock::now();
  statistics stats;
  // In flight: records read but not yet printed (each at most --max-record-bytes).
  ordered_output out(s, stats, 2 * static_cast<std::size_t>(s.threads) + 2);
  work_queue queue;
  std::vector<std::thread> workers;
  if (s.threads > 1) {
    for (unsigned t = 0; t < s.threads; ++t)
      workers.emplace_back([&] {
        std::uint64_t seq;
        langsift::warc_record r;
        const std::string* file = nullptr;
        while (queue.pop(seq, r, file)) out.done(seq, process(s, r, file));
      });
  }

  int rc = 0;
  bool malformed = false;
  const std::string stdin_name = "stdin";
  std::uint64_t input_bytes = 0;
  for (const std::string& path : files) {
    std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) {
      rc = fail(kProgram, path + ": " + std::strerror(errno));
      continue;
    }
    const std::string& name = path == "-" ? stdin_name : path;
    const std::string* file_field = files.size() > 1 ? &name : nullptr;
    langsift::warc_reader reader([f](char* buf, std::size_t n) { return std::fread(buf, 1, n, f); }, s.warc);
    langsift::warc_record r;
    for (;;) {
      const langsift::warc_status st = reader.next(r);
      if (st == langsift::warc_status::end) break;
      if (st == langsift::warc_status::error || !r.problem.empty()) {
        std::fprintf(stderr, "%s: %s: offset %llu: %s\n", kProgram, name.c_str(),
                     static_cast<unsigned long long>(reader.error_offset()), reader.error().c_str());
        malformed = true;
        out.count_malformed();
        if (st == langsift::warc_status::error) continue;
      }
      const std::uint64_t seq = out.admit();
      if (s.threads > 1) {
        queue.push(seq, std::move(r), file_field);
        r = langsift::warc_record{};
      } else {
        out.done(seq, process(s, r, file_field));
      }
    }
    input_bytes += reader.input_bytes();
    if (std::ferror(f)) rc = fail(kProgram, name + ": read error");
    if (f != stdin) std::fclose(f);
  }
  queue.close();
  for (auto& w : workers) w.join();
  std::fflush(stdout);

  if (s.stats) {
    const std::string t = stats.tsv();
    if (!stats_out) std::fwrite(t.data(), 1, t.size(), stdout);
  }
  if (stats_out) {
    const std::string t = stats.tsv();
    std::fwrite(t.data(), 1, t.size(), stats_out);
    if (std::fclose(stats_out) != 0) rc = fail(kProgram, s.stats_file + ": write error");
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
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) return fail(kProgram, "write error on stdout");
  if (rc) return rc;
  return malformed ? 3 : 0;
}
