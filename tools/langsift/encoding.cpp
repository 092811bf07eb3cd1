// `langsift encoding [--content-type V] [--max-bytes N] [--no-meta] FILE...`
// One line per file: FILE<TAB>encoding<TAB>source<TAB>confidence.
#include <cstdio>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/input.hpp"
#include "langsift/encoding.hpp"
#include "subcommands.hpp"

namespace {

constexpr const char* k_prog = "langsift encoding";

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: langsift encoding [options] FILE...\n"
               "\n"
               "Detects the character encoding of each FILE (\"-\" is standard input) and prints one line\n"
               "per file: FILE<TAB>encoding<TAB>source<TAB>confidence\n"
               "  encoding    canonical WHATWG name (utf-8, windows-1252, shift_jis, ...), \"ascii\" for 7-bit\n"
               "              text, else the IANA/ICU name (ibm852, x-mac-ce, utf-32le, ...)\n"
               "  source      bom | http | meta | detected | default\n"
               "  confidence  0..1, a tier by source, not a calibrated probability: 1.0 for a BOM,\n"
               "              0.9-1.0 for an HTTP or meta declaration, 0.6-1.0 for ASCII and UTF-8/16/32\n"
               "              told by their structure, 0.2-0.9 for uchardet's and the single-byte\n"
               "              search's answers, 0.1 for the default (0 for empty input)\n"
               "\n"
               "options:\n"
               "  --content-type V   HTTP Content-Type value or bare charset label, applied to every FILE\n"
               "  --max-bytes N      examine at most N bytes for detection (K/M/G suffixes; default 64K)\n"
               "  --no-meta          do not look for <meta charset> / XML declarations\n"
               "  --verbose          add declared label, override flag and uchardet's raw answer\n"
               "  --help             this text\n"
               "\n"
               "A FILE compressed with gzip or zstd (told by its first bytes) is decompressed: the encoding is\n"
               "that of its content.\n"
               "\n"
               "Exit status: 0 when every file was read, 3 when compressed input was corrupt or cut short\n"
               "(reported), 1 when one could not be read or the output cannot be written, 2 on bad usage.\n");
}

}  // namespace

int langsift::cli::cmd_encoding(int argc, char** argv) {
  langsift::encoding_options opt;
  std::string content_type;
  bool verbose = false;
  std::vector<std::string> files;
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string value;
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift encoding");
    if (!only_files && (a == "--help" || a == "-h")) {
      usage(stdout);
      return 0;
    }
    if (!only_files && a == "--") {
      only_files = true;
      continue;
    }
    if (!only_files && take_option(argc, argv, i, "--content-type", value, missing)) {
      if (missing) return fail(k_prog, "--content-type needs a value"), 2;
      content_type = value;
      continue;
    }
    if (!only_files && take_option(argc, argv, i, "--max-bytes", value, missing)) {
      auto v = missing ? std::nullopt : parse_size(value);
      if (!v) return fail(k_prog, "--max-bytes needs a size such as 65536 or 64K"), 2;
      opt.max_detect_bytes = static_cast<std::size_t>(*v);
      continue;
    }
    if (!only_files && a == "--no-meta") {
      opt.prescan_meta = false;
      continue;
    }
    if (!only_files && a == "--verbose") {
      verbose = true;
      continue;
    }
    if (!only_files && a.size() > 1 && a[0] == '-') {
      return unknown_option(k_prog, a, usage);
    }
    files.emplace_back(a);
  }
  if (files.empty()) {
    fail(k_prog, "no FILE given (see --help)");
    return 2;
  }
  opt.content_type = content_type;
  int rc = 0;
  std::string data, error, malformed;
  bool bad_input = false;  // compressed input went wrong (reported): exit status 3
  for (const auto& path : files) {
    // Plain, gzip or zstd (common/input.hpp): the encoding of the content.
    if (!read_input(path, data, error, static_cast<std::size_t>(-1), nullptr, &malformed)) {
      fail(k_prog, error);
      rc = 1;
      continue;
    }
    if (!malformed.empty()) {
      fail(k_prog, malformed + ": the encoding is that of the part before it");
      bad_input = true;
    }
    langsift::encoding_result r = langsift::detect_encoding(data, opt);
    std::printf("%s\t%s\t%.*s\t%.3f", langsift::cli::tsv_field(path).c_str(), r.name.c_str(),
                static_cast<int>(langsift::encoding_source_name(r.source).size()),
                langsift::encoding_source_name(r.source).data(), static_cast<double>(r.confidence));
    if (verbose)
      std::printf("\tdeclared=%s\toverridden=%d\tuchardet=%s\tbom=%zu", r.declared.c_str(),
                  r.declared_overridden ? 1 : 0, r.detector_answer.c_str(), r.bom_bytes);
    std::printf("\n");
    if (stdout_failed(k_prog)) return 1;  // the output cannot be written (reported): stop
  }
  return stdout_failed(k_prog, true) ? 1 : rc ? rc : bad_input ? 3 : 0;
}
