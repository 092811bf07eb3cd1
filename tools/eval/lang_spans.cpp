// `langsift-eval spans DIR` — documents of two and three languages built from sentences, with the
// true language of every byte known; the detectors' spans (`"spans": [[begin, end, "code"], ...]`
// per output line) are scored by the share of bytes given the right language and by how far their
// boundaries fall from the true ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

constexpr const char* kProgram = "langsift-eval spans";

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift-eval spans [options] DIR\n"
      "\n"
      "Documents of several languages. DIR holds <code>.txt files of sentences (e.g.\n"
      "lingua-dev/sentences). A document has one part per language (1, 2 or 3 distinct languages,\n"
      "drawn at random from DIR's, or from --langs; one-language documents measure spans that\n"
      "should not be there); a part of P bytes is consecutive sentences of\n"
      "its language, those longer than 2P skipped, joined until it has at least P bytes. Sentences\n"
      "and parts are joined by one space; a document is one input line. The true language of\n"
      "every byte of a sentence is its file's (the joining spaces are not scored).\n"
      "\n"
      "Each detector prints one JSON object per line holding \"spans\": [[begin, end, \"code\"],\n"
      "...] (byte offsets into the line, in order, not overlapping): `langsift detect --lines\n"
      "--spans` and `langsift-peer-cld2 --spans` do. Per detector and setting:\n"
      "  right     share of the sentence bytes inside a span of their language (codes compared\n"
      "            on their language subtag; bytes in no span, or in an `und` one, are wrong)\n"
      "  boundary  mean distance in bytes from each true boundary (the first byte of a part\n"
      "            after the first) to the nearest span boundary (a span's begin after the\n"
      "            first's; the document's ends count, so a missed boundary costs about a part)\n"
      "  within 10 share of true boundaries with a span boundary at most 10 bytes away\n"
      "  extra     span boundaries per document more than 10 bytes from every true one\n"
      "\n"
      "options:\n"
      "  --languages LIST     languages per document, 1 to 3 (default 1,2,3); the summary rows\n"
      "                       are over the documents of two languages or more\n"
      "  --part-bytes LIST    part lengths P in bytes (default 50,100,200,400)\n"
      "  --docs K             documents per language count and part length (default 200)\n"
      "  --langs A,B,...      draw the languages from these (default: every file of DIR)\n"
      "  --seed S             seed of the draws (default 1); documents depend only on it and DIR\n"
      "%s"
      "  --strict             compare whole codes (zh-Hant is not zh)\n"
      "  --markdown FILE      write the markdown report to FILE instead of stdout\n"
      "  --tsv FILE           one row per setting and detector: detector, languages, part_bytes,\n"
      "                       documents, mean_part_bytes, right_pct, boundary_error,\n"
      "                       within10_pct, extra_per_doc\n"
      "  -h, --help           this help\n",
      kDetectorOptionsHelp);
}

struct part {
  std::size_t lang;                                        // index into the languages
  std::vector<std::pair<std::size_t, std::size_t>> sents;  // byte ranges of its sentences
};

struct document {
  std::size_t setting = 0;
  std::string text;
  std::vector<part> parts;
};

struct setting {
  unsigned languages;
  std::size_t part_bytes;
  std::size_t docs = 0, part_count = 0, part_total = 0;
};

struct span {
  std::size_t begin, end;
  std::string code;
};

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Reads the "spans" array of a JSON line: [[begin, end, "code"], ...]. The codes are plain
/// language codes (no escapes).
bool parse_spans(std::string_view line, std::vector<span>& out, std::string& error) {
  out.clear();
  const std::size_t k = line.find("\"spans\"");
  if (k == std::string_view::npos) {
    error = "no \"spans\" field";
    return false;
  }
  std::size_t i = k + 7;
  auto ws = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  auto expect = [&](char c) {
    ws();
    if (i < line.size() && line[i] == c) {
      ++i;
      return true;
    }
    error = std::string("expected '") + c + "' at column " + std::to_string(i + 1) + " in the spans";
    return false;
  };
  auto number = [&](std::size_t& v) {
    ws();
    const std::size_t start = i;
    v = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') v = v * 10 + static_cast<std::size_t>(line[i++] - '0');
    if (i == start || i - start > 15) {
      error = "a span offset is not a number (column " + std::to_string(start + 1) + ")";
      return false;
    }
    return true;
  };
  if (!expect(':') || !expect('[')) return false;
  ws();
  if (i < line.size() && line[i] == ']') return true;
  for (;;) {
    span s;
    if (!expect('[') || !number(s.begin) || !expect(',') || !number(s.end) || !expect(',') || !expect('"')) return false;
    const std::size_t q = line.find('"', i);
    if (q == std::string_view::npos) {
      error = "an unterminated code in the spans";
      return false;
    }
    s.code = std::string(line.substr(i, q - i));
    i = q + 1;
    if (!expect(']')) return false;
    out.push_back(std::move(s));
    ws();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    return expect(']');
  }
}

struct stats {
  double bytes = 0, right = 0;
  std::size_t docs = 0, boundaries = 0, within = 0, extra = 0;
  double boundary_error = 0;
};

std::string fmt(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

int fail_usage(const std::string& message) { return langsift::cli::fail(kProgram, message) + 1; }

bool parse_list(const std::string& value, std::vector<std::size_t>& out, std::size_t lo, std::size_t hi) {
  out.clear();
  for (const std::string& item : split_list(value)) {
    auto n = langsift::cli::parse_size(item);
    if (!n || *n < lo || *n > hi) return false;
    out.push_back(static_cast<std::size_t>(*n));
  }
  return !out.empty();
}

}  // namespace

int langsift::cli::eval_spans(int argc, char** argv) {
  std::string dir, markdown, tsv, error, langs_arg;
  std::size_t docs_per = 200;
  std::uint64_t seed = 1;
  std::vector<std::size_t> counts = {1, 2, 3}, part_bytes = {50, 100, 200, 400};
  bool strict = false, have_dir = false;
  detector_options dets("detect --lines --spans");
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string value;
    bool missing = false;
    if (a == "--version") return langsift::cli::print_version("langsift-eval spans");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (dets.take(argc, argv, i, error)) {
      if (!error.empty()) return fail_usage(error);
    } else if (a == "--strict") {
      strict = true;
    } else if (take_option(argc, argv, i, "--languages", value, missing)) {
      if (missing || !parse_list(value, counts, 1, 3)) return fail_usage("--languages takes 1 to 3, e.g. 1,2,3");
    } else if (take_option(argc, argv, i, "--part-bytes", value, missing)) {
      if (missing || !parse_list(value, part_bytes, 1, 1u << 20)) return fail_usage("--part-bytes takes byte counts, e.g. 50,100,200,400");
    } else if (take_option(argc, argv, i, "--docs", value, missing)) {
      auto n = missing ? std::nullopt : parse_size(value);
      if (!n || *n == 0 || *n > 1000000) return fail_usage("--docs needs a number from 1 to 1000000");
      docs_per = static_cast<std::size_t>(*n);
    } else if (take_option(argc, argv, i, "--seed", value, missing)) {
      auto n = missing ? std::nullopt : parse_size(value);
      if (!n) return fail_usage("--seed needs a number");
      seed = *n;
    } else if (take_option(argc, argv, i, "--langs", langs_arg, missing)) {
      if (missing || code_list(langs_arg).empty()) return fail_usage("--langs needs codes");
    } else if (take_option(argc, argv, i, "--markdown", value, missing)) {
      if (missing) return fail_usage("--markdown needs a file");
      markdown = value;
    } else if (take_option(argc, argv, i, "--tsv", value, missing)) {
      if (missing) return fail_usage("--tsv needs a file");
      tsv = value;
    } else if (a.size() > 1 && a[0] == '-') {
      return langsift::cli::unknown_option(kProgram, a, usage);
    } else if (have_dir) {
      return fail_usage("only one DIR, please");
    } else {
      dir = std::string(a);
      have_dir = true;
    }
  }
  if (!have_dir) return fail_usage("DIR is required; see --help");
  std::vector<detector> detectors;
  if (!dets.finish(detectors, error)) return fail_usage(error);

  std::vector<language_file> files;
  if (!list_language_files(dir, files, error)) return fail(kProgram, error);
  std::vector<std::string> langs;
  if (langs_arg.empty()) {
    for (const language_file& f : files) langs.push_back(f.code);
  } else {
    langs = code_list(langs_arg);
  }
  std::sort(langs.begin(), langs.end());
  langs.erase(std::unique(langs.begin(), langs.end()), langs.end());
  const std::size_t most = *std::max_element(counts.begin(), counts.end());
  if (langs.size() < most)
    return fail(kProgram, "documents of " + std::to_string(most) + " languages need as many languages; " + dir + " has " +
                              std::to_string(langs.size()));
  std::vector<std::vector<std::string>> sentences(langs.size());
  for (std::size_t l = 0; l < langs.size(); ++l) {
    const fs::path p = fs::path(dir) / (langs[l] + ".txt");
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return fail(kProgram, p.string() + ": no such file");
    if (!read_samples(p, 0, sentences[l], error)) return fail(kProgram, error);
    if (sentences[l].empty()) return fail(kProgram, p.string() + ": no samples (empty file)");
  }

  // Documents: per setting (languages, part length), `docs_per` documents; each language's
  // sentences are read in order from the start for each setting (wrapping around).
  std::vector<setting> settings;
  std::vector<document> docs;
  std::uint64_t state = seed;
  for (std::size_t k : counts)
    for (std::size_t P : part_bytes) {
      settings.push_back({static_cast<unsigned>(k), P});
      setting& st = settings.back();
      std::vector<std::size_t> next(langs.size(), 0);
      for (std::size_t d = 0; d < docs_per; ++d) {
        document doc;
        doc.setting = settings.size() - 1;
        std::vector<std::size_t> chosen;
        while (chosen.size() < k) {
          const std::size_t l = static_cast<std::size_t>(splitmix64(state) % langs.size());
          if (std::find(chosen.begin(), chosen.end(), l) == chosen.end()) chosen.push_back(l);
        }
        bool ok = true;
        for (std::size_t l : chosen) {
          part pt{l, {}};
          std::size_t bytes = 0, tried = 0;
          const auto& sl = sentences[l];
          while (bytes < P) {
            if (tried++ > sl.size()) break;  // every sentence longer than 2P
            const std::string& s = sl[next[l] % sl.size()];
            ++next[l];
            if (s.size() > 2 * P) continue;
            if (!doc.text.empty()) doc.text += ' ';
            pt.sents.push_back({doc.text.size(), doc.text.size() + s.size()});
            doc.text += s;
            bytes += s.size();
            tried = 0;
          }
          if (bytes < P) {
            ok = false;
            break;
          }
          st.part_total += bytes;
          ++st.part_count;
          doc.parts.push_back(std::move(pt));
        }
        if (!ok) continue;  // a language without sentences short enough: no document
        ++st.docs;
        docs.push_back(std::move(doc));
      }
    }
  std::vector<std::string> lines;
  lines.reserve(docs.size());
  for (const document& d : docs) lines.push_back(d.text);

  std::vector<std::vector<stats>> results(detectors.size(), std::vector<stats>(settings.size()));
  std::vector<span> spans;
  for (std::size_t di = 0; di < detectors.size(); ++di) {
    command_run run;
    if (!run_command(detectors[di].command, lines, run, error))
      return fail(kProgram, "detector '" + detectors[di].name + "' on the documents: " + error);
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const document& d = docs[i];
      const std::string where = "detector '" + detectors[di].name + "', output line " + std::to_string(i + 1) + ": ";
      if (!parse_spans(run.lines[i], spans, error)) return fail(kProgram, where + error);
      for (std::size_t k = 0; k < spans.size(); ++k)
        if (spans[k].begin > spans[k].end || spans[k].end > d.text.size() || (k && spans[k].begin < spans[k - 1].end))
          return fail(kProgram, where + "span " + std::to_string(k + 1) + " [" + std::to_string(spans[k].begin) + ", " +
                                    std::to_string(spans[k].end) + ") is out of order or outside the document of " +
                                    std::to_string(d.text.size()) + " bytes");
      stats& s = results[di][d.setting];
      ++s.docs;
      // Bytes right: each sentence against the spans over it.
      for (const part& p : d.parts)
        for (const auto& [b, e] : p.sents) {
          s.bytes += static_cast<double>(e - b);
          for (const span& x : spans) {
            if (x.end <= b) continue;
            if (x.begin >= e) break;
            if (!is_no_answer(x.code) && codes_match(x.code, langs[p.lang], strict))
              s.right += static_cast<double>(std::min(e, x.end) - std::max(b, x.begin));
          }
        }
      // Boundaries: the true ones (the first byte of every part after the first) against the
      // spans' (every begin after the first span's), the document's ends included.
      std::vector<std::size_t> predicted = {0, d.text.size()};
      for (std::size_t k = 1; k < spans.size(); ++k) predicted.push_back(spans[k].begin);
      std::vector<std::size_t> truth;
      for (std::size_t k = 1; k < d.parts.size(); ++k) truth.push_back(d.parts[k].sents.front().first);
      for (std::size_t t : truth) {
        std::size_t best = SIZE_MAX;
        for (std::size_t p : predicted) best = std::min(best, p > t ? p - t : t - p);
        s.boundary_error += static_cast<double>(best);
        ++s.boundaries;
        s.within += best <= 10;
      }
      for (std::size_t k = 2; k < predicted.size(); ++k) {
        bool near = false;
        for (std::size_t t : truth) near = near || (predicted[k] > t ? predicted[k] - t : t - predicted[k]) <= 10;
        s.extra += !near;
      }
    }
  }

  // Report.
  auto pct_of = [](double a, double b) { return b > 0 ? fmt(100.0 * a / b, 1) : std::string("—"); };
  std::string md = "# Language spans\n\n";
  md += "- data: `" + dir + "`; " + std::to_string(langs.size()) + " languages to draw from (seed " +
        std::to_string(seed) + "), " + std::to_string(docs_per) + " documents per setting\n";
  md += "- right: share of sentence bytes in a span of their language; boundary: mean distance (bytes) from a true "
        "boundary to the nearest span boundary or document end; ≤10: share of true boundaries with a span boundary at "
        "most 10 bytes away; extra: span boundaries per document more than 10 bytes from every true one\n";
  md += "- detectors:\n";
  for (const detector& d : detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  md += "\n| languages | part bytes | documents | mean part |";
  for (const detector& d : detectors) md += " " + md_cell(d.name) + " right | boundary | ≤10 | extra |";
  md += "\n| ---: | ---: | ---: | ---: |";
  for (std::size_t d = 0; d < detectors.size(); ++d) md += " ---: | ---: | ---: | ---: |";
  md += "\n";
  std::string t = "detector\tlanguages\tpart_bytes\tdocuments\tmean_part_bytes\tright_pct\tboundary_error\twithin10_pct\textra_per_doc\n";
  auto cells = [&](const stats& s) {
    return " " + pct_of(s.right, s.bytes) + " | " +
           (s.boundaries ? fmt(s.boundary_error / static_cast<double>(s.boundaries), 1) : std::string("—")) + " | " +
           pct_of(static_cast<double>(s.within), static_cast<double>(s.boundaries)) + " | " +
           (s.docs ? fmt(static_cast<double>(s.extra) / static_cast<double>(s.docs), 2) : std::string("—")) + " |";
  };
  for (std::size_t si = 0; si < settings.size(); ++si) {
    const setting& st = settings[si];
    const double mean_part = st.part_count ? static_cast<double>(st.part_total) / static_cast<double>(st.part_count) : 0;
    md += "| " + std::to_string(st.languages) + " | " + std::to_string(st.part_bytes) + " | " + thousands(st.docs) + " | " +
          fmt(mean_part, 0) + " |";
    for (std::size_t di = 0; di < detectors.size(); ++di) {
      const stats& s = results[di][si];
      md += cells(s);
      t += detectors[di].name + "\t" + std::to_string(st.languages) + "\t" + std::to_string(st.part_bytes) + "\t" +
           std::to_string(s.docs) + "\t" + fmt(mean_part, 1) + "\t" + (s.bytes > 0 ? fmt(100.0 * s.right / s.bytes, 2) : "") +
           "\t" + (s.boundaries ? fmt(s.boundary_error / static_cast<double>(s.boundaries), 2) : "") + "\t" +
           (s.boundaries ? fmt(100.0 * static_cast<double>(s.within) / static_cast<double>(s.boundaries), 2) : "") +
           "\t" + (s.docs ? fmt(static_cast<double>(s.extra) / static_cast<double>(s.docs), 3) : "") + "\n";
    }
    md += "\n";
  }
  // The settings of two languages or more with parts of at least 200 bytes, and all of them.
  for (const bool long_only : {true, false}) {
    md += std::string("| ") + (long_only ? "**2+, parts ≥ 200**" : "**2+, all**") + " | | | |";
    for (std::size_t di = 0; di < detectors.size(); ++di) {
      stats sum;
      for (std::size_t si = 0; si < settings.size(); ++si) {
        if ((long_only && settings[si].part_bytes < 200) || settings[si].languages < 2) continue;
        const stats& s = results[di][si];
        sum.bytes += s.bytes;
        sum.right += s.right;
        sum.docs += s.docs;
        sum.boundaries += s.boundaries;
        sum.within += s.within;
        sum.extra += s.extra;
        sum.boundary_error += s.boundary_error;
      }
      md += cells(sum);
    }
    md += "\n";
  }
  md += "\n";
  if (!tsv.empty() && !write_text(tsv, t, error)) return fail(kProgram, error);
  if (!write_text(markdown, md, error)) return fail(kProgram, error);
  return 0;
}
