// `langsift-eval calibration DIR` — how well detection's probabilities are calibrated: among
// answers given probability ≈ p, are about p right? Per sample set (sub-directories of DIR laid
// out as lingua-dev is, plus documents of --docs bytes), the expected calibration error (ECE,
// 15 equal-width bins of the top language's probability, `detection::confidence`) and the
// reliability table (per bin: samples, mean probability, share right).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/model_arg.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"
#include "langsift/close_groups.hpp"
#include "langsift/detector.hpp"

namespace fs = std::filesystem;

namespace {

using namespace langsift;
using langsift::cli::fail;
using langsift::cli::stdout_failed;

constexpr const char* kProgram = "langsift-eval calibration";
constexpr int kBins = 15;

struct bin_counts {
  std::size_t samples = 0, right = 0;
  double probability = 0;
};

struct set_result {
  std::string name;
  std::array<bin_counts, kBins> bins{};
  std::size_t samples = 0, right = 0, other_top = 0, high = 0, high_right = 0;
  double probability = 0;

  void add(double p, bool ok) {
    high += p >= 0.9;
    high_right += p >= 0.9 && ok;
    bin_counts& b = bins[static_cast<std::size_t>(std::min(kBins - 1, static_cast<int>(p * kBins)))];
    ++b.samples;
    b.right += ok;
    b.probability += p;
    ++samples;
    right += ok;
    probability += p;
  }
  double ece() const {
    double e = 0;
    for (const bin_counts& b : bins)
      if (b.samples) e += std::fabs(b.probability - static_cast<double>(b.right)) / static_cast<double>(samples);
    return e;
  }
};

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// What the command line gives `langsift-eval calibration`.
struct calibration_args {
  std::string model_arg, sets_arg, markdown_path, tsv_path, calibration_arg, close_arg;
  detect_options opt;
  std::size_t limit = 0, doc_bytes = 0;
  bool margin_score = false, table = false;
};

using option_row = cli::option<calibration_args>;
using cli::option_value;
using cli::value_kind;

/// A text option of calibration_args.
template <std::string calibration_args::*field>
option_row text_row(const char* name, const char* metavar, const char* help, const char* need) {
  return {value_kind::text, name, nullptr, metavar, help,
          [](calibration_args& a, const option_value& v) {
            a.*field = v.text;
            return !(a.*field).empty();
          },
          0, 0, nullptr, need};
}

/// The options of `langsift-eval calibration`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  using A = calibration_args;
  using V = option_value;
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-eval calibration [options] DIR\n"
       "\n"
       "Measures the calibration of detection's probabilities: for each sample, the answer (the top\n"
       "language) and its probability (detection::confidence); per set, the expected calibration error\n"
       "(ECE: over 15 equal-width bins of probability, the share of samples in the bin times |mean\n"
       "probability - share right|, summed) and, with --table, the reliability table. Answers are right\n"
       "when their language subtag is the file's (zh-Hant counts as zh); und is a wrong answer with\n"
       "probability 0.\n"
       "\n"
       "DIR holds <code>.txt files (one sample per line) or sub-directories of them (sets, e.g.\n"
       "lingua-dev's sentences, word-pairs, single-words).\n"
       "\n"
       "options:\n"},
      text_row<&A::model_arg>("--model", "NAME|FILE",
                              "a built-in model (default, wide) or a model file (default: default)",
                              "a built-in model's name or a file"),
      text_row<&A::sets_arg>("--sets", "a,b", "the sets to measure, in this order (default: every sub-directory)",
                             "set names"),
      {value_kind::size, "--docs", nullptr, "N",
       "also documents of at least N bytes: consecutive samples of a language of\n"
       "the set `sentences` (or of DIR's own files) joined by a space, as\n"
       "`langsift-eval docs` builds them (set name docs-N)",
       [](A& a, const V& v) { a.doc_bytes = static_cast<std::size_t>(v.size); return true; }, 1, 0, nullptr,
       "a positive size"},
      {value_kind::size, "--limit", nullptr, "N", "the first N samples of each file (default: all)",
       [](A& a, const V& v) { a.limit = static_cast<std::size_t>(v.size); return true; }, 1, 0, nullptr,
       "a positive number"},
      {value_kind::choice, "--score", nullptr, "S",
       "probability (detection::confidence, default) or margin: logistic(A x\n"
       "margin + B) with the model's calibration A,B, the confidence langsift\n"
       "gave before its probabilities were calibrated",
       [](A& a, const V& v) { a.margin_score = v.choice == 1; return true; }, 0, 0, "probability|margin"},
      text_row<&A::calibration_arg>("--calibration", "SCALE,REST",
                                    "detect with this probability calibration instead of the model's\n"
                                    "(model::set_probability_calibration; as `calibrate --probability` prints)",
                                    "SCALE,REST"),
      text_row<&A::close_arg>("--close-groups", "FILE", "attach these close groups to the model (langsift-train close)",
                              "a file"),
      {value_kind::flag, "--no-close-groups", nullptr, nullptr,
       "detect without the close-group stage (detect_options::close_groups)",
       [](A& a, const V&) { a.opt.close_groups = false; return true; }},
      {value_kind::flag, "--no-web-prior", nullptr, nullptr, "detect without the web prior (detect_options::web_prior)",
       [](A& a, const V&) { a.opt.web_prior = false; return true; }},
      {value_kind::flag, "--table", nullptr, nullptr, "the reliability table of each set",
       [](A& a, const V&) { return a.table = true; }},
      text_row<&A::markdown_path>("--markdown", "FILE", "write the report to FILE instead of stdout", "a file"),
      text_row<&A::tsv_path>("--tsv", "FILE",
                             "write rows: set, bin (0..14, or all), low, high, samples, mean_probability,\n"
                             "accuracy, ece (on the row `all`)",
                             "a file"),
      {value_kind::note, nullptr, nullptr, nullptr, "  -h, --help           this help\n"},
  };
  return table;
}

void usage(std::FILE* out) { cli::usage_text(out, options(), 23); }

/// The model measured: --model, recalibrated by --calibration, with --close-groups attached (the
/// copies live in `recalibrated` and `with_groups`). -1 to go on, else the exit status (reported).
int load_model(const calibration_args& a, const model*& m, model& loaded, model& recalibrated, model& with_groups) {
  std::string error;
  if (cli::resolve_model(a.model_arg, m, loaded, error) != status::ok) return fail(kProgram, error);
  if (!a.calibration_arg.empty()) {
    probability_calibration c;
    char* end = nullptr;
    c.scale = std::strtof(a.calibration_arg.c_str(), &end);
    const bool comma = end && *end == ',';
    if (comma) c.rest = std::strtof(end + 1, &end);
    recalibrated = *m;
    if (!comma || !end || *end || recalibrated.set_probability_calibration(c) != status::ok)
      return fail(kProgram, "--calibration needs SCALE,REST with SCALE > 0 and REST >= 0") + 1;
    m = &recalibrated;
  }
  if (!a.close_arg.empty()) {
    close_groups g;
    if (close_groups::load_file(a.close_arg, g, &error) != status::ok)
      return fail(kProgram, error.empty() ? a.close_arg + ": cannot read" : error);
    with_groups = *m;
    if (with_groups.set_close_groups(std::make_shared<const close_groups>(std::move(g)), &error) != status::ok)
      return fail(kProgram, a.close_arg + ": " + error);
    m = &with_groups;
  }
  return -1;
}

/// One set measured: every sample of its files (or the documents of at least `min_bytes` built
/// from them) detected and binned. False with `error` set.
bool run_set(const calibration_args& a, const model& m, const std::string& name, const fs::path& files_dir,
             std::size_t min_bytes, std::vector<set_result>& results, std::string& error) {
  const model_params& P = m.params();
  auto score = [&](const detection& d) -> double {
    if (!d.count) return 0.0;
    if (!a.margin_score) return d.confidence;
    if (!std::isfinite(d.margin)) return 1.0;
    return 1.0 / (1.0 + std::exp(-(static_cast<double>(P.calibration_a) * d.margin + P.calibration_b)));
  };
  std::vector<eval::language_file> files;
  if (!eval::list_language_files(files_dir, files, error)) return false;
  set_result r;
  r.name = name;
  for (const auto& f : files) {
    std::vector<std::string> samples;
    if (!eval::read_samples(f.path, min_bytes ? 0 : a.limit, samples, error)) return false;
    if (min_bytes) {
      samples = eval::build_documents(samples, min_bytes);
      if (a.limit && samples.size() > a.limit) samples.resize(a.limit);
    }
    for (const std::string& t : samples) {
      const detection d = detect(m, t, a.opt);
      r.add(score(d), d.count && eval::codes_match(d.language(), f.code, false));
      r.other_top += d.probability_count && d.probabilities[0].code != d.language();
    }
  }
  if (r.samples == 0) {
    error = files_dir.string() + ": no samples";
    return false;
  }
  results.push_back(std::move(r));
  return true;
}

/// The reports: the markdown summary (and with --table the reliability tables) into `md`, the
/// TSV rows into `tsv`.
void calibration_reports(const calibration_args& a, const fs::path& dir, const std::vector<set_result>& results,
                         std::string& md, std::string& tsv) {
  md = "# Calibration of the top language's probability\n\n";
  md += "- data: `" + eval::md_cell(dir.string()) + "`; model: " + eval::md_cell(a.model_arg.empty() ? "default" : a.model_arg) +
        "; score: " + (!a.calibration_arg.empty() ? "detection::confidence with the calibration " + a.calibration_arg : a.margin_score ? "logistic(A x margin + B) (the confidence before calibrated probabilities)" : "detection::confidence") +
        "\n- ECE: 15 equal-width bins; right: the answer's language subtag is the file's\n\n";
  md += "| set | samples | right % | mean probability % | ECE | probability >= 0.9: samples % | right % |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  tsv = "set\tbin\tlow\thigh\tsamples\tmean_probability\taccuracy\tece\n";
  for (const set_result& r : results) {
    const double n = static_cast<double>(r.samples);
    md += "| " + eval::md_cell(r.name) + " | " + eval::thousands(r.samples) + " | " + fixed(100.0 * static_cast<double>(r.right) / n, 2) +
          " | " + fixed(100.0 * r.probability / n, 2) + " | " + fixed(r.ece(), 4) + " | " +
          fixed(100.0 * static_cast<double>(r.high) / n, 1) + " | " +
          (r.high ? fixed(100.0 * static_cast<double>(r.high_right) / static_cast<double>(r.high), 2) : std::string("-")) + " |\n";
    for (int b = 0; b < kBins; ++b) {
      const bin_counts& c = r.bins[static_cast<std::size_t>(b)];
      tsv += r.name + "\t" + std::to_string(b) + "\t" + fixed(static_cast<double>(b) / kBins, 4) + "\t" +
             fixed((b + 1.0) / kBins, 4) + "\t" + std::to_string(c.samples) + "\t" +
             (c.samples ? fixed(c.probability / static_cast<double>(c.samples), 4) : std::string("")) + "\t" +
             (c.samples ? fixed(static_cast<double>(c.right) / static_cast<double>(c.samples), 4) : std::string("")) + "\t\n";
    }
    tsv += r.name + "\tall\t0\t1\t" + std::to_string(r.samples) + "\t" + fixed(r.probability / n, 4) + "\t" +
           fixed(static_cast<double>(r.right) / n, 4) + "\t" + fixed(r.ece(), 4) + "\n";
  }
  std::size_t other_top = 0;
  for (const set_result& r : results) other_top += r.other_top;
  if (!a.margin_score)
    md += "\nThe most probable language (detection::probabilities[0]) is another than the answer for " +
          eval::thousands(other_top) + " samples (near-even mixed texts).\n";
  if (a.table)
    for (const set_result& r : results) {
      md += "\n## " + eval::md_cell(r.name) + "\n\n| probability | samples | mean probability % | right % |\n| --- | ---: | ---: | ---: |\n";
      for (int b = 0; b < kBins; ++b) {
        const bin_counts& c = r.bins[static_cast<std::size_t>(b)];
        if (!c.samples) continue;
        const double k = static_cast<double>(c.samples);
        md += "| " + fixed(static_cast<double>(b) / kBins, 3) + "–" + fixed((b + 1.0) / kBins, 3) + " | " + eval::thousands(c.samples) +
              " | " + fixed(100.0 * c.probability / k, 1) + " | " + fixed(100.0 * static_cast<double>(c.right) / k, 1) + " |\n";
      }
    }
}

}  // namespace

int langsift::cli::eval_calibration(int argc, char** argv) {
  calibration_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (positional.size() != 1) return fail(kProgram, "usage: langsift-eval calibration [options] DIR") + 1;
  const fs::path dir = positional[0];
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir.string() + ": not a directory");
  model loaded, recalibrated, with_groups;
  const model* m = nullptr;
  if (const int rc = load_model(a, m, loaded, recalibrated, with_groups); rc >= 0) return rc;

  // The sets: sub-directories, or DIR itself when it holds the files.
  std::vector<std::string> sets = a.sets_arg.empty() ? eval::list_sample_sets(dir) : eval::split_list(a.sets_arg);
  const bool flat = sets.empty();
  if (flat) sets.push_back(dir.filename().string());
  auto set_dir = [&](const std::string& name) { return flat ? dir : dir / name; };
  for (const std::string& s : sets)
    if (!fs::is_directory(set_dir(s), ec)) return fail(kProgram, (dir / s).string() + ": no such set") + 1;
  std::string doc_source;
  if (a.doc_bytes) {
    doc_source = flat ? sets[0] : "sentences";
    if (!fs::is_directory(set_dir(doc_source), ec))
      return fail(kProgram, (dir / "sentences").string() + ": --docs needs the set sentences") + 1;
  }
  std::vector<set_result> results;
  std::string error;
  for (const std::string& s : sets)
    if (!run_set(a, *m, s, set_dir(s), 0, results, error)) return fail(kProgram, error);
  if (a.doc_bytes &&
      !run_set(a, *m, "docs-" + std::to_string(a.doc_bytes), set_dir(doc_source), a.doc_bytes, results, error))
    return fail(kProgram, error);
  std::string md, tsv;
  calibration_reports(a, dir, results, md, tsv);
  if (!a.tsv_path.empty() && !eval::write_text(a.tsv_path, tsv, error)) return fail(kProgram, error);
  if (!eval::write_text(a.markdown_path, md, error)) return fail(kProgram, error);
  return stdout_failed(kProgram, true) ? 1 : 0;
}
