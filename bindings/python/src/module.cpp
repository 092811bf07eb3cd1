// langsift._langsift — the compiled layer of the Python package (pybind11 over the C++ library).
//
// The C++ types stay in C++: Python sees small result classes that own their values (codes are
// copied, so a result outlives the model it came from), with repr(), to_dict() (the field names of
// `langsift detect --format jsonl` / `langsift warc`) and pickling. Work on copied or immutable
// inputs runs with the GIL released; batches cross the boundary once. Errors map onto Python's:
// wrong types -> TypeError, bad values -> ValueError, unreadable models -> langsift.ModelError (an
// OSError), malformed WARC input -> langsift.WarcFormatError (or a warning), never a crash.
#define PY_SSIZE_T_CLEAN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detail/immortal.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/filter.hpp"
#include "langsift/frontier.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/options.hpp"
#include "langsift/page.hpp"
#include "langsift/parallel.hpp"
#include "langsift/spans.hpp"
#include "langsift/url_models.hpp"
#include "langsift/version.hpp"
#include "langsift/warc.hpp"
#include "langsift/warc_report.hpp"

namespace py = pybind11;
using namespace langsift;

// Arguments taken as Python objects (checked by the functions themselves, for clear TypeErrors) but
// shown in help() under the type they should be: a py::handle under another name.
namespace langsift_py {
#define LANGSIFT_PY_ARG(T) \
  struct T : py::handle {  \
    T() = default;         \
    explicit T(py::handle h) : py::handle(h) {} \
  };
LANGSIFT_PY_ARG(str_in)
LANGSIFT_PY_ARG(opt_str_in)
LANGSIFT_PY_ARG(texts_in)
LANGSIFT_PY_ARG(codes_in)
LANGSIFT_PY_ARG(hints_in)
LANGSIFT_PY_ARG(body_in)
LANGSIFT_PY_ARG(model_source_in)
LANGSIFT_PY_ARG(warc_source_in)
LANGSIFT_PY_ARG(path_in)
LANGSIFT_PY_ARG(opt_int_in)
#undef LANGSIFT_PY_ARG
}  // namespace langsift_py
using namespace langsift_py;

namespace pybind11::detail {
#define LANGSIFT_PY_ARG_CASTER(T, NAME)                                                     \
  template <>                                                                               \
  struct type_caster<T> {                                                                   \
    PYBIND11_TYPE_CASTER(T, const_name(NAME));                                              \
    bool load(handle src, bool) {                                                           \
      value = T(src);                                                                       \
      return true;                                                                          \
    }                                                                                       \
    static handle cast(const T& v, return_value_policy, handle) { return v.inc_ref(); }    \
  };
LANGSIFT_PY_ARG_CASTER(str_in, "str")
LANGSIFT_PY_ARG_CASTER(opt_str_in, "str | None")
LANGSIFT_PY_ARG_CASTER(texts_in, "Iterable[str]")
LANGSIFT_PY_ARG_CASTER(codes_in, "str | Iterable[str] | None")
LANGSIFT_PY_ARG_CASTER(hints_in, "str | Iterable[str] | dict | None")
LANGSIFT_PY_ARG_CASTER(body_in, "bytes")
LANGSIFT_PY_ARG_CASTER(model_source_in, "str | os.PathLike | bytes")
LANGSIFT_PY_ARG_CASTER(warc_source_in, "str | os.PathLike | BinaryIO | bytes")
LANGSIFT_PY_ARG_CASTER(path_in, "str | bytes | os.PathLike")
LANGSIFT_PY_ARG_CASTER(opt_int_in, "int | None")
#undef LANGSIFT_PY_ARG_CASTER
}  // namespace pybind11::detail

namespace {

// ------------------------------------------------------------------------------------------------
// Exceptions

PyObject* g_error = nullptr;        // langsift.LangsiftError(Exception)
PyObject* g_model_error = nullptr;  // langsift.ModelError(LangsiftError, OSError)
PyObject* g_warc_error = nullptr;   // langsift.WarcFormatError(LangsiftError, ValueError)
PyObject* g_warc_warning = nullptr; // langsift.WarcFormatWarning(UserWarning)

/// Bytes of a file name or of a message that holds one, as str: os.fsdecode (the file system
/// encoding with surrogateescape), so that any name the OS gave or took comes back unchanged.
py::str fs_str(std::string_view bytes) {
  PyObject* s = PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size()));
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

/// Raises `type(message)` with a `status` attribute (and `offset`, when given).
[[noreturn]] void raise_with_status(PyObject* type, py::handle message, status st,
                                    std::optional<std::uint64_t> offset = std::nullopt) {
  py::object e = py::reinterpret_borrow<py::object>(type)(message);
  e.attr("status") = std::string(status_name(st));
  if (offset) e.attr("offset") = *offset;
  PyErr_SetObject(type, e.ptr());
  throw py::error_already_set();
}

/// The same with the message as bytes (it may hold a file name that is not UTF-8: see fs_str).
[[noreturn]] void raise_with_status(PyObject* type, const std::string& message, status st,
                                    std::optional<std::uint64_t> offset = std::nullopt) {
  raise_with_status(type, fs_str(message), st, offset);
}

// ------------------------------------------------------------------------------------------------
// Paths

/// A path argument as open() takes it: str, bytes or os.PathLike. `bytes` is what the OS gets
/// (os.fsencode(os.fspath(x)): the file system encoding with surrogateescape, so a name that is not
/// UTF-8 works), `name` the str for messages (os.fsdecode of it).
struct fs_path {
  std::string bytes;
  py::str name;
};

fs_path path_arg(py::handle h) {
  PyObject* b = nullptr;
  if (!PyUnicode_FSConverter(h.ptr(), &b)) throw py::error_already_set();  // TypeError, or ValueError for a NUL
  py::bytes owned = py::reinterpret_steal<py::bytes>(b);
  fs_path p;
  p.bytes.assign(PyBytes_AS_STRING(b), static_cast<std::size_t>(PyBytes_GET_SIZE(b)));
  p.name = fs_str(p.bytes);
  return p;
}

// ------------------------------------------------------------------------------------------------
// The GIL
//
// Long calls run with the GIL released and take it back at the end. At interpreter exit, CPython
// (before 3.14) ends a thread that asks for the GIL back (a daemon thread still inside langsift)
// with pthread_exit: on glibc a forced unwind (abi::__forced_unwind) that runs the destructors of
// every C++ frame on the thread's stack. Crossing pybind11's gil_scoped_release destructor
// (implicitly noexcept) it called std::terminate ("terminate called without an active exception",
// exit 134); and past it, destructors would drop Python references without the GIL while the
// main thread finalizes. So wherever this module may take the GIL back — the end of a released
// scope (gil_released), a call into Python from work without the GIL (read_warc's file objects), a
// reference dropped in a destructor that may close a file — it does so in parking_if_ended(), which
// parks a thread the interpreter ends: it sleeps until the process exits, touching nothing, as
// CPython 3.14 itself does with such threads (python/cpython#87135). A thread the interpreter does
// not end (the finalizing thread itself, or any thread before finalization) is not affected. The
// objects such threads use are never destroyed (detail::immortal), as exit() may run meanwhile.

[[noreturn]] void park_thread() noexcept {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

/// Runs f, a call into CPython that may take the GIL back (after releasing it, or running Python
/// code that does): if the finalizing interpreter ends the thread there, it is parked instead of
/// unwinding. f calls C functions only and throws no C++ exception of its own, so what can come out
/// of it is the thread's exit: glibc's forced unwind (abi::__forced_unwind), caught with `...` —
/// it is a foreign exception, and binding a reference to it is undefined behaviour (UBSan: null
/// reference) — to park the thread, never to let it run on.
template <class F>
auto parking_if_ended(F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (...) {
    park_thread();
  }
}

/// PyEval_RestoreThread(ts), except that a thread the finalizing interpreter ends is parked.
void restore_thread(PyThreadState* ts) noexcept {
  parking_if_ended([ts] { PyEval_RestoreThread(ts); });
}

/// Py_XDECREF of an object whose deallocation may release the GIL (a file object closing its file),
/// from code that must not unwind (a destructor).
void decref_parking(PyObject* o) noexcept {
  parking_if_ended([o] { Py_XDECREF(o); });
}

/// The thread state the innermost gil_released scope of this thread saved (null outside one).
thread_local PyThreadState* t_released_state = nullptr;

/// Releases the GIL for its scope (instead of py::gil_scoped_release: see above).
class gil_released {
 public:
  gil_released() noexcept : ts_(PyEval_SaveThread()), outer_(t_released_state) { t_released_state = ts_; }
  ~gil_released() {
    t_released_state = outer_;
    restore_thread(ts_);
  }
  gil_released(const gil_released&) = delete;
  gil_released& operator=(const gil_released&) = delete;

 private:
  PyThreadState* ts_;
  PyThreadState* outer_;
};

/// Runs f (C API calls only, no C++ exception) with the GIL, from work without it: the thread takes
/// the GIL back with the state its gil_released scope saved and releases it again after, so a
/// thread the finalizing interpreter ends is parked (restore_thread). Not PyGILState_Ensure: a
/// daemon thread that calls it late in finalization, after CPython (3.11) has ended its gilstate,
/// gets a null interpreter (PyThreadState_New(NULL): a SEGV at 0x28, seen under ASan in
/// test_stress's interpreter-exit test of read_warc over file objects). Outside a gil_released
/// scope (not a path this module takes) it falls back to PyGILState_Ensure.
template <class F>
auto with_gil_back(F&& f) noexcept -> decltype(f()) {
  PyThreadState* ts = t_released_state;
  return parking_if_ended([&] {
    if (ts == nullptr) {
      const PyGILState_STATE g = PyGILState_Ensure();
      auto r = f();
      PyGILState_Release(g);
      return r;
    }
    PyEval_RestoreThread(ts);
    auto r = f();
    PyEval_SaveThread();
    return r;
  });
}

// ------------------------------------------------------------------------------------------------
// Codes

/// A language code held by value (codes are at most 15 bytes; ISO 639-3 forms at most 16).
struct code_value {
  std::array<char, 24> s{};
  std::uint8_t n = 0;
  std::string_view view() const noexcept { return {s.data(), n}; }
  static code_value of(std::string_view c, code_style style) {
    code_value r;
    if (style == code_style::iso639_3) {
      const std::string t = to_iso639_3(c);
      r.n = static_cast<std::uint8_t>(std::min<std::size_t>(t.size(), r.s.size() - 1));
      std::memcpy(r.s.data(), t.data(), r.n);
    } else {
      r.n = static_cast<std::uint8_t>(std::min<std::size_t>(c.size(), r.s.size() - 1));
      std::memcpy(r.s.data(), c.data(), r.n);
    }
    return r;
  }
};

py::str to_py(std::string_view s) { return py::str(s.data(), s.size()); }

/// A string taken from input (a WARC header value, a declared charset) as valid UTF-8, as the JSON
/// lines have it (detail::json::utf8_string): each byte of an invalid sequence becomes U+FFFD. So
/// a result's str fields can always be read, and equal its to_dict().
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

/// valid_utf8(s) as a str.
py::str text_of(std::string_view s) { return py::str(valid_utf8(s)); }

/// repr() of text_of(s): quoted and escaped as Python quotes a str.
std::string text_repr(std::string_view s) { return py::repr(text_of(s)); }

/// A `codes=` argument by the library's names (parse_code_style), or ValueError.
code_style parse_codes(const std::string& s) {
  if (const auto style = langsift::parse_code_style(s)) return *style;
  throw py::value_error("codes must be 'iso639-1' or 'iso639-3', not " + quoted(s));
}

/// Rounds as `%.3f` does in the JSON lines, so that to_dict() equals json.loads() of them.
double round3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return std::strtod(buf, nullptr);
}

/// Rounds as `%.4g` does for the probabilities of the JSON lines (detail::json::probabilities_field).
double round4g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return std::strtod(buf, nullptr);
}

// ------------------------------------------------------------------------------------------------
// Models

struct py_model {
  std::shared_ptr<const model> m;
  bool builtin = false;
  explicit py_model(std::shared_ptr<const model> mm, bool b) : m(std::move(mm)), builtin(b) {}
};

// The Model objects of the built-in models are never destroyed (as the models themselves: threads
// may still be detecting with them while the process exits; see detail::immortal).
std::shared_ptr<py_model> builtin_model() {
  static const detail::immortal<std::shared_ptr<py_model>> m(
      std::make_shared<py_model>(std::shared_ptr<const model>(&default_model(), [](const model*) {}), true));
  return m.get();
}

/// Model.builtin(name): the built-in model of that name, one shared object per name.
std::shared_ptr<py_model> builtin_model_named(choice_in name_h) {
  const std::string name = str_value(name_h, "name");
  if (name == "default") return builtin_model();
  static detail::immortal<std::shared_ptr<py_model>> wide_holder;  // guarded by the GIL
  std::shared_ptr<py_model>& wide = wide_holder.get();
  if (name == "wide" && wide) return wide;
  const model* found = nullptr;
  std::string error;
  status st;
  {
    gil_released nogil;  // the first call parses the model
    st = langsift::builtin_model(name, found, &error);
  }
  if (st == status::invalid_argument)  // the name quoted as messages quote what was given (no NUL cuts it)
    throw py::value_error("no built-in model named " + quoted(name) + " (built-in models: default, wide)");
  if (st != status::ok) raise_with_status(g_model_error, error + " (" + std::string(status_name(st)) + ")", st);
  auto pm = std::make_shared<py_model>(std::shared_ptr<const model>(found, [](const model*) {}), true);
  if (name == "wide") wide = pm;
  return pm;
}

py::tuple builtin_model_names_py() {
  py::list l;
  for (const std::string_view n : langsift::builtin_model_names()) l.append(to_py(n));
  return py::tuple(l);
}

std::shared_ptr<py_model> model_or_default(const std::shared_ptr<py_model>& m) { return m ? m : builtin_model(); }

std::shared_ptr<py_model> load_model(model_source_in source) {
  auto m = std::make_shared<model>();
  status st;
  std::string error;
  if (PyBytes_Check(source.ptr()) || PyByteArray_Check(source.ptr()) || PyMemoryView_Check(source.ptr())) {
    std::string bytes;
    {
      py::buffer_info b = py::reinterpret_borrow<py::buffer>(source).request();
      bytes.assign(static_cast<const char*>(b.ptr), static_cast<std::size_t>(b.size * b.itemsize));
    }
    {
      gil_released nogil;
      st = model::load_copy(bytes, *m);
    }
    if (st != status::ok) error = "model bytes: not a valid langsift model";
  } else if (PyUnicode_Check(source.ptr()) || py::hasattr(source, "__fspath__")) {
    const fs_path path = path_arg(source);
    {
      gil_released nogil;
      st = model::load_file(path.bytes, *m, &error);
    }
    if (st != status::ok && error.empty()) error = path.bytes + ": cannot load the model";
  } else {
    throw py::type_error("Model.load() takes a path (str or os.PathLike) or the model's bytes, not " +
                         std::string(py::str(source.get_type().attr("__name__"))));
  }
  if (st != status::ok) raise_with_status(g_model_error, error + " (" + std::string(status_name(st)) + ")", st);
  return std::make_shared<py_model>(std::shared_ptr<const model>(std::move(m)), false);
}

// ------------------------------------------------------------------------------------------------
// Text in

/// UTF-8 of a Python str, bounded: at most `cap` bytes (cut at a character boundary). Lone
/// surrogates (which UTF-8 cannot hold) become U+FFFD. `view` points into the str or `store`.
struct utf8_text {
  std::string_view view;
  std::string store;
  py::object keep;        // an encoded bytes object `view` points into
  bool truncated = false; // longer than the cap: a prefix
  bool replaced = false;  // lone surrogates were replaced
};

/// The core of take_utf8: `view` and the flags are set; `keep` receives an object `view` points into
/// when it is not the str itself (a prefix, or an encoded copy), else stays empty.
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

/// Bytes of a bytes-like object. bytes are immutable and used in place; other buffers are copied
/// (another thread could change them while the GIL is released).
struct byte_input {
  std::string_view view;
  std::string store;
  bool truncated = false;
};

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

// ------------------------------------------------------------------------------------------------
// Options shared by the detect functions

constexpr std::size_t kMaxInputBytes = std::size_t{16} << 20;  // as `langsift detect --max-input-bytes`

/// `only` and `hints` as the C++ options hold them (views into this object's strings).
struct call_options {
  std::vector<std::string> only_codes;
  std::vector<std::string_view> only_views;
  std::string content_language, html_lang, languages, tld;
  float hint_weight = 1.0f;
  detect_options opt;
  code_style codes = code_style::iso639_1;
  std::shared_ptr<py_model> model;

  call_options() = default;
  call_options(const call_options&) = delete;
};

/// Language codes given as a str of codes separated by commas or white space, or an iterable of
/// str (each possibly such a list), in langsift's form: the library's split_code_list and
/// to_iso639_1 (parse_code_list: "deu" -> "de", "zh-hant" -> "zh-Hant"). `given` (optional)
/// receives each code as written, for messages.
std::vector<std::string> code_list(py::handle h, const char* what, std::vector<std::string>* given = nullptr) {
  std::vector<std::string> out;
  auto add = [&](std::string_view s) {
    for (const std::string_view item : langsift::split_code_list(s)) {
      out.push_back(to_iso639_1(item));
      if (given) given->emplace_back(item);
    }
  };
  if (PyUnicode_Check(h.ptr())) {
    add(str_view(h, what));
  } else if (PyBytes_Check(h.ptr()) || PyByteArray_Check(h.ptr())) {
    throw py::type_error(std::string(what) + " takes str codes, not bytes");
  } else {
    py::iterator it;
    try {
      it = py::iter(h);
    } catch (py::error_already_set&) {
      throw py::type_error(std::string(what) + " must be a str of comma-separated codes or an iterable of str, not " +
                           type_name(h));
    }
    for (py::handle x : it) {
      if (!PyUnicode_Check(x.ptr())) throw py::type_error(std::string(what) + " must hold str codes, not " + type_name(x));
      add(str_view(x, what));
    }
  }
  return out;
}

/// Raises ValueError when a code of `codes` (langsift's form; `given`: as written) names no
/// language that `unknown` accepts, naming every such code, each with a "did you mean" where
/// suggest_language_code() has one that is accepted. `unknown` is unknown_codes() of one model,
/// or unknown_builtin_codes().
template <class Unknown>
void require_codes(const std::vector<std::string>& codes, const std::vector<std::string>& given, const char* what,
                   const char* known_as, Unknown&& unknown) {
  const std::vector<std::string_view> views(codes.begin(), codes.end());
  std::string names;  // every unknown code, in one message
  for (const std::string_view bad : unknown(std::span<const std::string_view>(views))) {
    const std::size_t i = static_cast<std::size_t>(std::find(views.begin(), views.end(), bad) - views.begin());
    const std::string_view written = i < given.size() ? std::string_view(given[i]) : bad;
    names += (names.empty() ? "" : ", ") + quoted(written);
    const std::string s = suggest_language_code(written);
    const std::string_view sv = s;
    if (!s.empty() && unknown(std::span<const std::string_view>(&sv, 1)).empty())
      names += " (did you mean '" + s + "'?)";
  }
  if (!names.empty()) throw py::value_error(std::string(what) + ": not a language " + known_as + ": " + names);
}

/// Codes a call with model `m` can restrict to or be hinted with (`only`, hints): the model's.
void require_model_codes(const model& m, const std::vector<std::string>& codes, const std::vector<std::string>& given,
                         const char* what) {
  require_codes(codes, given, what, "of the model",
                [&](std::span<const std::string_view> v) { return langsift::unknown_codes(m, v); });
}

/// Codes matched against detections of any model (filter labels, frontier quotas and votes):
/// those of the built-in models and scripts, and of `also` (a Model given to the filter or frontier).
void require_known_codes(const std::vector<std::string>& codes, const std::vector<std::string>& given, const char* what,
                         const model* also) {
  require_codes(codes, given, what, also ? "of the built-in models or of the given model" : "langsift knows",
                [&](std::span<const std::string_view> v) { return langsift::unknown_builtin_codes(v, also); });
}

/// A model named by a str (langsift::resolve_model's rule, as the tools' --model): a built-in
/// model's name selects it, whether or not a file so named exists; any other str, and any
/// os.PathLike, is a model file. The last file loaded so is kept with its identity (device, inode,
/// size, modification time), so that a loop of detect(text, model="my.lsm") reads it once, and a
/// file changed since is read again.
std::shared_ptr<py_model> named_model(py::handle h) {
  const bool str = PyUnicode_Check(h.ptr());
  if (str) {
    if (PyUnicode_GetLength(h.ptr()) == 0) return builtin_model();  // as resolve_model(""), --model ""
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
    if (!utf8) PyErr_Clear();  // a str with lone surrogates is no name
    else if (langsift::is_builtin_model_name(std::string_view(utf8, static_cast<std::size_t>(n))))
      return builtin_model_named(choice_in(h));
  }
  fs_path path;
  try {
    path = path_arg(h);
  } catch (py::error_already_set& e) {  // a NUL, a surrogate the file system encoding cannot take, a bad __fspath__
    const std::string why = "model: not a built-in model's name nor a path: " + std::string(py::str(e.value()));
    if (e.matches(PyExc_ValueError)) throw py::value_error(why);
    if (e.matches(PyExc_TypeError)) throw py::type_error(why);
    throw;
  }
  struct file_model {
    std::string path;
    struct stat st {};
    std::shared_ptr<py_model> model;
  };
  static detail::immortal<file_model> last_holder;  // guarded by the GIL
  file_model& last = last_holder.get();
  struct stat st {};
  const bool known = ::stat(path.bytes.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (known && last.model && last.path == path.bytes && last.st.st_dev == st.st_dev && last.st.st_ino == st.st_ino &&
      last.st.st_size == st.st_size && last.st.st_mtim.tv_sec == st.st_mtim.tv_sec &&
      last.st.st_mtim.tv_nsec == st.st_mtim.tv_nsec)
    return last.model;
  auto loaded = std::make_shared<model>();
  std::string error;
  status result;
  {
    gil_released nogil;
    result = model::load_file(path.bytes, *loaded, &error);
  }
  if (result != status::ok) {  // named as the argument, and as what a str could have been
    if (error.empty()) error = path.bytes + ": cannot load the model";
    raise_with_status(g_model_error,
                      "model: " + error + " (" + std::string(status_name(result)) + ")" +
                          (str ? "; not a built-in model's name either (default, wide)" : ""),
                      result);
  }
  auto m = std::make_shared<py_model>(std::shared_ptr<const model>(std::move(loaded)), false);
  if (known) last = file_model{path.bytes, st, m};
  return m;
}

/// A Model argument: the model; a built-in model's name or a model file's path (named_model); or
/// null for None (the default model).
std::shared_ptr<py_model> model_arg(py::handle h) {
  if (h.is_none()) return nullptr;
  if (PyUnicode_Check(h.ptr()) || (!PyBytes_Check(h.ptr()) && py::hasattr(h, "__fspath__"))) return named_model(h);
  if (!py::isinstance<py_model>(h))
    throw py::type_error("model must be a langsift.Model, a built-in model's name (\"default\", \"wide\"), a model "
                         "file's path or None, not " + type_name(h));
  return h.cast<std::shared_ptr<py_model>>();
}

code_style codes_arg(py::handle h) { return parse_codes(str_value(h, "codes")); }

/// The detect functions' common keyword arguments, converted and checked.
void fill_options(call_options& c, model_in model, codes_in only, hints_in hints, choice_in codes, int_in max_text_bytes,
                  int_in short_text_bytes) {
  c.model = model_or_default(model_arg(model));
  c.codes = codes_arg(codes);
  c.opt.max_text_bytes = static_cast<std::size_t>(int_arg(max_text_bytes, "max_text_bytes", 256, SIZE_MAX));
  c.opt.short_text_bytes = static_cast<std::size_t>(int_arg(short_text_bytes, "short_text_bytes", 0, SIZE_MAX));
  if (!only.is_none()) {
    std::vector<std::string> given;
    c.only_codes = code_list(only, "only", &given);
    if (c.only_codes.empty()) throw py::value_error("only is empty: give at least one language code, or None");
    require_model_codes(*c.model->m, c.only_codes, given, "only");
    c.only_views.assign(c.only_codes.begin(), c.only_codes.end());
    c.opt.only = c.only_views;
  }
  if (!hints.is_none()) {
    auto codes_of = [&](py::handle v) {  // hint codes: checked as `only` is
      std::vector<std::string> given;
      const std::vector<std::string> list = code_list(v, "hints", &given);
      require_model_codes(*c.model->m, list, given, "hints");
      std::string joined;
      for (const auto& x : list) joined += (joined.empty() ? "" : ",") + x;
      return joined;
    };
    if (PyDict_Check(hints.ptr())) {
      for (auto [k, v] : py::reinterpret_borrow<py::dict>(hints)) {
        if (!PyUnicode_Check(k.ptr())) throw py::type_error("hints: keys must be str, not " + type_name(k));
        const std::string key = str_value(k, "hints: a key");
        if (key == "weight") {
          c.hint_weight = static_cast<float>(float_arg(v, "hints['weight']", 0, 100));
        } else if (key == "languages") {
          if (!v.is_none()) c.languages = codes_of(v);
        } else if (key == "content_language" || key == "html_lang" || key == "tld") {
          // As a page or a server sends them ("de-DE, en;q=0.8", a host; or a list of tags): not checked.
          const std::string what = "hints['" + key + "']";
          std::string value;
          if (PyUnicode_Check(v.ptr())) {
            value = str_value(v, what.c_str());
          } else if (!v.is_none()) {
            for (const auto& x : code_list(v, what.c_str())) value += (value.empty() ? "" : ",") + x;
          }
          (key == "content_language" ? c.content_language : key == "html_lang" ? c.html_lang : c.tld) = std::move(value);
        } else {
          throw py::value_error("hints: unknown key " + quoted(key) + " (content_language, html_lang, languages, tld, weight)");
        }
      }
    } else {
      c.languages = codes_of(hints);
    }
    c.opt.hints.content_language = c.content_language;
    c.opt.hints.html_lang = c.html_lang;
    c.opt.hints.languages = c.languages;
    c.opt.hints.tld = c.tld;
    c.opt.hints.weight = c.hint_weight;
  }
}

// ------------------------------------------------------------------------------------------------
// Results

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
void mark_input(py_detection& d, bool truncated, bool replaced) {
  if (d.st != status::ok) return;
  if (truncated) d.st = status::truncated;
  else if (replaced) d.st = status::invalid_utf8;
}

py::dict language_dict(const py_language& l) {
  py::dict x;
  x["code"] = to_py(l.code.view());
  x["percent"] = l.percent;
  x["bytes"] = l.bytes;
  x["score"] = round3(l.score);
  return x;
}

py::dict detection_dict(const py_detection& d) {
  py::dict x;
  x["language"] = to_py(d.language());
  py::list ls;
  for (std::size_t i = 0; i < d.count; ++i) ls.append(language_dict(d.langs[i]));
  x["languages"] = ls;
  x["text_bytes"] = d.text_bytes;
  x["reliable"] = d.reliable;
  x["short"] = d.is_short;
  x["confidence"] = round3(d.confidence);
  if (d.sampled) x["sampled"] = true;
  if (d.st != status::ok) x["status"] = std::string(status_name(d.st));
  if (d.with_probabilities) {  // as `langsift detect --top-k` (JSON arrays: lists)
    py::list ps;
    for (const py_probability& q : d.probs) {
      py::list pair;
      pair.append(to_py(q.code.view()));
      pair.append(round4g(q.p));
      ps.append(pair);
    }
    x["probabilities"] = ps;
  }
  return x;
}

/// detect(k=): Detection.probabilities, a tuple of (code, p).
py::tuple probabilities_tuple(const py_detection& d) {
  py::tuple t(d.probs.size());
  for (std::size_t i = 0; i < d.probs.size(); ++i) t[i] = py::make_tuple(to_py(d.probs[i].code.view()), static_cast<double>(d.probs[i].p));
  return t;
}

std::string fmt_float(double v, const char* f = "%.3f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string language_repr(const py_language& l) {
  return "Language(code='" + std::string(l.code.view()) + "', percent=" + std::to_string(l.percent) +
         ", bytes=" + std::to_string(l.bytes) + ", score=" + fmt_float(l.score) + ")";
}

std::string detection_repr(const py_detection& d) {
  std::string r = "Detection(language='" + std::string(d.language()) + "', languages=[";
  for (std::size_t i = 0; i < d.count; ++i) r += (i ? ", " : "") + language_repr(d.langs[i]);
  r += "], text_bytes=" + std::to_string(d.text_bytes) + ", reliable=" + (d.reliable ? "True" : "False") +
       ", is_short=" + (d.is_short ? "True" : "False") + ", confidence=" + fmt_float(d.confidence) + ", status='" +
       std::string(status_name(d.st)) + "'";
  if (d.with_probabilities) {
    r += ", probabilities=(";
    for (std::size_t i = 0; i < d.probs.size(); ++i)
      r += (i ? ", " : "") + std::string("('") + std::string(d.probs[i].code.view()) + "', " + fmt_float(d.probs[i].p, "%.4g") + ")";
    r += d.probs.size() == 1 ? ",)" : ")";
  }
  return r + ")";
}

status status_of(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(status::too_large); ++i)
    if (status_name(static_cast<status>(i)) == name) return static_cast<status>(i);
  throw py::value_error("unknown status " + quoted(name));
}

// ------------------------------------------------------------------------------------------------
// Value semantics of the results: each result type has a state, a tuple of its values (plain
// Python values, nested tuples), from which pickling, copy, equality and the hash all follow, so
// they cannot disagree.

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

py::tuple language_state(const py_language& l) {
  return py::make_tuple(to_py(l.code.view()), l.percent, l.bytes, static_cast<double>(l.score));
}

py_language language_from_state(py::handle h) {
  const state_reader r(h, "Language", 4);
  return {r.code(0), static_cast<int>(r.uint(1, 100)), r.uint(2), r.real(3)};
}

py::tuple span_state(const py_span& x) { return py::make_tuple(x.start, x.end, to_py(x.code.view())); }

py_span span_from_state(py::handle h) {
  const state_reader r(h, "Span", 3);
  py_span x{r.uint(0), r.uint(1), r.code(2)};
  if (x.start > x.end) r.fail();
  return x;
}

std::string span_repr(const py_span& x) {
  return "Span(start=" + std::to_string(x.start) + ", end=" + std::to_string(x.end) + ", language='" +
         std::string(x.code.view()) + "')";
}

py::tuple detection_state(const py_detection& d) {
  py::tuple ls(d.count);
  for (std::size_t i = 0; i < d.count; ++i) ls[i] = language_state(d.langs[i]);
  return py::make_tuple(ls, d.text_bytes, d.examined_bytes, static_cast<double>(d.confidence),
                        static_cast<double>(d.margin), d.reliable, d.is_short, d.sampled, std::string(status_name(d.st)),
                        d.with_probabilities ? py::object(probabilities_tuple(d)) : py::object(py::none()));
}

py_detection detection_from_state(py::handle h) {
  // 10 fields; 9 in pickles made before probabilities (#30).
  const bool has_probabilities = PyTuple_Check(h.ptr()) && PyTuple_GET_SIZE(h.ptr()) == 10;
  const state_reader r(h, "Detection", has_probabilities ? 10 : 9);
  py_detection d;
  for (py::handle l : r.items(0, 3)) d.langs[d.count++] = language_from_state(l);
  d.text_bytes = r.uint(1);
  d.examined_bytes = r.uint(2);
  d.confidence = r.real(3);
  d.margin = r.real(4);
  d.reliable = r.flag(5);
  d.is_short = r.flag(6);
  d.sampled = r.flag(7);
  d.st = r.checked([&] { return status_of(r.str(8)); });
  if (has_probabilities && !r.at(9).is_none()) {
    d.with_probabilities = true;
    for (py::handle x : r.items(9, max_top_k)) {
      const state_reader q(x, "Detection", 2);
      const float p = q.real(1);
      if (!(p >= 0 && p <= 1)) r.fail();
      d.probs.push_back({q.code(0), p});
    }
  }
  return d;
}

/// The unpicklers of the pybind11 value types, by the type's name: `_value_from_state(name, state)`.
std::vector<std::pair<std::string, std::function<py::object(py::handle)>>>& value_kinds() {
  static std::vector<std::pair<std::string, std::function<py::object(py::handle)>>> kinds;  // filled at import
  return kinds;
}
PyObject* g_value_from_state = nullptr;  // langsift._langsift._value_from_state (borrowed from the module)

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
void not_pickled(py::module_& m, const char* name, const char* instead) {
  py::object cls = m.attr(name);
  const std::string message = std::string("cannot pickle a langsift.") + name + ": " + instead;
  cls.attr("__reduce_ex__") = py::cpp_function([message](py::handle, py::handle) -> py::object {
    throw py::type_error(message);
  }, py::name("__reduce_ex__"), py::is_method(cls), py::arg("protocol"));
}

// ------------------------------------------------------------------------------------------------
// Detection and Language as plain CPython types: one is made per detect() call, so their cost is
// the call's overhead (a pybind11 instance costs several times more: a separate holder allocation
// and its entry in pybind11's instance registry). pybind11 functions take and return them through
// the type casters below.

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

PyTypeObject* g_language_type = nullptr;
PyTypeObject* g_detection_type = nullptr;
PyObject* g_module = nullptr;  // borrowed: the module lives as long as the types

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

/// A Detection whose value the caller fills before anyone sees it (detect_many: its threads write
/// each result once, instead of over a default value).
detection_object* new_detection_unfilled() {
  auto* o = PyObject_New(detection_object, g_detection_type);
  if (o) {
    new (&o->v) py_detection();
    o->languages = o->spans = o->kept = nullptr;
  }
  return o;
}

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

const py_language& lang_of(PyObject* self) { return reinterpret_cast<language_object*>(self)->v; }
const py_detection& det_of(PyObject* self) { return reinterpret_cast<detection_object*>(self)->v; }

PyObject* str_of(std::string_view s) { return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size())); }

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
    throw py::value_error("not a langsift value type: " + quoted(name));
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

namespace pybind11::detail {

template <>
struct type_caster<py_language> {
  PYBIND11_TYPE_CASTER(py_language, const_name("Language"));
  bool load(handle src, bool) {
    if (!g_language_type || !PyObject_TypeCheck(src.ptr(), g_language_type)) return false;
    value = lang_of(src.ptr());
    return true;
  }
  static handle cast(const py_language& v, return_value_policy, handle) {
    PyObject* o = new_language(v);
    if (!o) throw error_already_set();
    return o;
  }
};

template <>
struct type_caster<py_detection> {
  PYBIND11_TYPE_CASTER(py_detection, const_name("Detection"));
  bool load(handle src, bool) {
    if (!g_detection_type || !PyObject_TypeCheck(src.ptr(), g_detection_type)) return false;
    value = det_of(src.ptr());
    return true;
  }
  static handle cast(const py_detection& v, return_value_policy, handle) {
    PyObject* o = new_detection(v);
    if (!o) throw error_already_set();
    return o;
  }
};

}  // namespace pybind11::detail

namespace {

struct py_page {
  py_detection detection;
  std::string encoding, encoding_source, declared_encoding, html_lang;
  float encoding_confidence = 0;
  bool is_html = false, declared_overridden = false;
  std::uint64_t replaced_bytes = 0;
  std::optional<std::string> text;  // the page's text (page_result::text), when it was kept

  static py_page of(const page_result& p, code_style style, std::size_t k = 0) {
    py_page r;
    r.detection = py_detection::of(p.detection, style, k);
    r.encoding = p.encoding.name;
    r.encoding_source = std::string(encoding_source_name(p.encoding.source));
    r.encoding_confidence = p.encoding.confidence;
    r.declared_encoding = valid_utf8(p.encoding.declared);  // the page's own bytes
    r.html_lang = valid_utf8(p.html_lang);
    r.declared_overridden = p.encoding.declared_overridden;
    r.is_html = p.is_html;
    r.replaced_bytes = p.conversion.replaced_bytes;
    return r;
  }
};

/// Strings that come from the input (a declared charset, WARC headers) may be any bytes: states
/// hold them as bytes, exactly.
py::bytes bytes_of(const std::string& s) { return py::bytes(s.data(), s.size()); }

py::tuple page_state(const py_page& p) {
  return py::make_tuple(detection_state(p.detection), bytes_of(p.encoding), bytes_of(p.encoding_source),
                        static_cast<double>(p.encoding_confidence), bytes_of(p.declared_encoding), p.declared_overridden,
                        p.is_html, bytes_of(p.html_lang), p.replaced_bytes,
                        p.text ? py::object(bytes_of(*p.text)) : py::object(py::none()));
}

/// A bytes field of a state (a str also, as older pickles hold).
std::string state_bytes(const state_reader& r, std::size_t i) {
  const py::handle x = r.at(i);
  if (PyBytes_Check(x.ptr())) return std::string(PyBytes_AS_STRING(x.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(x.ptr())));
  return r.str(i);
}

py_page page_from_state(py::handle h) {
  // 10 fields; 9 before the text (older pickles).
  const bool nine = PyTuple_Check(h.ptr()) && PyTuple_GET_SIZE(h.ptr()) == 9;
  const state_reader r(h, "PageResult", nine ? 9 : 10);
  py_page p;
  p.detection = detection_from_state(r.at(0));
  p.encoding = state_bytes(r, 1);
  p.encoding_source = state_bytes(r, 2);
  p.encoding_confidence = r.real(3);
  p.declared_encoding = state_bytes(r, 4);
  p.declared_overridden = r.flag(5);
  p.is_html = r.flag(6);
  p.html_lang = state_bytes(r, 7);
  p.replaced_bytes = r.uint(8);
  if (!nine && !r.at(9).is_none()) {
    if (!PyBytes_Check(r.at(9).ptr())) r.fail();
    p.text = state_bytes(r, 9);
  }
  return p;
}

py::dict page_dict(const py_page& p) {
  py::dict x = detection_dict(p.detection);
  if (!p.encoding.empty()) {
    x["encoding"] = p.encoding;
    x["encoding_source"] = p.encoding_source;
  }
  return x;
}

struct py_url_language {
  code_value code;
  float score = 0;
};

struct py_url_result {
  std::array<py_url_language, 3> langs{};
  std::uint8_t count = 0;
  std::string decision;
  status st = status::ok;
  std::string_view language() const noexcept { return count ? langs[0].code.view() : std::string_view("und"); }
};

py::tuple url_language_state(const py_url_language& l) {
  return py::make_tuple(to_py(l.code.view()), static_cast<double>(l.score));
}

py_url_language url_language_from_state(py::handle h) {
  const state_reader r(h, "UrlLanguage", 2);
  return {r.code(0), r.real(1)};
}

py::tuple url_result_state(const py_url_result& u) {
  py::tuple ls(u.count);
  for (std::size_t i = 0; i < u.count; ++i) ls[i] = url_language_state(u.langs[i]);
  return py::make_tuple(ls, u.decision, std::string(status_name(u.st)));
}

py_url_result url_result_from_state(py::handle h) {
  const state_reader r(h, "UrlResult", 3);
  py_url_result u;
  for (py::handle l : r.items(0, 3)) u.langs[u.count++] = url_language_from_state(l);
  u.decision = r.str(1);
  if (u.decision != "none" && u.decision != "model" && u.decision != "pattern" && u.decision != "country") r.fail();
  u.st = r.checked([&] { return status_of(r.str(2)); });
  return u;
}

py::dict url_dict(const py_url_result& u) {
  py::dict x;
  x["language"] = to_py(u.language());
  py::list ls;
  for (std::size_t i = 0; i < u.count; ++i) {
    py::dict l;
    l["code"] = to_py(u.langs[i].code.view());
    l["score"] = round3(u.langs[i].score);
    ls.append(l);
  }
  x["languages"] = ls;
  x["decision"] = u.decision;
  if (u.st != status::ok) x["status"] = std::string(status_name(u.st));
  return x;
}

// ------------------------------------------------------------------------------------------------
// Detection entry points

/// The k argument of the detect functions: how many probabilities (0..max_top_k).
std::size_t k_arg(int_in k) { return static_cast<std::size_t>(int_arg(k, "k", 0, max_top_k)); }

/// The spans of `text` (UTF-8 of a str) as a tuple of Span in str indices: a byte offset's index
/// is the number of code points before it (every byte but the continuation bytes starts one).
py::tuple spans_tuple(std::string_view text, const std::vector<langsift::span>& spans, code_style style) {
  py::tuple t(spans.size());
  std::size_t at = 0, index = 0;
  auto index_of = [&](std::size_t b) {
    for (; at < b && at < text.size(); ++at) index += !langsift::detail::is_utf8_continuation(static_cast<unsigned char>(text[at]));
    return static_cast<std::uint64_t>(index);
  };
  for (std::size_t i = 0; i < spans.size(); ++i) {
    py_span x;
    x.start = index_of(spans[i].begin);
    x.end = index_of(spans[i].end);
    x.code = code_value::of(spans[i].code, style);
    t[i] = py::cast(x);
  }
  return t;
}

py::object detect_one(str_in text, model_in model, codes_in only, hints_in hints, choice_in codes,
                      int_in max_text_bytes, int_in short_text_bytes, int_in max_input_bytes, bool_in spans_h,
                      codes_in keep_h, int_in k) {
  call_options c;
  fill_options(c, model, only, hints, codes, max_text_bytes, short_text_bytes);
  c.opt.top_k = k_arg(k);
  std::vector<std::string> keep_codes;
  std::vector<std::string_view> keep_views;
  if (!keep_h.is_none()) {
    std::vector<std::string> given;
    keep_codes = code_list(keep_h, "keep", &given);
    if (keep_codes.empty()) throw py::value_error("keep is empty: give at least one language code, or None");
    require_model_codes(*c.model->m, keep_codes, given, "keep");
    keep_views.assign(keep_codes.begin(), keep_codes.end());
  }
  const bool want_spans = bool_arg(spans_h, "spans") || !keep_views.empty();
  utf8_text t;
  take_utf8(text, static_cast<std::size_t>(int_arg(max_input_bytes, "max_input_bytes", 0, SIZE_MAX)), t, "detect");
  detection d;
  std::vector<langsift::span> spans;
  std::string kept;
  {
    gil_released nogil;
    d = langsift::detect(*c.model->m, t.view, c.opt);
    if (want_spans) {
      langsift::detect_spans(*c.model->m, t.view, spans, c.opt);
      if (!keep_views.empty()) kept = langsift::kept_text(t.view, spans, keep_views);
    }
  }
  py_detection r = py_detection::of(d, c.codes, c.opt.top_k);
  mark_input(r, t.truncated, t.replaced);
  py::object o = py::reinterpret_steal<py::object>(new_detection(r));
  if (!o) throw py::error_already_set();
  if (want_spans) {
    auto* x = reinterpret_cast<detection_object*>(o.ptr());
    x->spans = spans_tuple(t.view, spans, c.codes).release().ptr();
    if (!keep_views.empty()) x->kept = to_py(kept).release().ptr();
  }
  return o;
}


PyObject* g_detect_general = nullptr;  // langsift._langsift._detect (borrowed from the module)

constexpr const char* kDetectDoc =
    "detect(text, /, *, model=None, only=None, hints=None, codes='iso639-1', max_text_bytes=65536, "
    "short_text_bytes=400, max_input_bytes=16777216, spans=False, keep=None, k=0)\n--\n\nThe languages of a text (str): up to three, with percent of the text and bytes.\n"
    "\n"
    "    >>> langsift.detect(\"Der schnelle braune Fuchs springt über den faulen Hund.\").language\n"
    "    'de'\n"
    "\n"
    "only: codes to choose from (a comma-separated str or an iterable), e.g. [\"de\", \"nl\"]; codes the\n"
    "  model does not know raise ValueError.\n"
    "hints: what you know: a code or codes (priors for close calls), or a dict with any of\n"
    "  content_language, html_lang, languages, tld ('de' or a host) and weight (default 1).\n"
    "codes: 'iso639-1' (default: ISO 639-1 where one exists, else ISO 639-3) or 'iso639-3'.\n"
    "model: a langsift.Model, a built-in model's name ('wide') or a model file's path (a built-in\n"
    "  name wins over a file so named, as the tools' --model; default: the built-in model).\n"
    "max_text_bytes: text examined at most; longer text is sampled (`sampled`).\n"
    "short_text_bytes: below this many text bytes `is_short` is set.\n"
    "max_input_bytes: a longer text is cut to this many UTF-8 bytes (status 'truncated').\n"
    "spans: also find where each language is: `spans` is a tuple of Span(start, end, language), str\n"
    "  indices that cover the text, neighbours differing in language ('und': none), e.g.\n"
    "  [text[s.start:s.end] for s in d.spans if s.language == 'br']. The whole text is read (not\n"
    "  sampled); a span is never shorter than 40 bytes unless it is the only one.\n"
    "keep: codes (as `only`): `kept_text` is the text of the spans in these languages, each stretch\n"
    "  of them without its outer whitespace, joined by '\\n' (implies spans).\n"
    "k: Detection.probabilities holds the k (0..16) most probable languages as (code, p), calibrated\n"
    "  probabilities; `confidence` is the top language's whatever k is.\n"
    "\n"
    "Lone surrogates are replaced (status 'invalid_utf8'). Raises TypeError for anything but a str.\n"
    "The GIL is released while detecting; any number of threads may call it at once.";

/// detect(): the common call (one str, no keywords) in plain CPython, without pybind11's argument
/// dispatch; anything else goes to the pybind11 function `_detect`.
PyObject* fast_detect(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs != 1 || (kwnames && PyTuple_GET_SIZE(kwnames) > 0))
    return PyObject_Vectorcall(g_detect_general, args, static_cast<std::size_t>(nargs), kwnames);
  return guarded([&]() -> PyObject* {
    utf8_text t;
    take_utf8(args[0], kMaxInputBytes, t, "detect");
    const model& md = *builtin_model()->m;
    static const detect_options no_probabilities = [] {  // k=0: confidence only
      detect_options o;
      o.top_k = 0;
      return o;
    }();
    detection d;
    {
      gil_released nogil;
      d = langsift::detect(md, t.view, no_probabilities);
    }
    py_detection r = py_detection::of(d, code_style::iso639_1);
    mark_input(r, t.truncated, t.replaced);
    return new_detection(r);
  });
}

py::list detect_many(texts_in texts, int_in threads_h, model_in model, codes_in only, hints_in hints, choice_in codes,
                     int_in max_text_bytes, int_in short_text_bytes, int_in max_input_bytes_h, int_in k_h) {
  if (texts.is_none()) throw py::type_error("detect_many() takes an iterable of str, not None");
  if (PyUnicode_Check(texts.ptr()) || PyBytes_Check(texts.ptr()))
    throw py::type_error("detect_many() takes an iterable of str (a list of texts), not a single str or bytes");
  const auto threads = static_cast<unsigned>(int_arg(threads_h, "threads", 0, UINT_MAX));
  const auto max_input_bytes = static_cast<std::size_t>(int_arg(max_input_bytes_h, "max_input_bytes", 0, SIZE_MAX));
  call_options c;
  fill_options(c, model, only, hints, codes, max_text_bytes, short_text_bytes);
  c.opt.top_k = k_arg(k_h);
  // A copy of the list (or the items of any iterable): it holds a reference to every text while the
  // GIL is released, even if another thread empties the caller's list meanwhile.
  py::list seq = list_arg(texts, "detect_many(): texts", "str");
  const std::size_t n = seq.size();
  // The inputs as views (into the str objects, or into `keep` for the rare prefix or re-encoded
  // text), and the result objects made up front: the threads fill them in place without the GIL,
  // so a batch costs one allocation per text and no copy of the results.
  struct item {
    std::string_view text;
    bool truncated, replaced;
  };
  std::vector<item> in(n);
  std::vector<py::object> keep;
  for (std::size_t i = 0; i < n; ++i) {
    py::object k;
    take_utf8_core(PyList_GET_ITEM(seq.ptr(), static_cast<Py_ssize_t>(i)), max_input_bytes, in[i].text, k,
                   in[i].truncated, in[i].replaced, "detect_many");
    if (k) keep.push_back(std::move(k));
  }
  py::list r(n);
  std::vector<detection_object*> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    detection_object* o = new_detection_unfilled();
    if (!o) throw py::error_already_set();
    o->v.count = 0;  // a valid value until the threads write the real one (if they fail: an error)
    out[i] = o;
    PyList_SET_ITEM(r.ptr(), static_cast<Py_ssize_t>(i), reinterpret_cast<PyObject*>(o));
  }
  {
    // Chunks of 16 texts from a shared counter, at least 16 texts a thread; an exception (bad_alloc)
    // is rethrown once the threads are joined, with the GIL held again (MemoryError).
    gil_released nogil;
    langsift::parallel_for(n, threads, 16, 16, [&](std::size_t i) {
      py_detection& d = out[i]->v;
      py_detection::fill(d, langsift::detect(*c.model->m, in[i].text, c.opt), c.codes, c.opt.top_k);
      mark_input(d, in[i].truncated, in[i].replaced);
    });
  }
  return r;
}

page_kind parse_kind(py::handle h) {
  const std::string_view k = str_view(h, "kind");
  if (k == "sniff") return page_kind::sniff;
  if (k == "html") return page_kind::html;
  if (k == "text") return page_kind::text;
  throw py::value_error("kind must be 'sniff', 'html' or 'text', not " + quoted(k));
}

py_page detect_page_py(body_in body, opt_str_in content_type, opt_str_in content_language, opt_str_in url,
                       opt_str_in encoding, choice_in kind, bool_in main_content, model_in model, codes_in only,
                       hints_in hints, choice_in codes, int_in max_text_bytes, int_in short_text_bytes,
                       int_in max_input_bytes_h, int_in k) {
  call_options c;
  fill_options(c, model, only, hints, codes, max_text_bytes, short_text_bytes);
  c.opt.top_k = k_arg(k);
  const auto max_input_bytes = static_cast<std::size_t>(int_arg(max_input_bytes_h, "max_input_bytes", 0, SIZE_MAX));
  byte_input b;
  take_bytes(body, max_input_bytes, b, "detect_page");
  const auto ct = opt_str_value(content_type, "content_type"), cl = opt_str_value(content_language, "content_language"),
             u = opt_str_value(url, "url"), enc = opt_str_value(encoding, "encoding");
  page_options po;
  if (ct) po.content_type = *ct;
  if (cl) po.content_language = *cl;
  if (u) po.url = *u;
  if (enc) {
    // A forced encoding must be one a converter knows (as on the command line and in the C ABI).
    if (!can_convert(*enc)) throw py::value_error("encoding: " + quoted(*enc) + " is not an encoding langsift can decode");
    po.encoding = *enc;
  }
  po.kind = parse_kind(kind);
  po.main_content = bool_arg(main_content, "main_content");
  po.max_html_bytes = std::max(po.max_html_bytes, max_input_bytes);  // max_input_bytes rules
  po.detect = c.opt;
  po.keep_text = true;  // PageResult.text
  page_result pr;
  {
    gil_released nogil;
    pr = langsift::detect_page(*c.model->m, b.view, po);
  }
  py_page r = py_page::of(pr, c.codes, c.opt.top_k);
  r.text = std::move(pr.text);
  mark_input(r.detection, b.truncated, false);
  return r;
}

/// extract_text(): the text detect_page() examines (PageResult.text), without detecting languages.
py::str extract_text_py(body_in body, opt_str_in content_type, bool_in main) {
  byte_input b;
  take_bytes(body, SIZE_MAX, b, "extract_text");  // the whole body: nothing is cut
  const auto ct = opt_str_value(content_type, "content_type");
  page_options po;
  if (ct) po.content_type = *ct;
  po.main_content = bool_arg(main, "main");
  po.max_html_bytes = std::max(po.max_html_bytes, b.view.size());
  page_text t;
  {
    gil_released nogil;
    t = langsift::extract_page_text(b.view, po);
  }
  if (t.st == status::out_of_memory) throw std::bad_alloc();
  return text_of(t.text);
}

/// The country argument of classify_url() and decide(): None, or two ASCII letters (an ISO 3166-1
/// code; one the classifier does not know is no hint).
std::string country_arg(py::handle h) {
  const auto cc = opt_str_value(h, "country");
  if (!cc) return {};
  if (cc->size() != 2 || !langsift::detail::is_ascii_alpha(static_cast<unsigned char>((*cc)[0])) ||
      !langsift::detail::is_ascii_alpha(static_cast<unsigned char>((*cc)[1])))
    throw py::value_error("country must be a two-letter ISO 3166-1 code, e.g. 'DE', not " + quoted(*cc));
  return *cc;
}

py_url_result classify_url_py(str_in url, opt_str_in country, choice_in codes) {
  const code_style style = codes_arg(codes);
  utf8_text t;
  take_utf8(url, std::size_t{1} << 20, t, "classify_url");
  const std::string cc = country_arg(country);
  url_options o;
  o.country_hint = cc;
  url_result r;
  {
    gil_released nogil;
    r = default_url_classifier().classify(t.view, o);
  }
  py_url_result x;
  x.count = static_cast<std::uint8_t>(r.count);
  for (std::size_t i = 0; i < r.count; ++i) x.langs[i] = {code_value::of(r.languages[i].code, style), r.languages[i].score};
  x.decision = std::string(url_decision_name(r.decision));
  x.st = r.st;
  if (x.st == status::ok && t.truncated) x.st = status::truncated;
  else if (x.st == status::ok && t.replaced) x.st = status::invalid_utf8;
  return x;
}

// ------------------------------------------------------------------------------------------------
// WARC

struct py_warc_record {
  std::uint64_t offset = 0, length = 0;
  std::string warc_type, url, record_id, content_type, content_language, skipped, problem, line;
  int http_status = -1;
  std::optional<py_page> page;
};

py::tuple warc_record_state(const py_warc_record& r) {
  return py::make_tuple(r.offset, r.length, bytes_of(r.warc_type), bytes_of(r.url), bytes_of(r.record_id),
                        bytes_of(r.content_type), bytes_of(r.content_language), bytes_of(r.skipped),
                        bytes_of(r.problem), bytes_of(r.line), r.http_status,
                        r.page ? py::object(page_state(*r.page)) : py::object(py::none()));
}

py_warc_record warc_record_from_state(py::handle h) {
  const state_reader s(h, "WarcRecord", 12);
  py_warc_record r;
  r.offset = s.uint(0);
  r.length = s.uint(1);
  r.warc_type = state_bytes(s, 2);
  r.url = state_bytes(s, 3);
  r.record_id = state_bytes(s, 4);
  r.content_type = state_bytes(s, 5);
  r.content_language = state_bytes(s, 6);
  r.skipped = state_bytes(s, 7);
  r.problem = state_bytes(s, 8);
  r.line = state_bytes(s, 9);
  int overflow = 0;  // -1: no HTTP status
  const bool none = PyLong_CheckExact(s.at(10).ptr()) && PyLong_AsLongAndOverflow(s.at(10).ptr(), &overflow) == -1 && !overflow;
  r.http_status = none ? -1 : static_cast<int>(s.uint(10, 999));
  if (!s.at(11).is_none()) r.page = page_from_state(s.at(11));
  return r;
}

struct py_warc_stats {
  warc_statistics s;
};

py::tuple warc_stats_state(const py_warc_stats& s) { return py::make_tuple(s.s.tsv()); }

py_warc_stats warc_stats_from_state(py::handle h) {
  const state_reader r(h, "WarcStats", 1);
  py_warc_stats s;
  std::string error;
  if (!warc_statistics::parse_tsv(r.str(0), s.s, &error)) throw py::value_error("not a WarcStats state: " + error);
  return s;
}

enum class error_mode { warn, raise, ignore };

/// read_warc keeps the first this many problems in `errors` and warns for them one by one
/// (errors='warn'); `error_count` counts them all.
constexpr std::size_t kMaxKeptErrors = 100;

/// A Python error taken out of the interpreter (PyErr_Fetch) to be raised later.
class fetched_error {
 public:
  fetched_error() = default;
  fetched_error(const fetched_error&) = delete;
  fetched_error& operator=(const fetched_error&) = delete;
  ~fetched_error() { clear(); }  // with the GIL (the reader is destroyed with it)
  explicit operator bool() const noexcept { return type_ != nullptr; }
  void fetch() noexcept {
    clear();
    PyErr_Fetch(&type_, &value_, &tb_);
  }
  const char* type_name() const noexcept {
    return type_ && PyType_Check(type_) ? reinterpret_cast<PyTypeObject*>(type_)->tp_name : "error";
  }
  [[noreturn]] void raise() {
    PyErr_Restore(std::exchange(type_, nullptr), std::exchange(value_, nullptr), std::exchange(tb_, nullptr));
    throw py::error_already_set();
  }

 private:
  void clear() noexcept {  // a traceback may hold the last reference to a file object
    decref_parking(std::exchange(type_, nullptr));
    decref_parking(std::exchange(value_, nullptr));
    decref_parking(std::exchange(tb_, nullptr));
  }
  PyObject* type_ = nullptr;
  PyObject* value_ = nullptr;
  PyObject* tb_ = nullptr;
};

/// read_warc(): an iterator of WarcRecord. One lock per reader serialises next() and close() across
/// threads (each record goes to one caller); it is waited for with the GIL released, since its
/// holder may need the GIL (a file object's read()). Everything the properties read changes only
/// with the GIL held, so they take no lock.
class py_warc_reader {
 public:
  py_warc_reader(py::handle source, const std::shared_ptr<py_model>& model, bool all, bool any_type, bool main_content,
                 std::size_t max_record_bytes, const std::string& codes, const std::string& errors,
                 std::size_t max_text_bytes, std::size_t short_text_bytes, const warc_report_options& corpus = {})
      : model_(model_or_default(model)) {
    // The text, the schema and the language filter (read_warc's text, schema, languages, min_probability).
    opt_.text = corpus.text;
    opt_.schema = corpus.schema;
    opt_.languages = corpus.languages;
    opt_.min_probability = corpus.min_probability;
    if (errors == "warn") mode_ = error_mode::warn;
    else if (errors == "raise" || errors == "strict") mode_ = error_mode::raise;
    else if (errors == "ignore") mode_ = error_mode::ignore;
    else throw py::value_error("errors must be 'warn', 'raise' or 'ignore', not '" + errors + "'");
    if (max_record_bytes < 1024) throw py::value_error("max_record_bytes must be at least 1024");
    if (max_text_bytes < 256) throw py::value_error("max_text_bytes must be at least 256");
    opt_.all = all;
    opt_.any_type = any_type;
    opt_.main_content = main_content;
    opt_.codes = parse_codes(codes);
    opt_.max_body_bytes = max_record_bytes;
    opt_.detect.max_text_bytes = max_text_bytes;
    opt_.detect.short_text_bytes = short_text_bytes;
    warc_options wo;
    wo.max_block_bytes = max_record_bytes;
    if (source.is_none()) throw py::type_error("read_warc() takes a path or a binary file object, not None");
    if (PyBytes_Check(source.ptr()) || PyByteArray_Check(source.ptr()) || PyMemoryView_Check(source.ptr())) {
      py::buffer_info b = py::reinterpret_borrow<py::buffer>(source).request();
      data_.assign(static_cast<const char*>(b.ptr), static_cast<std::size_t>(b.size * b.itemsize));
      name_ = py::str("<bytes>");
      source_ = "<bytes>";
      reader_ = std::make_unique<warc_reader>(std::string_view(data_), wo);
    } else if (PyUnicode_Check(source.ptr()) || py::hasattr(source, "__fspath__")) {
      const fs_path path = path_arg(source);
      name_ = path.name;
      source_ = path.bytes;  // the corpus schema's "source" (bytes that are not UTF-8 become U+FFFD)
      file_ = std::fopen(path.bytes.c_str(), "rb");
      if (!file_) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name_.ptr());
        throw py::error_already_set();
      }
      reader_ = std::make_unique<warc_reader>([this](char* buf, std::size_t n) { return read_file(buf, n); }, wo);
    } else if (py::hasattr(source, "read")) {
      if (py::hasattr(source, "mode")) {
        py::object m = source.attr("mode");
        if (PyUnicode_Check(m.ptr()) && std::string(py::str(m)).find('b') == std::string::npos)
          throw py::type_error("read_warc() needs a file opened in binary mode ('rb')");
      }
      pyfile_ = py::reinterpret_borrow<py::object>(source);
      name_ = py::str("<stream>");
      if (py::hasattr(source, "name")) {
        py::object n = source.attr("name");
        name_ = PyBytes_Check(n.ptr()) ? fs_str(std::string_view(PyBytes_AS_STRING(n.ptr()),
                                                                  static_cast<std::size_t>(PyBytes_GET_SIZE(n.ptr()))))
                                       : py::str(n);
      }
      source_ = py::str(name_).attr("encode")("utf-8", "surrogateescape").cast<std::string>();
      reader_ = std::make_unique<warc_reader>([this](char* buf, std::size_t n) { return read_py(buf, n); }, wo);
    } else {
      throw py::type_error("read_warc() takes a path (str or os.PathLike), a binary file object or the WARC's bytes, not " +
                           std::string(py::str(source.get_type().attr("__name__"))));
    }
  }
  py_warc_reader(const py_warc_reader&) = delete;
  py_warc_reader& operator=(const py_warc_reader&) = delete;
  // With the GIL, and no other thread inside (each holds a reference to the reader).
  ~py_warc_reader() { release(); }

  /// close(): reading ends (ValueError from then on); the file and buffers are freed (a file
  /// object given is not closed: its owner closes it). Waits for a next() of another thread to
  /// return; from inside the file object's read(), the next() running closes it on return.
  void close() {
    if (owner_.load() == std::this_thread::get_id()) {
      close_requested_ = true;
      return;
    }
    in_use use(*this);
    if (closed_) return;
    closed_ = true;
    release();
    warn_summary();
  }

  py_warc_record next() {
    if (owner_.load() == std::this_thread::get_id())
      throw py::value_error("WarcReader already executing: next() called from its file object's read()");
    in_use use(*this);
    check_open();
    if (done_) throw py::stop_iteration();
    for (;;) {
      warc_status st;
      warc_report x;
      bool problem = false;
      std::string err;
      std::uint64_t err_offset = 0;
      {
        gil_released nogil;
        st = reader_->next(r_);
        if (st == warc_status::error || (st == warc_status::record && !r_.problem.empty())) {
          problem = true;
          err = reader_->error();
          err_offset = reader_->error_offset();
        }
        if (st == warc_status::record && !source_error_ && file_errno_ == 0)
          x = report_warc_record(*model_->m, r_, opt_, opt_.schema == warc_schema::corpus ? &source_ : nullptr);
      }
      input_bytes_ = reader_->input_bytes();
      if (source_error_) {  // the file object's read() raised or returned what is not bytes, or a signal handler raised
        fail(source_error_.type_name());
        source_error_.raise();
      }
      if (file_errno_ != 0) {
        fail("OSError");
        errno = file_errno_;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name_.ptr());
        throw py::error_already_set();
      }
      if (close_requested_) {  // close() from inside the file object's read()
        closed_ = true;
        release();
        check_open();
      }
      if (problem) note_problem(err_offset, err);
      if (st == warc_status::end) {
        done_ = true;
        release();
        warn_summary();
        throw py::stop_iteration();
      }
      if (st == warc_status::record) stats_.s.add(x);
      if (st == warc_status::error || x.line.empty()) {  // not a record, or not a page and not asked for
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C over a long stretch of junk
        continue;
      }
      py_warc_record rec;
      rec.offset = r_.offset;
      rec.length = r_.length;
      rec.warc_type = valid_utf8(r_.type());  // header values are the input's bytes
      rec.url = valid_utf8(r_.target_uri());
      rec.record_id = valid_utf8(r_.record_id());
      rec.content_type = valid_utf8(x.content_type);
      rec.content_language = valid_utf8(x.content_language);
      rec.http_status = x.http_status;
      rec.skipped = std::string(x.skip_reason);
      rec.problem = r_.problem;
      rec.line = std::move(x.line);
      if (!rec.line.empty() && rec.line.back() == '\n') rec.line.pop_back();
      if (x.classified) {
        rec.page = py_page::of(x.page, opt_.codes);
        if (opt_.text || opt_.schema == warc_schema::corpus) rec.page->text = std::move(x.page.text);
      }
      return rec;
    }
  }

  /// For __iter__: a closed reader raises, as a closed file does.
  void check_open() const {
    if (closed_) throw py::value_error("I/O operation on closed reader");
    if (!failed_.empty()) {
      PyErr_Format(PyExc_ValueError, "%U: reading stopped at an earlier error (%s)", name_.ptr(), failed_.c_str());
      throw py::error_already_set();
    }
  }

  const py::list& errors() const { return errors_; }
  std::uint64_t error_count() const { return error_count_; }
  const py_warc_stats& stats() const { return stats_; }
  const py::str& name() const { return name_; }
  bool closed() const { return closed_; }
  std::uint64_t input_bytes() const { return input_bytes_; }

 private:
  /// The reader's lock, held by one thread at a time, with that thread's id (to refuse a re-entry
  /// from the file object's read(), which would wait for itself).
  struct in_use {
    explicit in_use(py_warc_reader& r) : r_(r), lock_(r.mutex_, std::try_to_lock) {
      if (!lock_.owns_lock()) {
        gil_released nogil;  // the holder may be waiting for the GIL
        lock_.lock();
      }
      r_.owner_.store(std::this_thread::get_id());
    }
    ~in_use() { r_.owner_.store(std::thread::id()); }
    in_use(const in_use&) = delete;
    in_use& operator=(const in_use&) = delete;

   private:
    py_warc_reader& r_;
    std::unique_lock<std::mutex> lock_;
  };

  /// Frees the input: the file, the C++ reader and its buffers, the file object's reference.
  void release() noexcept {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    reader_.reset();
    decref_parking(pyfile_.release().ptr());  // may close the file object (its last reference)
    std::string().swap(data_);
    std::string().swap(pending_);
    pending_pos_ = 0;
  }

  /// Reading cannot go on after an error of the input (or errors='raise'): later calls say so.
  void fail(const char* what) {
    done_ = true;
    failed_ = what;
    release();
  }

  /// Counts a problem of the input; keeps and warns for the first kMaxKeptErrors (then one summary
  /// at the end, warn_summary); raises for errors='raise'.
  void note_problem(std::uint64_t offset, const std::string& message) {
    stats_.s.add_malformed();
    ++error_count_;
    const bool kept = error_count_ <= kMaxKeptErrors;
    if (mode_ == error_mode::ignore && !kept) return;
    py::str text = py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "replace"));
    if (!text) throw py::error_already_set();
    if (kept) errors_.append(py::make_tuple(offset, text));
    py::str msg = py::reinterpret_steal<py::str>(PyUnicode_FromFormat("%U: offset %llu: %U", name_.ptr(),
                                                                      static_cast<unsigned long long>(offset), text.ptr()));
    if (!msg) throw py::error_already_set();
    if (mode_ == error_mode::raise) {
      fail("WarcFormatError");
      raise_with_status(g_warc_error, msg, status::invalid_argument, offset);
    }
    if (mode_ == error_mode::warn && kept && PyErr_WarnFormat(g_warc_warning, 2, "%U", msg.ptr()) < 0)
      throw py::error_already_set();
  }

  /// errors='warn': one warning for the problems past the first kMaxKeptErrors, at the end of the
  /// input or at close().
  void warn_summary() {
    if (mode_ != error_mode::warn || summary_warned_ || error_count_ <= kMaxKeptErrors) return;
    summary_warned_ = true;
    if (PyErr_WarnFormat(g_warc_warning, 2,
                         "%U: ... and %llu more problems, not warned one by one (reader.error_count: %llu; "
                         "reader.errors keeps the first %llu)",
                         name_.ptr(), static_cast<unsigned long long>(error_count_ - kMaxKeptErrors),
                         static_cast<unsigned long long>(error_count_),
                         static_cast<unsigned long long>(kMaxKeptErrors)) < 0)
      throw py::error_already_set();
  }

  /// Checks for a signal (Ctrl-C: KeyboardInterrupt) from work without the GIL that may go on
  /// for long (an endless stream of junk, /dev/zero, is searched for a record in one next()): false
  /// when a handler raised, its error kept for next() to raise.
  bool signals_ok() noexcept {
    return with_gil_back([this] {
      const bool ok = PyErr_CheckSignals() == 0;
      if (!ok) source_error_.fetch();
      return ok;
    });
  }

  /// The reader's source over a file opened by path (called without the GIL): checks for signals
  /// every 1 MiB.
  std::size_t read_file(char* buf, std::size_t n) noexcept {
    if (source_error_) return 0;
    read_since_check_ += n;
    if (read_since_check_ >= (std::size_t{1} << 20)) {
      read_since_check_ = 0;
      if (!signals_ok()) return 0;
    }
    const std::size_t k = std::fread(buf, 1, n, file_);
    if (k < n && std::ferror(file_)) {
      file_errno_ = errno ? errno : EIO;
      return 0;
    }
    return k;
  }

  /// The reader's source over a Python file object: called by reader_->next() without the GIL (the
  /// reader's lock held). Bytes beyond n that read() returned are kept for the next call. An
  /// error of read() (or a result that is not bytes-like) is kept for next() to raise, and reads as
  /// the end of the input meanwhile.
  std::size_t read_py(char* buf, std::size_t n) {
    if (source_error_) return 0;
    if (pending_pos_ < pending_.size()) {
      const std::size_t k = std::min(n, pending_.size() - pending_pos_);
      std::memcpy(buf, pending_.data() + pending_pos_, k);
      pending_pos_ += k;
      return k;
    }
    // Python runs here, and may release the GIL: if the interpreter ends this thread when it asks
    // for it back, the thread is parked here, without unwinding through the C++ reader.
    return with_gil_back([&] { return read_py_with_gil(buf, n); });
  }

  /// One read(n) of the file object, with the GIL; C API only, C++ exceptions caught (see read_py).
  std::size_t read_py_with_gil(char* buf, std::size_t n) {
    if (PyErr_CheckSignals() != 0) {  // read() of a C stream may not check (see signals_ok)
      source_error_.fetch();
      return 0;
    }
    PyObject* chunk = PyObject_CallMethod(pyfile_.ptr(), "read", "n",
                                          static_cast<Py_ssize_t>(std::min<std::size_t>(n, PY_SSIZE_T_MAX)));
    if (!chunk) {
      source_error_.fetch();
      return 0;
    }
    std::size_t k = 0;
    if (chunk == Py_None) {
      PyObject* args = Py_BuildValue("(is)", EAGAIN,
                                     "read_warc(): the file object's read() returned None (a non-blocking stream "
                                     "with no data ready); read_warc needs a blocking stream");
      if (args) {
        PyErr_SetObject(PyExc_BlockingIOError, args);
        Py_DECREF(args);
      }
    } else if (PyUnicode_Check(chunk)) {
      PyErr_SetString(PyExc_TypeError,
                      "read_warc(): the file object's read() returned str: open the file in binary mode ('rb')");
    } else if (!PyObject_CheckBuffer(chunk)) {
      PyErr_Format(PyExc_TypeError, "read_warc(): the file object's read() must return bytes or another bytes-like "
                   "object, not %.200s", Py_TYPE(chunk)->tp_name);
    } else {
      Py_buffer view;
      if (PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE) == 0) {  // any contiguous buffer, as bytes
        const auto len = static_cast<std::size_t>(view.len);
        k = std::min(len, n);
        std::memcpy(buf, view.buf, k);
        if (len > n) {  // more than asked for: the rest is the next call's
          try {
            pending_.assign(static_cast<const char*>(view.buf) + n, len - n);
            pending_pos_ = 0;
          } catch (const std::bad_alloc&) {
            PyErr_NoMemory();
          }
        }
        PyBuffer_Release(&view);
      }
    }
    Py_DECREF(chunk);
    if (PyErr_Occurred()) {
      source_error_.fetch();
      return 0;
    }
    return k;
  }

  std::shared_ptr<py_model> model_;
  warc_report_options opt_;
  error_mode mode_ = error_mode::warn;
  py::str name_;
  std::string source_;      // name_ as UTF-8 (with surrogateescape's bytes): the corpus schema's "source"
  std::FILE* file_ = nullptr;
  int file_errno_ = 0;      // a read error of file_
  std::size_t read_since_check_ = 0;  // bytes read since signals_ok()
  std::string data_;        // WARC bytes given in memory
  py::object pyfile_;
  std::string pending_;     // bytes a read() returned beyond what was asked, from pending_pos_
  std::size_t pending_pos_ = 0;
  fetched_error source_error_;
  std::unique_ptr<warc_reader> reader_;
  warc_record r_;
  py_warc_stats stats_;
  py::list errors_;         // the first kMaxKeptErrors problems: (offset, message)
  std::uint64_t error_count_ = 0;
  std::uint64_t input_bytes_ = 0;
  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};
  std::string failed_;      // set when an error ended reading: the error's type
  bool done_ = false, closed_ = false, close_requested_ = false, summary_warned_ = false;
};

// ------------------------------------------------------------------------------------------------
// Frontier

struct py_guess {
  code_value code;
  std::uint32_t votes = 0;
  float url_score = 0, probability = 0;
};

struct py_decision {
  bool fetch = true;
  std::string reason;
  float priority = 0;
  std::uint32_t votes = 0;
  std::vector<py_guess> guesses;
  std::string_view language() const noexcept { return guesses.empty() ? std::string_view("und") : guesses[0].code.view(); }
};

py::tuple guess_state(const py_guess& g) {
  return py::make_tuple(to_py(g.code.view()), g.votes, static_cast<double>(g.url_score),
                        static_cast<double>(g.probability));
}

py_guess guess_from_state(py::handle h) {
  const state_reader r(h, "FrontierGuess", 4);
  return {r.code(0), static_cast<std::uint32_t>(r.uint(1, UINT32_MAX)), r.real(2), r.real(3)};
}

py::tuple decision_state(const py_decision& d) {
  py::tuple g(d.guesses.size());
  for (std::size_t i = 0; i < d.guesses.size(); ++i) g[i] = guess_state(d.guesses[i]);
  return py::make_tuple(d.fetch, d.reason, static_cast<double>(d.priority), d.votes, g);
}

py_decision decision_from_state(py::handle h) {
  const state_reader r(h, "FrontierDecision", 5);
  py_decision d;
  d.fetch = r.flag(0);
  d.reason = r.str(1);
  d.priority = r.real(2);
  d.votes = static_cast<std::uint32_t>(r.uint(3, UINT32_MAX));
  for (py::handle g : r.items(4, frontier::kGuesses)) d.guesses.push_back(guess_from_state(g));
  return d;
}

constexpr const char* kFromConfigDoc =
    "A LanguageFilter from NCL-Crawl's configuration names, read by langsift's library as the Java bridge "
    "and the C ABI read them. `conf` is a mapping or a function returning a key's value (None when "
    "missing; other values are taken as their str()). Everything is off unless ``filter.lang.enable`` is "
    "true; then each filter is on when its ``.enable`` is true: ``filter.lang.label`` (codes in either ISO "
    "form, separated by commas or white space), ``filter.lang.minSize.bytes``, ``filter.lang.maxSize.bytes``, "
    "``filter.lang.minPercentage.limit``. Raises ValueError naming the key for a malformed or missing "
    "number, an empty label list or a label that names no language (as LanguageFilter checks labels; "
    "`model`: a Model whose codes are accepted too).";

/// LanguageFilter.from_config(conf, *, model=None): NCL-Crawl's names read by the library
/// (language_filter_from_config, as the C ABI and Java read them), from a mapping or a function
/// (None: not set; any other value as its str()); the labels checked as LanguageFilter() checks
/// them. What the mapping or function raises goes through.
language_filter filter_from_config(py::handle conf, model_in model) {
  const bool mapping = py::isinstance(conf, py::module_::import("collections.abc").attr("Mapping"));
  if (!mapping && !PyCallable_Check(conf.ptr()))
    throw py::type_error("conf must be a mapping or a function of a key, not " + type_name(conf));
  const py::object get = mapping ? py::getattr(conf, "get") : py::reinterpret_borrow<py::object>(conf);
  const std::shared_ptr<py_model> also = model_arg(model);
  std::string raw_labels;  // as the configuration wrote them, for the message about one
  const config_getter getter = [&](std::string_view key) -> std::optional<std::string> {
    const py::object v = get(to_py(key));
    if (v.is_none()) return std::nullopt;
    const std::string what(key);
    std::string value = str_value(PyUnicode_Check(v.ptr()) ? v : py::str(v), what.c_str());
    if (key == "filter.lang.label") raw_labels = value;
    return value;
  };
  language_filter f;
  std::string message;
  if (language_filter_from_config(getter, f, &message) != status::ok) throw py::value_error(message);
  if (f.use_labels) {
    const std::vector<std::string_view> split = split_code_list(raw_labels);
    require_known_codes(f.labels, std::vector<std::string>(split.begin(), split.end()), "filter.lang.label",
                        also ? also->m.get() : nullptr);
  }
  return f;
}

/// languages(model=None, *, codes='iso639-1'): the model's codes, in the style asked for.
py::tuple model_languages(model_in model, choice_in codes) {
  const std::shared_ptr<py_model> m = model_or_default(model_arg(model));
  const code_style style = codes_arg(codes);
  py::list l;
  for (std::size_t i = 0; i < m->m->language_count(); ++i) l.append(to_py(code_in_style(m->m->language_code(i), style)));
  return py::tuple(l);
}

py::tuple filter_state(const language_filter& f) {
  auto opt = [](bool on, std::uint64_t v) { return on ? py::object(py::int_(v)) : py::object(py::none()); };
  py::object labels = py::none();
  if (f.use_labels) {
    py::tuple t(f.labels.size());
    for (std::size_t i = 0; i < f.labels.size(); ++i) t[i] = py::str(f.labels[i]);
    labels = t;
  }
  return py::make_tuple(labels, opt(f.use_min_bytes, f.min_bytes), opt(f.use_max_bytes, f.max_bytes),
                        opt(f.use_min_percent, static_cast<std::uint64_t>(f.min_percent)),
                        f.use_min_probability ? py::object(py::float_(f.min_probability)) : py::object(py::none()));
}

/// The filter a state holds, its labels as they were accepted (by the built-in models, or by the
/// model the filter was made with): not checked again.
language_filter filter_from_state(py::handle h) {
  // 5 fields; 4 in pickles made before min_probability (#30).
  const bool has_probability = PyTuple_Check(h.ptr()) && PyTuple_GET_SIZE(h.ptr()) == 5;
  const state_reader r(h, "LanguageFilter", has_probability ? 5 : 4);
  language_filter f;
  if (!r.at(0).is_none()) {
    for (py::handle l : r.items(0, SIZE_MAX)) f.labels.push_back(r.checked([&] { return str_value(l, ""); }));
    if (f.labels.empty()) r.fail();
    f.use_labels = true;
  }
  auto opt = [&](std::size_t i, std::uint64_t hi, bool& on) -> std::uint64_t {
    on = !r.at(i).is_none();
    return on ? r.uint(i, hi) : 0;
  };
  f.min_bytes = static_cast<std::size_t>(opt(1, SIZE_MAX, f.use_min_bytes));
  f.max_bytes = static_cast<std::size_t>(opt(2, SIZE_MAX, f.use_max_bytes));
  f.min_percent = static_cast<int>(opt(3, 100, f.use_min_percent));
  if (has_probability && !r.at(4).is_none()) {
    f.min_probability = r.real(4);
    if (!(f.min_probability >= 0 && f.min_probability <= 1)) r.fail();
    f.use_min_probability = true;
  }
  return f;
}

py_decision decision_of(const frontier_decision& d) {
  py_decision r;
  r.fetch = d.fetch();
  r.reason = std::string(frontier_reason_name(d.reason));
  r.priority = d.priority;
  r.votes = d.votes;
  for (std::size_t i = 0; i < d.count; ++i)
    r.guesses.push_back({code_value::of(d.guesses[i].code.view(), code_style::iso639_1), d.guesses[i].votes,
                         d.guesses[i].url_score, d.guesses[i].probability});
  return r;
}

/// decide()'s keyword arguments, converted and checked.
struct decide_args {
  bool classify = true;
  std::string country;
  float min_url_score = 0;
  url_options o;  // o.country_hint views `country`: not copied or moved once set

  decide_args(py::handle classify_h, py::handle country_h, py::handle min_url_score_h)
      : classify(bool_arg(classify_h, "classify")),
        country(country_arg(country_h)),
        min_url_score(static_cast<float>(float_arg(min_url_score_h, "min_url_score", 0, 1))) {
    o.country_hint = country;
  }
  decide_args(const decide_args&) = delete;
};

/// The frontier's decision, with the URL classifier's scores when `classify` and when its top
/// language scores at least `min_url_score`: an answer below that (on URLs that carry no language,
/// the classifier spreads a little probability over many languages) is no evidence, and counting
/// it would weigh a link's referrer votes down.
frontier_decision decide_one(const frontier& f, std::string_view url, const decide_args& a) {
  if (!a.classify) return f.decide(url);
  const url_result u = default_url_classifier().classify(url, a.o);
  if (u.count == 0 || u.languages[0].score < a.min_url_score) return f.decide(url);
  return f.decide(url, &u);
}

/// A URL argument of the frontier, whole (its key is the URL's): TypeError for anything but a
/// str, ValueError for a lone surrogate (replacing it would give two URLs one key).
std::string_view url_arg(py::handle h, const char* what) { return str_view(h, what); }

/// URLs given as an iterable of str (a str alone is refused: it is one URL, not several).
std::vector<std::string_view> url_views(py::handle urls, const char* fn, py::list& keep) {
  if (PyUnicode_Check(urls.ptr()) || PyBytes_Check(urls.ptr()))
    throw py::type_error(std::string(fn) + "(): urls must be an iterable of str (URLs), not str or bytes (one URL)");
  keep = list_arg(urls, (std::string(fn) + "(): urls").c_str(), "str (URLs)");  // a copy: see detect_many
  std::vector<std::string_view> v;
  v.reserve(keep.size());
  for (std::size_t i = 0; i < keep.size(); ++i) {
    const std::string what = std::string(fn) + "(): urls[" + std::to_string(i) + "]";
    v.push_back(url_arg(PyList_GET_ITEM(keep.ptr(), static_cast<Py_ssize_t>(i)), what.c_str()));
  }
  return v;
}

class py_frontier {
 public:
  py_frontier(const frontier_options& o, std::shared_ptr<py_model> also)
      : f_(std::make_unique<frontier>(o)), also_(std::move(also)) {}

  frontier& f() { return *f_; }
  const frontier& f() const { return *f_; }

  /// A language code argument (either ISO form) in langsift's form, checked as filter labels are.
  std::string code(py::handle h, const char* what) const {
    std::vector<std::string> given{str_value(h, what)};
    std::vector<std::string> codes{to_iso639_1(given[0])};
    require_known_codes(codes, given, what, also_ ? also_->m.get() : nullptr);
    return std::move(codes[0]);
  }

  py_decision decide(str_in url, bool_in classify, opt_str_in country, float_in min_url_score) const {
    const std::string_view u = url_arg(url, "url");
    const decide_args a(classify, country, min_url_score);
    frontier_decision d;
    {
      gil_released nogil;
      d = decide_one(*f_, u, a);
    }
    return decision_of(d);
  }

  py::list decide_many(texts_in urls, bool_in classify, opt_str_in country, float_in min_url_score) const {
    py::list keep;
    const std::vector<std::string_view> in = url_views(urls, "decide_many", keep);
    const decide_args a(classify, country, min_url_score);
    std::vector<frontier_decision> out(in.size());
    {
      gil_released nogil;
      for (std::size_t i = 0; i < in.size(); ++i) out[i] = decide_one(*f_, in[i], a);
    }
    py::list r;
    for (const auto& d : out) r.append(py::cast(decision_of(d)));
    return r;
  }

 private:
  std::unique_ptr<frontier> f_;
  std::shared_ptr<py_model> also_;  // Frontier(model=...): its codes are accepted too
};

/// Adds `o` to `s`; a count past 2**64 - 1 is OverflowError with nothing added (as `langsift warc
/// --merge-stats` refuses it), never a wrapped count.
void merge_stats(py_warc_stats& s, const py_warc_stats& o) {
  if (!s.s.merge(o.s)) {
    PyErr_SetString(PyExc_OverflowError, "WarcStats: a count would exceed 2**64 - 1; nothing was merged");
    throw py::error_already_set();
  }
}

/// `what` and `message` may hold a file name that is not UTF-8 (see fs_str).
void raise_io(status st, const std::string& message, const std::string& what) {
  if (st == status::io_error) {
    PyErr_SetObject(PyExc_OSError, fs_str(what + ": " + message).ptr());
    throw py::error_already_set();
  }
  raise_with_status(g_error, what + ": " + message, st);
}

}  // namespace

// ================================================================================================

namespace langsift_py {
int run_cli(std::vector<std::string>& args);  // cli.cpp: `python3 -m langsift`
}  // namespace langsift_py

PYBIND11_MODULE(_langsift, m) {
  m.doc() =
      "langsift's compiled layer. Use the `langsift` package: it re-exports everything here with "
      "type stubs (langsift/_langsift.pyi).";

  // Exceptions -----------------------------------------------------------------------------------
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

  m.attr("__version__") = std::string(LANGSIFT_VERSION_STRING);
  m.attr("MAX_INPUT_BYTES") = kMaxInputBytes;

  // Model ----------------------------------------------------------------------------------------
  py::class_<py_model, std::shared_ptr<py_model>>(m, "Model",
      "A language model: immutable, shared by any number of threads. `Model.builtin()` is the model "
      "compiled into the library; `Model.load(path_or_bytes)` reads a file written by langsift-train.")
      .def_static("load", &load_model, py::arg("source"),
                  "Loads a model from a path (str or os.PathLike) or from its bytes (bytes, bytearray, "
                  "memoryview). Sizes, offsets and the checksum are verified first: a truncated, corrupt "
                  "or other-version model raises langsift.ModelError (an OSError) naming the status.")
      .def_static("builtin", &builtin_model_named, py::arg("name") = "default",
                  "A model compiled into the library: \"default\" (the default everywhere; 102 languages) or "
                  "\"wide\" (231 languages, parsed on its first use). Another name raises ValueError naming "
                  "the built-in models.")
      .def_static("named", [](const py::object& name_or_path) {
             if (PyBytes_Check(name_or_path.ptr()) || !(PyUnicode_Check(name_or_path.ptr()) || py::hasattr(name_or_path, "__fspath__")))
               throw py::type_error("Model.named() takes a built-in model's name or a model file's path (str or "
                                    "os.PathLike), not " + type_name(name_or_path));
             return named_model(name_or_path);
           }, py::arg("name_or_path"),
           "A model as the tools' --model and every model= argument name one (langsift::resolve_model): a str "
           "that is a built-in model's name (\"default\", \"wide\") is that model, whether or not a file so "
           "named exists (write \"./wide\" for the file); any other str, and any os.PathLike, is a model file, "
           "loaded as Model.load() does (the last file so loaded is kept while it is unchanged).")
      .def_static("builtin_names", &builtin_model_names_py,
                  "The names of the built-in models, for Model.builtin(): ('default', 'wide').")
      .def_property_readonly("languages",
                             [](const py_model& pm) {
                               py::list l;
                               for (std::size_t i = 0; i < pm.m->language_count(); ++i) l.append(to_py(pm.m->language_code(i)));
                               return py::tuple(l);
                             },
                             "The model's language codes (ISO 639-1 where one exists, else ISO 639-3).")
      .def_property_readonly("checksum", [](const py_model& pm) { return pm.m->checksum(); })
      .def_property_readonly("size_bytes", [](const py_model& pm) { return pm.m->size_bytes(); })
      .def_property_readonly("is_builtin", [](const py_model& pm) { return pm.builtin; })
      .def("__repr__", [](const py_model& pm) {
        return std::string("Model(") + (pm.builtin ? "builtin, " : "") + std::to_string(pm.m->language_count()) +
               " languages, " + std::to_string(pm.m->size_bytes()) + " bytes)";
      });

  // Results --------------------------------------------------------------------------------------
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

  py::class_<py_page> page_class(m, "PageResult", "The whole page pipeline's answer: the detection, and how the bytes were decoded.");
  page_class.def_readonly("detection", &py_page::detection)
      .def_property_readonly("language", [](const py_page& p) { return to_py(p.detection.language()); },
                             "detection.language")
      .def_property_readonly("encoding", [](const py_page& p) { return text_of(p.encoding); },
                             "The encoding decided ('utf-8', 'windows-1252', 'shift_jis'...).")
      .def_property_readonly("encoding_source", [](const py_page& p) { return text_of(p.encoding_source); },
                             "What decided it: 'bom', 'http', 'meta', 'detected' or 'default'.")
      .def_readonly("encoding_confidence", &py_page::encoding_confidence)
      .def_property_readonly("declared_encoding", [](const py_page& p) { return text_of(p.declared_encoding); },
                             "The declared charset label, '' if none (bytes that are not UTF-8 become U+FFFD).")
      .def_readonly("declared_overridden", &py_page::declared_overridden,
                    "A declared charset was rejected (unknown, or the bytes cannot be in it).")
      .def_readonly("is_html", &py_page::is_html)
      .def_property_readonly("html_lang", [](const py_page& p) { return text_of(p.html_lang); }, "<html lang>, '' if none.")
      .def_readonly("replaced_bytes", &py_page::replaced_bytes, "Input bytes that were invalid and became U+FFFD.")
      .def_property_readonly("text", [](const py_page& p) -> py::object {
        return p.text ? py::object(text_of(*p.text)) : py::object(py::none());
      }, "The text the languages were detected in: the HTML's text (main_content: its main content), or the "
         "decoded body when it is not HTML; '' for a body that is not text. extract_text() gives the same. "
         "None for pages of read_warc() without text=True (the text is not kept).")
      .def("to_dict", &page_dict, "The fields of `langsift detect --format jsonl` on a file.")
      .def("__repr__", [](const py_page& p) {
        return "PageResult(language='" + std::string(p.detection.language()) + "', encoding=" + text_repr(p.encoding) +
               ", encoding_source=" + text_repr(p.encoding_source) + ", is_html=" + (p.is_html ? "True" : "False") +
               ", detection=" + detection_repr(p.detection) + ")";
      });
  value_type(page_class, page_state, page_from_state);

  value_type(py::class_<py_url_language>(m, "UrlLanguage", "A language guessed from a URL, with a probability-like score.")
      .def_property_readonly("code", [](const py_url_language& l) { return to_py(l.code.view()); })
      .def_readonly("score", &py_url_language::score)
      .def("__repr__", [](const py_url_language& l) {
        return "UrlLanguage(code='" + std::string(l.code.view()) + "', score=" + fmt_float(l.score) + ")";
      }),
             url_language_state, url_language_from_state);

  value_type(py::class_<py_url_result>(m, "UrlResult", "The language a URL probably leads to, from the URL alone.")
      .def_property_readonly("language", [](const py_url_result& u) { return to_py(u.language()); })
      .def_property_readonly("languages",
                             [](const py_url_result& u) {
                               py::tuple t(u.count);
                               for (std::size_t i = 0; i < u.count; ++i) t[i] = py::cast(u.langs[i]);
                               return t;
                             })
      .def_readonly("decision", &py_url_result::decision,
                    "What decided: 'model', 'pattern' (a language code in the URL), 'country' or 'none'.")
      .def_property_readonly("status", [](const py_url_result& u) { return std::string(status_name(u.st)); })
      .def("to_dict", &url_dict)
      .def("__repr__", [](const py_url_result& u) {
        std::string r = "UrlResult(language='" + std::string(u.language()) + "', languages=[";
        for (std::size_t i = 0; i < u.count; ++i)
          r += (i ? ", " : "") + std::string("('") + std::string(u.langs[i].code.view()) + "', " + fmt_float(u.langs[i].score) + ")";
        return r + "], decision='" + u.decision + "', status='" + std::string(status_name(u.st)) + "')";
      }),
             url_result_state, url_result_from_state);

  // Functions ------------------------------------------------------------------------------------
  const detect_options dflt;
  value_type(py::class_<py_span>(m, "Span", "A stretch of text in one language: text[start:end] (str indices), and "
                                           "its language's code ('und': none). Made by detect(spans=True).")
                 .def_readonly("start", &py_span::start)
                 .def_readonly("end", &py_span::end)
                 .def_property_readonly("language", [](const py_span& x) { return to_py(x.code.view()); })
                 .def("__repr__", &span_repr),
             span_state, span_from_state);
  m.def("_detect", &detect_one, py::arg("text"), py::kw_only(), py::arg("model") = nullptr, py::arg("only") = py::none(),
        py::arg("hints") = py::none(), py::arg("codes") = "iso639-1", py::arg("max_text_bytes") = dflt.max_text_bytes,
        py::arg("short_text_bytes") = dflt.short_text_bytes, py::arg("max_input_bytes") = kMaxInputBytes,
        py::arg("spans") = false, py::arg("keep") = py::none(), py::arg("k") = 0,
        "detect() with keyword arguments (detect() itself takes the common call, one str, without them).");
  g_detect_general = m.attr("_detect").ptr();
  static PyMethodDef detect_def = {"detect", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_detect)),
                                   METH_FASTCALL | METH_KEYWORDS, kDetectDoc};
  m.attr("detect") = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&detect_def, nullptr, m.attr("__name__").ptr()));

  m.def("detect_many", &detect_many, py::arg("texts"), py::kw_only(), py::arg("threads") = 0u,
        py::arg("model") = nullptr, py::arg("only") = py::none(), py::arg("hints") = py::none(),
        py::arg("codes") = "iso639-1", py::arg("max_text_bytes") = dflt.max_text_bytes,
        py::arg("short_text_bytes") = dflt.short_text_bytes, py::arg("max_input_bytes") = kMaxInputBytes,
        py::arg("k") = 0,
        R"doc(detect() on many texts at once: a list of Detection, in order.

The batch crosses into C++ once and runs with the GIL released on `threads` threads (0: one per
CPU; batches under 16 texts a thread use fewer). Other arguments as for detect().)doc");

  m.def("detect_page", &detect_page_py, py::arg("body"), py::kw_only(), py::arg("content_type") = py::none(),
        py::arg("content_language") = py::none(), py::arg("url") = py::none(), py::arg("encoding") = py::none(),
        py::arg("kind") = "sniff", py::arg("main_content") = false, py::arg("model") = nullptr,
        py::arg("only") = py::none(), py::arg("hints") = py::none(), py::arg("codes") = "iso639-1",
        py::arg("max_text_bytes") = dflt.max_text_bytes, py::arg("short_text_bytes") = dflt.short_text_bytes,
        py::arg("max_input_bytes") = kMaxInputBytes, py::arg("k") = 0,
        R"doc(The whole page pipeline on an HTTP body (bytes in any encoding, HTML or text).

Encoding: BOM, then the Content-Type charset, then <meta>, then detection; decoded to UTF-8. HTML:
text extracted (main_content=True: only the main-content blocks). Languages: as detect(), with
Content-Language, <html lang> and the URL's country-code TLD as hints.

content_type, content_language: the HTTP headers, if you have them. url: the page's URL.
encoding: force this encoding (an unknown label is ignored: detection decides).
kind: 'sniff' (default), 'html' or 'text'.
A body over max_input_bytes is cut (status 'truncated'). Raises TypeError for a str body.
Returns a PageResult (.detection, .encoding, .encoding_source, .is_html, .text: the text the
languages were detected in).)doc");

  m.def("extract_text", &extract_text_py, py::arg("body"), py::kw_only(), py::arg("content_type") = py::none(),
        py::arg("main") = false,
        R"doc(The text of an HTTP body (bytes in any encoding), as detect_page() reads it: decoded to UTF-8
(BOM, the Content-Type charset, <meta>, detection), then, for HTML, its text (one line per block;
main=True: the main content only, without navigation, link lists, footers...), as `langsift text
[--main]` prints it. A body that is not HTML (a Content-Type text/plain, or no markup) gives its
decoded text; a body that is not text (an image...), ''. The same text as PageResult.text and
`langsift warc --text` give, byte for byte. The whole body is read (no cap).
Raises TypeError for a str body.)doc");

  m.def("classify_url", &classify_url_py, py::arg("url"), py::kw_only(), py::arg("country") = py::none(),
        py::arg("codes") = "iso639-1",
        R"doc(The language of the page a URL probably leads to, from the URL alone (built-in URL models:
words, character n-grams, language-code patterns such as /de/ or ?lang=fr, the ccTLD).

country: the host's ISO 3166-1 country (e.g. from geo-IP), a hint that raises recall.
Returns a UrlResult (.language, .languages with scores, .decision, .status).)doc");

  m.def("_bench_detect_loop",
        [](py::handle texts, bool convert) {
          py::list seq = py::reinterpret_borrow<py::list>(texts);
          std::vector<utf8_text> in(seq.size());
          for (std::size_t i = 0; i < seq.size(); ++i) take_utf8(seq[i], kMaxInputBytes, in[i], "_bench_detect_loop");
          const model& md = *builtin_model()->m;
          std::size_t sum = 0;
          const auto t0 = std::chrono::steady_clock::now();
          {
            gil_released nogil;
            for (const auto& t : in) {
              const detection d = langsift::detect(md, t.view);
              if (convert) sum += py_detection::of(d, code_style::iso639_1).count;
              else sum += d.count;
            }
          }
          const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          return py::make_tuple(sec, sum);
        },
        py::arg("texts"), py::arg("convert") = false,
        "Benchmarks only: detect() over a list of str in a plain C++ loop (no Python objects made), "
        "UTF-8 taken beforehand; returns (seconds, languages found). The in-process C++ rate that "
        "benchmarks/python_bench.py compares the Python calls with.");

  m.def("languages", &model_languages, py::arg("model") = py::none(), py::kw_only(), py::arg("codes") = "iso639-1",
        "The language codes a model knows (default: the built-in model; a Model, a built-in model's name or "
        "a model file's path), in the style `codes` names ('iso639-1' or 'iso639-3').");
  m.def("to_iso639_3", [](str_in c) { return to_iso639_3(str_view(c, "code")); }, py::arg("code"),
        "'de' -> 'deu', 'zh-Hant' -> 'zho-Hant'; codes without a two-letter form unchanged; subtags in "
        "BCP 47's case ('zh-hant' -> 'zho-Hant').");
  m.def("to_iso639_1", [](str_in c) { return to_iso639_1(str_view(c, "code")); }, py::arg("code"),
        "'deu' -> 'de'; codes without a two-letter form unchanged; subtags in BCP 47's case ('zh-hant' -> "
        "'zh-Hant'), as langsift compares codes.");

  // WARC -----------------------------------------------------------------------------------------
  value_type(py::class_<py_warc_record>(m, "WarcRecord",
      "One WARC record and its page result. to_dict() / json are the line `langsift warc` prints for it.")
      .def_readonly("offset", &py_warc_record::offset,
                    "Where the record starts in the input (its gzip member's first byte for .gz input).")
      .def_property_readonly("length", [](const py_warc_record& r) -> py::object {
        return r.length ? py::object(py::int_(r.length)) : py::object(py::none());
      }, "Bytes of the input the record occupies from `offset` (its gzip member; Common Crawl's index gives "
         "offset and length so), or None when not known (several records in one member, broken framing).")
      .def_property_readonly("warc_type", [](const py_warc_record& r) { return text_of(r.warc_type); })
      .def_property_readonly("url", [](const py_warc_record& r) { return text_of(r.url); },
                             "WARC-Target-URI (bytes that are not UTF-8 become U+FFFD, as in `json`).")
      .def_property_readonly("record_id", [](const py_warc_record& r) { return text_of(r.record_id); }, "WARC-Record-ID.")
      .def_property_readonly("http_status", [](const py_warc_record& r) -> py::object {
        return r.http_status < 0 ? py::object(py::none()) : py::object(py::int_(r.http_status));
      })
      .def_property_readonly("content_type", [](const py_warc_record& r) { return text_of(r.content_type); })
      .def_property_readonly("content_language", [](const py_warc_record& r) { return text_of(r.content_language); })
      .def_property_readonly("skipped", [](const py_warc_record& r) -> py::object {
        return r.skipped.empty() ? py::object(py::none()) : py::object(text_of(r.skipped));
      }, "Why the record was not classified ('warc_type', 'content_type', 'content_encoding'), or None.")
      .def_property_readonly("problem", [](const py_warc_record& r) -> py::object {
        return r.problem.empty() ? py::object(py::none()) : py::object(text_of(r.problem));
      }, "Set when the record was delivered despite bad framing (also warned or raised).")
      .def_property_readonly("page", [](const py_warc_record& r) -> py::object {
        return r.page ? py::cast(*r.page) : py::object(py::none());
      }, "The PageResult, or None when the record was skipped.")
      .def_property_readonly("detection", [](const py_warc_record& r) -> py::object {
        return r.page ? py::cast(r.page->detection) : py::object(py::none());
      })
      .def_property_readonly("language", [](const py_warc_record& r) {
        return r.page ? to_py(r.page->detection.language()) : py::str("und");
      })
      .def_property_readonly("text", [](const py_warc_record& r) -> py::object {
        return r.page && r.page->text ? py::object(text_of(*r.page->text)) : py::object(py::none());
      }, "The page's text, as `langsift warc --text` writes it (read_warc(text=True) or schema='corpus'); "
         "None otherwise, and for records that are not classified.")
      .def_property_readonly("json", [](const py_warc_record& r) { return text_of(r.line); },
                             "The JSON line `langsift warc` prints (no newline).")
      .def("to_dict", [](const py_warc_record& r) { return py::module_::import("json").attr("loads")(r.line); },
           "The fields of `langsift warc`'s line for this record.")
      .def("__repr__", [](const py_warc_record& r) {
        return "WarcRecord(offset=" + std::to_string(r.offset) + ", warc_type=" + text_repr(r.warc_type) +
               ", url=" + text_repr(r.url) + ", language='" +
               std::string(r.page ? r.page->detection.language() : "und") + "'" +
               (r.skipped.empty() ? "" : ", skipped=" + text_repr(r.skipped)) + ")";
      }),
             warc_record_state, warc_record_from_state);

  pickled_by_state(py::class_<py_warc_stats>(m, "WarcStats",
      "Pages and bytes per language, per encoding and per language x encoding (`langsift warc --stats`). "
      "Statistics of shards merge (`a + b`, `a.merge(b)`) into those of the whole input.")
      .def(py::init<>())
      .def_property_readonly("records", [](const py_warc_stats& s) { return s.s.records; })
      .def_property_readonly("pages", [](const py_warc_stats& s) { return s.s.pages; })
      .def_property_readonly("skipped", [](const py_warc_stats& s) { return s.s.skipped; })
      .def_property_readonly("malformed", [](const py_warc_stats& s) { return s.s.malformed; })
      .def_property_readonly("body_bytes", [](const py_warc_stats& s) { return s.s.body_bytes; })
      .def_property_readonly("text_bytes", [](const py_warc_stats& s) { return s.s.text_bytes; })
      .def_property_readonly("filtered", [](const py_warc_stats& s) { return s.s.filtered; },
                             "Pages classified but not yielded (read_warc's languages, min_probability).")
      .def_property_readonly("languages", [](const py_warc_stats& s) {
        py::dict d;
        for (const auto& [k, c] : s.s.language) d[py::str(k)] = py::make_tuple(c.pages, c.bytes);
        return d;
      }, "{code: (pages, bytes)}")
      .def_property_readonly("encodings", [](const py_warc_stats& s) {
        py::dict d;
        for (const auto& [k, c] : s.s.encoding) d[py::str(k)] = py::make_tuple(c.pages, c.bytes);
        return d;
      }, "{encoding: (pages, body bytes)}")
      .def_property_readonly("language_encodings", [](const py_warc_stats& s) {
        py::dict d;
        for (const auto& [k, c] : s.s.language_encoding)
          d[py::make_tuple(k.first, k.second)] = py::make_tuple(c.pages, c.bytes);
        return d;
      }, "{(code, encoding): (pages, bytes)}")
      .def("merge", [](py_warc_stats& s, const py_warc_stats& o) { merge_stats(s, o); }, py::arg("other"))
      .def("__add__", [](const py_warc_stats& a, const py_warc_stats& b) {
        py_warc_stats r = a;
        merge_stats(r, b);
        return r;
      })
      .def("__iadd__", [](py_warc_stats& a, const py_warc_stats& b) {
        merge_stats(a, b);
        return a;
      })
      .def("__eq__", [](const py_warc_stats& a, py::handle b) -> py::object {
        if (!py::isinstance<py_warc_stats>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(a.s == b.cast<const py_warc_stats&>().s);
      })
      .def("to_tsv", [](const py_warc_stats& s) { return s.s.tsv(); }, "The tables as `langsift warc --stats` prints them.")
      .def_static("from_tsv", [](str_in text_h) {
        const std::string_view text = str_view(text_h, "text");
        py_warc_stats r;
        std::string error;
        if (!warc_statistics::parse_tsv(text, r.s, &error)) throw py::value_error("WarcStats.from_tsv: " + error);
        return r;
      }, py::arg("text"))
      .def("__repr__", [](const py_warc_stats& s) {
        return "WarcStats(records=" + std::to_string(s.s.records) + ", pages=" + std::to_string(s.s.pages) +
               ", languages=" + std::to_string(s.s.language.size()) + ", malformed=" + std::to_string(s.s.malformed) + ")";
      }),
                   warc_stats_state, warc_stats_from_state);
  // Statistics merge in place (+=, merge): equal by value, and so not hashable.
  m.attr("WarcStats").attr("__hash__") = py::none();

  py::class_<py_warc_reader>(m, "WarcReader",
      "An iterator of WarcRecord over one WARC or WET file (plain or gzip). `errors` lists the first 100 "
      "(offset, message) for input that was not a well-formed record, `error_count` counts them all; "
      "`stats` sums what was read so far. Threads may share a reader: next() and close() take turns "
      "(each record goes to one of them). After close() (or the end of a `with` block), next() raises "
      "ValueError.")
      .def("__iter__", [](py_warc_reader& r) -> py_warc_reader& {
        r.check_open();
        return r;
      })
      .def("__next__", &py_warc_reader::next)
      .def("__enter__", [](py_warc_reader& r) -> py_warc_reader& {
        r.check_open();
        return r;
      })
      .def("__exit__", [](py_warc_reader& r, py::args) { r.close(); })
      .def("close", &py_warc_reader::close,
           "Ends reading and frees the input (a file object given is left open: its owner closes it). "
           "Waits for a next() running in another thread. Warns the summary of the problems past the first "
           "100 (errors='warn') if the end was not reached.")
      .def_property_readonly("closed", &py_warc_reader::closed)
      .def_property_readonly("errors", &py_warc_reader::errors,
                             "The first 100 problems of the input, as (offset, message); error_count counts all.")
      .def_property_readonly("error_count", &py_warc_reader::error_count,
                             "How many problems the input had so far (every one; errors keeps the first 100).")
      .def_property_readonly("stats", &py_warc_reader::stats)
      .def_property_readonly("name", &py_warc_reader::name)
      .def_property_readonly("input_bytes", &py_warc_reader::input_bytes)
      .def("__repr__", [](const py_warc_reader& r) {
        return py::str("WarcReader(name={!r}, records={}, errors={})").format(r.name(), r.stats().s.records, r.error_count());
      });

  m.def("read_warc",
        [](warc_source_in source, model_in model, bool_in all, bool_in any_type, bool_in main_content,
           int_in max_record_bytes, choice_in codes, choice_in errors, int_in max_text_bytes, int_in short_text_bytes,
           bool_in text, choice_in schema, codes_in languages, float_in min_probability) {
          // The arguments converted and checked here (TypeError / ValueError naming them); their values by the reader.
          const std::shared_ptr<py_model> chosen = model_arg(model);
          warc_report_options corpus;  // text, schema and language filter (as langsift warc's options)
          corpus.text = bool_arg(text, "text");
          const std::string_view sc = str_view(schema, "schema");
          if (sc == "corpus") corpus.schema = warc_schema::corpus;
          else if (sc != "default") throw py::value_error("schema must be 'default' or 'corpus', not " + quoted(sc));
          if (!languages.is_none()) {
            std::vector<std::string> given;
            corpus.languages = code_list(languages, "languages", &given);
            if (corpus.languages.empty()) throw py::value_error("languages is empty: give at least one language code, or None");
            require_model_codes(*model_or_default(chosen)->m, corpus.languages, given, "languages");
          }
          corpus.min_probability = static_cast<float>(float_arg(min_probability, "min_probability", 0.0, 1.0));
          if (bool_arg(all, "all") && (corpus.schema == warc_schema::corpus || !corpus.languages.empty() ||
                                       corpus.min_probability > 0))
            throw py::value_error("all=True yields every record; schema='corpus', languages and min_probability "
                                  "yield only pages: choose one");
          return std::make_unique<py_warc_reader>(
              source, chosen, bool_arg(all, "all"), bool_arg(any_type, "any_type"),
              bool_arg(main_content, "main_content"),
              static_cast<std::size_t>(int_arg(max_record_bytes, "max_record_bytes", 0, SIZE_MAX)),
              str_value(codes, "codes"), str_value(errors, "errors"),
              static_cast<std::size_t>(int_arg(max_text_bytes, "max_text_bytes", 0, SIZE_MAX)),
              static_cast<std::size_t>(int_arg(short_text_bytes, "short_text_bytes", 0, SIZE_MAX)), corpus);
        },
        py::arg("source"), py::kw_only(), py::arg("model") = nullptr, py::arg("all") = false,
        py::arg("any_type") = false, py::arg("main_content") = false,
        py::arg("max_record_bytes") = warc_options{}.max_block_bytes, py::arg("codes") = "iso639-1",
        py::arg("errors") = "warn", py::arg("max_text_bytes") = dflt.max_text_bytes,
        py::arg("short_text_bytes") = dflt.short_text_bytes, py::arg("text") = false, py::arg("schema") = "default",
        py::arg("languages") = py::none(), py::arg("min_probability") = 0.0,
        R"doc(Reads a WARC or WET file (WARC/1.0, 1.1; plain, gzip or zstd) and identifies every page.

source: a path (str or os.PathLike; a file name that is not UTF-8 as os.fsdecode() gives it, or
  as an os.PathLike whose __fspath__ returns bytes), a binary file object (anything with read(n)
  returning a bytes-like object, of any length: open(p, 'rb'), fsspec.open(url, 'rb'),
  sys.stdin.buffer; a blocking one: read() returning None raises BlockingIOError), or the WARC
  itself as bytes, bytearray or memoryview.
model: a langsift.Model, a built-in model's name ('wide') or a model file's path (a built-in name
  wins over a file so named, as the tools' --model); default: the built-in model.
Yields a WarcRecord for every response, resource and conversion record (all=True: for every
record) with .url, .record_id, .offset, .page (a PageResult) and .to_dict() / .json: the line
`langsift warc` prints for it. Records whose Content-Type is not textual are skipped (.skipped);
any_type=True classifies them too. A record's block is kept up to max_record_bytes.
text=True: each page's text is kept (.text, .page.text) and in .json, as `langsift warc --text`
  writes it (without, .text is None: the text costs memory as long as the record lives).
schema='corpus': .json is the document `langsift warc --schema corpus` writes (id, source, url,
  language, language_score, metadata, text; the text is kept); records that are not pages are
  not yielded.
languages (codes), min_probability (0..1): yield only pages whose top language is one of these,
  at that calibrated probability at least, as `langsift warc --languages --min-probability`; the
  others are counted in .stats.filtered. Records that are not pages are not yielded then.
errors: what to do with input that is not a well-formed record: 'warn' (default: a
  WarcFormatWarning for each of the first 100, then one summary at the end of the input or at
  close(), and reading goes on), 'raise' (WarcFormatError), 'ignore'. Either way the reader's
  .errors lists the first 100 as (offset, message), .error_count counts them all and .stats counts
  them as malformed.
Threads may share a reader (next() and close() take turns); after close() or a `with` block,
next() raises ValueError. An error of the input (of read(), or errors='raise') ends reading: the
next call raises ValueError saying so.)doc");

  // Filter ---------------------------------------------------------------------------------------
  m.def("language_filter_from_config", &filter_from_config, py::arg("conf"), py::kw_only(),
        py::arg("model") = py::none(), kFromConfigDoc);
  value_type(py::class_<language_filter>(m, "LanguageFilter",
      "NCL-Crawl's result filters, each switchable: a page is kept when one of its languages passes "
      "every enabled filter (its code is among `labels`, it has at least `min_bytes` and at most "
      "`max_bytes` of text, and at least `min_percent` of the text; with `min_probability`, only the "
      "top language passes, and only when its calibrated probability, Detection.confidence, is at least "
      "that). A filter given as None is off; with every filter off, every page is kept.")
      .def(py::init([](codes_in labels, opt_int_in min_bytes, opt_int_in max_bytes, opt_int_in min_percent,
                       model_in model, py::handle min_probability) {
             language_filter f;
             const std::shared_ptr<py_model> also = model_arg(model);
             if (!labels.is_none()) {
               std::vector<std::string> given;
               f.labels = code_list(labels, "labels", &given);
               if (f.labels.empty()) throw py::value_error("labels is empty: give at least one code, or None");
               require_known_codes(f.labels, given, "labels", also ? also->m.get() : nullptr);
               f.use_labels = true;
             }
             if (const auto v = opt_int_arg(min_bytes, "min_bytes", 0, SIZE_MAX)) {
               f.min_bytes = static_cast<std::size_t>(*v);
               f.use_min_bytes = true;
             }
             if (const auto v = opt_int_arg(max_bytes, "max_bytes", 0, SIZE_MAX)) {
               f.max_bytes = static_cast<std::size_t>(*v);
               f.use_max_bytes = true;
             }
             if (const auto v = opt_int_arg(min_percent, "min_percent", 0, 100)) {
               f.min_percent = static_cast<int>(*v);
               f.use_min_percent = true;
             }
             if (!min_probability.is_none()) {
               f.min_probability = static_cast<float>(float_arg(min_probability, "min_probability", 0, 1));
               f.use_min_probability = true;
             }
             return f;
           }),
           py::kw_only(), py::arg("labels") = py::none(), py::arg("min_bytes") = py::none(),
           py::arg("max_bytes") = py::none(), py::arg("min_percent") = py::none(), py::arg("model") = py::none(),
           py::arg("min_probability") = py::none(),
           "labels: language codes (either ISO form) that no built-in model can answer raise ValueError; "
           "model: a Model (or a built-in model's name, or a model file's path) whose codes are accepted too "
           "(a trained model's). A filter given as None is off.")
      .def_static("from_config", &filter_from_config, py::arg("conf"), py::kw_only(), py::arg("model") = py::none(),
                  kFromConfigDoc)
      .def("keep", [](const language_filter& f, const py_detection& d) {
             std::array<std::string, 3> store;
             return keep(d.to_cpp(store), f);
           }, py::arg("detection"), "True when the page is kept.")
      .def("__call__", [](const language_filter& f, const py_detection& d) {
             std::array<std::string, 3> store;
             return keep(d.to_cpp(store), f);
           }, py::arg("detection"))
      .def_property_readonly("enabled", &language_filter::enabled)
      .def_property_readonly("labels", [](const language_filter& f) -> py::object {
        return f.use_labels ? py::object(py::cast(f.labels)) : py::object(py::none());
      })
      .def_property_readonly("min_bytes", [](const language_filter& f) -> py::object {
        return f.use_min_bytes ? py::object(py::int_(f.min_bytes)) : py::object(py::none());
      })
      .def_property_readonly("max_bytes", [](const language_filter& f) -> py::object {
        return f.use_max_bytes ? py::object(py::int_(f.max_bytes)) : py::object(py::none());
      })
      .def_property_readonly("min_percent", [](const language_filter& f) -> py::object {
        return f.use_min_percent ? py::object(py::int_(f.min_percent)) : py::object(py::none());
      })
      .def_property_readonly("min_probability", [](const language_filter& f) -> py::object {
        // the float as given (0.7, not 0.699999988: the filter holds a float)
        return f.use_min_probability ? py::object(py::float_(std::strtod(fmt_float(f.min_probability, "%.7g").c_str(), nullptr)))
                                     : py::object(py::none());
      })
      .def("__repr__", [](const language_filter& f) {
        std::string r = "LanguageFilter(";
        std::string labels;
        for (const auto& l : f.labels) labels += (labels.empty() ? "'" : ", '") + l + "'";
        r += "labels=" + (f.use_labels ? "[" + labels + "]" : std::string("None"));
        r += ", min_bytes=" + (f.use_min_bytes ? std::to_string(f.min_bytes) : std::string("None"));
        r += ", max_bytes=" + (f.use_max_bytes ? std::to_string(f.max_bytes) : std::string("None"));
        r += ", min_percent=" + (f.use_min_percent ? std::to_string(f.min_percent) : std::string("None"));
        if (f.use_min_probability) r += ", min_probability=" + fmt_float(f.min_probability, "%.7g");
        return r + ")";
      }),
             filter_state, filter_from_state);

  // Frontier -------------------------------------------------------------------------------------
  value_type(py::class_<py_guess>(m, "FrontierGuess", "One guess about a URL's language.")
      .def_property_readonly("code", [](const py_guess& g) { return to_py(g.code.view()); })
      .def_readonly("votes", &py_guess::votes, "Referrer votes for this language.")
      .def_readonly("url_score", &py_guess::url_score, "The URL classifier's score.")
      .def_readonly("probability", &py_guess::probability, "The combined estimate.")
      .def("__repr__", [](const py_guess& g) {
        return "FrontierGuess(code='" + std::string(g.code.view()) + "', votes=" + std::to_string(g.votes) +
               ", url_score=" + fmt_float(g.url_score) + ", probability=" + fmt_float(g.probability) + ")";
      }),
             guess_state, guess_from_state);

  value_type(py::class_<py_decision>(m, "FrontierDecision", "Fetch or skip a URL, and with which priority.")
      .def_readonly("fetch", &py_decision::fetch, "True: fetch it; False: skip it.")
      .def_property_readonly("action", [](const py_decision& d) { return d.fetch ? "fetch" : "skip"; })
      .def_readonly("reason", &py_decision::reason,
                    "'wanted', 'unknown', 'unwanted' (fetch); 'saturated', 'fetched', 'invalid' (skip).")
      .def_readonly("priority", &py_decision::priority, "0..1, higher first: the probability of a wanted language.")
      .def_readonly("votes", &py_decision::votes, "Referrer votes the URL collected.")
      .def_property_readonly("language", [](const py_decision& d) { return to_py(d.language()); })
      .def_property_readonly("guesses", [](const py_decision& d) { return py::tuple(py::cast(d.guesses)); })
      .def("to_dict", [](const py_decision& d) {
        py::dict x;
        x["action"] = d.fetch ? "fetch" : "skip";
        x["reason"] = d.reason;
        x["priority"] = round3(d.priority);
        x["votes"] = d.votes;
        x["language"] = to_py(d.language());
        py::list g;
        for (const auto& e : d.guesses) {
          py::dict y;
          y["code"] = to_py(e.code.view());
          y["votes"] = e.votes;
          y["url_score"] = round3(e.url_score);
          y["probability"] = round3(e.probability);
          g.append(y);
        }
        x["guesses"] = g;
        return x;
      })
      .def("__repr__", [](const py_decision& d) {
        return std::string("FrontierDecision(action='") + (d.fetch ? "fetch" : "skip") + "', reason='" + d.reason +
               "', priority=" + fmt_float(d.priority) + ", votes=" + std::to_string(d.votes) + ", language='" +
               std::string(d.language()) + "')";
      }),
             decision_state, decision_from_state);

  const frontier_options fo;
  py::class_<py_frontier>(m, "Frontier",
      "A language-aware crawl frontier (ClueWeb09's method with Baykan et al.'s URL classifier): fetched "
      "pages vote for their out-links' languages, per-language quotas say what is still wanted, and "
      "decide(url) answers fetch or skip with a priority. Thread-safe; codes in either ISO form.")
      .def(py::init([](int_in min_vote_percent, float_in url_weight, float_in vote_prior, float_in min_url_guess,
                       float_in unknown_priority, bool_in skip_saturated, bool_in skip_unwanted, int_in max_urls,
                       model_in model) {
             frontier_options o;
             o.min_vote_percent = static_cast<int>(int_arg(min_vote_percent, "min_vote_percent", 0, 100));
             o.url_weight = static_cast<float>(float_arg(url_weight, "url_weight", 0, frontier::kMaxWeight));
             o.vote_prior = static_cast<float>(float_arg(vote_prior, "vote_prior", 0, frontier::kMaxWeight));
             o.min_url_guess = static_cast<float>(float_arg(min_url_guess, "min_url_guess", 0, frontier::kMaxWeight));
             o.unknown_priority = static_cast<float>(float_arg(unknown_priority, "unknown_priority", 0, 1));
             o.skip_saturated = bool_arg(skip_saturated, "skip_saturated");
             o.skip_unwanted = bool_arg(skip_unwanted, "skip_unwanted");
             o.max_urls = static_cast<std::size_t>(int_arg(max_urls, "max_urls", 0, SIZE_MAX));
             return std::make_unique<py_frontier>(o, model_arg(model));
           }),
           py::kw_only(), py::arg("min_vote_percent") = fo.min_vote_percent, py::arg("url_weight") = fo.url_weight,
           py::arg("vote_prior") = fo.vote_prior, py::arg("min_url_guess") = fo.min_url_guess,
           py::arg("unknown_priority") = fo.unknown_priority, py::arg("skip_saturated") = fo.skip_saturated,
           py::arg("skip_unwanted") = fo.skip_unwanted, py::arg("max_urls") = fo.max_urls, py::arg("model") = py::none(),
           "Options as frontier_options (docs/frontier.md). model: a Model (or a built-in model's name, or a "
           "model file's path) whose language codes the frontier accepts besides those of the built-in models "
           "(a trained model's).")
      .def("set_quota", [](py_frontier& f, str_in code, int_in target) {
             const std::string c = f.code(code, "code");
             if (!f.f().set_quota(c, int_arg(target, "target"))) throw py::value_error("set_quota: the frontier's language table is full");
           }, py::arg("code"), py::arg("target"),
           "Target page count of a language (0 removes the quota). A code no built-in model (nor the frontier's "
           "model) can answer raises ValueError.")
      .def("quota", [](const py_frontier& f, str_in code) {
             const frontier_quota q = f.f().quota(f.code(code, "code"));
             return py::make_tuple(q.target, q.count);
           }, py::arg("code"), "(target, pages counted) of a language.")
      .def("quotas", [](const py_frontier& f) {
             py::dict d;
             for (const auto& [c, q] : f.f().quotas()) d[py::str(c)] = py::make_tuple(q.target, q.count);
             return d;
           }, "{code: (target, pages counted)} of every language the frontier knows.")
      .def("saturated", [](const py_frontier& f, str_in code) { return f.f().saturated(f.code(code, "code")); },
           py::arg("code"))
      .def("all_saturated", [](const py_frontier& f) { return f.f().all_saturated(); })
      .def("count_page", [](py_frontier& f, str_in code, int_in pages) {
             const std::string c = f.code(code, "code");
             return f.f().count_page(c, int_arg(pages, "pages"));
           }, py::arg("code"), py::arg("pages") = 1)
      .def("record_fetch", [](py_frontier& f, str_in url, const py_detection& d) {
             std::array<std::string, 3> store;
             const detection cd = d.to_cpp(store);
             return f.f().record_fetch(url_arg(url, "url"), cd);
           }, py::arg("url"), py::arg("detection"),
           "Marks a URL fetched and counts the page for its top language's quota.")
      .def("mark_fetched", [](py_frontier& f, str_in url) { return f.f().mark_fetched(url_arg(url, "url")); }, py::arg("url"))
      .def("fetched", [](const py_frontier& f, str_in url) { return f.f().fetched(url_arg(url, "url")); }, py::arg("url"))
      .def("vote", [](py_frontier& f, str_in url, str_in code) {
             const std::string_view u = url_arg(url, "url");
             return f.f().vote(u, f.code(code, "code"));
           }, py::arg("url"), py::arg("code"), "One referrer vote: `code` is a guess for `url`'s language.")
      .def("add_votes", [](py_frontier& f, const py_detection& d, texts_in urls) {
             std::array<std::string, 3> store;
             const detection cd = d.to_cpp(store);
             py::list keep;
             const std::vector<std::string_view> v = url_views(urls, "add_votes", keep);
             gil_released nogil;
             return f.f().add_votes(cd, std::span<const std::string_view>(v));
           }, py::arg("detection"), py::arg("urls"),
           "A fetched page's languages (those with >= min_vote_percent of its text) vote for each out-link. "
           "Short pages (under 400 bytes of text) and 'und' pages cast no vote. Returns the votes recorded.")
      .def("votes", [](const py_frontier& f, str_in url) {
             py::dict d;
             for (const auto& [c, n] : f.f().votes(url_arg(url, "url"))) d[py::str(c)] = n;
             return d;
           }, py::arg("url"), "{code: votes} for a URL.")
      .def("decide", &py_frontier::decide, py::arg("url"), py::kw_only(), py::arg("classify") = true,
           py::arg("country") = py::none(), py::arg("min_url_score") = 0.0f,
           "Fetch or skip `url`, with a priority from its referrer votes and (classify=True) the URL classifier's "
           "scores (country: the host's ISO 3166-1 country, a hint). A classifier answer whose top score is under "
           "min_url_score counts as no answer.")
      .def("decide_many", &py_frontier::decide_many, py::arg("urls"), py::kw_only(), py::arg("classify") = true,
           py::arg("country") = py::none(), py::arg("min_url_score") = 0.0f,
           "decide() for many URLs at once, with the GIL released.")
      .def("__len__", [](const py_frontier& f) { return f.f().size(); })
      .def_property_readonly("memory_bytes", [](const py_frontier& f) { return f.f().memory_bytes(); })
      .def_property_readonly("dropped_votes", [](const py_frontier& f) { return f.f().dropped_votes(); })
      .def("save", [](const py_frontier& f, path_in path) {
             const std::string p = path_arg(path).bytes;
             std::string message;
             status st;
             {
               gil_released nogil;
               st = f.f().save_file(p, &message);
             }
             if (st != status::ok) raise_io(st, message, p);
           }, py::arg("path"), "Writes the state to a file (a temporary file renamed into place).")
      .def("load", [](py_frontier& f, path_in path) {
             const std::string p = path_arg(path).bytes;
             std::string message;
             status st;
             {
               gil_released nogil;
               st = frontier::load_file(p, f.f(), &message);
             }
             if (st != status::ok) raise_io(st, message, p);
           }, py::arg("path"),
           "Replaces the state with a saved one. A truncated, corrupt or foreign file raises (the frontier "
           "is then unchanged).")
      .def("to_bytes", [](const py_frontier& f) {
             std::string s;
             {
               gil_released nogil;
               s = f.f().save();
             }
             return py::bytes(s);
           })
      .def("from_bytes", [](py_frontier& f, const py::bytes& b) {
             const std::string s = b;
             std::string message;
             const status st = frontier::load_copy(s, f.f(), &message);
             if (st != status::ok) raise_io(st, message, "Frontier.from_bytes");
           }, py::arg("data"))
      .def("__repr__", [](const py_frontier& f) {
        return "Frontier(" + std::to_string(f.f().size()) + " URLs, " + std::to_string(f.f().quotas().size()) +
               " languages)";
      });

  m.def("_cli_main", [](py::handle argv) {
        if (PyUnicode_Check(argv.ptr()) || PyBytes_Check(argv.ptr()) || !PySequence_Check(argv.ptr()))
          throw py::type_error("argv must be a list of str or bytes, not " + type_name(argv));
        std::vector<std::string> args;
        for (py::handle a : py::reinterpret_borrow<py::sequence>(argv)) {
          py::object b = py::reinterpret_borrow<py::object>(a);
          if (PyUnicode_Check(a.ptr())) {  // as the OS gave it: os.fsencode()
            b = py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(a.ptr()));
            if (!b) throw py::error_already_set();
          } else if (!PyBytes_Check(a.ptr())) {
            throw py::type_error("argv: an argument must be str or bytes, not " + type_name(a));
          }
          args.emplace_back(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
          if (args.back().find('\0') != std::string::npos) throw py::value_error("argv: an argument holds a NUL byte");
        }
        if (args.empty()) throw py::value_error("argv is empty (argv[0] is the program's name)");
        const py::module_ sys = py::module_::import("sys");
        for (const char* stream : {"stdout", "stderr"})  // what Python wrote comes first
          if (const py::object f = sys.attr(stream); !f.is_none()) f.attr("flush")();
        gil_released nogil;
        return run_cli(args);
      }, py::arg("argv"),
      "Runs the `langsift` command (the C++ tool, linked in) with argv (argv[0]: the program's name) on "
      "this process's standard input, output and error descriptors, and returns its exit status: what "
      "`python3 -m langsift` and the `langsift` script of a pip install run. While it runs, SIGINT, "
      "SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ have their default actions, as in the tool's own process "
      "(Ctrl-C ends the process; no KeyboardInterrupt).");

  not_pickled(m, "Model", "pickle its path or built-in name, and Model.load() or Model.builtin() it");
  not_pickled(m, "Frontier", "its state is to_bytes() / from_bytes() or save() / load()");
  not_pickled(m, "WarcReader", "it reads an open input; pickle the path");
}
