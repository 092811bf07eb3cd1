// langsift — types shared by every stage: the status of a call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

/// Outcome of a library call. The hot path never throws; it reports one of these.
enum class status : std::uint8_t {
  ok = 0,
  empty_input,        ///< nothing to work on (empty, or no text left after extraction)
  invalid_utf8,       ///< input that must be UTF-8 was not; bad sequences were replaced or skipped
  truncated,          ///< input was longer than a configured cap; only a prefix/sample was examined
  unknown_encoding,   ///< a charset label no converter knows
  conversion_error,   ///< the converter failed (not merely replaced bad bytes)
  invalid_argument,   ///< a null pointer with non-zero length, an out-of-range option...
  corrupt_model,      ///< a model file that is truncated, bit-flipped or not a model
  model_version,      ///< a model file of another format version
  io_error,           ///< a file could not be read or written
  out_of_memory,
  internal_error,
  binary_input,       ///< the bytes are not text (control bytes no text encoding explains)
};

/// A short, stable, lowercase name for a status ("ok", "invalid_utf8", ...).
constexpr std::string_view status_name(status s) noexcept {
  switch (s) {
    case status::ok: return "ok";
    case status::empty_input: return "empty_input";
    case status::invalid_utf8: return "invalid_utf8";
    case status::truncated: return "truncated";
    case status::unknown_encoding: return "unknown_encoding";
    case status::conversion_error: return "conversion_error";
    case status::invalid_argument: return "invalid_argument";
    case status::corrupt_model: return "corrupt_model";
    case status::model_version: return "model_version";
    case status::io_error: return "io_error";
    case status::out_of_memory: return "out_of_memory";
    case status::internal_error: return "internal_error";
    case status::binary_input: return "binary_input";
  }
  return "unknown_status";
}

}  // namespace v1
}  // namespace langsift
