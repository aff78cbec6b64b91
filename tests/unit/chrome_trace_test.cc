#include "formats/chrome_trace.h"

#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/device/simulator.h"
#include "core/fx/graph_json.h"
#include "core/lower/task_graph.h"
#include "core/file_util.h"

namespace airscope {
namespace {

// The seed multi-stream graph after TorchAir's passes, captured and replayed.
Trace SeedReplayTrace() {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/seed_multistream_lowered.json";
  Result<std::string> text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << path;
  if (!text.ok()) return {};
  Result<std::unique_ptr<Graph>> graph = ParseGraphJson(*text, path);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return {};
  Result<TaskGraph> tasks = BuildTaskGraph(**graph, OpRegistry::Builtin());
  EXPECT_TRUE(tasks.ok()) << tasks.status().message();
  if (!tasks.ok()) return {};
  SimDevice dev(*DevicePreset("ascend-910b"));
  Result<uint32_t> id = dev.Capture(*tasks, "seed", {{"arg0_1", 36}}, CaptureOptions{});
  EXPECT_TRUE(id.ok()) << id.status().message();
  if (!id.ok()) return {};
  RunOptions o;
  o.iterations = 2;
  EXPECT_TRUE(dev.Replay(*id, o).ok());
  return dev.last_trace();
}

void CheckStructure(const nlohmann::json& doc) {
  ASSERT_TRUE(doc.contains("traceEvents"));
  std::map<int, int> starts, finishes;
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices;
  std::set<std::pair<int, int>> named_threads, used_threads;
  std::set<int> named_processes;
  for (const auto& e : doc["traceEvents"]) {
    std::string ph = e["ph"];
    std::pair<int, int> thread{e["pid"], e.value("tid", 0)};
    if (ph == "M") {
      if (e["name"] == "thread_name") named_threads.insert(thread);
      if (e["name"] == "process_name") named_processes.insert(thread.first);
      continue;
    }
    if (ph == "C") continue;
    used_threads.insert(thread);
    if (ph == "X") slices[thread].push_back({e["ts"], e["dur"]});
    if (ph == "s") starts[e["id"]]++;
    if (ph == "f") {
      finishes[e["id"]]++;
      EXPECT_EQ(e["bp"], "e");
    }
  }
  EXPECT_EQ(starts, finishes);  // every s has its f with the same id (and only one)
  for (const auto& [id, n] : starts) EXPECT_EQ(n, 1) << id;
  for (const auto& t : used_threads) {
    EXPECT_TRUE(named_threads.count(t)) << t.first << "/" << t.second;
    EXPECT_TRUE(named_processes.count(t.first));
  }
  for (auto& [thread, list] : slices) {
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i) {
      EXPECT_LE(list[i - 1].first + list[i - 1].second, list[i].first + 1e-9)
          << "overlap on " << thread.first << "/" << thread.second << " at " << list[i].first;
    }
  }
}

TEST(ChromeTrace, SeedReplayHasMatchedFlowsAndNoOverlaps) {
  Trace trace = SeedReplayTrace();
  nlohmann::json doc = nlohmann::json::parse(ChromeTraceJson(trace));
  CheckStructure(doc);
  // The record -> wait arrows of the two streams are there.
  int event_flows = 0;
  for (const auto& e : doc["traceEvents"]) event_flows += e["ph"] == "s" && e["name"] == "event";
  EXPECT_GE(event_flows, 4);                                              // fork, record, join per iteration
  EXPECT_EQ(ChromeTraceJson(trace), ChromeTraceJson(SeedReplayTrace()));  // deterministic
}

TEST(ChromeTrace, EagerWithEveryCategoryIsWellFormed) {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/seed_multistream_lowered.json";
  Result<std::unique_ptr<Graph>> graph = ParseGraphJson(*ReadFile(path), path);
  ASSERT_TRUE(graph.ok());
  SimDevice dev(*DevicePreset("a100"));
  RunOptions o;
  o.iterations = 3;
  ASSERT_TRUE(dev.Eager(*BuildTaskGraph(**graph, OpRegistry::Builtin()), "seed", o).ok());
  CheckStructure(nlohmann::json::parse(ChromeTraceJson(dev.last_trace())));
}

}  // namespace
}  // namespace airscope
