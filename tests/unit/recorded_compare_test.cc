// compare's engine (repl/recorded_compare.h) on recorded runs built by hand:
// the verdict of each stage, the first divergence, chained against isolated,
// user passes the session lacks, passes airscope does not model, lost and
// undumped stages; and finding recorded runs in TorchAir's log lines
// (repl/recorded_runs.h).
#include "repl/recorded_compare.h"

#include <gtest/gtest.h>

#include "repl/graph_loader.h"
#include "repl/recorded_runs.h"
#include "repl/session.h"

namespace airscope {
namespace {

// An AOT graph with an input mutation (TorchAir's st test_input_mutation_bug):
// reinplace_input_mutated_ops turns add into add_ and drops the copy_.
constexpr std::string_view kInput =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, arg0_1: \"f32[4]\"):\n"
    "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
    "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(add, 2)\n"
    "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = None\n"
    "        return (mul,)\n";
constexpr std::string_view kReinplaced =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, arg0_1: \"f32[4]\"):\n"
    "        add: \"f32[4]\" = torch.ops.aten.add_.Tensor(arg0_1, 1);  arg0_1 = None\n"
    "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(add, 2);  add = None\n"
    "        return (mul,)\n";
// What a user pass might have made of the input.
constexpr std::string_view kUserPassed =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, arg0_1: \"f32[4]\"):\n"
    "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
    "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(add, 3)\n"
    "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = None\n"
    "        return (mul,)\n";

class RecordedCompareTest : public ::testing::Test {
 protected:
  std::shared_ptr<const Graph> Parse(std::string_view text) {
    Result<LoadedGraph> loaded = LoadGraphText(text, "test.py", session_.registry());
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    return loaded.ok() ? loaded->graph : nullptr;
  }
  RecordedStage Stage(std::string pass, std::string_view text, int count = -1) {
    return RecordedStage{"g_" + pass, pass, pass.starts_with("post_grad_custom"), "file_" + pass, Parse(text), count};
  }
  RecordedRun Run(std::vector<RecordedStage> stages) {
    RecordedRun run;
    run.name = "model__0:forward";
    run.source = "test";
    run.input = RecordedStage{"input", "", false, "000", Parse(kInput), 0};
    run.stages = std::move(stages);
    return run;
  }
  CompareReport Compare(const RecordedRun& run, bool isolated = false) {
    Result<CompareReport> report = CompareRecorded(run, session_.passes(), session_.MakePassContext(), isolated);
    EXPECT_TRUE(report.ok()) << report.status().message();
    return report.ok() ? std::move(report).value() : CompareReport{};
  }
  Session session_;
};

TEST_F(RecordedCompareTest, StagesAirscopeReproducesMatchAndTheFirstThatDoesNotIsNamed) {
  RecordedRun run = Run({Stage("optimize_noop_ops", kInput), Stage("reinplace_input_mutated_ops", kReinplaced),
                         Stage("resolve_default_stream_markers", kReinplaced)});
  CompareReport report = Compare(run);
  ASSERT_EQ(report.rows.size(), 3u);
  for (const CompareRow& row : report.rows) EXPECT_EQ(row.verdict, CompareRow::Verdict::kMatch) << row.pass << row.why;
  EXPECT_TRUE(report.rows[1].changed);
  EXPECT_FALSE(report.first_divergence.has_value());
  EXPECT_EQ(report.matched, 3u);

  // A recording that kept the op out of place differs there, and (chained) after.
  run = Run({Stage("optimize_noop_ops", kInput), Stage("reinplace_input_mutated_ops", kInput),
             Stage("resolve_default_stream_markers", kInput)});
  report = Compare(run);
  ASSERT_TRUE(report.first_divergence.has_value());
  EXPECT_EQ(report.rows[*report.first_divergence].pass, "reinplace_input_mutated_ops");
  EXPECT_NE(report.rows[1].why.find("aten.add.Tensor vs torch.ops.aten.add_.Tensor"), std::string::npos)
      << report.rows[1].why;
  EXPECT_EQ(report.rows[2].verdict, CompareRow::Verdict::kDiffer);
  EXPECT_EQ(report.matched, 1u);
  EXPECT_EQ(report.differed, 2u);
  // Isolated, the stretch after the divergence starts from the recorded graph and matches.
  report = Compare(run, /*isolated=*/true);
  EXPECT_EQ(report.rows[2].verdict, CompareRow::Verdict::kMatch);
  EXPECT_EQ(report.differed, 1u);
}

TEST_F(RecordedCompareTest, AUserPassTheSessionLacksIsSteppedOverWithTheRecordedGraph) {
  RecordedRun run = Run({Stage("post_grad_custom_pre_pass", kUserPassed), Stage("view_to_reshape", kUserPassed)});
  CompareReport report = Compare(run);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].verdict, CompareRow::Verdict::kResynced);
  EXPECT_NE(report.rows[0].why.find("pass add pre"), std::string::npos);
  // Continued from the recorded graph: the next stage matches.
  EXPECT_EQ(report.rows[1].verdict, CompareRow::Verdict::kMatch) << report.rows[1].why;
  // A user pass that changed nothing matches as it is.
  report = Compare(Run({Stage("post_grad_custom_pre_pass", kInput)}));
  EXPECT_EQ(report.rows[0].verdict, CompareRow::Verdict::kMatch);
}

TEST_F(RecordedCompareTest, PassesAirscopeDoesNotModelAndOutOfOrderStagesAreListedNotCompared) {
  RecordedRun run =
      Run({Stage("view_to_reshape", kInput), Stage("optimize_sym_input", kInput), Stage("optimize_noop_ops", kInput)});
  CompareReport report = Compare(run);
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_EQ(report.rows[0].verdict, CompareRow::Verdict::kMatch);
  EXPECT_EQ(report.rows[1].verdict, CompareRow::Verdict::kNotModelled);
  EXPECT_EQ(report.rows[2].verdict, CompareRow::Verdict::kOutOfOrder);
}

TEST_F(RecordedCompareTest, ATreesMissingDumpsAreLostFilesOrPassesTorchAirDidNotCall) {
  // Every dump numbered (a TORCH_COMPILE_DEBUG phase): 000 then 003 after apply_pattern_passes
  // means 001 and 002 (optimize_noop_ops, recover_view_inplace_pattern) were lost.
  RecordedRun run = Run({Stage("apply_pattern_passes", kInput, 3)});
  run.every_pass_dumped = true;
  CompareReport report = Compare(run);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes[0].find("the tree lacks dumps 001 to 002 (after optimize_noop_ops, "
                                 "recover_view_inplace_pattern"),
            std::string::npos)
      << report.notes[0];
  // Numbered without a gap: TorchAir did not call the passes in between (a config that differs).
  run = Run({Stage("apply_pattern_passes", kInput, 1)});
  run.every_pass_dumped = true;
  report = Compare(run);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes[0].find("the recording has no dump after optimize_noop_ops"), std::string::npos)
      << report.notes[0];
  // A pass of airscope that changed the graph where the recording has no dump is a row.
  run = Run({Stage("decompose_auto_functionalized", kReinplaced, 1)});
  run.input_after = "reinplace_inplaceable_ops_pass";
  run.every_pass_dumped = true;
  report = Compare(run);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].verdict, CompareRow::Verdict::kNotRecorded);
  EXPECT_EQ(report.rows[0].pass, "reinplace_input_mutated_ops");
  EXPECT_EQ(report.rows[1].verdict, CompareRow::Verdict::kMatch);
}

TEST_F(RecordedCompareTest, TorchAirsLogPrintoutsMakeARunAndNameTheirPass) {
  bool user = false;
  EXPECT_EQ(LogKindPass("torchair_after_post_grad_custom_pre_pass", &user), "post_grad_custom_pre_pass");
  EXPECT_TRUE(user);
  EXPECT_EQ(LogKindPass("torchair_backward_after_post_grad_custom_post_pass", &user), "post_grad_custom_post_pass");
  EXPECT_EQ(LogKindPass("torchair_after_fx_graph_optimization", &user), "post_grad_custom_post_pass");
  EXPECT_FALSE(user);
  EXPECT_EQ(LogKindPass("torchair_before_post_grad_custom_post_pass", &user), "view_to_reshape");
  EXPECT_EQ(LogKindPass("torchair_after_graph_optimization", &user), "resolve_default_stream_markers");
  EXPECT_EQ(LogKindPass("torchair_after_sym_input_optimization", &user), "");

  std::string fx = "graph():\n    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n    return (arg0_1,)";
  auto line = [](std::string_view where, std::string_view text) {
    return fmt::format("[DEBUG] TORCHAIR(9,python):2025-01-01 00:00:00.000.000 [{}]9 {}\n", where, text);
  };
  std::string log =
      line("npu_fx_compiler.py:641", "compiler inputs") +
      line("npu_fx_compiler.py:643", "  input 0: FakeTensor(..., device='npu:0', size=(2, 3), dtype=torch.float16)") +
      line("npu_fx_compiler.py:644", "  graph: " + fx) +
      line("npu_fx_compiler.py:346", "after fx graph optimization, graph is " + fx) +
      line("fx2acl_converter.py:303", "after graph optimization, graph is " + fx);
  TorchLogs parsed = ParseTorchLogs(log, "t.log");
  ASSERT_EQ(parsed.graphs.size(), 3u);
  EXPECT_EQ(parsed.graphs[0].inputs,
            std::vector<std::string>{"FakeTensor(..., device='npu:0', size=(2, 3), dtype=torch.float16)"});
  EXPECT_EQ(FakeTensorAnnotation(parsed.graphs[0].inputs[0]), "f16[2, 3]");
  EXPECT_EQ(FakeTensorAnnotation("FakeTensor(..., device='npu:0', size=(64,))"), "f32[64]");
  EXPECT_EQ(FakeTensorAnnotation("s2"), "");
  LoadedGraphs loaded;
  std::vector<std::string> names;
  for (const TorchLogsGraph& g : parsed.graphs) {
    names.push_back(g.name);
    loaded[g.name] = Parse(g.text);
  }
  std::vector<RecordedRun> runs = RecordedRunsOfLog(parsed, names, loaded);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].name, "g1:torchair_graph");
  ASSERT_EQ(runs[0].stages.size(), 2u);
  EXPECT_EQ(runs[0].stages[0].after_pass, "post_grad_custom_post_pass");
  EXPECT_EQ(runs[0].stages[1].after_pass, "resolve_default_stream_markers");
  CompareReport report = Compare(runs[0]);
  EXPECT_EQ(report.matched, 2u);
}

TEST_F(RecordedCompareTest, TheFxGraphNameIsReadFromTheRecordedEventTags) {
  // apply_event_closure_with_multi_stream tags "<fx graph name>_<first node>" (graph_pass.py:612-680).
  RecordedRun run = Run({Stage("apply_event_closure_with_multi_stream",
                               "class GraphModule(torch.nn.Module):\n"
                               "    def forward(self, arg0_1: \"f32[4]\"):\n"
                               "        t = torch.ops.air.tagged_event_record.default('graph_7_arg0_1', True)\n"
                               "        return (arg0_1,)\n")});
  EXPECT_EQ(RecordedFxGraphName(run), "graph_7");
  run.stages.clear();
  EXPECT_EQ(RecordedFxGraphName(run), "");
}

}  // namespace
}  // namespace airscope
