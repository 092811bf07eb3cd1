# Packaging: included by the top-level CMakeLists.txt when LANGSIFT_INSTALL is on. What is installed
# where, the components and the tests: docs/packaging.md.
#
#  - pkg-config files: langsift-core.pc (the core library: no dependency), langsift-header-only.pc
#    (the core without a library: LANGSIFT_HEADER_ONLY and xxHash's headers) and langsift.pc
#    (every C++ component: + ICU, uchardet, zlib, libdeflate, zstd);
#  - man pages of the user tools, generated from their --help at build time with help2man;
#  - the developer tools' generators under -DLANGSIFT_INSTALL_DEV_TOOLS=ON (tools/CMakeLists.txt
#    installs the other developer tools);
#  - CPack: `cpack -G DEB` in the build directory makes langsift_<version>_<arch>.deb;
#  - the tests of the man pages and of the .deb (tests/downstream/man.cmake, deb.cmake).

# ---------------------------------------------------------------------------------------------
# pkg-config. The static archives need zlib, libdeflate, zstd, ICU and uchardet at link time (Requires); shared
# libraries only privately. langsift.pc requires langsift-core for the core library (which comes
# last on the link line). The top-level CMakeLists.txt configures langsift.pc.in first; it is
# configured again here with the requirement lines.
if(BUILD_SHARED_LIBS)
  set(LANGSIFT_PC_DEPS "Requires: langsift-core\nRequires.private: icu-uc uchardet zlib libdeflate libzstd")
else()
  set(LANGSIFT_PC_DEPS "Requires: langsift-core icu-uc uchardet zlib libdeflate libzstd")
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
install(FILES ${PROJECT_BINARY_DIR}/langsift-header-only.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/langsift-core.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

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
  find_program(LANGSIFT_GZIP gzip)
  if(NOT LANGSIFT_GZIP)
    message(WARNING "gzip not found: no man pages (they are installed compressed). -DLANGSIFT_MAN_PAGES=OFF silences this.")
  elseif(NOT LANGSIFT_HELP2MAN)
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

  set(_langsift_man_outputs "")    # the pages (read by the man page test)
  set(_langsift_man_installed "")  # the same, compressed (installed)
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
    add_custom_command(OUTPUT ${out} ${out}.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${LANGSIFT_MAN_DIR}
      COMMAND ${LANGSIFT_HELP2MAN} --no-info --no-discard-stderr --section=1
        --version-string=${PROJECT_VERSION} --source=langsift --manual=langsift
        --name=${name} --include=${see_also} --output=${out} ${wrapper}
      COMMAND ${LANGSIFT_GZIP} -9nfk ${out}
      DEPENDS ${tool} ${see_also}
      COMMENT "Man page ${page}(1) from `${tool} ${sub} --help`" VERBATIM)
    set(_langsift_man_outputs ${_langsift_man_outputs} ${out} PARENT_SCOPE)
    set(_langsift_man_installed ${_langsift_man_installed} ${out}.gz PARENT_SCOPE)
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
  add_custom_target(langsift-man ALL DEPENDS ${_langsift_man_outputs} ${_langsift_man_installed})
  # Installed compressed (gzip -9n), as Debian requires of man pages; `man` reads them so anywhere.
  install(FILES ${_langsift_man_installed} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT man)
endif()

# ---------------------------------------------------------------------------------------------
# CPack: the Debian packages, split as Debian splits a library (docs/packaging.md), one per group
# of install components:
#   liblangsift0       runtime   liblangsift_c.so.0 (the C ABI) and liblangsift_data.so.0 (the
#                                built-in models, on disk once, shared by every process using them)
#   liblangsift-dev    dev       headers, static libraries, the .so links, CMake and pkg-config files
#   langsift           tools, man, doc   the user tools, their man pages, README and licences
#   liblangsift-java   java      langsift.jar and the JNI library
# plus, in each, /usr/share/doc/<package>/copyright and changelog.gz (components deb-<package>,
# EXCLUDE_FROM_ALL: only CPack installs them, never a plain `cmake --install`). Runtime
# dependencies on other packages come from dpkg-shlibdeps (Debian dpkg-dev); those between these
# packages are written here. `(cd build && cpack)` makes the four .deb files.
set(CPACK_PACKAGE_NAME langsift)
set(CPACK_PACKAGE_VENDOR langsift)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description starts with its own synopsis line (CPACK_DEBIAN_<group>_DESCRIPTION
# below); CPackDeb would put any other summary than its default in front of it.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
# The maintainer: the distributor's (-DCPACK_PACKAGE_CONTACT="Name <address>"), else Debian's
# DEBFULLNAME and DEBEMAIL from the environment (as dch takes them), else a placeholder in the
# reserved .invalid domain (RFC 2606): this source tree has no mail address of its own.
if(NOT DEFINED CPACK_PACKAGE_CONTACT)
  if(DEFINED ENV{DEBFULLNAME} AND DEFINED ENV{DEBEMAIL})
    set(CPACK_PACKAGE_CONTACT "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
  else()
    set(CPACK_PACKAGE_CONTACT "langsift developers <maintainer@langsift.invalid>")
  endif()
endif()
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
# Installed-Size counted as Debian counts it (CPack counts a symbolic link as a copy of its target).
set(CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/deb-installed-size.cmake)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools and the JNI library need liblangsift_data.so.0 and liblangsift_c.so.0 of liblangsift0:
# dpkg-shlibdeps finds them here (and leaves them to the Depends written below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(_langsift_summary "language and encoding identification for web pages")
set(_langsift_about "langsift identifies the languages of web pages (which ones, how much of\n"
  "each) from the bytes of an HTTP response: encoding detection and conversion,\n"
  "HTML text and main-content extraction, language identification with two\n"
  "built-in models (default: 102 languages, wide: 231), the language a URL is\n"
  "likely to lead to before it is fetched, and WARC files.\n")
string(REPLACE ";" "" _langsift_about "${_langsift_about}")
set(_langsift_version_dep "(= ${PROJECT_VERSION})")

# liblangsift0: the shared libraries.
set(CPACK_COMPONENT_RUNTIME_GROUP grp_lib)
set(CPACK_COMPONENT_DEB-LIBLANGSIFT0_GROUP grp_lib)
set(CPACK_DEBIAN_GRP_LIB_PACKAGE_NAME liblangsift0)
set(CPACK_DEBIAN_GRP_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_GRP_LIB_DESCRIPTION "${_langsift_summary} - runtime\n${_langsift_about}\n"
  "This package holds the shared libraries: liblangsift_c.so.0, langsift's C\n"
  "ABI (for C, FFI users and the Java bridge), and liblangsift_data.so.0, the\n"
  "built-in language and URL models (about 75 MB), mapped read-only and shared\n"
  "by every process that uses them.")
# liblangsift-dev: building against langsift. The installed headers include xxHash's (xxhash.h)
# in header-only use (LANGSIFT_HEADER_ONLY, langsift::header_only, which find_package(langsift)
# without components also asks for); the static archives need ICU, uchardet, zlib, libdeflate and
# zstd at link time, langsift.pc names their .pc files, and the CMake package finds uchardet,
# libdeflate and zstd through pkg-config. Hence Depends, not Recommends.
set(CPACK_COMPONENT_DEV_GROUP grp_dev)
set(CPACK_COMPONENT_DEB-LIBLANGSIFT-DEV_GROUP grp_dev)
set(CPACK_DEBIAN_GRP_DEV_PACKAGE_NAME liblangsift-dev)
set(CPACK_DEBIAN_GRP_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_GRP_DEV_PACKAGE_DEPENDS "liblangsift0 ${_langsift_version_dep}, libicu-dev, libuchardet-dev, zlib1g-dev, libdeflate-dev, libzstd-dev, libxxhash-dev, pkg-config")
set(CPACK_DEBIAN_GRP_DEV_PACKAGE_SHLIBDEPS OFF)  # static archives and text: nothing to scan
set(CPACK_DEBIAN_GRP_DEV_DESCRIPTION "${_langsift_summary} - development files\n${_langsift_about}\n"
  "This package holds what building against langsift needs: the C++20 headers\n"
  "and the C ABI's (langsift.h), the static libraries (core, encoding, WARC\n"
  "reader, pages and WARC reports, the models' loader), the links to the shared\n"
  "libraries, the CMake package (find_package(langsift)) and the pkg-config\n"
  "files (langsift, langsift-core, langsift-header-only).")
# langsift: the tools.
set(CPACK_COMPONENT_TOOLS_GROUP grp_tools)
set(CPACK_COMPONENT_MAN_GROUP grp_tools)
set(CPACK_COMPONENT_DOC_GROUP grp_tools)
set(CPACK_COMPONENT_DEB-LANGSIFT_GROUP grp_tools)
set(CPACK_DEBIAN_GRP_TOOLS_PACKAGE_NAME langsift)
set(CPACK_DEBIAN_GRP_TOOLS_PACKAGE_SECTION text)
set(CPACK_DEBIAN_GRP_TOOLS_PACKAGE_DEPENDS "liblangsift0 ${_langsift_version_dep}")
set(CPACK_DEBIAN_GRP_TOOLS_DESCRIPTION "${_langsift_summary} - command-line tools\n${_langsift_about}\n"
  "This package holds the command-line tools and their man pages: langsift\n"
  "(detect, encoding, text, url and warc), langsift-train (language and URL\n"
  "models) and langsift-eval (accuracy of a model, and its calibration).")
# liblangsift-java: the Java bridge.
set(CPACK_COMPONENT_JAVA_GROUP grp_java)
set(CPACK_COMPONENT_DEB-LIBLANGSIFT-JAVA_GROUP grp_java)
set(CPACK_DEBIAN_GRP_JAVA_PACKAGE_NAME liblangsift-java)
set(CPACK_DEBIAN_GRP_JAVA_PACKAGE_SECTION java)
set(CPACK_DEBIAN_GRP_JAVA_PACKAGE_DEPENDS "liblangsift0 ${_langsift_version_dep}")
set(CPACK_DEBIAN_GRP_JAVA_DESCRIPTION "${_langsift_summary} - Java bindings\n${_langsift_about}\n"
  "This package holds the Java bridge: org.langsift.LangSift and LanguageFilter\n"
  "(/usr/share/java/langsift.jar) over the C ABI, through its JNI library.")
foreach(_langsift_g GRP_LIB GRP_DEV GRP_TOOLS GRP_JAVA)
  string(REPLACE ";" "" CPACK_DEBIAN_${_langsift_g}_DESCRIPTION "${CPACK_DEBIAN_${_langsift_g}_DESCRIPTION}")
endforeach()

# The Debian documentation of each package: copyright (machine-readable, DEP 5) and changelog.gz
# (a native package's: the version has no Debian revision), dated SOURCE_DATE_EPOCH when set.
string(TIMESTAMP _langsift_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(READ ${PROJECT_SOURCE_DIR}/models/LICENSE _langsift_models_licence)
string(REGEX REPLACE "\n\n" "\n.\n" _langsift_models_licence "${_langsift_models_licence}")
string(REGEX REPLACE "\n([^\n])" "\n \\1" _langsift_models_licence " ${_langsift_models_licence}")
string(REGEX REPLACE "\n$" "" _langsift_models_licence "${_langsift_models_licence}")
set(_langsift_debian_dir ${PROJECT_BINARY_DIR}/debian)
file(WRITE ${_langsift_debian_dir}/copyright "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: langsift
Upstream-Contact: ${CPACK_PACKAGE_CONTACT}

Files: *
Copyright: the langsift developers
License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0, is in
 /usr/share/common-licenses/Apache-2.0.

Files: models/*
Copyright: the langsift developers, and the authors of the text corpora named below
License: CC-BY-SA-4.0
${_langsift_models_licence}
")
file(WRITE ${_langsift_debian_dir}/changelog "langsift (${PROJECT_VERSION}) unstable; urgency=medium

  * Packaged by CPack from langsift's source tree (cmake/packaging.cmake).

 -- ${CPACK_PACKAGE_CONTACT}  ${_langsift_date}
")
find_program(LANGSIFT_GZIP gzip)
if(LANGSIFT_GZIP)
  execute_process(COMMAND ${LANGSIFT_GZIP} -9nf ${_langsift_debian_dir}/changelog)
else()
  message(WARNING "gzip not found: the Debian packages get no changelog.gz (lintian: no-changelog)")
endif()
# liblangsift_data.so.0 is data and one accessor: it needs no other library, not even libc.
file(WRITE ${_langsift_debian_dir}/liblangsift0.lintian-overrides "# liblangsift_data.so.0 holds the built-in models' bytes and one function that returns
# their address: it calls nothing, so it needs no other library (not even libc).
liblangsift0: shared-library-lacks-prerequisites [usr/${CMAKE_INSTALL_LIBDIR}/liblangsift_data.so.${PROJECT_VERSION}]
")
# The dynamic loader's cache is refreshed by dpkg's ldconfig trigger (CPack also writes ldconfig
# calls into postinst and postrm, which lintian warns about: CMake 3.25 has no switch for them).
file(WRITE ${_langsift_debian_dir}/liblangsift0/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_GRP_LIB_PACKAGE_CONTROL_EXTRA ${_langsift_debian_dir}/liblangsift0/triggers)
install(FILES ${_langsift_debian_dir}/liblangsift0.lintian-overrides DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
  RENAME liblangsift0 COMPONENT deb-liblangsift0 EXCLUDE_FROM_ALL)
set(_langsift_deb_components "")
foreach(_langsift_p liblangsift0 liblangsift-dev langsift liblangsift-java)
  install(FILES ${_langsift_debian_dir}/copyright ${_langsift_debian_dir}/changelog.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${_langsift_p} COMPONENT deb-${_langsift_p} EXCLUDE_FROM_ALL)
  list(APPEND _langsift_deb_components deb-${_langsift_p})
endforeach()
set(CPACK_COMPONENTS_ALL runtime dev tools man doc ${_langsift_deb_components})
if(TARGET langsift_jni)
  list(APPEND CPACK_COMPONENTS_ALL java)
else()
  list(REMOVE_ITEM CPACK_COMPONENTS_ALL deb-liblangsift-java)
endif()
set(CPACK_SOURCE_GENERATOR TGZ)  # `make package_source`: the source tree less git and build trees
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/" "/__pycache__/")  # escaped again in CPackConfig.cmake
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
  if(LANGSIFT_EMBED_MODELS)
    # The packages' sizes (the models once, 110 MB in all) hold only with liblangsift_data.so.0.
    message(STATUS "LANGSIFT_EMBED_MODELS=ON: the models are in every program; the .deb and lintian tests are not registered")
  elseif(LANGSIFT_DPKG_DEB)
    set(_langsift_java_args "")
    if(TARGET langsift-java-test)
      get_target_property(_langsift_test_jar langsift-java-test JAR_FILE)
      set(_langsift_java_args -DJAVA=${Java_JAVA_EXECUTABLE} -DJAVA_TEST_JAR=${_langsift_test_jar})
    endif()
    set(_langsift_deb_test "package: cpack makes liblangsift0, liblangsift-dev, langsift and liblangsift-java, which install (110 MB at most) and build consumers")
    add_test(NAME "${_langsift_deb_test}"
      COMMAND ${CMAKE_COMMAND} -DLANGSIFT_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DLANGSIFT_BINARY_DIR=${PROJECT_BINARY_DIR}
        -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/deb-work -DGENERATOR=${CMAKE_GENERATOR}
        -DCPACK=${CMAKE_CPACK_COMMAND} -DMAN_PAGES=${LANGSIFT_MAN_PAGES_ENABLED} ${_langsift_java_args}
        -P ${PROJECT_SOURCE_DIR}/tests/downstream/deb.cmake)
    set_tests_properties("${_langsift_deb_test}" PROPERTIES TIMEOUT 600 FIXTURES_SETUP langsift_debs)
    # Debian's lintian on the same packages: no error (warnings are printed).
    find_program(LANGSIFT_LINTIAN lintian)
    if(LANGSIFT_LINTIAN)
      add_test(NAME "package: lintian finds no error in the .deb packages"
        COMMAND ${CMAKE_COMMAND} -DLINTIAN=${LANGSIFT_LINTIAN} -DDEB_DIR=${PROJECT_BINARY_DIR}/tests/deb-work/cpack
          -P ${PROJECT_SOURCE_DIR}/tests/downstream/lintian.cmake)
      set_tests_properties("package: lintian finds no error in the .deb packages" PROPERTIES
        TIMEOUT 300 FIXTURES_REQUIRED langsift_debs)
    else()
      message(STATUS "lintian not found (Debian lintian, scripts/install-deps.sh): the packages' lintian test is not registered")
    endif()
  else()
    message(STATUS "dpkg-deb not found: the .deb package test is skipped")
  endif()
endif()
