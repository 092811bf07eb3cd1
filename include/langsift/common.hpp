// langsift — types shared by every stage: the status of a call, and the error contract.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "langsift/config.hpp"

namespace langsift {
inline namespace v1 {

// The error contract (every public API follows it):
// - Outcome: a call that can fail reports one `status` below, as its return value or as the
//   field `st` of the result struct it fills; every such result has `is_ok()` (st == ok). Some
//   statuses come with an answer (truncated, invalid_utf8, empty_input, binary_input: what was
//   done); each result's `st` says which it can hold.
// - Loaders: models, URL models and frontier state files are read by one shape,
//   `static status load_file(const std::string& path, T& out, std::string* message = nullptr)`
//   and `static status load_copy(std::string_view bytes, T& out, std::string* message = nullptr)`:
//   `out` is replaced on ok only; `message` (optional) receives a reason for people on failure.
// - noexcept: a function is noexcept when it does not allocate (lookups such as status_name,
//   canonical_encoding_name, split_domain, the model's accessors), or when it is an entry point
//   that catches std::bad_alloc and reports status::out_of_memory (the loaders, the frontier's
//   save_file, url_classifier::classify, convert_to_utf8, detect_page; the C ABI catches
//   everything).
//   Every other function that allocates (detect, extract_html, detect_encoding, parse_url, the
//   builders and savers, functions returning strings or vectors) may throw std::bad_alloc, and
//   nothing else. None throws for bad input: that is a status. Two exceptions, both outside
//   detection: the model builder (train.hpp's build_model) throws std::invalid_argument for a
//   training configuration the file format cannot hold, with the reason; parallel.hpp's
//   parallel_for and ordered_pool pass on what the caller's own functions throw.
// - Other enums (url_decision, warc_status, inflate_status, body_status) carry more detail than a
//   status; those that can mean failure have to_status() onto this enum.

/// Outcome of a library call. The hot path never throws; it reports one of these. The values are
/// ABI (langsift.h mirrors them): new ones are appended.
enum class status : std::uint8_t {
  ok = 0,
  empty_input,        ///< nothing to work on (empty, or no text left after extraction)
  invalid_utf8,       ///< input that must be UTF-8 was not; bad sequences were replaced or skipped
  truncated,          ///< input was longer than a configured cap; only a prefix/sample was examined
  unknown_encoding,   ///< a charset label no converter knows
  conversion_error,   ///< the converter failed (not merely replaced bad bytes)
  invalid_argument,   ///< a null pointer with non-zero length, an out-of-range option...
  corrupt_model,      ///< a model file that is truncated, bit-flipped or not a model
  model_version,      ///< a model or frontier state file of another format version
  io_error,           ///< a file could not be read or written
  out_of_memory,
  internal_error,
  binary_input,       ///< the bytes are not text (control bytes no text encoding explains)
  corrupt_state,      ///< a frontier state file that is truncated, bit-flipped or not a state file
  unsupported_platform,  ///< a binary file format this host cannot read (a big-endian host)
  too_large,          ///< over a size cap the caller set (a model larger than its max_bytes): refused, not read
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
    case status::corrupt_state: return "corrupt_state";
    case status::unsupported_platform: return "unsupported_platform";
    case status::too_large: return "too_large";
  }
  return "unknown_status";
}

}  // namespace v1
}  // namespace langsift
