// langsift._langsift — the values of the detect functions' results (Language, Detection, Span):
// their C++ form, their dict, repr and state (results.cpp), and Language and Detection as the
// plain CPython objects that carry them (result_objects.cpp), with the pybind11 type casters that
// take and return those objects. Every file that passes a py_language or py_detection through
// pybind11 includes this header, so that the casters are the same everywhere.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/detector.hpp"
#include "text.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

struct py_language {
  code_value code;
  int percent = 0;
  std::uint64_t bytes = 0;
  float score = 0;
};

/// A language span (detect(spans=True)): [start, end) in str indices (code points).
struct py_span {
  std::uint64_t start = 0, end = 0;
  code_value code;
};

struct py_probability {
  code_value code;
  float p = 0;
};

struct py_detection {
  std::array<py_language, 3> langs{};
  std::uint8_t count = 0;
  std::uint64_t text_bytes = 0, examined_bytes = 0;
  float confidence = 0, margin = 0;
  bool reliable = false, is_short = false, sampled = false;
  status st = status::ok;
  bool with_probabilities = false;   // k > 0 was asked: to_dict() has "probabilities" (even empty)
  std::vector<py_probability> probs;  // detection::probabilities (no allocation when k = 0)

  /// `k`: the probabilities asked for (detect(k=)), which `d` was detected with (top_k >= k).
  static py_detection of(const detection& d, code_style style, std::size_t k = 0) {
    py_detection r;
    fill(r, d, style, k);
    return r;
  }
  /// Writes every field of `r` (whatever it held before).
  static void fill(py_detection& r, const detection& d, code_style style, std::size_t k = 0) {
    r.with_probabilities = k > 0;
    r.probs.clear();
    for (std::size_t i = 0; i < std::min(k, d.probability_count); ++i)
      r.probs.push_back({code_value::of(d.probabilities[i].code, style), d.probabilities[i].p});
    r.count = static_cast<std::uint8_t>(d.count);
    for (std::size_t i = 0; i < d.count; ++i) {
      r.langs[i].code = code_value::of(d.languages[i].code, style);
      r.langs[i].percent = d.languages[i].percent;
      r.langs[i].bytes = d.languages[i].bytes;
      r.langs[i].score = d.languages[i].score;
    }
    r.text_bytes = d.text_bytes;
    r.examined_bytes = d.examined_bytes;
    r.confidence = d.confidence;
    r.margin = d.margin;
    r.reliable = d.reliable;
    r.is_short = d.is_short;
    r.sampled = d.sampled;
    r.st = d.st;
  }
  /// A C++ detection whose codes are views into this object, in langsift's own (ISO 639-1) form,
  /// for the filter and the frontier.
  detection to_cpp(std::array<std::string, 3>& store) const {
    detection d;
    d.count = count;
    for (std::size_t i = 0; i < count; ++i) {
      store[i] = to_iso639_1(langs[i].code.view());
      d.languages[i] = {store[i], langs[i].percent, static_cast<std::size_t>(langs[i].bytes), langs[i].score};
    }
    d.text_bytes = text_bytes;
    d.examined_bytes = examined_bytes;
    d.confidence = confidence;
    d.margin = margin;
    d.reliable = reliable;
    d.is_short = is_short;
    d.sampled = sampled;
    d.st = st;
    return d;
  }
  std::string_view language() const noexcept { return count ? langs[0].code.view() : std::string_view("und"); }
};

/// Applies what the binding itself did to the input to the status (a cut or replaced input).
inline void mark_input(py_detection& d, bool truncated, bool replaced) {
  if (d.st != status::ok) return;
  if (truncated) d.st = status::truncated;
  else if (replaced) d.st = status::invalid_utf8;
}

py::dict language_dict(const py_language& l);
py::dict detection_dict(const py_detection& d);

/// detect(k=): Detection.probabilities, a tuple of (code, p).
py::tuple probabilities_tuple(const py_detection& d);

std::string language_repr(const py_language& l);
std::string detection_repr(const py_detection& d);
std::string span_repr(const py_span& x);

/// The status of a name (status_name), or ValueError.
status status_of(std::string_view name);

// States (values.hpp): pickling, copy, equality and the hash follow from them.
py::tuple language_state(const py_language& l);
py_language language_from_state(py::handle h);
py::tuple span_state(const py_span& x);
py_span span_from_state(py::handle h);
py::tuple detection_state(const py_detection& d);
py_detection detection_from_state(py::handle h);

// ------------------------------------------------------------------------------------------------
// Detection and Language as plain CPython types (result_objects.cpp).

struct language_object {
  PyObject_HEAD
  py_language v;
};

struct detection_object {
  PyObject_HEAD
  py_detection v;
  PyObject* languages;  // the tuple of Language, made on first access
  PyObject* spans;      // detect(spans=True): the tuple of Span; else null
  PyObject* kept;       // detect(keep=...): the kept text (str); else null
};

extern PyTypeObject* g_language_type;
extern PyTypeObject* g_detection_type;

/// A new Language object (null with a Python error set).
PyObject* new_language(const py_language& l);

/// A new Detection object holding a copy of `d` (null with a Python error set).
PyObject* new_detection(const py_detection& d);

/// A Detection whose value the caller fills before anyone sees it (detect_many: its threads write
/// each result once, instead of over a default value).
detection_object* new_detection_unfilled();

inline const py_language& lang_of(PyObject* self) { return reinterpret_cast<language_object*>(self)->v; }
inline const py_detection& det_of(PyObject* self) { return reinterpret_cast<detection_object*>(self)->v; }

}  // namespace langsift_py

namespace pybind11::detail {

template <>
struct type_caster<langsift_py::py_language> {
  PYBIND11_TYPE_CASTER(langsift_py::py_language, const_name("Language"));
  bool load(handle src, bool) {
    if (!langsift_py::g_language_type || !PyObject_TypeCheck(src.ptr(), langsift_py::g_language_type)) return false;
    value = langsift_py::lang_of(src.ptr());
    return true;
  }
  static handle cast(const langsift_py::py_language& v, return_value_policy, handle) {
    PyObject* o = langsift_py::new_language(v);
    if (!o) throw error_already_set();
    return o;
  }
};

template <>
struct type_caster<langsift_py::py_detection> {
  PYBIND11_TYPE_CASTER(langsift_py::py_detection, const_name("Detection"));
  bool load(handle src, bool) {
    if (!langsift_py::g_detection_type || !PyObject_TypeCheck(src.ptr(), langsift_py::g_detection_type)) return false;
    value = langsift_py::det_of(src.ptr());
    return true;
  }
  static handle cast(const langsift_py::py_detection& v, return_value_policy, handle) {
    PyObject* o = langsift_py::new_detection(v);
    if (!o) throw error_already_set();
    return o;
  }
};

}  // namespace pybind11::detail
