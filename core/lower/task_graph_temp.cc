// TEMPORARY: replaced by task_graph.cc at merge
// The obvious node -> task mapping so the device commands and goldens work
// before the real `lower` lands: call_function nodes become kernels with the
// op registry's cost; views, getitem, placeholders, get_attr, output and
// scope markers become no task; air.record / air.tagged_event_record become
// records, air.wait / air.tagged_event_wait waits; copy_ / _to_copy memcpys;
// _local_scalar_dense / item host syncs. Deps follow data edges (through
// views to the task that made the data) and event edges (a wait depends on
// the latest record of its event).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/lower/task_graph.h"

namespace airscope {

std::string_view TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kKernel: return "kernel";
    case TaskKind::kMemcpy: return "memcpy";
    case TaskKind::kEventRecord: return "record";
    case TaskKind::kEventWait: return "wait";
    case TaskKind::kHostSync: return "host_sync";
  }
  return "?";
}

namespace {

std::string EventTag(const Node& node) {
  if (!node.args().empty() && node.args()[0].kind() == Argument::Kind::kString) return node.args()[0].as_string();
  return node.name();
}

}  // namespace

Result<TaskGraph> BuildTaskGraph(const Graph& lowered, const OpRegistry& registry) {
  TaskGraph tg;
  tg.streams.push_back("");
  std::map<const Node*, std::vector<uint32_t>> made_by;  // node -> tasks that made its data
  std::map<std::string, uint32_t> last_record;
  auto add_stream = [&](const std::string& s) {
    if (std::find(tg.streams.begin(), tg.streams.end(), s) == tg.streams.end()) tg.streams.push_back(s);
  };
  for (const Node* node : lowered) {
    std::vector<uint32_t> data_deps;
    for (const Node* in : node->inputs()) {
      auto it = made_by.find(in);
      if (it != made_by.end()) data_deps.insert(data_deps.end(), it->second.begin(), it->second.end());
    }
    if (node->op() != OpKind::kCallFunction) {
      if (node->op() != OpKind::kOutput) made_by[node] = {};
      continue;
    }
    std::string op(StripTorchOps(node->target()));
    const OpInfo* info = registry.Find(op);
    auto new_task = [&](TaskKind kind, std::string event) -> DeviceTask& {
      DeviceTask t;
      t.id = static_cast<uint32_t>(tg.tasks.size());
      t.kind = kind;
      t.node = node->name();
      t.op = op;
      t.stream = node->stream();
      t.event = std::move(event);
      add_stream(t.stream);
      tg.tasks.push_back(std::move(t));
      return tg.tasks.back();
    };
    auto finish = [&](DeviceTask& t, std::vector<uint32_t> deps) {
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      t.deps = std::move(deps);
    };
    if (op == "air.scope_enter.default" || op == "air.scope_exit.default" || op == "aten.sym_size.int" ||
        op.rfind("air.scope_", 0) == 0) {
      continue;
    }
    if (op == "air.record.default" || op == "air.tagged_event_record.default") {
      DeviceTask& t = new_task(TaskKind::kEventRecord, EventTag(*node));
      last_record[t.event] = t.id;
      finish(t, data_deps);
      made_by[node] = {t.id};
      continue;
    }
    if (op == "air.wait.default" || op == "air.tagged_event_wait.default") {
      std::vector<std::string> events;
      if (op == "air.wait.default") {
        for (const Argument& a : node->args()) a.ForEachNode([&](Node* n) { events.push_back(n->name()); });
      } else {
        events.push_back(EventTag(*node));
      }
      std::vector<uint32_t> ids;
      for (const std::string& e : events) {
        auto rec = last_record.find(e);
        if (rec == last_record.end()) {
          return Status::Errorf("node '{}': waits on event '{}' that has no record before it", node->name(), e);
        }
        DeviceTask& t = new_task(TaskKind::kEventWait, e);
        finish(t, {rec->second});
        ids.push_back(t.id);
      }
      made_by[node] = ids;
      continue;
    }
    if (info && info->category == OpCategory::kView) {
      made_by[node] = data_deps;  // a view is its input's data
      continue;
    }
    TaskKind kind = TaskKind::kKernel;
    if (op == "aten.copy_.default" || op == "aten._to_copy.default") kind = TaskKind::kMemcpy;
    if (op == "aten._local_scalar_dense.default" || op == "aten.item.default") kind = TaskKind::kHostSync;
    DeviceTask& t = new_task(kind, "");
    if (info && info->cost) {
      if (std::optional<OpCost> cost = info->cost(*node)) {
        t.cost = *cost;
        t.cost_known = true;
      }
    }
    finish(t, data_deps);
    made_by[node] = {t.id};
  }
  return tg;
}

}  // namespace airscope
