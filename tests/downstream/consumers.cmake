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
load_cache(${LANGSIFT_BINARY_DIR} READ_WITH_PREFIX CACHED_ LANGSIFT_INSTALL_DEV_TOOLS LANGSIFT_BUILD_TOOLS
  LANGSIFT_EMBED_MODELS)

# langsift_check_layout(PREFIX): what is installed where (docs/packaging.md).
function(langsift_check_layout prefix)
  # (lib/ or Debian's multiarch lib/x86_64-linux-gnu/: GLOB_RECURSE's "*" spans one directory.)
  file(GLOB_RECURSE config ${prefix}/*langsiftConfig.cmake)
  list(FILTER config INCLUDE REGEX "/cmake/langsift/langsiftConfig.cmake$")
  list(LENGTH config n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one langsiftConfig.cmake under ${prefix}, found: ${config}")
  endif()
  string(REGEX REPLACE "/cmake/langsift/langsiftConfig.cmake$" "" libdir "${config}")
  set(expected include/langsift.hpp include/langsift.h include/langsift/detector.hpp
    include/langsift/version_config.hpp)
  set(in_libdir pkgconfig/langsift.pc pkgconfig/langsift-core.pc pkgconfig/langsift-header-only.pc
    liblangsift_core.a liblangsift_models.a liblangsift_encoding.a liblangsift_warc.a liblangsift_page.a liblangsift_c.so
    liblangsift_c.so.0)
  if(NOT CACHED_LANGSIFT_EMBED_MODELS)  # the built-in models' shared library
    list(APPEND in_libdir liblangsift_data.so liblangsift_data.so.0)
  endif()
  if(CACHED_LANGSIFT_BUILD_TOOLS)
    list(APPEND expected bin/langsift bin/langsift-train bin/langsift-eval)
  endif()
  if(EXISTS ${LANGSIFT_BINARY_DIR}/langsift.jar)  # the Java bridge was built
    list(APPEND expected share/java/langsift.jar)
    list(APPEND in_libdir jni/liblangsift_jni.so)
  endif()
  if(EXISTS ${LANGSIFT_BINARY_DIR}/man/man1/langsift.1)  # man pages were generated (installed compressed)
    list(APPEND expected share/man/man1/langsift.1.gz share/man/man1/langsift-warc.1.gz
      share/man/man1/langsift-detect.1.gz share/man/man1/langsift-train.1.gz share/man/man1/langsift-eval.1.gz)
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
  # The Python package's install component (what a wheel holds) is not part of an installation.
  file(GLOB python_files ${prefix}/langsift ${prefix}/*/_langsift*)
  if(python_files)
    message(FATAL_ERROR "the Python component was installed: ${python_files}")
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

  # find_package(langsift COMPONENTS core), and COMPONENTS header_only (no library linked), with
  # ICU, zlib and pkg-config poisoned.
  run(${CMAKE_COMMAND} -S ${src}/core -B ${work}/core -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix})
  run(${CMAKE_COMMAND} --build ${work}/core)
  run(${work}/core/core_consumer ${model})
  run(${CMAKE_COMMAND} -S ${src}/core -B ${work}/header-only -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix} -DLANGSIFT_CONSUMER_COMPONENTS=header_only)
  run(${CMAKE_COMMAND} --build ${work}/header-only)
  run(${work}/header-only/core_consumer ${model})
  # ... the negative control: asking for encoding must hit the poisoned FindICU.
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${src}/core -B ${work}/core-control -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix} -DLANGSIFT_CONSUMER_COMPONENTS=encoding
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "langsift-poison: the langsift package looked for ICU")
    message(FATAL_ERROR "negative control: COMPONENTS encoding should have looked for (poisoned) ICU\n${out}\n${err}")
  endif()
  message(STATUS "ok: COMPONENTS encoding looks for ICU (negative control)")

  # pkg-config: langsift (static archives: --static), langsift-core (the core library) and
  # langsift-header-only (Cflags only, no library).
  file(GLOB_RECURSE pcfile ${prefix}/*langsift.pc)
  list(FILTER pcfile INCLUDE REGEX "/pkgconfig/langsift.pc$")
  get_filename_component(pcdir "${pcfile}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${pcdir})
  foreach(pc langsift langsift-core langsift-header-only)
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
  foreach(f IN LISTS flags_langsift-header-only)
    if(f MATCHES "^-l")
      message(FATAL_ERROR "langsift-header-only.pc links ${f}: it is header-only")
    endif()
  endforeach()
  if(NOT "-DLANGSIFT_HEADER_ONLY" IN_LIST flags_langsift-header-only OR NOT "-llangsift_core" IN_LIST flags_langsift-core)
    message(FATAL_ERROR "langsift-header-only.pc must define LANGSIFT_HEADER_ONLY, langsift-core.pc link -llangsift_core")
  endif()
  # The shared libraries (liblangsift_data.so.0) are outside the loader's path: a run path.
  get_filename_component(pc_libdir "${pcdir}" DIRECTORY)
  list(APPEND flags_langsift -Wl,-rpath,${pc_libdir})
  run(c++ ${src}/consumer.cpp -o ${work}/consumer-pc ${flags_langsift})
  run(${work}/consumer-pc)
  run(c++ ${src}/core/core_consumer.cpp -o ${work}/core-consumer-pc ${flags_langsift-core})
  run(${work}/core-consumer-pc ${model})
  run(c++ ${src}/core/core_consumer.cpp -o ${work}/header-only-consumer-pc ${flags_langsift-header-only})
  run(${work}/header-only-consumer-pc ${model})
  unset(ENV{PKG_CONFIG_PATH})
endfunction()
