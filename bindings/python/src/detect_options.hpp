// langsift._langsift — the keyword arguments the detect functions share (model, only, hints,
// codes, the byte limits, k), and language-code lists given as a str or an iterable, checked
// against what a model (or langsift) knows.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.hpp"
#include "langsift/options.hpp"
#include "models.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

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
std::vector<std::string> code_list(py::handle h, const char* what, std::vector<std::string>* given = nullptr);

/// Codes a call with model `m` can restrict to or be hinted with (`only`, hints): the model's.
void require_model_codes(const model& m, const std::vector<std::string>& codes, const std::vector<std::string>& given,
                         const char* what);

/// Codes matched against detections of any model (filter labels, frontier quotas and votes):
/// those of the built-in models and scripts, and of `also` (a Model given to the filter or frontier).
void require_known_codes(const std::vector<std::string>& codes, const std::vector<std::string>& given, const char* what,
                         const model* also);

/// A code style by the library's names (parse_code_style: 'iso639-1', 'iso639-3'), or ValueError.
code_style parse_codes(const std::string& s);

/// A `codes=` argument (parse_codes).
code_style codes_arg(py::handle h);

/// The detect functions' common keyword arguments, converted and checked.
void fill_options(call_options& c, model_in model, codes_in only, hints_in hints, choice_in codes, int_in max_text_bytes,
                  int_in short_text_bytes);

/// The k argument of the detect functions: how many probabilities (0..max_top_k).
std::size_t k_arg(int_in k);

}  // namespace langsift_py
