#include "formats/torch_trace.h"

#include <filesystem>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/trace_record_test_util.h"

#include "core/file_util.h"
#include "formats/md5.h"

namespace airscope {
namespace {

std::string TraceDir() { return std::string(AIRSCOPE_TEST_DATA) + "/torch_trace"; }

TEST(Md5Test, Rfc1321Vectors) {
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, IncrementalUpdatesMatchOneShot) {
  std::string text(1000, 'x');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  Md5 md5;
  for (size_t pos = 0; pos < text.size(); pos += 37) md5.Update(std::string_view(text).substr(pos, 37));
  EXPECT_EQ(md5.HexDigest(), Md5Hex(text));
}

// Counted with a plain scan, independently of the reader.
struct ScanCounts {
  std::set<std::string> start_ids;
  std::map<std::string, size_t> artifacts;
};
ScanCounts Scan(const std::string& text) {
  ScanCounts counts;
  std::regex start(R"re(\{"dynamo_start".*"frame_id": (\d+), "frame_compile_id": (\d+))re");
  std::regex artifact(R"re(\] \{"artifact": \{"name": "((fx_graph|aotautograd|autograd)_cache_(hit|miss|bypass))")re");
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == '\t') continue;
    std::smatch m;
    if (std::regex_search(line, m, start)) counts.start_ids.insert(m[1].str() + "/" + m[2].str());
    if (std::regex_search(line, m, artifact)) ++counts.artifacts[m[1].str()];
  }
  return counts;
}

TEST(TorchTraceTest, EverySampleLoadsWithItsCompilesAndCacheArtifacts) {
  size_t logs = 0;
  for (const auto& file : std::filesystem::directory_iterator(TraceDir())) {
    if (file.path().extension() != ".log") continue;
    ++logs;
    std::string path = file.path().string();
    SCOPED_TRACE(path);
    std::string text = ReadFile(path).value();
    ScanCounts expected = Scan(text);
    Result<TraceLog> log = LoadTraceLogFile(path, uint64_t{1} << 30);
    ASSERT_TRUE(log.ok()) << log.status().message();
    EXPECT_EQ(log->compiles.size(), expected.start_ids.size());
    for (const TraceCompile& c : log->compiles) EXPECT_TRUE(expected.start_ids.count(c.id)) << c.id;
    std::map<std::string, size_t> got;
    for (const TraceArtifact& a : log->cache_artifacts) ++got[a.name];
    EXPECT_EQ(got, expected.artifacts);
    size_t hits = 0, misses = 0;
    for (const auto& [name, n] : expected.artifacts) {
      hits += name.ends_with("_hit") ? n : 0;
      misses += name.ends_with("_miss") ? n : 0;
    }
    EXPECT_EQ(log->CountArtifacts("fx_graph", "hit") + log->CountArtifacts("aotautograd", "hit"), hits);
    EXPECT_EQ(log->CountArtifacts("fx_graph", "miss") + log->CountArtifacts("aotautograd", "miss"), misses);
    // The same text through the in-memory reader gives the same result.
    TraceLog again = ParseTraceLog(text, path);
    EXPECT_EQ(again.compiles.size(), log->compiles.size());
    EXPECT_EQ(again.graphs.size(), log->graphs.size());
    // The export logs' payloads lost the TABs of their empty lines (README.md).
    bool damaged = path.find("corrupted") != std::string::npos || path.find("export") != std::string::npos;
    EXPECT_EQ(log->problems.empty(), !damaged);
  }
  EXPECT_EQ(logs, 8u);
}

// torch.export's TORCH_TRACE (tlparse's export logs): no compile id anywhere.
// The program's graph is loaded, and each guard_added keeps where the user's
// code added it; a payload whose empty lines lost their TAB is kept whole.
TEST(TorchTraceTest, AnExportLogKeepsItsProgramAndItsGuards) {
  TraceLog log = LoadTraceLogFile(TraceDir() + "/export_guard_added.log", uint64_t{1} << 30).value();
  EXPECT_TRUE(log.compiles.empty());
  ASSERT_EQ(log.guards_added.size(), 1u);
  const TraceGuardAdded& g = log.guards_added[0];
  EXPECT_EQ(g.compile_id, "");
  EXPECT_EQ(g.expr, "Eq(s0, 3)");
  EXPECT_EQ(g.line, 27u);
  EXPECT_EQ(g.user_frame,
            "/data/users/angelayi/pytorch/test/export/test_draft_export.py:297 in forward: assert a.shape[0] == 3");
  EXPECT_EQ(g.code, "");
  EXPECT_EQ(g.symbol_sources, std::vector<std::string>{"s0 = L['args'][0][0].size()[0]"});
  ASSERT_EQ(log.exports.size(), 1u);
  EXPECT_EQ(log.exports[0].line, 39u);
  EXPECT_EQ(log.exports[0].range_constraints, "{}");
  EXPECT_TRUE(log.exports[0].graph_signature.starts_with("ExportGraphSignature(input_specs=[InputSpec("));
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_EQ(log.graphs[0].stage, "exported_program");
  EXPECT_EQ(log.graphs[0].line, 39u);
  EXPECT_TRUE(
      log.graphs[0].text.starts_with("class GraphModule(torch.nn.Module):\n    def forward(self, a: \"f32[3, 3]\"):"))
      << log.graphs[0].text;
  // The empty line (line 46) is inside the payload: the lines after it are not orphans.
  std::vector<std::string> problems;
  for (const TraceProblem& p : log.problems) problems.push_back(fmt::format("{}: {}", p.line, p.message));
  ASSERT_EQ(problems.size(), 2u) << fmt::format("{}", fmt::join(problems, "\n"));
  EXPECT_TRUE(problems[0].starts_with("46: empty line inside the exported_program payload of line 39")) << problems[0];
  EXPECT_TRUE(problems[1].starts_with("39: exported_program payload md5 mismatch")) << problems[1];

  TraceLog older = LoadTraceLogFile(TraceDir() + "/export.log", uint64_t{1} << 30).value();
  ASSERT_EQ(older.guards_added.size(), 7u);
  EXPECT_EQ(older.guards_added[0].user_frame, "");  // that torch logged no user_stack
  EXPECT_EQ(older.guards_added[0].code, "torch._check_is_size(a)");
  EXPECT_EQ(DescribeGuardAdded(older.guards_added[1]),
            "(((-u0)//3)) + 5 < 2*s0 (line 38), code: torch._check(a < z.shape[0]) (s0 = L['args'][0][1].size()[0])");
  ASSERT_EQ(older.exports.size(), 1u);
  EXPECT_EQ(older.exports[0].range_constraints, "{u0: VR[-int_oo, 15], u1: VR[-int_oo, 15], s0: VR[2, int_oo]}");
  ASSERT_EQ(older.graphs.size(), 1u);
  EXPECT_NE(older.graphs[0].text.find("return (slice_1,)"), std::string::npos);
}

TEST(TorchTraceTest, CompileDetailsGuardsAndGraphs) {
  TraceLog log = LoadTraceLogFile(TraceDir() + "/comp_metrics.log", uint64_t{1} << 30).value();
  ASSERT_EQ(log.compiles.size(), 3u);
  EXPECT_EQ(log.compiles[0].id, "0/0");
  EXPECT_EQ(log.compiles[0].status, "restart");
  EXPECT_NE(log.compiles[0].reason.find("skip function graph_break"), std::string::npos);
  EXPECT_EQ(log.compiles[0].attempts, 2);
  EXPECT_EQ(log.compiles[2].status, "success");
  EXPECT_EQ(log.compiles[2].function, "torch_dynamo_resume_in_fn_at_9553");
  EXPECT_EQ(log.dynamo_guards.size(), 3u);

  TraceLog simple = LoadTraceLogFile(TraceDir() + "/simple.log", uint64_t{1} << 30).value();
  ASSERT_EQ(simple.compiles.size(), 1u);
  EXPECT_EQ(simple.compiles[0].guard_count, 49);
  EXPECT_EQ(simple.compiles[0].cache_size, 0);
  EXPECT_NE(simple.cpp_guards.at("0/0").find("TENSOR_MATCH: check_tensor(L['x']"), std::string::npos);
  std::vector<std::string> stages;
  for (const TraceGraph& g : simple.graphs) stages.push_back(g.compile_id + ":" + g.stage);
  EXPECT_EQ(stages, (std::vector<std::string>{"0/0:dynamo_output_graph", "0/0:aot_inference_graph",
                                              "0/0:inductor_post_grad_graph"}));
}

TEST(TorchTraceTest, CorruptedLogIsReportedWithItsLineAndTheRestLoads) {
  TraceLog log = LoadTraceLogFile(TraceDir() + "/simple_corrupted_json.log", uint64_t{1} << 30).value();
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 13u);
  EXPECT_NE(log.problems[0].message.find("md5 mismatch"), std::string::npos);
  EXPECT_EQ(log.compiles.size(), 1u);
  EXPECT_EQ(log.graphs.size(), 3u);
}

TEST(TorchTraceTest, BrokenEnvelopesAndStrayLinesAreProblemsNotCrashes) {
  TraceLog log = ParseTraceLog(
      "V0101 00:00:00.000000 1 a.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 0, \"frame_compile_id\": 0}\n"
      "V0101 00:00:00.000000 1 a.py:1] {\"dynamo_guards\": {}, \"frame_id\": 0, \"frame_compile_id\": 0, "
      "\"has_payload\": "
      "\"0cc175b9c0f1b6a831c399e269772661\"}\n"
      "\ta\n"
      "V0101 00:00:00.000000 1 a.py:1] {\"broken\": \n"
      "\tpayload of a broken record\n"
      "garbage\n"
      "V0101 00:00:00.000000 1 a.py:1] {\"artifact\": {\"name\": \"fx_graph_cache_hit\"}, \"frame_id\": 0, "
      "\"frame_compile_id\": 0}\n",
      "t.log");
  EXPECT_EQ(log.compiles.size(), 1u);
  EXPECT_EQ(log.dynamo_guards.at("0/0"), "a");
  ASSERT_EQ(log.problems.size(), 2u);
  EXPECT_EQ(log.problems[0].line, 4u);
  EXPECT_EQ(log.problems[1].line, 6u);
  EXPECT_EQ(log.CountArtifacts("fx_graph", "hit"), 1u);
  EXPECT_TRUE(LooksLikeTraceLog("V0101 00:00:00.000000 1 a.py:1] {\"str\": [\"x\", 0]}"));
  EXPECT_FALSE(LooksLikeTraceLog("class GraphModule(torch.nn.Module):"));
}

// A log of two runs (a reused TORCH_TRACE file) holds compilation_metrics
// twice for 0/0: the last run's status is shown, and that the first ended
// otherwise is a problem at the second record's line; equal runs say nothing.
TEST(TorchTraceTest, ASecondRunThatEndedOtherwiseIsSaidNotMerged) {
  const std::string start =
      "V0101 00:00:00.000000 1 a.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 0, \"frame_compile_id\": "
      "0}\n";
  const std::string failed =
      "V0101 00:00:00.000000 1 a.py:1] {\"compilation_metrics\": {\"co_name\": \"f\", \"fail_type\": "
      "\"Unsupported\", \"fail_reason\": \"x\"}, \"frame_id\": 0, \"frame_compile_id\": 0}\n";
  const std::string succeeded =
      "V0101 00:00:00.000000 1 a.py:1] {\"compilation_metrics\": {\"co_name\": \"f\"}, \"frame_id\": 0, "
      "\"frame_compile_id\": 0}\n";
  TraceLog log = ParseTraceLog(start + failed + start + succeeded, "t.log");
  ASSERT_EQ(log.compiles.size(), 1u);
  EXPECT_EQ(log.compiles[0].status, "success");
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 4u);
  EXPECT_EQ(log.problems[0].message,
            "compile 0/0 has compilation_metrics again (a log of several runs): airscope shows this run's status "
            "(success); an earlier run's was failure");
  EXPECT_TRUE(ParseTraceLog(start + succeeded + start + succeeded, "t.log").problems.empty());
}

// A record nested 70,000 deep crashed nlohmann's recursive dump() (issue
// 12, item 5): deep JSON is now unparsable, and the log still loads.
TEST(TorchTraceTest, DeeplyNestedJsonIsRefusedNotACrash) {
  std::string deep = std::string(70000, '[') + std::string(70000, ']');
  std::string log_text =
      "V0101 00:00:00.000000 1 a.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 0, \"frame_compile_id\": 0}\n"
      "V0101 00:00:00.000000 1 a.py:1] {\"artifact\": {\"name\": \"recompile_reasons\", \"encoding\": \"json\"}, "
      "\"frame_id\": 0, \"frame_compile_id\": 0, \"has_payload\": \"" +
      Md5Hex(deep) +
      "\"}\n"
      "\t" +
      deep +
      "\n"
      "V0101 00:00:00.000000 1 a.py:1] {\"deep\": " +
      deep + ", \"frame_id\": 0, \"frame_compile_id\": 0}\n";
  TraceLog log = ParseTraceLog(log_text, "deep.log");
  EXPECT_EQ(log.compiles.size(), 1u);
  ASSERT_EQ(log.recompiles.size(), 1u);  // kept as its text, not parsed
  ASSERT_EQ(log.recompiles[0].reasons.size(), 1u);
  EXPECT_EQ(log.recompiles[0].reasons[0].size(), deep.size());
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 4u);  // the deep envelope
}

}  // namespace
}  // namespace airscope

#include <filesystem>
#include <fstream>

#include "repl/graph_loader.h"

namespace airscope {
namespace {

// A log whose first line is damaged is still recognised as a log (issue 12,
// item 3): `load` used to look at the first line only and then failed to
// read it as a graph.
TEST(TorchTraceTest, ALogWithADamagedFirstLineIsStillALog) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("airscope_damaged_" + std::to_string(::getpid()) + ".log");
  {
    std::ifstream in(TraceDir() + "/simple.log");
    std::ofstream out(path);
    out << "V1206 15:1\n" << in.rdbuf();  // a record cut short, then the log
  }
  EXPECT_EQ(SniffInput(path.string()), FindInputFormat("trace"));
  EXPECT_NE(SniffInput(std::string(AIRSCOPE_TEST_DATA) + "/mlp.graph.txt"), FindInputFormat("trace"));
  std::filesystem::remove(path);
}

using testing_trace::Record;

constexpr std::string_view kGraph =
    "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        return (x,)";

TEST(TorchTraceTest, CompiledAutogradIdsAndAttemptsAreTheirOwnCompiles) {
  // torch/_guards.py CompileId.__str__: "!ca/frame/compile" and "!ca"; TraceId adds "_attempt".
  TraceLog log = ParseTraceLog(
      Record(R"("dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)") +
          Record(R"("dynamo_output_graph": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 1)", kGraph) +
          Record(
              R"("dynamo_start": {"stack": []}, "compiled_autograd_id": 0, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)") +
          Record(
              R"("dynamo_output_graph": {}, "compiled_autograd_id": 0, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)",
              kGraph) +
          Record(R"("compiled_autograd_graph": {}, "compiled_autograd_id": 2, "attempt": 0)", kGraph) +
          Record(
              R"("dynamo_start": {"stack": []}, "compiled_autograd_id": null, "frame_id": 1, "frame_compile_id": 0)"),
      "ca.log");
  std::vector<std::string> ids;
  for (const TraceCompile& c : log.compiles) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"0/0", "!0/0/0", "1/0"}));
  EXPECT_EQ(log.compiles[0].attempts, 2);
  EXPECT_EQ(log.compiles[1].compiled_autograd_id, 0);
  std::vector<std::string> graphs;
  for (const TraceGraph& g : log.graphs) graphs.push_back(g.compile_id + ":" + g.stage);
  EXPECT_EQ(graphs, (std::vector<std::string>{"0/0_1:dynamo_output_graph", "!0/0/0:dynamo_output_graph",
                                              "!2:compiled_autograd_graph"}));
}

TEST(TorchTraceTest, APayloadWithAWrongMd5IsKeptWithAWarningAsTlparseDoes) {
  // tlparse src/lib.rs:700-711 counts fail_payload_md5 and keeps the record.
  std::string text = Record(R"("dynamo_output_graph": {}, "frame_id": 0, "frame_compile_id": 0)", kGraph);
  text.replace(text.find("return (x,)"), 11, "return (y,)");
  TraceLog log = ParseTraceLog(text, "md5.log");
  ASSERT_EQ(log.graphs.size(), 1u);
  EXPECT_NE(log.graphs[0].text.find("return (y,)"), std::string::npos);
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_NE(log.problems[0].message.find("md5 mismatch"), std::string::npos);
  EXPECT_NE(log.problems[0].message.find("kept"), std::string::npos);
}

TEST(TorchTraceTest, OutputCodeSpecializationsGuardsAddedStacksAndRank) {
  TraceLog log = ParseTraceLog(
      Record(R"("str": ["/home/u/train.py", 0])") + Record(R"("str": ["/torch/nn/module.py", 1])") +
          Record(
              R"("dynamo_start": {"stack": [{"line": 12, "name": "<module>", "filename": 0}, {"line": 1751, "name": "_call_impl", "filename": 1}]}, "rank": 3, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)") +
          Record(
              R"j("symbolic_shape_specialization": {"symbol": "s0", "sources": ["L['x'].size()[0]"], "value": "3", "reason": "Eq(s0, 3)"}, "rank": 3, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)j") +
          Record(
              R"j("guard_added": {"expr": "Eq(s1, 4)", "prefix": "eval"}, "rank": 3, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)j") +
          Record(
              R"("inductor_output_code": {"filename": "/tmp/torchinductor/ab/cabc.py"}, "rank": 3, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)",
              "import torch\ndef call(args):\n    pass") +
          Record(R"("artifact": {"name": "x", "encoding": "string"}, "rank": 4, "frame_id": 0, "frame_compile_id": 0)"),
      "more.log");
  EXPECT_EQ(log.rank, 3);
  ASSERT_EQ(log.problems.size(), 1u);  // the record of rank 4
  EXPECT_NE(log.problems[0].message.find("rank 4"), std::string::npos);
  ASSERT_EQ(log.compiles.size(), 1u);
  EXPECT_EQ(log.compiles[0].stack,
            (std::vector<std::string>{"/home/u/train.py:12 in <module>", "/torch/nn/module.py:1751 in _call_impl"}));
  ASSERT_EQ(log.specializations.size(), 1u);
  EXPECT_EQ(log.specializations[0].symbol, "s0");
  EXPECT_EQ(log.specializations[0].value, "3");
  EXPECT_EQ(log.specializations[0].sources, "L['x'].size()[0]");
  ASSERT_EQ(log.guards_added.size(), 1u);
  EXPECT_EQ(log.guards_added[0].expr, "Eq(s1, 4)");
  ASSERT_EQ(log.output_code.size(), 1u);
  EXPECT_EQ(log.output_code[0].filename, "/tmp/torchinductor/ab/cabc.py");
  EXPECT_EQ(log.output_code[0].lines, 3u);
}

// tlparse's multi_rank_logs (tests/data/torch_trace/multi_rank): rank 3
// compiled the frame seven times, ranks 0 and 2 once; rank 1's log is cut
// after its second compile (the data's README.md).
TEST(TorchTraceTest, PerRankLogsOfADistributedRun) {
  std::map<int, size_t> compiles;
  for (int rank : {0, 1, 2, 3}) {
    TraceLog log =
        LoadTraceLogFile(fmt::format("{}/multi_rank/dedicated_log_torch_trace_rank_{}.log", TraceDir(), rank),
                         uint64_t{1} << 30)
            .value();
    compiles[rank] = log.compiles.size();
    EXPECT_TRUE(log.problems.empty()) << log.problems[0].message;
  }
  EXPECT_EQ(compiles, (std::map<int, size_t>{{0, 1}, {1, 2}, {2, 1}, {3, 7}}));
}

}  // namespace
}  // namespace airscope
