// langsift-train close: the discriminators of a model's close groups (langsift/close_groups.hpp,
// docs/detection.md "Close languages", models/README.md).
//
// For each group (a line of --groups, written by scripts/close-groups.py from the model's own
// confusions on held-out text), the members' training text is read by source (the manifest's byte
// ranges; excluded sources and every --holdout-th line left out, as langsift-train does). Only the
// sources that every member has with at least --min-source-bytes are used, and each weighs the same
// for every member: what separates the members is then their language, not the topics of a source
// one of them has alone (Bosnian's text is nearly all NTREX news; Croatian's also software help and
// the Bible). Word frequency lists (--word-lists) are one more such source when every member has
// one that its text uses (a list in another script is left out). For every word and pair of
// consecutive words, P(f | member) = the sources' mean of f's share of the member's tokens,
// smoothed (P N + alpha) / (N + alpha V); the discriminator's weight of f for a member is its
// log-probability minus the mean over the members, kept when the members differ by at least
// --min-log-odds and f was seen --min-count times.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/cli.hpp"
#include "common/model_arg.hpp"
#include "common/output.hpp"
#include "langsift/close_groups.hpp"
#include "langsift/default_model.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/model.hpp"
#include "langsift/ngram.hpp"

namespace fs = std::filesystem;

namespace langsift::cli {
namespace {

constexpr const char* kProgram = "langsift-train close";

struct source_text {
  std::string name;
  std::vector<std::string> lines;
  std::uint64_t bytes = 0;
};

/// The member's kept training lines by source (excluded ones and every holdout-th line left out).
bool read_member(const std::string& corpus, const std::string& manifest, const std::string& code,
                 const std::set<std::string>& excluded, unsigned holdout, std::vector<source_text>& out,
                 std::string& error) {
  std::ifstream mf(manifest);
  if (!mf) {
    error = manifest + ": cannot open";
    return false;
  }
  std::vector<std::pair<std::string, std::uint64_t>> parts;  // source, bytes, in file order
  std::string line;
  std::getline(mf, line);
  while (std::getline(mf, line)) {
    std::istringstream ss(line);
    std::string c, bytes, lines, removed, src;
    if (!std::getline(ss, c, '\t') || c != code) continue;
    std::getline(ss, bytes, '\t');
    std::getline(ss, lines, '\t');
    std::getline(ss, removed, '\t');
    std::getline(ss, src);
    std::istringstream s2(src);
    std::string item;
    while (s2 >> item) {
      const auto colon = item.rfind(':');
      if (colon != std::string::npos) parts.emplace_back(item.substr(0, colon), std::stoull(item.substr(colon + 1)));
    }
  }
  if (parts.empty()) {
    error = manifest + ": no row for " + code;
    return false;
  }
  const fs::path path = fs::path(corpus) / (code + ".txt");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path.string() + ": cannot open";
    return false;
  }
  std::map<std::string, std::size_t> index;
  std::uint64_t pos = 0, n = 0;
  while (std::getline(in, line)) {
    const std::uint64_t begin = pos;
    pos += line.size() + 1;
    std::uint64_t at = 0;
    std::string src;
    for (const auto& [name, bytes] : parts) {
      if (begin < at + bytes) {
        src = name;
        break;
      }
      at += bytes;
    }
    if (src.empty() || excluded.count(src) || excluded.count(code + ":" + src)) continue;
    if (holdout && ++n % holdout == 0) continue;
    auto [it, fresh] = index.emplace(src, out.size());
    if (fresh) out.push_back({src, {}, 0});
    out[it->second].bytes += line.size();
    out[it->second].lines.push_back(std::move(line));
  }
  return true;
}

/// Counts of one source of one member: per feature, and tokens per kind (0 words, 1 pairs).
struct counts {
  std::unordered_map<std::uint64_t, double> c[2];
  double tokens[2] = {0, 0};
};

void count_text(const std::vector<std::string>& lines, counts& out) {
  const ngram_config words_only{5, 4, true, feature_hashing::window};
  for (const std::string& l : lines) {
    std::uint64_t prev = 0;
    for_each_feature(l, words_only, [&](std::uint64_t h, unsigned kind) {
      if (kind != feature_word) return;
      out.c[0][h] += 1;
      out.tokens[0] += 1;
      if (prev) {
        out.c[1][close_pair_hash(prev, h)] += 1;
        out.tokens[1] += 1;
      }
      prev = h;
    });
  }
}

/// A word list as counts (words only); false when the file is missing. `probe`: the share of its
/// first 1,000 words that occur in `text` (a list in another script than the text gives ~0).
bool read_list(const std::string& dir, const std::string& code, const counts& text, counts& out, double& probe,
               std::string& error) {
  const fs::path path = fs::path(dir) / (code + ".tsv");
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  const ngram_config words_only{5, 4, true, feature_hashing::window};
  std::size_t n = 0, seen = 0;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0) {
      error = path.string() + ": expected word<TAB>count";
      return false;
    }
    const double count = std::strtod(line.c_str() + tab + 1, nullptr);
    if (!(count > 0)) continue;
    std::uint64_t h = 0;
    int words = 0;
    for_each_feature(std::string_view(line).substr(0, tab), words_only, [&](std::uint64_t x, unsigned kind) {
      if (kind == feature_word) {
        h = x;
        ++words;
      }
    });
    if (words != 1) continue;  // "don't", numbers: not one word as detection cuts them
    out.c[0][h] += count;
    out.tokens[0] += count;
    if (n < 1000) {
      ++n;
      seen += text.c[0].count(h) != 0;
    }
  }
  probe = n ? static_cast<double>(seen) / static_cast<double>(n) : 0.0;
  return true;
}

/// Share of the web's pages per ISO 639-3 code (Common Crawl's languages.csv: crawl, code, pages,
/// urls, percent).
bool read_prior(const std::string& path, std::map<std::string, double>& out, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot open";
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream ss(line);
    std::string x;
    while (std::getline(ss, x, ',')) f.push_back(x);
    if (f.size() < 5 || f[0] == "crawl") continue;
    out[f[1]] = std::strtod(f[4].c_str(), nullptr) / 100.0;
  }
  if (out.empty()) error = path + ": no rows";
  return !out.empty();
}

double web_share(const std::map<std::string, double>& prior, const std::string& code) {
  std::string three = to_iso639_3(code);
  three = three.substr(0, three.find('-'));
  static const std::map<std::string, std::string> kMacro = {{"nob", "nor"}, {"zsm", "msa"}};
  auto it = prior.find(three);
  if (it == prior.end() && kMacro.count(three)) it = prior.find(kMacro.at(three));
  return it == prior.end() ? 0.0 : it->second;
}

/// Per feature (words: out[0], pairs: out[1]) seen min_count times in `cnt` (per member, its
/// sources): each member's log-probability, its sources weighing the same (P = the mean of the
/// feature's share of each source's tokens; smoothed (P N + alpha) / (N + alpha V), N the member's
/// tokens, V the features kept), less the mean over the members.
void log_odds(const std::vector<std::vector<counts>>& cnt, double alpha, double min_count,
              std::unordered_map<std::uint64_t, std::vector<double>> out[2]) {
  const std::size_t m = cnt.size();
  for (int kind = 0; kind < 2; ++kind) {
    std::unordered_map<std::uint64_t, double> total;
    for (const auto& member : cnt)
      for (const counts& c : member)
        for (const auto& [h, n] : c.c[kind]) total[h] += n;
    std::size_t v = 0;
    for (const auto& [h, n] : total) v += n >= min_count;
    const double V = static_cast<double>(std::max<std::size_t>(v, 1));
    std::vector<double> lp(m);
    for (const auto& [h, n] : total) {
      if (n < min_count) continue;
      double mean = 0;
      for (std::size_t i = 0; i < m; ++i) {
        double p = 0, z = 0, neff = 0;
        for (const counts& c : cnt[i]) {
          if (c.tokens[kind] <= 0) continue;
          const auto it = c.c[kind].find(h);
          p += (it == c.c[kind].end() ? 0.0 : it->second) / c.tokens[kind];
          z += 1;
          neff += c.tokens[kind];
        }
        p = z > 0 ? p / z : 0.0;
        lp[i] = std::log((p * neff + alpha) / (neff + alpha * V));
        mean += lp[i] / static_cast<double>(m);
      }
      std::vector<double>& w = out[kind][h];
      w.resize(m);
      for (std::size_t i = 0; i < m; ++i) w[i] = lp[i] - mean;
    }
  }
}

struct settings {
  std::string corpus, groups, manifest, output, word_lists, web_prior, model = "default";
  std::set<std::string> excluded;
  unsigned holdout = 0;
  double min_source_bytes = 50000, list_weight = 1, list_cap = 3, alpha = 2, min_log_odds = 1, min_count = 2, pair_weight = 0.5;
  std::size_t max_features = 50000;
  close_group_params params;
};

/// Trains one group; prints what it used.
bool train_group(const settings& st, const std::vector<std::string>& members, const std::map<std::string, double>& prior,
                 close_group_entry& out, std::string& error) {
  const std::size_t m = members.size();
  std::vector<std::vector<source_text>> text(m);
  for (std::size_t i = 0; i < m; ++i)
    if (!read_member(st.corpus, st.manifest, members[i], st.excluded, st.holdout, text[i], error)) return false;
  // The sources every member has enough of.
  std::vector<std::string> shared;
  for (const source_text& s : text[0]) {
    bool all = true;
    for (std::size_t i = 0; i < m && all; ++i) {
      const auto it = std::find_if(text[i].begin(), text[i].end(), [&](const source_text& t) { return t.name == s.name; });
      all = it != text[i].end() && static_cast<double>(it->bytes) >= st.min_source_bytes;
    }
    if (all) shared.push_back(s.name);
  }
  if (shared.empty())
    std::fprintf(stderr, "%s: %s: warning: no source that every member has with %lld bytes\n", kProgram, members[0].c_str(),
                 static_cast<long long>(st.min_source_bytes));
  // counts[member][source]
  std::vector<std::vector<counts>> cnt(m, std::vector<counts>(shared.size()));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k = 0; k < shared.size(); ++k)
      for (const source_text& t : text[i])
        if (t.name == shared[k]) count_text(t.lines, cnt[i][k]);
  std::string used;
  for (const std::string& s : shared) used += (used.empty() ? "" : "+") + s;
  std::vector<counts> lists(m);
  bool with_lists = !st.word_lists.empty();
  for (std::size_t i = 0; i < m && with_lists; ++i) {
    counts whole;  // all the member's text, for the probe
    for (const source_text& t : text[i]) count_text(t.lines, whole);
    double probe = 0;
    with_lists = read_list(st.word_lists, members[i], whole, lists[i], probe, error) && probe >= 0.2;
    if (!error.empty()) return false;
  }
  // Log-odds of the text (its sources weighing the same) and of the lists (an expert of their
  // own, added with --word-list-weight): feature -> per member.
  std::unordered_map<std::uint64_t, std::vector<double>> odds[2];
  log_odds(cnt, st.alpha, st.min_count, odds);
  if (with_lists) {
    std::vector<std::vector<counts>> lc(m);
    for (std::size_t i = 0; i < m; ++i) lc[i].push_back(std::move(lists[i]));
    std::unordered_map<std::uint64_t, std::vector<double>> llo[2];
    log_odds(lc, st.alpha, 1, llo);
    for (auto& [h, v] : llo[0]) {
      auto& t = odds[0][h];
      if (t.empty()) t.assign(m, 0.0);
      for (std::size_t i = 0; i < m; ++i) t[i] += st.list_weight * std::clamp(v[i], -st.list_cap, st.list_cap);
    }
    used += shared.empty() ? "word-lists" : "+word-lists";
  }
  for (int kind = 0; kind < 2; ++kind)
    for (const auto& [h, v] : odds[kind]) {
      const auto [a, b] = std::minmax_element(v.begin(), v.end());
      if (*b - *a < st.min_log_odds) continue;
      std::vector<float> w(m);
      const double kw = kind == 0 ? 1.0 : st.pair_weight;
      for (std::size_t i = 0; i < m; ++i) w[i] = static_cast<float>(kw * v[i]);
      out.features.emplace_back(h, std::move(w));
    }
  if (out.features.size() > st.max_features) {  // those the members differ on most
    auto spread = [](const std::vector<float>& w) {
      const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
      return *hi - *lo;
    };
    std::nth_element(out.features.begin(), out.features.begin() + static_cast<std::ptrdiff_t>(st.max_features), out.features.end(),
                     [&](const auto& a, const auto& b) { return spread(a.second) > spread(b.second) || (spread(a.second) == spread(b.second) && a.first < b.first); });
    out.features.resize(st.max_features);
  }
  out.members = members;
  out.params = st.params;
  for (const std::string& c : members) out.web_share.push_back(static_cast<float>(web_share(prior, c)));
  std::string shares;
  for (std::size_t i = 0; i < m; ++i) {
    char b[64];
    std::snprintf(b, sizeof b, "%s%s %.4f%%", i ? ", " : "", members[i].c_str(), 100.0 * out.web_share[i]);
    shares += b;
  }
  std::printf("%s: %s: %zu features from %s; web shares %s\n", kProgram, members[0].c_str(), out.features.size(),
               used.c_str(), shares.c_str());
  return true;
}

bool parse_float(const std::string& v, float& out) {
  char* end = nullptr;
  const float x = std::strtof(v.c_str(), &end);
  if (!end || *end || !std::isfinite(x) || x < 0) return false;
  out = x;
  return true;
}

/// What the command line gives `langsift-train close`: the settings, and --exclude-sources.
struct close_args {
  settings st;
  std::string exclude;
};

using option_row = option<close_args>;

/// A number as the trainer reads it (parse_float: >= 0), into `out` when it is at least `lo`.
bool number_at_least(const option_value& v, double lo, double& out) {
  float x = 0;
  if (!parse_float(std::string(v.text), x) || x < lo) return false;
  out = x;
  return true;
}

/// A parameter of close_group_params (parse_float: >= 0) into `out`.
bool parameter(const option_value& v, float& out) { return parse_float(std::string(v.text), out); }

/// The rows of the files and sources `langsift-train close` reads.
void add_input_rows(std::vector<option_row>& t) {
  using A = close_args;
  using V = option_value;
  t.push_back({value_kind::text, "--groups", nullptr, "FILE",
               "one group per line: the member codes, space-separated (# comments)",
               [](A& a, const V& v) { a.st.groups = v.text; return true; }, 0, 0, nullptr, "a file"});
  t.push_back({value_kind::text, "--manifest", nullptr, "FILE", "the corpus' MANIFEST.tsv (sources and their byte ranges)",
               [](A& a, const V& v) { a.st.manifest = v.text; return true; }, 0, 0, nullptr, "a file"});
  t.push_back({value_kind::text, "--exclude-sources", nullptr, "LIST", "sources left out, NAME or CODE:NAME (as langsift-train)",
               [](A& a, const V& v) { a.exclude = v.text; return true; }, 0, 0, nullptr, "a list"});
  t.push_back({value_kind::text, "--holdout", nullptr, "N", "leave out every Nth line of the text kept (as langsift-train)",
               [](A& a, const V& v) {
                 double h = 0;
                 if (!number_at_least(v, 2, h)) return false;
                 a.st.holdout = static_cast<unsigned>(h);
                 return true;
               },
               0, 0, nullptr, "a number >= 2"});
  t.push_back({value_kind::text, "--model", nullptr, "NAME|FILE",
               "the model the groups are for (default: default): members are checked\n"
               "against it and its checksum recorded",
               [](A& a, const V& v) { a.st.model = v.text; return true; }, 0, 0, nullptr, "a built-in model's name or a file"});
  t.push_back({value_kind::text, "--min-source-bytes", nullptr, "N",
               "a source is used when every member has N bytes of it (50000)",
               [](A& a, const V& v) { return number_at_least(v, 1, a.st.min_source_bytes); }, 0, 0, nullptr,
               "a number >= 1"});
  t.push_back({value_kind::text, "--word-lists", nullptr, "DIR",
               "DIR/<code>.tsv word<TAB>count lists: used when every member has one\nthat its text uses",
               [](A& a, const V& v) { a.st.word_lists = v.text; return true; }, 0, 0, nullptr, "a directory"});
  t.push_back({value_kind::text, "--word-list-weight", nullptr, "W",
               "the lists' log-odds (capped at +-3) weigh W against the text's (1)",
               [](A& a, const V& v) { return number_at_least(v, 0, a.st.list_weight); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--web-prior", nullptr, "CSV",
               "Common Crawl's languages.csv: each member's share of the web's pages",
               [](A& a, const V& v) { a.st.web_prior = v.text; return true; }, 0, 0, nullptr, "a file"});
}

/// The rows of the features kept and of the decision's parameters.
void add_training_rows(std::vector<option_row>& t) {
  using A = close_args;
  using V = option_value;
  t.push_back({value_kind::text, "--alpha", nullptr, "A", "smoothing (2)",
               [](A& a, const V& v) { return number_at_least(v, 1e-6, a.st.alpha); }, 0, 0, nullptr, "a number > 0"});
  t.push_back({value_kind::text, "--min-log-odds", nullptr, "X",
               "keep a feature when the members' log-probabilities differ by X (1)",
               [](A& a, const V& v) { return number_at_least(v, 0, a.st.min_log_odds); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--min-count", nullptr, "N", "... and it was seen N times in the group's text (2)",
               [](A& a, const V& v) { return number_at_least(v, 1, a.st.min_count); }, 0, 0, nullptr, "a number >= 1"});
  t.push_back({value_kind::text, "--pair-weight", nullptr, "W", "weight of word pairs against words (0.5)",
               [](A& a, const V& v) { return number_at_least(v, 0, a.st.pair_weight); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--max-features", nullptr, "N",
               "per group at most N features, those the members differ on most (50000)",
               [](A& a, const V& v) {
                 double n = 0;
                 if (!number_at_least(v, 1, n)) return false;
                 a.st.max_features = static_cast<std::size_t>(n);
                 return true;
               },
               0, 0, nullptr, "a number >= 1"});
  t.push_back({value_kind::text, "--model-weight", nullptr, "A",
               "\nthe decision's parameters (close_group_params; 1 1 1 1.5 4 400 32)",
               [](A& a, const V& v) { return parameter(v, a.st.params.model_weight); }, 0, 0, nullptr, "a number >= 0",
               "--model-weight A --discriminator-weight B --prior-weight G --prior-cap C --trigger T\n"
               "  --prior-min-bytes N --min-bytes N"});
  t.push_back({value_kind::text, "--discriminator-weight", nullptr, "B", "",
               [](A& a, const V& v) { return parameter(v, a.st.params.discriminator_weight); }, 0, 0, nullptr,
               "a number >= 0"});
  t.push_back({value_kind::text, "--prior-weight", nullptr, "G", "",
               [](A& a, const V& v) { return parameter(v, a.st.params.prior_weight); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--prior-cap", nullptr, "C", "",
               [](A& a, const V& v) { return parameter(v, a.st.params.prior_cap); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--trigger", nullptr, "T", "",
               [](A& a, const V& v) { return parameter(v, a.st.params.trigger); }, 0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--prior-min-bytes", nullptr, "N", "",
               [](A& a, const V& v) {
                 double b = 0;
                 if (!number_at_least(v, 0, b)) return false;
                 a.st.params.prior_min_bytes = static_cast<std::uint32_t>(b);
                 return true;
               },
               0, 0, nullptr, "a number >= 0"});
  t.push_back({value_kind::text, "--min-bytes", nullptr, "N", "",
               [](A& a, const V& v) {
                 double b = 0;
                 if (!number_at_least(v, 0, b)) return false;
                 a.st.params.min_bytes = static_cast<std::uint32_t>(b);
                 return true;
               },
               0, 0, nullptr, "a number >= 0"});
}

/// The options of `langsift-train close`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-train close CORPUS_DIR --groups FILE --manifest FILE -o OUT [options]\n"
                 "\n"
                 "Trains the discriminators of close groups (docs/detection.md, \"Close languages\").\n"});
    add_input_rows(t);
    add_training_rows(t);
    t.push_back({value_kind::text, "-o", nullptr, "FILE", "the close-groups file to write",
                 [](close_args& a, const option_value& v) { a.st.output = v.text; return true; }, 0, 0, nullptr, "a file"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { usage_text(out, options(), 26); }

/// The groups of --groups, each trained; false after the error (reported). `info` records the
/// command line.
bool train_groups(const settings& st, const std::map<std::string, double>& prior, std::vector<close_group_entry>& entries) {
  std::string error, line;
  std::ifstream gf(st.groups);
  if (!gf) return fail(kProgram, st.groups + ": cannot open") == 0;
  while (std::getline(gf, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream ss(line);
    std::vector<std::string> members;
    for (std::string c; ss >> c;) members.push_back(c);
    if (members.empty()) continue;
    if (members.size() < 2 || members.size() > max_close_members)
      return fail(kProgram, st.groups + ": a group has 2 to " + std::to_string(max_close_members) + " members: " + line) == 0;
    close_group_entry e;
    if (!train_group(st, members, prior, e, error)) return fail(kProgram, members[0] + "'s group: " + error) == 0;
    entries.push_back(std::move(e));
  }
  if (entries.empty()) return fail(kProgram, st.groups + ": no group") == 0;
  return true;
}

}  // namespace

int train_close(int argc, char** argv) {
  close_args a;
  settings& st = a.st;
  std::vector<std::string> positional;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, positional); rc >= 0) return rc;
  if (positional.size() > 1) return fail(kProgram, "one corpus directory only") + 1;
  if (!positional.empty()) st.corpus = positional[0];
  if (st.corpus.empty() || st.groups.empty() || st.manifest.empty() || st.output.empty()) {
    usage(stderr);
    return 2;
  }
  std::istringstream ex(a.exclude);
  for (std::string s; std::getline(ex, s, ',');)
    if (!s.empty()) st.excluded.insert(s);
  langsift::model storage;
  const langsift::model* model = nullptr;
  std::string error;
  if (resolve_model(st.model, model, storage, error) != status::ok) return fail(kProgram, error);
  std::map<std::string, double> prior;
  if (!st.web_prior.empty() && !read_prior(st.web_prior, prior, error)) return fail(kProgram, error);
  std::vector<close_group_entry> entries;
  if (!train_groups(st, prior, entries)) return 1;
  std::ostringstream info;
  info << "langsift-train close";
  for (int i = 1; i < argc; ++i) info << ' ' << argv[i];
  info << '\n';
  const std::string bytes = write_close_groups(entries, model->checksum(), info.str());
  // The file must load and attach to the model it is for.
  close_groups check;
  if (close_groups::load_copy(bytes, check, &error) != status::ok) return fail(kProgram, "internal error: " + error);
  langsift::model copy = *model;
  if (copy.set_close_groups(std::make_shared<const close_groups>(check), &error) != status::ok) return fail(kProgram, error);
  if (!write_file_atomic(st.output, bytes, error)) return fail(kProgram, error);
  std::printf("%s: %s: %zu groups, %zu bytes, xxh3 %016llx\n", kProgram, st.output.c_str(), entries.size(), bytes.size(),
               static_cast<unsigned long long>(check.checksum()));
  return 0;
}

}  // namespace langsift::cli
