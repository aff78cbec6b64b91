// PipelineRun: stepping, run until / breakpoints / skips, back and reset,
// stage lookup, snapshot sharing, failures that leave everything as it was,
// edits of the pass list, and the memory budget (evict + recompute).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "core/fx/fx_text.h"
#include "core/pass/decomposition.h"
#include "core/pass/pipeline_run.h"
#include "pipeline_test_util.h"

namespace airscope {
namespace {

using namespace testing_passes;

struct Fixture {
  PassRegistry registry = TestRegistry();
  PassContext context;
  std::shared_ptr<const Graph> input = SmallGraph();
  std::vector<std::string> seen;  // stages reported to on_stage
  PipelineEnv Env() {
    PipelineEnv env;
    env.passes = &registry;
    env.context = &context;
    env.on_stage = [this](const StageRecord& record, const Graph& graph) {
      seen.push_back(fmt::format("{}:{}:{}", record.number, record.pass, graph.size()));
    };
    return env;
  }
};

TEST(PipelineRunTest, StepsThroughPassesAndSharesUnchangedSnapshots) {
  Fixture f;
  PipelineRun run(f.input, {"insert_neg", "nothing", "remove_clone"});
  EXPECT_EQ(run.cursor(), 0u);
  EXPECT_EQ(&run.Current(), f.input.get());
  RunReport report = run.Step(2, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kCount);
  EXPECT_EQ(report.first_stage, 1u);
  EXPECT_EQ(report.last_stage, 2u);
  EXPECT_EQ(run.cursor(), 2u);
  ASSERT_EQ(run.stages().size(), 3u);
  EXPECT_TRUE(run.stages()[1].changed);
  EXPECT_EQ(run.stages()[1].remarks, std::vector<std::string>{"inserted neg"});
  EXPECT_FALSE(run.stages()[2].changed);
  EXPECT_EQ(run.stages()[2].nodes, 6u);
  // The unchanged stage shares the snapshot of the stage before it.
  EXPECT_EQ(run.GraphAt(2)->get(), run.GraphAt(1)->get());
  EXPECT_EQ(run.OwnerOf(2), 1u);
  EXPECT_NE(run.GraphAt(1)->get(), f.input.get());
  EXPECT_EQ(f.seen, (std::vector<std::string>{"0:input:5", "1:insert_neg:6", "2:nothing:6"}));
  report = run.Step(5, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kEnd);
  EXPECT_TRUE(run.at_end());
  EXPECT_EQ(run.Current().size(), 5u);
  EXPECT_EQ(run.Current().Find("clone"), nullptr);
  // The input is never touched.
  EXPECT_TRUE(SameGraph(*f.input, *SmallGraph()));
}

TEST(PipelineRunTest, FailingStepLeavesCursorAndGraph) {
  Fixture f;
  PipelineRun run(f.input, {"insert_neg", "fail_half_way", "remove_clone"});
  run.Step(1, f.Env());
  const Graph* before = &run.Current();
  RunReport report = run.Step(2, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kFailed);
  EXPECT_EQ(report.error.message(), "pass 'fail_half_way' failed: cannot handle node 'add'");
  EXPECT_EQ(run.cursor(), 1u);
  EXPECT_EQ(&run.Current(), before);
  EXPECT_NE(run.Current().Find("relu"), nullptr);
  ASSERT_TRUE(run.failure().has_value());
  EXPECT_EQ(run.failure()->status, StageStatus::kFailed);
  EXPECT_EQ(run.failure()->number, 2u);
  // Skipping the failing pass gets past it; the failure is forgotten.
  ASSERT_TRUE(run.SetSkip("fail_half_way", true).ok());
  report = run.Step(1, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kCount);
  EXPECT_EQ(run.stages()[2].status, StageStatus::kSkipped);
  EXPECT_FALSE(run.failure().has_value());
  EXPECT_EQ(run.GraphAt(2)->get(), run.GraphAt(1)->get());
  // The pass after it runs on the graph as it was, not on the failed pass's half-done edits.
  run.Step(1, f.Env());
  EXPECT_NE(run.Current().Find("relu"), nullptr);
  EXPECT_EQ(run.Current().Find("renamed"), nullptr);
  EXPECT_EQ(run.Current().Find("clone"), nullptr);
}

TEST(PipelineRunTest, ChangeIsDecidedByTheGraphNotThePass) {
  Fixture f;
  PipelineRun run(f.input, {"touch_only", "meta_only", "nothing"});
  run.Step(3, f.Env());
  ASSERT_EQ(run.cursor(), 3u);
  // Touched but equal: no change, the snapshot is shared, and the claim is noted.
  EXPECT_FALSE(run.stages()[1].changed);
  EXPECT_EQ(run.GraphAt(1)->get(), f.input.get());
  EXPECT_EQ(run.stages()[1].remarks,
            std::vector<std::string>{"the pass said it changed the graph, but it is the same"});
  // A meta-only edit is a change, whatever the pass says.
  EXPECT_TRUE(run.stages()[2].changed);
  EXPECT_EQ(run.stages()[2].remarks,
            std::vector<std::string>{"the pass said it changed nothing, but the graph differs"});
  EXPECT_EQ(run.Current().Find("relu")->meta()->ShapeString(), "f32[7]");
  EXPECT_EQ(f.input->Find("relu")->meta(), nullptr);
  EXPECT_FALSE(run.stages()[3].changed);
  EXPECT_EQ(run.GraphAt(3)->get(), run.GraphAt(2)->get());
}

TEST(PipelineRunTest, ACopiedRunHasItsOwnWorkingGraph) {
  Fixture f;
  PipelineRun run(f.input, {"nothing", "insert_neg", "remove_clone"});
  run.Step(1, f.Env());  // leaves a working graph behind, equal to the input
  PipelineRun probe = run;
  probe.Step(2, f.Env());
  EXPECT_EQ(probe.Current().size(), 5u);
  EXPECT_EQ(run.cursor(), 1u);
  EXPECT_EQ(&run.Current(), f.input.get());
  run.Step(1, f.Env());
  EXPECT_EQ(run.Current().size(), 6u);
  EXPECT_NE(run.Current().Find("clone"), nullptr);
  EXPECT_NE(run.Current().Find("neg"), nullptr);
  EXPECT_EQ(run.Current().Find("neg_1"), nullptr);  // one neg: the probe's edits did not leak
  EXPECT_TRUE(SameGraph(*f.input, *SmallGraph()));
}

// After a changed stage the next pass's working graph is copied while the
// effect check runs: it must be a copy, never the new snapshot itself, and
// a copied run must not share it.
TEST(PipelineRunTest, TheCopyMadeAfterAChangeIsTheNextPassesOwn) {
  Fixture f;
  PipelineRun run(f.input, {"nothing", "insert_neg", "remove_clone"});
  run.Step(2, f.Env());
  ASSERT_TRUE(run.stages()[2].changed);
  std::shared_ptr<const Graph> after_neg = run.CurrentShared();
  PipelineRun probe = run;
  probe.Step(1, f.Env());
  EXPECT_EQ(probe.Current().Find("clone"), nullptr);
  EXPECT_NE(after_neg->Find("clone"), nullptr);
  run.Step(1, f.Env());
  EXPECT_EQ(run.Current().Find("clone"), nullptr);
  EXPECT_NE(run.Current().Find("neg"), nullptr);
  EXPECT_EQ(run.Current().Find("neg_1"), nullptr);
  EXPECT_NE(after_neg->Find("clone"), nullptr);  // stage 2's snapshot was never the working graph
  EXPECT_EQ(run.GraphAt(2)->get(), after_neg.get());
}

TEST(PipelineRunTest, LintBreakageAndUnknownPassAreReported) {
  Fixture f;
  PipelineRun run(f.input, {"break_lint", "decompose"});
  RunReport report = run.Step(1, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kFailed);
  EXPECT_EQ(report.error.message().rfind("pass 'break_lint' broke the graph: lint: ", 0), 0u);
  EXPECT_TRUE(SameGraph(run.Current(), *f.input));
  ASSERT_TRUE(run.SetSkip("break_lint", true).ok());
  report = run.Step(1, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kCount);
  report = run.Step(1, f.Env());
  EXPECT_EQ(report.stop, RunReport::Stop::kFailed);
  EXPECT_EQ(report.error.message(), "pass 'decompose' is not registered");
  EXPECT_EQ(run.cursor(), 1u);
  // No registry at all is an error, not a crash.
  PipelineEnv empty;
  EXPECT_EQ(run.Step(1, empty).stop, RunReport::Stop::kFailed);
}

TEST(PipelineRunTest, RunUntilTargetAndBreakpoints) {
  Fixture f;
  PipelineRun run(f.input, {"nothing", "insert_neg", "nothing", "remove_clone"});
  Result<RunReport> report = run.RunUntil("insert_neg", f.Env());
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->stop, RunReport::Stop::kTarget);
  EXPECT_EQ(run.cursor(), 2u);  // after insert_neg ran
  EXPECT_FALSE(run.RunUntil("insert_neg", f.Env()).ok());
  EXPECT_EQ(run.RunUntil("insert_neg", f.Env()).status().message(),
            "pass 'insert_neg' already ran (the cursor is at stage 2; use back or reset)");
  EXPECT_EQ(run.RunUntil("bogus", f.Env()).status().message(), "no pass 'bogus' in the pipeline");
  run.Reset();
  EXPECT_EQ(run.cursor(), 0u);
  ASSERT_TRUE(run.SetBreakpoint("remove_clone", true).ok());
  report = run.RunUntil(std::nullopt, f.Env());
  EXPECT_EQ(report->stop, RunReport::Stop::kBreakpoint);
  EXPECT_EQ(run.cursor(), 3u);  // stopped before remove_clone
  // Running again continues past the breakpoint it stopped at.
  report = run.RunUntil(std::nullopt, f.Env());
  EXPECT_EQ(report->stop, RunReport::Stop::kEnd);
  EXPECT_TRUE(run.at_end());
  // Breakpoints do not stop `step`, and are ignored on request.
  run.Reset();
  EXPECT_EQ(run.Step(4, f.Env()).stop, RunReport::Stop::kEnd);
  run.Reset();
  PipelineEnv env = f.Env();
  env.ignore_breakpoints = true;
  EXPECT_EQ(run.RunUntil(std::nullopt, env)->stop, RunReport::Stop::kEnd);
  EXPECT_FALSE(run.SetBreakpoint("bogus", true).ok());
  EXPECT_TRUE(run.SetBreakpoint("remove_clone", false).ok());
  EXPECT_EQ(run.SetBreakpoint("remove_clone", false).message(), "no breakpoint on 'remove_clone'");
}

TEST(PipelineRunTest, BackAndReset) {
  Fixture f;
  PipelineRun run(f.input, {"insert_neg", "remove_clone"});
  EXPECT_EQ(run.Back().message(), "already at the input (stage 0)");
  run.Step(2, f.Env());
  std::shared_ptr<const Graph> after_first = *run.GraphAt(1);
  ASSERT_TRUE(run.Back().ok());
  EXPECT_EQ(run.cursor(), 1u);
  EXPECT_EQ(&run.Current(), after_first.get());
  EXPECT_EQ(run.stages().size(), 2u);
  run.Reset();
  EXPECT_EQ(run.cursor(), 0u);
  EXPECT_EQ(&run.Current(), f.input.get());
}

TEST(PipelineRunTest, FindStage) {
  Fixture f;
  PipelineRun run(f.input, {"insert_neg", "nothing", "insert_neg", "remove_clone"});
  run.Step(3, f.Env());
  EXPECT_EQ(*run.FindStage("input"), 0u);
  EXPECT_EQ(*run.FindStage("last"), 3u);
  EXPECT_EQ(*run.FindStage("2"), 2u);
  EXPECT_EQ(*run.FindStage("nothing"), 2u);
  EXPECT_EQ(*run.FindStage("insert_neg"), 3u);  // the latest stage of that pass
  EXPECT_EQ(run.FindStage("4").status().message(), "stage 4 has not run yet (the cursor is at stage 3)");
  EXPECT_EQ(run.FindStage("remove_clone").status().message(),
            "pass 'remove_clone' has not run yet (the cursor is at stage 3)");
  EXPECT_EQ(run.FindStage("zzz").status().message(),
            "no stage 'zzz': give a stage number, a pass of the pipeline, input or last");
  EXPECT_EQ(run.Current().Find("neg_1") != nullptr, true);
}

TEST(PipelineRunTest, EditingBeforeTheCursorDropsLaterStages) {
  Fixture f;
  PipelineRun run(f.input, {"insert_neg", "nothing", "remove_clone"});
  run.Step(3, f.Env());
  ASSERT_TRUE(run.InsertPass("nothing", "remove_clone", /*after=*/true).ok());  // after the end: nothing lost
  EXPECT_EQ(run.cursor(), 3u);
  ASSERT_TRUE(run.RemovePass("nothing").ok());  // index 1: stages 2.. dropped
  EXPECT_EQ(run.cursor(), 1u);
  EXPECT_EQ(run.passes(), (std::vector<std::string>{"insert_neg", "remove_clone", "nothing"}));
  ASSERT_TRUE(run.InsertPass("remove_clone", "insert_neg", /*after=*/false).ok());
  EXPECT_EQ(run.cursor(), 0u);
  EXPECT_EQ(run.passes().front(), "remove_clone");
  EXPECT_FALSE(run.InsertPass("x", "bogus", true).ok());
  EXPECT_FALSE(run.RemovePass("bogus").ok());
}

// Each stage renames one more node in a long chain: replays must reproduce it.
Result<bool> RenameOne(Graph& graph, PassContext&) {
  for (Node* node : graph) {
    if (node->op() == OpKind::kCallFunction && node->name().rfind("r_", 0) != 0) {
      AIRSCOPE_RETURN_IF_ERROR(graph.Rename(node, "r_" + node->name()));
      return true;
    }
  }
  return false;
}

// Each stage's snapshot is summarized in the background while passes that
// leave it alone run; a pass the effect check skips changes the graph
// without waiting for that summary, and the budget then drops the snapshot
// it reads: the run must wait for it first (ASan sees it if not).
TEST(PipelineRunTest, UncheckedPassesChangeTheGraphWhileItsSummaryIsMade) {
  PassRegistry registry;
  PassInfo rename = Info("rename_unchecked", RenameOne);
  rename.effects = EffectPolicy::kUnchecked;
  ASSERT_TRUE(registry.Register(rename).ok());
  ASSERT_TRUE(registry.Register(Info("nothing", Nothing)).ok());
  PassContext context;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  std::vector<std::string> passes;
  for (int i = 0; i < 5; ++i) {
    passes.push_back("nothing");
    passes.push_back("rename_unchecked");
  }
  PipelineOptions options;
  options.bytes_per_node = 100;
  options.memory_budget = 2 * 5 * 100;  // the input and the current stage
  PipelineRun run(SmallGraph(), passes, options);
  ASSERT_TRUE(run.RunUntil(std::nullopt, env).ok());
  ASSERT_TRUE(run.at_end());
  EXPECT_FALSE(run.IsKept(2));
  EXPECT_NE(run.Current().Find("r_relu"), nullptr);
}

// The threads of this process, as Linux lists them.
size_t ThreadCount() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"), {}));
}

// on_stage may fork (a dump drawn by graphviz runs in a child process), and a
// child forked while the summary's thread held a lock (the allocator's under
// the sanitizers) waited for ever: CI's sanitizer run hung. The summary of a
// stage a pass left alone is still being made when the stage is announced,
// unless the run waits for it first.
TEST(PipelineRunTest, AStageIsAnnouncedWithNoOtherThreadRunning) {
  std::string text = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
  std::string previous = "x";
  for (int i = 0; i < 20000; ++i) {  // big enough that its summary takes a while
    std::string name = fmt::format("relu_{}", i);
    text += fmt::format(
        "    %{} : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%{},), kwargs = {{}})\n",
        name, previous);
    previous = name;
  }
  text += fmt::format("    return ({},)", previous);
  Result<std::unique_ptr<Graph>> chain = ParseFxText(text, "chain.graph.txt");
  ASSERT_TRUE(chain.ok()) << chain.status().message();
  PassRegistry registry = TestRegistry();
  PassContext context;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  size_t announced = 0;
  size_t most_threads = 0;
  env.on_stage = [&](const StageRecord&, const Graph&) {
    ++announced;
    most_threads = std::max(most_threads, ThreadCount());
  };
  ASSERT_EQ(ThreadCount(), 1u);
  PipelineRun run(std::shared_ptr<const Graph>(std::move(*chain)),
                  {"nothing", "nothing", "nothing", "nothing", "nothing"});
  ASSERT_TRUE(run.RunUntil(std::nullopt, env).ok());
  EXPECT_EQ(announced, 6u);  // the input and five stages
  EXPECT_EQ(most_threads, 1u);
}

TEST(PipelineRunTest, BudgetEvictsOldSnapshotsAndRecomputesThemExactly) {
  PassRegistry registry;
  ASSERT_TRUE(registry.Register(Info("rename_one", RenameOne)).ok());
  ASSERT_TRUE(registry.Register(Info("nothing", Nothing)).ok());
  PassContext context;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  std::vector<std::string> passes;
  for (int i = 0; i < 6; ++i) {
    passes.push_back("rename_one");
    passes.push_back("nothing");
  }
  // Unbounded: every changed stage keeps its snapshot.
  PipelineRun full(SmallGraph(), passes);
  ASSERT_TRUE(full.RunUntil(std::nullopt, env).ok());
  ASSERT_TRUE(full.at_end());
  // Room for the input plus two snapshots of 5 nodes.
  PipelineOptions options;
  options.bytes_per_node = 100;
  options.memory_budget = 3 * 5 * 100;
  PipelineRun run(SmallGraph(), passes, options);
  ASSERT_TRUE(run.RunUntil(std::nullopt, env).ok());
  ASSERT_TRUE(run.at_end());
  EXPECT_LE(run.KeptBytes(), options.memory_budget);
  EXPECT_TRUE(run.IsKept(0));
  EXPECT_TRUE(run.IsKept(run.cursor()));
  EXPECT_FALSE(run.IsKept(1));
  EXPECT_FALSE(run.IsKept(2));  // shared with 1: dropped together
  for (size_t k = 0; k <= run.cursor(); ++k) {
    Result<std::shared_ptr<const Graph>> got = run.GraphAt(k);
    ASSERT_TRUE(got.ok()) << got.status().message();
    std::string why;
    EXPECT_TRUE(SameGraph(**got, **full.GraphAt(k), &why)) << "stage " << k << ": " << why;
  }
  // Going back to a dropped stage recomputes it and keeps it as the current graph.
  while (run.cursor() > 2) ASSERT_TRUE(run.Back().ok());
  EXPECT_TRUE(run.IsKept(2));
  EXPECT_TRUE(SameGraph(run.Current(), **full.GraphAt(2)));
  EXPECT_TRUE(run.Current().Find("r_relu") != nullptr);
  // Lowering the budget to nothing keeps only the input and the current stage.
  run.Step(6, env);
  run.set_memory_budget(0);
  // (Stages that share the current snapshot stay: RenameOne runs out of nodes
  // to rename after 3 stages, and later stages change nothing.)
  for (size_t k = 1; k < run.cursor(); ++k) {
    EXPECT_EQ(run.IsKept(k), run.OwnerOf(k) == run.OwnerOf(run.cursor())) << k;
  }
  EXPECT_TRUE(run.IsKept(run.cursor()));
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

using namespace testing_passes;

Result<bool> RenameEverything(Graph& graph, PassContext&) {
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    if (node->op() != OpKind::kCallFunction || node->name().starts_with("other_")) continue;
    AIRSCOPE_RETURN_IF_ERROR(graph.Rename(node, "other_" + node->name()));
    changed = true;
  }
  return changed;
}

// A dropped snapshot was recomputed with the registry as it is now, so after
// a pass was redefined the debugger showed a stage that never happened
// (issue 15, item 1). Now the recompute refuses, naming what changed.
TEST(PipelineRunTest, ARecomputeNeverShowsAStageThatDidNotHappen) {
  PassRegistry registry;
  ASSERT_TRUE(registry.Register(Info("rename_one", RenameOne)).ok());
  DecompositionTable decompositions;
  PassContext context;
  context.decompositions = &decompositions;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  PipelineOptions options;
  options.bytes_per_node = 100;
  options.memory_budget = 3 * 5 * 100;  // the input and two snapshots
  PipelineRun run(SmallGraph(), {"rename_one", "rename_one", "rename_one"}, options);
  ASSERT_TRUE(run.RunUntil(std::nullopt, env).ok());
  ASSERT_FALSE(run.IsKept(1));
  ASSERT_TRUE(run.GraphAt(1).ok());  // nothing changed: recomputed exactly
  // The user redefines the pass that made stage 1.
  ASSERT_TRUE(registry.Register(Info("rename_one", RenameEverything)).ok());
  Result<std::shared_ptr<const Graph>> stale = run.GraphAt(1);
  ASSERT_FALSE(stale.ok());
  EXPECT_NE(stale.status().message().find("cannot recompute stage 1"), std::string::npos) << stale.status().message();
  EXPECT_NE(stale.status().message().find("the pass registry (pass define, plugin load) changed since stage 1"),
            std::string::npos)
      << stale.status().message();
  EXPECT_TRUE(run.GraphAt(run.cursor()).ok());  // kept snapshots are what happened: still shown
  // A decomposition added after the stages ran counts the same.
  ASSERT_TRUE(registry.Register(Info("rename_one", RenameOne)).ok());
  PipelineRun again(SmallGraph(), {"rename_one", "rename_one", "rename_one"}, options);
  ASSERT_TRUE(again.RunUntil(std::nullopt, env).ok());
  ASSERT_FALSE(again.IsKept(1));
  ASSERT_TRUE(again.GraphAt(1).ok());
  ASSERT_TRUE(decompositions.AddTemplate("aten.relu.default", "aten.abs.default($0)").ok());
  Result<std::shared_ptr<const Graph>> after_decomp = again.GraphAt(1);
  ASSERT_FALSE(after_decomp.ok());
  EXPECT_NE(after_decomp.status().message().find("the decomposition table (decomp add)"), std::string::npos);
}

}  // namespace
}  // namespace airscope
