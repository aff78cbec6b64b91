// core/check/hazards.h on hand-made task graphs: each kind found, and not
// found once the graph orders what it touches.
#include "core/check/hazards.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "tests/unit/task_graph_test_util.h"

#include "core/fx/readable.h"
#include "core/lower/task_graph.h"
#include "core/ops/op_registry.h"

namespace airscope {
namespace {

using testing_tasks::Tasks;

HazardOptions Options() { return {"", 48, "ascend-910b"}; }

std::vector<std::string> Kinds(const std::vector<Hazard>& hazards) {
  std::vector<std::string> out;
  for (const Hazard& h : hazards) out.push_back(std::string(HazardKindName(h.kind)));
  return out;
}

// Fork and join: stream s1 waits for a record on the default stream and the
// default stream waits for s1's last record.
void Fork(Tasks& t) {
  t.Add(TaskKind::kEventRecord, "", "fork");
  t.Add(TaskKind::kEventWait, "s1", "fork");
}
void Join(Tasks& t) {
  t.Add(TaskKind::kEventRecord, "s1", "join");
  t.Add(TaskKind::kEventWait, "", "join");
}

TEST(Hazards, AWriteRacingAReadOnAnotherStream) {
  Tasks t;
  uint32_t x = t.Buffer("x");
  Fork(t);
  uint32_t reader = t.Kernel("s1", {x}, {}, "mm");
  uint32_t writer = t.Kernel("", {}, {x}, "copy_");
  Join(t);
  std::vector<Hazard> h = FindHazards(t.g, Options());
  ASSERT_EQ(Kinds(h), std::vector<std::string>{"race"});
  EXPECT_EQ(h[0].first, reader);
  EXPECT_EQ(h[0].second, writer);
  EXPECT_EQ(h[0].message,
            "buffer 'x': task 2 'mm' (aten.x.default) on stream 's1' reads it and task 3 'copy_' (aten.x.default) on "
            "stream 'default' writes it, and no event orders them (they may run at once)");
}

TEST(Hazards, NoRaceWhenAnEventOrdersThemOrBothOnlyRead) {
  Tasks t;
  uint32_t x = t.Buffer("x");
  Fork(t);
  t.Kernel("s1", {x}, {});
  t.Kernel("", {x}, {});  // two readers: no race
  Join(t);
  t.Kernel("", {}, {x});  // after the join: ordered after the reader on s1
  EXPECT_TRUE(FindHazards(t.g, Options()).empty());
}

TEST(Hazards, TheEarlierWriteOfAStreamIsCaughtThroughItsLastWrite) {
  Tasks t;
  uint32_t x = t.Buffer("x");
  Fork(t);
  t.Kernel("s1", {}, {x});
  uint32_t second = t.Kernel("s1", {}, {x});
  uint32_t reader = t.Kernel("", {x}, {});
  Join(t);
  std::vector<Hazard> h = FindHazards(t.g, Options());
  ASSERT_EQ(h.size(), 1u);  // one report per pair of streams and buffer: the last write
  EXPECT_EQ(h[0].first, second);
  EXPECT_EQ(h[0].second, reader);
}

TEST(Hazards, UnrecordedWaitAndReRecordedEvent) {
  Tasks t;
  Fork(t);
  uint32_t w = t.Add(TaskKind::kEventWait, "s1", "e");  // nothing recorded e yet
  uint32_t r1 = t.Add(TaskKind::kEventRecord, "", "f");
  uint32_t r2 = t.Add(TaskKind::kEventRecord, "", "f");  // before any wait took r1
  t.Add(TaskKind::kEventWait, "s1", "f");
  Join(t);
  t.Add(TaskKind::kEventRecord, "", "e");
  std::vector<Hazard> h = FindHazards(t.g, Options());
  ASSERT_EQ(Kinds(h), (std::vector<std::string>{"unrecorded wait", "re-recorded event"}));
  EXPECT_EQ(h[0].second, w);
  EXPECT_NE(h[0].message.find("(only task 8 't8' (aten.x.default) on stream 'default' records it, later)"),
            std::string::npos)
      << h[0].message;
  EXPECT_EQ(h[1].first, r1);
  EXPECT_EQ(h[1].second, r2);
}

TEST(Hazards, AStreamNeverJoinedBackIsTheCaptureRulesVerdict) {
  Tasks t;
  uint32_t x = t.Buffer("x");
  Fork(t);
  t.Kernel("s1", {}, {x});
  t.Add(TaskKind::kEventRecord, "s1", "join");  // nobody waits for it
  std::vector<Hazard> h = FindHazards(t.g, Options());
  ASSERT_EQ(Kinds(h), std::vector<std::string>{"unjoined stream"});
  EXPECT_NE(h[0].message.find("ACL_ERROR_RT_STREAM_UNJOINED (107025"), std::string::npos);
  EXPECT_NE(h[0].message.find("stream 's1' is not joined back into capture stream 'default'"), std::string::npos);
}

DeviceTask Comm(std::string name, std::string stream, std::string type, int64_t blocks, int64_t schem,
                int64_t ration = -1) {
  DeviceTask t;
  t.kind = TaskKind::kKernel;
  t.node = std::move(name);
  t.op = t.node;
  t.stream = std::move(stream);
  DeviceTask::LaunchRecord l;
  l.task_type = std::move(type);
  l.num_blocks = blocks;
  l.schem_mode = schem;
  l.task_ration = ration;
  t.launch = l;
  return t;
}

// deadlock_check.py's _calc_aivec and _is_comm_task, case by case.
TEST(Hazards, VectorCoreDemandFollowsDeadlockCheck) {
  EXPECT_EQ(VectorCoreDemand(Comm("aiv_all_gather_bfloat16_t", "s", "KERNEL_AIVEC", 48, 1), 48).vectorcores, 48);
  EXPECT_EQ(VectorCoreDemand(Comm("MoeDistributeDispatchV2_1060", "s", "KERNEL_MIX_AIV", 16, 1, 2), 48).vectorcores,
            16);
  EXPECT_EQ(VectorCoreDemand(Comm("MoeDistributeCombineV2_32", "s", "KERNEL_MIX_AIC", 12, 1, 1), 48).vectorcores, 24);
  EXPECT_FALSE(VectorCoreDemand(Comm("MoeDistributeCombineV2_32", "s", "KERNEL_MIX_AIC", 12, 1, 0), 48).candidate);
  EXPECT_FALSE(VectorCoreDemand(Comm("aiv_all_gather", "s", "KERNEL_AICORE", 24, 1), 48).candidate);
  EXPECT_FALSE(VectorCoreDemand(Comm("aiv_all_gather", "s", "KERNEL_AIVEC", 48, 0), 48).candidate);  // Schem Mode 0
  EXPECT_FALSE(VectorCoreDemand(Comm("MatMul_7", "s", "KERNEL_AIVEC", 48, 1), 48).candidate);  // not communication
  DeviceTask by_info = Comm("HcclKernel", "s", "KERNEL_AIVEC", 8, 1);
  by_info.launch->extend_info = R"({"taskType": "communication"})";
  EXPECT_EQ(VectorCoreDemand(by_info, 48).vectorcores, 8);
  // Lowered from a graph: the stream's limit, else the device's.
  DeviceTask lowered;
  lowered.kind = TaskKind::kKernel;
  lowered.node = "npu_moe_distribute_dispatch";
  lowered.op = "npu.npu_moe_distribute_dispatch.default";
  EXPECT_EQ(VectorCoreDemand(lowered, 48).vectorcores, 48);
  lowered.vectorcore_limit = 24;
  EXPECT_EQ(VectorCoreDemand(lowered, 48).vectorcores, 24);
}

// A dump's Numblocks is any int64 (found by fuzz.seeded_mutations): the
// demand saturates, and two such tasks are over-subscription, not overflow.
TEST(Hazards, AHugeNumblocksSaturatesInsteadOfOverflowing) {
  constexpr int64_t kHuge = INT64_MAX;
  EXPECT_EQ(VectorCoreDemand(Comm("MoeDistributeCombineV2_32", "s", "KERNEL_MIX_AIC", kHuge, 1, 1), 48).vectorcores,
            kHuge);
  TaskGraph g;
  for (const char* stream : {"s1", "s2"}) {
    DeviceTask t = Comm("aiv_all_gather_bfloat16_t", stream, "KERNEL_AIVEC", stream[1] == '1' ? 24 : kHuge, 1);
    t.id = static_cast<uint32_t>(g.tasks.size());
    g.streams.emplace_back(stream);
    g.tasks.push_back(std::move(t));
  }
  std::vector<Hazard> h = FindHazards(g, {"s1", 48, "ascend-910b"});
  auto cores = std::find_if(h.begin(), h.end(), [](const Hazard& x) { return x.kind == HazardKind::kCores; });
  ASSERT_NE(cores, h.end());  // beside s2's unjoined stream
  EXPECT_NE(cores->message.find(fmt::format("{} > 48 vector cores", kHuge)), std::string::npos) << cores->message;
}

// deadlock_check.py's graph_2 example: stream315 records to stream313 and
// stream310 and only later waits for stream313, so aiv_all_gather (48 AIVEC,
// stream310) and MoeDistributeDispatchV2 (16 AIVEC, stream313) can be ready
// at once: 64 > 48.
TEST(Hazards, DeadlockCheckGraph2Example) {
  TaskGraph g;
  auto push = [&](DeviceTask t) {
    t.id = static_cast<uint32_t>(g.tasks.size());
    if (std::find(g.streams.begin(), g.streams.end(), t.stream) == g.streams.end()) g.streams.push_back(t.stream);
    g.tasks.push_back(std::move(t));
    return g.tasks.back().id;
  };
  auto sync = [&](TaskKind kind, std::string stream, std::string event, std::vector<uint32_t> deps) {
    DeviceTask t;
    t.kind = kind;
    t.node = (kind == TaskKind::kEventRecord ? "EVENT_RECORD_" : "EVENT_WAIT_") + event;
    t.stream = std::move(stream);
    t.event = std::move(event);
    t.deps = std::move(deps);
    return push(std::move(t));
  };
  uint32_t r_a = sync(TaskKind::kEventRecord, "stream315", "7", {});
  uint32_t r_b = sync(TaskKind::kEventRecord, "stream315", "8", {});
  sync(TaskKind::kEventWait, "stream313", "7", {r_a});
  uint32_t dispatch =
      push(Comm("MoeDistributeDispatchV2_e3e2549baf4795bf56c350e970d2218a_1060", "stream313", "KERNEL_MIX_AIV", 16, 1));
  uint32_t r_c = sync(TaskKind::kEventRecord, "stream313", "22", {});
  sync(TaskKind::kEventWait, "stream310", "8", {r_b});
  uint32_t gather = push(Comm("aiv_all_gather_bfloat16_t", "stream310", "KERNEL_AIVEC", 48, 1));
  uint32_t r_d = sync(TaskKind::kEventRecord, "stream310", "23", {});
  sync(TaskKind::kEventWait, "stream315", "22", {r_c});
  sync(TaskKind::kEventWait, "stream315", "23", {r_d});
  std::vector<Hazard> h = FindHazards(g, {"stream315", 48, "ascend-910b"});
  ASSERT_EQ(Kinds(h), std::vector<std::string>{"core over-subscription"});
  EXPECT_EQ(h[0].first, dispatch);
  EXPECT_EQ(h[0].second, gather);
  EXPECT_NE(h[0].message.find("64 > 48 vector cores of ascend-910b"), std::string::npos) << h[0].message;
  // Ordered (stream310 waits for stream313's record): no finding.
  g.tasks[5].event = "22";
  g.tasks[5].deps = {r_c};
  EXPECT_TRUE(Kinds(FindHazards(g, {"stream315", 48, "ascend-910b"})).empty());
}

// BuildTaskGraph's part: what a lowered graph's tasks read and write, and
// the core limits replace_core_limit_nodes' calls set.
TEST(Hazards, LoweredTasksCarryBuffersAndCoreLimits) {
  auto graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[4, 4]\"):\n"
      "        current_stream = torch.npu.current_stream()\n"
      "        get_stream_limit = torch.npu.get_stream_limit(current_stream)\n"
      "        getitem = get_stream_limit['cube_core_num']\n"
      "        getitem_1 = get_stream_limit['vector_core_num']\n"
      "        set_stream_limit = torch.npu.set_stream_limit(current_stream, 8, 16)\n"
      "        t: \"f32[4, 4]\" = torch.ops.aten.t.default(arg0_1)\n"
      "        mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(t, 2)\n"
      "        set_stream_limit_1 = torch.npu.set_stream_limit(current_stream, getitem, getitem_1)\n"
      "        add_: \"f32[4, 4]\" = torch.ops.aten.add_.Tensor(arg0_1, mul)\n"
      "        return (add_,)\n",
      "g.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  Result<TaskGraph> tasks = BuildTaskGraph(**graph, OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->tasks.size(), 2u);  // the stream-limit calls are host calls, t is a view
  const DeviceTask& mul = tasks->tasks[0];
  const DeviceTask& add = tasks->tasks[1];
  EXPECT_EQ(tasks->buffers, (std::vector<std::string>{"arg0_1", "mul"}));
  EXPECT_EQ(mul.reads, std::vector<uint32_t>{0});  // through the view t
  EXPECT_EQ(mul.writes, std::vector<uint32_t>{1});
  EXPECT_EQ(add.reads, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(add.writes, std::vector<uint32_t>{0});  // in place: its first argument
  EXPECT_EQ(mul.aicore_limit, 8);
  EXPECT_EQ(mul.vectorcore_limit, 16);
  EXPECT_EQ(add.aicore_limit, -1);  // restored to what get_stream_limit read: none set
  EXPECT_EQ(add.vectorcore_limit, -1);
}

}  // namespace
}  // namespace airscope
