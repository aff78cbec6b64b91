#include "core/lower/task_graph.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/stream_util.h"
#include "core/ir/flat_pointer_map.h"

namespace airscope {
namespace {

// The host calls replace_core_limit_nodes emits (graph_pass.py:709-787).
constexpr std::string_view kCurrentStream = "torch.npu.current_stream";
constexpr std::string_view kGetStreamLimit = "torch.npu.get_stream_limit";
constexpr std::string_view kSetStreamLimit = "torch.npu.set_stream_limit";

struct CoreLimits {
  int64_t aicore = -1;
  int64_t vectorcore = -1;
};

// The core limits per stream as the graph's host calls set them, followed in
// graph order: current_stream() is the stream the call runs on (inside
// `with torch.npu.stream(s)`, s), get_stream_limit(s) reads s's limits at
// that point, getitem(limits, 'cube_core_num' | 'vector_core_num') one of
// them, set_stream_limit(s, cube, vector) sets both. A value it cannot work
// out leaves that limit unknown (-1, the device's).
class CoreLimitTracker {
 public:
  // True when `node` is one of the host calls (it makes no task).
  bool Visit(const Node& node) {
    std::string_view target = StripTorchOps(node.target());
    if (target == kCurrentStream) {
      stream_of_[&node] = node.stream();
      return true;
    }
    if (target == kGetStreamLimit) {
      if (const std::string* s = StreamArg(node)) snapshot_[&node] = limits_[*s];
      return true;
    }
    if (target == kSetStreamLimit) {
      if (const std::string* s = StreamArg(node)) limits_[*s] = {Value(node, 1), Value(node, 2)};
      return true;
    }
    return false;
  }
  CoreLimits Of(const std::string& stream) const {
    auto it = limits_.find(stream);
    return it == limits_.end() ? CoreLimits{} : it->second;
  }

 private:
  const std::string* StreamArg(const Node& node) const {
    if (node.args().empty() || !node.args()[0].is_node()) return nullptr;
    auto it = stream_of_.find(node.args()[0].as_node());
    return it == stream_of_.end() ? nullptr : &it->second;
  }
  int64_t Value(const Node& node, size_t i) const {
    if (i >= node.args().size()) return -1;
    const Argument& a = node.args()[i];
    if (a.kind() == Argument::Kind::kInt) return a.as_int();
    if (!a.is_node()) return -1;
    const Node* item = a.as_node();  // getitem(get_stream_limit(s), key)
    if (!IsTarget(*item, "operator.getitem") || item->args().size() < 2 || !item->args()[0].is_node() ||
        item->args()[1].kind() != Argument::Kind::kString) {
      return -1;
    }
    auto it = snapshot_.find(item->args()[0].as_node());
    if (it == snapshot_.end()) return -1;
    const std::string& key = item->args()[1].as_string();
    return key == "cube_core_num" ? it->second.aicore : key == "vector_core_num" ? it->second.vectorcore : -1;
  }
  std::unordered_map<const Node*, std::string> stream_of_;
  std::unordered_map<const Node*, CoreLimits> snapshot_;
  std::map<std::string, CoreLimits, std::less<>> limits_;
};

bool IsMemcpy(std::string_view target) { return target == "aten.copy_.default" || target == "aten._to_copy.default"; }
bool IsHostSync(std::string_view target) {
  return target == "aten._local_scalar_dense.default" || target == "aten.item.default";
}

void SortUnique(std::vector<uint32_t>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

// The tag of a tagged event op: args[0] as a string.
Result<std::string> TagOf(const Node& node) {
  if (node.args().empty() || node.args()[0].kind() != Argument::Kind::kString) {
    return Status::Errorf("'{}' needs its event tag (a string) as args[0]", node.name());
  }
  return node.args()[0].as_string();
}

}  // namespace

std::string_view TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kKernel: return "kernel";
    case TaskKind::kMemcpy: return "memcpy";
    case TaskKind::kEventRecord: return "event_record";
    case TaskKind::kEventWait: return "event_wait";
    case TaskKind::kHostSync: return "host_sync";
  }
  return "?";
}

namespace {

// The dtype a task computes in: its output's, else its first tensor input's.
DType TaskDType(const Node& node) {
  if (const TensorMeta* out = node.tensor(); out && out->dtype != DType::kUnknown) return out->dtype;
  for (const Node* input : node.inputs()) {
    if (const TensorMeta* in = input->tensor(); in && in->dtype != DType::kUnknown) return in->dtype;
  }
  return DType::kUnknown;
}

bool IsCpu(const std::string& device) { return device == "cpu" || device.rfind("cpu:", 0) == 0; }

// A copy between host and device that the host waits for: one side on the
// CPU (from meta or a `device` kwarg) and no non_blocking=True.
bool IsBlockingCopy(const Node& node) {
  if (const Argument* nb = node.kwarg("non_blocking"); nb && nb->kind() == Argument::Kind::kBool && nb->as_bool()) {
    return false;
  }
  bool cpu = false;
  if (const TensorMeta* out = node.tensor()) cpu = cpu || IsCpu(out->device);
  for (const Node* input : node.inputs()) {
    if (const TensorMeta* in = input->tensor()) cpu = cpu || IsCpu(in->device);
  }
  if (const Argument* device = node.kwarg("device"); device && device->kind() == Argument::Kind::kDevice) {
    cpu = cpu || device->as_device().type == "cpu";
  }
  return cpu;
}

}  // namespace

namespace {

// Builds the task graph node by node, in graph order. Each node's producers
// (the tasks that make what it holds: its own, or for a no-op such as a view
// or getitem its inputs' producers) are a span of one shared pool, so a node
// costs no allocation.
// Counting (CountTasks) walks the same way and makes the same decisions and
// errors, but keeps no task, and skips the data edges (only event edges
// decide whether a wait is recorded).
class TaskGraphBuilder {
 public:
  enum class Mode : uint8_t { kBuild, kCount };
  TaskGraphBuilder(const Graph& lowered, const OpRegistry& registry, const TaskGraphOptions& options,
                   Mode mode = Mode::kBuild)
      : registry_(registry),
        options_(options),
        counting_(mode == Mode::kCount),
        storages_(options.accesses && !counting_ ? StorageMap::Compute(lowered, registry) : StorageMap()),
        producer_spans_(counting_ ? 0 : lowered.size()) {
    out_.streams.push_back("");
    if (!counting_) producer_pool_.reserve(lowered.size());
  }

  Status Visit(const Node& node) {
    if (node.op() == OpKind::kCallMethod || node.op() == OpKind::kCallModule) return AddOpaque(node);
    if (node.op() == OpKind::kCallFunction && limits_.Visit(node)) return Status::Ok();
    if (IsNoOpNode(node, registry_)) {
      if (node.op() != OpKind::kPlaceholder && node.op() != OpKind::kGetAttr) SetProducers(&node, DataDeps(node));
      return Status::Ok();
    }
    std::string_view target = StripTorchOps(node.target());
    if (target == kRecord || target == kTaggedRecord) return AddRecord(node, target == kTaggedRecord);
    if (target == kTaggedWait) return AddTaggedWait(node);
    if (target == kWait) return AddWait(node);
    TaskKind kind = IsMemcpy(target) ? TaskKind::kMemcpy : IsHostSync(target) ? TaskKind::kHostSync : TaskKind::kKernel;
    SetProducer(&node, AddTask(node, kind, "", DataDeps(node)));
    return Status::Ok();
  }

  TaskGraph Finish() { return std::move(out_); }
  TaskCounts Counts() const { return {counted_, out_.streams.size(), unrecorded_waits_}; }

 private:
  struct Span {
    uint32_t begin = 0, size = 0;
  };

  // An opaque node `aot` could not lower: with a known value it runs as a
  // kernel of unknown cost; without one nothing says what it makes.
  Status AddOpaque(const Node& node) {
    if (!node.meta() || (node.meta()->kind != ValueKind::kTensor && node.meta()->kind != ValueKind::kTuple)) {
      return Status::Errorf("{} '{}' cannot become a device task: it is opaque and its value is unknown",
                            OpKindName(node.op()), node.name());
    }
    SetProducer(&node, AddTask(node, TaskKind::kKernel, "", DataDeps(node)));
    return Status::Ok();
  }

  // air.record's event is the node itself; air.tagged_event_record's its tag.
  Status AddRecord(const Node& node, bool tagged) {
    std::string event = node.name();
    if (tagged) {
      AIRSCOPE_ASSIGN_OR_RETURN(std::string tag, TagOf(node));
      event = tag;
    }
    uint32_t id = AddTask(node, TaskKind::kEventRecord, event, DataDeps(node));
    last_record_[event] = id;
    SetProducer(&node, id);
    return Status::Ok();
  }

  // A wait task for `event`, after its latest record; with none, an error
  // unless the options allow waits nothing records (then it has no dep).
  Result<uint32_t> AddWaitTask(const Node& node, const std::string& event) {
    auto it = last_record_.find(event);
    if (it != last_record_.end()) return AddTask(node, TaskKind::kEventWait, event, {it->second});
    if (!options_.allow_unrecorded_waits) {
      return Status::Errorf("wait '{}' waits for event '{}', which no record before it records", node.name(), event);
    }
    return AddTask(node, TaskKind::kEventWait, event, {});
  }

  Status AddTaggedWait(const Node& node) {
    AIRSCOPE_ASSIGN_OR_RETURN(std::string tag, TagOf(node));
    AIRSCOPE_ASSIGN_OR_RETURN(uint32_t id, AddWaitTask(node, tag));
    SetProducer(&node, id);
    return Status::Ok();
  }

  // air.wait([records]): one wait task per event waited for.
  Status AddWait(const Node& node) {
    if (node.args().empty() || !node.args()[0].is_sequence()) {
      return Status::Errorf("wait '{}' takes a list of records as args[0]", node.name());
    }
    std::vector<uint32_t> ids;
    for (const Argument& item : node.args()[0].items()) {
      const Node* record = item.is_node() ? item.as_node() : nullptr;
      if (!record || !IsTarget(*record, kRecord)) {
        return Status::Errorf("wait '{}' waits for '{}', which is not an air.record (run event_record first)",
                              node.name(), record ? record->name() : "a non-node value");
      }
      AIRSCOPE_ASSIGN_OR_RETURN(uint32_t id, AddWaitTask(node, record->name()));
      ids.push_back(id);
    }
    SetProducers(&node, ids);
    return Status::Ok();
  }

  // Buffers: the storages of values, numbered in order of first use.
  int64_t Buffer(const Node* node) {
    int storage = storages_.Of(node);
    if (storage < 0) return -1;
    auto [it, fresh] = buffer_of_.try_emplace(storage, static_cast<uint32_t>(out_.buffers.size()));
    if (fresh) {
      std::vector<Node*> members = storages_.NodesOf(storage);
      out_.buffers.push_back(members.empty() ? node->name() : members.front()->name());
    }
    return it->second;
  }

  void Accesses(const Node& node, DeviceTask& task) {
    auto read = [&](const Node* input) {
      if (int64_t b = Buffer(input); b >= 0) task.reads.push_back(static_cast<uint32_t>(b));
    };
    for (const Argument& a : node.args()) a.ForEachNode(read);
    for (const Kwarg& kw : node.kwargs()) kw.value.ForEachNode(read);
    // Its value's storage (an in-place op's first argument, an out= tensor),
    // or, for a tuple, each item's.
    if (int64_t b = Buffer(&node); b >= 0) task.writes.push_back(static_cast<uint32_t>(b));
    for (const Node* user : node.users()) {
      if (IsTarget(*user, "operator.getitem") && storages_.ViewOf(user) == nullptr) {
        if (int64_t b = Buffer(user); b >= 0) task.writes.push_back(static_cast<uint32_t>(b));
      }
    }
    SortUnique(task.reads);
    SortUnique(task.writes);
  }

  void SetProducers(const Node* node, const std::vector<uint32_t>& ids) {
    if (counting_) return;
    producer_spans_[node] = {static_cast<uint32_t>(producer_pool_.size()), static_cast<uint32_t>(ids.size())};
    producer_pool_.insert(producer_pool_.end(), ids.begin(), ids.end());
  }
  void SetProducer(const Node* node, uint32_t id) {
    if (counting_) return;
    producer_spans_[node] = {static_cast<uint32_t>(producer_pool_.size()), 1};
    producer_pool_.push_back(id);
  }

  // The producers of everything `node` reads.
  std::vector<uint32_t> DataDeps(const Node& node) const {
    std::vector<uint32_t> deps;
    if (counting_) return deps;
    // Every reference, repeats included (SortUnique drops them): cheaper
    // than building the node's distinct inputs first.
    auto add = [&](const Node* input) {
      if (const Span* span = producer_spans_.Find(input)) {
        deps.insert(deps.end(), producer_pool_.begin() + span->begin,
                    producer_pool_.begin() + span->begin + span->size);
      }
    };
    for (const Argument& a : node.args()) a.ForEachNode(add);
    for (const Kwarg& kw : node.kwargs()) kw.value.ForEachNode(add);
    SortUnique(deps);
    return deps;
  }

  uint32_t AddTask(const Node& node, TaskKind kind, std::string event, std::vector<uint32_t> deps) {
    if (counting_) {
      unrecorded_waits_ += kind == TaskKind::kEventWait && deps.empty();
      AddStream(node.stream());
      return static_cast<uint32_t>(counted_++);
    }
    DeviceTask task;
    task.id = static_cast<uint32_t>(out_.tasks.size());
    task.kind = kind;
    task.node = node.name();
    task.op = std::string(StripTorchOps(node.target()));
    task.stream = node.stream();
    task.event = std::move(event);
    SortUnique(deps);
    task.deps = std::move(deps);
    task.dtype = TaskDType(node);
    if (kind == TaskKind::kMemcpy) task.blocking = IsBlockingCopy(node);
    if (options_.accesses && kind != TaskKind::kEventRecord && kind != TaskKind::kEventWait) Accesses(node, task);
    CoreLimits limit = limits_.Of(task.stream);
    task.aicore_limit = limit.aicore;
    task.vectorcore_limit = limit.vectorcore;
    if (kind == TaskKind::kKernel || kind == TaskKind::kMemcpy || kind == TaskKind::kHostSync) SetCost(node, task);
    AddStream(task.stream);
    out_.tasks.push_back(std::move(task));
    return out_.tasks.back().id;
  }

  void AddStream(const std::string& stream) {
    if (std::find(out_.streams.begin(), out_.streams.end(), stream) == out_.streams.end()) {
      out_.streams.push_back(stream);
    }
  }

  void SetCost(const Node& node, DeviceTask& task) const {
    const OpInfo* info = registry_.Find(node.target());
    if (!info || !info->cost) return;
    if (std::optional<OpCost> cost = info->cost(node)) {
      task.cost = *cost;
      task.cost_known = true;
    }
  }

  const OpRegistry& registry_;
  const TaskGraphOptions& options_;
  const bool counting_;
  size_t counted_ = 0;           // count mode: the tasks counted (build mode has out_.tasks)
  size_t unrecorded_waits_ = 0;  // count mode
  const StorageMap storages_;
  TaskGraph out_;
  CoreLimitTracker limits_;
  std::unordered_map<int, uint32_t> buffer_of_;
  FlatNodeMap<Span> producer_spans_;
  std::vector<uint32_t> producer_pool_;
  std::map<std::string, uint32_t, std::less<>> last_record_;  // event -> latest record task
};

}  // namespace

Result<TaskGraph> BuildTaskGraph(const Graph& lowered, const OpRegistry& registry, const TaskGraphOptions& options) {
  TaskGraphBuilder builder(lowered, registry, options);
  for (const Node* node : lowered) AIRSCOPE_RETURN_IF_ERROR(builder.Visit(*node));
  return builder.Finish();
}

Result<TaskCounts> CountTasks(const Graph& lowered, const OpRegistry& registry) {
  TaskGraphOptions options;
  options.allow_unrecorded_waits = true;
  TaskGraphBuilder builder(lowered, registry, options, TaskGraphBuilder::Mode::kCount);
  for (const Node* node : lowered) AIRSCOPE_RETURN_IF_ERROR(builder.Visit(*node));
  return builder.Counts();
}

KernelCount CountKernels(const TaskGraph& graph) {
  KernelCount count;
  for (const DeviceTask& t : graph.tasks) {
    if (t.kind != TaskKind::kKernel) continue;
    ++count.kernels;
    count.unknown_cost += !t.cost_known;
  }
  return count;
}

}  // namespace airscope
