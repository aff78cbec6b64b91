// `dump.layout torchair`: which stages TorchAir writes a file for, the names
// (graph_transform_observer.py dump_gm, npu_fx_compiler.py's
// dynamo_out_graph.txt) and the tree DumpInstrumentation writes, including a
// run resumed by a second instrumentation and a second graph (model__1).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "pipeline_test_util.h"
#include "repl/dump_instrumentation.h"
#include "repl/dump_torchair_layout.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

StageRecord Stage(size_t number, std::string pass, StageStatus status = StageStatus::kRan) {
  StageRecord stage;
  stage.number = number;
  stage.pass = std::move(pass);
  stage.status = status;
  return stage;
}

TEST(DumpLayoutTest, WhichStagesTorchAirDumps) {
  TorchAirDumpGate gate;
  EXPECT_EQ(TorchAirDumpName(Stage(2, "aot"), gate), "graph");
  EXPECT_EQ(TorchAirDumpName(Stage(6, "view_to_reshape"), gate), "graph_after_view_to_reshape");
  EXPECT_EQ(TorchAirDumpName(Stage(19, "resolve_default_stream_markers"), gate),
            "graph_after_resolve_default_stream_markers");
  // No observer dump: before aot, the validity check, airscope's lowering, unknown stages.
  for (const char* pass : {"replace_stream_event_pass", "_valid_graph", "lower", "my_plugin_pass"}) {
    EXPECT_EQ(TorchAirDumpName(Stage(1, pass), gate), std::nullopt) << pass;
  }
  // Skipped stages write nothing, like disabled passes.
  EXPECT_EQ(TorchAirDumpName(Stage(6, "view_to_reshape", StageStatus::kSkipped), gate), std::nullopt);
  // Passes TorchAir only calls when switched on (npu_fx_compiler.py _optimize_fx, fx2acl_converter.py).
  EXPECT_EQ(TorchAirDumpName(Stage(3, "post_grad_custom_pre_pass"), gate), std::nullopt);
  gate.custom_pre = true;
  EXPECT_EQ(TorchAirDumpName(Stage(3, "post_grad_custom_pre_pass"), gate), "graph_after_post_grad_custom_pre_pass");
  EXPECT_TRUE(TorchAirDumpName(Stage(10, "remove_cat_ops"), gate).has_value());
  gate.config.remove_cat_ops = false;
  EXPECT_EQ(TorchAirDumpName(Stage(10, "remove_cat_ops"), gate), std::nullopt);
  gate.config.remove_noop_ops = false;
  EXPECT_EQ(TorchAirDumpName(Stage(4, "optimize_noop_ops"), gate), std::nullopt);
  gate.config.pattern_fusion_pass = false;
  EXPECT_EQ(TorchAirDumpName(Stage(6, "apply_pattern_passes"), gate), std::nullopt);
  gate.config.disable_reinplace_input_mutated_ops_pass = true;
  EXPECT_EQ(TorchAirDumpName(Stage(15, "reinplace_input_mutated_ops"), gate), std::nullopt);
  EXPECT_EQ(TorchAirDumpName(Stage(16, "decompose_auto_functionalized"), gate), std::nullopt);
  EXPECT_TRUE(TorchAirDumpName(Stage(14, "reinplace_inplaceable_ops_pass"), gate).has_value());
  gate.config.disable_reinplace_inplaceable_ops_pass = true;
  EXPECT_EQ(TorchAirDumpName(Stage(14, "reinplace_inplaceable_ops_pass"), gate), std::nullopt);
}

TEST(DumpLayoutTest, Names) {
  EXPECT_EQ(TorchAirModelDirName(0), "model__0");
  EXPECT_EQ(TorchAirPhaseFileName(0, "graph"), "000_aot_forward_graph.txt");
  EXPECT_EQ(TorchAirPhaseFileName(12, "graph_after_eliminate_dead_code"),
            "012_aot_forward_graph_after_eliminate_dead_code.txt");
}

std::vector<std::string> Tree(const fs::path& root) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), root).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(DumpLayoutTest, WritesTheTorchCompileDebugTree) {
  fs::path dir = fs::temp_directory_path() / fmt::format("airscope_dump_layout_{}", ::getpid());
  fs::remove_all(dir);
  DumpInstrumentation::Config config;
  config.dir = dir.string();
  config.layout = DumpInstrumentation::Layout::kTorchAir;  // dump.formats is not needed
  auto graph = testing_passes::SmallGraph();
  {
    DumpInstrumentation dumps(config);
    ASSERT_TRUE(dumps.enabled());
    dumps.OnStage(Stage(0, "input", StageStatus::kInput), *graph);
    dumps.OnStage(Stage(1, "replace_stream_event_pass"), *graph);
    dumps.OnStage(Stage(2, "aot"), *graph);
    dumps.OnStage(Stage(3, "optimize_noop_ops"), *graph);
    dumps.OnStage(Stage(4, "apply_pattern_passes", StageStatus::kSkipped), *graph);
    EXPECT_TRUE(dumps.errors().empty());
    EXPECT_EQ(dumps.written().size(), 3u);
  }
  {
    DumpInstrumentation resumed(config);  // `step` in a later command: continues model__0's numbering
    resumed.OnStage(Stage(5, "view_to_reshape"), *graph);
  }
  {
    DumpInstrumentation second(config);  // a new graph from its input: model__1
    second.OnStage(Stage(0, "input", StageStatus::kInput), *graph);
    second.OnStage(Stage(1, "aot"), *graph);
  }
  EXPECT_EQ(Tree(dir), (std::vector<std::string>{
                           "torchair/model__0/dynamo_out_graph.txt",
                           "torchair/model__0/forward/000_aot_forward_graph.txt",
                           "torchair/model__0/forward/001_aot_forward_graph_after_optimize_noop_ops.txt",
                           "torchair/model__0/forward/002_aot_forward_graph_after_view_to_reshape.txt",
                           "torchair/model__1/dynamo_out_graph.txt",
                           "torchair/model__1/forward/000_aot_forward_graph.txt",
                       }));
  // Content: gm.print_readable(False).
  EXPECT_EQ(*ReadFile((dir / "torchair/model__0/forward/000_aot_forward_graph.txt").string()), PrintReadable(*graph));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace airscope
