// `langsift url` — the language of a page from its URL alone (see docs/url.md).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/input.hpp"
#include "common/json.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/options.hpp"
#include "langsift/url_models.hpp"
#include "subcommands.hpp"

namespace langsift::cli {

namespace {

constexpr const char* kUrlCmd = "langsift url";

/// What the command line gives `langsift url`.
struct url_args {
  std::string country, format = "tsv", linear_path, words_path;
  code_style codes = code_style::iso639_1;
  bool lines = false, header = false;
  url_options o;
};

using option_row = option<url_args>;

/// The options of `langsift url`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& url_cmd_options() {
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr, "\n"},
      {value_kind::text, "--country", nullptr, "CC",
       "ISO 3166-1 country of the host (e.g. from geo-IP): its languages gain weight",
       [](url_args& a, const option_value& v) {
         a.country = v.text;
         return a.country.size() == 2 && !country_languages(a.country).empty();
       },
       0, 0, nullptr, "an ISO 3166-1 alpha-2 code (e.g. DE)"},
      {value_kind::choice, "--format", nullptr, "code|tsv|jsonl", "output (default tsv)",
       [](url_args& a, const option_value& v) { a.format = v.text; return true; }, 0, 0, "code|tsv|jsonl"},
      {value_kind::text, "--codes", nullptr, "iso639-1|iso639-3",
       "language codes: ISO 639-1 where one exists (default), or ISO 639-3",
       [](url_args& a, const option_value& v) {
         const auto c = langsift::parse_code_style(v.text);
         if (c) a.codes = *c;
         return c.has_value();
       },
       0, 0, nullptr, "iso639-1 or iso639-3"},
      {value_kind::flag, "--header", nullptr, nullptr, "tsv: a first line naming the columns",
       [](url_args& a, const option_value&) { return a.header = true; }},
      {value_kind::text, "--linear", nullptr, "FILE", "a linear URL model instead of the built-in one (langsift-train url)",
       [](url_args& a, const option_value& v) { a.linear_path = v.text; return true; }, 0, 0, nullptr, "a file"},
      {value_kind::text, "--words", nullptr, "FILE", "a words URL model instead of the built-in one",
       [](url_args& a, const option_value& v) { a.words_path = v.text; return true; }, 0, 0, nullptr, "a file"},
      {value_kind::flag, "--no-linear", nullptr, nullptr, "switch parts of the combination off",
       [](url_args& a, const option_value&) { a.o.use_linear = false; return true; }, 0, 0, nullptr, nullptr,
       "--no-linear, --no-words, --no-patterns, --no-cctld "},
      {value_kind::flag, "--no-words", nullptr, nullptr, "",
       [](url_args& a, const option_value&) { a.o.use_words = false; return true; }},
      {value_kind::flag, "--no-patterns", nullptr, nullptr, "",
       [](url_args& a, const option_value&) { a.o.use_patterns = false; return true; }},
      {value_kind::flag, "--no-cctld", nullptr, nullptr, "",
       [](url_args& a, const option_value&) { a.o.use_cctld = false; return true; }},
      {value_kind::flag, "--lines", nullptr, nullptr, "",  // described in the text above
       [](url_args& a, const option_value&) { return a.lines = true; }},
  };
  return table;
}

void url_cmd_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: langsift url [options] URL...\n"
               "       langsift url --lines [options] [FILE...|-]\n\n"
               "Prints one line per URL: language<TAB>ranked languages (code:score)<TAB>how<TAB>URL<TAB>status\n"
               "(ok; truncated: only the URL's first %zu bytes were classified; empty_input, invalid_argument:\n"
               "not a URL), or with --format code only the language (and <TAB>truncated when the URL was\n"
               "cut), with --format jsonl a JSON object (url, language, languages [{code, score}], decision,\n"
               "and status when it is not ok). \"und\" when nothing is known. A URL that was cut is also\n"
               "named on stderr. With --lines every input line (of the files, or stdin) is one URL; a file\n"
               "compressed with gzip or zstd is decompressed as it is read (told by its first bytes).\n",
               kUrlMaxBytes);
  usage_text(out, url_cmd_options(), 21);
  std::fputs("\n"
             "Exit status: 0 on success, 3 when compressed input was corrupt or cut short (reported; the\n"
             "lines before it were read), 1 when a file or model cannot be read or the output cannot be\n"
             "written, 2 on a usage error.\n",
             out);
}

/// One URL's answer as a line of --format (jsonl, tsv or code), appended to `out`.
void append_url_line(std::string& out, std::string_view url, const url_result& r, const std::string& format,
                     code_style codes) {
  if (format == "jsonl") {
    out += "{\"url\":";
    json::utf8_string(out, url);
    out += ",\"language\":";
    json::code(out, r.language(), codes);
    out += ",\"languages\":[";
    for (std::size_t k = 0; k < r.count; ++k) {
      out += k ? ",{\"code\":" : "{\"code\":";
      json::code(out, r.languages[k].code, codes);
      char buf[32];
      std::snprintf(buf, sizeof buf, ",\"score\":%.3f}", static_cast<double>(r.languages[k].score));
      out += buf;
    }
    out += "],\"decision\":";
    json::string(out, url_decision_name(r.decision));
    if (r.st != status::ok) {
      out += ",\"status\":";
      json::string(out, status_name(r.st));
    }
    out += "}\n";
    return;
  }
  out.append(code_in_style(r.language(), codes));
  if (format == "tsv") {
    out += '\t';
    for (std::size_t k = 0; k < r.count; ++k) {
      char buf[32];
      const std::string code = code_in_style(r.languages[k].code, codes);
      std::snprintf(buf, sizeof buf, "%s%s:%.3f", k ? "," : "", code.c_str(), static_cast<double>(r.languages[k].score));
      out += buf;
    }
    out += '\t';
    out += url_decision_name(r.decision);
    out += '\t';
    for (char ch : url) out += (ch == '\t' || ch == '\n' || ch == '\r') ? ' ' : ch;
    out += '\t';
    out += status_name(r.st);
  } else if (r.st == status::truncated) {
    out += "\ttruncated";  // the answer is for a part
  }
  out += '\n';
}

/// --lines: every line of the file `f` (plain, gzip or zstd) to `emit`, kept to its first `keep`
/// bytes, streamed (memory stays bounded on any input), until the end or `write_failed`. False
/// when the file cannot be read (`error`); `in` tells whether its compressed data went wrong.
template <class Emit>
bool read_url_lines(const std::string& f, std::size_t keep, Emit&& emit, const bool& write_failed, input_file& in,
                    std::string& error) {
  if (!in.open(f, error)) return false;
  std::string line;
  char buf[1 << 16];
  std::size_t n;
  bool pending = false;
  auto flush_line = [&]() {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    emit(line);
    line.clear();
    pending = false;
  };
  while (!write_failed && (n = in.read(buf, sizeof buf)) > 0) {
    for (std::size_t k = 0; k < n;) {
      const char* nl = static_cast<const char*>(std::memchr(buf + k, '\n', n - k));
      const std::size_t stop = nl ? static_cast<std::size_t>(nl - buf) : n;
      line.append(buf + k, std::min(stop - k, keep - std::min(keep, line.size())));
      pending = pending || stop > k;
      k = stop;
      if (nl) {
        flush_line();
        ++k;
      }
    }
  }
  if (pending && !write_failed) flush_line();
  return true;
}

}  // namespace

int cmd_url(int argc, char** argv) {
  url_args p;
  std::vector<std::string> args;
  if (const int rc = parse_options(kUrlCmd, url_cmd_options(), url_cmd_usage, argc, argv, p, args); rc >= 0) return rc;
  const std::string &linear_path = p.linear_path, &words_path = p.words_path, &format = p.format;
  const bool lines = p.lines, header = p.header;
  const code_style codes = p.codes;
  url_options& o = p.o;
  o.country_hint = p.country;
  url_model linear, words;
  std::string error;
  for (auto [path, m] : {std::pair{&linear_path, &linear}, std::pair{&words_path, &words}}) {
    if (path->empty()) continue;
    if (url_model::load_file(*path, *m, &error) != status::ok) return fail(kUrlCmd, error);
  }
  const url_classifier custom(linear_path.empty() ? &default_url_linear_model() : &linear,
                              words_path.empty() ? &default_url_words_model() : &words);
  const url_classifier& c = (linear_path.empty() && words_path.empty()) ? default_url_classifier() : custom;
  if (c.languages().empty()) return fail(kUrlCmd, "no URL model (the built-in models did not load)");

  std::string out;
  bool malformed = false;  // compressed input went wrong (reported): exit status 3
  if (header && format == "tsv") out += "language\tlanguages\tdecision\turl\tstatus\n";
  bool write_failed = false;
  auto write_out = [&]() {
    langsift::cli::write_stdout(out);
    out.clear();
    write_failed = stdout_failed(kUrlCmd);
  };
  auto emit = [&](std::string_view url) {
    const url_result r = c.classify(url, o);
    if (r.st == status::truncated) {  // one line per URL cut, whatever the format
      const std::string_view head = url.substr(0, 60);
      std::fprintf(stderr, "%s: %.*s...: cut at %zu bytes: its languages are those of that part\n", kUrlCmd,
                   static_cast<int>(head.size()), head.data(), o.max_bytes);
    }
    append_url_line(out, url, r, format, codes);
    if (out.size() > (1 << 16)) write_out();
  };
  if (!lines) {
    if (args.empty()) {
      return fail(kUrlCmd, "URL... or --lines FILE is required; see --help") + 1;
    }
    for (const auto& u : args) {
      if (write_failed) return 1;
      emit(u);
    }
  } else {
    if (args.empty()) args.emplace_back("-");
    for (const auto& f : args) {
      // A line longer than what is classified is kept only that far, and classify() says truncated.
      input_file in;
      if (!read_url_lines(f, o.max_bytes + 1, emit, write_failed, in, error)) return fail(kUrlCmd, error);
      if (write_failed) return 1;  // the output cannot be written (reported): stop
      if (in.failed()) return fail(kUrlCmd, f + ": " + in.error());
      if (in.malformed()) {  // corrupt or truncated compressed data: the lines before it were read
        write_out();
        fail(kUrlCmd, (f == "-" ? std::string("stdin") : f) + ": " + in.error() + ": the lines before it were read");
        malformed = true;
      }
    }
  }
  write_out();
  return stdout_failed(kUrlCmd, true) ? 1 : malformed ? 3 : 0;
}

}  // namespace langsift::cli
