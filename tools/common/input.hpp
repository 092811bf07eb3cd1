// The input files of the `langsift` command: plain, gzip or zstd, told apart by their first bytes
// (never by their name), and decompressed as they are read — streamed: memory stays bounded by a
// buffer and the decompressor's window, whatever the size of the file or of its content.
//
//   gzip  1f 8b 08 (a gzip member; any number of members one after the other, as `cat a.gz b.gz`
//         makes them, are one stream, as gzip -d reads them)
//   zstd  28 b5 2f fd (a zstd frame) or 5? 2a 4d 18 (a skippable frame); any number of frames
//
// No text starts with those bytes (0x1f is a control character; "(µ/ý" is no text either), so a
// file holding them is a compressed file, whatever it is called: `langsift detect page.html` of a
// page saved as a server sent it with Content-Encoding: gzip reads the page. Corrupt or truncated
// compressed data ends the content where it went wrong: what came before it is the content, and
// input_file::malformed() says what happened (the tools report it and exit with status 3, as
// `langsift warc` does for a corrupt gzip member). Caps (--max-input-bytes...) count content
// bytes, after decompression, so that a small file that decompresses to much stays bounded.
//
// Links zlib and libzstd (tools/CMakeLists.txt: the langsift_cli library).
#pragma once

#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

namespace langsift::cli {

enum class compression { none, gzip, zstd };

inline const char* compression_name(compression c) noexcept {
  return c == compression::gzip ? "gzip" : c == compression::zstd ? "zstd" : "none";
}

/// What the first bytes of a file say it is (at least 4 bytes are needed to tell; fewer: none).
inline compression sniff_compression(std::string_view head) noexcept {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  if (head.size() >= 3 && b(0) == 0x1f && b(1) == 0x8b && b(2) == 0x08) return compression::gzip;
  if (head.size() >= 4 && b(0) == 0x28 && b(1) == 0xb5 && b(2) == 0x2f && b(3) == 0xfd) return compression::zstd;
  if (head.size() >= 4 && (b(0) & 0xf0) == 0x50 && b(1) == 0x2a && b(2) == 0x4d && b(3) == 0x18) return compression::zstd;
  return compression::none;
}

/// One input of a tool: a file, or stdin for "-", read through its decompressor. Not copyable.
class input_file {
 public:
  input_file() = default;
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;
  ~input_file() { close(); }

  /// Opens `path` ("-": stdin) and reads its first bytes to tell what it is. false, with `error`
  /// ("PATH: No such file or directory"), when it cannot be opened or read.
  bool open(const std::string& path, std::string& error) {
    close();
    path_ = path;
    f_ = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!f_) {
      error = path + ": " + std::strerror(errno);
      return false;
    }
    struct stat st {};
    if (::fstat(::fileno(f_), &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<std::uint64_t>(st.st_size);
    if (!raw_.get()) raw_.reset(new char[kRawBuffer]);
    // Enough bytes to tell the format (a pipe may give them in pieces).
    while (raw_end_ < 4 && fill()) {
    }
    if (read_error_) {
      error = path + ": read error: " + std::strerror(read_errno_);
      return false;
    }
    kind_ = sniff_compression(std::string_view(raw_.get(), raw_end_));
    if (kind_ == compression::gzip) {
      z_ = std::make_unique<z_stream>();
      std::memset(z_.get(), 0, sizeof(z_stream));
      if (inflateInit2(z_.get(), 15 + 16) != Z_OK) throw std::bad_alloc();  // gzip only
    } else if (kind_ == compression::zstd) {
      zs_ = ZSTD_createDStream();
      if (!zs_) throw std::bad_alloc();
    }
    return true;
  }

  /// Up to `n` bytes of the content (decompressed); 0 at its end, after a read error (failed())
  /// or where compressed data went wrong (malformed()).
  std::size_t read(char* buf, std::size_t n) {
    if (!f_ || done_ || n == 0) return 0;
    if (kind_ == compression::none) {
      if (raw_pos_ == raw_end_ && !fill()) return finish(0);
      const std::size_t k = std::min(n, raw_end_ - raw_pos_);
      std::memcpy(buf, raw_.get() + raw_pos_, k);
      raw_pos_ += k;
      return k;
    }
    // Decompressed into a buffer of a fixed size first, so that what comes out (up to corrupt
    // data, too) does not depend on the sizes the caller reads in.
    if (out_pos_ == out_end_) {
      if (!out_.get()) out_.reset(new char[kOutBuffer]);
      out_pos_ = 0;
      out_end_ = kind_ == compression::gzip ? read_gzip(out_.get(), kOutBuffer) : read_zstd(out_.get(), kOutBuffer);
      if (out_end_ == 0) return 0;
    }
    const std::size_t k = std::min(n, out_end_ - out_pos_);
    std::memcpy(buf, out_.get() + out_pos_, k);
    out_pos_ += k;
    return k;
  }

  /// Bytes of the file read so far (compressed bytes, for progress against size()).
  std::uint64_t raw_bytes() const noexcept { return raw_total_; }
  /// The file's size when it is a regular file, else 0.
  std::uint64_t size() const noexcept { return size_; }
  compression kind() const noexcept { return kind_; }
  const std::string& path() const noexcept { return path_; }
  /// The file could not be read (an I/O error): error() says why.
  bool failed() const noexcept { return read_error_; }
  /// The compressed data was corrupt or ended early: error() says what.
  bool malformed() const noexcept { return !problem_.empty() && !read_error_; }
  /// "read error: ...", or "gzip: truncated (the file ends within a member)", "zstd: ...".
  const std::string& error() const noexcept { return problem_; }

  void close() noexcept {
    if (f_ && f_ != stdin) std::fclose(f_);
    f_ = nullptr;
    if (z_) inflateEnd(z_.get());
    z_.reset();
    if (zs_) ZSTD_freeDStream(zs_);
    zs_ = nullptr;
    raw_pos_ = raw_end_ = out_pos_ = out_end_ = 0;
    raw_total_ = size_ = 0;
    done_ = read_error_ = false;
    kind_ = compression::none;
    problem_.clear();
  }

 private:
  static constexpr std::size_t kRawBuffer = 1 << 16;
  static constexpr std::size_t kOutBuffer = 1 << 17;  // ZSTD_DStreamOutSize(): a whole block

  /// Reads more of the file into the raw buffer (moving what is left to its start); false at the
  /// end of the file or on a read error.
  bool fill() {
    if (raw_pos_ > 0) {
      std::memmove(raw_.get(), raw_.get() + raw_pos_, raw_end_ - raw_pos_);
      raw_end_ -= raw_pos_;
      raw_pos_ = 0;
    }
    if (raw_end_ == kRawBuffer || read_error_) return false;
    errno = 0;
    const std::size_t k = std::fread(raw_.get() + raw_end_, 1, kRawBuffer - raw_end_, f_);
    raw_end_ += k;
    raw_total_ += k;
    if (k == 0 && std::ferror(f_)) {
      read_error_ = true;
      read_errno_ = errno ? errno : EIO;
      problem_ = std::string("read error: ") + std::strerror(read_errno_);
    }
    return k > 0;
  }

  std::size_t finish(std::size_t n) {
    if (n == 0) done_ = true;
    return n;
  }
  std::size_t fail(std::string what) {
    if (problem_.empty()) problem_ = std::string(compression_name(kind_)) + ": " + std::move(what);
    done_ = true;
    return 0;
  }

  std::size_t read_gzip(char* buf, std::size_t n) {
    z_stream& z = *z_;
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    const uInt want = z.avail_out;
    while (z.avail_out == want) {
      if (raw_pos_ == raw_end_ && !fill()) {
        if (read_error_) return 0;
        // The end of the file: fine between members, not within one.
        if (in_member_) return fail("truncated (the file ends within a gzip member)");
        return finish(0);
      }
      if (!in_member_) {  // a new member must start here: its magic, or nothing but the end
        if (raw_end_ - raw_pos_ < 3 && !read_error_) {
          const std::size_t before = raw_end_ - raw_pos_;
          fill();
          if (raw_end_ - raw_pos_ == before && before < 3) return fail("trailing bytes after the last gzip member");
          continue;
        }
        if (sniff_compression(std::string_view(raw_.get() + raw_pos_, 3)) != compression::gzip)
          return fail("trailing bytes after the last gzip member (not gzip data)");
        inflateReset(&z);
        in_member_ = true;
      }
      z.next_in = reinterpret_cast<Bytef*>(raw_.get() + raw_pos_);
      z.avail_in = static_cast<uInt>(raw_end_ - raw_pos_);
      const int rc = inflate(&z, Z_NO_FLUSH);
      raw_pos_ = raw_end_ - z.avail_in;
      if (rc == Z_STREAM_END) {
        in_member_ = false;
      } else if (rc == Z_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return fail(std::string("corrupt data (") + (z.msg ? z.msg : "inflate error") + ")");
      }
    }
    return want - z.avail_out;
  }

  std::size_t read_zstd(char* buf, std::size_t n) {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (raw_pos_ == raw_end_ && !fill()) {
        if (read_error_) return 0;
        if (zstd_pending_) {  // the decoder may still hold output of what it was given
          ZSTD_inBuffer in{nullptr, 0, 0};
          const std::size_t r = ZSTD_decompressStream(zs_, &out, &in);
          if (ZSTD_isError(r)) return fail(std::string("corrupt data (") + ZSTD_getErrorName(r) + ")");
          if (out.pos) return out.pos;
          return fail("truncated (the file ends within a zstd frame)");
        }
        return finish(0);
      }
      ZSTD_inBuffer in{raw_.get() + raw_pos_, raw_end_ - raw_pos_, 0};
      const std::size_t r = ZSTD_decompressStream(zs_, &out, &in);
      raw_pos_ += in.pos;
      if (ZSTD_isError(r)) {
        if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) throw std::bad_alloc();
        if (ZSTD_getErrorCode(r) == ZSTD_error_prefix_unknown && !zstd_pending_)
          return fail("trailing bytes after the last zstd frame (not zstd data)");
        if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge)  // as zstd -d refuses it
          return fail("a frame whose window is over 128 MiB (zstd --long=28 or more): refused, to bound memory");
        return fail(std::string("corrupt data (") + ZSTD_getErrorName(r) + ")");
      }
      zstd_pending_ = r != 0;  // 0: a frame was completely decoded and flushed
    }
    return out.pos;
  }

  std::string path_;
  std::FILE* f_ = nullptr;
  std::unique_ptr<char[]> raw_, out_;  // the file's bytes; decompressed bytes
  std::size_t raw_pos_ = 0, raw_end_ = 0, out_pos_ = 0, out_end_ = 0;
  std::uint64_t raw_total_ = 0, size_ = 0;
  compression kind_ = compression::none;
  std::unique_ptr<z_stream> z_;
  ZSTD_DStream* zs_ = nullptr;
  bool in_member_ = false, zstd_pending_ = false, done_ = false, read_error_ = false;
  int read_errno_ = 0;
  std::string problem_;
};

/// Reads an input ("-": stdin) through input_file into `out`: at most `max_bytes` of its content;
/// `truncated` (if given) says whether there was more. False, with `error` set ("PATH: ..."), when
/// it cannot be opened or read; true otherwise — also when compressed data went wrong, which
/// `malformed` (if given) then describes ("PATH: gzip: truncated ...", else empty): `out` holds
/// the content before it.
inline bool read_input(const std::string& path, std::string& out, std::string& error,
                       std::size_t max_bytes = static_cast<std::size_t>(-1), bool* truncated = nullptr,
                       std::string* malformed = nullptr) {
  out.clear();
  if (truncated) *truncated = false;
  if (malformed) malformed->clear();
  input_file in;
  if (!in.open(path, error)) return false;
  // A plain regular file's size is known: one allocation of it, not a doubling string that peaks
  // at up to twice the file.
  if (in.kind() == compression::none && in.size() > 0)
    out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), max_bytes)));
  char buf[1 << 16];
  while (out.size() < max_bytes) {
    const std::size_t n = in.read(buf, std::min(sizeof buf, max_bytes - out.size()));
    if (n == 0) break;
    out.append(buf, n);
  }
  if (out.size() >= max_bytes && truncated) *truncated = in.read(buf, 1) == 1;
  if (in.failed()) {
    error = path + ": " + in.error();
    return false;
  }
  if (in.malformed() && !(truncated && *truncated)) {
    if (malformed) *malformed = (path == "-" ? std::string("stdin") : path) + ": " + in.error();
    else {
      error = path + ": " + in.error();
      return false;
    }
  }
  return true;
}

}  // namespace langsift::cli
