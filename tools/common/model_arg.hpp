// The value of a tool's --model option: a built-in model's name or a model file.
//
// Precedence (the library's rule, langsift::resolve_model, which Python's model= and the Dask and
// Scrapy settings follow too): a value that is exactly the name of a built-in model ("default",
// "wide"; see langsift::builtin_model_names()) selects that model, whether or not a file of that
// name exists in the working directory, so that a command means the same thing wherever it runs.
// Any other value is a file path; to load a file that happens to be called `wide`, write `./wide`.
#pragma once

#include <cstddef>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/default_model.hpp"
#include "langsift/detector.hpp"
#include "langsift/language_codes.hpp"
#include "langsift/model.hpp"

namespace langsift::cli {

/// True when a --model value names a built-in model rather than a file.
inline bool is_builtin_model_name(std::string_view value) noexcept { return langsift::is_builtin_model_name(value); }

/// Resolves a --model value (langsift::resolve_model): an empty value is the default built-in
/// model; a built-in model's name selects it; anything else is loaded from the file into `storage`
/// (with `max_bytes` as model::load_file takes it). On success `out` points at the model;
/// otherwise `error` says why.
inline status resolve_model(const std::string& value, const model*& out, model& storage, std::string& error,
                            std::size_t max_bytes = 0) {
  const status st = langsift::resolve_model(value, out, storage, &error, max_bytes);
  if (st != status::ok && error.empty())
    error = is_builtin_model_name(value) || value.empty() ? "the built-in model failed to load (a broken build)"
                                                          : value + ": " + std::string(status_name(st));
  return st;
}

/// The number of languages of the built-in model `name` (0 if it does not load), for help texts:
/// counted from the model, so that the text cannot drift from it.
inline std::size_t builtin_language_count(std::string_view name) noexcept {
  const model* m = nullptr;
  return builtin_model(name, m) == status::ok ? m->language_count() : 0;
}

/// `s` as one word of a POSIX shell command: as it is when it needs no quoting, else in single
/// quotes (a ' inside written '\'').
inline std::string shell_word(std::string_view s) {
  const bool plain = !s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                        "0123456789_./:=@%+,-") == std::string_view::npos;
  if (plain) return std::string(s);
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The command that lists the languages of the model a --model value names (`model_arg`, empty
/// for the default model): `langsift detect [--model M] --list-languages`, for messages (the
/// installed tools cannot point to files of the source tree).
inline std::string list_languages_command(std::string_view model_arg) {
  std::string cmd = "langsift detect";
  if (!model_arg.empty()) cmd += " --model " + shell_word(model_arg);
  return cmd + " --list-languages";
}

/// The check of every option that takes language codes (--only, --label, --hint...): the codes
/// the model cannot answer, as detect_options::only reads them (langsift::unknown_codes), are a
/// usage error naming them: "PROGRAM: OPTION: not a language of the model: xx, de-DE (did you mean
/// de?) (`langsift detect --list-languages` lists them)", with the library's suggestion
/// (suggest_language_code) where the model knows it, and the command that lists the languages of
/// the model the --model value `model_arg` names. Returns true when every code is known; otherwise
/// prints that line and returns false (the tool then exits with status 2).
inline bool check_language_codes(std::string_view program, std::string_view option, const model& m,
                                 const std::vector<std::string>& codes, std::string_view model_arg) {
  const std::vector<std::string_view> views(codes.begin(), codes.end());
  const std::vector<std::string_view> unknown = unknown_codes(m, views);
  if (unknown.empty()) return true;
  std::string names;
  for (const std::string_view c : unknown) {
    names += (names.empty() ? "" : ", ") + std::string(c);
    // The library's suggestion (a region dropped, ISO 639-2/B, an English name), when the model has it.
    const std::string hint = suggest_language_code(c);
    const std::string_view hv = hint;
    if (!hint.empty() && unknown_codes(m, std::span<const std::string_view>(&hv, 1)).empty())
      names += " (did you mean " + hint + "?)";
  }
  std::fprintf(stderr, "%.*s: %.*s: not a language of the model: %s (`%s` lists them)\n",
               static_cast<int>(program.size()), program.data(), static_cast<int>(option.size()), option.data(),
               names.c_str(), list_languages_command(model_arg).c_str());
  return false;
}

}  // namespace langsift::cli
