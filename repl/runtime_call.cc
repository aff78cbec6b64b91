#include "repl/runtime_call.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/scanner.h"
#include "viz/run_stats.h"

namespace airscope {
namespace {

// The bytes of memory the tensor spans (its storage extent).
int64_t ExtentBytes(const CallInput& in) {
  int64_t last = 0;
  for (size_t d = 0; d < in.sizes.size(); ++d) {
    if (in.sizes[d] == 0) return 0;
    last += (in.sizes[d] - 1) * (d < in.strides.size() ? in.strides[d] : 1);
  }
  return (last + 1) * ItemSize(in.dtype);
}

AclGraphConfig ConfigOf(const Settings& settings) {
  TorchAirConfig c = settings.TorchAir();
  AclGraphConfig config;
  config.frozen_parameter = c.frozen_parameter;
  config.disable_mempool_reuse_in_same_fx = c.disable_mempool_reuse_in_same_fx;
  config.enable_output_clone = c.enable_output_clone;
  config.clone_input = c.clone_input;
  config.static_capture_size_limit = c.static_capture_size_limit;
  config.npugraph_ex = c.npugraph_ex;
  config.force_eager = c.force_eager;
  config.force_recapture = c.force_recapture;
  return config;
}

// Every AclGraph of the session, for the checks that span them all.
std::vector<const AclGraph*> AllAclGraphs(const Session& session) {
  std::vector<const AclGraph*> graphs;
  for (const Session::Entry& e : session.graphs()) {
    if (!e.cache) continue;
    for (const CacheState::EntryRuntime& r : e.cache->runtimes) {
      if (r.graph) graphs.push_back(r.graph.get());
    }
  }
  return graphs;
}

// Where input `in` is passed this call: a buffer's name, and whether the call makes it.
struct BufferChoice {
  std::string name;
  bool fresh = false;
  std::string note;  // why a new one, when the input had another
};

BufferChoice ChooseBuffer(const DeviceBuffers& buffers, const CacheState* state, const CallInput& in, int64_t call) {
  if (!in.buffer.empty()) return {in.buffer, buffers.Find(in.buffer) == nullptr, ""};
  if (state) {
    auto last = state->last_buffer.find(in.name);
    if (last != state->last_buffer.end()) {
      const Handle* h = buffers.Find(last->second);
      std::string fresh = fmt::format("{}@{}", in.name, call);
      if (!h) {
        return {fresh, true, fmt::format("{} was passed in {} last time, which was dropped", in.name, last->second)};
      }
      if (buffers.storage(h->storage).bytes < ExtentBytes(in)) {
        return {fresh, true,
                fmt::format("{} ({}) does not fit in {}, where it was passed last time ({})", in.name, in.ShapeString(),
                            last->second, FormatBytes(buffers.storage(h->storage).bytes))};
      }
      return {last->second, false, ""};
    }
  }
  return {fmt::format("{}@{}", in.name, call), true, ""};
}

std::string DescribeRun(const RunResult& r) {
  return fmt::format("{} task{}, {}{} end to end{}", r.tasks, r.tasks == 1 ? "" : "s",
                     r.unknown_cost_kernels ? ">= " : "", FormatNs(r.wall_ns),
                     r.unknown_cost_kernels
                         ? fmt::format(" ({} kernels without a cost count as the minimum)", r.unknown_cost_kernels)
                         : "");
}

void PrintLine(const RuntimeLine& line, CommandOutput& out) {
  switch (line.source) {
    case RuntimeLine::Source::kTorchAir:
    case RuntimeLine::Source::kNpugraphEx:
      out.Styled(line.level == "WARNING" ? Style::kBad : Style::kDim, "  [{}] {} [{}] {}", line.level,
                 line.source == RuntimeLine::Source::kTorchAir ? "TORCHAIR" : "NPUGRAPH_EX", line.where, line.text);
      break;
    case RuntimeLine::Source::kPythonWarning:
      out.Styled(Style::kBad, "  {} [{}] {}", line.level, line.where, line.text);
      break;
    case RuntimeLine::Source::kNote: out.Print("  aclgraph: {}", line.text); break;
    case RuntimeLine::Source::kWarning: out.Styled(Style::kBad, "  aclgraph warning: {}", line.text); break;
  }
}

// The tensor get_attrs aot lifts to the first inputs, in its order (core/aot/trace.cc).
std::vector<std::string> LiftedParameters(const Graph& loaded) {
  std::vector<std::string> lifted;
  for (const Node* node : loaded) {
    if (node->op() != OpKind::kGetAttr || !node->tensor()) continue;
    if (std::find(lifted.begin(), lifted.end(), node->target()) == lifted.end()) lifted.push_back(node->target());
  }
  return lifted;
}

}  // namespace

std::shared_ptr<CacheState> OnlyTheLogs(const CacheState* cache) {
  if (!cache || !(cache->trace || cache->logs || cache->bundle)) return nullptr;
  auto logs = std::make_shared<CacheState>();
  logs->trace = cache->trace;
  logs->logs = cache->logs;
  logs->bundle = cache->bundle;
  return logs;
}

void ReleaseRuntimes(CacheState& state, DeviceState& device) {
  for (CacheState::EntryRuntime& r : state.runtimes) {
    if (r.graph) r.graph->Release(device.sim, device.buffers);
  }
  state.runtimes.clear();
}

Status CheckCallBuffers(const Session& session, const CacheState* state, const std::vector<CallInput>& inputs) {
  const DeviceBuffers& buffers = session.device().buffers;
  for (const CallInput& in : inputs) {
    if (in.buffer.empty()) continue;
    const Handle* h = buffers.Find(in.buffer);
    if (!h) {
      // The names airscope gives: outputs outCALL.I, buffers INPUT@CALL.
      std::string_view n = in.buffer;
      bool output_like = n.size() > 3 && n.starts_with("out") && n.find('.') != std::string_view::npos &&
                         std::all_of(n.begin() + 3, n.end(),
                                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
      if (output_like || n.find('@') != std::string_view::npos) {
        return ColumnErrorf(in.buffer_column,
                            "'{}' is a name airscope gives (outputs outCALL.I, buffers it makes "
                            "INPUT@CALL): name a new buffer otherwise",
                            in.buffer);
      }
      continue;
    }
    int64_t need = ExtentBytes(in);
    int64_t have = buffers.storage(h->storage).bytes;
    if (need > have) {
      return ColumnErrorf(in.buffer_column, "buffer '{}' holds {}; {}={} needs {}", in.buffer, FormatBytes(have),
                          in.name, in.ShapeString(), FormatBytes(need));
    }
  }
  (void)state;
  return Status::Ok();
}

Status RunAclGraphCall(CommandContext& ctx, CacheState& state, const CallOutcome& outcome,
                       const std::vector<CallInput>& inputs, bool keep) {
  Session& session = ctx.session;
  DeviceState& dev = session.device();
  if (outcome.kind == CallOutcome::Kind::kEager) {
    ctx.out.Print(
        "  aclgraph: Dynamo runs this call without a compiled graph (recompile limit): no AclGraph runs, "
        "nothing is simulated on the device");
    return Status::Ok();
  }
  const CacheEntry& entry = *state.frame->entries()[outcome.entry];
  if (state.runtimes.size() <= outcome.entry) state.runtimes.resize(outcome.entry + 1);
  CacheState::EntryRuntime& runtime = state.runtimes[outcome.entry];
  if (runtime.fx_graph == 0) runtime.fx_graph = ++dev.fx_graphs;

  // Everything a failed call must leave as it was.
  DeviceBuffers buffers_before = dev.buffers;
  CachingAllocator memory_before = dev.sim.allocator();
  const bool made_graph = runtime.graph == nullptr;
  auto fail = [&](Status status) {
    dev.buffers = std::move(buffers_before);
    dev.sim.allocator() = std::move(memory_before);
    if (made_graph) runtime.graph.reset();
    return status;
  };

  // What the buffers did, printed only when the call succeeds (a failed one made none).
  CommandOutput made;
  const int64_t call = dev.buffers.NextCall();
  // The compiled graph's inputs: the parameters aot lifted (tensor get_attrs,
  // first; core/aot/aot.h), then the call's inputs.
  std::shared_ptr<const Graph> compiled = entry.artifact->Clone();
  std::vector<Node*> placeholders = compiled->Placeholders();
  // The call's inputs that are inputs of the compiled graph: a Python scalar
  // compiled as a constant is not (core/dynamo/scalar_inputs.h); a SymInt is,
  // with no buffer, its value bound to its symbol.
  std::vector<const CallInput*> graph_inputs;
  std::map<std::string, int64_t> scalar_values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::optional<ScalarGuard>& scalar = entry.guards.tensors()[i].scalar;
    if (scalar && !scalar->symbolic) continue;
    if (scalar) scalar_values[scalar->symbol] = inputs[i].scalar->value;
    graph_inputs.push_back(&inputs[i]);
  }
  std::vector<std::string> lifted;
  if (placeholders.size() != graph_inputs.size()) {
    Result<Session::Entry*> current = session.Current();
    if (!current.ok()) return fail(current.status());
    lifted = LiftedParameters(*(*current)->loaded.graph);
    if (placeholders.size() != lifted.size() + graph_inputs.size()) {
      return fail(
          Status::Errorf("the compiled graph takes {} inputs, the call gives {} and the graph has {} "
                         "parameter(s): airscope cannot tell which input is which",
                         placeholders.size(), graph_inputs.size(), lifted.size()));
    }
  }
  std::vector<uint32_t> storages;
  std::vector<TensorMeta> metas;
  std::vector<bool> parameters;
  std::map<std::string, std::string> passed;  // input (or "self.ATTR") -> buffer
  // A model's first call makes a buffer per parameter: hundreds of lines that
  // say the same. The first few are shown, the rest counted (`mem --graph`
  // lists every buffer); a warning about any of them is always shown.
  constexpr size_t kShownParameterBuffers = 4;
  size_t parameter_buffers = 0;
  int64_t unshown_parameter_bytes = 0;
  auto make_buffer = [&](const std::string& name, int64_t bytes, const std::string& shape, const std::string& why,
                         bool parameter) -> Result<uint32_t> {
    Result<uint32_t> storage = dev.buffers.NewStorage(dev.sim.allocator(), kDefaultPool, bytes, name);
    if (!storage.ok()) return storage.status().WithPrefix(fmt::format("buffer {}", name));
    Handle h;
    h.name = name;
    h.kind = Handle::Kind::kInput;
    h.storage = *storage;
    h.bytes = bytes;
    h.shape = shape;
    h.call = call;
    AIRSCOPE_RETURN_IF_ERROR(dev.buffers.Add(h));
    const Storage& st = dev.buffers.storage(*storage);
    if (!parameter || ++parameter_buffers <= kShownParameterBuffers) {
      made.Print("  aclgraph: new buffer {} {}: {} at {}", name, why, FormatBytes(st.bytes), FormatAddress(st.address));
    } else {
      unshown_parameter_bytes += st.bytes;
    }
    for (const AclGraph* g : AllAclGraphs(session)) {
      for (const std::string& w : g->BakedAddressWarnings(dev.buffers, *storage, false)) {
        made.Styled(Style::kBad, "  aclgraph warning: {}", w);
      }
    }
    return *storage;
  };
  for (size_t p = 0; p < lifted.size(); ++p) {
    // The module's parameters live on the device from the first call on, each in a buffer of its own.
    const TensorMeta* meta = placeholders[p]->tensor();
    TensorMeta m = meta ? *meta : TensorMeta{};
    int64_t bytes = m.NumBytes().value_or(0);
    std::string key = "self." + lifted[p];
    auto last = state.last_buffer.find(key);
    const Handle* h = last == state.last_buffer.end() ? nullptr : dev.buffers.Find(last->second);
    std::string name = h ? h->name : fmt::format("{}.{}", (*session.Current())->name, lifted[p]);
    if (!h) {
      if (dev.buffers.Find(name)) name = fmt::format("{}@{}", name, call);
      Result<uint32_t> made = make_buffer(name, bytes, m.ShapeString(),
                                          fmt::format("for parameter {} ({})", lifted[p], placeholders[p]->name()),
                                          /*parameter=*/true);
      if (!made.ok()) return fail(made.status());
      h = dev.buffers.Find(name);
    }
    storages.push_back(h->storage);
    metas.push_back(m);
    parameters.push_back(true);
    passed[key] = name;
  }
  if (parameter_buffers > kShownParameterBuffers) {
    made.Print("  aclgraph: ... and {} more new buffers for parameters ({}): `mem --graph` lists every buffer",
               parameter_buffers - kShownParameterBuffers, FormatBytes(unshown_parameter_bytes));
  }
  for (const CallInput* input : graph_inputs) {
    const CallInput& in = *input;
    if (in.scalar) {  // a SymInt: no memory
      storages.push_back(0);
      metas.emplace_back();
      parameters.push_back(false);
      continue;
    }
    BufferChoice choice = ChooseBuffer(dev.buffers, &state, in, call);
    if (choice.fresh) {
      Result<uint32_t> made =
          make_buffer(choice.name, ExtentBytes(in), in.ShapeString(),
                      fmt::format("for {}{}", in.name, choice.note.empty() ? "" : fmt::format(" ({})", choice.note)),
                      /*parameter=*/false);
      if (!made.ok()) return fail(made.status());
    }
    const Handle* h = dev.buffers.Find(choice.name);
    storages.push_back(h->storage);
    metas.push_back(in.ToMeta());
    parameters.push_back(in.parameter);
    passed[in.name] = choice.name;
  }

  if (!runtime.graph) {
    FxGraphInfo info = AnalyzeFxGraph(*compiled, parameters, session.registry());
    // The names the caller knows the inputs by: the loaded graph's placeholders, lifted parameters' attributes.
    for (RuntimeInput& in : info.inputs) {
      if (in.lifted) continue;
      if (in.placeholder < lifted.size()) {
        in.caller_name = lifted[in.placeholder];
      } else if (in.placeholder - lifted.size() < graph_inputs.size()) {
        in.caller_name = graph_inputs[in.placeholder - lifted.size()]->name;
      }
    }
    runtime.graph = std::make_unique<AclGraph>(fmt::format("graph_{}", runtime.fx_graph), compiled, std::move(info),
                                               ConfigOf(session.settings()));
  }
  AclGraph& graph = *runtime.graph;
  Result<std::vector<CallArg>> args = BindCallArgs(graph.info(), metas, storages, dev.buffers, scalar_values);
  if (!args.ok()) return fail(args.status());
  CallEnv env{dev.sim, dev.buffers, session.registry(), call, keep, &dev.output_warning_shown, dev.StreamLimits()};
  Result<CallReport> report = graph.Call(*args, env);
  if (!report.ok()) return fail(report.status());
  for (const auto& [input, buffer] : passed) state.last_buffer[input] = buffer;
  if (!state.calls.empty()) {
    static constexpr const char* kAction[] = {"replay", "capture", "recapture", "eager"};
    CacheState::CallRecord& record = state.calls.back();
    record.runtime = kAction[static_cast<int>(report->action)];
    record.key = report->key;
    record.wall_ns = report->run.wall_ns;
    record.time_lower_bound = report->run.unknown_cost_kernels > 0;
  }
  dev.buffers.EndCall(dev.sim.allocator(), call);

  for (const CommandOutput::Line& line : made.lines()) ctx.out.Add(line.text, line.style);
  for (const RuntimeLine& line : report->lines) PrintLine(line, ctx.out);
  const RunResult& r = report->run;
  if (report->action == CallReport::Action::kEager) {
    ctx.out.Print("  aclgraph: call {}: {} ran eagerly, op by op: {}", call, graph.name(), DescribeRun(r));
  } else {
    ctx.out.Print("  aclgraph: call {}: replay of {} with {} input cop{}: {}", call, r.graph, report->input_copies,
                  report->input_copies == 1 ? "y" : "ies", DescribeRun(r));
  }
  std::vector<std::string> outs;
  for (const std::string& name : report->outputs) {
    if (name.empty()) continue;
    const Handle* h = dev.buffers.Find(name);
    if (!h) continue;
    uint64_t address = dev.buffers.storage(h->storage).address;
    outs.push_back(address ? fmt::format("{} {} at {}", name, h->shape, FormatAddress(address))
                           : fmt::format("{} {} (no memory: its size is unknown)", name, h->shape));
  }
  if (!outs.empty()) {
    ctx.out.Print("  aclgraph: returns {}{}", fmt::join(outs, ", "),
                  keep ? " (kept until dropped)" : " (held until the next call returns)");
  }
  return Status::Ok();
}

void PrintEntryRuntime(const CacheState& state, size_t index, CommandOutput& out) {
  if (index >= state.runtimes.size() || !state.runtimes[index].graph) return;
  const AclGraph& g = *state.runtimes[index].graph;
  const AclGraphStats& s = g.stats();
  out.Print(
      "        AclGraph {}: {} call(s), {} key(s), {} capture(s) ({} recapture(s): {} mutated input moved, {} core "
      "limit changed{}), {} replay(s), {} hit(s){}",
      g.name(), s.calls, s.keys.size(), s.captures, s.recaptures(), s.recaptures_mutated, s.recaptures_core_limit,
      s.recaptures_forced ? fmt::format(", {} force_recapture", s.recaptures_forced) : "", s.replays, s.hits,
      s.eager_runs ? fmt::format(", {} eager run(s)", s.eager_runs) : "");
  const AclGraphConfig& c = g.config();
  auto on = [](bool b) { return b ? "on" : "off"; };
  if (c.npugraph_ex) {
    out.Print(
        "          npugraph_ex config (fixed when it was made): clone_input {}, reuse_graph_pool_in_same_fx {}, "
        "frozen_parameter {}, clone_output {}, capture_limit {}, force_eager {}, force_recapture {}",
        on(c.clone_input), on(!c.disable_mempool_reuse_in_same_fx), on(c.frozen_parameter), on(c.enable_output_clone),
        c.static_capture_size_limit, on(c.force_eager), on(c.force_recapture));
  } else {
    out.Print(
        "          config (fixed when it was made): clone_input {}, mempool reuse {}, frozen_parameter {}, "
        "enable_output_clone {}, static_capture_size_limit {}",
        on(c.clone_input), on(!c.disable_mempool_reuse_in_same_fx), on(c.frozen_parameter), on(c.enable_output_clone),
        c.static_capture_size_limit);
  }
  if (g.fallback_to_eager()) {
    out.Print("          fell back to eager for good at call {} (graph key {}): {} captured graph(s) released",
              s.fell_back_at_call, s.fell_back_key, s.released_graphs);
  }
  for (const GraphMeta& m : g.graphs_meta()) {
    out.Print("          key {{{}}}: AclGraph {} '{}', captured at call {}{}, {} replay(s), {} hit(s), pool '{}'",
              m.key, m.graph, m.device_name, m.captured_at_call,
              m.capture > 1 ? fmt::format(" (capture {} of this key)", m.capture) : "", m.replays, m.hits, g.name());
  }
}

void PrintGraphAddresses(Session& session, CommandOutput& out) {
  const SimDevice& sim = session.device().sim;
  const DeviceBuffers& buffers = session.device().buffers;
  // The runtime's view of a captured graph, when it has one.
  std::map<uint32_t, std::pair<const AclGraph*, const GraphMeta*>> runtime_of;
  for (const AclGraph* g : AllAclGraphs(session)) {
    for (const GraphMeta& m : g->graphs_meta()) runtime_of[m.graph] = {g, &m};
  }
  if (sim.captured().empty()) out.Print("  no captured graphs");
  for (const CapturedGraph& c : sim.captured()) {
    const PoolStats& pool = sim.allocator().Stats(c.pool);
    out.Styled(Style::kHeading, "captured graph {} ({}): pool '{}' ({} reserved{})", c.id, c.name, pool.name,
               FormatBytes(pool.reserved), c.owns_pool ? "" : "; the FX graph's mempool, shared by its captures");
    auto it = runtime_of.find(c.id);
    if (it == runtime_of.end()) {
      // A graph the `capture` command made: its static inputs and the outputs it keeps.
      size_t input = 0;
      for (const CapturedGraph::Block& b : c.blocks) {
        if (b.task < 0) {
          std::string name = input < c.inputs.size() ? c.inputs[input].name : "?";
          out.Print("  {:<24} {:<16} {:>10}  static input (copied in before each replay)", name,
                    FormatAddress(DeviceAddress(b.place)), FormatBytes(b.place.size));
          ++input;
        } else if (b.live) {
          out.Print("  {:<24} {:<16} {:>10}  output of task {} ({})", c.tasks.tasks[b.task].node,
                    FormatAddress(DeviceAddress(b.place)), FormatBytes(b.place.size), b.task, c.tasks.tasks[b.task].op);
        }
      }
      continue;
    }
    const GraphMeta& m = *it->second.second;
    size_t width = 24;
    for (const BakedAddress& b : m.baked) width = std::max(width, b.what.size());
    for (const BakedAddress& b : m.baked) {
      std::string whose;
      if (b.storage >= 0) {
        const Storage& s = buffers.storage(static_cast<uint32_t>(b.storage));
        whose = fmt::format("{}{}", s.origin, s.freed() ? ", freed" : "");
      } else {
        whose = "the pool's";
      }
      bool kept = b.role == BakedAddress::Role::kOutput ? m.retained_outputs : b.retained;
      out.Print("  {:<{}} {:<16} {:>10}  {} ({}){}", b.what, width, FormatAddress(b.address), FormatBytes(b.bytes),
                BakedRoleName(b.role), whose, kept ? ", kept alive by TorchAir" : "");
    }
    out.Print("  {} write range(s) in the pool: every replay writes them", m.writes.size());
  }
  if (!buffers.handles().empty()) {
    out.Styled(Style::kHeading, "buffers the caller holds");
    for (const Handle& h : buffers.handles()) {
      const Storage& s = buffers.storage(h.storage);
      std::string what = h.kind == Handle::Kind::kInput ? fmt::format("made at call {}", h.call)
                                                        : fmt::format("output {} of call {} ({}){}", h.output, h.call,
                                                                      h.producer, h.kept ? ", kept" : "");
      out.Print("  {:<24} {:<16} {:>10}  {}{}", h.name, FormatAddress(s.address), FormatBytes(s.bytes), what,
                s.freed() ? "; its memory is free (the pool was reset or released)" : "");
    }
  }
}

namespace {

Status Drop(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("drop NAME");
  DeviceState& dev = ctx.session.device();
  const std::string& name = ctx.args[0].text;
  const Handle* h = dev.buffers.Find(name);
  if (!h) {
    std::vector<std::string> names;
    for (const Handle& x : dev.buffers.handles()) names.push_back(x.name);
    return ColumnErrorf(ctx.args[0].column, "no buffer named '{}' ({})", name,
                        names.empty() ? "the caller holds none" : fmt::format("held: {}", fmt::join(names, ", ")));
  }
  uint32_t storage = h->storage;
  AIRSCOPE_RETURN_IF_ERROR(dev.buffers.Drop(dev.sim.allocator(), name));
  const Storage& s = dev.buffers.storage(storage);
  if (s.freed()) {
    ctx.out.Print("dropped {}: {} at {} is free", name, FormatBytes(s.bytes), FormatAddress(s.address));
    for (const AclGraph* g : AllAclGraphs(ctx.session)) {
      for (const std::string& w : g->BakedAddressWarnings(dev.buffers, storage, true)) {
        ctx.out.Styled(Style::kBad, "aclgraph warning: {}", w);
      }
    }
  } else {
    std::vector<std::string> who;
    for (const AclGraph* g : AllAclGraphs(ctx.session)) {
      for (std::string& w : g->Retainers(storage)) who.push_back(std::move(w));
    }
    for (const Handle& other : dev.buffers.handles()) {
      if (other.storage == storage) who.push_back(fmt::format("{} names it too", other.name));
    }
    ctx.out.Print("dropped {}: its memory ({} at {}) stays allocated: {}", name, FormatBytes(s.bytes),
                  FormatAddress(s.address), fmt::join(who, "; "));
  }
  return Status::Ok();
}

}  // namespace

void RegisterRuntimeCommands(CommandTable& table) {
  table.Add({"drop", "drop NAME", "let go of a device buffer or a call's output (reduce-overhead calls)",
             "Drops the handle NAME: a buffer a call's input was passed in (`call x=f32[4,4] in buf1`, or `x@3`,\n"
             "made for input x at call 3) or an output a call returned (`out3.0`: output 0 of call 3). Its memory\n"
             "is freed unless something else holds it: TorchAir keeps the tensors it retains alive (outputs of a\n"
             "single graph key, inputs captured without clone_input, inputs an output aliases). A freed address\n"
             "that a captured graph baked in (a parameter's, a mutated input's) is named with a warning, and so\n"
             "is a later buffer the allocator places there. `mem --graph` lists what each graph baked in.",
             Drop, [](const std::vector<std::string>&) {
               return CompletionRule{CompletionKind::kBuffer, {}};
             }});
}

}  // namespace airscope
