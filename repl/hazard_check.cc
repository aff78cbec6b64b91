#include "repl/hazard_check.h"

#include <fmt/format.h>

#include "repl/compile.h"
#include "repl/device_tasks.h"

namespace airscope {

Result<CheckedGraph> CheckCurrentGraph(Session& session, const std::string* stream) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  const std::string& name = entry->name;
  DeviceState& dev = session.device();
  CheckedGraph checked;
  if (const CapturedGraph* c = dev.sim.FindCaptured(name)) {
    checked.tasks = c->tasks;
    checked.capture_stream = stream ? *stream : c->capture_stream;
    checked.source = fmt::format("captured graph {} (capture stream '{}')", c->id, c->capture_stream);
  } else if (auto it = dev.loaded_captures.find(name); it != dev.loaded_captures.end()) {
    const DeviceState::LoadedCapture& l = it->second;
    checked.tasks = l.tasks;
    checked.capture_stream = stream ? *stream : l.capture_stream;
    checked.source = fmt::format(
        "the capture dump {} (capture stream '{}'; a dump names no buffers and was captured, "
        "so races and joins are not looked for)",
        l.path, checked.capture_stream);
    checked.dump = true;
  } else {
    TaskGraphOptions options;
    options.allow_unrecorded_waits = true;
    AIRSCOPE_ASSIGN_OR_RETURN(LoweredTasks l, LowerCurrentTasks(session, options));
    checked.tasks = std::move(l.tasks);
    checked.capture_stream = stream ? *stream : "";
    checked.source = fmt::format("{}, not captured", l.source);
  }
  const DeviceSpec& spec = dev.sim.spec();
  checked.hazards = FindHazards(checked.tasks, {checked.capture_stream, spec.vectorcore_num, spec.name, !checked.dump});
  return checked;
}

Result<std::vector<HazardMark>> HazardMarksForDrawing(Session& session, const Graph& drawn) {
  const Session::Entry* entry = session.current();
  if (!entry) return std::vector<HazardMark>{};
  if (LoweredWithoutCompiling(*entry).get() != &drawn) return std::vector<HazardMark>{};
  AIRSCOPE_ASSIGN_OR_RETURN(CheckedGraph checked, CheckCurrentGraph(session, nullptr));
  return HazardMarks(checked.tasks, checked.hazards);
}

}  // namespace airscope
