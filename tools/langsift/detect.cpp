// `langsift detect` — the whole pipeline: bytes -> encoding -> (HTML ->) text -> languages.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli.hpp"
#include "common/json.hpp"
#include "common/model_arg.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/filter.hpp"
#include "langsift/html.hpp"
#include "langsift/page.hpp"
#include "langsift/uri.hpp"
#include "subcommands.hpp"

namespace {

constexpr const char* kProgram = "langsift detect";
namespace json = langsift::cli::json;

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift detect [options] [FILE...|-]\n"
      "\n"
      "Identifies the languages of each FILE (or of stdin): the bytes are decoded to UTF-8 (BOM,\n"
      "--content-type, <meta charset>, detection), HTML is reduced to its text, and the text is\n"
      "classified: up to three languages with their share of the text. Codes are ISO 639-1 where\n"
      "one exists, else ISO 639-3 (with a script subtag where the model has one, e.g. zh-Hant);\n"
      "'und' means no language could be determined (no letters, or not natural language).\n"
      "\n"
      "input:\n"
      "  --lines             every input line is a document (UTF-8 text); exactly one output line\n"
      "                      per input line, in order\n"
      "  --html, --text      the input is HTML / plain text (default: sniffed per document)\n"
      "  --main              HTML: classify only the main content (drop navigation, link lists...)\n"
      "  --content-type V    HTTP Content-Type of the input (charset, and text/plain vs HTML)\n"
      "  --encoding E        the input's encoding (skips detection)\n"
      "\n"
      "output (--format):\n"
      "  code                the top language code only (FILE<TAB> first when reading files), and\n"
      "                      <TAB>truncated when the input was cut (--max-input-bytes)\n"
      "  tsv                 code<TAB>langs<TAB>text_bytes<TAB>reliable<TAB>short<TAB>score, langs\n"
      "                      = code:percent:bytes,... (up to three); with --top-k <TAB>code:p,...\n"
      "                      after score; FILE<TAB> first when reading\n"
      "                      files; with HTML also <TAB>encoding<TAB>encoding-source; with a\n"
      "                      filter <TAB>keep|drop; last <TAB>status: ok, truncated (the input was\n"
      "                      cut: the languages are those of its first part), empty_input,\n"
      "                      binary_input... (default). In a file name, \\, TAB, LF and CR are\n"
      "                      written \\\\, \\t, \\n, \\r\n"
      "  jsonl               one JSON object per document (\"status\" when it is not ok)\n"
      "  --header            tsv: a first line naming the columns\n"
      "  --top-k K           the K most probable languages with their calibrated probabilities\n"
      "                      (1..16): jsonl \"probabilities\": [[\"de\",0.9712],[\"nl\",0.0213]], tsv a\n"
      "                      column code:p,... after score\n"
      "  --codes iso639-1|iso639-3  language codes: ISO 639-1 where one exists (default), or\n"
      "                      ISO 639-3 for every language (as Common Crawl's index); --only and\n"
      "                      --label take either form\n"
      "\n"
      "model and classification:\n"
      "  --model NAME|FILE   a built-in model, `default` (%zu languages) or `wide` (%zu), or a\n"
      "                      model file (a built-in name wins: write ./wide for a file so named)\n"
      "  --max-model-bytes N refuse a --model file larger than N bytes, before reading it (a\n"
      "                      loaded model keeps its file in memory; default: no cap)\n"
      "  --only CODES        consider only these languages (comma-separated; 'zh' includes zh-Hant)\n"
      "  --hint CODES        prior languages, e.g. from Content-Language or <html lang> (language\n"
      "                      tags: de, de-AT, zh-Hant; HTML input adds its own <html lang> and\n"
      "                      http-equiv content-language)\n"
      "  --url URL           the document's URL: its country-code TLD is a (weaker) hint\n"
      "  --scorer S          auto (default), bayes or rank (TextCat's rank-order distance)\n"
      "  --short-bytes N     documents with fewer text bytes are flagged short (default 400)\n"
      "  --max-text-bytes N  examine at most N bytes of text, sampled across it (default 64K)\n"
      "  --max-input-bytes N read at most N bytes of a file or of a --lines line; the rest is\n"
      "                      skipped, the status says truncated, and a line on stderr names the\n"
      "                      input (default 16M)\n"
      "  --unit-bytes N      score text in units of about N bytes (default 64)\n"
      "  --switch-penalty X  cost of a change of language between units (default 300; higher\n"
      "                      keeps documents more monolingual)\n"
      "\n"
      "filters (NCL-Crawl): a document is kept when one of its languages passes every filter set;\n"
      "with a filter, tsv/jsonl output gains a keep field, and --kept-only prints only kept documents\n"
      "(their lines with --lines, else their file names)\n"
      "  --label CODES       the language is one of these\n"
      "  --min-bytes N       the language has at least N bytes of text\n"
      "  --max-bytes N       the language has at most N bytes of text\n"
      "  --min-percent P     the language has at least P percent of the text\n"
      "  --min-probability P the language is the top one and its calibrated probability\n"
      "                      (`confidence`) is at least P (0..1): a document whose top probability\n"
      "                      is below P is not kept\n"
      "  --kept-only         print only the documents the filters keep\n"
      "\n"
      "A code of --only, --hint or --label that is not a language of the model is a usage error\n"
      "(ISO 639-1 or ISO 639-3 codes; `zh` names zh-Hant too).\n"
      "\n"
      "Exit status: 0 on success, 1 when a file cannot be read, the model cannot be loaded or the\n"
      "output cannot be written, 2 on a usage error.\n",
      langsift::cli::builtin_language_count("default"), langsift::cli::builtin_language_count("wide"));
}

enum class input_kind { sniff, html, text };
enum class out_format { code, tsv, jsonl };

void put(std::string_view s) { langsift::cli::write_stdout(s); }

struct settings {
  input_kind kind = input_kind::sniff;
  out_format format = out_format::tsv;
  bool lines = false, main_content = false, kept_only = false, filtering = false, header = false;
  bool probabilities = false;  // --top-k: print detection::probabilities
  langsift::code_style codes = langsift::code_style::iso639_1;
  std::string content_type, encoding, hint, url_host;
  std::size_t max_input_bytes = 16u << 20;  // per file or line: memory stays bounded
  std::size_t max_model_bytes = 0;          // --model files larger than this are refused; 0: no cap
  langsift::detect_options opt;
  langsift::language_filter filter;
};

struct page_info {
  bool html = false;
  std::string encoding, encoding_source;
};

void print_result(const settings& s, const std::string* name, const langsift::detection& d, const page_info& page,
                  bool keep, std::string& line) {
  line.clear();
  if (s.format == out_format::code) {
    if (name && !s.lines) {
      langsift::cli::tsv_field(line, *name);
      line += '\t';
    }
    line += code_in_style(d.language(), s.codes);
    if (d.st == langsift::status::truncated) line += "\ttruncated";  // the answer is for a part
    line += '\n';
    put(line);
    return;
  }
  if (s.format == out_format::tsv) {
    if (name && !s.lines) {
      langsift::cli::tsv_field(line, *name);
      line += '\t';
    }
    line += code_in_style(d.language(), s.codes);
    line += '\t';
    for (std::size_t i = 0; i < d.count; ++i) {
      if (i) line += ',';
      line += code_in_style(d.languages[i].code, s.codes);
      line += ':' + std::to_string(d.languages[i].percent) + ':' + std::to_string(d.languages[i].bytes);
    }
    if (!d.count) line += '-';
    char buf[64];
    std::snprintf(buf, sizeof buf, "\t%zu\t%d\t%d\t%.3f", d.text_bytes, d.reliable ? 1 : 0, d.is_short ? 1 : 0,
                  d.count ? d.languages[0].score : 0.0f);
    line += buf;
    if (s.probabilities) {  // code:p,... (- for none)
      line += '\t';
      for (std::size_t i = 0; i < d.probability_count; ++i) {
        if (i) line += ',';
        line += code_in_style(d.probabilities[i].code, s.codes);
        std::snprintf(buf, sizeof buf, ":%.4g", static_cast<double>(d.probabilities[i].p));
        line += buf;
      }
      if (!d.probability_count) line += '-';
    }
    if (page.html || !page.encoding.empty()) line += "\t" + page.encoding + "\t" + page.encoding_source;
    if (s.filtering) line += keep ? "\tkeep" : "\tdrop";
    line += '\t';
    line += langsift::status_name(d.st);
    line += '\n';
    put(line);
    return;
  }
  line += '{';
  if (name && !s.lines) {
    line += "\"file\":";
    json::utf8_string(line, *name);
    line += ',';
  }
  json::detection_fields(line, d, s.codes);
  if (s.probabilities) json::probabilities_field(line, d, s.codes);
  if (!page.encoding.empty()) {
    line += ",\"encoding\":";
    json::string(line, page.encoding);
    line += ",\"encoding_source\":";
    json::string(line, page.encoding_source);
  }
  if (s.filtering) line += keep ? ",\"keep\":true" : ",\"keep\":false";
  line += "}\n";
  put(line);
}

// Decodes and extracts one file's bytes, then detects (langsift/page.hpp).
langsift::detection detect_page(const langsift::model& m, const settings& s, const std::string& bytes, page_info& page) {
  langsift::page_options o;
  o.content_type = s.content_type;
  o.encoding = s.encoding;
  o.kind = s.kind == input_kind::html ? langsift::page_kind::html
           : s.kind == input_kind::text ? langsift::page_kind::text
                                        : langsift::page_kind::sniff;
  o.main_content = s.main_content;
  o.max_html_bytes = std::max(o.max_html_bytes, s.max_input_bytes);  // --max-input-bytes rules
  o.detect = s.opt;
  langsift::page_result r = langsift::detect_page(m, bytes, o);
  page.encoding = r.encoding.name;
  page.encoding_source = std::string(langsift::encoding_source_name(r.encoding.source));
  page.html = r.is_html;
  return r.detection;
}

/// "PROGRAM: NAME: cut at N bytes (--max-input-bytes): ..." — one line per input that was cut,
/// whatever the output format (which says `truncated` too).
void report_cut(const settings& s, const std::string& path, std::uint64_t line_no) {
  const std::string name = path == "-" ? "stdin" : path;
  if (line_no)
    std::fprintf(stderr, "%s: %s: line %llu: cut at %zu bytes (--max-input-bytes): its languages are those of that part\n",
                 kProgram, name.c_str(), static_cast<unsigned long long>(line_no), s.max_input_bytes);
  else
    std::fprintf(stderr, "%s: %s: cut at %zu bytes (--max-input-bytes): its languages are those of that part\n",
                 kProgram, name.c_str(), s.max_input_bytes);
}

/// --lines: every line of `path` is a document. 0, 1 (`path` unreadable: reported) or -1 (the
/// output cannot be written: reported; stop).
int detect_lines(const langsift::model& m, const settings& s, const std::string& path, std::string& out_line) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) return langsift::cli::fail(kProgram, path + ": " + std::strerror(errno));
  std::string line;
  page_info none;
  bool line_cut = false;  // the line exceeded --max-input-bytes: its rest is skipped
  std::uint64_t line_no = 0;
  auto flush_line = [&]() {
    ++line_no;
    langsift::detection d = langsift::detect(m, line, s.opt);
    if (line_cut && d.st == langsift::status::ok) d.st = langsift::status::truncated;
    if (line_cut) report_cut(s, path, line_no);
    line_cut = false;
    const bool keep = !s.filtering || langsift::keep(d, s.filter);
    if (s.kept_only) {
      if (keep) {
        put(line);
        put("\n");
      }
    } else {
      print_result(s, nullptr, d, none, keep, out_line);
    }
    line.clear();
  };
  // Lines end at '\n' only (U+0085 and '\r' stay inside a line; a trailing '\r' is dropped).
  char buf[1 << 16];
  std::size_t n;
  bool pending = false, write_failed = false;
  while (!write_failed && (n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    std::size_t k = 0;
    while (k < n) {  // append up to the next '\n' (or the buffer's end) at once
      const char* nl = static_cast<const char*>(std::memchr(buf + k, '\n', n - k));
      const std::size_t stop = nl ? static_cast<std::size_t>(nl - buf) : n;
      if (stop > k) {
        const std::size_t room = s.max_input_bytes - std::min(line.size(), s.max_input_bytes);
        line.append(buf + k, std::min(room, stop - k));
        line_cut = line_cut || stop - k > room;
        pending = true;
      }
      k = stop;
      if (nl) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        flush_line();
        pending = false;
        ++k;
      }
    }
    write_failed = langsift::cli::stdout_failed(kProgram);  // a full disk: stop reading
  }
  if (pending && !write_failed) flush_line();
  int rc = 0;
  if (std::ferror(f)) rc = langsift::cli::fail(kProgram, path + ": read error");
  if (f != stdin) std::fclose(f);
  return langsift::cli::stdout_failed(kProgram, true) ? -1 : rc;
}

/// One file (or stdin) is one document. 0, 1 (unreadable, or out of memory: reported) or -1 (the
/// output cannot be written: reported; stop).
int detect_file(const langsift::model& m, const settings& s, const std::string& path, bool named, std::string& bytes,
                std::string& out_line) {
  bool cut = false;
  std::string error;
  if (!langsift::cli::read_file(path, bytes, error, s.max_input_bytes, &cut)) return langsift::cli::fail(kProgram, error);
  page_info page;
  langsift::detection d = detect_page(m, s, bytes, page);
  if (d.st == langsift::status::out_of_memory)  // no answer for this file: an error, as unreadable
    return langsift::cli::fail(kProgram, path + ": out of memory (lower --max-input-bytes, or give the process more memory)");
  if (cut && d.st == langsift::status::ok) d.st = langsift::status::truncated;
  if (cut) report_cut(s, path, 0);
  const bool keep = !s.filtering || langsift::keep(d, s.filter);
  if (s.kept_only) {
    if (keep) {
      put(langsift::cli::tsv_field(path));
      put("\n");
    }
  } else {
    print_result(s, named ? &path : nullptr, d, page, keep, out_line);
  }
  return langsift::cli::stdout_failed(kProgram) ? -1 : 0;
}

}  // namespace

int langsift::cli::cmd_detect(int argc, char** argv) {
  settings s;
  std::vector<std::string> files;
  std::string model_path, only_arg, labels_arg, value;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    auto size_opt = [&](const char* name, unsigned long long& v) {
      auto x = missing ? std::nullopt : parse_size(value);
      if (!x) {
        fail(kProgram, std::string(name) + " needs a size (e.g. 400, 64K)");
        return false;
      }
      v = *x;
      return true;
    };
    unsigned long long v = 0;
    if (a == "--version") return langsift::cli::print_version("langsift detect");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--lines") {
      s.lines = true;
    } else if (a == "--html") {
      s.kind = input_kind::html;
    } else if (a == "--text") {
      s.kind = input_kind::text;
    } else if (a == "--main") {
      s.main_content = true;
    } else if (a == "--kept-only") {
      s.kept_only = true;
    } else if (a == "--header") {
      s.header = true;
    } else if (take_option(argc, argv, i, "--codes", value, missing)) {
      const auto c = missing ? std::nullopt : parse_code_style(value);
      if (!c) return fail(kProgram, "--codes is iso639-1 or iso639-3") + 1;
      s.codes = *c;
    } else if (take_option(argc, argv, i, "--format", value, missing)) {
      if (value == "code") s.format = out_format::code;
      else if (value == "tsv") s.format = out_format::tsv;
      else if (value == "jsonl" || value == "json") s.format = out_format::jsonl;
      else return fail(kProgram, "--format is code, tsv or jsonl") + 1;
    } else if (take_option(argc, argv, i, "--model", model_path, missing)) {
      if (missing) return fail(kProgram, "--model needs a built-in model's name or a file") + 1;
    } else if (take_option(argc, argv, i, "--only", only_arg, missing)) {
      if (missing) return fail(kProgram, "--only needs language codes") + 1;
    } else if (take_option(argc, argv, i, "--hint", s.hint, missing)) {
      if (missing) return fail(kProgram, "--hint needs language codes") + 1;
    } else if (take_option(argc, argv, i, "--url", value, missing)) {
      const auto u = missing ? std::nullopt : langsift::parse_uri(value);
      if (!u || u->host.empty()) return fail(kProgram, "--url needs an absolute URL") + 1;
      s.url_host = std::string(u->host);
    } else if (take_option(argc, argv, i, "--content-type", s.content_type, missing)) {
      if (missing) return fail(kProgram, "--content-type needs a value") + 1;
    } else if (take_option(argc, argv, i, "--encoding", s.encoding, missing)) {
      if (missing || !langsift::can_convert(s.encoding)) return fail(kProgram, "--encoding needs a known encoding") + 1;
    } else if (take_option(argc, argv, i, "--scorer", value, missing)) {
      if (value == "auto") s.opt.method = langsift::scorer::automatic;
      else if (value == "bayes") s.opt.method = langsift::scorer::bayes;
      else if (value == "rank") s.opt.method = langsift::scorer::rank;
      else return fail(kProgram, "--scorer is auto, bayes or rank") + 1;
    } else if (take_option(argc, argv, i, "--short-bytes", value, missing)) {
      if (!size_opt("--short-bytes", v)) return 2;
      s.opt.short_text_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--max-model-bytes", value, missing)) {
      if (!size_opt("--max-model-bytes", v) || v < 1) return fail(kProgram, "--max-model-bytes needs at least 1") + 1;
      s.max_model_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--max-input-bytes", value, missing)) {
      if (!size_opt("--max-input-bytes", v) || v < 1) return fail(kProgram, "--max-input-bytes needs at least 1") + 1;
      s.max_input_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--max-text-bytes", value, missing)) {
      if (!size_opt("--max-text-bytes", v) || v < 256) return fail(kProgram, "--max-text-bytes needs at least 256") + 1;
      s.opt.max_text_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--unit-bytes", value, missing)) {
      if (!size_opt("--unit-bytes", v) || v < 16 || v > (1u << 20)) return fail(kProgram, "--unit-bytes needs 16..1M") + 1;
      s.opt.unit_bytes = static_cast<std::size_t>(v);
    } else if (take_option(argc, argv, i, "--switch-penalty", value, missing)) {
      char* end = nullptr;
      const float x = missing ? -1 : std::strtof(value.c_str(), &end);
      if (missing || !end || *end || !(x >= 0) || x > 1e6f) return fail(kProgram, "--switch-penalty needs a number >= 0") + 1;
      s.opt.switch_penalty = x;
    } else if (take_option(argc, argv, i, "--top-k", value, missing)) {
      const auto k = missing ? std::nullopt : parse_size(value);
      if (!k || *k < 1 || *k > langsift::max_top_k)
        return fail(kProgram, "--top-k needs 1.." + std::to_string(langsift::max_top_k)) + 1;
      s.opt.top_k = static_cast<std::size_t>(*k);
      s.probabilities = true;
    } else if (take_option(argc, argv, i, "--min-probability", value, missing)) {
      char* end = nullptr;
      const float p = missing ? -1 : std::strtof(value.c_str(), &end);
      if (missing || !end || *end || !(p >= 0 && p <= 1)) return fail(kProgram, "--min-probability needs 0..1") + 1;
      s.filter.min_probability = p;
      s.filter.use_min_probability = true;
    } else if (take_option(argc, argv, i, "--label", labels_arg, missing)) {
      if (missing) return fail(kProgram, "--label needs language codes") + 1;
    } else if (take_option(argc, argv, i, "--min-bytes", value, missing)) {
      if (!size_opt("--min-bytes", v)) return 2;
      s.filter.min_bytes = static_cast<std::size_t>(v);
      s.filter.use_min_bytes = true;
    } else if (take_option(argc, argv, i, "--max-bytes", value, missing)) {
      if (!size_opt("--max-bytes", v)) return 2;
      s.filter.max_bytes = static_cast<std::size_t>(v);
      s.filter.use_max_bytes = true;
    } else if (take_option(argc, argv, i, "--min-percent", value, missing)) {
      if (!size_opt("--min-percent", v) || v > 100) return fail(kProgram, "--min-percent needs 0..100") + 1;
      s.filter.min_percent = static_cast<int>(v);
      s.filter.use_min_percent = true;
    } else if (a == "-") {
      files.emplace_back("-");
    } else if (a.size() > 1 && a[0] == '-') {
      return unknown_option(kProgram, a, usage);
    } else {
      files.emplace_back(a);
    }
  }
  if (files.empty()) files.emplace_back("-");

  std::vector<std::string> only_codes = split_list(only_arg), label_codes = split_list(labels_arg);
  for (auto* list : {&only_codes, &label_codes})  // either ISO form is accepted
    for (std::string& c : *list) c = langsift::to_iso639_1(c);
  // --hint takes language tags (de-AT, as Content-Language has them): their primary subtag, in
  // either ISO form, must name a language of the model.
  std::vector<std::string> hint_tags = split_list(s.hint), hint_codes;
  for (std::string& t : hint_tags) {
    t = langsift::to_iso639_1(t);
    hint_codes.push_back(t.substr(0, t.find_first_of("-_")));
  }
  s.hint.clear();
  for (const std::string& t : hint_tags) s.hint += (s.hint.empty() ? "" : ",") + t;
  std::vector<std::string_view> only_views(only_codes.begin(), only_codes.end());
  s.opt.only = only_views;
  s.opt.hints.languages = s.hint;
  s.opt.hints.tld = s.url_host;
  if (!label_codes.empty()) {
    s.filter.labels = label_codes;
    s.filter.use_labels = true;
  }
  s.filtering = s.filter.enabled();
  if (s.kept_only && !s.filtering) return fail(kProgram, "--kept-only needs a filter (--label, --min-bytes...)") + 1;

  langsift::model loaded;
  const langsift::model* m = nullptr;
  {
    std::string error;
    if (langsift::cli::resolve_model(model_path, m, loaded, error, s.max_model_bytes) != langsift::status::ok)
      return fail(kProgram, error);
  }
  // A code that the model lacks is a usage error that names every such code: a typo would
  // otherwise restrict detection to fewer languages than asked for (--only), drop every document
  // (--label) or do nothing (--hint).
  if (!check_language_codes(kProgram, "--only", *m, only_codes) || !check_language_codes(kProgram, "--label", *m, label_codes) ||
      !check_language_codes(kProgram, "--hint", *m, hint_codes))
    return 2;

  std::string bytes, out_line;
  if (s.header && s.format == out_format::tsv && !s.kept_only) {
    // The columns of the records below: a file column when files are read, encoding columns for
    // pages (not for --lines), and keep with a filter.
    const bool named = !s.lines && (files.size() > 1 || files[0] != "-");
    std::string h = named ? "file\t" : "";
    h += "language\tlanguages\ttext_bytes\treliable\tshort\tscore";
    if (s.probabilities) h += "\tprobabilities";
    if (!s.lines) h += "\tencoding\tencoding_source";
    if (s.filtering) h += "\tkeep";
    put(h + "\tstatus\n");
  }
  int rc = 0;
  for (const std::string& path : files) {
    const int r = s.lines ? detect_lines(*m, s, path, out_line) : detect_file(*m, s, path, files.size() > 1 || path != "-", bytes, out_line);
    if (r < 0) return 1;  // the output cannot be written: stop (reported)
    if (r) rc = r;
  }
  return rc;
}
