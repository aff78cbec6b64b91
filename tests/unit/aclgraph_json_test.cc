// formats/aclgraph_json.h: the capture dump of NPUGraph.debug_dump both ways,
// and a reading of our output by the rules of TorchAir's
// tools/gegraph_check/ scripts, written here from the fields their
// docstrings and code document (not their code).
#include "formats/aclgraph_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/check/hazards.h"

namespace airscope {
namespace {

DeviceTask JsonTask(TaskKind kind, std::string node, std::string stream, std::string event = "") {
  DeviceTask t;
  t.kind = kind;
  t.node = std::move(node);
  t.op = kind == TaskKind::kKernel ? "npu." + t.node + ".default" : "air.x.default";
  t.stream = std::move(stream);
  t.event = std::move(event);
  return t;
}

// A captured graph as TorchAir's passes and capture leave it: a fork record
// on the capture stream, each side stream waiting for it, one kernel each,
// a join record each, the capture stream waiting for both joins.
TaskGraph Captured(int64_t vector_limit_1, int64_t vector_limit_2) {
  TaskGraph g;
  g.streams = {"capture", "1", "2"};
  auto push = [&](DeviceTask t) {
    t.id = static_cast<uint32_t>(g.tasks.size());
    if (t.kind == TaskKind::kEventWait) {
      for (auto it = g.tasks.rbegin(); it != g.tasks.rend(); ++it) {
        if (it->kind == TaskKind::kEventRecord && it->event == t.event) {
          t.deps = {it->id};
          break;
        }
      }
    }
    g.tasks.push_back(std::move(t));
  };
  push(JsonTask(TaskKind::kEventRecord, "tagged_event_record_default", "capture", "graph_1_arg0_1"));
  push(JsonTask(TaskKind::kEventWait, "tagged_event_wait_default", "1", "graph_1_arg0_1"));
  DeviceTask dispatch = JsonTask(TaskKind::kKernel, "npu_moe_distribute_dispatch", "1");
  dispatch.vectorcore_limit = vector_limit_1;
  push(dispatch);
  push(JsonTask(TaskKind::kEventRecord, "tagged_event_record_default_1", "1", "graph_1_scope_exit"));
  push(JsonTask(TaskKind::kEventWait, "tagged_event_wait_default_1", "2", "graph_1_arg0_1"));
  DeviceTask combine = JsonTask(TaskKind::kKernel, "npu_moe_distribute_combine", "2");
  combine.vectorcore_limit = vector_limit_2;
  push(combine);
  push(JsonTask(TaskKind::kKernel, "mm", "capture"));
  push(JsonTask(TaskKind::kMemcpy, "copy_", "capture"));
  push(JsonTask(TaskKind::kEventRecord, "tagged_event_record_default_2", "2", "graph_1_scope_exit_2"));
  push(JsonTask(TaskKind::kEventWait, "tagged_event_wait_default_2", "capture", "graph_1_scope_exit"));
  push(JsonTask(TaskKind::kEventWait, "tagged_event_wait_default_3", "capture", "graph_1_scope_exit_2"));
  return g;
}

TEST(AclGraphJson, WritesTheRuntimesLayout) {
  std::string text = AclGraphJson(ToAclGraphDump(Captured(-1, 24), 7, 48));
  // aclmdlRIDebugJsonPrint: "[\n", one event per line with ",\n" between, "\n]";
  // per stream, ts advancing 5 / 15 / 10 for record / wait / other tasks.
  EXPECT_EQ(text.substr(0, 2), "[\n");
  EXPECT_EQ(text.substr(text.size() - 2), "\n]");
  EXPECT_NE(text.find("{\"name\":\"EVENT_RECORD_0\",\"pid\":\"0 aclGraph\",\"tid\":\"stream0\",\"ts\":0,\"dur\":4.5,"
                      "\"ph\":\"X\",\"args\":{\"Model Id\":7,\"Stream Id\":0,\"Task Id\":0,\"Task Type\":"
                      "\"EVENT_RECORD\"}},\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{\"name\":\"mm\",\"pid\":\"0 aclGraph\",\"tid\":\"stream0\",\"ts\":5,\"dur\":9.5,\"ph\":\"X\","
                      "\"args\":{\"Model Id\":7,\"Stream Id\":0,\"Task Id\":1,\"Task Type\":\"KERNEL_AICORE\"}}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{\"name\":\"MEMCPY_ASYNC\",\"pid\":\"0 aclGraph\",\"tid\":\"stream0\",\"ts\":15,\"dur\":9.5"),
            std::string::npos);
  EXPECT_NE(text.find("\"name\":\"EVENT_WAIT_1\",\"pid\":\"0 aclGraph\",\"tid\":\"stream0\",\"ts\":25,\"dur\":14.5"),
            std::string::npos);
  EXPECT_NE(text.find("{\"name\":\"npu_moe_distribute_combine\",\"pid\":\"0 aclGraph\",\"tid\":\"stream2\",\"ts\":15,"
                      "\"dur\":9.5,\"ph\":\"X\",\"args\":{\"Model Id\":7,\"Stream Id\":2,\"Task Id\":1,\"Task Type\":"
                      "\"KERNEL_AIVEC\",\"Numblocks\":24,\"Schem Mode\":1}}"),
            std::string::npos)
      << text;
  EXPECT_TRUE(LooksLikeAclGraphDump(text));
  EXPECT_FALSE(LooksLikeAclGraphDump("{\"format\": \"airscope-graph\", \"nodes\": []}"));
  EXPECT_FALSE(LooksLikeAclGraphDump("graph():\n    return ()\n"));
}

std::vector<std::tuple<std::string, std::string, int64_t, int64_t>> Slices(const Trace& t) {
  std::vector<std::tuple<std::string, std::string, int64_t, int64_t>> out;
  for (const Slice& s : t.slices) out.emplace_back(t.tracks[s.track], s.name, s.start_ns, s.dur_ns);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AclGraphJson, WhatItWritesLoadsBackToTheSameTimelineAndText) {
  TaskGraph dump = ToAclGraphDump(Captured(-1, -1), 1, 48);
  std::string text = AclGraphJson(dump);
  Result<AclGraphDump> read = ParseAclGraphJson(text, "dump.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->capture_stream, "stream0");
  EXPECT_EQ(read->model_id, 1);
  EXPECT_EQ(read->tasks.streams, (std::vector<std::string>{"stream0", "stream1", "stream2"}));
  EXPECT_EQ(AclGraphJson(read->tasks), text);
  Trace written = AclGraphTrace(dump, "a"), loaded = AclGraphTrace(read->tasks, "b");
  EXPECT_EQ(written.tracks, loaded.tracks);
  EXPECT_EQ(Slices(written), Slices(loaded));
  EXPECT_EQ(written.end_ns, loaded.end_ns);
  EXPECT_EQ(written.flows.size(), loaded.flows.size());
  EXPECT_EQ(written.end_ns, 54500);  // stream0: record 5, kernel 10, memcpy 10, wait 15, wait 14.5
  // The hazards are the same read back: one over-subscribed pair.
  HazardOptions options{read->capture_stream, 48, "ascend-910b"};
  std::vector<Hazard> before = FindHazards(dump, {"stream0", 48, "ascend-910b"});
  std::vector<Hazard> after = FindHazards(read->tasks, options);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].kind, HazardKind::kCores);
  ASSERT_EQ(before.size(), 1u);
  // The same pair (read back, the tasks are numbered in the order rebuilt across streams).
  for (const Hazard* h : {&before[0], &after[0]}) {
    EXPECT_EQ(dump.tasks[0].node, "EVENT_RECORD_0");
    const TaskGraph& g = h == &before[0] ? dump : read->tasks;
    EXPECT_EQ(g.tasks[h->first].node, "npu_moe_distribute_dispatch");
    EXPECT_EQ(g.tasks[h->second].node, "npu_moe_distribute_combine");
  }
}

// ---- TorchAir's tools/gegraph_check/ scripts, as their docstrings and
// fields define them, reading our text with nothing of ours.

struct ScriptTask {
  nlohmann::json event;
  std::string name;
  std::string tid;
};

// deadlock_check.py: "X" events with tid and args, per tid, by Task Id.
std::map<std::string, std::vector<ScriptTask>> StreamTasks(const nlohmann::json& events) {
  std::map<std::string, std::vector<ScriptTask>> out;
  for (const nlohmann::json& e : events) {
    if (e.value("ph", "") != "X" || !e.contains("tid") || !e.contains("args")) continue;
    out[e["tid"].get<std::string>()].push_back({e, e["name"].get<std::string>(), e["tid"].get<std::string>()});
  }
  for (auto& [tid, tasks] : out) {
    std::stable_sort(tasks.begin(), tasks.end(), [](const ScriptTask& a, const ScriptTask& b) {
      return a.event["args"].value("Task Id", 0) < b.event["args"].value("Task Id", 0);
    });
  }
  return out;
}

// Sync names: a record or wait prefix and an all-digit handle.
bool Handle(const std::string& name, bool* record, std::string* handle) {
  for (auto [prefix, is_record] : {std::pair<std::string, bool>{"EVENT_RECORD_", true},
                                   {"MEM_WRITE_VALUE_", true},
                                   {"EVENT_WAIT_", false},
                                   {"MEM_WAIT_VALUE_", false}}) {
    if (name.rfind(prefix, 0) != 0) continue;
    std::string tail = name.substr(prefix.size());
    if (tail.empty() || !std::all_of(tail.begin(), tail.end(), ::isdigit)) return false;
    *record = is_record;
    *handle = tail;
    return true;
  }
  return false;
}

int64_t Aivec(const nlohmann::json& args) {
  std::string type = args.value("Task Type", "");
  int64_t blocks = args.value("Numblocks", 0);
  if (type == "KERNEL_AIVEC" || type == "KERNEL_MIX_AIV") return blocks;
  if (type == "KERNEL_MIX_AIC") return args.value("Task Ration", -1) == 0 ? 0 : blocks * 2;
  return 0;
}

bool Communication(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  return lower.find("aiv_") != std::string::npos || lower.find("dispatch") != std::string::npos ||
         lower.find("combine") != std::string::npos;
}

// The deadlock check: vector clocks to a fixed point (stream order, and at a
// wait the clock of the record with its handle: one record and one wait per
// handle, the last seen), then concurrent Schem Mode 1 communication pairs of
// different streams whose AIVEC sum exceeds the total.
std::vector<std::pair<std::string, std::string>> DeadlockPairs(const nlohmann::json& events, int64_t total) {
  auto tasks = StreamTasks(events);
  std::vector<std::string> streams;
  for (auto& [tid, list] : tasks) streams.push_back(tid);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < streams.size(); ++i) index[streams[i]] = i;
  std::map<std::string, std::pair<std::string, size_t>> records, waits;
  for (auto& [tid, list] : tasks) {
    for (size_t i = 0; i < list.size(); ++i) {
      bool record = false;
      std::string handle;
      if (!Handle(list[i].name, &record, &handle)) continue;
      (record ? records : waits)[handle] = {tid, i};
    }
  }
  std::map<std::pair<std::string, size_t>, std::pair<std::string, size_t>> wait_to_record;
  for (auto& [handle, w] : waits) {
    if (records.count(handle)) wait_to_record[w] = records[handle];
  }
  std::map<std::string, std::vector<std::vector<int64_t>>> vc;
  for (auto& [tid, list] : tasks) {
    for (size_t i = 0; i < list.size(); ++i) {
      std::vector<int64_t> clock(streams.size(), -1);
      clock[index[tid]] = static_cast<int64_t>(i);
      vc[tid].push_back(clock);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [tid, list] : tasks) {
      for (size_t i = 0; i < list.size(); ++i) {
        auto merge = [&](const std::vector<int64_t>& from) {
          for (size_t k = 0; k < streams.size(); ++k) {
            if (from[k] > vc[tid][i][k]) {
              vc[tid][i][k] = from[k];
              changed = true;
            }
          }
        };
        if (i > 0) merge(vc[tid][i - 1]);
        if (auto it = wait_to_record.find({tid, i}); it != wait_to_record.end()) {
          merge(vc[it->second.first][it->second.second]);
        }
      }
    }
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t a = 0; a < streams.size(); ++a) {
    for (size_t b = a + 1; b < streams.size(); ++b) {
      const auto& la = tasks[streams[a]];
      const auto& lb = tasks[streams[b]];
      for (size_t i = 0; i < la.size(); ++i) {
        for (size_t j = 0; j < lb.size(); ++j) {
          const nlohmann::json& aa = la[i].event["args"];
          const nlohmann::json& ab = lb[j].event["args"];
          if (aa.value("Schem Mode", -1) != 1 || ab.value("Schem Mode", -1) != 1) continue;
          if (!Communication(la[i].name) || !Communication(lb[j].name)) continue;
          if (Aivec(aa) <= 0 || Aivec(ab) <= 0 || Aivec(aa) + Aivec(ab) <= total) continue;
          bool a_after_b = vc[streams[a]][i][b] >= static_cast<int64_t>(j);
          bool b_after_a = vc[streams[b]][j][a] >= static_cast<int64_t>(i);
          if (!a_after_b && !b_after_a) pairs.emplace_back(la[i].name, lb[j].name);
        }
      }
    }
  }
  return pairs;
}

TEST(AclGraphJson, TorchAirsScriptsReadOurOutput) {
  for (auto [limit, conflict] : {std::pair<int64_t, bool>{-1, true}, {24, false}}) {
    std::string text = AclGraphJson(ToAclGraphDump(Captured(limit, limit), 1, 48));
    nlohmann::json events = nlohmann::json::parse(text);
    ASSERT_TRUE(events.is_array());
    for (const nlohmann::json& e : events) {
      // What every script reads of an event: a name, a "stream<digits>" tid
      // (_tid_to_stream_id), finite ts and dur (align_trace), ph "X", args
      // with an integer Task Id and a Task Type.
      ASSERT_TRUE(e["name"].is_string());
      std::string tid = e["tid"].get<std::string>();
      ASSERT_EQ(tid.rfind("stream", 0), 0u);
      EXPECT_NO_THROW((void)std::stoi(tid.substr(6)));
      EXPECT_TRUE(e["ts"].is_number() && e["dur"].is_number());
      EXPECT_EQ(e["ph"], "X");
      EXPECT_TRUE(e["args"]["Task Id"].is_number_integer());
      EXPECT_TRUE(e["args"]["Task Type"].is_string());
      // A sync name's handle is all digits, and its record exists.
      bool record = false;
      std::string handle;
      std::string name = e["name"].get<std::string>();
      if (name.find("EVENT_") == 0) {
        EXPECT_TRUE(Handle(name, &record, &handle)) << name;
      }
    }
    // filter_operators.py keeps control tasks and communication tasks.
    size_t kept = 0;
    for (const nlohmann::json& e : events) {
      std::string name = e["name"].get<std::string>();
      bool record = false;
      std::string handle;
      kept += Handle(name, &record, &handle) || Communication(name);
    }
    EXPECT_EQ(kept, events.size() - 2);  // all but mm and the memcpy
    std::vector<std::pair<std::string, std::string>> pairs = DeadlockPairs(events, 48);
    if (conflict) {
      ASSERT_EQ(pairs.size(), 1u);
      EXPECT_EQ(pairs[0],
                (std::pair<std::string, std::string>{"npu_moe_distribute_dispatch", "npu_moe_distribute_combine"}));
    } else {
      EXPECT_TRUE(pairs.empty());
    }
    // And airscope's own check agrees.
    TaskGraph dump = ToAclGraphDump(Captured(limit, limit), 1, 48);
    std::vector<Hazard> hazards = FindHazards(dump, {"stream0", 48, "ascend-910b"});
    EXPECT_EQ(!hazards.empty(), conflict);
  }
}

TEST(AclGraphJson, ReadsARealDumpsShapes) {
  // STREAM_ACTIVE moves stream9's tasks onto stream3; memory-value sync;
  // a wait listed before its record's stream; an aligned file's fractional ts.
  std::string text = R"([
{"name":"MEM_WAIT_VALUE_7","pid":"42 aclGraph","tid":"stream5","ts":0,"dur":14.5,"ph":"X","args":{"Model Id":3,"Stream Id":5,"Task Id":0,"Task Type":"MEM_WAIT_VALUE"}},
{"name":"aiv_all_gather_bfloat16_t","pid":"42 aclGraph","tid":"stream5","ts":15.2,"dur":9.5,"ph":"X","args":{"Model Id":3,"Stream Id":5,"Task Id":1,"Task Type":"KERNEL_AIVEC","Numblocks":32,"Schem Mode":1}},
{"name":"STREAM_ACTIVE","pid":"42 aclGraph","tid":"stream3","ts":0,"dur":9.5,"ph":"X","args":{"Model Id":3,"Stream Id":3,"Task Id":0,"Task Type":"STREAM_ACTIVE","Active Stream Id":9}},
{"name":"MEM_WRITE_VALUE_7","pid":"42 aclGraph","tid":"stream3","ts":10,"dur":4.5,"ph":"X","args":{"Model Id":3,"Stream Id":3,"Task Id":1,"Task Type":"MEM_WRITE_VALUE"}},
{"name":"MoeDistributeDispatchV2_e3e2549baf4795bf56c350e970d2218a_1060","pid":"42 aclGraph","tid":"stream9","ts":0,"dur":9.5,"ph":"X","args":{"Model Id":3,"Stream Id":9,"Task Id":5,"Task Type":"KERNEL_MIX_AIV","Numblocks":24,"Task Ration":2,"Schem Mode":1}},
{"name":"PAIR_7","ph":"s","tid":"stream3","ts":14.5,"id":7}
])";
  Result<AclGraphDump> read = ParseAclGraphJson(text, "real.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->merged, std::vector<std::string>{"stream9 -> stream3"});
  EXPECT_EQ(read->tasks.streams, (std::vector<std::string>{"stream5", "stream3"}));
  ASSERT_EQ(read->tasks.tasks.size(), 5u);
  // stream5 waits for stream3's record: issued after it.
  const DeviceTask* wait = nullptr;
  for (const DeviceTask& t : read->tasks.tasks) {
    if (t.kind == TaskKind::kEventWait) wait = &t;
  }
  ASSERT_NE(wait, nullptr);
  ASSERT_EQ(wait->deps.size(), 1u);
  EXPECT_EQ(read->tasks.tasks[wait->deps[0]].node, "MEM_WRITE_VALUE_7");
  EXPECT_EQ(read->tasks.tasks[wait->deps[0]].event, "7");
  // The merged dispatch moved after stream3's end (ts 14.5) and onto stream3.
  for (const DeviceTask& t : read->tasks.tasks) {
    if (t.node.rfind("MoeDistribute", 0) == 0) {
      EXPECT_EQ(t.stream, "stream3");
      EXPECT_DOUBLE_EQ(t.launch->ts_us, 14.5);
      EXPECT_EQ(t.launch->stream_id, 3);
    }
  }
  // The all_gather (32) and the dispatch (24): ordered? The gather waits for
  // stream3's MEM_WRITE_VALUE (task 1) and the dispatch comes after it on
  // stream3, so they may overlap: 56 > 48, as in TorchAir's docs' example.
  std::vector<Hazard> hazards = FindHazards(read->tasks, {read->capture_stream, 48, "ascend-910b"});
  bool cores = false;
  for (const Hazard& h : hazards)
    cores = cores || (h.kind == HazardKind::kCores && h.message.find("56 > 48") != std::string::npos);
  EXPECT_TRUE(cores);
  // A fractional ts survives a rewrite.
  EXPECT_NE(AclGraphJson(read->tasks).find("\"ts\":15.2"), std::string::npos);
}

// Found by fuzz_aclgraph_json: a field of another type than the format's
// ("ph": 0, an ExtendInfo whose taskType is a number) threw from nlohmann's
// value() and ended airscope. Such an event is skipped, such an ExtendInfo
// says no communication.
TEST(AclGraphJson, FieldsOfOtherTypesAreNoCrash) {
  std::string text = R"([
{"name":"odd","tid":"stream3","ts":0,"dur":9.5,"ph":0,"args":{"Task Id":5,"Task Type":"KERNEL_MIX_AIV"}},
{"name":"HcclKernel","tid":"stream3","ts":0,"dur":9.5,"ph":"X","args":{"Task Id":1,"Task Type":"KERNEL_AIVEC","Numblocks":8,"Schem Mode":1,"ExtendInfo":"{\"taskType\": 7}"}}
])";
  Result<AclGraphDump> read = ParseAclGraphJson(text, "odd.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->tasks.tasks.size(), 1u);
  EXPECT_FALSE(VectorCoreDemand(read->tasks.tasks[0], 48).candidate);
}

// Times no capture dump has (issue 29 item 1: "ts": -5 or 1e17 loaded, then
// `timeline` crashed) are refused at load, at the event's line and column;
// in a {"traceEvents": [...]} object too.
TEST(AclGraphJson, AbsurdTimesAreRefusedAtTheirEvent) {
  auto dump = [](std::string_view ts, std::string_view dur) {
    return fmt::format(R"([
{{"name":"a","tid":"stream0","ts":0,"dur":9.5,"ph":"X","args":{{"Task Id":0,"Task Type":"KERNEL_AICORE"}}}},
  {{"name":"b","tid":"stream0","ts":{},"dur":{},"ph":"X","args":{{"Task Id":1,"Task Type":"KERNEL_AICORE"}}}}
])",
                       ts, dur);
  };
  Result<AclGraphDump> r = ParseAclGraphJson(dump("-5", "9.5"), "neg.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "neg.json:3:3: event 1: \"ts\" is -5: a capture dump's times are microseconds from 0 to 1e+12 (the "
            "runtime lays tasks out 10 apart from 0)");
  r = ParseAclGraphJson(dump("1e17", "9.5"), "huge.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("huge.json:3:3: event 1: \"ts\" is 1e+17:", 0), 0u) << r.status().message();
  r = ParseAclGraphJson(dump("10", "-0.5"), "dur.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("dur.json:3:3: event 1: \"dur\" is -0.5:", 0), 0u) << r.status().message();
  r = ParseAclGraphJson(dump("10", "1e300"), "dur.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("dur.json:3:3: event 1: \"dur\" is 1e+300:", 0), 0u) << r.status().message();
  // The object form: the events are "traceEvents"'s, after a string holding brackets.
  std::string object = R"({"note": "[{,]}",
 "traceEvents": [ {"name":"a","tid":"s","ts":1e16,"ph":"X","args":{"Task Type":"KERNEL_AICORE"}}]})";
  r = ParseAclGraphJson(object, "obj.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("obj.json:2:19: event 0: \"ts\" is 1e+16:", 0), 0u) << r.status().message();
  // In range, fractional and 0 load as before.
  EXPECT_TRUE(ParseAclGraphJson(dump("15.2", "0"), "ok.json").ok());
}

// Found by fuzz_driver: a STREAM_ACTIVE merge into a stream whose number does
// not fit int64 threw std::out_of_range from std::stoll and ended airscope.
// The merge happens; the moved tasks keep their own Stream Id.
TEST(AclGraphJson, AStreamNumberPastInt64IsNoCrash) {
  std::string text = R"([
{"name":"k","tid":"stream9","ts":0,"dur":9.5,"ph":"X","args":{"Stream Id":9,"Task Id":0,"Task Type":"KERNEL_AICORE"}},
{"name":"STREAM_ACTIVE","tid":"stream18446744073709551616","ts":0,"dur":9.5,"ph":"X","args":{"Stream Id":3,"Task Id":0,"Task Type":"STREAM_ACTIVE","Active Stream Id":9}}
])";
  Result<AclGraphDump> read = ParseAclGraphJson(text, "big.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->merged, (std::vector<std::string>{"stream9 -> stream18446744073709551616"}));
  ASSERT_EQ(read->tasks.tasks.size(), 2u);
  for (const DeviceTask& t : read->tasks.tasks) EXPECT_EQ(t.stream, "stream18446744073709551616");
  EXPECT_EQ(read->tasks.tasks[1].launch->stream_id, 9);
}

TEST(AclGraphJson, BadDumpsSayWhereAndWhat) {
  Result<AclGraphDump> r = ParseAclGraphJson("[\n{\"name\": 1,\n", "bad.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("bad.json:", 0), 0u);
  r = ParseAclGraphJson(R"([{"name":"x","tid":"stream1","ph":"X","args":{"Task Type":"KERNEL_AICORE","Task Id":"3"}}])",
                        "bad.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "bad.json:1:2: event 0: args \"Task Id\" is not an integer");
  r = ParseAclGraphJson(R"([{"name":"x","ph":"i"}])", "empty.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "empty.json: no \"X\" task events with \"tid\" and \"args\"");
}

}  // namespace
}  // namespace airscope
