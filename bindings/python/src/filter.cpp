// langsift._langsift — LanguageFilter (NCL-Crawl's result filters) and
// language_filter_from_config().
#include "arguments.hpp"
#include "detect_options.hpp"
#include "langsift/filter.hpp"
#include "module.hpp"
#include "results.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

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

}  // namespace

void bind_filter(py::module_& m) {
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
}

}  // namespace langsift_py
