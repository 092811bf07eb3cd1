// langsift._langsift — langsift.Model: the built-in models, model files and bytes, and the
// model= argument of every function (a Model, a built-in model's name or a model file's path).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <memory>
#include <utility>

#include "arguments.hpp"
#include "langsift/model.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

struct py_model {
  std::shared_ptr<const model> m;
  bool builtin = false;
  explicit py_model(std::shared_ptr<const model> mm, bool b) : m(std::move(mm)), builtin(b) {}
};

/// The default built-in model's Model (never destroyed).
std::shared_ptr<py_model> builtin_model();

/// Model.builtin(name): the built-in model of that name, one shared object per name.
std::shared_ptr<py_model> builtin_model_named(choice_in name_h);

/// `m`, or the default built-in model for null.
std::shared_ptr<py_model> model_or_default(const std::shared_ptr<py_model>& m);

/// A Model argument: the model; a built-in model's name or a model file's path (named_model); or
/// null for None (the default model).
std::shared_ptr<py_model> model_arg(py::handle h);

}  // namespace langsift_py
