// langsift — the library version: the CMake project version, through the generated
// langsift/version_config.hpp (macros LANGSIFT_VERSION_MAJOR, _MINOR, _PATCH and _STRING).
// The model file format versions read and written are in langsift/model.hpp
// (kOldestModelFormatVersion, kModelFormatVersion).
#pragma once

#include "langsift/version_config.hpp"

namespace langsift {
inline namespace v1 {

/// The library version, "MAJOR.MINOR.PATCH".
constexpr const char* version() noexcept { return LANGSIFT_VERSION_STRING; }

}  // namespace v1
}  // namespace langsift
