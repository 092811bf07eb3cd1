# Helpers of run.cmake and deb.cmake: the checks of an installed langsift (a `cmake --install`
# prefix, or the /usr of an unpacked .deb). Needs LANGSIFT_SOURCE_DIR, LANGSIFT_BINARY_DIR, GENERATOR.

function(run)
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  string(TIMESTAMP t1 "%s")
  math(EXPR secs "${t1} - ${t0}")
  message(STATUS "ok (${secs} s): ${ARGN}")
endfunction()

# What the build directory was configured with (tools, Java, man pages, the developer tools).
load_cache(${LANGSIFT_BINARY_DIR} READ_WITH_PREFIX CACHED_ LANGSIFT_INSTALL_DEV_TOOLS LANGSIFT_BUILD_TOOLS)

# langsift_check_layout(PREFIX): what is installed where (docs/packaging.md).
function(langsift_check_layout prefix)
  file(GLOB_RECURSE config ${prefix}/*/cmake/langsift/langsiftConfig.cmake)
  list(LENGTH config n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one langsiftConfig.cmake under ${prefix}, found: ${config}")
  endif()
  string(REGEX REPLACE "/cmake/langsift/langsiftConfig.cmake$" "" libdir "${config}")
  set(expected include/langsift.hpp include/langsift.h include/langsift/detector.hpp
    include/langsift/version_config.hpp)
  set(in_libdir pkgconfig/langsift.pc pkgconfig/langsift-core.pc liblangsift_core.a liblangsift_models.a liblangsift_encoding.a
    liblangsift_c.so liblangsift_c.so.0)
  if(CACHED_LANGSIFT_BUILD_TOOLS)
    list(APPEND expected bin/langsift bin/langsift-train bin/langsift-eval)
  endif()
  if(EXISTS ${LANGSIFT_BINARY_DIR}/langsift.jar)  # the Java bridge was built
    list(APPEND expected share/java/langsift.jar)
    list(APPEND in_libdir jni/liblangsift_jni.so)
  endif()
  if(EXISTS ${LANGSIFT_BINARY_DIR}/man/man1/langsift.1)  # man pages were generated
    list(APPEND expected share/man/man1/langsift.1 share/man/man1/langsift-warc.1 share/man/man1/langsift-detect.1
      share/man/man1/langsift-train.1 share/man/man1/langsift-eval.1)
  endif()
  foreach(f IN LISTS expected)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${prefix}/${f}")
    endif()
  endforeach()
  foreach(f IN LISTS in_libdir)
    if(NOT EXISTS ${libdir}/${f})
      message(FATAL_ERROR "not installed: ${libdir}/${f}")
    endif()
  endforeach()
  if(EXISTS ${libdir}/liblangsift_jni.so)
    message(FATAL_ERROR "the JNI library belongs in ${libdir}/jni, not ${libdir}")
  endif()
  # Developer tools and peers: only with -DLANGSIFT_INSTALL_DEV_TOOLS=ON.
  if(NOT CACHED_LANGSIFT_INSTALL_DEV_TOOLS)
    file(GLOB dev ${prefix}/bin/langsift-bench ${prefix}/bin/langsift-crawlsim ${prefix}/bin/langsift-warcgen
      ${prefix}/bin/langsift-peer-* ${prefix}/bin/langsift-gen-*)
    if(dev)
      message(FATAL_ERROR "developer tools installed without LANGSIFT_INSTALL_DEV_TOOLS: ${dev}")
    endif()
  endif()
  message(STATUS "ok: the layout of ${prefix} (libdir ${libdir})")
  set(LANGSIFT_LIBDIR ${libdir} PARENT_SCOPE)
endfunction()

# langsift_check_consumers(PREFIX WORK): find_package (every component; core alone, proving that
# ICU, uchardet and zlib are not looked for) and pkg-config (langsift, langsift-core) consumers,
# built against PREFIX and run.
# (No build type, so no optimisation: the consumers are compiled for what they link, not for speed.)
function(langsift_check_consumers prefix work)
  set(src ${LANGSIFT_SOURCE_DIR}/tests/downstream)
  set(model ${LANGSIFT_SOURCE_DIR}/models/default.lsm)
  # find_package, every component.
  run(${CMAKE_COMMAND} -S ${src}/project -B ${work}/package -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix})
  run(${CMAKE_COMMAND} --build ${work}/package)
  run(${work}/package/consumer)

  # find_package(langsift COMPONENTS core) with ICU, zlib and pkg-config poisoned.
  run(${CMAKE_COMMAND} -S ${src}/core -B ${work}/core -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix})
  run(${CMAKE_COMMAND} --build ${work}/core)
  run(${work}/core/core_consumer ${model})
  # ... the negative control: asking for encoding must hit the poisoned FindICU.
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${src}/core -B ${work}/core-control -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix} -DLANGSIFT_CONSUMER_COMPONENTS=encoding
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "langsift-poison: the langsift package looked for ICU")
    message(FATAL_ERROR "negative control: COMPONENTS encoding should have looked for (poisoned) ICU\n${out}\n${err}")
  endif()
  message(STATUS "ok: COMPONENTS encoding looks for ICU (negative control)")

  # pkg-config: langsift (static archives: --static) and langsift-core (Cflags only, no library).
  file(GLOB_RECURSE pcfile ${prefix}/*/pkgconfig/langsift.pc)
  get_filename_component(pcdir "${pcfile}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${pcdir})
  foreach(pc langsift langsift-core)
    set(static "")
    if(pc STREQUAL "langsift")
      set(static --static)
    endif()
    execute_process(COMMAND pkg-config --cflags --libs ${static} ${pc} OUTPUT_VARIABLE flags_${pc}
      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "pkg-config ${pc} (in ${pcdir}): ${err}")
    endif()
    message(STATUS "pkg-config ${pc}: ${flags_${pc}}")
    separate_arguments(flags_${pc} UNIX_COMMAND "${flags_${pc}}")
  endforeach()
  foreach(f IN LISTS flags_langsift-core)
    if(f MATCHES "^-l" AND NOT f STREQUAL "-llangsift_core")
      message(FATAL_ERROR "langsift-core.pc links ${f}: the core needs liblangsift_core only")
    endif()
  endforeach()
  run(c++ ${src}/consumer.cpp -o ${work}/consumer-pc ${flags_langsift})
  run(${work}/consumer-pc)
  run(c++ ${src}/core/core_consumer.cpp -o ${work}/core-consumer-pc ${flags_langsift-core})
  run(${work}/core-consumer-pc ${model})
  unset(ENV{PKG_CONFIG_PATH})
endfunction()
