// The stream passes on the seed multi-stream graph (TorchAir's custom-pass
// example), stage by stage, and the TaskGraph built from the lowered graph.
#include <gtest/gtest.h>

#include "core/analysis/stream_util.h"
#include "core/fx/readable.h"
#include "core/lower/task_graph.h"
#include "core/pass/pass_manager.h"
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
    for (const char* name : {"custom_pre", "_valid_graph", "remove_cat_ops", "apply_event_closure_with_multi_stream",
                             "apply_event_record", "resolve_default_stream_markers", "lower"}) {
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
  EXPECT_EQ(
      outcome.status().message(),
      "pass 'post_grad_custom_post_pass' failed: no pass named 'nosuch' (registered for post_grad_custom_post_pass)");
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

TEST(StreamPassesTest, ValidGraphRaisesTorchAirsErrorForAnExitWithoutEnter) {
  Pipeline p;
  ASSERT_TRUE(
      p.registry
          .Register(Rules(
              "unpaired",
              {
                  "on aten.add.Tensor: insert after air.scope_exit.default()",
                  "on aten.sub.Tensor: insert before air.scope_enter.default(['_user_stream_label'], ['stream_1'])",
              }))
          .ok());
  p.context.custom_pre = {"unpaired"};
  p.RunOk("custom_pre", true);
  Result<PassOutcome> outcome = p.Run("_valid_graph");
  ASSERT_FALSE(outcome.ok());
  // nfc:427-431, the first problem in graph order.
  EXPECT_EQ(outcome.status().message(),
            "pass '_valid_graph' failed: RuntimeError: When you call the torch.ops.air.scope_exit operator: "
            "scope_exit, you must first call the torch.ops.air.scope_enter operator, as they must be called in "
            "pairs. Please check your code or your post_grad_custom_pre_pass post_grad_custom_post_pass!This error "
            "may also occur in a Dynamo graph break scenario.");
  EXPECT_FALSE(p.Run("lower").ok());  // codegen needs paired scopes too
}

const std::vector<std::string> kAfterEventClosure = {
    "tagged_event_record_default = air.tagged_event_record.default('graph_1_arg0_1', True)",
    "arg0_1 = placeholder()",
    "scope_enter = air.scope_enter.default(['_user_stream_label'], ['stream_1'], need_execute=True)",
    "tagged_event_wait_default = air.tagged_event_wait.default('graph_1_arg0_1', True)",
    "mm = aten.mm.default(arg0_1, arg0_1)",
    "abs_1 = aten.abs.default(mm)",
    "record = air.record.default()",
    "tagged_event_record_default_1 = air.tagged_event_record.default('graph_1_scope_exit', True)",
    "scope_exit = air.scope_exit.default(need_execute=True)",
    "add = aten.add.Tensor(abs_1, 1)",
    "wait = air.wait.default([record])",
    "sub = aten.sub.Tensor(arg0_1, mm)",
    "tagged_event_wait_default_1 = air.tagged_event_wait.default('graph_1_scope_exit', True)",
    "output = output((add, sub))",
};

TEST(StreamPassesTest, EventClosureForksAndJoinsTheUserStream) {
  Pipeline p;
  p.RunThrough("remove_cat_ops");
  p.RunOk("event_closure", true);
  EXPECT_EQ(Describe(*p.graph), kAfterEventClosure);
  // Tags use AclConcreteGraph's name of the FX graph (gp:656-657).
  p.context.fx_graph_name = "graph_7";
  // Like TorchAir, a second run inserts the events again (4 more nodes).
  p.RunOk("event_closure", true);
  EXPECT_EQ(p.graph->size(), kAfterEventClosure.size() + 4);
  EXPECT_EQ(
      Describe(*p.graph)[0],
      "tagged_event_record_default_2 = air.tagged_event_record.default('graph_7_tagged_event_record_default', True)");
}

TEST(StreamPassesTest, EventClosureWithoutUserStreamsOnlyMarksScopes) {
  Pipeline p;
  p.RunOk("event_closure", false);  // no scopes at all
  EXPECT_EQ(p.graph->size(), 6u);
  ASSERT_TRUE(p.registry
                  .Register(Rules("limit",
                                  {
                                      "on aten.mm.default: insert before air.scope_enter.default(['_op_aicore_num', "
                                      "'_op_vectorcore_num'], ['2', '4'])",
                                      "on aten.mm.default: insert after air.scope_exit.default()",
                                  }))
                  .ok());
  p.context.custom_pre = {"limit"};
  p.RunOk("custom_pre", true);
  p.RunOk("event_closure", true);  // need_execute=True on every scope, no events
  EXPECT_EQ(Describe(*p.graph), (std::vector<std::string>{
                                    "arg0_1 = placeholder()",
                                    "scope_enter = air.scope_enter.default(['_op_aicore_num', '_op_vectorcore_num'], "
                                    "['2', '4'], need_execute=True)",
                                    "mm = aten.mm.default(arg0_1, arg0_1)",
                                    "scope_exit = air.scope_exit.default(need_execute=True)",
                                    "abs_1 = aten.abs.default(mm)",
                                    "add = aten.add.Tensor(abs_1, 1)",
                                    "sub = aten.sub.Tensor(arg0_1, mm)",
                                    "output = output((add, sub))",
                                }));
}

TEST(StreamPassesTest, EventClosureInterpretsStreamIdsAsTorchAirDoes) {
  // _extract_user_stream_info int()s the id values: a marker left in a
  // scope_enter by replace_stream_event_pass is Python's ValueError.
  Pipeline p;
  ASSERT_TRUE(p.registry
                  .Register(Rules("marker",
                                  {
                                      "on aten.mm.default: insert before "
                                      "air.scope_enter.default(['_user_stream_label', '_user_stream_priority', "
                                      "'_user_stream_id'], ['graph_0_stream', '0', 'DEFAULT_STREAM_ID_MARKER'])",
                                      "on aten.mm.default: insert after air.scope_exit.default()",
                                  }))
                  .ok());
  p.context.custom_pre = {"marker"};
  p.RunOk("custom_pre", true);
  Result<PassOutcome> outcome = p.Run("event_closure");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "pass 'apply_event_closure_with_multi_stream' failed: ValueError: invalid literal for int() with base "
            "10: 'DEFAULT_STREAM_ID_MARKER' (air.scope_enter 'scope_enter', key _user_stream_id)");
}

TEST(StreamPassesTest, EventRecordLeavesRecordsAndRecordsWaitedTensors) {
  Pipeline p;
  p.RunThrough("apply_event_closure_with_multi_stream");
  p.RunOk("event_record", false);  // the seed's wait already waits on a record
  EXPECT_EQ(Describe(*p.graph), kAfterEventClosure);

  Pipeline q;
  ASSERT_TRUE(
      q.registry
          .Register(Rules(
              "wait_tensor",
              {
                  "on aten.add.Tensor: insert before air.wait.default([$arg0])",         // waits for abs_1
                  "on aten.sub.Tensor: insert before air.wait.default([$arg1, $arg0])",  // mm, and the placeholder
                  "on aten.sub.Tensor: insert after air.wait.default([$arg1])",          // mm again: reuses the record
              }))
          .ok());
  q.context.custom_pre = {"wait_tensor"};
  q.RunOk("custom_pre", true);
  q.RunOk("event_record", true);
  EXPECT_EQ(Describe(*q.graph), (std::vector<std::string>{
                                    "arg0_1 = placeholder()",
                                    "record_default_2 = air.record.default()",
                                    "mm = aten.mm.default(arg0_1, arg0_1)",
                                    "record_default_1 = air.record.default()",
                                    "abs_1 = aten.abs.default(mm)",
                                    "record_default = air.record.default()",
                                    "wait = air.wait.default([record_default])",
                                    "add = aten.add.Tensor(abs_1, 1)",
                                    "wait_1 = air.wait.default([record_default_1, record_default_2])",
                                    "sub = aten.sub.Tensor(arg0_1, mm)",
                                    "wait_2 = air.wait.default([record_default_1])",
                                    "output = output((add, sub))",
                                }));
  q.RunOk("event_record", false);
}

std::vector<std::string> Streams(const Graph& graph) {
  std::vector<std::string> out;
  for (const Node* n : graph) out.push_back(n->name() + "=" + n->stream());
  return out;
}

TEST(StreamPassesTest, StreamLabelsAreTorchAirsAddStreamLabelToNodeMeta) {
  Pipeline p;
  p.RunThrough("apply_event_record");
  EXPECT_TRUE(AddStreamLabelToNodeMeta(*p.graph));
  // gu:18-55: the scope_enter and the scope_exit both carry the scope's label.
  EXPECT_EQ(Streams(*p.graph),
            (std::vector<std::string>{
                "tagged_event_record_default=", "arg0_1=", "scope_enter=stream_1", "tagged_event_wait_default=stream_1",
                "mm=stream_1", "abs_1=stream_1", "record=stream_1", "tagged_event_record_default_1=stream_1",
                "scope_exit=stream_1", "add=", "wait=", "sub=", "tagged_event_wait_default_1=", "output="}));
  EXPECT_FALSE(AddStreamLabelToNodeMeta(*p.graph));
}

const std::vector<std::string> kLoweredStreams = {
    "tagged_event_record_default=",
    "arg0_1=",
    "scope_enter=",
    "tagged_event_wait_default=stream_1",
    "mm=stream_1",
    "abs_1=stream_1",
    "record=stream_1",
    "tagged_event_record_default_1=stream_1",
    "scope_exit=stream_1",
    "add=",
    "wait=",
    "sub=",
    "tagged_event_wait_default_1=",
    "output=",
};

TEST(StreamPassesTest, LowerPutsNodesOnTheStreamsOfTorchAirsCodegen) {
  Pipeline p;
  p.RunThrough("resolve_default_stream_markers");
  AddStreamLabelToNodeMeta(*p.graph);  // labels put scope_enter on stream_1; codegen runs it before `with`
  Result<PassOutcome> outcome = p.Run("lower");
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_TRUE(outcome->changed);
  EXPECT_EQ(Streams(*p.graph), kLoweredStreams);
  EXPECT_EQ(outcome->remarks, std::vector<std::string>{"10 device tasks on 2 stream(s)"});
  p.RunOk("lower", false);
}

TEST(StreamPassesTest, NestedScopesInnermostWins) {
  Pipeline p;
  ASSERT_TRUE(
      p.registry
          .Register(
              Rules("nested",
                    {
                        "on aten.mm.default: insert before air.scope_enter.default(['_user_stream_label'], ['outer'])",
                        "on aten.abs.default: insert before air.scope_enter.default(['_user_stream_label'], ['inner'])",
                        "on aten.abs.default: insert after air.scope_exit.default()",
                        "on aten.add.Tensor: insert before air.scope_enter.default(['other_label'], ['ignored'])",
                        "on aten.add.Tensor: insert after air.scope_exit.default()",
                        "on aten.add.Tensor: insert after air.scope_exit.default()",  // closes outer after add's scope
                    }))
          .ok());
  p.context.custom_pre = {"nested"};
  p.RunOk("custom_pre", true);
  p.RunOk("_valid_graph", false);
  p.RunOk("lower", true);
  EXPECT_EQ(Streams(*p.graph),
            (std::vector<std::string>{"arg0_1=", "scope_enter=", "mm=outer", "scope_enter_1=outer", "abs_1=inner",
                                      "scope_exit=inner", "scope_enter_2=outer", "add=outer", "scope_exit_2=outer",
                                      "scope_exit_1=outer", "sub=", "output="}));
  EXPECT_TRUE(AddStreamLabelToNodeMeta(*p.graph));
  EXPECT_EQ(Streams(*p.graph),
            (std::vector<std::string>{"arg0_1=", "scope_enter=outer", "mm=outer", "scope_enter_1=inner", "abs_1=inner",
                                      "scope_exit=inner", "scope_enter_2=outer", "add=outer", "scope_exit_2=outer",
                                      "scope_exit_1=outer", "sub=", "output="}));
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
                     "0 event_record tagged_event_record_default @ event=graph_1_arg0_1 deps=[]",
                     "1 event_wait tagged_event_wait_default @stream_1 event=graph_1_arg0_1 deps=[0]",
                     "2 kernel mm @stream_1 event= deps=[] costed",
                     "3 kernel abs_1 @stream_1 event= deps=[2] costed",
                     "4 event_record record @stream_1 event=record deps=[]",
                     "5 event_record tagged_event_record_default_1 @stream_1 event=graph_1_scope_exit deps=[]",
                     "6 kernel add @ event= deps=[3] costed",
                     "7 event_wait wait @ event=record deps=[4]",
                     "8 kernel sub @ event= deps=[2] costed",
                     "9 event_wait tagged_event_wait_default_1 @ event=graph_1_scope_exit deps=[5]",
                 }));
  EXPECT_EQ(tasks->tasks[2].cost.flops, 2.0 * 3 * 3 * 3);
  // What lower asks for: the same counts, no tasks kept.
  Result<TaskCounts> counts = CountTasks(*p.graph, OpRegistry::Builtin());
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->tasks, tasks->tasks.size());
  EXPECT_EQ(counts->streams, tasks->streams.size());
  EXPECT_EQ(counts->unrecorded_waits, 0u);
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
  g.Append({OpKind::kCallFunction,
            "torch.ops.air.tagged_event_wait.default",
            {Argument::String("tag"), Argument::Bool(true)},
            {},
            ""});
  Node* wait =
      g.Append({OpKind::kCallFunction, "torch.ops.air.wait.default", {Argument::List({Argument::NodeRef(x)})}, {}, ""});
  g.Append({OpKind::kOutput, "output", {Argument::Tuple({})}, {}, "output"});
  Result<TaskGraph> tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_FALSE(tasks.ok());
  EXPECT_EQ(tasks.status().message(),
            "wait 'tagged_event_wait' waits for event 'tag', which no record before it records");
  // Counting allows it and counts it, and fails where building fails otherwise.
  Result<TaskCounts> counts = CountTasks(g, OpRegistry::Builtin());
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.status().message(),
            "wait 'wait' waits for 'x', which is not an air.record (run event_record first)");
  g.SetArgs(wait, {Argument::List({})});
  counts = CountTasks(g, OpRegistry::Builtin());
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->tasks, 1u);
  EXPECT_EQ(counts->unrecorded_waits, 1u);
  TaskGraphOptions allow;
  allow.allow_unrecorded_waits = true;
  tasks = BuildTaskGraph(g, OpRegistry::Builtin(), allow);
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->tasks.size(), 1u);
  EXPECT_TRUE(tasks->tasks[0].deps.empty());
  ASSERT_TRUE(g.Erase(g.Find("tagged_event_wait")).ok());
  g.SetArgs(wait, {Argument::List({Argument::NodeRef(x)})});
  tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_FALSE(tasks.ok());
  EXPECT_EQ(tasks.status().message(), "wait 'wait' waits for 'x', which is not an air.record (run event_record first)");
}

TEST(StreamPassesTest, FailingOrLintBreakingUserPassIsRolledBackAndNamed) {
  Pipeline p;
  std::vector<std::string> before = Describe(*p.graph);
  ASSERT_TRUE(
      p.registry.Register(Rules("unbound", {"on aten.mm.default: insert after air.wait.default([$nothing])"})).ok());
  p.context.custom_pre = {"multistream", "unbound"};
  Result<PassOutcome> outcome = p.Run("custom_pre");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "pass 'post_grad_custom_pre_pass' failed: pass 'unbound' failed: rule at line 1 (on aten.mm.default: "
            "insert after "
            "air.wait.default([$nothing])) on node 'mm': $nothing is not bound (no earlier 'as nothing' has run)");
  EXPECT_EQ(Describe(*p.graph), before);

  // Uses a node before it is defined: lint catches it, the user pass is named.
  ASSERT_TRUE(p.registry
                  .Register(Rules("breaker",
                                  {
                                      "on aten.sub.Tensor: insert after aten.neg.default($node) as late",
                                      "on aten.mm.default: insert before aten.neg.default($late)",
                                  }))
                  .ok());
  p.context.custom_pre = {"breaker"};
  outcome = p.Run("custom_pre");
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(
      outcome.status().message().find("pass 'post_grad_custom_pre_pass' failed: pass 'breaker' broke the graph: lint:"),
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
