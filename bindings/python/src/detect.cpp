// langsift._langsift — detect(), detect_many() and Span: languages of str texts.
#include "module.hpp"

#include <chrono>
#include <climits>

#include "arguments.hpp"
#include "detect_options.hpp"
#include "errors.hpp"
#include "gil.hpp"
#include "langsift/detail/utf8.hpp"
#include "langsift/parallel.hpp"
#include "langsift/spans.hpp"
#include "results.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

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

}  // namespace

void bind_detect(py::module_& m) {
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

}

void bind_bench(py::module_& m) {
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
}

}  // namespace langsift_py
