// DeviceState: the session's simulated device and what its runs left behind
// (the last eager result per graph, for replay-vs-eager speedups).
#pragma once

#include <map>
#include <string>

#include "core/device/simulator.h"
#include "core/lower/task_graph.h"

namespace airscope {

struct DeviceState {
  DeviceState() : sim(*DevicePreset("ascend-910b")) {}
  SimDevice sim;
  std::map<std::string, RunResult> last_eager;  // by graph name
  // Capture dumps `load` read (NPUGraph.debug_dump's JSON), by graph name:
  // what `check` and `timeline --aclgraph-json` use for that graph.
  struct LoadedCapture {
    TaskGraph tasks;
    std::string path;
    std::string capture_stream;  // as AclGraphDump::capture_stream
    Trace trace;                 // the timeline the file draws
  };
  std::map<std::string, LoadedCapture> loaded_captures;
};

}  // namespace airscope
