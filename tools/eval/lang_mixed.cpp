// `langsift-eval mixed DIR` — two-language documents built from sentences of languages A and B
// with known byte shares; the detectors' reported percents (TSV output: second field
// `code:percent:bytes,...`) are compared with the true shares.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "eval_modes.hpp"
#include "lang_common.hpp"

namespace fs = std::filesystem;
using namespace langsift::eval;

namespace {

constexpr const char* kProgram = "langsift-eval mixed";
constexpr const char* kDefaultPairs = "en:fr,de:en,es:pt,fr:it,nl:de,ru:uk,hr:sr,da:nb,ja:en,zh:en,ar:fr,hi:en";

void usage(std::FILE* out) {
  std::fprintf(out,
      "usage: langsift-eval mixed [options] DIR\n"
      "\n"
      "Two-language documents. DIR holds <code>.txt files of sentences (e.g. lingua-dev/sentences).\n"
      "For each pair A:B, documents of about N bytes are built from consecutive sentences of A and B\n"
      "(each used once) so that A has a target share of the text bytes (25, 50, 75 %% in turn), in\n"
      "two layouts: `blocks` (A's sentences, then B's) and `interleaved` (paragraphs of at least\n"
      "--paragraph bytes alternate, the language behind its target share going next). Sentences\n"
      "are joined by spaces; a document is one input line. The true share of A is\n"
      "bytes(A sentences) / (bytes(A sentences) + bytes(B sentences)).\n"
      "\n"
      "Each detector must print, per line, TAB-separated fields whose second is the languages found:\n"
      "`en:62:1234,fr:38:760` (code:percent[:bytes], up to three) — `langsift detect --lines\n"
      "--format tsv` and `langsift-peer-cld2 --tsv` do. Per document, error = (|reported%%(A) - true\n"
      "%%(A)| + |reported%%(B) - true%%(B)|) / 2 in percentage points (a language not reported counts\n"
      "0 %%); reported: mean error per pair and overall (target <= 5), how often both A and B are\n"
      "among the reported languages, and how often the first language is the majority one (documents\n"
      "whose shares are not 50/50).\n"
      "\n"
      "options:\n"
      "  --pairs A:B,...      language pairs (default %s)\n"
      "  --random K           K random pairs of the languages in DIR instead (see --seed)\n"
      "  --seed S             seed of --random (default 1); the pairs depend only on it and DIR\n"
      "  --bytes N            document size in bytes (default 1000)\n"
      "  --shares P,...       target shares of A in percent, used in turn (default 25,50,75)\n"
      "  --layout L           blocks, interleaved or both (default both)\n"
      "  --paragraph N        minimum bytes of one paragraph in the interleaved layout (default 150)\n"
      "  --docs K             documents per pair and layout (default 12)\n"
      "%s"
      "  --strict             compare whole codes (zh-Hant is not zh)\n"
      "  --markdown FILE      write the markdown report to FILE instead of stdout\n"
      "  --tsv FILE           write one row per document and detector: detector, pair, layout,\n"
      "                       true_a, true_b, reported_a, reported_b, error, both_in_top3, langs\n"
      "  -h, --help           this help\n",
      kDefaultPairs, kDetectorOptionsHelp);
}

enum class layout { blocks, interleaved };
const char* layout_name(layout l) { return l == layout::blocks ? "blocks" : "interleaved"; }

struct document {
  std::size_t pair = 0;
  layout lay = layout::blocks;
  std::string text;
  double true_a = 0, true_b = 0;  // percent of the text bytes
};

// Sentences of one language, consumed in order.
struct cursor {
  const std::vector<std::string>* sentences = nullptr;
  std::size_t next = 0;
  bool done() const { return next >= sentences->size(); }
  const std::string& take() { return (*sentences)[next++]; }
};

/// Builds one document with A at `share` percent of about `bytes` bytes; false when a language
/// has run out of sentences.
bool build_document(cursor& a, cursor& b, std::size_t bytes, std::size_t paragraph, unsigned share, layout lay,
                    document& doc) {
  std::size_t ba = 0, bb = 0;
  std::vector<const std::string*> parts;
  if (lay == layout::blocks) {
    std::size_t need_a = std::max<std::size_t>(1, bytes * share / 100), need_b = std::max<std::size_t>(1, bytes - need_a);
    std::vector<const std::string*> pa, pb;
    while (ba < need_a) {
      if (a.done()) return false;
      pa.push_back(&a.take());
      ba += pa.back()->size();
    }
    while (bb < need_b) {
      if (b.done()) return false;
      pb.push_back(&b.take());
      bb += pb.back()->size();
    }
    parts = pa;
    parts.insert(parts.end(), pb.begin(), pb.end());
  } else {
    // Paragraphs (consecutive sentences of one language, at least `paragraph` bytes) alternate:
    // the language further behind its target share goes next; A first.
    while (ba + bb < bytes || ba == 0 || bb == 0) {
      bool take_a = bb == 0 ? ba == 0 : ba == 0 || ba * (100 - share) <= bb * share;
      cursor& c = take_a ? a : b;
      std::size_t& counted = take_a ? ba : bb;
      std::size_t para = 0;
      while (para < paragraph) {
        if (c.done()) return false;
        parts.push_back(&c.take());
        para += parts.back()->size();
      }
      counted += para;
    }
  }
  doc.text.clear();
  for (const std::string* p : parts) {
    if (!doc.text.empty()) doc.text += ' ';
    doc.text += *p;
  }
  doc.lay = lay;
  doc.true_a = 100.0 * static_cast<double>(ba) / static_cast<double>(ba + bb);
  doc.true_b = 100.0 - doc.true_a;
  return true;
}

struct reported_lang {
  std::string code;
  double percent = 0;
};

/// Parses the second TSV field, "en:62:1234,fr:38:760" ("", "und" or "-" = none).
bool parse_langs(std::string_view field, std::vector<reported_lang>& out, std::string& error) {
  out.clear();
  if (field.empty() || field == "-" || is_no_answer(field)) return true;
  for (const std::string& item : langsift::eval::split_list(field)) {
    std::size_t c1 = item.find(':');
    if (c1 == std::string::npos || c1 == 0) {
      error = "'" + item + "' is not code:percent[:bytes]";
      return false;
    }
    std::size_t c2 = item.find(':', c1 + 1);
    std::string number = item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
    char* end = nullptr;
    double p = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !(p >= 0 && p <= 100)) {
      error = "'" + item + "': percent must be a number 0-100";
      return false;
    }
    out.push_back({item.substr(0, c1), p});
  }
  return true;
}

struct stats {
  std::size_t docs = 0, both = 0, majority_docs = 0, majority_first = 0;
  double error_sum = 0;
  double mae() const { return docs ? error_sum / static_cast<double>(docs) : 0.0; }
};

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string fmt1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

int fail_usage(const std::string& message) { return langsift::cli::fail(kProgram, message) + 1; }

}  // namespace

int langsift::cli::eval_mixed(int argc, char** argv) {
  std::string dir, markdown, tsv, error, pairs_text = kDefaultPairs;
  std::size_t bytes = 1000, docs_per = 12, random_k = 0, paragraph = 150;
  std::uint64_t seed = 1;
  std::vector<unsigned> shares = {25, 50, 75};
  std::vector<layout> layouts = {layout::blocks, layout::interleaved};
  bool strict = false, have_dir = false, have_pairs = false;
  detector_options dets("detect --lines --format tsv");
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string value;
    bool missing = false;
    auto number = [&](const char* name, std::size_t& out, bool positive) -> bool {
      auto n = missing ? std::nullopt : parse_size(value);
      if (!n || (positive && *n == 0)) {
        error = std::string(name) + " needs a " + (positive ? "positive " : "") + "number";
        return false;
      }
      out = static_cast<std::size_t>(*n);
      return true;
    };
    if (a == "--version") return langsift::cli::print_version("langsift-eval mixed");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (dets.take(argc, argv, i, error)) {
      if (!error.empty()) return fail_usage(error);
    } else if (a == "--strict") {
      strict = true;
    } else if (take_option(argc, argv, i, "--pairs", value, missing)) {
      if (missing) return fail_usage("--pairs needs A:B,...");
      pairs_text = value;
      have_pairs = true;
    } else if (take_option(argc, argv, i, "--random", value, missing)) {
      if (!number("--random", random_k, true)) return fail_usage(error);
    } else if (take_option(argc, argv, i, "--seed", value, missing)) {
      std::size_t s = 0;
      if (!number("--seed", s, false)) return fail_usage(error);
      seed = s;
    } else if (take_option(argc, argv, i, "--bytes", value, missing)) {
      if (!number("--bytes", bytes, true)) return fail_usage(error);
    } else if (take_option(argc, argv, i, "--paragraph", value, missing)) {
      if (!number("--paragraph", paragraph, true)) return fail_usage(error);
    } else if (take_option(argc, argv, i, "--docs", value, missing)) {
      if (!number("--docs", docs_per, true)) return fail_usage(error);
    } else if (take_option(argc, argv, i, "--shares", value, missing)) {
      shares.clear();
      for (const std::string& item : langsift::eval::split_list(value)) {
        auto n = parse_size(item);
        if (!n || *n == 0 || *n >= 100) return fail_usage("--shares: '" + item + "' is not a percent between 1 and 99");
        shares.push_back(static_cast<unsigned>(*n));
      }
      if (missing || shares.empty()) return fail_usage("--shares needs percents, e.g. 25,50,75");
    } else if (take_option(argc, argv, i, "--layout", value, missing)) {
      if (value == "blocks") layouts = {layout::blocks};
      else if (value == "interleaved") layouts = {layout::interleaved};
      else if (value == "both") layouts = {layout::blocks, layout::interleaved};
      else return fail_usage("--layout is blocks, interleaved or both");
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
  if (!have_dir) return langsift::cli::fail(kProgram, "DIR is required; see --help") + 1;
  if (have_pairs && random_k) return fail_usage("--pairs and --random exclude each other");
  std::vector<detector> detectors;
  if (!dets.finish(detectors, error)) return fail_usage(error);

  std::vector<language_file> files;
  if (!list_language_files(dir, files, error)) return fail(kProgram, error);
  if (files.empty()) return fail(kProgram, dir + ": no <code>.txt files");

  // Pairs.
  std::vector<std::pair<std::string, std::string>> pairs;
  if (random_k) {
    if (files.size() < 2) return fail(kProgram, dir + ": --random needs at least two languages");
    std::size_t possible = files.size() * (files.size() - 1) / 2;
    std::set<std::pair<std::size_t, std::size_t>> seen;
    std::uint64_t state = seed;
    while (pairs.size() < std::min(random_k, possible)) {
      std::size_t x = static_cast<std::size_t>(splitmix64(state) % files.size());
      std::size_t y = static_cast<std::size_t>(splitmix64(state) % files.size());
      if (x == y || !seen.insert({std::min(x, y), std::max(x, y)}).second) continue;
      pairs.push_back({files[x].code, files[y].code});
    }
  } else {
    for (const std::string& item : langsift::eval::split_list(pairs_text)) {
      std::size_t colon = item.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == item.size() ||
          item.find(':', colon + 1) != std::string::npos)
        return fail_usage("--pairs: '" + item + "' is not A:B");
      std::string x = item.substr(0, colon), y = item.substr(colon + 1);
      if (normalize_code(x, strict) == normalize_code(y, strict)) return fail_usage("--pairs: '" + item + "' pairs a language with itself");
      pairs.push_back({x, y});
    }
    if (pairs.empty()) return fail_usage("--pairs needs A:B,...");
  }

  // Sentences of the languages used.
  std::map<std::string, std::vector<std::string>> sentences;
  for (const auto& [x, y] : pairs) {
    for (const std::string& code : {x, y}) {
      if (sentences.count(code)) continue;
      fs::path p = fs::path(dir) / (code + ".txt");
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) return fail(kProgram, p.string() + ": no such file");
      std::vector<std::string> s;
      if (!read_samples(p, 0, s, error)) return fail(kProgram, error);
      if (s.empty()) return fail(kProgram, p.string() + ": no samples (empty file)");
      sentences[code] = std::move(s);
    }
  }

  // Documents: per pair, per layout, `docs_per` documents cycling through the shares; each pair
  // starts at the first sentence of both languages, and layouts continue where the last stopped.
  std::vector<document> docs;
  std::vector<std::size_t> docs_of_pair(pairs.size());
  for (std::size_t pi = 0; pi < pairs.size(); ++pi) {
    cursor a{&sentences[pairs[pi].first]}, b{&sentences[pairs[pi].second]};
    for (layout lay : layouts) {
      for (std::size_t k = 0; k < docs_per; ++k) {
        document d;
        d.pair = pi;
        if (!build_document(a, b, bytes, paragraph, shares[k % shares.size()], lay, d)) break;
        docs.push_back(std::move(d));
        ++docs_of_pair[pi];
      }
    }
    if (docs_of_pair[pi] == 0)
      return fail(kProgram, pairs[pi].first + ":" + pairs[pi].second + ": not enough sentences for one document of " +
                                std::to_string(bytes) + " bytes");
  }
  std::vector<std::string> lines;
  lines.reserve(docs.size());
  for (const document& d : docs) lines.push_back(d.text);

  // Run and score.
  struct det_stats {
    std::vector<stats> pair;
    stats all, by_layout[2];
  };
  std::vector<det_stats> results(detectors.size());
  std::string t = "detector\tpair\tlayout\ttrue_a\ttrue_b\treported_a\treported_b\terror\tboth_in_top3\tlangs\n";
  for (std::size_t di = 0; di < detectors.size(); ++di) {
    command_run run;
    if (!run_command(detectors[di].command, lines, run, error))
      return fail(kProgram, "detector '" + detectors[di].name + "' on the mixed documents: " + error);
    det_stats& r = results[di];
    r.pair.resize(pairs.size());
    std::vector<reported_lang> reported;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const document& d = docs[i];
      std::vector<std::string_view> fields = tab_fields(run.lines[i]);
      if (fields.size() < 2)
        return fail(kProgram, "detector '" + detectors[di].name + "', output line " + std::to_string(i + 1) +
                                  ": no second TAB-separated field (the languages); mixed mode needs TSV output "
                                  "such as `langsift detect --lines --format tsv`");
      if (!parse_langs(fields[1], reported, error))
        return fail(kProgram, "detector '" + detectors[di].name + "', output line " + std::to_string(i + 1) + ": " + error);
      const std::string& ca = pairs[d.pair].first;
      const std::string& cb = pairs[d.pair].second;
      double pa = 0, pb = 0;
      bool in_a = false, in_b = false;
      for (const reported_lang& x : reported) {
        if (codes_match(x.code, ca, strict)) pa += x.percent, in_a = true;
        else if (codes_match(x.code, cb, strict)) pb += x.percent, in_b = true;
      }
      double err = (std::fabs(pa - d.true_a) + std::fabs(pb - d.true_b)) / 2.0;
      bool both = in_a && in_b;
      bool has_majority = std::fabs(d.true_a - 50.0) >= 0.5;
      bool first_ok = false;
      if (has_majority && !reported.empty())
        first_ok = codes_match(reported[0].code, d.true_a > 50.0 ? ca : cb, strict);
      for (stats* s : {&r.pair[d.pair], &r.all, &r.by_layout[d.lay == layout::blocks ? 0 : 1]}) {
        ++s->docs;
        s->error_sum += err;
        s->both += both;
        s->majority_docs += has_majority;
        s->majority_first += first_ok;
      }
      t += detectors[di].name + "\t" + ca + ":" + cb + "\t" + layout_name(d.lay) + "\t" + fmt1(d.true_a) + "\t" +
           fmt1(d.true_b) + "\t" + fmt1(pa) + "\t" + fmt1(pb) + "\t" + fmt1(err) + "\t" + (both ? "1" : "0") + "\t" +
           std::string(fields[1]) + "\n";
    }
  }

  auto share = [](std::size_t part, std::size_t whole) {
    return whole ? pct(static_cast<double>(part) / static_cast<double>(whole), 0) + " %" : std::string("—");
  };
  std::string md = "# Two-language documents\n\n";
  md += "- data: `" + dir + "`; documents of about " + std::to_string(bytes) + " bytes, A's share of the bytes";
  for (std::size_t i = 0; i < shares.size(); ++i) md += (i ? ", " : " ") + std::to_string(shares[i]) + " %";
  md += " in turn; layouts:";
  for (layout l : layouts) md += std::string(" ") + layout_name(l);
  md += " (paragraphs of at least " + std::to_string(paragraph) + " bytes); " + std::to_string(docs_per) +
        " documents per pair and layout\n";
  md += "- error: (|reported % of A − true % of A| + |reported % of B − true % of B|) / 2, in points; "
        "both: A and B both among the reported languages; first: the first reported language is the "
        "majority one (documents not 50/50)\n";
  md += "- detectors:\n";
  for (const detector& d : detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  md += "\n| pair | documents |";
  for (const detector& d : detectors) md += " " + md_cell(d.name) + " error | both | first |";
  md += "\n| --- | ---: |";
  for (std::size_t d = 0; d < detectors.size(); ++d) md += " ---: | ---: | ---: |";
  md += "\n";
  auto row = [&](const std::string& label, std::size_t n, auto get) {
    md += "| " + label + " | " + thousands(n) + " |";
    for (const det_stats& r : results) {
      const stats& s = get(r);
      md += ' ';
      md += fmt1(s.mae());
      md += " | ";
      md += share(s.both, s.docs);
      md += " | ";
      md += share(s.majority_first, s.majority_docs);
      md += " |";
    }
    md += "\n";
  };
  for (std::size_t pi = 0; pi < pairs.size(); ++pi)
    row(md_cell(pairs[pi].first) + " : " + md_cell(pairs[pi].second), docs_of_pair[pi],
        [pi](const det_stats& r) -> const stats& { return r.pair[pi]; });
  for (std::size_t li = 0; li < 2; ++li) {
    if (std::find(layouts.begin(), layouts.end(), li == 0 ? layout::blocks : layout::interleaved) == layouts.end())
      continue;
    row(std::string("*") + (li == 0 ? "blocks" : "interleaved") + "*", results[0].by_layout[li].docs,
        [li](const det_stats& r) -> const stats& { return r.by_layout[li]; });
  }
  row("**all**", docs.size(), [](const det_stats& r) -> const stats& { return r.all; });
  md += "\n";

  if (!tsv.empty() && !write_text(tsv, t, error)) return fail(kProgram, error);
  if (!write_text(markdown, md, error)) return fail(kProgram, error);
  return 0;
}
