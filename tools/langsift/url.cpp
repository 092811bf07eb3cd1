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
               "compressed with gzip or zstd is decompressed as it is read (told by its first bytes).\n\n"
               "  --country CC       ISO 3166-1 country of the host (e.g. from geo-IP): its languages gain weight\n"
               "  --format code|tsv|jsonl   output (default tsv)\n"
               "  --codes iso639-1|iso639-3 language codes: ISO 639-1 where one exists (default), or ISO 639-3\n"
               "  --header           tsv: a first line naming the columns\n"
               "  --linear FILE      a linear URL model instead of the built-in one (langsift-train url)\n"
               "  --words FILE       a words URL model instead of the built-in one\n"
               "  --no-linear, --no-words, --no-patterns, --no-cctld   switch parts of the combination off\n\n"
               "Exit status: 0 on success, 3 when compressed input was corrupt or cut short (reported; the\n"
               "lines before it were read), 1 when a file or model cannot be read or the output cannot be\n"
               "written, 2 on a usage error.\n",
               kUrlMaxBytes);
}

}  // namespace

int cmd_url(int argc, char** argv) {
  std::string country, format = "tsv", linear_path, words_path, codes_arg;
  bool lines = false, header = false;
  url_options o;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift url");
    if (a == "-h" || a == "--help") {
      url_cmd_usage(stdout);
      return 0;
    } else if (a == "--lines") {
      lines = true;
    } else if (a == "--header") {
      header = true;
    } else if (a == "--no-linear") {
      o.use_linear = false;
    } else if (a == "--no-words") {
      o.use_words = false;
    } else if (a == "--no-patterns") {
      o.use_patterns = false;
    } else if (a == "--no-cctld") {
      o.use_cctld = false;
    } else if (take_option(argc, argv, i, "--country", country, missing)) {
      if (!missing && (country.size() != 2 || country_languages(country).empty()))
        return fail(kUrlCmd, "--country needs an ISO 3166-1 alpha-2 code (e.g. DE)") + 1;
    } else if (take_option(argc, argv, i, "--format", format, missing)) {
      if (!missing && format != "code" && format != "tsv" && format != "jsonl")
        return fail(kUrlCmd, "--format is code, tsv or jsonl") + 1;
    } else if (take_option(argc, argv, i, "--codes", codes_arg, missing)) {
      if (!missing && !langsift::parse_code_style(codes_arg)) return fail(kUrlCmd, "--codes is iso639-1 or iso639-3") + 1;
    } else if (take_option(argc, argv, i, "--linear", linear_path, missing)) {
    } else if (take_option(argc, argv, i, "--words", words_path, missing)) {
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      return unknown_option(kUrlCmd, a, url_cmd_usage);
    } else {
      args.emplace_back(a);
    }
    if (missing) return fail(kUrlCmd, std::string(a) + " needs a value") + 1;
  }
  const code_style codes = langsift::parse_code_style(codes_arg).value_or(code_style::iso639_1);
  o.country_hint = country;
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
      if (out.size() > (1 << 16)) write_out();
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
    // Streamed: memory stays bounded on any input (a line longer than what is classified is kept
    // only that far, and classify() says truncated).
    const std::size_t keep = o.max_bytes + 1;
    for (const auto& f : args) {
      input_file in;  // plain, gzip or zstd (common/input.hpp)
      if (!in.open(f, error)) return fail(kUrlCmd, error);
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
