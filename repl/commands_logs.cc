// TORCH_LOGS text in the shell: `load` registers every graph of the log as
// `ID:KIND` (0/0:dynamo, 0/0:aot_forward, g1:torchair_graph, ...), and
// `compiles`, `recompiles` and `guards` print what the log holds. The log is
// read by formats/torch_logs.h; this file only shows it.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/scanner.h"
#include "core/text.h"
#include "formats/graph_sizes.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"
#include "repl/recorded_runs.h"

namespace airscope {
namespace {

// A graph's parse error names the log's line and column, not the cut-out text's.
std::string AtLogLocation(const std::string& message, const std::string& shown, const TorchLogsGraph& g) {
  std::string head = shown + ":";
  if (message.rfind(head, 0) != 0) return message;
  size_t p = head.size();
  size_t line = 0;
  size_t column = 0;
  size_t q = p;
  while (q < message.size() && std::isdigit(static_cast<unsigned char>(message[q])))
    line = line * 10 + (message[q++] - '0');
  if (q == p || q >= message.size() || message[q] != ':') return message;
  size_t c = ++q;
  while (q < message.size() && std::isdigit(static_cast<unsigned char>(message[q])))
    column = column * 10 + (message[q++] - '0');
  if (q == c || q >= message.size() || message[q] != ':') return message;
  if (line == 0 || line > g.source_lines.size()) return message;
  int64_t at = static_cast<int64_t>(g.source_columns[line - 1]) + static_cast<int64_t>(column);
  return fmt::format("{}:{}:{}{}", shown, g.source_lines[line - 1], std::max<int64_t>(at, 1), message.substr(q));
}

// What the log holds for one compile (`base` empty: the items without an id).
struct Holdings {
  std::vector<const TorchLogsGraph*> graphs;
  std::vector<const TorchLogsGuards*> guards;
  std::vector<const TorchLogsRecompile*> recompiles;
  std::vector<const TorchLogsGraphBreak*> breaks;
  std::vector<const TorchLogsSymbol*> symbols;
  std::vector<const TorchLogsShapeGuard*> shape_guards;
  std::vector<const TorchLogsCacheLimit*> limits;
  std::vector<const TorchLogsGraphSizes*> sizes;

  bool empty() const {
    return graphs.empty() && guards.empty() && recompiles.empty() && breaks.empty() && symbols.empty() &&
           shape_guards.empty() && limits.empty() && sizes.empty();
  }
};

// What the log holds per (rank, compile id); the items without an id are under (-1, "").
std::map<std::pair<int, std::string>, Holdings> AllHoldings(const TorchLogs& log) {
  std::map<std::pair<int, std::string>, Holdings> all;
  auto key = [](int rank, const std::string& id) {
    return id.empty() ? std::make_pair(-1, std::string()) : std::make_pair(rank, TraceIdBase(id));
  };
  for (const auto& x : log.graphs) all[key(x.rank, x.id)].graphs.push_back(&x);
  for (const auto& x : log.guards) all[key(x.rank, x.id)].guards.push_back(&x);
  for (const auto& x : log.recompiles) all[key(x.rank, x.id)].recompiles.push_back(&x);
  for (const auto& x : log.graph_breaks) all[key(x.rank, x.id)].breaks.push_back(&x);
  for (const auto& x : log.symbols) all[key(x.rank, x.id)].symbols.push_back(&x);
  for (const auto& x : log.shape_guards) all[key(x.rank, x.id)].shape_guards.push_back(&x);
  for (const auto& x : log.cache_limits) all[key(x.rank, x.id)].limits.push_back(&x);
  for (const auto& x : log.graph_sizes) all[key(x.rank, x.id)].sizes.push_back(&x);
  return all;
}

std::string HoldingsSummary(const Holdings& h) {
  std::vector<std::string> parts;
  if (!h.graphs.empty()) {
    std::vector<std::string> kinds;
    for (const TorchLogsGraph* g : h.graphs) kinds.push_back(g->id.empty() ? g->name : g->kind);
    parts.push_back(fmt::format("graphs {}", fmt::join(kinds, ", ")));
  }
  for (const TorchLogsGuards* g : h.guards) {
    parts.push_back(fmt::format("guards ({}, {})", g->count, g->tree ? "tree" : "flat"));
  }
  for (const TorchLogsRecompile* r : h.recompiles) {
    parts.push_back(fmt::format("recompile ({}{})", Plural(r->failures.size(), "failure", "failures"),
                                r->header_missing ? "; its start is before the log's"
                                : r->cut_at_end   ? "; the log ends inside it"
                                                  : ""));
  }
  if (!h.breaks.empty()) parts.push_back(Plural(h.breaks.size(), "graph break", "graph breaks"));
  if (!h.symbols.empty()) parts.push_back(Plural(h.symbols.size(), "symbol", "symbols"));
  if (!h.shape_guards.empty())
    parts.push_back(Plural(h.shape_guards.size(), "shape guard added", "shape guards added"));
  for (const TorchLogsCacheLimit* l : h.limits) parts.push_back(fmt::format("hit {}", l->limit));
  if (!h.sizes.empty()) parts.push_back("graph sizes");
  return parts.empty() ? "(lines only)" : fmt::format("{}", fmt::join(parts, "; "));
}

void PrintHoldingsDetail(CommandContext& ctx, const TorchLogs& log, const Holdings& h) {
  for (const TorchLogsGraph* g : h.graphs) {
    ctx.out.Print("  graph {} ('{}', line {}{})", g->name, g->title, g->line,
                  g->copies ? fmt::format(", printed {} more time(s)", g->copies) : "");
  }
  for (const TorchLogsGuards* g : h.guards) {
    ctx.out.Print("  guards: {} ({}), line {}: guards {}", g->count, g->tree ? "TREE_GUARD_MANAGER" : "flat list",
                  g->line, g->id.empty() ? "" : log.Qualified(g->rank, g->id));
  }
  for (const TorchLogsRecompile* r : h.recompiles) {
    if (r->header_missing) {
      ctx.out.Print("  recompile (line {}): function unknown: {}", r->line, kRecompileHeaderMissing);
    } else {
      ctx.out.Print("  recompile (line {}): function {} in {}", r->line, r->function, r->location);
    }
    if (r->cut_at_end) ctx.out.Print("    ({})", kRecompileCutAtEnd);
    for (const std::string& f : r->failures) ctx.out.Print("    - {}", f);
  }
  for (const TorchLogsGraphBreak* b : h.breaks) {
    ctx.out.Print("  graph break (line {}) at {}{}{}", b->line, b->location.empty() ? "?" : b->location,
                  b->reason.empty() ? "" : ": " + b->reason, GraphBreakNotes(*b, 4));
  }
  for (const TorchLogsSymbol* s : h.symbols) {
    ctx.out.Print("  symbol {} = {} for {}{} (line {})", s->symbol, s->value, s->source,
                  s->range.empty() ? "" : " " + s->range, s->line);
  }
  for (const TorchLogsShapeGuard* s : h.shape_guards) ctx.out.Print("  guard added: {} (line {})", s->expr, s->line);
  for (const TorchLogsCacheLimit* l : h.limits) {
    ctx.out.Print("  hit config.{} (line {}): function {}; last reason: {}", l->limit, l->line, l->function,
                  l->last_reason);
  }
  for (const TorchLogsGraphSizes* s : h.sizes) {
    ctx.out.Print("  graph sizes of {} (line {}): {}", s->title, s->line, fmt::join(s->sizes, "; "));
  }
}

}  // namespace

std::vector<std::pair<std::string, LoadedGraph>> TorchLogsGraphs(CommandContext& ctx, const TorchLogs& log,
                                                                 const std::string& shown, const std::string& path,
                                                                 const std::string& prefix,
                                                                 std::vector<std::string>* warnings,
                                                                 std::vector<std::string>* names) {
  std::vector<std::pair<std::string, LoadedGraph>> graphs;
  names->assign(log.graphs.size(), "");
  // TorchAir prints graphs as FX text, which states no shapes; its `input N:
  // FakeTensor(...)` lines before `graph:` do (npu_fx_compiler.py:641-644),
  // and every graph it prints for that compile has those placeholders.
  std::vector<std::string> inputs;
  for (size_t i = 0; i < log.graphs.size(); ++i) {
    const TorchLogsGraph& g = log.graphs[i];
    std::string name = prefix + g.name;
    Result<LoadedGraph> loaded = LoadGraphText(g.text, shown, ctx.session.registry(), {}, name);
    if (!loaded.ok()) {
      warnings->push_back(fmt::format("{} not loaded: {}", name, AtLogLocation(loaded.status().message(), shown, g)));
      continue;
    }
    if (g.artifact == "torchair") {
      if (g.kind == "torchair_graph") inputs = g.inputs;
      std::vector<const Node*> placeholders;
      for (const Node* n : *loaded->graph) {
        if (n->op() == OpKind::kPlaceholder) placeholders.push_back(n);
      }
      std::vector<InputShape> shapes;
      for (size_t k = 0; k < inputs.size() && k < placeholders.size(); ++k) {
        std::string annotation = FakeTensorAnnotation(inputs[k]);
        if (!annotation.empty() && !placeholders[k]->meta()) shapes.push_back({placeholders[k]->name(), annotation});
      }
      if (!inputs.empty() && inputs.size() != placeholders.size()) {
        warnings->push_back(fmt::format("{}: {} placeholder(s) but {} `input N:` line(s) before it: shapes not given",
                                        name, placeholders.size(), inputs.size()));
      } else if (!shapes.empty()) {
        Result<LoadedGraph> shaped = WithInputShapes(*loaded, shapes, ctx.session.registry());
        if (shaped.ok()) {
          loaded = std::move(shaped);
        } else {
          warnings->push_back(
              fmt::format("{}: the `input N:` shapes do not apply: {}", name, shaped.status().message()));
        }
      }
    }
    if (const TorchLogsGraphSizes* table = GraphSizesTableOf(log, g)) {
      std::unique_ptr<Graph> sized = loaded->graph->Clone();
      std::vector<std::string> unread, contradicted;
      if (ApplyGraphSizes(*sized, *table, &unread, &contradicted) > 0) {
        loaded->inference = InferShapes(*sized, ctx.session.registry());
        loaded->graph = std::move(sized);
      }
      if (!unread.empty()) {
        warnings->push_back(fmt::format("{}: {} line(s) of the graph-sizes table (line {}) not applied: {}", name,
                                        unread.size(), table->line, JoinAtMost(unread, 3)));
      }
      if (!contradicted.empty()) {
        warnings->push_back(
            fmt::format("{}: {} line(s) of the graph-sizes table (line {}) disagree with the "
                        "graph's own shapes, which airscope keeps: {}",
                        name, contradicted.size(), table->line, JoinAtMost(contradicted, 3)));
      }
    }
    loaded->path = path;
    if (std::string note = InferenceDisagreementNote(name, loaded->inference); !note.empty()) {
      warnings->push_back(std::move(note));
    }
    (*names)[i] = name;
    graphs.emplace_back(name, std::move(loaded).value());
  }
  return graphs;
}

Status LoadTorchLogs(CommandContext& ctx, const std::string& path, const std::string& as,
                     std::optional<std::string_view> bytes) {
  Session& session = ctx.session;
  Result<TorchLogs> read = bytes ? Result<TorchLogs>(ParseTorchLogs(*bytes, path))
                                 : LoadTorchLogsFile(path, session.settings().GetUnsigned("max-file-size"));
  AIRSCOPE_ASSIGN_OR_RETURN(TorchLogs parsed, std::move(read));
  auto log = std::make_shared<const TorchLogs>(std::move(parsed));
  const std::string& shown = ctx.args[0].text;
  // Every graph is parsed before anything is registered: a load is all or nothing for the session.
  std::vector<std::string> warnings;
  std::vector<std::string> names;
  std::string prefix = as.empty() ? "" : as + ":";
  std::vector<std::pair<std::string, LoadedGraph>> graphs =
      TorchLogsGraphs(ctx, *log, shown, path, prefix, &warnings, &names);
  size_t copies = 0;
  for (const TorchLogsGraph& g : log->graphs) copies += g.copies;
  auto bundle = std::make_shared<LogBundle>();
  bundle->path = path;
  bundle->what = "TORCH_LOGS text";
  bundle->texts.push_back({prefix, log});
  LoadedGraphs loaded_graphs;
  for (const auto& [name, loaded] : graphs) {
    bundle->graph_names.push_back(name);
    loaded_graphs[name] = loaded.graph;
  }
  bundle->recorded = RecordedRunsOfLog(*log, names, loaded_graphs);
  std::string ranks;
  if (!log->ranks.empty()) {
    std::vector<std::string> names;
    for (int r : log->ranks) names.push_back(fmt::format("{}", r));
    ranks = fmt::format(", ranks {}", fmt::join(names, ", "));
  }
  ctx.out.Styled(Style::kGood, "loaded TORCH_LOGS log {}: {} lines ({}), {}, {}{}", shown, log->lines,
                 log->layouts.empty() ? "no log lines" : fmt::format("{}", fmt::join(log->layouts, ", ")),
                 Plural(log->compiles.size(), "compile", "compiles"), Plural(graphs.size(), "graph", "graphs"), ranks);
  std::vector<std::string> found;
  auto note = [&found](size_t n, std::string_view one, std::string_view many) {
    if (n) found.push_back(Plural(n, one, many));
  };
  note(log->guards.size(), "guard set", "guard sets");
  note(log->recompiles.size(), "recompile message", "recompile messages");
  note(log->graph_breaks.size(), "graph break", "graph breaks");
  note(log->symbols.size(), "symbol created", "symbols created");
  note(log->shape_guards.size(), "shape guard added", "shape guards added");
  note(log->cache_limits.size(), "cache-limit warning", "cache-limit warnings");
  note(log->graph_sizes.size(), "graph-sizes table", "graph-sizes tables");
  note(log->events.size(), "TorchAir runtime message", "TorchAir runtime messages");
  if (!found.empty()) ctx.out.Print("  also: {}", fmt::join(found, ", "));
  if (copies)
    ctx.out.Print("  {} reprinted graph(s) not loaded twice (the `graph` artifact repeats graph_code)", copies);
  if (log->tabular_graphs) {
    ctx.out.Print("  {} graph table(s) (TORCH_LOGS=graph with tabulate installed) not read: graph_code prints the code",
                  log->tabular_graphs);
  }
  if (!log->unread_artifacts.empty()) {
    std::vector<std::string> unread;
    for (const auto& [artifact, lines] : log->unread_artifacts)
      unread.push_back(fmt::format("{} ({})", artifact, lines));
    ctx.out.Print("  artifacts not read (lines): {}", fmt::join(unread, ", "));
  }
  for (const TorchLogsProblem& p : log->problems)
    ctx.out.Styled(Style::kBad, "  warning: {}:{}: {}", shown, p.line, p.message);
  if (log->more_problems) ctx.out.Styled(Style::kBad, "  ... and {} more warning(s)", log->more_problems);
  for (const std::string& w : warnings) ctx.out.Styled(Style::kBad, "  warning: {}", w);
  PrintRecordedRuns(ctx, bundle->recorded);
  return RegisterLogGraphs(ctx, std::move(graphs), as.empty() ? DefaultGraphName(path) : as, path,
                           [&log, &bundle](const std::string&, CacheState& state) {
                             state.logs = log;
                             state.bundle = bundle;
                           });
}

void PrintRecordedRuns(CommandContext& ctx, const std::vector<RecordedRun>& runs) {
  if (runs.empty()) return;
  std::vector<std::string> shown;
  for (const RecordedRun& r : runs)
    shown.push_back(fmt::format("{} ({} stage{})", r.name, r.stages.size(), r.stages.size() == 1 ? "" : "s"));
  ctx.out.Print("  recorded TorchAir stages, for compare: {}", fmt::join(shown, ", "));
}

Status ShowLogCompiles(CommandContext& ctx, const TorchLogs& log, const Word* which,
                       const std::map<std::string, std::string>& times) {
  if (which) {
    auto all = AllHoldings(log);
    if (which->text == "-") {
      Holdings h = all[{-1, ""}];
      ctx.out.Styled(Style::kHeading, "without a compile id:");
      PrintHoldingsDetail(ctx, log, h);
      return Status::Ok();
    }
    // Any other id is the one index's (compile_index.h, CompilesCommand).
    return UsageError("compiles [ID|-]");
  }
  auto all = AllHoldings(log);
  ctx.out.Print("{} in {}", Plural(log.compiles.size(), "compile", "compiles"), log.path);
  size_t width = 6;
  for (const TorchLogsCompile& c : log.compiles) width = std::max(width, log.Qualified(c.rank, c.id).size());
  if (!log.compiles.empty()) ctx.out.Print("  {:<{}}  {:<36}  {}", "id", width, "function", "the log holds");
  for (const TorchLogsCompile& c : log.compiles) {
    std::string function = c.function.empty() ? "?" : fmt::format("{} {}", c.function, c.location);
    std::string attempts = c.attempts > 1 ? fmt::format(" ({} attempts)", c.attempts) : "";
    std::string id = log.Qualified(c.rank, c.id);
    ctx.out.Print("  {:<{}}  {:<36}  {}{}", id, width, function, HoldingsSummary(all[{c.rank, c.id}]), attempts);
    if (auto it = times.find(id); it != times.end())
      ctx.out.Styled(Style::kDim, "  {:<{}}  time: {}", "", width, it->second);
  }
  Holdings loose = all[{-1, ""}];
  if (!loose.empty())
    ctx.out.Print("  {:<{}}  {:<36}  {}", "-", width, "(no compile id printed)", HoldingsSummary(loose));
  if (!log.events.empty()) {
    ctx.out.Styled(Style::kHeading, "TorchAir AclGraph runtime, per fx graph:");
    std::vector<std::string> order;
    std::map<std::string, std::vector<const TorchAirEvent*>> by_graph;
    for (const TorchAirEvent& e : log.events) {
      if (!by_graph.count(e.fx_graph)) order.push_back(e.fx_graph);
      by_graph[e.fx_graph].push_back(&e);
    }
    for (const std::string& fx : order) {
      std::vector<std::string> seen;
      for (const TorchAirEvent* e : by_graph[fx]) {
        seen.push_back(e->key.empty() ? fmt::format("{} (line {})", e->kind, e->line)
                                      : fmt::format("{} key {} (line {})", e->kind, e->key, e->line));
      }
      ctx.out.Print("  {}: {}", fx.empty() ? "(no fx graph named)" : fx, fmt::join(seen, ", "));
    }
  }
  return Status::Ok();
}

Status ShowLogRecompiles(CommandContext& ctx, const TorchLogs& log) {
  if (log.recompiles.empty() && log.cache_limits.empty()) {
    ctx.out.Print("no recompile messages in {}", log.path);
    return Status::Ok();
  }
  // As Dynamo printed them, in log order (guards.py get_and_maybe_log_recompilation_reasons;
  // convert_frame.py's cache-limit warning), each with its compile id as the log's prefix had it.
  size_t r = 0;
  size_t l = 0;
  while (r < log.recompiles.size() || l < log.cache_limits.size()) {
    bool recompile = l == log.cache_limits.size() ||
                     (r < log.recompiles.size() && log.recompiles[r].line < log.cache_limits[l].line);
    if (recompile) {
      const TorchLogsRecompile& x = log.recompiles[r++];
      std::string id = x.id.empty() ? "" : fmt::format("[{}] ", log.Qualified(x.rank, x.id));
      if (x.header_missing) {
        ctx.out.Print("{}Recompiling function ? (line {}: {})", id, x.line, kRecompileHeaderMissing);
      } else {
        ctx.out.Print("{}Recompiling function {} in {}", id, x.function, x.location);
      }
      for (const std::string& d : x.details) ctx.out.Print("    {}", d);
      if (x.cut_at_end) ctx.out.Print("    ({})", kRecompileCutAtEnd);
    } else {
      const TorchLogsCacheLimit& x = log.cache_limits[l++];
      std::string id = x.id.empty() ? "" : fmt::format("[{}] ", log.Qualified(x.rank, x.id));
      ctx.out.Print("{}torch._dynamo hit config.{}", id, x.limit);
      ctx.out.Print("   function: {}", x.function);
      ctx.out.Print("   last reason: {}", x.last_reason);
    }
  }
  return Status::Ok();
}

Status ShowLogGuards(CommandContext& ctx, const TorchLogs& log, const Word* which) {
  auto show = [&ctx, &log](const TorchLogsGuards& g) {
    std::string id = g.id.empty() ? "no compile id" : log.Qualified(g.rank, g.id);
    ctx.out.Styled(Style::kHeading, "[{}] {} guard(s), {} (line {})", id, g.count,
                   g.tree ? "TREE_GUARD_MANAGER" : "flat list", g.line);
    ctx.out.AddBlock(g.text);
  };
  if (!which) {
    if (log.guards.empty()) return Status::Errorf("no guards in {} (TORCH_LOGS=guards prints them)", log.path);
    for (const TorchLogsGuards& g : log.guards) show(g);
    return Status::Ok();
  }
  if (const TorchLogsGuards* g = log.FindGuards(which->text)) {
    show(*g);
    return Status::Ok();
  }
  std::vector<std::string> ids;
  for (const TorchLogsGuards& g : log.guards) ids.push_back(g.id.empty() ? "(no id)" : log.Qualified(g.rank, g.id));
  return ColumnErrorf(which->column, "no guards for compile id '{}' in the log (guards for: {})", which->text,
                      ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", ")));
}

}  // namespace airscope
