#include "core/runtime/acl_graph.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/lower/task_graph.h"
#include "core/ops/specialize.h"
#include "core/text.h"

namespace airscope {
namespace {

int64_t BytesOf(const TensorMeta& meta) { return meta.NumBytes().value_or(0); }
bool IsNpu(const TensorMeta& meta) { return meta.device.empty() || meta.device.starts_with("npu"); }

// Where each log line of AclGraph is in TorchAir's acl_graph.py and in
// npugraph_ex's copy of it.
struct LogSite {
  int torchair;
  int npugraph_ex;
};
constexpr LogSite kFindCaptured{974, 962};
constexpr LogSite kNeedsRecapture{977, 965};
constexpr LogSite kNoNeedsRecapture{982, 970};
constexpr LogSite kLimitReached{1011, 999};
constexpr LogSite kCounters{1018, 1006};
constexpr LogSite kNoFindCaptured{1114, 1104};
constexpr LogSite kAfterCapturing{1143, 1133};
constexpr LogSite kCaptureSucceeded{1243, 1233};
constexpr LogSite kFixedAddresses{1472, 1470};

// "acl_graph.py:LINE" in the package `config` is.
std::string Where(const AclGraphConfig& config, LogSite site) {
  return fmt::format("acl_graph.py:{}", config.npugraph_ex ? site.npugraph_ex : site.torchair);
}

RuntimeLine LogLine(const AclGraphConfig& config, std::string level, LogSite site, std::string text) {
  return {config.npugraph_ex ? RuntimeLine::Source::kNpugraphEx : RuntimeLine::Source::kTorchAir, std::move(level),
          Where(config, site), std::move(text)};
}

RuntimeLine Note(std::string text) { return {RuntimeLine::Source::kNote, "", "", std::move(text)}; }
RuntimeLine Warning(std::string text) { return {RuntimeLine::Source::kWarning, "", "", std::move(text)}; }

bool Overlap(uint64_t a, int64_t an, uint64_t b, int64_t bn) {
  return an > 0 && bn > 0 && a < b + static_cast<uint64_t>(bn) && b < a + static_cast<uint64_t>(an);
}

// The first tensor input's dtype: kernels without a dtype of their own use its peak.
DType ComputeDType(const std::vector<CallArg>& args, const FxGraphInfo& info) {
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    if (info.inputs[i].kind == RuntimeInput::Kind::kTensor && args[i].meta.dtype != DType::kUnknown) {
      return args[i].meta.dtype;
    }
  }
  return DType::kFloat32;
}

// Frees every live block of `pool`: TorchAir's _npu_setCheckpointPoolState to
// the state taken before the first capture, in which the pool held nothing.
void FreePoolBlocks(CachingAllocator& memory, PoolId pool) {
  for (const auto& [segment, offset, size, block] : memory.PoolLayout(pool).pieces) {
    if (block != 0) memory.Free(block);
  }
}

}  // namespace

std::string_view BakedRoleName(BakedAddress::Role role) {
  switch (role) {
    case BakedAddress::Role::kStagingInput: return "staged input";
    case BakedAddress::Role::kUserInput: return "user input";
    case BakedAddress::Role::kParameter: return "parameter";
    case BakedAddress::Role::kMutatedInput: return "mutated input";
    case BakedAddress::Role::kAliasedInput: return "input an output aliases";
    case BakedAddress::Role::kOutput: return "output";
  }
  return "?";
}

AclGraph::AclGraph(std::string name, std::shared_ptr<const Graph> compiled, FxGraphInfo info, AclGraphConfig config)
    : name_(std::move(name)), compiled_(std::move(compiled)), info_(std::move(info)), config_(config) {}

int AclGraph::FindMeta(const std::string& key) const {
  for (size_t i = 0; i < metas_.size(); ++i) {
    if (metas_[i].key == key) return static_cast<int>(i);
  }
  return -1;
}

std::string AclGraph::Describe(const GraphMeta& meta) const {
  return fmt::format("AclGraph {} ({})", meta.graph, meta.device_name);
}

std::string AclGraph::NeedRecapture(GraphMeta& meta, const std::vector<CallArg>& args, const CallEnv& env,
                                    RecaptureCause* cause) {
  // npugraph_ex's force_recapture comes before everything (nxag:1361-1363).
  if (config_.force_recapture) {
    ++counter_forced_;
    *cause = RecaptureCause::kForced;
    return "npugraph_ex.force_recapture is on";
  }
  // is_need_to_recapture (ag:1365-1385): mutated inputs first.
  *cause = RecaptureCause::kMutatedInput;
  for (const auto& [idx, ptr] : meta.captured_mutated_inputs) {
    if (ptr != args[idx].data_ptr) {
      ++counter_mutated_;
      return fmt::format("mutated input {} moved from {} to {}", info_.inputs[idx].Label(), FormatAddress(ptr),
                         FormatAddress(args[idx].data_ptr));
    }
  }
  // Then the calling stream's core limits against the capture's (ag:1375-1385).
  if (env.stream_limits != meta.captured_limits) {
    ++counter_core_;
    *cause = RecaptureCause::kCoreLimits;
    return fmt::format(
        "the calling stream's core limits are (cube {}, vector {}), the capture's were (cube {}, vector {})",
        env.stream_limits.cube, env.stream_limits.vector, meta.captured_limits.cube, meta.captured_limits.vector);
  }
  return "";
}

Result<AclGraph::Lowered> AclGraph::LowerFor(const std::vector<CallArg>& args, const OpRegistry& registry) const {
  bool symbolic = false;
  for (const RuntimeInput& in : info_.inputs) {
    if (in.kind == RuntimeInput::Kind::kSymInt) symbolic = true;
    for (const Dim& d : in.meta.sizes) symbolic = symbolic || !d.is_static();
  }
  // The graph at this call's sizes, as TorchAir captures it with the call's tensors.
  std::unique_ptr<Graph> specialized;
  if (symbolic) {
    std::vector<TensorMeta> metas(compiled_->Placeholders().size());
    for (size_t i = 0; i < info_.inputs.size(); ++i) {
      const RuntimeInput& in = info_.inputs[i];
      if (!in.lifted && in.kind == RuntimeInput::Kind::kTensor) metas[in.placeholder] = args[i].meta;
    }
    AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> made, SpecializeInputs(*compiled_, metas, registry));
    specialized = std::move(made);
  }
  const Graph& graph = specialized ? *specialized : *compiled_;
  Result<TaskGraph> tasks = BuildTaskGraph(graph, registry);
  if (!tasks.ok()) return tasks.status().WithPrefix("lower");
  Lowered lowered;
  lowered.tasks = std::move(tasks).value();
  for (const FxGraphOutput& out : info_.outputs) {
    const Node* node = out.node.empty() ? nullptr : graph.Find(out.node);
    const TensorMeta* meta = node ? node->tensor() : nullptr;
    lowered.outputs.push_back(meta ? *meta : out.meta);
  }
  return lowered;
}

void AclGraph::ReleaseRetainedOutputs(GraphMeta& meta, CallEnv& env) {
  for (uint32_t s : meta.held_outputs) env.buffers.Release(env.device.allocator(), s);
  meta.held_outputs.clear();
  meta.retained_outputs = false;
}

void AclGraph::ReleaseHeld(GraphMeta& meta, CallEnv& env) {
  ReleaseRetainedOutputs(meta, env);
  for (uint32_t s : meta.held_inputs) env.buffers.Release(env.device.allocator(), s);
  meta.held_inputs.clear();
}

Result<CallReport> AclGraph::Call(const std::vector<CallArg>& args, CallEnv& env) {
  // Everything a failed call must leave as it found it.
  AclGraph self_before = *this;
  DeviceBuffers buffers_before = env.buffers;
  CachingAllocator memory_before = env.device.allocator();
  std::vector<uint32_t> graphs_before;
  for (const CapturedGraph& c : env.device.captured()) graphs_before.push_back(c.id);
  auto rollback = [&](Status status) -> Result<CallReport> {
    for (const GraphMeta& m : metas_) {
      if (std::find(graphs_before.begin(), graphs_before.end(), m.graph) == graphs_before.end()) {
        (void)env.device.Release(m.graph);
      }
    }
    *this = std::move(self_before);
    env.buffers = std::move(buffers_before);
    env.device.allocator() = std::move(memory_before);
    return status;
  };

  CallReport report;
  ++stats_.calls;
  if (config_.force_eager) {
    // npugraph_ex's __call__ runs eagerly before compile (nxag:823-826): no
    // mempool, no graph key, no capture. Its compiler warned once, when it
    // compiled the graph (nxnfc:644-647).
    if (stats_.calls == 1) {
      report.lines.push_back(
          {RuntimeLine::Source::kNpugraphEx, "WARNING", "npu_fx_compiler.py:645", npugraph_ex_text::ForceEager()});
    }
    report.lines.push_back(Note(fmt::format(
        "{}: npugraph_ex.force_eager: run eagerly, op by op, never captured (npugraph_ex's acl_graph.py:823-826)",
        name_)));
    Status ran = RunEagerly(args, env, report);
    if (!ran.ok()) return rollback(ran);
    return report;
  }
  if (!initialized_) {
    // compile(), first call (ag:931-964): the dummy capture that makes the mempool.
    pool_ = env.device.allocator().CreatePool(name_);
    initialized_ = true;
    report.lines.push_back(
        Note(fmt::format("{}: first call: mempool '{}' made for its captures (the empty capture "
                         "that initializes it, acl_graph.py:957-962)",
                         name_, name_)));
  }
  if (fallback_) {
    report.key = "fallback_to_eager";
    Status ran = RunEagerly(args, env, report);
    if (!ran.ok()) return rollback(ran);
    return report;
  }
  const std::string key = GraphKey(info_, args, config_.frozen_parameter);
  report.key = key;
  if (std::find(stats_.keys.begin(), stats_.keys.end(), key) == stats_.keys.end()) stats_.keys.push_back(key);
  int found = FindMeta(key);
  std::string cause;
  RecaptureCause recapture = RecaptureCause::kMutatedInput;
  std::optional<uint32_t> saved;
  if (found >= 0) {
    GraphMeta& meta = metas_[static_cast<size_t>(found)];
    report.lines.push_back(
        LogLine(config_, "INFO", kFindCaptured, torchair_text::FindCaptured(meta.graph, name_, key)));
    cause = NeedRecapture(meta, args, env, &recapture);
    if (cause.empty()) {
      report.lines.push_back(LogLine(config_, "DEBUG", kNoNeedsRecapture, torchair_text::NoNeedsRecapture(name_, key)));
      ++meta.hits;
      ++stats_.hits;
      report.action = CallReport::Action::kReplay;
      Status replayed = ReplayKey(static_cast<size_t>(found), args, env, report);
      if (!replayed.ok()) return rollback(replayed);
      return report;
    }
    report.lines.push_back(LogLine(config_, "DEBUG", kNeedsRecapture, torchair_text::NeedsRecapture(name_, key)));
    report.lines.push_back(Note(fmt::format("{} recaptures: {} (is_need_to_recapture, acl_graph.py:{})", Describe(meta),
                                            cause, config_.npugraph_ex ? "1360-1383" : "1365-1385")));
    saved = meta.graph;
  }
  const bool reuse = !config_.disable_mempool_reuse_in_same_fx;
  if (reuse && metas_.size() == 1) {
    // ag:986-996: the single key's retained outputs are let go (the caller may still hold them).
    ReleaseRetainedOutputs(metas_.front(), env);
  }
  if (static_cast<int64_t>(metas_.size()) == config_.static_capture_size_limit) {
    // ag:999-1014: warnings.warn and logger.warning of the same text.
    std::string text = config_.npugraph_ex
                           ? npugraph_ex_text::LimitReached(name_, key, config_.static_capture_size_limit)
                           : torchair_text::LimitReached(name_, key, config_.static_capture_size_limit);
    report.lines.push_back(LogLine(config_, "WARNING", kLimitReached, text));
    fallback_ = true;
    stats_.fell_back_at_call = env.call;
    stats_.fell_back_key = key;
    ResetCapturedGraph(env, report);
    report.key = "fallback_to_eager";
    Status ran = RunEagerly(args, env, report);
    if (!ran.ok()) return rollback(ran);
    return report;
  }
  Status captured = CaptureForKey(key, args, env, report);
  if (!captured.ok()) return rollback(captured);
  report.lines.push_back(LogLine(
      config_, "DEBUG", kCounters,
      config_.npugraph_ex
          ? npugraph_ex_text::Counters(name_, counter_captured_, counter_mutated_, counter_core_, counter_forced_)
          : torchair_text::Counters(name_, counter_captured_, counter_mutated_, counter_core_)));
  report.action = saved ? CallReport::Action::kRecapture : CallReport::Action::kCapture;
  if (saved) {
    ++(recapture == RecaptureCause::kCoreLimits ? stats_.recaptures_core_limit
       : recapture == RecaptureCause::kForced   ? stats_.recaptures_forced
                                                : stats_.recaptures_mutated);
    report.lines.push_back(Note(fmt::format("the old AclGraph {} is reset (acl_graph.py:1021-1022)", *saved)));
    (void)env.device.Release(*saved);
  }
  Status replayed = ReplayKey(static_cast<size_t>(FindMeta(key)), args, env, report);
  if (!replayed.ok()) return rollback(replayed);
  return report;
}

Status AclGraph::CaptureForKey(const std::string& key, const std::vector<CallArg>& args, CallEnv& env,
                               CallReport& report) {
  CachingAllocator& memory = env.device.allocator();
  const bool reuse = !config_.disable_mempool_reuse_in_same_fx;
  const bool clone = config_.clone_input;
  int existing = FindMeta(key);
  GraphMeta meta;
  meta.key = key;
  meta.captured_at_call = env.call;
  meta.captured_limits = env.stream_limits;  // _save_stream_core_limits (ag:1133), before the capture
  if (existing >= 0) {
    // graphs_meta[key] = GraphMeta(...) (ag:1089): the old one's retained tensors go.
    GraphMeta& old = metas_[static_cast<size_t>(existing)];
    meta.capture = old.capture + 1;
    ReleaseHeld(old, env);
  }
  const size_t keys_after = metas_.size() + (existing < 0 ? 1 : 0);
  counter_captured_ = static_cast<int64_t>(keys_after);  // ag:1093

  // Addresses recorded before the capture (ag:1102-1116).
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    const RuntimeInput& in = info_.inputs[i];
    if (in.kind != RuntimeInput::Kind::kTensor) continue;
    const CallArg& a = args[i];
    if (in.parameter) {
      meta.captured_parameter.emplace(i, a.data_ptr);
      meta.baked.push_back(
          {BakedAddress::Role::kParameter, in.Label(), a.data_ptr, BytesOf(a.meta), a.storage, false, i});
      continue;
    }
    if (in.mutated) {
      meta.captured_mutated_inputs.emplace(i, a.data_ptr);
      meta.baked.push_back(
          {BakedAddress::Role::kMutatedInput, in.Label(), a.data_ptr, BytesOf(a.meta), a.storage, false, i});
      continue;
    }
    if (!in.aliased_by_outputs.empty()) {
      meta.captured_userinput_ref_with_output.emplace(i, a.data_ptr);
      userinput_ref_data_ptr_.emplace(i, a.data_ptr);  // setdefault: the first capture's
      env.buffers.Hold(a.storage);
      meta.held_inputs.push_back(a.storage);
      meta.baked.push_back(
          {BakedAddress::Role::kAliasedInput, in.Label(), a.data_ptr, BytesOf(a.meta), a.storage, true, i});
    }
  }

  // Mempool reuse across keys: back to the state before the first capture (ag:1117-1130).
  std::string reset_note;
  if (reuse && keys_after > 1) {
    std::vector<std::string> stale;
    for (const Handle& h : env.buffers.handles()) {
      const Storage& s = env.buffers.storage(h.storage);
      if (s.pool == pool_ && !s.freed()) stale.push_back(h.name);
    }
    FreePoolBlocks(memory, pool_);
    env.buffers.PoolWasReset(pool_);
    reset_note = fmt::format(
        "mempool '{}' set back to its state before the first capture, so this capture reuses the "
        "memory of the others (_npu_setCheckpointPoolState, acl_graph.py:1117-1130){}",
        name_, stale.empty() ? "" : fmt::format("; held there, now free for it: {}", JoinAtMost(stale, 8)));
  }

  AIRSCOPE_ASSIGN_OR_RETURN(Lowered lowered, LowerFor(args, env.registry));
  const TaskGraph* tasks = &lowered.tasks;
  meta.output_meta = lowered.outputs;
  // Staged user inputs (ag:1193-1215): not mutated, not aliased by an output, not parameters.
  std::vector<GraphInput> staging;
  std::vector<size_t> staged;
  for (size_t i = 0; i < info_.inputs.size(); ++i) {
    const RuntimeInput& in = info_.inputs[i];
    if (in.kind != RuntimeInput::Kind::kTensor || in.parameter || in.mutated || !in.aliased_by_outputs.empty())
      continue;
    staged.push_back(i);
    // empty_like only for NPU tensors (args_list[input_idx].is_npu, ag:1204).
    if (clone && IsNpu(args[i].meta)) staging.push_back({in.name, BytesOf(args[i].meta)});
  }
  // Which task makes each output's memory.
  std::map<std::string, uint32_t> task_of;
  for (const DeviceTask& t : tasks->tasks) {
    if (t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy) task_of.emplace(t.node, t.id);
  }
  CaptureOptions options;
  options.pool = pool_;
  options.compute_dtype = ComputeDType(args, info_);
  for (const FxGraphOutput& o : info_.outputs) {
    auto it = task_of.find(o.base);
    if (o.aliases_input < 0 && it != task_of.end()) options.outputs.push_back(it->second);
  }
  meta.device_name = fmt::format("{} {{{}}}", name_, key);
  if (meta.capture > 1) meta.device_name += fmt::format(" #{}", meta.capture);
  Result<uint32_t> id = env.device.Capture(*tasks, meta.device_name, staging, options);
  if (!id.ok()) return id.status().WithPrefix(fmt::format("capture of {} for graph key {{{}}}", name_, key));
  meta.graph = *id;
  const CapturedGraph* c = nullptr;
  for (const CapturedGraph& g : env.device.captured()) {
    if (g.id == *id) c = &g;
  }
  std::map<int64_t, const CapturedGraph::Block*> block_of_task;
  for (const CapturedGraph::Block& b : c->blocks) {
    meta.writes.push_back({DeviceAddress(b.place), b.place.size});
    if (b.task >= 0) block_of_task[b.task] = &b;
  }
  // User inputs: staged in the pool (then released, ag:1146-1148), or the caller's own, retained.
  size_t block = 0;
  for (size_t i : staged) {
    const RuntimeInput& in = info_.inputs[i];
    if (clone && IsNpu(args[i].meta)) {
      const CapturedGraph::Block& b = c->blocks[block++];
      uint64_t address = DeviceAddress(b.place);
      meta.userinputs_ptr[i] = address;
      meta.baked.push_back({BakedAddress::Role::kStagingInput, in.Label(), address, b.place.size, -1, false, i});
      memory.Free(b.id);
    } else {
      meta.userinputs_ptr[i] = args[i].data_ptr;
      env.buffers.Hold(args[i].storage);
      meta.held_inputs.push_back(args[i].storage);
      meta.baked.push_back({BakedAddress::Role::kUserInput, in.Label(), args[i].data_ptr, BytesOf(args[i].meta),
                            args[i].storage, true, i});
    }
  }
  // Outputs, retained with one key or without mempool reuse (ag:1149-1153).
  const bool retain = !(reuse && keys_after > 1);
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    const FxGraphOutput& out = info_.outputs[o];
    int64_t storage = -1;
    if (out.aliases_input >= 0) {
      storage = args[static_cast<size_t>(out.aliases_input)].storage;
    } else if (!out.node.empty()) {
      auto t = task_of.find(out.base);
      auto b = t == task_of.end() ? block_of_task.end() : block_of_task.find(t->second);
      std::string origin = fmt::format("output {} of AclGraph {}", o, meta.graph);
      if (b != block_of_task.end() && b->second->live) {
        storage = env.buffers.AdoptBlock(memory, b->second->id, origin);
      } else if (b != block_of_task.end()) {
        storage = env.buffers.AddressOnly(pool_, DeviceAddress(b->second->place), b->second->place.size, origin);
      } else {
        storage = env.buffers.AddressOnly(pool_, 0, 0, origin + " (no task makes it)");
      }
    }
    meta.output_storage.push_back(storage);
    if (storage < 0) continue;
    const Storage& s = env.buffers.storage(static_cast<uint32_t>(storage));
    meta.baked.push_back(
        {BakedAddress::Role::kOutput, fmt::format("output {}", o), s.address, s.bytes, storage, retain, 0});
    if (retain) {
      env.buffers.Hold(static_cast<uint32_t>(storage));
      meta.held_outputs.push_back(static_cast<uint32_t>(storage));
    }
  }
  meta.retained_outputs = retain;

  report.lines.push_back(
      LogLine(config_, "DEBUG", kNoFindCaptured, torchair_text::NoFindCaptured(meta.graph, name_, key)));
  if (!reset_note.empty()) report.lines.push_back(Note(reset_note));
  // torch_npu's checkpoint state of the pool is not simulated: the line says so where it would print it.
  report.lines.push_back(LogLine(config_, "DEBUG", kAfterCapturing,
                                 torchair_text::AfterCapturing(name_, key, meta.graph, reuse,
                                                               "(airscope: torch_npu's checkpoint state is not "
                                                               "simulated; `mem` shows the pool)")));
  report.lines.push_back(LogLine(config_, "INFO", kCaptureSucceeded,
                                 torchair_text::CaptureSucceeded(name_, key, meta.graph, info_.updated_nodes.size())));
  const PoolStats& pool = memory.Stats(pool_);
  report.lines.push_back(Note(fmt::format(
      "captured {} ({} task{}) into mempool '{}': {} reserved, {} allocated{}", Describe(meta), c->tasks.tasks.size(),
      c->tasks.tasks.size() == 1 ? "" : "s", name_, FormatBytes(pool.reserved), FormatBytes(pool.allocated),
      clone && !staged.empty() ? fmt::format("; {} input(s) staged (clone_input)", staged.size()) : "")));
  ++stats_.captures;
  if (existing >= 0) {
    metas_[static_cast<size_t>(existing)] = std::move(meta);
  } else {
    metas_.push_back(std::move(meta));
  }
  return Status::Ok();
}

Status AclGraph::ReplayKey(size_t index, const std::vector<CallArg>& args, CallEnv& env, CallReport& report) {
  GraphMeta& meta = metas_[index];
  // process_input (ag:1290-1359).
  std::vector<GraphInput> copies;
  // With clone_input every user input is copied (userinputs_metatensor holds all of them, ag:1211-1212).
  for (const auto& [idx, ptr] : meta.userinputs_ptr) {
    if (config_.clone_input || ptr != args[idx].data_ptr) {
      copies.push_back({info_.inputs[idx].name, BytesOf(args[idx].meta)});
    }
  }
  for (const auto& [idx, ptr] : userinput_ref_data_ptr_) {
    if (ptr != args[idx].data_ptr) copies.push_back({info_.inputs[idx].name, BytesOf(args[idx].meta)});
  }
  // frozen_parameter keeps parameter addresses out of the key: a moved parameter is still read where it was.
  for (const auto& [idx, ptr] : meta.captured_parameter) {
    if (ptr == args[idx].data_ptr) continue;
    report.lines.push_back(Warning(fmt::format(
        "parameter {} is at {} in this call, but {} reads it at {}, where it was captured: frozen_parameter keeps "
        "parameter addresses out of the graph key (acl_graph.py:263-278), so nothing recaptures",
        info_.inputs[idx].Label(), FormatAddress(args[idx].data_ptr), Describe(meta), FormatAddress(ptr))));
  }
  RunOptions options;
  options.iterations = 1;
  options.compute_dtype = ComputeDType(args, info_);
  AIRSCOPE_ASSIGN_OR_RETURN(RunResult run, env.device.Replay(meta.graph, options, &copies));
  report.run = run;
  report.input_copies = copies.size();
  ++meta.replays;
  ++stats_.replays;
  // Memory the caller still holds that this replay wrote.
  std::vector<const Handle*> overwritten;
  for (const Handle& h : env.buffers.handles()) {
    if (env.buffers.Rebinding(h, env.call)) continue;
    const Storage& s = env.buffers.storage(h.storage);
    if (s.pool != pool_ || s.bytes == 0) continue;
    for (const auto& [address, bytes] : meta.writes) {
      if (Overlap(address, bytes, s.address, s.bytes)) {
        overwritten.push_back(&h);
        break;
      }
    }
  }
  for (const Handle* h : overwritten) {
    const Storage& s = env.buffers.storage(h->storage);
    bool same = std::find(meta.output_storage.begin(), meta.output_storage.end(), static_cast<int64_t>(h->storage)) !=
                meta.output_storage.end();
    report.lines.push_back(Warning(fmt::format(
        "{} ({}output {} of call {}, {}) at {} is overwritten by call {}'s replay of {}{}: a captured graph writes "
        "the same addresses on every replay (acl_graph.py:1402-1475)",
        h->name, h->kept ? "kept, " : "", h->output, h->call, h->producer, FormatAddress(s.address), env.call,
        Describe(meta), same ? ", which returns that same memory again" : "")));
  }
  ReconstructOutputs(meta, env, report);
  return Status::Ok();
}

void AclGraph::ReconstructOutputs(GraphMeta& meta, CallEnv& env, CallReport& report) {
  CachingAllocator& memory = env.device.allocator();
  const bool same_tensors = config_.disable_mempool_reuse_in_same_fx || metas_.size() == 1;
  if (!same_tensors) {
    // construct_outputs_based_on_ref (ag:1477-1512): the last call's outputs if all are still held.
    bool alive = !meta.last_outputs.empty();
    for (const std::string& name : meta.last_outputs) alive = alive && (name.empty() || env.buffers.Find(name));
    if (!alive && !config_.enable_output_clone && env.output_warning_shown && !*env.output_warning_shown) {
      *env.output_warning_shown = true;
      report.lines.push_back(
          {RuntimeLine::Source::kPythonWarning, "UserWarning", Where(config_, kFixedAddresses),
           config_.npugraph_ex ? npugraph_ex_text::FixedAddresses() : torchair_text::FixedAddresses()});
    }
  }
  std::vector<std::string> names;
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    int64_t storage = meta.output_storage[o];
    if (storage < 0) {
      names.emplace_back();
      continue;
    }
    const FxGraphOutput& out = info_.outputs[o];
    const TensorMeta& out_meta = meta.output_meta[o];
    uint32_t s = static_cast<uint32_t>(storage);
    bool cloned = false;
    if (config_.enable_output_clone && out.aliases_input < 0) {
      // _clone_outputs_if_enabled (ag:1388-1393): a new tensor of the caller's.
      Result<uint32_t> clone =
          env.buffers.NewStorage(memory, kDefaultPool, BytesOf(out_meta), fmt::format("clone of output {}", o));
      if (clone.ok()) {
        s = *clone;
        cloned = true;
      }
    }
    Handle h;
    h.name = fmt::format("out{}.{}", env.call, o);
    h.kind = Handle::Kind::kOutput;
    h.storage = s;
    h.bytes = BytesOf(out_meta);
    h.shape = out_meta.ShapeString();
    h.call = env.call;
    h.output = o;
    h.producer = cloned ? "a clone (enable_output_clone) of " + Describe(meta) : Describe(meta);
    h.kept = env.keep;
    (void)env.buffers.Add(std::move(h));
    names.push_back(fmt::format("out{}.{}", env.call, o));
  }
  // Outputs TorchAir does not retain belong to whoever holds them.
  for (int64_t storage : meta.output_storage) {
    if (storage >= 0 && env.buffers.storage(static_cast<uint32_t>(storage)).holders == 0) {
      env.buffers.Release(memory, static_cast<uint32_t>(storage));
    }
  }
  meta.last_outputs = config_.enable_output_clone ? std::vector<std::string>{} : names;
  report.outputs = std::move(names);
}

Status AclGraph::RunEagerly(const std::vector<CallArg>& args, CallEnv& env, CallReport& report) {
  // fx_run_eagerly (ag:894-896): the optimized FX graph, op by op.
  AIRSCOPE_ASSIGN_OR_RETURN(Lowered lowered, LowerFor(args, env.registry));
  RunOptions options;
  options.iterations = 1;
  options.compute_dtype = ComputeDType(args, info_);
  AIRSCOPE_ASSIGN_OR_RETURN(RunResult run, env.device.Eager(lowered.tasks, name_ + " (eager)", options));
  report.run = run;
  report.action = CallReport::Action::kEager;
  ++stats_.eager_runs;
  std::vector<std::string> names;
  for (size_t o = 0; o < info_.outputs.size(); ++o) {
    const FxGraphOutput& out = info_.outputs[o];
    if (out.node.empty()) {
      names.emplace_back();
      continue;
    }
    uint32_t storage = 0;
    if (out.aliases_input >= 0) {
      storage = args[static_cast<size_t>(out.aliases_input)].storage;
    } else {
      AIRSCOPE_ASSIGN_OR_RETURN(
          uint32_t fresh, env.buffers.NewStorage(env.device.allocator(), kDefaultPool, BytesOf(lowered.outputs[o]),
                                                 fmt::format("output {} of {} (eager)", o, name_)));
      storage = fresh;
    }
    Handle h;
    h.name = fmt::format("out{}.{}", env.call, o);
    h.kind = Handle::Kind::kOutput;
    h.storage = storage;
    h.bytes = BytesOf(lowered.outputs[o]);
    h.shape = lowered.outputs[o].ShapeString();
    h.call = env.call;
    h.output = o;
    h.producer = name_ + " run eagerly";
    h.kept = env.keep;
    AIRSCOPE_RETURN_IF_ERROR(env.buffers.Add(std::move(h)));
    names.push_back(fmt::format("out{}.{}", env.call, o));
  }
  report.outputs = std::move(names);
  return Status::Ok();
}

void AclGraph::ResetCapturedGraph(CallEnv& env, CallReport& report) {
  // reset_captured_graph (ag:1040-1056): every graph reset, metas cleared, counters popped, empty_cache.
  CachingAllocator& memory = env.device.allocator();
  size_t graphs = metas_.size();
  for (GraphMeta& meta : metas_) {
    (void)env.device.Release(meta.graph);
    ReleaseHeld(meta, env);
  }
  stats_.released_graphs += graphs;
  metas_.clear();
  counter_captured_ = counter_mutated_ = counter_core_ = counter_forced_ = 0;
  int64_t reserved = memory.HasPool(pool_) ? memory.Stats(pool_).reserved : 0;
  if (memory.HasPool(pool_)) {
    FreePoolBlocks(memory, pool_);
    env.buffers.PoolWasReset(pool_);
    (void)memory.ReleasePool(pool_);
  }
  report.lines.push_back(Note(fmt::format(
      "{} falls back to eager for good: reset_captured_graph released its {} captured graph(s) and mempool '{}' "
      "({} returned to the device) (acl_graph.py:1040-1056)",
      name_, graphs, name_, FormatBytes(reserved))));
  pool_ = 0;
}

void AclGraph::Release(SimDevice& device, DeviceBuffers& buffers) {
  CachingAllocator& memory = device.allocator();
  for (GraphMeta& meta : metas_) {
    (void)device.Release(meta.graph);
    for (uint32_t s : meta.held_inputs) buffers.Release(memory, s);
    for (uint32_t s : meta.held_outputs) buffers.Release(memory, s);
    meta.held_inputs.clear();
    meta.held_outputs.clear();
  }
  metas_.clear();
  if (pool_ != 0 && memory.HasPool(pool_)) {
    FreePoolBlocks(memory, pool_);
    buffers.PoolWasReset(pool_);
    (void)memory.ReleasePool(pool_);
  }
  pool_ = 0;
}

std::vector<std::string> AclGraph::Retainers(uint32_t storage) const {
  std::vector<std::string> who;
  for (const GraphMeta& meta : metas_) {
    for (const BakedAddress& b : meta.baked) {
      if (!b.retained || b.storage != static_cast<int64_t>(storage)) continue;
      std::string_view why = b.role == BakedAddress::Role::kOutput ? "retained_outputs, acl_graph.py:1149-1153"
                             : b.role == BakedAddress::Role::kAliasedInput
                                 ? "captured_userinput_ref_with_output, "
                                   "acl_graph.py:1112-1115"
                                 : "retained_userinputs, acl_graph.py:1203-1206";
      if (b.role == BakedAddress::Role::kOutput && !meta.retained_outputs) continue;
      who.push_back(fmt::format("{} keeps it as its {} {} ({})", Describe(meta), BakedRoleName(b.role), b.what, why));
    }
  }
  return who;
}

std::vector<std::string> AclGraph::BakedAddressWarnings(const DeviceBuffers& buffers, uint32_t storage,
                                                        bool freed) const {
  std::vector<std::string> warnings;
  const Storage& s = buffers.storage(storage);
  for (const GraphMeta& meta : metas_) {
    for (const BakedAddress& b : meta.baked) {
      if (b.role == BakedAddress::Role::kOutput || b.role == BakedAddress::Role::kStagingInput || b.retained) continue;
      const bool writes = b.role == BakedAddress::Role::kMutatedInput;
      if (freed && b.storage == static_cast<int64_t>(storage)) {
        warnings.push_back(fmt::format(
            "{} ({}) is freed, but {} baked its address in for {} {}: its replays {} freed memory (TorchAir keeps "
            "only the address of a {}, acl_graph.py:1102-1110)",
            s.origin, FormatAddress(s.address), Describe(meta), BakedRoleName(b.role), b.what,
            writes ? "write" : "read", BakedRoleName(b.role)));
      } else if (!freed && b.storage != static_cast<int64_t>(storage) && b.storage >= 0 &&
                 buffers.storage(static_cast<uint32_t>(b.storage)).freed() && s.Overlaps(b.address, b.bytes)) {
        warnings.push_back(fmt::format(
            "{} is allocated at {}, where {} baked in {} {} ({}, freed): its replays {} {} unless it is passed as "
            "that input",
            s.origin, FormatAddress(s.address), Describe(meta), BakedRoleName(b.role), b.what,
            buffers.storage(static_cast<uint32_t>(b.storage)).origin, writes ? "write into" : "read", s.origin));
      }
    }
  }
  return warnings;
}

Result<std::vector<CallArg>> BindCallArgs(const FxGraphInfo& info, const std::vector<TensorMeta>& placeholder_metas,
                                          const std::vector<uint32_t>& storages, const DeviceBuffers& buffers,
                                          const std::map<std::string, int64_t>& scalar_values) {
  std::vector<CallArg> args(info.inputs.size());
  // A SymInt the call passes as a Python int has its own value.
  std::map<std::string, int64_t> symbols = scalar_values;
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const RuntimeInput& in = info.inputs[i];
    if (in.kind != RuntimeInput::Kind::kTensor) continue;
    if (in.placeholder >= placeholder_metas.size() || in.placeholder >= storages.size()) {
      return Status::Errorf("input '{}': the call gives {} inputs", in.name, placeholder_metas.size());
    }
    const TensorMeta& meta = placeholder_metas[in.placeholder];
    if (meta.sizes.size() != in.meta.sizes.size()) {
      return Status::Errorf("input '{}' is {}, compiled as {}", in.name, meta.ShapeString(), in.meta.ShapeString());
    }
    CallArg& a = args[i];
    a.meta = meta;
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
      int64_t v = meta.sizes[d].value();
      a.sizes.push_back(v);
      if (!in.meta.sizes[d].is_static()) symbols.emplace(in.meta.sizes[d].symbol(), v);
    }
    a.storage = storages[in.placeholder];
    a.data_ptr = buffers.storage(a.storage).address;
  }
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const RuntimeInput& in = info.inputs[i];
    if (in.kind != RuntimeInput::Kind::kSymInt) continue;
    auto it = symbols.find(in.symbol);
    if (it == symbols.end()) {
      return Status::Errorf(
          "SymInt input '{}' ({}): no tensor of the call has a dim of that size to take its value "
          "from",
          in.name, in.symbol);
    }
    args[i].value = it->second;
  }
  return args;
}

}  // namespace airscope
