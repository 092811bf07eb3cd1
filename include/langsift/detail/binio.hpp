// langsift — the binary-file layer of the three file formats (model, URL model, frontier state):
// the host byte-order check, fixed-width little-endian values, and reading a whole file. Included
// only by implementation files.
//
// Every langsift file is little-endian. Values are copied with memcpy (in host order), which is
// the file's order on a little-endian host; a reader therefore calls host_order() first and
// rejects a big-endian host with status::unsupported_platform, once, instead of each codec
// swapping bytes (no big-endian host is supported).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <sys/stat.h>  // fstat: the size of a file to read

#include "langsift/common.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace binio {

/// Whether the host stores integers and floats little-endian, as langsift files are written.
inline constexpr bool host_little_endian = std::endian::native == std::endian::little;

/// Whether a host of this byte order can read and write langsift files: ok when `little_endian`,
/// else unsupported_platform (the argument lets a test decide for a simulated big-endian host).
constexpr status host_order(bool little_endian = host_little_endian) noexcept {
  return little_endian ? status::ok : status::unsupported_platform;
}

/// Whether [at, at + n) lies within a buffer of `size` bytes (no overflow for any values: sizes
/// and offsets read from a file are checked with it before use).
constexpr bool fits(std::uint64_t size, std::uint64_t at, std::uint64_t n) noexcept { return at <= size && n <= size - at; }

/// The value of type T stored at p (little-endian on the hosts host_order() accepts).
template <class T>
inline T get(const void* p) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Stores v at p (see get).
template <class T>
inline void put_at(void* p, T v) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(p, &v, sizeof v);
}

/// Appends v to out (see get). May throw std::bad_alloc.
template <class T>
inline void put(std::string& out, T v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out.append(b, sizeof v);
}

/// Sets *message to the concatenation of the parts when message is not null (a failure to
/// allocate leaves it as it was).
inline void set_message(std::string* message, std::initializer_list<std::string_view> parts) noexcept {
  if (!message) return;
  try {
    std::string m;
    for (std::string_view x : parts) m.append(x);
    *message = std::move(m);
  } catch (...) {
  }
}

/// Reads the whole file `path` into `out`. Returns ok, io_error (cannot open or read, or larger
/// than max_bytes: no langsift file is) or out_of_memory; on failure `message` (optional)
/// receives `what` + path + ": cannot open" (": read error or not a langsift file", ": out of memory").
/// With a `magic`, reading stops as soon as the bytes read so far disagree with it: `out` then
/// holds that prefix and the caller's parser rejects it as it would such a file. So a device or a
/// pipe of junk (/dev/zero, /dev/urandom) is refused after one read, not read to max_bytes.
inline status read_file(const std::string& path, std::string& out, std::size_t max_bytes, std::string_view what,
                        std::string* message, std::string_view magic = {}) noexcept {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    set_message(message, {what, path, ": cannot open"});
    return status::io_error;
  }
  bool ok = true;
  try {
    out.clear();
    // A regular file's size is known: one allocation of it, not a doubling string whose
    // reallocations hold two copies at once (the peak memory of loading a model).
    struct stat st {};
    if (::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        static_cast<std::uint64_t>(st.st_size) <= max_bytes)
      out.reserve(static_cast<std::size_t>(st.st_size));
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
      out.append(buf, n);
      const std::size_t head = std::min(out.size(), magic.size());
      if (std::memcmp(out.data(), magic.data(), head) != 0) break;  // not this format: the parser says so
      if (out.size() > max_bytes) {  // stop reading junk
        ok = false;
        break;
      }
    }
    if (std::ferror(f)) ok = false;
  } catch (const std::bad_alloc&) {
    std::fclose(f);
    set_message(message, {what, path, ": out of memory"});
    return status::out_of_memory;
  }
  std::fclose(f);
  if (!ok) {
    set_message(message, {what, path, ": read error or not a langsift file"});
    return status::io_error;
  }
  return status::ok;
}

}  // namespace binio
}  // namespace detail
}  // namespace v1
}  // namespace langsift
