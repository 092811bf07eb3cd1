// langsift._langsift — the compiled layer of the Python package (pybind11 over the C++ library).
//
// The C++ types stay in C++: Python sees small result classes that own their values (codes are
// copied, so a result outlives the model it came from), with repr(), to_dict() (the field names of
// `langsift detect --format jsonl` / `langsift warc`) and pickling. Work on copied or immutable
// inputs runs with the GIL released; batches cross the boundary once. Errors map onto Python's:
// wrong types -> TypeError, bad values -> ValueError, unreadable models -> langsift.ModelError (an
// OSError), malformed WARC input -> langsift.WarcFormatError (or a warning), never a crash.
//
// Each subject has its file and its bind_x() (module.hpp); this file only calls them in order.
#include <string>

#include "detect_options.hpp"
#include "langsift/version.hpp"
#include "module.hpp"

PYBIND11_MODULE(_langsift, m) {
  using namespace langsift_py;
  m.doc() =
      "langsift's compiled layer. Use the `langsift` package: it re-exports everything here with "
      "type stubs (langsift/_langsift.pyi).";
  bind_errors(m);
  m.attr("__version__") = std::string(LANGSIFT_VERSION_STRING);
  m.attr("MAX_INPUT_BYTES") = kMaxInputBytes;
  bind_model(m);
  bind_result_objects(m);
  bind_page_result(m);
  bind_url_result(m);
  bind_detect(m);
  bind_page(m);
  bind_url(m);
  bind_bench(m);
  bind_language_codes(m);
  bind_warc_records(m);
  bind_warc_reader(m);
  bind_filter(m);
  bind_frontier(m);
  bind_cli(m);
}
