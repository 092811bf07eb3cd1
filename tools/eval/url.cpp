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

/// What the command line gives `langsift-eval url`.
struct url_eval_args {
  std::string file, words_path, linear_path, pred_path;  // words_path empty: the built-in model
  unsigned folds = 10;
  std::size_t macro_min = 20, table_min = 100;
  url_linear_options lo;
  url_options combined_opts;
  std::set<std::string> excluded_sources;
};

using option_row = option<url_eval_args>;

/// The rows of the linear training options (as langsift-train url), listed on one usage line.
void add_training_options(std::vector<option_row>& t) {
  using A = url_eval_args;
  using V = option_value;
  constexpr double kBig = 1e30;
  t.push_back({value_kind::real, "--balance", nullptr, "X", "\nlinear training options (as langsift-train url)",
               [](A& a, const V& v) { a.lo.balance = static_cast<float>(v.real); return true; }, -kBig, kBig, nullptr,
               "a number",
               "--balance X, --epochs N, --l2 X, --rate X, --prune X, --orders A-B, --bits N, --host-space N:"});
  t.push_back({value_kind::size, "--epochs", nullptr, "N", "",
               [](A& a, const V& v) { a.lo.epochs = static_cast<unsigned>(v.size); return true; }, 0, 1e9});
  t.push_back({value_kind::real, "--l2", nullptr, "X", "",
               [](A& a, const V& v) { a.lo.l2 = static_cast<float>(v.real); return true; }, -kBig, kBig, nullptr, "a number"});
  t.push_back({value_kind::real, "--rate", nullptr, "X", "",
               [](A& a, const V& v) { a.lo.learning_rate = static_cast<float>(v.real); return true; }, -kBig, kBig, nullptr,
               "a number"});
  t.push_back({value_kind::real, "--prune", nullptr, "X", "",
               [](A& a, const V& v) { a.lo.prune = static_cast<float>(v.real); return true; }, -kBig, kBig, nullptr,
               "a number"});
  t.push_back({value_kind::text, "--orders", nullptr, "A-B", "",
               [](A& a, const V& v) {
                 if (v.text.size() != 3) return false;
                 a.lo.features.min_order = static_cast<std::uint8_t>(v.text[0] - '0');
                 a.lo.features.max_order = static_cast<std::uint8_t>(v.text[2] - '0');
                 return true;
               },
               0, 0, nullptr, "A-B"});
  t.push_back({value_kind::size, "--bits", nullptr, "N", "",
               [](A& a, const V& v) { a.lo.bits = static_cast<unsigned>(v.size); return true; }, 0, 64});
  t.push_back({value_kind::size, "--host-space", nullptr, "N", "",
               [](A& a, const V& v) { a.lo.features.host_space = static_cast<std::uint8_t>(v.size); return true; }, 0, 255});
}

/// The rows of the combination weights (url_options), listed on one usage line.
void add_combination_options(std::vector<option_row>& t) {
  using A = url_eval_args;
  using V = option_value;
  constexpr double kBig = 1e30;
  t.push_back({value_kind::real, "--cctld-boost", nullptr, "X",
               "\ncombination weights (url_options); --words-host: the words model reads host\n"
               "labels even where the path has words",
               [](A& a, const V& v) { a.combined_opts.cctld_boost = static_cast<float>(v.real); return true; }, -kBig, kBig,
               nullptr, "a number",
               "--cctld-boost X, --cctld-floor X, --pattern-boost X, --pattern-floor X, --words-weight X, --words-below X:"});
  t.push_back({value_kind::real, "--cctld-floor", nullptr, "X", "",
               [](A& a, const V& v) { a.combined_opts.cctld_floor = static_cast<float>(v.real); return true; }, -kBig, kBig,
               nullptr, "a number"});
  t.push_back({value_kind::real, "--pattern-boost", nullptr, "X", "",
               [](A& a, const V& v) { a.combined_opts.pattern_boost = static_cast<float>(v.real); return true; }, -kBig,
               kBig, nullptr, "a number"});
  t.push_back({value_kind::real, "--pattern-floor", nullptr, "X", "",
               [](A& a, const V& v) { a.combined_opts.pattern_floor = static_cast<float>(v.real); return true; }, -kBig,
               kBig, nullptr, "a number"});
  t.push_back({value_kind::real, "--words-weight", nullptr, "X", "",
               [](A& a, const V& v) { a.combined_opts.words_weight = static_cast<float>(v.real); return true; }, -kBig,
               kBig, nullptr, "a number"});
  t.push_back({value_kind::real, "--words-below", nullptr, "X", "",
               [](A& a, const V& v) { a.combined_opts.words_below = static_cast<float>(v.real); return true; }, -kBig,
               kBig, nullptr, "a number"});
  t.push_back({value_kind::real, "--hint-boost", nullptr, "X", "",  // not in the usage text
               [](A& a, const V& v) { a.combined_opts.hint_boost = static_cast<float>(v.real); return true; }, -kBig, kBig,
               nullptr, "a number"});
  t.push_back({value_kind::flag, "--words-host", nullptr, nullptr, "",
               [](A& a, const V&) { a.combined_opts.words_path_first = false; return true; }});
}

/// The options of `langsift-eval url`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& url_eval_options() {
  using A = url_eval_args;
  using V = option_value;
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval url [options] FILE\n\n"
                 "FILE has `lang<TAB>url[<TAB>source]` lines. Classifiers: cctld, cctld+ (baselines), words\n"
                 "(generative model from text), linear (discriminative), linear+words, combined (linear +\n"
                 "words + language-code patterns + ccTLD country), words+rules (words + patterns + ccTLD).\n\n"});
    t.push_back({value_kind::text, "--words", nullptr, "MODEL",
                 "the words model (default: the built-in one, as `langsift url` uses)",
                 [](A& a, const V& v) { a.words_path = v.text; return true; }, 0, 0, nullptr, "a file"});
    t.push_back({value_kind::text, "--linear", nullptr, "MODEL",
                 "a linear model trained elsewhere (default: k-fold cross-validation,\n"
                 "training on FILE's other folds with the options below)",
                 [](A& a, const V& v) { a.linear_path = v.text; return true; }, 0, 0, nullptr, "a file"});
    t.push_back({value_kind::size, "--folds", nullptr, "K",
                 "folds for cross-validation (default 10), split by registered domain",
                 [](A& a, const V& v) { a.folds = static_cast<unsigned>(v.size); return true; }, 2, 100});
    t.push_back({value_kind::size, "--min-urls", nullptr, "N",
                 "languages with fewer training URLs are left out of the linear model (20)",
                 [](A& a, const V& v) { a.lo.min_urls = static_cast<std::size_t>(v.size); return true; }, 1, 1 << 30});
    t.push_back({value_kind::size, "--macro-min", nullptr, "N",
                 "macro F1 averages languages with at least N URLs in the subset (20)",
                 [](A& a, const V& v) { a.macro_min = static_cast<std::size_t>(v.size); return true; }, 1, 1 << 30});
    t.push_back({value_kind::size, "--table-min", nullptr, "N",
                 "per-language table for languages with at least N URLs (100)",
                 [](A& a, const V& v) { a.table_min = static_cast<std::size_t>(v.size); return true; }, 1, 1 << 30});
    add_training_options(t);
    add_combination_options(t);
    t.push_back({value_kind::text, "--exclude-source", nullptr, "S",
                 "train the linear model without source S (transfer check; repeatable)",
                 [](A& a, const V& v) { a.excluded_sources.emplace(v.text); return true; }, 0, 0, nullptr, "a source"});
    t.push_back({value_kind::text, "--predictions", nullptr, "FILE",
                 "write lang, url, source and each classifier's answer (TSV)",
                 [](A& a, const V& v) { a.pred_path = v.text; return true; }, 0, 0, nullptr, "a file"});
    return t;
  }();
  return table;
}

void url_eval_usage(std::FILE* out) { usage_text(out, url_eval_options(), 21); }

/// The classifiers compared, in the order of the report's columns.
const std::vector<std::string> kClassifiers = {"cctld", "cctld+", "words", "linear", "linear+words", "combined",
                                               "words+rules"};

/// Each classifier's answer (kClassifiers order) per URL.
using predictions = std::vector<std::vector<std::string>>;

/// The answers of every classifier for the URLs `test`, with `linear` (null: none) and `words`.
void classify_urls(const url_eval_args& a, const url_model* linear, const url_model& words,
                   const std::vector<url_parts>& parts, const std::vector<std::size_t>& test, predictions& pred) {
  url_classifier cls(linear, &words);
  url_options only_words = a.combined_opts, only_linear = a.combined_opts, both = a.combined_opts,
              combined = a.combined_opts, words_rules = a.combined_opts;
  for (url_options* o : {&only_words, &only_linear, &both}) {
    o->use_patterns = false;
    o->use_cctld = false;
  }
  only_words.use_linear = false;
  only_linear.use_words = false;
  words_rules.use_linear = false;
  auto f = std::make_unique<url_features>();
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
}

/// Every URL classified: with the --linear model given, or by k-fold cross-validation with folds
/// split by registered domain (host for IP literals and names without one); prints which.
predictions classify_all(const url_eval_args& a, const std::vector<labelled_url>& rows, const url_model& words,
                         const url_model& given_linear) {
  const std::size_t n = rows.size();
  std::vector<unsigned> fold(n);
  std::vector<url_parts> parts(n);
  for (std::size_t i = 0; i < n; ++i) {
    (void)parse_url(rows[i].url, parts[i]);
    std::string_view key = parts[i].registered_domain();
    if (key.empty()) key = parts[i].host();
    if (key.empty()) key = rows[i].url;
    fold[i] = fnv(key) % a.folds;
  }
  predictions pred(kClassifiers.size(), std::vector<std::string>(n, "und"));
  if (!a.linear_path.empty()) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    classify_urls(a, &given_linear, words, parts, all, pred);
    std::printf("Linear model: %s (given; not cross-validated)\n\n", a.linear_path.c_str());
    return pred;
  }
  std::size_t model_bytes = 0;
  for (unsigned k = 0; k < a.folds; ++k) {
    std::vector<labelled_url> train;
    std::vector<std::size_t> test;
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] == k) test.push_back(i);
      else if (!a.excluded_sources.count(rows[i].source)) train.push_back(rows[i]);
    }
    const url_model m = train_url_linear(train, a.lo);
    model_bytes += m.size_bytes();
    classify_urls(a, m.empty() ? nullptr : &m, words, parts, test, pred);
    std::fprintf(stderr, "fold %u/%u: %zu train, %zu test\n", k + 1, a.folds, train.size(), test.size());
  }
  std::printf("Linear model: %u-fold cross-validation split by registered domain (min-urls %zu; mean model %zu bytes)",
              a.folds, a.lo.min_urls, model_bytes / a.folds);
  if (!a.excluded_sources.empty()) {
    std::printf("; trained without sources:");
    for (const auto& s : a.excluded_sources) std::printf(" %s", s.c_str());
  }
  std::printf("\n\n");
  return pred;
}

/// Classifier `c`'s binary counts for language `lang` over the URLs `idx`.
counts lang_counts(const std::vector<labelled_url>& rows, const predictions& pred, const std::vector<std::size_t>& idx,
                   std::size_t c, const std::string& lang) {
  counts k;
  for (std::size_t i : idx) {
    const bool t = rows[i].language == lang, p = pred[c][i] == lang;
    if (t && p) ++k.tp;
    else if (p) ++k.fp;
    else if (t) ++k.fn;
    else ++k.tn;
  }
  return k;
}

/// The macro F1 table by subset (all, each source, the easylist sources pooled), and the share of
/// "und" answers per classifier.
void print_macro(const url_eval_args& a, const std::vector<labelled_url>& rows, const predictions& pred) {
  const std::size_t n = rows.size(), C = kClassifiers.size();
  std::vector<std::pair<std::string, std::vector<std::size_t>>> subsets;
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
  std::printf("## Macro F1 (%%) by source (languages with >= %zu URLs in the subset)\n\n| subset | URLs | languages |",
              a.macro_min);
  for (const auto& nm : kClassifiers) std::printf(" %s |", nm.c_str());
  std::printf("\n| --- | ---: | ---: |");
  for (std::size_t c = 0; c < C; ++c) std::printf(" ---: |");
  std::printf("\n");
  for (const auto& [name, idx] : subsets) {
    std::map<std::string, std::size_t> m;
    for (std::size_t i : idx) ++m[rows[i].language];
    std::vector<std::string> langs;
    for (auto& [l, c] : m)
      if (c >= a.macro_min) langs.push_back(l);
    std::printf("| %s | %zu | %zu |", name.c_str(), idx.size(), langs.size());
    for (std::size_t c = 0; c < C; ++c) {
      double s = 0;
      for (const auto& l : langs) s += lang_counts(rows, pred, idx, c, l).f1();
      std::printf(" %.1f |", langs.empty() ? 0.0 : 100 * s / static_cast<double>(langs.size()));
    }
    std::printf("\n");
  }
  std::printf("\n(\"und\" answers: ");
  for (std::size_t c = 0; c < C; ++c) {
    std::size_t u = 0;
    for (std::size_t i = 0; i < n; ++i) u += pred[c][i] == "und";
    std::printf("%s%s %.1f %%", c ? ", " : "", kClassifiers[c].c_str(), 100.0 * double(u) / double(n));
  }
  std::printf(")\n\n");
}

/// The per-language table on the whole file (languages with at least --table-min URLs).
void print_per_language(const url_eval_args& a, const std::vector<labelled_url>& rows, const predictions& pred) {
  const std::size_t n = rows.size();
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  std::map<std::string, std::size_t> lc;
  for (const auto& r : rows) ++lc[r.language];
  std::vector<std::pair<std::size_t, std::string>> big;
  for (auto& [l, c] : lc)
    if (c >= a.table_min) big.emplace_back(c, l);
  std::sort(big.rbegin(), big.rend());
  const std::size_t main_c = 5;  // combined
  auto f1 = [&](std::size_t c, const std::string& l) { return 100 * lang_counts(rows, pred, all, c, l).f1(); };
  std::printf("## Per language, whole file (languages with >= %zu URLs), classifier `combined`\n\n", a.table_min);
  std::printf("| language | URLs | P | R = p(+\\|+) | p(-\\|-) | balanced P | F1 | F1 cctld | F1 cctld+ | F1 words | F1 linear | F1 linear+words |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const auto& [c, l] : big) {
    const counts k = lang_counts(rows, pred, all, main_c, l);
    std::printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f | **%.1f** | %.1f | %.1f | %.1f | %.1f | %.1f |\n", l.c_str(), c,
                100 * k.p(), 100 * k.r(), 100 * k.nn(), 100 * k.bp(), 100 * k.f1(), f1(0, l), f1(1, l), f1(2, l), f1(3, l),
                f1(4, l));
  }
  std::printf("\n");
}

/// --predictions: lang, url, source and each classifier's answer (TSV), written atomically.
bool write_predictions(const std::string& path, const std::vector<labelled_url>& rows, const predictions& pred,
                       std::string& error) {
  std::ostringstream out;
  out << "language\turl\tsource";
  for (const auto& nm : kClassifiers) out << '\t' << nm;
  out << '\n';
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out << rows[i].language << '\t' << rows[i].url << '\t' << rows[i].source;
    for (std::size_t c = 0; c < kClassifiers.size(); ++c) out << '\t' << pred[c][i];
    out << '\n';
  }
  return write_file_atomic(path, out.str(), error);
}

}  // namespace

int eval_url(int argc, char** argv) {
  url_eval_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kUrlEval, url_eval_options(), url_eval_usage, argc, argv, a, positional); rc >= 0)
    return rc;
  if (positional.size() > 1) return fail(kUrlEval, "more than one input file");
  if (positional.empty()) return fail(kUrlEval, "FILE is required; see --help") + 1;
  const std::string& file = positional[0];
  std::string text, error;
  if (!read_file(file, text, error)) return fail(kUrlEval, error);
  const std::vector<labelled_url> rows = parse_labelled_urls(text);
  if (rows.empty()) return fail(kUrlEval, file + ": no lang<TAB>url lines");
  url_model words, given_linear;
  if (a.words_path.empty() ? url_model::load_copy(default_url_words_model_bytes(), words, &error) != status::ok
                           : url_model::load_file(a.words_path, words, &error) != status::ok)
    return fail(kUrlEval, a.words_path.empty() ? "the built-in words model: " + error : error);
  if (!a.linear_path.empty() && url_model::load_file(a.linear_path, given_linear, &error) != status::ok)
    return fail(kUrlEval, error);

  const auto t0 = std::chrono::steady_clock::now();
  const predictions pred = classify_all(a, rows, words, given_linear);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("File: %s (%zu URLs), words model: %s (%zu languages). %.1f s.\n\n", file.c_str(), rows.size(),
              a.words_path.empty() ? "built-in" : a.words_path.c_str(), words.languages.size(), secs);
  print_macro(a, rows, pred);
  print_per_language(a, rows, pred);
  if (!a.pred_path.empty() && !write_predictions(a.pred_path, rows, pred, error)) return fail(kUrlEval, error);
  return 0;
}

}  // namespace langsift::cli
