# The plugin API (core/pass/plugin_api.h) as a target a pass plugin links:
# airscope::plugin_api, an INTERFACE library carrying the include directory,
# C++20 and fmt. In the tree it points at the sources; installed (see
# cmake/install.cmake) at PREFIX/include/airscope, where exactly the headers
# plugin_api.h reaches are put, and an out-of-tree plugin finds it with
# find_package(airscope) (cmake/airscopeConfig.cmake.in).
#
# AIRSCOPE_PLUGIN_API_HEADERS: those headers, relative to the source root,
# found by following the #include "..." lines of plugin_api.h (at configure
# time; editing one of them re-runs cmake, so a new include is installed too).

# airscope_header_closure(OUT HEADER...): HEADERs and every header of ours they include, transitively.
function(airscope_header_closure out)
  set(pending ${ARGN})
  set(seen "")
  while(pending)
    list(POP_FRONT pending header)
    if(header IN_LIST seen)
      continue()
    endif()
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${header})
      message(FATAL_ERROR "plugin API: ${header} is included but not in the source tree")
    endif()
    list(APPEND seen ${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
      list(APPEND pending ${included})
    endforeach()
  endwhile()
  list(SORT seen)
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

airscope_header_closure(AIRSCOPE_PLUGIN_API_HEADERS core/pass/plugin_api.h)
list(TRANSFORM AIRSCOPE_PLUGIN_API_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE plugin_api_header_paths)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${plugin_api_header_paths})

include(GNUInstallDirs)
add_library(airscope_plugin_api INTERFACE)
add_library(airscope::plugin_api ALIAS airscope_plugin_api)
set_target_properties(airscope_plugin_api PROPERTIES EXPORT_NAME plugin_api)
target_include_directories(airscope_plugin_api INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                         $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/airscope>)
target_compile_features(airscope_plugin_api INTERFACE cxx_std_20)
target_link_libraries(airscope_plugin_api INTERFACE fmt::fmt)

# airscope_add_plugin(TARGET SOURCES...), in the tree as out of it.
include(${CMAKE_CURRENT_LIST_DIR}/airscopePlugin.cmake)

# The API version the headers declare, for the package config (a plugin may check it).
file(STRINGS ${PROJECT_SOURCE_DIR}/core/pass/plugin_api.h version_line
     REGEX "^#define AIRSCOPE_PLUGIN_API_VERSION [0-9]+$")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" AIRSCOPE_PLUGIN_API_VERSION "${version_line}")
if(NOT AIRSCOPE_PLUGIN_API_VERSION MATCHES "^[0-9]+$")
  message(FATAL_ERROR "core/pass/plugin_api.h: no '#define AIRSCOPE_PLUGIN_API_VERSION N' line")
endif()
