// langsift._langsift — the values of Language, Detection and Span: dicts, reprs and states
// (results.hpp).
#include "results.hpp"

#include "arguments.hpp"
#include "values.hpp"

namespace langsift_py {

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

py::tuple probabilities_tuple(const py_detection& d) {
  py::tuple t(d.probs.size());
  for (std::size_t i = 0; i < d.probs.size(); ++i) t[i] = py::make_tuple(to_py(d.probs[i].code.view()), static_cast<double>(d.probs[i].p));
  return t;
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
  throw py::value_error("unknown status " + langsift::detail::quoted_value(name));
}

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

}  // namespace langsift_py
