# The Nutch adapter's ctest cases (bindings/java/CMakeLists.txt). -DMODE=compile: javac the
# compile-only stand-ins of Nutch/Hadoop (compile-only-stubs/, NOT Nutch), then the adapter against
# them and langsift.jar with -Xlint:all -Werror, and check that plugin.xml names compiled classes.
# -DMODE=test: compile and run test/.../LangSiftNutchAdapterTest (the adapter's own logic, on the
# stand-ins, with the real JNI library and MODEL). Also: -DJAVAC -DJAVA -DSOURCE_DIR -DWORK_DIR
# -DLANGSIFT_JAR -DJNI_LIBRARY -DMODEL.
cmake_minimum_required(VERSION 3.21)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARGN}\n${out}")
endfunction()

set(javac_flags -Xlint:all -Werror --release 11 -encoding UTF-8)
set(stubs ${WORK_DIR}/stubs)
set(adapter ${WORK_DIR}/adapter)
set(test ${WORK_DIR}/test)

if(MODE STREQUAL "compile")
  file(REMOVE_RECURSE ${WORK_DIR})
  file(GLOB_RECURSE stub_sources ${SOURCE_DIR}/compile-only-stubs/*.java)
  file(GLOB_RECURSE adapter_sources ${SOURCE_DIR}/langsift-nutch/src/java/*.java)
  run(${JAVAC} ${javac_flags} -d ${stubs} ${stub_sources})
  # Only the stand-ins and langsift.jar on the class path: the adapter uses nothing else.
  run(${JAVAC} ${javac_flags} -d ${adapter} -cp ${stubs}:${LANGSIFT_JAR} ${adapter_sources})
  file(READ ${SOURCE_DIR}/langsift-nutch/plugin.xml plugin)
  string(REGEX MATCHALL "class=\"[^\"]+\"" classes "${plugin}")
  list(LENGTH classes n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "plugin.xml: expected 2 implementation classes, found ${n}")
  endif()
  foreach(c IN LISTS classes)
    string(REGEX REPLACE "class=\"([^\"]+)\"" "\\1" c "${c}")
    string(REPLACE "." "/" path "${c}")
    if(NOT EXISTS ${adapter}/${path}.class)
      message(FATAL_ERROR "plugin.xml names ${c}, which was not compiled")
    endif()
    message(STATUS "plugin.xml: ${c} compiled")
  endforeach()
elseif(MODE STREQUAL "test")
  file(REMOVE_RECURSE ${test})
  file(GLOB_RECURSE test_sources ${SOURCE_DIR}/test/*.java)
  set(cp ${stubs}:${adapter}:${LANGSIFT_JAR})
  run(${JAVAC} ${javac_flags} -d ${test} -cp ${cp} ${test_sources})
  run(${JAVA} -Xcheck:jni -Dlangsift.library=${JNI_LIBRARY} -cp ${cp}:${test}
    org.langsift.nutch.LangSiftNutchAdapterTest ${MODEL})
else()
  message(FATAL_ERROR "MODE must be compile or test")
endif()
