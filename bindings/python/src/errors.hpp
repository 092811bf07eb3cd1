// langsift._langsift — the module's exceptions (LangsiftError and its subclasses), raising them
// with the library's status, file names as os.fsdecode() gives them, path arguments, and guarded()
// for the plain CPython functions.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "langsift/common.hpp"

namespace langsift_py {

namespace py = pybind11;

extern PyObject* g_error;         // langsift.LangsiftError(Exception)
extern PyObject* g_model_error;   // langsift.ModelError(LangsiftError, OSError)
extern PyObject* g_warc_error;    // langsift.WarcFormatError(LangsiftError, ValueError)
extern PyObject* g_warc_warning;  // langsift.WarcFormatWarning(UserWarning)

/// Bytes of a file name or of a message that holds one, as str: os.fsdecode (the file system
/// encoding with surrogateescape), so that any name the OS gave or took comes back unchanged.
py::str fs_str(std::string_view bytes);

/// Raises `type(message)` with a `status` attribute (and `offset`, when given).
[[noreturn]] void raise_with_status(PyObject* type, py::handle message, langsift::status st,
                                    std::optional<std::uint64_t> offset = std::nullopt);

/// The same with the message as bytes (it may hold a file name that is not UTF-8: see fs_str).
[[noreturn]] void raise_with_status(PyObject* type, const std::string& message, langsift::status st,
                                    std::optional<std::uint64_t> offset = std::nullopt);

/// OSError for status::io_error, else LangsiftError: `what: message`. `what` and `message` may
/// hold a file name that is not UTF-8 (see fs_str).
[[noreturn]] void raise_io(langsift::status st, const std::string& message, const std::string& what);

/// A path argument as open() takes it: str, bytes or os.PathLike. `bytes` is what the OS gets
/// (os.fsencode(os.fspath(x)): the file system encoding with surrogateescape, so a name that is not
/// UTF-8 works), `name` the str for messages (os.fsdecode of it).
struct fs_path {
  std::string bytes;
  py::str name;
};

fs_path path_arg(py::handle h);

/// Runs `f` (which may throw C++ or pybind11 exceptions) and turns an exception into a Python error.
template <class F>
PyObject* guarded(F&& f) noexcept {
  try {
    return f();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

}  // namespace langsift_py
