// The built-in model: its bytes are linked in by default_model.S (.incbin of models/default.lsm).
#include "langsift/default_model.hpp"

extern "C" {
extern const char langsift_v1_default_model_begin[];
extern const char langsift_v1_default_model_end[];
}

namespace langsift {
inline namespace v1 {

namespace detail {
struct builtin_model_loader {
  // Header, section bounds and tables checked as for any model; not the checksum, nor the
  // structure scan: the bytes are this library's own (test_model.cpp verifies both), and hashing
  // all 7 MB was most of the start-up time (0.7-1.0 of 0.8-1.2 ms on the 2-core CI VM).
  static status load(std::string_view bytes, model& out) noexcept {
    return model::load_in_place(bytes, out, /*verify_checksum=*/false, /*verify_structure=*/false);
  }
};
}  // namespace detail

std::string_view default_model_bytes() noexcept {
  return std::string_view(langsift_v1_default_model_begin,
                          static_cast<std::size_t>(langsift_v1_default_model_end - langsift_v1_default_model_begin));
}

const model& default_model() noexcept {
  static const model m = [] {
    model loaded;
    (void)detail::builtin_model_loader::load(default_model_bytes(), loaded);  // empty on failure
    return loaded;
  }();
  return m;
}

}  // namespace v1
}  // namespace langsift
