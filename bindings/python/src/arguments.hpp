// langsift._langsift — argument conversion. Every int, float, bool and str argument of the
// module's functions and constructors is converted by these functions, so that a bad one raises
// TypeError (a wrong type, None where None is not allowed) or ValueError (out of range, NaN, a
// lone surrogate) with the argument's name — never pybind11's RuntimeError "Unable to cast", nor
// its "incompatible function arguments", which names no argument. The functions take the
// argument as a py::handle: the bindings declare such parameters with the types below, which
// help() shows under the type they should be. Included by every file that binds functions.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "langsift/detail/quote.hpp"

namespace langsift_py {

namespace py = pybind11;

// Parameters checked by the functions below, shown in help() as the type in the caster's name.
#define LANGSIFT_PY_CHECKED_ARG(T)                  \
  struct T : py::handle {                           \
    T() = default;                                  \
    explicit T(py::handle h) : py::handle(h) {}     \
  };
LANGSIFT_PY_CHECKED_ARG(int_in)
LANGSIFT_PY_CHECKED_ARG(float_in)
LANGSIFT_PY_CHECKED_ARG(bool_in)
LANGSIFT_PY_CHECKED_ARG(choice_in)
LANGSIFT_PY_CHECKED_ARG(model_in)

// Arguments taken as Python objects (checked by the functions themselves, for clear TypeErrors) but
// shown in help() under the type they should be: a py::handle under another name.
LANGSIFT_PY_CHECKED_ARG(str_in)
LANGSIFT_PY_CHECKED_ARG(opt_str_in)
LANGSIFT_PY_CHECKED_ARG(texts_in)
LANGSIFT_PY_CHECKED_ARG(codes_in)
LANGSIFT_PY_CHECKED_ARG(hints_in)
LANGSIFT_PY_CHECKED_ARG(body_in)
LANGSIFT_PY_CHECKED_ARG(model_source_in)
LANGSIFT_PY_CHECKED_ARG(warc_source_in)
LANGSIFT_PY_CHECKED_ARG(path_in)
LANGSIFT_PY_CHECKED_ARG(opt_int_in)
#undef LANGSIFT_PY_CHECKED_ARG

/// The name of `h`'s type, for messages ("NoneType", "float").
inline std::string type_name(py::handle h) { return py::str(h.get_type().attr("__name__")); }

/// Where a str holds its first lone surrogate, for the message: "U+D800 at index 3".
inline std::string first_surrogate(py::handle s) {
  const Py_ssize_t n = PyUnicode_GET_LENGTH(s.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    const Py_UCS4 c = PyUnicode_READ_CHAR(s.ptr(), i);
    if (c >= 0xD800 && c <= 0xDFFF) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "U+%04X at index %lld", static_cast<unsigned>(c), static_cast<long long>(i));
      return buf;
    }
  }
  return "a code point UTF-8 cannot hold";
}

/// The UTF-8 of a str argument, in place (valid while the str lives; Python caches it in the
/// str). TypeError for anything but a str (None included); ValueError for a str with a lone
/// surrogate, which UTF-8 cannot hold (texts to analyse are not taken so: detect() replaces them).
inline std::string_view str_view(py::handle h, const char* what) {
  if (!PyUnicode_Check(h.ptr())) throw py::type_error(std::string(what) + " must be str, not " + type_name(h));
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
  if (!p) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();
    PyErr_Clear();
    throw py::value_error(std::string(what) + ": a lone surrogate (" + first_surrogate(h) +
                          ") is not text: UTF-8 cannot hold it");
  }
  return {p, static_cast<std::size_t>(n)};
}

inline std::string str_value(py::handle h, const char* what) { return std::string(str_view(h, what)); }

/// As str_view, or nothing for None.
inline std::optional<std::string> opt_str_value(py::handle h, const char* what) {
  if (h.is_none()) return std::nullopt;
  if (!PyUnicode_Check(h.ptr()))
    throw py::type_error(std::string(what) + " must be str or None, not " + type_name(h));
  return str_value(h, what);
}

/// What an int must be, for a message: "0..100"; with no upper bound "at least 256" or ">= 0"; for
/// a number over 2**64-1 with no upper bound, "under 2**64".
inline std::string range_text(std::uint64_t lo, std::uint64_t hi, bool over = false) {
  if (hi != std::numeric_limits<std::uint64_t>::max()) return std::to_string(lo) + ".." + std::to_string(hi);
  if (over) return "under 2**64";
  return lo == 0 ? ">= 0" : "at least " + std::to_string(lo);
}

/// An int argument in lo..hi. TypeError for anything that is not an int (an object with
/// __index__, as numpy's integers have): a float (2.0 included, as range() refuses it), a bool, a
/// str, None; ValueError outside lo..hi, however large the int.
inline std::uint64_t int_arg(py::handle h, const char* what, std::uint64_t lo = 0,
                             std::uint64_t hi = std::numeric_limits<std::uint64_t>::max()) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    throw py::type_error(std::string(what) + " must be an int, not " + type_name(h));
  py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
  if (!i) throw py::error_already_set();
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (s == -1 && PyErr_Occurred()) throw py::error_already_set();
  std::uint64_t v = 0;
  bool in = false;
  if (overflow == 0 && s >= 0) {
    v = static_cast<std::uint64_t>(s);
    in = v >= lo && v <= hi;
  } else if (overflow > 0) {
    v = PyLong_AsUnsignedLongLong(i.ptr());
    if (v == static_cast<std::uint64_t>(-1) && PyErr_Occurred()) {
      PyErr_Clear();  // over 2^64: out of every range
      throw py::value_error(std::string(what) + " must be " + range_text(lo, hi, true) + ", not a larger number");
    }
    in = v >= lo && v <= hi;
  }
  if (!in) {
    const std::string given = overflow < 0 ? std::string("a number under -2**63")
                              : overflow == 0 && s < 0 ? std::to_string(s) : std::to_string(v);
    throw py::value_error(std::string(what) + " must be " + range_text(lo, hi, v > hi) + ", not " + given);
  }
  return v;
}

/// An int argument or None.
inline std::optional<std::uint64_t> opt_int_arg(py::handle h, const char* what, std::uint64_t lo = 0,
                                                std::uint64_t hi = std::numeric_limits<std::uint64_t>::max()) {
  if (h.is_none()) return std::nullopt;
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    throw py::type_error(std::string(what) + " must be an int or None, not " + type_name(h));
  return int_arg(h, what, lo, hi);
}

/// A number argument (float, int or anything with __float__; not bool, not complex) in lo..hi:
/// TypeError for anything else, ValueError for NaN or a number outside lo..hi.
inline double float_arg(py::handle h, const char* what, double lo, double hi) {
  if (PyBool_Check(h.ptr()) || PyComplex_Check(h.ptr()) || !PyNumber_Check(h.ptr()))
    throw py::type_error(std::string(what) + " must be a number (float or int), not " + type_name(h));
  const double v = PyFloat_AsDouble(h.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw py::error_already_set();
    PyErr_Clear();  // an int too large for a double
    throw py::value_error(std::string(what) + " must be a number in " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  if (!(v >= lo && v <= hi)) {  // NaN fails both
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s must be %g..%g, not %g", what, lo, hi, v);
    throw py::value_error(buf);
  }
  return v;
}

/// A bool argument: True, False or an int (its truth); TypeError for None and anything else.
inline bool bool_arg(py::handle h, const char* what) {
  if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
  if (PyIndex_Check(h.ptr())) return int_arg(h, what, 0, 1) != 0;  // 0 and 1
  throw py::type_error(std::string(what) + " must be a bool, not " + type_name(h));
}

/// The items of an iterable argument, as a new list (which keeps them alive while the GIL is
/// released, even if another thread empties the caller's list). TypeError naming the argument
/// for anything that is not iterable; an error of the iterator itself goes through.
inline py::list list_arg(py::handle h, const char* what, const char* of) {
  py::object it = py::reinterpret_steal<py::object>(h.is_none() ? nullptr : PyObject_GetIter(h.ptr()));
  if (!it) {
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();
    throw py::type_error(std::string(what) + " must be an iterable of " + of + ", not " + type_name(h));
  }
  py::list l = py::reinterpret_steal<py::list>(PySequence_List(it.ptr()));
  if (!l) throw py::error_already_set();
  return l;
}

}  // namespace langsift_py

namespace pybind11::detail {
#define LANGSIFT_PY_CHECKED_CASTER(T, NAME)                                                  \
  template <>                                                                                \
  struct type_caster<langsift_py::T> {                                                       \
    PYBIND11_TYPE_CASTER(langsift_py::T, const_name(NAME));                                  \
    bool load(handle src, bool) {                                                            \
      value = langsift_py::T(src);                                                           \
      return true;                                                                           \
    }                                                                                        \
    static handle cast(const langsift_py::T& v, return_value_policy, handle) { return v.inc_ref(); } \
  };
LANGSIFT_PY_CHECKED_CASTER(int_in, "int")
LANGSIFT_PY_CHECKED_CASTER(float_in, "float")
LANGSIFT_PY_CHECKED_CASTER(bool_in, "bool")
LANGSIFT_PY_CHECKED_CASTER(choice_in, "str")
LANGSIFT_PY_CHECKED_CASTER(model_in, "Model | str | os.PathLike | None")
LANGSIFT_PY_CHECKED_CASTER(str_in, "str")
LANGSIFT_PY_CHECKED_CASTER(opt_str_in, "str | None")
LANGSIFT_PY_CHECKED_CASTER(texts_in, "Iterable[str]")
LANGSIFT_PY_CHECKED_CASTER(codes_in, "str | Iterable[str] | None")
LANGSIFT_PY_CHECKED_CASTER(hints_in, "str | Iterable[str] | dict | None")
LANGSIFT_PY_CHECKED_CASTER(body_in, "bytes")
LANGSIFT_PY_CHECKED_CASTER(model_source_in, "str | os.PathLike | bytes")
LANGSIFT_PY_CHECKED_CASTER(warc_source_in, "str | os.PathLike | BinaryIO | bytes")
LANGSIFT_PY_CHECKED_CASTER(path_in, "str | bytes | os.PathLike")
LANGSIFT_PY_CHECKED_CASTER(opt_int_in, "int | None")
#undef LANGSIFT_PY_CHECKED_CASTER
}  // namespace pybind11::detail
