// langsift._langsift — Language and Detection as plain CPython types (results.hpp).
#include <new>

#include "errors.hpp"
#include "module.hpp"
#include "results.hpp"
#include "values.hpp"

namespace langsift_py {

// ------------------------------------------------------------------------------------------------
// Detection and Language as plain CPython types: one is made per detect() call, so their cost is
// the call's overhead (a pybind11 instance costs several times more: a separate holder allocation
// and its entry in pybind11's instance registry). pybind11 functions take and return them through
// the type casters below.

PyTypeObject* g_language_type = nullptr;
PyTypeObject* g_detection_type = nullptr;

PyObject* new_language(const py_language& l) {
  auto* o = PyObject_New(language_object, g_language_type);
  if (!o) return nullptr;
  o->v = l;
  return reinterpret_cast<PyObject*>(o);
}

// The value is constructed in the object's memory (PyObject_New runs no constructor) and
// destroyed in detection_dealloc: it holds a vector (the probabilities, empty unless asked for).
PyObject* new_detection(const py_detection& d) {
  auto* o = PyObject_New(detection_object, g_detection_type);
  if (!o) return nullptr;
  o->languages = o->spans = o->kept = nullptr;  // before anything can fail: dealloc reads them
  try {
    new (&o->v) py_detection(d);
  } catch (std::bad_alloc&) {
    new (&o->v) py_detection();
    Py_DECREF(reinterpret_cast<PyObject*>(o));
    return PyErr_NoMemory();
  }
  return reinterpret_cast<PyObject*>(o);
}

detection_object* new_detection_unfilled() {
  auto* o = PyObject_New(detection_object, g_detection_type);
  if (o) {
    new (&o->v) py_detection();
    o->languages = o->spans = o->kept = nullptr;
  }
  return o;
}

namespace {

PyObject* g_module = nullptr;  // borrowed: the module lives as long as the types

void language_dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  PyObject_Free(self);
  Py_DECREF(tp);
}

void detection_dealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  Py_XDECREF(reinterpret_cast<detection_object*>(self)->languages);
  Py_XDECREF(reinterpret_cast<detection_object*>(self)->spans);
  Py_XDECREF(reinterpret_cast<detection_object*>(self)->kept);
  reinterpret_cast<detection_object*>(self)->v.~py_detection();
  PyObject_Free(self);
  Py_DECREF(tp);
}

PyObject* str_of(std::string_view s) { return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size())); }

PyObject* call_module_function(const char* name, PyObject* arg) {
  PyObject* f = PyObject_GetAttrString(g_module, name);
  if (!f) return nullptr;
  PyObject* r = Py_BuildValue("(O(O))", f, arg);
  Py_DECREF(f);
  return r;
}

// Language
PyObject* language_code(PyObject* self, void*) { return str_of(lang_of(self).code.view()); }
PyObject* language_percent(PyObject* self, void*) { return PyLong_FromLong(lang_of(self).percent); }
PyObject* language_bytes(PyObject* self, void*) { return PyLong_FromUnsignedLongLong(lang_of(self).bytes); }
PyObject* language_score(PyObject* self, void*) { return PyFloat_FromDouble(lang_of(self).score); }
PyObject* language_to_dict(PyObject* self, PyObject*) {
  return guarded([&] { return language_dict(lang_of(self)).release().ptr(); });
}
PyObject* language_repr_raw(PyObject* self) { return guarded([&] { return str_of(language_repr(lang_of(self))); }); }
PyObject* language_reduce(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    py::tuple state = language_state(lang_of(self));
    return call_module_function("_language_from_state", state.ptr());
  });
}
/// The hash of the state, as equality compares the state's values.
Py_hash_t language_hash(PyObject* self) {
  try {
    return py::hash(language_state(lang_of(self)));
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (std::bad_alloc&) {
    PyErr_NoMemory();
  }
  return -1;
}
PyObject* language_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, g_language_type)) Py_RETURN_NOTIMPLEMENTED;
  const py_language &x = lang_of(a), &y = lang_of(b);
  const bool eq = x.code.view() == y.code.view() && x.percent == y.percent && x.bytes == y.bytes && x.score == y.score;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

PyGetSetDef language_getset[] = {
    {"code", language_code, nullptr,
     "ISO 639-1 where one exists, else ISO 639-3 (codes='iso639-3': always ISO 639-3).", nullptr},
    {"percent", language_percent, nullptr, "Share of the text bytes, 0..100.", nullptr},
    {"bytes", language_bytes, nullptr, "Text bytes in this language.", nullptr},
    {"score", language_score, nullptr, "Fit to the language's own training text: ~1 normal, < 0.5 unusual.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef language_methods[] = {
    {"to_dict", language_to_dict, METH_NOARGS, "to_dict() -> dict: code, percent, bytes, score (as in the JSON lines)."},
    {"__reduce__", language_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

// Detection
PyObject* detection_language(PyObject* self, void*) { return str_of(det_of(self).language()); }
PyObject* detection_languages(PyObject* self, void*) {
  auto* o = reinterpret_cast<detection_object*>(self);
  if (!o->languages) {
    PyObject* t = PyTuple_New(o->v.count);
    if (!t) return nullptr;
    for (std::size_t i = 0; i < o->v.count; ++i) {
      PyObject* l = new_language(o->v.langs[i]);
      if (!l) {
        Py_DECREF(t);
        return nullptr;
      }
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), l);
    }
    o->languages = t;
  }
  Py_INCREF(o->languages);
  return o->languages;
}
PyObject* detection_text_bytes(PyObject* self, void*) { return PyLong_FromUnsignedLongLong(det_of(self).text_bytes); }
PyObject* detection_examined_bytes(PyObject* self, void*) { return PyLong_FromUnsignedLongLong(det_of(self).examined_bytes); }
PyObject* detection_reliable(PyObject* self, void*) { return PyBool_FromLong(det_of(self).reliable); }
PyObject* detection_is_short(PyObject* self, void*) { return PyBool_FromLong(det_of(self).is_short); }
PyObject* detection_sampled(PyObject* self, void*) { return PyBool_FromLong(det_of(self).sampled); }
PyObject* detection_confidence(PyObject* self, void*) { return PyFloat_FromDouble(det_of(self).confidence); }
PyObject* detection_margin(PyObject* self, void*) { return PyFloat_FromDouble(det_of(self).margin); }
PyObject* detection_probabilities(PyObject* self, void*) {
  return guarded([&] { return probabilities_tuple(det_of(self)).release().ptr(); });
}
PyObject* detection_status(PyObject* self, void*) { return str_of(status_name(det_of(self).st)); }
/// The spans (a tuple of Span) or the kept text of a Detection: a new reference, None when not asked.
PyObject* new_ref_or_none(PyObject* x) {
  if (!x) x = Py_None;
  Py_INCREF(x);
  return x;
}
PyObject* detection_spans(PyObject* self, void*) { return new_ref_or_none(reinterpret_cast<detection_object*>(self)->spans); }
PyObject* detection_kept_text(PyObject* self, void*) { return new_ref_or_none(reinterpret_cast<detection_object*>(self)->kept); }

/// A Detection's state: detection_state, and with spans (detect(spans=True) or keep=...) two more
/// fields: the spans' states and the kept text (or None).
py::tuple detection_object_state(PyObject* self) {
  const auto* o = reinterpret_cast<const detection_object*>(self);
  py::tuple state = detection_state(o->v);
  if (!o->spans) return state;
  const py::tuple spans = py::reinterpret_borrow<py::tuple>(o->spans);
  py::tuple ss(spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) ss[i] = span_state(spans[i].cast<const py_span&>());
  py::tuple r(state.size() + 2);
  for (std::size_t i = 0; i < state.size(); ++i) r[i] = state[i];
  r[state.size()] = ss;
  r[state.size() + 1] = py::reinterpret_borrow<py::object>(o->kept ? o->kept : Py_None);
  return r;
}

py::dict detection_object_dict(PyObject* self) {
  const auto* o = reinterpret_cast<const detection_object*>(self);
  py::dict x = detection_dict(o->v);
  if (o->spans) {
    py::list l;
    for (py::handle h : py::reinterpret_borrow<py::tuple>(o->spans)) {
      const py_span& sp = h.cast<const py_span&>();
      py::list item;  // [start, end, code], as the JSON lines' "spans" (there in bytes)
      item.append(sp.start);
      item.append(sp.end);
      item.append(to_py(sp.code.view()));
      l.append(item);
    }
    x["spans"] = l;
  }
  if (o->kept) x["kept_text"] = py::reinterpret_borrow<py::object>(o->kept);
  return x;
}

std::string detection_object_repr(PyObject* self) {
  const auto* o = reinterpret_cast<const detection_object*>(self);
  std::string r = detection_repr(o->v);
  if (o->spans) {
    r.pop_back();  // the closing parenthesis
    r += ", spans=(";
    const py::tuple spans = py::reinterpret_borrow<py::tuple>(o->spans);
    for (std::size_t i = 0; i < spans.size(); ++i) r += (i ? ", " : "") + span_repr(spans[i].cast<const py_span&>());
    r += spans.size() == 1 ? ",))" : "))";
  }
  return r;
}

PyObject* detection_to_dict(PyObject* self, PyObject*) {
  return guarded([&] { return detection_object_dict(self).release().ptr(); });
}
PyObject* detection_repr_raw(PyObject* self) { return guarded([&] { return str_of(detection_object_repr(self)); }); }
PyObject* detection_reduce(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    py::tuple state = detection_object_state(self);
    return call_module_function("_detection_from_state", state.ptr());
  });
}
Py_hash_t detection_hash(PyObject* self) {
  try {
    return py::hash(detection_object_state(self));
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (std::bad_alloc&) {
    PyErr_NoMemory();
  }
  return -1;
}
/// Equality of every field: what the state holds (detection_hash hashes the state).
bool same_detection(const py_detection& x, const py_detection& y) {
  if (x.count != y.count || x.text_bytes != y.text_bytes || x.examined_bytes != y.examined_bytes ||
      x.confidence != y.confidence || x.margin != y.margin || x.reliable != y.reliable || x.is_short != y.is_short ||
      x.sampled != y.sampled || x.st != y.st || x.with_probabilities != y.with_probabilities || x.probs.size() != y.probs.size())
    return false;
  for (std::size_t i = 0; i < x.probs.size(); ++i)
    if (x.probs[i].code.view() != y.probs[i].code.view() || x.probs[i].p != y.probs[i].p) return false;
  for (std::size_t i = 0; i < x.count; ++i) {
    const py_language &a = x.langs[i], &b = y.langs[i];
    if (a.code.view() != b.code.view() || a.percent != b.percent || a.bytes != b.bytes || a.score != b.score) return false;
  }
  return true;
}
/// Whether two optional fields (spans, kept text) are equal: both absent, or equal values.
int same_field(PyObject* x, PyObject* y) {
  if (!x || !y) return x == y;
  return PyObject_RichCompareBool(x, y, Py_EQ);
}
PyObject* detection_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, g_detection_type)) Py_RETURN_NOTIMPLEMENTED;
  const auto *x = reinterpret_cast<const detection_object*>(a), *y = reinterpret_cast<const detection_object*>(b);
  int eq = same_detection(x->v, y->v);
  if (eq) eq = same_field(x->spans, y->spans);
  if (eq > 0) eq = same_field(x->kept, y->kept);
  if (eq < 0) return nullptr;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

PyGetSetDef detection_getset[] = {
    {"language", detection_language, nullptr, "The top language's code, or 'und' (no letters, or not natural language).",
     nullptr},
    {"languages", detection_languages, nullptr, "Up to three Language objects, most bytes first.", nullptr},
    {"text_bytes", detection_text_bytes, nullptr, "Bytes of the text's letters and what joins them.", nullptr},
    {"examined_bytes", detection_examined_bytes, nullptr, "Bytes actually scored (fewer when sampled).", nullptr},
    {"reliable", detection_reliable, nullptr,
     "The top language is clearly ahead (calibrated confidence >= 0.9), fits its profile, and has >= 70 % of the text.",
     nullptr},
    {"is_short", detection_is_short, nullptr, "Fewer than short_text_bytes (400) text bytes: the guess is still given.",
     nullptr},
    {"confidence", detection_confidence, nullptr,
     "Calibrated probability (0..1) that `language` is right: among answers given p, about p are right. 0 for 'und'.",
     nullptr},
    {"probabilities", detection_probabilities, nullptr,
     "The k most probable labels as (code, p), most probable first (detect(k=); () when k is 0, the default). "
     "They sum to at most 1; a text in several languages spreads them by its languages' shares.",
     nullptr},
    {"margin", detection_margin, nullptr, "The score lead behind `confidence` (model units).", nullptr},
    {"sampled", detection_sampled, nullptr, "The text exceeded max_text_bytes and was sampled.", nullptr},
    {"status", detection_status, nullptr,
     "'ok', or what was unusual: 'empty_input' (no letters), 'truncated' (longer than max_input_bytes: a prefix was "
     "examined), 'invalid_utf8' (lone surrogates were replaced), 'binary_input' (a page body that is not text).",
     nullptr},
    {"spans", detection_spans, nullptr,
     "detect(spans=True) or keep=...: the language spans, a tuple of Span(start, end, language) in str indices that "
     "cover the text (of its first max_input_bytes when status is 'truncated'), neighbours differing in language; "
     "None when not asked.",
     nullptr},
    {"kept_text", detection_kept_text, nullptr,
     "detect(keep=...): the text of the spans in those languages, each stretch of them stripped of the whitespace at "
     "its ends, the stretches joined by '\\n' ('' when none); None when not asked.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef detection_methods[] = {
    {"to_dict", detection_to_dict, METH_NOARGS,
     "to_dict() -> dict: the fields of `langsift detect --format jsonl`: language, languages [{code, percent, bytes, "
     "score}], text_bytes, reliable, short, confidence, and sampled / status when they say something; "
     "probabilities [[code, p], ...] when k was given (as --top-k)."},
    {"__reduce__", detection_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

PyObject* no_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_Format(PyExc_TypeError, "cannot create '%s' objects: langsift's functions return them", type->tp_name);
  return nullptr;
}

PyType_Slot language_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(no_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(language_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(language_repr_raw)},
    {Py_tp_richcompare, reinterpret_cast<void*>(language_richcompare)},
    {Py_tp_hash, reinterpret_cast<void*>(language_hash)},
    {Py_tp_getset, language_getset},
    {Py_tp_methods, language_methods},
    {Py_tp_doc, const_cast<char*>("One detected language: its code, share of the text (percent), bytes and fit score.")},
    {0, nullptr}};
PyType_Spec language_spec = {"langsift.Language", sizeof(language_object), 0, Py_TPFLAGS_DEFAULT, language_slots};

PyType_Slot detection_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(no_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(detection_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(detection_repr_raw)},
    {Py_tp_richcompare, reinterpret_cast<void*>(detection_richcompare)},
    {Py_tp_hash, reinterpret_cast<void*>(detection_hash)},
    {Py_tp_getset, detection_getset},
    {Py_tp_methods, detection_methods},
    {Py_tp_doc, const_cast<char*>("The languages of one text: up to three, most bytes first. `language` is the top "
                                  "one, or 'und'. Made by detect(), detect_many(), detect_page() and read_warc().")},
    {0, nullptr}};
PyType_Spec detection_spec = {"langsift.Detection", sizeof(detection_object), 0, Py_TPFLAGS_DEFAULT, detection_slots};

PyObject* language_from_state_raw(PyObject*, PyObject* arg) {
  return guarded([&]() -> PyObject* {
    return new_language(language_from_state(arg));
  });
}

PyObject* value_from_state_raw(PyObject*, PyObject* args) {
  return guarded([&]() -> PyObject* {
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 2) throw py::type_error("_value_from_state(name, state)");
    const std::string_view name = str_view(PyTuple_GET_ITEM(args, 0), "name");
    for (const auto& [n, from_state] : value_kinds())
      if (n == name) return from_state(PyTuple_GET_ITEM(args, 1)).release().ptr();
    throw py::value_error("not a langsift value type: " + langsift::detail::quoted_value(name));
  });
}

PyObject* detection_from_state_raw(PyObject*, PyObject* arg) {
  return guarded([&]() -> PyObject* {
    // detection_state's ten fields (nine before probabilities), and with spans two more: the
    // spans and the kept text (twelve; eleven before probabilities).
    const Py_ssize_t n = PyTuple_Check(arg) ? PyTuple_GET_SIZE(arg) : 0;
    const bool with_spans = n == 11 || n == 12;
    const Py_ssize_t base = with_spans ? n - 2 : n;
    py::object state = py::reinterpret_borrow<py::object>(arg);
    if (with_spans) state = py::reinterpret_steal<py::object>(PyTuple_GetSlice(arg, 0, base));
    py::object o = py::reinterpret_steal<py::object>(new_detection(detection_from_state(state)));
    if (!o || !with_spans) return o.release().ptr();
    const state_reader r(arg, "Detection", static_cast<std::size_t>(n));
    const py::tuple ss = r.items(static_cast<std::size_t>(base), SIZE_MAX);
    py::tuple spans(ss.size());
    for (std::size_t i = 0; i < ss.size(); ++i) spans[i] = py::cast(span_from_state(ss[i]));
    const py::handle kept = r.at(static_cast<std::size_t>(base) + 1);
    if (!kept.is_none() && !PyUnicode_Check(kept.ptr())) r.fail();
    auto* d = reinterpret_cast<detection_object*>(o.ptr());
    d->spans = spans.release().ptr();
    if (!kept.is_none()) d->kept = py::reinterpret_borrow<py::object>(kept).release().ptr();
    return o.release().ptr();
  });
}

}  // namespace

void bind_result_objects(py::module_& m) {
  g_module = m.ptr();
  g_language_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&language_spec));
  if (!g_language_type) throw py::error_already_set();
  g_detection_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&detection_spec));
  if (!g_detection_type) throw py::error_already_set();
  m.attr("Language") = py::handle(reinterpret_cast<PyObject*>(g_language_type));
  m.attr("Detection") = py::handle(reinterpret_cast<PyObject*>(g_detection_type));
  // Unpicklers: plain functions bound to the module, so that pickle finds them by name (a pybind11
  // function is bound to a capsule, which pickle cannot save).
  static PyMethodDef unpicklers[] = {
      {"_language_from_state", &language_from_state_raw, METH_O, "Unpickles a Language."},
      {"_detection_from_state", &detection_from_state_raw, METH_O, "Unpickles a Detection."},
      {"_value_from_state", &value_from_state_raw, METH_VARARGS, "Unpickles a PageResult, UrlResult, WarcRecord..."},
      {nullptr, nullptr, 0, nullptr}};
  if (PyModule_AddFunctions(m.ptr(), unpicklers) < 0) throw py::error_already_set();
  g_value_from_state = m.attr("_value_from_state").ptr();
}

}  // namespace langsift_py
