# langsift_cli — the subcommands of the `langsift` command (tools/langsift/*.cpp but main.cpp,
# with tools/common), one object library linked into the executable and into the Python extension,
# so that `python3 -m langsift` runs the same code. Included by tools/CMakeLists.txt and
# bindings/python/CMakeLists.txt (pip builds the extension without the tools); defined once.
# Input files are decompressed as they are read (tools/common/input.hpp): zlib and libzstd
# (Debian zlib1g-dev, libzstd-dev).
if(TARGET langsift_cli)
  return()
endif()
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(LANGSIFT_ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
file(GLOB LANGSIFT_CLI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/langsift/*.cpp)
list(REMOVE_ITEM LANGSIFT_CLI_SOURCES ${PROJECT_SOURCE_DIR}/tools/langsift/main.cpp)
add_library(langsift_cli OBJECT ${LANGSIFT_CLI_SOURCES})
set_target_properties(langsift_cli PROPERTIES POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_include_directories(langsift_cli PUBLIC ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(langsift_cli PUBLIC langsift_core langsift_encoding langsift_page langsift_models langsift_warc
  ZLIB::ZLIB PkgConfig::LANGSIFT_ZSTD Threads::Threads PRIVATE langsift_build_flags)
