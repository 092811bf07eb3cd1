// `langsift-train` — trains a langsift model from a corpus directory (one UTF-8 file per
// language, named <code>.txt). Deterministic: the same corpus and options give the same bytes.
#include <algorithm>
#include <atomic>
#include <memory>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/cli.hpp"
#include "langsift/detector.hpp"
#include "langsift/train.hpp"
#include "unaccent.hpp"

namespace fs = std::filesystem;
using namespace langsift;

namespace {

constexpr const char* kProgram = "langsift-train";

/// What the command line gives `langsift-train`.
struct train_args {
  std::string corpus, output, langs_arg, manifest, exclude_arg, name, holdout_dir, word_lists;
  std::vector<std::string> script_weights_args;
  train_config cfg;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  unsigned holdout = 0, unaccented_every = 0;
  unsigned long long word_list_top = 50000;
  bool quiet = false;
};

using option_row = langsift::cli::option<train_args>;
using langsift::cli::option_value;
using langsift::cli::value_kind;

bool parse_weights(const std::string& arg, float* w);

/// The options of `langsift-train` that choose the corpus and what is written.
void add_corpus_options(std::vector<option_row>& t) {
  t.push_back({value_kind::text, "--output", "-o", "FILE", "the model file to write (required)",
               [](train_args& a, const option_value& v) { a.output = v.text; return true; }, 0, 0, nullptr, "a file name"});
  t.push_back({value_kind::text, "--langs", nullptr, "CODES",
               "comma-separated codes, or @FILE with one code per line (default:\nevery <code>.txt in CORPUS_DIR)",
               [](train_args& a, const option_value& v) { a.langs_arg = v.text; return true; }, 0, 0, nullptr, "codes"});
  t.push_back({value_kind::text, "--manifest", nullptr, "FILE",
               "a MANIFEST.tsv (code, bytes, lines, removed, sources(bytes)) that gives\n"
               "each file's sources in file order, for --exclude-sources",
               [](train_args& a, const option_value& v) { a.manifest = v.text; return true; }, 0, 0, nullptr, "a file"});
  t.push_back({value_kind::text, "--exclude-sources", nullptr, "LIST",
               "skip the bytes of these sources, e.g. wesnoth,fortunes,lij:ud\n"
               "(SOURCE for every language, CODE:SOURCE for one)",
               [](train_args& a, const option_value& v) { a.exclude_arg = v.text; return true; }, 0, 0, nullptr, "a list"});
}

/// The options of `langsift-train` that shape the model.
void add_model_options(std::vector<option_row>& t) {
  t.push_back({value_kind::size, "--top-k", nullptr, "N", "features kept per language, most frequent first (default 18000)",
               [](train_args& a, const option_value& v) { a.cfg.top_k = static_cast<std::uint32_t>(v.size); return true; },
               1, 50000000});
  t.push_back({value_kind::size, "--min-count", nullptr, "N", "minimum count of a kept feature (default 2)",
               [](train_args& a, const option_value& v) { a.cfg.min_count = static_cast<std::uint32_t>(v.size); return true; },
               1, 1000000});
  t.push_back({value_kind::size, "--rank-size", nullptr, "N", "size of the rank-order (TextCat) profiles (default 400)",
               [](train_args& a, const option_value& v) {
                 a.cfg.rank_profile_size = static_cast<std::uint32_t>(v.size);
                 return true;
               },
               10, 65535});
  t.push_back({value_kind::text, "--weights", nullptr, "W1,..,W5,WW",
               "weight of n-grams of order 1..5 and of words in the log-probability\n"
               "score; 0 keeps a kind out of the table (default 0,0,0,4,0,8)",
               [](train_args& a, const option_value& v) { return parse_weights(std::string(v.text), a.cfg.order_weight); },
               0, 0, nullptr, "six numbers in 0..1000, not all 0 (orders 1..5, words)"});
  t.push_back({value_kind::text, "--script-weights", nullptr, "SCRIPT:W1,..,W5,WW",
               "\nthe same for the languages of one script (ISO 15924 code);\nrepeatable (default Hani:0,0,2,4,0,8)",
               [](train_args& a, const option_value& v) {
                 a.script_weights_args.emplace_back(v.text);
                 return true;
               },
               0, 0, nullptr, "SCRIPT:W1,..,W5,WW"});
  t.push_back({value_kind::real, "--floor", nullptr, "X", "floor = lowest kept log-probability - X (default 4)",
               [](train_args& a, const option_value& v) { a.cfg.floor_offset = static_cast<float>(v.real); return true; },
               0, 100, nullptr, "a number in 0..100"});
  t.push_back({value_kind::size, "--fingerprint-bits", nullptr, "N", "fingerprint bits per table slot (default 12)",
               [](train_args& a, const option_value& v) { a.cfg.fingerprint_bits = static_cast<unsigned>(v.size); return true; },
               8, 20});
  t.push_back({value_kind::size, "--weight-bits", nullptr, "N", "",  // not in the usage text
               [](train_args& a, const option_value& v) { a.cfg.weight_bits = static_cast<unsigned>(v.size); return true; },
               4, 16});
  t.push_back({value_kind::text, "--calibration", nullptr, "A,B",
               "confidence = logistic(A x margin + B); fit them on held-out lines\n"
               "with `langsift-eval calibrate` (default 0.034916,-0.5396)",
               [](train_args& a, const option_value& v) {
                 float ca = 0, cb = 0;
                 char extra;
                 const std::string s(v.text);
                 if (std::sscanf(s.c_str(), "%f,%f%c", &ca, &cb, &extra) != 2 || !(ca > 0) || ca > 100 ||
                     !(cb > -100 && cb < 100))
                   return false;
                 a.cfg.calibration_a = ca;
                 a.cfg.calibration_b = cb;
                 return true;
               },
               0, 0, nullptr, "A,B with A > 0"});
}

/// The options of `langsift-train` that choose what is counted and held out, and how it runs.
void add_count_options(std::vector<option_row>& t) {
  t.push_back({value_kind::size, "--unaccented-every", nullptr, "N",
               "also count every Nth line that has diacritics on Latin letters\n"
               "without them, as web text often is typed (default 0: never)",
               [](train_args& a, const option_value& v) { a.unaccented_every = static_cast<unsigned>(v.size); return true; },
               0, 1000000});
  t.push_back({value_kind::size, "--holdout", nullptr, "N", "leave out every Nth line (N >= 2) from training; with",
               [](train_args& a, const option_value& v) { a.holdout = static_cast<unsigned>(v.size); return true; }, 2,
               1000000});
  t.push_back({value_kind::text, "--holdout-dir", nullptr, "DIR",
               "write those lines to DIR/<code>.txt (for calibration/evaluation)",
               [](train_args& a, const option_value& v) { a.holdout_dir = v.text; return true; }, 0, 0, nullptr,
               "a directory"});
  t.push_back({value_kind::size, "--floor-rank", nullptr, "N",
               "the floors come from the N most frequent kept features (default 0:\n"
               "all), so keeping rarer ones does not make unseen features cost more",
               [](train_args& a, const option_value& v) { a.cfg.floor_rank = static_cast<std::uint32_t>(v.size); return true; },
               0, 50000000});
  t.push_back({value_kind::text, "--word-lists", nullptr, "DIR",
               "also count the words of DIR/<code>.tsv (word<TAB>count, most frequent\n"
               "first) where a language has one: a word's probability mixes its\n"
               "share of the corpus and of the list, and every listed word is kept",
               [](train_args& a, const option_value& v) { a.word_lists = v.text; return true; }, 0, 0, nullptr,
               "a directory"});
  t.push_back({value_kind::real, "--word-list-weight", nullptr, "X",
               "the list's part of that mixture, in (0, 1) (default 0.5)",
               [](train_args& a, const option_value& v) {
                 a.cfg.word_list_weight = static_cast<float>(v.real);
                 return v.real > 0 && v.real < 1;
               },
               0, 1, nullptr, "a number in (0, 1)"});
  t.push_back({value_kind::size, "--word-list-top", nullptr, "N", "read only the first N words of each list (default 50000)",
               [](train_args& a, const option_value& v) { a.word_list_top = v.size; return true; }, 1, 10000000});
  t.push_back({value_kind::text, "--name", nullptr, "NAME",
               "model name recorded in the file (default: the output's file name)",
               [](train_args& a, const option_value& v) { a.name = v.text; return true; }});
  t.push_back({value_kind::size, "--threads", "-j", "N", "worker threads (default: hardware threads)",
               [](train_args& a, const option_value& v) { a.threads = static_cast<unsigned>(v.size); return true; }, 1, 256});
  t.push_back({value_kind::flag, "--quiet", "-q", nullptr,
               "no progress on stderr (shown only when stderr is a terminal)",
               [](train_args& a, const option_value&) { return a.quiet = true; }});
}

/// The options of `langsift-train`: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-train [options] CORPUS_DIR -o MODEL\n"
                 "       langsift-train url [options] ...\n"
                 "       langsift-train close [options] ...\n"
                 "\n"
                 "commands:\n"
                 "  url           train the URL models instead (`langsift-train url --help`)\n"
                 "  close         train the discriminators of close groups (`langsift-train close --help`)\n"
                 "\n"
                 "Counts character n-grams (orders 1..5, with word-boundary padding) and whole words of each\n"
                 "<code>.txt in CORPUS_DIR (UTF-8, any size, read line by line) and writes a model file.\n"
                 "Text is normalised as at detection time: case folding, canonical composition of combining\n"
                 "marks, digits and punctuation as word separators.\n"
                 "\n"
                 "options:\n"});
    add_corpus_options(t);
    add_model_options(t);
    add_count_options(t);
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "  -h, --help              this help\n"
                 "\n"
                 "Exit status: 0 on success, 1 when an input cannot be read, a file cannot be written or the\n"
                 "model cannot be built, 2 on a usage error.\n"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { langsift::cli::usage_text(out, options(), 26); }

// Six weights "W1,..,W5,WW" into w[1..6]; false unless six numbers in 0..1000, not all 0.
bool parse_weights(const std::string& arg, float* w) {
  std::istringstream ss(arg);
  std::string item;
  unsigned k = 1;
  bool any = false;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const float x = std::strtof(item.c_str(), &end);
    if (k >= feature_kind_count || item.empty() || !end || *end || !(x >= 0) || x > 1000) return false;
    any = any || x > 0;
    w[k++] = x;
  }
  return k == feature_kind_count && any;
}

struct source_range {
  std::uint64_t begin, end;
};

// Byte ranges of excluded sources per language, from the manifest.
bool excluded_ranges(const std::string& manifest, const std::set<std::string>& exclude,
                     std::map<std::string, std::vector<source_range>>& out, std::map<std::string, std::uint64_t>& sizes,
                     std::string& error) {
  std::ifstream in(manifest);
  if (!in) {
    error = manifest + ": cannot open";
    return false;
  }
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string code, bytes, lines, removed, src;
    if (!std::getline(ss, code, '\t') || !std::getline(ss, bytes, '\t') || !std::getline(ss, lines, '\t') ||
        !std::getline(ss, removed, '\t') || !std::getline(ss, src))
      continue;
    sizes[code] = std::stoull(bytes);
    std::uint64_t pos = 0;
    std::istringstream ss2(src);
    std::string item;
    while (ss2 >> item) {
      const auto colon = item.rfind(':');
      if (colon == std::string::npos) continue;
      const std::string name = item.substr(0, colon);
      const std::uint64_t n = std::stoull(item.substr(colon + 1));
      if (exclude.count(name) || exclude.count(code + ":" + name)) out[code].push_back({pos, pos + n});
      pos += n;
    }
    if (pos != sizes[code]) {
      error = manifest + ": sources of '" + code + "' do not add up to its bytes";
      return false;
    }
  }
  return true;
}

}  // namespace

namespace langsift::cli {
int train_url(int argc, char** argv);    // url_train.cpp
int train_close(int argc, char** argv);  // close_train.cpp
}

namespace {

using langsift::cli::fail;
using langsift::cli::progress;
using langsift::cli::write_file_atomic;

// Reads DIR/<code>.tsv (word<TAB>count, most frequent first; no file: nothing): the first `top`
// words, each with its share of their counts, for the word-level term of the model
// (train_config::word_list_weight).
bool add_word_list(language_counts& c, const std::string& dir, unsigned long long top, std::string& error) {
  const fs::path path = fs::path(dir) / (c.code() + ".tsv");
  std::error_code ec;
  if (!fs::exists(path, ec)) return true;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path.string() + ": cannot open";
    return false;
  }
  std::vector<std::pair<std::string, double>> words;
  double total = 0;
  std::string line;
  for (std::uint64_t n = 1; words.size() < top && std::getline(in, line); ++n) {
    const std::size_t tab = line.find('\t');
    char* end = nullptr;
    const double count = tab == std::string::npos ? -1 : std::strtod(line.c_str() + tab + 1, &end);
    if (tab == 0 || tab == std::string::npos || !end || (*end && *end != '\r') || !(count >= 0) || count > 1e15) {
      error = path.string() + ":" + std::to_string(n) + ": expected word<TAB>count";
      return false;
    }
    words.emplace_back(line.substr(0, tab), count);
    total += count;
  }
  if (in.bad()) {
    error = path.string() + ": read error";
    return false;
  }
  if (total > 0)
    for (const auto& [word, count] : words) c.add_listed_word(word, count / total);
  return true;
}

/// The settings that follow from the options together (--word-lists, --script-weights): -1 to go
/// on, else the exit status of the usage error (reported).
int finish_config(train_args& a) {
  train_config& cfg = a.cfg;
  if (a.corpus.empty() || a.output.empty()) {
    return fail(kProgram, a.corpus.empty() ? "CORPUS_DIR is required; see --help" : "-o MODEL is required; see --help") + 1;
  }
  if (a.word_lists.empty() && cfg.word_list_weight > 0) return fail(kProgram, "--word-list-weight needs --word-lists") + 1;
  if (!a.word_lists.empty() && cfg.word_list_weight == 0) cfg.word_list_weight = 0.5f;
  for (const std::string& arg : a.script_weights_args) {
    const std::size_t colon = arg.find(':');
    train_config::script_weights sw{};
    const auto sc = colon == std::string::npos ? std::nullopt : langsift::script_from_code(std::string_view(arg).substr(0, colon));
    if (!sc) return fail(kProgram, "--script-weights " + arg + ": expected SCRIPT:W1,..,W5,WW with an ISO 15924 code") + 1;
    if (!parse_weights(arg.substr(colon + 1), sw.weight))
      return fail(kProgram, "--script-weights " + arg + ": needs six numbers in 0..1000, not all 0") + 1;
    sw.sc = *sc;
    std::erase_if(cfg.per_script, [&](const auto& x) { return x.sc == sw.sc; });  // the last one counts
    cfg.per_script.push_back(sw);
  }
  // Orders 1..5 are always counted (the rank-order profiles use them); a zero weight only keeps a
  // kind out of the log-probability table.
  cfg.features.words = cfg.order_weight[feature_word] > 0;
  for (const auto& sw : cfg.per_script) cfg.features.words = cfg.features.words || sw.weight[feature_word] > 0;
  return -1;
}

/// The languages to train, sorted: --langs (codes, or @FILE with codes and '#' comments), else
/// every <code>.txt of the corpus; each must have its file. False after the error.
bool list_codes(const train_args& a, std::vector<std::string>& codes) {
  std::error_code ec;
  if (!fs::is_directory(a.corpus, ec)) return fail(kProgram, a.corpus + ": not a directory") == 0;
  if (a.langs_arg.empty()) {
    for (const auto& e : fs::directory_iterator(a.corpus, ec))
      if (e.path().extension() == ".txt" && e.is_regular_file()) codes.push_back(e.path().stem().string());
  } else if (a.langs_arg[0] == '@') {
    std::ifstream in(a.langs_arg.substr(1));
    if (!in) return fail(kProgram, a.langs_arg.substr(1) + ": cannot open") == 0;
    std::string line, c;
    while (std::getline(in, line)) {  // codes separated by whitespace; '#' starts a comment
      std::istringstream ss(line.substr(0, line.find('#')));
      while (ss >> c) codes.push_back(c);
    }
  } else {
    std::istringstream ss(a.langs_arg);
    std::string c;
    while (std::getline(ss, c, ','))
      if (!c.empty()) codes.push_back(c);
  }
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  if (codes.empty()) return fail(kProgram, a.corpus + ": no <code>.txt files") == 0;
  for (const auto& c : codes)
    if (!fs::is_regular_file(fs::path(a.corpus) / (c + ".txt"), ec))
      return fail(kProgram, a.corpus + "/" + c + ".txt: missing") == 0;
  return true;
}

/// What is left out of the corpus: the byte ranges of --exclude-sources per language (from the
/// manifest, with each file's size), and --holdout-dir made.
struct exclusions {
  std::map<std::string, std::vector<source_range>> skip;
  std::map<std::string, std::uint64_t> sizes;
};

/// --exclude-sources (read through --manifest) and --holdout-dir: 0, or the exit status (reported).
int prepare_exclusions(const train_args& a, exclusions& x) {
  if (!a.exclude_arg.empty()) {
    if (a.manifest.empty()) return fail(kProgram, "--exclude-sources needs --manifest") + 1;
    std::set<std::string> ex;
    std::istringstream ss(a.exclude_arg);
    std::string s;
    while (std::getline(ss, s, ','))
      if (!s.empty()) ex.insert(s);
    std::string error;
    if (!excluded_ranges(a.manifest, ex, x.skip, x.sizes, error)) return fail(kProgram, error);
  }
  if (!a.holdout_dir.empty()) {
    if (!a.holdout) return fail(kProgram, "--holdout-dir needs --holdout N") + 1;
    std::error_code ec;
    fs::create_directories(a.holdout_dir, ec);
    if (ec) return fail(kProgram, a.holdout_dir + ": " + ec.message());
  }
  return 0;
}

/// The counts of one language's file (excluded sources and held-out lines skipped; the held-out
/// lines written to --holdout-dir), or null with `error` set. Called from the worker threads:
/// `x` is only read.
std::unique_ptr<language_counts> count_language(const train_args& a, const exclusions& x, const std::string& code,
                                                std::string& error) {
  const fs::path path = fs::path(a.corpus) / (code + ".txt");
  std::error_code ec_size;
  auto c = std::make_unique<language_counts>(code, a.cfg.features);
  c->set_fit_sample(a.cfg.fit_sample_every, a.cfg.fit_sample_lines);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path.string() + ": cannot open";
    return nullptr;
  }
  // The worker threads only read `sizes` and `skip` (find, never operator[], which inserts:
  // concurrent inserts into one std::map corrupted it).
  const auto size = x.sizes.find(code);
  if (size != x.sizes.end() && fs::file_size(path, ec_size) != size->second) {
    error = path.string() + ": size differs from the manifest";
    return nullptr;
  }
  std::string held;  // the held-out lines, written (atomically) once the language is read
  static const std::vector<source_range> kNoRanges;
  const auto skipped_here = x.skip.find(code);
  const std::vector<source_range>& ranges = skipped_here == x.skip.end() ? kNoRanges : skipped_here->second;
  // Streams the training lines (excluded sources and held-out lines skipped); `held_out`
  // receives the held-out ones. Called twice: the script histogram first, then counting.
  auto for_each_line = [&](auto&& train_line, auto&& held_out) {
    in.clear();
    in.seekg(0);
    std::string line;
    std::uint64_t pos = 0, n = 0;
    while (std::getline(in, line)) {
      const std::uint64_t begin = pos;
      pos += line.size() + 1;
      bool skipped = false;
      for (const auto& r : ranges)
        if (begin >= r.begin && begin < r.end) skipped = true;
      if (skipped) continue;
      if (a.holdout && ++n % a.holdout == 0) {
        held_out(line);
        continue;
      }
      train_line(line);
    }
  };
  script_histogram hist;
  for_each_line([&](const std::string& line) { hist.add(line); }, [](const std::string&) {});
  c->set_script(hist.dominant());
  std::uint64_t accented = 0;
  std::string plain;
  for_each_line([&](const std::string& line) {
                  c->add_text(line);
                  if (a.unaccented_every && train_tool::unaccented(line, plain) && ++accented % a.unaccented_every == 0)
                    c->add_text(plain);
                },
                [&](const std::string& line) {
                  if (!a.holdout_dir.empty()) (held += line) += '\n';
                });
  if (in.bad()) {
    error = path.string() + ": read error";
    return nullptr;
  }
  if (!a.word_lists.empty() && !add_word_list(*c, a.word_lists, a.word_list_top, error)) return nullptr;
  if (!a.holdout_dir.empty() && !write_file_atomic((fs::path(a.holdout_dir) / (code + ".txt")).string(), held, error))
    return nullptr;
  return c;
}

/// Counts every language, one per task on --threads threads (progress on a terminal: corpus
/// bytes counted of the total). False after the first error (reported).
bool count_languages(const train_args& a, const exclusions& x, const std::vector<std::string>& codes,
                     std::vector<std::unique_ptr<language_counts>>& counts) {
  counts.resize(codes.size());
  std::vector<std::string> errors(codes.size());
  std::atomic<std::size_t> next{0};
  std::error_code ec;
  std::uint64_t corpus_bytes = 0;
  for (const auto& c : codes) corpus_bytes += fs::file_size(fs::path(a.corpus) / (c + ".txt"), ec);
  std::atomic<std::uint64_t> bytes_done{0};
  progress shown(kProgram, corpus_bytes, !a.quiet);
  auto work = [&]() {
    for (std::size_t i; (i = next++) < codes.size();) {
      counts[i] = count_language(a, x, codes[i], errors[i]);
      if (!counts[i]) continue;
      std::error_code ec_size;
      shown.update(bytes_done += fs::file_size(fs::path(a.corpus) / (codes[i] + ".txt"), ec_size));
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<std::size_t>(a.threads, codes.size()); ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  shown.finish();
  for (const auto& e : errors)
    if (!e.empty()) return fail(kProgram, e) == 0;
  // A language with no text cannot be learnt: refuse (a model of it would answer `und` to
  // everything, or steal answers with a profile of nothing). A language whose text has no letters
  // is learnt, with a warning: scripts without letters are not text.
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::string file = (fs::path(a.corpus) / (codes[i] + ".txt")).string();
    if (counts[i]->bytes() + counts[i]->sample().size() == 0 || counts[i]->counts().empty())
      return fail(kProgram, file + ": no text to learn from (empty, or only line breaks)") == 0;
    if (counts[i]->scripts().total() == 0)
      std::fprintf(stderr, "%s: warning: %s: no letters in the text: %s will rarely be answered, and not as text\n",
                   kProgram, file.c_str(), codes[i].c_str());
  }
  return true;
}

/// The model's info text: its name and the settings it was trained with.
std::string model_info(const train_args& a, std::size_t languages) {
  const train_config& cfg = a.cfg;
  std::ostringstream info;
  info << "name=" << (a.name.empty() ? fs::path(a.output).filename().string() : a.name) << "\n";
  info << "languages=" << languages << "\n";
  info << "top_k=" << cfg.top_k << "\nmin_count=" << cfg.min_count << "\nrank_size=" << cfg.rank_profile_size
       << "\nfloor=" << cfg.floor_offset << "\nweights=";
  for (unsigned k = 1; k < feature_kind_count; ++k) info << (k > 1 ? "," : "") << cfg.order_weight[k];
  for (const auto& sw : cfg.per_script) {
    info << "\nweights_" << langsift::script_code(sw.sc) << "=";
    for (unsigned k = 1; k < feature_kind_count; ++k) info << (k > 1 ? "," : "") << sw.weight[k];
  }
  info << "\ncalibration=" << cfg.calibration_a << "," << cfg.calibration_b;
  info << "\nexcluded_sources=" << a.exclude_arg << "\nholdout=" << a.holdout << "\nunaccented_every=" << a.unaccented_every << "\n";
  if (cfg.floor_rank) info << "floor_rank=" << cfg.floor_rank << "\n";  // only then, as below
  if (!a.word_lists.empty())  // only then, so that models trained without lists keep their bytes
    info << "word_lists=" << fs::path(a.word_lists).lexically_normal().filename().string()
         << "\nword_list_weight=" << cfg.word_list_weight << "\nword_list_top=" << a.word_list_top << "\n";
  return info.str();
}

/// The model's own fit test: the lines held out of each language (never counted) should come out
/// as that language. A language that fails it (random bytes, text in another language, markup)
/// is kept, with a warning naming it.
void warn_unfit(const model& check, const std::vector<std::string>& codes,
                const std::vector<std::unique_ptr<language_counts>>& counts) {
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const auto& held = counts[i]->sample();
    if (held.size() < 5) continue;  // too little held out to judge
    std::size_t right = 0;
    for (const std::string& line : held) right += langsift::detail::code_matches(detect(check, line).language(), codes[i]);
    if (right * 2 < held.size())
      std::fprintf(stderr,
                   "%s: warning: %s: the model answers %s for only %zu of %zu of its own held-out lines: is %s.txt "
                   "text in that language?\n",
                   kProgram, codes[i].c_str(), codes[i].c_str(), right, held.size(), codes[i].c_str());
  }
}

int run_main(int argc, char** argv) {
  using namespace langsift::cli;
  if (argc > 1 && std::string_view(argv[1]) == "url") return train_url(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "close") return train_close(argc - 1, argv + 1);
  train_args a;
  std::vector<std::string> args;
  if (const int rc = parse_options(kProgram, options(), usage, argc, argv, a, args); rc >= 0) return rc;
  if (args.size() > 1) return fail(kProgram, "only one CORPUS_DIR, please") + 1;
  if (!args.empty()) a.corpus = args[0];
  if (const int rc = finish_config(a); rc >= 0) return rc;
  std::vector<std::string> codes;
  if (!list_codes(a, codes)) return 1;
  exclusions x;
  if (const int rc = prepare_exclusions(a, x); rc != 0) return rc;
  std::vector<std::unique_ptr<language_counts>> counts;
  if (!count_languages(a, x, codes, counts)) return 1;

  std::vector<const language_counts*> ptrs;
  for (const auto& c : counts) ptrs.push_back(c.get());
  build_report rep;
  std::string bytes;
  try {
    bytes = build_model(ptrs, a.cfg, model_info(a, codes.size()), &rep);
  } catch (const std::exception& e) {
    return fail(kProgram, e.what());
  }
  model check;
  std::string error;
  // Checked before it is written, and written atomically: a failed write or a model that does not
  // load leaves the previous file as it was.
  if (model::load_copy(bytes, check) != status::ok) return fail(kProgram, "the model built does not load (a bug)");
  if (!write_file_atomic(a.output, bytes, error)) return fail(kProgram, error);
  warn_unfit(check, codes, counts);
  std::printf("%s: %zu languages in %zu scripts, %zu features (%zu inline, %zu lists in %zu entries, %zu rows), "
              "%zu buckets (load %.3f), %zu bytes, xxh3 %016llx\n",
              a.output.c_str(), codes.size(), check.group_count(), rep.features, rep.inline_postings, rep.lists,
              rep.postings, rep.rows, rep.buckets, rep.load, rep.bytes, static_cast<unsigned long long>(check.checksum()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The counts of the languages being read (one per thread) are what holds the memory.
  const std::string_view sub = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  const bool url = sub == "url", close = sub == "close";
  return langsift::cli::run(url ? "langsift-train url" : close ? "langsift-train close" : "langsift-train",
                            url ? "with --words, lower --max-bytes" : close ? "fewer or smaller groups" : "lower -j or --top-k",
                            [&] { return run_main(argc, argv); });
}
