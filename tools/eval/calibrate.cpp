// `langsift-eval calibrate MODEL DIR` — fits the confidence calibration of a model on held-out
// lines (DIR/<code>.txt, e.g. written by `langsift-train --holdout N --holdout-dir DIR`): for
// single words, word pairs and whole lines of every language, the margin between the detected
// language and its best rival (`detection::margin`, read without early exit, so that the fit does
// not depend on the calibration the model already has) is recorded with whether the answer was
// right, and
// logistic(A × margin + B) is fitted by maximum likelihood. Prints "A,B" for
// `langsift-train --calibration` (early exit and short runs use it), and how precise the answers
// with a value >= 0.9 were.
//
// `langsift-eval calibrate --probability MODEL DIR [MODEL DIR...]` fits the calibration of the
// probabilities (model::probability_calibration: scale and rest) on single words, word pairs,
// lines and documents of at least 400 bytes (consecutive lines) of each DIR, detected as `detect`
// does by default with MODEL, the model that did not see DIR's lines. Each pair is typically a
// training source and the model retrained without it (scripts/loso-eval.py), so that the fit
// sees text of another domain than the model's, as the web is. Prints "SCALE,REST".
#include <algorithm>
#include <array>
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
#include "langsift/impl/detect_stages.hpp"
#include "langsift/detector.hpp"
#include "lang_common.hpp"

namespace fs = std::filesystem;

namespace {

using namespace langsift;
using langsift::cli::fail;
using langsift::cli::stdout_failed;

/// The evidence of one language's units in one sample, for the probability fit: its share of the
/// attributed bytes, the features read, and the pooled scores of the candidates less than
/// kReach behind the best (the others weigh 0 at any sensible scale), padded to a multiple of 4
/// with kNoScore, as detect's weights are computed (detail::exp_scaled).
struct item_evidence {
  static constexpr float kReach = 5000;
  float share = 0, features = 0, top = 0;
  std::vector<float> score;
  std::vector<std::uint8_t> answer;  // the candidate is the answer
};

/// One sample: the probability its answer gets is `fixed` (languages decided by their script) plus
/// the share-weighted probabilities of `items`.
struct prob_sample {
  std::size_t kind;  // 0 words, 1 word pairs, 2 lines, 3 documents
  bool ok = false;
  double fixed = 0;
  std::vector<item_evidence> items;
};

constexpr const char* kKinds[] = {"single words", "word pairs", "lines", "documents"};

/// Runs detect's stages on `text` as `detect(m, text)` does, keeping the scores of each
/// language's units (detail::pool_scores) for the fit.
bool collect_sample(const model& m, detail::detect_scratch& s, const std::string& text, std::string_view truth,
                    std::size_t kind, prob_sample& out) {
  namespace stage = detail::detect_stage;
  const detect_options opt;
  detection d;
  stage::begin(m, opt, s);
  stage::sample(text, opt, s);
  stage::script_units(m, opt, text, s);
  if (s.text_bytes == 0) return false;
  stage::score(m, opt, s);
  stage::segment(m, opt, s);
  stage::top_three(m, opt, text.size(), s, d);
  if (d.count) stage::und_confidence(m, opt, s, d);
  if (!d.count) return false;  // und: no probability to fit
  out = prob_sample{};
  out.kind = kind;
  const std::string_view answer = d.languages[0].code;
  out.ok = eval::codes_match(answer, truth, false);
  double attributed = 0;
  for (const auto& it : s.items) attributed += it.bytes;
  for (const auto& it : s.items) {
    const double share = it.bytes / attributed;
    const float features = it.lang >= 0 ? detail::pool_scores(m, it.lang, s) : -1.0f;
    if (features < 0 || !std::isfinite(detail::margin_of(m, it.lang, s))) {  // decided: all to itself
      if (it.code == answer) out.fixed += share;
      continue;
    }
    const group_table& g = m.group(m.language(static_cast<std::size_t>(it.lang)).group);
    item_evidence e;
    e.share = static_cast<float>(share);
    e.features = features;
    e.top = *std::max_element(s.own.begin(), s.own.begin() + static_cast<std::ptrdiff_t>(g.size()));
    for (std::size_t c = 0; c < g.size(); ++c)
      if (s.own[c] > e.top - item_evidence::kReach) {
        e.score.push_back(s.own[c]);
        e.answer.push_back(m.language_code(g.langs[c]) == answer);
      }
    while (e.score.size() % 4) {
      e.score.push_back(detail::kNoScore);
      e.answer.push_back(0);
    }
    out.items.push_back(std::move(e));
  }
  return true;
}

/// The probability `c` gives a sample's answer, as detect computes it (detail::group_weights).
double answer_probability(const prob_sample& x, const probability_calibration& c, std::vector<float>& w) {
  double p = x.fixed;
  for (const item_evidence& e : x.items) {
    const float tau = c.scale / std::sqrt(std::max(1.0f, e.features));
    w.resize(e.score.size());
    const double sum = static_cast<double>(c.rest) + detail::exp_scaled(w.data(), e.score.data(), e.top, tau, w.size());
    double ans = 0;
    for (std::size_t k = 0; k < w.size(); ++k)
      if (e.answer[k]) ans += w[k];
    p += e.share * ans / sum;
  }
  return std::min(p, 1.0);
}

/// Mean over the kinds of sample of the mean log-loss of "the answer is right" (each kind weighs
/// the same, whatever its number of samples).
double log_loss(const std::vector<prob_sample>& v, const probability_calibration& c) {
  double sum[4] = {}, n[4] = {};
  std::vector<float> w;
  for (const prob_sample& x : v) {
    const double p = std::clamp(answer_probability(x, c, w), 1e-7, 1 - 1e-7);
    sum[x.kind] -= x.ok ? std::log(p) : std::log(1 - p);
    ++n[x.kind];
  }
  double loss = 0;
  for (int k = 0; k < 4; ++k)
    if (n[k] > 0) loss += sum[k] / n[k];
  return loss;
}

/// Expected calibration error (15 equal-width bins) of the answers' probabilities.
double ece_of(const std::vector<std::pair<double, bool>>& pv) {
  double conf[15] = {}, right[15] = {}, count[15] = {};
  for (const auto& [p, ok] : pv) {
    const int b = std::min(14, static_cast<int>(p * 15));
    conf[b] += p;
    right[b] += ok;
    ++count[b];
  }
  double e = 0;
  for (int b = 0; b < 15; ++b)
    if (count[b] > 0) e += std::fabs(conf[b] - right[b]) / static_cast<double>(pv.size());
  return e;
}

/// Reads "a,b,c" or "@FILE" (codes separated by whitespace; '#' starts a comment), as
/// `langsift-train --langs` does. False when FILE cannot be read.
bool read_codes(const std::string& arg, std::vector<std::string>& out) {
  std::string text = arg;
  if (!arg.empty() && arg[0] == '@') {
    std::ifstream in(arg.substr(1));
    if (!in) return false;
    text.clear();
    for (std::string line; std::getline(in, line);) text += line.substr(0, line.find('#')) + " ";
  }
  for (char& c : text)
    if (c == ',') c = ' ';
  std::istringstream ss(text);
  for (std::string c; ss >> c;) out.push_back(c);
  return true;
}

int fit_probability(const std::vector<std::pair<std::string, std::string>>& pairs, unsigned long long per_language,
                    std::size_t doc_bytes, const std::vector<std::string>& langs) {
  constexpr const char* kProgram = "langsift-eval calibrate";
  std::vector<prob_sample> v;
  detail::detect_scratch scratch;
  for (const auto& [model_path, dir] : pairs) {
    model m;
    std::string error;
    if (model::load_file(model_path, m, &error) != status::ok) return fail(kProgram, error);
    std::vector<eval::language_file> files;
    if (!eval::list_language_files(dir, files, error)) return fail(kProgram, error);
    std::mt19937 rng(5);
    for (const auto& f : files) {
      if (m.find_language(f.code) < 0) continue;
      if (!langs.empty() && std::find(langs.begin(), langs.end(), f.code) == langs.end()) continue;
      std::vector<std::string> lines;
      if (!eval::read_samples(f.path, 0, lines, error)) return fail(kProgram, error);
      // Documents from consecutive lines, at most per_language / 3 of them, spread over the file.
      std::vector<std::string> docs = eval::build_documents(lines, doc_bytes);
      const std::size_t max_docs = std::max<std::size_t>(1, per_language / 3);
      for (std::size_t i = 0; i < std::min(docs.size(), max_docs); ++i) {
        prob_sample x;
        if (collect_sample(m, scratch, docs[i * docs.size() / std::min(docs.size(), max_docs)], f.code, 3, x)) v.push_back(std::move(x));
      }
      unsigned long long n = 0;
      for (const std::string& line : lines) {
        if (n >= per_language) break;
        std::vector<std::string> w;
        std::istringstream ss(line);
        for (std::string x; ss >> x;) w.push_back(x);
        if (w.size() < 3) continue;
        ++n;
        for (std::size_t k = 0; k < 3; ++k) {
          std::string t;
          if (k == 2) {
            t = line;
          } else {
            const std::size_t len = k + 1, at = rng() % (w.size() - len + 1);
            for (std::size_t j = 0; j < len; ++j) t += (j ? " " : "") + w[at + j];
          }
          prob_sample x;
          if (collect_sample(m, scratch, t, f.code, k, x)) v.push_back(std::move(x));
        }
      }
    }
  }
  std::size_t per_kind[4] = {};
  for (const prob_sample& x : v) ++per_kind[x.kind];
  for (int k = 0; k < 4; ++k)
    if (per_kind[k] < 20)
      return fail(kProgram, std::string("too few held-out samples of ") + kKinds[k] + " (" + std::to_string(per_kind[k]) + ")");
  // Pattern search over (log scale, log rest): deterministic, and the loss is smooth in both.
  double x[2] = {std::log(0.1), std::log(0.005)}, step[2] = {0.5, 1.0};
  auto cal = [](const double* y) { return probability_calibration{static_cast<float>(std::exp(y[0])), static_cast<float>(std::exp(y[1]))}; };
  double best = log_loss(v, cal(x));
  while (std::max(step[0], step[1]) > 1e-4) {
    bool moved = false;
    for (int i = 0; i < 2 && !moved; ++i)
      for (const double dir : {1.0, -1.0}) {
        double y[2] = {x[0], x[1]};
        y[i] += dir * step[i];
        const double l = log_loss(v, cal(y));
        if (l < best) {
          best = l;
          x[0] = y[0];
          x[1] = y[1];
          moved = true;
          break;
        }
      }
    if (!moved) step[0] /= 2, step[1] /= 2;
  }
  const probability_calibration c = cal(x);
  std::printf("%.4g,%.4g\n", static_cast<double>(c.scale), static_cast<double>(c.rest));
  if (stdout_failed(kProgram, true)) return 1;
  std::vector<float> w;
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<std::pair<double, bool>> pv;
    std::size_t ok = 0;
    double mean = 0;
    for (const prob_sample& y : v)
      if (y.kind == k) {
        pv.emplace_back(answer_probability(y, c, w), y.ok);
        ok += y.ok;
        mean += pv.back().first;
      }
    std::fprintf(stderr, "%s: %s: %zu samples, %.2f %% right, mean probability %.2f %%, ECE %.4f\n", kProgram, kKinds[k],
                 pv.size(), 100.0 * static_cast<double>(ok) / static_cast<double>(pv.size()),
                 100.0 * mean / static_cast<double>(pv.size()), ece_of(pv));
  }
  return 0;
}

constexpr const char* kCalibrateProgram = "langsift-eval calibrate";
constexpr const char* kCalibrateUsage =
    "usage: langsift-eval calibrate [--lines N] MODEL DIR\n"
    "       langsift-eval calibrate --probability [--lines N] [--langs CODES|@FILE] (MODEL DIR)... | --loso WORK";

/// What the command line gives `langsift-eval calibrate`.
struct calibrate_args {
  std::string loso, langs_arg;
  bool probability = false;
  unsigned long long per_language = 150;
};

using option_row = langsift::cli::option<calibrate_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift-eval calibrate`: its parsing and "did you mean" (its usage text is
/// prose that names them).
const std::vector<option_row>& calibrate_options() {
  using A = calibrate_args;
  using V = option_value;
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       std::string(kCalibrateUsage) +
           "\n\n"
           "Fits logistic(A x margin + B) on held-out lines DIR/<code>.txt (single words, word pairs and\n"
           "whole lines, N lines per language, default 150) and prints A,B for `langsift-train\n"
           "--calibration A,B` (early exit and short runs use it). The lines must not have been trained on.\n"
           "\n"
           "--probability fits the calibration of detection's probabilities (model::probability_calibration)\n"
           "on single words, word pairs, lines and documents of at least 400 bytes (consecutive lines,\n"
           "N/3 per language) of each DIR, detected with its MODEL as `detect` does by default, and\n"
           "prints SCALE,REST; the ECE per kind of sample goes to stderr. Give pairs of a model and text\n"
           "it was not trained on, best of another source than its training text: --loso WORK takes\n"
           "every WORK/S.lsm with WORK/S/ (a model trained without source S, and S's held-out text, as\n"
           "langsift's leave-one-source-out script, loso-eval.py --work WORK, leaves them). --langs a,b or\n"
           "--langs @FILE fits on the samples of those languages only (the model's others still compete).\n"},
      {value_kind::size, "--lines", nullptr, "N", "",
       [](A& a, const V& v) { a.per_language = v.size; return true; }, 1, 0, nullptr, "a positive number"},
      {value_kind::flag, "--probability", nullptr, nullptr, "", [](A& a, const V&) { return a.probability = true; }},
      {value_kind::text, "--langs", nullptr, "CODES", "", [](A& a, const V& v) { a.langs_arg = v.text; return true; }, 0,
       0, nullptr, "codes or @FILE"},
      {value_kind::text, "--loso", nullptr, "WORK", "", [](A& a, const V& v) { a.loso = v.text; return true; }, 0, 0,
       nullptr, "a directory"},
  };
  return table;
}

void calibrate_usage(std::FILE* out) { langsift::cli::usage_text(out, calibrate_options(), 0); }

/// --probability: the (MODEL, DIR) pairs of --loso WORK and of the arguments, then the fit. The
/// exit status.
int calibrate_probability(const calibrate_args& a, const std::vector<std::string>& positional) {
  using langsift::cli::fail;
  std::vector<std::pair<std::string, std::string>> pairs;
  if (!a.loso.empty()) {
    std::error_code ec;
    if (!fs::is_directory(a.loso, ec)) return fail(kCalibrateProgram, a.loso + ": not a directory");
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(a.loso, ec))
      if (e.path().extension() == ".lsm" && fs::is_directory(fs::path(a.loso) / e.path().stem(), ec))
        names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    for (const std::string& n : names)
      pairs.emplace_back((fs::path(a.loso) / (n + ".lsm")).string(), (fs::path(a.loso) / n).string());
    if (pairs.empty()) return fail(kCalibrateProgram, a.loso + ": no S.lsm beside a directory S");
  }
  if (positional.size() % 2 != 0 || (positional.empty() && pairs.empty())) return fail(kCalibrateProgram, kCalibrateUsage) + 1;
  for (std::size_t i = 0; i < positional.size(); i += 2) pairs.emplace_back(positional[i], positional[i + 1]);
  std::vector<std::string> langs;
  if (!a.langs_arg.empty() && (!read_codes(a.langs_arg, langs) || langs.empty()))
    return fail(kCalibrateProgram, "--langs: no codes in " + a.langs_arg);
  return fit_probability(pairs, a.per_language, 400, langs);
}

/// A held-out sample: the raw margin of its answer, and whether the answer is right.
struct margin_sample {
  double margin;
  bool ok;
};

/// The samples of DIR/<code>.txt (languages of `m` only): per line with 3 words or more (up to
/// `per_language` lines), a single word, a word pair and the line, detected without early exit.
std::vector<margin_sample> margin_samples(const model& m, const std::string& dir, unsigned long long per_language) {
  std::vector<margin_sample> v;
  std::vector<fs::path> files;
  std::error_code ec;
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
  return v;
}

/// Logistic regression in one variable by Newton's method: A, B of logistic(A x margin + B).
std::pair<double, double> fit_logistic(const std::vector<margin_sample>& v) {
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
  return {a, b};
}

}  // namespace

int langsift::cli::eval_calibrate(int argc, char** argv) {
  constexpr const char* kProgram = kCalibrateProgram;
  calibrate_args args;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, calibrate_options(), calibrate_usage, argc, argv, args, positional); rc >= 0)
    return rc;
  if (args.probability) return calibrate_probability(args, positional);
  if (positional.size() != 2 || !args.loso.empty()) return fail(kProgram, kCalibrateUsage) + 1;
  const std::string &model_path = positional[0], &dir = positional[1];
  model m;
  std::string error;
  if (model::load_file(model_path, m, &error) != status::ok) return fail(kProgram, error);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir + ": not a directory");
  const std::vector<margin_sample> v = margin_samples(m, dir, args.per_language);
  if (v.size() < 100) return fail(kProgram, "too few held-out samples (" + std::to_string(v.size()) + ")");
  const auto [a, b] = fit_logistic(v);
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
