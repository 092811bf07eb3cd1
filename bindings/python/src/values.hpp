// langsift._langsift — value semantics of the result types: each has a state, a tuple of its
// values (plain Python values, nested tuples), from which pickling, copy, equality and the hash all
// follow, so they cannot disagree; state_reader reads a state back.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "text.hpp"

namespace langsift_py {

namespace py = pybind11;

/// The fields of a state tuple, read back: a malformed state (pickle data comes from another
/// process or a file) raises ValueError "not a <what> state", never a crash or a RuntimeError.
class state_reader {
 public:
  state_reader(py::handle h, const char* what, std::size_t n) : what_(what) {
    if (!PyTuple_Check(h.ptr()) || static_cast<std::size_t>(PyTuple_GET_SIZE(h.ptr())) != n) fail();
    t_ = py::reinterpret_borrow<py::tuple>(h);
  }
  [[noreturn]] void fail() const { throw py::value_error(std::string("not a ") + what_ + " state"); }
  py::handle at(std::size_t i) const { return PyTuple_GET_ITEM(t_.ptr(), static_cast<Py_ssize_t>(i)); }
  template <class F>
  auto checked(F&& f) const {
    try {
      return f();
    } catch (py::builtin_exception&) {
      fail();
    } catch (py::error_already_set&) {
      fail();
    }
  }
  std::string str(std::size_t i) const { return checked([&] { return str_value(at(i), what_); }); }
  std::uint64_t uint(std::size_t i, std::uint64_t hi = UINT64_MAX) const {
    return checked([&] { return int_arg(at(i), what_, 0, hi); });
  }
  float real(std::size_t i) const {
    if (!PyFloat_Check(at(i).ptr())) fail();
    return static_cast<float>(PyFloat_AS_DOUBLE(at(i).ptr()));
  }
  bool flag(std::size_t i) const {
    if (!PyBool_Check(at(i).ptr())) fail();
    return at(i).ptr() == Py_True;
  }
  code_value code(std::size_t i) const {
    const std::string c = str(i);
    code_value v;
    if (c.size() >= v.s.size()) fail();
    return code_value::of(c, code_style::iso639_1);  // as it was reported: no conversion
  }
  /// A tuple field (a list also, as older pickles hold) of at most `max` items.
  py::tuple items(std::size_t i, std::size_t max) const {
    py::handle x = at(i);
    if (!PyTuple_Check(x.ptr()) && !PyList_Check(x.ptr())) fail();
    py::tuple r = py::reinterpret_steal<py::tuple>(PySequence_Tuple(x.ptr()));
    if (!r || r.size() > max) fail();
    return r;
  }
  const char* what() const { return what_; }

 private:
  py::tuple t_;
  const char* what_;
};

/// The unpicklers of the pybind11 value types, by the type's name: `_value_from_state(name, state)`.
std::vector<std::pair<std::string, std::function<py::object(py::handle)>>>& value_kinds();
extern PyObject* g_value_from_state;  // langsift._langsift._value_from_state (borrowed from the module)

/// Pickling (so copy and deepcopy) of a pybind11 class by its state, with every protocol:
/// __reduce_ex__ gives (_value_from_state, (name, state)). (pybind11's py::pickle is not used: with
/// protocols 0 and 1, copyreg makes a bare pybind11 instance, and that aborts the interpreter.)
template <class T, class State, class FromState>
void pickled_by_state(py::class_<T>& c, State state, FromState from_state) {
  const std::string name = py::str(c.attr("__name__"));
  value_kinds().emplace_back(name, [from_state](py::handle h) { return py::cast(from_state(h)); });
  c.def("__reduce_ex__", [state, name](const T& a, py::handle) {
    return py::make_tuple(py::reinterpret_borrow<py::object>(g_value_from_state), py::make_tuple(name, state(a)));
  });
}

/// Adds equality by value, a hash that agrees with it and pickling to a pybind11 class of
/// immutable values, all from its state function.
template <class T, class State, class FromState>
void value_type(py::class_<T>& c, State state, FromState from_state) {
  c.def("__eq__", [state](const T& a, py::handle b) -> py::object {
     if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
     return py::bool_(state(a).equal(state(b.cast<const T&>())));
   })
   .def("__hash__", [state](const T& a) { return py::hash(state(a)); });
  pickled_by_state(c, state, from_state);
}

/// Refuses pickling (and copy) of a class whose objects are resources or state, with every
/// protocol (see pickled_by_state), saying what to do instead.
void not_pickled(py::module_& m, const char* name, const char* instead);

/// Strings that come from the input (a declared charset, WARC headers) may be any bytes: states
/// hold them as bytes, exactly.
inline py::bytes bytes_of(const std::string& s) { return py::bytes(s.data(), s.size()); }

/// A bytes field of a state (a str also, as older pickles hold).
std::string state_bytes(const state_reader& r, std::size_t i);

}  // namespace langsift_py
