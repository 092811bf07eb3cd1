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

void usage(std::FILE* out) {
  std::fprintf(out,
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
      "options:\n"
      "  -o, --output FILE       the model file to write (required)\n"
      "  --langs CODES           comma-separated codes, or @FILE with one code per line (default:\n"
      "                          every <code>.txt in CORPUS_DIR)\n"
      "  --manifest FILE         a MANIFEST.tsv (code, bytes, lines, removed, sources(bytes)) that gives\n"
      "                          each file's sources in file order, for --exclude-sources\n"
      "  --exclude-sources LIST  skip the bytes of these sources, e.g. wesnoth,fortunes,lij:ud\n"
      "                          (SOURCE for every language, CODE:SOURCE for one)\n"
      "  --top-k N               features kept per language, most frequent first (default 18000)\n"
      "  --min-count N           minimum count of a kept feature (default 2)\n"
      "  --rank-size N           size of the rank-order (TextCat) profiles (default 400)\n"
      "  --weights W1,..,W5,WW   weight of n-grams of order 1..5 and of words in the log-probability\n"
      "                          score; 0 keeps a kind out of the table (default 0,0,0,4,0,8)\n"
      "  --script-weights SCRIPT:W1,..,W5,WW\n"
      "                          the same for the languages of one script (ISO 15924 code);\n"
      "                          repeatable (default Hani:0,0,2,4,0,8)\n"
      "  --floor X               floor = lowest kept log-probability - X (default 4)\n"
      "  --fingerprint-bits N    fingerprint bits per table slot (default 12)\n"
      "  --calibration A,B       confidence = logistic(A x margin + B); fit them on held-out lines\n"
      "                          with `langsift-eval calibrate` (default 0.034916,-0.5396)\n"
      "  --unaccented-every N    also count every Nth line that has diacritics on Latin letters\n"
      "                          without them, as web text often is typed (default 0: never)\n"
      "  --holdout N             leave out every Nth line (N >= 2) from training; with\n"
      "  --holdout-dir DIR       write those lines to DIR/<code>.txt (for calibration/evaluation)\n"
      "  --floor-rank N          the floors come from the N most frequent kept features (default 0:\n"
      "                          all), so keeping rarer ones does not make unseen features cost more\n"
      "  --word-lists DIR        also count the words of DIR/<code>.tsv (word<TAB>count, most frequent\n"
      "                          first) where a language has one: a word's probability mixes its\n"
      "                          share of the corpus and of the list, and every listed word is kept\n"
      "  --word-list-weight X    the list's part of that mixture, in (0, 1) (default 0.5)\n"
      "  --word-list-top N       read only the first N words of each list (default 50000)\n"
      "  --name NAME             model name recorded in the file (default: the output's file name)\n"
      "  -j, --threads N         worker threads (default: hardware threads)\n"
      "  -q, --quiet             no progress on stderr (shown only when stderr is a terminal)\n"
      "  -h, --help              this help\n"
      "\n"
      "Exit status: 0 on success, 1 when an input cannot be read, a file cannot be written or the\n"
      "model cannot be built, 2 on a usage error.\n");
}

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

int run_main(int argc, char** argv) {
  using namespace langsift::cli;
  if (argc > 1 && std::string_view(argv[1]) == "url") return train_url(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "close") return train_close(argc - 1, argv + 1);
  std::string corpus, output, langs_arg, manifest, exclude_arg, weights_arg, name, holdout_dir, value, calib_arg;
  std::vector<std::string> script_weights_args;
  train_config cfg;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  unsigned holdout = 0, unaccented_every = 0;
  std::string word_lists;
  unsigned long long word_list_top = 50000;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    bool missing = false;
    auto number = [&](const char* opt, unsigned long long lo, unsigned long long hi, unsigned long long& v) {
      return size_in_range(kProgram, opt, value, missing, lo, hi, v);
    };
    unsigned long long v = 0;
    if (a == "--version") return langsift::cli::print_version("langsift-train");
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "-q" || a == "--quiet") {
      quiet = true;
    } else if (take_option(argc, argv, i, "-o", output, missing) || take_option(argc, argv, i, "--output", output, missing)) {
      if (missing) return fail(kProgram, "-o needs a file name") + 1;
    } else if (take_option(argc, argv, i, "--langs", langs_arg, missing)) {
      if (missing) return fail(kProgram, "--langs needs codes") + 1;
    } else if (take_option(argc, argv, i, "--manifest", manifest, missing)) {
      if (missing) return fail(kProgram, "--manifest needs a file") + 1;
    } else if (take_option(argc, argv, i, "--exclude-sources", exclude_arg, missing)) {
      if (missing) return fail(kProgram, "--exclude-sources needs a list") + 1;
    } else if (take_option(argc, argv, i, "--weights", weights_arg, missing)) {
      if (missing) return fail(kProgram, "--weights needs six numbers") + 1;
    } else if (take_option(argc, argv, i, "--script-weights", value, missing)) {
      if (missing) return fail(kProgram, "--script-weights needs SCRIPT:W1,..,W5,WW") + 1;
      script_weights_args.push_back(value);
    } else if (take_option(argc, argv, i, "--calibration", calib_arg, missing)) {
      float ca = 0, cb = 0;
      char extra;
      if (missing || std::sscanf(calib_arg.c_str(), "%f,%f%c", &ca, &cb, &extra) != 2 || !(ca > 0) || ca > 100 ||
          !(cb > -100 && cb < 100))
        return fail(kProgram, "--calibration needs A,B with A > 0") + 1;
      cfg.calibration_a = ca;
      cfg.calibration_b = cb;
    } else if (take_option(argc, argv, i, "--name", name, missing)) {
      if (missing) return fail(kProgram, "--name needs a value") + 1;
    } else if (take_option(argc, argv, i, "--word-lists", word_lists, missing)) {
      if (missing) return fail(kProgram, "--word-lists needs a directory") + 1;
    } else if (take_option(argc, argv, i, "--word-list-weight", value, missing)) {
      char* end = nullptr;
      const float x = missing ? -1 : std::strtof(value.c_str(), &end);
      if (missing || !end || *end || !(x > 0) || !(x < 1)) return fail(kProgram, "--word-list-weight needs a number in (0, 1)") + 1;
      cfg.word_list_weight = x;
    } else if (take_option(argc, argv, i, "--word-list-top", value, missing)) {
      if (!number("--word-list-top", 1, 10000000, word_list_top)) return 2;
    } else if (take_option(argc, argv, i, "--holdout-dir", holdout_dir, missing)) {
      if (missing) return fail(kProgram, "--holdout-dir needs a directory") + 1;
    } else if (take_option(argc, argv, i, "--top-k", value, missing)) {
      if (!number("--top-k", 1, 50000000, v)) return 2;
      cfg.top_k = static_cast<std::uint32_t>(v);
    } else if (take_option(argc, argv, i, "--floor-rank", value, missing)) {
      if (!number("--floor-rank", 0, 50000000, v)) return 2;
      cfg.floor_rank = static_cast<std::uint32_t>(v);
    } else if (take_option(argc, argv, i, "--min-count", value, missing)) {
      if (!number("--min-count", 1, 1000000, v)) return 2;
      cfg.min_count = static_cast<std::uint32_t>(v);
    } else if (take_option(argc, argv, i, "--rank-size", value, missing)) {
      if (!number("--rank-size", 10, 65535, v)) return 2;
      cfg.rank_profile_size = static_cast<std::uint32_t>(v);
    } else if (take_option(argc, argv, i, "--fingerprint-bits", value, missing)) {
      if (!number("--fingerprint-bits", 8, 20, v)) return 2;
      cfg.fingerprint_bits = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--weight-bits", value, missing)) {
      if (!number("--weight-bits", 4, 16, v)) return 2;
      cfg.weight_bits = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--unaccented-every", value, missing)) {
      if (!number("--unaccented-every", 0, 1000000, v)) return 2;
      unaccented_every = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--holdout", value, missing)) {
      if (!number("--holdout", 2, 1000000, v)) return 2;
      holdout = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "-j", value, missing) || take_option(argc, argv, i, "--threads", value, missing)) {
      if (!number("--threads", 1, 256, v)) return 2;
      threads = static_cast<unsigned>(v);
    } else if (take_option(argc, argv, i, "--floor", value, missing)) {
      char* end = nullptr;
      const float f = missing ? -1 : std::strtof(value.c_str(), &end);
      if (missing || !end || *end || !(f >= 0) || f > 100) return fail(kProgram, "--floor needs a number in 0..100") + 1;
      cfg.floor_offset = f;
    } else if (a.size() > 1 && a[0] == '-') {
      return unknown_option(kProgram, a, usage);
    } else if (!corpus.empty()) {
      return fail(kProgram, "only one CORPUS_DIR, please") + 1;
    } else {
      corpus = std::string(a);
    }
  }
  if (corpus.empty() || output.empty()) {
    return fail(kProgram, corpus.empty() ? "CORPUS_DIR is required; see --help" : "-o MODEL is required; see --help") + 1;
  }
  if (word_lists.empty() && cfg.word_list_weight > 0) return fail(kProgram, "--word-list-weight needs --word-lists") + 1;
  if (!word_lists.empty() && cfg.word_list_weight == 0) cfg.word_list_weight = 0.5f;
  if (!weights_arg.empty() && !parse_weights(weights_arg, cfg.order_weight))
    return fail(kProgram, "--weights needs six numbers in 0..1000, not all 0 (orders 1..5, words)") + 1;
  for (const std::string& arg : script_weights_args) {
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

  // Languages.
  std::error_code ec;
  if (!fs::is_directory(corpus, ec)) return fail(kProgram, corpus + ": not a directory");
  std::vector<std::string> codes;
  if (langs_arg.empty()) {
    for (const auto& e : fs::directory_iterator(corpus, ec))
      if (e.path().extension() == ".txt" && e.is_regular_file()) codes.push_back(e.path().stem().string());
  } else if (langs_arg[0] == '@') {
    std::ifstream in(langs_arg.substr(1));
    if (!in) return fail(kProgram, langs_arg.substr(1) + ": cannot open");
    std::string line, c;
    while (std::getline(in, line)) {  // codes separated by whitespace; '#' starts a comment
      std::istringstream ss(line.substr(0, line.find('#')));
      while (ss >> c) codes.push_back(c);
    }
  } else {
    std::istringstream ss(langs_arg);
    std::string c;
    while (std::getline(ss, c, ','))
      if (!c.empty()) codes.push_back(c);
  }
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  if (codes.empty()) return fail(kProgram, corpus + ": no <code>.txt files");
  for (const auto& c : codes)
    if (!fs::is_regular_file(fs::path(corpus) / (c + ".txt"), ec)) return fail(kProgram, corpus + "/" + c + ".txt: missing");

  std::map<std::string, std::vector<source_range>> skip;
  std::map<std::string, std::uint64_t> sizes;
  if (!exclude_arg.empty()) {
    if (manifest.empty()) return fail(kProgram, "--exclude-sources needs --manifest") + 1;
    std::set<std::string> ex;
    std::istringstream ss(exclude_arg);
    std::string s;
    while (std::getline(ss, s, ','))
      if (!s.empty()) ex.insert(s);
    std::string error;
    if (!excluded_ranges(manifest, ex, skip, sizes, error)) return fail(kProgram, error);
  }
  if (!holdout_dir.empty()) {
    if (!holdout) return fail(kProgram, "--holdout-dir needs --holdout N") + 1;
    fs::create_directories(holdout_dir, ec);
    if (ec) return fail(kProgram, holdout_dir + ": " + ec.message());
  }

  // Count, one language per task.
  std::vector<std::unique_ptr<language_counts>> counts(codes.size());
  std::vector<std::string> errors(codes.size());
  std::atomic<std::size_t> next{0}, done{0};
  // Progress (on a terminal only): corpus bytes counted of the total.
  std::uint64_t corpus_bytes = 0;
  for (const auto& c : codes) corpus_bytes += fs::file_size(fs::path(corpus) / (c + ".txt"), ec);
  std::atomic<std::uint64_t> bytes_done{0};
  progress shown(kProgram, corpus_bytes, !quiet);
  auto work = [&]() {
    for (std::size_t i; (i = next++) < codes.size();) {
      const std::string& code = codes[i];
      const fs::path path = fs::path(corpus) / (code + ".txt");
      std::error_code ec_size;
      auto c = std::make_unique<language_counts>(code, cfg.features);
      c->set_fit_sample(cfg.fit_sample_every, cfg.fit_sample_lines);
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        errors[i] = path.string() + ": cannot open";
        continue;
      }
      // The worker threads only read `sizes` and `skip` (find, never operator[], which inserts:
      // concurrent inserts into one std::map corrupted it).
      const auto size = sizes.find(code);
      if (size != sizes.end() && fs::file_size(path, ec_size) != size->second) {
        errors[i] = path.string() + ": size differs from the manifest";
        continue;
      }
      std::string held;  // the held-out lines, written (atomically) once the language is read
      static const std::vector<source_range> kNoRanges;
      const auto skipped_here = skip.find(code);
      const std::vector<source_range>& ranges = skipped_here == skip.end() ? kNoRanges : skipped_here->second;
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
          if (holdout && ++n % holdout == 0) {
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
                      if (unaccented_every && train_tool::unaccented(line, plain) && ++accented % unaccented_every == 0)
                        c->add_text(plain);
                    },
                    [&](const std::string& line) {
                      if (!holdout_dir.empty()) (held += line) += '\n';
                    });
      if (in.bad()) {
        errors[i] = path.string() + ": read error";
        continue;
      }
      if (!word_lists.empty() && !add_word_list(*c, word_lists, word_list_top, errors[i])) continue;
      std::string write_error;
      if (!holdout_dir.empty() && !write_file_atomic((fs::path(holdout_dir) / (code + ".txt")).string(), held, write_error)) {
        errors[i] = write_error;
        continue;
      }
      counts[i] = std::move(c);
      ++done;
      shown.update(bytes_done += fs::file_size(path, ec_size));
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<std::size_t>(threads, codes.size()); ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  shown.finish();
  for (const auto& e : errors)
    if (!e.empty()) return fail(kProgram, e);
  // A language with no text cannot be learnt: refuse (a model of it would answer `und` to
  // everything, or steal answers with a profile of nothing). A language whose text has no letters
  // is learnt, with a warning: scripts without letters are not text.
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::string file = (fs::path(corpus) / (codes[i] + ".txt")).string();
    if (counts[i]->bytes() + counts[i]->sample().size() == 0 || counts[i]->counts().empty())
      return fail(kProgram, file + ": no text to learn from (empty, or only line breaks)");
    if (counts[i]->scripts().total() == 0)
      std::fprintf(stderr, "%s: warning: %s: no letters in the text: %s will rarely be answered, and not as text\n",
                   kProgram, file.c_str(), codes[i].c_str());
  }

  // Model.
  std::ostringstream info;
  info << "name=" << (name.empty() ? fs::path(output).filename().string() : name) << "\n";
  info << "languages=" << codes.size() << "\n";
  info << "top_k=" << cfg.top_k << "\nmin_count=" << cfg.min_count << "\nrank_size=" << cfg.rank_profile_size
       << "\nfloor=" << cfg.floor_offset << "\nweights=";
  for (unsigned k = 1; k < feature_kind_count; ++k) info << (k > 1 ? "," : "") << cfg.order_weight[k];
  for (const auto& sw : cfg.per_script) {
    info << "\nweights_" << langsift::script_code(sw.sc) << "=";
    for (unsigned k = 1; k < feature_kind_count; ++k) info << (k > 1 ? "," : "") << sw.weight[k];
  }
  info << "\ncalibration=" << cfg.calibration_a << "," << cfg.calibration_b;
  info << "\nexcluded_sources=" << exclude_arg << "\nholdout=" << holdout << "\nunaccented_every=" << unaccented_every << "\n";
  if (cfg.floor_rank) info << "floor_rank=" << cfg.floor_rank << "\n";  // only then, as below
  if (!word_lists.empty())  // only then, so that models trained without lists keep their bytes
    info << "word_lists=" << fs::path(word_lists).lexically_normal().filename().string() << "\nword_list_weight=" << cfg.word_list_weight
         << "\nword_list_top=" << word_list_top << "\n";
  std::vector<const language_counts*> ptrs;
  for (const auto& c : counts) ptrs.push_back(c.get());
  build_report rep;
  std::string bytes;
  try {
    bytes = build_model(ptrs, cfg, info.str(), &rep);
  } catch (const std::exception& e) {
    return fail(kProgram, e.what());
  }
  model check;
  std::string error;
  // Checked before it is written, and written atomically: a failed write or a model that does not
  // load leaves the previous file as it was.
  if (model::load_copy(bytes, check) != status::ok) return fail(kProgram, "the model built does not load (a bug)");
  if (!write_file_atomic(output, bytes, error)) return fail(kProgram, error);
  // The model's own fit test: the lines held out of each language (never counted) should come out
  // as that language. A language that fails it (random bytes, text in another language, markup)
  // is kept, with a warning naming it.
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
  std::printf("%s: %zu languages in %zu scripts, %zu features (%zu inline, %zu lists in %zu entries, %zu rows), "
              "%zu buckets (load %.3f), %zu bytes, xxh3 %016llx\n",
              output.c_str(), codes.size(), check.group_count(), rep.features, rep.inline_postings, rep.lists,
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
