// DeviceState: the session's simulated device and what its runs left behind
// (the last eager result per graph, for replay-vs-eager speedups).
#pragma once

#include <map>
#include <string>

#include "core/device/simulator.h"

namespace airscope {

struct DeviceState {
  DeviceState() : sim(*DevicePreset("ascend-910b")) {}
  SimDevice sim;
  std::map<std::string, RunResult> last_eager;  // by graph name
};

}  // namespace airscope
