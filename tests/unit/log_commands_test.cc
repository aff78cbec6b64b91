// The shell's log commands (repl/commands_logs.cc, repl/commands_trace.cc):
// load of TORCH_LOGS text and of a directory of per-rank TORCH_TRACE logs,
// compiles / guards / recompiles on them, and the errors they give.
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/trace_record_test_util.h"

#include "shell_test_util.h"
#include "formats/md5.h"

namespace airscope {
namespace {

using testing_shell::TestShell;

class LogCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("airscope_logs_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, std::string_view text) {
    std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

using testing_trace::Record;

TEST_F(LogCommandsTest, RanksWhoseGuardsDifferAreShownWithTheFirstDifferingLine) {
  auto rank_log = [](int rank, std::string_view size) {
    std::string guards = fmt::format(
        "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- ID_MATCH: ___check_obj_id(L['self'], {})\n"
        "| +- TENSOR_MATCH: check_tensor(L['x'], Tensor, torch.float32, size=[{}], stride=[1])",
        140000000000 + rank, size);
    return Record(R"("dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0)") +
           Record(
               fmt::format(R"("dynamo_cpp_guards_str": {{}}, "rank": {}, "frame_id": 0, "frame_compile_id": 0)", rank),
               guards);
  };
  Write("run/dedicated_log_torch_trace_rank_0.log", rank_log(0, "8"));
  Write("run/dedicated_log_torch_trace_rank_1_abc123.log", rank_log(1, "8"));
  Write("run/dedicated_log_torch_trace_rank_2.log", rank_log(2, "16"));
  Write("run/unrelated.txt", "x");
  TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + (dir_ / "run").string()).ok()) << shell.sink.text;
  // Object ids (rank 1's ___check_obj_id differs from rank 0's) are no divergence; rank 2's size is.
  EXPECT_NE(shell.sink.text.find("guards of 0/0: rank 2 differs from rank 0 at guard line 4:"), std::string::npos)
      << shell.sink.text;
  EXPECT_EQ(shell.sink.text.find("rank 1 differs"), std::string::npos);
  EXPECT_NE(shell.sink.text.find("compile ids: the same 1 on every rank"), std::string::npos);
  EXPECT_NE(shell.sink.text.find("(ranks 0, 1, 2)"), std::string::npos);
}

TEST_F(LogCommandsTest, AGraphThatDoesNotParseNamesTheLogsLineAndColumnAndTheRestLoads) {
  std::string path =
      Write("bad.log",
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code] TRACED GRAPH\n"
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code]  ===== __compiled_fn_1 =====\n"
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code]  <eval_with_key>.0 class "
            "GraphModule(torch.nn.Module):\n"
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code]     def forward(self, L_x_: \"f32[3]\"):\n"
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code]         add: \"f32[3]\" = L_x_ + ;  L_x_ "
            "= None\n"
            "V0101 00:00:00.000000 1 output_graph.py:1] [0/0] [__graph_code]         return (add,)\n"
            "V0101 00:00:00.000000 1 guards.py:1] [0/0] [__guards] GUARDS:\n"
            "V0101 00:00:00.000000 1 guards.py:2] [0/0] [__guards] L['x'] == 1\n");
  TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + path).ok()) << shell.sink.text;
  // The error's line is the log's line 5; its column is past the 67-byte prefix.
  std::regex where("0/0:dynamo not loaded: " + path + ":5:(\\d+): ");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(shell.sink.text, m, where)) << shell.sink.text;
  EXPECT_GT(std::stoi(m[1].str()), 67);
  ASSERT_TRUE(shell.interpreter.RunCommandText("guards 0/0").ok());
  EXPECT_NE(shell.sink.text.find("L['x'] == 1"), std::string::npos);
}

TEST_F(LogCommandsTest, ALogWithSeveralRanksNamesItsGraphsAndIdsByRank) {
  std::string graph =
      "TRACED GRAPH\n"
      " ===== __compiled_fn_1 =====\n"
      " /x.py class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[3]\"):\n"
      "        return (L_x_,)\n";
  std::string text;
  for (int rank : {0, 1}) {
    size_t pos = 0;
    while (pos < graph.size()) {
      size_t end = graph.find('\n', pos);
      text += fmt::format("[rank{}]:V0101 00:00:00.000000 {} output_graph.py:1] [0/0] [__graph_code] {}\n", rank,
                          100 + rank, graph.substr(pos, end - pos));
      pos = end + 1;
    }
    text += fmt::format("[rank{}]:V0101 00:00:01.000000 {} guards.py:1] [0/0] [__guards] GUARDS:\n", rank, 100 + rank);
    text += fmt::format("[rank{}]:V0101 00:00:01.000001 {} guards.py:2] [0/0] [__guards] L['r'] == {}\n", rank,
                        100 + rank, rank);
  }
  std::string path = Write("ranks.log", text);
  TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + path + " as r").ok()) << shell.sink.text;
  EXPECT_NE(shell.sink.text.find("r:rank1:0/0:dynamo"), std::string::npos) << shell.sink.text;
  ASSERT_TRUE(shell.interpreter.RunCommandText("guards rank1:0/0").ok());
  EXPECT_NE(shell.sink.text.find("L['r'] == 1"), std::string::npos);
  ASSERT_TRUE(shell.interpreter.RunCommandText("expect compiles 2").ok());
  EXPECT_FALSE(shell.interpreter.RunCommandText("guards 0/0").ok());
  ASSERT_FALSE(shell.sink.errors.empty());
  EXPECT_NE(shell.sink.errors.back().find("guards for: rank0:0/0, rank1:0/0"), std::string::npos);
}

TEST_F(LogCommandsTest, LoadOptionsThatDoNotFitALogAreRefusedAndChangeNothing) {
  std::string path = Write("r.log", "[0/1] [__recompiles] Recompiling function f in a.py:1\n");
  TestShell shell;
  EXPECT_FALSE(shell.interpreter.RunCommandText("load " + path + " --shapes x=f32[2]").ok());
  EXPECT_FALSE(shell.interpreter.RunCommandText("load " + path + " as a:b").ok());
  EXPECT_TRUE(shell.session.graphs().empty());
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + path).ok());
  ASSERT_TRUE(shell.interpreter.RunCommandText("recompiles").ok());
  EXPECT_NE(shell.sink.text.find("[0/1] Recompiling function f in a.py:1"), std::string::npos);
}

}  // namespace
}  // namespace airscope
