// langsift._langsift — WarcRecord (one record of read_warc() and its page) and WarcStats (what a
// reader counted, merged across shards).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <cstdint>
#include <optional>
#include <string>

#include "langsift/warc_report.hpp"
#include "page.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

struct py_warc_record {
  std::uint64_t offset = 0, length = 0;
  std::string warc_type, url, record_id, content_type, content_language, skipped, problem, line;
  int http_status = -1;
  std::optional<py_page> page;
};

struct py_warc_stats {
  warc_statistics s;
};

}  // namespace langsift_py
