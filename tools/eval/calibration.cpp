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

void usage(std::FILE* out) {
  std::fprintf(out,
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
      "options:\n"
      "  --model NAME|FILE    a built-in model (default, wide) or a model file (default: default)\n"
      "  --sets a,b           the sets to measure, in this order (default: every sub-directory)\n"
      "  --docs N             also documents of at least N bytes: consecutive samples of a language of\n"
      "                       the set `sentences` (or of DIR's own files) joined by a space, as\n"
      "                       `langsift-eval docs` builds them (set name docs-N)\n"
      "  --limit N            the first N samples of each file (default: all)\n"
      "  --score S            probability (detection::confidence, default) or margin: logistic(A x\n"
      "                       margin + B) with the model's calibration A,B, the confidence langsift\n"
      "                       gave before its probabilities were calibrated\n"
      "  --calibration SCALE,REST  detect with this probability calibration instead of the model's\n"
      "                       (model::set_probability_calibration; as `calibrate --probability` prints)\n"
      "  --close-groups FILE  attach these close groups to the model (langsift-train close)\n"
      "  --no-close-groups    detect without the close-group stage (detect_options::close_groups)\n"
      "  --no-web-prior       detect without the web prior (detect_options::web_prior)\n"
      "  --table              the reliability table of each set\n"
      "  --markdown FILE      write the report to FILE instead of stdout\n"
      "  --tsv FILE           write rows: set, bin (0..14, or all), low, high, samples, mean_probability,\n"
      "                       accuracy, ece (on the row `all`)\n"
      "  -h, --help           this help\n");
}

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

}  // namespace

int langsift::cli::eval_calibration(int argc, char** argv) {
  std::string model_arg, sets_arg, markdown_path, tsv_path, value, calibration_arg, close_arg;
  detect_options opt;
  std::size_t limit = 0, doc_bytes = 0;
  bool margin_score = false, table = false;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    bool missing = false;
    if (a == "--version") return print_version(kProgram);
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (take_option(argc, argv, i, "--model", model_arg, missing)) {
      if (missing) return fail(kProgram, "--model needs a built-in model's name or a file") + 1;
    } else if (take_option(argc, argv, i, "--sets", sets_arg, missing)) {
      if (missing || sets_arg.empty()) return fail(kProgram, "--sets needs set names") + 1;
    } else if (take_option(argc, argv, i, "--docs", value, missing)) {
      const auto v = missing ? std::nullopt : parse_size(value);
      if (!v || *v == 0) return fail(kProgram, "--docs needs a positive size") + 1;
      doc_bytes = static_cast<std::size_t>(*v);
    } else if (take_option(argc, argv, i, "--limit", value, missing)) {
      const auto v = missing ? std::nullopt : parse_size(value);
      if (!v || *v == 0) return fail(kProgram, "--limit needs a positive number") + 1;
      limit = static_cast<std::size_t>(*v);
    } else if (take_option(argc, argv, i, "--score", value, missing)) {
      if (value == "probability") margin_score = false;
      else if (value == "margin") margin_score = true;
      else return fail(kProgram, "--score is probability or margin") + 1;
    } else if (take_option(argc, argv, i, "--calibration", calibration_arg, missing)) {
      if (missing) return fail(kProgram, "--calibration needs SCALE,REST") + 1;
    } else if (take_option(argc, argv, i, "--close-groups", close_arg, missing)) {
      if (missing) return fail(kProgram, "--close-groups needs a file") + 1;
    } else if (a == "--no-close-groups") {
      opt.close_groups = false;
    } else if (a == "--no-web-prior") {
      opt.web_prior = false;
    } else if (a == "--table") {
      table = true;
    } else if (take_option(argc, argv, i, "--markdown", markdown_path, missing)) {
      if (missing) return fail(kProgram, "--markdown needs a file") + 1;
    } else if (take_option(argc, argv, i, "--tsv", tsv_path, missing)) {
      if (missing) return fail(kProgram, "--tsv needs a file") + 1;
    } else if (a.size() > 1 && a[0] == '-') {
      return fail(kProgram, "unknown option '" + std::string(a) + "'; see --help") + 1;
    } else {
      positional.emplace_back(a);
    }
  }
  if (positional.size() != 1) return fail(kProgram, "usage: langsift-eval calibration [options] DIR") + 1;
  const fs::path dir = positional[0];
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir.string() + ": not a directory");

  model loaded;
  const model* m = nullptr;
  std::string error;
  if (resolve_model(model_arg, m, loaded, error) != status::ok) return fail(kProgram, error);
  model recalibrated;
  if (!calibration_arg.empty()) {
    probability_calibration c;
    char* end = nullptr;
    c.scale = std::strtof(calibration_arg.c_str(), &end);
    const bool comma = end && *end == ',';
    if (comma) c.rest = std::strtof(end + 1, &end);
    recalibrated = *m;
    if (!comma || !end || *end || recalibrated.set_probability_calibration(c) != status::ok)
      return fail(kProgram, "--calibration needs SCALE,REST with SCALE > 0 and REST >= 0") + 1;
    m = &recalibrated;
  }
  model with_groups;
  if (!close_arg.empty()) {
    close_groups g;
    if (close_groups::load_file(close_arg, g, &error) != status::ok) return fail(kProgram, error.empty() ? close_arg + ": cannot read" : error);
    with_groups = *m;
    if (with_groups.set_close_groups(std::make_shared<const close_groups>(std::move(g)), &error) != status::ok)
      return fail(kProgram, close_arg + ": " + error);
    m = &with_groups;
  }

  // The sets: sub-directories, or DIR itself when it holds the files.
  std::vector<std::string> sets = sets_arg.empty() ? eval::list_sample_sets(dir) : eval::split_list(sets_arg);
  const bool flat = sets.empty();
  if (flat) sets.push_back(dir.filename().string());
  auto set_dir = [&](const std::string& name) { return flat ? dir : dir / name; };
  for (const std::string& s : sets)
    if (!fs::is_directory(set_dir(s), ec)) return fail(kProgram, (dir / s).string() + ": no such set") + 1;
  std::string doc_source;
  if (doc_bytes) {
    doc_source = flat ? sets[0] : "sentences";
    if (!fs::is_directory(set_dir(doc_source), ec))
      return fail(kProgram, (dir / "sentences").string() + ": --docs needs the set sentences") + 1;
  }

  const model_params& P = m->params();
  auto score = [&](const detection& d) -> double {
    if (!d.count) return 0.0;
    if (!margin_score) return d.confidence;
    if (!std::isfinite(d.margin)) return 1.0;
    return 1.0 / (1.0 + std::exp(-(static_cast<double>(P.calibration_a) * d.margin + P.calibration_b)));
  };
  std::vector<set_result> results;
  auto run_set = [&](const std::string& name, const fs::path& files_dir, std::size_t min_bytes) -> bool {
    std::vector<eval::language_file> files;
    if (!eval::list_language_files(files_dir, files, error)) return false;
    set_result r;
    r.name = name;
    for (const auto& f : files) {
      std::vector<std::string> samples;
      if (!eval::read_samples(f.path, min_bytes ? 0 : limit, samples, error)) return false;
      if (min_bytes) {
        samples = eval::build_documents(samples, min_bytes);
        if (limit && samples.size() > limit) samples.resize(limit);
      }
      for (const std::string& t : samples) {
        const detection d = detect(*m, t, opt);
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
  };
  for (const std::string& s : sets)
    if (!run_set(s, set_dir(s), 0)) return fail(kProgram, error);
  if (doc_bytes && !run_set("docs-" + std::to_string(doc_bytes), set_dir(doc_source), doc_bytes)) return fail(kProgram, error);

  std::string md = "# Calibration of the top language's probability\n\n";
  md += "- data: `" + eval::md_cell(dir.string()) + "`; model: " + eval::md_cell(model_arg.empty() ? "default" : model_arg) +
        "; score: " + (!calibration_arg.empty() ? "detection::confidence with the calibration " + calibration_arg : margin_score ? "logistic(A x margin + B) (the confidence before calibrated probabilities)" : "detection::confidence") +
        "\n- ECE: 15 equal-width bins; right: the answer's language subtag is the file's\n\n";
  md += "| set | samples | right % | mean probability % | ECE | probability >= 0.9: samples % | right % |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::string tsv = "set\tbin\tlow\thigh\tsamples\tmean_probability\taccuracy\tece\n";
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
  if (!margin_score)
    md += "\nThe most probable language (detection::probabilities[0]) is another than the answer for " +
          eval::thousands(other_top) + " samples (near-even mixed texts).\n";
  if (table)
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
  if (!tsv_path.empty() && !eval::write_text(tsv_path, tsv, error)) return fail(kProgram, error);
  if (!eval::write_text(markdown_path, md, error)) return fail(kProgram, error);
  return stdout_failed(kProgram, true) ? 1 : 0;
}
