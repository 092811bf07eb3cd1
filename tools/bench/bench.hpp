// `langsift-bench` — shared declarations: the documents, the detectors under test (langsift and
// the optional peers CLD2 and fastText) behind one small interface, timing and memory helpers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace langsift::bench {

using bench_clock = std::chrono::steady_clock;

inline std::int64_t ns_between(bench_clock::time_point a, bench_clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

// ---------------------------------------------------------------------------------------------
// Documents

/// The documents of a run. Every document is followed by a NUL byte in `arena` (CLD2 may read one
/// byte past the end), so views are usable as C strings too.
struct corpus {
  std::string arena;
  std::vector<std::string_view> docs;
  std::size_t bytes = 0;        ///< sum of the documents' sizes (NULs not counted)
  std::size_t empty_lines = 0;  ///< empty lines / files skipped
  std::vector<std::string> sources;
};

/// Reads every INPUT: a file is one document per line ('\n'; a trailing '\r' dropped; empty lines
/// skipped), a directory one document per regular file (recursively, sorted by path, hidden
/// files and empty files skipped). `max_docs` > 0 keeps that many documents spread evenly over
/// the whole input. Returns false with `error` set when an input cannot be read.
bool load_corpus(const std::vector<std::string>& inputs, std::size_t max_docs, corpus& out, std::string& error);

// ---------------------------------------------------------------------------------------------
// Detectors

/// What the page pipeline knows about a page besides its text (used by langsift as priors, as
/// `langsift detect` does; the peers take no hints).
struct page_hints {
  std::string_view html_lang;
  std::string_view content_language;
};

/// Per-thread state of a detector: one per benchmark thread, never shared.
class worker {
 public:
  virtual ~worker() = default;
  /// The detector's raw top answer for `text` (UTF-8, followed by a readable NUL byte); valid until
  /// the next call on this worker.
  virtual std::string_view detect(std::string_view text, const page_hints* hints) = 0;
};

class detector {
 public:
  virtual ~detector() = default;
  virtual std::unique_ptr<worker> make_worker() const = 0;
  /// The language subtag of a raw answer in langsift's convention (ISO 639-1 where one exists,
  /// else 639-3; "und" for no answer): the key of the agreement check.
  virtual std::string subtag(std::string_view raw) const = 0;
};

struct detector_settings {
  std::string model_path;           ///< langsift: a model file instead of the built-in model
  std::string fasttext_model_path;  ///< fastText: lid.176.ftz / .bin
  bool cld2_best_effort = false;
  std::size_t top_k = 1;            ///< langsift: detect_options::top_k (to measure its cost)
};

/// A loaded detector, or why it could not be loaded.
struct loaded_detector {
  std::string name;                 ///< langsift, cld2, fasttext
  std::unique_ptr<detector> det;    ///< null when loading failed (`error`)
  std::string error;
  std::string description;          ///< model / version, for the report header
  std::int64_t load_ns = -1;        ///< time to load the model; -1: nothing to load (static tables)
};

constexpr const char* kDetectorNames[] = {"langsift", "cld2", "fasttext"};

/// Whether the peer was found at build time.
bool cld2_built();
bool fasttext_built();

/// langsift with the detect_options defaults, or (close_groups false: `langsift-no-close`) without
/// the close-group stage, whose cost the two give in one run.
loaded_detector load_langsift(const detector_settings& s, bool close_groups);
loaded_detector load_cld2(const detector_settings& s);
loaded_detector load_fasttext(const detector_settings& s);
loaded_detector load_detector(std::string_view name, const detector_settings& s);

/// The language subtag of a langsift-convention code: "zh-Hant" -> "zh", "" -> "und".
std::string primary_subtag(std::string_view code);

// ---------------------------------------------------------------------------------------------
// Memory (Linux /proc)

struct memory_status {
  long long vm_hwm_kb = -1, vm_rss_kb = -1, rss_anon_kb = -1, rss_file_kb = -1;
};
memory_status read_memory_status();
/// Resets VmHWM to the current RSS (writes "5" to /proc/self/clear_refs, Linux >= 4.0).
bool reset_peak_rss();

}  // namespace langsift::bench
