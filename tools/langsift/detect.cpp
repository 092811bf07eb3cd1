// `langsift detect` — the whole pipeline: bytes -> encoding -> (HTML ->) text -> languages.
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli.hpp"
#include "common/input.hpp"
#include "common/json.hpp"
#include "common/jsonl.hpp"
#include "common/model_arg.hpp"
#include "langsift/close_groups.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/filter.hpp"
#include "langsift/html.hpp"
#include "langsift/options.hpp"
#include "langsift/page.hpp"
#include "langsift/parallel.hpp"
#include "langsift/spans.hpp"
#include "langsift/uri.hpp"
#include "subcommands.hpp"

namespace {

constexpr const char* kProgram = "langsift detect";
namespace json = langsift::cli::json;

enum class input_kind { sniff, html, text };
enum class out_format { code, tsv, jsonl };

void put(std::string_view s) { langsift::cli::write_stdout(s); }

struct settings {
  input_kind kind = input_kind::sniff;
  out_format format = out_format::tsv;
  bool lines = false, main_content = false, kept_only = false, filtering = false, header = false;
  bool jsonl = false;              // --jsonl: JSON lines in, each written back with the result added
  std::string text_field = "text"; // --text-field: the member holding the text
  unsigned threads = 1;            // -j
  bool probabilities = false;  // --top-k: print detection::probabilities
  langsift::code_style codes = langsift::code_style::iso639_1;
  std::string content_type, encoding, hint, url_host;
  std::size_t max_input_bytes = 16u << 20;  // per file or line: memory stays bounded
  std::size_t max_model_bytes = 0;          // --model files larger than this are refused; 0: no cap
  langsift::detect_options opt;
  langsift::language_filter filter;
  // Spans (--spans, --keep): computed when `spans` is set; --keep prints kept text (JSON fields
  // with --format jsonl).
  bool spans = false;
  std::vector<std::string> keep_codes;
  std::vector<std::string_view> keep_views;
  langsift::span_options span_opt;
};

/// A document's spans and the text they index (for --spans and --keep).
struct span_info {
  std::string_view text;
  std::vector<langsift::span> spans;
};

struct page_info {
  bool html = false;
  std::string encoding, encoding_source;
};

/// What the command line gives: the settings, and the arguments read once the model is known.
struct detect_args {
  settings s;
  std::string model_path, close_path, only_arg, labels_arg, keep_arg;
  std::vector<std::string> priors;  // --language-prior CODES=LOGODDS, in order
  bool format_given = false, spans_given = false, list_languages = false;
};

using option_row = langsift::cli::option<detect_args>;
using val = langsift::cli::option_value;
using langsift::cli::value_kind;

/// "text (default X)" with X as %g writes it.
std::string with_default(const char* text, double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g)", x);
  return text + std::string(buf);
}

/// Splits a --language-prior value, CODES=LOGODDS, into its codes and log-odds; false when it is
/// not of that form or the log-odds is not a number in -50..0 (model::set_language_prior's range).
bool split_prior(const std::string& spec, std::string* codes, float* log_odds) {
  const std::size_t eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) return false;
  char* end = nullptr;
  *log_odds = std::strtof(spec.c_str() + eq + 1, &end);
  if (*end != '\0' || !(*log_odds <= 0.0f) || !(*log_odds >= -50.0f)) return false;
  if (codes) *codes = spec.substr(0, eq);
  return true;
}

/// --model's help: the built-in models' sizes (read when the usage text is printed, not on every run).
std::string model_help() {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "a built-in model, `default` (%zu languages) or `wide` (%zu), or a\n"
                "model file (a built-in name wins: write ./wide for a file so named)",
                langsift::cli::builtin_language_count("default"), langsift::cli::builtin_language_count("wide"));
  return buf;
}

/// The input options of `langsift detect`.
void add_input_options(std::vector<option_row>& t) {
  t.push_back({value_kind::note, nullptr, nullptr, nullptr,
               "usage: langsift detect [options] [FILE...|-]\n"
               "\n"
               "Identifies the languages of each FILE (or of stdin): the bytes are decoded to UTF-8 (BOM,\n"
               "--content-type, <meta charset>, detection), HTML is reduced to its text, and the text is\n"
               "classified: up to three languages with their share of the text. Codes are ISO 639-1 where\n"
               "one exists, else ISO 639-3 (with a script subtag where the model has one, e.g. zh-Hant);\n"
               "'und' means no language could be determined (no letters, or not natural language).\n"
               "\n"
               "input (a file compressed with gzip or zstd is decompressed as it is read, told by its first\n"
               "bytes, not its name; --max-input-bytes counts its content):\n"});
  t.push_back({value_kind::flag, "--lines", nullptr, nullptr,
               "every input line is a document (UTF-8 text); exactly one output line\nper input line, in order",
               [](detect_args& a, const val&) { return a.s.lines = true; }});
  t.push_back({value_kind::flag, "--jsonl", nullptr, nullptr,
               "every input line is a JSON object whose \"text\" member is the document:\n"
               "it is written back as it was, with the fields of --format jsonl added\n"
               "before its closing brace (a member of the same name is replaced). A\n"
               "line that is not a JSON object, lacks the member or holds no string\n"
               "there is named on stderr (first 100 per input), counted in a summary\n"
               "line, and not written; blank lines are skipped",
               [](detect_args& a, const val&) { return a.s.jsonl = true; }});
  t.push_back({value_kind::text, "--text-field", nullptr, "NAME", "--jsonl: the member holding the text (default: text)",
               [](detect_args& a, const val& v) { a.s.text_field = v.text; return !v.text.empty(); }, 0, 0, nullptr,
               "a member name"});
  t.push_back({value_kind::size, "--threads", "-j", "N",
               "worker threads (default 1): lines, JSON lines or FILEs are worked on\n"
               "in parallel and written in input order, as with one thread",
               [](detect_args& a, const val& v) { a.s.threads = static_cast<unsigned>(v.size); return true; }, 1, 256});
  t.push_back({value_kind::flag, "--html", nullptr, nullptr, "the input is HTML / plain text (default: sniffed per document)",
               [](detect_args& a, const val&) { a.s.kind = input_kind::html; return true; }, 0, 0, nullptr, nullptr,
               "--html, --text"});
  t.push_back({value_kind::flag, "--text", nullptr, nullptr, "",
               [](detect_args& a, const val&) { a.s.kind = input_kind::text; return true; }});
  t.push_back({value_kind::flag, "--main", nullptr, nullptr,
               "HTML: classify only the main content (drop navigation, link lists...)",
               [](detect_args& a, const val&) { return a.s.main_content = true; }});
  t.push_back({value_kind::text, "--content-type", nullptr, "V",
               "HTTP Content-Type of the input (charset, and text/plain vs HTML)",
               [](detect_args& a, const val& v) { a.s.content_type = v.text; return true; }});
  t.push_back({value_kind::text, "--encoding", nullptr, "E", "the input's encoding (skips detection)",
               [](detect_args& a, const val& v) { a.s.encoding = v.text; return langsift::can_convert(a.s.encoding); },
               0, 0, nullptr, "a known encoding"});
}

/// The output options of `langsift detect`.
void add_output_options(std::vector<option_row>& t) {
  t.push_back({value_kind::note, nullptr, nullptr, nullptr,
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
               "  jsonl               one JSON object per document (\"status\" when it is not ok)\n"});
  t.push_back({value_kind::choice, "--format", nullptr, "F", "",  // its values are described above
               [](detect_args& a, const val& v) {
                 a.s.format = v.choice == 0 ? out_format::code : v.choice == 1 ? out_format::tsv : out_format::jsonl;
                 return a.format_given = true;
               },
               0, 0, "code|tsv|jsonl"});
  t.push_back({value_kind::flag, "--header", nullptr, nullptr, "tsv: a first line naming the columns",
               [](detect_args& a, const val&) { return a.s.header = true; }});
  t.push_back({value_kind::size, "--top-k", nullptr, "K",
               "the K most probable languages with their calibrated probabilities\n"
               "(1..16): jsonl \"probabilities\": [[\"de\",0.9712],[\"nl\",0.0213]], tsv a\n"
               "column code:p,... after score",
               [](detect_args& a, const val& v) {
                 a.s.opt.top_k = static_cast<std::size_t>(v.size);
                 return a.s.probabilities = true;
               },
               1, static_cast<double>(langsift::max_top_k)});
  t.push_back({value_kind::text, "--codes", nullptr, "iso639-1|iso639-3",
               "language codes: ISO 639-1 where one exists (default), or\n"
               "ISO 639-3 for every language (as Common Crawl's index); --only and\n"
               "--label take either form",
               [](detect_args& a, const val& v) {
                 const auto c = langsift::parse_code_style(v.text);
                 if (c) a.s.codes = *c;
                 return c.has_value();
               },
               0, 0, nullptr, "iso639-1 or iso639-3"});
}

/// The model and classification options of `langsift detect`.
void add_model_options(std::vector<option_row>& t) {
  t.push_back({value_kind::note, nullptr, nullptr, nullptr, "\nmodel and classification:\n"});
  t.push_back({value_kind::text, "--model", nullptr, "NAME|FILE", "(model_help)",
               [](detect_args& a, const val& v) { a.model_path = v.text; return true; }, 0, 0, nullptr,
               "a built-in model's name or a file", nullptr, model_help});
  t.push_back({value_kind::flag, "--list-languages", nullptr, nullptr,
               "print the model's language codes, one per line (as --codes says),\n"
               "and exit: the codes --only, --hint, --label and --keep take",
               [](detect_args& a, const val&) { return a.list_languages = true; }});
  t.push_back({value_kind::size, "--max-model-bytes", nullptr, "N",
               "refuse a --model file larger than N bytes, before reading it (a\n"
               "loaded model keeps its file in memory; default: no cap)",
               [](detect_args& a, const val& v) { a.s.max_model_bytes = static_cast<std::size_t>(v.size); return true; }, 1});
  t.push_back({value_kind::text, "--only", nullptr, "CODES",
               "consider only these languages (comma-separated; 'zh' includes zh-Hant)",
               [](detect_args& a, const val& v) { a.only_arg = v.text; return true; }, 0, 0, nullptr, "language codes"});
  t.push_back({value_kind::text, "--close-groups", nullptr, "FILE",
               "the close groups (langsift-train close) of a --model file; the\nbuilt-in models carry theirs",
               [](detect_args& a, const val& v) { a.close_path = v.text; return true; }, 0, 0, nullptr, "a file"});
  t.push_back({value_kind::text, "--language-prior", nullptr, "CODES=LOGODDS",
               "give these languages of the model (comma-separated, or @FILE of\n"
               "codes, '#' comments) a prior, log-odds in -50..0 (model::set_language_prior);\n"
               "repeatable. The built-in wide model's rare languages carry -1.75",
               [](detect_args& a, const val& v) {
                 float x = 0;
                 if (!split_prior(std::string(v.text), nullptr, &x)) return false;
                 a.priors.emplace_back(v.text);
                 return true;
               },
               0, 0, nullptr, "CODES=LOGODDS, the log-odds a number in -50..0"});
  t.push_back({value_kind::flag, "--no-close-groups", nullptr, nullptr,
               "leave the model's labels among close languages (bs/hr, id/ms,\n"
               "nb/nn/da...) as they are: no close-group stage",
               [](detect_args& a, const val&) { a.s.opt.close_groups = false; return true; }});
  t.push_back({value_kind::flag, "--no-web-prior", nullptr, nullptr, "no web priors (none among the members of a close group,\n"
               "none against the model's rare languages)",
               [](detect_args& a, const val&) { a.s.opt.web_prior = false; return true; }});
  t.push_back({value_kind::text, "--hint", nullptr, "CODES",
               "prior languages, e.g. from Content-Language or <html lang> (language\n"
               "tags: de, de-AT, zh-Hant; HTML input adds its own <html lang> and\n"
               "http-equiv content-language)",
               [](detect_args& a, const val& v) { a.s.hint = v.text; return true; }, 0, 0, nullptr, "language codes"});
  t.push_back({value_kind::text, "--url", nullptr, "URL", "the document's URL: its country-code TLD is a (weaker) hint",
               [](detect_args& a, const val& v) {
                 const auto u = langsift::parse_uri(v.text);
                 if (u) a.s.url_host = std::string(u->host);
                 return u && !u->host.empty();
               },
               0, 0, nullptr, "an absolute URL"});
  t.push_back({value_kind::choice, "--scorer", nullptr, "S", "auto (default), bayes or rank (TextCat's rank-order distance)",
               [](detect_args& a, const val& v) {
                 a.s.opt.method = v.choice == 0 ? langsift::scorer::automatic
                                  : v.choice == 1 ? langsift::scorer::bayes : langsift::scorer::rank;
                 return true;
               },
               0, 0, "auto|bayes|rank"});
  t.push_back({value_kind::size, "--short-bytes", nullptr, "N", "documents with fewer text bytes are flagged short (default 400)",
               [](detect_args& a, const val& v) { a.s.opt.short_text_bytes = static_cast<std::size_t>(v.size); return true; }});
  t.push_back({value_kind::size, "--max-text-bytes", nullptr, "N",
               "examine at most N bytes of text, sampled across it (default 64K)",
               [](detect_args& a, const val& v) { a.s.opt.max_text_bytes = static_cast<std::size_t>(v.size); return true; }, 256});
  t.push_back({value_kind::size, "--max-input-bytes", nullptr, "N",
               "read at most N bytes of a file or of a --lines line; the rest is\n"
               "skipped, the status says truncated, and a line on stderr names the\n"
               "input (default 16M)",
               [](detect_args& a, const val& v) { a.s.max_input_bytes = static_cast<std::size_t>(v.size); return true; }, 1});
  t.push_back({value_kind::size, "--unit-bytes", nullptr, "N", "score text in units of about N bytes (default 64)",
               [](detect_args& a, const val& v) { a.s.opt.unit_bytes = static_cast<std::size_t>(v.size); return true; }, 16,
               1 << 20});
  t.push_back({value_kind::real, "--switch-penalty", nullptr, "X",
               "cost of a change of language between units (default 300; higher\nkeeps documents more monolingual)",
               [](detect_args& a, const val& v) { a.s.opt.switch_penalty = static_cast<float>(v.real); return true; }, 0, 1e6,
               nullptr, "a number >= 0"});
}

/// The span options of `langsift detect`.
void add_span_options(std::vector<option_row>& t) {
  const langsift::span_options d;
  t.push_back({value_kind::note, nullptr, nullptr, nullptr, "\nspans (where each language is):\n"});
  t.push_back({value_kind::flag, "--spans", nullptr, nullptr,
               "jsonl output gains \"spans\": [[begin, end, \"code\"], ...], byte\n"
               "offsets into the text classified (the line; a file's text decoded to\n"
               "UTF-8, and for HTML its text as `langsift text` prints it); they\n"
               "cover it, and neighbours differ in language (\"und\": none). Implies\n"
               "--format jsonl unless another format is given (then a usage error)",
               [](detect_args& a, const val&) { return a.spans_given = true; }});
  t.push_back({value_kind::text, "--keep", nullptr, "CODES",
               "print only the text of the spans in these languages: each stretch\n"
               "of kept spans on a line of its own, without the whitespace at its\n"
               "ends (a document with none prints nothing; with a filter, only the\n"
               "documents it keeps); with --format jsonl, the objects gain\n"
               "\"spans\" and \"kept_text\" (the stretches joined by \\n) instead",
               [](detect_args& a, const val& v) { a.keep_arg = v.text; return !langsift::split_code_list(v.text).empty(); },
               0, 0, nullptr, "language codes"});
  t.push_back({value_kind::real, "--span-penalty", nullptr, "X",
               with_default("cost of a change of language between span units (default ", static_cast<double>(d.switch_penalty)),
               [](detect_args& a, const val& v) { a.s.span_opt.switch_penalty = static_cast<float>(v.real); return true; },
               0, 1e6, nullptr, "a number >= 0"});
  t.push_back({value_kind::size, "--span-unit-bytes", nullptr, "N",
               with_default("span units of about N bytes, ended at sentence ends (default ", static_cast<double>(d.unit_bytes)),
               [](detect_args& a, const val& v) { a.s.span_opt.unit_bytes = static_cast<std::size_t>(v.size); return true; },
               16, 1 << 20});
  t.push_back({value_kind::size, "--min-span-bytes", nullptr, "N",
               with_default("a shorter span joins a neighbour (default ", static_cast<double>(d.min_span_bytes)),
               [](detect_args& a, const val& v) { a.s.span_opt.min_span_bytes = static_cast<std::size_t>(v.size); return true; }});
  t.push_back({value_kind::real, "--min-span-confidence", nullptr, "P",
               with_default("a span whose language is less clear (0..1) joins a\nneighbour (default ",
                            static_cast<double>(d.min_confidence)),
               [](detect_args& a, const val& v) { a.s.span_opt.min_confidence = static_cast<float>(v.real); return true; },
               0, 1});
}

/// The filter options of `langsift detect`, and the usage text's closing paragraphs.
void add_filter_options(std::vector<option_row>& t) {
  t.push_back({value_kind::note, nullptr, nullptr, nullptr,
               "\n"
               "filters (NCL-Crawl): a document is kept when one of its languages passes every filter set;\n"
               "with a filter, tsv/jsonl output gains a keep field, and --kept-only prints only kept documents\n"
               "(their lines with --lines, their objects with the result added with --jsonl, else their\n"
               "file names)\n"});
  t.push_back({value_kind::text, "--label", nullptr, "CODES", "the language is one of these",
               [](detect_args& a, const val& v) { a.labels_arg = v.text; return true; }, 0, 0, nullptr, "language codes"});
  t.push_back({value_kind::size, "--min-bytes", nullptr, "N", "the language has at least N bytes of text",
               [](detect_args& a, const val& v) {
                 a.s.filter.min_bytes = static_cast<std::size_t>(v.size);
                 return a.s.filter.use_min_bytes = true;
               }});
  t.push_back({value_kind::size, "--max-bytes", nullptr, "N", "the language has at most N bytes of text",
               [](detect_args& a, const val& v) {
                 a.s.filter.max_bytes = static_cast<std::size_t>(v.size);
                 return a.s.filter.use_max_bytes = true;
               }});
  t.push_back({value_kind::size, "--min-percent", nullptr, "P", "the language has at least P percent of the text",
               [](detect_args& a, const val& v) {
                 a.s.filter.min_percent = static_cast<int>(v.size);
                 return a.s.filter.use_min_percent = true;
               },
               0, 100});
  t.push_back({value_kind::real, "--min-probability", nullptr, "P",
               "the language is the top one and its calibrated probability\n"
               "(`confidence`) is at least P (0..1): a document whose top probability\n"
               "is below P is not kept",
               [](detect_args& a, const val& v) {
                 a.s.filter.min_probability = static_cast<float>(v.real);
                 return a.s.filter.use_min_probability = true;
               },
               0, 1});
  t.push_back({value_kind::flag, "--kept-only", nullptr, nullptr, "print only the documents the filters keep",
               [](detect_args& a, const val&) { return a.s.kept_only = true; }});
  t.push_back({value_kind::note, nullptr, nullptr, nullptr,
               "\n"
               "A code of --only, --hint or --label that is not a language of the model is a usage error\n"
               "(ISO 639-1 or ISO 639-3 codes; `zh` names zh-Hant too; --list-languages lists them).\n"
               "\n"
               "When stderr is a terminal, progress is shown there (MB read of the files' total, rate, time\n"
               "left); never when it is not.\n"
               "\n"
               "Exit status: 0 on success, 3 when some input was malformed and reported (--jsonl lines not\n"
               "classified; compressed data corrupt or cut short: what came before it is classified, a page\n"
               "with status truncated), 1 when a file cannot be read, the model cannot be loaded or the\n"
               "output cannot be written, 2 on a usage error.\n"});
}

/// The options of `langsift detect`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    add_input_options(t);
    add_output_options(t);
    add_model_options(t);
    add_span_options(t);
    add_filter_options(t);
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 22); }

using langsift::cli::fail;
using langsift::cli::check_language_codes;


void print_result(const settings& s, const std::string* name, const langsift::detection& d, const page_info& page,
                  bool keep, std::string& line, const span_info* sp = nullptr) {
  line.clear();
  if (sp && !s.keep_codes.empty() && s.format != out_format::jsonl) {  // --keep: the kept text only
    if (!keep) return;
    line = langsift::kept_text(sp->text, sp->spans, s.keep_views);
    if (!line.empty()) line += '\n';
    return;
  }
  if (s.format == out_format::code) {
    if (name && !s.lines) {
      langsift::cli::tsv_field(line, *name);
      line += '\t';
    }
    line += code_in_style(d.language(), s.codes);
    if (d.st == langsift::status::truncated) line += "\ttruncated";  // the answer is for a part
    line += '\n';
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
  if (sp) {
    line += ",\"spans\":[";
    for (std::size_t i = 0; i < sp->spans.size(); ++i) {
      const langsift::span& x = sp->spans[i];
      line += (i ? ",[" : "[") + std::to_string(x.begin) + ',' + std::to_string(x.end) + ',';
      json::code(line, x.code, s.codes);
      line += ']';
    }
    line += ']';
    if (!s.keep_codes.empty()) {
      line += ",\"kept_text\":";
      json::utf8_string(line, langsift::kept_text(sp->text, sp->spans, s.keep_views));
    }
  }
  line += "}\n";
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

/// The text detect_page classified (for --spans and --keep): the bytes decoded as it decided
/// (`page.encoding`), and for HTML their extracted text; the page's language declarations become
/// hints as detect_page makes them.
std::string_view page_text(const settings& s, const std::string& bytes, const page_info& page, std::string& decoded,
                           langsift::html_result& h, langsift::detect_options& opt) {
  langsift::encoding_options eo;
  eo.content_type = !s.encoding.empty() ? std::string_view(s.encoding) : std::string_view(page.encoding);
  decoded = langsift::decode_to_utf8(bytes, eo).text;
  if (!page.html) return decoded;
  langsift::html_options ho;
  ho.main_content = s.main_content;
  ho.collect_links = false;
  ho.max_input_bytes = std::max(ho.max_input_bytes, s.max_input_bytes);
  langsift::extract_html(decoded, ho, h);
  opt.hints.html_lang = h.html_lang;
  if (opt.hints.content_language.empty()) opt.hints.content_language = h.content_language;
  return h.text;
}

// ---------------------------------------------------------------------------------------------
// Reading. The inputs are cut into batches — lines (--lines, --jsonl) or one file — which -j
// threads work on (langsift/parallel.hpp's ordered_pool) and whose output and messages are written
// in input order, so that -j N writes what -j 1 writes.

/// "PROGRAM: NAME: cut at N bytes (--max-input-bytes): ..." — one line per input that was cut,
/// whatever the output format (which says `truncated` too).
std::string cut_message(const settings& s, const std::string& path, std::uint64_t line_no) {
  const std::string name = path == "-" ? "stdin" : path;
  char buf[160];
  if (line_no)
    std::snprintf(buf, sizeof buf, ": line %llu: cut at %zu bytes (--max-input-bytes): its languages are those of that part\n",
                  static_cast<unsigned long long>(line_no), s.max_input_bytes);
  else
    std::snprintf(buf, sizeof buf, ": cut at %zu bytes (--max-input-bytes): its languages are those of that part\n",
                  s.max_input_bytes);
  return std::string(kProgram) + ": " + name + buf;
}

/// A --jsonl line that was not classified, and why.
enum class bad_kind { not_json, no_field, not_string, too_long };
struct bad_line {
  std::uint64_t line = 0;
  bad_kind kind = bad_kind::not_json;
  std::string why;  // for its message
};

/// Work for one thread: lines of one input (`ends`: where each ends in `data`, and whether it was
/// cut), or one whole file (`whole`).
struct batch {
  const std::string* path = nullptr;
  bool whole = false, named = false;  // whole: a file is the document; named: its output names it
  bool last = false;                  // the last batch of its input
  std::uint64_t first_line = 1;
  std::string data;
  std::vector<std::pair<std::size_t, bool>> ends;
  std::string error;  // the input ended with this error (written after its lines): a read error...
  bool error_malformed = false;  // ...or compressed data that went wrong (exit status 3, not 1)
};

struct batch_result {
  const std::string* path = nullptr;
  bool last = false;
  std::uint64_t lines = 0;
  std::string out, err;       // for stdout and stderr, in order
  std::vector<bad_line> bad;  // --jsonl lines not classified (the sink reports them)
  int rc = 0;                 // 1: an input could not be read; 3: malformed input (reported in err)
};

/// Appends the output of a document (or nothing: --kept-only dropped it); `original`: what
/// --kept-only writes for it.
void emit(const settings& s, const std::string* name, langsift::detection& d, const page_info& page,
          std::string_view original, std::string& line, batch_result& r, const span_info* sp = nullptr) {
  const bool keep = !s.filtering || langsift::keep(d, s.filter);
  if (s.kept_only) {
    if (keep) {
      r.out += original;
      r.out += '\n';
    }
    return;
  }
  print_result(s, name, d, page, keep, line, sp);
  r.out += line;
}

/// One --jsonl line: the object written back with the result's fields (print_result's JSON)
/// added before its closing brace; a member of the same name as one of them is replaced.
void jsonl_line(const langsift::model& m, const settings& s, std::string_view text, bool cut, std::uint64_t line_no,
                std::string& line, batch_result& r) {
  namespace jl = langsift::cli::jsonl;
  thread_local jl::object obj, fields;
  thread_local std::string value;
  jl::parse_error e;
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;  // a blank line: no record
  if (cut) {
    r.bad.push_back({line_no, bad_kind::too_long, "longer than " + std::to_string(s.max_input_bytes) + " bytes (--max-input-bytes)"});
    return;
  }
  if (!jl::parse_object(text, obj, e)) {
    r.bad.push_back({line_no, bad_kind::not_json, std::string("not JSON: ") + e.what + " at byte " + std::to_string(e.at)});
    return;
  }
  const jl::member* field = nullptr;  // the last member so named, as JSON readers take it
  for (const jl::member& mb : obj.members)
    if (jl::key_is(text, mb, s.text_field)) field = &mb;
  if (!field) {
    r.bad.push_back({line_no, bad_kind::no_field, "no \"" + s.text_field + "\" member"});
    return;
  }
  if (field->value_kind != jl::kind::string) {
    r.bad.push_back({line_no, bad_kind::not_string, "\"" + s.text_field + "\" is " + jl::kind_name(field->value_kind) + ", not a string"});
    return;
  }
  value.clear();
  jl::unescape(text.substr(field->value_begin, field->value_end - field->value_begin), value);
  langsift::detection d = langsift::detect(m, value, s.opt);
  const bool keep = !s.filtering || langsift::keep(d, s.filter);
  if (s.kept_only && !keep) return;
  thread_local span_info spans;
  if (s.spans) {
    spans.text = value;
    langsift::detect_spans(m, value, spans.spans, s.opt, s.span_opt);
  }
  print_result(s, nullptr, d, page_info{}, keep, line, s.spans ? &spans : nullptr);  // "{...}\n": JSON, as --jsonl sets --format
  const std::string_view added(line.data() + 1, line.size() - 3);
  if (!jl::parse_object(std::string_view(line).substr(0, line.size() - 1), fields, e)) fields.members.clear();
  r.out += '{';
  bool first = true;
  for (const jl::member& mb : obj.members) {
    bool replaced = false;
    for (const jl::member& f : fields.members)
      replaced = replaced || jl::key_is(text, mb, std::string_view(line).substr(f.key_begin + 1, f.key_end - f.key_begin - 2));
    if (replaced) continue;
    if (!first) r.out += ',';
    r.out.append(text.substr(mb.slot_begin, mb.slot_end - mb.slot_begin));
    first = false;
  }
  if (!first && !added.empty()) r.out += ',';
  r.out.append(added);
  r.out += "}\n";
}

/// Buffers handed back and forth between the reader, the workers and the writer, so that the
/// batches' memory is reused (fresh allocations of their size cost page faults every time).
class buffers {
 public:
  std::string get() {
    std::lock_guard lock(m_);
    if (free_.empty()) return {};
    std::string s = std::move(free_.back());
    free_.pop_back();
    s.clear();
    return s;
  }
  void put(std::string&& s) {
    if (s.capacity() > (8u << 20)) return;  // one holding a huge line goes
    std::lock_guard lock(m_);
    if (free_.size() < 64) free_.push_back(std::move(s));
  }

 private:
  std::mutex m_;
  std::vector<std::string> free_;
};

/// The work on a batch (on a pool thread).
batch_result work(const langsift::model& m, const settings& s, batch& b, buffers& spare) {
  batch_result r;
  r.out = spare.get();
  r.path = b.path;
  r.last = b.last;
  std::string line;
  const std::string& path = *b.path;
  if (b.whole) {  // one file is one document
    std::string error, malformed;
    bool cut = false;
    if (!langsift::cli::read_input(path, b.data, error, s.max_input_bytes, &cut, &malformed)) {
      r.err = std::string(kProgram) + ": " + error + "\n";
      r.rc = 1;
      return r;
    }
    page_info page;
    langsift::detection d = detect_page(m, s, b.data, page);
    if (d.st == langsift::status::out_of_memory) {  // no answer for this file: an error, as unreadable
      r.err = std::string(kProgram) + ": " + path + ": out of memory (lower --max-input-bytes, or give the process more memory)\n";
      r.rc = 1;
      return r;
    }
    if ((cut || !malformed.empty()) && d.st == langsift::status::ok) d.st = langsift::status::truncated;
    if (cut) r.err = cut_message(s, path, 0);
    if (!malformed.empty()) {
      r.err += std::string(kProgram) + ": " + malformed + ": its languages are those of the part before it\n";
      r.rc = 3;
    }
    span_info spans;
    std::string decoded;
    langsift::html_result html;
    if (s.spans && d.st != langsift::status::binary_input) {
      langsift::detect_options opt = s.opt;
      spans.text = page_text(s, b.data, page, decoded, html, opt);
      langsift::detect_spans(m, spans.text, spans.spans, opt, s.span_opt);
    }
    emit(s, b.named ? &path : nullptr, d, page, langsift::cli::tsv_field(path), line, r, s.spans ? &spans : nullptr);
    return r;
  }
  std::size_t begin = 0;
  span_info spans;
  for (const auto& [end, cut] : b.ends) {
    const std::string_view text(b.data.data() + begin, end - begin);
    const std::uint64_t line_no = b.first_line + r.lines++;
    begin = end;
    if (s.jsonl) {
      jsonl_line(m, s, text, cut, line_no, line, r);
      continue;
    }
    langsift::detection d = langsift::detect(m, text, s.opt);
    if (cut && d.st == langsift::status::ok) d.st = langsift::status::truncated;
    if (cut) r.err += cut_message(s, path, line_no);
    if (s.spans) {
      spans.text = text;
      langsift::detect_spans(m, text, spans.spans, s.opt, s.span_opt);
    }
    emit(s, nullptr, d, page_info{}, text, line, r, s.spans ? &spans : nullptr);
  }
  if (!b.error.empty()) {
    r.err += std::string(kProgram) + ": " + b.error + "\n";
    r.rc = b.error_malformed ? 3 : 1;
  }
  spare.put(std::move(b.data));
  return r;
}

/// What the sink keeps across batches: the exit status, and the bad lines of the current input.
struct tally {
  int rc = 0;
  bool malformed = false;
  std::uint64_t lines = 0, bad = 0, named = 0;
  std::uint64_t by_kind[4] = {};

  static constexpr std::uint64_t kNamedMax = 100;  // per input: the rest are counted only

  void add(const batch_result& r) {
    if (r.rc == 1) rc = 1;
    if (r.rc == 3) malformed = true;
    lines += r.lines;
    const std::string name = *r.path == "-" ? "stdin" : *r.path;
    for (const bad_line& b : r.bad) {
      ++bad;
      ++by_kind[static_cast<int>(b.kind)];
      if (++named <= kNamedMax)
        std::fprintf(stderr, "%s: %s: line %llu: %s; skipped\n", kProgram, name.c_str(),
                     static_cast<unsigned long long>(b.line), b.why.c_str());
      else if (named == kNamedMax + 1)
        std::fprintf(stderr, "%s: %s: more lines not classified: counted below, not named\n", kProgram, name.c_str());
    }
    if (!r.bad.empty()) malformed = true;
  }

  /// After the last batch of an input (and its messages): the summary of its bad lines.
  void end_input(const settings& s, const batch_result& r) {
    if (!r.last) return;
    const std::string name = *r.path == "-" ? "stdin" : *r.path;
    if (bad) {  // the input's summary
      std::string parts;
      const std::string field = "\"" + s.text_field + "\"";
      const std::string kinds[] = {"not JSON", "without " + field, field + " not a string", "too long"};
      for (int k = 0; k < 4; ++k)
        if (by_kind[k]) parts += (parts.empty() ? "" : ", ") + std::to_string(by_kind[k]) + " " + kinds[k];
      std::fprintf(stderr, "%s: %s: %llu of %llu lines not classified and not written (%s)\n", kProgram, name.c_str(),
                   static_cast<unsigned long long>(bad), static_cast<unsigned long long>(lines), parts.c_str());
    }
    lines = bad = named = 0;
    std::fill(std::begin(by_kind), std::end(by_kind), 0);
  }
};

/// Cuts input `path` into line batches and submits them; false when the output failed (stop).
template <class Pool>
bool submit_lines(const settings& s, const std::string& path, Pool& pool, buffers& spare, langsift::cli::progress& shown,
                  std::uint64_t& raw_done, const std::atomic<bool>& write_failed) {
  constexpr std::size_t kBatchLines = 256, kBatchBytes = 1 << 17;
  batch b;
  b.path = &path;
  b.data = spare.get();
  langsift::cli::input_file in;
  std::string error;
  if (!in.open(path, error)) {
    b.error = error;
    b.last = true;
    pool.submit(std::move(b));
    return !write_failed;
  }
  std::uint64_t next_line = 1;
  auto submit = [&](bool last) {
    next_line += b.ends.size();
    b.last = last;
    pool.submit(std::move(b));
    b = batch{};
    b.path = &path;
    b.data = spare.get();
    b.first_line = next_line;
  };
  // Lines end at '\n' only (U+0085 and '\r' stay inside a line; a trailing '\r' is dropped).
  std::size_t start = 0;  // where the current line begins in b.data
  bool cut = false, pending = false;
  auto end_line = [&] {
    if (b.data.size() > start && b.data.back() == '\r') b.data.pop_back();
    b.ends.emplace_back(b.data.size(), cut);
    cut = pending = false;
    if (b.ends.size() >= kBatchLines || b.data.size() >= kBatchBytes) submit(false);
    start = b.data.size();
  };
  char buf[1 << 16];
  std::size_t n;
  while (!write_failed && (n = in.read(buf, sizeof buf)) > 0) {
    for (std::size_t k = 0; k < n;) {  // append up to the next '\n' (or the buffer's end) at once
      const char* nl = static_cast<const char*>(std::memchr(buf + k, '\n', n - k));
      const std::size_t stop = nl ? static_cast<std::size_t>(nl - buf) : n;
      if (stop > k) {
        const std::size_t room = s.max_input_bytes - std::min(b.data.size() - start, s.max_input_bytes);
        b.data.append(buf + k, std::min(room, stop - k));
        cut = cut || stop - k > room;
        pending = true;
      }
      k = stop;
      if (nl) {
        end_line();
        ++k;
      }
    }
    shown.update(raw_done + in.raw_bytes());
  }
  if (pending && !write_failed) end_line();
  raw_done += in.raw_bytes();
  if (in.failed() || in.malformed()) {
    b.error = (path == "-" ? std::string("stdin") : path) + ": " + in.error();
    if (in.malformed()) b.error += ": the lines before it were read";
    b.error_malformed = in.malformed();
  }
  submit(true);
  return !write_failed;
}

/// Reads every input, works on it with s.threads threads and writes in input order. The exit
/// status: 0, 1 (an input could not be read, or the output cannot be written: reported) or 3
/// (malformed input: reported).
int run_inputs(const langsift::model& m, const settings& s, const std::vector<std::string>& files) {
  std::uint64_t total = 0;  // progress (on a terminal only): bytes read of the files' total
  for (const std::string& path : files) {
    struct stat st {};
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) total += static_cast<std::uint64_t>(st.st_size);
  }
  langsift::cli::progress shown(kProgram, total);
  std::atomic<bool> write_failed{false};
  tally t;
  std::uint64_t raw_done = 0;
  buffers spare;
  // At most 2 * threads + 2 batches in flight: memory is bounded by that many batches (each at
  // most 512 lines, or a line of --max-input-bytes; or a file of it).
  langsift::ordered_pool<batch, batch_result> pool(
      s.threads, 2 * static_cast<std::size_t>(s.threads) + 2, [&](batch& b) { return work(m, s, b, spare); },
      [&](batch_result& r) {
        t.add(r);  // its bad lines named, then its other messages, then the input's summary
        if (!r.err.empty()) std::fwrite(r.err.data(), 1, r.err.size(), stderr);
        t.end_input(s, r);
        if (!r.out.empty() && !write_failed) {
          langsift::cli::write_stdout(r.out);
          if (langsift::cli::stdout_failed(kProgram)) write_failed = true;
        }
        spare.put(std::move(r.out));
      });
  const bool named = files.size() > 1 || files[0] != "-";
  for (const std::string& path : files) {
    if (write_failed) break;
    if (s.lines || s.jsonl) {
      if (!submit_lines(s, path, pool, spare, shown, raw_done, write_failed)) break;
      continue;
    }
    batch b;
    b.path = &path;
    b.whole = b.last = true;
    b.named = named;
    pool.submit(std::move(b));
    struct stat st {};
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) raw_done += static_cast<std::uint64_t>(st.st_size);
    shown.update(raw_done);
  }
  pool.finish();
  shown.finish();
  if (write_failed || langsift::cli::stdout_failed(kProgram, true)) return 1;
  return t.rc ? t.rc : t.malformed ? 3 : 0;
}

/// The settings that follow from the options together (--jsonl, --spans, --keep, the code lists,
/// the filter), or a usage error: -1 to go on, else the exit status (2).
int combine_options(detect_args& a) {
  settings& s = a.s;
  if (s.jsonl) {  // JSON lines in, JSON lines out
    if (s.lines) return fail(kProgram, "--lines and --jsonl: one or the other (--jsonl reads a document per line too)") + 1;
    if (a.format_given && s.format != out_format::jsonl)
      return fail(kProgram, "--jsonl writes JSON lines: --format code or tsv cannot go with it") + 1;
    s.format = out_format::jsonl;
  }
  s.keep_codes = langsift::parse_code_list(a.keep_arg);  // either ISO form, any case (as everywhere)
  s.keep_views.assign(s.keep_codes.begin(), s.keep_codes.end());
  s.spans = a.spans_given || !s.keep_codes.empty();
  if (a.spans_given) {
    if (a.format_given && s.format != out_format::jsonl)
      return fail(kProgram, "--spans writes JSON: it needs --format jsonl (the default with --spans)") + 1;
    s.format = out_format::jsonl;
  }
  if (!s.keep_codes.empty() && s.kept_only)
    return fail(kProgram, "--keep prints the kept text, --kept-only the kept documents: use one") + 1;
  return -1;
}

/// Gives the languages of one --language-prior value (CODES=LOGODDS, checked by split_prior) their
/// prior in `m`; false with `error` set when a code is not one of the model's or a file cannot be read.
bool set_priors(langsift::model& m, const std::string& spec, std::string& error) {
  const std::string what = "--language-prior " + spec + ": ";
  std::string codes;
  float log_odds = 0;
  if (!split_prior(spec, &codes, &log_odds)) {
    error = what + "expected CODES=LOGODDS, the log-odds in -50..0";
    return false;
  }
  if (codes[0] == '@') {  // a file of codes, '#' starting a comment
    std::string text, why;
    if (!langsift::cli::read_file(codes.substr(1), text, why)) {
      error = what + why;
      return false;
    }
    codes.clear();
    for (std::size_t b = 0; b < text.size();) {
      const std::size_t e = std::min(text.find('\n', b), text.size());
      codes.append(text, b, std::min(text.find('#', b), e) - b).push_back('\n');
      b = e + 1;
    }
  }
  const std::vector<std::string> list = langsift::parse_code_list(codes);  // as --only reads them
  for (const std::string& code : list) {
    const int l = m.find_language(code);
    if (l < 0) {
      error = what + code + " is not a language of the model (--list-languages)";
      return false;
    }
    if (m.set_language_prior(static_cast<std::size_t>(l), log_odds) != langsift::status::ok) {
      error = what + "cannot set the prior";
      return false;
    }
  }
  if (list.empty()) error = what + "no language code";
  return !list.empty();
}

/// The model of --model (with the groups of --close-groups and the priors of --language-prior)
/// into `m` (`loaded`, `with_groups`: where a model read from a file lives), or false after the
/// error.
bool load_model(const detect_args& a, const langsift::model*& m, langsift::model& loaded, langsift::model& with_groups) {
  std::string error;
  if (langsift::cli::resolve_model(a.model_path, m, loaded, error, a.s.max_model_bytes) != langsift::status::ok) {
    fail(kProgram, error);
    return false;
  }
  if (!a.priors.empty()) {
    with_groups = *m;
    m = &with_groups;
    for (const std::string& spec : a.priors)
      if (!set_priors(with_groups, spec, error)) {
        fail(kProgram, error);
        return false;
      }
  }
  if (a.close_path.empty()) return true;
  langsift::close_groups g;
  if (langsift::close_groups::load_file(a.close_path, g, &error) != langsift::status::ok) {
    fail(kProgram, error.empty() ? a.close_path + ": cannot read" : error);
    return false;
  }
  if (m != &with_groups) with_groups = *m;
  if (with_groups.set_close_groups(std::make_shared<const langsift::close_groups>(std::move(g)), &error) != langsift::status::ok) {
    fail(kProgram, a.close_path + ": " + error);
    return false;
  }
  m = &with_groups;
  return true;
}

/// --tsv --header: the columns of the records run_inputs() writes (a file column when files are
/// read, encoding columns for pages, not for --lines, and keep with a filter).
void print_header(const settings& s, const std::vector<std::string>& files) {
  const bool named = !s.lines && (files.size() > 1 || files[0] != "-");
  std::string h = named ? "file\t" : "";
  h += "language\tlanguages\ttext_bytes\treliable\tshort\tscore";
  if (s.probabilities) h += "\tprobabilities";
  if (!s.lines) h += "\tencoding\tencoding_source";
  if (s.filtering) h += "\tkeep";
  put(h + "\tstatus\n");
}

}  // namespace

int langsift::cli::cmd_detect(int argc, char** argv) {
  detect_args a;
  settings& s = a.s;
  std::vector<std::string> files;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, files); rc >= 0) return rc;
  if (files.empty()) files.emplace_back("-");
  if (const int rc = combine_options(a); rc >= 0) return rc;

  std::vector<std::string> only_codes = langsift::parse_code_list(a.only_arg);
  std::vector<std::string> label_codes = langsift::parse_code_list(a.labels_arg);
  // --hint takes language tags (de-AT, as Content-Language has them): their primary subtag, in
  // either ISO form, must name a language of the model.
  std::vector<std::string> hint_tags = langsift::parse_code_list(s.hint), hint_codes;
  for (const std::string& t : hint_tags) hint_codes.push_back(t.substr(0, t.find_first_of("-_")));
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

  langsift::model loaded, with_groups;
  const langsift::model* m = nullptr;
  if (!load_model(a, m, loaded, with_groups)) return 1;
  if (a.list_languages) {  // the model's codes, one per line, as --codes writes them
    std::string out;
    for (std::size_t l = 0; l < m->language_count(); ++l)
      out += langsift::code_in_style(m->language_code(l), s.codes) + '\n';
    put(out);
    return 0;
  }
  // A code that the model lacks is a usage error that names every such code: a typo would
  // otherwise restrict detection to fewer languages than asked for (--only), drop every document
  // (--label) or do nothing (--hint).
  if (!check_language_codes(kProgram, "--only", *m, only_codes, a.model_path) ||
      !check_language_codes(kProgram, "--label", *m, label_codes, a.model_path) ||
      !check_language_codes(kProgram, "--hint", *m, hint_codes, a.model_path) ||
      !check_language_codes(kProgram, "--keep", *m, s.keep_codes, a.model_path))
    return 2;
  if (s.header && s.format == out_format::tsv && !s.kept_only && s.keep_codes.empty()) print_header(s, files);
  return run_inputs(*m, s, files);
}
