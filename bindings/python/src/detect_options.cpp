// langsift._langsift — the detect functions' shared keyword arguments (detect_options.hpp).
#include "detect_options.hpp"

#include "langsift/default_model.hpp"
#include "text.hpp"

namespace langsift_py {

code_style parse_codes(const std::string& s) {
  if (const auto style = langsift::parse_code_style(s)) return *style;
  throw py::value_error("codes must be 'iso639-1' or 'iso639-3', not " + langsift::detail::quoted_value(s));
}

namespace {

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
    names += (names.empty() ? "" : ", ") + langsift::detail::quoted_value(written);
    const std::string s = suggest_language_code(written);
    const std::string_view sv = s;
    if (!s.empty() && unknown(std::span<const std::string_view>(&sv, 1)).empty())
      names += " (did you mean '" + s + "'?)";
  }
  if (!names.empty()) throw py::value_error(std::string(what) + ": not a language " + known_as + ": " + names);
}

}  // namespace

std::vector<std::string> code_list(py::handle h, const char* what, std::vector<std::string>* given) {
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

void require_model_codes(const model& m, const std::vector<std::string>& codes, const std::vector<std::string>& given,
                         const char* what) {
  require_codes(codes, given, what, "of the model",
                [&](std::span<const std::string_view> v) { return langsift::unknown_codes(m, v); });
}

void require_known_codes(const std::vector<std::string>& codes, const std::vector<std::string>& given, const char* what,
                         const model* also) {
  require_codes(codes, given, what, also ? "of the built-in models or of the given model" : "langsift knows",
                [&](std::span<const std::string_view> v) { return langsift::unknown_builtin_codes(v, also); });
}

code_style codes_arg(py::handle h) { return parse_codes(str_value(h, "codes")); }

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
          throw py::value_error("hints: unknown key " + langsift::detail::quoted_value(key) + " (content_language, html_lang, languages, tld, weight)");
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

std::size_t k_arg(int_in k) { return static_cast<std::size_t>(int_arg(k, "k", 0, max_top_k)); }

}  // namespace langsift_py
