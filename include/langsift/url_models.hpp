// langsift — the built-in URL models, built into the library (target langsift::models), so that
// URL classification works with no file at run time. models/README.md says what they were trained
// on, with which command, and their checksums.
//
//   const langsift::url_classifier& c = langsift::default_url_classifier();
//   c.classify("http://www.lemonde.fr/politique/").language();  // "fr"
#pragma once

#include "langsift/default_model.hpp"  // LANGSIFT_MODELS_API
#include "langsift/url.hpp"

namespace langsift {
inline namespace v1 {

/// The built-in generative words model (every language of the default text model; trained from
/// the words of the text corpora). Empty if the embedded bytes failed to validate.
LANGSIFT_MODELS_API const url_model& default_url_words_model() noexcept;

/// The built-in discriminative linear model (trained from labelled URLs).
LANGSIFT_MODELS_API const url_model& default_url_linear_model() noexcept;

/// A classifier over both built-in models. Thread-safe; built on first use.
LANGSIFT_MODELS_API const url_classifier& default_url_classifier() noexcept;

/// The raw bytes of the built-in models.
LANGSIFT_MODELS_API std::string_view default_url_words_model_bytes() noexcept;
LANGSIFT_MODELS_API std::string_view default_url_linear_model_bytes() noexcept;

}  // namespace v1
}  // namespace langsift
