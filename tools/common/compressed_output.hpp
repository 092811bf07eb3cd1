// Output files compressed by their name, for the tools that write large outputs (`langsift warc
// -o`, `--stats-file`): NAME.gz is gzip (zlib level 3: on `langsift warc --schema corpus`'s lines,
// 2.6 times faster than gzip's default 6 for 7.6 % more bytes), NAME.zst is zstd (level 3, zstd's
// default; one frame with its checksum), anything else is written as it is. A compressed file is
// compressed on a thread of its own, beside the work that produces what is written (write() queues
// at most 16 MB); files written together (`langsift warc -o 'out/{language}.jsonl.zst'`, a file per
// language) can share one such thread, a compression_queue. The bytes go through atomic_output
// (common/output.hpp): a temporary file renamed into place once complete, removed on an error or a
// fatal signal; "-" is stdout, never compressed.
//
// Needs zlib and zstd (the tools link them through langsift::warc); common/output.hpp itself
// stays free of them for the table generators.
#pragma once

#include <zlib.h>
#include <zstd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include "common/output.hpp"

namespace langsift::cli {

class compressed_output;

/// What compressed_outputs are given to write, compressed in order on a thread of its own: at most
/// 16 MB queued (push() waits for room). One per compressed file, or one shared by several files;
/// once a file's write has failed, push() refuses everything (the output as a whole has failed).
class compression_queue {
 public:
  compression_queue() = default;
  compression_queue(const compression_queue&) = delete;
  compression_queue& operator=(const compression_queue&) = delete;
  ~compression_queue() { stop(); }

  /// Starts the thread; false with `error` set when it cannot.
  bool start(const std::string& what, std::string& error) {
    try {
      thread_ = std::thread([this] { run(); });
    } catch (const std::system_error& e) {
      error = what + ": cannot start a thread to compress it: " + e.what();
      return false;
    }
    return true;
  }

  /// Queues `data` for `to`; false once a write failed or the queue was stopped.
  bool push(compressed_output& to, std::string&& data) {
    std::unique_lock lock(m_);
    room_.wait(lock, [&] { return queued_ < kMaxQueued || failed_ || closing_; });
    if (failed_ || closing_) return false;
    queued_ += data.size();
    queue_.push_back({&to, std::move(data)});
    ready_.notify_one();
    return true;
  }

  bool failed() const noexcept { return failed_; }

  /// Lets the thread compress what is queued, and joins it (push() refuses from then on).
  void stop() noexcept {
    {
      std::lock_guard lock(m_);
      closing_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run();  // (below compressed_output)

  struct item {
    compressed_output* to;
    std::string data;
  };
  static constexpr std::size_t kMaxQueued = std::size_t{16} << 20;
  std::thread thread_;
  std::mutex m_;
  std::condition_variable ready_, room_;
  std::deque<item> queue_;
  std::size_t queued_ = 0;
  bool closing_ = false;
  std::atomic<bool> failed_{false};
};

class compressed_output {
 public:
  enum class kind { plain, gzip, zstd };

  /// What a file name asks for: ".gz" gzip, ".zst" zstd, otherwise (and "-") plain.
  static kind kind_of(std::string_view path) noexcept {
    auto ends = [&](std::string_view e) { return path.size() > e.size() && path.substr(path.size() - e.size()) == e; };
    if (ends(".gz")) return kind::gzip;
    if (ends(".zst")) return kind::zstd;
    return kind::plain;
  }

  /// `shared`: the queue whose thread compresses this file (null: a thread of its own, started by
  /// open()); it must outlive this file, and be stopped before commit() or finish() (they stop it).
  explicit compressed_output(std::string path, compression_queue* shared = nullptr)
      : out_(path), path_(std::move(path)), kind_(kind_of(path_)), queue_(shared) {}
  compressed_output(const compressed_output&) = delete;
  compressed_output& operator=(const compressed_output&) = delete;
  ~compressed_output() {
    if (queue_) queue_->stop();  // (a shared queue's owner stops it first: this does nothing then)
    end_streams();
  }

  /// Creates the temporary file and the compressor; false with `error` set when it cannot.
  bool open(std::string& error) {
    if (!out_.open(error)) return false;
    if (kind_ == kind::gzip) {
      if (deflateInit2(&z_, 3, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        error = path_ + ": cannot start gzip compression (out of memory?)";
        return false;
      }
      z_live_ = true;
    } else if (kind_ == kind::zstd) {
      zs_ = ZSTD_createCCtx();
      if (!zs_ || ZSTD_isError(ZSTD_CCtx_setParameter(zs_, ZSTD_c_compressionLevel, 3)) ||
          ZSTD_isError(ZSTD_CCtx_setParameter(zs_, ZSTD_c_checksumFlag, 1))) {
        error = path_ + ": cannot start zstd compression (out of memory?)";
        return false;
      }
    }
    if (kind_ != kind::plain && !queue_) {
      own_queue_ = std::make_unique<compression_queue>();
      if (!own_queue_->start(path_, error)) return false;
      queue_ = own_queue_.get();
    }
    return true;
  }

  /// Writes `data` (queued for the compressing thread); false once a write has failed (commit()
  /// then says why).
  bool write(std::string_view data) {
    if (failed_) return false;
    if (kind_ == kind::plain) return ok(out_.write(data));
    return queue_->push(*this, std::string(data));
  }
  bool write(std::string&& data) {
    if (failed_) return false;
    if (kind_ == kind::plain) return ok(out_.write(data));
    return queue_->push(*this, std::move(data));
  }

  /// True once a write has failed (to stop producing output that cannot be written).
  bool failed() const noexcept { return failed_ || (kind_ == kind::plain && out_.failed()); }

  /// Ends the compressed stream, then flushes, syncs and renames into place (atomic_output::commit);
  /// false with `error` set (and the file named untouched) when any step fails.
  bool commit(std::string& error) { return finish(error) && publish(error); }

  /// All of commit() but the rename (atomic_output::finish): what is queued is compressed, the
  /// stream ended, the temporary file flushed, synced and closed.
  bool finish(std::string& error) {
    if (queue_) queue_->stop();  // what is queued is compressed first
    if (!failed_ && kind_ != kind::plain) compress({}, true);
    end_streams();
    if (compress_error_) {
      error = path_ + ": " + compress_error_message_ + " (the file was left as it was)";
      out_.abandon();
      return false;
    }
    return out_.finish(error);
  }
  /// Renames the finished file into place (atomic_output::publish).
  bool publish(std::string& error) { return out_.publish(error); }
  /// Gives the file up: its temporary file is removed, the file named left as it was.
  void abandon() noexcept {
    if (queue_) queue_->stop();
    out_.abandon();
  }

  const std::string& path() const noexcept { return path_; }
  kind compression() const noexcept { return kind_; }

 private:
  friend class compression_queue;

  bool ok(bool written) {
    if (!written) failed_ = true;
    return written;
  }
  // (compress() and fail_compression() run on the compressing thread, or after it was joined.)

  /// Compresses `in` (finishing the stream when `finish`), writing what comes out.
  bool compress(std::string_view in, bool finish) {
    char buf[1 << 16];
    if (kind_ == kind::gzip) {
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z_.avail_in = static_cast<uInt>(in.size());  // (lines are far below 4 GiB)
      for (;;) {
        z_.next_out = reinterpret_cast<Bytef*>(buf);
        z_.avail_out = sizeof buf;
        const int rc = deflate(&z_, finish ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR) return fail_compression("gzip compression failed");
        const std::size_t n = sizeof buf - z_.avail_out;
        if (n && !ok(out_.write(std::string_view(buf, n)))) return false;
        if (finish ? rc == Z_STREAM_END : (z_.avail_in == 0 && z_.avail_out != 0)) return true;
      }
    }
    ZSTD_inBuffer zin{in.data(), in.size(), 0};
    for (;;) {
      ZSTD_outBuffer zout{buf, sizeof buf, 0};
      const std::size_t left = ZSTD_compressStream2(zs_, &zout, &zin, finish ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(left)) return fail_compression(std::string("zstd compression failed: ") + ZSTD_getErrorName(left));
      if (zout.pos && !ok(out_.write(std::string_view(buf, zout.pos)))) return false;
      if (finish ? left == 0 : zin.pos == zin.size) return true;
    }
  }

  bool fail_compression(std::string message) {
    failed_ = compress_error_ = true;
    compress_error_message_ = std::move(message);
    return false;
  }

  void end_streams() noexcept {
    if (z_live_) deflateEnd(&z_);
    z_live_ = false;
    if (zs_) ZSTD_freeCCtx(zs_);
    zs_ = nullptr;
  }

  atomic_output out_;
  std::string path_;
  kind kind_;
  z_stream z_{};
  bool z_live_ = false;
  ZSTD_CCtx* zs_ = nullptr;
  std::atomic<bool> failed_{false};
  bool compress_error_ = false;
  std::string compress_error_message_;
  compression_queue* queue_;                      // compressed kinds: the thread that compresses
  std::unique_ptr<compression_queue> own_queue_;  // ... when it is this file's own
};

/// The compressing thread: what push() queued, in order, until stop(); after a failed write, what
/// is left is dropped.
inline void compression_queue::run() {
  for (;;) {
    item it;
    {
      std::unique_lock lock(m_);
      ready_.wait(lock, [&] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;
      it = std::move(queue_.front());
      queue_.pop_front();
    }
    const bool written = !failed_ && !it.to->failed_ && it.to->compress(it.data, false);
    std::lock_guard lock(m_);
    queued_ -= it.data.size();
    if (!written) {
      failed_ = true;
      it.to->failed_ = true;
    }
    room_.notify_all();
  }
}

}  // namespace langsift::cli
