#include "repl/compile_index.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "core/ir/graph_match.h"
#include "repl/cache_state.h"

namespace airscope {
namespace {

std::string Ordinal(size_t n) {
  std::string_view suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                            : n % 10 == 1                    ? "st"
                            : n % 10 == 2                    ? "nd"
                            : n % 10 == 3                    ? "rd"
                                                             : "th";
  return fmt::format("{}{}", n, suffix);
}

class IndexBuilder {
 public:
  IndexBuilder(const LogBundle& bundle, Session& session) : bundle_(bundle), session_(session) {
    for (const std::string& name : bundle.graph_names) registered_.insert(name);
    index_.path = bundle.path;
    index_.what = bundle.what;
  }

  CompileIndex Build() {
    for (const LogBundle::Trace& t : bundle_.traces) AddTrace(t);
    for (const LogBundle::Text& t : bundle_.texts) AddText(t);
    if (bundle_.tree) AddTree(*bundle_.tree);
    ResolveEvents();
    for (const auto& [name, text] : loose_graphs_) {
      if (!compile_of_graph_.count(name)) index_.unlinked.push_back(text);
    }
    AddRecordedRuns();
    for (IndexCompile& c : index_.compiles) AddSimulated(c);
    return std::move(index_);
  }

 private:
  IndexCompile& Compile(const std::string& id, const std::string& source) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) {
      it = by_id_.emplace(id, index_.compiles.size()).first;
      IndexCompile c;
      c.id = id;
      index_.compiles.push_back(std::move(c));
    }
    IndexCompile& c = index_.compiles[it->second];
    if (std::find(c.sources.begin(), c.sources.end(), source) == c.sources.end()) c.sources.push_back(source);
    return c;
  }

  void AddGraph(IndexCompile& c, const std::string& name, const std::string& kind) {
    if (!registered_.count(name)) return;
    for (const IndexGraph& g : c.graphs) {
      if (g.name == name) return;
    }
    const Session::Entry* entry = session_.Find(name);
    c.graphs.push_back({name, kind, entry ? entry->loaded.graph->size() : 0});
    compile_of_graph_[name] = c.id;
  }

  std::string ShortPath(const std::string& path) const {
    if (bundle_.tree && path.starts_with(bundle_.tree->path)) {
      std::string rest = path.substr(bundle_.tree->path.size());
      while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
      return rest.empty() ? path : rest;
    }
    return path;
  }

  void AddTrace(const LogBundle::Trace& t) {
    const TraceLog& log = *t.log;
    std::string source = fmt::format("TORCH_TRACE {}", ShortPath(log.path));
    for (const TraceCompile& tc : log.compiles) {
      IndexCompile& c = Compile(t.prefix + tc.id, source);
      c.status = tc.status;
      c.reason = tc.reason;
      if (!tc.function.empty()) c.function = fmt::format("{} {}", tc.function, tc.filename);
      if (c.stack.empty()) c.stack = tc.stack;
      c.attempts = std::max(c.attempts, tc.attempts);
      c.ops = tc.graph_op_count;
      c.nodes = tc.graph_node_count;
      c.inputs = tc.graph_input_count;
      c.cache_size = tc.cache_size;
      c.guard_count = tc.guard_count;
      c.metric_times = tc.metric_times;
      c.started_at = tc.started_at;
      c.ended_at = tc.ended_at;
      if (log.cpp_guards.count(tc.id)) {
        c.guards = "dynamo_cpp_guards_str";
      } else if (log.dynamo_guards.count(tc.id)) {
        c.guards = "dynamo_guards";
      }
    }
    // Graph names as TraceLogGraphs gives them.
    std::map<std::string, int> seen;
    for (const TraceGraph& g : log.graphs) {
      std::string name = fmt::format("{}{}:{}", t.prefix, g.compile_id.empty() ? "-" : g.compile_id, g.stage);
      int n = ++seen[name];
      if (n > 1) name += fmt::format("#{}", n);
      if (g.compile_id.empty()) continue;
      IndexCompile& c = Compile(t.prefix + TraceIdBase(g.compile_id), source);
      AddGraph(c, name, g.stage);
      if (g.stage == "dynamo_output_graph") dynamo_graph_[c.id] = name;
    }
    for (const TraceRecompile& r : log.recompiles) {
      IndexCompile& c = Compile(t.prefix + r.compile_id, source);
      for (const std::string& reason : r.reasons) c.recompile_reasons.push_back(reason);
    }
    for (const TraceArtifact& a : log.cache_artifacts) {
      if (a.compile_id.empty()) continue;
      Compile(t.prefix + a.compile_id, source).cache.push_back(a.name);
    }
    for (const TraceOutputCode& o : log.output_code) {
      Compile(t.prefix + o.compile_id, source)
          .other.push_back(fmt::format("inductor output code: {} ({} lines, line {})", o.filename, o.lines, o.line));
    }
    for (const TraceSpecialization& s : log.specializations) {
      Compile(t.prefix + s.compile_id, source)
          .other.push_back(fmt::format("specialized: {} = {}{}{} (line {})", s.symbol, s.value,
                                       s.reason.empty() ? "" : ": " + s.reason,
                                       s.sources.empty() ? "" : " [" + s.sources + "]", s.line));
    }
    for (const TraceGraphBreak& b : log.graph_breaks) {
      std::string text = fmt::format("(line {}): {}", b.line, b.summary);
      if (b.compile_id.empty()) {
        index_.unlinked.push_back("graph break " + text);
      } else {
        Compile(t.prefix + b.compile_id, source).graph_breaks.push_back(text);
      }
    }
    for (const TraceError& e : log.errors) {
      if (e.compile_id.empty()) {
        index_.unlinked.push_back(fmt::format("dynamo_error (line {}):\n{}", e.line, e.traceback));
      } else {
        Compile(t.prefix + e.compile_id, source).errors.push_back({e.line, e.traceback});
      }
    }
    for (const TraceGuardAdded& g : log.guards_added) {
      std::string text = "guard added: " + DescribeGuardAdded(g);
      if (g.compile_id.empty()) {
        index_.unlinked.push_back(std::move(text));  // torch.export's: it has no compile id
      } else {
        Compile(t.prefix + g.compile_id, source).other.push_back(std::move(text));
      }
    }
    for (const TraceExport& e : log.exports) index_.unlinked.push_back(DescribeExport(e, ""));
    for (const TracePhase& p : log.phases) {
      std::string id = t.prefix + TraceIdBase(p.compile_id);
      if (!by_id_.count(id)) continue;  // a phase of a compile the log has no other record of
      Compile(id, source).phases.push_back({p.name, p.seconds, p.depth});
    }
  }

  void AddText(const LogBundle::Text& t) {
    const TorchLogs& log = *t.log;
    std::string source = fmt::format("TORCH_LOGS {}", ShortPath(log.path));
    auto id_of = [&](int rank, const std::string& id) { return t.prefix + log.Qualified(rank, TraceIdBase(id)); };
    for (const TorchLogsCompile& tc : log.compiles) {
      IndexCompile& c = Compile(id_of(tc.rank, tc.id), source);
      if (c.function.empty() && !tc.function.empty()) c.function = fmt::format("{} {}", tc.function, tc.location);
      c.attempts = std::max(c.attempts, tc.attempts);
    }
    size_t torchair_inputs = 0;
    for (const TorchLogsGraph& g : log.graphs) {
      std::string name = t.prefix + g.name;
      bool compiler_input = g.artifact == "torchair" && g.kind == "torchair_graph";
      if (compiler_input) ++torchair_inputs;
      if (g.id.empty()) {
        if (registered_.count(name)) {
          loose_graphs_.emplace_back(
              name, fmt::format("{} ({}, {} line {}){}", name, g.title, ShortPath(log.path), g.line,
                                compiler_input ? fmt::format(": fx graph graph_{} by order", torchair_inputs) : ""));
        }
        continue;
      }
      IndexCompile& c = Compile(id_of(g.rank, g.id), source);
      AddGraph(c, name, g.kind);
      if (g.kind == "dynamo") dynamo_graph_.emplace(c.id, name);
      if (compiler_input) {
        std::string fx = fmt::format("graph_{}", torchair_inputs);
        fx_compile_[t.prefix + fx] = c.id;
        c.torchair.push_back(
            fmt::format("fx graph {}: the {} graph TorchAir compiled in this log ({}, line {}; by "
                        "order, npu_fx_compiler.py:565-571)",
                        fx, Ordinal(torchair_inputs), name, g.line));
      }
    }
    for (const TorchLogsGuards& g : log.guards) {
      if (g.id.empty()) continue;
      IndexCompile& c = Compile(id_of(g.rank, g.id), source);
      if (c.guard_count < 0) c.guard_count = static_cast<int64_t>(g.count);
      if (c.guards.empty()) {
        c.guards =
            fmt::format("{} ({} line {})", g.tree ? "TREE_GUARD_MANAGER" : "flat list", ShortPath(log.path), g.line);
      }
    }
    for (const TorchLogsRecompile& r : log.recompiles) {
      if (r.id.empty()) {
        std::string what = r.header_missing ? fmt::format("a function unknown: {}", kRecompileHeaderMissing)
                                            : fmt::format("{} in {}", r.function, r.location);
        index_.unlinked.push_back(fmt::format("recompile of {} ({} line {})", what, ShortPath(log.path), r.line));
        continue;
      }
      IndexCompile& c = Compile(id_of(r.rank, r.id), source);
      for (const std::string& f : r.failures) c.recompile_reasons.push_back(f);
    }
    for (const TorchLogsGraphBreak& b : log.graph_breaks) {
      std::string text = fmt::format("(line {}) at {}{}{}", b.line, b.location.empty() ? "?" : b.location,
                                     b.reason.empty() ? "" : ": " + b.reason, GraphBreakNotes(b, 4));
      if (b.id.empty()) {
        index_.unlinked.push_back("graph break " + text);
      } else {
        Compile(id_of(b.rank, b.id), source).graph_breaks.push_back(text);
      }
    }
    for (const TorchLogsSymbol& s : log.symbols) {
      if (s.id.empty()) continue;
      Compile(id_of(s.rank, s.id), source)
          .other.push_back(fmt::format("symbol {} = {} for {}{} (line {})", s.symbol, s.value, s.source,
                                       s.range.empty() ? "" : " " + s.range, s.line));
    }
    for (const TorchLogsShapeGuard& s : log.shape_guards) {
      if (s.id.empty()) continue;
      Compile(id_of(s.rank, s.id), source).other.push_back(fmt::format("guard added: {} (line {})", s.expr, s.line));
    }
    for (const TorchLogsCacheLimit& l : log.cache_limits) {
      if (l.id.empty()) continue;
      Compile(id_of(l.rank, l.id), source)
          .other.push_back(fmt::format("hit config.{} (line {}): function {}; last reason: {}", l.limit, l.line,
                                       l.function, l.last_reason));
    }
    for (const TorchLogsGraphSizes& s : log.graph_sizes) {
      if (s.id.empty()) continue;
      Compile(id_of(s.rank, s.id), source)
          .other.push_back(fmt::format("graph sizes of {} (line {}): {}", s.title, s.line, fmt::join(s.sizes, "; ")));
    }
    AddSteps(t, source);
    // TorchAir's `compiler inputs` printouts and its "[phase] Full debug info
    // saved to: .../model__K" lines in log order: the fx graph compiled in
    // between is that model's (a TORCH_COMPILE_DEBUG run's torchair/debug.log).
    std::vector<std::pair<size_t, size_t>> order;  // (line, graph index + 1 | event index + 1 negated)
    size_t inputs_seen = 0;
    std::vector<std::string> fx_of_graph(log.graphs.size());
    for (size_t i = 0; i < log.graphs.size(); ++i) {
      if (log.graphs[i].artifact == "torchair" && log.graphs[i].kind == "torchair_graph") {
        fx_of_graph[i] = fmt::format("graph_{}", ++inputs_seen);
        order.emplace_back(log.graphs[i].line, i);
      }
    }
    constexpr size_t kEvent = size_t{1} << 62;
    for (size_t i = 0; i < log.events.size(); ++i) {
      if (log.events[i].kind == "debug_saved") order.emplace_back(log.events[i].line, kEvent | i);
    }
    std::sort(order.begin(), order.end());
    std::string fx;
    std::string fx_graph_name;
    for (const auto& [line, item] : order) {
      if (!(item & kEvent)) {
        fx = fx_of_graph[item];
        fx_graph_name = t.prefix + log.graphs[item].name;
        continue;
      }
      const TorchAirEvent& e = log.events[item & ~kEvent];
      if (fx.empty()) continue;
      std::string path = e.key;
      while (!path.empty() && path.back() == '/') path.pop_back();
      std::string model = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
      std::string phase = e.text.size() > 1 ? e.text.substr(1, e.text.find(']') - 1) : "";
      fx_model_[t.prefix + fx] = {t.prefix + model, fmt::format("{}/{}", model, phase), fx_graph_name,
                                  fmt::format("{} line {}", ShortPath(log.path), line)};
      fx.clear();
    }
    // TorchAir's runtime messages: tied to a compile once the fx graphs are (ResolveEvents).
    for (const TorchAirEvent& e : log.events) {
      if (e.kind == "debug_saved") continue;
      std::string text = e.key.empty()
                             ? fmt::format("{} ({} line {})", e.kind, ShortPath(log.path), e.line)
                             : fmt::format("{} key {} ({} line {})", e.kind, e.key, ShortPath(log.path), e.line);
      pending_.push_back({t.prefix + e.fx_graph, e.fx_graph, text, source});
    }
  }

  // Runtime messages onto the compile of their fx graph.
  void ResolveEvents() {
    for (const PendingEvent& p : pending_) {
      auto it = fx_compile_.find(p.key);
      if (it != fx_compile_.end()) {
        Compile(it->second, p.source).runtime.push_back(fmt::format("recorded: {} {}", p.fx_graph, p.text));
      } else {
        index_.unlinked.push_back(
            fmt::format("TorchAir runtime of {}: {}", p.fx_graph.empty() ? "?" : p.fx_graph, p.text));
      }
    }
  }

  // Dynamo's Step lines: a phase opens at "Step N: ..." and closes at the next
  // "Step N: done ..." of the same compile.
  void AddSteps(const LogBundle::Text& t, const std::string& source) {
    const TorchLogs& log = *t.log;
    std::map<std::pair<std::string, char>, const TorchLogsStep*> open;
    for (const TorchLogsStep& s : log.steps) {
      std::string id = t.prefix + log.Qualified(s.rank, TraceIdBase(s.id));
      char step = s.text.size() > 5 ? s.text[5] : '?';
      bool done = s.text.find(": done ") != std::string::npos || s.text.find(" done ") != std::string::npos;
      auto key = std::make_pair(id, step);
      if (!done) {
        open[key] = &s;
        continue;
      }
      auto it = open.find(key);
      if (it == open.end() || it->second->time < 0 || s.time < 0) continue;
      std::string what = step == '1'   ? "Dynamo tracing (Step 1)"
                         : step == '2' ? "backend compile (Step 2: calling -> done compiler function)"
                                       : fmt::format("Step {}", step);
      if (step == '3') {
        std::string_view text = it->second->text;
        what = fmt::format("Step 3: {}", text.substr(std::min<size_t>(8, text.size())));
      }
      Compile(id, source).phases.push_back({what, s.time - it->second->time, 0});
      open.erase(it);
    }
  }

  void AddTree(const DebugTree& tree) {
    const std::string& prefix = bundle_.tree_prefix;
    // Per run prefix, the compiles with a Dynamo graph, in order: model__K is the K-th.
    std::map<std::string, std::vector<std::string>> dynamo_compiles;  // run prefix -> compile ids
    for (const IndexCompile& c : index_.compiles) {
      if (!dynamo_graph_.count(c.id)) continue;
      for (const DebugTreeRun& run : tree.runs) {
        std::string p = prefix + run.prefix;
        if (c.id.starts_with(p) && (p.empty() || c.id.size() > p.size())) {
          std::string rest = c.id.substr(p.size());
          if (rest.find(':') == std::string::npos) dynamo_compiles[run.prefix].push_back(c.id);
        }
      }
    }
    for (const DebugTreeRun& run : tree.runs) {
      const std::vector<std::string>& ids = dynamo_compiles[run.prefix];
      for (size_t k = 0; k < run.models.size(); ++k) {
        const std::string& model = run.models[k];
        std::string model_name = prefix + run.prefix;
        model_name += model;
        std::vector<std::string> phases;
        for (const DebugTreeGraph& g : tree.graphs) {
          if (g.prefix != run.prefix || g.model != model) continue;
          if (g.source == DebugGraphSource::kTorchAirStage && g.count == 0) phases.push_back(g.phase);
        }
        int64_t number = -1;
        try {
          number = model.starts_with("model__") ? std::stoll(model.substr(7)) : -1;
        } catch (...) {}
        std::string what =
            fmt::format("{} (TORCH_COMPILE_DEBUG {}{})", model_name, phases.empty() ? "no stage dumps" : "phases ",
                        phases.empty() ? "" : fmt::format("{}", fmt::join(phases, ", ")));
        if (number < 0 || static_cast<size_t>(number) >= ids.size()) {
          index_.unlinked.push_back(what + (ids.empty() ? ": the tree has no Dynamo log to tie it to a compile id"
                                                        : ": no K-th compile with a Dynamo graph to tie it to"));
          continue;
        }
        IndexCompile& c = Compile(ids[static_cast<size_t>(number)], fmt::format("TORCH_COMPILE_DEBUG {}", model));
        std::string tie = "by order only (model__K is the K-th Dynamo graph TorchAir received)";
        const Session::Entry* dumped = session_.Find(model_name + ":dynamo");
        const Session::Entry* logged = session_.Find(dynamo_graph_[c.id]);
        if (dumped && logged) {
          std::string why;
          tie = MatchGraphs(*logged->loaded.graph, *dumped->loaded.graph, &why)
                    ? fmt::format("its dynamo_out_graph.txt matches {}", dynamo_graph_[c.id])
                    : fmt::format("by order; its dynamo_out_graph.txt differs from {} ({})", dynamo_graph_[c.id], why);
        }
        c.torchair.push_back(fmt::format("{}: {}", what, tie));
        model_compile_[run.prefix + model] = c.id;
        for (const DebugTreeGraph& g : tree.graphs) {
          if (g.prefix == run.prefix && g.model == model) AddGraph(c, prefix + g.name, "TorchAir " + g.stage);
        }
      }
    }
    // fx graphs tied to a model by TorchAir's debug.log (AddText): tied to the model's compile.
    for (const auto& [fx_key, tie] : fx_model_) {
      auto it = model_compile_.find(tie.model_key.substr(prefix.size()));
      if (!tie.model_key.starts_with(prefix) || it == model_compile_.end()) continue;
      fx_compile_[fx_key] = it->second;
      IndexCompile& c = Compile(it->second, "TorchAir debug.log");
      std::string fx = fx_key.substr(fx_key.rfind(':') == std::string::npos ? 0 : fx_key.rfind(':') + 1);
      c.torchair.push_back(
          fmt::format("fx graph {}: compiled for {} ({}: `compiler inputs`, then \"Full debug info "
                      "saved to\" that directory)",
                      fx, tie.model_phase, tie.where));
      AddGraph(c, tie.graph, "torchair_graph");
    }
    for (const DebugTreeFile& f : tree.files) {
      auto it = model_compile_.find(f.prefix + f.model);
      if (it != model_compile_.end()) {
        Compile(it->second, "TORCH_COMPILE_DEBUG").other.push_back(fmt::format("{}: {}", f.what, ShortPath(f.path)));
      } else {
        index_.unlinked.push_back(fmt::format("{}: {}", f.what, ShortPath(f.path)));
      }
    }
    for (const DebugTreeCapture& cap : tree.captures) {
      std::string text = fmt::format("recorded capture dump of {} (AclGraph id {}, rank {}, ts {}): {}{}", cap.fx_graph,
                                     cap.aclgraph_id, cap.rank, cap.timestamp, ShortPath(cap.path),
                                     cap.json_ok ? "" : " (not valid JSON)");
      auto it = fx_compile_.find(prefix + cap.prefix + cap.fx_graph);
      if (it != fx_compile_.end()) {
        Compile(it->second, "TORCH_COMPILE_DEBUG").runtime.push_back(text);
      } else {
        index_.unlinked.push_back(text + fmt::format(" (written into {}, the model compiled last then: not necessarily "
                                                     "its own, acl_graph.py:1261-1269)",
                                                     cap.model));
      }
    }
    for (const DebugTreeGraph& g : tree.graphs) {
      if (g.source != DebugGraphSource::kGraphDump) continue;
      auto it = fx_compile_.find(prefix + g.prefix + g.model);
      std::string name = prefix + g.name;
      if (it != fx_compile_.end()) {
        AddGraph(Compile(it->second, "config.debug.graph_dump"), name, g.stage);
      } else if (registered_.count(name)) {
        index_.unlinked.push_back(fmt::format("{} (config.debug.graph_dump of {})", name, g.model));
      }
    }
    for (const DebugTreeGraph& g : tree.graphs) {
      if (g.source != DebugGraphSource::kInductor || !registered_.count(prefix + g.name)) continue;
      index_.unlinked.push_back(fmt::format("{} (Inductor's {})", prefix + g.name, g.stage));
    }
  }

  void AddRecordedRuns() {
    for (const RecordedRun& r : bundle_.recorded) {
      auto it = compile_of_graph_.find(r.input.graph_name);
      std::string text = fmt::format("recorded TorchAir stages {}: {} after the input ({}): compare {}", r.name,
                                     r.stages.size(), r.source, r.name);
      if (it != compile_of_graph_.end()) {
        Compile(it->second, r.source).torchair.push_back(text);
      } else {
        index_.unlinked.push_back(text);
      }
    }
  }

  // What the session did with the compile's graphs: stepped pipelines,
  // calls through the simulated cache, captures on the simulated device.
  void AddSimulated(IndexCompile& c) {
    for (const IndexGraph& g : c.graphs) {
      const Session::Entry* entry = session_.Find(g.name);
      if (!entry) continue;
      if (const PipelineRun* run = entry->pipeline.get(); run && run->cursor() > 0) {
        c.torchair.push_back(fmt::format("simulated: {} stepped through airscope's pipeline to stage {} of {} ({})",
                                         g.name, run->cursor(), run->passes().size(), run->stages().back().pass));
      }
      if (const CacheState* state = entry->cache.get(); state && state->frame && !state->frame->entries().empty()) {
        uint64_t hits = 0;
        for (const auto& e : state->frame->entries()) hits += e->hits;
        c.runtime.push_back(fmt::format("simulated: {} called: {} cache entr{}, {} hit(s)", g.name,
                                        state->frame->entries().size(),
                                        state->frame->entries().size() == 1 ? "y" : "ies", hits));
        // reduce-overhead calls: each entry's AclGraph (core/runtime), as TorchAir's counters count.
        for (size_t i = 0; i < state->runtimes.size() && i < state->frame->entries().size(); ++i) {
          const AclGraph* acl = state->runtimes[i].graph.get();
          if (!acl) continue;
          const AclGraphStats& s = acl->stats();
          c.runtime.push_back(
              fmt::format("simulated: {} entry {}: AclGraph of graph_{}: {} call(s), {} capture(s), "
                          "{} replay(s), {} eager run(s)",
                          g.name, state->frame->entries()[i]->compile_id, state->runtimes[i].fx_graph, s.calls,
                          s.captures, s.replays, s.eager_runs));
        }
      }
      if (const CapturedGraph* captured = session_.device().sim.FindCaptured(g.name)) {
        c.runtime.push_back(fmt::format("simulated: {} captured on the simulated device as graph {} ({} tasks)", g.name,
                                        captured->id, captured->tasks.tasks.size()));
      }
    }
  }

  const LogBundle& bundle_;
  Session& session_;
  CompileIndex index_;
  std::set<std::string> registered_;
  std::map<std::string, size_t> by_id_;
  std::map<std::string, std::string> dynamo_graph_;      // compile id -> its Dynamo graph's session name
  std::map<std::string, std::string> compile_of_graph_;  // session graph -> compile id
  std::map<std::string, std::string> fx_compile_;        // prefix + graph_N -> compile id
  std::map<std::string, std::string> model_compile_;     // run prefix + model__K -> compile id
  struct ModelTie {
    std::string model_key;    // prefix + run prefix + model__K
    std::string model_phase;  // "model__0/forward"
    std::string graph;        // the `compiler inputs` graph's session name
    std::string where;        // "torchair/debug.log line 12"
  };
  std::map<std::string, ModelTie> fx_model_;  // prefix + graph_N -> the model its dumps went to
  struct PendingEvent {
    std::string key;  // prefix + fx graph
    std::string fx_graph;
    std::string text;
    std::string source;
  };
  std::vector<PendingEvent> pending_;
  std::vector<std::pair<std::string, std::string>> loose_graphs_;  // graphs without a compile id: name, description
};

}  // namespace

CompileIndex BuildCompileIndex(const LogBundle& bundle, Session& session) {
  return IndexBuilder(bundle, session).Build();
}

std::string FormatSeconds(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.1f} ms", seconds * 1e3);
  return fmt::format("{:.0f} us", seconds * 1e6);
}

std::string FormatEpochSeconds(double seconds) {
  auto whole = static_cast<std::time_t>(std::floor(seconds));
  auto millis = static_cast<int>(std::floor((seconds - static_cast<double>(whole)) * 1000));
  return fmt::format("{:%Y-%m-%d %H:%M:%S}.{:03d} UTC", fmt::gmtime(whole), std::min(millis, 999));
}

std::string PhaseSummary(const IndexCompile& compile) {
  std::vector<std::string> parts;
  for (const IndexPhase& p : compile.phases) {
    if (p.depth == 0) parts.push_back(fmt::format("{} {}", p.name, FormatSeconds(p.seconds)));
  }
  if (parts.empty()) {
    for (const auto& [name, seconds] : compile.metric_times)
      parts.push_back(fmt::format("{} {}", name, FormatSeconds(seconds)));
  }
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace airscope
