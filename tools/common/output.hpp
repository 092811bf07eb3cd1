// What the tools write, and how they end: every tool's main() runs its body through run(), which
//  - keeps the standard descriptors 0, 1 and 2 open (a closed one is opened on /dev/null the wrong
//    way round, so that a file the tool opens cannot take its number, and writing to a closed
//    stdout fails with EBADF instead of going into that file);
//  - turns std::bad_alloc into "PROGRAM: out of memory (...)", naming the tool's own options that
//    bound memory, and exit status 1;
//  - flushes and closes stdout, so that a write error on it (/dev/full, a full disk, a closed
//    stdout) is "PROGRAM: write error on stdout: REASON" and exit status 1, never a silent 0.
// Files named by options (-o, --stats-file, --tsv...) go through atomic_output: a temporary file
// beside the target, renamed into place once complete. SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ
// remove the temporary files before the signal ends the process (the shell's $? is then 128 + the
// signal's number: 130 for SIGINT, 143 for SIGTERM).
//
// Only the C library and the C++ standard library are used: the table generators of tools/gen,
// which do not link langsift, use this header too.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <initializer_list>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

namespace langsift::cli {

/// Opens /dev/null on each of the descriptors 0, 1 and 2 that is closed: 0 write-only, 1 and 2
/// read-only, so that reading a closed stdin or writing a closed stdout fails (EBADF) as it would
/// have, while a file opened later cannot become the tool's stdout.
inline void keep_standard_descriptors() noexcept {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int n = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (n >= 0 && n != fd) {
      ::dup2(n, fd);
      ::close(n);
    }
  }
}

namespace detail {
inline std::atomic<bool> g_stdout_error_reported{false};
inline std::atomic<int> g_stdout_errno{0};  // why the first failed write_stdout() failed

inline void print_stdout_error(std::string_view program, int e) noexcept {
  if (!e) e = g_stdout_errno.load();
  if (!g_stdout_error_reported.exchange(true))
    std::fprintf(stderr, "%.*s: write error on stdout%s%s\n", static_cast<int>(program.size()), program.data(),
                 e ? ": " : "", e ? std::strerror(e) : "");
}
}  // namespace detail

/// Writes `s` to stdout; false when the write failed (stdout_failed() then says why).
inline bool write_stdout(std::string_view s) noexcept {
  errno = 0;
  if (std::fwrite(s.data(), 1, s.size(), stdout) == s.size()) return true;
  int none = 0;
  detail::g_stdout_errno.compare_exchange_strong(none, errno ? errno : EIO);
  return false;
}

/// True when a write to stdout has failed; then "PROGRAM: write error on stdout: REASON" is printed
/// (once per process, whichever thread asks first). `flush`: flush stdout first — at the end of
/// the output, so that the last buffered bytes count. Loops that write much call it without
/// flushing after each record, and stop when it says true.
inline bool stdout_failed(std::string_view program, bool flush = false) noexcept {
  int e = 0;
  if (flush && std::fflush(stdout) != 0) e = errno;
  if (!std::ferror(stdout)) return false;
  if (!e && std::fflush(stdout) != 0) e = errno;  // what is left in the buffer says why
  detail::print_stdout_error(program, e);
  return true;
}

/// Flushes and closes stdout at the end of a tool; false (after printing the error, unless it was
/// printed before) when any write to it failed.
inline bool close_stdout(std::string_view program) noexcept {
  if (stdout_failed(program, true)) return false;
  errno = 0;
  if (std::fclose(stdout) == 0) return true;  // NFS and the like report write errors only here
  detail::print_stdout_error(program, errno);
  return false;
}

// ---------------------------------------------------------------------------------------------
// Temporary files removed on a fatal signal.

namespace detail {

/// The temporary files being written, and the directories made for them that are to go if the
/// output is abandoned, for the signal handler: fixed slots (no allocation, no lock), each free
/// (0), being filled (1), holding a file's path (2) or a directory's (3). 512 slots: `langsift
/// warc -o 'out/{language}.jsonl'` has a file per language met (and maybe a directory).
struct temp_registry {
  static constexpr int kSlots = 512;
  static constexpr std::size_t kPathMax = 4096;
  std::atomic<int> state[kSlots] = {};
  char path[kSlots][kPathMax] = {};
};

inline temp_registry& temps() noexcept {
  static temp_registry r;
  return r;
}

inline std::atomic<bool> g_temp_handlers_installed{false};

inline void remove_temps_and_die(int sig) {
  temp_registry& r = temps();
  for (int i = 0; i < temp_registry::kSlots; ++i)
    if (r.state[i].load() == 2) ::unlink(r.path[i]);
  // Then the directories, the files gone: a pass per level of nesting (rmdir fails on one that
  // still holds a directory; a directory that holds anything else stays).
  for (int pass = 0; pass < 8; ++pass)
    for (int i = 0; i < temp_registry::kSlots; ++i)
      if (r.state[i].load() == 3) ::rmdir(r.path[i]);
  // The handler was installed with SA_RESETHAND: raised again, the signal takes its default
  // action once this handler returns, and the process ends by it as it would have.
  ::raise(sig);
}

inline void install_temp_handlers() noexcept {
  if (g_temp_handlers_installed.exchange(true)) return;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // ignored stays ignored
    struct sigaction sa {};
    sa.sa_handler = remove_temps_and_die;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    ::sigaction(sig, &sa, nullptr);
  }
}

/// Registers `path` for removal on a fatal signal (`directory`: an empty directory, removed after
/// the files); the slot, or -1 when there is none (too many temporary files at once, or a path too
/// long: such a file is then only removed on the ordinary paths).
inline int register_temp(const std::string& path, bool directory = false) noexcept {
  install_temp_handlers();
  if (path.size() >= temp_registry::kPathMax) return -1;
  temp_registry& r = temps();
  for (int i = 0; i < temp_registry::kSlots; ++i) {
    int free_slot = 0;
    if (!r.state[i].compare_exchange_strong(free_slot, 1)) continue;
    std::memcpy(r.path[i], path.c_str(), path.size() + 1);
    r.state[i].store(directory ? 3 : 2);
    return i;
  }
  return -1;
}

inline void unregister_temp(int slot) noexcept {
  if (slot >= 0) temps().state[slot].store(0);
}

}  // namespace detail

/// A file written whole or not at all: what is written goes to a temporary file beside `path`
/// (same directory, so the rename stays on one file system), which replaces `path` only when
/// commit() has flushed it to disk (fsync) and renamed it. A failed write, an output abandoned
/// without commit(), or a fatal signal (see above) removes the temporary file and leaves any
/// previous `path` as it was. "-" is stdout, and a `path` that exists but is not a regular file
/// (/dev/null, /dev/stdout, a FIFO) is written directly: a rename would replace the device or pipe
/// with a file. A symbolic link is followed: the file it names is replaced, the link stays. Every
/// file the tools write goes through this (langsift-train's models, `langsift warc --stats-file`,
/// langsift-eval's reports...).
class atomic_output {
 public:
  explicit atomic_output(std::string path) : path_(std::move(path)) {}
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;
  ~atomic_output() { abandon(); }

  /// Creates the temporary file; false with `error` set when it cannot.
  bool open(std::string& error) {
    if (path_ == "-") {
      f_ = stdout;
      return true;
    }
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      if (S_ISDIR(st.st_mode)) {
        error = path_ + ": is a directory";
        return false;
      }
      if (!(f_ = std::fopen(path_.c_str(), "wb"))) {
        error = path_ + ": cannot open: " + std::strerror(errno);
        return false;
      }
      direct_ = true;
      return true;
    }
    target_ = path_;
    if (char* real = ::realpath(path_.c_str(), nullptr)) {  // an existing file, maybe through links
      target_ = real;
      std::free(real);
    }
    tmp_ = target_ + ".tmp-XXXXXX";
    detail::install_temp_handlers();  // before the file exists
    // The file is created with this thread's signals blocked and registered before they are
    // unblocked (only a signal that another thread takes within these few calls escapes that).
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
    const int fd = ::mkstemp(tmp_.data());
    const int e = errno;
    if (fd >= 0) slot_ = detail::register_temp(tmp_);
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (fd < 0 || !(f_ = ::fdopen(fd, "wb"))) {
      error = path_ + ": cannot create a temporary file beside it: " + std::strerror(fd < 0 ? e : errno);
      if (fd >= 0) ::close(fd);
      else tmp_.clear();  // nothing was created: nothing to remove
      remove_temp();
      return false;
    }
    // A file that appears only when it is whole is written in 64 KB blocks (stdio's 4 KB buffer
    // made a write call or two per line of text: 1,200 for 600 pages). Not more: one output per
    // language (-o 'out/{language}.jsonl') holds one buffer per file open; 1 MB buffers took
    // 100 files' peak RSS from 30 to 114 MB, and a single output was no faster with them.
    vbuf_.reset(new (std::nothrow) char[kFileBuffer]);
    if (vbuf_) std::setvbuf(f_, vbuf_.get(), _IOFBF, kFileBuffer);
    return true;
  }
  std::FILE* file() const noexcept { return f_; }

  /// Writes `data`; false when the write failed (commit() then fails too, and says why).
  bool write(std::string_view data) {
    if (!f_) return false;
    if (f_ == stdout) return write_stdout(data);
    errno = 0;
    if (std::fwrite(data.data(), 1, data.size(), f_) == data.size()) return true;
    if (!errno_) errno_ = errno ? errno : EIO;
    return false;
  }
  /// True once a write has failed (to stop producing output that cannot be written).
  bool failed() const noexcept { return f_ && std::ferror(f_); }

  /// Flushes, syncs and renames into place; false with `error` set (and `path` untouched) when any
  /// step fails, a write error before it included. finish() then publish() do the same in two
  /// steps, for outputs that are to replace their files together (every file finished before any
  /// is renamed).
  bool commit(std::string& error) { return finish(error) && publish(error); }

  /// All of commit() but the rename: flushes, syncs and closes the temporary file (stdout and a
  /// file written directly are done with then); false with `error` set, the temporary file
  /// removed, when a step fails.
  bool finish(std::string& error) {
    if (!f_) {
      error = path_ + ": not open";
      return false;
    }
    if (f_ == stdout) {
      f_ = nullptr;
      errno = 0;
      const bool flushed = std::fflush(stdout) == 0;
      if (!flushed || std::ferror(stdout)) {
        error = "write error on stdout" + reason(flushed ? detail::g_stdout_errno.load() : errno);
        detail::g_stdout_error_reported = true;  // the caller prints `error`
        return false;
      }
      return true;
    }
    if (direct_) {
      errno = 0;
      const bool ok = std::fflush(f_) == 0 && !std::ferror(f_);
      const int e = errno_ ? errno_ : errno;
      const bool closed = std::fclose(f_) == 0;
      f_ = nullptr;
      if (!ok || !closed) {
        error = path_ + ": write error" + reason(e);
        return false;
      }
      return true;
    }
    const mode_t mask = ::umask(0);  // the mode a plain fopen would have given
    ::umask(mask);
    errno = 0;
    bool ok = std::fflush(f_) == 0 && !std::ferror(f_);
    ok = ok && ::fchmod(::fileno(f_), 0666 & ~mask) == 0;
    ok = ok && ::fsync(::fileno(f_)) == 0;
    const int e = errno_ ? errno_ : errno;
    ok = (std::fclose(f_) == 0) && ok;
    f_ = nullptr;
    if (!ok) {
      error = path_ + ": write error" + reason(e) + " (the file was left as it was)";
      abandon();
      return false;
    }
    return true;
  }

  /// Renames the temporary file that finish() completed into place (nothing to do for stdout and
  /// a file written directly); false with `error` set, the temporary file removed, when it cannot.
  bool publish(std::string& error) {
    if (tmp_.empty()) return true;
    if (f_) {  // (not finished: a caller's mistake, not the file's)
      error = path_ + ": not finished";
      return false;
    }
    if (std::rename(tmp_.c_str(), target_.c_str()) != 0) {
      error = path_ + ": cannot rename the written file into place: " + std::strerror(errno);
      abandon();
      return false;
    }
    detail::unregister_temp(slot_);  // after the rename: a signal before it removes the file
    slot_ = -1;
    tmp_.clear();
    return true;
  }

  /// Gives the output up: the temporary file is closed and removed, `path` left as it was.
  void abandon() noexcept {
    if (f_ && f_ != stdout) std::fclose(f_);
    f_ = nullptr;
    remove_temp();
  }

 private:
  static std::string reason(int e) { return e ? std::string(": ") + std::strerror(e) : std::string(); }

  void remove_temp() noexcept {
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    detail::unregister_temp(slot_);
    slot_ = -1;
    tmp_.clear();
  }


  std::string path_, target_, tmp_;  // target_: path_ with its symbolic links resolved
  static constexpr std::size_t kFileBuffer = std::size_t{1} << 16;
  std::FILE* f_ = nullptr;
  std::unique_ptr<char[]> vbuf_;  ///< f_'s buffer (a temporary file's), freed after f_ is closed
  bool direct_ = false;  // not a regular file: written in place
  int slot_ = -1;        // in the signal handler's registry
  int errno_ = 0;        // of the first failed write
};

/// Writes `data` to `path` through atomic_output.
inline bool write_file_atomic(const std::string& path, std::string_view data, std::string& error) {
  atomic_output out(path);
  if (!out.open(error)) return false;
  out.write(data);
  return out.commit(error);
}

// ---------------------------------------------------------------------------------------------

/// Runs a tool's body (see the top of this file) and returns the exit status: the body's, or 1
/// when memory ran out or stdout could not be written. `memory_hint`: what lowers the tool's
/// memory, e.g. "lower --max-input-bytes" (null: only "give the process more memory").
template <class F>
int run(std::string_view program, const char* memory_hint, F&& body) noexcept {
  keep_standard_descriptors();
  int rc;
  try {
    rc = body();
  } catch (const std::bad_alloc&) {  // the message is not allocated: memory is short
    std::fprintf(stderr, "%.*s: out of memory (give the process more memory%s%s)\n", static_cast<int>(program.size()),
                 program.data(), memory_hint ? ", or " : "", memory_hint ? memory_hint : "");
    rc = 1;
  }
  if (!close_stdout(program) && rc == 0) rc = 1;
  return rc;
}

}  // namespace langsift::cli
