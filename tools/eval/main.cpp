// `langsift-eval` — accuracy evaluation. One mode per file in this directory.
#include <cstdio>
#include <string>
#include <string_view>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "langsift/version.hpp"

namespace {

struct mode {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
};

constexpr mode kModes[] = {
    {"calibrate", langsift::cli::eval_calibrate,
     "fit a model's calibrations on held-out lines (langsift-train --calibration; --probability)"},
    {"calibration", langsift::cli::eval_calibration,
     "ECE and reliability table of detection's probabilities on <code>.txt sample sets"},
    {"encoding", langsift::cli::eval_encoding,
     "score encoding detection on a directory laid out as <lang>/<charset>.txt"},
    {"main-content", langsift::cli::eval_main_content, "score HTML main-content extraction against gold texts"},
    {"lang", langsift::cli::eval_lang, "accuracy of language identification on <code>.txt sample files"},
    {"docs", langsift::cli::eval_docs, "per-language precision on documents of N bytes (ClueWeb09 protocol)"},
    {"mixed", langsift::cli::eval_mixed, "reported percents of two-language documents against true byte shares"},
    {"spans", langsift::cli::eval_spans, "language spans of two- and three-language documents: bytes right, boundary error"},
    {"junk", langsift::cli::eval_junk, "text that is not language: share und or unreliable per category"},
    {"url", langsift::cli::eval_url, "URL-only language classification: P, R, p(-|-), F1 per language and source, k-fold CV"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: langsift-eval <mode> [options] [args]\n\nmodes:\n");
  for (const auto& m : kModes) std::fprintf(out, "  %-13s %s\n", m.name, m.summary);
  std::fprintf(out, "\n`langsift-eval <mode> --help` describes a mode. langsift %s\n", langsift::version());
}

}  // namespace

namespace {
int run_main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "langsift-eval: a mode is needed (lang, docs, mixed, spans, junk, url, encoding, main-content, calibrate, calibration); see --help\n");
    return 2;
  }
  std::string_view m = argv[1];
  if (m == "--version") return langsift::cli::print_version("langsift-eval");
  if (m == "--help" || m == "-h" || m == "help") {
    usage(stdout);
    return 0;
  }
  for (const auto& x : kModes)
    if (m == x.name) return x.run(argc - 1, argv + 1);
  std::fprintf(stderr, "langsift-eval: unknown mode '%s'; see --help\n", argv[1]);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string program = "langsift-eval";
  for (const auto& x : kModes)
    if (argc > 1 && std::string_view(argv[1]) == x.name) program += std::string(" ") + x.name;
  return langsift::cli::run(program, nullptr, [&] { return run_main(argc, argv); });
}
