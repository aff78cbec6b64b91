# cmake -DCHECK=cmake/check_layers.cmake -DCONFIG=<build>/airscope_layers.cmake -DBAD=tests/layers/bad -P expect_check_fails.cmake
# The layer check run on tests/layers/bad must fail and name exactly the breaks
# listed in tests/layers/bad/README.md, and nothing that is allowed.
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${BAD} -DCONFIG=${CONFIG} -P ${CHECK}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(out "${out}${err}")
if(result EQUAL 0)
  message(FATAL_ERROR "the layer check passed a tree that breaks the layers:\n${out}")
endif()
set(expected
    "core/formats/reader.cc: in no layer"
    "core/ir/graph.h:5: layer ir includes repl/session.h of layer repl; ir may use: base"
    "core/ir/graph.h:6: layer ir includes viz/dot_writer.h of layer viz; ir may use: base"
    "core/lower/task_graph.cc:4: layer lower includes core/pass/pass.h of layer pass; lower may use:"
    "core/lower/task_graph.cc:5: includes \"task_graph.h\" by a path relative to its directory"
    "viz/dot_writer.cc:2: layer viz includes repl/session.h of layer repl; viz may use:"
    "6 break(s) of the layers")
foreach(line ${expected})
  string(FIND "${out}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layer check's output lacks \"${line}\":\n${out}")
  endif()
endforeach()
foreach(allowed "core/lower/task_graph.cc:1" "core/lower/task_graph.cc:3" "core/ir/graph.h:4" "viz/dot_writer.cc:1")
  string(FIND "${out}" "${allowed}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the layer check refused an allowed include (${allowed}):\n${out}")
  endif()
endforeach()
message(STATUS "the layer check refuses each break of tests/layers/bad")
