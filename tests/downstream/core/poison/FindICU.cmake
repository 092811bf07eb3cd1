# Poisoned: a core-only consumer must never look for ICU (tests/downstream/core/CMakeLists.txt).
message(FATAL_ERROR "langsift-poison: the langsift package looked for ICU although only langsift::core was requested")
