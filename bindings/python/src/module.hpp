// langsift._langsift — the parts of the module, each added by its bind_x() function; module.cpp
// calls them in this order (a type is registered before a function whose signature names it).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

namespace langsift_py {

namespace py = pybind11;

void bind_errors(py::module_& m);           // errors.cpp: LangsiftError, ModelError, WarcFormatError/Warning
void bind_model(py::module_& m);            // models.cpp: Model
void bind_result_objects(py::module_& m);   // result_objects.cpp: Language, Detection, the unpicklers
void bind_page_result(py::module_& m);      // page.cpp: PageResult
void bind_url_result(py::module_& m);       // url.cpp: UrlLanguage, UrlResult
void bind_detect(py::module_& m);           // detect.cpp: Span, detect(), detect_many()
void bind_page(py::module_& m);             // page.cpp: detect_page(), extract_text()
void bind_url(py::module_& m);              // url.cpp: classify_url()
void bind_bench(py::module_& m);            // detect.cpp: _bench_detect_loop()
void bind_language_codes(py::module_& m);   // models.cpp: languages(), to_iso639_3(), to_iso639_1()
void bind_warc_records(py::module_& m);     // warc_records.cpp: WarcRecord, WarcStats
void bind_warc_reader(py::module_& m);      // warc_reader.cpp: WarcReader, read_warc()
void bind_filter(py::module_& m);           // filter.cpp: LanguageFilter, language_filter_from_config()
void bind_frontier(py::module_& m);         // frontier.cpp: Frontier, FrontierDecision, FrontierGuess
void bind_cli(py::module_& m);              // cli.cpp: _cli_main() (`python3 -m langsift`)

}  // namespace langsift_py
