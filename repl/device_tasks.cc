#include "repl/device_tasks.h"

#include <string>

#include <fmt/format.h>

#include "core/aot/aot.h"
#include "core/scanner.h"
#include "repl/compile.h"

namespace airscope {

Result<LoweredTasks> LowerCurrentTasks(Session& session, const TaskGraphOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  if (auto it = session.device().loaded_captures.find(entry->name); it != session.device().loaded_captures.end()) {
    return Status::Errorf(
        "'{}' is a capture dump (loaded from {}): it has no graph to lower or run; check, "
        "timeline and runstats read it",
        entry->name, it->second.path);
  }
  // The device runs what TorchAir would run: the graph after `lower`.
  AIRSCOPE_ASSIGN_OR_RETURN(Compiled lowered, LoweredCurrentGraph(session));
  const Graph& graph = *lowered.graph;
  Result<TaskGraph> tasks = BuildTaskGraph(graph, session.registry(), options);
  if (!tasks.ok()) return tasks.status().WithPrefix("lower");
  LoweredTasks l;
  l.name = entry->name;
  l.tasks = std::move(*tasks);
  l.source = std::move(lowered.source);
  // aot lifts a torch-level graph's parameters to the first placeholders
  // (core/aot/aot.h): as many as the lowered graph has beyond the loaded one's.
  std::vector<Node*> placeholders = graph.Placeholders();
  size_t loaded_inputs = entry->loaded.graph->Placeholders().size();
  size_t lifted = IsTorchLevelGraph(*entry->loaded.graph) && placeholders.size() > loaded_inputs
                      ? placeholders.size() - loaded_inputs
                      : 0;
  bool dtype_set = false;
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const TensorMeta* t = placeholders[i]->tensor();
    if (!t) continue;
    if (!dtype_set && t->dtype != DType::kUnknown) {
      l.dtype = t->dtype;
      dtype_set = true;
    }
    (i < lifted ? l.parameters : l.inputs).push_back({placeholders[i]->name(), t->NumBytes().value_or(0)});
  }
  return l;
}

Result<CaptureSetup> CaptureSetupFrom(const Session& session, const std::vector<Word>& args, std::vector<Word>* rest) {
  CaptureSetup setup;
  AIRSCOPE_ASSIGN_OR_RETURN(CaptureMode mode, ParseCaptureMode(session.settings().Get("capture_error_mode")));
  setup.mode = mode;
  setup.task_queue_enable = std::stoi(session.settings().Get("env.TASK_QUEUE_ENABLE"));
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i].text;
    bool flag = a == "--stream" || a == "--end-stream" || a == "--mode";
    if (!flag) {
      rest->push_back(args[i]);
      continue;
    }
    if (i + 1 >= args.size()) return ColumnErrorf(args[i].column, "{} needs a value", a);
    const Word& value = args[++i];
    if (a == "--stream") {
      setup.capture_stream = value.text;
    } else if (a == "--end-stream") {
      setup.end_stream = value.text.empty() ? "default" : value.text;
    } else {
      Result<CaptureMode> m = ParseCaptureMode(value.text);
      if (!m.ok()) return ColumnError(value.column, m.status().message());
      setup.mode = *m;
    }
  }
  return setup;
}

}  // namespace airscope
