// langsift._langsift — PageResult, detect_page() and extract_text() (page.hpp).
#include "page.hpp"

#include <algorithm>

#include "arguments.hpp"
#include "detect_options.hpp"
#include "gil.hpp"
#include "langsift/encoding.hpp"
#include "module.hpp"
#include "values.hpp"

namespace langsift_py {

py::tuple page_state(const py_page& p) {
  return py::make_tuple(detection_state(p.detection), bytes_of(p.encoding), bytes_of(p.encoding_source),
                        static_cast<double>(p.encoding_confidence), bytes_of(p.declared_encoding), p.declared_overridden,
                        p.is_html, bytes_of(p.html_lang), p.replaced_bytes,
                        p.text ? py::object(bytes_of(*p.text)) : py::object(py::none()));
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

namespace {

page_kind parse_kind(py::handle h) {
  const std::string_view k = str_view(h, "kind");
  if (k == "sniff") return page_kind::sniff;
  if (k == "html") return page_kind::html;
  if (k == "text") return page_kind::text;
  throw py::value_error("kind must be 'sniff', 'html' or 'text', not " + langsift::detail::quoted_value(k));
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
    if (!can_convert(*enc)) throw py::value_error("encoding: " + langsift::detail::quoted_value(*enc) + " is not an encoding langsift can decode");
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

}  // namespace

void bind_page_result(py::module_& m) {
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
}

void bind_page(py::module_& m) {
  const detect_options dflt;
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
}

}  // namespace langsift_py
