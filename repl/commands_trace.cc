// TORCH_TRACE logs in the shell: `load FILE.log` registers each graph of the
// log as `ID:STAGE` (e.g. 0/0:aot_forward_graph); `load DIR` does so for
// every rank's log of a distributed run and shows where the ranks diverge;
// `compiles`, `recompiles` and `guards ID` read the parsed log shared by
// those graphs (or the TORCH_LOGS text a graph came from: commands_logs.cc).
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/scanner.h"
#include "core/text.h"
#include "formats/rank_divergence.h"
#include "repl/cache_state.h"
#include "repl/compile_index.h"
#include "repl/graph_loader.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"
#include "repl/rank_log_graphs.h"

namespace airscope {

// commands_cache.cc
Status GuardsOfFrame(CommandContext& ctx, const Frame& frame, const Word* which);
Status GuardsCheck(CommandContext& ctx, const Frame& frame, std::span<const Word> spec_words);
Status GuardsDiff(CommandContext& ctx, const Frame& frame, const Word& a, const Word& b);

namespace {

const TraceLog* CurrentTrace(const Session& session) {
  const CacheState* state = FindCacheState(session);
  return state && state->trace ? state->trace.get() : nullptr;
}

const TorchLogs* CurrentLogs(const Session& session) {
  const CacheState* state = FindCacheState(session);
  return state && state->logs ? state->logs.get() : nullptr;
}

}  // namespace

Status CompilesCommand(CommandContext& ctx) {
  const bool all_phases = ctx.flags.Has("--phases");  // a compile's whole phase tree, however long
  if (ctx.args.size() > 1 || (all_phases && ctx.args.empty())) return UsageError("compiles [ID [--phases]]");
  const Word* which = ctx.args.empty() ? nullptr : &ctx.args[0];
  // One index per compile id across everything the load brought (compile_index.h).
  std::map<std::string, std::string> times;  // compile id -> its phases' times, for the lists
  std::string prefix;                        // of the current log's names (load ... as NAME)
  if (const CacheState* state = FindCacheState(ctx.session); state && state->bundle) {
    if (which && which->text != "-") return ShowIndexCompile(ctx, *state->bundle, *which, all_phases);
    if (!which && state->bundle->tree) return ShowIndexCompiles(ctx, *state->bundle);
    // The list shows the current graph's own log, whose ids the index has with its prefix.
    for (const LogBundle::Trace& t : state->bundle->traces) {
      if (t.log == state->trace) prefix = t.prefix;
    }
    for (const LogBundle::Text& t : state->bundle->texts) {
      if (t.log == state->logs) prefix = t.prefix;
    }
    for (const IndexCompile& c : BuildCompileIndex(*state->bundle, ctx.session).compiles) {
      std::string time = PhaseSummary(c);
      if (time != "-" && c.id.starts_with(prefix)) times[c.id.substr(prefix.size())] = time;
    }
  }
  if (const TorchLogs* logs = CurrentLogs(ctx.session)) return ShowLogCompiles(ctx, *logs, which, times);
  const TraceLog* log = CurrentTrace(ctx.session);
  if (!log) {
    const CacheState* state = FindCacheState(ctx.session);
    if (!state || !state->frame) {
      return Status::Error("no compiles: load a TORCH_TRACE log or TORCH_LOGS text, or call the current graph");
    }
    if (which) return UsageError("compiles (a simulated frame: its entries, see cache ENTRY)");
    for (const auto& e : state->frame->entries()) {
      ctx.out.Print("[{}] forward  success  guards {}  hits {}", e->compile_id, e->guards.count(), e->hits);
    }
    return Status::Ok();
  }
  if (which) {
    LogBundle alone;
    alone.path = log->path;
    alone.what = "TORCH_TRACE log";
    alone.traces.push_back({"", FindCacheState(ctx.session)->trace});
    return ShowIndexCompile(ctx, alone, *which, all_phases);
  }
  size_t width = 6;
  for (const TraceCompile& c : log->compiles) width = std::max(width, c.id.size());
  ctx.out.Print("{} compile(s) in {}{}", log->compiles.size(), log->path,
                log->rank >= 0 ? fmt::format(" (rank {})", log->rank) : "");
  ctx.out.Print("  {:<{}} {:<8} {:>4} {:>5} {:>6} {:>6} {:>6}  {}", "id", width, "status", "ops", "nodes", "inputs",
                "cache", "guards", "function");
  for (const TraceCompile& c : log->compiles) {
    std::string repeats = c.starts > 1 ? fmt::format(" ({} runs)", c.starts) : "";
    std::string attempts = c.attempts > 1 ? fmt::format(" ({} attempts)", c.attempts) : "";
    ctx.out.Print("  {:<{}} {:<8} {:>4} {:>5} {:>6} {:>6} {:>6}  {} {}{}{}", c.id, width, c.status,
                  CountOrDash(c.graph_op_count), CountOrDash(c.graph_node_count), CountOrDash(c.graph_input_count),
                  CountOrDash(c.cache_size), CountOrDash(c.guard_count), c.function.empty() ? "?" : c.function,
                  c.filename, repeats, attempts);
    if (!c.reason.empty())
      ctx.out.Styled(Style::kBad, "         {}: {}", c.status, IndentLinesAfterFirst(c.reason, 11));
    if (auto it = times.find(c.id); it != times.end())
      ctx.out.Styled(Style::kDim, "  {:<{}} time: {}", "", width, it->second);
  }
  ctx.out.Print("cache artifacts: fx_graph_cache hit {} miss {} bypass {}; aotautograd_cache hit {} miss {} bypass {}",
                log->CountArtifacts("fx_graph", "hit"), log->CountArtifacts("fx_graph", "miss"),
                log->CountArtifacts("fx_graph", "bypass"), log->CountArtifacts("aotautograd", "hit"),
                log->CountArtifacts("aotautograd", "miss"), log->CountArtifacts("aotautograd", "bypass"));
  std::vector<const TraceGuardAdded*> without_id;
  for (const TraceGuardAdded& g : log->guards_added) {
    if (g.compile_id.empty()) without_id.push_back(&g);
  }
  const size_t with_id = log->guards_added.size() - without_id.size();
  if (!log->output_code.empty() || !log->specializations.empty() || with_id > 0) {
    ctx.out.Print(
        "also: {} inductor output code, {} symbolic shape specialization(s), {} guard(s) added "
        "(compiles ID shows them)",
        log->output_code.size(), log->specializations.size(), with_id);
  }
  // torch.export logs its program and the guards its tracing added without a compile id.
  std::vector<std::string> graph_names = TraceGraphNames(*log, prefix);
  for (const TraceExport& e : log->exports) {
    std::string graph = "none (no graph in its text)";
    for (size_t i = 0; i < log->graphs.size(); ++i) {
      if (log->graphs[i].line == e.line) graph = graph_names[i];
    }
    ctx.out.Print("{}", DescribeExport(e, fmt::format("graph {}; ", graph)));
  }
  if (!without_id.empty()) {
    ctx.out.Print("{} without a compile id (torch.export's, or logged before Dynamo started):",
                  Plural(without_id.size(), "guard added", "guards added"));
    for (const TraceGuardAdded* g : without_id) ctx.out.Print("  {}", DescribeGuardAdded(*g));
  }
  return Status::Ok();
}

namespace {

Status Recompiles(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("recompiles");
  if (const TorchLogs* logs = CurrentLogs(ctx.session)) return ShowLogRecompiles(ctx, *logs);
  const TraceLog* log = CurrentTrace(ctx.session);
  if (log) {
    if (log->recompiles.empty()) {
      ctx.out.Print("no recompile_reasons in {}", log->path);
    }
    // One block per record, as Dynamo logs it (guards.py,
    // get_and_maybe_log_recompilation_reasons; the record carries its reasons).
    for (const TraceRecompile& r : log->recompiles) {
      const TraceCompile* c = log->FindCompile(r.compile_id);
      std::string function = c && !c->function.empty() ? c->function : "?";
      std::string where = c && !c->filename.empty() ? c->filename : "?";
      ctx.out.Print("[{}] Recompiling function {} in {}", r.compile_id, function, where);
      ctx.out.Print("    triggered by the following guard failure(s):");
      for (const std::string& reason : r.reasons) ctx.out.Print("    - {}", reason);
    }
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

// A directory's per-rank logs: `dedicated_log_torch_trace_rank_<N>[_suffix].log`
// (torch/_logging/_internal.py LazyTraceHandler names them so; tlparse reads
// the same pattern).
std::vector<std::pair<int, std::string>> RankLogFiles(const std::string& dir) {
  std::vector<std::pair<int, std::string>> files;
  std::error_code error;
  constexpr std::string_view kPrefix = "dedicated_log_torch_trace_rank_";
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || !entry.is_regular_file(error)) continue;
    size_t digits = 0;
    while (kPrefix.size() + digits < name.size() &&
           std::isdigit(static_cast<unsigned char>(name[kPrefix.size() + digits]))) {
      ++digits;
    }
    if (digits == 0 || digits > 6) continue;
    files.emplace_back(std::stoi(name.substr(kPrefix.size(), digits)), entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string RankList(const std::vector<int>& ranks) {
  std::vector<std::string> names;
  for (int r : ranks) names.push_back(fmt::format("{}", r));
  return fmt::format("{}", fmt::join(names, ", "));
}

// At most `width` characters of a line that differs from another at
// `first_difference`: from its start when that is on screen, else from a
// little before it, "..." marking what is cut (a guard line's difference is
// often past column 160: the two lines shown must not look the same).
std::string Window(std::string_view line, size_t first_difference, size_t width) {
  constexpr size_t kBefore = 40;
  std::string out;
  size_t start = 0;
  if (first_difference + 20 > width) {
    start = first_difference - kBefore;
    out = "...";
  }
  out += line.substr(start, width);
  if (start + width < line.size()) out += "...";
  return out;
}

void PrintLineDiffs(CommandOutput& out, std::string_view what, std::string_view unit,
                    const std::vector<RankLineDiff>& diffs) {
  constexpr size_t kWidth = 160;
  for (const RankLineDiff& d : diffs) {
    out.Styled(Style::kBad, "  {} of {}: rank {} differs from rank {} at {} {}:", what, d.id, d.rank_b, d.rank_a, unit,
               d.line);
    size_t at = std::mismatch(d.a.begin(), d.a.begin() + static_cast<std::ptrdiff_t>(std::min(d.a.size(), d.b.size())),
                              d.b.begin())
                    .first -
                d.a.begin();
    out.Print("    rank {}: {}", d.rank_a, Window(d.a, at, kWidth));
    out.Print("    rank {}: {}", d.rank_b, Window(d.b, at, kWidth));
  }
}

}  // namespace

void PrintRankDivergence(CommandOutput& out, const std::vector<std::pair<int, const TraceLog*>>& logs) {
  RankDivergence d = CompareRanks(logs);
  out.Styled(Style::kHeading, "where the ranks diverge:");
  size_t ids = 0;
  for (const auto& [ranks, list] : d.compile_ids) ids += list.size();
  if (d.compile_ids.size() == 1 && d.compile_ids[0].first == d.ranks) {
    out.Print("  compile ids: the same {} on every rank", ids);
  } else {
    for (const auto& [ranks, list] : d.compile_ids) {
      std::string who = ranks == d.ranks
                            ? "on every rank"
                            : fmt::format("only on rank{} {}", ranks.size() > 1 ? "s" : "", RankList(ranks));
      out.Print("  compile ids {}: {}", who, fmt::join(list, ", "));
    }
  }
  PrintLineDiffs(out, "guards", "guard line", d.guards);
  if (d.guards.empty()) {
    out.Print(
        "  guards: the same on every rank that logged them ({} compile id(s) compared; object ids and the "
        "guard latency line aside)",
        d.guards_compared);
  }
  PrintLineDiffs(out, "graph", "line", d.graphs);
  if (d.graphs.empty()) {
    out.Print("  graphs: the same on every rank that logged them ({} compared)", d.graphs_compared);
  }
  PrintLineDiffs(out, "recompile reasons", "reason", d.recompiles);
  if (d.recompiles.empty()) {
    out.Print("  recompile reasons: the same on every rank that logged them ({} compile id(s) compared)",
              d.recompiles_compared);
  }
  if (d.latencies_compared == 0) return;
  out.Styled(Style::kHeading, "timings (not a divergence):");
  for (const RankLatency& l : d.latencies) {
    std::vector<std::string> parts;
    for (const auto& [rank, us] : l.per_rank) parts.push_back(fmt::format("rank {} {:.2f} us", rank, us));
    out.Print("  guard latency of {}: {}", l.id, fmt::join(parts, ", "));
  }
  if (d.latencies.empty()) {
    out.Print(
        "  guard latency: {} compile id(s) compared, none past the threshold (slowest >= {:g}x the fastest and "
        ">= {:g} us more); largest spread {:.1f}x",
        d.latencies_compared, RankDivergence::kLatencyRatio, RankDivergence::kLatencyMinDiffUs, d.largest_ratio);
  }
}

Status GuardsCommand(CommandContext& ctx) {
  const bool check = !ctx.args.empty() && ctx.args[0].text == "check";
  const bool diff = !ctx.args.empty() && ctx.args[0].text == "diff";
  if (diff && ctx.args.size() != 3) return UsageError("guards diff ENTRY ENTRY");
  if (!check && !diff && ctx.args.size() > 1)
    return UsageError("guards [ENTRY|ID] | guards check NAME=SPEC ... | guards diff A B");
  const Word* which = ctx.args.empty() ? nullptr : &ctx.args[0];
  if (const TorchLogs* logs = CurrentLogs(ctx.session)) return ShowLogGuards(ctx, *logs, which);
  if (const TraceLog* log = CurrentTrace(ctx.session)) {
    if (!which)
      return Status::Errorf("usage: guards ID (a compile id of the log, e.g. {})",
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
    return ColumnErrorf(which->column, "no guards for compile id '{}' in the log (guards for: {})", which->text,
                        ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", ")));
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

Status RegisterLogGraphs(CommandContext& ctx, std::vector<std::pair<std::string, LoadedGraph>> graphs,
                         const std::string& holder, const std::string& path,
                         const std::function<void(const std::string& name, CacheState&)>& attach) {
  Session& session = ctx.session;
  if (graphs.empty()) {
    // The log's compiles, guards and reasons still need a home: an empty graph.
    LoadedGraph empty;
    empty.graph = std::make_unique<Graph>(holder);
    empty.path = path;
    empty.format = FindInputFormat("readable");
    graphs.emplace_back(holder, std::move(empty));
    ctx.out.Styled(Style::kDim, "  no graph loaded from the log: '{}' (an empty graph) holds what it has", holder);
  }
  std::string first;
  // A 64-rank job registers thousands of graphs: the first few, then a count.
  constexpr size_t kListed = 40;
  size_t listed = 0;
  for (auto& [name, loaded] : graphs) {
    if (listed++ < kListed) ctx.out.Print("  {:<36} {:>5} nodes", name, loaded.graph->size());
    bool replaced = false;
    session.AddGraph(name, std::move(loaded), &replaced);
    Result<Session::Entry*> entry = session.Current();
    if (entry.ok()) {
      (*entry)->cache = std::make_shared<CacheState>();
      attach(name, *(*entry)->cache);
    }
    if (first.empty()) first = name;
  }
  if (graphs.size() > kListed) {
    ctx.out.Print("  ... and {} more graph(s) ({} in all; graphs lists them)", graphs.size() - kListed, graphs.size());
  }
  AIRSCOPE_RETURN_IF_ERROR(session.Use(first));
  ctx.out.Print("using graph '{}' (use another by its name: ID:KIND)", first);
  return Status::Ok();
}

// Every graph of a TORCH_TRACE log, parsed before anything is registered (a
// load is all or nothing for the session); `prefix` goes before each name.
std::vector<std::pair<std::string, LoadedGraph>> TraceLogGraphs(CommandContext& ctx, const TraceLog& log,
                                                                const std::string& shown, const std::string& path,
                                                                const std::string& prefix,
                                                                std::vector<std::string>* warnings) {
  std::vector<std::pair<std::string, LoadedGraph>> graphs;
  std::vector<std::string> names = TraceGraphNames(log, prefix);
  for (size_t i = 0; i < log.graphs.size(); ++i) {
    const TraceGraph& g = log.graphs[i];
    const std::string& name = names[i];
    Result<LoadedGraph> loaded =
        LoadGraphText(g.text, fmt::format("{}:{}", shown, g.line), ctx.session.registry(), {}, name);
    if (!loaded.ok()) {
      warnings->push_back(fmt::format("{} not loaded: {}", name, loaded.status().message()));
      continue;
    }
    loaded->path = path;
    if (std::string note = InferenceDisagreementNote(name, loaded->inference); !note.empty()) {
      warnings->push_back(std::move(note));
    }
    graphs.emplace_back(name, std::move(loaded).value());
  }
  return graphs;
}

Status LoadTraceLog(CommandContext& ctx, const std::string& path, const std::string& as,
                    std::optional<std::string_view> bytes) {
  Session& session = ctx.session;
  Result<TraceLog> read = bytes ? Result<TraceLog>(ParseTraceLog(*bytes, path))
                                : LoadTraceLogFile(path, session.settings().GetUnsigned("max-file-size"));
  AIRSCOPE_ASSIGN_OR_RETURN(TraceLog parsed, std::move(read));
  auto log = std::make_shared<const TraceLog>(std::move(parsed));
  const std::string& shown = ctx.args[0].text;
  std::vector<std::string> warnings;
  auto graphs = TraceLogGraphs(ctx, *log, shown, path, as.empty() ? "" : as + ":", &warnings);
  ctx.out.Styled(Style::kGood, "loaded TORCH_TRACE log {}: {} lines, {} records, {} compile(s), {} graph(s){}", shown,
                 log->lines, log->records, log->compiles.size(), graphs.size(),
                 log->rank >= 0 ? fmt::format(", rank {}", log->rank) : "");
  for (const TraceProblem& p : log->problems)
    ctx.out.Styled(Style::kBad, "  warning: {}:{}: {}", shown, p.line, p.message);
  if (log->more_problems) ctx.out.Styled(Style::kBad, "  ... and {} more warning(s)", log->more_problems);
  for (const std::string& w : warnings) ctx.out.Styled(Style::kBad, "  warning: {}", w);
  auto bundle = std::make_shared<LogBundle>();
  bundle->path = path;
  bundle->what = "TORCH_TRACE log";
  bundle->traces.push_back({as.empty() ? "" : as + ":", log});
  for (const auto& [name, loaded] : graphs) bundle->graph_names.push_back(name);
  return RegisterLogGraphs(ctx, std::move(graphs), as.empty() ? DefaultGraphName(path) : as, path,
                           [&log, &bundle](const std::string&, CacheState& state) {
                             state.trace = log;
                             state.bundle = bundle;
                           });
}

Status LoadTraceLogDir(CommandContext& ctx, const std::string& dir, const std::string& as) {
  Session& session = ctx.session;
  const std::string& shown = ctx.args[0].text;
  std::vector<std::pair<int, std::string>> files = RankLogFiles(dir);
  if (files.empty()) {
    return Status::Errorf(
        "{} is a directory airscope does not read: neither per-rank TORCH_TRACE logs "
        "(dedicated_log_torch_trace_rank_N*.log, as TORCH_TRACE=DIR writes them) nor a "
        "TORCH_COMPILE_DEBUG tree (torch_compile_debug/, a run_* of it, its torchair/ or a model__K "
        "in it) nor TorchAir graph_dump files (dynamo_original_graph_N_*.py); load one file of it "
        "instead",
        shown);
  }
  // TORCH_TRACE=DIR reused by another run adds a second log per rank (a new
  // random suffix); their graphs would take the same names, the later file
  // replacing the earlier, and rank comparison would compare a rank with
  // itself. Refused, naming the files.
  std::map<int, std::vector<std::string>> by_rank;
  for (const auto& [rank, file] : files) by_rank[rank].push_back(std::filesystem::path(file).filename().string());
  for (const auto& [rank, names] : by_rank) {
    if (names.size() > 1) {
      return Status::Errorf(
          "{} holds {} TORCH_TRACE logs of rank {} ({}): more than one run wrote into this directory; load each "
          "file by itself, or a directory of one run",
          shown, names.size(), rank, JoinAtMost(names, 4));
    }
  }
  std::vector<std::pair<int, std::shared_ptr<const TraceLog>>> logs;
  std::vector<std::string> warnings;
  auto bundle = std::make_shared<LogBundle>();
  bundle->path = dir;
  bundle->what = "TORCH_TRACE rank logs";
  std::vector<std::string> paths;
  for (const auto& [rank, file] : files) paths.push_back(file);
  std::vector<Result<TraceLog>> read = ReadTraceLogs(paths, session.settings().GetUnsigned("max-file-size"));
  std::vector<std::string> shown_files;
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& [rank, file] = files[i];
    AIRSCOPE_ASSIGN_OR_RETURN(TraceLog parsed, std::move(read[i]));
    auto log = std::make_shared<const TraceLog>(std::move(parsed));
    if (log->rank >= 0 && log->rank != rank) {
      warnings.push_back(fmt::format("{}: its records say rank {}, its name rank {}", file, log->rank, rank));
    }
    std::string prefix = fmt::format("{}rank{}:", as.empty() ? "" : as + ":", rank);
    bundle->traces.push_back({prefix, log});
    shown_files.push_back(std::filesystem::path(file).filename().string());
    logs.emplace_back(rank, log);
  }
  std::vector<std::pair<int, const TraceLog*>> plain;
  for (const auto& [rank, log] : logs) plain.emplace_back(rank, log.get());
  RankGraphs rank_graphs = LoadRankGraphs(plain, shown_files, as.empty() ? "" : as + ":", session.registry());
  std::vector<std::pair<std::string, LoadedGraph>>& graphs = rank_graphs.graphs;
  for (std::string& w : rank_graphs.warnings) warnings.push_back(std::move(w));
  std::vector<int> ranks;
  for (const auto& [rank, log] : logs) ranks.push_back(rank);
  ctx.out.Styled(Style::kGood, "loaded {} TORCH_TRACE logs from {} (ranks {}): {} graph(s){}", logs.size(), shown,
                 RankList(ranks), graphs.size(),
                 rank_graphs.parsed < graphs.size()
                     ? fmt::format(", {} distinct (a graph the same on several ranks is parsed once and shared, named "
                                   "after its ranks: rank0-3:ID:STAGE)",
                                   rank_graphs.parsed)
                     : "");
  for (const auto& [rank, log] : logs) {
    ctx.out.Print("  rank {}: {}: {} lines, {} compile(s), {} graph(s)", rank,
                  std::filesystem::path(log->path).filename().string(), log->lines, log->compiles.size(),
                  log->graphs.size());
    for (const TraceProblem& p : log->problems) {
      ctx.out.Styled(Style::kBad, "    warning: line {}: {}", p.line, p.message);
    }
    if (log->more_problems) ctx.out.Styled(Style::kBad, "    ... and {} more warning(s)", log->more_problems);
  }
  for (const std::string& w : warnings) ctx.out.Styled(Style::kBad, "  warning: {}", w);
  PrintRankDivergence(ctx.out, plain);
  // Each graph keeps the log of its rank.
  std::map<std::string, std::shared_ptr<const TraceLog>> log_of;
  for (const auto& [name, loaded] : graphs) {
    for (const auto& [rank, log] : logs) {
      if (loaded.path == log->path) log_of[name] = log;
    }
  }
  std::string holder = as.empty() ? DefaultGraphName(dir) : as;
  std::shared_ptr<const TraceLog> first_log = logs.front().second;
  for (const auto& [name, loaded] : graphs) bundle->graph_names.push_back(name);
  return RegisterLogGraphs(ctx, std::move(graphs), holder, dir, [&](const std::string& name, CacheState& state) {
    auto it = log_of.find(name);
    state.trace = it != log_of.end() ? it->second : first_log;
    state.bundle = bundle;
  });
}

void RegisterTraceCommands(CommandTable& table) {
  table.Add({"compiles",
             "compiles [ID [--phases]]",
             "the compiles of a loaded log or TORCH_COMPILE_DEBUG tree; one compile id tied together",
             "For a graph loaded from a TORCH_TRACE log: each compile id (frame/compile, !N/frame/compile for\n"
             "compiled autograd, torch/_guards.py CompileId) with its status (success, restart, failure and the\n"
             "reason), attempts, graph op/node/input counts, cache_size and guard_count from compilation_metrics,\n"
             "and the fx_graph_cache / aotautograd_cache hits, misses and bypasses.\n"
             "For a graph loaded from TORCH_LOGS text: each compile id the log mentions with what the log holds\n"
             "for it (graphs, guards, recompile messages, graph breaks, dynamic-shape symbols and guards,\n"
             "cache-limit warnings, graph sizes), then what it holds without a compile id, then TorchAir's\n"
             "AclGraph runtime messages per fx graph (captures, hits, recaptures, the capture limit, memory resets).\n"
             "`compiles -` lists the items without an id.\n"
             "For a TORCH_COMPILE_DEBUG tree: every compile id of its logs with status, guard count, graphs, the\n"
             "TorchAir model__K tied to it and its compile time, then TorchAir's items no compile id could be\n"
             "tied to.\n"
             "`compiles ID` (also `show compile ID`) ties one compile together across everything the load\n"
             "brought: where Dynamo started (dynamo_start's frame and stack), graph breaks, its Dynamo and AOT\n"
             "graphs, TorchAir's side (model__K of a tree, checked by comparing its dynamo_out_graph.txt with the\n"
             "compile's Dynamo graph, else said to be by order; recorded stages to `compare`; the fx graph\n"
             "graph_N by the order of TorchAir's `compiler inputs` printouts), guards, recompile reasons, cache\n"
             "artifacts, compile time per phase (TORCH_TRACE: chromium_event pairs, nested as the log nests\n"
             "them, every level; compilation_metrics' *_time_s/*_time_us/*_time_ms fields and duration_us;\n"
             "TORCH_LOGS: the timestamps of Dynamo's Step 1/2/3 lines), when it started (compilation_metrics'\n"
             "start_time_us/end_time_us, epoch timestamps, printed as UTC times), and the\n"
             "captures and replays of its graphs: TorchAir's recorded runtime messages and capture dumps, and what\n"
             "this session simulated (pipeline stepped, calls through the cache, captures on the device).\n"
             "The phase tree shows its first 60 phases; `compiles ID --phases` shows all of them.\n"
             "For a simulated frame: its compiled entries.",
             CompilesCommand,
             nullptr,
             {{"--phases", "", {}}}});
  table.Add({"recompiles", "recompiles", "the recompile messages of a loaded log, or the current frame's recompiles",
             "For a log: every recompile as Dynamo printed it (Recompiling function NAME in FILE:LINE, triggered\n"
             "by the following guard failure(s):, - 0/0: ...), one block per message (per recompile_reasons record\n"
             "of a TORCH_TRACE log, whose function and file come from the compile's metrics), and for TORCH_LOGS\n"
             "text the cache-limit warnings (torch._dynamo hit config.cache_size_limit). For a simulated frame:\n"
             "the recompiles it has done with the guard failures that caused them.",
             Recompiles, nullptr});
}

}  // namespace airscope
