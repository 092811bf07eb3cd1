// langsift._langsift — langsift.Model and the model= argument (models.hpp).
#include "models.hpp"

#include <sys/stat.h>
#include <string>

#include "detect_options.hpp"
#include "errors.hpp"
#include "gil.hpp"
#include "langsift/default_model.hpp"
#include "langsift/detail/immortal.hpp"
#include "langsift/options.hpp"
#include "module.hpp"
#include "text.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

py::tuple builtin_model_names_py() {
  py::list l;
  for (const std::string_view n : langsift::builtin_model_names()) l.append(to_py(n));
  return py::tuple(l);
}

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

/// languages(model=None, *, codes='iso639-1'): the model's codes, in the style asked for.
py::tuple model_languages(model_in model, choice_in codes) {
  const std::shared_ptr<py_model> m = model_or_default(model_arg(model));
  const code_style style = codes_arg(codes);
  py::list l;
  for (std::size_t i = 0; i < m->m->language_count(); ++i) l.append(to_py(code_in_style(m->m->language_code(i), style)));
  return py::tuple(l);
}

}  // namespace

// The Model objects of the built-in models are never destroyed (as the models themselves: threads
// may still be detecting with them while the process exits; see detail::immortal).
std::shared_ptr<py_model> builtin_model() {
  static const detail::immortal<std::shared_ptr<py_model>> m(
      std::make_shared<py_model>(std::shared_ptr<const model>(&default_model(), [](const model*) {}), true));
  return m.get();
}

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
    throw py::value_error("no built-in model named " + langsift::detail::quoted_value(name) + " (built-in models: default, wide)");
  if (st != status::ok) raise_with_status(g_model_error, error + " (" + std::string(status_name(st)) + ")", st);
  auto pm = std::make_shared<py_model>(std::shared_ptr<const model>(found, [](const model*) {}), true);
  if (name == "wide") wide = pm;
  return pm;
}

std::shared_ptr<py_model> model_or_default(const std::shared_ptr<py_model>& m) { return m ? m : builtin_model(); }

std::shared_ptr<py_model> model_arg(py::handle h) {
  if (h.is_none()) return nullptr;
  if (PyUnicode_Check(h.ptr()) || (!PyBytes_Check(h.ptr()) && py::hasattr(h, "__fspath__"))) return named_model(h);
  if (!py::isinstance<py_model>(h))
    throw py::type_error("model must be a langsift.Model, a built-in model's name (\"default\", \"wide\"), a model "
                         "file's path or None, not " + type_name(h));
  return h.cast<std::shared_ptr<py_model>>();
}

void bind_model(py::module_& m) {
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
  not_pickled(m, "Model", "pickle its path or built-in name, and Model.load() or Model.builtin() it");
}

void bind_language_codes(py::module_& m) {
  m.def("languages", &model_languages, py::arg("model") = py::none(), py::kw_only(), py::arg("codes") = "iso639-1",
        "The language codes a model knows (default: the built-in model; a Model, a built-in model's name or "
        "a model file's path), in the style `codes` names ('iso639-1' or 'iso639-3').");
  m.def("to_iso639_3", [](str_in c) { return to_iso639_3(str_view(c, "code")); }, py::arg("code"),
        "'de' -> 'deu', 'zh-Hant' -> 'zho-Hant'; codes without a two-letter form unchanged; subtags in "
        "BCP 47's case ('zh-hant' -> 'zho-Hant').");
  m.def("to_iso639_1", [](str_in c) { return to_iso639_1(str_view(c, "code")); }, py::arg("code"),
        "'deu' -> 'de'; codes without a two-letter form unchanged; subtags in BCP 47's case ('zh-hant' -> "
        "'zh-Hant'), as langsift compares codes.");
}

}  // namespace langsift_py
