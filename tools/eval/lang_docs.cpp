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

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift-eval docs [options] DIR\n"
      "\n"
      "ClueWeb09's protocol. DIR holds <code>.txt files of sentences, one per line (e.g.\n"
      "lingua-dev/sentences). For each language, consecutive sentences are joined by a space until\n"
      "the document has at least N bytes; each sentence is used once, the tail shorter than N is\n"
      "dropped. The documents of all languages are fed to each detector together (one document per\n"
      "line), and for every language L: precision = of the documents answered L, the share that are\n"
      "L; recall = of the documents of L, the share answered L. The minimum precision over the\n"
      "languages is the figure ClueWeb09 reports (targets: >= 99.9 %% at 400 bytes, >= 99.5 %% at 160).\n"
      "\n"
      "options:\n"
      "  --bytes N[,N...]     minimum document size in bytes (default 400,160)\n"
      "  --langs CODES        languages (default %s)\n"
      "%s"
      "  --strict             compare whole codes (zh-Hant is not zh)\n"
      "  --top N              wrong answers listed per detector (default 10)\n"
      "  --markdown FILE      write the markdown report to FILE instead of stdout\n"
      "  --tsv FILE           write rows: bytes, detector, language, documents, answered_as,\n"
      "                       correct, precision_pct, recall_pct\n"
      "  -h, --help           this help\n",
      kClueWebLangs, kDetectorOptionsHelp);
}

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

}  // namespace

int langsift::cli::eval_docs(int argc, char** argv) {
  std::string dir, markdown, tsv, error;
  std::vector<std::size_t> sizes;
  std::vector<std::string> langs = langsift::eval::code_list(kClueWebLangs);
  bool strict = false, have_dir = false;
  std::size_t top = 10;
  detector_options dets("detect --lines");
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string value;
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift-eval docs");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (dets.take(argc, argv, i, error)) {
      if (!error.empty()) return fail_usage(error);
    } else if (a == "--strict") {
      strict = true;
    } else if (take_option(argc, argv, i, "--bytes", value, missing)) {
      std::vector<std::string> items = langsift::eval::split_list(value);
      if (missing || items.empty()) return fail_usage("--bytes needs sizes, e.g. 400,160");
      sizes.clear();
      for (const std::string& item : items) {
        auto n = parse_size(item);
        if (!n || *n == 0) return fail_usage("--bytes: '" + item + "' is not a positive size");
        sizes.push_back(static_cast<std::size_t>(*n));
      }
    } else if (take_option(argc, argv, i, "--langs", value, missing)) {
      langs = langsift::eval::code_list(value);
      if (missing || langs.empty()) return fail_usage("--langs needs language codes");
    } else if (take_option(argc, argv, i, "--top", value, missing)) {
      auto n = missing ? std::nullopt : parse_size(value);
      if (!n || *n == 0) return fail_usage("--top needs a positive number");
      top = static_cast<std::size_t>(*n);
    } else if (take_option(argc, argv, i, "--markdown", value, missing)) {
      if (missing) return fail_usage("--markdown needs a file");
      markdown = value;
    } else if (take_option(argc, argv, i, "--tsv", value, missing)) {
      if (missing) return fail_usage("--tsv needs a file");
      tsv = value;
    } else if (a.size() > 1 && a[0] == '-') {
      return langsift::cli::unknown_option(kProgram, a, usage);
    } else if (have_dir) {
      return fail_usage("only one DIR, please");
    } else {
      dir = std::string(a);
      have_dir = true;
    }
  }
  if (!have_dir) return langsift::cli::fail(kProgram, "DIR is required; see --help") + 1;
  if (sizes.empty()) sizes = {400, 160};
  std::vector<detector> detectors;
  if (!dets.finish(detectors, error)) return fail_usage(error);
  for (std::size_t i = 0; i < langs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (normalize_code(langs[i], strict) == normalize_code(langs[j], strict))
        return fail_usage("--langs names " + langs[i] + " twice");

  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir + ": not a directory");
  std::vector<std::vector<std::string>> sentences;
  for (const std::string& code : langs) {
    fs::path p = fs::path(dir) / (code + ".txt");
    if (!fs::is_regular_file(p, ec))
      return fail(kProgram, p.string() + ": no such file (DIR must hold <code>.txt files of sentences)");
    std::vector<std::string> s;
    if (!read_samples(p, 0, s, error)) return fail(kProgram, error);
    if (s.empty()) return fail(kProgram, p.string() + ": no samples (empty file)");
    sentences.push_back(std::move(s));
  }

  std::string md = "# Document precision (ClueWeb09 protocol)\n\n";
  md += "- data: `" + dir + "`, languages:";
  for (const std::string& l : langs) md += " " + l;
  md += "\n- documents: consecutive sentences of one language joined by a space until at least N bytes; "
        "each sentence used once, short tail dropped; all languages fed together\n";
  md += "- precision of L: of the documents answered L, the share that are L (— when none was); recall: of the "
        "documents of L, the share answered L\n";
  md += "- detectors:\n";
  for (const detector& d : detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  md += "\n";
  std::string t = "bytes\tdetector\tlanguage\tdocuments\tanswered_as\tcorrect\tprecision_pct\trecall_pct\n";

  for (std::size_t min_bytes : sizes) {
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

    std::vector<det_counts> results(detectors.size());
    for (std::size_t d = 0; d < detectors.size(); ++d) {
      command_run run;
      if (!run_command(detectors[d].command, docs, run, error))
        return fail(kProgram, "detector '" + detectors[d].name + "' on the " + std::to_string(min_bytes) +
                                  "-byte documents: " + error);
      det_counts& r = results[d];
      r.langs.resize(langs.size());
      for (std::size_t l = 0; l < langs.size(); ++l) r.langs[l].documents = per_lang[l];
      for (std::size_t i = 0; i < docs.size(); ++i) {
        std::string_view answer = first_field(run.lines[i]);
        if (is_no_answer(answer)) {
          ++r.no_answer;
          continue;
        }
        bool known = false;
        for (std::size_t l = 0; l < langs.size(); ++l) {
          if (codes_match(answer, langs[l], strict)) {
            known = true;
            ++r.langs[l].answered_as;
            if (l == truth[i]) ++r.langs[l].correct;
            break;
          }
        }
        if (!known) ++r.other;
        if (!codes_match(answer, langs[truth[i]], strict)) ++r.wrong[{langs[truth[i]], std::string(answer)}];
      }
      for (std::size_t l = 0; l < langs.size(); ++l) {
        if (r.langs[l].answered_as && r.langs[l].precision() < r.min_precision) {
          r.min_precision = r.langs[l].precision();
          r.min_language = langs[l];
        }
      }
    }

    md += "## Documents of at least " + std::to_string(min_bytes) + " bytes (" + thousands(docs.size()) +
          " documents)\n\n| language | documents |";
    for (const detector& d : detectors) md += " " + md_cell(d.name) + " precision | recall |";
    md += "\n| --- | ---: |";
    for (std::size_t d = 0; d < detectors.size(); ++d) md += " ---: | ---: |";
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
      md += " **" + pct(r.min_precision, 2) + "**" + (r.min_language.empty() ? "" : " (" + r.min_language + ")") +
            " | |";
    md += "\n| other languages answered / no answer | |";
    for (const det_counts& r : results) md += " " + thousands(r.other) + " / " + thousands(r.no_answer) + " | |";
    md += "\n\n| detector | wrong answers (true → answered: documents) |\n| --- | --- |\n";
    for (std::size_t d = 0; d < detectors.size(); ++d) {
      std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> v(results[d].wrong.begin(),
                                                                                    results[d].wrong.end());
      std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
      md += "| " + md_cell(detectors[d].name) + " | ";
      if (v.empty()) md += "none";
      for (std::size_t k = 0; k < v.size() && k < top; ++k)
        md += (k ? " · " : "") + md_cell(v[k].first.first) + " → " + md_cell(v[k].first.second) + " " +
              thousands(v[k].second);
      md += " |\n";
    }
    md += "\n";

    for (std::size_t d = 0; d < detectors.size(); ++d) {
      for (std::size_t l = 0; l < langs.size(); ++l) {
        const lang_counts& c = results[d].langs[l];
        t += std::to_string(min_bytes) + "\t" + detectors[d].name + "\t" + langs[l] + "\t" +
             std::to_string(c.documents) + "\t" + std::to_string(c.answered_as) + "\t" + std::to_string(c.correct) +
             "\t" + (c.answered_as ? pct(c.precision(), 2) : std::string()) + "\t" + pct(c.recall(), 2) + "\n";
      }
    }
  }

  if (!tsv.empty() && !write_text(tsv, t, error)) return fail(kProgram, error);
  if (!write_text(markdown, md, error)) return fail(kProgram, error);
  return 0;
}
