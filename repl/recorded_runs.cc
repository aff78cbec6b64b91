#include "repl/recorded_runs.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "core/ops/op_registry.h"
#include "core/text.h"

namespace airscope {
namespace {

std::shared_ptr<const Graph> FindLoaded(const LoadedGraphs& loaded, const std::string& name) {
  auto it = loaded.find(name);
  return it == loaded.end() ? nullptr : it->second;
}

std::string FileName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<RecordedRun> RecordedRunsOfTree(const DebugTree& tree, const std::string& name_prefix,
                                            const LoadedGraphs& loaded) {
  std::vector<RecordedRun> runs;
  // model__K/<phase> runs, in tree order; dynamo_out and the backward phase per model.
  std::map<std::string, const DebugTreeGraph*> dynamo_of;  // prefix+model -> dynamo_out
  std::set<std::string> training;                          // prefix+model with a backward phase
  for (const DebugTreeGraph& g : tree.graphs) {
    if (g.source == DebugGraphSource::kDynamoOut) dynamo_of[g.prefix + g.model] = &g;
    if (g.source == DebugGraphSource::kTorchAirStage && g.phase == "backward") training.insert(g.prefix + g.model);
  }
  std::map<std::string, size_t> run_of;  // prefix+model+phase -> runs index
  for (const DebugTreeGraph& g : tree.graphs) {
    if (g.source != DebugGraphSource::kTorchAirStage) continue;
    std::string key = g.prefix + g.model + "/" + g.phase;
    std::shared_ptr<const Graph> graph = FindLoaded(loaded, name_prefix + g.name);
    if (!graph) {  // not loaded: its warning named the file
      if (auto it = run_of.find(key); it != run_of.end()) runs[it->second].unloaded.push_back(FileName(g.path));
      continue;
    }
    RecordedStage stage{name_prefix + g.name, "", false, FileName(g.path), graph, g.count};
    if (g.count == 0 && g.stage == "graph") {
      RecordedRun run;
      run.name = fmt::format("{}{}{}:{}", name_prefix, g.prefix, g.model, g.phase);
      run.source = "TORCH_COMPILE_DEBUG dumps";
      run.input = stage;
      run.every_pass_dumped = true;
      run.training = training.count(g.prefix + g.model) > 0;
      if (auto it = dynamo_of.find(g.prefix + g.model); it != dynamo_of.end()) {
        if (std::shared_ptr<const Graph> d = FindLoaded(loaded, name_prefix + it->second->name)) {
          run.dynamo = RecordedStage{name_prefix + it->second->name, "", false, FileName(it->second->path), d};
        }
      }
      // K of model__K counts Dynamo graphs from 0, as replace_stream_event_pass's
      // GraphCounter does (graph_transform_observer.py DebugContext; replace_stream_event.py:12-23).
      if (g.model.starts_with("model__")) {
        try {
          run.dynamo_graph_counter = std::stoll(g.model.substr(7));
        } catch (...) {}
      }
      run_of[key] = runs.size();
      runs.push_back(std::move(run));
      continue;
    }
    auto it = run_of.find(key);
    std::string pass = DebugStagePass(g.stage);
    if (it == run_of.end() || pass.empty()) continue;  // no recorded input (a warning said so), or no FX pass
    stage.after_pass = pass;
    stage.user_pass = pass == "post_grad_custom_pre_pass" || pass == "post_grad_custom_post_pass";
    runs[it->second].stages.push_back(std::move(stage));
  }
  // graph_dump: dynamo_original_graph_N (after _valid_graph) -> dynamo_optimized_graph_N.
  std::map<std::string, const DebugTreeGraph*> original;
  for (const DebugTreeGraph& g : tree.graphs) {
    if (g.source != DebugGraphSource::kGraphDump || g.pbtxt) continue;
    std::string base = g.name.substr(0, g.name.rfind(':'));
    if (g.stage == "dynamo_original") original[base] = &g;
  }
  for (const DebugTreeGraph& g : tree.graphs) {
    if (g.source != DebugGraphSource::kGraphDump || g.pbtxt || g.stage != "dynamo_optimized") continue;
    std::string base = g.name.substr(0, g.name.rfind(':'));
    auto it = original.find(base);
    if (it == original.end()) continue;
    std::shared_ptr<const Graph> in = FindLoaded(loaded, name_prefix + it->second->name);
    std::shared_ptr<const Graph> out = FindLoaded(loaded, name_prefix + g.name);
    if (!in || !out) continue;
    RecordedRun run;
    run.name = name_prefix + base;
    run.source = "config.debug.graph_dump";
    run.input = RecordedStage{name_prefix + it->second->name, "", false, FileName(it->second->path), in};
    run.input_after = "_valid_graph";
    run.stages.push_back(
        RecordedStage{name_prefix + g.name, "resolve_default_stream_markers", false, FileName(g.path), out});
    run.fx_graph_name = g.model;  // the file's graph_N is AclConcreteGraph's name (npu_fx_compiler.py:690)
    runs.push_back(std::move(run));
  }
  for (RecordedRun& run : runs) {
    if (run.fx_graph_name.empty()) run.fx_graph_name = RecordedFxGraphName(run);
  }
  std::erase_if(runs, [](const RecordedRun& r) { return r.stages.empty(); });
  return runs;
}

std::string LogKindPass(std::string_view kind, bool* user_pass) {
  *user_pass = false;
  if (!kind.starts_with("torchair_")) return "";
  kind.remove_prefix(9);
  for (std::string_view phase : {"backward_", "joint_", "inference_"}) {
    if (kind.starts_with(phase)) kind.remove_prefix(phase.size());
  }
  if (kind == "after_post_grad_custom_pre_pass" || kind == "after_post_grad_custom_post_pass") {
    *user_pass = true;
    return std::string(kind.substr(6));
  }
  if (kind == "before_post_grad_custom_post_pass") return "view_to_reshape";
  if (kind == "after_fx_graph_optimization") return "post_grad_custom_post_pass";
  if (kind == "after_removing_noop_ops") return "optimize_noop_ops";
  if (kind == "after_resolve_default_stream_markers" || kind == "after_graph_optimization") {
    return "resolve_default_stream_markers";
  }
  return "";
}

std::vector<RecordedRun> RecordedRunsOfLog(const TorchLogs& log, const std::vector<std::string>& names,
                                           const LoadedGraphs& loaded) {
  std::vector<RecordedRun> runs;
  bool open = false;
  for (size_t i = 0; i < log.graphs.size() && i < names.size(); ++i) {
    const TorchLogsGraph& g = log.graphs[i];
    if (g.artifact != "torchair") continue;
    std::shared_ptr<const Graph> graph = names[i].empty() ? nullptr : FindLoaded(loaded, names[i]);
    std::string label = fmt::format("log line {}: {}", g.line, g.title);
    bool starts = g.kind == "torchair_graph" || ((g.kind == "torchair_before_post_grad_custom_pre_pass" ||
                                                  g.kind == "torchair_backward_before_post_grad_custom_pre_pass") &&
                                                 !(open && runs.back().stages.empty()));
    if (starts) {
      open = graph != nullptr;
      if (!open) continue;
      RecordedRun run;
      run.name = names[i];
      run.source = "TorchAir's log lines";
      run.compile_id = g.id.empty() ? "" : log.Qualified(g.rank, g.id);
      run.input = RecordedStage{names[i], "", false, label, graph};
      runs.push_back(std::move(run));
      continue;
    }
    bool user_pass = false;
    std::string pass = LogKindPass(g.kind, &user_pass);
    if (!open || pass.empty() || !graph) continue;
    runs.back().stages.push_back(RecordedStage{names[i], pass, user_pass, label, graph});
  }
  for (RecordedRun& run : runs) run.fx_graph_name = RecordedFxGraphName(run);
  std::erase_if(runs, [](const RecordedRun& r) { return r.stages.empty(); });
  return runs;
}

std::string RecordedFxGraphName(const RecordedRun& run) {
  if (!run.input.graph) return "";
  std::string first;
  for (const Node* n : *run.input.graph) {
    first = n->name();
    break;
  }
  if (first.empty()) return "";
  std::string suffix = "_" + first;
  for (const RecordedStage& stage : run.stages) {
    for (const Node* n : *stage.graph) {
      if (n->op() != OpKind::kCallFunction || StripTorchOps(n->target()) != "air.tagged_event_record.default" ||
          n->args().empty()) {
        continue;
      }
      const Argument& tag = n->args()[0];
      if (tag.kind() != Argument::Kind::kString && tag.kind() != Argument::Kind::kRaw) continue;
      const std::string& text = tag.as_string();
      if (text.size() > suffix.size() && text.ends_with(suffix)) return text.substr(0, text.size() - suffix.size());
    }
  }
  return "";
}

}  // namespace airscope
