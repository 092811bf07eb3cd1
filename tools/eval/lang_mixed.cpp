// `langsift-eval mixed DIR` — two-language documents built from sentences of languages A and B
// with known byte shares; the detectors' reported percents (TSV output: second field
// `code:percent:bytes,...`) are compared with the true shares.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"

namespace fs = std::filesystem;
using namespace langsift::eval;

namespace {

constexpr const char* kProgram = "langsift-eval mixed";
constexpr const char* kDefaultPairs = "en:fr,de:en,es:pt,fr:it,nl:de,ru:uk,hr:sr,da:nb,ja:en,zh:en,ar:fr,hi:en";

enum class layout { blocks, interleaved };
const char* layout_name(layout l) { return l == layout::blocks ? "blocks" : "interleaved"; }

/// What the command line gives `langsift-eval mixed`.
struct mixed_args : mode_args {
  mixed_args() : mode_args("detect --lines --format tsv") {}
  std::string pairs_text = kDefaultPairs;
  std::size_t bytes = 1000, docs_per = 12, random_k = 0, paragraph = 150;
  std::uint64_t seed = 1;
  std::vector<unsigned> shares = {25, 50, 75};
  std::vector<layout> layouts = {layout::blocks, layout::interleaved};
  bool have_pairs = false;
};

using option_row = langsift::cli::option<mixed_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// A row of a positive number (`field` of mixed_args).
template <std::size_t mixed_args::*field>
option_row positive_row(const char* name, const char* metavar, const char* help) {
  return {value_kind::size, name, nullptr, metavar, help,
          [](mixed_args& a, const option_value& v) {
            a.*field = static_cast<std::size_t>(v.size);
            return true;
          },
          1, 0, nullptr, "a positive number"};
}

/// The options of `langsift-eval mixed` that shape the documents.
void add_document_options(std::vector<option_row>& t) {
  t.push_back({value_kind::text, "--pairs", nullptr, "A:B,...", std::string("language pairs (default ") + kDefaultPairs + ")",
               [](mixed_args& a, const option_value& v) {
                 a.pairs_text = v.text;
                 return a.have_pairs = true;
               },
               0, 0, nullptr, "A:B,..."});
  t.push_back(positive_row<&mixed_args::random_k>("--random", "K",
                                                  "K random pairs of the languages in DIR instead (see --seed)"));
  t.push_back({value_kind::size, "--seed", nullptr, "S", "seed of --random (default 1); the pairs depend only on it and DIR",
               [](mixed_args& a, const option_value& v) { a.seed = v.size; return true; }, 0, 0, nullptr, "a number"});
  t.push_back(positive_row<&mixed_args::bytes>("--bytes", "N", "document size in bytes (default 1000)"));
  t.push_back({value_kind::text, "--shares", nullptr, "P,...",
               "target shares of A in percent, used in turn (default 25,50,75)",
               [](mixed_args& a, const option_value& v) {
                 a.shares.clear();
                 for (const std::string& item : langsift::eval::split_list(v.text)) {
                   const auto n = langsift::cli::parse_size(item);
                   if (!n || *n == 0 || *n >= 100) return false;
                   a.shares.push_back(static_cast<unsigned>(*n));
                 }
                 return !a.shares.empty();
               },
               0, 0, nullptr, "percents between 1 and 99, e.g. 25,50,75"});
  t.push_back({value_kind::choice, "--layout", nullptr, "L", "blocks, interleaved or both (default both)",
               [](mixed_args& a, const option_value& v) {
                 if (v.choice == 0) a.layouts = {layout::blocks};
                 else if (v.choice == 1) a.layouts = {layout::interleaved};
                 else a.layouts = {layout::blocks, layout::interleaved};
                 return true;
               },
               0, 0, "blocks|interleaved|both"});
  t.push_back(positive_row<&mixed_args::paragraph>(
      "--paragraph", "N", "minimum bytes of one paragraph in the interleaved layout (default 150)"));
  t.push_back(positive_row<&mixed_args::docs_per>("--docs", "K", "documents per pair and layout (default 12)"));
}

/// The options of `langsift-eval mixed`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval mixed [options] DIR\n"
                 "\n"
                 "Two-language documents. DIR holds <code>.txt files of sentences (e.g. lingua-dev/sentences).\n"
                 "For each pair A:B, documents of about N bytes are built from consecutive sentences of A and B\n"
                 "(each used once) so that A has a target share of the text bytes (25, 50, 75 % in turn), in\n"
                 "two layouts: `blocks` (A's sentences, then B's) and `interleaved` (paragraphs of at least\n"
                 "--paragraph bytes alternate, the language behind its target share going next). Sentences\n"
                 "are joined by spaces; a document is one input line. The true share of A is\n"
                 "bytes(A sentences) / (bytes(A sentences) + bytes(B sentences)).\n"
                 "\n"
                 "Each detector must print, per line, TAB-separated fields whose second is the languages found:\n"
                 "`en:62:1234,fr:38:760` (code:percent[:bytes], up to three) — `langsift detect --lines\n"
                 "--format tsv` and `langsift-peer-cld2 --tsv` do. Per document, error = (|reported%(A) - true\n"
                 "%(A)| + |reported%(B) - true%(B)|) / 2 in percentage points (a language not reported counts\n"
                 "0 %); reported: mean error per pair and overall (target <= 5), how often both A and B are\n"
                 "among the reported languages, and how often the first language is the majority one (documents\n"
                 "whose shares are not 50/50).\n"
                 "\n"
                 "options:\n"});
    add_document_options(t);
    add_detector_rows(t);
    t.push_back(strict_row<mixed_args>());
    t.push_back(markdown_row<mixed_args>());
    t.push_back(tsv_row<mixed_args>("write one row per document and detector: detector, pair, layout,\n"
                                    "true_a, true_b, reported_a, reported_b, error, both_in_top3, langs"));
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, kModeHelpLine});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), kModeUsageColumn); }

struct document {
  std::size_t pair = 0;
  layout lay = layout::blocks;
  std::string text;
  double true_a = 0, true_b = 0;  // percent of the text bytes
};

// Sentences of one language, consumed in order.
struct cursor {
  const std::vector<std::string>* sentences = nullptr;
  std::size_t next = 0;
  bool done() const { return next >= sentences->size(); }
  const std::string& take() { return (*sentences)[next++]; }
};

/// Builds one document with A at `share` percent of about `bytes` bytes; false when a language
/// has run out of sentences.
bool build_document(cursor& a, cursor& b, std::size_t bytes, std::size_t paragraph, unsigned share, layout lay,
                    document& doc) {
  std::size_t ba = 0, bb = 0;
  std::vector<const std::string*> parts;
  if (lay == layout::blocks) {
    std::size_t need_a = std::max<std::size_t>(1, bytes * share / 100), need_b = std::max<std::size_t>(1, bytes - need_a);
    std::vector<const std::string*> pa, pb;
    while (ba < need_a) {
      if (a.done()) return false;
      pa.push_back(&a.take());
      ba += pa.back()->size();
    }
    while (bb < need_b) {
      if (b.done()) return false;
      pb.push_back(&b.take());
      bb += pb.back()->size();
    }
    parts = pa;
    parts.insert(parts.end(), pb.begin(), pb.end());
  } else {
    // Paragraphs (consecutive sentences of one language, at least `paragraph` bytes) alternate:
    // the language further behind its target share goes next; A first.
    while (ba + bb < bytes || ba == 0 || bb == 0) {
      bool take_a = bb == 0 ? ba == 0 : ba == 0 || ba * (100 - share) <= bb * share;
      cursor& c = take_a ? a : b;
      std::size_t& counted = take_a ? ba : bb;
      std::size_t para = 0;
      while (para < paragraph) {
        if (c.done()) return false;
        parts.push_back(&c.take());
        para += parts.back()->size();
      }
      counted += para;
    }
  }
  doc.text.clear();
  for (const std::string* p : parts) {
    if (!doc.text.empty()) doc.text += ' ';
    doc.text += *p;
  }
  doc.lay = lay;
  doc.true_a = 100.0 * static_cast<double>(ba) / static_cast<double>(ba + bb);
  doc.true_b = 100.0 - doc.true_a;
  return true;
}

struct reported_lang {
  std::string code;
  double percent = 0;
};

/// Parses the second TSV field, "en:62:1234,fr:38:760" ("", "und" or "-" = none).
bool parse_langs(std::string_view field, std::vector<reported_lang>& out, std::string& error) {
  out.clear();
  if (field.empty() || field == "-" || is_no_answer(field)) return true;
  for (const std::string& item : langsift::eval::split_list(field)) {
    std::size_t c1 = item.find(':');
    if (c1 == std::string::npos || c1 == 0) {
      error = "'" + item + "' is not code:percent[:bytes]";
      return false;
    }
    std::size_t c2 = item.find(':', c1 + 1);
    std::string number = item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
    char* end = nullptr;
    double p = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !(p >= 0 && p <= 100)) {
      error = "'" + item + "': percent must be a number 0-100";
      return false;
    }
    out.push_back({item.substr(0, c1), p});
  }
  return true;
}

struct stats {
  std::size_t docs = 0, both = 0, majority_docs = 0, majority_first = 0;
  double error_sum = 0;
  double mae() const { return docs ? error_sum / static_cast<double>(docs) : 0.0; }
};

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string fmt1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}


int fail_usage(const std::string& message) { return langsift::cli::fail(kProgram, message) + 1; }

using pair_list = std::vector<std::pair<std::string, std::string>>;

/// The pairs: --random K pairs of DIR's languages (by --seed), else those of --pairs. -1 to go
/// on, else the exit status (reported).
int make_pairs(const mixed_args& a, pair_list& pairs) {
  std::string error;
  std::vector<language_file> files;
  if (!list_language_files(a.dir, files, error)) return langsift::cli::fail(kProgram, error);
  if (files.empty()) return langsift::cli::fail(kProgram, a.dir + ": no <code>.txt files");
  if (a.random_k) {
    if (files.size() < 2) return langsift::cli::fail(kProgram, a.dir + ": --random needs at least two languages");
    std::size_t possible = files.size() * (files.size() - 1) / 2;
    std::set<std::pair<std::size_t, std::size_t>> seen;
    std::uint64_t state = a.seed;
    while (pairs.size() < std::min(a.random_k, possible)) {
      std::size_t x = static_cast<std::size_t>(splitmix64(state) % files.size());
      std::size_t y = static_cast<std::size_t>(splitmix64(state) % files.size());
      if (x == y || !seen.insert({std::min(x, y), std::max(x, y)}).second) continue;
      pairs.push_back({files[x].code, files[y].code});
    }
    return -1;
  }
  for (const std::string& item : langsift::eval::split_list(a.pairs_text)) {
    std::size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size() ||
        item.find(':', colon + 1) != std::string::npos)
      return fail_usage("--pairs: '" + item + "' is not A:B");
    std::string x = item.substr(0, colon), y = item.substr(colon + 1);
    if (normalize_code(x, a.strict) == normalize_code(y, a.strict))
      return fail_usage("--pairs: '" + item + "' pairs a language with itself");
    pairs.push_back({x, y});
  }
  if (pairs.empty()) return fail_usage("--pairs needs A:B,...");
  return -1;
}

/// The sentences of the languages of the pairs (DIR/<code>.txt), or false after the error.
bool read_pair_sentences(const mixed_args& a, const pair_list& pairs,
                         std::map<std::string, std::vector<std::string>>& sentences) {
  std::string error;
  for (const auto& [x, y] : pairs) {
    for (const std::string& code : {x, y}) {
      if (sentences.count(code)) continue;
      fs::path p = fs::path(a.dir) / (code + ".txt");
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) return langsift::cli::fail(kProgram, p.string() + ": no such file") == 0;
      std::vector<std::string> s;
      if (!read_samples(p, 0, s, error)) return langsift::cli::fail(kProgram, error) == 0;
      if (s.empty()) return langsift::cli::fail(kProgram, p.string() + ": no samples (empty file)") == 0;
      sentences[code] = std::move(s);
    }
  }
  return true;
}

/// The documents: per pair, per layout, --docs documents cycling through the shares; each pair
/// starts at the first sentence of both languages, and layouts continue where the last stopped.
/// False after the error (a pair without enough sentences for one document).
bool build_mixed_documents(const mixed_args& a, const pair_list& pairs,
                           std::map<std::string, std::vector<std::string>>& sentences,
                           std::vector<document>& docs, std::vector<std::size_t>& docs_of_pair) {
  docs_of_pair.assign(pairs.size(), 0);
  for (std::size_t pi = 0; pi < pairs.size(); ++pi) {
    cursor ca{&sentences[pairs[pi].first]}, cb{&sentences[pairs[pi].second]};
    for (layout lay : a.layouts) {
      for (std::size_t k = 0; k < a.docs_per; ++k) {
        document d;
        d.pair = pi;
        if (!build_document(ca, cb, a.bytes, a.paragraph, a.shares[k % a.shares.size()], lay, d)) break;
        docs.push_back(std::move(d));
        ++docs_of_pair[pi];
      }
    }
    if (docs_of_pair[pi] == 0)
      return langsift::cli::fail(kProgram, pairs[pi].first + ":" + pairs[pi].second +
                                               ": not enough sentences for one document of " + std::to_string(a.bytes) +
                                               " bytes") == 0;
  }
  return true;
}

/// One detector's figures: per pair, overall and per layout.
struct det_stats {
  std::vector<stats> pair;
  stats all, by_layout[2];
};

/// Scores one detector's output lines against the documents into `r`, appending its TSV rows to
/// `t`. False after the error (a line without the languages field, or one that does not parse).
bool score_detector(const mixed_args& a, const detector& det, const pair_list& pairs, const std::vector<document>& docs,
                    const command_run& run, det_stats& r, std::string& t) {
  r.pair.resize(pairs.size());
  std::vector<reported_lang> reported;
  std::string error;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const document& d = docs[i];
    std::vector<std::string_view> fields = tab_fields(run.lines[i]);
    if (fields.size() < 2)
      return langsift::cli::fail(kProgram, "detector '" + det.name + "', output line " + std::to_string(i + 1) +
                                               ": no second TAB-separated field (the languages); mixed mode needs TSV "
                                               "output such as `langsift detect --lines --format tsv`") == 0;
    if (!parse_langs(fields[1], reported, error))
      return langsift::cli::fail(kProgram, "detector '" + det.name + "', output line " + std::to_string(i + 1) + ": " +
                                               error) == 0;
    const std::string& ca = pairs[d.pair].first;
    const std::string& cb = pairs[d.pair].second;
    double pa = 0, pb = 0;
    bool in_a = false, in_b = false;
    for (const reported_lang& x : reported) {
      if (codes_match(x.code, ca, a.strict)) pa += x.percent, in_a = true;
      else if (codes_match(x.code, cb, a.strict)) pb += x.percent, in_b = true;
    }
    double err = (std::fabs(pa - d.true_a) + std::fabs(pb - d.true_b)) / 2.0;
    bool both = in_a && in_b;
    bool has_majority = std::fabs(d.true_a - 50.0) >= 0.5;
    bool first_ok = false;
    if (has_majority && !reported.empty()) first_ok = codes_match(reported[0].code, d.true_a > 50.0 ? ca : cb, a.strict);
    for (stats* s : {&r.pair[d.pair], &r.all, &r.by_layout[d.lay == layout::blocks ? 0 : 1]}) {
      ++s->docs;
      s->error_sum += err;
      s->both += both;
      s->majority_docs += has_majority;
      s->majority_first += first_ok;
    }
    t += det.name + "\t" + ca + ":" + cb + "\t" + layout_name(d.lay) + "\t" + fmt1(d.true_a) + "\t" + fmt1(d.true_b) +
         "\t" + fmt1(pa) + "\t" + fmt1(pb) + "\t" + fmt1(err) + "\t" + (both ? "1" : "0") + "\t" + std::string(fields[1]) +
         "\n";
  }
  return true;
}

/// The markdown report: the settings, then error, both and first per pair, layout and overall.
std::string mixed_markdown(const mixed_args& a, const pair_list& pairs, const std::vector<std::size_t>& docs_of_pair,
                           std::size_t documents, const std::vector<det_stats>& results) {
  auto share = [](std::size_t part, std::size_t whole) {
    return whole ? pct(static_cast<double>(part) / static_cast<double>(whole), 0) + " %" : std::string("—");
  };
  std::string md = "# Two-language documents\n\n";
  md += "- data: `" + a.dir + "`; documents of about " + std::to_string(a.bytes) + " bytes, A's share of the bytes";
  for (std::size_t i = 0; i < a.shares.size(); ++i) md += (i ? ", " : " ") + std::to_string(a.shares[i]) + " %";
  md += " in turn; layouts:";
  for (layout l : a.layouts) md += std::string(" ") + layout_name(l);
  md += " (paragraphs of at least " + std::to_string(a.paragraph) + " bytes); " + std::to_string(a.docs_per) +
        " documents per pair and layout\n";
  md += "- error: (|reported % of A − true % of A| + |reported % of B − true % of B|) / 2, in points; "
        "both: A and B both among the reported languages; first: the first reported language is the "
        "majority one (documents not 50/50)\n";
  md += detectors_markdown(a.detectors);
  md += "\n| pair | documents |";
  for (const detector& d : a.detectors) md += " " + md_cell(d.name) + " error | both | first |";
  md += "\n| --- | ---: |";
  for (std::size_t d = 0; d < a.detectors.size(); ++d) md += " ---: | ---: | ---: |";
  md += "\n";
  auto row = [&](const std::string& label, std::size_t n, auto get) {
    md += "| " + label + " | " + thousands(n) + " |";
    for (const det_stats& r : results) {
      const stats& s = get(r);
      md += ' ';
      md += fmt1(s.mae());
      md += " | ";
      md += share(s.both, s.docs);
      md += " | ";
      md += share(s.majority_first, s.majority_docs);
      md += " |";
    }
    md += "\n";
  };
  for (std::size_t pi = 0; pi < pairs.size(); ++pi)
    row(md_cell(pairs[pi].first) + " : " + md_cell(pairs[pi].second), docs_of_pair[pi],
        [pi](const det_stats& r) -> const stats& { return r.pair[pi]; });
  for (std::size_t li = 0; li < 2; ++li) {
    if (std::find(a.layouts.begin(), a.layouts.end(), li == 0 ? layout::blocks : layout::interleaved) == a.layouts.end())
      continue;
    row(std::string("*") + (li == 0 ? "blocks" : "interleaved") + "*", results[0].by_layout[li].docs,
        [li](const det_stats& r) -> const stats& { return r.by_layout[li]; });
  }
  row("**all**", documents, [](const det_stats& r) -> const stats& { return r.all; });
  md += "\n";
  return md;
}

}  // namespace

int langsift::cli::eval_mixed(int argc, char** argv) {
  mixed_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (positional.empty()) return langsift::cli::fail(kProgram, "DIR is required; see --help") + 1;
  if (a.have_pairs && a.random_k) return fail_usage("--pairs and --random exclude each other");
  if (const int rc = finish_mode_args(kProgram, a, positional); rc >= 0) return rc;
  pair_list pairs;
  if (const int rc = make_pairs(a, pairs); rc >= 0) return rc;
  std::map<std::string, std::vector<std::string>> sentences;
  if (!read_pair_sentences(a, pairs, sentences)) return 1;
  std::vector<document> docs;
  std::vector<std::size_t> docs_of_pair;
  if (!build_mixed_documents(a, pairs, sentences, docs, docs_of_pair)) return 1;
  std::vector<std::string> lines;
  lines.reserve(docs.size());
  for (const document& d : docs) lines.push_back(d.text);

  std::vector<det_stats> results(a.detectors.size());
  std::string t = "detector\tpair\tlayout\ttrue_a\ttrue_b\treported_a\treported_b\terror\tboth_in_top3\tlangs\n";
  for (std::size_t di = 0; di < a.detectors.size(); ++di) {
    command_run run;
    if (!run_detector(kProgram, a.detectors[di], lines, "the mixed documents", run)) return 1;
    if (!score_detector(a, a.detectors[di], pairs, docs, run, results[di], t)) return 1;
  }
  return write_reports(kProgram, a, t, mixed_markdown(a, pairs, docs_of_pair, docs.size(), results));
}
