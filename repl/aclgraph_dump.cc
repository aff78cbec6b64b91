#include "repl/aclgraph_dump.h"

#include <fmt/format.h>

#include "core/file_util.h"
#include "repl/interpreter.h"
#include "formats/aclgraph_json.h"

namespace airscope {

Status LoadAclGraphDump(CommandContext& ctx, const std::string& path, const std::string& name,
                        std::optional<std::string_view> bytes) {
  Session& session = ctx.session;
  std::string text;
  if (!bytes) {
    AIRSCOPE_ASSIGN_OR_RETURN(text, ReadFile(path, session.settings().GetUnsigned("max-file-size")));
    bytes = text;
  }
  AIRSCOPE_ASSIGN_OR_RETURN(AclGraphDump dump, ParseAclGraphJson(*bytes, ctx.args[0].text));
  // The name holds the dump: an empty graph (there is no FX graph in it) and
  // the dump's tasks beside the device.
  LoadedGraph holder;
  holder.graph = std::make_shared<Graph>(name);
  holder.path = path;
  // As before the registry had a row of its own for capture dumps: `graphs` says json.
  holder.format = FindInputFormat("json");
  bool replaced = false;
  session.AddGraph(name, std::move(holder), &replaced);
  DeviceState::LoadedCapture loaded;
  loaded.tasks = std::move(dump.tasks);
  loaded.path = ctx.args[0].text;
  loaded.capture_stream = dump.capture_stream;
  loaded.trace = AclGraphTrace(loaded.tasks, fmt::format("capture dump {} (model {})", loaded.path, dump.model_id));
  size_t tasks = loaded.tasks.tasks.size(), streams = loaded.tasks.streams.size();
  session.device().sim.ShowTrace(loaded.trace);
  session.device().loaded_captures[name] = std::move(loaded);
  ctx.out.Styled(Style::kGood,
                 "{} capture dump '{}' from {} (aclmdlRIDebugJsonPrint JSON, model {}): {} tasks on {} stream(s), "
                 "capture stream taken to be '{}'",
                 replaced ? "replaced" : "loaded", name, ctx.args[0].text, dump.model_id, tasks, streams,
                 dump.capture_stream);
  for (const std::string& m : dump.merged) ctx.out.Print("  merged {} (STREAM_ACTIVE, as TorchAir's scripts do)", m);
  ctx.out.Styled(Style::kDim, "  check, timeline and runstats read it; it has no graph to run (eager, capture)");
  return Status::Ok();
}

Status WriteAclGraphDump(CommandContext& ctx, const std::string& path) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const std::string& name = entry->name;
  DeviceState& dev = ctx.session.device();
  TaskGraph dump;
  std::string streams;
  if (auto it = dev.loaded_captures.find(name); it != dev.loaded_captures.end()) {
    dump = it->second.tasks;
    streams = fmt::format("{}", fmt::join(dump.streams, ", "));
  } else if (const CapturedGraph* c = dev.sim.FindCaptured(name)) {
    dump = ToAclGraphDump(c->tasks, c->id, dev.sim.spec().vectorcore_num);
    std::vector<std::string> mapping;
    for (size_t i = 0; i < c->tasks.streams.size(); ++i) {
      mapping.push_back(fmt::format("{} = {}", dump.streams[i], StreamDisplayName(c->tasks.streams[i])));
    }
    streams = fmt::format("{}", fmt::join(mapping, ", "));
  } else {
    return Status::Errorf(
        "'{}' has no captured graph: run capture first (timeline --aclgraph-json writes the "
        "captured graph, as NPUGraph.debug_dump does)",
        name);
  }
  std::string text = AclGraphJson(dump);
  if (path == "-") {
    ctx.out.AddBlock(text, Style::kData);
    return Status::Ok();
  }
  AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, text));
  ctx.out.Print("wrote {} (aclgraph capture dump, as NPUGraph.debug_dump writes it: {} tasks; {})", path,
                dump.tasks.size(), streams);
  return Status::Ok();
}

}  // namespace airscope
