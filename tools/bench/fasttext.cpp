// fastText (Debian libfasttext, 0.9.2) with the lid.176 model as a detector under test.
// predictLine reads one line from a stream: each document is copied into a per-thread buffer with
// its newlines turned into spaces and one '\n' appended — the line `fasttext predict` sees, so the
// answers are those of langsift-eval's fastText row — and read through a std::streambuf over that
// buffer (no std::istringstream per document). The copy is counted in fastText's time.
// Built only when tools/CMakeLists.txt found fastText (LANGSIFT_BENCH_FASTTEXT); otherwise a stub.
#include "bench/bench.hpp"

#ifdef LANGSIFT_BENCH_FASTTEXT
#include <algorithm>
#include <exception>
#include <istream>
#include <streambuf>
#include <utility>

#include <fasttext/fasttext.h>
#endif

namespace langsift::bench {

#ifdef LANGSIFT_BENCH_FASTTEXT

namespace {

class memory_buffer : public std::streambuf {
 public:
  void reset(char* data, std::size_t size) { setg(data, data, data + size); }
};

class fasttext_worker final : public worker {
 public:
  explicit fasttext_worker(const fasttext::FastText& ft) : ft_(ft), in_(&buf_) {}
  std::string_view detect(std::string_view text, const page_hints*) override {
    line_.assign(text.data(), text.size());
    std::replace(line_.begin(), line_.end(), '\n', ' ');
    line_.push_back('\n');
    buf_.reset(line_.data(), line_.size());
    in_.clear();
    predictions_.clear();
    ft_.predictLine(in_, predictions_, 1, 0.0f);
    if (predictions_.empty()) return "und";
    std::string_view label = predictions_[0].second;
    if (label.substr(0, 9) == "__label__") label.remove_prefix(9);
    return label;
  }

 private:
  const fasttext::FastText& ft_;
  memory_buffer buf_;
  std::istream in_;
  std::string line_;
  std::vector<std::pair<fasttext::real, std::string>> predictions_;
};

class fasttext_detector final : public detector {
 public:
  std::unique_ptr<worker> make_worker() const override { return std::make_unique<fasttext_worker>(ft_); }
  // As tools/peers/fasttext-lines.sh: no -> nb, als -> gsw.
  std::string subtag(std::string_view c) const override {
    if (c == "no") return "nb";
    if (c == "als") return "gsw";
    return primary_subtag(c);
  }
  fasttext::FastText ft_;
};

}  // namespace

bool fasttext_built() { return true; }

loaded_detector load_fasttext(const detector_settings& s) {
  loaded_detector r;
  r.name = "fasttext";
  if (s.fasttext_model_path.empty()) {
    r.error = "no model (scripts/get-peer-models.sh fetches lid.176.ftz; pass --fasttext-model PATH)";
    return r;
  }
  auto d = std::make_unique<fasttext_detector>();
  const auto t0 = bench_clock::now();
  try {
    d->ft_.loadModel(s.fasttext_model_path);
  } catch (const std::exception& e) {
    r.error = s.fasttext_model_path + ": cannot load the model: " + e.what();
    return r;
  }
  r.load_ns = ns_between(t0, bench_clock::now());
  r.description = "fastText (Debian libfasttext) " + s.fasttext_model_path;
  r.det = std::move(d);
  return r;
}

#else

bool fasttext_built() { return false; }

loaded_detector load_fasttext(const detector_settings&) {
  loaded_detector r;
  r.name = "fasttext";
  r.error = "not built in (libfasttext-dev was not found when langsift was configured)";
  return r;
}

#endif

}  // namespace langsift::bench
