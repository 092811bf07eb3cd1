# ctest "nutch: the plugin builds with Ant in a mock Nutch 1.x tree ..." (bindings/java/CMakeLists.txt).
#
# Lays out a MOCK Nutch source tree in WORK_DIR, as a user lays out the real one, and runs the Ant
# targets Nutch's build runs for plugins (Debian's ant and ivy):
#   <WORK_DIR>/nutch/                      mock-nutch-tree/: STAND-INS of Nutch's top-level build.xml
#     build.xml, default.properties,       (its ivy-init, compile-core and compile-plugins targets),
#     ivy/ivysettings.xml (offline),       default.properties, ivy/ivy-configurations.xml, an offline
#     ivy/ivy-configurations.xml           ivysettings.xml, src/plugin/build-plugin.xml (written to
#     src/plugin/build-plugin.xml          behave like Nutch's for the targets used) and
#     src/plugin/build.xml                 src/plugin/build.xml (with the line the README documents)
#     src/java/                            compile-only-stubs/: stand-ins of the Nutch and Hadoop
#                                          types the plugin uses, compiled as "Nutch core"
#     src/plugin/langsift-nutch/           langsift-nutch/, copied as the README says (as is)
# then `ant compile-core compile-plugins`, with -Dlangsift.jar=LANGSIFT_JAR (the bridge as built).
# It checks the layout and the build: the plugin's jar is langsift-nutch.jar (Nutch's ${name}.jar)
# beside langsift.jar (the bridge) in build/plugins/langsift-nutch/, each <library> of plugin.xml is
# there, the classes plugin.xml names are in the exported jar, Ivy resolved the plugin's ivy.xml
# (offline: it has no dependency); a missing langsift.jar stops the build with one clear message;
# the `clean` line removes the plugin's build. It does NOT test Nutch: nothing here is Nutch.
# -DANT -DIVY_JAR -DSOURCE_DIR (bindings/java/nutch) -DWORK_DIR -DLANGSIFT_JAR.
cmake_minimum_required(VERSION 3.21)

set(nutch ${WORK_DIR}/nutch)
set(plugin ${nutch}/src/plugin/langsift-nutch)
set(deploy ${nutch}/build/plugins/langsift-nutch)

function(ant out_var rc_var)
  execute_process(COMMAND ${ANT} -noinput -buildfile ${nutch}/build.xml -Divy.jar=${IVY_JAR}
      -Divy.default.ivy.user.dir=${WORK_DIR}/ivy-home ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}\n${err}" PARENT_SCOPE)
  set(${rc_var} ${rc} PARENT_SCOPE)
endfunction()

function(jar_entries jar var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar tf ${jar} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot list ${jar}")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# Every mock file says what it is.
file(GLOB_RECURSE mock_files ${SOURCE_DIR}/mock-nutch-tree/*)
foreach(f IN LISTS mock_files)
  file(READ ${f} text)
  if(NOT text MATCHES "STAND-IN, NOT NUTCH")
    message(FATAL_ERROR "${f} is not marked as a stand-in (\"STAND-IN, NOT NUTCH\")")
  endif()
endforeach()

# The tree.
file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${SOURCE_DIR}/mock-nutch-tree/ DESTINATION ${nutch})
file(COPY ${SOURCE_DIR}/compile-only-stubs/org DESTINATION ${nutch}/src/java)
file(COPY ${SOURCE_DIR}/langsift-nutch/ DESTINATION ${plugin})
foreach(f build.xml ivy.xml plugin.xml)
  if(NOT EXISTS ${plugin}/${f})
    message(FATAL_ERROR "the plugin directory has no ${f}")
  endif()
endforeach()
file(GLOB_RECURSE plugin_sources RELATIVE ${plugin} ${plugin}/*.java)
foreach(s IN LISTS plugin_sources)
  if(NOT s MATCHES "^src/java/")
    message(FATAL_ERROR "${s}: Nutch's build-plugin.xml compiles src/java only")
  endif()
endforeach()
if(NOT plugin_sources)
  message(FATAL_ERROR "no sources under langsift-nutch/src/java")
endif()

# Without langsift.jar: one clear message, no build.
ant(out rc -Dlangsift.jar=${WORK_DIR}/no-such/langsift.jar compile-core compile-plugins)
if(rc EQUAL 0 OR NOT out MATCHES "langsift-nutch: no langsift.jar at [^\n]*no-such/langsift.jar")
  message(FATAL_ERROR "a missing langsift.jar did not stop the build with its message (exit ${rc}):\n${out}")
endif()
message(STATUS "ok: without langsift.jar the build stops: no langsift.jar at .../no-such/langsift.jar")

# The build, as `ant runtime` runs it (compile-core, then compile-plugins: src/plugin's deploy).
ant(out rc -Dlangsift.jar=${LANGSIFT_JAR} compile-core compile-plugins)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ant compile-core compile-plugins failed (${rc}):\n${out}")
endif()
foreach(step "Compiling plugin: langsift-nutch" "resolve-default:" "Building jar: [^\n]*/build/langsift-nutch/langsift-nutch.jar")
  if(NOT out MATCHES "${step}")
    message(FATAL_ERROR "the build did not run '${step}':\n${out}")
  endif()
endforeach()

# Ivy resolved the plugin's module (its ivy.xml, with Nutch's configurations) and found nothing to fetch.
set(report ${nutch}/build/ivy-cache/org.langsift-langsift-nutch-default.xml)
if(NOT EXISTS ${report})
  message(FATAL_ERROR "no Ivy resolution report ${report}:\n${out}")
endif()
file(READ ${report} text)
if(NOT text MATCHES "module=\"langsift-nutch\"" OR NOT text MATCHES "<dependencies>[ \t\r\n]*</dependencies>")
  message(FATAL_ERROR "Ivy's report is not of module langsift-nutch without dependencies:\n${text}")
endif()

# The deployed plugin: plugin.xml and exactly the libraries it names, no name twice.
file(GLOB deployed RELATIVE ${deploy} ${deploy}/*)
list(SORT deployed)
if(NOT deployed STREQUAL "langsift-nutch.jar;langsift.jar;plugin.xml")
  message(FATAL_ERROR "build/plugins/langsift-nutch holds '${deployed}', not langsift-nutch.jar, langsift.jar, plugin.xml")
endif()
file(READ ${deploy}/plugin.xml xml)
if(NOT xml MATCHES "<plugin id=\"langsift-nutch\"")
  message(FATAL_ERROR "plugin.xml's id is not the plugin's directory name langsift-nutch")
endif()
string(REGEX MATCHALL "<library name=\"[^\"]+\"" libs "${xml}")
string(REGEX REPLACE "<library name=\"([^\"]+)\"" "\\1" libs "${libs}")
list(SORT libs)
if(NOT libs STREQUAL "langsift-nutch.jar;langsift.jar")
  message(FATAL_ERROR "plugin.xml's libraries are '${libs}', not what the build makes")
endif()

# The plugin's jar has the classes plugin.xml names and nothing of Nutch's (the stand-ins stay out)
# nor of the bridge; the bridge's jar is the one built.
jar_entries(${deploy}/langsift-nutch.jar plugin_jar)
string(REGEX MATCHALL "class=\"[^\"]+\"" classes "${xml}")
list(LENGTH classes n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "plugin.xml: expected 2 implementation classes, found ${n}")
endif()
foreach(c IN LISTS classes)
  string(REGEX REPLACE "class=\"([^\"]+)\"" "\\1" c "${c}")
  string(REPLACE "." "/" path "${c}")
  string(FIND "${plugin_jar}" "${path}.class" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "plugin.xml names ${c}, which is not in langsift-nutch.jar:\n${plugin_jar}")
  endif()
endforeach()
if(plugin_jar MATCHES "org/apache/" OR plugin_jar MATCHES "org/langsift/LangSift.class")
  message(FATAL_ERROR "langsift-nutch.jar holds Nutch/Hadoop stand-ins or the bridge:\n${plugin_jar}")
endif()
file(SHA256 ${deploy}/langsift.jar a)
file(SHA256 ${LANGSIFT_JAR} b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "build/plugins/langsift-nutch/langsift.jar is not ${LANGSIFT_JAR}")
endif()
message(STATUS "ok: build/plugins/langsift-nutch = ${deployed}; plugin.xml's libraries and classes are there")

# The `clean` line.
ant(out rc clean-plugins)
if(NOT rc EQUAL 0 OR EXISTS ${deploy} OR EXISTS ${nutch}/build/langsift-nutch)
  message(FATAL_ERROR "ant clean-plugins did not remove the plugin's build (${rc}):\n${out}")
endif()
message(STATUS "ok: src/plugin's clean removes build/langsift-nutch and build/plugins/langsift-nutch")
