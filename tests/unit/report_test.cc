// The HTML report: its pieces (escaping, templates, the side-by-side diff,
// the timeline and memory drawings), the site WriteReport writes and how it
// replaces an earlier one, layouts in parallel child processes, and the
// session transcript the index shows. tests/report/check_report.sh opens
// real reports in headless Chromium.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/child_process.h"
#include "core/file_util.h"
#include "bench/llm_graph.h"
#include "core/fx/readable.h"
#include "core/pass/graph_diff.h"
#include "repl/report_collector.h"
#include "shell_test_util.h"
#include "viz/report/report_assets.h"
#include "viz/report/report_html.h"
#include "viz/report/report_writer.h"
#include "viz/report/side_by_side.h"
#include "viz/report/stack_tree.h"
#include "viz/report/timeline_svg.h"
#include "tests/unit/graph_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::string ReadText(const fs::path& path) {
  Result<std::string> text = ReadFile(path.string());
  return text.ok() ? *text : std::string();
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / fmt::format("airscope-report-test-{}-{}", ::getpid(), counter_++)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

TEST(ReportHtml, ScriptJsonCannotEndTheScriptItSitsIn) {
  std::string json = ScriptJson(nlohmann::json{{"name", "</script><script>alert(1)</script>"}, {"u", "é"}});
  EXPECT_EQ(json.find("</"), std::string::npos) << json;
  EXPECT_NE(json.find("<\\/script>"), std::string::npos) << json;
  EXPECT_NE(json.find("\\u00e9"), std::string::npos) << json;  // non-ASCII as \u escapes
  EXPECT_EQ(nlohmann::json::parse(json)["name"], "</script><script>alert(1)</script>");
}

TEST(ReportHtml, EveryTemplateParsesAndEmptyStringsAreFalse) {
  for (const char* name : {"index", "graph", "stage", "log", "device"}) {
    Result<std::string> page = RenderPage(name, nlohmann::json{{"title", "t"}, {"nav", nlohmann::json::array()}});
    ASSERT_TRUE(page.ok()) << name << ": " << page.status().message();
    EXPECT_NE(page->find("</html>"), std::string::npos) << name;
  }
  Result<std::string> with_error = RenderPage("stage", {{"error", "boom <b>"}, {"nav", nlohmann::json::array()}});
  Result<std::string> without = RenderPage("stage", {{"error", ""}, {"nav", nlohmann::json::array()}});
  ASSERT_TRUE(with_error.ok() && without.ok());
  EXPECT_NE(with_error->find("<pre class=\"error\">boom &lt;b&gt;</pre>"), std::string::npos);
  EXPECT_EQ(without->find("class=\"error\""), std::string::npos);
  EXPECT_FALSE(RenderPage("no_such_page", {}).ok());
  EXPECT_FALSE(ReportAsset("assets/report.js").empty());
}

TEST(SideBySide, PairsRemovalsWithAdditionsAndFoldsFarContext) {
  std::string a, b;
  for (int i = 0; i < 20; ++i) {
    a += fmt::format("line {}\n", i);
    b += i == 10 ? "changed <10>\n" : fmt::format("line {}\n", i);
  }
  b += "appended\n";
  std::string html = SideBySideDiffHtml(a, b, {.context = 2, .max_rows = 100});
  EXPECT_EQ(Count(html, "<tr class=\"mod\">"), 1u);
  EXPECT_EQ(Count(html, "<tr class=\"ins\">"), 1u);
  EXPECT_EQ(Count(html, "<tr class=\"del\">"), 0u);
  EXPECT_NE(html.find("changed &lt;10&gt;"), std::string::npos);
  EXPECT_NE(html.find("8 unchanged lines"), std::string::npos) << html;  // lines 0-7 fold
  EXPECT_NE(html.find("5 unchanged lines"), std::string::npos) << html;  // 13-17 fold, 18-19 are context
  std::string capped = SideBySideDiffHtml(a, b, {.context = 2, .max_rows = 3});
  EXPECT_NE(capped.find("more rows not shown"), std::string::npos);
  EXPECT_EQ(SideBySideDiffHtml("same\n", "same\n").find("<tr class=\"eq\">"), std::string::npos);  // all folded
}

Trace TwoStreamTrace() {
  Trace t;
  t.title = "replay <x>";
  t.device = "test";
  t.tracks = {"host", "default", "stream_1"};
  t.slices = {
      {0, SliceCategory::kGraphLaunch, "graph launch", 0, 1000, 0, -1},
      {2, SliceCategory::kKernel, "mm", 1000, 10000, 0, 0},
      {2, SliceCategory::kEvent, "record e", 11000, 0, 0, 1},
      {1, SliceCategory::kWait, "wait e", 1000, 10000, 0, 2},
      {1, SliceCategory::kKernel, "add", 11000, 4000, 0, 3},
      {1, SliceCategory::kKernel, "late", 40000, 1000, 0, 4},
  };
  t.flows = {{FlowKind::kEvent, 2, 3}};
  t.counters = {{"allocated (graph)", 1000, 4096}, {"allocated (graph)", 41000, 0}, {"reserved", 0, 2 << 20}};
  t.end_ns = 41000;
  return t;
}

TEST(TimelineSvg, OneRowPerStreamEventArrowsAndIdleGaps) {
  std::string svg = TimelineSvg(TwoStreamTrace());
  EXPECT_EQ(Count(svg, "class=\"host-row\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"stream-row\""), 2u);
  EXPECT_EQ(Count(svg, "class=\"event-flow\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"gap\""), 1u) << svg;  // default is idle between add and late
  EXPECT_NE(svg.find("replay &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("replay <x>"), std::string::npos);
}

TEST(TimelineSvg, TheTasksCheckNamesAreOutlinedAndJoinedOnlyWhenMarked) {
  TimelineSvgOptions marked;
  marked.marks = {{0, "race with add"}, {3, "race with mm"}};  // mm and add: tasks 0 and 3
  marked.links = {{0, 3, "race: buffer <x>"}};
  std::string svg = TimelineSvg(TwoStreamTrace(), marked);
  EXPECT_EQ(Count(svg, "class=\"slice k-kernel hazard\""), 2u) << svg;
  EXPECT_EQ(Count(svg, "hazard\""), 2u) << svg;  // nothing else
  EXPECT_NE(svg.find("; check: race with add"), std::string::npos) << svg;
  EXPECT_EQ(Count(svg, "class=\"hazard-link\""), 1u) << svg;
  EXPECT_NE(svg.find("race: buffer &lt;x&gt;"), std::string::npos) << svg;
  // Without marks: the drawing it always was.
  std::string plain = TimelineSvg(TwoStreamTrace());
  EXPECT_EQ(plain.find("hazard"), std::string::npos) << plain;
  EXPECT_EQ(plain, TimelineSvg(TwoStreamTrace(), TimelineSvgOptions{}));
}

TEST(TimelineSvg, SlicesThinnerThanHalfAPixelAreMerged) {
  Trace t;
  t.tracks = {"host", "default"};
  for (int i = 0; i < 10000; ++i) t.slices.push_back({1, SliceCategory::kKernel, "k", i * 100, 50, 0, i});
  t.end_ns = 1000000;
  TimelineSvgOptions options;
  options.width = 1130;  // 1000 pixels of time: 100 ns/pixel
  std::string svg = TimelineSvg(t, options);
  size_t rects = Count(svg, "class=\"slice ");
  EXPECT_LT(rects, 2000u);
  EXPECT_GT(Count(svg, "class=\"slice k-many\""), 0u);
  EXPECT_NE(svg.find("tasks from"), std::string::npos);
}

TEST(MemorySvg, OneLinePerCounterAndNothingWithoutCounters) {
  std::string svg = MemorySvg(TwoStreamTrace());
  EXPECT_EQ(Count(svg, "<polyline class=\"series"), 2u);
  EXPECT_NE(svg.find("allocated (graph) (peak 4.0 KiB)"), std::string::npos) << svg;
  Trace empty;
  empty.tracks = {"host"};
  EXPECT_EQ(MemorySvg(empty), "");
}

TEST(ChildProcesses, ResultsComeBackInOrderWhateverFinishesFirst) {
  std::vector<ChildWork> works;
  for (int i = 0; i < 5; ++i) {
    works.push_back({fmt::format("work {}", i), [i]() -> Result<std::string> {
                       ::usleep(static_cast<useconds_t>((5 - i) * 20000));  // the last finishes first
                       if (i == 3) return Status::Error("three fails");
                       return fmt::format("result {}", i);
                     }});
  }
  std::vector<Result<std::string>> results = RunInChildProcesses(works, 2);
  ASSERT_EQ(results.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    if (i == 3) {
      ASSERT_FALSE(results[i].ok());
      EXPECT_EQ(results[i].status().message(), "three fails");
    } else {
      ASSERT_TRUE(results[i].ok()) << results[i].status().message();
      EXPECT_EQ(*results[i], fmt::format("result {}", i));
    }
  }
}

std::shared_ptr<const Graph> ParseReportGraph(std::string_view text) { return testing_util::ParseModule(text); }

// A graph stepped through two passes: the first adds `neg`, the second changes nothing.
ReportData SmallReport() {
  std::shared_ptr<const Graph> input = ParseReportGraph(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4]\"):\n"
      "        abs_1: \"f32[4]\" = torch.ops.aten.abs.default(x)\n"
      "        return (abs_1,)\n");
  std::shared_ptr<const Graph> after = ParseReportGraph(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4]\"):\n"
      "        abs_1: \"f32[4]\" = torch.ops.aten.abs.default(x)\n"
      "        neg: \"f32[4]\" = torch.ops.aten.neg.default(abs_1)\n"
      "        return (neg,)\n");
  ReportData data;
  data.title = "test report";
  data.version = "0";
  ReportGraph graph;
  graph.name = "g<1>";
  graph.source = "test.py (readable)";
  graph.loaded = input;
  graph.pipeline = {"add_neg", "nothing", "not_run"};
  graph.stages.push_back({0, "input", "input", false, 0, 3, {}, "", input, ""});
  graph.stages.push_back(
      {1, "add_neg", "ran", true, 1e-5, 4, {"added <neg>"}, "", after, "output 0 now holds a different value"});
  graph.stages.push_back({2, "nothing", "ran", false, 1e-6, 4, {}, "", after, ""});
  graph.calls = {{1, "x=f32[4]", "compiled", "0/0"}, {2, "x=f32[4]", "hit", "0/0"}};
  data.graphs.push_back(graph);
  data.commands.push_back({"-c", 1, "echo <img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>\n", ""});
  data.commands.push_back({"-c", 2, "bogus", "", "unknown command \"bogus\""});
  data.device.preset = "test";
  data.device.trace = TwoStreamTrace();
  data.device.checks = {{"g<1>", "check: 1 hazard(s): race <here>"}};
  return data;
}

TEST(WriteReport, WritesEveryPageWithTheChangesOfEachStage) {
  TempDir dir;
  fs::path out = dir.path() / "report";
  Result<ReportSummary> summary = WriteReport(SmallReport(), out.string());
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->drawings, 2u);  // two distinct graphs: input and after add_neg
  for (const char* file : {"index.html", "graph-0.html", "stage-0-0.html", "stage-0-1.html", "stage-0-2.html",
                           "compare-0-0-1.html", "device.html", "trace.json", "data/svg-0-0.js", "data/svg-0-1.js",
                           "assets/report.js", "assets/report.css", "airscope-report.json"}) {
    EXPECT_TRUE(fs::exists(out / file)) << file;
  }
  std::string stage1 = ReadText(out / "stage-0-1.html");
  EXPECT_EQ(Count(stage1, "class=\"change added\""), 1u);
  EXPECT_NE(stage1.find("<li class=\"change added\">neg</li>"), std::string::npos);
  EXPECT_NE(stage1.find("<li class=\"change changed\">output"), std::string::npos);
  EXPECT_NE(stage1.find("added &lt;neg&gt;"), std::string::npos);
  // A TorchAir pass's change of effects is said on its stage page, as an error is.
  EXPECT_NE(stage1.find("<p class=\"error\">This TorchAir pass changes what the graph computes: output 0 now holds a "
                        "different value."),
            std::string::npos);
  EXPECT_EQ(ReadText(out / "stage-0-2.html").find("changes what the graph computes"), std::string::npos);
  EXPECT_NE(stage1.find("class=\"sbs\""), std::string::npos);
  EXPECT_NE(stage1.find("<script src=\"data/svg-0-1.js\">"), std::string::npos);
  EXPECT_EQ(stage1.find("data-lazy=\"1\""), std::string::npos);  // a small earlier drawing is shown at once
  ReportOptions lazy_before;
  lazy_before.max_eager_before_nodes = 2;
  ASSERT_TRUE(WriteReport(SmallReport(), (dir.path() / "lazy").string(), lazy_before).ok());
  EXPECT_NE(ReadText(dir.path() / "lazy" / "stage-0-1.html").find("data-lazy=\"1\""), std::string::npos);
  std::string stage2 = ReadText(out / "stage-0-2.html");
  EXPECT_NE(stage2.find("it is the graph of stage 1"), std::string::npos);
  // The input and an unchanged stage draw their graph whole (a "drawing" key was once shadowed by the partial).
  EXPECT_NE(stage2.find("<div class=\"drawing\" data-role=\"after\">"), std::string::npos) << stage2;
  EXPECT_NE(ReadText(out / "stage-0-0.html").find("<script src=\"data/svg-0-0.js\">"), std::string::npos);
  std::string graph = ReadText(out / "graph-0.html");
  EXPECT_NE(graph.find("g&lt;1&gt;"), std::string::npos);
  EXPECT_NE(graph.find("Not run yet: not_run"), std::string::npos);
  EXPECT_NE(graph.find("\"pages\":{\"0-1\":\"compare-0-0-1.html\"}"), std::string::npos) << graph;
  EXPECT_EQ(Count(graph, "<tr class=\"call-"), 2u);
  EXPECT_NE(graph.find("<tr class=\"call-hit\"><td class=\"num\">2</td>"), std::string::npos);
  std::string index = ReadText(out / "index.html");
  EXPECT_EQ(index.find("<img"), std::string::npos);  // a command's text and output are escaped
  EXPECT_NE(index.find("echo &lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(index.find("class=\"command failed\""), std::string::npos);
  std::string device = ReadText(out / "device.html");
  EXPECT_EQ(Count(device, "class=\"stream-row\""), 2u);
  EXPECT_NE(device.find("race &lt;here&gt;"), std::string::npos);
  std::string svg = ReadText(out / "data/svg-0-1.js");
  EXPECT_EQ(svg.rfind("(window.AIRSCOPE_SVG = window.AIRSCOPE_SVG || {})[\"0-1\"] = \"<svg", 0), 0u)
      << svg.substr(0, 80);
}

// SmallReport with `check` finding a race between abs_1 and neg in its last
// graph, and the run's two kernels named by it.
ReportData RacyReport() {
  ReportData data = SmallReport();
  ReportGraph& graph = data.graphs[0];
  graph.checked = graph.stages.back().graph;
  graph.hazards = {{"race", "abs_1", "neg", "buffer 'abs_1': <both write it>"}};
  data.device.trace_marks = {{0, "race with add"}, {3, "race with mm"}};
  data.device.trace_links = {{0, 3, "race: <both write it>"}};
  return data;
}

TEST(WriteReport, TheStagePagesAndTheDevicePageMarkWhatCheckFinds) {
  TempDir dir;
  fs::path out = dir.path() / "report";
  ASSERT_TRUE(WriteReport(RacyReport(), out.string()).ok());
  // The drawing of the checked graph (stages 1 and 2 share it) marks both nodes and the edge.
  std::string drawn = ReadText(out / "data/svg-0-1.js");
  EXPECT_NE(drawn.find("race with neg"), std::string::npos);
  EXPECT_NE(drawn.find("race with abs_1"), std::string::npos);
  EXPECT_NE(drawn.find("#dc2626"), std::string::npos);
  // The input is not the graph check checks: drawn unmarked.
  EXPECT_EQ(ReadText(out / "data/svg-0-0.js").find("#dc2626"), std::string::npos);
  for (const char* page : {"stage-0-1.html", "stage-0-2.html"}) {
    std::string html = ReadText(out / page);
    EXPECT_NE(html.find("Hazards between streams (check)"), std::string::npos) << page;
    EXPECT_NE(html.find("<a class=\"find-node\" href=\"#find=abs_1\">abs_1</a>"), std::string::npos) << page;
    EXPECT_NE(html.find("<a class=\"find-node\" href=\"#find=neg\">neg</a>"), std::string::npos) << page;
    EXPECT_NE(html.find("&lt;both write it&gt;"), std::string::npos) << page;
    EXPECT_NE(html.find("data-hazards=\"[&quot;abs_1&quot;,&quot;neg&quot;]\""), std::string::npos) << page;
  }
  EXPECT_EQ(ReadText(out / "stage-0-0.html").find("Hazards between"), std::string::npos);
  // The device page: the list beside check's text, linked to the last stage's drawing, and the timeline's marks.
  std::string device = ReadText(out / "device.html");
  EXPECT_NE(device.find("<a class=\"find-node\" href=\"stage-0-2.html#find=abs_1\">abs_1</a>"), std::string::npos)
      << device;
  EXPECT_EQ(Count(device, "class=\"slice k-kernel hazard\""), 2u);
  EXPECT_EQ(Count(device, "class=\"hazard-link\""), 1u);
  // A report without findings has none of it.
  ASSERT_TRUE(WriteReport(SmallReport(), (dir.path() / "clean").string()).ok());
  for (const char* file : {"data/svg-0-1.js", "stage-0-2.html", "device.html"}) {
    std::string text = ReadText(dir.path() / "clean" / file);
    EXPECT_EQ(text.find("#dc2626"), std::string::npos) << file;
    for (const char* mark : {"hazard-kind", " hazard\"", "hazard-link", "data-hazards", "find-node"}) {
      EXPECT_EQ(text.find(mark), std::string::npos) << file << ": " << mark;
    }
  }
}

// The shell's side: the seed race found where check runs without compiling,
// on the last stage's graph, and on the replay that ran its tasks.
TEST(CollectReport, TakesCheckFindingsForTheCheckedGraphAndTheRunOfItsTasks) {
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter
                  .RunCommandText("load " + testing_util::kData +
                                  "/seed_multistream_lowered.json as seed\n"
                                  "capture\nreplay 2")
                  .ok())
      << shell.sink.text;
  Result<ReportData> data = CollectReport(shell.interpreter, "test");
  ASSERT_TRUE(data.ok()) << data.status().message();
  const ReportGraph& graph = data->graphs[0];
  EXPECT_EQ(graph.checked, graph.loaded);  // lowered as loaded, never stepped
  ASSERT_EQ(graph.hazards.size(), 1u);
  EXPECT_EQ(graph.hazards[0].kind, "race");
  EXPECT_EQ(graph.hazards[0].first, "abs_1");
  EXPECT_EQ(graph.hazards[0].second, "add");
  ASSERT_EQ(data->device.trace_links.size(), 1u);
  EXPECT_EQ(data->device.trace_marks.size(), 2u);
  ASSERT_EQ(data->device.checks.size(), 1u);
  EXPECT_NE(data->device.checks[0].second.find("1 hazard(s)"), std::string::npos);
}

TEST(CollectReport, RankLogsIndexComesCompilesFirstWithAFixedNavAndTheRightCurrentGraph) {
  // The real rank logs of tlparse's tests (4 ranks, 29 graphs), then a model
  // graph made current: the report tried at 62 graphs put a link per graph in
  // every page's bar, opened the index with 3-node graphs, lost the ranks'
  // divergence and starred the first graph.
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter
                  .RunCommandText("load " + testing_util::kData + "/torch_trace/multi_rank\nload " +
                                  testing_util::kData + "/mlp.readable.py")
                  .ok())
      << shell.sink.text;
  Result<ReportData> data = CollectReport(shell.interpreter, "test");
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_EQ(data->graphs.size(), 30u);
  EXPECT_EQ(data->graphs[data->current_graph].name, "mlp");
  ASSERT_EQ(data->logs.size(), 1u);
  EXPECT_NE(data->logs[0].divergence_text.find("compile ids only on rank 3: 0/2, 0/3, 0/4, 0/5, 0/6"),
            std::string::npos)
      << data->logs[0].divergence_text;
  TempDir dir;
  ASSERT_TRUE(WriteReport(*data, dir.path().string()).ok());
  std::string index = ReadText(dir.path() / "index.html");
  EXPECT_LT(index.find("id=\"compiles\""), index.find("id=\"graphs\""));
  EXPECT_NE(index.find("<tr class=\"current\"><td><a href=\"graph-29.html\">mlp</a>"), std::string::npos);
  EXPECT_NE(index.find("29 graph(s) of"), std::string::npos);  // the log's, folded
  std::string nav = index.substr(index.find("<nav>"), index.find("</nav>") - index.find("<nav>"));
  EXPECT_EQ(Count(nav, "<a "), 5u) << nav;  // index, compiles, graphs, the log, device
  EXPECT_NE(ReadText(dir.path() / "log-0.html").find("Where the ranks diverge"), std::string::npos);
}

TEST(WriteReport, AGraphTooBigToDrawShowsItsFoldedTextInline) {
  TempDir dir;
  ReportOptions options;
  options.max_drawn_nodes = 1;  // every graph is "too big"
  options.folded_fx = [](const Graph& graph) { return fmt::format("graph():\n    # {} nodes, folded", graph.size()); };
  ASSERT_TRUE(WriteReport(SmallReport(), dir.path().string(), options).ok());
  EXPECT_NE(ReadText(dir.path() / "stage-0-1.html").find("# 4 nodes, folded"), std::string::npos);
  ReportOptions plain;
  plain.max_drawn_nodes = 1;
  TempDir other;
  ASSERT_TRUE(WriteReport(SmallReport(), other.path().string(), plain).ok());
  EXPECT_EQ(ReadText(other.path() / "stage-0-1.html").find("folded"), std::string::npos);
}

// Nothing of a staging folder (`.airscope-report-XXXXXX`) or a temp file left in `dir`.
void ExpectNoLeftovers(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".airscope-"), std::string::npos) << entry.path();
  }
}

std::vector<std::string> ManifestFiles(const fs::path& report) {
  nlohmann::json manifest = nlohmann::json::parse(ReadText(report / "airscope-report.json"));
  return manifest.at("files").get<std::vector<std::string>>();
}

TEST(WriteReport, ReplacesOnlyWhatAnEarlierReportListed) {
  TempDir dir;
  fs::path out = dir.path() / "report";
  ASSERT_TRUE(WriteReport(SmallReport(), out.string()).ok());
  std::vector<std::string> files = ManifestFiles(out);
  EXPECT_NE(std::find(files.begin(), files.end(), "index.html"), files.end());
  EXPECT_NE(std::find(files.begin(), files.end(), "data/svg-0-1.js"), files.end());
  // A page an earlier report listed and this one does not write is deleted with it.
  nlohmann::json manifest = nlohmann::json::parse(ReadText(out / "airscope-report.json"));
  manifest["files"].push_back("stage-0-9.html");
  ASSERT_TRUE(WriteFile((out / "airscope-report.json").string(), manifest.dump()).ok());
  ASSERT_TRUE(WriteFile((out / "stage-0-9.html").string(), "old page").ok());
  ASSERT_TRUE(WriteReport(SmallReport(), out.string()).ok());
  EXPECT_FALSE(fs::exists(out / "stage-0-9.html"));
  EXPECT_TRUE(fs::exists(out / "index.html"));
  ExpectNoLeftovers(dir.path());

  // A file the user added inside the report: refused, named, never deleted.
  ASSERT_TRUE(WriteFile((out / "notes.txt").string(), "keep me").ok());
  ASSERT_TRUE(WriteFile((out / "index.html").string(), "the earlier index").ok());
  Result<ReportSummary> refused = WriteReport(SmallReport(), out.string());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("holds an earlier report and files it did not write (notes.txt)"),
            std::string::npos)
      << refused.status().message();
  EXPECT_EQ(ReadText(out / "notes.txt"), "keep me");
  EXPECT_EQ(ReadText(out / "index.html"), "the earlier index");
  ExpectNoLeftovers(dir.path());
  // --force: the report's files replaced, the user's kept and left out of the manifest.
  ReportOptions force;
  force.force = true;
  ASSERT_TRUE(WriteReport(SmallReport(), out.string(), force).ok());
  EXPECT_EQ(ReadText(out / "notes.txt"), "keep me");
  EXPECT_NE(ReadText(out / "index.html"), "the earlier index");
  files = ManifestFiles(out);
  EXPECT_EQ(std::find(files.begin(), files.end(), "notes.txt"), files.end());
  ExpectNoLeftovers(dir.path());
  ExpectNoLeftovers(out);
}

TEST(WriteReport, NeverTouchesWhatNoReportOfItsOwnWrote) {
  TempDir dir;
  // A folder of the user's, with a file that only happens to be named like the manifest.
  fs::path mine = dir.path() / "mine";
  ASSERT_TRUE(WriteFile((mine / "notes.txt").string(), "keep me").ok());
  ASSERT_TRUE(WriteFile((mine / "airscope-report.json").string(), "{\"mine\": true}").ok());
  Result<ReportSummary> refused = WriteReport(SmallReport(), mine.string());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("holds files no airscope report listed as its own "
                                            "(airscope-report.json, notes.txt)"),
            std::string::npos)
      << refused.status().message();
  EXPECT_EQ(ReadText(mine / "notes.txt"), "keep me");
  EXPECT_EQ(ReadText(mine / "airscope-report.json"), "{\"mine\": true}");
  // A report of the version that listed no files is not trusted either.
  fs::path v1 = dir.path() / "v1";
  ASSERT_TRUE(WriteFile((v1 / "airscope-report.json").string(), R"({"format": "airscope-report", "version": 1})").ok());
  ASSERT_TRUE(WriteFile((v1 / "index.html").string(), "old").ok());
  EXPECT_FALSE(WriteReport(SmallReport(), v1.string()).ok());
  EXPECT_EQ(ReadText(v1 / "index.html"), "old");
  // A folder that happens to sit at the old staging name is not ours to delete.
  fs::path out = dir.path() / "report";
  fs::path partial = dir.path() / fmt::format("report.partial-{}", ::getpid());
  ASSERT_TRUE(WriteFile((partial / "precious").string(), "mine").ok());
  ASSERT_TRUE(WriteReport(SmallReport(), out.string()).ok());
  EXPECT_EQ(ReadText(partial / "precious"), "mine");
  // Not a directory at all.
  fs::path file = dir.path() / "a_file";
  ASSERT_TRUE(WriteFile(file.string(), "x").ok());
  EXPECT_FALSE(WriteReport(SmallReport(), file.string()).ok());
  EXPECT_EQ(ReadText(file), "x");
  ExpectNoLeftovers(dir.path());
}

TEST(WriteReport, FollowsASymlinkedDirAndKeepsTheLink) {
  TempDir dir;
  fs::path real = dir.path() / "real";
  fs::path link = dir.path() / "link";
  fs::create_directories(real);
  fs::create_directory_symlink("real", link);
  ASSERT_TRUE(WriteReport(SmallReport(), link.string()).ok());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_TRUE(fs::exists(real / "index.html"));
  ASSERT_TRUE(WriteReport(SmallReport(), link.string()).ok());  // over the earlier report, through the link
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_TRUE(fs::exists(real / "index.html"));
  // A dangling link: the report goes where it points.
  fs::path dangling = dir.path() / "dangling";
  fs::create_directory_symlink("later", dangling);
  ASSERT_TRUE(WriteReport(SmallReport(), dangling.string()).ok());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dangling)));
  EXPECT_TRUE(fs::exists(dir.path() / "later" / "index.html"));
  ExpectNoLeftovers(dir.path());
}

TEST(WriteReport, RefusesTheWorkingDirectoryAndItsAncestors) {
  TempDir dir;
  fs::path inner = dir.path() / "session";
  fs::create_directories(inner);
  ASSERT_TRUE(WriteFile((inner / "model.py").string(), "mine").ok());
  fs::path was = fs::current_path();
  fs::current_path(inner);
  for (const std::string& target : std::vector<std::string>{".", "..", inner.string(), "/", "./"}) {
    Result<ReportSummary> refused = WriteReport(SmallReport(), target, [] {
      ReportOptions force;
      force.force = true;  // not even with --force
      return force;
    }());
    EXPECT_FALSE(refused.ok()) << target;
    if (!refused.ok()) {
      EXPECT_NE(refused.status().message().find("is the working directory or holds it"), std::string::npos)
          << refused.status().message();
    }
  }
  fs::current_path(was);
  EXPECT_EQ(ReadText(inner / "model.py"), "mine");
  EXPECT_FALSE(fs::exists(inner / "index.html"));
  ExpectNoLeftovers(dir.path());
}

TEST(Transcript, RecordsCommandsBlocksAndErrorsButNotCapturedWork) {
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("echo hello\nbogus").ok() == false);
  ASSERT_TRUE(shell.interpreter
                  .RunCommandText("pass define p\n  on aten.abs.default: replace with aten.neg.default($arg0)\nend")
                  .ok());
  CommandOutput captured;
  ASSERT_TRUE(shell.interpreter.ExecuteCaptured("echo captured", &captured).ok());
  const auto& t = shell.session.transcript();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].text, "echo hello");
  EXPECT_EQ(t[0].output, "hello\n");
  EXPECT_EQ(t[0].origin, "-c");
  EXPECT_EQ(t[0].line, 1u);
  EXPECT_EQ(t[1].text, "bogus");
  EXPECT_NE(t[1].error.find("unknown command"), std::string::npos);
  EXPECT_EQ(t[2].text, "pass define p\n  on aten.abs.default: replace with aten.neg.default($arg0)\nend");
  EXPECT_EQ(t[2].line, 1u);
}

// The lines `diff` printed that fold alike hunks ("@@ x 282 alike hunks: ..."), less the "@@ ".
std::vector<std::string> AlikeLines(const std::string& printed) {
  std::vector<std::string> lines;
  std::istringstream in(printed);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("@@ x ")) lines.push_back(line.substr(3));
  }
  return lines;
}

// A pass that rewrites every layer of a 94-layer graph the same way (TorchAir's
// view_to_reshape on its views, optimize_noop_ops on its clones), reported as
// the shell runs it: the stage and compare pages show one hunk of each alike
// group and `diff`'s very line for the rest, not hundreds of rows, and the
// graph (too big to draw) as `show` folds it.
TEST(CollectReport, AStageOfRepeatedLayersFoldsAlikeChangesAsDiffDoes) {
  std::unique_ptr<Graph> llm = bench::LlmGraph(94, 1);
  ASSERT_GT(llm->size(), ReportOptions{}.max_drawn_nodes);
  std::string path = testing_shell::WriteTemp("report_llm94.py", PrintReadable(*llm));
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + path + " as llm\nrun until view_to_reshape").ok())
      << shell.sink.text;
  shell.sink.text.clear();
  ASSERT_TRUE(shell.interpreter.RunCommandText("diff view_to_reshape").ok());
  std::vector<std::string> reshape = AlikeLines(shell.sink.text);
  shell.sink.text.clear();
  ASSERT_TRUE(shell.interpreter.RunCommandText("diff optimize_noop_ops").ok());
  std::vector<std::string> noop = AlikeLines(shell.sink.text);
  ASSERT_EQ(reshape.size(), 2u);  // q, k and v's views (282), the merged heads' (94)
  ASSERT_EQ(noop.size(), 1u);     // a clone a layer
  EXPECT_NE(reshape[0].find("x 282 alike hunks"), std::string::npos) << reshape[0];
  EXPECT_NE(noop[0].find("x 94 alike hunks"), std::string::npos) << noop[0];
  EXPECT_NE(noop[0].find("in repeats 0-93 of 94 repeats"), std::string::npos) << noop[0];

  Result<ReportData> data = CollectReport(shell.interpreter, "test");
  ASSERT_TRUE(data.ok()) << data.status().message();
  TempDir dir;
  ASSERT_TRUE(WriteReport(*data, dir.path().string(), ShellReportOptions()).ok());
  std::string stage7 = ReadText(dir.path() / "stage-0-7.html");  // view_to_reshape
  std::string stage4 = ReadText(dir.path() / "stage-0-4.html");  // optimize_noop_ops
  for (const std::string& line : reshape) EXPECT_NE(stage7.find(HtmlEscape(line)), std::string::npos) << line;
  EXPECT_NE(stage4.find(HtmlEscape(noop[0])), std::string::npos) << noop[0];
  EXPECT_EQ(Count(stage7, "<tr class=\"mod\">"), 2u);  // one hunk of each group, of 376
  EXPECT_EQ(Count(stage7, "<tr class=\"alike\">"), 2u);
  EXPECT_NE(stage7.find("374 of 376 changes are alike to one shown and fold"), std::string::npos);
  EXPECT_NE(stage4.find("93 of 94 changes are alike"), std::string::npos);
  // A compare page folds the same way: stages 0 and 7 differ by both passes.
  std::string compare = ReadText(dir.path() / "compare-0-0-2.html");
  EXPECT_NE(compare.find("x 94 alike hunks"), std::string::npos);
  EXPECT_LT(Count(compare, "<tr class=\"mod\">") + Count(compare, "<tr class=\"del\">"), 10u);
  // Too big to draw whole: every stage page shows the graph as `show` folds it.
  for (const char* page : {"stage-0-0.html", "stage-0-4.html", "stage-0-7.html"}) {
    std::string html = ReadText(dir.path() / page);
    EXPECT_NE(html.find("each block of repeated layers once"), std::string::npos) << page;
    EXPECT_NE(html.find("94 repeats of"), std::string::npos) << page;
  }
}

TEST(SideBySide, HidesTheHunksTheFoldingLeavesOutAndSaysWhere) {
  // Five alike changes 10 lines apart, one of another kind at the end.
  std::string a, b;
  for (int i = 0; i < 60; ++i) {
    a += fmt::format("x{} = f(y{})\n", i, i);
    b += i % 10 == 5 && i < 50 ? fmt::format("x{} = g(y{})\n", i, i) : fmt::format("x{} = f(y{})\n", i, i);
  }
  b += "out = h(x59)\n";
  std::string seen;
  SideBySideOptions options{.context = 1, .max_rows = 100};
  // What FoldAlikeHunks makes of it: the first hunk and its line, the last hunk.
  options.fold = [&seen](std::string_view unified) {
    seen = unified;
    HunkFolding folding;
    folding.hidden = {false, true, true, true, true, false};
    folding.note_after = {"x 5 alike hunks: the same change <under other names>", "", "", "", "", ""};
    return folding;
  };
  SideBySide folded = SideBySideDiff(a, b, options);
  EXPECT_EQ(seen, UnifiedDiff(a, b, "a", "b", 0));  // the hook gets the diff without context
  EXPECT_EQ(folded.hunks, 6u);
  EXPECT_EQ(folded.folded, 4u);
  EXPECT_EQ(Count(folded.html, "<tr class=\"mod\">"), 1u) << folded.html;
  EXPECT_EQ(Count(folded.html, "<tr class=\"ins\">"), 1u);
  EXPECT_EQ(Count(folded.html, "<tr class=\"alike\">"), 1u);
  EXPECT_NE(folded.html.find("x 5 alike hunks: the same change &lt;under other names&gt;"), std::string::npos);
  // The alike line follows its hunk's row; the hidden ones are counted in the fold after it.
  EXPECT_LT(folded.html.find("<tr class=\"mod\">"), folded.html.find("<tr class=\"alike\">"));
  EXPECT_NE(folded.html.find("lines: 4 changes alike to one shown above"), std::string::npos) << folded.html;
  // Nothing folds: every hunk is shown.
  options.fold = [](std::string_view) { return HunkFolding(); };
  SideBySide plain = SideBySideDiff(a, b, options);
  EXPECT_EQ(plain.folded, 0u);
  EXPECT_EQ(Count(plain.html, "<tr class=\"mod\">"), 5u);
  // A folding that does not match these texts' hunks is ignored, not half applied.
  options.fold = [](std::string_view) { return HunkFolding{{false, true}, {"x 2 alike", ""}}; };
  SideBySide stray = SideBySideDiff(a, b, options);
  EXPECT_EQ(stray.folded, 0u);
  EXPECT_EQ(Count(stray.html, "<tr class=\"mod\">"), 5u);
  EXPECT_EQ(stray.html.find("alike"), std::string::npos);
}

// The frames of a stack, outermost first, as the compile index writes them.
std::vector<std::string> Frames(std::initializer_list<const char*> names) {
  std::vector<std::string> frames;
  int line = 1;
  for (const char* name : names) frames.push_back(fmt::format("/src/m.py:{} in {}", line++, name));
  return frames;
}

TEST(StackTree, SharedFramesOnceBranchesWhereStacksPartLongRunsFold) {
  std::vector<std::vector<std::string>> stacks = {
      Frames({"<module>", "main", "train", "step", "run", "call", "forward", "attn"}),
      Frames({"<module>", "main", "train", "step", "run", "call", "forward", "attn"}),  // a recompile
      Frames({"<module>", "main", "train", "step", "run", "call", "forward", "mlp", "act"}),
      {},  // no stack: left to the caller
  };
  std::vector<nlohmann::json> leaves = {{{"id", "0/0"}}, {{"id", "0/1"}}, {{"id", "1/0"}}, {{"id", "2/0"}}};
  nlohmann::json rows = StackTreeRows(stacks, leaves);
  std::vector<std::string> shape;
  for (const nlohmann::json& row : rows) {
    // row.items() is a temporary: its iterators must not outlive it.
    const std::string key = row.begin().key();
    const nlohmann::json& value = row.begin().value();
    std::string what = key;
    if (key == "st_frame" || key == "st_branch") what += " " + value["name"].get<std::string>();
    if (key == "st_fold")
      what += fmt::format(" {} {}..{}", value["count"].get<int>(), value["from"].get<std::string>(),
                          value["to"].get<std::string>());
    if (key == "st_here") {
      for (const nlohmann::json& leaf : value["st_compiles"]) what += " " + leaf["id"].get<std::string>();
    }
    shape.push_back(what);
  }
  std::vector<std::string> expected = {
      "st_fold 4 <module>..step",  // 6 frames before the stacks part: the outer 4 fold, the inner 2 stay
      "st_frame <module>",
      "st_frame main",
      "st_frame train",
      "st_frame step",
      "st_end",
      "st_frame run",
      "st_frame call",
      "st_frame forward",
      "st_branch attn",
      "st_here 0/0 0/1",
      "st_end",  // where the stacks part
      "st_branch mlp",
      "st_frame act",
      "st_here 1/0",
      "st_end",
  };
  EXPECT_EQ(shape, expected);
  EXPECT_EQ(rows[1]["st_frame"]["where"], "/src/m.py:1");
  // One stack is a plain list; no stack at all, no tree.
  nlohmann::json single = StackTreeRows({Frames({"<module>", "f"})}, {{{"id", "0/0"}}});
  EXPECT_EQ(
      single.dump(),
      R"([{"st_frame":{"name":"<module>","where":"/src/m.py:1"}},{"st_frame":{"name":"f","where":"/src/m.py:2"}},)"
      R"({"st_here":{"st_compiles":[{"id":"0/0"}]}}])");
  EXPECT_TRUE(StackTreeRows({{}, {}}, {{{"id", "a"}}, {{"id", "b"}}}).empty());
}

// A log of 100 compiles: 20 call sites under one long shared stack, each
// compiled 5 times (4 recompiles), and 2 compiles the log gives no stack.
ReportData HundredCompiles() {
  ReportData data = SmallReport();
  ReportLog log;
  log.path = "big.log";
  log.kind = "TORCH_TRACE log";
  for (int site = 0; site < 20; ++site) {
    for (int k = 0; k < 5; ++k) {
      ReportCompile c;
      c.id = fmt::format("{}/{}", site, k);
      c.status = k == 4 && site == 3 ? "failure" : "success";
      c.stack = Frames({"<module>", "main", "run_tests", "runTests", "run", "__call__", "train", "step"});
      c.stack.push_back(fmt::format("/src/model.py:{} in layer_{}", 10 + site, site));
      for (int r = k; r-- > 0;) c.recompile_reasons.push_back(fmt::format("{}/{}: size mismatch <{}>", site, r, r));
      c.graphs = {c.id + ":dynamo_output_graph", "g<1>"};
      log.compiles.push_back(std::move(c));
    }
  }
  for (const char* id : {"!0/0/0", "!0/1/0"}) {
    ReportCompile c;
    c.id = id;
    c.status = "-";
    log.compiles.push_back(std::move(c));
  }
  for (const ReportCompile& c : log.compiles) log.rows.push_back({c.id});
  data.logs.push_back(std::move(log));
  return data;
}

TEST(WriteReport, TheIndexShowsCompilesAsATreeOfTheirStacks) {
  TempDir dir;
  ASSERT_TRUE(WriteReport(HundredCompiles(), dir.path().string()).ok());
  std::string index = ReadText(dir.path() / "index.html");
  size_t tree = index.find("<div class=\"stack-tree\">");
  size_t table = index.find("<details class=\"compile-table\"");
  ASSERT_NE(tree, std::string::npos);
  EXPECT_LT(tree, table);  // the tree first, as tlparse's index opens with its stack trie
  EXPECT_EQ(Count(index, "<li class=\"branch\"><details open>"), 20u);  // a branch per call site
  EXPECT_EQ(Count(index, "<li class=\"fold\">"), 1u);                   // the shared outer frames, once
  EXPECT_EQ(Count(index, "<span class=\"fn\">main</span>"), 1u);
  // Every compile at its frame, linked to its table row and its graph's page; the newest reason in view.
  EXPECT_NE(index.find("<a class=\"cid status-success\" href=\"#compile-0-6\">1/1</a>"), std::string::npos);
  EXPECT_NE(index.find("<tr id=\"compile-0-6\">"), std::string::npos);
  EXPECT_NE(index.find("<a class=\"cid status-failure\" href=\"#compile-0-19\">3/4</a>"), std::string::npos);
  EXPECT_NE(index.find("<a class=\"graph\" href=\"graph-0.html\">g&lt;1&gt;</a>"), std::string::npos);
  EXPECT_NE(index.find("<span class=\"graph\">dynamo_output_graph</span>"), std::string::npos);  // no page
  EXPECT_NE(index.find("<div class=\"reason\">3/3: size mismatch &lt;3&gt;</div>"), std::string::npos);
  EXPECT_NE(index.find("3 more recompile reason(s)"), std::string::npos);
  // The two without a stack, apart and said so; the long table starts folded.
  EXPECT_NE(index.find("2 compile(s) have no stack in the log"), std::string::npos);
  EXPECT_NE(index.find("<a class=\"cid status-none\" href=\"#compile-0-100\">!0/0/0</a>"), std::string::npos);
  EXPECT_NE(index.find("<details class=\"compile-table\"><summary>the 102 compile(s)"), std::string::npos);
  // A log without any stack says so and opens its table.
  ReportData bare = SmallReport();
  ReportLog log;
  log.path = "text.log";
  log.compiles.push_back({});
  log.compiles.back().id = "0/0";
  bare.logs.push_back(log);
  TempDir other;
  ASSERT_TRUE(WriteReport(bare, other.path().string()).ok());
  std::string plain = ReadText(other.path() / "index.html");
  EXPECT_EQ(plain.find("<div class=\"stack-tree\">"), std::string::npos);
  EXPECT_NE(plain.find("No compile of this log has a stack"), std::string::npos);
  EXPECT_NE(plain.find("<details class=\"compile-table\" open>"), std::string::npos);
}

TEST(CollectReport, CompilesCarryTheStackTheirLogGives) {
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + testing_util::kData + "/torch_trace/comp_metrics.log").ok())
      << shell.sink.text;
  Result<ReportData> data = CollectReport(shell.interpreter, "test");
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_EQ(data->logs.size(), 1u);
  ASSERT_FALSE(data->logs[0].compiles.empty());
  const std::vector<std::string>& stack = data->logs[0].compiles[0].stack;
  ASSERT_FALSE(stack.empty());
  EXPECT_TRUE(stack.front().ends_with(":10079 in <module>")) << stack.front();
  EXPECT_TRUE(stack.back().ends_with(" in _fn")) << stack.back();
}

}  // namespace
}  // namespace airscope
