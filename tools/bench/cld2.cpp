// CLD2 (Debian libcld2 with its full tables) as a detector under test: the same call and code
// mapping as `langsift-peer-cld2` (ExtDetectLanguageSummaryCheckUTF8, plain text, no hints).
// Built only when tools/CMakeLists.txt found CLD2 (LANGSIFT_BENCH_CLD2); otherwise a stub.
#include "bench/bench.hpp"

#ifdef LANGSIFT_BENCH_CLD2
#include <climits>

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#endif

namespace langsift::bench {

#ifdef LANGSIFT_BENCH_CLD2

namespace {

class cld2_worker final : public worker {
 public:
  explicit cld2_worker(int flags) : flags_(flags) {}
  std::string_view detect(std::string_view text, const page_hints*) override {
    CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
    CLD2::Language language3[3];
    int percent3[3] = {0, 0, 0};
    double normalized_score3[3] = {0, 0, 0};
    int text_bytes = 0, valid_prefix_bytes = 0;
    bool reliable = false;
    const int len = text.size() > INT_MAX ? INT_MAX : static_cast<int>(text.size());
    const CLD2::Language lang = CLD2::ExtDetectLanguageSummaryCheckUTF8(
        text.data(), len, /*is_plain_text=*/true, &hints, flags_, language3, percent3, normalized_score3, nullptr,
        &text_bytes, &reliable, &valid_prefix_bytes);
    const char* code = CLD2::LanguageCode(lang);  // a static string
    return code ? code : "un";
  }

 private:
  int flags_;
};

class cld2_detector final : public detector {
 public:
  explicit cld2_detector(int flags) : flags_(flags) {}
  std::unique_ptr<worker> make_worker() const override { return std::make_unique<cld2_worker>(flags_); }
  // As langsift-peer-cld2: iw -> he, jw -> jv, no -> nb; un, xxx and script-only answers -> und.
  std::string subtag(std::string_view c) const override {
    if (c.empty() || c == "un" || c == "xxx" || c.substr(0, 3) == "xx-") return "und";
    if (c == "iw") return "he";
    if (c == "jw") return "jv";
    if (c == "no") return "nb";
    return primary_subtag(c);
  }

 private:
  int flags_;
};

}  // namespace

bool cld2_built() { return true; }

loaded_detector load_cld2(const detector_settings& s) {
  loaded_detector r;
  r.name = "cld2";
  r.description = std::string("CLD2 full tables (Debian libcld2), ") + CLD2::DetectLanguageVersion() +
                  (s.cld2_best_effort ? ", kCLDFlagBestEffort" : "");
  r.load_ns = -1;  // static tables, nothing to load
  r.det = std::make_unique<cld2_detector>(s.cld2_best_effort ? CLD2::kCLDFlagBestEffort : 0);
  return r;
}

#else

bool cld2_built() { return false; }

loaded_detector load_cld2(const detector_settings&) {
  loaded_detector r;
  r.name = "cld2";
  r.error = "not built in (libcld2-dev was not found when langsift was configured)";
  return r;
}

#endif

}  // namespace langsift::bench
