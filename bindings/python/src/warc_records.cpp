// langsift._langsift — WarcRecord and WarcStats (warc_records.hpp).
#include "warc_records.hpp"

#include "arguments.hpp"
#include "module.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

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

py::tuple warc_stats_state(const py_warc_stats& s) { return py::make_tuple(s.s.tsv()); }

py_warc_stats warc_stats_from_state(py::handle h) {
  const state_reader r(h, "WarcStats", 1);
  py_warc_stats s;
  std::string error;
  if (!warc_statistics::parse_tsv(r.str(0), s.s, &error)) throw py::value_error("not a WarcStats state: " + error);
  return s;
}

/// Adds `o` to `s`; a count past 2**64 - 1 is OverflowError with nothing added (as `langsift warc
/// --merge-stats` refuses it), never a wrapped count.
void merge_stats(py_warc_stats& s, const py_warc_stats& o) {
  if (!s.s.merge(o.s)) {
    PyErr_SetString(PyExc_OverflowError, "WarcStats: a count would exceed 2**64 - 1; nothing was merged");
    throw py::error_already_set();
  }
}

/// The WarcRecord class.
void bind_warc_record(py::module_& m) {
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
}

/// The WarcStats class.
void bind_warc_stats(py::module_& m) {
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

}

}  // namespace

void bind_warc_records(py::module_& m) {
  bind_warc_record(m);
  bind_warc_stats(m);
}

}  // namespace langsift_py
