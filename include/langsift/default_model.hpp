// langsift — the default model, compiled into the library (target langsift::models), so that
// detection works with no file at run time. models/README.md says what it was trained on, with
// which command, and its checksum.
#pragma once

#include "langsift/model.hpp"

#if defined(_WIN32)
#define LANGSIFT_MODELS_API
#else
#define LANGSIFT_MODELS_API __attribute__((visibility("default")))
#endif

namespace langsift {
inline namespace v1 {

/// The built-in model, set up on first use (header and tables checked, well under a millisecond;
/// no copy: the tables are used in place from the library's read-only data, and no checksum is
/// computed over them, as they are part of the library itself — the tests verify it).
/// Thread-safe. If the embedded bytes failed to validate — which the build's tests rule out — the
/// model is empty and detect() reports status::invalid_argument.
LANGSIFT_MODELS_API const model& default_model() noexcept;

/// The raw bytes of the built-in model (e.g. to write it out with `langsift model --dump`).
LANGSIFT_MODELS_API std::string_view default_model_bytes() noexcept;

}  // namespace v1
}  // namespace langsift
