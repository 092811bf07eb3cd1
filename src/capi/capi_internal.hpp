// Shared by the translation units of the C ABI (kept apart so that each includes only the
// stages it needs).
#pragma once

#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "langsift.h"
#include "langsift/common.hpp"
#include "langsift/model.hpp"

struct langsift_detector {
  langsift::model owned;                  // a model loaded from a file or memory
  const langsift::model* m = nullptr;     // owned or the built-in one
  std::vector<std::string> code_storage;  // NUL-terminated copies of the model's codes
};

namespace langsift::capi {

inline langsift_status to_c(langsift::status s) noexcept { return static_cast<langsift_status>(s); }

template <std::size_t N>
inline void copy_string(char (&dst)[N], std::string_view src) noexcept {
  const std::size_t n = src.size() < N - 1 ? src.size() : N - 1;
  if (n) std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

/// The string in a fixed array filled by a C caller: up to its first NUL, never past its end.
template <std::size_t N>
inline std::string_view array_string(const char (&src)[N]) noexcept {
  return {src, strnlen(src, N)};
}

/// A caller's entry count for a result of 3 entries, clamped to 0..3.
inline int clamp_count(int n) noexcept { return n < 0 ? 0 : n > 3 ? 3 : n; }

/// A NUL-terminated message into a caller's buffer (truncated to fit); nothing when null or empty.
inline void copy_message(char* error, std::size_t error_size, std::string_view msg) noexcept {
  if (!error || error_size == 0) return;
  const std::size_t n = msg.size() < error_size - 1 ? msg.size() : error_size - 1;
  if (n) std::memcpy(error, msg.data(), n);
  error[n] = '\0';
}

/// Inside a catch handler: the status of the exception in flight.
inline langsift_status exception_status() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return LANGSIFT_OUT_OF_MEMORY;
  } catch (...) {
    return LANGSIFT_INTERNAL_ERROR;
  }
}

/// The frame of every constructor of the C ABI: *out is NULL unless `make()` (which sets it and
/// returns LANGSIFT_OK, or writes a message and returns another status) succeeds; a NULL out is
/// INVALID_ARGUMENT; nothing escapes (out of memory and anything else become statuses with a
/// message).
template <class T, class Make>
langsift_status guarded_new(T** out, char* error, std::size_t error_size, Make&& make) noexcept {
  if (!out) {
    copy_message(error, error_size, "out is NULL");
    return LANGSIFT_INVALID_ARGUMENT;
  }
  *out = nullptr;
  try {
    return make();
  } catch (const std::bad_alloc&) {
    copy_message(error, error_size, "out of memory");
    return LANGSIFT_OUT_OF_MEMORY;
  } catch (...) {
    copy_message(error, error_size, "internal error");
    return LANGSIFT_INTERNAL_ERROR;
  }
}

}  // namespace langsift::capi
