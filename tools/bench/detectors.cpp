// The detectors under test: langsift itself (the built-in model or --model FILE), and the
// dispatch by name. The peers live in cld2.cpp and fasttext.cpp (compiled to stubs when the peer
// was not found at build time).
#include <cstdio>
#include <list>

#include "bench/bench.hpp"
#include "common/model_arg.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/version.hpp"

namespace langsift::bench {

namespace {

class langsift_worker final : public worker {
 public:
  langsift_worker(const model& m, std::size_t top_k, bool close_groups)
      : model_(m), top_k_(top_k), close_groups_(close_groups) {}
  std::string_view detect(std::string_view text, const page_hints* hints) override {
    detect_options o;
    o.top_k = top_k_;
    o.close_groups = close_groups_;
    if (hints) {  // as `langsift detect` does with a page's <html lang> and Content-Language
      o.hints.html_lang = hints->html_lang;
      o.hints.content_language = hints->content_language;
    }
    return langsift::detect(model_, text, o).language();  // a view into the model (or "und")
  }

 private:
  const model& model_;
  std::size_t top_k_;
  bool close_groups_;
};

class langsift_detector final : public detector {
 public:
  langsift_detector(const model& m, std::size_t top_k, bool close_groups)
      : model_(m), top_k_(top_k), close_groups_(close_groups) {}
  std::unique_ptr<worker> make_worker() const override {
    return std::make_unique<langsift_worker>(model_, top_k_, close_groups_);
  }
  std::string subtag(std::string_view raw) const override { return primary_subtag(raw); }

 private:
  const model& model_;
  std::size_t top_k_;
  bool close_groups_;
};

// A model loaded from a file must outlive its detector: kept here for the process lifetime (one
// per detector that loads it: langsift and langsift-no-close).
std::list<model>& file_models() {
  static std::list<model> m;
  return m;
}

std::string describe(const model& m, const std::string& what) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s, %zu languages, %.2f MB; langsift %s", what.c_str(), m.language_count(),
                static_cast<double>(m.size_bytes()) / 1e6, langsift::version());
  return buf;
}

}  // namespace

loaded_detector load_langsift(const detector_settings& s, bool close_groups) {
  loaded_detector r;
  r.name = close_groups ? "langsift" : "langsift-no-close";
  if (s.model_path.empty() || cli::is_builtin_model_name(s.model_path)) {
    // A built-in model is validated on its first default_model() / builtin_model() call: that
    // call is its load.
    const std::string name = s.model_path.empty() ? std::string("default") : s.model_path;
    const auto t0 = bench_clock::now();
    const model* m = nullptr;
    std::string error;
    const status st = builtin_model(name, m, &error);
    r.load_ns = ns_between(t0, bench_clock::now());
    if (st != status::ok) {
      r.error = error.empty() ? "the built-in model failed to validate" : error;
      return r;
    }
    r.description = describe(*m, "built-in model " + name);
    r.det = std::make_unique<langsift_detector>(*m, s.top_k, close_groups);
    return r;
  }
  model& fm = file_models().emplace_back();
  std::string error;
  const auto t0 = bench_clock::now();
  const status st = model::load_file(s.model_path, fm, &error);
  r.load_ns = ns_between(t0, bench_clock::now());
  if (st != status::ok) {
    r.error = error.empty() ? s.model_path + ": " + std::string(status_name(st)) : error;
    file_models().pop_back();
    return r;
  }
  r.description = describe(fm, "model " + s.model_path);
  r.det = std::make_unique<langsift_detector>(fm, s.top_k, close_groups);
  return r;
}

loaded_detector load_detector(std::string_view name, const detector_settings& s) {
  if (name == "langsift") return load_langsift(s, /*close_groups=*/true);
  if (name == "langsift-no-close") return load_langsift(s, /*close_groups=*/false);
  if (name == "cld2") return load_cld2(s);
  if (name == "fasttext") return load_fasttext(s);
  loaded_detector r;
  r.name = std::string(name);
  r.error = "unknown detector";
  return r;
}

}  // namespace langsift::bench
