// langsift._langsift — the module's exceptions, file names and path arguments (errors.hpp).
#include "errors.hpp"

#include "module.hpp"

namespace langsift_py {

using langsift::status;

// ------------------------------------------------------------------------------------------------
// Exceptions

PyObject* g_error = nullptr;
PyObject* g_model_error = nullptr;
PyObject* g_warc_error = nullptr;
PyObject* g_warc_warning = nullptr;

py::str fs_str(std::string_view bytes) {
  PyObject* s = PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size()));
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

[[noreturn]] void raise_with_status(PyObject* type, py::handle message, status st,
                                    std::optional<std::uint64_t> offset) {
  py::object e = py::reinterpret_borrow<py::object>(type)(message);
  e.attr("status") = std::string(status_name(st));
  if (offset) e.attr("offset") = *offset;
  PyErr_SetObject(type, e.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise_with_status(PyObject* type, const std::string& message, status st,
                                    std::optional<std::uint64_t> offset) {
  raise_with_status(type, fs_str(message), st, offset);
}

void raise_io(status st, const std::string& message, const std::string& what) {
  if (st == status::io_error) {
    PyErr_SetObject(PyExc_OSError, fs_str(what + ": " + message).ptr());
    throw py::error_already_set();
  }
  raise_with_status(g_error, what + ": " + message, st);
}

// ------------------------------------------------------------------------------------------------
// Paths

fs_path path_arg(py::handle h) {
  PyObject* b = nullptr;
  if (!PyUnicode_FSConverter(h.ptr(), &b)) throw py::error_already_set();  // TypeError, or ValueError for a NUL
  py::bytes owned = py::reinterpret_steal<py::bytes>(b);
  fs_path p;
  p.bytes.assign(PyBytes_AS_STRING(b), static_cast<std::size_t>(PyBytes_GET_SIZE(b)));
  p.name = fs_str(p.bytes);
  return p;
}

void bind_errors(py::module_& m) {
  g_error = PyErr_NewExceptionWithDoc("langsift.LangsiftError",
                                      "Base class of langsift's errors; `status` names the library status.",
                                      PyExc_Exception, nullptr);
  {
    py::tuple bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_OSError));
    g_model_error = PyErr_NewExceptionWithDoc(
        "langsift.ModelError",
        "A model that cannot be loaded: unreadable (status 'io_error'), truncated or corrupt "
        "('corrupt_model'), or of another format version ('model_version'). Also an OSError.",
        bases.ptr(), nullptr);
    py::tuple wbases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
    g_warc_error = PyErr_NewExceptionWithDoc(
        "langsift.WarcFormatError",
        "Input that is not a well-formed WARC record (read_warc(errors='raise')). `offset` is where "
        "in the input it was found. Also a ValueError.",
        wbases.ptr(), nullptr);
  }
  g_warc_warning = PyErr_NewExceptionWithDoc(
      "langsift.WarcFormatWarning",
      "Warned by read_warc() (errors='warn', the default) for input that is not a well-formed WARC "
      "record; reading goes on with the next record.",
      PyExc_UserWarning, nullptr);
  m.attr("LangsiftError") = py::handle(g_error);
  m.attr("ModelError") = py::handle(g_model_error);
  m.attr("WarcFormatError") = py::handle(g_warc_error);
  m.attr("WarcFormatWarning") = py::handle(g_warc_warning);
}

}  // namespace langsift_py
