# Debian's lintian on the packages the .deb test made (tests/downstream/deb.cmake, its fixture):
# no error. Warnings and the rest are printed (docs/packaging.md lists the warnings expected, and
# why). Invoked by ctest with -DLINTIAN and -DDEB_DIR.
cmake_minimum_required(VERSION 3.21)
file(GLOB debs ${DEB_DIR}/*.deb)
list(LENGTH debs n)
if(n LESS 3)
  message(FATAL_ERROR "expected the .deb packages in ${DEB_DIR}, found: ${debs}")
endif()
execute_process(COMMAND ${LINTIAN} --no-cfg --fail-on error --display-level ">=warning" ${debs}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message(STATUS "lintian (exit ${rc}):\n${out}${err}")
if(out MATCHES "(^|\n)E: " OR err MATCHES "(^|\n)E: ")
  message(FATAL_ERROR "lintian reports errors (E:) in ${debs}")
endif()
if(NOT rc EQUAL 0)  # 2: an error (--fail-on error); anything else: lintian did not run through
  message(FATAL_ERROR "lintian exited with ${rc}")
endif()
message(STATUS "ok: no lintian error in ${n} packages")
