#include "core/device/capture_rules.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace airscope {

std::string_view CaptureModeName(CaptureMode mode) {
  switch (mode) {
    case CaptureMode::kGlobal: return "global";
    case CaptureMode::kThreadLocal: return "thread_local";
    case CaptureMode::kRelaxed: return "relaxed";
  }
  return "?";
}

std::vector<std::string> CaptureModeNames() { return {"global", "thread_local", "relaxed"}; }

Result<CaptureMode> ParseCaptureMode(std::string_view text) {
  for (CaptureMode mode : {CaptureMode::kGlobal, CaptureMode::kThreadLocal, CaptureMode::kRelaxed}) {
    if (text == CaptureModeName(mode)) return mode;
  }
  return Status::Errorf(
      "unknown capture error mode '{}' (global, thread_local or relaxed, torch_npu's "
      "capture_error_mode)",
      text);
}

std::string_view CaptureRuleName(CaptureRule rule) {
  switch (rule) {
    case CaptureRule::kTaskQueue: return "task_queue";
    case CaptureRule::kDefaultStream: return "default_stream";
    case CaptureRule::kStreamSync: return "stream_sync";
    case CaptureRule::kBlockingCopy: return "blocking_copy";
    case CaptureRule::kUncapturedWait: return "uncaptured_wait";
    case CaptureRule::kEndStream: return "end_stream";
    case CaptureRule::kUnjoined: return "unjoined";
    case CaptureRule::kOutsideCapture: return "outside_capture";
  }
  return "?";
}

std::string CaptureTaskWhere(const DeviceTask& task) {
  return fmt::format("task {} '{}' ({})", task.id, task.node, task.op);
}

TaskGraph OnCaptureStream(const TaskGraph& graph, const std::string& capture_stream) {
  TaskGraph g = graph;
  for (DeviceTask& t : g.tasks) {
    if (t.stream.empty()) t.stream = capture_stream;
  }
  std::vector<std::string> streams{capture_stream};
  for (const std::string& s : graph.streams) {
    std::string mapped = s.empty() ? capture_stream : s;
    if (std::find(streams.begin(), streams.end(), mapped) == streams.end()) streams.push_back(mapped);
  }
  g.streams = std::move(streams);
  return g;
}

namespace {

bool IsDefaultStream(const std::string& stream) { return stream.empty() || stream == "default"; }

// The record a wait waits for: its dep that records the same event (a wait
// binds to the event's latest record issued before it); -1 for none.
int64_t BoundRecord(const TaskGraph& graph, const DeviceTask& wait) {
  for (uint32_t d : wait.deps) {
    const DeviceTask& r = graph.tasks[d];
    if (r.kind == TaskKind::kEventRecord && r.event == wait.event) return d;
  }
  return -1;
}

class RuleWalk {
 public:
  RuleWalk(const TaskGraph& g, const CaptureSetup& setup, bool first_only)
      : g_(g), setup_(setup), first_only_(first_only), captured_(g.tasks.size(), 0) {}

  std::vector<CaptureViolation> Run() {
    if (!Begin()) return std::move(out_);
    for (const DeviceTask& t : g_.tasks) {
      if (!Task(t)) return std::move(out_);
    }
    End();
    return std::move(out_);
  }

 private:
  // False when the walk stops (first_only and a refusal).
  bool Add(CaptureRule rule, int64_t task, std::string stream, std::string message) {
    out_.push_back({rule, task, std::move(stream), std::move(message)});
    return !first_only_;
  }

  bool Begin() {
    // NPUGraph::capture_begin checks in this order (NPUGraph.cpp:243-274).
    if (setup_.task_queue_enable == 2 &&
        !Add(CaptureRule::kTaskQueue, -1, "",
             "RuntimeError: Do not support TASK_QUEUE_ENABLE = 2 during NPU graph capture, please export "
             "TASK_QUEUE_ENABLE=1/0. (torch_npu NPUGraph.cpp:243-247); set env.TASK_QUEUE_ENABLE 1")) {
      return false;
    }
    if (IsDefaultStream(setup_.capture_stream) &&
        !Add(CaptureRule::kDefaultStream, -1, "default",
             "RuntimeError: NPU graphs must be captured on a non-default stream. (However, after capture, it's ok "
             "to replay them on the default stream.) (torch_npu NPUGraph.cpp:270-274); capture on a stream of its "
             "own: capture --stream NAME")) {
      return false;
    }
    capturing_[setup_.capture_stream] = true;
    return true;
  }

  bool Task(const DeviceTask& t) {
    bool& capturing = capturing_[t.stream];
    if (t.kind == TaskKind::kEventWait) {
      int64_t record = BoundRecord(g_, t);
      bool recorded_in_capture = record >= 0 && captured_[record];
      if (capturing && !recorded_in_capture) {
        std::string where = record >= 0 ? fmt::format("its record, {} on stream '{}', ran outside the capture",
                                                      CaptureTaskWhere(g_.tasks[record]), g_.tasks[record].stream)
                                        : "no task before it records it";
        if (!Add(CaptureRule::kUncapturedWait, t.id, t.stream,
                 fmt::format("ACL_ERROR_RT_CAPTURE_DEPENDENCY (107024, \"in the model capture scenario, the event "
                             "wait task has no corresponding event record task\"): {} on stream '{}' waits for event "
                             "'{}' and {}; record the event in the capture first (on the capture stream or a "
                             "stream that joined it)",
                             CaptureTaskWhere(t), t.stream, t.event, where))) {
          return false;
        }
        return true;  // left out: the walk goes on as if it had not been issued
      } else if (!capturing && recorded_in_capture) {
        capturing = true;  // the stream joins the capture (a fork)
      }
    }
    if (!capturing) {
      outside_.push_back(t.id);
      return true;
    }
    if (t.kind == TaskKind::kHostSync) {
      return Add(CaptureRule::kStreamSync, t.id, t.stream,
                 fmt::format("ACL_ERROR_RT_STREAM_CAPTURED (107027, \"stream is captured\"): {} synchronizes "
                             "stream '{}' during capture (.item() synchronizes the stream before its copy, torch_npu "
                             "LocalScalarDenseNpu.cpp:25-26), which every capture mode refuses; move the .item() / "
                             "host read out of the captured region (or run this graph eagerly)",
                             CaptureTaskWhere(t), t.stream));
    }
    if (t.kind == TaskKind::kMemcpy && t.blocking) {
      // torch_npu's blocking copy: stream synchronize (its error kept), then
      // aclrtMemcpy checked first (CopyKernel.cpp:141-159).
      std::string what =
          setup_.mode == CaptureMode::kRelaxed
              ? std::string(
                    "in capture mode relaxed aclrtMemcpy may run, but the stream synchronize before it fails "
                    "with ACL_ERROR_RT_STREAM_CAPTURED (107027) and torch_npu raises \"ACL stream synchronize "
                    "failed, error code:107027\" (CopyKernel.cpp:157)")
              : fmt::format(
                    "in capture mode {} aclrtMemcpy fails with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (107030, "
                    "\"operation not permitted when a stream is capturing and the specified capture mode is "
                    "not relaxed\")",
                    CaptureModeName(setup_.mode));
      return Add(CaptureRule::kBlockingCopy, t.id, t.stream,
                 fmt::format("{} on stream '{}' is a blocking host<->device copy (no non_blocking=True): torch_npu "
                             "synchronizes the stream and copies with aclrtMemcpy (CopyKernel.cpp:141-149); {}; copy "
                             "with non_blocking=True (from pinned memory) or move the copy out of the captured region",
                             CaptureTaskWhere(t), t.stream, what));
    }
    captured_[t.id] = 1;
    last_task_[t.stream] = t.id;
    return true;
  }

  void End() {
    // NPUGraph::capture_end checks the stream before aclmdlRICaptureEnd (NPUGraph.cpp:348).
    const std::string& cap = setup_.capture_stream;
    if (!setup_.end_stream.empty() && setup_.end_stream != cap &&
        !Add(CaptureRule::kEndStream, static_cast<int64_t>(g_.tasks.size()), setup_.end_stream,
             fmt::format("RuntimeError: Capture must end on the same stream it began on. (torch_npu "
                         "NPUGraph.cpp:348): it began on '{}' and ends on '{}'; end it on '{}'",
                         cap, setup_.end_stream, cap))) {
      return;
    }
    if (!Unjoined()) return;
    if (!outside_.empty()) {
      const DeviceTask& first = g_.tasks[outside_.front()];
      std::vector<std::string> streams;
      for (uint32_t id : outside_) {
        const std::string& s = g_.tasks[id].stream;
        if (std::find(streams.begin(), streams.end(), s) == streams.end()) streams.push_back(s);
      }
      Add(CaptureRule::kOutsideCapture, static_cast<int64_t>(g_.tasks.size()), first.stream,
          fmt::format("airscope refuses: {} task(s) on stream(s) {} ran outside the capture, the first {}: a stream "
                      "joins a capture only by waiting on an event recorded in it (CANN cross-stream capture), so "
                      "the real capture would succeed without them and replays would not run them; make '{}' wait "
                      "on an event recorded on '{}' before its work (TorchAir's event closure does this after "
                      "scope_enter)",
                      outside_.size(), fmt::join(streams, ", "), CaptureTaskWhere(first), first.stream, cap));
    }
  }

  // ACL's check at aclmdlRICaptureEnd: every stream that joined must return
  // to the capture stream, directly or through another joined stream: its
  // last task is an event record that a returned stream waits for (CANN
  // aclError 107025). False when the walk stops.
  bool Unjoined() {
    const std::string& cap = setup_.capture_stream;
    std::map<std::string, bool> returned{{cap, true}};
    // For each record, the streams of the captured waits bound to it.
    std::map<uint32_t, std::vector<std::string>> waiters;
    for (const DeviceTask& t : g_.tasks) {
      if (!captured_[t.id] || t.kind != TaskKind::kEventWait) continue;
      int64_t record = BoundRecord(g_, t);
      if (record >= 0) waiters[static_cast<uint32_t>(record)].push_back(t.stream);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [stream, last] : last_task_) {
        if (returned[stream] || g_.tasks[last].kind != TaskKind::kEventRecord) continue;
        auto it = waiters.find(last);
        if (it == waiters.end()) continue;
        for (const std::string& w : it->second) {
          if (returned[w]) {
            returned[stream] = true;
            changed = true;
            break;
          }
        }
      }
    }
    for (const std::string& stream : g_.streams) {
      auto last = last_task_.find(stream);
      if (last == last_task_.end() || returned[stream]) continue;
      const DeviceTask& t = g_.tasks[last->second];
      std::string why;
      if (t.kind != TaskKind::kEventRecord) {
        why = fmt::format("its last task, {}, is not an event record", CaptureTaskWhere(t));
      } else if (!waiters.count(t.id)) {
        why = fmt::format("its last task, {}, records event '{}' that no captured task waits for", CaptureTaskWhere(t),
                          t.event);
      } else {
        why = fmt::format(
            "its last task, {}, records event '{}', but only streams that do not return themselves "
            "wait for it",
            CaptureTaskWhere(t), t.event);
      }
      if (!Add(CaptureRule::kUnjoined, static_cast<int64_t>(g_.tasks.size()), stream,
               fmt::format("ACL_ERROR_RT_STREAM_UNJOINED (107025, \"capture model contains a stream that was not "
                           "joined to the origin stream\"): stream '{}' is not joined back into capture stream '{}' "
                           "at capture end: {}; end '{}' with an event record and wait for that event on '{}' before "
                           "the output (TorchAir's event closure records before scope_exit and waits before the "
                           "output)",
                           stream, cap, why, stream, cap))) {
        return false;
      }
    }
    return true;
  }

  const TaskGraph& g_;
  const CaptureSetup& setup_;
  const bool first_only_;
  std::vector<CaptureViolation> out_;
  std::map<std::string, bool> capturing_;
  std::map<std::string, uint32_t> last_task_;  // per captured stream, its last captured task
  std::vector<uint8_t> captured_;              // per task: recorded into the graph
  std::vector<uint32_t> outside_;
};

}  // namespace

std::vector<CaptureViolation> ApplyCaptureRules(const TaskGraph& captured, const CaptureSetup& setup, bool first_only) {
  return RuleWalk(captured, setup, first_only).Run();
}

}  // namespace airscope
