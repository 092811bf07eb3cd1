# Packaging: included by the top-level CMakeLists.txt when LANGSIFT_INSTALL is on. What is installed
# where, the components and the tests: docs/packaging.md.
#
#  - pkg-config files: langsift-core.pc (the core library: no dependency), langsift-header-only.pc
#    (the core without a library: LANGSIFT_HEADER_ONLY and xxHash's headers) and langsift.pc
#    (every C++ component: + ICU, uchardet, zlib, zstd);
#  - man pages of the user tools, generated from their --help at build time with help2man;
#  - the developer tools' generators under -DLANGSIFT_INSTALL_DEV_TOOLS=ON (tools/CMakeLists.txt
#    installs the other developer tools);
#  - CPack: `cpack -G DEB` in the build directory makes langsift_<version>_<arch>.deb;
#  - the tests of the man pages and of the .deb (tests/downstream/man.cmake, deb.cmake).

# ---------------------------------------------------------------------------------------------
# pkg-config. The static archives need zlib, zstd, ICU and uchardet at link time (Requires); shared
# libraries only privately. langsift.pc requires langsift-core for the core library (which comes
# last on the link line). The top-level CMakeLists.txt configures langsift.pc.in first; it is
# configured again here with the requirement lines.
if(BUILD_SHARED_LIBS)
  set(LANGSIFT_PC_DEPS "Requires: langsift-core\nRequires.private: icu-uc uchardet zlib libzstd")
else()
  set(LANGSIFT_PC_DEPS "Requires: langsift-core icu-uc uchardet zlib libzstd")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/langsift.pc.in ${PROJECT_BINARY_DIR}/langsift.pc @ONLY)
# langsift-core: the core library (liblangsift_core); its headers need nothing else.
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/langsift-core.pc @ONLY CONTENT [=[
# Relocatable: the prefix is found relative to this file.
prefix=${pcfiledir}/@LANGSIFT_PC_RELATIVE_PREFIX@
libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: langsift-core
Description: @PROJECT_DESCRIPTION@: the core (detection with a model you load, HTML, URI, URL, frontier; no ICU)
Version: @PROJECT_VERSION@
Libs: -L${libdir} -llangsift_core
Libs.private: -lstdc++
Cflags: -I${includedir} -std=c++20
]=])
# langsift-header-only: the same core without a library (LANGSIFT_HEADER_ONLY: the headers include
# their implementations, which use xxHash inline: its Cflags are needed, its library is not, hence
# Requires.private, as pkg-config gives the Cflags of both).
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/langsift-header-only.pc @ONLY CONTENT [=[
# Relocatable: the prefix is found relative to this file.
prefix=${pcfiledir}/@LANGSIFT_PC_RELATIVE_PREFIX@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: langsift-header-only
Description: @PROJECT_DESCRIPTION@: the core, header-only (no library; xxHash's headers)
Version: @PROJECT_VERSION@
Requires.private: libxxhash
Cflags: -I${includedir} -std=c++20 -DLANGSIFT_HEADER_ONLY
]=])
install(FILES ${PROJECT_BINARY_DIR}/langsift-header-only.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_BINARY_DIR}/langsift-core.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---------------------------------------------------------------------------------------------
# Developer tools defined in the top-level CMakeLists.txt: the table generators.
if(LANGSIFT_INSTALL_DEV_TOOLS)
  get_property(_langsift_targets DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  list(FILTER _langsift_targets INCLUDE REGEX "^langsift-gen-")
  if(_langsift_targets)
    install(TARGETS ${_langsift_targets} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT devtools)
  endif()
endif()

# ---------------------------------------------------------------------------------------------
# Man pages from --help (Debian help2man), for the installed user tools: one page per tool and
# one per subcommand or mode (git-style names: langsift-warc(1) for `langsift warc`). The tools
# need no --version: help2man is given the project's version. A small wrapper runs the tool and
# capitalises its "usage:" and section lines ("options:") so that help2man makes SYNOPSIS and
# OPTIONS sections of them; the text itself is the tool's.
option(LANGSIFT_MAN_PAGES "Generate and install man pages of the user tools (help2man)" ON)
set(LANGSIFT_MAN_DIR ${PROJECT_BINARY_DIR}/man/man1)
set(LANGSIFT_MAN_PAGE_LIST "")  # page;tool;subcommand entries, for the man page test
if(LANGSIFT_MAN_PAGES AND TARGET langsift AND TARGET langsift-train AND TARGET langsift-eval)
  find_program(LANGSIFT_HELP2MAN help2man)
  if(NOT LANGSIFT_HELP2MAN)
    message(WARNING "help2man not found (Debian help2man, scripts/install-deps.sh): no man pages. "
      "-DLANGSIFT_MAN_PAGES=OFF silences this.")
  elseif(CMAKE_CROSSCOMPILING)
    message(STATUS "Cross-compiling: no man pages (the tools cannot run here)")
  else()
    set(LANGSIFT_MAN_PAGES_ENABLED ON)
  endif()
endif()

if(LANGSIFT_MAN_PAGES_ENABLED)
  # The pages: page|tool target|subcommand ("" for the tool itself)|summary (the NAME line).
  set(_langsift_man_pages
    "langsift|langsift||language and encoding identification for web pages, URLs and WARC files"
    "langsift-detect|langsift|detect|identify the languages of documents (the whole pipeline)"
    "langsift-encoding|langsift|encoding|detect the character encoding of files"
    "langsift-text|langsift|text|extract UTF-8 text (and optionally main content) from a page"
    "langsift-url|langsift|url|the language of a page from its URL alone (before fetching)"
    "langsift-warc|langsift|warc|languages and encodings of the pages in WARC files"
    "langsift-train|langsift-train||train a langsift language model from text files"
    "langsift-train-url|langsift-train|url|train langsift's supervised URL model from labelled URLs"
    "langsift-eval|langsift-eval||evaluate langsift's language, URL and encoding identification"
    "langsift-eval-lang|langsift-eval|lang|accuracy of language identification on <code>.txt sample files"
    "langsift-eval-docs|langsift-eval|docs|per-language precision on documents of N bytes"
    "langsift-eval-mixed|langsift-eval|mixed|reported percents of two-language documents against true byte shares"
    "langsift-eval-junk|langsift-eval|junk|how much text that is not language is answered und or unreliable"
    "langsift-eval-calibrate|langsift-eval|calibrate|fit a model's confidence calibration on held-out lines"
    "langsift-eval-url|langsift-eval|url|URL-only language classification: precision, recall, F1, k-fold CV"
    "langsift-eval-encoding|langsift-eval|encoding|score encoding detection on <lang>/<charset>.txt files"
    "langsift-eval-main-content|langsift-eval|main-content|score HTML main-content extraction against gold texts")

  # SEE ALSO of a page: the other pages of its tool (the tool's own page first, then its
  # subcommands'), then the other tools' pages; and where the README is installed (the docs/ of the
  # source tree are not installed).
  function(langsift_man_see_also page tool out_file)
    set(refs "")
    foreach(entry IN LISTS _langsift_man_pages)  # the same tool
      string(REPLACE "|" ";" f "${entry}")
      list(GET f 0 p)
      list(GET f 1 t)
      if(t STREQUAL tool AND NOT p STREQUAL page)
        list(APPEND refs ${p})
      endif()
    endforeach()
    foreach(entry IN LISTS _langsift_man_pages)  # the other tools
      string(REPLACE "|" ";" f "${entry}")
      list(GET f 0 p)
      list(GET f 1 t)
      list(GET f 2 sub)
      if(NOT t STREQUAL tool AND sub STREQUAL "")
        list(APPEND refs ${p})
      endif()
    endforeach()
    set(text "[SEE ALSO]\n")
    list(LENGTH refs n)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      list(GET refs ${i} p)
      if(i EQUAL last)
        string(APPEND text ".BR ${p} (1).\n")
      else()
        string(APPEND text ".BR ${p} (1),\n")
      endif()
    endforeach()
    string(APPEND text ".PP\nThe README, README.md in langsift's documentation directory "
      "(${CMAKE_INSTALL_DOCDIR} under the installation prefix: /usr/${CMAKE_INSTALL_DOCDIR} from the Debian package).\n")
    file(WRITE ${out_file} "${text}")
  endfunction()

  set(_langsift_man_outputs "")
  # langsift_man_page(PAGE TOOL_TARGET SUBCOMMAND NAME_LINE): SUBCOMMAND "" for the tool itself.
  function(langsift_man_page page tool sub name)
    set(wrapper ${PROJECT_BINARY_DIR}/man/bin/${page})
    file(GENERATE OUTPUT ${wrapper} CONTENT "#!/bin/sh
# Generated by cmake/packaging.cmake: `${tool} ${sub}` for help2man.
out=$(\"$<TARGET_FILE:${tool}>\" ${sub} \"$@\" 2>&1); rc=$?
printf '%s\\n' \"$out\" | sed -e 's/^usage: /Usage: /' -e 's/^\\([a-z][a-z0-9 (),-]\\{0,40\\}\\):$/\\u\\1:/'
exit $rc
" FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(see_also ${PROJECT_BINARY_DIR}/man/see-also/${page}.h2m)
    langsift_man_see_also(${page} ${tool} ${see_also})
    set(out ${LANGSIFT_MAN_DIR}/${page}.1)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${LANGSIFT_MAN_DIR}
      COMMAND ${LANGSIFT_HELP2MAN} --no-info --no-discard-stderr --section=1
        --version-string=${PROJECT_VERSION} --source=langsift --manual=langsift
        --name=${name} --include=${see_also} --output=${out} ${wrapper}
      DEPENDS ${tool} ${see_also}
      COMMENT "Man page ${page}(1) from `${tool} ${sub} --help`" VERBATIM)
    set(_langsift_man_outputs ${_langsift_man_outputs} ${out} PARENT_SCOPE)
    set(LANGSIFT_MAN_PAGE_LIST ${LANGSIFT_MAN_PAGE_LIST} "${page}|${tool}|${sub}" PARENT_SCOPE)
  endfunction()

  foreach(entry IN LISTS _langsift_man_pages)
    string(REPLACE "|" ";" f "${entry}")
    list(GET f 0 page)
    list(GET f 1 tool)
    list(GET f 2 sub)
    list(GET f 3 name)
    langsift_man_page(${page} ${tool} "${sub}" "${name}")
  endforeach()
  add_custom_target(langsift-man ALL DEPENDS ${_langsift_man_outputs})
  install(FILES ${_langsift_man_outputs} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT man)
endif()

# ---------------------------------------------------------------------------------------------
# CPack: one Debian package with everything installed (tools, man pages, headers, static
# libraries, liblangsift_c.so, the JNI library and jar, CMake and pkg-config files). Runtime
# dependencies come from dpkg-shlibdeps (Debian dpkg-dev). Building against the package needs ICU's
# and uchardet's development files for langsift::encoding, zlib's and zstd's for langsift::warc (static
# archives) and xxHash's headers for header-only use (langsift::header_only): Recommends.
set(CPACK_PACKAGE_NAME langsift)
set(CPACK_PACKAGE_VENDOR langsift)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "Language and encoding identification for web crawlers and corpus builders:\n"
  "from the bytes of an HTTP response to which languages, how much of each, and from a URL\n"
  "alone, before fetching. Command-line tools (langsift, langsift-train, langsift-eval), the\n"
  "C++20 library (headers, static libraries, CMake and pkg-config files), the C ABI\n"
  "(liblangsift_c.so) and the Java bridge (langsift.jar, JNI library).")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
if(NOT DEFINED CPACK_PACKAGE_CONTACT)  # a distributor sets it, or CPACK_DEBIAN_PACKAGE_MAINTAINER
  set(CPACK_PACKAGE_CONTACT "langsift developers")
endif()
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# liblangsift_jni.so needs liblangsift_c.so.0 of this same package: dpkg-shlibdeps finds it here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libicu-dev, libuchardet-dev, zlib1g-dev, libzstd-dev, libxxhash-dev, pkg-config")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "default-jre-headless | java11-runtime-headless")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_SOURCE_GENERATOR TGZ)  # `make package_source`: the source tree less git and build trees
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/" "/__pycache__/")
include(CPack)

# ---------------------------------------------------------------------------------------------
# Tests (the plain build only: under sanitizers the tools and a consumer would need the runtimes).
if(LANGSIFT_BUILD_TESTS AND NOT LANGSIFT_SANITIZE)
  if(LANGSIFT_MAN_PAGES_ENABLED)
    string(REPLACE ";" "," _langsift_pages "${LANGSIFT_MAN_PAGE_LIST}")
    add_test(NAME "package: man pages from --help (every option of each user tool and subcommand)"
      COMMAND ${CMAKE_COMMAND} -DMAN_DIR=${LANGSIFT_MAN_DIR} -DPAGES=${_langsift_pages}
        -DBIN_DIR=${PROJECT_BINARY_DIR}/man/bin -P ${PROJECT_SOURCE_DIR}/tests/downstream/man.cmake)
    set_tests_properties("package: man pages from --help (every option of each user tool and subcommand)"
      PROPERTIES TIMEOUT 120)
  endif()
  find_program(LANGSIFT_DPKG_DEB dpkg-deb)
  if(LANGSIFT_DPKG_DEB)
    set(_langsift_java_args "")
    if(TARGET langsift-java-test)
      get_target_property(_langsift_test_jar langsift-java-test JAR_FILE)
      set(_langsift_java_args -DJAVA=${Java_JAVA_EXECUTABLE} -DJAVA_TEST_JAR=${_langsift_test_jar})
    endif()
    add_test(NAME "package: cpack -G DEB builds a .deb that installs; consumers build against its files"
      COMMAND ${CMAKE_COMMAND} -DLANGSIFT_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DLANGSIFT_BINARY_DIR=${PROJECT_BINARY_DIR}
        -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/deb-work -DGENERATOR=${CMAKE_GENERATOR}
        -DCPACK=${CMAKE_CPACK_COMMAND} -DMAN_PAGES=${LANGSIFT_MAN_PAGES_ENABLED} ${_langsift_java_args}
        -P ${PROJECT_SOURCE_DIR}/tests/downstream/deb.cmake)
    set_tests_properties("package: cpack -G DEB builds a .deb that installs; consumers build against its files"
      PROPERTIES TIMEOUT 600)
  else()
    message(STATUS "dpkg-deb not found: the .deb package test is skipped")
  endif()
endif()
