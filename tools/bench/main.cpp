// `langsift-bench` — throughput, latency, load time and memory of langsift beside CLD2 and fastText,
// measured in the same run with the detectors interleaved (docs/benchmarks.md).
#include <unistd.h>

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include "bench/bench.hpp"
#include "common/cli.hpp"
#include "langsift/detector.hpp"
#include "langsift/encoding.hpp"
#include "langsift/html.hpp"
#include "langsift/version.hpp"

namespace {

using namespace langsift::bench;
namespace cli = langsift::cli;

constexpr const char* kProgram = "langsift-bench";
constexpr std::size_t kMaxBatch = 64;  // documents a thread takes at a time, at most

// Batches of up to 64 documents, small enough that every thread gets ~16 of them (150 pages on 2
// threads: batches of 4, not 64 + 64 + 22).
std::size_t batch_size(std::size_t docs, unsigned threads) {
  return std::clamp<std::size_t>(docs / (16 * std::size_t{threads}), 1, kMaxBatch);
}

// ---------------------------------------------------------------------------------------------
// A fixed pool of threads; run(n, f) calls f(i) on threads 0..n-1 and waits for them.

class thread_pool {
 public:
  explicit thread_pool(unsigned n) {
    for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this, i] { loop(i); });
  }
  ~thread_pool() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
      ++generation_;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void run(unsigned n, const std::function<void(unsigned)>& f) {
    std::unique_lock<std::mutex> l(m_);
    job_ = &f;
    active_ = n;
    remaining_ = n;
    error_ = nullptr;
    ++generation_;
    wake_.notify_all();
    done_.wait(l, [&] { return remaining_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void loop(unsigned i) {
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(unsigned)>* job;
      {
        std::unique_lock<std::mutex> l(m_);
        wake_.wait(l, [&] { return generation_ != seen; });
        seen = generation_;
        if (stop_) return;
        if (i >= active_) continue;
        job = job_;
      }
      std::exception_ptr e;
      try {
        (*job)(i);
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard<std::mutex> l(m_);
      if (e && !error_) error_ = e;
      if (--remaining_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned active_ = 0, remaining_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

// ---------------------------------------------------------------------------------------------
// Settings

struct settings {
  std::vector<std::string> inputs;
  bool html = false, main_content = false, links = false, tsv = false, memory = true;
  std::vector<unsigned> threads{1};
  unsigned repeat = 5, warmup = 1;
  std::vector<std::string> peers;  // empty: all available
  bool peers_explicit = false, fasttext_model_explicit = false;
  std::size_t max_docs = 0;
  detector_settings det;
  std::string memory_probe;  // internal child mode
};

using option_row = cli::option<settings>;
using cli::option_value;
using cli::value_kind;

/// The options of langsift-bench that choose what is measured.
void add_input_options(std::vector<option_row>& t) {
  t.push_back({value_kind::flag, "--html", nullptr, nullptr,
               "INPUT holds raw HTML pages (bytes as fetched): run the whole page\n"
               "pipeline — decode_to_utf8, extract_html, detect — and report the\n"
               "share of time of each stage (the peers get langsift's decoded and\n"
               "extracted text; only the detect stage differs)",
               [](settings& s, const option_value&) { return s.html = true; }});
  t.push_back({value_kind::flag, "--main", nullptr, nullptr, "with --html: main-content extraction (html_options::main_content)",
               [](settings& s, const option_value&) { return s.main_content = true; }});
  t.push_back({value_kind::flag, "--links", nullptr, nullptr,
               "with --html: also collect out-links (default: off, as `langsift detect`)",
               [](settings& s, const option_value&) { return s.links = true; }});
  t.push_back({value_kind::text, "--threads", nullptr, "LIST",
               "thread counts to run, e.g. 1,2 (default 1); threads share one model\n"
               "and take batches of 64 documents from a shared counter",
               [](settings& s, const option_value& v) {
                 s.threads.clear();
                 for (const std::string& item : cli::split_list(v.text)) {
                   auto n = cli::parse_size(item);
                   if (!n || *n < 1 || *n > 256) return false;
                   if (std::find(s.threads.begin(), s.threads.end(), *n) == s.threads.end())
                     s.threads.push_back(static_cast<unsigned>(*n));
                 }
                 return !s.threads.empty();
               },
               0, 0, nullptr, "thread counts from 1 to 256, e.g. 1,2"});
  t.push_back({value_kind::size, "--repeat", nullptr, "N", "measured passes per detector and thread count (default 5)",
               [](settings& s, const option_value& v) { s.repeat = static_cast<unsigned>(v.size); return true; }, 1, 1e9});
  t.push_back({value_kind::size, "--warmup", nullptr, "N", "passes run first and discarded (default 1)",
               [](settings& s, const option_value& v) { s.warmup = static_cast<unsigned>(v.size); return true; }, 0, 1e9});
  t.push_back({value_kind::text, "--peers", nullptr, "LIST",
               "detectors, in the order they run: langsift,cld2,fasttext (default:\n"
               "every one available; a peer that cannot be loaded is then skipped\n"
               "with a message, while one named here is an error);\n"
               "langsift-no-close is langsift without its close-group stage\n"
               "(detect_options::close_groups = false): the stage's cost in one run",
               [](settings& s, const option_value& v) {
                 s.peers.clear();
                 for (const std::string& p : cli::split_list(v.text)) {
                   if (p != "langsift" && p != "langsift-no-close" && p != "cld2" && p != "fasttext") return false;
                   if (std::find(s.peers.begin(), s.peers.end(), p) == s.peers.end()) s.peers.push_back(p);
                 }
                 return s.peers_explicit = !s.peers.empty();
               },
               0, 0, nullptr, "detectors among langsift, langsift-no-close, cld2, fasttext"});
}

/// The options of langsift-bench that choose the detectors' settings and the report.
void add_detector_options(std::vector<option_row>& t) {
  t.push_back({value_kind::size, "--top-k", nullptr, "K",
               "langsift: the K (0..16) most probable languages with each answer\n"
               "(detect_options::top_k; default 1, as the library)",
               [](settings& s, const option_value& v) { s.det.top_k = static_cast<std::size_t>(v.size); return true; }, 0,
               static_cast<double>(langsift::max_top_k)});
  t.push_back({value_kind::text, "--model", nullptr, "NAME|FILE",
               "langsift: a built-in model (`default`, `wide`) or a model file\n"
               "(default: `default`; a built-in name wins over a file so named)",
               [](settings& s, const option_value& v) { s.det.model_path = v.text; return true; }, 0, 0, nullptr,
               "a built-in model's name or a file"});
  t.push_back({value_kind::text, "--fasttext-model", nullptr, "F",
               "fastText model (default: $LANGSIFT_FASTTEXT_MODEL, else\n"
               "~/.cache/langsift/peers/lid.176.ftz from scripts/get-peer-models.sh)",
               [](settings& s, const option_value& v) {
                 s.det.fasttext_model_path = v.text;
                 return s.fasttext_model_explicit = true;
               },
               0, 0, nullptr, "a file"});
  t.push_back({value_kind::flag, "--cld2-best-effort", nullptr, nullptr,
               "CLD2 with kCLDFlagBestEffort (an answer even for short text)",
               [](settings& s, const option_value&) { return s.det.cld2_best_effort = true; }});
  t.push_back({value_kind::size, "--max-docs", nullptr, "N", "use N documents spread evenly over the input (default: all)",
               [](settings& s, const option_value& v) { s.max_docs = static_cast<std::size_t>(v.size); return true; }, 1,
               1e9});
  t.push_back({value_kind::flag, "--no-memory", nullptr, nullptr, "skip the child processes that measure resident memory",
               [](settings& s, const option_value&) { s.memory = false; return true; }});
  t.push_back({value_kind::flag, "--tsv", nullptr, nullptr, "tab-separated output (one row per detector and thread count)",
               [](settings& s, const option_value&) { return s.tsv = true; }});
}

/// The options of langsift-bench: its usage text, its parsing, its "did you mean".
const std::vector<option_row>& options() {
  static const std::vector<option_row> table = [] {
    std::vector<option_row> t;
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "usage: langsift-bench [options] INPUT...\n"
                 "\n"
                 "Measures language identification speed: langsift beside the peers CLD2 and fastText, in the\n"
                 "same run, interleaved (every repetition runs each detector once, in turn, so machine noise\n"
                 "hits all alike). INPUT is a file of documents, one per line (empty lines skipped), or a\n"
                 "directory whose files are one document each (recursively, sorted by path).\n"
                 "\n"
                 "Reports per detector and thread count: docs/s, MB/s (10^6 bytes of input) and ns/doc from\n"
                 "the median pass time, its spread, the speed-up over one thread; per detector: per-document\n"
                 "latency (median, p99) from a separate single-thread pass that times every document, model\n"
                 "load time, time of the first call, peak resident memory added by the detector (measured in\n"
                 "a child process per detector); ratios langsift / peer (docs/s, paired by repetition); and\n"
                 "the share of documents where each peer's top language agrees with langsift's.\n"
                 "\n"
                 "options:\n"});
    add_input_options(t);
    add_detector_options(t);
    t.push_back({value_kind::note, nullptr, nullptr, nullptr, "  -h, --help           this help\n\ninternal:\n"});
    t.push_back({value_kind::text, "--memory-probe", nullptr, "NAME",
                 "load only detector NAME, run one pass, print its memory figures\n"
                 "(what the parent runs in a child process, re-executing itself)",
                 [](settings& s, const option_value& v) { s.memory_probe = v.text; return true; }, 0, 0, nullptr,
                 "a detector's name"});
    t.push_back({value_kind::note, nullptr, nullptr, nullptr,
                 "\n"
                 "Exit status: 0 on success; 1 when an input cannot be read, holds no document, or a detector\n"
                 "named in --peers (or given a model) cannot be loaded; 2 on a usage error.\n"});
    return t;
  }();
  return table;
}

void usage(std::FILE* out) { cli::usage_text(out, options(), 23); }


// ---------------------------------------------------------------------------------------------
// Running documents through a detector

struct stage_times {
  std::int64_t decode = 0, extract = 0, detect = 0;
  void add(const stage_times& o) {
    decode += o.decode;
    extract += o.extract;
    detect += o.detect;
  }
};

// One benchmark thread's state for one detector. Cache-line aligned: `sink` is written after every
// document, and a neighbouring slot on the same line would make the threads share it (false
// sharing, a cost a crawler's threads do not pay).
struct alignas(64) thread_slot {
  std::unique_ptr<worker> w;
  langsift::html_result html;  // reused between pages
  std::uint64_t sink = 0;      // keeps answers observable
  stage_times stages;
  bench_clock::time_point start, end;
};

struct pipeline {
  bool html = false;
  langsift::html_options ho;
};

// Runs one document (the page pipeline with --html) and returns the detector's raw answer.
inline std::string_view run_doc(thread_slot& s, const pipeline& p, std::string_view doc, bool stage_timing) {
  if (!p.html) return s.w->detect(doc, nullptr);
  const auto t0 = bench_clock::now();
  const langsift::decoded_text decoded = langsift::decode_to_utf8(doc);
  const auto t1 = bench_clock::now();
  langsift::extract_html(decoded.text, p.ho, s.html);
  const auto t2 = bench_clock::now();
  const page_hints hints{s.html.html_lang, s.html.content_language};
  const std::string_view answer = s.w->detect(s.html.text, &hints);
  if (stage_timing) {
    const auto t3 = bench_clock::now();
    s.stages.decode += ns_between(t0, t1);
    s.stages.extract += ns_between(t1, t2);
    s.stages.detect += ns_between(t2, t3);
  }
  return answer;
}

inline void consume(thread_slot& s, std::string_view answer) {
  s.sink += answer.size() + (answer.empty() ? 0u : static_cast<unsigned char>(answer[0]));
}

struct entrant {
  loaded_detector loaded;
  std::vector<thread_slot> slots;  // one per pool thread
  // results
  std::vector<std::string> answers;  // language subtag per document (check pass)
  std::int64_t first_call_ns = -1;
  std::size_t und = 0;
  std::size_t text_bytes = 0;  // --html: extracted text bytes (check pass)
  std::vector<std::vector<double>> pass_seconds;  // [thread-count index][repetition]
  std::vector<float> latency_ns;
  stage_times stages;  // --html, measured single-thread passes
  std::optional<memory_status> mem_before, mem_after;
  bool peak_reset = false;
  std::string memory_error;
};

// A throughput pass with `n` threads: returns wall seconds (first thread start to last thread end).
double throughput_pass(thread_pool& pool, entrant& e, const corpus& c, const pipeline& p, unsigned n,
                       bool stage_timing) {
  std::atomic<std::size_t> next{0};
  const std::size_t count = c.docs.size();
  const std::size_t batch = batch_size(count, n);
  std::function<void(unsigned)> job = [&](unsigned t) {
    thread_slot& s = e.slots[t];
    s.start = bench_clock::now();
    for (;;) {
      const std::size_t begin = next.fetch_add(batch, std::memory_order_relaxed);
      if (begin >= count) break;
      const std::size_t end = std::min(count, begin + batch);
      for (std::size_t i = begin; i < end; ++i) consume(s, run_doc(s, p, c.docs[i], stage_timing));
    }
    s.end = bench_clock::now();
  };
  pool.run(n, job);
  auto start = e.slots[0].start, end = e.slots[0].end;
  for (unsigned t = 1; t < n; ++t) {
    start = std::min(start, e.slots[t].start);
    end = std::max(end, e.slots[t].end);
  }
  return static_cast<double>(ns_between(start, end)) * 1e-9;
}

// The latency pass: one thread, every document timed on its own (timer overhead subtracted).
void latency_pass(thread_pool& pool, entrant& e, const corpus& c, const pipeline& p, std::int64_t timer_ns) {
  std::function<void(unsigned)> job = [&](unsigned t) {
    thread_slot& s = e.slots[t];
    for (std::string_view doc : c.docs) {
      const auto t0 = bench_clock::now();
      const std::string_view answer = run_doc(s, p, doc, false);
      const auto t1 = bench_clock::now();
      consume(s, answer);
      e.latency_ns.push_back(static_cast<float>(std::max<std::int64_t>(0, ns_between(t0, t1) - timer_ns)));
    }
  };
  pool.run(1, job);
}

// The check pass (untimed but for the first call): records every answer's language subtag.
void check_pass(thread_pool& pool, entrant& e, const corpus& c, const pipeline& p) {
  std::function<void(unsigned)> job = [&](unsigned t) {
    thread_slot& s = e.slots[t];
    e.answers.clear();
    e.answers.reserve(c.docs.size());
    for (std::size_t i = 0; i < c.docs.size(); ++i) {
      const auto t0 = bench_clock::now();
      const std::string_view answer = run_doc(s, p, c.docs[i], false);
      if (i == 0) e.first_call_ns = ns_between(t0, bench_clock::now());
      if (p.html) e.text_bytes += s.html.text.size();
      e.answers.push_back(e.loaded.det->subtag(answer));
      if (e.answers.back() == "und") ++e.und;
    }
  };
  pool.run(1, job);
}

// Median cost of one steady_clock::now() pair, measured on a pool thread.
std::int64_t timer_overhead(thread_pool& pool) {
  std::int64_t result = 0;
  std::function<void(unsigned)> job = [&](unsigned) {
    std::vector<std::int64_t> d(20001);
    for (auto& x : d) {
      const auto a = bench_clock::now();
      const auto b = bench_clock::now();
      x = ns_between(a, b);
    }
    std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
    result = d[d.size() / 2];
  };
  pool.run(1, job);
  return result;
}

// CPU time of the whole machine (busy jiffies: all but idle and iowait) and of this process
// (user + system, its threads included), in clock ticks: their difference over a run is what other
// processes took from the cores the benchmark was measuring on.
struct cpu_sample {
  long long machine_busy = -1, self = -1;
  bench_clock::time_point when;
};

cpu_sample sample_cpu() {
  cpu_sample c;
  c.when = bench_clock::now();
  if (std::FILE* f = std::fopen("/proc/stat", "r")) {
    long long v[10] = {};
    if (std::fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3], &v[4],
                    &v[5], &v[6], &v[7], &v[8], &v[9]) >= 8)
      c.machine_busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];  // user nice system irq softirq steal
    std::fclose(f);
  }
  if (std::FILE* f = std::fopen("/proc/self/stat", "r")) {
    char buf[1024];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
    if (const char* p = std::strrchr(buf, ')')) {
      long long utime = 0, stime = 0;
      if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &utime, &stime) == 2)
        c.self = utime + stime;
    }
    std::fclose(f);
  }
  return c;
}

// CPUs' worth of time other processes used between `a` and `b` (-1 when unknown).
double other_cpus(const cpu_sample& a, const cpu_sample& b) {
  if (a.machine_busy < 0 || b.machine_busy < 0 || a.self < 0 || b.self < 0) return -1;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double wall = static_cast<double>(ns_between(a.when, b.when)) * 1e-9;
  if (ticks <= 0 || wall <= 0) return -1;
  const double other = static_cast<double>((b.machine_busy - a.machine_busy) - (b.self - a.self)) / ticks;
  return std::max(0.0, other / wall);
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Nearest-rank percentile of `sorted`.
double percentile(const std::vector<float>& sorted, double q) {
  if (sorted.empty()) return 0;
  std::size_t rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  rank = std::clamp<std::size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// A duration in ns as "845 ns", "42.5 µs", "11.2 ms".
std::string human_ns(double ns) {
  if (ns < 1e3) return fmt("%.0f ns", ns);
  if (ns < 1e6) return fmt(ns < 1e5 ? "%.2f µs" : "%.1f µs", ns / 1e3);
  return fmt(ns < 1e8 ? "%.2f ms" : "%.1f ms", ns / 1e6);
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'')
      out += "'\\''";
    else
      out += ch;
  }
  return out + "'";
}

std::string self_path() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

// ---------------------------------------------------------------------------------------------
// Memory: a child process per detector (`--memory-probe NAME`) reads the documents, returns free
// heap memory to the system (malloc_trim), resets its peak RSS to the current RSS
// (/proc/self/clear_refs), takes /proc/self/status, loads the detector, runs one single-thread
// pass over the documents and takes /proc/self/status again. The detector's figure is the peak
// (VmHWM) after minus the RSS before.

int memory_probe(const settings& s) {
  corpus c;
  std::string error;
  if (!load_corpus(s.inputs, s.max_docs, c, error)) return cli::fail(kProgram, error);
  if (c.docs.empty()) return cli::fail(kProgram, "no documents in the input");
  ::malloc_trim(0);
  const bool reset = reset_peak_rss();
  const memory_status before = read_memory_status();
  loaded_detector d = load_detector(s.memory_probe, s.det);
  if (!d.det) return cli::fail(kProgram, d.name + ": " + d.error);
  thread_slot slot;
  slot.w = d.det->make_worker();
  pipeline p;
  p.html = s.html;
  p.ho.main_content = s.main_content;
  p.ho.collect_links = s.links;
  for (std::string_view doc : c.docs) consume(slot, run_doc(slot, p, doc, false));
  const memory_status after = read_memory_status();
  std::printf("memory\t%s\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%d\t%llu\n", d.name.c_str(),
              before.vm_rss_kb, before.vm_hwm_kb, before.rss_anon_kb, before.rss_file_kb, after.vm_rss_kb,
              after.vm_hwm_kb, after.rss_anon_kb, after.rss_file_kb, reset ? 1 : 0,
              static_cast<unsigned long long>(slot.sink));
  return 0;
}

void measure_memory(const settings& s, entrant& e) {
  if (std::find(s.inputs.begin(), s.inputs.end(), "-") != s.inputs.end()) {
    e.memory_error = "the input is stdin, which a child process cannot read again";
    return;
  }
  const std::string self = self_path();
  if (self.empty()) {
    e.memory_error = "cannot find /proc/self/exe";
    return;
  }
  std::string cmd = shell_quote(self) + " --memory-probe " + shell_quote(e.loaded.name);
  if (s.html) cmd += " --html";
  if (s.main_content) cmd += " --main";
  if (s.links) cmd += " --links";
  if (s.max_docs) cmd += " --max-docs " + std::to_string(s.max_docs);
  if (!s.det.model_path.empty()) cmd += " --model " + shell_quote(s.det.model_path);
  if (!s.det.fasttext_model_path.empty()) cmd += " --fasttext-model " + shell_quote(s.det.fasttext_model_path);
  if (s.det.cld2_best_effort) cmd += " --cld2-best-effort";
  if (s.det.top_k != 1) cmd += " --top-k " + std::to_string(s.det.top_k);
  for (const auto& in : s.inputs) cmd += " " + shell_quote(in);
  std::fflush(stdout);
  std::FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) {
    e.memory_error = std::string("cannot run the memory probe: ") + std::strerror(errno);
    return;
  }
  std::string out;
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int rc = ::pclose(f);
  if (rc != 0) {
    e.memory_error = "the memory probe failed";
    return;
  }
  char name[64];
  memory_status b, a;
  int reset = 0;
  unsigned long long sink = 0;
  if (std::sscanf(out.c_str(), "memory\t%63s\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%d\t%llu", name,
                  &b.vm_rss_kb, &b.vm_hwm_kb, &b.rss_anon_kb, &b.rss_file_kb, &a.vm_rss_kb, &a.vm_hwm_kb,
                  &a.rss_anon_kb, &a.rss_file_kb, &reset, &sink) != 11 ||
      b.vm_rss_kb < 0 || a.vm_hwm_kb < 0) {
    e.memory_error = "unexpected output from the memory probe";
    return;
  }
  e.mem_before = b;
  e.mem_after = a;
  e.peak_reset = reset != 0;
}

// ---------------------------------------------------------------------------------------------

std::string default_fasttext_model() {
  if (const char* env = std::getenv("LANGSIFT_FASTTEXT_MODEL"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home) {
    std::string p = std::string(home) + "/.cache/langsift/peers/lid.176.ftz";
    if (::access(p.c_str(), R_OK) == 0) return p;
  }
  return {};
}

/// Median over repetitions of a[r] / b[r] (pass times paired by repetition).
double paired(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> q;
  for (std::size_t r = 0; r < a.size() && r < b.size(); ++r)
    if (b[r] > 0) q.push_back(a[r] / b[r]);
  return median(q);
}

/// (slowest - fastest) / median of pass times.
double spread(const std::vector<double>& v) {
  const double m = median(v);
  return m > 0 ? (*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end())) / m : 0.0;
}

double mem_mb(long long kb) { return static_cast<double>(kb) / 1024.0; }

/// What the reports are written from.
struct report {
  const settings& s;
  const corpus& c;
  const std::vector<entrant>& entrants;
  const std::vector<std::string>& skipped;
  std::int64_t timer_ns;
  double others;            // CPUs other processes used (negative: unknown)
  int one;                  // the index of 1 thread in --threads, or -1
  const entrant* ls;        // langsift's entrant, if it ran
  double n_docs, mb;
};

/// The detectors of --peers (default: every one), loaded in order; a peer that cannot be loaded is
/// skipped with a message unless it was asked for. 0, or the exit status (reported).
int load_entrants(const settings& s, std::vector<entrant>& entrants, std::vector<std::string>& skipped) {
  std::vector<std::string> names = s.peers;
  if (names.empty()) names = {"langsift", "cld2", "fasttext"};
  for (const std::string& name : names) {
    entrant e;
    e.loaded = load_detector(name, s.det);
    if (!e.loaded.det) {
      const bool explicit_request = s.peers_explicit || name.starts_with("langsift") ||
                                    (name == "fasttext" && s.fasttext_model_explicit);
      if (explicit_request) return cli::fail(kProgram, name + ": " + e.loaded.error);
      std::fprintf(stderr, "%s: %s skipped: %s\n", kProgram, name.c_str(), e.loaded.error.c_str());
      skipped.push_back(name + " (" + e.loaded.error + ")");
      continue;
    }
    entrants.push_back(std::move(e));
  }
  if (entrants.empty()) return cli::fail(kProgram, "no detector to run");
  return 0;
}

/// The check pass (answers, first call), then warm-up and measured repetitions, interleaved, and
/// the latency passes. The CPUs other processes used meanwhile.
double run_passes(const settings& s, thread_pool& pool, std::vector<entrant>& entrants, const corpus& c,
                  const pipeline& p, std::int64_t timer_ns) {
  const bool tty = ::isatty(2) != 0;
  for (entrant& e : entrants) check_pass(pool, e, c, p);
  const cpu_sample cpu_before = sample_cpu();
  const unsigned reps = s.warmup + s.repeat;
  for (unsigned r = 0; r < reps; ++r) {
    const bool measured = r >= s.warmup;
    if (tty) std::fprintf(stderr, "\r%s: repetition %u/%u%s   ", kProgram, r + 1, reps, measured ? "" : " (warm-up)");
    for (std::size_t ti = 0; ti < s.threads.size(); ++ti) {
      for (entrant& e : entrants) {
        const bool stage_timing = s.html && s.threads[ti] == 1 && measured;
        const double sec = throughput_pass(pool, e, c, p, s.threads[ti], stage_timing);
        if (measured) e.pass_seconds[ti].push_back(sec);
      }
    }
    for (entrant& e : entrants) {
      const std::size_t before = e.latency_ns.size();
      latency_pass(pool, e, c, p, timer_ns);
      if (!measured) e.latency_ns.resize(before);
    }
  }
  const double others = other_cpus(cpu_before, sample_cpu());
  if (tty) std::fprintf(stderr, "\r%50s\r", "");
  for (entrant& e : entrants) {
    for (auto& slot : e.slots) e.stages.add(slot.stages);
    std::sort(e.latency_ns.begin(), e.latency_ns.end());
  }
  return others;
}

/// --tsv: one row per detector and thread count.
void print_tsv(const report& r) {
  const settings& s = r.s;
  const corpus& c = r.c;
  const auto& entrants = r.entrants;
  const entrant* ls = r.ls;
  const int one = r.one;
  const double n_docs = r.n_docs, mb = r.mb, others = r.others;
  std::printf("detector\tthreads\tdocs\tbytes\tdocs_per_s\tmb_per_s\tns_per_doc\tspread\tspeedup\tratio_langsift\t"
              "latency_median_ns\tlatency_p99_ns\tload_ms\tfirst_call_us\trss_peak_mib\trss_file_mib\t"
              "agree_langsift\tund_share\tdecode_share\textract_share\tdetect_share\tother_cpus\n");
  for (const entrant& e : entrants) {
    for (std::size_t ti = 0; ti < s.threads.size(); ++ti) {
      const double med = median(e.pass_seconds[ti]);
      std::string speedup = "-", ratio = "-", agree = "-", rss = "-", rss_file = "-", shares = "-\t-\t-";
      if (one >= 0) speedup = fmt("%.3f", paired(e.pass_seconds[static_cast<std::size_t>(one)], e.pass_seconds[ti]));
      if (ls && ls != &e) ratio = fmt("%.3f", paired(e.pass_seconds[ti], ls->pass_seconds[ti]));
      if (ls && ls != &e) {
        std::size_t same = 0;
        for (std::size_t i = 0; i < c.docs.size(); ++i) same += e.answers[i] == ls->answers[i];
        agree = fmt("%.4f", static_cast<double>(same) / n_docs);
      }
      if (e.mem_after) {
        rss = fmt("%.2f", mem_mb(e.mem_after->vm_hwm_kb - e.mem_before->vm_rss_kb));
        rss_file = fmt("%.2f", mem_mb(e.mem_after->rss_file_kb - e.mem_before->rss_file_kb));
      }
      const double total = static_cast<double>(e.stages.decode + e.stages.extract + e.stages.detect);
      if (s.html && total > 0)
        shares = fmt("%.4f", static_cast<double>(e.stages.decode) / total) + "\t" +
                 fmt("%.4f", static_cast<double>(e.stages.extract) / total) + "\t" +
                 fmt("%.4f", static_cast<double>(e.stages.detect) / total);
      std::printf("%s\t%u\t%zu\t%zu\t%.0f\t%.3f\t%.1f\t%.4f\t%s\t%s\t%.0f\t%.0f\t%s\t%.1f\t%s\t%s\t%s\t%.4f\t%s\t%.2f\n",
                  e.loaded.name.c_str(), s.threads[ti], c.docs.size(), c.bytes, n_docs / med, mb / med,
                  med * 1e9 / n_docs, spread(e.pass_seconds[ti]), speedup.c_str(), ratio.c_str(),
                  percentile(e.latency_ns, 0.5), percentile(e.latency_ns, 0.99),
                  e.loaded.load_ns < 0 ? "-" : fmt("%.3f", static_cast<double>(e.loaded.load_ns) / 1e6).c_str(),
                  static_cast<double>(e.first_call_ns) / 1e3, rss.c_str(), rss_file.c_str(), agree.c_str(),
                  static_cast<double>(e.und) / n_docs, shares.c_str(), others);
    }
  }
}

/// The markdown report's head: the input, the detectors, the passes, the timer, the machine's load.
void print_header(const report& r) {
  const settings& s = r.s;
  const corpus& c = r.c;
  const auto& entrants = r.entrants;
  const entrant* ls = r.ls;
  const double n_docs = r.n_docs, mb = r.mb, others = r.others;
  const auto& skipped = r.skipped;
  const std::int64_t timer_ns = r.timer_ns;
  std::printf("## langsift-bench: %s\n\n", join(c.sources, ", ").c_str());
  std::printf("- input: %zu documents, %.2f MB, %.0f bytes/document on average%s%s\n", c.docs.size(), mb,
              static_cast<double>(c.bytes) / n_docs, s.html ? "; HTML pages, whole pipeline (decode, extract, detect)" : "; plain text",
              s.max_docs ? (", --max-docs " + std::to_string(s.max_docs) + " spread evenly").c_str() : "");
  if (s.html && ls)
    std::printf("- text after extraction (langsift's pipeline): %.0f bytes/page on average%s\n",
                static_cast<double>(ls->text_bytes) / n_docs, s.main_content ? " (main content)" : "");
  for (const entrant& e : entrants) std::printf("- %s: %s\n", e.loaded.name.c_str(), e.loaded.description.c_str());
  for (const std::string& k : skipped) std::printf("- skipped: %s\n", k.c_str());
  std::vector<std::string> order;
  for (const entrant& e : entrants) order.push_back(e.loaded.name);
  std::vector<std::string> tl;
  for (unsigned t : s.threads) tl.push_back(std::to_string(t));
  std::printf("- passes: %u warm-up + %u measured per detector and thread count (%s), interleaved %s in every "
              "repetition; + 1 latency pass per detector and repetition; %u hardware threads\n",
              s.warmup, s.repeat, join(tl, ", ").c_str(), join(order, ", ").c_str(),
              std::thread::hardware_concurrency());
  std::printf("- timer: steady_clock, %lld ns per reading pair (subtracted from per-document latencies)\n",
              static_cast<long long>(timer_ns));
  if (others >= 0)
    std::printf("- other processes used %.2f CPUs on average while this ran (/proc/stat less this process)%s\n",
                others,
                others >= 0.2 ? ": **the machine was busy**, absolute figures are low and thread speed-ups unreliable; "
                                "the interleaved ratios suffer least"
                              : "");
  std::printf("\n");

}

/// The throughput table, and the ratios langsift ÷ peer.
void print_throughput(const report& r) {
  const settings& s = r.s;
  const auto& entrants = r.entrants;
  const entrant* ls = r.ls;
  const int one = r.one;
  const double n_docs = r.n_docs, mb = r.mb;
  std::printf("### Throughput\n\n");
  std::printf("| detector | threads | docs/s | MB/s | time/doc | spread | speed-up vs 1 thread |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const entrant& e : entrants) {
    for (std::size_t ti = 0; ti < s.threads.size(); ++ti) {
      const double med = median(e.pass_seconds[ti]);
      const std::string speedup =
          one >= 0 ? fmt("%.2f×", paired(e.pass_seconds[static_cast<std::size_t>(one)], e.pass_seconds[ti])) : "—";
      std::printf("| %s | %u | %.0f | %.2f | %s | %.1f %% | %s |\n", e.loaded.name.c_str(), s.threads[ti],
                  n_docs / med, mb / med, human_ns(med * 1e9 / n_docs).c_str(), 100 * spread(e.pass_seconds[ti]),
                  speedup.c_str());
    }
  }
  std::printf("\ndocs/s, MB/s (10^6 bytes of input) and time/doc (wall time per document, all threads together)\n"
              "come from the median pass; spread = (slowest - fastest pass) / median.\n");

  if (ls && entrants.size() > 1) {
    std::printf("\n### langsift ÷ peer (docs/s; median over repetitions of the ratio within each repetition)\n\n");
    std::printf("| threads |");
    for (const entrant& e : entrants)
      if (&e != ls) std::printf(" ÷ %s |", e.loaded.name.c_str());
    std::printf("\n| ---: |");
    for (std::size_t k = 1; k < entrants.size(); ++k) std::printf(" ---: |");
    std::printf("\n");
    for (std::size_t ti = 0; ti < s.threads.size(); ++ti) {
      std::printf("| %u |", s.threads[ti]);
      for (const entrant& e : entrants)
        if (&e != ls) std::printf(" %.2f× |", paired(e.pass_seconds[ti], ls->pass_seconds[ti]));
      std::printf("\n");
    }
  }

}

/// The latency, load time and memory table.
void print_latency(const report& r) {
  const settings& s = r.s;
  const auto& entrants = r.entrants;
  std::printf("\n### Latency, load time, memory\n\n");
  std::printf("| detector | latency median | latency p99 | load | first call | peak RSS added | of it file-backed |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const entrant& e : entrants) {
    std::string rss = "—", rss_file = "—";
    if (e.mem_after) {
      rss = fmt("%.2f MiB", mem_mb(e.mem_after->vm_hwm_kb - e.mem_before->vm_rss_kb));
      rss_file = fmt("%.2f MiB", mem_mb(e.mem_after->rss_file_kb - e.mem_before->rss_file_kb));
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", e.loaded.name.c_str(),
                human_ns(percentile(e.latency_ns, 0.5)).c_str(), human_ns(percentile(e.latency_ns, 0.99)).c_str(),
                e.loaded.load_ns < 0 ? "— (static tables)" : human_ns(static_cast<double>(e.loaded.load_ns)).c_str(),
                human_ns(static_cast<double>(e.first_call_ns)).c_str(), rss.c_str(), rss_file.c_str());
  }
  std::printf("\nLatency: one thread, every document timed alone (%zu samples per detector). Load: the first\n"
              "default_model() call (or model::load_file), fastText's loadModel. First call: the first document\n"
              "after loading. Memory: a child process per detector; peak RSS (VmHWM) after loading the detector\n"
              "and running every document once, minus the RSS before loading%s.\n",
              entrants.front().latency_ns.size(),
              s.memory && !entrants.empty() && entrants.front().mem_after && !entrants.front().peak_reset
                  ? " (peak could not be reset: /proc/self/clear_refs unavailable, the figure may be low)"
                  : "");

}

/// The agreement with langsift, and where the time goes in the HTML pipeline.
void print_agreement_and_stages(const report& r) {
  const settings& s = r.s;
  const corpus& c = r.c;
  const auto& entrants = r.entrants;
  const entrant* ls = r.ls;
  const int one = r.one;
  const double n_docs = r.n_docs;
  if (ls && entrants.size() > 1) {
    std::printf("\n### Agreement with langsift (top language subtag; a sanity check, not accuracy)\n\n");
    std::printf("| detector | agrees with langsift | answers und |\n| --- | ---: | ---: |\n");
    for (const entrant& e : entrants) {
      std::size_t same = 0;
      for (std::size_t i = 0; i < c.docs.size(); ++i) same += e.answers[i] == ls->answers[i];
      std::printf("| %s | %s | %.1f %% |\n", e.loaded.name.c_str(),
                  &e == ls ? "—" : fmt("%.1f %%", 100.0 * static_cast<double>(same) / n_docs).c_str(),
                  100.0 * static_cast<double>(e.und) / n_docs);
    }
  }

  if (s.html) {
    std::printf("\n### Where the time goes (HTML pipeline, 1-thread passes)\n\n");
    if (one < 0) {
      std::printf("Stage times are taken in 1-thread passes: add 1 to --threads.\n");
    } else {
      std::printf("| detector | decode | extract | detect | decode/page | extract/page | detect/page |\n");
      std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
      const double pages = n_docs * s.repeat;
      for (const entrant& e : entrants) {
        const double total = static_cast<double>(e.stages.decode + e.stages.extract + e.stages.detect);
        if (total <= 0) continue;
        std::printf("| %s | %.1f %% | %.1f %% | %.1f %% | %s | %s | %s |\n", e.loaded.name.c_str(),
                    100 * static_cast<double>(e.stages.decode) / total,
                    100 * static_cast<double>(e.stages.extract) / total,
                    100 * static_cast<double>(e.stages.detect) / total,
                    human_ns(static_cast<double>(e.stages.decode) / pages).c_str(),
                    human_ns(static_cast<double>(e.stages.extract) / pages).c_str(),
                    human_ns(static_cast<double>(e.stages.detect) / pages).c_str());
      }
      std::printf("\ndecode = decode_to_utf8 (encoding detection + conversion), extract = extract_html, detect = the\n"
                  "detector on the extracted text (the peers get the same text).\n");
    }
  }
}

}  // namespace

int run_main(int argc, char** argv) {
  settings s;
  if (const int rc = cli::parse_options(kProgram, options(), usage, argc, argv, s, s.inputs); rc >= 0) return rc;
  if (s.inputs.empty()) return cli::fail(kProgram, "no INPUT given; see --help") + 1;
  if (!s.fasttext_model_explicit) s.det.fasttext_model_path = default_fasttext_model();
  if (!s.memory_probe.empty()) return memory_probe(s);

  // 1. Detectors, loaded first: the built-in model's load time is the first default_model() call.
  std::vector<entrant> entrants;
  std::vector<std::string> skipped;
  if (const int rc = load_entrants(s, entrants, skipped); rc != 0) return rc;

  // 2. Documents.
  corpus c;
  std::string error;
  if (!load_corpus(s.inputs, s.max_docs, c, error)) return cli::fail(kProgram, error);
  if (c.docs.empty())
    return cli::fail(kProgram, "no documents in " + join(s.inputs, ", ") +
                                   " (empty, or only empty lines/files): nothing to measure");

  // 3. Threads and per-thread detector state.
  const unsigned max_threads = *std::max_element(s.threads.begin(), s.threads.end());
  thread_pool pool(max_threads);
  for (entrant& e : entrants) {
    e.slots.resize(max_threads);
    for (auto& slot : e.slots) slot.w = e.loaded.det->make_worker();
    e.pass_seconds.assign(s.threads.size(), {});
  }
  pipeline p;
  p.html = s.html;
  p.ho.main_content = s.main_content;
  p.ho.collect_links = s.links;
  const std::int64_t timer_ns = timer_overhead(pool);

  // 4. Check pass, then warm-up and measured repetitions, interleaved.
  const double others = run_passes(s, pool, entrants, c, p, timer_ns);

  // 5. Memory, one child process per detector.
  if (s.memory) {
    for (entrant& e : entrants) {
      measure_memory(s, e);
      if (!e.memory_error.empty())
        std::fprintf(stderr, "%s: %s: memory not measured: %s\n", kProgram, e.loaded.name.c_str(),
                     e.memory_error.c_str());
    }
  }

  // 6. Report.
  int one = -1;
  for (std::size_t i = 0; i < s.threads.size(); ++i)
    if (s.threads[i] == 1) one = static_cast<int>(i);
  const entrant* ls = nullptr;
  for (const entrant& e : entrants)
    if (e.loaded.name == "langsift") ls = &e;
  const report r{s, c, entrants, skipped, timer_ns, others, one, ls, static_cast<double>(c.docs.size()),
                 static_cast<double>(c.bytes) / 1e6};
  if (s.tsv) {
    print_tsv(r);
    return 0;
  }
  print_header(r);
  print_throughput(r);
  print_latency(r);
  print_agreement_and_stages(r);
  std::uint64_t sink = 0;
  for (const entrant& e : entrants)
    for (const auto& slot : e.slots) sink += slot.sink;
  std::fflush(stdout);
  // Every answer is a non-empty code: a zero sink would mean that nothing ran.
  if (sink == 0) return cli::fail(kProgram, "internal error: no document was processed");
  return 0;
}

int main(int argc, char** argv) {
  return langsift::cli::run(kProgram, "lower --max-docs or --threads", [&] { return run_main(argc, argv); });
}
