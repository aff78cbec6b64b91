# The include check of the layers (see cmake/layers.cmake, and the layer table
# at the top of core/CMakeLists.txt).
#   cmake -DROOT=<tree> -DCONFIG=<build>/airscope_layers.cmake [-DSTAMP=<file>] -P check_layers.cmake
# Reads every #include of every .h/.cc under ROOT's core/, formats/, viz/,
# repl/ and plugins/. A file belongs to the layer whose REGEX matches its path; an
# include "a/b.h" or <a/b.h> whose first part is one of ours (core, formats, viz, repl,
# plugins, tests, bench) must name a header of the file's own layer or of a
# layer it may use. Fails, listing every offending file:line, when
#   - a file includes a header of a layer it may not use,
#   - a file or an included header of ours is in no layer,
#   - a file of ours is included by a relative path ("graph.h", "../x.h"),
#     which would hide which layer it is in,
#   - an #include names no file in quotes or brackets (a macro).
# Writes STAMP when everything is in order.
cmake_minimum_required(VERSION 3.20)

if(NOT ROOT OR NOT CONFIG)
  message(FATAL_ERROR "usage: cmake -DROOT=DIR -DCONFIG=airscope_layers.cmake [-DSTAMP=FILE] -P check_layers.cmake")
endif()
include(${CONFIG})

# The layer a project-relative path belongs to ("" for none).
function(layer_of path out)
  foreach(name ${AIRSCOPE_LAYERS})
    if(path MATCHES "${AIRSCOPE_LAYER_REGEX_${name}}")
      set(${out} ${name} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

set(ours core formats viz repl plugins tests bench)
file(GLOB_RECURSE files RELATIVE ${ROOT}
     ${ROOT}/core/*.h ${ROOT}/core/*.cc ${ROOT}/formats/*.h ${ROOT}/formats/*.cc ${ROOT}/viz/*.h ${ROOT}/viz/*.cc
     ${ROOT}/repl/*.h ${ROOT}/repl/*.cc ${ROOT}/plugins/*.h ${ROOT}/plugins/*.cc)
list(SORT files)
set(problems "")
set(count 0)
foreach(file ${files})
  layer_of("${file}" layer)
  if(layer STREQUAL "")
    string(APPEND problems "${file}: in no layer (declare its directory with airscope_layer, core/CMakeLists.txt)\n")
    math(EXPR count "${count} + 1")
    continue()
  endif()
  set(allowed ${AIRSCOPE_LAYER_ALLOWED_${layer}})
  get_filename_component(dir ${ROOT}/${file} DIRECTORY)
  # Only the include lines (splitting the whole file into a CMake list would
  # trip over the brackets of C++); a line number is counted for a problem only.
  file(STRINGS ${ROOT}/${file} includes REGEX "^[ \t]*#[ \t]*include" ENCODING UTF-8)
  foreach(line IN LISTS includes)
    set(problem "")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*([\"<])([^\">]+)[\">]")
      set(problem "an #include that names no file in quotes or brackets")
    else()
      set(quoted "${CMAKE_MATCH_1}")
      set(header "${CMAKE_MATCH_2}")
      string(REGEX MATCH "^[^/]*" first "${header}")
      # Only "..." looks beside the including file first (<md5.h> is libmd's).
      if(quoted STREQUAL "\"" AND EXISTS ${dir}/${header} AND NOT IS_DIRECTORY ${dir}/${header})
        set(problem "includes \"${header}\" by a path relative to its directory; write it from the project root")
      elseif(first IN_LIST ours)
        layer_of("${header}" used)
        if(used STREQUAL "")
          set(problem "includes ${header}, which is in no layer")
        elseif(NOT used STREQUAL layer AND NOT used IN_LIST allowed)
          string(REPLACE ";" ", " may "${allowed}")
          if(may STREQUAL "")
            set(may "nothing else of ours")
          endif()
          set(problem "layer ${layer} includes ${header} of layer ${used}; ${layer} may use: ${may}")
        endif()
      endif()
    endif()
    if(NOT problem STREQUAL "")
      file(READ ${ROOT}/${file} text)
      string(FIND "${text}" "${line}" offset)
      string(SUBSTRING "${text}" 0 ${offset} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines number)
      math(EXPR number "${number} + 1")
      string(APPEND problems "${file}:${number}: ${problem}\n")
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
endforeach()

if(count GREATER 0)
  message(NOTICE "${problems}")
  message(FATAL_ERROR "${count} break(s) of the layers (core/CMakeLists.txt says what each layer may use)")
endif()
if(STAMP)
  file(TOUCH ${STAMP})
endif()
