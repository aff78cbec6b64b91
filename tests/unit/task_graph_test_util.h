// A hand-made device task graph for the tests of what reads one (capture
// rules, happens-before, hazards): tasks added in issue order, a wait bound
// to its event's latest record issued before it, as BuildTaskGraph binds.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/lower/task_graph.h"

namespace airscope::testing_tasks {

class Tasks {
 public:
  uint32_t Add(TaskKind kind, std::string stream, std::string event = "", std::string node = "") {
    DeviceTask t;
    t.id = static_cast<uint32_t>(g.tasks.size());
    t.kind = kind;
    t.node = node.empty() ? fmt::format("t{}", t.id) : std::move(node);
    t.op = "aten.x.default";
    t.stream = std::move(stream);
    t.event = std::move(event);
    if (t.kind == TaskKind::kEventWait) {
      for (auto it = g.tasks.rbegin(); it != g.tasks.rend(); ++it) {
        if (it->kind == TaskKind::kEventRecord && it->event == t.event) {
          t.deps = {it->id};
          break;
        }
      }
    }
    if (std::find(g.streams.begin(), g.streams.end(), t.stream) == g.streams.end()) g.streams.push_back(t.stream);
    g.tasks.push_back(t);
    return t.id;
  }
  uint32_t Kernel(const std::string& stream) { return Add(TaskKind::kKernel, stream); }
  // A kernel touching buffers (indices from Buffer).
  uint32_t Kernel(const std::string& stream, std::vector<uint32_t> reads, std::vector<uint32_t> writes,
                  std::string node = "") {
    uint32_t id = Add(TaskKind::kKernel, stream, "", std::move(node));
    g.tasks[id].reads = std::move(reads);
    g.tasks[id].writes = std::move(writes);
    return id;
  }
  uint32_t Record(const std::string& stream, const std::string& event) {
    return Add(TaskKind::kEventRecord, stream, event);
  }
  uint32_t Wait(const std::string& stream, const std::string& event) {
    return Add(TaskKind::kEventWait, stream, event);
  }
  uint32_t Buffer(std::string name) {
    g.buffers.push_back(std::move(name));
    return static_cast<uint32_t>(g.buffers.size() - 1);
  }
  TaskGraph g;
};

}  // namespace airscope::testing_tasks
