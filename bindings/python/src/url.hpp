// langsift._langsift — classify_url(): the language a URL probably leads to (UrlResult,
// UrlLanguage), and the country argument it shares with the frontier.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <string>

namespace langsift_py {

namespace py = pybind11;

/// The country argument of classify_url() and decide(): None, or two ASCII letters (an ISO 3166-1
/// code; one the classifier does not know is no hint).
std::string country_arg(py::handle h);

}  // namespace langsift_py
