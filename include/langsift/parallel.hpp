// langsift — the library's work on threads, for callers with many documents:
//   parallel_for   a batch of n items split into chunks that threads take from a shared counter
//                  (the Python package's detect_many);
//   ordered_pool   a stream: items handed in one by one, worked on by threads, their results handed
//                  out in input order, with at most a fixed number in flight (`langsift warc -j`).
// A model or detector is immutable once loaded, so the work functions may share one. Not included
// by <langsift.hpp>: include it where threads are wanted.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace langsift {
inline namespace v1 {

/// Thrown when a thread cannot be started (the system's limit on threads, or no memory for a
/// thread's stack): a std::bad_alloc, so callers report "out of memory" (Python: MemoryError). The
/// threads already started have been stopped and joined; none of the work is known to be done.
class thread_start_error : public std::bad_alloc {
 public:
  explicit thread_start_error(unsigned wanted) noexcept : wanted_(wanted) {}
  const char* what() const noexcept override { return "out of memory: cannot start a thread"; }
  unsigned wanted() const noexcept { return wanted_; }  ///< how many threads were asked for

 private:
  unsigned wanted_;
};

/// Calls fn(i) for every i in [0, n) on at most `threads` threads (0: the hardware's), the
/// caller's thread being one of them, each taking `chunk` consecutive indices at a time. No more
/// threads are started than give each at least `min_per_thread` items. If fn throws, the items not
/// yet started are not run, and the first exception is rethrown once every thread has stopped.
/// If a thread cannot be started, throws thread_start_error once the others have stopped.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, std::size_t chunk, std::size_t min_per_thread, Fn&& fn) {
  if (n == 0) return;
  chunk = std::max<std::size_t>(chunk, 1);
  min_per_thread = std::max<std::size_t>(min_per_thread, 1);
  const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  const auto nt = static_cast<unsigned>(std::min<std::size_t>(wanted, (n + min_per_thread - 1) / min_per_thread));
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  auto work = [&] {
    try {
      for (;;) {
        const std::size_t b = next.fetch_add(chunk, std::memory_order_relaxed);
        if (b >= n) return;
        const std::size_t e = std::min(n, b + chunk);
        for (std::size_t i = b; i < e; ++i) fn(i);
      }
    } catch (...) {
      next.store(n, std::memory_order_relaxed);
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  if (nt <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    bool started = true;
    try {
      pool.reserve(nt - 1);
      for (unsigned k = 1; k < nt; ++k) pool.emplace_back(work);
    } catch (...) {  // no memory for another thread (std::system_error) or for the vector
      started = false;
      next.store(n, std::memory_order_relaxed);  // the threads started stop at their next chunk
    }
    if (started) work();
    for (auto& t : pool) t.join();
    if (!started) throw thread_start_error(nt);
  }
  if (error) std::rethrow_exception(error);
}

/// Items of type In are submitted one by one; `work(In&) -> Out` runs on `threads` worker threads
/// (with threads <= 1, in submit() on the caller's thread); `sink(Out&)` gets every result in the
/// order its item was submitted, one at a time, on whichever thread completes the next one in
/// order. submit() waits while `max_in_flight` items are submitted but not yet sunk, so memory is
/// bounded by that many items and results. An exception from work or sink stops the pool: the
/// items not yet worked on are dropped, and the first exception is rethrown by submit() or finish().
/// finish() waits for every submitted item and joins the threads; the destructor calls it, dropping
/// a pending exception (call finish() to see it). The constructor throws thread_start_error when a
/// worker thread cannot be started.
template <class In, class Out>
class ordered_pool {
 public:
  template <class Work, class Sink>
  ordered_pool(unsigned threads, std::size_t max_in_flight, Work work, Sink sink)
      : work_(std::move(work)), sink_(std::move(sink)), max_in_flight_(std::max<std::size_t>(max_in_flight, 1)) {
    if (threads > 1) {
      try {
        workers_.reserve(threads);
        for (unsigned t = 0; t < threads; ++t) workers_.emplace_back([this] { run_worker(); });
      } catch (...) {  // the threads started are stopped and joined before the error leaves
        {
          std::lock_guard lock(m_);
          stopped_ = true;
          work_ready_.notify_all();
        }
        for (auto& w : workers_) w.join();
        throw thread_start_error(threads);
      }
    }
  }
  ordered_pool(const ordered_pool&) = delete;
  ordered_pool& operator=(const ordered_pool&) = delete;
  ~ordered_pool() {
    try {
      finish();
    } catch (...) {  // reported only to a caller of finish()
    }
  }

  void submit(In item) {
    std::unique_lock lock(m_);
    room_.wait(lock, [&] { return in_flight_ < max_in_flight_ || stopped_; });
    rethrow_locked();
    const std::uint64_t seq = admitted_++;
    ++in_flight_;
    if (workers_.empty()) {
      lock.unlock();
      complete(seq, [&] { return work_(item); });
      lock.lock();
      rethrow_locked();
      return;
    }
    queue_.emplace_back(seq, std::move(item));
    work_ready_.notify_one();
  }

  void finish() {
    {
      std::unique_lock lock(m_);
      closed_ = true;
      work_ready_.notify_all();
      room_.wait(lock, [&] { return in_flight_ == 0 || stopped_; });
    }
    for (auto& t : workers_) t.join();
    workers_.clear();
    std::lock_guard lock(m_);
    rethrow_locked();
  }

 private:
  void run_worker() {
    for (;;) {
      std::unique_lock lock(m_);
      work_ready_.wait(lock, [&] { return closed_ || stopped_ || !queue_.empty(); });
      if (stopped_ || queue_.empty()) return;
      std::pair<std::uint64_t, In> job = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      complete(job.first, [&] { return work_(job.second); });
    }
  }

  /// Works on item `seq` and sinks every result that is next in order.
  template <class Make>
  void complete(std::uint64_t seq, Make&& make) {
    std::optional<Out> out;
    std::exception_ptr error;
    try {
      out.emplace(make());
    } catch (...) {
      error = std::current_exception();
    }
    // Handed over after the handler has ended: this thread's hold on the exception is released
    // before the mutex publishes it, so the thread that rethrows it may be the one to free it
    // (the runtime's reference count is invisible to TSan, which saw a race otherwise).
    if (error) {
      fail(std::move(error));
      return;
    }
    std::lock_guard lock(m_);
    if (stopped_) return;
    ready_.emplace(seq, std::move(*out));
    try {
      while (!ready_.empty() && ready_.begin()->first == next_) {
        sink_(ready_.begin()->second);
        ready_.erase(ready_.begin());
        ++next_;
        --in_flight_;
      }
    } catch (...) {
      stop_locked(std::current_exception());
    }
    room_.notify_all();
  }

  void fail(std::exception_ptr e) {
    std::lock_guard lock(m_);
    stop_locked(std::move(e));
  }

  void stop_locked(std::exception_ptr e) {
    if (!stopped_) error_ = std::move(e);
    stopped_ = true;
    queue_.clear();
    work_ready_.notify_all();
    room_.notify_all();
  }

  /// After an error: the first call rethrows it, later ones say the pool has stopped.
  void rethrow_locked() {
    if (!stopped_) return;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    throw std::runtime_error("langsift::ordered_pool: stopped by an earlier error");
  }

  std::function<Out(In&)> work_;
  std::function<void(Out&)> sink_;
  const std::size_t max_in_flight_;
  std::mutex m_;
  std::condition_variable work_ready_, room_;
  std::deque<std::pair<std::uint64_t, In>> queue_;
  std::map<std::uint64_t, Out> ready_;
  std::uint64_t admitted_ = 0, next_ = 0;
  std::size_t in_flight_ = 0;
  bool closed_ = false;
  bool stopped_ = false;        ///< an error happened: no more work
  std::exception_ptr error_;    ///< the first error, until rethrown
  std::vector<std::thread> workers_;
};

}  // namespace v1
}  // namespace langsift
