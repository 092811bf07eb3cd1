// `langsift-eval calibrate MODEL DIR` — fits the confidence calibration of a model on held-out
// lines (DIR/<code>.txt, e.g. written by `langsift-train --holdout N --holdout-dir DIR`): for
// single words, word pairs and whole lines of every language, the margin between the detected
// language and its best rival (`detection::margin`, read without early exit, so that the fit does
// not depend on the calibration the model already has) is recorded with whether the answer was
// right, and
// confidence = logistic(A × margin + B) is fitted by maximum likelihood. Prints "A,B" for
// `langsift-train --calibration`, and how precise the answers with confidence >= 0.9 were.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "langsift/detector.hpp"

namespace fs = std::filesystem;

int langsift::cli::eval_calibrate(int argc, char** argv) {
  constexpr const char* kProgram = "langsift-eval calibrate";
  std::string model_path, dir, value;
  unsigned long long per_language = 150;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift-eval calibrate");
    if (a == "-h" || a == "--help") {
      std::printf(
          "usage: langsift-eval calibrate [--lines N] MODEL DIR\n\n"
          "Fits confidence = logistic(A x margin + B) on held-out lines DIR/<code>.txt (single words, word\n"
          "pairs and whole lines, N lines per language, default 150) and prints A,B for\n"
          "`langsift-train --calibration A,B`. The lines must not have been trained on.\n");
      return 0;
    } else if (take_option(argc, argv, i, "--lines", value, missing)) {
      auto v = missing ? std::nullopt : parse_size(value);
      if (!v || *v == 0) return fail(kProgram, "--lines needs a positive number") + 1;
      per_language = *v;
    } else if (model_path.empty()) {
      model_path = std::string(a);
    } else if (dir.empty()) {
      dir = std::string(a);
    } else {
      return fail(kProgram, "usage: langsift-eval calibrate [--lines N] MODEL DIR") + 1;
    }
  }
  if (dir.empty()) return fail(kProgram, "usage: langsift-eval calibrate [--lines N] MODEL DIR") + 1;
  model m;
  std::string error;
  if (model::load_file(model_path, m, &error) != status::ok) return fail(kProgram, error);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir + ": not a directory");

  struct sample {
    double margin;
    bool ok;
  };
  std::vector<sample> v;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".txt") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::mt19937 rng(5);
  // The raw margin, read to the end: with early exit the margin of a long line would stop where
  // the model's current calibration reaches exit_confidence, and the fit would depend on it.
  detect_options opt;
  opt.early_exit = false;
  for (const auto& path : files) {
    const std::string code = path.stem().string();
    if (m.find_language(code) < 0) continue;
    std::ifstream in(path);
    std::string line;
    unsigned long long n = 0;
    while (std::getline(in, line) && n < per_language) {
      std::vector<std::string> w;
      std::istringstream ss(line);
      for (std::string x; ss >> x;) w.push_back(x);
      if (w.size() < 3) continue;
      ++n;
      for (int k = 0; k < 3; ++k) {
        std::string t;
        if (k == 2) {
          t = line;
        } else {
          const std::size_t len = static_cast<std::size_t>(k) + 1, at = rng() % (w.size() - len + 1);
          for (std::size_t j = 0; j < len; ++j) t += (j ? " " : "") + w[at + j];
        }
        const detection d = detect(m, t, opt);
        if (!d.count || !std::isfinite(d.margin)) continue;  // und, or decided by its script
        const std::string_view got = d.languages[0].code;
        v.push_back({d.margin, got.substr(0, got.find('-')) == std::string_view(code).substr(0, code.find('-'))});
      }
    }
  }
  if (v.size() < 100) return fail(kProgram, "too few held-out samples (" + std::to_string(v.size()) + ")");
  // Logistic regression in one variable by Newton's method.
  double a = 0.01, b = 0;
  for (int it = 0; it < 50; ++it) {
    double ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (const auto& s : v) {
      const double p = 1 / (1 + std::exp(-(a * s.margin + b))), r = p - (s.ok ? 1 : 0), w = std::max(p * (1 - p), 1e-9);
      ga += r * s.margin;
      gb += r;
      haa += w * s.margin * s.margin;
      hab += w * s.margin;
      hbb += w;
    }
    const double det = haa * hbb - hab * hab;
    if (std::fabs(det) < 1e-12) break;
    a -= (hbb * ga - hab * gb) / det;
    b -= (haa * gb - hab * ga) / det;
  }
  std::size_t n9 = 0, ok9 = 0, ok = 0;
  for (const auto& s : v) {
    ok += s.ok;
    if (1 / (1 + std::exp(-(a * s.margin + b))) >= 0.9) {
      ++n9;
      ok9 += s.ok;
    }
  }
  std::printf("%.5g,%.4g\n", a, b);
  if (stdout_failed(kProgram, true)) return 1;  // the answer is lost: that is the one line on stderr
  std::fprintf(stderr, "%s: %zu samples, %.1f %% right; confidence >= 0.9 on %.1f %% of them, %.2f %% of those right\n",
               kProgram, v.size(), 100.0 * ok / v.size(), 100.0 * n9 / v.size(), n9 ? 100.0 * ok9 / n9 : 0.0);
  return 0;
}
