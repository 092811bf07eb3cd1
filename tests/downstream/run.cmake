# The consumers of an installed langsift, built and run (docs/packaging.md):
#  1. a fresh `cmake --install` of the build tree: what is installed where (user tools, not the
#     developer tools; the JNI library in <libdir>/jni, the jar in share/java, man pages);
#  2. find_package(langsift CONFIG) against it: every component, and COMPONENTS core alone with
#     ICU, uchardet (pkg-config) and zlib poisoned (plus a negative control);
#  3. pkg-config (langsift.pc, langsift-core.pc) against the same install;
#  4. add_subdirectory() of the source tree.
# Invoked by ctest with -DLANGSIFT_SOURCE_DIR, -DLANGSIFT_BINARY_DIR, -DWORK_DIR, -DGENERATOR.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

run(${CMAKE_COMMAND} --install ${LANGSIFT_BINARY_DIR} --prefix ${prefix})
langsift_check_layout(${prefix})
langsift_check_consumers(${prefix} ${WORK_DIR})

# add_subdirectory of the source tree.
run(${CMAKE_COMMAND} -S ${LANGSIFT_SOURCE_DIR}/tests/downstream/subdir -B ${WORK_DIR}/subdir -G ${GENERATOR}
    -DLANGSIFT_SOURCE_DIR=${LANGSIFT_SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/subdir)
run(${WORK_DIR}/subdir/consumer)
