# Poisoned: a core-only consumer must never look for PkgConfig (tests/downstream/core/CMakeLists.txt).
message(FATAL_ERROR "langsift-poison: the langsift package looked for PkgConfig although only langsift::core was requested")
