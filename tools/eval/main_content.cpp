// `langsift-eval main-content DIR` — scores the main-content mode of the HTML extractor against
// gold texts: every DIR/<name>.html with a DIR/<name>.main.txt beside it.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bag_of_words.hpp"
#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "langsift/html.hpp"

namespace fs = std::filesystem;

namespace {

constexpr const char* kProgram = "langsift-eval main-content";

/// What the command line gives `langsift-eval main-content`.
struct main_content_args {
  std::string base = "http://example.com/page.html";
  bool markdown = false, tsv = false;
};

using option_row = langsift::cli::option<main_content_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift-eval main-content`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
       "usage: langsift-eval main-content [options] DIR\n"
       "\n"
       "For every DIR/<name>.html that has a gold file DIR/<name>.main.txt (the text that should be\n"
       "kept), extracts the text twice, with the main-content rules (--main) and in full-text mode,\n"
       "and prints token-level (bag of words) precision, recall and F1 against the gold text, per\n"
       "page and overall (micro: pooled token counts; macro: mean of the per-page F1).\n"
       "Tokens are runs of letters and digits, ASCII lower-cased; each Han/Kana/Thai letter is one\n"
       "token; punctuation is ignored.\n"
       "\n"
       "options:\n"},
      {value_kind::text, "--base", nullptr, "URL", "page URL passed to the extractor (default: http://example.com/page.html)",
       [](main_content_args& a, const option_value& v) { a.base = v.text; return true; }, 0, 0, nullptr, "a URL"},
      {value_kind::flag, "--markdown", nullptr, nullptr, "print a markdown table",
       [](main_content_args& a, const option_value&) { return a.markdown = true; }},
      {value_kind::flag, "--tsv", nullptr, nullptr, "print tab-separated values",
       [](main_content_args& a, const option_value&) { return a.tsv = true; }},
      {value_kind::note, nullptr, nullptr, nullptr, "  -h, --help    this help\n"},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 16); }

struct row {
  std::string name;
  langsift::eval::overlap_score main, full;
};

}  // namespace

int langsift::cli::eval_main_content(int argc, char** argv) {
  main_content_args a;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (positional.size() > 1) return fail(kProgram, "only one DIR, please") + 1;
  if (positional.empty()) return langsift::cli::fail(kProgram, "DIR is required; see --help") + 1;
  const std::string& dir = positional[0];
  const std::string& base = a.base;
  const bool markdown = a.markdown, tsv = a.tsv;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(kProgram, dir + ": not a directory");

  std::vector<fs::path> pages;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    if (p.extension() == ".html" && fs::exists(fs::path(p).replace_extension(".main.txt")))
      pages.push_back(p);
  }
  if (ec) return fail(kProgram, dir + ": " + ec.message());
  if (pages.empty()) return fail(kProgram, dir + ": no <name>.html with a <name>.main.txt");
  std::sort(pages.begin(), pages.end());

  std::vector<row> rows;
  html_result r;
  for (const fs::path& p : pages) {
    std::string html, gold, error;
    if (!read_file(p.string(), html, error)) return fail(kProgram, error);
    if (!read_file(fs::path(p).replace_extension(".main.txt").string(), gold, error))
      return fail(kProgram, error);
    row x;
    x.name = p.stem().string();
    html_options opt;
    opt.base_url = base;
    opt.collect_links = false;
    extract_html(html, opt, r);
    x.full = eval::score_overlap(r.text, gold);
    opt.main_content = true;
    extract_html(html, opt, r);
    x.main = eval::score_overlap(r.text, gold);
    rows.push_back(x);
  }

  eval::overlap_score micro_main, micro_full;
  double macro_main = 0, macro_full = 0;
  for (const row& x : rows) {
    micro_main += x.main;
    micro_full += x.full;
    macro_main += x.main.f1();
    macro_full += x.full.f1();
  }
  macro_main /= static_cast<double>(rows.size());
  macro_full /= static_cast<double>(rows.size());

  auto line = [&](const std::string& name, const eval::overlap_score& m, const eval::overlap_score& f,
                  std::size_t gold) {
    if (tsv)
      std::printf("%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%zu\t%zu\t%zu\n", name.c_str(), m.precision(),
                  m.recall(), m.f1(), f.precision(), f.recall(), f.f1(), gold, m.predicted, f.predicted);
    else if (markdown)
      std::printf("| %s | %.3f | %.3f | **%.3f** | %.3f | %.3f | %.3f | %zu / %zu / %zu |\n", name.c_str(),
                  m.precision(), m.recall(), m.f1(), f.precision(), f.recall(), f.f1(), gold, m.predicted,
                  f.predicted);
    else
      std::printf("%-22s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f   %6zu %6zu %6zu\n", name.c_str(), m.precision(),
                  m.recall(), m.f1(), f.precision(), f.recall(), f.f1(), gold, m.predicted, f.predicted);
  };
  if (tsv)
    std::printf("page\tmain_p\tmain_r\tmain_f1\tfull_p\tfull_r\tfull_f1\tgold_words\tmain_words\tfull_words\n");
  else if (markdown)
    std::printf("| page | --main P | R | F1 | full text P | R | F1 | words gold / main / full |\n"
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  else
    std::printf("%-22s %6s %6s %6s   %6s %6s %6s   %6s %6s %6s\n", "page", "P", "R", "F1", "P", "R", "F1",
                "gold", "main", "full");
  if (!tsv && !markdown)
    std::printf("%-22s %20s   %20s\n", "", "------ --main ------", "---- full text -----");
  for (const row& x : rows) line(x.name, x.main, x.full, x.main.gold);
  line("overall (micro)", micro_main, micro_full, micro_main.gold);
  if (tsv)
    std::printf("overall (macro F1)\t\t\t%.3f\t\t\t%.3f\n", macro_main, macro_full);
  else if (markdown)
    std::printf("| mean of page F1 (macro) | | | **%.3f** | | | %.3f | |\n", macro_main, macro_full);
  else
    std::printf("%-22s %20.3f   %20.3f\n", "mean F1 (macro)", macro_main, macro_full);
  return 0;
}
