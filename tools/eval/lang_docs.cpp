// `langsift-eval docs DIR --bytes N` — ClueWeb09's protocol: documents of at least N bytes built
// from consecutive sentences of one language, all languages fed together; per-language precision
// (of the documents answered L, the share that are L) and recall, and the minimum precision.
#include <algorithm>
#include <cstdio>
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

constexpr const char* kProgram = "langsift-eval docs";
constexpr const char* kClueWebLangs = "en,zh,es,ja,fr,de,pt,ar,it,ko";

/// What the command line gives `langsift-eval docs`.
struct docs_args : mode_args {
  docs_args() : mode_args("detect --lines") {}
  std::vector<std::size_t> sizes;
  std::vector<std::string> langs = langsift::eval::code_list(kClueWebLangs);
  std::size_t top = 10;
};

using option_row = langsift::cli::option<docs_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift-eval docs`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval docs [options] DIR\n"
                 "\n"
                 "ClueWeb09's protocol. DIR holds <code>.txt files of sentences, one per line (e.g.\n"
                 "lingua-dev/sentences). For each language, consecutive sentences are joined by a space until\n"
                 "the document has at least N bytes; each sentence is used once, the tail shorter than N is\n"
                 "dropped. The documents of all languages are fed to each detector together (one document per\n"
                 "line), and for every language L: precision = of the documents answered L, the share that are\n"
                 "L; recall = of the documents of L, the share answered L. The minimum precision over the\n"
                 "languages is the figure ClueWeb09 reports (targets: >= 99.9 % at 400 bytes, >= 99.5 % at 160).\n"
                 "\n"
                 "options:\n"});
    t.push_back({value_kind::text, "--bytes", nullptr, "N[,N...]", "minimum document size in bytes (default 400,160)",
                 [](docs_args& a, const option_value& v) {
                   a.sizes.clear();
                   for (const std::string& item : langsift::eval::split_list(v.text)) {
                     const auto n = langsift::cli::parse_size(item);
                     if (!n || *n == 0) return false;
                     a.sizes.push_back(static_cast<std::size_t>(*n));
                   }
                   return !a.sizes.empty();
                 },
                 0, 0, nullptr, "positive sizes, e.g. 400,160"});
    t.push_back({value_kind::text, "--langs", nullptr, "CODES", std::string("languages (default ") + kClueWebLangs + ")",
                 [](docs_args& a, const option_value& v) {
                   a.langs = langsift::eval::code_list(v.text);
                   return !a.langs.empty();
                 },
                 0, 0, nullptr, "language codes"});
    add_detector_rows(t);
    t.push_back(strict_row<docs_args>());
    t.push_back({value_kind::size, "--top", nullptr, "N", "wrong answers listed per detector (default 10)",
                 [](docs_args& a, const option_value& v) { a.top = static_cast<std::size_t>(v.size); return true; }, 1, 0,
                 nullptr, "a positive number"});
    t.push_back(markdown_row<docs_args>());
    t.push_back(tsv_row<docs_args>("write rows: bytes, detector, language, documents, answered_as,\n"
                                   "correct, precision_pct, recall_pct"));
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, kModeHelpLine});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), kModeUsageColumn); }

struct lang_counts {
  std::size_t documents = 0, correct = 0, answered_as = 0;
  double precision() const {
    return answered_as ? static_cast<double>(correct) / static_cast<double>(answered_as) : 1.0;
  }
  double recall() const { return documents ? static_cast<double>(correct) / static_cast<double>(documents) : 0.0; }
};

struct det_counts {
  std::vector<lang_counts> langs;  // parallel to the languages
  std::size_t other = 0, no_answer = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> wrong;  // (true, answered) → count
  double min_precision = 1.0;
  std::string min_language;
};

int fail_usage(const std::string& message) { return langsift::cli::fail(kProgram, message) + 1; }

/// The sentences of each language of --langs (DIR/<code>.txt), or false after the error.
bool read_sentences(const docs_args& a, std::vector<std::vector<std::string>>& sentences) {
  std::error_code ec;
  std::string error;
  if (!fs::is_directory(a.dir, ec)) return langsift::cli::fail(kProgram, a.dir + ": not a directory") == 0;
  for (const std::string& code : a.langs) {
    fs::path p = fs::path(a.dir) / (code + ".txt");
    if (!fs::is_regular_file(p, ec))
      return langsift::cli::fail(kProgram, p.string() + ": no such file (DIR must hold <code>.txt files of sentences)") == 0;
    std::vector<std::string> s;
    if (!read_samples(p, 0, s, error)) return langsift::cli::fail(kProgram, error) == 0;
    if (s.empty()) return langsift::cli::fail(kProgram, p.string() + ": no samples (empty file)") == 0;
    sentences.push_back(std::move(s));
  }
  return true;
}

/// One detector's answers on the documents (`truth`: the language index of each) counted.
det_counts count_answers(const docs_args& a, const command_run& run, const std::vector<std::size_t>& truth,
                         const std::vector<std::size_t>& per_lang) {
  const std::vector<std::string>& langs = a.langs;
  det_counts r;
  r.langs.resize(langs.size());
  for (std::size_t l = 0; l < langs.size(); ++l) r.langs[l].documents = per_lang[l];
  for (std::size_t i = 0; i < truth.size(); ++i) {
    std::string_view answer = first_field(run.lines[i]);
    if (is_no_answer(answer)) {
      ++r.no_answer;
      continue;
    }
    bool known = false;
    for (std::size_t l = 0; l < langs.size(); ++l) {
      if (codes_match(answer, langs[l], a.strict)) {
        known = true;
        ++r.langs[l].answered_as;
        if (l == truth[i]) ++r.langs[l].correct;
        break;
      }
    }
    if (!known) ++r.other;
    if (!codes_match(answer, langs[truth[i]], a.strict)) ++r.wrong[{langs[truth[i]], std::string(answer)}];
  }
  for (std::size_t l = 0; l < langs.size(); ++l) {
    if (r.langs[l].answered_as && r.langs[l].precision() < r.min_precision) {
      r.min_precision = r.langs[l].precision();
      r.min_language = langs[l];
    }
  }
  return r;
}

/// The markdown section of one document size: precision and recall per language and detector,
/// the minimum precision, and the most frequent wrong answers.
std::string size_section(const docs_args& a, std::size_t min_bytes, std::size_t documents,
                         const std::vector<std::size_t>& per_lang, const std::vector<det_counts>& results) {
  const std::vector<std::string>& langs = a.langs;
  std::string md = "## Documents of at least " + std::to_string(min_bytes) + " bytes (" + thousands(documents) +
                   " documents)\n\n| language | documents |";
  for (const detector& d : a.detectors) md += " " + md_cell(d.name) + " precision | recall |";
  md += "\n| --- | ---: |";
  for (std::size_t d = 0; d < a.detectors.size(); ++d) md += " ---: | ---: |";
  md += "\n";
  for (std::size_t l = 0; l < langs.size(); ++l) {
    md += "| " + md_cell(langs[l]) + " | " + thousands(per_lang[l]) + " |";
    for (const det_counts& r : results) {
      const lang_counts& c = r.langs[l];
      md += ' ';
      md += c.answered_as ? pct(c.precision(), 2) : std::string("—");
      md += " | " + pct(c.recall(), 2) + " |";
    }
    md += "\n";
  }
  md += "| **minimum precision** | |";
  for (const det_counts& r : results)
    md += " **" + pct(r.min_precision, 2) + "**" + (r.min_language.empty() ? "" : " (" + r.min_language + ")") + " | |";
  md += "\n| other languages answered / no answer | |";
  for (const det_counts& r : results) md += " " + thousands(r.other) + " / " + thousands(r.no_answer) + " | |";
  md += "\n\n| detector | wrong answers (true → answered: documents) |\n| --- | --- |\n";
  for (std::size_t d = 0; d < a.detectors.size(); ++d) {
    std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> v(results[d].wrong.begin(),
                                                                                  results[d].wrong.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
    md += "| " + md_cell(a.detectors[d].name) + " | ";
    if (v.empty()) md += "none";
    for (std::size_t k = 0; k < v.size() && k < a.top; ++k)
      md += (k ? " · " : "") + md_cell(v[k].first.first) + " → " + md_cell(v[k].first.second) + " " +
            thousands(v[k].second);
    md += " |\n";
  }
  md += "\n";
  return md;
}

/// The TSV rows of one document size.
std::string size_rows(const docs_args& a, std::size_t min_bytes, const std::vector<det_counts>& results) {
  std::string t;
  for (std::size_t d = 0; d < a.detectors.size(); ++d) {
    for (std::size_t l = 0; l < a.langs.size(); ++l) {
      const lang_counts& c = results[d].langs[l];
      t += std::to_string(min_bytes) + "\t" + a.detectors[d].name + "\t" + a.langs[l] + "\t" +
           std::to_string(c.documents) + "\t" + std::to_string(c.answered_as) + "\t" + std::to_string(c.correct) +
           "\t" + (c.answered_as ? pct(c.precision(), 2) : std::string()) + "\t" + pct(c.recall(), 2) + "\n";
    }
  }
  return t;
}

}  // namespace

int langsift::cli::eval_docs(int argc, char** argv) {
  docs_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (const int rc = finish_mode_args(kProgram, a, positional); rc >= 0) return rc;
  if (a.sizes.empty()) a.sizes = {400, 160};
  const std::vector<std::string>& langs = a.langs;
  for (std::size_t i = 0; i < langs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (normalize_code(langs[i], a.strict) == normalize_code(langs[j], a.strict))
        return fail_usage("--langs names " + langs[i] + " twice");
  std::vector<std::vector<std::string>> sentences;
  if (!read_sentences(a, sentences)) return 1;

  std::string md = "# Document precision (ClueWeb09 protocol)\n\n";
  md += "- data: `" + a.dir + "`, languages:";
  for (const std::string& l : langs) md += " " + l;
  md += "\n- documents: consecutive sentences of one language joined by a space until at least N bytes; "
        "each sentence used once, short tail dropped; all languages fed together\n";
  md += "- precision of L: of the documents answered L, the share that are L (— when none was); recall: of the "
        "documents of L, the share answered L\n";
  md += detectors_markdown(a.detectors);
  md += "\n";
  std::string t = "bytes\tdetector\tlanguage\tdocuments\tanswered_as\tcorrect\tprecision_pct\trecall_pct\n";
  for (std::size_t min_bytes : a.sizes) {
    std::vector<std::string> docs;
    std::vector<std::size_t> truth;  // language index of each document
    std::vector<std::size_t> per_lang(langs.size());
    for (std::size_t l = 0; l < langs.size(); ++l) {
      for (std::string& d : build_documents(sentences[l], min_bytes)) {
        docs.push_back(std::move(d));
        truth.push_back(l);
        ++per_lang[l];
      }
    }
    for (std::size_t l = 0; l < langs.size(); ++l)
      if (per_lang[l] == 0)
        return fail(kProgram, langs[l] + ": not enough text for one document of " + std::to_string(min_bytes) + " bytes");
    std::vector<det_counts> results;
    for (const detector& d : a.detectors) {
      command_run run;
      if (!run_detector(kProgram, d, docs, "the " + std::to_string(min_bytes) + "-byte documents", run)) return 1;
      results.push_back(count_answers(a, run, truth, per_lang));
    }
    md += size_section(a, min_bytes, docs.size(), per_lang, results);
    t += size_rows(a, min_bytes, results);
  }
  return write_reports(kProgram, a, t, md);
}
