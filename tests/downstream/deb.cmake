# The Debian packages (docs/packaging.md): `cpack` from the already built tree, then
#  1. the four packages Debian's split asks for (liblangsift0, liblangsift-dev, langsift,
#     liblangsift-java), their control fields (Depends between them and on the system's packages,
#     from dpkg-shlibdeps and cmake/packaging.cmake), and that together they would install on this
#     system (`apt-get -s install`: dependencies resolved, nothing written);
#  2. unpacked with `dpkg -x` into one scratch root (no root needed): which package holds what, no
#     file in two packages, and the sizes (everything <= 110 MB; each program and library other
#     than liblangsift_data.so.0, the models, <= 5 MB);
#  3. consumers built against that root and run (find_package: every component and core alone;
#     pkg-config; a C program over the C ABI), its tools run with no LD_LIBRARY_PATH (their
#     $ORIGIN run path finds liblangsift_data.so.0), its jar and JNI library loaded by the Java test,
#     its compressed man pages read.
# lintian runs on the same packages in its own test (tests/downstream/lintian.cmake).
# Invoked by ctest with -DLANGSIFT_SOURCE_DIR, -DLANGSIFT_BINARY_DIR, -DWORK_DIR, -DGENERATOR,
# -DCPACK, -DMAN_PAGES and, when the Java bridge is built, -DJAVA -DJAVA_TEST_JAR.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT DPKG_SHLIBDEPS)
  message(FATAL_ERROR "dpkg-shlibdeps not found (Debian dpkg-dev, scripts/install-deps.sh): the packages "
    "would have no runtime dependencies")
endif()

run(${CPACK} -G DEB --config ${LANGSIFT_BINARY_DIR}/CPackConfig.cmake -B ${WORK_DIR}/cpack)
set(packages liblangsift0 liblangsift-dev langsift)
if(JAVA)
  list(APPEND packages liblangsift-java)
endif()
file(GLOB debs ${WORK_DIR}/cpack/*.deb)
list(LENGTH debs n)
list(LENGTH packages n_expected)
if(NOT n EQUAL n_expected)
  message(FATAL_ERROR "expected ${n_expected} .deb files (${packages}) in ${WORK_DIR}/cpack, found: ${debs}")
endif()

# 1. Control fields.
set(re_liblangsift0 "Section: libs\n" "Depends:[^\n]*libicu[0-9]+" "Depends:[^\n]*libuchardet0"
  "Depends:[^\n]*libstdc\\+\\+6" "Depends:[^\n]*libc6")
set(re_liblangsift-dev "Section: libdevel\n" "Depends: liblangsift0 \\(= [0-9.]+\\)" "Depends:[^\n]*libicu-dev"
  "Depends:[^\n]*libuchardet-dev" "Depends:[^\n]*zlib1g-dev" "Depends:[^\n]*libdeflate-dev" "Depends:[^\n]*libzstd-dev"
  "Depends:[^\n]*libxxhash-dev" "Depends:[^\n]*pkg-config")
set(re_langsift "Section: text\n" "Depends: liblangsift0 \\(= [0-9.]+\\)" "Depends:[^\n]*libicu[0-9]+"
  "Depends:[^\n]*libzstd1" "Depends:[^\n]*zlib1g" "Depends:[^\n]*libdeflate0" "Depends:[^\n]*libstdc\\+\\+6")
set(re_liblangsift-java "Section: java\n" "Depends: liblangsift0 \\(= [0-9.]+\\)")
set(deb_files "")
foreach(p IN LISTS packages)
  file(GLOB deb ${WORK_DIR}/cpack/${p}_*.deb)
  if(NOT deb)
    message(FATAL_ERROR "no package ${p} among: ${debs}")
  endif()
  set(deb_${p} ${deb})
  list(APPEND deb_files ${deb})
  execute_process(COMMAND dpkg-deb --field ${deb} Package Version Architecture Section Depends
    OUTPUT_VARIABLE control RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --field ${deb} failed")
  endif()
  message(STATUS "${p}:\n${control}")
  foreach(re "Package: ${p}\n" "Version: [0-9]+\\.[0-9]+\\.[0-9]+\n" ${re_${p}})
    if(NOT control MATCHES "${re}")
      message(FATAL_ERROR "${p}: the control fields do not match '${re}':\n${control}")
    endif()
  endforeach()
endforeach()
# The runtime package needs no development package, nor the tools.
execute_process(COMMAND dpkg-deb --field ${deb_liblangsift0} Depends OUTPUT_VARIABLE depends)
if(depends MATCHES "-dev|langsift")
  message(FATAL_ERROR "liblangsift0 depends on a development package or on langsift's own: ${depends}")
endif()
# Would they install here? apt's simulation resolves their dependencies against this system (and
# the archive's lists, if any) and changes nothing. (`dpkg --dry-run -i` does not check them.)
find_program(APT_GET apt-get)
if(APT_GET)
  execute_process(COMMAND ${APT_GET} -s -q install --no-install-recommends ${deb_files}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "apt-get -s install ${deb_files} (${rc}):\n${out}\n${err}")
  endif()
  foreach(p IN LISTS packages)
    if(NOT out MATCHES "\nInst ${p} " OR NOT out MATCHES "\nConf ${p} ")
      message(FATAL_ERROR "apt-get -s install does not install ${p}:\n${out}\n${err}")
    endif()
  endforeach()
  message(STATUS "ok: apt-get -s install resolves the packages' dependencies")
else()
  message(STATUS "apt-get not found: the installability check is skipped")
endif()

# 2. Unpacked into one scratch root: who holds what, and the sizes.
set(root ${WORK_DIR}/root)
set(all_files "")
foreach(p IN LISTS packages)
  run(dpkg-deb -x ${deb_${p}} ${root})
  execute_process(COMMAND dpkg-deb --fsys-tarfile ${deb_${p}} COMMAND tar -t
    OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  string(REGEX REPLACE "\n$" "" listing "${listing}")
  string(REPLACE "\n" ";" listing "${listing}")
  list(FILTER listing EXCLUDE REGEX "/$")  # directories
  set(files_${p} ${listing})
  foreach(f IN LISTS listing)
    if(f IN_LIST all_files)
      message(FATAL_ERROR "${f} is in two packages (the second: ${p})")
    endif()
  endforeach()
  list(APPEND all_files ${listing})
endforeach()
set(prefix ${root}/usr)
langsift_check_layout(${prefix})
set(libdir ${LANGSIFT_LIBDIR})
file(RELATIVE_PATH rel_libdir ${root} ${libdir})
# Which package holds what (a sample of each; the layout check above saw them all in the root).
set(in_liblangsift0 ./${rel_libdir}/liblangsift_c.so.0 ./${rel_libdir}/liblangsift_data.so.0
  ./usr/share/doc/liblangsift0/copyright)
set(in_liblangsift-dev ./${rel_libdir}/liblangsift_c.so ./${rel_libdir}/liblangsift_data.so
  ./${rel_libdir}/liblangsift_core.a ./${rel_libdir}/liblangsift_models.a ./${rel_libdir}/pkgconfig/langsift.pc
  ./${rel_libdir}/cmake/langsift/langsiftConfig.cmake ./usr/include/langsift.hpp ./usr/include/langsift.h
  ./usr/share/doc/liblangsift-dev/copyright)
set(in_langsift ./usr/bin/langsift ./usr/bin/langsift-train ./usr/bin/langsift-eval ./usr/share/doc/langsift/README.md
  ./usr/share/doc/langsift/copyright)
if(MAN_PAGES)
  list(APPEND in_langsift ./usr/share/man/man1/langsift.1.gz ./usr/share/man/man1/langsift-warc.1.gz)
endif()
set(in_liblangsift-java ./usr/share/java/langsift.jar ./${rel_libdir}/jni/liblangsift_jni.so
  ./usr/share/doc/liblangsift-java/copyright)
foreach(p IN LISTS packages)
  foreach(f IN LISTS in_${p})
    if(NOT f IN_LIST files_${p})
      message(FATAL_ERROR "${f} is not in ${p}: ${files_${p}}")
    endif()
  endforeach()
endforeach()
message(STATUS "ok: what each package holds; no file in two")

# Sizes: the files installed (symbolic links as links), and each program and library.
set(total 0)
set(report "")
file(GLOB_RECURSE installed LIST_DIRECTORIES false ${root}/*)
foreach(f IN LISTS installed)
  if(IS_SYMLINK ${f})
    continue()
  endif()
  file(SIZE ${f} size)
  math(EXPR total "${total} + ${size}")
  if(f MATCHES "/bin/[^/]+$|\\.so(\\.[0-9.]+)?$|\\.a$")
    file(RELATIVE_PATH rel ${root} ${f})
    string(APPEND report "  ${size}  ${rel}\n")
    if(NOT f MATCHES "/liblangsift_data\\.so\\.[0-9.]+$" AND size GREATER 5242880)
      message(FATAL_ERROR "${rel} is ${size} bytes: more than 5 MB (only liblangsift_data.so.0, the models, may be)")
    endif()
  endif()
endforeach()
message(STATUS "installed: ${total} bytes in all; programs and libraries:\n${report}")
if(total GREATER 115343360)
  message(FATAL_ERROR "the packages install ${total} bytes: more than 110 MB")
endif()
# What apt announces (the packages' Installed-Size fields, KiB) is what they install: at least the
# files' bytes, at most 2 % and 1 KiB per entry more. (CPack alone counted the symbolic link
# liblangsift_data.so.0 as a second copy of the models: 161,639 KiB announced for 85,600 KiB.)
file(GLOB_RECURSE entries LIST_DIRECTORIES true ${root}/*)
list(LENGTH entries n_entries)
set(announced 0)
foreach(deb IN LISTS deb_files)
  execute_process(COMMAND dpkg-deb --field ${deb} Installed-Size OUTPUT_VARIABLE kib OUTPUT_STRIP_TRAILING_WHITESPACE)
  math(EXPR announced "${announced} + ${kib}")
endforeach()
math(EXPR total_kib "${total} / 1024")
math(EXPR most_kib "${total_kib} + ${total_kib} / 50 + ${n_entries}")
message(STATUS "Installed-Size: ${announced} KiB in all for ${total_kib} KiB of files (${n_entries} entries)")
if(announced LESS total_kib OR announced GREATER most_kib)
  message(FATAL_ERROR "the packages announce ${announced} KiB (Installed-Size) for ${total_kib} KiB of files")
endif()
file(SIZE ${LANGSIFT_SOURCE_DIR}/models/default.lsm default_size)
file(SIZE ${LANGSIFT_SOURCE_DIR}/models/wide.lsm wide_size)
file(GLOB data_lib ${libdir}/liblangsift_data.so.*.*.*)
file(SIZE ${data_lib} data_size)
math(EXPR models_size "${default_size} + ${wide_size}")
if(data_size LESS models_size)
  message(FATAL_ERROR "${data_lib} (${data_size} bytes) does not hold the models (${default_size} + ${wide_size} bytes)")
endif()
message(STATUS "ok: sizes")

# 3. Consumers against the packages' files.
langsift_check_consumers(${prefix} ${WORK_DIR})

# The C ABI from C, against the package's liblangsift_c.so (the shared libraries are not in the
# loader's path: LD_LIBRARY_PATH, as for any library outside it).
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
unset(ENV{LD_LIBRARY_PATH})

# The package's tools, with no LD_LIBRARY_PATH: they find liblangsift_data.so.0 through their run
# path ($ORIGIN/../lib/...), wherever the root is.
if(EXISTS ${prefix}/bin/langsift)
  execute_process(COMMAND ${prefix}/bin/langsift detect --format code
      ${LANGSIFT_SOURCE_DIR}/examples/pages/de-news.windows-1252.html
    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "de")
    message(FATAL_ERROR "the packaged langsift detect: ${rc}\n${out}\n${err}")
  endif()
  execute_process(COMMAND ${prefix}/bin/langsift detect --model wide --format code
      ${LANGSIFT_SOURCE_DIR}/examples/pages/ru-blog.windows-1251.html
    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "ru")
    message(FATAL_ERROR "the packaged langsift detect --model wide: ${rc}\n${out}\n${err}")
  endif()
  run(${prefix}/bin/langsift-train --help)
  run(${prefix}/bin/langsift-eval --help)
  message(STATUS "ok: the packaged tools run")
endif()

# The package's jar and JNI library (which finds liblangsift_c.so.0, and that liblangsift_data.so.0,
# through their run paths), with langsift's Java test.
if(JAVA AND JAVA_TEST_JAR)
  run(${JAVA} -Xcheck:jni -Dlangsift.library=${libdir}/jni/liblangsift_jni.so
    -cp ${prefix}/share/java/langsift.jar:${JAVA_TEST_JAR} org.langsift.LangSiftTest ${LANGSIFT_SOURCE_DIR}/models/default.lsm)
endif()

# The package's man pages (compressed): the warc page lists --max-record-bytes.
if(MAN_PAGES)
  execute_process(COMMAND gzip -dc ${prefix}/share/man/man1/langsift-warc.1.gz OUTPUT_VARIABLE page RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT page MATCHES "max\\\\-record\\\\-bytes" OR NOT page MATCHES "\\.SH OPTIONS")
    message(FATAL_ERROR "langsift-warc.1.gz in the package has no OPTIONS section with --max-record-bytes")
  endif()
  message(STATUS "ok: the packaged man pages")
endif()
