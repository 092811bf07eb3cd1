// The tools' JSON output is the library's (langsift/impl/json.hpp), so that the command-line
// tools, the WARC report and the Python package write the same fields.
#pragma once

#include "langsift/impl/json.hpp"

namespace langsift::cli {
namespace json = langsift::detail::json;
}  // namespace langsift::cli
