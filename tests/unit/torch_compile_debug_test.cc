// The TORCH_COMPILE_DEBUG tree reader (formats/torch_compile_debug.h): which
// directory is which layout, how each file of a tree is classified and named,
// and what a damaged or partial tree reports, file by file.
#include "formats/torch_compile_debug.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fifo_test_util.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

// print_readable's form, as TorchAir's dump_fx_safety writes it.
constexpr std::string_view kReadable =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, arg0_1: \"f32[2]\"):\n"
    "        add: \"f32[2]\" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None\n"
    "        return (add,)\n";

class DebugTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("airscope_tcd_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& rel, std::string_view text) {
    fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  DebugTree Read(const std::string& rel = "") {
    Result<DebugTree> tree = ReadDebugTree((root_ / rel).string(), 1 << 20);
    EXPECT_TRUE(tree.ok()) << tree.status().message();
    return tree.ok() ? std::move(tree).value() : DebugTree{};
  }
  static std::vector<std::string> Names(const DebugTree& tree) {
    std::vector<std::string> names;
    for (const DebugTreeGraph& g : tree.graphs) names.push_back(g.name);
    return names;
  }
  static bool HasProblem(const DebugTree& tree, std::string_view path_end, std::string_view text) {
    for (const DebugTreeProblem& p : tree.problems) {
      if (p.path.ends_with(path_end) && p.message.find(text) != std::string::npos) return true;
    }
    return false;
  }
  fs::path root_;
};

TEST_F(DebugTreeTest, LayoutsAreToldByWhatTheDirectoryHolds) {
  Write("tcd/run_2025_01_01_00_00_00_000000-pid_7/torchair/model__0/dynamo_out_graph.txt", kReadable);
  Write("dumps/dynamo_original_graph_1_rank_0_pid_7_ts_20250101000000000000.py", kReadable);
  Write("plain/x.txt", "x");
  EXPECT_EQ(DebugTreeLayout((root_ / "tcd").string()), "torch_compile_debug");
  EXPECT_EQ(DebugTreeLayout((root_ / "tcd/run_2025_01_01_00_00_00_000000-pid_7").string()), "run");
  EXPECT_EQ(DebugTreeLayout((root_ / "tcd/run_2025_01_01_00_00_00_000000-pid_7/torchair").string()), "torchair");
  EXPECT_EQ(DebugTreeLayout((root_ / "tcd/run_2025_01_01_00_00_00_000000-pid_7/torchair/model__0").string()), "model");
  EXPECT_EQ(DebugTreeLayout((root_ / "dumps").string()), "graph_dump");
  EXPECT_EQ(DebugTreeLayout((root_ / "plain").string()), "");
  Result<DebugTree> none = ReadDebugTree((root_ / "plain").string(), 1 << 20);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("not a TORCH_COMPILE_DEBUG tree"), std::string::npos);
}

TEST_F(DebugTreeTest, TorchAirsFilesAreNamedByModelPhaseAndStage) {
  // graph_transform_observer.py: NNN_aot_<phase>_<name>.txt, 000 = "graph", then graph_after_<pass>.
  std::string m = "run_x-pid_7/torchair/model__0/";
  Write(m + "dynamo_out_graph.txt", kReadable);
  Write(m + "forward/000_aot_forward_graph.txt", kReadable);
  Write(m + "forward/001_aot_forward_graph_after_optimize_noop_ops.txt", kReadable);
  Write(m + "forward/002_aot_forward_graph_after_view_to_reshape.txt", kReadable);
  Write(m + "forward/output_code.py", "def main(): pass\n");
  Write(m + "backward/000_aot_backward_graph.txt", kReadable);
  Write(m + "graph_1_id_281_rank_0_pid_7_ts_20250101000000000001.json", "{\"nodes\": []}");
  Write("run_x-pid_7/torchair/debug.log", "[INFO] TORCHAIR(7,python):2025-01-01 00:00:00.000.000 [a.py:1]7 x\n");
  Write("run_x-pid_7/torchdynamo/debug.log", "V0101 00:00:00.000000 7 a.py:1] [0/0] x\n");
  DebugTree tree = Read("run_x-pid_7");
  EXPECT_EQ(tree.layout, "run");
  // The Dynamo graph first, then forward before backward (whatever the directory order).
  EXPECT_EQ(Names(tree), (std::vector<std::string>{
                             "model__0:dynamo", "model__0:forward:graph", "model__0:forward:after_optimize_noop_ops",
                             "model__0:forward:after_view_to_reshape", "model__0:backward:graph"}));
  ASSERT_EQ(tree.runs.size(), 1u);
  EXPECT_EQ(tree.runs[0].pid, 7);
  EXPECT_EQ(tree.runs[0].torchair, "torchair");
  EXPECT_EQ(tree.runs[0].models, std::vector<std::string>{"model__0"});
  ASSERT_EQ(tree.captures.size(), 1u);
  EXPECT_EQ(tree.captures[0].fx_graph, "graph_1");
  EXPECT_EQ(tree.captures[0].aclgraph_id, "281");
  EXPECT_EQ(tree.captures[0].rank, 0);
  EXPECT_EQ(tree.captures[0].pid, 7);
  EXPECT_TRUE(tree.captures[0].json_ok);
  ASSERT_EQ(tree.files.size(), 1u);
  EXPECT_NE(tree.files[0].what.find("TorchAir output code of model__0/forward"), std::string::npos);
  ASSERT_EQ(tree.logs.size(), 2u);
  EXPECT_EQ(tree.logs[0].kind, DebugTreeLog::Kind::kTorchAir);
  EXPECT_EQ(tree.logs[1].kind, DebugTreeLog::Kind::kTorchDynamo);
  EXPECT_TRUE(tree.problems.empty()) << tree.problems[0].message;
  EXPECT_EQ(DebugStageKind("graph_after_view_to_reshape"), "after_view_to_reshape");
  EXPECT_EQ(DebugStageKind("graph"), "graph");
  EXPECT_EQ(DebugStagePass("graph_after_view_to_reshape"), "view_to_reshape");
  EXPECT_EQ(DebugStagePass("original_ge_graph"), "");
}

TEST_F(DebugTreeTest, ADamagedTreeReadsWhatItCanAndNamesEachFile) {
  std::string f = "torchair/model__3/forward/";
  Write(f + "000_aot_forward_graph.txt", kReadable);
  Write(f + "003_aot_forward_graph_after_view_to_reshape.txt", kReadable);       // 001, 002 lost
  Write(f + "003_aot_forward_graph_after_remove_cat_ops.txt", kReadable);        // a second 003
  Write(f + "004_aot_forward_graph_after_apply_event_record.txt", "");           // empty
  Write(f + "005_aot_backward_graph_after_eliminate_dead_code.txt", kReadable);  // wrong phase
  Write(f + "notes.txt", "mine");
  Write("torchair/model__3/graph_2_id_1_rank_0_pid_9_ts_20250101000000000000.json", "{\"cut");
  Write("torchair/model__4/backward/001_aot_backward_graph_after_view_to_reshape.txt", kReadable);  // no 000
  DebugTree tree = Read("torchair");
  EXPECT_EQ(tree.layout, "torchair");
  EXPECT_TRUE(HasProblem(tree, "model__3/forward", "no stage dumps 001 to 002")) << tree.problems.size();
  EXPECT_TRUE(HasProblem(tree, "003_aot_forward_graph_after_view_to_reshape.txt", "a second stage dump numbered 003"));
  EXPECT_TRUE(HasProblem(tree, "004_aot_forward_graph_after_apply_event_record.txt", "empty file"));
  EXPECT_TRUE(HasProblem(tree, "005_aot_backward_graph_after_eliminate_dead_code.txt", "another phase"));
  EXPECT_TRUE(HasProblem(tree, ".json", "not valid JSON"));
  EXPECT_TRUE(HasProblem(tree, "model__4/backward", "no 000_aot_backward_graph.txt"));
  ASSERT_EQ(tree.unknown.size(), 1u);
  EXPECT_TRUE(tree.unknown[0].ends_with("notes.txt"));
  ASSERT_EQ(tree.captures.size(), 1u);
  EXPECT_FALSE(tree.captures[0].json_ok);
  // Both 003s are kept, the second under a numbered name.
  std::vector<std::string> names = Names(tree);
  EXPECT_NE(std::find(names.begin(), names.end(), "model__3:forward:after_remove_cat_ops"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "model__4:backward:after_view_to_reshape"), names.end());
}

TEST_F(DebugTreeTest, GraphDumpFilesAreReadableCodeInReduceOverheadAndGeGraphsOtherwise) {
  // debug_config.py full_path: <name>_rank_<r>_pid_<pid>[_ts_<ts>].<type>.
  Write("d/dynamo_original_graph_1_rank_0_pid_5_ts_20250101000000000000.py", kReadable);
  Write("d/dynamo_optimized_graph_1_rank_0_pid_5_ts_20250101000000000001.py", kReadable);
  Write("d/dynamo_optimized_graph_2_rank_0_pid_5.py",
        "# -*- coding: utf-8 -*-\nfrom torch import tensor\nfrom torchair._ge_concrete_graph import ge_apis as ge\n");
  Write("d/dynamo_optimized_graph_3_rank_0_pid_5.txt", "name: \"graph_3\"\n");
  Write("d/dynamo_optimized_graph_4_rank_0_pid_5.pbtxt", "node {\n  name: \"x\"\n  op: \"Data\"\n}\n");
  DebugTree tree = Read("d");
  EXPECT_EQ(tree.layout, "graph_dump");
  EXPECT_EQ(Names(tree), (std::vector<std::string>{"graph_1:dynamo_original", "graph_1:dynamo_optimized",
                                                   "graph_4:dynamo_optimized"}));
  EXPECT_TRUE(tree.graphs[2].pbtxt);
  ASSERT_EQ(tree.files.size(), 2u);
  EXPECT_NE(tree.files[0].what.find("GE builder code"), std::string::npos);
  EXPECT_NE(tree.files[1].what.find("as GE text"), std::string::npos);
}

TEST_F(DebugTreeTest, SeveralRunsGetRankOrRunPrefixesAndTheTraceLogOfTheirPid) {
  Write("a/run_1-pid_10-rank_0/torchair/model__0/forward/000_aot_forward_graph.txt", kReadable);
  Write("a/run_2-pid_11-rank_1/torchair/model__0/forward/000_aot_forward_graph.txt", kReadable);
  // tlparse/: the log whose first record carries pid 11 belongs to rank 1's run.
  Write("a/tlparse/dedicated_log_torch_trace_x.log", "V0101 00:00:00.000000 11 a.py:1] {\"str\": [\"a\", 0]}\n");
  Write("a/tlparse/readme.txt", "not a log\n");
  DebugTree tree = Read("a");
  EXPECT_EQ(Names(tree), (std::vector<std::string>{"rank0:model__0:forward:graph", "rank1:model__0:forward:graph"}));
  ASSERT_EQ(tree.logs.size(), 1u);
  EXPECT_EQ(tree.logs[0].kind, DebugTreeLog::Kind::kTrace);
  EXPECT_EQ(tree.logs[0].pid, 11);
  EXPECT_EQ(tree.logs[0].prefix, "rank1:");
  // Runs without ranks are numbered.
  Write("b/run_1-pid_20/torchair/model__0/forward/000_aot_forward_graph.txt", kReadable);
  Write("b/run_2-pid_21/torchair/model__0/forward/000_aot_forward_graph.txt", kReadable);
  EXPECT_EQ(Names(Read("b")), (std::vector<std::string>{"run0:model__0:forward:graph", "run1:model__0:forward:graph"}));
  // One run loaded alone finds its trace log beside it, by its pid.
  DebugTree one = Read("a/run_2-pid_11-rank_1");
  ASSERT_EQ(one.logs.size(), 1u);
  EXPECT_EQ(one.logs[0].prefix, "");
  EXPECT_TRUE(Read("a/run_1-pid_10-rank_0").logs.empty());
}

// A tree's reader opens only regular files (issue 29 item 2): a FIFO
// (debug.log, a tlparse log, a stage file, a capture dump) blocked `load`
// for ever or took the top-level FIFO wait each, ten of them 50 s, and a
// device was read up to the size limit. Each is a problem naming it, found
// without opening it: no reader ever has one of the ten FIFOs open.
TEST_F(DebugTreeTest, FifosAndDevicesInATreeAreNamedNotOpened) {
  std::string run = "t/run_1-pid_7/";
  std::string m = run + "torchair/model__0/";
  Write(m + "forward/000_aot_forward_graph.txt", kReadable);
  std::vector<std::string> fifos = {
      run + "torchair/debug.log",
      run + "torchdynamo/debug.log",
      m + "dynamo_out_graph.txt",
      m + "forward/001_aot_forward_graph_after_optimize_noop_ops.txt",
      m + "graph_1_id_1_rank_0_pid_7_ts_20250101000000000000.json",
      run + "torchinductor/model__0_inference_0.0/fx_graph_readable.py",
      "t/dynamo_original_graph_1_rank_0_pid_7.py",
      "t/tlparse/dedicated_log_torch_trace_a.log",
      "t/tlparse/dedicated_log_torch_trace_b.log",
      "t/tlparse/dedicated_log_torch_trace_c.log",
  };
  std::vector<std::string> paths;
  for (const std::string& rel : fifos) {
    fs::create_directories((root_ / rel).parent_path());
    ASSERT_EQ(::mkfifo((root_ / rel).c_str(), 0600), 0) << rel;
    paths.push_back((root_ / rel).string());
  }
  std::string device = m + "forward/002_aot_forward_graph_after_view_to_reshape.txt";
  ASSERT_EQ(::symlink("/dev/zero", (root_ / device).c_str()), 0);
  testing_fifo::FifoUnblocker unblock(paths, 1000);  // ends the old code's blocked opens
  DebugTree tree = Read("t");
  EXPECT_EQ(Names(tree), (std::vector<std::string>{"model__0:forward:graph"}));
  for (const std::string& rel : fifos) {
    EXPECT_TRUE(HasProblem(tree, rel, "a FIFO, not a regular file: not read")) << rel;
  }
  EXPECT_TRUE(HasProblem(tree, device, "a character device, not a regular file: not read"));
  EXPECT_TRUE(tree.logs.empty());
  EXPECT_TRUE(tree.captures.empty());
  EXPECT_EQ(unblock.opened(), 0);
}

TEST_F(DebugTreeTest, InductorsFoldersGiveTheirReadableGraphsAndListTheRest) {
  // torch/_inductor/debug.py: torchinductor/<aot graph name>.<n>/fx_graph_readable.py, ...
  std::string d = "run_1-pid_3/torchinductor/model__0_inference_0.0/";
  Write(d + "fx_graph_readable.py", kReadable);
  Write(d + "fx_graph_transformed.py", kReadable);
  Write(d + "fx_graph_runnable.py", "import torch\n");
  Write(d + "output_code.py", "# kernel\n");
  Write(d + "ir_post_fusion.txt", "buf0\n");
  Write("run_1-pid_3/torchinductor/aot_model___0_debug.log", "x\n");
  DebugTree tree = Read("run_1-pid_3");
  EXPECT_EQ(Names(tree), (std::vector<std::string>{"inductor:model__0_inference_0.0:fx_graph_readable",
                                                   "inductor:model__0_inference_0.0:fx_graph_transformed"}));
  EXPECT_EQ(tree.files.size(), 4u);
}

}  // namespace
}  // namespace airscope
