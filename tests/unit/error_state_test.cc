// Errors never lose state (issue 6, point 4): a failing load, pass, call,
// capture or dump leaves every loaded graph, pipeline stage, cache entry,
// setting and the simulated device as it was.
//
// Every test builds the same rich session through the interpreter (three
// graphs, a pipeline stepped half way with a breakpoint and a skip, a frame
// with two cache entries, a captured and replayed device graph, user passes
// and a user decomposition), takes a fingerprint of everything the user can
// see through read-only commands, runs one failing command, checks that it
// reported its error, and compares the fingerprint byte for byte. The
// fingerprint is itself checked to hold that state and to notice a change.
//
// Two things a failure leaves behind on purpose are reports, not lost state:
// `pipeline` shows the failed pass at the cursor until the cursor moves
// (core/pass/pipeline_run.h), and a failed capture becomes the device's last
// run, drawn with its error by `timeline` (core/device/simulator.h). The
// fingerprint reads the pipeline listing without that note, and the capture
// failures that replace the last run say so and check that it shows the error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "repl/cache_state.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "repl/tokenizer.h"
#include "shell_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

using testing_util::kData;

using Shell = testing_shell::TestShell;

// Where the bad files of the load cases are written: one directory per
// process, as ctest runs the cases in parallel processes.
std::string ScratchDir() { return fmt::format("{}/airscope_error_state.{}", testing::TempDir(), ::getpid()); }

void WriteScratchFiles() {
  std::filesystem::create_directories(ScratchDir());
  std::ofstream(ScratchDir() + "/truncated.json") << "{\"format\": \"airscope-graph\", \"version\": 1, \"nodes\": [\n";
  std::ofstream(ScratchDir() + "/unclosed.pbtxt") << "name: \"g\"\nnode {\n  name: \"x\"\n  op: \"Data\"\n";
  // Capture dumps (formats/aclgraph_json.h): cut short, and a Task Id that is no integer.
  std::ofstream(ScratchDir() + "/cut_dump.json")
      << "[\n{\"name\":\"EVENT_RECORD_0\",\"tid\":\"stream0\",\"ph\":\"X\",\"args\":{\"Task Type\":\"EVENT_RECORD\"";
  std::ofstream(ScratchDir() + "/bad_task_id_dump.json")
      << "[\n{\"name\":\"mm\",\"tid\":\"stream0\",\"ph\":\"X\",\"args\":{\"Task Id\":\"one\","
         "\"Task Type\":\"KERNEL_AICORE\"}}\n]";
}

// $DATA, $TMP and the test plugins' paths in a command.
std::string Expand(std::string text) {
  const std::vector<std::pair<std::string, std::string>> names = {
      {"$DATA", kData},
      {"$TMP", ScratchDir()},
      {"$SEED_PLUGIN", AIRSCOPE_SEED_PLUGIN},
      {"$NO_ENTRY_PLUGIN", AIRSCOPE_NO_ENTRY_PLUGIN},
      {"$WRONG_VERSION_PLUGIN", AIRSCOPE_WRONG_VERSION_PLUGIN},
      {"$FAILING_INIT_PLUGIN", AIRSCOPE_FAILING_INIT_PLUGIN},
  };
  for (const auto& [name, value] : names) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size())) {
      text.replace(at, name.size(), value);
    }
  }
  return text;
}

// Runs `commands` (-c text: lines or ';'-separated) that must succeed.
void RunOk(Shell& shell, const std::string& commands) {
  size_t reported = shell.sink.errors.size();
  Status status = shell.interpreter.RunCommandText(Expand(commands));
  ASSERT_TRUE(status.ok()) << commands << "\n-> " << status.message();
  ASSERT_EQ(shell.sink.errors.size(), reported);
}

// Runs one failing command as `-c` text and returns the error it reported to the sink.
std::string RunFailing(Shell& shell, const std::string& command) {
  size_t reported = shell.sink.errors.size();
  Status status = shell.interpreter.RunCommandText(Expand(command));
  EXPECT_FALSE(status.ok()) << "`" << command << "` did not fail";
  EXPECT_FALSE(shell.interpreter.in_block());
  if (shell.sink.errors.size() != reported + 1) {
    ADD_FAILURE() << "`" << command << "` reported " << shell.sink.errors.size() - reported << " errors";
    return "";
  }
  return shell.sink.errors.back();
}

// The session every test starts from. Graph `mlp` is current.
void BuildRichSession(Shell& shell) {
  RunOk(shell,
        "set show-times off\n"
        "set cache_size_limit 6\n"
        "set dump.formats fx,pbtxt\n"
        "decomp add aten.silu.default \"aten.mul.Tensor($0, aten.sigmoid.default($0))\"\n"
        // A harmless user pass in custom_post, and two broken ones the pass cases register.
        "pass define keep_all\n"
        "  on name no_such_node_*: erase\n"
        "end\n"
        "pass add post keep_all\n"
        "pass define breaker\n"
        "  on aten.addmm.default: insert before aten.abs.default($node)\n"
        "end\n"
        "pass define crasher\n"
        "  on aten.*mm.default: erase\n"
        "end\n"
        // seed: already lowered; its pipeline exists at stage 0; run eagerly, captured and replayed.
        "load $DATA/seed_multistream_lowered.json as seed\n"
        "stages\n"
        "eager\n"
        "capture\n"
        "replay 2\n"
        // mlp: stepped to stage 2 (next: post_grad_custom_pre_pass), a breakpoint, a skip, two cache entries and a hit.
        "load $DATA/mlp.readable.py as mlp\n"
        "step 2\n"
        "break dce\n"
        "skip remove_cat_ops\n"
        "call arg0_1=f32[8,64]\n"
        "call arg0_1=f32[8,64]\n"
        "call arg0_1=f32[16,64]\n"
        // sync: a host sync (.item()) that capture refuses.
        "load $DATA/host_sync.readable.py as sync\n"
        "stages\n"
        "use mlp");
}

// One read-only command's output (and error) for the fingerprint.
std::string Observe(Shell& shell, const std::string& command) {
  CommandOutput out;
  Status status = shell.interpreter.ExecuteCaptured(command, &out);
  std::string text = fmt::format("$ {}\n{}", command, out.Text());
  if (!status.ok()) text += fmt::format("error: {}\n", status.message());
  return text;
}

// `pipeline` without the note of a failed pass at the cursor (kept until the
// cursor moves: a report of the failure, not state): the cursor row's status
// reads "pending" again and its "error:" line goes.
std::string WithoutFailureNote(const std::string& listing) {
  std::string out;
  size_t start = 0;
  while (start < listing.size()) {
    size_t end = listing.find('\n', start);
    end = end == std::string::npos ? listing.size() : end + 1;
    std::string line = listing.substr(start, end - start);
    start = end;
    if (line.rfind("          error: ", 0) == 0) continue;
    if (line.rfind("  -> ", 0) == 0) {
      if (size_t at = line.find("  failed   "); at != std::string::npos) line.replace(at, 11, "  pending  ");
    }
    out += line;
  }
  return out;
}

enum class LastRun { kIncluded, kLeftOut };

// Compares two fingerprints and, when they differ, shows where: the first
// and last differing lines with a little context, not two whole sessions.
void ExpectSameFingerprint(const std::string& before, const std::string& after, const std::string& what) {
  if (before == after) return;
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = std::min(text.find('\n', start), text.size());
      out.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return out;
  };
  std::vector<std::string> a = lines(before), b = lines(after);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  std::string shown;
  for (size_t i = head >= 3 ? head - 3 : 0; i < head; ++i) shown += "  " + a[i] + "\n";
  for (size_t i = head; i < a.size() - tail; ++i) shown += "- " + a[i] + "\n";
  for (size_t i = head; i < b.size() - tail; ++i) shown += "+ " + b[i] + "\n";
  ADD_FAILURE() << what << " changed the session (line " << head + 1 << " of the fingerprint):\n" << shown;
}

// Everything a user can see of the session, through read-only commands: the
// graph list and current graph, settings, passes, decompositions, the device
// and its memory pools, and per graph its current stage (FX text and JSON
// with all meta), the pipeline (pass list, cursor, stages, breakpoints,
// skips) and the frame (entries, their compiled graphs, guards, compiles,
// recompiles, the last miss); then, unless left out, the device's last run.
// It switches graphs with `use` and ends on the graph that was current.
// It never creates what a command would create on first use (a pipeline).
std::string Fingerprint(Shell& shell, LastRun last_run = LastRun::kIncluded) {
  EXPECT_FALSE(shell.interpreter.in_block());
  std::string text;
  for (const char* command : {"graphs", "set", "pass list", "decomp list", "op list", "device", "mem --graph"}) {
    text += Observe(shell, command);
  }
  for (const PassInfo* pass : shell.session.passes().All()) {
    if (pass->kind == PassKind::kUser) text += Observe(shell, "help pass " + pass->name);
  }
  const Session::Entry* current = shell.session.current();
  std::vector<std::string> names;
  for (const Session::Entry& entry : shell.session.graphs()) names.push_back(entry.name);
  for (const std::string& name : names) {
    CommandOutput ignored;
    EXPECT_TRUE(shell.interpreter.ExecuteCaptured("use " + QuoteWord(name), &ignored).ok()) << name;
    const Session::Entry* entry = shell.session.Find(name);
    text += fmt::format("==== graph {}\n", name);
    for (const char* command : {"show", "show --format json", "stats"}) text += Observe(shell, command);
    if (entry->pipeline) {
      text += WithoutFailureNote(Observe(shell, "pipeline"));
      for (const char* command : {"stages", "break", "skip"}) text += Observe(shell, command);
    } else {
      text += "(no pipeline yet)\n";
    }
    size_t entries = entry->cache && entry->cache->frame ? entry->cache->frame->entries().size() : 0;
    text += Observe(shell, "cache");
    for (size_t i = 0; i < entries; ++i) text += Observe(shell, fmt::format("cache {}", i));
    for (const char* command : {"guards", "compiles", "recompiles", "why"}) text += Observe(shell, command);
  }
  if (current) {
    CommandOutput ignored;
    EXPECT_TRUE(shell.interpreter.ExecuteCaptured("use " + QuoteWord(current->name), &ignored).ok());
  }
  if (last_run == LastRun::kIncluded) {
    text += "==== last run\n";
    text += Observe(shell, "timeline --width 100");
    text += Observe(shell, "runstats");
  }
  return text;
}

// ---- the fingerprint itself

TEST(ErrorStateFingerprintTest, HoldsTheStateAndChangesNothing) {
  Shell shell;
  BuildRichSession(shell);
  std::string first = Fingerprint(shell);
  ExpectSameFingerprint(first, Fingerprint(shell), "taking the fingerprint");  // reading twice reads the same
  EXPECT_EQ(shell.session.current()->name, "mlp");
  for (const char* expected : {"* mlp ",                                // the current graph
                               "  seed ", "  sync ",                    // the other graphs
                               "cache_size_limit 6",                    // a setting
                               "post_grad_custom_post_pass: keep_all",  // user passes and where they run
                               "on aten.*mm.default: erase",            // a user pass's rules
                               "user     aten.mul.Tensor($0, aten.sigmoid.default($0))",  // a user decomposition
                               "device ascend-910b",                                      // the device
                               "captured graph 1 (seed)",                                 // the captured graph's pool
                               "at stage 2",                                              // mlp's cursor
                               "      2  aot",                                            // a stage
                               "breakpoints: eliminate_dead_code", "skipped: remove_cat_ops",
                               "%addmm",                    // mlp's current stage, after aot
                               "\"stream\": \"stream_1\"",  // seed's meta in JSON
                               "  1     0/1             2      0  arg0_1=f32[s0, 64]",  // a cache entry
                               "entry 1 [0/1]: the compiled graph",                     // its compiled graph
                               "graph 'seed': no calls yet",                            // a graph without a frame
                               "timeline: replay seed"}) {                              // the last run
    EXPECT_NE(first.find(expected), std::string::npos) << "the fingerprint lacks: " << expected;
  }
}

struct ChangeCase {
  std::string name;
  std::string command;  // succeeds and changes what the fingerprint sees
  LastRun last_run = LastRun::kIncluded;
};

void PrintTo(const ChangeCase& c, std::ostream* os) { *os << c.name << ": `" << c.command << "`"; }

class ErrorStateFingerprintChangeTest : public testing::TestWithParam<ChangeCase> {};

// The fingerprint notices every kind of state a failure must not touch.
TEST_P(ErrorStateFingerprintChangeTest, NoticesAChange) {
  Shell shell;
  BuildRichSession(shell);
  std::string before = Fingerprint(shell, GetParam().last_run);
  RunOk(shell, GetParam().command);
  EXPECT_NE(Fingerprint(shell, GetParam().last_run), before) << GetParam().command;
}

INSTANTIATE_TEST_SUITE_P(
    Changes, ErrorStateFingerprintChangeTest,
    testing::Values(ChangeCase{"LoadAnotherGraph", "load $DATA/gpt_block2.readable.py"},
                    ChangeCase{"ReloadAGraph", "load $DATA/mlp.readable.py"}, ChangeCase{"UseAnotherGraph", "use seed"},
                    ChangeCase{"Setting", "set mode reduce-overhead"}, ChangeCase{"Step", "step"},
                    ChangeCase{"Back", "back"}, ChangeCase{"Breakpoint", "break remove_noop"},
                    ChangeCase{"PipelineEdit", "pipeline insert cse"}, ChangeCase{"CustomPass", "pass add pre breaker"},
                    ChangeCase{"Decomposition", "decomp add aten.relu.default \"aten.abs.default($0)\""},
                    ChangeCase{"CacheHit", "call arg0_1=f32[8,64]"}, ChangeCase{"CacheEntry", "call arg0_1=f16[8,64]"},
                    ChangeCase{"MarkDynamic", "use seed; mark_dynamic arg0_1 0", LastRun::kLeftOut},
                    ChangeCase{"DimGears", "use seed; gears arg0_1 0 2,4", LastRun::kLeftOut},
                    ChangeCase{"OpSchema", "op define \"custom::sin(Tensor x, Tensor(a!) result) -> None\""},
                    ChangeCase{"InplaceableOp",
                               "op define \"custom::f(Tensor x, Tensor y) -> (Tensor, Tensor)\"; "
                               "op inplaceable custom.f.default custom.f.default 1"},
                    ChangeCase{"DevicePreset", "device a100"},
                    ChangeCase{"Recapture", "use seed; capture", LastRun::kLeftOut},
                    ChangeCase{"EagerRun", "use seed; eager; use mlp"}),
    [](const testing::TestParamInfo<ChangeCase>& info) { return info.param.name; });

// ---- failing commands

struct FailureCase {
  std::string name;
  std::string prepare;  // run first (must succeed), before the fingerprint
  std::string command;  // must fail
  std::string error;    // in the reported error
  // A failed capture becomes the last run (it shows where it failed): the
  // fingerprint leaves the last run out and `timeline` must show the error.
  LastRun last_run = LastRun::kIncluded;
  // A command that must now show the error (`pipeline` for a failed pass).
  std::string shown_by = {};
};

void PrintTo(const FailureCase& c, std::ostream* os) { *os << c.name << ": `" << c.command << "`"; }

class ErrorStateTest : public testing::TestWithParam<FailureCase> {
 protected:
  static void SetUpTestSuite() { WriteScratchFiles(); }
  static void TearDownTestSuite() { std::filesystem::remove_all(ScratchDir()); }
};

TEST_P(ErrorStateTest, LeavesEverythingAsItWas) {
  const FailureCase& c = GetParam();
  Shell shell;
  BuildRichSession(shell);
  if (!c.prepare.empty()) RunOk(shell, c.prepare);
  ASSERT_FALSE(HasFatalFailure());
  std::string before = Fingerprint(shell, c.last_run);
  std::string error = RunFailing(shell, c.command);
  EXPECT_NE(error.find(Expand(c.error)), std::string::npos) << "error: " << error;
  ExpectSameFingerprint(before, Fingerprint(shell, c.last_run), "`" + c.command + "`");
  std::string shown_by = c.last_run == LastRun::kLeftOut ? "timeline" : c.shown_by;
  if (!shown_by.empty()) {
    std::string shown = Observe(shell, shown_by);
    EXPECT_NE(shown.find(Expand(c.error)), std::string::npos) << "the failure is not in " << shown;
  }
}

std::string CaseName(const testing::TestParamInfo<FailureCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(
    Load, ErrorStateTest,
    testing::Values(
        FailureCase{"MissingFile", "", "load $DATA/bad/does_not_exist.graph.txt", "cannot open"},
        FailureCase{"TruncatedFxText", "", "load $DATA/bad/truncated.graph.txt", "truncated.graph.txt:3:"},
        FailureCase{"UseBeforeDefinition", "", "load $DATA/bad/use_before_def.graph.txt",
                    "use_before_def.graph.txt:3:"},
        FailureCase{"DuplicateNode", "", "load $DATA/bad/duplicate.graph.txt", "duplicate"},
        FailureCase{"UsersMismatch", "", "load $DATA/bad/users_mismatch.graph.txt", "arg0_1"},
        FailureCase{"BinaryFile", "", "load $DATA/bad/garbage.graph.txt", "not a text file"},
        FailureCase{"EmptyFile", "", "load $DATA/bad/empty.graph.txt", "the file is empty"},
        FailureCase{"NotAGraph", "", "load $DATA/bad/not_a_graph.txt", "unrecognized graph format"},
        FailureCase{"BadReadable", "", "load $DATA/bad/missing_equals.readable.py", "missing_equals.readable.py:3:"},
        FailureCase{"JsonOfAnotherVersion", "", "load $DATA/bad/bad_version.json", "version 7"},
        FailureCase{"TruncatedJson", "", "load $TMP/truncated.json", "truncated.json:2:1: syntax error"},
        FailureCase{"UnclosedPbtxt", "", "load $TMP/unclosed.pbtxt", "unclosed.pbtxt:5:1: unexpected end of input"},
        FailureCase{"OverMaxFileSize", "set max-file-size 100", "load $DATA/mlp.readable.py as big",
                    "over the size limit of 100 bytes"},
        FailureCase{"TraceLogOverMaxFileSize", "set max-file-size 100", "load $DATA/torch_trace/simple.log",
                    "larger than max-file-size"},
        FailureCase{"BadFileUnderALoadedName", "", "load $DATA/bad/truncated.graph.txt as mlp",
                    "truncated.graph.txt:3:"},
        FailureCase{"BadFileUnderAnotherLoadedName", "use seed", "load $DATA/bad/empty.graph.txt as mlp", "empty"},
        FailureCase{"UnusableName", "", "load $DATA/mlp.readable.py as a.b", "not a usable graph name"},
        FailureCase{"TorchLogsOverMaxFileSize", "set max-file-size 100", "load $DATA/torch_logs/seed_aclgraph_blog.log",
                    "larger than max-file-size"},
        FailureCase{"TorchLogsWithShapes", "", "load $DATA/torch_logs/seed_aclgraph_blog.log --shapes x=f32[2]",
                    "is a TORCH_LOGS log"},
        FailureCase{"LogUnderAnUnusableName", "", "load $DATA/torch_logs/seed_aclgraph_blog.log as a:b",
                    "not a usable name for a log's graphs"},
        FailureCase{"DirectoryWithoutRankLogs", "", "load $DATA/torch_logs", "neither per-rank TORCH_TRACE logs"},
        FailureCase{"CutCaptureDump", "", "load $TMP/cut_dump.json as mlp", "cut_dump.json:2:"},
        FailureCase{"CaptureDumpWithABadField", "", "load $TMP/bad_task_id_dump.json",
                    "event 0: args \"Task Id\" is not an integer"},
        FailureCase{"CaptureDumpUnderAnUnusableName", "", "load $TMP/bad_task_id_dump.json as a.b",
                    "not a usable graph name"},
        FailureCase{"Usage", "", "load a b c", "usage: load"}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Pass, ErrorStateTest,
    testing::Values(
        FailureCase{"StepIntoAPassThatBreaksLint", "pass add pre breaker", "step",
                    "pass 'breaker' broke the graph: lint: node 'abs' uses 'addmm' before it is defined",
                    LastRun::kIncluded, "pipeline"},
        FailureCase{"StepIntoAPassThatFails", "pass add pre crasher", "step", "cannot erase it: it is used by",
                    LastRun::kIncluded, "pipeline"},
        FailureCase{"RunIntoAPassThatFails", "pass add pre crasher", "run", "pass 'crasher' failed", LastRun::kIncluded,
                    "pipeline"},
        FailureCase{"NextIntoAPassThatFails", "pass add pre breaker", "next", "broke the graph", LastRun::kIncluded,
                    "pipeline"},
        FailureCase{"RunUntilAnUnknownPass", "", "run until nosuch", "no pass 'nosuch' in the pipeline"},
        FailureCase{"RunUntilAPassThatRan", "", "run until aot", "already ran"},
        FailureCase{"StepZero", "", "step 0", "expected a number of passes"},
        FailureCase{"BackAtTheInput", "use seed", "back", "already at the input (stage 0)"},
        FailureCase{"DecompBadTemplate", "", "decomp add aten.relu.default \"aten.mul.Tensor($0,\"", "template for"},
        FailureCase{"DecompNotATarget", "", "decomp add relu \"aten.abs.default($0)\"", "is not an op target"},
        FailureCase{"DecompReplacingWithABadTemplate", "", "decomp add aten.silu.default \"aten.mul.Tensor(\"",
                    "template for aten.silu.default"},
        FailureCase{"PluginMissing", "", "plugin load /nonexistent/libairscope_nope.so", "cannot load plugin"},
        FailureCase{"PluginWithoutEntryPoint", "", "plugin load $NO_ENTRY_PLUGIN", "is not an airscope plugin"},
        FailureCase{"PluginOfAnotherVersion", "", "plugin load $WRONG_VERSION_PLUGIN", "plugin API version"},
        FailureCase{"PluginWhoseInitFails", "", "plugin load $FAILING_INIT_PLUGIN", "init failed"},
        FailureCase{"PluginLoadedTwice", "plugin load $SEED_PLUGIN", "plugin load $SEED_PLUGIN", "already loaded"},
        FailureCase{"DefineABuiltinName", "", "pass define lower", "is a builtin pass"},
        FailureCase{"RedefineWithABadRule", "", "pass define breaker\n  on aten.mm.default: insert sideways x()\nend",
                    "expected 'before' or 'after'"},
        FailureCase{"AddAnUnknownPass", "", "pass add pre nosuch", "no pass named 'nosuch'"},
        FailureCase{"AddAPassTwice", "", "pass add post keep_all", "already in post_grad_custom_post_pass"},
        FailureCase{"RemoveAPassNotAdded", "", "pass remove pre keep_all", "is not in post_grad_custom_pre_pass"},
        FailureCase{"PipelineInsertUnregistered", "", "pipeline insert nosuch", "is not registered"},
        FailureCase{"PipelineInsertAtAMissingAnchor", "", "pipeline insert cse before nosuch", "no pass 'nosuch'"},
        FailureCase{"PipelineSetUnknown", "", "pipeline set decompose,nosuch", "pass 'nosuch' is not registered"},
        FailureCase{"PipelineRemoveMissing", "", "pipeline remove nosuch", "no pass 'nosuch'"},
        FailureCase{"BreakOnAnUnknownPass", "", "break nosuch", "no pass 'nosuch' in the pipeline"},
        FailureCase{"UnskipAPassNotSkipped", "", "skip dce off", "is not skipped"}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Call, ErrorStateTest,
    testing::Values(
        FailureCase{"UnclosedSizes", "", "call arg0_1=f32[8,", "column"},
        FailureCase{"UnknownDtype", "", "call arg0_1=f33[8,64]", "f33"},
        FailureCase{"NegativeSize", "", "call arg0_1=f32[8,-64]", "-64"},
        FailureCase{"UnknownInput", "", "call x=f32[8,64]", "'x'"},
        FailureCase{"ExtraInput", "", "call arg0_1=f32[8,64] extra=f32[2]", "extra"},
        FailureCase{"InputTwice", "", "call arg0_1=f32[8,64] arg0_1=f32[8,64]", "arg0_1"},
        FailureCase{"UnknownDevice", "", "call arg0_1=f32[8,64]:tpu", "tpu"},
        FailureCase{"NoInputs", "", "call", "usage: call"},
        FailureCase{"CompileFailsOnAMiss", "pass add pre crasher", "call arg0_1=f16[8,64]",
                    "compile: pass 'post_grad_custom_pre_pass' failed"},
        FailureCase{"FirstCallOfAGraphFailsToCompile", "use seed; pass add pre crasher", "call arg0_1=f32[3,3]",
                    "compile: pass 'post_grad_custom_pre_pass' failed"},
        FailureCase{"MarkDynamicUnknownInput", "", "mark_dynamic nope 0", "no input named 'nope'"},
        FailureCase{"MarkDynamicMinOverMax", "use seed", "mark_dynamic arg0_1 0 9 3", "is larger than MAX"},
        FailureCase{"GearsBadSize", "", "gears arg0_1 0 2,x", "must be an integer, but got <class 'str'>"},
        FailureCase{"GearsSetAgainDifferently", "use seed; gears arg0_1 0 2,4", "gears arg0_1 0 4,8",
                    "Tensor arg0_1 already has set dim gears"},
        FailureCase{"SizeThatIsNotAGear", "use seed; gears arg0_1 0 2,4", "call arg0_1=f32[3,3]",
                    "The index 3 of the current tensor shape is not within the range [2, 4]"},
        FailureCase{"OpSchemaWithoutNamespace", "", "op define \"sin(Tensor x) -> Tensor\"", "namespace"},
        FailureCase{"OpDefinedDifferently", "op define \"custom::sin(Tensor x) -> Tensor\"",
                    "op define \"custom::sin(Tensor(a!) x) -> Tensor\"", "Tried to register an operator (custom::sin)"},
        FailureCase{"InplaceableUnknownOp", "", "op inplaceable custom.f.default custom.f_.default 1", "unknown op"},
        FailureCase{"UnknownCacheEntry", "", "cache 7", "no cache entry '7'"},
        FailureCase{"UnknownGuardsEntry", "", "guards 9/9", "no cache entry '9/9'"},
        FailureCase{"CompareWithoutRecordedStages", "", "compare", "no recorded TorchAir stages for 'mlp'"},
        FailureCase{"CompareUsage", "", "compare a b", "usage: compare"},
        FailureCase{"ShowCompileOfASimulatedFrame", "", "show compile 0/0", "a simulated frame: its entries"},
        // The AclGraph runtime's words (reduce-overhead calls).
        FailureCase{"BufferOutsideReduceOverhead", "", "call arg0_1=f32[8,64] in b1", "set mode reduce-overhead"},
        FailureCase{"KeepOutsideReduceOverhead", "", "call arg0_1=f32[8,64] keep", "set mode reduce-overhead"},
        FailureCase{"BufferTooSmall", "set mode reduce-overhead; call arg0_1=f32[8,64] in b1 keep",
                    "call arg0_1=f32[16,64] in b1", "buffer 'b1' holds 2.0 KiB"},
        FailureCase{"InWithoutABuffer", "set mode reduce-overhead", "call arg0_1=f32[8,64] in", "a buffer name"},
        FailureCase{"BufferNamedLikeAnOutput", "set mode reduce-overhead", "call arg0_1=f32[8,64] in out9.0",
                    "is a name airscope gives"},
        FailureCase{"DropUnknown", "set mode reduce-overhead; call arg0_1=f32[8,64] in b1 keep", "drop nope",
                    "no buffer named 'nope' (held:"}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Capture, ErrorStateTest,
    testing::Values(
        FailureCase{"OnTheDefaultStream", "use seed", "capture --stream default", "non-default stream",
                    LastRun::kLeftOut},
        FailureCase{"EndingOnAnotherStream", "use seed", "capture --end-stream other", "Capture must end on the same",
                    LastRun::kLeftOut},
        FailureCase{"HostSyncDuringCapture", "use sync", "capture", "(107027", LastRun::kLeftOut},
        // The capacity is below what is reserved: looking for room for the
        // capture's pool, the allocator empties the default pool's cache, which
        // is not enough; the failed capture must leave that cache as it was.
        FailureCase{"OutOfDeviceMemory", "device set memory_capacity 3145728; use seed", "capture --stream side",
                    "out of memory", LastRun::kLeftOut},
        FailureCase{"HalfSteppedPipeline", "", "capture", "the pipeline of 'mlp' is at stage 2"},
        FailureCase{"Usage", "use seed", "capture --bogus", "usage: capture"},
        FailureCase{"UnknownCaptureMode", "use seed", "capture --mode sloppy", "unknown capture error mode 'sloppy'"},
        FailureCase{"CaptureCheckUnknownMode", "use seed", "capture check --mode sloppy", "unknown capture error mode"},
        FailureCase{"TaskQueueEnable2", "use seed; set env.TASK_QUEUE_ENABLE 2", "capture",
                    "Do not support TASK_QUEUE_ENABLE = 2 during NPU graph capture", LastRun::kLeftOut},
        FailureCase{"BadCaptureErrorMode", "", "set capture_error_mode sloppy", "must be one of"},
        FailureCase{"CheckUsage", "use seed", "check --bogus", "usage: check"},
        FailureCase{"CheckHalfSteppedPipeline", "", "check", "the pipeline of 'mlp' is at stage 2"},
        FailureCase{"ReplayWithoutCapture", "use sync", "replay", "'sync' has not been captured"},
        FailureCase{"ReplayZeroTimes", "use seed", "replay 0", "must be a whole number >= 1"},
        FailureCase{"EagerHalfSteppedPipeline", "", "eager", "the pipeline of 'mlp' is at stage 2"},
        FailureCase{"UnknownDevicePreset", "", "device tpu-v9", "tpu-v9"},
        FailureCase{"UnknownDeviceParameter", "", "device set warp_speed 9", "warp_speed"},
        FailureCase{"BadDeviceSetting", "", "set device.host_launch_ns fast", "fast"}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Dump, ErrorStateTest,
    testing::Values(
        // Missing directories are created (as dump.dir's are); a file where one should be is not.
        FailureCase{"UnderAFile", "", "dump fx /dev/null/mlp.fx", "cannot write: /dev/null is not a directory"},
        FailureCase{"IntoProc", "", "dump json /proc/airscope_nope/mlp.json", "cannot write"},
        FailureCase{"RenderedUnderAFile", "", "dump svg /dev/null/mlp.svg", "/dev/null/mlp.svg"},
        FailureCase{"UnknownFormat", "", "dump pdf $TMP/mlp.pdf", "unknown dump format 'pdf'"},
        FailureCase{"StageNotRunYet", "", "dump fx $TMP/mlp.fx --stage 9", "stage 9 has not run yet"},
        FailureCase{"PassNotRunYet", "", "dump fx $TMP/mlp.fx --stage lower", "pass 'lower' has not run yet"},
        FailureCase{"UnknownStage", "", "dump fx $TMP/mlp.fx --stage nosuch", "no stage 'nosuch'"},
        FailureCase{"Usage", "", "dump fx", "usage: dump"},
        FailureCase{"TimelineJsonUnderAFile", "", "timeline --json /dev/null/t.json", "cannot write"},
        FailureCase{"AclGraphJsonUnderAFile", "use seed", "timeline --aclgraph-json /dev/null/t.json", "cannot write"},
        FailureCase{"AclGraphJsonNotCaptured", "use sync", "timeline --aclgraph-json $TMP/t.json",
                    "'sync' has no captured graph"}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Shell, ErrorStateTest,
    testing::Values(FailureCase{"UnknownCommand", "", "frobnicate", "unknown command"},
                    FailureCase{"UseAnUnknownGraph", "", "use nosuch", "no graph named 'nosuch'"},
                    FailureCase{"UnknownSetting", "", "set nosuch 1", "unknown setting 'nosuch'"},
                    FailureCase{"BadSettingValue", "", "set cache_size_limit many", "takes a whole number"},
                    FailureCase{"SourceAMissingScript", "", "source $TMP/no_such.airscript", "cannot open"},
                    FailureCase{"UnclosedQuote", "", "echo \"open", "column"}),
    CaseName);

// A script that fails half way keeps what its lines before the failing one
// did (they ran), and nothing of the failing line or after it.
TEST(ErrorStateSourceTest, AScriptFailingHalfWayKeepsWhatRanBefore) {
  std::filesystem::create_directories(ScratchDir());
  std::string script = ScratchDir() + "/half_way.airscript";
  std::ofstream(script) << "set cache_size_limit 5\nuse seed\nstep 0\nset cache_size_limit 7\nuse mlp\n";
  Shell shell;
  BuildRichSession(shell);
  std::string error = RunFailing(shell, "source " + script);
  EXPECT_EQ(error.rfind(script + ":3: column 6: expected a number of passes", 0), 0u) << error;

  Shell reference;
  BuildRichSession(reference);
  RunOk(reference, "set cache_size_limit 5; use seed");
  ExpectSameFingerprint(Fingerprint(reference), Fingerprint(shell), "the failing line of " + script);
  std::filesystem::remove_all(ScratchDir());
}

// The same, typed line by line: a `pass define` block whose rules do not
// parse keeps the pass it would have replaced.
TEST(ErrorStateSourceTest, ABadBlockTypedInteractivelyKeepsThePassItWouldReplace) {
  Shell shell;
  BuildRichSession(shell);
  std::string before = Fingerprint(shell);
  EXPECT_TRUE(shell.interpreter.ExecuteLine("pass define crasher").ok());
  // The bad rule is refused as it is typed; the block stays open without it.
  Status line = shell.interpreter.ExecuteLine("  on aten.*mm.default: erase twice");
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.message().rfind("pass define crasher: line 1", 0), 0u) << line.message();
  EXPECT_TRUE(shell.interpreter.in_block());
  Status end = shell.interpreter.ExecuteLine("end");
  ASSERT_FALSE(end.ok());
  EXPECT_EQ(end.message().rfind("pass define crasher: ", 0), 0u) << end.message();
  ExpectSameFingerprint(before, Fingerprint(shell), "the bad `pass define crasher` block");
}

}  // namespace
}  // namespace airscope
