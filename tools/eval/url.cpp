// `langsift-eval url FILE` — URL-only language classification scored with the binary-classifier
// metrics of Baykan, Henzinger & Weber (2013): per language P, R = p(+|+), p(−|−), precision in the
// balanced setting, F1; macro F1; per source (the TSV's third column). The discriminative model is
// scored by k-fold cross-validation with folds split by registered domain (so no host is both
// trained and tested on), unless a model is given with --linear.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "langsift/url_models.hpp"
#include "langsift/url_train.hpp"

namespace langsift::cli {

namespace {

constexpr const char* kUrlEval = "langsift-eval url";

void url_eval_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: langsift-eval url [options] FILE\n\n"
               "FILE has `lang<TAB>url[<TAB>source]` lines. Classifiers: cctld, cctld+ (baselines), words\n"
               "(generative model from text), linear (discriminative), linear+words, combined (linear +\n"
               "words + language-code patterns + ccTLD country), words+rules (words + patterns + ccTLD).\n\n"
               "  --words MODEL      the words model (default: the built-in one, as `langsift url` uses)\n"
               "  --linear MODEL     a linear model trained elsewhere (default: k-fold cross-validation,\n"
               "                     training on FILE's other folds with the options below)\n"
               "  --folds K          folds for cross-validation (default 10), split by registered domain\n"
               "  --min-urls N       languages with fewer training URLs are left out of the linear model (20)\n"
               "  --macro-min N      macro F1 averages languages with at least N URLs in the subset (20)\n"
               "  --table-min N      per-language table for languages with at least N URLs (100)\n"
               "  --balance X, --epochs N, --l2 X, --rate X, --prune X, --orders A-B, --bits N, --host-space N:\n"
               "                     linear training options (as langsift-train url)\n"
               "  --cctld-boost X, --cctld-floor X, --pattern-boost X, --pattern-floor X, --words-weight X, --words-below X:\n"
               "                     combination weights (url_options); --words-host: the words model reads host\n"
               "                     labels even where the path has words\n"
               "  --exclude-source S train the linear model without source S (transfer check; repeatable)\n"
               "  --predictions FILE write lang, url, source and each classifier's answer (TSV)\n");
}

struct counts {
  std::size_t tp = 0, fp = 0, fn = 0, tn = 0;
  double p() const { return tp + fp ? double(tp) / double(tp + fp) : 0; }
  double r() const { return tp + fn ? double(tp) / double(tp + fn) : 0; }
  double nn() const { return tn + fp ? double(tn) / double(tn + fp) : 1; }
  double bp() const {
    const double rr = r(), fpr = 1 - nn();
    return rr + fpr > 0 ? rr / (rr + fpr) : 0;
  }
  double f1() const {
    const double pp = p(), rr = r();
    return pp + rr > 0 ? 2 * pp * rr / (pp + rr) : 0;
  }
};

std::uint32_t fnv(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace

int eval_url(int argc, char** argv) {
  std::string file, words_path, linear_path, pred_path, value;  // words_path empty: the built-in model
  unsigned folds = 10;
  std::size_t macro_min = 20, table_min = 100;
  url_linear_options lo;
  url_options combined_opts;
  std::set<std::string> excluded_sources;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    auto number = [&](std::size_t lo_, std::size_t hi, std::size_t& v) {
      auto x = missing ? std::nullopt : parse_size(value);
      if (!x || *x < lo_ || *x > hi) return false;
      v = static_cast<std::size_t>(*x);
      return true;
    };
    std::size_t v = 0;
    if (a == "--version") return langsift::cli::print_version("langsift-eval url");
    if (a == "-h" || a == "--help") {
      url_eval_usage(stdout);
      return 0;
    } else if (take_option(argc, argv, i, "--words", words_path, missing)) {
    } else if (take_option(argc, argv, i, "--linear", linear_path, missing)) {
    } else if (take_option(argc, argv, i, "--predictions", pred_path, missing)) {
    } else if (take_option(argc, argv, i, "--folds", value, missing)) {
      if (!number(2, 100, v)) return fail(kUrlEval, "--folds needs a number in 2..100");
      folds = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--min-urls", value, missing)) {
      if (!number(1, 1u << 30, v)) return fail(kUrlEval, "--min-urls needs a number >= 1");
      lo.min_urls = v;
    } else if (take_option(argc, argv, i, "--macro-min", value, missing)) {
      if (!number(1, 1u << 30, v)) return fail(kUrlEval, "--macro-min needs a number >= 1");
      macro_min = v;
    } else if (take_option(argc, argv, i, "--table-min", value, missing)) {
      if (!number(1, 1u << 30, v)) return fail(kUrlEval, "--table-min needs a number >= 1");
      table_min = v;
    } else if (take_option(argc, argv, i, "--balance", value, missing)) {
      lo.balance = std::stof(value);
    } else if (take_option(argc, argv, i, "--epochs", value, missing)) {
      lo.epochs = static_cast<unsigned>(std::stoul(value));
    } else if (take_option(argc, argv, i, "--l2", value, missing)) {
      lo.l2 = std::stof(value);
    } else if (take_option(argc, argv, i, "--rate", value, missing)) {
      lo.learning_rate = std::stof(value);
    } else if (take_option(argc, argv, i, "--host-space", value, missing)) {
      lo.features.host_space = static_cast<std::uint8_t>(std::stoul(value));
    } else if (take_option(argc, argv, i, "--cctld-boost", value, missing)) {
      combined_opts.cctld_boost = std::stof(value);
    } else if (take_option(argc, argv, i, "--cctld-floor", value, missing)) {
      combined_opts.cctld_floor = std::stof(value);
    } else if (take_option(argc, argv, i, "--pattern-boost", value, missing)) {
      combined_opts.pattern_boost = std::stof(value);
    } else if (take_option(argc, argv, i, "--pattern-floor", value, missing)) {
      combined_opts.pattern_floor = std::stof(value);
    } else if (take_option(argc, argv, i, "--hint-boost", value, missing)) {
      combined_opts.hint_boost = std::stof(value);
    } else if (a == "--words-host") {
      combined_opts.words_path_first = false;
    } else if (take_option(argc, argv, i, "--words-weight", value, missing)) {
      combined_opts.words_weight = std::stof(value);
    } else if (take_option(argc, argv, i, "--words-below", value, missing)) {
      combined_opts.words_below = std::stof(value);
    } else if (take_option(argc, argv, i, "--bits", value, missing)) {
      lo.bits = static_cast<unsigned>(std::stoul(value));
    } else if (take_option(argc, argv, i, "--prune", value, missing)) {
      lo.prune = std::stof(value);
    } else if (take_option(argc, argv, i, "--orders", value, missing)) {
      if (value.size() != 3) return fail(kUrlEval, "--orders needs A-B");
      lo.features.min_order = static_cast<std::uint8_t>(value[0] - '0');
      lo.features.max_order = static_cast<std::uint8_t>(value[2] - '0');
    } else if (take_option(argc, argv, i, "--exclude-source", value, missing)) {
      excluded_sources.insert(value);
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return unknown_option(kUrlEval, a, url_eval_usage);
    } else if (file.empty()) {
      file = argv[i];
    } else {
      return fail(kUrlEval, "more than one input file");
    }
    if (missing) return fail(kUrlEval, std::string(a) + " needs a value");
  }
  if (file.empty()) return fail(kUrlEval, "FILE is required; see --help") + 1;
  std::string text, error;
  if (!read_file(file, text, error)) return fail(kUrlEval, error);
  const std::vector<labelled_url> rows = parse_labelled_urls(text);
  if (rows.empty()) return fail(kUrlEval, file + ": no lang<TAB>url lines");

  url_model words, given_linear;
  if (words_path.empty() ? url_model::load_copy(default_url_words_model_bytes(), words, &error) != status::ok
                         : url_model::load_file(words_path, words, &error) != status::ok)
    return fail(kUrlEval, words_path.empty() ? "the built-in words model: " + error : error);
  if (!linear_path.empty() && url_model::load_file(linear_path, given_linear, &error) != status::ok)
    return fail(kUrlEval, error);

  // Parse once; folds by registered domain (host for IP literals and names without one).
  const std::size_t n = rows.size();
  std::vector<unsigned> fold(n);
  std::vector<url_parts> parts(n);
  for (std::size_t i = 0; i < n; ++i) {
    (void)parse_url(rows[i].url, parts[i]);
    std::string_view key = parts[i].registered_domain();
    if (key.empty()) key = parts[i].host();
    if (key.empty()) key = rows[i].url;
    fold[i] = fnv(key) % folds;
  }

  const std::vector<std::string> names = {"cctld", "cctld+", "words", "linear", "linear+words", "combined",
                                          "words+rules"};
  const std::size_t C = names.size();
  std::vector<std::vector<std::string>> pred(C, std::vector<std::string>(n, "und"));
  auto f = std::make_unique<url_features>();
  auto run_fold = [&](const url_model* linear, const std::vector<std::size_t>& test) {
    url_classifier cls(linear, &words);
    url_options only_words = combined_opts, only_linear = combined_opts, both = combined_opts,
                combined = combined_opts, words_rules = combined_opts;
    for (url_options* o : {&only_words, &only_linear, &both}) {
      o->use_patterns = false;
      o->use_cctld = false;
    }
    only_words.use_linear = false;
    only_linear.use_words = false;
    words_rules.use_linear = false;
    for (std::size_t i : test) {
      url_extract_features(parts[i], cls.feature_config(), *f);
      pred[0][i] = std::string(cctld_language(parts[i]));
      pred[1][i] = std::string(cctld_plus_language(parts[i]));
      const url_options* opts[] = {&only_words, &only_linear, &both, &combined, &words_rules};
      for (std::size_t k = 0; k < 5; ++k) {
        const url_result r = cls.classify_features(parts[i], *f, *opts[k]);
        pred[2 + k][i] = std::string(r.language());
      }
      for (std::size_t k = 0; k < 2; ++k)
        if (pred[k][i].empty()) pred[k][i] = "und";
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  if (!linear_path.empty()) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    run_fold(&given_linear, all);
    std::printf("Linear model: %s (given; not cross-validated)\n\n", linear_path.c_str());
  } else {
    std::size_t model_bytes = 0;
    for (unsigned k = 0; k < folds; ++k) {
      std::vector<labelled_url> train;
      std::vector<std::size_t> test;
      for (std::size_t i = 0; i < n; ++i) {
        if (fold[i] == k) test.push_back(i);
        else if (!excluded_sources.count(rows[i].source)) train.push_back(rows[i]);
      }
      const url_model m = train_url_linear(train, lo);
      model_bytes += m.size_bytes();
      run_fold(m.empty() ? nullptr : &m, test);
      std::fprintf(stderr, "fold %u/%u: %zu train, %zu test\n", k + 1, folds, train.size(), test.size());
    }
    std::printf("Linear model: %u-fold cross-validation split by registered domain (min-urls %zu; mean model %zu bytes)",
                folds, lo.min_urls, model_bytes / folds);
    if (!excluded_sources.empty()) {
      std::printf("; trained without sources:");
      for (const auto& s : excluded_sources) std::printf(" %s", s.c_str());
    }
    std::printf("\n\n");
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("File: %s (%zu URLs), words model: %s (%zu languages). %.1f s.\n\n", file.c_str(), n,
              words_path.empty() ? "built-in" : words_path.c_str(),
              words.languages.size(), secs);

  // Subsets: all, each source, and the host-only easylist sources pooled.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> subsets;
  {
    std::map<std::string, std::vector<std::size_t>> by_source;
    std::vector<std::size_t> all, easy;
    for (std::size_t i = 0; i < n; ++i) {
      all.push_back(i);
      by_source[rows[i].source].push_back(i);
      if (rows[i].source.rfind("easylist-", 0) == 0) easy.push_back(i);
    }
    subsets.emplace_back("all", all);
    for (auto& [s, v] : by_source) subsets.emplace_back(s.empty() ? "(none)" : s, v);
    if (!easy.empty()) subsets.emplace_back("easylist-* pooled", easy);
  }
  auto lang_counts = [&](const std::vector<std::size_t>& idx, std::size_t c, const std::string& lang) {
    counts k;
    for (std::size_t i : idx) {
      const bool t = rows[i].language == lang, p = pred[c][i] == lang;
      if (t && p) ++k.tp;
      else if (p) ++k.fp;
      else if (t) ++k.fn;
      else ++k.tn;
    }
    return k;
  };
  auto macro_langs = [&](const std::vector<std::size_t>& idx) {
    std::map<std::string, std::size_t> m;
    for (std::size_t i : idx) ++m[rows[i].language];
    std::vector<std::string> out;
    for (auto& [l, c] : m)
      if (c >= macro_min) out.push_back(l);
    return out;
  };

  std::printf("## Macro F1 (%%) by source (languages with >= %zu URLs in the subset)\n\n| subset | URLs | languages |",
              macro_min);
  for (const auto& nm : names) std::printf(" %s |", nm.c_str());
  std::printf("\n| --- | ---: | ---: |");
  for (std::size_t c = 0; c < C; ++c) std::printf(" ---: |");
  std::printf("\n");
  for (const auto& [name, idx] : subsets) {
    const auto langs = macro_langs(idx);
    std::printf("| %s | %zu | %zu |", name.c_str(), idx.size(), langs.size());
    for (std::size_t c = 0; c < C; ++c) {
      double s = 0;
      for (const auto& l : langs) s += lang_counts(idx, c, l).f1();
      std::printf(" %.1f |", langs.empty() ? 0.0 : 100 * s / static_cast<double>(langs.size()));
    }
    std::printf("\n");
  }
  std::printf("\n(\"und\" answers: ");
  for (std::size_t c = 0; c < C; ++c) {
    std::size_t u = 0;
    for (std::size_t i = 0; i < n; ++i) u += pred[c][i] == "und";
    std::printf("%s%s %.1f %%", c ? ", " : "", names[c].c_str(), 100.0 * double(u) / double(n));
  }
  std::printf(")\n\n");

  // Per-language table on the whole file.
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  std::map<std::string, std::size_t> lc;
  for (const auto& r : rows) ++lc[r.language];
  std::vector<std::pair<std::size_t, std::string>> big;
  for (auto& [l, c] : lc)
    if (c >= table_min) big.emplace_back(c, l);
  std::sort(big.rbegin(), big.rend());
  const std::size_t main_c = 5;  // combined
  std::printf("## Per language, whole file (languages with >= %zu URLs), classifier `combined`\n\n", table_min);
  std::printf("| language | URLs | P | R = p(+\\|+) | p(-\\|-) | balanced P | F1 | F1 cctld | F1 cctld+ | F1 words | F1 linear | F1 linear+words |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const auto& [c, l] : big) {
    const counts k = lang_counts(all, main_c, l);
    std::printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f | **%.1f** | %.1f | %.1f | %.1f | %.1f | %.1f |\n", l.c_str(), c,
                100 * k.p(), 100 * k.r(), 100 * k.nn(), 100 * k.bp(), 100 * k.f1(), 100 * lang_counts(all, 0, l).f1(),
                100 * lang_counts(all, 1, l).f1(), 100 * lang_counts(all, 2, l).f1(), 100 * lang_counts(all, 3, l).f1(),
                100 * lang_counts(all, 4, l).f1());
  }
  std::printf("\n");

  if (!pred_path.empty()) {
    std::ostringstream out;
    out << "language\turl\tsource";
    for (const auto& nm : names) out << '\t' << nm;
    out << '\n';
    for (std::size_t i = 0; i < n; ++i) {
      out << rows[i].language << '\t' << rows[i].url << '\t' << rows[i].source;
      for (std::size_t c = 0; c < C; ++c) out << '\t' << pred[c][i];
      out << '\n';
    }
    if (!write_file_atomic(pred_path, out.str(), error)) return fail(kUrlEval, error);
  }
  return 0;
}

}  // namespace langsift::cli
