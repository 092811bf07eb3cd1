// langsift — the built-in models, built into the library (target langsift::models; their bytes are
// the shared library liblangsift_data.so.0, or inside langsift::models with LANGSIFT_EMBED_MODELS:
// docs/packaging.md), so that detection works with no model file at run time: "default" (models/default.lsm, 102 languages, fast)
// and "wide" (models/wide.lsm, 231 languages). models/README.md says what each was trained on,
// with which command, and its checksum; docs/detection.md how to choose.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "langsift/common.hpp"
#include "langsift/model.hpp"

#if defined(_WIN32)
#define LANGSIFT_MODELS_API
#else
#define LANGSIFT_MODELS_API __attribute__((visibility("default")))
#endif

namespace langsift {
inline namespace v1 {

/// The built-in model, set up on first use (header and tables checked, well under a millisecond;
/// no copy: the tables are used in place from the library's read-only data, pages shared with
/// every other process using them, and no checksum is computed over them, as they are part of
/// the library itself — the tests verify it).
/// Thread-safe. If the embedded bytes failed to validate — which the build's tests rule out — the
/// model is empty and detect() reports status::invalid_argument.
LANGSIFT_MODELS_API const model& default_model() noexcept;

/// The raw bytes of the built-in model (e.g. to write it out with `langsift model --dump`).
LANGSIFT_MODELS_API std::string_view default_model_bytes() noexcept;

/// The names of the built-in models, in a fixed order: "default", "wide".
LANGSIFT_MODELS_API std::span<const std::string_view> builtin_model_names() noexcept;

/// The built-in model called `name` ("default" is default_model()). Each is set up on its first
/// call, as default_model() is (header and tables checked; used in place from the library's
/// read-only data, so a model never asked for costs no memory beyond its pages on disk); thread-safe.
/// Returns ok with `out` pointing at the model (valid for the life of the program);
/// invalid_argument for a name that is no built-in model (`message`, optional, names the known
/// ones); corrupt_model if the embedded bytes failed to validate (the build's tests rule it out).
/// `out` is set on ok only.
LANGSIFT_MODELS_API status builtin_model(std::string_view name, const model*& out,
                                         std::string* message = nullptr) noexcept;

/// True when `name` is exactly the name of a built-in model ("default", "wide").
LANGSIFT_MODELS_API bool is_builtin_model_name(std::string_view name) noexcept;

/// A model as a user names one — a tool's --model, Python's `model=`, a Dask job's or a Scrapy
/// setting: the one rule for "a built-in model's name or a model file", which every one of them
/// follows. Empty: the default built-in model. Exactly the name of a built-in model: that model,
/// whether or not a file of that name exists, so that a setting means the same in every working
/// directory (to load a file called `wide`, write `./wide`). Anything else: a model file, loaded
/// into `storage` by model::load_file (`max_bytes` as it takes it). Returns ok with `out` pointing
/// at the model (a built-in one, valid for the life of the program, or `storage`); otherwise
/// builtin_model()'s or load_file()'s status, and `message` (optional) says why, naming the file.
LANGSIFT_MODELS_API status resolve_model(std::string_view name_or_path, const model*& out, model& storage,
                                         std::string* message = nullptr, std::size_t max_bytes = 0) noexcept;

/// The raw bytes of the built-in model called `name`, or an empty view for an unknown name.
LANGSIFT_MODELS_API std::string_view builtin_model_bytes(std::string_view name) noexcept;

/// The bytes of the close groups (close_groups.hpp) that come with the built-in model called
/// `name` — attached to it, and to the same model file loaded by resolve_model (recognised by its
/// checksum) — or an empty view when it has none.
LANGSIFT_MODELS_API std::string_view builtin_close_groups_bytes(std::string_view name) noexcept;

/// The codes of `codes` that name no language langsift's built-in models can answer, in their
/// order: none of the wide model's languages (which include all of the default model's), none
/// that a script decides alone (chr), and none of `also`'s when given (a trained model whose
/// codes are to be accepted too). Codes compare as unknown_codes() compares them: exactly, and
/// "zh" names zh-Hant too; "und" names no language. Codes are taken as given: to accept either
/// ISO form, pass them through to_iso639_1() first ("deu" -> "de"). This is the check of codes
/// matched against detections of whichever model — filter labels, frontier quotas and votes —
/// where unknown_codes() is the check against one model (`only`, hints). suggest_language_code()
/// gives a "did you mean" for each. Sets up the wide model on its first call (~20 ms).
LANGSIFT_MODELS_API std::vector<std::string_view> unknown_builtin_codes(std::span<const std::string_view> codes,
                                                                        const model* also = nullptr);

}  // namespace v1
}  // namespace langsift
