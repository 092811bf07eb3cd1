// langsift._langsift — classify_url(), UrlResult and UrlLanguage (url.hpp).
#include "url.hpp"

#include "arguments.hpp"
#include "detect_options.hpp"
#include "gil.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/url_models.hpp"
#include "module.hpp"
#include "results.hpp"
#include "text.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

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

}  // namespace

std::string country_arg(py::handle h) {
  const auto cc = opt_str_value(h, "country");
  if (!cc) return {};
  if (cc->size() != 2 || !langsift::detail::is_ascii_alpha(static_cast<unsigned char>((*cc)[0])) ||
      !langsift::detail::is_ascii_alpha(static_cast<unsigned char>((*cc)[1])))
    throw py::value_error("country must be a two-letter ISO 3166-1 code, e.g. 'DE', not " + langsift::detail::quoted_value(*cc));
  return *cc;
}

void bind_url_result(py::module_& m) {
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

}

void bind_url(py::module_& m) {
  m.def("classify_url", &classify_url_py, py::arg("url"), py::kw_only(), py::arg("country") = py::none(),
        py::arg("codes") = "iso639-1",
        R"doc(The language of the page a URL probably leads to, from the URL alone (built-in URL models:
words, character n-grams, language-code patterns such as /de/ or ?lang=fr, the ccTLD).

country: the host's ISO 3166-1 country (e.g. from geo-IP), a hint that raises recall.
Returns a UrlResult (.language, .languages with scores, .decision, .status).)doc");
}

}  // namespace langsift_py
