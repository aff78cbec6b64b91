// TORCH_TRACE logs in the shell: `load FILE.log` registers each graph of the
// log as `ID:STAGE` (e.g. 0/0:aot_forward_graph); `compiles`, `recompiles` and
// `guards ID` read the parsed log shared by those graphs.
#include <fmt/format.h>

#include "repl/cache_state.h"
#include "repl/graph_loader.h"
#include "repl/interpreter.h"

namespace airscope {

// commands_cache.cc
Status GuardsOfFrame(CommandContext& ctx, const Frame& frame, const Word* which);
Status GuardsCheck(CommandContext& ctx, const Frame& frame, std::span<const Word> spec_words);
Status GuardsDiff(CommandContext& ctx, const Frame& frame, const Word& a, const Word& b);

namespace {

std::string Count(int64_t value) { return value < 0 ? "-" : fmt::format("{}", value); }

const TraceLog* CurrentTrace(const Session& session) {
  const CacheState* state = FindCacheState(session);
  return state && state->trace ? state->trace.get() : nullptr;
}

Status Compiles(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("compiles");
  const TraceLog* log = CurrentTrace(ctx.session);
  if (!log) {
    const CacheState* state = FindCacheState(ctx.session);
    if (!state || !state->frame) return Status::Error("no compiles: load a TORCH_TRACE log, or call the current graph");
    for (const auto& e : state->frame->entries()) {
      ctx.out.Print("[{}] forward  success  guards {}  hits {}", e->compile_id, e->guards.count(), e->hits);
    }
    return Status::Ok();
  }
  ctx.out.Print("{} compile(s) in {}", log->compiles.size(), log->path);
  ctx.out.Print("  {:<6} {:<8} {:>4} {:>5} {:>6} {:>6} {:>6}  {}", "id", "status", "ops", "nodes", "inputs", "cache",
                "guards", "function");
  for (const TraceCompile& c : log->compiles) {
    std::string repeats = c.starts > 1 ? fmt::format(" ({} runs)", c.starts) : "";
    ctx.out.Print("  {:<6} {:<8} {:>4} {:>5} {:>6} {:>6} {:>6}  {} {}{}", c.id, c.status, Count(c.graph_op_count),
                  Count(c.graph_node_count), Count(c.graph_input_count), Count(c.cache_size), Count(c.guard_count),
                  c.function.empty() ? "?" : c.function, c.filename, repeats);
    if (!c.reason.empty()) ctx.out.Styled(Style::kBad, "         {}: {}", c.status, c.reason);
  }
  ctx.out.Print("cache artifacts: fx_graph_cache hit {} miss {} bypass {}; aotautograd_cache hit {} miss {} bypass {}",
                log->CountArtifacts("fx_graph", "hit"), log->CountArtifacts("fx_graph", "miss"),
                log->CountArtifacts("fx_graph", "bypass"), log->CountArtifacts("aotautograd", "hit"),
                log->CountArtifacts("aotautograd", "miss"), log->CountArtifacts("aotautograd", "bypass"));
  return Status::Ok();
}

Status Recompiles(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("recompiles");
  const TraceLog* log = CurrentTrace(ctx.session);
  if (log) {
    if (log->recompile_reasons.empty()) {
      ctx.out.Print("no recompile_reasons in {}", log->path);
    }
    for (const auto& [id, reason] : log->recompile_reasons) ctx.out.Print("[{}] {}", id, reason);
    return Status::Ok();
  }
  const CacheState* state = FindCacheState(ctx.session);
  if (!state || state->recompiles.empty()) {
    ctx.out.Print("no recompiles");
    return Status::Ok();
  }
  // One guard failure a line, as Dynamo's recompile message lists them.
  for (const CacheState::Recompile& recompile : state->recompiles) {
    ctx.out.Print("[{}] triggered by:", recompile.compile_id);
    for (const std::string& failure : recompile.failures) ctx.out.Print("    - {}", failure);
  }
  return Status::Ok();
}

}  // namespace

Status GuardsCommand(CommandContext& ctx) {
  const bool check = !ctx.args.empty() && ctx.args[0].text == "check";
  const bool diff = !ctx.args.empty() && ctx.args[0].text == "diff";
  if (diff && ctx.args.size() != 3) return UsageError("guards diff ENTRY ENTRY");
  if (!check && !diff && ctx.args.size() > 1) return UsageError("guards [ENTRY|ID] | guards check NAME=SPEC ... | guards diff A B");
  const Word* which = ctx.args.empty() ? nullptr : &ctx.args[0];
  if (const TraceLog* log = CurrentTrace(ctx.session)) {
    if (!which) return Status::Errorf("usage: guards ID (a compile id of the log, e.g. {})",
                                      log->compiles.empty() ? "0/0" : log->compiles.front().id);
    auto cpp = log->cpp_guards.find(which->text);
    if (cpp != log->cpp_guards.end()) {
      ctx.out.Styled(Style::kHeading, "[{}] dynamo_cpp_guards_str", which->text);
      ctx.out.AddBlock(cpp->second);
      return Status::Ok();
    }
    auto py = log->dynamo_guards.find(which->text);
    if (py != log->dynamo_guards.end()) {
      ctx.out.Styled(Style::kHeading, "[{}] dynamo_guards", which->text);
      ctx.out.AddBlock(py->second);
      return Status::Ok();
    }
    std::vector<std::string> ids;
    for (const auto& [id, text] : log->cpp_guards) ids.push_back(id);
    for (const auto& [id, text] : log->dynamo_guards) {
      if (!log->cpp_guards.count(id)) ids.push_back(id);
    }
    return Status::Errorf("column {}: no guards for compile id '{}' in the log (guards for: {})", which->column,
                          which->text, ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", ")));
  }
  const CacheState* state = FindCacheState(ctx.session);
  if (!state || !state->frame || state->frame->entries().empty()) {
    Result<Session::Entry*> entry = ctx.session.Current();
    if (!entry.ok()) return entry.status();
    return Status::Error("no cache entries yet: call the graph first (call NAME=SPEC ...)");
  }
  if (check) return GuardsCheck(ctx, *state->frame, std::span<const Word>(ctx.args).subspan(1));
  if (diff) return GuardsDiff(ctx, *state->frame, ctx.args[1], ctx.args[2]);
  return GuardsOfFrame(ctx, *state->frame, which);
}

Status LoadTraceLog(CommandContext& ctx, const std::string& path) {
  Session& session = ctx.session;
  Result<TraceLog> parsed = LoadTraceLogFile(path, session.settings().GetUnsigned("max-file-size"));
  if (!parsed.ok()) return parsed.status();
  auto log = std::make_shared<const TraceLog>(std::move(parsed).value());
  const std::string& shown = ctx.args[0].text;
  // Every graph is parsed before anything is registered: a load is all or nothing for the session.
  std::vector<std::pair<std::string, LoadedGraph>> graphs;
  std::vector<std::string> warnings;
  std::map<std::string, int> seen;
  for (const TraceGraph& g : log->graphs) {
    std::string name = fmt::format("{}:{}", g.compile_id.empty() ? "-" : g.compile_id, g.stage);
    int n = ++seen[name];
    if (n > 1) name += fmt::format("#{}", n);
    Result<LoadedGraph> loaded =
        LoadGraphText(g.text, fmt::format("{}:{}", shown, g.line), session.registry(), {}, name);
    if (!loaded.ok()) {
      warnings.push_back(fmt::format("{} not loaded: {}", name, loaded.status().message()));
      continue;
    }
    loaded->path = path;
    graphs.emplace_back(name, std::move(loaded).value());
  }
  ctx.out.Styled(Style::kGood, "loaded TORCH_TRACE log {}: {} lines, {} records, {} compile(s), {} graph(s)", shown,
                 log->lines, log->records, log->compiles.size(), graphs.size());
  for (const TraceProblem& p : log->problems) ctx.out.Styled(Style::kBad, "  warning: {}:{}: {}", shown, p.line, p.message);
  for (const std::string& w : warnings) ctx.out.Styled(Style::kBad, "  warning: {}", w);
  if (graphs.empty()) {
    // The log's compiles, guards and reasons still need a home: an empty graph named after the file.
    LoadedGraph holder;
    holder.graph = std::make_unique<Graph>(DefaultGraphName(path));
    holder.path = path;
    holder.format = GraphFormat::kReadable;
    graphs.emplace_back(DefaultGraphName(path), std::move(holder));
    ctx.out.Styled(Style::kBad, "  no graph of the log loaded: '{}' (an empty graph) holds its compiles", graphs[0].first);
  }
  std::string first;
  for (auto& [name, loaded] : graphs) {
    ctx.out.Print("  {:<36} {:>5} nodes", name, loaded.graph->size());
    bool replaced = false;
    session.AddGraph(name, std::move(loaded), &replaced);
    Result<Session::Entry*> entry = session.Current();
    if (entry.ok()) {
      (*entry)->cache = std::make_shared<CacheState>();
      (*entry)->cache->trace = log;
    }
    if (first.empty()) first = name;
  }
  AIRSCOPE_RETURN_IF_ERROR(session.Use(first));
  ctx.out.Print("using graph '{}' (use ID:STAGE for another)", first);
  return Status::Ok();
}

void RegisterTraceCommands(CommandTable& table) {
  table.Add({"compiles", "compiles", "every compile of a TORCH_TRACE log: id, status, sizes, cache_size, guard_count",
             "For a graph loaded from a TORCH_TRACE log: each compile id (frame/compile) with its status (success,\n"
             "restart, failure and the reason), graph op/node/input counts, cache_size and guard_count from\n"
             "compilation_metrics, and the fx_graph_cache / aotautograd_cache hits, misses and bypasses.\n"
             "For a simulated frame: its compiled entries.",
             Compiles, nullptr});
  table.Add({"recompiles", "recompiles", "the recompile reasons (of a TORCH_TRACE log, or of the current frame)",
             "Lists recompile_reasons records of the log the current graph came from, or the recompiles the\n"
             "current frame has done with the guard failures that caused them.",
             Recompiles, nullptr});
}

}  // namespace airscope
