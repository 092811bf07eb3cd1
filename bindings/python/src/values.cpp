// langsift._langsift — value semantics of the result types (values.hpp).
#include "values.hpp"

namespace langsift_py {

std::vector<std::pair<std::string, std::function<py::object(py::handle)>>>& value_kinds() {
  static std::vector<std::pair<std::string, std::function<py::object(py::handle)>>> kinds;  // filled at import
  return kinds;
}
PyObject* g_value_from_state = nullptr;  // langsift._langsift._value_from_state (borrowed from the module)

void not_pickled(py::module_& m, const char* name, const char* instead) {
  py::object cls = m.attr(name);
  const std::string message = std::string("cannot pickle a langsift.") + name + ": " + instead;
  cls.attr("__reduce_ex__") = py::cpp_function([message](py::handle, py::handle) -> py::object {
    throw py::type_error(message);
  }, py::name("__reduce_ex__"), py::is_method(cls), py::arg("protocol"));
}

std::string state_bytes(const state_reader& r, std::size_t i) {
  const py::handle x = r.at(i);
  if (PyBytes_Check(x.ptr())) return std::string(PyBytes_AS_STRING(x.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(x.ptr())));
  return r.str(i);
}

}  // namespace langsift_py
