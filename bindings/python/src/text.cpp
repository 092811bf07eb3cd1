// langsift._langsift — text in and out (text.hpp).
#include "text.hpp"

#include <cstdio>
#include <cstdlib>

#include "langsift/detail/utf8.hpp"

namespace langsift_py {

// ------------------------------------------------------------------------------------------------
// Text out

std::string valid_utf8(std::string_view s) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = b + s.size();
  const auto* p = b;
  for (langsift::detail::utf8_decoded d{}; p < e; p += d.len) {  // the common case: valid as it is
    d = langsift::detail::decode_utf8_step(p, e);
    if (!d.valid) break;
  }
  if (p == e) return std::string(s);
  std::string r(s.substr(0, static_cast<std::size_t>(p - b)));
  while (p < e) {
    const langsift::detail::utf8_decoded d = langsift::detail::decode_utf8_step(p, e);
    if (d.valid) r.append(reinterpret_cast<const char*>(p), d.len);
    else r += "\xef\xbf\xbd";
    p += d.valid ? d.len : 1;
  }
  return r;
}

py::str text_of(std::string_view s) { return py::str(valid_utf8(s)); }

std::string text_repr(std::string_view s) { return py::repr(text_of(s)); }

double round3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return std::strtod(buf, nullptr);
}

double round4g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return std::strtod(buf, nullptr);
}

std::string fmt_float(double v, const char* f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// ------------------------------------------------------------------------------------------------
// Text in

void take_utf8_core(py::handle obj, std::size_t cap, std::string_view& view, py::object& keep, bool& truncated,
                    bool& replaced, const char* fn) {
  if (!PyUnicode_Check(obj.ptr())) {
    if (obj.is_none()) throw py::type_error(std::string(fn) + "() takes str, not None");
    if (PyBytes_Check(obj.ptr()) || PyByteArray_Check(obj.ptr()))
      throw py::type_error(std::string(fn) + "() takes str, not bytes: decode it, or pass a page's bytes to detect_page()");
    throw py::type_error(std::string(fn) + "() takes str, not " + std::string(py::str(obj.get_type().attr("__name__"))));
  }
  PyObject* s = obj.ptr();
  if (static_cast<std::size_t>(PyUnicode_GET_LENGTH(s)) > cap) {
    // More code points than the cap has bytes: encode only a prefix (memory stays bounded).
    keep = py::reinterpret_steal<py::object>(PyUnicode_Substring(s, 0, static_cast<Py_ssize_t>(cap)));
    if (!keep) throw py::error_already_set();
    s = keep.ptr();
    truncated = true;
  }
  if (PyUnicode_IS_COMPACT_ASCII(s)) {
    view = std::string_view(static_cast<const char*>(PyUnicode_DATA(s)), static_cast<std::size_t>(PyUnicode_GET_LENGTH(s)));
  } else {
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(s, &n);  // cached in the str (or in keep's prefix)
    if (p) {
      view = std::string_view(p, static_cast<std::size_t>(n));
    } else {
      if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();
      PyErr_Clear();  // lone surrogates: each becomes U+FFFD, as invalid UTF-8 does (the codec's
                      // "replace" would write '?')
      const Py_ssize_t len = PyUnicode_GET_LENGTH(s);
      const int kind = PyUnicode_KIND(s);
      const void* data = PyUnicode_DATA(s);
      std::string out;
      out.reserve(static_cast<std::size_t>(len) * 3);
      for (Py_ssize_t i = 0; i < len; ++i) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD;
        langsift::detail::append_utf8(out, static_cast<char32_t>(c));
      }
      py::object enc = py::reinterpret_steal<py::object>(PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size())));
      if (!enc) throw py::error_already_set();
      keep = std::move(enc);
      view = std::string_view(PyBytes_AS_STRING(keep.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(keep.ptr())));
      replaced = true;
    }
  }
  if (view.size() > cap) {  // cut at a character boundary
    view = view.substr(0, langsift::detail::utf8_cut_back(view.data(), cap, 0));
    truncated = true;
  }
}

void take_utf8(py::handle obj, std::size_t cap, utf8_text& t, const char* fn) {
  take_utf8_core(obj, cap, t.view, t.keep, t.truncated, t.replaced, fn);
}

void take_bytes(py::handle obj, std::size_t cap, byte_input& b, const char* fn) {
  if (PyBytes_Check(obj.ptr())) {
    b.view = std::string_view(PyBytes_AS_STRING(obj.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(obj.ptr())));
  } else if (PyByteArray_Check(obj.ptr()) || PyMemoryView_Check(obj.ptr()) || PyObject_CheckBuffer(obj.ptr())) {
    if (PyUnicode_Check(obj.ptr())) throw py::type_error(std::string(fn) + "() takes bytes, not str");
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
    const std::size_t n = static_cast<std::size_t>(info.size * info.itemsize);
    b.store.assign(static_cast<const char*>(info.ptr), std::min(n, cap));
    b.view = b.store;
    b.truncated = n > cap;
    return;
  } else if (obj.is_none()) {
    throw py::type_error(std::string(fn) + "() takes bytes, not None");
  } else if (PyUnicode_Check(obj.ptr())) {
    throw py::type_error(std::string(fn) + "() takes the page's bytes, not str: for text use detect()");
  } else {
    throw py::type_error(std::string(fn) + "() takes bytes, not " + std::string(py::str(obj.get_type().attr("__name__"))));
  }
  if (b.view.size() > cap) {
    b.view = b.view.substr(0, cap);
    b.truncated = true;
  }
}

}  // namespace langsift_py
