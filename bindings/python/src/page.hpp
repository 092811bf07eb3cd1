// langsift._langsift — the page pipeline: PageResult, detect_page() and extract_text() over an
// HTTP body's bytes; also the result of each record of read_warc().
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <cstdint>
#include <optional>
#include <string>

#include "langsift/page.hpp"
#include "results.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

struct py_page {
  py_detection detection;
  std::string encoding, encoding_source, declared_encoding, html_lang;
  float encoding_confidence = 0;
  bool is_html = false, declared_overridden = false;
  std::uint64_t replaced_bytes = 0;
  std::optional<std::string> text;  // the page's text (page_result::text), when it was kept

  static py_page of(const page_result& p, code_style style, std::size_t k = 0) {
    py_page r;
    r.detection = py_detection::of(p.detection, style, k);
    r.encoding = p.encoding.name;
    r.encoding_source = std::string(encoding_source_name(p.encoding.source));
    r.encoding_confidence = p.encoding.confidence;
    r.declared_encoding = valid_utf8(p.encoding.declared);  // the page's own bytes
    r.html_lang = valid_utf8(p.html_lang);
    r.declared_overridden = p.encoding.declared_overridden;
    r.is_html = p.is_html;
    r.replaced_bytes = p.conversion.replaced_bytes;
    return r;
  }
};

py::tuple page_state(const py_page& p);
py_page page_from_state(py::handle h);

}  // namespace langsift_py
