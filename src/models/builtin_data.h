/* The bytes of langsift's built-in models (models/default.lsm, wide.lsm, close-*.lscg, url-*.bin),
 * handed out by one C function, langsift_data_v1_get.
 *
 * Where they live is a build option (LANGSIFT_EMBED_MODELS, docs/packaging.md):
 *  - OFF (the default at top level): in the shared library liblangsift_data.so.0 (CMake
 *    langsift::data), which langsift::models, the tools, the C ABI, the JNI library and the Python
 *    extension link: on disk once per installation, mapped read-only by the dynamic loader, its
 *    pages shared by every process that uses them (file-backed, never copied);
 *  - ON (the default under add_subdirectory): compiled into langsift::models itself, as before.
 *
 * The data library is C and assembler only (no libstdc++), exports this one function and nothing
 * else; the C++ side (default_model.cpp, url_models.cpp) is the only caller. Private: not installed. */
#ifndef LANGSIFT_SRC_MODELS_BUILTIN_DATA_H
#define LANGSIFT_SRC_MODELS_BUILTIN_DATA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which blob. The numbers are part of liblangsift_data.so.0's ABI: add, never renumber. */
enum langsift_data_v1_id {
  LANGSIFT_DATA_DEFAULT_MODEL = 0, /* models/default.lsm */
  LANGSIFT_DATA_WIDE_MODEL = 1,    /* models/wide.lsm */
  LANGSIFT_DATA_CLOSE_DEFAULT = 2, /* models/close-default.lscg */
  LANGSIFT_DATA_CLOSE_WIDE = 3,    /* models/close-wide.lscg */
  LANGSIFT_DATA_URL_WORDS = 4,     /* models/url-words.bin */
  LANGSIFT_DATA_URL_LINEAR = 5     /* models/url-linear.bin */
};

#if defined(LANGSIFT_DATA_SHARED) && !defined(_WIN32)
#define LANGSIFT_DATA_API __attribute__((visibility("default")))
#else
#define LANGSIFT_DATA_API
#endif

/* The bytes of blob `which` (64-byte aligned, read-only, valid for the life of the process):
 * their address, and their count in *size. NULL and *size 0 for an unknown id (a newer caller
 * than this library). `size` must not be NULL. */
LANGSIFT_DATA_API const char* langsift_data_v1_get(unsigned which, size_t* size);

#ifdef __cplusplus
}
#endif

#endif
