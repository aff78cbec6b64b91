// TorchAir's stream/event passes on small graphs written as Dynamo or AOT
// print them: _valid_graph, replace_stream_event_pass,
// resolve_default_stream_markers, replace_core_limit_nodes and
// replace_dynamic_workspace_ops. Expected graphs follow TorchAir's source
// (each test names the lines) and, where one exists, TorchAir's own test.
#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/pass/pass_manager.h"
#include "pass_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;

struct PassHarness {
  PassRegistry registry = PassRegistry::WithBuiltins();
  PassContext context;
  PassManager manager;
  std::unique_ptr<Graph> graph;

  explicit PassHarness(std::string_view code) {
    context.registry = &OpRegistry::Builtin();
    context.passes = &registry;
    Result<std::unique_ptr<Graph>> parsed = ParseReadable(code, "test.py");
    EXPECT_TRUE(parsed.ok()) << parsed.status().message();
    graph = parsed.ok() ? std::move(*parsed) : std::make_unique<Graph>();
  }
  Result<PassOutcome> Pass(const std::string& name) {
    const PassInfo* pass = registry.Find(name);
    EXPECT_NE(pass, nullptr) << name;
    return manager.Run(*pass, *graph, context);
  }
  std::string Error(const std::string& name) {
    Result<PassOutcome> outcome = Pass(name);
    EXPECT_FALSE(outcome.ok());
    return outcome.ok() ? "" : outcome.status().message();
  }
  PassOutcome Ok(const std::string& name) {
    Result<PassOutcome> outcome = Pass(name);
    EXPECT_TRUE(outcome.ok()) << outcome.status().message();
    return outcome.ok() ? *outcome : PassOutcome{};
  }
};

constexpr std::string_view kCheck =
    "Please check your code or your post_grad_custom_pre_pass post_grad_custom_post_pass!This error may also occur "
    "in a Dynamo graph break scenario.";

// ---- _valid_graph (nfc:419-478)

TEST(ValidGraphTest, OpenScopeEnterListsTheArgsOfEveryOpenEnter) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        scope_enter = air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['1', '3'])
        abs_1: "f32[3, 3]" = torch.ops.aten.abs.default(arg0_1)
        return (abs_1,)
)");
  EXPECT_EQ(r.Error("_valid_graph"),
            fmt::format("pass '_valid_graph' failed: RuntimeError: After you call the torch.ops.air.scope_enter "
                        "operator, there is no paired call to the torch.ops.air.scope_exit operator. The parameters "
                        "for these torch.ops.air.scope_enter calls are:[(['_user_stream_label', "
                        "'_user_stream_priority'], ['1', '3'])]. {}",
                        kCheck));
}

TEST(ValidGraphTest, SuperKernelScopesPairByNameInAnyOrder) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        super_kernel_scope_begin = torch.ops.npu.super_kernel_scope_begin.default('a', '')
        super_kernel_scope_begin_1 = torch.ops.npu.super_kernel_scope_begin.default('b', '')
        super_kernel_scope_end = torch.ops.npu.super_kernel_scope_end.default('a', '')
        super_kernel_scope_end_1 = torch.ops.npu.super_kernel_scope_end.default('b', '')
        return (arg0_1,)
)");
  EXPECT_FALSE(r.Ok("_valid_graph").changed);
}

TEST(ValidGraphTest, SuperKernelErrorsAreTorchAirs) {
  PassHarness unmatched(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        super_kernel_scope_begin = torch.ops.npu.super_kernel_scope_begin.default('a', '')
        super_kernel_scope_end = torch.ops.npu.super_kernel_scope_end.default('b', '')
        return (arg0_1,)
)");
  EXPECT_EQ(unmatched.Error("_valid_graph"),
            "pass '_valid_graph' failed: RuntimeError: No matching torch.npu.super_kernel_scope_begin found for "
            "torch.npu.super_kernel_scope_end operator 'super_kernel_scope_end' with scope_name='b'. Available "
            "unmatched scope_names are: ['a']. Please ensure that each super_kernel_scope_end has a corresponding "
            "super_kernel_scope_begin with the same scope_name parameter.");
  PassHarness open(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        super_kernel_scope_begin = torch.ops.npu.super_kernel_scope_begin.default('a', '')
        return (arg0_1,)
)");
  EXPECT_EQ(
      open.Error("_valid_graph"),
      fmt::format("pass '_valid_graph' failed: RuntimeError: After you call the torch.npu.super_kernel_scope_begin "
                  "operator, there is no paired call to the torch.npu.super_kernel_scope_end operator. The "
                  "parameters for these torch.npu.super_kernel_scope_begin calls are:['a']. {}",
                  kCheck));
  PassHarness end_first(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        super_kernel_scope_end = torch.ops.npu.super_kernel_scope_end.default('a', '')
        return (arg0_1,)
)");
  EXPECT_EQ(end_first.Error("_valid_graph"),
            fmt::format("pass '_valid_graph' failed: RuntimeError: When you call the torch.npu.super_kernel_scope_end "
                        "operator: super_kernel_scope_end, you must first call the torch.npu.super_kernel_scope_begin, "
                        "as they must be called in pairs. {}",
                        kCheck));
}

// ---- replace_stream_event_pass (rse:26-200)

// tests/smoke/aclgraph_test.py test_stream_event_replace_with_set_stream, as Dynamo prints its graph.
constexpr std::string_view kSetStreamGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        current_stream = torch.npu.current_stream()
        stream = torch.npu.Stream()
        stream_1 = torch.npu.Stream()
        stream_2 = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 0)
        set_stream = torch.npu.set_stream(stream)
        tmp_1: "f32[3, 3]" = torch.add(tmp, 1)
        current_stream_1 = torch.npu.current_stream()
        set_stream_1 = torch.npu.set_stream(stream_1)
        tmp_2: "f32[3, 3]" = torch.add(tmp_1, 2)
        set_stream_2 = torch.npu.set_stream(stream_2)
        tmp_3: "f32[3, 3]" = torch.add(tmp_2, 3)
        set_stream_3 = torch.npu.set_stream(current_stream_1)
        r: "f32[3, 3]" = torch.add(tmp_3, 4)
        set_stream_4 = torch.npu.set_stream(current_stream)
        return (r,)
)";

TEST(ReplaceStreamEventTest, SetStreamBecomesScopesAsInTorchAirsTest) {
  PassHarness r(kSetStreamGraph);
  EXPECT_TRUE(r.Ok("replace_stream_event_pass").changed);
  std::vector<std::string> got = Describe(*r.graph);
  ASSERT_EQ(got.size(), 20u);
  // The assertions of test_stream_event_replace_with_set_stream: 13 set_stream_3
  // stays set_stream, then scope_exit_1, scope_exit; scope_exit_2 second to last.
  EXPECT_EQ(got[6],
            "set_stream = air.scope_enter(['_user_stream_label', '_user_stream_priority', '_user_stream_id', "
            "'_user_stream_device_index', '_user_stream_device_type'], ['graph_0_stream', '0', '1', '0', '20'])");
  EXPECT_EQ(got[13], "set_stream_3 = torch.npu.set_stream(current_stream_1)");
  EXPECT_EQ(got[14], "scope_exit_1 = air.scope_exit()");
  EXPECT_EQ(got[15], "scope_exit = air.scope_exit()");
  EXPECT_EQ(got[18], "scope_exit_2 = air.scope_exit()");
  EXPECT_EQ(got[17], "set_stream_4 = torch.npu.set_stream(current_stream)");
}

TEST(ReplaceStreamEventTest, GraphCounterPrefixesTheTags) {
  PassHarness r(kSetStreamGraph);
  r.context.dynamo_graph_counter = 3;
  r.Ok("replace_stream_event_pass");
  EXPECT_NE(Describe(*r.graph)[6].find("['graph_3_stream', '0', '1', '0', '20']"), std::string::npos);
}

TEST(ReplaceStreamEventTest, AStreamLeftSetIsTorchAirsRuntimeError) {
  // test_stream_event_replace_without_set_default.
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        stream = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 0)
        set_stream = torch.npu.set_stream(stream)
        r: "f32[3, 3]" = torch.add(tmp, 1)
        return (r,)
)");
  EXPECT_EQ(r.Error("replace_stream_event_pass"),
            "pass 'replace_stream_event_pass' failed: RuntimeError: When use npugraph_ex, you must make sure at the "
            "end of your code set stream to the same stream as the begin of your code.\n"
            "E.g: at the begin of your code, call 'enter_stream = torch.npu.current_stream()', and at the end of "
            "your code, call 'torch.npu.set_stream(enter_stream)'. \n"
            "A more recommended way is to use 'with torch.npu.stream()' instead of 'torch.npu.set_stream()'");
  EXPECT_EQ(r.graph->size(), 6u);  // rolled back
}

TEST(ReplaceStreamEventTest, SettingAStreamFromNowhereIsTorchAirsRuntimeError) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, L_s_):
        l_s_ = L_s_
        set_stream = torch.npu.set_stream(l_s_)
        return ()
)");
  EXPECT_EQ(r.Error("replace_stream_event_pass"),
            "pass 'replace_stream_event_pass' failed: RuntimeError: Can not find stream: l_s_ in FX graph when parse "
            "torch.npu.set_stream.Please submit a issue to TorchAir");
}

TEST(ReplaceStreamEventTest, EventsAndStreamMethodsBecomeTaggedOps) {
  // test_stream_event_replace_in_fx, test_event_wait_with_stream, test_stream_wait_event,
  // test_stream_wait_stream and record_event in one graph.
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        default_stream = torch.npu.current_stream()
        stream = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 2)
        event = torch.npu.Event()
        record = event.record()
        set_stream = torch.npu.set_stream(stream)
        wait = event.wait(stream)
        r: "f32[3, 3]" = torch.relu(tmp)
        fake_record_stream = torch.npu.fake_record_stream(r, stream)
        wait_event = stream.wait_event(event)
        wait_stream = stream.wait_stream(default_stream)
        record_event = stream.record_event()
        record_event_1 = default_stream.record_event(event)
        wait_1 = event.wait(default_stream)
        set_stream_1 = torch.npu.set_stream(default_stream)
        return (r,)
)");
  r.Ok("replace_stream_event_pass");
  EXPECT_EQ(Describe(*r.graph),
            (std::vector<std::string>{
                "l_t_ = placeholder()",
                "default_stream = torch.npu.current_stream()",
                "stream = torch.npu.Stream()",
                "tmp = torch.add(l_t_, 2)",
                "event = torch.npu.Event()",
                "record = air.tagged_event_record('graph_0_event', True)",
                "set_stream = air.scope_enter(['_user_stream_label', '_user_stream_priority', '_user_stream_id', "
                "'_user_stream_device_index', '_user_stream_device_type'], ['graph_0_stream', '0', '1', '0', '20'])",
                "wait = air.tagged_event_wait_on_stream('graph_0_event', '1', '0', '20', True)",
                "r = torch.relu(tmp)",
                "fake_record_stream = air.record_tagged_stream_(r, 'stream')",
                "wait_event = air.tagged_event_wait_on_stream('graph_0_event', '1', '0', '20', True)",
                "wait_stream = air.tagged_stream_wait_stream('1', '0', '20', 'DEFAULT_STREAM_ID_MARKER', "
                "'DEFAULT_DEVICE_INDEX_MARKER', 'DEFAULT_DEVICE_TYPE_MARKER')",
                "record_event = air.tagged_event_record_on_stream('graph_0_record_event', '1', '0', '20', True)",
                "record_event_1 = air.tagged_event_record_on_stream('graph_0_event', 'DEFAULT_STREAM_ID_MARKER', "
                "'DEFAULT_DEVICE_INDEX_MARKER', 'DEFAULT_DEVICE_TYPE_MARKER', True)",
                "wait_1 = air.tagged_event_wait_on_stream('graph_0_event', 'DEFAULT_STREAM_ID_MARKER', "
                "'DEFAULT_DEVICE_INDEX_MARKER', 'DEFAULT_DEVICE_TYPE_MARKER', True)",
                "set_stream_1 = torch.npu.set_stream(default_stream)",
                "scope_exit = air.scope_exit()",
                "output = output((r,))",
            }));
}

// ---- resolve_default_stream_markers (gp:1358-1447)

TEST(ResolveDefaultStreamMarkersTest, OnlyTopLevelMarkersOfTheListedOpsBecomeCurrentStreamReads) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        scope_enter = air.scope_enter.default(['_user_stream_label', '_user_stream_id'], ['s', 'DEFAULT_STREAM_ID_MARKER'])
        wait = air.tagged_event_wait_on_stream.default('graph_0_e', 'DEFAULT_STREAM_ID_MARKER', 'DEFAULT_DEVICE_INDEX_MARKER', 'DEFAULT_DEVICE_TYPE_MARKER', True)
        other = air.tagged_event_record.default('DEFAULT_STREAM_ID_MARKER', True)
        scope_exit = air.scope_exit.default()
        return (arg0_1,)
)");
  EXPECT_TRUE(r.Ok("resolve_default_stream_markers").changed);
  EXPECT_EQ(Describe(*r.graph),
            (std::vector<std::string>{
                "current_stream = torch.npu.current_stream()",
                "getattr_1 = getattr(current_stream, 'stream_id')",
                "str_1 = str(getattr_1)",
                "getattr_2 = getattr(current_stream, 'device_index')",
                "str_2 = str(getattr_2)",
                "getattr_3 = getattr(current_stream, 'device_type')",
                "str_3 = str(getattr_3)",
                "arg0_1 = placeholder()",
                // [OBS] scope_enter keeps its marker: it sits inside the values list.
                "scope_enter = air.scope_enter.default(['_user_stream_label', '_user_stream_id'], ['s', "
                "'DEFAULT_STREAM_ID_MARKER'])",
                "wait = air.tagged_event_wait_on_stream.default('graph_0_e', str_1, str_2, str_3, True)",
                "other = air.tagged_event_record.default('DEFAULT_STREAM_ID_MARKER', True)",
                "scope_exit = air.scope_exit.default()",
                "output = output((arg0_1,))",
            }));
}

TEST(ResolveDefaultStreamMarkersTest, NoMarkerNoChange) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        scope_enter = air.scope_enter.default(['_user_stream_label'], ['DEFAULT_STREAM_ID_MARKER'])
        scope_exit = air.scope_exit.default()
        return (arg0_1,)
)");
  EXPECT_FALSE(r.Ok("resolve_default_stream_markers").changed);
  EXPECT_EQ(r.graph->size(), 4u);
}

// ---- replace_core_limit_nodes (gp:709-787)

// test_limit_core_num_in_aclgraph's Model2 after AOT: a stream switch inside a core limit.
constexpr std::string_view kCoreLimitGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]", arg1_1: "f32[3, 3]"):
        add: "f32[3, 3]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        scope_enter = air.scope_enter.default(['_op_aicore_num', '_op_vectorcore_num'], ['2', '4'], need_execute = True)
        mm: "f32[3, 3]" = torch.ops.aten.mm.default(arg0_1, arg1_1)
        scope_enter_1 = air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '3', 'True'], need_execute = True)
        mm_1: "f32[3, 3]" = torch.ops.aten.mm.default(arg0_1, arg1_1)
        scope_exit = air.scope_exit.default(need_execute = True)
        scope_exit_1 = air.scope_exit.default(need_execute = True)
        return (add, mm, mm_1)
)";

TEST(ReplaceCoreLimitNodesTest, CoreLimitAndNestedStreamSwitch) {
  PassHarness r(kCoreLimitGraph);
  PassOutcome outcome = r.Ok("replace_core_limit_nodes");
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(outcome.remarks.empty());
  EXPECT_EQ(Describe(*r.graph),
            (std::vector<std::string>{
                "arg0_1 = placeholder()",
                "arg1_1 = placeholder()",
                "add = aten.add.Tensor(arg0_1, arg1_1)",
                "current_stream = torch.npu.current_stream()",
                "get_stream_limit = torch.npu.get_stream_limit(current_stream)",
                "getitem = operator.getitem(get_stream_limit, 'cube_core_num')",
                "getitem_1 = operator.getitem(get_stream_limit, 'vector_core_num')",
                "set_stream_limit = torch.npu.set_stream_limit(current_stream, 2, 4)",
                "mm = aten.mm.default(arg0_1, arg1_1)",
                "scope_enter_1 = air.scope_enter.default(['_user_stream_label', '_user_stream_priority', "
                "'_enable_inner_parallel'], ['1', '3', 'True'], need_execute=True)",
                "current_stream_1 = torch.npu.current_stream()",
                "get_stream_limit_1 = torch.npu.get_stream_limit(current_stream_1)",
                "getitem_3 = operator.getitem(get_stream_limit_1, 'cube_core_num')",
                "getitem_2 = operator.getitem(get_stream_limit_1, 'vector_core_num')",
                "set_stream_limit_1 = torch.npu.set_stream_limit(current_stream_1, 2, 4)",
                "mm_1 = aten.mm.default(arg0_1, arg1_1)",
                "scope_exit = air.scope_exit.default(need_execute=True)",
                "set_stream_limit_2 = torch.npu.set_stream_limit(current_stream_1, getitem_3, getitem_2)",
                "set_stream_limit_3 = torch.npu.set_stream_limit(current_stream, getitem, getitem_1)",
                "output = output((add, mm, mm_1))",
            }));
  // check_graph of test_limit_core_num_in_aclgraph: every get_stream_limit is
  // preceded by current_stream, followed by two getitems and set_stream_limit;
  // twice as many set_stream_limit as get_stream_limit.
  int gets = 0, sets = 0;
  for (const Node* n : *r.graph) {
    if (n->target() == "torch.npu.get_stream_limit") {
      ++gets;
      EXPECT_EQ(n->prev()->target(), "torch.npu.current_stream");
      EXPECT_EQ(n->next()->target(), n->next()->next()->target());
      EXPECT_EQ(n->next()->next()->next()->target(), "torch.npu.set_stream_limit");
    }
    if (n->target() == "torch.npu.set_stream_limit") ++sets;
  }
  EXPECT_EQ(gets, 2);
  EXPECT_EQ(sets, 2 * gets);
}

TEST(ReplaceCoreLimitNodesTest, StaticKernelWarningDependsOnCannVersion) {
  PassHarness r(kCoreLimitGraph);
  r.context.config.aclnn_static_shape_kernel = true;
  r.context.env.cann_version = "8.5.0";
  EXPECT_EQ(r.Ok("replace_core_limit_nodes").remarks,
            std::vector<std::string>{
                "UserWarning: When both static shape kernel and core limit are enabled, only core limit will take "
                "effect, static shape kernel will be disabled. CANN 9.0.0 or later supports enabling both features. "
                "(assumed CANN 8.5.0)"});
  PassHarness newer(kCoreLimitGraph);
  newer.context.config.aclnn_static_shape_kernel = true;
  newer.context.env.cann_version = "9.0.0";
  EXPECT_TRUE(newer.Ok("replace_core_limit_nodes").remarks.empty());
}

TEST(ReplaceCoreLimitNodesTest, OtherScopesAndStreamSwitchesOutsideCoreLimitsStay) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        scope_enter = air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['1', '3'])
        abs_1: "f32[3, 3]" = torch.ops.aten.abs.default(arg0_1)
        scope_exit = air.scope_exit.default()
        return (abs_1,)
)");
  EXPECT_FALSE(r.Ok("replace_core_limit_nodes").changed);
  EXPECT_EQ(r.graph->size(), 5u);
}

// ---- replace_dynamic_workspace_ops (ag:685-728)

TEST(ReplaceDynamicWorkspaceOpsTest, FusedInferAttentionScoreGetsStaticWorkspaceAndOutputs) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 8, 16, 64]", arg1_1: "f16[1, 8, 16, 64]", arg2_1: "f16[1, 8, 16, 64]"):
        npu_fused_infer_attention_score = torch.ops.npu.npu_fused_infer_attention_score.default(arg0_1, arg1_1, arg2_1, num_heads = 8, input_layout = 'BNSD', actual_seq_lengths = [16])
        getitem: "f16[1, 8, 16, 64]" = npu_fused_infer_attention_score[0]
        return (getitem,)
)");
  // The loader gives the FIA node no meta without an annotation: TorchAir skips nodes without meta['val'].
  EXPECT_FALSE(r.Ok("replace_dynamic_workspace_ops").changed);
  Node* fia = r.graph->Find("npu_fused_infer_attention_score");
  NodeMeta meta;
  meta.kind = ValueKind::kTuple;
  meta.tensors = {*TensorMeta::ParseAnnotation("f16[1, 8, 16, 64]"), *TensorMeta::ParseAnnotation("f32[1, 8, 16, 1]")};
  meta.tensors[0].device = meta.tensors[1].device = "npu:0";
  fia->set_meta(meta);
  EXPECT_TRUE(r.Ok("replace_dynamic_workspace_ops").changed);
  EXPECT_EQ(Describe(*r.graph),
            (std::vector<std::string>{
                "arg0_1 = placeholder()",
                "arg1_1 = placeholder()",
                "arg2_1 = placeholder()",
                "_npu_fused_infer_attention_score_get_max_workspace_default = "
                "npu._npu_fused_infer_attention_score_get_max_workspace.default(arg0_1, arg1_1, arg2_1, num_heads=8, "
                "input_layout='BNSD', actual_seq_lengths=[16])",
                "empty = torch.empty([1, 8, 16, 64], dtype=torch.float16, device=device(type='npu', index=0))",
                "empty_1 = torch.empty([1, 8, 16, 1], dtype=torch.float32, device=device(type='npu', index=0))",
                "npu_fused_infer_attention_score_out = npu.npu_fused_infer_attention_score.out(arg0_1, arg1_1, arg2_1, "
                "num_heads=8, input_layout='BNSD', actual_seq_lengths=[16], "
                "workspace=_npu_fused_infer_attention_score_get_max_workspace_default, out=[empty, empty_1])",
                "getitem = operator.getitem(npu_fused_infer_attention_score_out, 0)",
                "output = output((getitem,))",
            }));
}

TEST(ReplaceDynamicWorkspaceOpsTest, WrongNumberOfOutputsIsTorchAirsRuntimeError) {
  PassHarness r(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 8, 16, 64]"):
        npu_fused_infer_attention_score_v2: "f16[1, 8, 16, 64]" = torch.ops.npu.npu_fused_infer_attention_score_v2.default(arg0_1, arg0_1, arg0_1)
        return (npu_fused_infer_attention_score_v2,)
)");
  EXPECT_EQ(r.Error("replace_dynamic_workspace_ops"),
            "pass 'replace_dynamic_workspace_ops' failed: RuntimeError: The lengths of the meta output 1 and the "
            "register output keys 2 do not match.");
}

}  // namespace
}  // namespace airscope
