# The Debian package (docs/packaging.md): `cpack -G DEB` from the already built tree, then
#  1. its control fields: Package, Version, Depends (dpkg-shlibdeps: ICU, uchardet, zlib, libzstd
#     (zstd WARC input, the tools' compressed input
#     and output), libstdc++),
#     Recommends (the development files, libxxhash-dev for header-only use), and that it would
#     install on this system
#     (`apt-get -s install`: dependencies resolved, nothing written);
#  2. unpacked with `dpkg -x` into a scratch root (no root needed): what is installed where;
#  3. consumers built against that root and run (find_package: every component and core alone;
#     pkg-config), its tools run, its jar and JNI library loaded by the Java test, its man pages read.
# Invoked by ctest with -DLANGSIFT_SOURCE_DIR, -DLANGSIFT_BINARY_DIR, -DWORK_DIR, -DGENERATOR,
# -DCPACK, -DMAN_PAGES and, when the Java bridge is built, -DJAVA -DJAVA_TEST_JAR.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT DPKG_SHLIBDEPS)
  message(FATAL_ERROR "dpkg-shlibdeps not found (Debian dpkg-dev, scripts/install-deps.sh): the package "
    "would have no runtime dependencies")
endif()

run(${CPACK} -G DEB --config ${LANGSIFT_BINARY_DIR}/CPackConfig.cmake -B ${WORK_DIR}/cpack)
file(GLOB deb ${WORK_DIR}/cpack/*.deb)
list(LENGTH deb n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${WORK_DIR}/cpack, found: ${deb}")
endif()
file(SIZE ${deb} size)
message(STATUS "ok: ${deb} (${size} bytes)")

# 1. Control fields.
execute_process(COMMAND dpkg-deb --field ${deb} Package Version Architecture Depends Recommends
  OUTPUT_VARIABLE control RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg-deb --field ${deb} failed")
endif()
message(STATUS "control:\n${control}")
foreach(re "Package: langsift\n" "Version: [0-9]+\\.[0-9]+\\.[0-9]+" "Depends:[^\n]*libicu[0-9]+"
    "Depends:[^\n]*libuchardet0" "Depends:[^\n]*zlib1g" "Depends:[^\n]*libzstd1" "Depends:[^\n]*libstdc\\+\\+6" "Depends:[^\n]*libc6"
    "Recommends:[^\n]*libxxhash-dev" "Recommends:[^\n]*libicu-dev" "Recommends:[^\n]*libzstd-dev")
  if(NOT control MATCHES "${re}")
    message(FATAL_ERROR "control fields do not match '${re}':\n${control}")
  endif()
endforeach()
# Would it install here? apt's simulation resolves its dependencies against this system (and the
# archive's lists, if any) and changes nothing. (`dpkg --dry-run -i` does not check dependencies.)
find_program(APT_GET apt-get)
if(APT_GET)
  execute_process(COMMAND ${APT_GET} -s -q install --no-install-recommends ${deb}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nInst langsift " OR NOT out MATCHES "\nConf langsift ")
    message(FATAL_ERROR "apt-get -s install ${deb} (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "ok: apt-get -s install resolves the package's dependencies")
else()
  message(STATUS "apt-get not found: the installability check is skipped")
endif()

# 2. Unpacked into a scratch root.
set(root ${WORK_DIR}/root)
run(dpkg-deb -x ${deb} ${root})
set(prefix ${root}/usr)
langsift_check_layout(${prefix})
set(libdir ${LANGSIFT_LIBDIR})

# 3. Consumers against the package's files.
langsift_check_consumers(${prefix} ${WORK_DIR})

# The C ABI from C, against the package's liblangsift_c.so.
file(WRITE ${WORK_DIR}/c_consumer.c [=[
#include <langsift.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  langsift_detector* d = NULL;
  if (langsift_detector_new(NULL, &d, NULL, 0) != LANGSIFT_OK) return 1;
  const char* text = "Der Stadtrat hat am Dienstag einen neuen Haushalt beschlossen.";
  langsift_result r;
  if (langsift_detect_text(d, text, strlen(text), &r) != LANGSIFT_OK) return 1;
  langsift_detector_free(d);
  printf("c_consumer: %s\n", r.language);
  return strcmp(r.language, "de") != 0;
}
]=])
run(cc ${WORK_DIR}/c_consumer.c -I${prefix}/include -L${libdir} -llangsift_c -o ${WORK_DIR}/c_consumer)
set(ENV{LD_LIBRARY_PATH} ${libdir})
run(${WORK_DIR}/c_consumer)

# The package's tools.
if(EXISTS ${prefix}/bin/langsift)
  execute_process(COMMAND ${prefix}/bin/langsift detect --format code
      ${LANGSIFT_SOURCE_DIR}/examples/pages/de-news.windows-1252.html
    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "de")
    message(FATAL_ERROR "the packaged langsift detect: ${rc}\n${out}\n${err}")
  endif()
  run(${prefix}/bin/langsift-train --help)
  run(${prefix}/bin/langsift-eval --help)
  message(STATUS "ok: the packaged tools run")
endif()

# The package's jar and JNI library (found through the JNI library's own dependency on
# liblangsift_c.so.0 in libdir), with langsift's Java test.
if(JAVA AND JAVA_TEST_JAR)
  run(${JAVA} -Xcheck:jni -Dlangsift.library=${libdir}/jni/liblangsift_jni.so
    -cp ${prefix}/share/java/langsift.jar:${JAVA_TEST_JAR} org.langsift.LangSiftTest ${LANGSIFT_SOURCE_DIR}/models/default.lsm)
endif()
unset(ENV{LD_LIBRARY_PATH})

# The package's man pages: the warc page lists --max-record-bytes.
if(MAN_PAGES)
  file(READ ${prefix}/share/man/man1/langsift-warc.1 page)
  if(NOT page MATCHES "max\\\\-record\\\\-bytes" OR NOT page MATCHES "\\.SH OPTIONS")
    message(FATAL_ERROR "langsift-warc.1 in the package has no OPTIONS section with --max-record-bytes")
  endif()
  message(STATUS "ok: the packaged man pages")
endif()
