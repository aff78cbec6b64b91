// The TORCH_LOGS text reader (formats/torch_logs.h): every layout torch and
// TorchAir print, every artifact airscope reads, damaged and mixed input,
// and the real logs of tests/data/torch_logs (sources in its README.md).
// Formats are torch's (torch/_logging/_internal.py TorchLogsFormatter,
// torch/fx/_utils.py _format_graph_code, torch/_guards.py CompileId) and
// TorchAir's (core/utils.py:100-130, acl_graph.py at fced8842).
#include "formats/torch_logs.h"

#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "core/interrupt.h"
#include "core/file_util.h"

namespace airscope {
namespace {

std::string LogsDir() { return std::string(AIRSCOPE_TEST_DATA) + "/torch_logs"; }

std::vector<std::string> Names(const TorchLogs& log) {
  std::vector<std::string> names;
  for (const TorchLogsGraph& g : log.graphs) names.push_back(g.name);
  return names;
}

TEST(TorchLogsTest, CompileIdsAreTorchsStringForms) {
  // torch/_guards.py: CompileId.__str__ and TraceId.__str__.
  TraceIdParts p;
  ASSERT_TRUE(ParseTraceId("0/0", &p));
  EXPECT_EQ(p.base, "0/0");
  EXPECT_EQ(p.attempt, 0);
  ASSERT_TRUE(ParseTraceId("12/3_1", &p));
  EXPECT_EQ(p.base, "12/3");
  EXPECT_EQ(p.attempt, 1);
  ASSERT_TRUE(ParseTraceId("!0/3/0_1", &p));
  EXPECT_EQ(p.base, "!0/3/0");
  EXPECT_EQ(p.attempt, 1);
  ASSERT_TRUE(ParseTraceId("!0", &p));
  EXPECT_EQ(p.base, "!0");
  for (std::string_view bad : {"", "0", "0/", "/0", "0/0/0", "!0/1", "0/0_", "a/b", "0/0 ", "!", "__graph_code"}) {
    EXPECT_FALSE(ParseTraceId(bad)) << bad;
  }
}

TEST(TorchLogsTest, TraceIdBaseDropsTheAttemptOrKeepsTheText) {
  EXPECT_EQ(TraceIdBase("12/3_1"), "12/3");
  EXPECT_EQ(TraceIdBase("!0/3/0_2"), "!0/3/0");
  EXPECT_EQ(TraceIdBase("0/0"), "0/0");
  EXPECT_EQ(TraceIdBase("not an id_1"), "not an id_1");  // not a compile id: as it is
}

// torch >= 2.2: every line of a message repeats the glog prefix.
constexpr std::string_view kGlogGraph =
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code] TRACED "
    "GRAPH\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]  ===== "
    "__compiled_fn_1_3281a513_5854_4241_910b_2d7c87212325 =====\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]  "
    "/opt/conda/lib/python3.12/site-packages/torch/fx/_lazy_graph_module.py class GraphModule(torch.nn.Module):\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]     def "
    "forward(self, L_x_: \"f32[8][1]cpu\"):\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]         l_x_ "
    "= L_x_\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]         sin: "
    "\"f32[8][1]cpu\" = l_x_.sin();  l_x_ = None\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]         "
    "return (sin,)\n"
    "V0121 00:37:54.049000 2422825 site-packages/torch/_dynamo/output_graph.py:1983] [0/0] [__graph_code]\n";

TEST(TorchLogsTest, GlogGraphCodeBecomesReadableCodeWithItsLogLines) {
  TorchLogs log = ParseTorchLogs(kGlogGraph, "g.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  const TorchLogsGraph& g = log.graphs[0];
  EXPECT_EQ(g.name, "0/0:dynamo");
  EXPECT_EQ(g.id, "0/0");
  EXPECT_EQ(g.artifact, "graph_code");
  EXPECT_EQ(g.title, "__compiled_fn_1_3281a513_5854_4241_910b_2d7c87212325");
  EXPECT_EQ(g.text,
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, L_x_: \"f32[8][1]cpu\"):\n"
            "        l_x_ = L_x_\n"
            "        sin: \"f32[8][1]cpu\" = l_x_.sin();  l_x_ = None\n"
            "        return (sin,)\n");
  // The class line is log line 3, at the column of `class`.
  ASSERT_EQ(g.source_lines.size(), 5u);
  EXPECT_EQ(g.source_lines[0], 3u);
  EXPECT_EQ(g.source_lines[4], 7u);
  std::string third(kGlogGraph.substr(kGlogGraph.find("\nV", kGlogGraph.find("=====")) + 1));
  EXPECT_EQ(third.substr(static_cast<size_t>(g.source_columns[0]), 6), "class ");
  EXPECT_EQ(log.layouts, std::vector<std::string>{"glog"});
  ASSERT_EQ(log.compiles.size(), 1u);
  EXPECT_EQ(log.compiles[0].lines, 8u);
  EXPECT_EQ(log.artifacts.at("graph_code"), 8u);
  EXPECT_TRUE(log.unread_artifacts.empty());
}

TEST(TorchLogsTest, CrlfAndATruncatedLastLineAreRead) {
  std::string text(kGlogGraph);
  text = std::regex_replace(text, std::regex("\n"), "\r\n");
  text += "V0121 00:37:54.05";  // cut inside the next prefix
  TorchLogs log = ParseTorchLogs(text, "crlf.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].text.find('\r'), std::string::npos);
  EXPECT_EQ(log.other_lines, 1u);
  EXPECT_TRUE(log.problems.empty());
}

TEST(TorchLogsTest, AGraphMessageSurvivesOtherOutputBetweenItsLines) {
  std::string text(kGlogGraph);
  size_t at = text.find("V0121", text.find("class GraphModule"));
  text.insert(at, "/usr/lib/python3/warnings.py:109: UserWarning: something\n  warnings.warn(msg)\n");
  TorchLogs log = ParseTorchLogs(text, "mixed.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].text, ParseTorchLogs(kGlogGraph, "g").graphs[0].text);
  EXPECT_EQ(log.other_lines, 2u);
}

TEST(TorchLogsTest, RankPrefixesAndInterleavedRanksKeepTheirMessagesApart) {
  // `[rankN]:` (TorchLogsFormatter: rankprefix), lines of two ranks interleaved.
  std::string text;
  size_t pos = 0;
  while (pos < kGlogGraph.size()) {
    size_t end = kGlogGraph.find('\n', pos);
    std::string line(kGlogGraph.substr(pos, end - pos));
    text += "[rank0]:" + line + "\n";
    std::string other = std::regex_replace(line, std::regex("f32\\[8\\]"), "f32[9]");
    text += "[rank1]:" + std::regex_replace(other, std::regex(" 2422825 "), " 2422826 ") + "\n";
    pos = end + 1;
  }
  TorchLogs log = ParseTorchLogs(text, "ranks.log");
  EXPECT_EQ(log.ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(Names(log), (std::vector<std::string>{"rank0:0/0:dynamo", "rank1:0/0:dynamo"}));
  EXPECT_NE(log.graphs[0].text.find("f32[8]"), std::string::npos);
  EXPECT_NE(log.graphs[1].text.find("f32[9]"), std::string::npos);
  ASSERT_EQ(log.compiles.size(), 2u);
  EXPECT_EQ(log.Qualified(1, "0/0"), "rank1:0/0");
}

TEST(TorchLogsTest, BracketLayoutOfTorch21RepeatsItsPrefix) {
  // [asctime] [trace id] logger: [LEVEL] (torch 2.1; TorchAir's docs python_log_print.md).
  TorchLogs log = ParseTorchLogs(
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG] TRACED GRAPH\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]  ===== __compiled_fn_0 =====\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]  <eval_with_key>.0 class "
      "GraphModule(torch.nn.Module):\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]     def forward(self, L_x_ : "
      "torch.Tensor):\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]         l_x_ = L_x_\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]         return (l_x_,)\n"
      "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]\n"
      "[2025-02-06 16:46:56,302] [0/0] torch._dynamo.output_graph.__graph_sizes: [DEBUG] TRACED GRAPH TENSOR SIZES\n"
      "[2025-02-06 16:46:56,302] [0/0] torch._dynamo.output_graph.__graph_sizes: [DEBUG] ===== __compiled_fn_0 =====\n"
      "[2025-02-06 16:46:56,302] [0/0] torch._dynamo.output_graph.__graph_sizes: [DEBUG] l_x_: (1, 1, 2, 8)\n",
      "b.log");
  EXPECT_EQ(log.layouts, std::vector<std::string>{"bracket"});
  EXPECT_EQ(Names(log), std::vector<std::string>{"0/0:dynamo"});
  EXPECT_EQ(log.graphs[0].text,
            "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_ : torch.Tensor):\n        l_x_ = L_x_\n"
            "        return (l_x_,)\n");
  ASSERT_EQ(log.graph_sizes.size(), 1u);
  EXPECT_EQ(log.graph_sizes[0].title, "__compiled_fn_0");
  EXPECT_EQ(log.graph_sizes[0].sizes, std::vector<std::string>{"l_x_: (1, 1, 2, 8)"});
}

TEST(TorchLogsTest, Torch20PrintsThePrefixOnAMessagesFirstLineOnly) {
  // pytorch PR 104672's log (tests/data/dynamo_logs/pr104672_add_matmul.log.txt), then other output.
  std::string text = ReadFile(std::string(AIRSCOPE_TEST_DATA) + "/dynamo_logs/pr104672_add_matmul.log.txt").value();
  text += "tensor([[1., 2.]])\n    indented output of the program\n";
  TorchLogs log = ParseTorchLogs(text, "pr.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].name, "g1:dynamo");  // the log prints no compile id: numbered, none invented
  EXPECT_EQ(log.graphs[0].text.find("tensor(["), std::string::npos);
  EXPECT_NE(log.graphs[0].text.find("        matmul = add @ add_1;"), std::string::npos);
  EXPECT_EQ(log.other_lines, 2u);
}

TEST(TorchLogsTest, BarePrefixesAndMessagesWithoutAnyPrefix) {
  // As issues paste them: `[0/1] [__recompiles] ...`, `W [0/8] ...`, and
  // TORCH_LOGS_FORMAT="" output with no prefix at all (pytorch issue 153646).
  TorchLogs log = ParseTorchLogs(
      "[0/1] [__recompiles] Recompiling function f in train.py:3\n"
      "[0/1] [__recompiles]     triggered by the following guard failure(s):\n"
      "[0/1] [__recompiles]     - 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 5\n"
      "W [0/8] torch._dynamo hit config.recompile_limit (8)\n"
      "W [0/8]    function: 'f' (/tmp/v4_cachelimit.py:3)\n"
      "W [0/8]    last reason: 0/7: tensor 'x' size mismatch at index 0. expected 11, actual 12\n"
      "TRACED GRAPH\n"
      " ===== __compiled_fn_2 =====\n"
      " <eval_with_key>.0 class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[3]\"):\n"
      "        l_x_ = L_x_\n"
      "        \n"
      "        add: \"f32[3]\" = l_x_ + 1;  l_x_ = None\n"
      "        return (add,)\n"
      "        \n"
      "\n"
      "some program output\n",
      "bare.log");
  EXPECT_EQ(log.layouts, std::vector<std::string>{"bare"});
  ASSERT_EQ(log.recompiles.size(), 1u);
  EXPECT_EQ(log.recompiles[0].id, "0/1");
  EXPECT_EQ(log.recompiles[0].function, "f");
  EXPECT_EQ(log.recompiles[0].location, "train.py:3");
  EXPECT_EQ(log.recompiles[0].failures,
            std::vector<std::string>{"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 5"});
  ASSERT_EQ(log.cache_limits.size(), 1u);
  EXPECT_EQ(log.cache_limits[0].id, "0/8");
  EXPECT_EQ(log.cache_limits[0].limit, "recompile_limit (8)");
  EXPECT_EQ(log.cache_limits[0].function, "'f' (/tmp/v4_cachelimit.py:3)");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].name, "g1:dynamo");
  EXPECT_EQ(log.graphs[0].text.back(), '\n');
  EXPECT_EQ(log.graphs[0].text.find("some program"), std::string::npos);
  EXPECT_EQ(log.other_lines, 1u);
}

TEST(TorchLogsTest, GraphKindsComeFromTheTitlesTorchPrints) {
  auto one = [](std::string_view artifact, std::string_view title, std::string_view cls) {
    std::string prefix = fmt::format("I0101 00:00:00.000000 1 x.py:1] [0/0_1] [__{}] ", artifact);
    std::string heading = title.front() == '=' ? std::string(title) : fmt::format("===== {} =====", title);
    std::string text = prefix + "TRACED GRAPH\n" + prefix + " " + heading + "\n" + prefix +
                       " <eval_with_key>.1 class " + std::string(cls) + "(torch.nn.Module):\n" + prefix +
                       "    def forward(self, x):\n" + prefix + "        return (x,)\n";
    TorchLogs log = ParseTorchLogs(text, "k.log");
    return log.graphs.empty() ? std::string("none") : log.graphs[0].name;
  };
  EXPECT_EQ(one("graph_code", "__compiled_fn_3", "GraphModule"), "0/0_1:dynamo");
  EXPECT_EQ(one("aot_graphs", "Forward graph 0", "GraphModule"), "0/0_1:aot_forward");
  EXPECT_EQ(one("aot_graphs", "Backward graph 0", "GraphModule"), "0/0_1:aot_backward");
  EXPECT_EQ(one("aot_joint_graph", "Joint graph 0", "joint_helper"), "0/0_1:aot_joint");
  EXPECT_EQ(one("compiled_autograd", "Compiled autograd graph", "CompiledAutograd"), "0/0_1:compiled_autograd");
  EXPECT_EQ(one("post_grad_graphs", "AFTER POST GRAD", "GraphModule"), "0/0_1:inductor_post_grad");
  EXPECT_EQ(one("graph_code", "pre insert_deferred_runtime_asserts __compiled_fn_2", "GraphModule"),
            "0/0_1:dynamo_pre_insert_deferred_runtime_asserts");
  // torch 2.0 wrote six '=' (pytorch issue 98778).
  EXPECT_EQ(one("aot_graphs", "====== Forward graph 1 ======", "GraphModule"), "0/0_1:aot_forward");
}

TEST(TorchLogsTest, CompiledAutogradIdsNameTheirGraphsAndCompiles) {
  // torch/_guards.py: "!ca/frame/compile" (a Dynamo compile inside compiled autograd) and "!ca".
  std::string text;
  for (std::string_view id : {"!0/3/0_1", "!0"}) {
    std::string prefix = fmt::format("I0101 00:00:00.000000 1 compiled_autograd.py:1] [{}] [__compiled_autograd] ", id);
    for (std::string_view line :
         {"TRACED GRAPH",
          " ===== Compiled autograd graph =====", " <eval_with_key>.14 class CompiledAutograd(torch.nn.Module):",
          "    def forward(self, inputs, sizes, scalars, hooks):", "        getitem = inputs[0]",
          "        return (getitem,)"}) {
      text += prefix;
      text += line;
      text += '\n';
    }
  }
  TorchLogs log = ParseTorchLogs(text, "ca.log");
  EXPECT_EQ(Names(log), (std::vector<std::string>{"!0/3/0_1:compiled_autograd", "!0:compiled_autograd"}));
  ASSERT_EQ(log.compiles.size(), 2u);
  EXPECT_EQ(log.compiles[0].id, "!0/3/0");
  EXPECT_EQ(log.compiles[0].attempts, 2);
  EXPECT_EQ(log.compiles[1].id, "!0");
}

TEST(TorchLogsTest, TheGraphArtifactsReprintIsLoadedOnceAndItsTableIsCounted) {
  std::string code(kGlogGraph);
  std::string repeat = std::regex_replace(code, std::regex("__graph_code"), "__graph");
  repeat = std::regex_replace(repeat, std::regex("1983\\]"), "1990]");
  std::string table =
      "V0121 00:37:54.051000 1 output_graph.py:1991] [0/0] [__graph] TRACED GRAPH\n"
      "V0121 00:37:54.051000 1 output_graph.py:1991] [0/0] [__graph]  ===== __compiled_fn_1 =====\n"
      "V0121 00:37:54.051000 1 output_graph.py:1991] [0/0] [__graph]  opcode         name    target\n";
  TorchLogs log = ParseTorchLogs(code + repeat + table, "dup.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].copies, 1u);
  EXPECT_EQ(log.tabular_graphs, 1u);
}

TEST(TorchLogsTest, AnsiColorsOfATerminalAreRemovedFromGraphs) {
  // torch/fx/_utils.py: graphs are printed colored when stdout is a terminal.
  TorchLogs log = ParseTorchLogs(
      "TRACED GRAPH\n ===== __compiled_fn_1 =====\n /x.py class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"\x1b[31mf32[3]\x1b[0m\"):\n        return (L_x_,)\n",
      "color.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].text.find('\x1b'), std::string::npos);
  EXPECT_NE(log.graphs[0].text.find("L_x_: \"f32[3]\""), std::string::npos);
}

TEST(TorchLogsTest, GuardTreesAreCountedByLeafAndFlatGuardsGatherAcrossRecords) {
  // guards.py GuardManagerWrapper.__str__ (tree), pytorch PR 123780 (flat, one record per guard).
  TorchLogs tree = ParseTorchLogs(ReadFile(LogsDir() + "/troubleshooting_guards.log").value(), "t");
  ASSERT_EQ(tree.guards.size(), 1u);
  EXPECT_TRUE(tree.guards[0].tree);
  EXPECT_EQ(tree.guards[0].count,
            5u);  // DEFAULT_DEVICE, GLOBAL_STATE, TORCH_FUNCTION_MODE_STACK, TENSOR_MATCH, NO_HASATTR
  EXPECT_NE(tree.guards[0].text.find("| | +- NO_HASATTR"), std::string::npos);
  TorchLogs flat = ParseTorchLogs(ReadFile(LogsDir() + "/pr123780_guards.log").value(), "f");
  ASSERT_EQ(flat.guards.size(), 1u);
  EXPECT_FALSE(flat.guards[0].tree);
  EXPECT_EQ(flat.guards[0].count, 5u);
  EXPECT_EQ(flat.guards[0].id, "0/0");
  EXPECT_NE(flat.FindGuards("0/0"), nullptr);
  EXPECT_EQ(flat.FindGuards("0/1"), nullptr);
  // An attempt's guards answer for the compile id.
  TorchLogs attempt = ParseTorchLogs(
      "V0101 00:00:00.000000 1 guards.py:1] [3/0_1] [__guards] GUARDS:\n"
      "V0101 00:00:00.000001 1 guards.py:2] [3/0_1] [__guards] L['x'] == 1\n",
      "a");
  ASSERT_NE(attempt.FindGuards("3/0"), nullptr);
  EXPECT_EQ(attempt.FindGuards("3/0")->count, 1u);
  EXPECT_EQ(attempt.FindGuards("3/0_1"), attempt.FindGuards("3/0"));
}

TEST(TorchLogsTest, RecompileMessagesOfEveryEra) {
  // guards.py (2024+), PR 113585 (recompiles_verbose), PR 110928 (a logged tuple, 2023).
  TorchLogs now = ParseTorchLogs(ReadFile(LogsDir() + "/pr130043_recompiles.log").value(), "n");
  ASSERT_EQ(now.recompiles.size(), 1u);
  EXPECT_EQ(now.recompiles[0].id, "0/1");
  EXPECT_EQ(now.recompiles[0].details,
            (std::vector<std::string>{"triggered by the following guard failure(s):",
                                      "- 0/0: tensor 'L['x']' size mismatch at index 0. expected 4, actual 5"}));
  ASSERT_EQ(now.compiles.size(), 1u);
  EXPECT_EQ(now.compiles[0].function, "f");
  EXPECT_EQ(now.compiles[0].location, "/data/users/ezyang/a/pytorch/b.py:3");
  TorchLogs verbose = ParseTorchLogs(ReadFile(LogsDir() + "/pr113585_recompiles_verbose.log").value(), "v");
  ASSERT_EQ(verbose.recompiles.size(), 1u);
  EXPECT_TRUE(verbose.recompiles[0].verbose);
  EXPECT_EQ(verbose.recompiles[0].failures, std::vector<std::string>{"len(L['x']) == 3"});
  TorchLogs tuple = ParseTorchLogs(ReadFile(LogsDir() + "/pr110928_recompiles_tuple.log").value(), "t");
  ASSERT_GE(tuple.recompiles.size(), 2u);  // the first behind pytest's progress dot
  EXPECT_EQ(tuple.recompiles[0].function, "fn");
  EXPECT_EQ(tuple.recompiles[0].failures, std::vector<std::string>{"L['a'] == 0, with LHS value: 1"});
  EXPECT_EQ(tuple.recompiles[1].failures,
            std::vector<std::string>{"tensor '__as_tensor(L['i'])' size mismatch at index 0. expected 1, actual 5"});
}

TEST(TorchLogsTest, GraphBreaksOfEveryEra) {
  // "Graph break in user code at F:L / Reason:" (2.5+, the troubleshooting docs),
  // "Graph break: from user code at:" with a traceback (2.4, issue 126722),
  // "Graph break: REASON from user code at: File ..." (2.1).
  TorchLogs docs = ParseTorchLogs(ReadFile(LogsDir() + "/troubleshooting_graph_breaks.log").value(), "d");
  ASSERT_EQ(docs.graph_breaks.size(), 2u);
  EXPECT_EQ(docs.graph_breaks[0].location, "/data/users/williamwen/pytorch/playground.py:6");
  EXPECT_EQ(docs.graph_breaks[0].reason, "Data-dependent jump");
  EXPECT_EQ(docs.graph_breaks[1].reason, "Unsupported: Tensor.item");
  TorchLogs glog = ParseTorchLogs(
      "V0520 14:53:14.136000 1 symbolic_convert.py:530] [1/0] [__graph_breaks] Graph break: from user code at:\n"
      "V0520 14:53:14.136000 1 symbolic_convert.py:530] [1/0] [__graph_breaks]   File \"/p/playground4.py\", line 18, "
      "in h\n"
      "V0520 14:53:14.136000 1 symbolic_convert.py:530] [1/0] [__graph_breaks]     torch._dynamo.graph_break()\n"
      "V0520 14:53:14.136000 1 symbolic_convert.py:530] [1/0] [__graph_breaks] torch._dynamo.exc.Unsupported: call "
      "torch._dynamo.graph_break()\n"
      "[2023-11-15 16:13:26,741] [2/0] torch._dynamo.symbolic_convert.__graph_breaks: [DEBUG] Graph break: "
      "inline in skipfiles: print from user code at:\n"
      "[2023-11-15 16:13:26,741] [2/0] torch._dynamo.symbolic_convert.__graph_breaks: [DEBUG]   File \"/p/a.py\", line "
      "5, in fn\n",
      "g");
  ASSERT_EQ(glog.graph_breaks.size(), 2u);
  EXPECT_EQ(glog.graph_breaks[0].id, "1/0");
  EXPECT_EQ(glog.graph_breaks[0].location, "/p/playground4.py:18");
  EXPECT_EQ(glog.graph_breaks[0].reason, "call torch._dynamo.graph_break()");
  EXPECT_EQ(glog.graph_breaks[1].reason, "inline in skipfiles: print");
  EXPECT_EQ(glog.graph_breaks[1].location, "/p/a.py:5");
}

TEST(TorchLogsTest, DynamicShapesSymbolsAndGuardsAdded) {
  // symbolic_shapes.py: create_symbol (troubleshooting docs), eval ... [guard added] (2.4+),
  // "0: evaluate_expr ... [guard added]" of 2023 (pytorch PR 98941).
  TorchLogs log = ParseTorchLogs(
      std::string(ReadFile(LogsDir() + "/troubleshooting_dynamic.log").value()) +
          "I0101 00:00:00.000000 1 symbolic_shapes.py:1] [0/1] eval Eq(s0, 3) [guard added] at x.py:3 in f\n"
          "[2023-04-12 08:25:50,154] torch.fx.experimental.symbolic_shapes: [INFO] 0: evaluate_expr s0 < 128 [guard "
          "added] at w.py:11 in forward2\n",
      "d");
  ASSERT_EQ(log.symbols.size(), 1u);
  EXPECT_EQ(log.symbols[0].symbol, "s0");
  EXPECT_EQ(log.symbols[0].value, "3");
  EXPECT_EQ(log.symbols[0].source, "L['x'].size()[0]");
  EXPECT_EQ(log.symbols[0].range, "[2, int_oo]");
  ASSERT_EQ(log.shape_guards.size(), 2u);
  EXPECT_EQ(log.shape_guards[0].id, "0/1");
  EXPECT_EQ(log.shape_guards[0].expr, "Eq(s0, 3)");
  EXPECT_EQ(log.shape_guards[1].expr, "s0 < 128");
}

TEST(TorchLogsTest, CacheLimitWarnings) {
  TorchLogs log = ParseTorchLogs(ReadFile(LogsDir() + "/troubleshooting_recompiles_constants.log").value(), "c");
  ASSERT_EQ(log.recompiles.size(), 1u);
  EXPECT_EQ(log.recompiles[0].failures.size(), 8u);
  ASSERT_EQ(log.cache_limits.size(), 1u);
  EXPECT_EQ(log.cache_limits[0].limit, "cache_size_limit (8)");
  EXPECT_EQ(log.cache_limits[0].last_reason, "0/0: L['c'] == 1.5");
}

TEST(TorchLogsTest, TorchAirLinesGraphsAndTheirCompile) {
  // TorchAir core/utils.py:100-130 (Python), the C++ form (docs cplus_log_print.md),
  // graphs after `graph: ` (npu_fx_compiler.py:644) and GraphTransformObserver's
  // `[phase] before|after [pass] execution, graph is ` (graph_transform_observer.py:39,44).
  std::string text =
      "V0515 09:03:07.649000 281473434236992 torch/_dynamo/output_graph.py:1157] [0/0] [__graph_code] TRACED GRAPH\n"
      "[INFO] TORCHAIR(9569,python):2025-05-15 09:03:07.720.050 [npu_fx_compiler.py:324]9569 compiler inputs\n"
      "[INFO] TORCHAIR(9569,python):2025-05-15 09:03:07.720.361 [npu_fx_compiler.py:326]9569   input 0: "
      "FakeTensor(..., device='npu:0', size=(2, 2))\n"
      "[INFO] TORCHAIR(9569,python):2025-05-15 09:03:07.721.521 [npu_fx_compiler.py:327]9569   graph: graph():\n"
      "    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
      "    %view : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%arg0_1, [4]), kwargs = "
      "{})\n"
      "    return (view,)\n"
      "[DEBUG] TORCHAIR(9569,python):2025-05-15 09:03:07.722.000 [graph_transform_observer.py:44]9569 [forward] after "
      "[view_to_reshape] execution, graph is graph():\n"
      "    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
      "    %reshape : [num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg0_1, [4]), "
      "kwargs = {})\n"
      "    return (reshape,)\n"
      "[DEBUG] TORCHAIR(9569,python):2025-05-15 09:03:07.722.100 [npu_fx_compiler.py:346]9569 after fx graph "
      "optimization, graph is graph():\n"
      "    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
      "    return (arg0_1,)\n"
      "[DEBUG] TORCHAIR(9569,python):2025-02-06-15:44:53.084.591 [concrete_graph/session.cpp:238]9569 Start to session "
      "load graph 0\n"
      "tensor([[1.]], device='npu:0')\n";
  TorchLogs log = ParseTorchLogs(text, "ta.log");
  EXPECT_EQ(log.layouts, (std::vector<std::string>{"glog", "torchair", "torchair-c++"}));
  EXPECT_EQ(Names(log), (std::vector<std::string>{"0/0:torchair_graph", "0/0:torchair_after_view_to_reshape",
                                                  "0/0:torchair_after_fx_graph_optimization"}));
  EXPECT_TRUE(log.graphs[0].fx_text);
  EXPECT_EQ(log.graphs[0].text,
            "graph():\n    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
            "    %view : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%arg0_1, [4]), "
            "kwargs = {})\n    return (view,)\n");
  EXPECT_EQ(log.torchair_lines, 6u);
  EXPECT_EQ(log.other_lines, 1u);
  // Without any Dynamo line, TorchAir's graphs are numbered.
  TorchLogs alone = ParseTorchLogs(text.substr(text.find('\n') + 1), "alone.log");
  EXPECT_EQ(alone.graphs[1].name, "g2:torchair_after_view_to_reshape");
  // Another phase keeps its name.
  TorchLogs backward = ParseTorchLogs(
      "[DEBUG] TORCHAIR(1,python):2025-05-15 09:03:07.722.000 [graph_transform_observer.py:39]1 [backward] before "
      "[post_grad_custom_post_pass] execution, graph is graph():\n    return ()\n",
      "b");
  ASSERT_EQ(backward.graphs.size(), 1u);
  EXPECT_EQ(backward.graphs[0].kind, "torchair_backward_before_post_grad_custom_post_pass");
}

TEST(TorchLogsTest, AGraphAWebPageFlattenedOrUnindentedIsRepairedAndSaysSo) {
  // The seed blog joined TorchAir's graph into one line; TorchAir's docs drop the indentation.
  TorchLogs joined = ParseTorchLogs(
      "[INFO] TORCHAIR(9569,python):2025-05-15 09:03:07.721.521 [npu_fx_compiler.py:327]9569 graph: graph():%arg0_1 : "
      "[num_users=1] = placeholder[target=arg0_1]%add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor]"
      "(args = (%arg0_1, %arg0_1), kwargs = {})return (add,)\n",
      "j");
  ASSERT_EQ(joined.graphs.size(), 1u);
  EXPECT_EQ(joined.graphs[0].text,
            "graph():\n    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
            "    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %arg0_1), "
            "kwargs = {})\n    return (add,)\n");
  ASSERT_EQ(joined.problems.size(), 1u);
  EXPECT_NE(joined.problems[0].message.find("joined"), std::string::npos);
  TorchLogs flat = ParseTorchLogs(ReadFile(LogsDir() + "/torchair_python_debug.log").value(), "f");
  ASSERT_EQ(flat.graphs.size(), 2u);
  EXPECT_NE(flat.graphs[0].text.find("\n    %arg0_1 : "), std::string::npos);
  EXPECT_EQ(flat.graphs[0].source_columns[1], -4);  // put back, not in the log
  EXPECT_EQ(flat.problems.size(), 2u);
}

TEST(TorchLogsTest, TorchAirRuntimeMessagesPerFxGraph) {
  // The message texts of acl_graph.py at fced8842 (974, 977, 1002-1011, 1043, 1055, 1114, 1243),
  // fx2acl_converter.py:148 of 2025-04 (the seed's form) and utils.py:206-210 (timer).
  auto line = [](std::string_view level, std::string_view msg) {
    return fmt::format("[{}] TORCHAIR(7,python):2025-05-15 09:03:08.055.789 [acl_graph.py:1]7 {}\n", level, msg);
  };
  std::string text =
      line("DEBUG",
           "No find captured AclGraph{id: 11} of fx_graph graph_1 with graph key {[2, 2]}, and start to capture it.") +
      line("INFO",
           "Success to capture fx_graph graph_1 for graph key{[2, 2]}. Start to run AclGraph{id: 11} with the "
           "updated node num {0}.") +
      line("INFO", "Find captured AclGraph{id: 11} of fx_graph graph_1 with graph key {[2, 2]}.") +
      line("DEBUG", "The current AclGraph needs to be recaptured for fx_graph graph_1 with graph key {[2, 2]}.") +
      line("INFO", "graph_1 process inputs foreach copy took 0.000120 [s]") +
      line("WARNING",
           "The static_capture_size_limit reached when capturing fx_graph graph_1 with graph key [3, 3], we "
           "will fall back to eager for all subsequent executions. Excessive recapture can degrade") +
      line("INFO", "Current fx_graph graph_1 memory pool is (0, 1). Before reset, the current memory state is {") +
      "{'segment_type': 'large'}\n{'segment_type': 'small'}}.\n" +
      line("INFO", "Current fx_graph graph_1 memory pool is (0, 1). After reset, the current memory state is {}.") +
      line("INFO", "Replay AclGraph and update input params successfully.") +
      line("INFO", "Success to capture fx graph[id: 281468755723648] and start to run AclGraph[id: 281468838205920].");
  TorchLogs log = ParseTorchLogs(text, "rt.log");
  std::vector<std::string> kinds;
  for (const TorchAirEvent& e : log.events) kinds.push_back(e.fx_graph + "/" + e.kind + "/" + e.key);
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"graph_1/capture_start/[2, 2]", "graph_1/captured/[2, 2]", "graph_1/hit/[2, 2]",
                                      "graph_1/recapture/[2, 2]", "graph_1/input_copy/", "graph_1/limit_reached/[3, 3]",
                                      "graph_1/memory_before_reset/", "graph_1/memory_after_reset/", "/replay_update/",
                                      "id 281468755723648/captured/"}));
  EXPECT_EQ(log.other_lines, 0u);  // the memory state's lines belong to its message
}

TEST(TorchLogsTest, UnknownArtifactsAreCountedNotErrors) {
  TorchLogs log = ParseTorchLogs(
      "V0101 00:00:00.000000 1 a.py:1] [0/0] [__trace_source] TRACE starts_line x.py:1\n"
      "V0101 00:00:00.000000 1 a.py:1] [0/0] [__some_future_artifact] text\n"
      "V0101 00:00:00.000000 1 a.py:2] [0/0] [__some_future_artifact] more\n",
      "u");
  EXPECT_EQ(log.unread_artifacts.at("trace_source"), 1u);
  EXPECT_EQ(log.unread_artifacts.at("some_future_artifact"), 2u);
  EXPECT_TRUE(log.problems.empty());
}

TEST(TorchLogsTest, SniffingTellsLogsFromGraphsAndTraceLogs) {
  EXPECT_TRUE(LooksLikeTorchLogs(kGlogGraph));
  EXPECT_TRUE(LooksLikeTorchLogs("pip noise\nTRACED GRAPH\n"));
  EXPECT_TRUE(LooksLikeTorchLogs("[INFO] TORCHAIR(1,python):2025-05-15 09:03:07.720.050 [a.py:1]1 x"));
  EXPECT_TRUE(LooksLikeTorchLogs("[2025-02-06 16:46:56,297] [0/0] torch._dynamo.output_graph: [DEBUG] x"));
  EXPECT_FALSE(LooksLikeTorchLogs("V1206 15:18:20.599000 1500233 torch/_dynamo/output_graph.py:1336] {\"str\": 1}"));
  EXPECT_FALSE(LooksLikeTorchLogs("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"));
  EXPECT_FALSE(LooksLikeTorchLogs("graph():\n    %x : [num_users=1] = placeholder[target=x]\n"));
  EXPECT_FALSE(LooksLikeTorchLogs("[1, 2, 3]\n[0] not an id\n"));
  // ninja's progress looks like a compile id.
  EXPECT_FALSE(LooksLikeTorchLogs("[15/165] Building CXX object core/a.cc.o\n[16/165] Linking CXX executable x\n"));
}

TorchLogs RealLog(std::string_view name) {
  return ParseTorchLogs(ReadFile(LogsDir() + "/" + std::string(name)).value(), std::string(name));
}

// Items of one recompile message, for comparing a whole message at once.
std::vector<std::string> Failures(const TorchLogs& log, size_t i) {
  return i < log.recompiles.size() ? log.recompiles[i].failures : std::vector<std::string>{};
}

TEST(TorchLogsTest, RealLogAutoRound1679CacheLimitCutBeforeItsReason) {
  // intel/auto-round #1679: the stored copy ends inside the third line, so the
  // warning is read without the `last reason` line (the `'v'` size mismatch).
  TorchLogs log = RealLog("autoround1679_recompile_limit.log");
  EXPECT_TRUE(log.recompiles.empty());
  ASSERT_EQ(log.cache_limits.size(), 1u);
  const TorchLogsCacheLimit& c = log.cache_limits[0];
  EXPECT_EQ(c.id, "0/8");
  EXPECT_EQ(c.line, 1u);
  EXPECT_EQ(c.limit, "recompile_limit (8)");
  EXPECT_EQ(c.function,
            "'quant_tensor_sym' "
            "(/home/daved/miniforge3/envs/autoround/lib/python3.12/site-packages/auto_round/data_type/int.py:118)");
  EXPECT_EQ(c.last_reason, "");
  EXPECT_EQ(log.other_lines, 1u);  // the cut `W0414 02:`
}

TEST(TorchLogsTest, RealLogComfyUI9289RecompilesBehindComfyUIManagersStamp) {
  // Comfy-Org/ComfyUI #9289: ComfyUI-Manager's log file puts
  // `[2025-08-12 03:18:23.088] ` before the first line of each record; the
  // record's other lines carry only torch's glog prefix.
  TorchLogs log = RealLog("comfyui9289_recompiles.log");
  EXPECT_EQ(log.other_lines, 0u);
  EXPECT_EQ(log.torch_lines, 6u);
  // [4/1]'s header is not in the stored copy, which starts at its last
  // failure: that is kept, with the function unknown (it was dropped once).
  ASSERT_EQ(log.recompiles.size(), 3u);
  const TorchLogsRecompile& cut = log.recompiles[0];
  EXPECT_EQ(cut.id, "4/1");
  EXPECT_EQ(cut.line, 1u);
  EXPECT_TRUE(cut.header_missing);
  EXPECT_FALSE(cut.cut_at_end);
  EXPECT_EQ(cut.function, "");
  EXPECT_EQ(cut.location, "");
  EXPECT_EQ(Failures(log, 0),
            (std::vector<std::string>{"4/0: tensor 'args[0]' size mismatch at index 1. expected 215, actual 6"}));
  log.recompiles.erase(log.recompiles.begin());
  const TorchLogsRecompile& r = log.recompiles[0];
  EXPECT_FALSE(r.header_missing);
  EXPECT_FALSE(r.cut_at_end);
  EXPECT_EQ(r.id, "6/2");
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.function, "forward");
  EXPECT_EQ(r.location, "C:\\AI\\ComfyUI_windows_portable\\ComfyUI\\comfy\\ldm\\qwen_image\\model.py:221");
  EXPECT_EQ(Failures(log, 0),
            (std::vector<std::string>{
                "6/0: tensor 'image_rotary_emb' size mismatch at index 1. expected 7104, actual 6895",
                "6/1: tensor 'self._modules['img_mod']._modules['1']._parameters['weight']' size mismatch at index 1. "
                "expected 1728, actual 2112. Guard failed on a parameter, consider using "
                "torch._dynamo.config.force_parameter_static_shapes = False to allow dynamism on parameters."}));
  EXPECT_EQ(log.recompiles[1].id, "7/2");
  EXPECT_EQ(log.recompiles[1].line, 6u);
  EXPECT_TRUE(log.recompiles[1].failures.empty());  // the stored copy ends inside its first line
  EXPECT_TRUE(log.recompiles[1].cut_at_end);
  std::vector<std::string> ids;
  for (const TorchLogsCompile& c : log.compiles) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"4/1", "6/2", "7/2"}));
}

TEST(TorchLogsTest, AStampBeforeAGlogRecordIsSkipped) {
  // ComfyUI-Manager's fallback stamp is Unix seconds; the record's second
  // line, without the stamp, continues it.
  TorchLogs log = ParseTorchLogs(
      "[1723430303] [rank2]:V0101 00:00:00.000000 7 guards.py:1] [0/1] [__recompiles] Recompiling function f in "
      "x.py:1\n"
      "[rank2]:V0101 00:00:00.000000 7 guards.py:1] [0/1] [__recompiles]     triggered by the following guard "
      "failure(s):\n"
      "[rank2]:V0101 00:00:00.000000 7 guards.py:1] [0/1] [__recompiles]     - 0/0: x == 1\n"
      // Not a stamp: words in the brackets, or no space after them.
      "[stamp here] V0101 00:00:00.000000 7 guards.py:1] [0/2] [__recompiles] Recompiling function f in x.py:1\n"
      "[2025-08-12 03:18:23.088]V0101 00:00:00.000000 7 guards.py:1] [0/3] [__recompiles] Recompiling function f in "
      "x.py:1\n",
      "stamped.log");
  ASSERT_EQ(log.recompiles.size(), 1u);
  EXPECT_EQ(log.recompiles[0].id, "0/1");
  EXPECT_EQ(log.recompiles[0].rank, 2);
  EXPECT_EQ(log.recompiles[0].failures, std::vector<std::string>{"0/0: x == 1"});
  EXPECT_EQ(log.other_lines, 2u);
}

TEST(TorchLogsTest, RealLogTensorRTLLM6142CacheLimitFirstLineOnly) {
  // NVIDIA/TensorRT-LLM #6142 quotes the warning's first line only.
  TorchLogs log = RealLog("trtllm6142_recompile_limit.log");
  ASSERT_EQ(log.cache_limits.size(), 1u);
  const TorchLogsCacheLimit& c = log.cache_limits[0];
  EXPECT_EQ(c.id, "0/8");
  EXPECT_EQ(c.rank, 1);
  EXPECT_EQ(c.limit, "recompile_limit (8)");
  EXPECT_EQ(c.function, "");
  EXPECT_EQ(c.last_reason, "");
  EXPECT_EQ(log.ranks, std::vector<int>{1});
}

TEST(TorchLogsTest, RealLogIssue161119OneInputsDim0PerCompile) {
  // pytorch #161119 (vLLM, Falcon-Mamba): [3/36]'s failures name each earlier
  // entry's batch size, newest first; the stored copy ends after 3/31.
  TorchLogs log = RealLog("issue161119_batch_dim0.log");
  ASSERT_EQ(log.recompiles.size(), 1u);
  const TorchLogsRecompile& r = log.recompiles[0];
  EXPECT_EQ(r.id, "3/36");
  EXPECT_EQ(r.rank, 0);
  EXPECT_EQ(r.function, "forward_cuda");
  EXPECT_EQ(r.location, "/data/users/pianpwk/vllm/vllm/model_executor/layers/mamba/mamba_mixer.py:203");
  ASSERT_EQ(r.failures.size(), 5u);
  EXPECT_EQ(r.failures[0], "3/35: tensor 'hidden_states' size mismatch at index 0. expected 1, actual 22");
  EXPECT_EQ(r.failures[4], "3/31: tensor 'hidden_states' size mismatch at index 0. expected 16, actual 22");
  EXPECT_TRUE(log.cache_limits.empty());
}

// PyTorch's docs, "Common Graph Breaks" (README.md): two graph breaks in
// format_graph_break_message's form. The explanation, the hints and the
// debug context after the blank line stay with the break.
TEST(TorchLogsTest, RealLogDocsGraphBreaksKeepTheirExplanationAndHints) {
  TorchLogs log = RealLog("docs_common_graph_breaks.log");
  ASSERT_EQ(log.graph_breaks.size(), 2u);
  const TorchLogsGraphBreak& item = log.graph_breaks[0];
  EXPECT_EQ(item.line, 1u);
  EXPECT_EQ(item.location, "/tmp/ipykernel_230947/3495555842.py:5");
  EXPECT_EQ(item.reason, "Unsupported Tensor.item() call with capture_scalar_outputs=False");
  EXPECT_EQ(item.explanation,
            "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.");
  EXPECT_EQ(item.hints, std::vector<std::string>{"Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
                                                 "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations "
                                                 "in the captured graph."});
  EXPECT_EQ(item.debug_context, "call_method TensorVariable() item () {}");
  const TorchLogsGraphBreak& branch = log.graph_breaks[1];
  EXPECT_EQ(branch.line, 56u);
  EXPECT_EQ(branch.reason, "Data-dependent branching");
  ASSERT_EQ(branch.hints.size(), 2u);
  EXPECT_EQ(branch.hints[1], "Use `torch.cond` to express dynamic control flow.");
  EXPECT_EQ(branch.debug_context, "attempted to jump with TensorVariable()");
  EXPECT_EQ(GraphBreakNotes(branch, 2),
            "\n  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not "
            "support tracing dynamic control flow.\n  Hint: This graph break is fundamental - it is unlikely that "
            "Dynamo will ever be able to trace through your code. Consider finding a workaround.\n  Hint: Use "
            "`torch.cond` to express dynamic control flow.\n  Developer debug context: attempted to jump with "
            "TensorVariable()");
}

// format_graph_break_message indents a text of several lines by four more
// spaces (textwrap.indent): its later lines stay with it. (Built by that
// rule, in the glog layout, where every line carries the record's prefix.)
TEST(TorchLogsTest, AGraphBreakHintOfSeveralLinesIsKeptWhole) {
  std::string prefix = "V0101 00:00:00.000000 1 torch/_dynamo/symbolic_convert.py:1] [0/0] [__graph_breaks] ";
  TorchLogs log = ParseTorchLogs(prefix + "Graph break in user code at /a.py:3\n" + prefix +
                                     "Graph Break Reason: Unsupported function call\n" + prefix +
                                     "  Explanation: Dynamo does not know how to trace the function `f`.\n" + prefix +
                                     "  Hint: Avoid calling `f` in your code.\n" + prefix +
                                     "  Hint: Remove the function `f` from torch/_dynamo/trace_rules.py.\n" + prefix +
                                     "      More graph breaks may occur as a result.\n" + prefix + "\n" + prefix +
                                     "  Developer debug context: call_function UserFunctionVariable() [] {}\n",
                                 "t.log");
  ASSERT_EQ(log.graph_breaks.size(), 1u);
  const TorchLogsGraphBreak& b = log.graph_breaks[0];
  EXPECT_EQ(b.id, "0/0");
  EXPECT_EQ(b.explanation, "Dynamo does not know how to trace the function `f`.");
  EXPECT_EQ(b.hints, (std::vector<std::string>{"Avoid calling `f` in your code.",
                                               "Remove the function `f` from torch/_dynamo/trace_rules.py.\nMore "
                                               "graph breaks may occur as a result."}));
  EXPECT_EQ(b.debug_context, "call_function UserFunctionVariable() [] {}");
}

TEST(TorchLogsTest, RealLogPr110325Dim0GrowsByOnePerCall) {
  // pytorch PR 110325 (torch 2.1 bracket layout, no compile ids): two
  // consecutive recompiles of _forward_impl for x's dim 0 = 26, then 27.
  TorchLogs log = RealLog("pr110325_recompiles_dim0.log");
  // The stored copy starts at the last failure of the recompile before (for 25).
  ASSERT_EQ(log.recompiles.size(), 3u);
  EXPECT_TRUE(log.recompiles[0].header_missing);
  EXPECT_EQ(log.recompiles[0].line, 1u);
  EXPECT_EQ(Failures(log, 0),
            (std::vector<std::string>{"tensor 'L['x']' size mismatch at index 0. expected 24, actual 25"}));
  log.recompiles.erase(log.recompiles.begin());
  for (const TorchLogsRecompile& r : log.recompiles) {
    EXPECT_FALSE(r.header_missing);
    EXPECT_EQ(r.id, "");
    EXPECT_EQ(r.function, "_forward_impl");
    EXPECT_EQ(r.location, "/data/users/williamwen/torchvision/torchvision/models/resnet.py:266");
  }
  EXPECT_EQ(log.recompiles[0].line, 2u);
  EXPECT_EQ(Failures(log, 0),
            (std::vector<std::string>{"tensor 'L['x']' size mismatch at index 0. expected 25, actual 26",
                                      "tensor 'L['x']' size mismatch at index 0. expected 24, actual 26"}));
  EXPECT_EQ(Failures(log, 1),
            (std::vector<std::string>{"tensor 'L['x']' size mismatch at index 0. expected 26, actual 27",
                                      "tensor 'L['x']' size mismatch at index 0. expected 25, actual 27"}));
  EXPECT_TRUE(log.compiles.empty());
}

// Each real log of tests/data/torch_logs (README.md cites where it was
// published) is read with the items a plain scan of its text finds.
TEST(TorchLogsTest, EveryRealLogLoadsWithWhatItsTextHolds) {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LogsDir())) {
    if (entry.path().extension() != ".log") continue;
    ++files;
    std::string text = ReadFile(entry.path().string()).value();
    Result<TorchLogs> loaded = LoadTorchLogsFile(entry.path().string(), uint64_t{1} << 30);
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    const TorchLogs& log = *loaded;
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_TRUE(LooksLikeTorchLogs(text));
    auto count = [&text](const std::regex& re) {
      return static_cast<size_t>(
          std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
    };
    size_t traced = count(std::regex("TRACED GRAPH\\r?\\n|TRACED GRAPH$"));
    size_t torchair_graphs = count(std::regex("graph(: | is:? )graph\\(\\):"));
    EXPECT_EQ(
        log.graphs.size() + log.tabular_graphs +
            [&log] {
              size_t copies = 0;
              for (const auto& g : log.graphs) copies += g.copies;
              return copies;
            }(),
        traced + torchair_graphs);
    // A log that starts inside a recompile message (after its header) holds one more.
    std::string_view first_line = std::string_view(text).substr(0, text.find('\n'));
    size_t starts_inside = first_line.find("__recompiles") != std::string_view::npos &&
                           first_line.find("Recompiling function ") == std::string_view::npos;
    EXPECT_EQ(log.recompiles.size(), count(std::regex("Recompiling function ")) + starts_inside);
    EXPECT_EQ(log.cache_limits.size(), count(std::regex("torch\\._dynamo hit config\\.")));
    EXPECT_EQ(log.symbols.size(), count(std::regex("create_symbol ")));
    EXPECT_EQ(log.lines, static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + (text.back() != '\n'));
  }
  EXPECT_GE(files, 10u);
}

TEST(TorchLogsTest, ALargeLogStreamsAndCtrlCStopsIt) {
  std::string path = ::testing::TempDir() + "/big_torch_logs.log";
  {
    std::ofstream out(path);
    // Lines longer than the reader's chunk, and many short ones, then a graph.
    out << std::string(3 << 20, 'x') << "\n";
    for (int i = 0; i < 200000; ++i) {
      out << "V0101 00:00:00.000000 1 symbolic_convert.py:1] [0/0] [__trace_source] TRACE starts_line x.py:" << i
          << "\n";
    }
    out << kGlogGraph;
  }
  Result<TorchLogs> log = LoadTorchLogsFile(path, uint64_t{1} << 30);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->graphs.size(), 1u);
  EXPECT_EQ(log->graphs[0].source_lines[0], 200000u + 1u + 3u);
  EXPECT_EQ(log->unread_artifacts.at("trace_source"), 200000u);
  Result<TorchLogs> small = LoadTorchLogsFile(path, 1000);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("max-file-size"), std::string::npos);
  RequestInterrupt();
  Result<TorchLogs> stopped = LoadTorchLogsFile(path, uint64_t{1} << 30);
  ClearInterrupt();
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.status().message(), InterruptedStatus().message());
  std::filesystem::remove(path);
}

TEST(TorchLogsTest, ThousandsOfInterleavedProcessesStayBounded) {
  std::string text;
  for (int pid = 0; pid < 10000; ++pid) {
    text += fmt::format("V0101 00:00:00.000000 {} guards.py:1] [0/1] [__recompiles] Recompiling function f in x.py:1\n",
                        pid);
  }
  TorchLogs log = ParseTorchLogs(text, "pids.log");
  EXPECT_EQ(log.lines, 10000u);
  EXPECT_EQ(log.recompiles.size(), 10000u);  // each still read
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_NE(log.problems[0].message.find("interleave"), std::string::npos);
  // A damaged log's warnings: the first hundred kept, the rest counted.
  std::string graphs;
  for (int i = 0; i < 1000; ++i) graphs += "TRACED GRAPH\n =====\n";
  TorchLogs damaged = ParseTorchLogs(graphs, "damaged.log");
  EXPECT_EQ(damaged.problems.size(), TorchLogs::kMaxProblems);
  EXPECT_EQ(damaged.problems.size() + damaged.more_problems, 1000u);
}

TEST(TorchLogsTest, DamagedInputIsNeverACrash) {
  // Cut-off and garbled prefixes, unbalanced brackets, empty messages.
  for (std::string_view text :
       {"[",
        "[]",
        "[0/0",
        "[0/0] [__",
        "V0101",
        "V0101 00:00:00.000000 1 a.py:1]",
        "[rank",
        "[rank1]:",
        "[INFO] TORCHAIR(",
        "[INFO] TORCHAIR(1,py):2025-",
        "[2025-02-06 16:46:56,300] [0/0] x: [",
        "TRACED GRAPH",
        "TRACED GRAPH\n =====",
        "TRACED GRAPH\n class ",
        "GUARDS:",
        "Recompiling function ",
        "('Recompiling function",
        "Graph break",
        "Graph break: from user code at:",
        "torch._dynamo hit config.",
        "create_symbol ",
        "create_symbol s0 = ",
        "x [guard added]",
        "eval [guard added]",
        "[INFO] TORCHAIR(1,py):2025-05-15 09:03:07.720.050 [a.py:1]1 graph: graph():%",
        "[INFO] TORCHAIR(1,py):2025-05-15 09:03:07.720.050 [a.py:1]1 Find captured AclGraph{id: ",
        "[INFO] TORCHAIR(1,py):2025-05-15 09:03:07.720.050 [a.py:1]1 memory state is {\n\n"}) {
    TorchLogs log = ParseTorchLogs(text, "damaged.log");
    EXPECT_GE(log.lines, 1u) << text;
  }
}

}  // namespace
}  // namespace airscope
