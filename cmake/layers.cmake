# The layers of airscope as build targets, and the include check that keeps
# them honest.
#
#   airscope_layer(NAME PATH REGEX SOURCES files... USES layers... [LIBRARY_NAME target])
#
# declares a layer: the files whose path (relative to the project root)
# matches REGEX belong to it, SOURCES (if any) build the static library
# airscope_NAME, and USES names the layers its files may include, the lower
# ones (each must be declared before). The library links exactly those
# (PUBLIC, so a user of a layer gets what it uses). A layer may include its
# own headers and those of everything its USES reach, nothing else.
#
# Linking alone would not catch a header-only include (an inline function or
# a constant of a higher layer links without that layer's library), so
# airscope_layer_check() adds a build step, run before any layer compiles:
# cmake/check_layers.cmake reads every #include of every file of every layer
# and fails the build, naming file:line, the header and what the layer may
# use, when a file includes a header of a layer it may not use, a header in no
# layer, or a header by a relative path (which would dodge the check). The
# same script runs as the ctest test `layers.includes`, and `layers.check_fails`
# shows it failing on tests/layers/bad (a core file including repl/, a lower
# layer including a higher one).

set_property(GLOBAL PROPERTY AIRSCOPE_LAYERS "")

function(airscope_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 L "" "REGEX" "SOURCES;USES")
  if(NOT L_REGEX)
    message(FATAL_ERROR "airscope_layer(${name}): REGEX is required")
  endif()
  get_property(layers GLOBAL PROPERTY AIRSCOPE_LAYERS)
  set(allowed ${L_USES})
  foreach(used ${L_USES})
    if(NOT used IN_LIST layers)
      message(FATAL_ERROR "airscope_layer(${name}) uses '${used}', which is not declared before it")
    endif()
    get_property(reach GLOBAL PROPERTY AIRSCOPE_LAYER_ALLOWED_${used})
    list(APPEND allowed ${reach})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL APPEND PROPERTY AIRSCOPE_LAYERS ${name})
  set_property(GLOBAL PROPERTY AIRSCOPE_LAYER_REGEX_${name} "${L_REGEX}")
  set_property(GLOBAL PROPERTY AIRSCOPE_LAYER_USES_${name} "${L_USES}")
  set_property(GLOBAL PROPERTY AIRSCOPE_LAYER_ALLOWED_${name} "${allowed}")
  if(L_SOURCES)
    add_library(airscope_${name} STATIC ${L_SOURCES})
    foreach(used ${L_USES})
      if(TARGET airscope_${used})
        target_link_libraries(airscope_${name} PUBLIC airscope_${used})
      endif()
    endforeach()
    target_compile_options(airscope_${name} PRIVATE ${AIRSCOPE_WARNINGS})
    set_property(GLOBAL APPEND PROPERTY AIRSCOPE_LAYER_TARGETS airscope_${name})
  endif()
endfunction()

# After every layer is declared: the config the check reads, the build step
# every layer library waits for, and the ctest tests.
function(airscope_layer_check)
  get_property(layers GLOBAL PROPERTY AIRSCOPE_LAYERS)
  set(config "# Written by cmake/layers.cmake: the layers and what each may include.\n")
  string(APPEND config "set(AIRSCOPE_LAYERS \"${layers}\")\n")
  foreach(name ${layers})
    get_property(regex GLOBAL PROPERTY AIRSCOPE_LAYER_REGEX_${name})
    get_property(allowed GLOBAL PROPERTY AIRSCOPE_LAYER_ALLOWED_${name})
    string(APPEND config "set(AIRSCOPE_LAYER_REGEX_${name} \"${regex}\")\n")
    string(APPEND config "set(AIRSCOPE_LAYER_ALLOWED_${name} \"${allowed}\")\n")
  endforeach()
  set(config_file ${PROJECT_BINARY_DIR}/airscope_layers.cmake)
  file(CONFIGURE OUTPUT ${config_file} CONTENT "${config}")

  # Every file the check reads; a new file re-runs cmake (CONFIGURE_DEPENDS),
  # an edited one re-runs the check.
  file(GLOB_RECURSE checked_files CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/core/*.h ${PROJECT_SOURCE_DIR}/core/*.cc
       ${PROJECT_SOURCE_DIR}/formats/*.h ${PROJECT_SOURCE_DIR}/formats/*.cc
       ${PROJECT_SOURCE_DIR}/viz/*.h ${PROJECT_SOURCE_DIR}/viz/*.cc
       ${PROJECT_SOURCE_DIR}/repl/*.h ${PROJECT_SOURCE_DIR}/repl/*.cc
       ${PROJECT_SOURCE_DIR}/plugins/*.h ${PROJECT_SOURCE_DIR}/plugins/*.cc)
  set(stamp ${PROJECT_BINARY_DIR}/airscope_layers.checked)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DCONFIG=${config_file} -DSTAMP=${stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    DEPENDS ${checked_files} ${config_file} ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    COMMENT "Checking that every #include respects the layers"
    VERBATIM)
  add_custom_target(airscope_layer_check DEPENDS ${stamp})
  get_property(targets GLOBAL PROPERTY AIRSCOPE_LAYER_TARGETS)
  foreach(target ${targets})
    add_dependencies(${target} airscope_layer_check)
  endforeach()

  if(AIRSCOPE_BUILD_TESTS)
    add_test(NAME layers.includes
             COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DCONFIG=${config_file}
                     -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake)
    # The check on a tree that breaks the rules: it must fail and name each break.
    add_test(NAME layers.check_fails
             COMMAND ${CMAKE_COMMAND} -DCHECK=${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
                     -DCONFIG=${config_file} -DBAD=${PROJECT_SOURCE_DIR}/tests/layers/bad
                     -P ${PROJECT_SOURCE_DIR}/tests/layers/expect_check_fails.cmake)
  endif()
endfunction()
