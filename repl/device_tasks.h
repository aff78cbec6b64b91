// The current graph as device tasks, for the device commands (eager,
// capture, replay) and `check`: the lowered graph (repl/compile.h) built into
// a TaskGraph, with the inputs a capture copies into static buffers and the
// parameters it reads where they live.
#pragma once

#include <string>
#include <vector>

#include "core/device/capture_rules.h"
#include "core/device/simulator.h"
#include "core/lower/task_graph.h"
#include "core/status.h"
#include "repl/session.h"
#include "repl/tokenizer.h"

namespace airscope {

struct LoweredTasks {
  std::string name;
  TaskGraph tasks;
  // The user inputs: a capture gives each a static buffer in its pool, and a
  // replay copies the new value in first (the `static_input.copy_(x)` of a
  // torch.npu.graph capture).
  std::vector<GraphInput> inputs;
  // The parameters and buffers the aot stage lifted to the first inputs (the
  // Dynamo graph's get_attr tensors, declared modules' parameters): read in
  // place, never copied, as a captured graph reads a module's parameters
  // (TorchAir's parameter_user_inputs are not staged either). A graph loaded
  // as aten has no lifted inputs airscope can tell apart: all are inputs.
  std::vector<GraphInput> parameters;
  DType dtype = DType::kFloat32;
  std::string source;  // which graph (Compiled::source)
};

Result<LoweredTasks> LowerCurrentTasks(Session& session, const TaskGraphOptions& options = {});

// The capture the session's settings and `capture` flags describe:
// --stream S, --end-stream S, --mode M over capture_error_mode and
// env.TASK_QUEUE_ENABLE. `args` may hold other words (check); unknown ones
// are left for the caller: they are returned in *rest.
Result<CaptureSetup> CaptureSetupFrom(const Session& session, const std::vector<Word>& args, std::vector<Word>* rest);

}  // namespace airscope
