// `langsift-eval lang DIR` — accuracy of language identification: per-language accuracy, macro
// means, most-confused pairs and accuracy per length bucket, for langsift and any number of other
// detectors given as commands, side by side. Markdown report, TSV rows, SVG chart.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"
#include "lang_svg.hpp"

namespace fs = std::filesystem;
using namespace langsift::eval;

namespace {

constexpr const char* kProgram = "langsift-eval lang";

// Length buckets, in characters.
struct bucket {
  std::size_t lo, hi;
  const char* label;
};
constexpr bucket kBuckets[] = {{1, 10, "1–10"},     {11, 20, "11–20"},   {21, 50, "21–50"},
                               {51, 100, "51–100"}, {101, 200, "101–200"}, {201, SIZE_MAX, "201+"}};
constexpr std::size_t kNumBuckets = sizeof kBuckets / sizeof kBuckets[0];

std::size_t bucket_of(std::size_t chars) {
  for (std::size_t b = 0; b < kNumBuckets; ++b)
    if (chars <= kBuckets[b].hi) return b;
  return kNumBuckets - 1;
}

struct counts {
  std::size_t samples = 0, correct = 0, no_answer = 0;
  double accuracy() const { return samples ? static_cast<double>(correct) / static_cast<double>(samples) : 0.0; }
};

struct lang_result {
  counts c;
  std::map<std::string, std::size_t> wrong;  // wrong answer (as printed) → count
};

struct det_result {
  std::vector<lang_result> langs;  // parallel to set_data::files
  std::array<counts, kNumBuckets> buckets{};
  counts total;
  double seconds = 0;
  double macro = 0, macro_known = 0;
  std::size_t known = 0;  // languages of the set the detector answers somewhere in the run
};

struct set_data {
  std::string name;
  std::vector<language_file> files;
  std::vector<std::vector<std::string>> samples;  // parallel to files
  std::size_t total_samples = 0;
  std::vector<det_result> dets;  // parallel to the detectors
};

/// What the command line gives `langsift-eval lang` (DIR, the detectors, --strict, --markdown,
/// --tsv: mode_args).
struct options : mode_args {
  options() : mode_args("detect --lines") {}
  bool per_language = false, progress = false;
  std::size_t limit = 0, top = 10;
  std::vector<std::string> only, sets;
  std::string svg;
};

using option_row = langsift::cli::option<options>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// The options of `langsift-eval lang`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& lang_options() {
  using V = option_value;
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval lang [options] DIR\n"
                 "\n"
                 "Scores language identification. DIR holds <code>.txt files with one sample per line (split\n"
                 "on '\\n' only; empty lines skipped), or sub-directories that each hold such files (sample\n"
                 "sets, e.g. sentences/ word-pairs/ single-words/: each set is reported, then a summary).\n"
                 "Every detector reads the samples of one file on stdin, once per file, and must print one\n"
                 "line per sample whose first TAB-separated field is a language code.\n"
                 "\n"
                 "Accuracy of a language = share of its samples answered with its code (the language subtag\n"
                 "is compared unless --strict: zh-Hant counts as zh). Macro mean = mean over all languages of\n"
                 "DIR (0 where a detector lacks the language); also over the languages the detector answers\n"
                 "at least once in the run. Length buckets count characters (code points) of a sample:\n"
                 "1-10, 11-20, 21-50, 51-100, 101-200, 201+ (micro accuracy over the samples of a bucket).\n"
                 "\n"
                 "options:\n"});
    add_detector_rows(t);
    t.push_back(strict_row<options>("compare whole codes (zh-Hant is not zh); case-insensitive"));
    t.push_back({value_kind::size, "--limit", nullptr, "N", "first N samples of each file",
                 [](options& o, const V& v) { o.limit = static_cast<std::size_t>(v.size); return true; }, 0, 0, nullptr,
                 "a number"});
    t.push_back({value_kind::text, "--only", nullptr, "CODES", "only these languages (comma-separated)",
                 [](options& o, const V& v) {
                   o.only = langsift::eval::code_list(v.text);
                   return !o.only.empty();
                 },
                 0, 0, nullptr, "language codes"});
    t.push_back({value_kind::text, "--sets", nullptr, "NAMES", "only these sample sets, in this order (comma-separated)",
                 [](options& o, const V& v) {
                   o.sets = langsift::eval::split_list(v.text);
                   return !o.sets.empty();
                 },
                 0, 0, nullptr, "set names"});
    t.push_back({value_kind::flag, "--per-language", nullptr, nullptr,
                 "add the per-language accuracy table to the markdown",
                 [](options& o, const V&) { return o.per_language = true; }});
    t.push_back({value_kind::size, "--top", nullptr, "N", "confused pairs listed (default 10)",
                 [](options& o, const V& v) { o.top = static_cast<std::size_t>(v.size); return true; }, 1, 0, nullptr,
                 "a positive number"});
    t.push_back(markdown_row<options>());
    t.push_back(tsv_row<options>("write per-language rows: set, detector, language, samples,\n"
                                 "correct, no_answer, accuracy_pct, top_wrong, top_wrong_count"));
    t.push_back({value_kind::text, "--svg", nullptr, "FILE",
                 "write a bar chart of per-language accuracy (one panel per set)",
                 [](options& o, const V& v) { o.svg = v.text; return true; }, 0, 0, nullptr, "a file"});
    t.push_back({value_kind::flag, "--progress", nullptr, nullptr, "report each detector run on stderr",
                 [](options& o, const V&) { return o.progress = true; }});
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "  -h, --help           this help\n"
                 "\n"
                 "The default detector is `langsift detect --lines`, the langsift next to langsift-eval.\n"
                 "Errors (a detector exiting non-zero or printing the wrong number of lines, a missing or\n"
                 "empty file) stop the run with a message naming the detector and file; exit status 1.\n"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, lang_options(), kModeUsageColumn); }

// Top `n` entries of a count map, by count (descending) then key.
template <class Key>
std::vector<std::pair<Key, std::size_t>> top_entries(const std::map<Key, std::size_t>& m, std::size_t n) {
  std::vector<std::pair<Key, std::size_t>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > n) v.resize(n);
  return v;
}

using pair_key = std::pair<std::string, std::string>;  // true code, answer

std::map<pair_key, std::size_t> confusions(const set_data& s, std::size_t det) {
  std::map<pair_key, std::size_t> m;
  for (std::size_t li = 0; li < s.files.size(); ++li)
    for (const auto& [answer, n] : s.dets[det].langs[li].wrong) m[{s.files[li].code, answer}] += n;
  return m;
}

std::string render_set(const set_data& s, const options& o) {
  const std::size_t nd = o.detectors.size(), nl = s.files.size();
  std::string md;
  md += "## " + md_cell(s.name) + "\n\n";
  md += std::to_string(nl) + " languages, " + thousands(s.total_samples) + " samples.\n\n";

  md += "| detector | accuracy, macro over " + std::to_string(nl) +
        " languages | languages answered | macro over those | micro | no answer | samples/s |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (std::size_t d = 0; d < nd; ++d) {
    const det_result& r = s.dets[d];
    double per_sec = r.seconds > 0 ? static_cast<double>(r.total.samples) / r.seconds : 0.0;
    char speed[32];
    std::snprintf(speed, sizeof speed, "%.0f", per_sec);
    md += "| " + md_cell(o.detectors[d].name) + " | **" + pct(r.macro) + "** | " + std::to_string(r.known) + " | " +
          pct(r.macro_known) + " | " + pct(r.total.accuracy()) + " | " +
          pct(r.total.samples ? static_cast<double>(r.total.no_answer) / static_cast<double>(r.total.samples) : 0) +
          " | " + speed + " |\n";
  }

  md += "\n### Accuracy by length (characters; micro over the samples of a bucket)\n\n| length | samples |";
  for (const detector& d : o.detectors) md += " " + md_cell(d.name) + " |";
  md += "\n| --- | ---: |";
  for (std::size_t d = 0; d < nd; ++d) md += " ---: |";
  md += "\n";
  for (std::size_t b = 0; b < kNumBuckets; ++b) {
    std::size_t n = s.dets.empty() ? 0 : s.dets[0].buckets[b].samples;
    if (n == 0) continue;
    md += std::string("| ") + kBuckets[b].label + " | " + thousands(n) + " |";
    for (std::size_t d = 0; d < nd; ++d) md += " " + pct(s.dets[d].buckets[b].accuracy()) + " |";
    md += "\n";
  }

  // Most confused pairs: overall (summed over detectors), then each detector's own.
  std::vector<std::map<pair_key, std::size_t>> per_det;
  std::map<pair_key, std::size_t> overall;
  for (std::size_t d = 0; d < nd; ++d) {
    per_det.push_back(confusions(s, d));
    for (const auto& [k, n] : per_det.back()) overall[k] += n;
  }
  md += "\n### Most confused (true → answered; wrong answers only, `und` not counted)\n\n";
  if (overall.empty()) {
    md += "No wrong answers.\n";
  } else {
    md += "| true → answered | all detectors |";
    for (const detector& d : o.detectors) md += " " + md_cell(d.name) + " |";
    md += "\n| --- | ---: |";
    for (std::size_t d = 0; d < nd; ++d) md += " ---: |";
    md += "\n";
    for (const auto& [k, n] : top_entries(overall, o.top)) {
      md += "| " + md_cell(k.first) + " → " + md_cell(k.second) + " | " + thousands(n) + " |";
      for (std::size_t d = 0; d < nd; ++d) {
        auto it = per_det[d].find(k);
        md += " " + (it == per_det[d].end() ? std::string("0") : thousands(it->second)) + " |";
      }
      md += "\n";
    }
    md += "\n| detector | its most confused pairs |\n| --- | --- |\n";
    for (std::size_t d = 0; d < nd; ++d) {
      md += "| " + md_cell(o.detectors[d].name) + " | ";
      bool first = true;
      for (const auto& [k, n] : top_entries(per_det[d], o.top)) {
        if (!first) md += " · ";
        first = false;
        md += md_cell(k.first) + " → " + md_cell(k.second) + " " + thousands(n);
      }
      if (first) md += "none";
      md += " |\n";
    }
  }

  if (o.per_language) {
    md += "\n### Per language (accuracy, %)\n\n| language | samples |";
    for (const detector& d : o.detectors) md += " " + md_cell(d.name) + " |";
    md += "\n| --- | ---: |";
    for (std::size_t d = 0; d < nd; ++d) md += " ---: |";
    md += "\n";
    for (std::size_t li = 0; li < nl; ++li) {
      md += "| " + md_cell(s.files[li].code) + " | " + thousands(s.samples[li].size()) + " |";
      for (std::size_t d = 0; d < nd; ++d) md += " " + pct(s.dets[d].langs[li].c.accuracy()) + " |";
      md += "\n";
    }
  }
  md += "\n";
  return md;
}

std::string render_report(const std::vector<set_data>& sets, const options& o) {
  std::string md = "# Language identification accuracy\n\n";
  md += "- data: `" + o.dir + "`";
  if (sets.size() > 1) {
    md += " (sets:";
    for (const set_data& s : sets) md += " " + s.name;
    md += ")";
  }
  md += "\n- matching: " +
        std::string(o.strict ? "whole codes (`--strict`)" : "language subtag (`zh-Hant` counts as `zh`)") + "\n";
  if (o.limit) md += "- first " + std::to_string(o.limit) + " samples of each file\n";
  md += "- detectors:\n";
  for (const detector& d : o.detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  md += "\n";

  if (sets.size() > 1) {
    md += "## Summary: macro mean of per-language accuracy (%)\n\n| detector |";
    for (const set_data& s : sets) md += " " + md_cell(s.name) + " |";
    md += "\n| --- |";
    for (std::size_t i = 0; i < sets.size(); ++i) md += " ---: |";
    md += "\n";
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      md += "| " + md_cell(o.detectors[d].name) + " |";
      for (const set_data& s : sets) md += " " + pct(s.dets[d].macro) + " |";
      md += "\n";
    }
    md += "\nOver the languages each detector answers somewhere in this run (their number in brackets):\n\n"
          "| detector |";
    for (const set_data& s : sets) md += " " + md_cell(s.name) + " |";
    md += "\n| --- |";
    for (std::size_t i = 0; i < sets.size(); ++i) md += " ---: |";
    md += "\n";
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      md += "| " + md_cell(o.detectors[d].name) + " |";
      for (const set_data& s : sets)
        md += " " + pct(s.dets[d].macro_known) + " (" + std::to_string(s.dets[d].known) + ") |";
      md += "\n";
    }
    md += "\n";
  }
  for (const set_data& s : sets) md += render_set(s, o);
  return md;
}

std::string render_tsv(const std::vector<set_data>& sets, const options& o) {
  std::string t = "set\tdetector\tlanguage\tsamples\tcorrect\tno_answer\taccuracy_pct\ttop_wrong\ttop_wrong_count\n";
  for (const set_data& s : sets) {
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      for (std::size_t li = 0; li < s.files.size(); ++li) {
        const lang_result& r = s.dets[d].langs[li];
        auto top = top_entries(r.wrong, 1);
        t += s.name + "\t" + o.detectors[d].name + "\t" + s.files[li].code + "\t" + std::to_string(r.c.samples) +
             "\t" + std::to_string(r.c.correct) + "\t" + std::to_string(r.c.no_answer) + "\t" +
             pct(r.c.accuracy(), 2) + "\t" + (top.empty() ? std::string() : top[0].first) + "\t" +
             (top.empty() ? std::string("0") : std::to_string(top[0].second)) + "\n";
      }
    }
  }
  return t;
}

std::string render_svg(const std::vector<set_data>& sets, const options& o) {
  std::vector<svg_panel> panels;
  for (const set_data& s : sets) {
    svg_panel p;
    p.title = s.name + " — " + std::to_string(s.files.size()) + " languages, " + thousands(s.total_samples) +
              " samples";
    for (const language_file& f : s.files) p.labels.push_back(f.code);
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      svg_series ser;
      ser.name = o.detectors[d].name;
      ser.macro = s.dets[d].macro;
      for (const lang_result& r : s.dets[d].langs) ser.values.push_back(r.c.accuracy());
      p.series.push_back(std::move(ser));
    }
    panels.push_back(std::move(p));
  }
  return render_accuracy_svg("Language identification accuracy per language", panels);
}

// Scores one detector's answers for one language file.
void score(const std::vector<std::string>& samples, const std::vector<std::string>& lines, const std::string& truth,
           bool strict, lang_result& lr, det_result& dr, std::set<std::string>& answered) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::string_view answer = first_field(lines[i]);
    std::size_t b = bucket_of(utf8_length(samples[i]));
    ++lr.c.samples;
    ++dr.buckets[b].samples;
    ++dr.total.samples;
    if (is_no_answer(answer)) {
      ++lr.c.no_answer;
      ++dr.total.no_answer;
      continue;
    }
    answered.insert(normalize_code(answer, strict));
    if (codes_match(answer, truth, strict)) {
      ++lr.c.correct;
      ++dr.buckets[b].correct;
      ++dr.total.correct;
    } else {
      ++lr.wrong[std::string(answer)];
    }
  }
}

/// The sample sets: DIR itself when it holds <code>.txt files, else its sub-directories that do
/// (--sets: those, in that order). False after the error.
bool find_sets(options& o, std::vector<std::pair<std::string, fs::path>>& set_dirs) {
  std::string error;
  std::vector<language_file> top_files;
  if (!list_language_files(o.dir, top_files, error)) return langsift::cli::fail(kProgram, error) == 0;
  if (!top_files.empty()) {
    if (!o.sets.empty())
      return langsift::cli::fail(kProgram, o.dir + " holds <code>.txt files itself: --sets does not apply") == 0;
    std::string name = fs::path(o.dir).lexically_normal().filename().string();
    if (name.empty()) name = fs::path(o.dir).lexically_normal().parent_path().filename().string();
    set_dirs.push_back({name.empty() ? o.dir : name, o.dir});
    return true;
  }
  std::vector<std::string> found = list_sample_sets(o.dir);
  if (found.empty())
    return langsift::cli::fail(kProgram, o.dir + ": no <code>.txt files and no sub-directory holding any") == 0;
  if (o.sets.empty()) o.sets = found;
  for (const std::string& name : o.sets) {
    if (std::find(found.begin(), found.end(), name) == found.end())
      return langsift::cli::fail(kProgram, o.dir + ": no sample set '" + name + "'") == 0;
    set_dirs.push_back({name, fs::path(o.dir) / name});
  }
  return true;
}

/// One sample set's files (--only: those) and samples, read before any detector runs, so that a
/// missing or empty file fails first. False after the error.
bool load_set(const options& o, const std::string& name, const fs::path& path, set_data& s) {
  std::string error;
  s.name = name;
  std::vector<language_file> files;
  if (!list_language_files(path, files, error)) return langsift::cli::fail(kProgram, error) == 0;
  if (!o.only.empty()) {
    for (const std::string& code : o.only) {
      auto it = std::find_if(files.begin(), files.end(), [&](const language_file& f) { return f.code == code; });
      if (it == files.end())
        return langsift::cli::fail(kProgram, (path / (code + ".txt")).string() + ": no such file (--only)") == 0;
      s.files.push_back(*it);
    }
    std::sort(s.files.begin(), s.files.end(),
              [](const language_file& x, const language_file& y) { return x.code < y.code; });
    s.files.erase(std::unique(s.files.begin(), s.files.end(),
                              [](const language_file& x, const language_file& y) { return x.code == y.code; }),
                  s.files.end());
  } else {
    s.files = files;
  }
  if (s.files.empty()) return langsift::cli::fail(kProgram, path.string() + ": no <code>.txt files") == 0;
  for (const language_file& f : s.files) {
    std::vector<std::string> samples;
    if (!read_samples(f.path, o.limit, samples, error)) return langsift::cli::fail(kProgram, error) == 0;
    if (samples.empty()) return langsift::cli::fail(kProgram, f.path.string() + ": no samples (empty file)") == 0;
    s.total_samples += samples.size();
    s.samples.push_back(std::move(samples));
  }
  return true;
}

/// Macro means: over all languages of the set, and over those the detector answers in the run.
void macro_means(const options& o, const std::vector<std::set<std::string>>& answered, std::vector<set_data>& sets) {
  for (set_data& s : sets) {
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      det_result& dr = s.dets[d];
      double sum = 0, sum_known = 0;
      for (std::size_t li = 0; li < s.files.size(); ++li) {
        double acc = dr.langs[li].c.accuracy();
        sum += acc;
        if (answered[d].count(normalize_code(s.files[li].code, o.strict))) {
          sum_known += acc;
          ++dr.known;
        }
      }
      dr.macro = sum / static_cast<double>(s.files.size());
      dr.macro_known = dr.known ? sum_known / static_cast<double>(dr.known) : 0.0;
    }
  }
}

}  // namespace

int langsift::cli::eval_lang(int argc, char** argv) {
  options o;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, lang_options(), usage, argc, argv, o, positional); rc >= 0) return rc;
  if (const int rc = finish_mode_args(kProgram, o, positional); rc >= 0) return rc;
  std::vector<std::pair<std::string, fs::path>> set_dirs;
  if (!find_sets(o, set_dirs)) return 1;
  std::vector<set_data> sets;
  for (const auto& [name, path] : set_dirs) {
    set_data s;
    if (!load_set(o, name, path, s)) return 1;
    sets.push_back(std::move(s));
  }
  // Run every detector on every file.
  std::vector<std::set<std::string>> answered(o.detectors.size());
  for (set_data& s : sets) {
    s.dets.resize(o.detectors.size());
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      det_result& dr = s.dets[d];
      dr.langs.resize(s.files.size());
      if (o.progress) std::fprintf(stderr, "%s: %s on %s ...\n", kProgram, o.detectors[d].name.c_str(), s.name.c_str());
      for (std::size_t li = 0; li < s.files.size(); ++li) {
        command_run run;
        if (!run_detector(kProgram, o.detectors[d], s.samples[li], s.files[li].path.string(), run)) return 1;
        dr.seconds += run.seconds;
        score(s.samples[li], run.lines, s.files[li].code, o.strict, dr.langs[li], dr, answered[d]);
      }
    }
  }
  macro_means(o, answered, sets);
  std::string error;
  if (!o.tsv.empty() && !write_text(o.tsv, render_tsv(sets, o), error)) return fail(kProgram, error);
  if (!o.svg.empty() && !write_text(o.svg, render_svg(sets, o), error)) return fail(kProgram, error);
  if (!write_text(o.markdown, render_report(sets, o), error)) return fail(kProgram, error);
  return 0;
}
