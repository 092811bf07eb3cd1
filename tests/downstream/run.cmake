# Builds tests/downstream/consumer.cpp three ways against langsift and runs it:
#  1. find_package(langsift CONFIG) against a fresh install of the build tree,
#  2. pkg-config (langsift.pc) against the same install,
#  3. add_subdirectory() of the source tree.
# Invoked by ctest with -DLANGSIFT_SOURCE_DIR, -DLANGSIFT_BINARY_DIR, -DWORK_DIR, -DGENERATOR.
cmake_minimum_required(VERSION 3.21)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARGN}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

# 1. find_package against the installed package.
run(${CMAKE_COMMAND} --install ${LANGSIFT_BINARY_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${LANGSIFT_SOURCE_DIR}/tests/downstream/project -B ${WORK_DIR}/package -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/package)
run(${WORK_DIR}/package/consumer)

# 2. pkg-config against the same install (static archives: ask for the --static flags).
file(GLOB_RECURSE pcfile ${prefix}/*/langsift.pc)
get_filename_component(pcdir "${pcfile}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pcdir})
execute_process(COMMAND pkg-config --cflags --libs --static langsift OUTPUT_VARIABLE flags
  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config cannot find langsift.pc in ${pcdir}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(c++ ${LANGSIFT_SOURCE_DIR}/tests/downstream/consumer.cpp -o ${WORK_DIR}/consumer-pc ${flags})
run(${WORK_DIR}/consumer-pc)

# 3. add_subdirectory of the source tree.
run(${CMAKE_COMMAND} -S ${LANGSIFT_SOURCE_DIR}/tests/downstream/subdir -B ${WORK_DIR}/subdir -G ${GENERATOR}
    -DLANGSIFT_SOURCE_DIR=${LANGSIFT_SOURCE_DIR} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/subdir)
run(${WORK_DIR}/subdir/consumer)
