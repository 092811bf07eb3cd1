/* langsift_data_v1_get (builtin_data.h): the built-in models' bytes, linked in by the generated
 * default_model.S, wide_model.S, close_groups.S and url_models.S (.incbin of the model files). */
#include "builtin_data.h"

extern const char langsift_v1_default_model_begin[];
extern const char langsift_v1_default_model_end[];
extern const char langsift_v1_wide_model_begin[];
extern const char langsift_v1_wide_model_end[];
extern const char langsift_v1_close_default_begin[];
extern const char langsift_v1_close_default_end[];
extern const char langsift_v1_close_wide_begin[];
extern const char langsift_v1_close_wide_end[];
extern const char langsift_v1_url_words_begin[];
extern const char langsift_v1_url_words_end[];
extern const char langsift_v1_url_linear_begin[];
extern const char langsift_v1_url_linear_end[];

static const char* span(const char* begin, const char* end, size_t* size) {
  *size = (size_t)(end - begin);
  return begin;
}

const char* langsift_data_v1_get(unsigned which, size_t* size) {
  switch (which) {
    case LANGSIFT_DATA_DEFAULT_MODEL:
      return span(langsift_v1_default_model_begin, langsift_v1_default_model_end, size);
    case LANGSIFT_DATA_WIDE_MODEL:
      return span(langsift_v1_wide_model_begin, langsift_v1_wide_model_end, size);
    case LANGSIFT_DATA_CLOSE_DEFAULT:
      return span(langsift_v1_close_default_begin, langsift_v1_close_default_end, size);
    case LANGSIFT_DATA_CLOSE_WIDE:
      return span(langsift_v1_close_wide_begin, langsift_v1_close_wide_end, size);
    case LANGSIFT_DATA_URL_WORDS:
      return span(langsift_v1_url_words_begin, langsift_v1_url_words_end, size);
    case LANGSIFT_DATA_URL_LINEAR:
      return span(langsift_v1_url_linear_begin, langsift_v1_url_linear_end, size);
    default:
      *size = 0;
      return 0;
  }
}
