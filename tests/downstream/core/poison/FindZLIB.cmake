# Poisoned: a core-only consumer must never look for ZLIB (tests/downstream/core/CMakeLists.txt).
message(FATAL_ERROR "langsift-poison: the langsift package looked for ZLIB although only langsift::core was requested")
