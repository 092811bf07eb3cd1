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

/// What the command line gives `langsift encoding`.
struct encoding_args {
  langsift::encoding_options opt;
  std::string content_type;
  bool verbose = false;
};

using option_row = langsift::cli::option<encoding_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift encoding`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = {
      {value_kind::note, nullptr, nullptr, nullptr,
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
       "options:\n"},
      {value_kind::text, "--content-type", nullptr, "V",
       "HTTP Content-Type value or bare charset label, applied to every FILE",
       [](encoding_args& a, const option_value& v) { a.content_type = v.text; return true; }},
      {value_kind::size, "--max-bytes", nullptr, "N",
       "examine at most N bytes for detection (K/M/G suffixes; default 64K)",
       [](encoding_args& a, const option_value& v) {
         a.opt.max_detect_bytes = static_cast<std::size_t>(v.size);
         return true;
       }},
      {value_kind::flag, "--no-meta", nullptr, nullptr, "do not look for <meta charset> / XML declarations",
       [](encoding_args& a, const option_value&) { a.opt.prescan_meta = false; return true; }},
      {value_kind::flag, "--verbose", nullptr, nullptr, "add declared label, override flag and uchardet's raw answer",
       [](encoding_args& a, const option_value&) { return a.verbose = true; }},
      {value_kind::note, nullptr, nullptr, nullptr,
       "  --help             this text\n"
       "\n"
       "A FILE compressed with gzip or zstd (told by its first bytes) is decompressed: the encoding is\n"
       "that of its content.\n"
       "\n"
       "Exit status: 0 when every file was read, 3 when compressed input was corrupt or cut short\n"
       "(reported), 1 when one could not be read or the output cannot be written, 2 on bad usage.\n"},
  };
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 21); }

}  // namespace

int langsift::cli::cmd_encoding(int argc, char** argv) {
  encoding_args p;
  std::vector<std::string> files;
  if (const int rc = parse_options(k_prog, options(), usage, argc, argv, p, files); rc >= 0) return rc;
  langsift::encoding_options& opt = p.opt;
  const std::string& content_type = p.content_type;
  const bool verbose = p.verbose;
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
