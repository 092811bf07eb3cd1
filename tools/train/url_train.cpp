// `langsift-train url` — trains the URL models (see docs/url.md):
//   langsift-train url [options] LABELLED.tsv -o MODEL        discriminative linear model
//   langsift-train url --words CORPUS_DIR [--langs L] -o MODEL generative words model
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "langsift/detail/xxhash.hpp"  // the models' checksums (XXH3-64)
#include "langsift/url_train.hpp"

namespace langsift::cli {

namespace {

constexpr const char* kUrlProgram = "langsift-train url";

bool parse_orders(const std::string& v, url_feature_config& f) {
  if (v.size() != 3 || v[1] != '-' || v[0] < '1' || v[0] > '7' || v[2] < v[0] || v[2] > '7') return false;
  f.min_order = static_cast<std::uint8_t>(v[0] - '0');
  f.max_order = static_cast<std::uint8_t>(v[2] - '0');
  return true;
}

std::vector<std::string> read_codes(const std::string& arg, std::string& error) {
  std::string text = arg;
  if (!arg.empty() && arg[0] == '@' && !read_file(arg.substr(1), text, error)) return {};
  std::vector<std::string> out;
  std::string cur;
  bool comment = false;
  for (char c : text + "\n") {
    if (c == '#') comment = true;
    if (c == '\n') comment = false;
    if (comment || c == ' ' || c == ',' || c == '\n' || c == '\t' || c == '#') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

/// What the command line gives `langsift-train url`.
struct url_train_args {
  std::string input, output, words_dir, langs_arg;
  url_linear_options lo;
  url_words_options wo;
};

using option_row = option<url_train_args>;

/// A numeric row of `langsift-train url` (described in the usage text's prose, not on a line of its own).
option_row number_row(value_kind kind, const char* name, double lo, double hi, const char* need,
                      bool (*set)(url_train_args&, const option_value&)) {
  return {kind, name, nullptr, nullptr, "", set, lo, hi, nullptr, need};
}

/// The options of `langsift-train url`: its parsing and "did you mean" (its usage text is prose
/// around the -o line).
const std::vector<option_row>& url_options_table() {
  using A = url_train_args;
  using V = option_value;
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-train url [options] LABELLED.tsv -o MODEL\n"
       "       langsift-train url --words CORPUS_DIR [--langs CODES|@FILE] -o MODEL\n\n"
       "The first form trains the discriminative URL model (softmax regression by SGD) from\n"
       "`lang<TAB>url[<TAB>source]` lines; the second the generative words model from one\n"
       "<code>.txt per language (the words of running text).\n\n"},
      {value_kind::text, "-o", nullptr, "MODEL", "the model file to write (required; written whole or not at all)",
       [](A& a, const V& v) { a.output = v.text; return true; }, 0, 0, nullptr, "a file"},
      {value_kind::note, nullptr, nullptr, nullptr,
       "\n"
       "options (linear): --min-urls N (20) languages with fewer URLs are left out;\n"
       "  --epochs N (4); --rate X (0.15) AdaGrad step; --l2 X (1e-6); --balance X (0) example weight (n_max/n_lang)^X;\n"
       "  --prune X (0.3) drop smaller weights; --orders A-B (3-7); --bits N (17) 2^N buckets;\n"
       "  --host-space N (0) host tokens: 0 shared with the path's, 1 own space, 2 both; --name NAME\n"
       "options (words): --max-bytes N (4M) text per language; --top N (2000);\n"
       "  --orders A-B (3-5); --temperature X (8); --bits N (19); --name NAME\n"},
      {value_kind::text, "--words", nullptr, "CORPUS_DIR", "", [](A& a, const V& v) { a.words_dir = v.text; return true; },
       0, 0, nullptr, "a directory"},
      {value_kind::text, "--langs", nullptr, "CODES", "", [](A& a, const V& v) { a.langs_arg = v.text; return true; }, 0,
       0, nullptr, "codes or @FILE"},
      number_row(value_kind::size, "--min-urls", 1, 0, "a number >= 1",
                 [](A& a, const V& v) { a.lo.min_urls = static_cast<std::size_t>(v.size); return true; }),
      number_row(value_kind::size, "--epochs", 1, 1000, "a number in 1..1000",
                 [](A& a, const V& v) { a.lo.epochs = static_cast<unsigned>(v.size); return true; }),
      number_row(value_kind::real, "--balance", 0, 1, "a number in 0..1",
                 [](A& a, const V& v) { a.lo.balance = static_cast<float>(v.real); return true; }),
      number_row(value_kind::real, "--prune", 0, 1e30, "a number >= 0",
                 [](A& a, const V& v) { a.lo.prune = static_cast<float>(v.real); return true; }),
      number_row(value_kind::real, "--rate", 0, 1e30, "a number > 0",
                 [](A& a, const V& v) { a.lo.learning_rate = static_cast<float>(v.real); return v.real > 0; }),
      number_row(value_kind::real, "--l2", 0, 1, "a number in [0, 1)",
                 [](A& a, const V& v) { a.lo.l2 = static_cast<float>(v.real); return v.real < 1; }),
      number_row(value_kind::size, "--max-bytes", 0, 0, "a size",
                 [](A& a, const V& v) { a.wo.max_bytes = static_cast<std::size_t>(v.size); return true; }),
      number_row(value_kind::size, "--top", 10, 0, "a number >= 10",
                 [](A& a, const V& v) { a.wo.top = static_cast<std::size_t>(v.size); return true; }),
      number_row(value_kind::real, "--temperature", 0, 1e30, "a number > 0",
                 [](A& a, const V& v) { a.wo.temperature = static_cast<float>(v.real); return v.real > 0; }),
      {value_kind::text, "--orders", nullptr, "A-B", "",
       [](A& a, const V& v) { return parse_orders(std::string(v.text), a.words_dir.empty() ? a.lo.features : a.wo.features); },
       0, 0, nullptr, "A-B with 1 <= A <= B <= 7"},
      number_row(value_kind::size, "--host-space", 0, 2, "0, 1 or 2",
                 [](A& a, const V& v) {
                   a.lo.features.host_space = a.wo.features.host_space = static_cast<std::uint8_t>(v.size);
                   return true;
                 }),
      number_row(value_kind::size, "--bits", 8, 24, "a number in 8..24",
                 [](A& a, const V& v) {
                   a.lo.bits = a.wo.bits = static_cast<unsigned>(v.size);
                   return true;
                 }),
      {value_kind::text, "--name", nullptr, "NAME", "",
       [](A& a, const V& v) {
         a.lo.name = a.wo.name = std::string(v.text);
         return true;
       }},
  };
  return table;
}

void url_usage(std::FILE* out) { usage_text(out, url_options_table(), 16); }

/// The words model from DIR/<code>.txt (--langs, else every file), or false after the error.
bool train_words(const url_train_args& a, url_model& m) {
  std::string error;
  if (!a.input.empty()) return fail(kUrlProgram, "--words takes no labelled file") == 0;
  std::vector<std::string> langs;
  if (!a.langs_arg.empty()) {
    langs = read_codes(a.langs_arg, error);
    if (!error.empty()) return fail(kUrlProgram, error) == 0;
  } else {
    for (const auto& e : std::filesystem::directory_iterator(a.words_dir))
      if (e.path().extension() == ".txt") langs.push_back(e.path().stem().string());
    std::sort(langs.begin(), langs.end());
  }
  if (langs.empty() || langs.size() > 255) return fail(kUrlProgram, "need 1..255 languages") == 0;
  std::vector<url_words_counter> counters(langs.size());
  for (std::size_t i = 0; i < langs.size(); ++i) {
    std::string text;
    const std::string path = a.words_dir + "/" + langs[i] + ".txt";
    if (!read_file(path, text, error, a.wo.max_bytes)) return fail(kUrlProgram, error) == 0;  // the rest is not read
    counters[i].add_text(text, a.wo.features);
  }
  m = train_url_words(langs, counters, a.wo);
  return true;
}

/// The linear model from the labelled file, or false after the error.
bool train_linear(const url_train_args& a, url_model& m) {
  std::string error, text;
  if (a.input.empty()) return fail(kUrlProgram, "a labelled file (lang<TAB>url lines) is required") == 0;
  if (!read_file(a.input, text, error)) return fail(kUrlProgram, error) == 0;
  const auto rows = parse_labelled_urls(text);
  m = train_url_linear(rows, a.lo);
  if (m.empty()) return fail(kUrlProgram, "fewer than 2 languages with --min-urls URLs") == 0;
  return true;
}

}  // namespace

int train_url(int argc, char** argv) {
  url_train_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kUrlProgram, url_options_table(), url_usage, argc, argv, a, positional); rc >= 0)
    return rc;
  if (positional.size() > 1) return fail(kUrlProgram, "more than one input");
  if (!positional.empty()) a.input = positional[0];
  if (a.output.empty()) return fail(kUrlProgram, "-o MODEL is required (see --help)");
  url_model m;
  if (!(a.words_dir.empty() ? train_linear(a, m) : train_words(a, m))) return 1;
  const std::string bytes = m.save();
  std::string write_error;
  if (!write_file_atomic(a.output, bytes, write_error)) return fail(kUrlProgram, write_error);
  std::size_t used = 0;
  for (const auto b : m.buckets) used += b != 0;
  std::fprintf(stderr, "%s: %zu languages, %zu used buckets, %zu postings in lists, %zu bytes, xxh3 %016llx\n",
               a.output.c_str(), m.languages.size(), used, m.postings.size(), bytes.size(),
               static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return 0;
}

}  // namespace langsift::cli
