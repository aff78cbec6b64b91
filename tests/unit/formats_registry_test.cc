// The registry of input formats (formats/registry.h): every row takes its own
// samples under tests/data and no other row does; a file no row takes is
// refused with every format the registry lists; default names strip the
// rows' extensions.
#include "formats/registry.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/file_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

using testing_util::kData;

// The row a path goes to: SniffInput's answer, or for graph text not known
// from its first bytes, SniffGraphText's on the whole file (as `load` does).
std::string RowOf(const std::string& path) {
  if (const InputFormat* row = SniffInput(path)) return std::string(row->name);
  Result<std::string> text = ReadFile(path, uint64_t{1} << 30);
  if (!text.ok()) return "unreadable";
  Result<const InputFormat*> row = SniffGraphText(*text, path);
  return row.ok() ? std::string((*row)->name) : "refused";
}

class FormatsRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("formats_registry_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Write(const std::string& name, const std::string& text) {
    fs::path path = root_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  fs::path root_;
};

TEST_F(FormatsRegistryTest, EveryRowTakesItsOwnSamplesAndNoOther) {
  // Directories: a TORCH_COMPILE_DEBUG run (torchair/ inside) and one of
  // per-rank TORCH_TRACE logs (the sample of tlparse's multi-rank test).
  fs::create_directories(root_ / "tcd/run_2025_01_01_00_00_00_000000-pid_7/torchair");
  // Every row's samples: real inputs where the repository has them.
  const std::map<std::string, std::vector<std::string>> samples = {
      {"debug-tree", {(root_ / "tcd").string(), (root_ / "tcd/run_2025_01_01_00_00_00_000000-pid_7").string()}},
      {"trace-dir", {kData + "/torch_trace/multi_rank"}},
      {"trace", {kData + "/torch_trace/artifacts.log", kData + "/torch_trace/comp_metrics.log"}},
      {"torch-logs",
       {kData + "/torch_logs/pr123780_guards.log", kData + "/torch_logs/torchair_cplus.log",
        kData + "/dynamo_logs/aclgraph_blog_add_aot.log.txt", kData + "/torch_compile_debug/torchair_debug.log",
        kData + "/torch_logs/shell_prompt_scatter_update.log"}},
      {"aclgraph-json", {kData + "/aclgraph/seed_capture.json", kData + "/aclgraph/stream_active.json"}},
      {"json", {kData + "/seed_multistream_lowered.json", kData + "/check_unjoined_lowered.json"}},
      {"fx", {kData + "/mlp.graph.txt", kData + "/gpt_block2.graph.txt"}},
      {"readable", {kData + "/mlp.readable.py", kData + "/torch_compile_debug/kv_scatter_update.readable.py"}},
      {"pbtxt", {kData + "/torchair_style_add.pbtxt"}},
      {"ge-builder", {kData + "/torch_compile_debug/ge_python_code.py"}},
  };
  std::set<std::string> covered;
  for (const auto& [row, paths] : samples) {
    ASSERT_NE(FindInputFormat(row), nullptr) << row;
    covered.insert(row);
    for (const std::string& path : paths) {
      ASSERT_TRUE(fs::exists(path)) << path;
      EXPECT_EQ(RowOf(path), row) << path;
    }
  }
  // A new row comes with samples here.
  for (const std::string& name : InputFormatNames()) EXPECT_TRUE(covered.count(name)) << name << " has no sample";
}

TEST_F(FormatsRegistryTest, GraphTextGoesToTheGraphRowsOnly) {
  // Text in memory (a graph printed inside a log) is never a log or a dump.
  EXPECT_EQ(*SniffGraphText("\n# c\n  graph():\n", "x"), FindInputFormat("fx"));
  EXPECT_EQ(*SniffGraphText("def forward(self, x):\n", "x"), FindInputFormat("readable"));
  EXPECT_EQ(*SniffGraphText("node {\n", "x"), FindInputFormat("pbtxt"));
  EXPECT_EQ(*SniffGraphText("[{\"name\": \"x\"}]", "x"), FindInputFormat("json"));
  for (const InputFormat& row : InputFormats()) {
    if (row.kind == InputKind::kGraph) {
      EXPECT_NE(row.read, nullptr) << row.name;
    } else {
      EXPECT_EQ(row.read, nullptr) << row.name << ": only graph rows read text";
    }
  }
}

// JSON must parse as JSON at its start; a `[` or `{` alone is not enough. A
// shell prompt pasted above a log (`[user@host dir]$ ...`) is not JSON.
TEST_F(FormatsRegistryTest, APromptLineIsNotJson) {
  const InputFormat* json = FindInputFormat("json");
  EXPECT_EQ(*SniffGraphText("{\n  \"nodes\": []\n}\n", "x"), json);
  EXPECT_EQ(*SniffGraphText("[{\"name\": \"x\",\n  \"op\": 1}]", "x"), json);
  EXPECT_FALSE(SniffGraphText("[user@host dir]$ TORCH_LOGS=graph_code python a.py\n", "x").ok());
  std::string log = Write("prompt.log",
                          "[user@host dir]$ TORCH_LOGS=\"recompiles\" python b.py\n"
                          "V0703 10:34:13.273000 140345997743104 torch/_dynamo/guards.py:2590] [0/1] [__recompiles] "
                          "Recompiling function f in /data/users/ezyang/a/pytorch/b.py:3\n");
  EXPECT_EQ(RowOf(log), "torch-logs");
  std::string broken = Write("broken.json", "{\"nodes\": [\n  {\"name\" 1}\n]}\n");
  EXPECT_EQ(RowOf(broken), "json");  // its start is JSON: the JSON reader says what is wrong
}

TEST_F(FormatsRegistryTest, RefusalListsEveryFormatTheRegistryReads) {
  std::string path = Write("notes.txt", "hello world\n");
  EXPECT_EQ(SniffInput(path), nullptr);
  Result<const InputFormat*> row = SniffGraphText("hello world\n", path);
  ASSERT_FALSE(row.ok());
  std::string message(row.status().message());
  EXPECT_NE(message.find(path + ":1:1: unrecognized graph format: the file starts with \"hello world\""),
            std::string::npos)
      << message;
  for (const InputFormat& format : InputFormats()) {
    if (format.name == "ge-builder") continue;  // recognised only to be refused
    EXPECT_NE(message.find(format.description), std::string::npos) << format.name;
  }
  // The reasons of their own: NUL bytes (with where), an empty file, GE builder code.
  Result<const InputFormat*> nul = SniffGraphText(std::string_view("graph\0", 6), "bin");
  ASSERT_FALSE(nul.ok());
  EXPECT_NE(std::string(nul.status().message()).find("NUL byte at offset 5"), std::string::npos);
  Result<const InputFormat*> empty = SniffGraphText("\n# only a comment\n", "e.txt");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(std::string(empty.status().message()).find("e.txt:1:1: the file is empty"), std::string::npos);
  const InputFormat* ge = FindInputFormat("ge-builder");
  ASSERT_NE(ge, nullptr);
  std::vector<std::string> warnings;
  Result<std::unique_ptr<Graph>> refused = ge->read("", "g.py", {}, &warnings);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(std::string(refused.status().message()).find("g.py:1:1: a GE graph's builder code"), std::string::npos);
}

TEST_F(FormatsRegistryTest, OnlyRegularFilesArePeekedAt) {
  // A missing path, and a FIFO (opening it would wait for a writer): no row.
  EXPECT_EQ(SniffInput((root_ / "missing.log").string()), nullptr);
  std::string fifo = (root_ / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(SniffInput(fifo), nullptr);
}

TEST_F(FormatsRegistryTest, LogPrefixesAreNotJsonButGraphsAreNotLogs) {
  // `[2025-...] [0/0] torch._dynamo...` starts with `[` as JSON does: a log.
  std::string log = Write("a.log",
                          "[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG] "
                          "TRACED GRAPH\n");
  EXPECT_EQ(RowOf(log), "torch-logs");
  // FX text that mentions a log message later is still a graph.
  std::string fx = Write("g.txt",
                         "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return (x,)\n"
                         "# TRACED GRAPH\n");
  EXPECT_EQ(RowOf(fx), "fx");
  // A log that prints a GE graph's builder code is a log, not that code.
  // (Its first line is no `[`-prefixed one, which would pass for a log's in any case.)
  std::string printed =
      Write("ge.log",
            "V0515 09:03:07.649000 9569 torch/_dynamo/output_graph.py:1157] [0/0] [__graph_code] TRACED GRAPH\n"
            "from torchair._ge_concrete_graph import ge_apis as ge\n");
  EXPECT_EQ(RowOf(printed), "torch-logs");
  std::string code = Write("dump.py", "from torchair._ge_concrete_graph import ge_apis as ge\n");
  EXPECT_EQ(RowOf(code), "ge-builder");
}

TEST_F(FormatsRegistryTest, DefaultNamesStripTheRowsExtensions) {
  EXPECT_EQ(DefaultGraphName("a/b/mlp.graph.txt"), "mlp");
  EXPECT_EQ(DefaultGraphName("mlp.readable.py"), "mlp");
  EXPECT_EQ(DefaultGraphName("run.log.txt"), "run");
  EXPECT_EQ(DefaultGraphName("model.ge.txt"), "model");
  EXPECT_EQ(DefaultGraphName("x.pbtxt"), "x");
  EXPECT_EQ(DefaultGraphName("my model.json"), "my_model");
  EXPECT_EQ(DefaultGraphName(".json"), "_json");  // nothing left: the name is not stripped away
  EXPECT_EQ(DefaultGraphName(""), "graph");
  // Every extension a row lists is stripped.
  for (const InputFormat& row : InputFormats()) {
    for (std::string_view ext : row.extensions) EXPECT_EQ(DefaultGraphName(fmt::format("m{}", ext)), "m") << ext;
  }
}

TEST_F(FormatsRegistryTest, HelpListsEveryRow) {
  std::string help = InputFormatsHelp();
  for (const InputFormat& row : InputFormats()) {
    EXPECT_NE(help.find("  " + std::string(row.name) + " "), std::string::npos) << row.name;
  }
  for (size_t start = 0, end; start < help.size(); start = end + 1) {
    end = help.find('\n', start);
    EXPECT_LE(end - start, 110u) << help.substr(start, end - start);
  }
}

// `load --shapes` sets one graph's inputs: every row that is not one graph
// says, in its own words, why --shapes does not apply; a graph row never does.
TEST_F(FormatsRegistryTest, ShapesAreRefusedByEveryRowThatIsNotOneGraph) {
  for (const InputFormat& row : InputFormats()) {
    std::string refusal = ShapesRefusal(row, "in.x");
    if (row.kind == InputKind::kGraph) {
      EXPECT_EQ(refusal, "") << row.name;
      continue;
    }
    EXPECT_FALSE(row.noun.empty()) << row.name;
    EXPECT_TRUE(refusal.starts_with(fmt::format("in.x is a {}", row.noun))) << refusal;
    EXPECT_NE(refusal.find("load it without --shapes"), std::string::npos) << refusal;
  }
  const InputFormat* trace = FindInputFormat("trace");
  ASSERT_NE(trace, nullptr);
  EXPECT_NE(ShapesRefusal(*trace, "t.log").find("(e.g. 0/0:dynamo_output_graph)"), std::string::npos);
}

}  // namespace
}  // namespace airscope
