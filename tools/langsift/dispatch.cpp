// `langsift` — the dispatch to the subcommands, shared by the executable (main.cpp) and the
// Python package (`python3 -m langsift`, bindings/python/src/cli.cpp), which run this same code.
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "common/cli.hpp"
#include "langsift/version.hpp"
#include "subcommands.hpp"

namespace {

struct subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
  const char* memory_hint;  // what lowers the command's memory, for its out-of-memory message
};

constexpr subcommand kSubcommands[] = {
    {"detect", langsift::cli::cmd_detect, "identify the languages of documents (the whole pipeline)",
     "lower --max-input-bytes or -j"},
    {"encoding", langsift::cli::cmd_encoding, "detect the character encoding of files", nullptr},
    {"text", langsift::cli::cmd_text, "extract UTF-8 text (and optionally main content) from a page",
     "lower --max-bytes"},
    {"url", langsift::cli::cmd_url, "the language of a page from its URL alone (before fetching)", nullptr},
    {"warc", langsift::cli::cmd_warc, "languages and encodings of the pages in WARC files (JSONL, --stats)",
     "lower --max-record-bytes or -j"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: langsift <command> [options] [args]\n\ncommands:\n");
  for (const auto& c : kSubcommands) std::fprintf(out, "  %-13s %s\n", c.name, c.summary);
  std::fprintf(out, "\n`langsift <command> --help` describes a command. langsift %s\n", langsift::version());
}

int run_main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "langsift: a command is needed (detect, encoding, text, url, warc); see --help\n");
    return 2;
  }
  std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  if (cmd == "--version") {
    std::printf("langsift %s\n", langsift::version());
    return 0;
  }
  for (const auto& c : kSubcommands)
    if (cmd == c.name) return c.run(argc - 1, argv + 1);
  std::string best;
  std::size_t best_d = 3;
  for (const auto& c : kSubcommands)
    if (const std::size_t d = langsift::cli::edit_distance(cmd, c.name); d < best_d) {
      best_d = d;
      best = c.name;
    }
  std::fprintf(stderr, "langsift: unknown command '%s'%s; see --help\n", argv[1],
               best.empty() ? "" : (" (did you mean " + best + "?)").c_str());
  return 2;
}

}  // namespace

int langsift::cli::langsift_main(int argc, char** argv, bool embedded) {
  // Out of memory and write errors on stdout are reported in the name of the command that ran.
  std::string program = "langsift";
  const char* hint = nullptr;
  for (const auto& c : kSubcommands)
    if (argc > 1 && std::string_view(argv[1]) == c.name) {
      program += std::string(" ") + c.name;
      hint = c.memory_hint;
    }
  if (!embedded) return run(program, hint, [&] { return run_main(argc, argv); });
  // In a host process (Python): as run() does, but stdout is flushed, not closed (the host writes
  // to it afterwards), and the write-error state of an earlier call is forgotten.
  keep_standard_descriptors();
  std::clearerr(stdout);
  detail::g_stdout_error_reported = false;
  detail::g_stdout_errno = 0;
  int rc;
  try {
    rc = run_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory (give the process more memory%s%s)\n", program.c_str(), hint ? ", or " : "",
                 hint ? hint : "");
    rc = 1;
  }
  if (stdout_failed(program, true) && rc == 0) rc = 1;
  std::fflush(stderr);
  return rc;
}
