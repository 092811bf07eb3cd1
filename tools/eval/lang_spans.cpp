// `langsift-eval spans DIR` — documents of two and three languages built from sentences, with the
// true language of every byte known; the detectors' spans (`"spans": [[begin, end, "code"], ...]`
// per output line) are scored by the share of bytes given the right language and by how far their
// boundaries fall from the true ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"

namespace fs = std::filesystem;
using namespace langsift::eval;

namespace {

constexpr const char* kProgram = "langsift-eval spans";

struct part {
  std::size_t lang;                                        // index into the languages
  std::vector<std::pair<std::size_t, std::size_t>> sents;  // byte ranges of its sentences
};

struct document {
  std::size_t setting = 0;
  std::string text;
  std::vector<part> parts;
};

struct setting {
  unsigned languages;
  std::size_t part_bytes;
  std::size_t docs = 0, part_count = 0, part_total = 0;
};

struct span {
  std::size_t begin, end;
  std::string code;
};

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Reads the "spans" array of a JSON line: [[begin, end, "code"], ...]. The codes are plain
/// language codes (no escapes).
bool parse_spans(std::string_view line, std::vector<span>& out, std::string& error) {
  out.clear();
  const std::size_t k = line.find("\"spans\"");
  if (k == std::string_view::npos) {
    error = "no \"spans\" field";
    return false;
  }
  std::size_t i = k + 7;
  auto ws = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  auto expect = [&](char c) {
    ws();
    if (i < line.size() && line[i] == c) {
      ++i;
      return true;
    }
    error = std::string("expected '") + c + "' at column " + std::to_string(i + 1) + " in the spans";
    return false;
  };
  auto number = [&](std::size_t& v) {
    ws();
    const std::size_t start = i;
    v = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') v = v * 10 + static_cast<std::size_t>(line[i++] - '0');
    if (i == start || i - start > 15) {
      error = "a span offset is not a number (column " + std::to_string(start + 1) + ")";
      return false;
    }
    return true;
  };
  if (!expect(':') || !expect('[')) return false;
  ws();
  if (i < line.size() && line[i] == ']') return true;
  for (;;) {
    span s;
    if (!expect('[') || !number(s.begin) || !expect(',') || !number(s.end) || !expect(',') || !expect('"')) return false;
    const std::size_t q = line.find('"', i);
    if (q == std::string_view::npos) {
      error = "an unterminated code in the spans";
      return false;
    }
    s.code = std::string(line.substr(i, q - i));
    i = q + 1;
    if (!expect(']')) return false;
    out.push_back(std::move(s));
    ws();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    return expect(']');
  }
}

struct stats {
  double bytes = 0, right = 0;
  std::size_t docs = 0, boundaries = 0, within = 0, extra = 0;
  double boundary_error = 0;
};

std::string fmt(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// A comma-separated list of numbers, each lo..hi, into `out`; false when it is not one (or empty).
bool parse_list(const std::string& value, std::vector<std::size_t>& out, std::size_t lo, std::size_t hi) {
  out.clear();
  for (const std::string& item : split_list(value)) {
    auto n = langsift::cli::parse_size(item);
    if (!n || *n < lo || *n > hi) return false;
    out.push_back(static_cast<std::size_t>(*n));
  }
  return !out.empty();
}

/// What the command line gives `langsift-eval spans`.
struct spans_args : mode_args {
  spans_args() : mode_args("detect --lines --spans") {}
  std::string langs_arg;
  std::size_t docs_per = 200;
  std::uint64_t seed = 1;
  std::vector<std::size_t> counts = {1, 2, 3}, part_bytes = {50, 100, 200, 400};
};

using option_row = langsift::cli::option<spans_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift-eval spans`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval spans [options] DIR\n"
                 "\n"
                 "Documents of several languages. DIR holds <code>.txt files of sentences (e.g.\n"
                 "lingua-dev/sentences). A document has one part per language (1, 2 or 3 distinct languages,\n"
                 "drawn at random from DIR's, or from --langs; one-language documents measure spans that\n"
                 "should not be there); a part of P bytes is consecutive sentences of\n"
                 "its language, those longer than 2P skipped, joined until it has at least P bytes. Sentences\n"
                 "and parts are joined by one space; a document is one input line. The true language of\n"
                 "every byte of a sentence is its file's (the joining spaces are not scored).\n"
                 "\n"
                 "Each detector prints one JSON object per line holding \"spans\": [[begin, end, \"code\"],\n"
                 "...] (byte offsets into the line, in order, not overlapping): `langsift detect --lines\n"
                 "--spans` and `langsift-peer-cld2 --spans` do. Per detector and setting:\n"
                 "  right     share of the sentence bytes inside a span of their language (codes compared\n"
                 "            on their language subtag; bytes in no span, or in an `und` one, are wrong)\n"
                 "  boundary  mean distance in bytes from each true boundary (the first byte of a part\n"
                 "            after the first) to the nearest span boundary (a span's begin after the\n"
                 "            first's; the document's ends count, so a missed boundary costs about a part)\n"
                 "  within 10 share of true boundaries with a span boundary at most 10 bytes away\n"
                 "  extra     span boundaries per document more than 10 bytes from every true one\n"
                 "\n"
                 "options:\n"});
    t.push_back({value_kind::text, "--languages", nullptr, "LIST",
                 "languages per document, 1 to 3 (default 1,2,3); the summary rows\n"
                 "are over the documents of two languages or more",
                 [](spans_args& a, const option_value& v) { return parse_list(std::string(v.text), a.counts, 1, 3); }, 0, 0,
                 nullptr, "1 to 3, e.g. 1,2,3"});
    t.push_back({value_kind::text, "--part-bytes", nullptr, "LIST", "part lengths P in bytes (default 50,100,200,400)",
                 [](spans_args& a, const option_value& v) {
                   return parse_list(std::string(v.text), a.part_bytes, 1, 1u << 20);
                 },
                 0, 0, nullptr, "byte counts, e.g. 50,100,200,400"});
    t.push_back({value_kind::size, "--docs", nullptr, "K",
                 "documents per language count and part length (default 200)",
                 [](spans_args& a, const option_value& v) { a.docs_per = static_cast<std::size_t>(v.size); return true; },
                 1, 1000000});
    t.push_back({value_kind::text, "--langs", nullptr, "A,B,...", "draw the languages from these (default: every file of DIR)",
                 [](spans_args& a, const option_value& v) {
                   a.langs_arg = v.text;
                   return !code_list(a.langs_arg).empty();
                 },
                 0, 0, nullptr, "codes"});
    t.push_back({value_kind::size, "--seed", nullptr, "S",
                 "seed of the draws (default 1); documents depend only on it and DIR",
                 [](spans_args& a, const option_value& v) { a.seed = v.size; return true; }, 0, 0, nullptr, "a number"});
    add_detector_rows(t);
    t.push_back(strict_row<spans_args>());
    t.push_back(markdown_row<spans_args>());
    t.push_back(tsv_row<spans_args>("one row per setting and detector: detector, languages, part_bytes,\n"
                                    "documents, mean_part_bytes, right_pct, boundary_error,\n"
                                    "within10_pct, extra_per_doc"));
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, kModeHelpLine});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), kModeUsageColumn); }

/// The languages to draw from (--langs, else every file of DIR; sorted, once each) and their
/// sentences, or false after the error.
bool read_languages(const spans_args& a, std::vector<std::string>& langs, std::vector<std::vector<std::string>>& sentences) {
  std::string error;
  std::vector<language_file> files;
  if (!list_language_files(a.dir, files, error)) return langsift::cli::fail(kProgram, error) == 0;
  if (a.langs_arg.empty()) {
    for (const language_file& f : files) langs.push_back(f.code);
  } else {
    langs = code_list(a.langs_arg);
  }
  std::sort(langs.begin(), langs.end());
  langs.erase(std::unique(langs.begin(), langs.end()), langs.end());
  const std::size_t most = *std::max_element(a.counts.begin(), a.counts.end());
  if (langs.size() < most)
    return langsift::cli::fail(kProgram, "documents of " + std::to_string(most) + " languages need as many languages; " +
                                             a.dir + " has " + std::to_string(langs.size())) == 0;
  sentences.resize(langs.size());
  for (std::size_t l = 0; l < langs.size(); ++l) {
    const fs::path p = fs::path(a.dir) / (langs[l] + ".txt");
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return langsift::cli::fail(kProgram, p.string() + ": no such file") == 0;
    if (!read_samples(p, 0, sentences[l], error)) return langsift::cli::fail(kProgram, error) == 0;
    if (sentences[l].empty()) return langsift::cli::fail(kProgram, p.string() + ": no samples (empty file)") == 0;
  }
  return true;
}

/// The part of language `l` of at least P bytes (its sentences from `next`, those longer than 2P
/// skipped) appended to `doc`; false when the language has no sentence short enough.
bool append_part(const std::vector<std::string>& sl, std::size_t l, std::size_t P, std::size_t& next, document& doc,
                 setting& st) {
  part pt{l, {}};
  std::size_t bytes = 0, tried = 0;
  while (bytes < P) {
    if (tried++ > sl.size()) break;  // every sentence longer than 2P
    const std::string& s = sl[next % sl.size()];
    ++next;
    if (s.size() > 2 * P) continue;
    if (!doc.text.empty()) doc.text += ' ';
    pt.sents.push_back({doc.text.size(), doc.text.size() + s.size()});
    doc.text += s;
    bytes += s.size();
    tried = 0;
  }
  if (bytes < P) return false;
  st.part_total += bytes;
  ++st.part_count;
  doc.parts.push_back(std::move(pt));
  return true;
}

/// The documents: per setting (languages, part length), --docs documents; each language's
/// sentences are read in order from the start for each setting (wrapping around).
void build_span_documents(const spans_args& a, const std::vector<std::vector<std::string>>& sentences,
                          std::vector<setting>& settings, std::vector<document>& docs) {
  std::uint64_t state = a.seed;
  for (std::size_t k : a.counts)
    for (std::size_t P : a.part_bytes) {
      settings.push_back({static_cast<unsigned>(k), P});
      setting& st = settings.back();
      std::vector<std::size_t> next(sentences.size(), 0);
      for (std::size_t d = 0; d < a.docs_per; ++d) {
        document doc;
        doc.setting = settings.size() - 1;
        std::vector<std::size_t> chosen;
        while (chosen.size() < k) {
          const std::size_t l = static_cast<std::size_t>(splitmix64(state) % sentences.size());
          if (std::find(chosen.begin(), chosen.end(), l) == chosen.end()) chosen.push_back(l);
        }
        bool ok = true;
        for (std::size_t l : chosen) ok = ok && append_part(sentences[l], l, P, next[l], doc, st);
        if (!ok) continue;  // a language without sentences short enough: no document
        ++st.docs;
        docs.push_back(std::move(doc));
      }
    }
}

/// One document's spans scored into `s`: the bytes right (each sentence against the spans over
/// it) and the boundaries (the true ones, the first byte of every part after the first, against
/// the spans' begins after the first, the document's ends included).
void score_document(const document& d, const std::vector<span>& spans, const std::vector<std::string>& langs, bool strict,
                    stats& s) {
  ++s.docs;
  for (const part& p : d.parts)
    for (const auto& [b, e] : p.sents) {
      s.bytes += static_cast<double>(e - b);
      for (const span& x : spans) {
        if (x.end <= b) continue;
        if (x.begin >= e) break;
        if (!is_no_answer(x.code) && codes_match(x.code, langs[p.lang], strict))
          s.right += static_cast<double>(std::min(e, x.end) - std::max(b, x.begin));
      }
    }
  std::vector<std::size_t> predicted = {0, d.text.size()};
  for (std::size_t k = 1; k < spans.size(); ++k) predicted.push_back(spans[k].begin);
  std::vector<std::size_t> truth;
  for (std::size_t k = 1; k < d.parts.size(); ++k) truth.push_back(d.parts[k].sents.front().first);
  for (std::size_t t : truth) {
    std::size_t best = SIZE_MAX;
    for (std::size_t p : predicted) best = std::min(best, p > t ? p - t : t - p);
    s.boundary_error += static_cast<double>(best);
    ++s.boundaries;
    s.within += best <= 10;
  }
  for (std::size_t k = 2; k < predicted.size(); ++k) {
    bool near = false;
    for (std::size_t t : truth) near = near || (predicted[k] > t ? predicted[k] - t : t - predicted[k]) <= 10;
    s.extra += !near;
  }
}

/// Scores one detector's output lines (spans checked: in order, inside the document) into
/// `results` (one per setting). False after the error.
bool score_spans(const spans_args& a, const detector& det, const std::vector<document>& docs,
                 const std::vector<std::string>& langs, const command_run& run, std::vector<stats>& results) {
  std::vector<span> spans;
  std::string error;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const document& d = docs[i];
    const std::string where = "detector '" + det.name + "', output line " + std::to_string(i + 1) + ": ";
    if (!parse_spans(run.lines[i], spans, error)) return langsift::cli::fail(kProgram, where + error) == 0;
    for (std::size_t k = 0; k < spans.size(); ++k)
      if (spans[k].begin > spans[k].end || spans[k].end > d.text.size() || (k && spans[k].begin < spans[k - 1].end))
        return langsift::cli::fail(kProgram, where + "span " + std::to_string(k + 1) + " [" +
                                                 std::to_string(spans[k].begin) + ", " + std::to_string(spans[k].end) +
                                                 ") is out of order or outside the document of " +
                                                 std::to_string(d.text.size()) + " bytes") == 0;
    score_document(d, spans, langs, a.strict, results[d.setting]);
  }
  return true;
}

/// The reports: the markdown table (a row per setting, then the sums over two languages or more)
/// into `md`, the TSV rows into `t`.
void spans_reports(const spans_args& a, std::size_t language_count, const std::vector<setting>& settings,
                   const std::vector<std::vector<stats>>& results, std::string& md, std::string& t) {
  auto pct_of = [](double x, double y) { return y > 0 ? fmt(100.0 * x / y, 1) : std::string("—"); };
  md = "# Language spans\n\n";
  md += "- data: `" + a.dir + "`; " + std::to_string(language_count) + " languages to draw from (seed " +
        std::to_string(a.seed) + "), " + std::to_string(a.docs_per) + " documents per setting\n";
  md += "- right: share of sentence bytes in a span of their language; boundary: mean distance (bytes) from a true "
        "boundary to the nearest span boundary or document end; ≤10: share of true boundaries with a span boundary at "
        "most 10 bytes away; extra: span boundaries per document more than 10 bytes from every true one\n";
  md += detectors_markdown(a.detectors);
  md += "\n| languages | part bytes | documents | mean part |";
  for (const detector& d : a.detectors) md += " " + md_cell(d.name) + " right | boundary | ≤10 | extra |";
  md += "\n| ---: | ---: | ---: | ---: |";
  for (std::size_t d = 0; d < a.detectors.size(); ++d) md += " ---: | ---: | ---: | ---: |";
  md += "\n";
  t = "detector\tlanguages\tpart_bytes\tdocuments\tmean_part_bytes\tright_pct\tboundary_error\twithin10_pct\textra_per_doc\n";
  auto cells = [&](const stats& s) {
    return " " + pct_of(s.right, s.bytes) + " | " +
           (s.boundaries ? fmt(s.boundary_error / static_cast<double>(s.boundaries), 1) : std::string("—")) + " | " +
           pct_of(static_cast<double>(s.within), static_cast<double>(s.boundaries)) + " | " +
           (s.docs ? fmt(static_cast<double>(s.extra) / static_cast<double>(s.docs), 2) : std::string("—")) + " |";
  };
  for (std::size_t si = 0; si < settings.size(); ++si) {
    const setting& st = settings[si];
    const double mean_part = st.part_count ? static_cast<double>(st.part_total) / static_cast<double>(st.part_count) : 0;
    md += "| " + std::to_string(st.languages) + " | " + std::to_string(st.part_bytes) + " | " + thousands(st.docs) + " | " +
          fmt(mean_part, 0) + " |";
    for (std::size_t di = 0; di < a.detectors.size(); ++di) {
      const stats& s = results[di][si];
      md += cells(s);
      t += a.detectors[di].name + "\t" + std::to_string(st.languages) + "\t" + std::to_string(st.part_bytes) + "\t" +
           std::to_string(s.docs) + "\t" + fmt(mean_part, 1) + "\t" + (s.bytes > 0 ? fmt(100.0 * s.right / s.bytes, 2) : "") +
           "\t" + (s.boundaries ? fmt(s.boundary_error / static_cast<double>(s.boundaries), 2) : "") + "\t" +
           (s.boundaries ? fmt(100.0 * static_cast<double>(s.within) / static_cast<double>(s.boundaries), 2) : "") +
           "\t" + (s.docs ? fmt(static_cast<double>(s.extra) / static_cast<double>(s.docs), 3) : "") + "\n";
    }
    md += "\n";
  }
  // The settings of two languages or more with parts of at least 200 bytes, and all of them.
  for (const bool long_only : {true, false}) {
    md += std::string("| ") + (long_only ? "**2+, parts ≥ 200**" : "**2+, all**") + " | | | |";
    for (std::size_t di = 0; di < a.detectors.size(); ++di) {
      stats sum;
      for (std::size_t si = 0; si < settings.size(); ++si) {
        if ((long_only && settings[si].part_bytes < 200) || settings[si].languages < 2) continue;
        const stats& s = results[di][si];
        sum.bytes += s.bytes;
        sum.right += s.right;
        sum.docs += s.docs;
        sum.boundaries += s.boundaries;
        sum.within += s.within;
        sum.extra += s.extra;
        sum.boundary_error += s.boundary_error;
      }
      md += cells(sum);
    }
    md += "\n";
  }
  md += "\n";
}

}  // namespace

int langsift::cli::eval_spans(int argc, char** argv) {
  spans_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (const int rc = finish_mode_args(kProgram, a, positional); rc >= 0) return rc;
  std::vector<std::string> langs;
  std::vector<std::vector<std::string>> sentences;
  if (!read_languages(a, langs, sentences)) return 1;
  std::vector<setting> settings;
  std::vector<document> docs;
  build_span_documents(a, sentences, settings, docs);
  std::vector<std::string> lines;
  lines.reserve(docs.size());
  for (const document& d : docs) lines.push_back(d.text);
  std::vector<std::vector<stats>> results(a.detectors.size(), std::vector<stats>(settings.size()));
  for (std::size_t di = 0; di < a.detectors.size(); ++di) {
    command_run run;
    if (!run_detector(kProgram, a.detectors[di], lines, "the documents", run)) return 1;
    if (!score_spans(a, a.detectors[di], docs, langs, run, results[di])) return 1;
  }
  std::string md, t;
  spans_reports(a, langs.size(), settings, results, md, t);
  return write_reports(kProgram, a, t, md);
}
