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

void url_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: langsift-train url [options] LABELLED.tsv -o MODEL\n"
               "       langsift-train url --words CORPUS_DIR [--langs CODES|@FILE] -o MODEL\n\n"
               "The first form trains the discriminative URL model (softmax regression by SGD) from\n"
               "`lang<TAB>url[<TAB>source]` lines; the second the generative words model from one\n"
               "<code>.txt per language (the words of running text).\n\n"
               "  -o MODEL      the model file to write (required; written whole or not at all)\n\n"
               "options (linear): --min-urls N (20) languages with fewer URLs are left out;\n"
               "  --epochs N (4); --rate X (0.15) AdaGrad step; --l2 X (1e-6); --balance X (0) example weight (n_max/n_lang)^X;\n"
               "  --prune X (0.3) drop smaller weights; --orders A-B (3-7); --bits N (17) 2^N buckets;\n"
               "  --host-space N (0) host tokens: 0 shared with the path's, 1 own space, 2 both; --name NAME\n"
               "options (words): --max-bytes N (4M) text per language; --top N (2000);\n"
               "  --orders A-B (3-5); --temperature X (8); --bits N (19); --name NAME\n");
}

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

}  // namespace

int train_url(int argc, char** argv) {
  std::string input, output, words_dir, langs_arg, value;
  url_linear_options lo;
  url_words_options wo;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    auto num = [&](double& v) {
      if (missing) return false;
      try {
        v = std::stod(value);
      } catch (...) {
        return false;
      }
      return true;
    };
    double d = 0;
    if (a == "--version") return langsift::cli::print_version("langsift-train url");
    if (a == "-h" || a == "--help") {
      url_usage(stdout);
      return 0;
    } else if (take_option(argc, argv, i, "-o", output, missing)) {
    } else if (take_option(argc, argv, i, "--words", words_dir, missing)) {
    } else if (take_option(argc, argv, i, "--langs", langs_arg, missing)) {
    } else if (take_option(argc, argv, i, "--min-urls", value, missing)) {
      if (!num(d) || d < 1) return fail(kUrlProgram, "--min-urls needs a number >= 1");
      lo.min_urls = static_cast<std::size_t>(d);
    } else if (take_option(argc, argv, i, "--epochs", value, missing)) {
      if (!num(d) || d < 1 || d > 1000) return fail(kUrlProgram, "--epochs needs a number in 1..1000");
      lo.epochs = static_cast<unsigned>(d);
    } else if (take_option(argc, argv, i, "--balance", value, missing)) {
      if (!num(d) || d < 0 || d > 1) return fail(kUrlProgram, "--balance needs a number in 0..1");
      lo.balance = static_cast<float>(d);
    } else if (take_option(argc, argv, i, "--prune", value, missing)) {
      if (!num(d) || d < 0) return fail(kUrlProgram, "--prune needs a number >= 0");
      lo.prune = static_cast<float>(d);
    } else if (take_option(argc, argv, i, "--rate", value, missing)) {
      if (!num(d) || !(d > 0)) return fail(kUrlProgram, "--rate needs a number > 0");
      lo.learning_rate = static_cast<float>(d);
    } else if (take_option(argc, argv, i, "--l2", value, missing)) {
      if (!num(d) || d < 0 || d >= 1) return fail(kUrlProgram, "--l2 needs a number in [0, 1)");
      lo.l2 = static_cast<float>(d);
    } else if (take_option(argc, argv, i, "--max-bytes", value, missing)) {
      auto x = missing ? std::nullopt : parse_size(value);
      if (!x) return fail(kUrlProgram, "--max-bytes needs a size");
      wo.max_bytes = static_cast<std::size_t>(*x);
    } else if (take_option(argc, argv, i, "--top", value, missing)) {
      if (!num(d) || d < 10) return fail(kUrlProgram, "--top needs a number >= 10");
      wo.top = static_cast<std::size_t>(d);
    } else if (take_option(argc, argv, i, "--temperature", value, missing)) {
      if (!num(d) || !(d > 0)) return fail(kUrlProgram, "--temperature needs a number > 0");
      wo.temperature = static_cast<float>(d);
    } else if (take_option(argc, argv, i, "--orders", value, missing)) {
      url_feature_config& f = words_dir.empty() ? lo.features : wo.features;
      if (missing || !parse_orders(value, f)) return fail(kUrlProgram, "--orders needs A-B with 1 <= A <= B <= 7");
    } else if (take_option(argc, argv, i, "--host-space", value, missing)) {
      if (!num(d) || d < 0 || d > 2) return fail(kUrlProgram, "--host-space needs 0, 1 or 2");
      lo.features.host_space = wo.features.host_space = static_cast<std::uint8_t>(d);
    } else if (take_option(argc, argv, i, "--bits", value, missing)) {
      if (!num(d) || d < 8 || d > 24) return fail(kUrlProgram, "--bits needs a number in 8..24");
      lo.bits = wo.bits = static_cast<unsigned>(d);
    } else if (take_option(argc, argv, i, "--name", value, missing)) {
      lo.name = wo.name = value;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return unknown_option(kUrlProgram, a, url_usage);
    } else if (input.empty()) {
      input = argv[i];
    } else {
      return fail(kUrlProgram, "more than one input");
    }
    if (missing) return fail(kUrlProgram, std::string(a) + " needs a value");
  }
  if (output.empty()) return fail(kUrlProgram, "-o MODEL is required (see --help)");
  url_model m;
  std::string error;
  if (!words_dir.empty()) {
    if (!input.empty()) return fail(kUrlProgram, "--words takes no labelled file");
    std::vector<std::string> langs;
    if (!langs_arg.empty()) {
      langs = read_codes(langs_arg, error);
      if (!error.empty()) return fail(kUrlProgram, error);
    } else {
      for (const auto& e : std::filesystem::directory_iterator(words_dir))
        if (e.path().extension() == ".txt") langs.push_back(e.path().stem().string());
      std::sort(langs.begin(), langs.end());
    }
    if (langs.empty() || langs.size() > 255) return fail(kUrlProgram, "need 1..255 languages");
    std::vector<url_words_counter> counters(langs.size());
    for (std::size_t i = 0; i < langs.size(); ++i) {
      std::string text;
      const std::string path = words_dir + "/" + langs[i] + ".txt";
      if (!read_file(path, text, error, wo.max_bytes)) return fail(kUrlProgram, error);  // the rest is not read
      counters[i].add_text(text, wo.features);
    }
    m = train_url_words(langs, counters, wo);
  } else {
    if (input.empty()) return fail(kUrlProgram, "a labelled file (lang<TAB>url lines) is required");
    std::string text;
    if (!read_file(input, text, error)) return fail(kUrlProgram, error);
    const auto rows = parse_labelled_urls(text);
    m = train_url_linear(rows, lo);
    if (m.empty()) return fail(kUrlProgram, "fewer than 2 languages with --min-urls URLs");
  }
  const std::string bytes = m.save();
  std::string write_error;
  if (!write_file_atomic(output, bytes, write_error)) return fail(kUrlProgram, write_error);
  std::size_t used = 0;
  for (const auto b : m.buckets) used += b != 0;
  std::fprintf(stderr, "%s: %zu languages, %zu used buckets, %zu postings in lists, %zu bytes, xxh3 %016llx\n",
               output.c_str(), m.languages.size(), used, m.postings.size(), bytes.size(),
               static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return 0;
}

}  // namespace langsift::cli
