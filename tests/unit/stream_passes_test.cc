// The stream passes on the seed multi-stream graph (TorchAir's custom-pass
// example), stage by stage, and the TaskGraph built from the lowered graph.
#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/lower/task_graph.h"
#include "core/pass/pass_manager.h"
#include "core/pass/stream_util.h"
#include "pass_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;
using testing_util::LoadSeedGraph;
using testing_util::SeedRewritePass;

struct Pipeline {
  PassRegistry registry = PassRegistry::WithBuiltins();
  PassContext context;
  PassManager manager;
  std::unique_ptr<Graph> graph = LoadSeedGraph();

  Pipeline() {
    EXPECT_TRUE(registry.Register(SeedRewritePass()).ok());
    context.registry = &OpRegistry::Builtin();
    context.passes = &registry;
    context.custom_pre = {"multistream"};
  }
  Result<PassOutcome> Run(const std::string& name) {
    const PassInfo* pass = registry.Find(name);
    EXPECT_NE(pass, nullptr) << name;
    return manager.Run(*pass, *graph, context);
  }
  void RunOk(const std::string& name, bool expect_changed) {
    Result<PassOutcome> outcome = Run(name);
    ASSERT_TRUE(outcome.ok()) << outcome.status().message();
    EXPECT_EQ(outcome->changed, expect_changed) << name;
  }
  void RunThrough(const std::string& last) {
    for (const char* name : {"custom_pre", "validate_scopes", "remove_cat_ops", "event_closure", "event_record",
                             "resolve_stream_markers", "lower"}) {
      ASSERT_TRUE(Run(name).ok()) << name;
      if (name == last) return;
    }
  }
};

const std::vector<std::string> kAfterCustomPre = {
    "arg0_1 = placeholder()",
    "scope_enter = air.scope_enter.default(['_user_stream_label'], ['stream_1'])",
    "mm = aten.mm.default(arg0_1, arg0_1)",
    "abs_1 = aten.abs.default(mm)",
    "record = air.record.default()",
    "scope_exit = air.scope_exit.default()",
    "add = aten.add.Tensor(abs_1, 1)",
    "wait = air.wait.default([record])",
    "sub = aten.sub.Tensor(arg0_1, mm)",
    "output = output((add, sub))",
};

TEST(StreamPassesTest, CustomPreRunsTheAirscriptSeedPass) {
  Pipeline p;
  p.RunOk("custom_pre", true);
  EXPECT_EQ(Describe(*p.graph), kAfterCustomPre);
  // New nodes get meta from the registry (stream control: opaque).
  EXPECT_NE(p.graph->Find("record")->meta(), nullptr);
}

TEST(StreamPassesTest, CustomStagesNameAMissingPass) {
  Pipeline p;
  p.context.custom_post = {"multistream", "nosuch"};
  Result<PassOutcome> outcome = p.Run("custom_post");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(), "pass 'custom_post' failed: no pass named 'nosuch' (registered for custom_post)");
  EXPECT_EQ(p.graph->size(), 6u);  // rolled back: multistream's edits are gone too
  p.context.custom_post.clear();
  p.RunOk("custom_post", false);
}

TEST(StreamPassesTest, ValidateScopesAcceptsTheSeedAndNeverChanges) {
  Pipeline p;
  p.RunOk("custom_pre", true);
  p.RunOk("validate_scopes", false);
}

PassInfo Rules(const std::string& name, std::vector<std::string> lines) {
  Result<PassInfo> info = DefineRewritePass(name, lines, 1, "test");
  EXPECT_TRUE(info.ok()) << info.status().message();
  return info.ok() ? std::move(*info) : PassInfo{};
}

TEST(StreamPassesTest, ValidateScopesNamesUnpairedMarkers) {
  Pipeline p;
  ASSERT_TRUE(p.registry.Register(Rules("unpaired", {
      "on aten.add.Tensor: insert after air.scope_exit.default()",
      "on aten.sub.Tensor: insert before air.scope_enter.default(['_user_stream_label'], ['stream_1'])",
  })).ok());
  p.context.custom_pre = {"unpaired"};
  p.RunOk("custom_pre", true);
  Result<PassOutcome> outcome = p.Run("validate_scopes");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "pass 'validate_scopes' failed: air.scope_exit 'scope_exit' has no matching scope_enter; "
            "air.scope_enter 'scope_enter' (stream stream_1) is never closed");
  // Both later stream passes refuse the same graph too.
  EXPECT_FALSE(p.Run("resolve_stream_markers").ok());
  EXPECT_FALSE(p.Run("lower").ok());
}

const std::vector<std::string> kAfterEventClosure = {
    "tagged_event_record = air.tagged_event_record.default('seed_multistream_arg0_1', True)",
    "arg0_1 = placeholder()",
    "scope_enter = air.scope_enter.default(['_user_stream_label'], ['stream_1'], need_execute=True)",
    "tagged_event_wait = air.tagged_event_wait.default('seed_multistream_arg0_1', True)",
    "mm = aten.mm.default(arg0_1, arg0_1)",
    "abs_1 = aten.abs.default(mm)",
    "record = air.record.default()",
    "tagged_event_record_1 = air.tagged_event_record.default('seed_multistream_scope_exit', True)",
    "scope_exit = air.scope_exit.default(need_execute=True)",
    "add = aten.add.Tensor(abs_1, 1)",
    "wait = air.wait.default([record])",
    "sub = aten.sub.Tensor(arg0_1, mm)",
    "tagged_event_wait_1 = air.tagged_event_wait.default('seed_multistream_scope_exit', True)",
    "output = output((add, sub))",
};

TEST(StreamPassesTest, EventClosureForksAndJoinsTheUserStream) {
  Pipeline p;
  p.RunThrough("remove_cat_ops");
  p.RunOk("event_closure", true);
  EXPECT_EQ(Describe(*p.graph), kAfterEventClosure);
  // Idempotent: a second run finds the events in place.
  p.RunOk("event_closure", false);
  EXPECT_EQ(Describe(*p.graph), kAfterEventClosure);
}

TEST(StreamPassesTest, EventClosureWithoutUserStreamsOnlyMarksScopes) {
  Pipeline p;
  p.RunOk("event_closure", false);  // no scopes at all
  EXPECT_EQ(p.graph->size(), 6u);
}

TEST(StreamPassesTest, EventRecordLeavesRecordsAndRecordsWaitedTensors) {
  Pipeline p;
  p.RunThrough("event_closure");
  p.RunOk("event_record", false);  // the seed's wait already waits on a record
  EXPECT_EQ(Describe(*p.graph), kAfterEventClosure);

  Pipeline q;
  ASSERT_TRUE(q.registry.Register(Rules("wait_tensor", {
      "on aten.add.Tensor: insert before air.wait.default([$arg0])",  // waits for abs_1
      "on aten.sub.Tensor: insert before air.wait.default([$arg1, $arg0])",  // mm, and the placeholder
      "on aten.sub.Tensor: insert after air.wait.default([$arg1])",  // mm again: reuses the record
  })).ok());
  q.context.custom_pre = {"wait_tensor"};
  q.RunOk("custom_pre", true);
  q.RunOk("event_record", true);
  EXPECT_EQ(Describe(*q.graph), (std::vector<std::string>{
      "arg0_1 = placeholder()",
      "record_2 = air.record.default()",
      "mm = aten.mm.default(arg0_1, arg0_1)",
      "record_1 = air.record.default()",
      "abs_1 = aten.abs.default(mm)",
      "record = air.record.default()",
      "wait = air.wait.default([record])",
      "add = aten.add.Tensor(abs_1, 1)",
      "wait_1 = air.wait.default([record_1, record_2])",
      "sub = aten.sub.Tensor(arg0_1, mm)",
      "wait_2 = air.wait.default([record_1])",
      "output = output((add, sub))",
  }));
  q.RunOk("event_record", false);
}

const std::vector<std::string> kStreams = {
    "tagged_event_record=", "arg0_1=", "scope_enter=", "tagged_event_wait=stream_1", "mm=stream_1",
    "abs_1=stream_1", "record=stream_1", "tagged_event_record_1=stream_1", "scope_exit=", "add=", "wait=", "sub=",
    "tagged_event_wait_1=", "output=",
};

std::vector<std::string> Streams(const Graph& graph) {
  std::vector<std::string> out;
  for (const Node* n : graph) out.push_back(n->name() + "=" + n->stream());
  return out;
}

TEST(StreamPassesTest, ResolveStreamMarkersPutsMmAndAbsOnStream1) {
  Pipeline p;
  p.RunThrough("event_record");
  p.RunOk("resolve_stream_markers", true);
  EXPECT_EQ(Streams(*p.graph), kStreams);
  p.RunOk("resolve_stream_markers", false);
  p.RunOk("lower", false);  // streams already assigned
  EXPECT_EQ(Streams(*p.graph), kStreams);
}

TEST(StreamPassesTest, LowerAssignsStreamsWhenResolveWasSkipped) {
  Pipeline p;
  p.RunThrough("event_record");
  Result<PassOutcome> outcome = p.Run("lower");
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_TRUE(outcome->changed);
  EXPECT_EQ(Streams(*p.graph), kStreams);
  EXPECT_EQ(outcome->remarks, std::vector<std::string>{"10 device tasks on 2 stream(s)"});
}

TEST(StreamPassesTest, NestedScopesInnermostWins) {
  Pipeline p;
  ASSERT_TRUE(p.registry.Register(Rules("nested", {
      "on aten.mm.default: insert before air.scope_enter.default(['_user_stream_label'], ['outer'])",
      "on aten.abs.default: insert before air.scope_enter.default(['_user_stream_label'], ['inner'])",
      "on aten.abs.default: insert after air.scope_exit.default()",
      "on aten.add.Tensor: insert before air.scope_enter.default(['other_label'], ['ignored'])",
      "on aten.add.Tensor: insert after air.scope_exit.default()",
      "on aten.add.Tensor: insert after air.scope_exit.default()",  // closes outer after add's scope
  })).ok());
  p.context.custom_pre = {"nested"};
  p.RunOk("custom_pre", true);
  p.RunOk("validate_scopes", false);
  p.RunOk("resolve_stream_markers", true);
  EXPECT_EQ(Streams(*p.graph), (std::vector<std::string>{
      "arg0_1=", "scope_enter=", "mm=outer", "scope_enter_1=outer", "abs_1=inner", "scope_exit=outer",
      "scope_enter_2=outer", "add=outer", "scope_exit_2=outer", "scope_exit_1=", "sub=", "output="}));
}

TEST(StreamPassesTest, BuildTaskGraphFromTheLoweredSeed) {
  Pipeline p;
  p.RunThrough("lower");
  Result<TaskGraph> tasks = BuildTaskGraph(*p.graph, OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  EXPECT_EQ(tasks->streams, (std::vector<std::string>{"", "stream_1"}));
  std::vector<std::string> got;
  for (const DeviceTask& t : tasks->tasks) {
    got.push_back(fmt::format("{} {} {} @{} event={} deps=[{}]{}", t.id, TaskKindName(t.kind), t.node, t.stream,
                              t.event, fmt::join(t.deps, ","), t.cost_known ? " costed" : ""));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
      "0 event_record tagged_event_record @ event=seed_multistream_arg0_1 deps=[]",
      "1 event_wait tagged_event_wait @stream_1 event=seed_multistream_arg0_1 deps=[0]",
      "2 kernel mm @stream_1 event= deps=[] costed",
      "3 kernel abs_1 @stream_1 event= deps=[2] costed",
      "4 event_record record @stream_1 event=record deps=[]",
      "5 event_record tagged_event_record_1 @stream_1 event=seed_multistream_scope_exit deps=[]",
      "6 kernel add @ event= deps=[3] costed",
      "7 event_wait wait @ event=record deps=[4]",
      "8 kernel sub @ event= deps=[2] costed",
      "9 event_wait tagged_event_wait_1 @ event=seed_multistream_scope_exit deps=[5]",
  }));
  EXPECT_EQ(tasks->tasks[2].cost.flops, 2.0 * 3 * 3 * 3);
}

TEST(StreamPassesTest, BuildTaskGraphKindsAndDataEdgesThroughViews) {
  Graph g("g");
  Node* x = g.Append({OpKind::kPlaceholder, "x", {}, {}, "x"});
  Node* t = g.Append({OpKind::kCallFunction, "torch.ops.aten.t.default", {Argument::NodeRef(x)}, {}, ""});
  Node* copy = g.Append({OpKind::kCallFunction, "torch.ops.aten._to_copy.default", {Argument::NodeRef(t)}, {}, ""});
  Node* item = g.Append({OpKind::kCallFunction, "torch.ops.aten.item.default", {Argument::NodeRef(copy)}, {}, ""});
  g.Append({OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(item)})}, {}, "output"});
  Result<TaskGraph> tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->tasks.size(), 2u);  // the view t does no device work
  EXPECT_EQ(tasks->tasks[0].kind, TaskKind::kMemcpy);
  EXPECT_EQ(tasks->tasks[1].kind, TaskKind::kHostSync);
  EXPECT_EQ(tasks->tasks[1].deps, std::vector<uint32_t>{0});
  EXPECT_EQ(TaskKindName(TaskKind::kHostSync), "host_sync");
}

TEST(StreamPassesTest, BuildTaskGraphRefusesWaitsWithoutRecords) {
  Graph g("g");
  Node* x = g.Append({OpKind::kPlaceholder, "x", {}, {}, "x"});
  g.Append({OpKind::kCallFunction, "torch.ops.air.tagged_event_wait.default",
            {Argument::String("tag"), Argument::Bool(true)}, {}, ""});
  Node* wait = g.Append({OpKind::kCallFunction, "torch.ops.air.wait.default",
                         {Argument::List({Argument::NodeRef(x)})}, {}, ""});
  g.Append({OpKind::kOutput, "output", {Argument::Tuple({})}, {}, "output"});
  Result<TaskGraph> tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_FALSE(tasks.ok());
  EXPECT_EQ(tasks.status().message(),
            "wait 'tagged_event_wait' waits for event 'tag', which no record before it records");
  ASSERT_TRUE(g.Erase(g.Find("tagged_event_wait")).ok());
  tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_FALSE(tasks.ok());
  EXPECT_EQ(tasks.status().message(), "wait 'wait' waits for 'x', which is not an air.record (run event_record first)");
  (void)wait;
}

TEST(StreamPassesTest, FailingOrLintBreakingUserPassIsRolledBackAndNamed) {
  Pipeline p;
  std::vector<std::string> before = Describe(*p.graph);
  ASSERT_TRUE(p.registry.Register(Rules("unbound", {"on aten.mm.default: insert after air.wait.default([$nothing])"}))
                  .ok());
  p.context.custom_pre = {"multistream", "unbound"};
  Result<PassOutcome> outcome = p.Run("custom_pre");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "pass 'custom_pre' failed: pass 'unbound' failed: rule at line 1 (on aten.mm.default: insert after "
            "air.wait.default([$nothing])) on node 'mm': $nothing is not bound (no earlier 'as nothing' has run)");
  EXPECT_EQ(Describe(*p.graph), before);

  // Uses a node before it is defined: lint catches it, the user pass is named.
  ASSERT_TRUE(p.registry.Register(Rules("breaker", {
      "on aten.sub.Tensor: insert after aten.neg.default($node) as late",
      "on aten.mm.default: insert before aten.neg.default($late)",
  })).ok());
  p.context.custom_pre = {"breaker"};
  outcome = p.Run("custom_pre");
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("pass 'custom_pre' failed: pass 'breaker' broke the graph: lint:"),
            std::string::npos)
      << outcome.status().message();
  EXPECT_EQ(Describe(*p.graph), before);
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(BuildTaskGraphTest, TasksCarryTheirDtypeAndBlockingCopies) {
  auto graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"bf16[8, 8][8, 1]npu:0\"):\n"
      "        relu: \"bf16[8, 8][8, 1]npu:0\" = torch.ops.aten.relu.default(x)\n"
      "        a: \"bf16[8, 8][8, 1]cpu\" = torch.ops.aten._to_copy.default(relu, device = device(type='cpu'))\n"
      "        b: \"bf16[8, 8][8, 1]cpu\" = torch.ops.aten._to_copy.default(relu, device = device(type='cpu'), "
      "non_blocking = True)\n"
      "        return (a, b)\n",
      "copies.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  Result<TaskGraph> tasks = BuildTaskGraph(**graph, OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->tasks.size(), 3u);
  EXPECT_EQ(tasks->tasks[0].dtype, DType::kBFloat16);
  EXPECT_EQ(tasks->tasks[1].kind, TaskKind::kMemcpy);
  EXPECT_TRUE(tasks->tasks[1].blocking);
  EXPECT_FALSE(tasks->tasks[2].blocking);
}

}  // namespace
}  // namespace airscope
