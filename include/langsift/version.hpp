// langsift — version of the library and of the model file format it reads.
#pragma once

#include "langsift/version_config.hpp"

namespace langsift {
inline namespace v1 {

/// The library version, "MAJOR.MINOR.PATCH".
constexpr const char* version() noexcept { return LANGSIFT_VERSION_STRING; }

}  // namespace v1
}  // namespace langsift
