// DeviceState: the session's simulated device and what its runs left behind
// (the last eager result per graph, for replay-vs-eager speedups).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/device/simulator.h"
#include "core/runtime/acl_graph.h"
#include "core/runtime/device_buffers.h"
#include "core/runtime/piecewise_runtime.h"
#include "core/lower/task_graph.h"

namespace airscope {

struct DeviceState {
  DeviceState() : sim(*DevicePreset("ascend-910b")) {}
  SimDevice sim;
  std::map<std::string, RunResult> last_eager;  // by graph name
  // Reduce-overhead calls: the caller's tensors and outputs on the device,
  // TorchAir's graph_<N> counter (npu_fx_compiler.py:565-571: one per
  // compiled FX graph, from 1), and whether its one-time output warning
  // (acl_graph.py:1472-1473) was shown.
  DeviceBuffers buffers;
  int fx_graphs = 0;
  bool output_warning_shown = false;
  // Capture dumps `load` read (NPUGraph.debug_dump's JSON), by graph name:
  // what `check` and `timeline --aclgraph-json` use for that graph.
  struct LoadedCapture {
    TaskGraph tasks;
    std::string path;
    std::string capture_stream;  // as AclGraphDump::capture_stream
    Trace trace;                 // the timeline the file draws
  };
  std::map<std::string, LoadedCapture> loaded_captures;
  // torch.npu.set_stream_limit on the stream calls run on (`stream limit`);
  // unset, the stream reads as the device's core counts (StreamLimits()).
  std::optional<StreamCoreLimits> stream_limits;
  // `piecewise capture`: vLLM's piecewise runtime on this device, and the
  // one graph pool every piece and size shares (vLLM's global pool).
  std::optional<PiecewiseRuntime> piecewise;
  PoolId piecewise_pool = 0;
  StreamCoreLimits StreamLimits() const {
    return stream_limits.value_or(StreamCoreLimits{sim.spec().aicore_num, sim.spec().vectorcore_num});
  }
};

}  // namespace airscope
