// `langsift-eval junk DIR` — how a detector answers text that is not natural language: per
// category file (scripts/make-junk-set.py), the share of samples answered `und`, answered but not
// reliable, and answered reliably (the failures). The same counts on sets of real text say how
// much of it a detector gives up on.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"

namespace fs = std::filesystem;
using namespace langsift::eval;

namespace {

constexpr const char* kProgram = "langsift-eval junk";

struct counts {
  std::size_t samples = 0, und = 0, unreliable = 0, reliable = 0;
  std::map<std::string, std::size_t> answers;  // reliable answers → count
  std::vector<std::size_t> examples;           // indices of samples answered reliably
  double passed() const {
    return samples ? static_cast<double>(und + unreliable) / static_cast<double>(samples) : 0.0;
  }
  double share(std::size_t n) const { return samples ? static_cast<double>(n) / static_cast<double>(samples) : 0.0; }
};

struct set_data {
  std::string name;
  std::vector<language_file> files;
  std::vector<std::vector<std::string>> samples;  // parallel to files
  std::vector<std::vector<counts>> dets;          // per detector, per file
};

/// What the command line gives `langsift-eval junk` (DIR, the detectors, --markdown, --tsv:
/// mode_args).
struct options : mode_args {
  options() : mode_args("detect --lines") {}
  std::vector<std::string> sets;
  std::size_t limit = 0, top = 3, examples = 0;
};

using option_row = langsift::cli::option<options>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

/// A row of a count of `options`.
template <std::size_t options::*field>
option_row count_row(const char* name, const char* help, double lo, const char* need) {
  return {value_kind::size, name, nullptr, "N", help,
          [](options& o, const option_value& v) {
            o.*field = static_cast<std::size_t>(v.size);
            return true;
          },
          lo, 0, nullptr, need};
}

/// The options of `langsift-eval junk`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& junk_options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-eval junk [options] DIR\n"
                 "\n"
                 "How detectors answer text that is not natural language (a junk set: see the\n"
                 "evaluation documentation). DIR holds <category>.txt files with one sample per line (split on\n"
                 "'\\n' only; empty lines skipped), or sub-directories that each hold such files (sets). Per\n"
                 "category and detector: the share of samples answered und (no answer), answered but not\n"
                 "reliable, and answered reliably; junk should be und or unreliable (\"passed\"). On sets of\n"
                 "real text (e.g. <code>.txt files of held-out lines) the same columns say how much of it is\n"
                 "given up on.\n"
                 "\n"
                 "Detectors print langsift's TSV, code<TAB>langs<TAB>text_bytes<TAB>reliable[<TAB>...] (`langsift\n"
                 "detect --lines`, `langsift-peer-cld2 --tsv`); the first field is the answer (`und` or empty:\n"
                 "none), the fourth 1 when it is reliable, 0 when not. Another line is an error.\n"
                 "\n"
                 "options:\n"});
    add_detector_rows(t);
    t.push_back(count_row<&options::limit>("--limit", "first N samples of each file", 0, "a number"));
    t.push_back({value_kind::text, "--sets", nullptr, "NAMES", "only these sets, in this order (comma-separated)",
                 [](options& o, const option_value& v) {
                   o.sets = split_list(v.text);
                   return !o.sets.empty();
                 },
                 0, 0, nullptr, "set names"});
    t.push_back(count_row<&options::top>("--top", "reliable answers listed per category (default 3)", 1,
                                         "a positive number"));
    t.push_back(count_row<&options::examples>(
        "--examples", "up to N samples answered reliably listed per category and detector\n(default 0)", 0, "a number"));
    t.push_back(markdown_row<options>());
    t.push_back(tsv_row<options>("write rows: set, detector, category, samples, und, unreliable,\n"
                                 "reliable, passed_pct (und or unreliable), top_reliable, top_reliable_count"));
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "  -h, --help           this help\n"
                 "\n"
                 "The default detector is `langsift detect --lines`, the langsift next to langsift-eval.\n"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, junk_options(), kModeUsageColumn); }

std::vector<std::pair<std::string, std::size_t>> top_answers(const counts& c, std::size_t n) {
  std::vector<std::pair<std::string, std::size_t>> v(c.answers.begin(), c.answers.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > n) v.resize(n);
  return v;
}

// Scores one detector's lines; false with `error` on a line that is not langsift's TSV.
bool score(const std::vector<std::string>& lines, std::size_t keep_examples, counts& c, std::string& error) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string_view> f = tab_fields(lines[i]);
    const std::string_view answer = first_field(lines[i]);
    ++c.samples;
    if (is_no_answer(answer)) {
      ++c.und;
      continue;
    }
    if (f.size() < 4 || (f[3] != "0" && f[3] != "1")) {
      error = "line " + std::to_string(i + 1) + " has no reliable field (0 or 1) in its fourth column: '" +
              lines[i].substr(0, 80) + "'";
      return false;
    }
    if (f[3] == "0") {
      ++c.unreliable;
      continue;
    }
    ++c.reliable;
    ++c.answers[std::string(answer)];
    if (c.examples.size() < keep_examples) c.examples.push_back(i);
  }
  return true;
}

// Totals of one detector over a set: micro counts, the mean and the lowest share passed.
struct summary {
  counts total;
  double mean = 0, min = 1, max = 0;
  std::string min_name, max_name;
};

summary summarize(const set_data& s, std::size_t d) {
  summary r;
  for (std::size_t f = 0; f < s.files.size(); ++f) {
    const counts& c = s.dets[d][f];
    r.total.samples += c.samples;
    r.total.und += c.und;
    r.total.unreliable += c.unreliable;
    r.total.reliable += c.reliable;
    r.mean += c.passed();
    if (c.passed() < r.min) {
      r.min = c.passed();
      r.min_name = s.files[f].code;
    }
    if (c.passed() > r.max || r.max_name.empty()) {
      r.max = c.passed();
      r.max_name = s.files[f].code;
    }
  }
  if (!s.files.empty()) r.mean /= static_cast<double>(s.files.size());
  return r;
}

std::string render_set(const set_data& s, const options& o) {
  std::string md = "## " + md_cell(s.name) + "\n\n";
  md += "| category | samples | detector | und | unreliable | reliable | **passed** | reliable answers |\n";
  md += "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |\n";
  for (std::size_t f = 0; f < s.files.size(); ++f) {
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      const counts& c = s.dets[d][f];
      md += "| " + (d ? std::string() : md_cell(s.files[f].code)) + " | " + (d ? std::string() : thousands(c.samples)) +
            " | " + md_cell(o.detectors[d].name) + " | " + pct(c.share(c.und)) + " | " + pct(c.share(c.unreliable)) +
            " | " + pct(c.share(c.reliable)) + " | **" + pct(c.passed()) + "** | ";
      bool first = true;
      for (const auto& [code, n] : top_answers(c, o.top)) {
        md += (first ? "" : " · ") + md_cell(code) + " " + thousands(n);
        first = false;
      }
      md += " |\n";
    }
  }
  md += "\n| detector | samples | und | unreliable | reliable | passed (micro) | mean over categories | lowest | highest |\n";
  md += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n";
  for (std::size_t d = 0; d < o.detectors.size(); ++d) {
    const summary r = summarize(s, d);
    md += "| " + md_cell(o.detectors[d].name) + " | " + thousands(r.total.samples) + " | " + pct(r.total.share(r.total.und)) +
          " | " + pct(r.total.share(r.total.unreliable)) + " | " + pct(r.total.share(r.total.reliable)) + " | " +
          pct(r.total.passed()) + " | " + pct(r.mean) + " | " + md_cell(r.min_name) + " " + pct(r.min) + " | " +
          md_cell(r.max_name) + " " + pct(r.max) + " |\n";
  }
  if (o.examples) {
    md += "\n### Answered reliably (first " + std::to_string(o.examples) + " per category and detector)\n\n";
    for (std::size_t f = 0; f < s.files.size(); ++f) {
      for (std::size_t d = 0; d < o.detectors.size(); ++d) {
        for (std::size_t i : s.dets[d][f].examples) {
          std::string text = s.samples[f][i];
          if (text.size() > 160) {
            std::size_t cut = 160;
            while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
            text = text.substr(0, cut) + "…";
          }
          md += "- " + md_cell(s.files[f].code) + ", " + md_cell(o.detectors[d].name) + ": `" + md_cell(text) + "`\n";
        }
      }
    }
  }
  return md + "\n";
}

std::string render_report(const std::vector<set_data>& sets, const options& o) {
  std::string md = "# Text that is not language: und or unreliable\n\n";
  md += "- data: `" + o.dir + "`";
  if (o.limit) md += ", first " + std::to_string(o.limit) + " samples of each file";
  md += "\n- passed: answered `und`, or answered but not reliable (the detector's fourth TSV field 0)\n";
  md += "- detectors:\n";
  for (const detector& d : o.detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  md += "\n";
  if (sets.size() > 1) {
    md += "## Summary: passed, mean over categories (lowest)\n\n| detector |";
    for (const set_data& s : sets) md += " " + md_cell(s.name) + " |";
    md += "\n| --- |";
    for (std::size_t i = 0; i < sets.size(); ++i) md += " ---: |";
    md += "\n";
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      md += "| " + md_cell(o.detectors[d].name) + " |";
      for (const set_data& s : sets) {
        const summary r = summarize(s, d);
        md += " " + pct(r.mean) + " (" + md_cell(r.min_name) + " " + pct(r.min) + ") |";
      }
      md += "\n";
    }
    md += "\n";
  }
  for (const set_data& s : sets) md += render_set(s, o);
  return md;
}

std::string render_tsv(const std::vector<set_data>& sets, const options& o) {
  std::string t = "set\tdetector\tcategory\tsamples\tund\tunreliable\treliable\tpassed_pct\ttop_reliable\ttop_reliable_count\n";
  for (const set_data& s : sets)
    for (std::size_t d = 0; d < o.detectors.size(); ++d)
      for (std::size_t f = 0; f < s.files.size(); ++f) {
        const counts& c = s.dets[d][f];
        const auto top = top_answers(c, 1);
        t += s.name + "\t" + o.detectors[d].name + "\t" + s.files[f].code + "\t" + std::to_string(c.samples) + "\t" +
             std::to_string(c.und) + "\t" + std::to_string(c.unreliable) + "\t" + std::to_string(c.reliable) + "\t" +
             pct(c.passed(), 2) + "\t" + (top.empty() ? std::string() : top[0].first) + "\t" +
             std::to_string(top.empty() ? 0 : top[0].second) + "\n";
      }
  return t;
}

// The sets of DIR, every file read (so that a bad file fails before any detector runs).
bool load_sets(options& o, std::vector<set_data>& sets, std::string& error) {
  std::vector<language_file> top_files;
  if (!list_language_files(o.dir, top_files, error)) return false;
  std::vector<std::pair<std::string, fs::path>> set_dirs;
  if (!top_files.empty()) {
    if (!o.sets.empty()) {
      error = o.dir + " holds <category>.txt files itself: --sets does not apply";
      return false;
    }
    std::string name = fs::path(o.dir).lexically_normal().filename().string();
    if (name.empty()) name = fs::path(o.dir).lexically_normal().parent_path().filename().string();
    set_dirs.push_back({name.empty() ? o.dir : name, o.dir});
  } else {
    const std::vector<std::string> found = list_sample_sets(o.dir);
    if (found.empty()) {
      error = o.dir + ": no .txt files and no sub-directory holding any";
      return false;
    }
    if (o.sets.empty()) o.sets = found;
    for (const std::string& name : o.sets) {
      if (std::find(found.begin(), found.end(), name) == found.end()) {
        error = o.dir + ": no set '" + name + "'";
        return false;
      }
      set_dirs.push_back({name, fs::path(o.dir) / name});
    }
  }
  for (const auto& [name, path] : set_dirs) {
    set_data s;
    s.name = name;
    if (!list_language_files(path, s.files, error)) return false;
    for (const language_file& f : s.files) {
      std::vector<std::string> samples;
      if (!read_samples(f.path, o.limit, samples, error)) return false;
      if (samples.empty()) {
        error = f.path.string() + ": no samples (empty file)";
        return false;
      }
      s.samples.push_back(std::move(samples));
    }
    sets.push_back(std::move(s));
  }
  return true;
}

}  // namespace

int langsift::cli::eval_junk(int argc, char** argv) {
  options o;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, junk_options(), usage, argc, argv, o, positional); rc >= 0) return rc;
  if (const int rc = finish_mode_args(kProgram, o, positional); rc >= 0) return rc;
  std::vector<set_data> sets;
  std::string error;
  if (!load_sets(o, sets, error)) return langsift::cli::fail(kProgram, error);
  for (set_data& s : sets) {
    s.dets.assign(o.detectors.size(), std::vector<counts>(s.files.size()));
    for (std::size_t d = 0; d < o.detectors.size(); ++d) {
      for (std::size_t f = 0; f < s.files.size(); ++f) {
        command_run run;
        if (!run_command(o.detectors[d].command, s.samples[f], run, error) || !score(run.lines, o.examples, s.dets[d][f], error))
          return langsift::cli::fail(kProgram, "detector '" + o.detectors[d].name + "' on " + s.files[f].path.string() + ": " + error);
      }
    }
  }
  if (!o.tsv.empty() && !write_text(o.tsv, render_tsv(sets, o), error)) return langsift::cli::fail(kProgram, error);
  if (!write_text(o.markdown, render_report(sets, o), error)) return langsift::cli::fail(kProgram, error);
  return 0;
}
