// Shared pieces of the language-identification modes of `langsift-eval` (lang, docs, mixed):
// samples read from <code>.txt files, detector commands run as child processes, language-code
// matching, small formatting helpers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli.hpp"

namespace langsift::eval {

// ---------------------------------------------------------------------------------------------
// Samples

/// One `<code>.txt` file of samples; `code` is the file name without `.txt`.
struct language_file {
  std::string code;
  std::filesystem::path path;
};

/// Lists DIR/<code>.txt (regular files, sorted by code). Fails when DIR is not a directory.
bool list_language_files(const std::filesystem::path& dir, std::vector<language_file>& out, std::string& error);

/// Lists the sub-directories of DIR that hold at least one `.txt` file, sorted by name.
std::vector<std::string> list_sample_sets(const std::filesystem::path& dir);

/// Reads one sample per line: lines are split on '\n' only (never on U+0085 or U+2028), a
/// trailing '\r' is dropped, empty lines are skipped. Keeps the first `limit` samples (0 = all).
bool read_samples(const std::filesystem::path& path, std::size_t limit, std::vector<std::string>& out,
                  std::string& error);

/// Consecutive samples joined by a space until at least `min_bytes`; the short tail is dropped
/// (the documents of `langsift-eval docs` and `calibration --docs`).
std::vector<std::string> build_documents(const std::vector<std::string>& sentences, std::size_t min_bytes);

/// Number of code points in UTF-8 text (bytes that are not continuation bytes).
std::size_t utf8_length(std::string_view s) noexcept;

// ---------------------------------------------------------------------------------------------
// Language codes

/// The answer in a detector's output line: its first TAB-separated field, without surrounding
/// spaces or '\r'.
std::string_view first_field(std::string_view line) noexcept;

/// TAB-separated fields of a line.
std::vector<std::string_view> tab_fields(std::string_view line);

/// True for "" and "und" (any case): the detector gave no answer.
bool is_no_answer(std::string_view code) noexcept;

/// The language subtag: "zh" for "zh-Hant", "sr" for "sr_Latn".
std::string_view primary_subtag(std::string_view code) noexcept;

/// Lower-cased code as used for comparisons: the language subtag, or the whole code when strict.
std::string normalize_code(std::string_view code, bool strict);

/// Does `answer` name the language `truth`? Case-insensitive; compares only the language subtags
/// unless `strict`.
bool codes_match(std::string_view answer, std::string_view truth, bool strict);

/// Splits "a,b,c" (empty items dropped): sizes, set names, fields of other tools' answers. Lists
/// of language codes are split by the library (code_list).
std::vector<std::string> split_list(std::string_view s, char sep = ',');

/// The codes of a list (--only, --langs) as written, split as the library splits every list of codes
/// (langsift::split_code_list: commas and/or white space). Not converted: they name sample files.
std::vector<std::string> code_list(std::string_view s);

// ---------------------------------------------------------------------------------------------
// Detectors

/// A detector under test: a shell command that reads one sample per line on stdin and prints
/// exactly one line per input line on stdout.
struct detector {
  std::string name;
  std::string command;
};

/// Raw result of one run of a detector command.
struct command_run {
  std::vector<std::string> lines;  // one per input sample, without the '\n'
  double seconds = 0;              // wall clock from start to exit
};

/// Runs `command` with `/bin/sh -c`, feeding the samples (each followed by '\n') on its stdin from
/// a writer thread while its stdout is read, so neither side can block the other. stderr is
/// inherited. Fails, with `error` saying why, when the command cannot be started, exits non-zero
/// or by a signal, or prints a number of lines other than the number of samples.
bool run_command(const std::string& command, const std::vector<std::string>& samples, command_run& out,
                 std::string& error);

/// The command of the default detector: the `langsift` binary next to the running
/// `langsift-eval`, with `args` (e.g. "detect --lines").
std::string default_langsift_command(std::string_view args);

/// Quotes a path for /bin/sh when it contains anything beyond [A-Za-z0-9_./+-].
std::string shell_quote(std::string_view s);

/// Collects the detectors given by the options common to the lang, docs and mixed modes.
/// `--detector NAME=CMD` (repeatable) adds one; `--no-langsift` drops the default one
/// (`langsift <default_args>`, listed first).
class detector_options {
 public:
  explicit detector_options(std::string default_args) : default_args_(std::move(default_args)) {}

  /// --detector VALUE: adds NAME=COMMAND; false (nothing added) when VALUE is not one or NAME
  /// holds TAB, newline, '|' or ','.
  bool add(std::string_view value);

  /// --no-langsift: leaves out the default detector.
  void no_langsift() { no_langsift_ = true; }

  /// The final list; fails when it is empty or names repeat.
  bool finish(std::vector<detector>& out, std::string& error) const;

 private:
  std::string default_args_;
  bool no_langsift_ = false;
  std::vector<detector> extra_;
};

// ---------------------------------------------------------------------------------------------
// Output

/// `value` (a fraction 0..1) as a percentage with `decimals` decimals, e.g. "97.3".
std::string pct(double fraction, int decimals = 1);

/// Integer with thousands separators: 37071 → "37,071".
std::string thousands(std::size_t n);

/// Writes `text` to stdout ("" or "-") or to a file.
bool write_text(const std::string& path, const std::string& text, std::string& error);

/// Escapes '|' for a markdown table cell and backticks for inline code.
std::string md_cell(std::string_view s);

// ---------------------------------------------------------------------------------------------
// The shape the language modes share (lang, docs, mixed, spans): one DIR, detectors run on samples,
// a TSV and a markdown report. A mode's option table takes the rows below; its Args derives from
// mode_args.

/// What the command lines of the language modes have in common.
struct mode_args {
  explicit mode_args(std::string default_detector_args) : dets(std::move(default_detector_args)) {}
  std::string dir, markdown, tsv;
  bool strict = false;
  detector_options dets;
  std::vector<detector> detectors;  // the detectors, once finish_mode_args() has run
};

/// The usage text's column of the language modes' options.
inline constexpr std::size_t kModeUsageColumn = 23;

/// The rows of --detector and --no-langsift.
template <class Args>
void add_detector_rows(std::vector<cli::option<Args>>& t) {
  t.push_back({cli::value_kind::text, "--detector", nullptr, "NAME=CMD",
               "add a detector: a shell command that reads one sample per line on\n"
               "stdin and prints one line per input line, the first TAB-separated\n"
               "field a language code (`und` or empty: no answer); repeatable",
               [](Args& a, const cli::option_value& v) { return static_cast<mode_args&>(a).dets.add(v.text); }, 0, 0,
               nullptr, "NAME=COMMAND (a NAME without TAB, newline, '|' or ',')"});
  t.push_back({cli::value_kind::flag, "--no-langsift", nullptr, nullptr,
               "leave out the default detector (`langsift` next to langsift-eval)",
               [](Args& a, const cli::option_value&) {
                 static_cast<mode_args&>(a).dets.no_langsift();
                 return true;
               }});
}

/// The row of --strict, with its help.
template <class Args>
cli::option<Args> strict_row(std::string help = "compare whole codes (zh-Hant is not zh)") {
  return {cli::value_kind::flag, "--strict", nullptr, nullptr, std::move(help),
          [](Args& a, const cli::option_value&) { return static_cast<mode_args&>(a).strict = true; }};
}

/// The row of --markdown FILE.
template <class Args>
cli::option<Args> markdown_row() {
  return {cli::value_kind::text, "--markdown", nullptr, "FILE", "write the markdown report to FILE instead of stdout",
          [](Args& a, const cli::option_value& v) {
            static_cast<mode_args&>(a).markdown = v.text;
            return true;
          },
          0, 0, nullptr, "a file"};
}

/// The row of --tsv FILE, with its help (what the rows hold).
template <class Args>
cli::option<Args> tsv_row(std::string help) {
  return {cli::value_kind::text, "--tsv", nullptr, "FILE", std::move(help),
          [](Args& a, const cli::option_value& v) {
            static_cast<mode_args&>(a).tsv = v.text;
            return true;
          },
          0, 0, nullptr, "a file"};
}

/// The usage text's line of -h, --help.
inline constexpr const char* kModeHelpLine = "  -h, --help           this help\n";

/// After parse_options(): exactly one DIR (`positional`), and the detectors. -1 to go on, else
/// the exit status (the usage error reported).
int finish_mode_args(const char* program, mode_args& a, const std::vector<std::string>& positional);

/// Runs detector `d` on `samples`: false after "PROGRAM: detector 'NAME' on WHAT: why".
bool run_detector(const char* program, const detector& d, const std::vector<std::string>& samples,
                  const std::string& what, command_run& run);

/// The markdown list of the detectors: "- detectors:\n  - NAME: `COMMAND`\n"...
std::string detectors_markdown(const std::vector<detector>& detectors);

/// Writes the TSV report (when --tsv was given), then the markdown one (--markdown, or stdout):
/// the exit status (1 after a write error, reported).
int write_reports(const char* program, const mode_args& a, const std::string& tsv, const std::string& markdown);

}  // namespace langsift::eval
