#include "core/runtime/piecewise_runtime.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/lower/task_graph.h"
#include "core/ops/specialize.h"
#include "core/runtime/fx_graph_info.h"

namespace airscope {
namespace {

// "Sym(s72)" -> "s72"; "" when the node is not a SymInt placeholder.
std::string SymbolOfPlaceholder(const Node& node) {
  const NodeMeta* meta = node.meta();
  if (!meta || meta->kind != ValueKind::kSymInt) return "";
  std::string_view a = meta->annotation;
  if (a.size() > 5 && a.substr(0, 4) == "Sym(" && a.back() == ')') return std::string(a.substr(4, a.size() - 5));
  return std::string(a);
}

// Collectives whose group a piece communicates in: torch's functional
// collectives (group_name), vLLM's own (vllm.all_reduce(x, group_name)) and
// TorchAir's npu_define ops (tag). The group is the last string argument.
bool IsCollective(std::string_view target) {
  for (std::string_view prefix : {"_c10d_functional.", "c10d_functional.", "npu_define.", "vllm.all_reduce",
                                  "vllm.all_gather", "vllm.reduce_scatter"}) {
    if (target.starts_with(prefix)) return true;
  }
  return false;
}

int64_t CollectiveGroups(const Graph& graph) {
  std::set<std::string> groups;
  for (const Node* node : graph) {
    if (node->op() != OpKind::kCallFunction || !IsCollective(node->target())) continue;
    std::string group = "(no group named)";
    for (const Argument& a : node->args()) {
      if (a.kind() == Argument::Kind::kString) group = a.as_string();
    }
    for (const Kwarg& k : node->kwargs()) {
      if (k.value.kind() == Argument::Kind::kString) group = k.value.as_string();
    }
    groups.insert(group);
  }
  return static_cast<int64_t>(groups.size());
}

Status CheckSizes(const std::vector<int64_t>& sizes) {
  if (sizes.empty()) return Status::Error("no capture size given");
  std::set<int64_t> seen;
  for (int64_t s : sizes) {
    if (s < 1) return Status::Errorf("capture size {} is not a batch size (1 or more)", s);
    if (!seen.insert(s).second) return Status::Errorf("capture size {} is given twice", s);
  }
  return Status::Ok();
}

}  // namespace

std::optional<HcclExpansion> ParseHcclExpansion(std::string_view text) {
  for (HcclExpansion mode : {HcclExpansion::kFfts, HcclExpansion::kAiv, HcclExpansion::kAicpu}) {
    if (text == HcclExpansionName(mode)) return mode;
  }
  return std::nullopt;
}

const char* HcclExpansionName(HcclExpansion mode) {
  switch (mode) {
    case HcclExpansion::kFfts: return "ffts";
    case HcclExpansion::kAiv: return "aiv";
    case HcclExpansion::kAicpu: return "aicpu";
  }
  return "?";
}

int64_t CommStreams::PerGraph(int64_t groups) const {
  switch (mode) {
    case HcclExpansion::kFfts: return 2 * groups;  // the divisor 1 + 2 x groups, vau26:733
    case HcclExpansion::kAiv: return groups;       // parallel_factor 1 + groups, vau26:694-699
    case HcclExpansion::kAicpu: return (std::max<int64_t>(rank_size, 1) - 1) * groups;  // vau26:723-725
  }
  return 0;
}

int64_t CommStreams::PerDevice(int64_t groups) const {
  return mode == HcclExpansion::kFfts ? 40 * groups : 0;  // vau26:733
}

Result<PiecewiseRuntime> PiecewiseRuntime::Make(std::string name, std::vector<RuntimePiece> pieces,
                                                PiecewiseOptions options, const OpRegistry& registry) {
  PiecewiseRuntime rt;
  rt.name_ = std::move(name);
  AIRSCOPE_RETURN_IF_ERROR(CheckSizes(options.capture_sizes));
  if (options.layers < 0) return Status::Errorf("--layers {}: a model has at least 1 layer", options.layers);
  // The size symbol: the one SymInt placeholder of the pieces' inputs (vLLM
  // marks the token count dynamic; its Dynamo graph lifts it as `s72`).
  std::set<std::string> symbols;
  for (const RuntimePiece& p : pieces) {
    for (const Node* ph : p.lowered->Placeholders()) {
      std::string sym = SymbolOfPlaceholder(*ph);
      if (!sym.empty()) symbols.insert(sym);
    }
  }
  if (symbols.size() > 1) {
    return Status::Errorf("the pieces have {} size symbols ({}); vLLM's graphs have one, the token count",
                          symbols.size(), fmt::join(symbols, ", "));
  }
  if (symbols.empty()) {
    return Status::Error(
        "no piece takes a size symbol (a SymInt input such as s72): the graph was traced at one size, and every "
        "capture size would capture that size");
  }
  rt.symbol_ = *symbols.begin();
  // Every dim of every piece input must be static or the size symbol.
  for (const RuntimePiece& p : pieces) {
    for (const Node* ph : p.lowered->Placeholders()) {
      const TensorMeta* t = ph->tensor();
      if (!t) continue;
      for (const Dim& d : t->sizes) {
        if (!d.is_static() && d.symbol() != rt.symbol_) {
          return Status::Errorf(
              "piece {}: input {} has size {} ({}): airscope captures a piece at a size only where "
              "each dim is a number or the size symbol {}",
              p.piece.name, ph->name(), d.symbol(), t->ToAnnotation(), rt.symbol_);
        }
      }
    }
  }
  // Layers: the split pieces' ops repeat every `period` split pieces (one
  // attention per layer: 1; an indexer and an attention: 2). A unit is a
  // layer's split pieces and the pieces after them up to the next layer; the
  // pieces before the first split op come first (layer 0).
  std::vector<size_t> split_at;  // indices of split pieces
  std::vector<std::string> kinds;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!pieces[i].piece.is_split_op) continue;
    split_at.push_back(i);
    std::string kind;
    for (const Node* node : *pieces[i].piece.graph) {
      if (node->op() == OpKind::kCallFunction) kind += node->target() + ";";
    }
    kinds.push_back(std::move(kind));
  }
  if (split_at.size() == pieces.size()) return Status::Error("every piece is a split op: nothing to capture");
  size_t period = std::max<size_t>(split_at.size(), 1);
  for (size_t p = 1; p < split_at.size(); ++p) {
    bool repeats = split_at.size() % p == 0;
    for (size_t k = p; repeats && k < kinds.size(); ++k) repeats = kinds[k] == kinds[k % p];
    if (repeats) {
      period = p;
      break;
    }
  }
  const size_t graph_layers = split_at.size() / period;
  std::vector<std::vector<size_t>> units(graph_layers + 1);  // units[0]: before the first split op
  for (size_t i = 0; i < pieces.size(); ++i) {
    size_t unit = 0;
    while (unit < graph_layers && i >= split_at[unit * period]) ++unit;
    units[unit].push_back(i);
  }
  rt.graph_layers_ = static_cast<int64_t>(graph_layers);
  rt.layers_ = options.layers == 0 ? rt.graph_layers_ : options.layers;
  std::vector<std::pair<size_t, int64_t>> order;  // piece, layer
  for (size_t i : units[0]) order.emplace_back(i, 0);
  if (rt.layers_ == rt.graph_layers_) {
    for (size_t u = 1; u <= graph_layers; ++u) {
      for (size_t i : units[u]) order.emplace_back(i, static_cast<int64_t>(u));
    }
  } else {
    if (graph_layers < 2) {
      return Status::Errorf(
          "--layers {}: the graph has {} layer(s) (split ops repeating every {}), so no layer "
          "between the first and the last to repeat",
          rt.layers_, graph_layers, period);
    }
    for (int64_t k = 0; k + 1 < rt.layers_; ++k) {
      for (size_t i : units[1 + static_cast<size_t>(k) % (graph_layers - 1)]) order.emplace_back(i, k + 1);
    }
    for (size_t i : units[graph_layers]) order.emplace_back(i, rt.layers_);
  }
  // Which captured piece reads each output last (piece ids of the split).
  std::map<std::string, int> last_reader;  // value -> piece id; -1: the graph's output only
  for (const RuntimePiece& p : pieces) {
    for (const std::string& in : p.piece.inputs) last_reader[in] = std::max(last_reader[in], p.piece.id);
  }
  std::vector<int> captured_before(pieces.size() + 1, 0);  // captured pieces among the first i
  for (size_t i = 0; i < pieces.size(); ++i) captured_before[i + 1] = captured_before[i] + !pieces[i].piece.is_split_op;
  std::map<int, size_t> index_of_id;
  for (size_t i = 0; i < pieces.size(); ++i) index_of_id[pieces[i].piece.id] = i;
  const size_t last_captured = [&] {
    size_t last = 0;
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (!pieces[i].piece.is_split_op) last = i;
    }
    return last;
  }();
  std::vector<std::vector<int64_t>> keep(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    for (const std::string& out : pieces[i].piece.outputs) {
      auto it = last_reader.find(out);
      if (it == last_reader.end()) {  // the graph's output
        keep[i].push_back(i == last_captured ? 0 : -1);
        continue;
      }
      size_t reader = index_of_id[it->second];
      keep[i].push_back(reader >= last_captured && i != last_captured
                            ? -1
                            : std::max(0, captured_before[reader + 1] - captured_before[i + 1]));
    }
  }
  for (const auto& [i, layer] : order) rt.instances_.push_back({i, layer, keep[i]});
  for (const RuntimePiece& p : pieces) {
    rt.piece_groups_.push_back(options.comm.assumed_groups >= 0 ? options.comm.assumed_groups
                                                                : CollectiveGroups(*p.lowered));
    FxGraphInfo info = AnalyzeFxGraph(*p.lowered, {}, registry);
    std::vector<std::string> bases;
    for (const FxGraphOutput& o : info.outputs) bases.push_back(o.aliases_input >= 0 ? "" : o.base);
    rt.output_bases_.push_back(std::move(bases));
  }
  for (int64_t g : rt.piece_groups_) rt.most_groups_ = std::max(rt.most_groups_, g);
  rt.pieces_ = std::move(pieces);
  rt.options_ = std::move(options);
  return rt;
}

Result<PiecewiseRuntime> PiecewiseRuntime::WithSizes(std::vector<int64_t> sizes) const {
  AIRSCOPE_RETURN_IF_ERROR(CheckSizes(sizes));
  PiecewiseRuntime copy = *this;
  copy.options_.capture_sizes = std::move(sizes);
  copy.sizes_.clear();
  copy.device_streams_held_ = false;
  copy.replay_logged_ = false;
  return copy;
}

std::vector<int64_t> PiecewiseRuntime::CaptureOrder() const {
  std::vector<int64_t> sizes = options_.capture_sizes;
  std::sort(sizes.rbegin(), sizes.rend());
  return sizes;
}

size_t PiecewiseRuntime::captured_instances() const {
  size_t n = 0;
  for (const Instance& in : instances_) n += !pieces_[in.piece].piece.is_split_op;
  return n;
}

std::string PiecewiseRuntime::InstanceLabel(size_t instance) const {
  const Instance& in = instances_[instance];
  if (in.layer == 0) return fmt::format("{} (before layer 1)", pieces_[in.piece].piece.name);
  return fmt::format("{} (layer {})", pieces_[in.piece].piece.name, in.layer);
}

std::string PiecewiseRuntime::CommStreamsOwner() const {
  return fmt::format("{}: HCCL ({}, {} group(s))", name_, HcclExpansionName(options_.comm.mode), most_groups_);
}

Result<std::unique_ptr<Graph>> PiecewiseRuntime::AtSize(size_t piece, int64_t size, const OpRegistry& registry) const {
  std::unique_ptr<Graph> graph = pieces_[piece].lowered->Clone();
  std::vector<TensorMeta> metas;
  for (Node* ph : graph->Placeholders()) {
    if (!SymbolOfPlaceholder(*ph).empty()) {
      NodeMeta m = *ph->meta();
      m.annotation = fmt::format("Sym({})", size);
      ph->set_meta(std::move(m));
      metas.emplace_back();
      continue;
    }
    TensorMeta t = ph->tensor() ? *ph->tensor() : TensorMeta{};
    for (Dim& d : t.sizes) {
      if (!d.is_static()) d = Dim(size);
    }
    metas.push_back(std::move(t));
  }
  return SpecializeInputs(*graph, metas, registry);
}

Result<const PiecewiseRuntime::LoweredPiece*> PiecewiseRuntime::Lower(size_t piece, int64_t size,
                                                                      const OpRegistry& registry,
                                                                      std::map<size_t, LoweredPiece>& cache) const {
  // Every layer's instance of a piece lowers to the same tasks at a size.
  if (auto it = cache.find(piece); it != cache.end()) return &it->second;
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, AtSize(piece, size, registry));
  Result<TaskGraph> tasks = BuildTaskGraph(*graph, registry, {.accesses = false});
  if (!tasks.ok()) return tasks.status().WithPrefix("lower");
  LoweredPiece lowered;
  std::map<std::string, uint32_t> task_of;
  for (const DeviceTask& t : tasks->tasks) {
    if (t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy) task_of.emplace(t.node, t.id);
  }
  for (const std::string& base : output_bases_[piece]) {
    auto it = task_of.find(base);
    lowered.output_task.push_back(it == task_of.end() ? -1 : it->second);
  }
  lowered.tasks = std::move(*tasks);
  lowered.unknown_cost_kernels = CountKernels(lowered.tasks).unknown_cost;
  return &cache.emplace(piece, std::move(lowered)).first->second;
}

Result<SizeCapture> PiecewiseRuntime::CaptureSize(int64_t size, SimDevice& device, PoolId pool,
                                                  const OpRegistry& registry, std::vector<std::string>* lines) {
  if (!device_streams_held_) {
    int64_t streams = options_.comm.PerDevice(most_groups_);
    if (streams > 0) AIRSCOPE_RETURN_IF_ERROR(device.HoldStreams(CommStreamsOwner(), streams));
    device_streams_held_ = true;
  }
  SizeCapture out;
  out.size = size;
  CachingAllocator& memory = device.allocator();
  out.pool_before = memory.Stats(pool).reserved;
  // Blocks still alive in this forward, freed when their last reader is captured.
  struct Pending {
    BlockId block;
    int64_t until;  // captured-instance count after which it is freed; -1: the end
  };
  std::vector<Pending> alive;
  int64_t captured_count = 0;
  auto fail = [&](Status error) -> Status {
    for (const PieceCapture& c : out.graphs) (void)device.Release(c.graph);
    for (const Pending& p : alive) memory.Free(p.block);
    return error;
  };
  bool logged = false;
  std::map<size_t, LoweredPiece> lowered;  // by piece, at this size
  for (size_t i = 0; i < instances_.size(); ++i) {
    const Instance& in = instances_[i];
    const RuntimePiece& piece = pieces_[in.piece];
    if (piece.piece.is_split_op) continue;
    Result<const LoweredPiece*> made = Lower(in.piece, size, registry, lowered);
    if (!made.ok()) return fail(made.status().WithPrefix(fmt::format("{} at size {}", InstanceLabel(i), size)));
    const std::vector<int64_t>& output_task = (*made)->output_task;
    CaptureOptions options;
    options.pool = pool;
    options.extra_streams = options_.comm.PerGraph(piece_groups_[in.piece]);
    for (int64_t t : output_task) {
      if (t >= 0) options.outputs.push_back(static_cast<uint32_t>(t));
    }
    if (!logged && lines) {
      lines->push_back(
          fmt::format("DEBUG vllm-ascend: Capturing a aclgraph on (PIECEWISE,BatchDescriptor(num_tokens={}))", size));
      logged = true;
    }
    std::string graph_name = fmt::format("{} {} [{}]", name_, InstanceLabel(i), size);
    Result<uint32_t> id = device.Capture((*made)->tasks, graph_name, {}, options);
    if (!id.ok()) {
      return fail(Status::Errorf(
          "capture of {} at size {} failed: ACL graph capture failed with a known stream-resource exhaustion "
          "signature. Consider reducing cudagraph_capture_sizes, lowering max_cudagraph_capture_size, preferring "
          "FULL or FULL_DECODE_ONLY for mostly uniform decode workloads, or temporarily disabling graph mode to "
          "confirm the failure is capture-related.\nOriginal error:\n{}",
          InstanceLabel(i), size, id.status().message()));
    }
    ++captured_count;
    const CapturedGraph& c = device.captured().back();
    out.graphs.push_back({i, c.id, c.streams(), c.events, c.capture_ns});
    out.streams += c.streams();
    out.events += c.events;
    out.capture_ns += c.capture_ns;
    out.unknown_cost_kernels += (*made)->unknown_cost_kernels;
    // Its outputs live as long as a later piece of this forward reads them.
    // A block live at the capture's end that no output owns is a value
    // nobody holds: it goes back to the pool at once.
    for (const CapturedGraph::Block& b : c.blocks) {
      if (!b.live) continue;
      int64_t until = captured_count;
      for (size_t o = 0; o < output_task.size() && o < in.keep_for.size(); ++o) {
        if (output_task[o] != b.task) continue;
        if (in.keep_for[o] < 0) {
          until = -1;
          break;
        }
        until = std::max(until, captured_count + in.keep_for[o]);
      }
      alive.push_back({b.id, until});
    }
    std::erase_if(alive, [&](const Pending& p) {
      if (p.until < 0 || p.until > captured_count) return false;
      memory.Free(p.block);
      return true;
    });
  }
  // The forward is over: what it still held goes back to the pool.
  for (const Pending& p : alive) memory.Free(p.block);
  out.pool_after = memory.Stats(pool).reserved;
  sizes_.push_back(out);
  return out;
}

void PiecewiseRuntime::Release(SimDevice& device) {
  for (const SizeCapture& s : sizes_) {
    for (const PieceCapture& c : s.graphs) (void)device.Release(c.graph);
  }
  sizes_.clear();
  if (device_streams_held_) {
    device.ReleaseStreams(CommStreamsOwner());
    device_streams_held_ = false;
  }
}

Result<BatchRun> PiecewiseRuntime::Run(int64_t tokens, SimDevice& device, const OpRegistry& registry) {
  if (tokens < 1) return Status::Errorf("a batch of {} tokens: 1 or more", tokens);
  BatchRun run;
  run.tokens = tokens;
  const SizeCapture* at = nullptr;
  for (const SizeCapture& s : sizes_) {
    if (s.size >= tokens && (!at || s.size < at->size)) at = &s;
  }
  run.padded = at ? at->size : 0;
  if (!at) {
    run.lines.push_back(
        fmt::format("{} tokens: beyond the largest captured size{}: every piece runs eagerly", tokens,
                    sizes_.empty() ? " (none captured)" : fmt::format(" ({})", CaptureOrder().front())));
  } else if (at->size != tokens) {
    run.lines.push_back(fmt::format("{} tokens: padded to capture size {}", tokens, at->size));
  }
  RunOptions options;
  options.trace = TraceLevel::kNone;
  size_t next_graph = 0;
  std::map<size_t, LoweredPiece> lowered;  // the eager pieces, by piece
  for (size_t i = 0; i < instances_.size(); ++i) {
    const Instance& in = instances_[i];
    bool eager = !at || pieces_[in.piece].piece.is_split_op;
    Result<RunResult> r = Status::Error("not run");
    if (!eager) {
      if (!replay_logged_) {
        run.lines.push_back("INFO vllm-ascend: Replaying aclgraph");
        replay_logged_ = true;
      }
      r = device.Replay(at->graphs[next_graph++].graph, options);
      ++run.replays;
    } else {
      Result<const LoweredPiece*> made = Lower(in.piece, at ? at->size : tokens, registry, lowered);
      if (!made.ok()) return made.status().WithPrefix(InstanceLabel(i));
      r = device.Eager((*made)->tasks, InstanceLabel(i), options);
      ++run.eager_pieces;
    }
    if (!r.ok()) return r.status().WithPrefix(InstanceLabel(i));
    run.wall_ns += r->wall_ns;
    run.lower_bound = run.lower_bound || r->unknown_cost_kernels > 0;
  }
  return run;
}

}  // namespace airscope
