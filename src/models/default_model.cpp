// The built-in model: its bytes are linked in by default_model.S (.incbin of models/default.lsm).
#include "langsift/default_model.hpp"

extern "C" {
extern const char langsift_v1_default_model_begin[];
extern const char langsift_v1_default_model_end[];
}

namespace langsift {
inline namespace v1 {

std::string_view default_model_bytes() noexcept {
  return std::string_view(langsift_v1_default_model_begin,
                          static_cast<std::size_t>(langsift_v1_default_model_end - langsift_v1_default_model_begin));
}

const model& default_model() noexcept {
  static const model m = [] {
    model loaded;
    // Checksum verified; the structure is langsift-train's (the tests load it fully verified).
    (void)model::load_view(default_model_bytes(), loaded, /*verify_structure=*/false);  // empty on failure
    return loaded;
  }();
  return m;
}

}  // namespace v1
}  // namespace langsift
