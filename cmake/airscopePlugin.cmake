# airscope_add_plugin(TARGET SOURCE...): a C++ pass plugin for airscope's
# `plugin load PATH.so` (core/pass/plugin_api.h): a MODULE library named
# TARGET.so (no "lib" prefix) linking airscope::plugin_api and none of
# airscope's libraries. Its calls into the Graph API resolve against the
# airscope executable that loads it, which exports its symbols.
#
# The boundary is C++ (PassInfo, Graph, std::function cross it), so a plugin
# must be built with the compiler and standard library airscope was built
# with; when the installed package knows that compiler (AIRSCOPE_CXX_COMPILER,
# set by airscopeConfig.cmake) and this build uses another, this warns.
function(airscope_add_plugin target)
  add_library(${target} MODULE ${ARGN})
  target_link_libraries(${target} PRIVATE airscope::plugin_api)
  set_target_properties(${target} PROPERTIES PREFIX "")
  set(compiler "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  if(DEFINED AIRSCOPE_CXX_COMPILER AND NOT compiler STREQUAL AIRSCOPE_CXX_COMPILER)
    message(WARNING "airscope was built with ${AIRSCOPE_CXX_COMPILER}, this plugin (${target}) is built with "
                    "${compiler}: the plugin API passes C++ objects, so the plugin may fail to load or misbehave")
  endif()
endfunction()
