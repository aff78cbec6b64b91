#include "core/check/hazards.h"

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/check/happens_before.h"
#include "core/device/capture_rules.h"
#include "core/device/simulator.h"
#include "core/fx/json_text.h"

namespace airscope {

std::string_view HazardKindName(HazardKind kind) {
  switch (kind) {
    case HazardKind::kRace: return "race";
    case HazardKind::kUnrecordedWait: return "unrecorded wait";
    case HazardKind::kRerecordedEvent: return "re-recorded event";
    case HazardKind::kUnjoined: return "unjoined stream";
    case HazardKind::kCores: return "core over-subscription";
  }
  return "?";
}

namespace {

std::string Where(const DeviceTask& t) {
  return fmt::format("task {} '{}' ({}) on stream '{}'", t.id, t.node, t.op, StreamDisplayName(t.stream));
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// deadlock_check.py _is_comm_task: the name, or ExtendInfo's taskType.
bool IsCommunication(const DeviceTask& t) {
  for (const std::string& name : {t.node, t.op}) {
    std::string lower = Lower(name);
    if (lower.find("aiv_") != std::string::npos || lower.find("dispatch") != std::string::npos ||
        lower.find("combine") != std::string::npos) {
      return true;
    }
  }
  // ExtendInfo is JSON text inside the dump's JSON; nlohmann's parser
  // recurses per nesting level, so a deep one is refused first.
  if (t.launch && !t.launch->extend_info.empty() && CheckJsonDepth(t.launch->extend_info, 64).ok()) {
    nlohmann::json info = nlohmann::json::parse(t.launch->extend_info, nullptr, false);
    if (info.is_object() && info.contains("taskType") && info["taskType"] == "communication") return true;
  }
  return false;
}

// Races: in issue order, each access against, per other stream, the last
// write (and for a write the last read) of the same buffer on that stream.
// The last is enough: if an earlier access there is not ordered before this
// task, no later one on that stream is either.
void FindRaces(const TaskGraph& g, const HappensBefore& hb, std::vector<Hazard>& out) {
  const size_t k = hb.stream_count();
  std::vector<int64_t> last_write(g.buffers.size() * k, -1), last_read(g.buffers.size() * k, -1);
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;  // (earlier, later, buffer)
  auto report = [&](uint32_t earlier, bool earlier_writes, const DeviceTask& t, bool writes, uint32_t buffer) {
    if (!seen.insert({earlier, t.id, buffer}).second) return;
    const DeviceTask& e = g.tasks[earlier];
    out.push_back({HazardKind::kRace, earlier, t.id,
                   fmt::format("buffer '{}': {} {} it and {} {} it, and no event orders them (they may run at "
                               "once)",
                               g.buffers[buffer], Where(e), earlier_writes ? "writes" : "reads", Where(t),
                               writes ? "writes" : "reads")});
  };
  for (const DeviceTask& t : g.tasks) {
    const uint32_t s = hb.stream_of(t.id);
    auto visit = [&](uint32_t buffer, bool writes) {
      for (uint32_t other = 0; other < k; ++other) {
        if (other == s) continue;
        int64_t w = last_write[buffer * k + other];
        if (w >= 0 && !hb.Before(static_cast<uint32_t>(w), t.id))
          report(static_cast<uint32_t>(w), true, t, writes, buffer);
        int64_t r = last_read[buffer * k + other];
        if (writes && r >= 0 && !hb.Before(static_cast<uint32_t>(r), t.id)) {
          report(static_cast<uint32_t>(r), false, t, true, buffer);
        }
      }
    };
    for (uint32_t b : t.writes) visit(b, true);
    for (uint32_t b : t.reads) {
      if (!std::binary_search(t.writes.begin(), t.writes.end(), b)) visit(b, false);
    }
    for (uint32_t b : t.writes) last_write[b * k + s] = t.id;
    for (uint32_t b : t.reads) last_read[b * k + s] = t.id;
  }
}

void FindEventMisuse(const TaskGraph& g, const HappensBefore& hb, std::vector<Hazard>& out) {
  // Per event: its latest record and whether a wait consumed it yet.
  std::map<std::string, std::pair<int64_t, bool>, std::less<>> latest;
  std::map<std::string, std::vector<uint32_t>, std::less<>> records;  // per event, in issue order
  for (const DeviceTask& t : g.tasks) {
    if (t.kind == TaskKind::kEventRecord) records[t.event].push_back(t.id);
  }
  std::vector<Hazard> rerecorded;
  for (const DeviceTask& t : g.tasks) {
    if (t.kind == TaskKind::kEventRecord) {
      auto [it, fresh] = latest.try_emplace(t.event, -1, false);
      if (!fresh && !it->second.second) {
        const DeviceTask& first = g.tasks[it->second.first];
        rerecorded.push_back({HazardKind::kRerecordedEvent, first.id, t.id,
                              fmt::format("event '{}' recorded by {} is recorded again by {} before any wait "
                                          "consumed the first record: a wait meant for it waits for the second",
                                          t.event, Where(first), Where(t))});
      }
      it->second = {t.id, false};
    } else if (t.kind == TaskKind::kEventWait) {
      int64_t record = hb.RecordOf(t.id);
      if (record < 0) {
        std::string later;
        if (auto it = records.find(t.event); it != records.end()) {
          auto after = std::upper_bound(it->second.begin(), it->second.end(), t.id);
          if (after != it->second.end()) later = fmt::format(" (only {} records it, later)", Where(g.tasks[*after]));
        }
        out.push_back({HazardKind::kUnrecordedWait, -1, t.id,
                       fmt::format("{} waits for event '{}', which no task before it records{}: it waits for "
                                   "nothing, and what it should order is unordered",
                                   Where(t), t.event, later)});
        continue;
      }
      auto it = latest.find(t.event);
      if (it != latest.end()) it->second.second = true;
    }
  }
  out.insert(out.end(), rerecorded.begin(), rerecorded.end());
}

void FindUnjoined(const TaskGraph& g, const HazardOptions& options, std::vector<Hazard>& out) {
  // The capture rules' own verdict, so `check` and `capture` cannot disagree.
  std::string cap = options.capture_stream.empty() ? "default" : options.capture_stream;
  CaptureSetup setup;
  setup.capture_stream = cap;
  for (const CaptureViolation& v : ApplyCaptureRules(OnCaptureStream(g, cap), setup, false)) {
    if (v.rule != CaptureRule::kUnjoined && v.rule != CaptureRule::kOutsideCapture) continue;
    int64_t task = v.task >= 0 && v.task < static_cast<int64_t>(g.tasks.size()) ? v.task : -1;
    out.push_back({HazardKind::kUnjoined, -1, task, v.message});
  }
}

void FindCoreOversubscription(const TaskGraph& g, const HappensBefore& hb, const HazardOptions& options,
                              std::vector<Hazard>& out) {
  std::vector<std::pair<uint32_t, CoreDemand>> candidates;
  for (const DeviceTask& t : g.tasks) {
    CoreDemand d = VectorCoreDemand(t, options.vectorcore_num);
    if (d.candidate) candidates.emplace_back(t.id, std::move(d));
  }
  // Demands come from a dump's Numblocks, any int64: summed saturating, so
  // a hostile dump's INT64_MAX is "more than the device has", not an overflow.
  auto demand = [](int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; };
  for (size_t i = 0; i < candidates.size(); ++i) {
    for (size_t j = i + 1; j < candidates.size(); ++j) {
      const auto& [a, da] = candidates[i];
      const auto& [b, db] = candidates[j];
      if (hb.stream_of(a) == hb.stream_of(b) || demand(da.vectorcores, db.vectorcores) <= options.vectorcore_num) {
        continue;
      }
      if (!hb.Concurrent(a, b)) continue;
      out.push_back({HazardKind::kCores, a, b,
                     fmt::format("{} ({} vector cores: {}) and {} ({} vector cores: {}) may run at once: {} > {} "
                                 "vector cores of {}; each waits until all its cores are free (Schem Mode 1), so "
                                 "they can deadlock (TorchAir tools/gegraph_check/deadlock_check.py); limit their "
                                 "streams' cores (torchair.scope.limit_core_num) or order them with an event",
                                 Where(g.tasks[a]), da.vectorcores, da.why, Where(g.tasks[b]), db.vectorcores, db.why,
                                 demand(da.vectorcores, db.vectorcores), options.vectorcore_num, options.device)});
    }
  }
}

}  // namespace

CoreDemand VectorCoreDemand(const DeviceTask& t, int64_t device_vectorcores) {
  CoreDemand d;
  if (t.kind != TaskKind::kKernel || !IsCommunication(t)) return d;
  if (t.launch) {
    const DeviceTask::LaunchRecord& l = *t.launch;
    if (l.schem_mode != 1) return d;
    int64_t blocks = std::max<int64_t>(l.num_blocks, 0);
    if (l.task_type == "KERNEL_AIVEC" || l.task_type == "KERNEL_MIX_AIV") {
      d.vectorcores = blocks;
      d.why = fmt::format("{} Numblocks", l.task_type);
    } else if (l.task_type == "KERNEL_MIX_AIC") {
      d.vectorcores = l.task_ration == 0 ? 0 : blocks > INT64_MAX / 2 ? INT64_MAX : blocks * 2;
      d.why = fmt::format("KERNEL_MIX_AIC Numblocks x 2, Task Ration {}", l.task_ration);
    }
  } else if (t.vectorcore_limit >= 0) {
    d.vectorcores = t.vectorcore_limit;
    d.why = "its stream's limit_core_num";
  } else {
    d.vectorcores = device_vectorcores;
    d.why = "no limit_core_num: all the device's";
  }
  d.candidate = d.vectorcores > 0;
  return d;
}

std::vector<Hazard> FindHazards(const TaskGraph& graph, const HazardOptions& options) {
  HappensBefore hb = HappensBefore::Compute(graph);
  std::vector<Hazard> out;
  FindRaces(graph, hb, out);
  FindEventMisuse(graph, hb, out);
  if (options.check_joins) FindUnjoined(graph, options, out);
  FindCoreOversubscription(graph, hb, options, out);
  std::stable_sort(out.begin(), out.end(), [](const Hazard& a, const Hazard& b) {
    return std::tie(a.kind, a.second, a.first) < std::tie(b.kind, b.second, b.first);
  });
  return out;
}

}  // namespace airscope
