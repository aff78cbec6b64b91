// `load DIR` of a TORCH_COMPILE_DEBUG tree: every graph file of it (TorchAir's
// dynamo_out_graph.txt and stage dumps, graph_dump files, Inductor's readable
// graphs), its logs (TorchAir's debug.log, torchdynamo/debug.log, the
// tlparse TORCH_TRACE log) and its capture dumps, as one bundle whose
// recorded TorchAir runs `compare` replays. The tree is read by
// formats/torch_compile_debug.h; this file loads and shows it.
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "repl/cache_state.h"
#include "core/text.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"
#include "repl/recorded_runs.h"

namespace airscope {
namespace {

std::string_view LogKindName(DebugTreeLog::Kind kind) {
  switch (kind) {
    case DebugTreeLog::Kind::kTorchAir: return "TorchAir log";
    case DebugTreeLog::Kind::kTorchDynamo: return "torchdynamo log";
    case DebugTreeLog::Kind::kTrace: return "TORCH_TRACE log";
  }
  return "log";
}

// The tree's path relative to its root, for short messages.
std::string Relative(const std::string& path, const std::string& root) {
  std::filesystem::path rel = std::filesystem::path(path).lexically_relative(root);
  return rel.empty() || rel.native().starts_with("..") ? path : rel.string();
}

// One line per run: its models with their phases' dump counts, and its logs.
void PrintRuns(CommandContext& ctx, const DebugTree& tree) {
  for (const DebugTreeRun& run : tree.runs) {
    std::vector<std::string> parts;
    std::vector<std::string> models;
    for (const std::string& model : run.models) {
      std::map<std::string, size_t> per_phase;
      std::vector<std::string> order;
      for (const DebugTreeGraph& g : tree.graphs) {
        if (g.prefix != run.prefix || g.model != model || g.phase.empty()) continue;
        if (!per_phase.count(g.phase)) order.push_back(g.phase);
        ++per_phase[g.phase];
      }
      std::vector<std::string> phases;
      for (const std::string& p : order) phases.push_back(fmt::format("{} {}", p, per_phase[p]));
      models.push_back(phases.empty() ? model : fmt::format("{} ({})", model, fmt::join(phases, ", ")));
    }
    if (!run.torchair.empty()) {
      parts.push_back(models.empty() ? fmt::format("{}/: no model__K", run.torchair)
                                     : fmt::format("{}/: {}", run.torchair, fmt::join(models, ", ")));
    } else if (!models.empty()) {
      parts.push_back(fmt::format("{}", fmt::join(models, ", ")));
    }
    for (const DebugTreeLog& log : tree.logs) {
      if (log.prefix == run.prefix)
        parts.push_back(fmt::format("{} {}", LogKindName(log.kind), Relative(log.path, tree.path)));
    }
    size_t inductor = 0;
    for (const DebugTreeGraph& g : tree.graphs)
      inductor += g.prefix == run.prefix && g.source == DebugGraphSource::kInductor;
    if (inductor) parts.push_back(fmt::format("torchinductor/: {}", Plural(inductor, "graph", "graphs")));
    std::string name = std::filesystem::path(run.dir).filename().string();
    std::string prefix = run.prefix.empty() ? "" : fmt::format(" (graphs {}...)", run.prefix);
    ctx.out.Print("  {}{}: {}", name.empty() ? run.dir : name, prefix,
                  parts.empty() ? "nothing airscope reads" : fmt::format("{}", fmt::join(parts, "; ")));
  }
}

}  // namespace

Status LoadDebugTree(CommandContext& ctx, const std::string& dir, const std::string& as) {
  Session& session = ctx.session;
  uint64_t max_bytes = session.settings().GetUnsigned("max-file-size");
  AIRSCOPE_ASSIGN_OR_RETURN(DebugTree read, ReadDebugTree(dir, max_bytes));
  auto tree = std::make_shared<const DebugTree>(std::move(read));
  const std::string& shown = ctx.args[0].text;
  std::string prefix = as.empty() ? "" : as + ":";
  auto bundle = std::make_shared<LogBundle>();
  bundle->path = dir;
  bundle->what = "TORCH_COMPILE_DEBUG tree";
  bundle->tree = tree;
  bundle->tree_prefix = prefix;

  // Every graph parsed before anything is registered: a load is all or nothing.
  std::vector<std::pair<std::string, LoadedGraph>> graphs;
  std::vector<std::string> warnings;
  std::set<std::string> taken;
  LoadedGraphs loaded_graphs;
  auto add = [&](std::string name, LoadedGraph loaded, const std::string& from) {
    if (!taken.insert(name).second) {
      warnings.push_back(
          fmt::format("{} (from {}) not loaded: a graph of that name came earlier in the tree", name, from));
      return false;
    }
    loaded_graphs[name] = loaded.graph;
    graphs.emplace_back(std::move(name), std::move(loaded));
    return true;
  };
  for (const DebugTreeGraph& g : tree->graphs) {
    std::string name = prefix + g.name;
    Result<LoadedGraph> loaded = LoadGraphText(g.text, g.path, session.registry(), {}, name);
    if (!loaded.ok()) {
      warnings.push_back(fmt::format("{} not loaded: {}", name, loaded.status().message()));
      continue;
    }
    // GE mode's stages are pbtxt, whose reader may have taken _meta over a desc.
    warnings.insert(warnings.end(), loaded->read_warnings.begin(), loaded->read_warnings.end());
    if (std::string note = InferenceDisagreementNote(name, loaded->inference); !note.empty()) {
      warnings.push_back(std::move(note));
    }
    add(name, std::move(loaded).value(), g.path);
  }
  std::map<std::string, std::shared_ptr<const TraceLog>> trace_of;  // graph -> its log
  std::map<std::string, std::shared_ptr<const TorchLogs>> text_of;
  for (const DebugTreeLog& entry : tree->logs) {
    std::string log_prefix = prefix + entry.prefix;
    std::string rel = Relative(entry.path, tree->path);
    if (entry.kind == DebugTreeLog::Kind::kTrace) {
      Result<TraceLog> parsed = LoadTraceLogFile(entry.path, max_bytes);
      if (!parsed.ok()) {
        warnings.push_back(fmt::format("{} not read: {}", rel, parsed.status().message()));
        continue;
      }
      auto log = std::make_shared<const TraceLog>(std::move(parsed).value());
      for (const TraceProblem& p : log->problems) warnings.push_back(fmt::format("{}:{}: {}", rel, p.line, p.message));
      bundle->traces.push_back({log_prefix, log});
      for (auto& [name, loaded] : TraceLogGraphs(ctx, *log, rel, entry.path, log_prefix, &warnings)) {
        std::string kept = name;
        if (add(std::move(name), std::move(loaded), rel)) trace_of[kept] = log;
      }
      continue;
    }
    Result<TorchLogs> parsed = LoadTorchLogsFile(entry.path, max_bytes);
    if (!parsed.ok()) {
      warnings.push_back(fmt::format("{} not read: {}", rel, parsed.status().message()));
      continue;
    }
    auto log = std::make_shared<const TorchLogs>(std::move(parsed).value());
    bundle->texts.push_back({log_prefix, log});
    std::vector<std::string> names;
    for (auto& [name, loaded] : TorchLogsGraphs(ctx, *log, rel, entry.path, log_prefix, &warnings, &names)) {
      std::string kept = name;
      if (!add(std::move(name), std::move(loaded), rel)) {
        std::replace(names.begin(), names.end(), kept, std::string());
        continue;
      }
      text_of[kept] = log;
    }
    for (RecordedRun& r : RecordedRunsOfLog(*log, names, loaded_graphs)) bundle->recorded.push_back(std::move(r));
  }
  std::vector<RecordedRun> tree_runs = RecordedRunsOfTree(*tree, prefix, loaded_graphs);
  bundle->recorded.insert(bundle->recorded.begin(), tree_runs.begin(), tree_runs.end());
  for (const auto& [name, loaded] : graphs) bundle->graph_names.push_back(name);

  size_t models = 0;
  for (const DebugTreeRun& run : tree->runs) models += run.models.size();
  ctx.out.Styled(Style::kGood, "loaded TORCH_COMPILE_DEBUG tree {} ({}): {}, {}, {}, {}, {}", shown, tree->layout,
                 Plural(tree->runs.size(), "run", "runs"), Plural(models, "TorchAir model", "TorchAir models"),
                 Plural(graphs.size(), "graph", "graphs"),
                 Plural(tree->captures.size(), "capture dump", "capture dumps"),
                 Plural(tree->logs.size(), "log", "logs"));
  PrintRuns(ctx, *tree);
  std::map<std::string, std::vector<std::string>> dumps;  // graph_N -> kinds
  std::vector<std::string> dump_order;
  for (const DebugTreeGraph& g : tree->graphs) {
    if (g.source != DebugGraphSource::kGraphDump) continue;
    std::string base = g.name.substr(0, g.name.rfind(':'));
    if (!dumps.count(base)) dump_order.push_back(base);
    dumps[base].push_back(g.stage + (g.pbtxt ? " (GE pbtxt)" : ""));
  }
  for (const std::string& base : dump_order) {
    ctx.out.Print("  graph_dump {}: {}", base, fmt::join(dumps[base], ", "));
  }
  if (!tree->captures.empty()) {
    std::vector<std::string> caps;
    for (const DebugTreeCapture& c : tree->captures) {
      caps.push_back(fmt::format("{}{} in {}{}", c.prefix, c.fx_graph, c.model, c.json_ok ? "" : " (damaged)"));
    }
    ctx.out.Print("  capture dumps (NPUGraph.debug_dump, one per capture): {}", fmt::join(caps, ", "));
  }
  if (!tree->files.empty()) {
    ctx.out.Print("  also {} (compiles lists them): {}", Plural(tree->files.size(), "file", "files"),
                  tree->files.size() <= 3 ? fmt::format("{}", fmt::join(
                                                                  [&] {
                                                                    std::vector<std::string> n;
                                                                    for (const DebugTreeFile& f : tree->files)
                                                                      n.push_back(Relative(f.path, tree->path));
                                                                    return n;
                                                                  }(),
                                                                  ", "))
                                          : "output code, repro scripts, IR and GE dumps");
  }
  if (!tree->unknown.empty()) {
    std::vector<std::string> shown_files;
    for (size_t i = 0; i < tree->unknown.size() && i < 5; ++i)
      shown_files.push_back(Relative(tree->unknown[i], tree->path));
    ctx.out.Print("  not part of any layout airscope knows ({}): {}{}", tree->unknown.size(),
                  fmt::join(shown_files, ", "), tree->unknown.size() > 5 ? ", ..." : "");
  }
  for (const DebugTreeProblem& p : tree->problems) {
    ctx.out.Styled(Style::kBad, "  warning: {}: {}", Relative(p.path, tree->path), p.message);
  }
  for (const std::string& w : warnings) ctx.out.Styled(Style::kBad, "  warning: {}", w);
  PrintRecordedRuns(ctx, bundle->recorded);

  std::shared_ptr<const TraceLog> first_trace = bundle->traces.empty() ? nullptr : bundle->traces.front().log;
  std::shared_ptr<const TorchLogs> first_text;
  for (const LogBundle::Text& t : bundle->texts) {
    if (!first_text || t.log->torch_lines > first_text->torch_lines) first_text = t.log;
  }
  std::string holder = as.empty() ? DefaultGraphName(dir) : as;
  return RegisterLogGraphs(ctx, std::move(graphs), holder, dir, [&](const std::string& name, CacheState& state) {
    state.bundle = bundle;
    auto t = trace_of.find(name);
    state.trace = t != trace_of.end() ? t->second : first_trace;
    // guards/recompiles read the structured trace when the tree has one.
    auto x = text_of.find(name);
    if (x != text_of.end()) {
      state.logs = x->second;
    } else if (!state.trace) {
      state.logs = first_text;
    }
  });
}

}  // namespace airscope
