// PassManager: hooks in order, rollback to the exact graph on error, on an
// exception and on lint breakage, errors that name the pass, timing once.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/pass/pass_manager.h"
#include "core/pass/timing_instrumentation.h"
#include "pipeline_test_util.h"

namespace airscope {
namespace {

using namespace testing_passes;

class Recorder : public PassInstrumentation {
 public:
  void BeforePass(const PassInfo& pass, const Graph& graph) override {
    events.push_back(fmt::format("before {} {}", pass.name, graph.size()));
  }
  void PassTimed(const PassInfo& pass, double seconds) override {
    events.push_back(fmt::format("timed {}", pass.name));
    last_seconds = seconds;
  }
  void AfterPass(const PassInfo& pass, const Graph& graph, bool changed) override {
    events.push_back(fmt::format("after {} {} {}", pass.name, graph.size(), changed));
  }
  void AfterPassFailed(const PassInfo& pass, const Graph& restored, const Status& error) override {
    events.push_back(fmt::format("failed {} {}", pass.name, restored.size()));
  }
  std::vector<std::string> events;
  double last_seconds = -1;
};

TEST(PassManagerTest, SuccessRunsHooksInOrderAndReportsRemarks) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  Recorder first, second;
  PassManager manager;
  manager.AddInstrumentation(&first);
  manager.AddInstrumentation(&second);
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(*registry.Find("insert_neg"), *graph, context);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_TRUE(outcome->changed);
  ASSERT_EQ(outcome->remarks.size(), 1u);
  EXPECT_EQ(outcome->remarks[0], "inserted neg");
  EXPECT_TRUE(context.remarks.empty());
  std::vector<std::string> want = {"before insert_neg 5", "timed insert_neg", "after insert_neg 6 true"};
  EXPECT_EQ(first.events, want);
  EXPECT_EQ(second.events, want);
  EXPECT_TRUE(graph->Lint().ok());
}

// The time reported is the pass's own: a pass that takes 20 ms reports at
// least that, to the instrumentation and in the outcome.
TEST(PassManagerTest, ReportsThePassesOwnTime) {
  PassRegistry registry;
  ASSERT_TRUE(registry
                  .Register(Info("slow",
                                 [](Graph&, PassContext&) -> Result<bool> {
                                   std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                   return false;
                                 }))
                  .ok());
  auto graph = SmallGraph();
  Recorder recorder;
  PassManager manager;
  manager.AddInstrumentation(&recorder);
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(*registry.Find("slow"), *graph, context);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_GE(recorder.last_seconds, 0.020);
  EXPECT_GE(outcome->seconds, 0.020);
  EXPECT_EQ(outcome->seconds, recorder.last_seconds);
}

TEST(PassManagerTest, ErrorRollsBackAndNamesThePass) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  auto original = graph->Clone();
  Recorder recorder;
  PassManager manager;
  manager.AddInstrumentation(&recorder);
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(*registry.Find("fail_half_way"), *graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(), "pass 'fail_half_way' failed: cannot handle node 'add'");
  std::string why;
  EXPECT_TRUE(SameGraph(*graph, *original, &why)) << why;
  EXPECT_NE(graph->Find("relu"), nullptr);
  EXPECT_EQ(recorder.events,
            (std::vector<std::string>{"before fail_half_way 5", "timed fail_half_way", "failed fail_half_way 5"}));
}

TEST(PassManagerTest, LintBreakageRollsBackAndSaysWhatLintFound) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  auto original = graph->Clone();
  PassManager manager;
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(*registry.Find("break_lint"), *graph, context);
  ASSERT_FALSE(outcome.ok());
  const std::string& message = outcome.status().message();
  EXPECT_EQ(message.rfind("pass 'break_lint' broke the graph: lint: ", 0), 0u) << message;
  EXPECT_EQ(
      message, "pass 'break_lint' broke the graph: lint: " + [] {
        auto g = SmallGraph();
        g->MoveBefore(g->output(), g->output()->prev());
        return g->Lint().message();
      }());
  std::string why;
  EXPECT_TRUE(SameGraph(*graph, *original, &why)) << why;
  EXPECT_TRUE(graph->Lint().ok());
}

// The node list is linted first; use/def and order are linted beside the
// effect summary of the pass's result. What that half rejects comes back as
// the lint error, the summary does not trip over it (the sanitizer run reads
// every access), and the graph is rolled back.
TEST(PassManagerTest, UseDefBreakageFoundBesideTheEffectCheckRollsBack) {
  std::unique_ptr<Graph> other = SmallGraph();
  struct Case {
    const char* pass;
    PassFn run;
    std::string error;
  };
  std::vector<Case> cases = {
      {"use_another_graphs_node",
       [&other](Graph& graph, PassContext&) -> Result<bool> {
         graph.ReplaceInput(graph.Find("add"), graph.Find("relu"), other->Find("relu"));
         return true;
       },
       "node 'add' uses 'relu', which is not in the graph"},
      {"use_before_definition",
       [](Graph& graph, PassContext&) -> Result<bool> {
         graph.MoveBefore(graph.Find("add"), graph.Find("relu"));
         return true;
       },
       "node 'add' uses 'relu' before it is defined (not in topological order)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pass);
    auto graph = SmallGraph();
    auto original = graph->Clone();
    PassManager manager;
    PassContext context;
    ASSERT_TRUE(context.check_effects);
    bool alongside_ran = false;
    Result<PassOutcome> outcome =
        manager.Run(Info(c.pass, c.run), *graph, context, nullptr, {}, [&](const Graph&) { alongside_ran = true; });
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.status().message(), fmt::format("pass '{}' broke the graph: lint: {}", c.pass, c.error));
    EXPECT_FALSE(alongside_ran);  // it may copy the graph: only a linted one
    std::string why;
    EXPECT_TRUE(SameGraph(*graph, *original, &why)) << why;
  }
}

TEST(PassManagerTest, ExceptionIsAFailureOfThePass) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  auto original = graph->Clone();
  PassManager manager;
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(*registry.Find("throws"), *graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(), "pass 'throws' failed: exception: map::at");
  EXPECT_TRUE(SameGraph(*graph, *original));
}

TEST(PassManagerTest, MissingImplementationIsAnError) {
  PassInfo info = Info("empty", nullptr);
  auto graph = SmallGraph();
  PassManager manager;
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(info, *graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(), "pass 'empty' failed: pass 'empty' has no implementation");
}

// A remark made once per match (thousands on a big model) is reported once,
// where it first appeared, with its count; distinct remarks keep their order.
TEST(PassManagerTest, RepeatedRemarksAreFoldedWithTheirCount) {
  PassInfo info = Info("noisy", [](Graph&, PassContext& context) -> Result<bool> {
    for (const char* remark : {"skipped: K too large", "fused 1", "skipped: K too large", "skipped: K too large"}) {
      context.remarks.push_back(remark);
    }
    return false;
  });
  auto graph = SmallGraph();
  PassManager manager;
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(info, *graph, context);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->remarks, (std::vector<std::string>{"skipped: K too large (3 times)", "fused 1"}));
}

TEST(PassManagerTest, PristineCopyIsUsedForRollback) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  auto pristine = graph->Clone();
  PassManager manager;
  PassContext context;
  ASSERT_FALSE(manager.Run(*registry.Find("fail_half_way"), *graph, context, pristine.get()).ok());
  EXPECT_TRUE(SameGraph(*graph, *pristine));
  ASSERT_TRUE(manager.Run(*registry.Find("remove_clone"), *graph, context, pristine.get()).ok());
  EXPECT_EQ(graph->size(), 4u);
}

TEST(TimingInstrumentationTest, RecordsEveryRunOnceWithFailures) {
  PassRegistry registry = TestRegistry();
  auto graph = SmallGraph();
  TimingInstrumentation timing;
  PassManager manager;
  manager.AddInstrumentation(&timing);
  PassContext context;
  ASSERT_TRUE(manager.Run(*registry.Find("nothing"), *graph, context).ok());
  ASSERT_FALSE(manager.Run(*registry.Find("fail_half_way"), *graph, context).ok());
  ASSERT_TRUE(manager.Run(*registry.Find("nothing"), *graph, context).ok());
  ASSERT_EQ(timing.records().size(), 3u);
  EXPECT_FALSE(timing.records()[0].failed);
  EXPECT_TRUE(timing.records()[1].failed);
  std::vector<PassTimingTotal> totals = timing.Totals();
  ASSERT_EQ(totals.size(), 2u);
  EXPECT_EQ(totals[0].pass, "nothing");
  EXPECT_EQ(totals[0].runs, 2u);
  EXPECT_EQ(totals[1].pass, "fail_half_way");
  EXPECT_EQ(totals[1].runs, 1u);
  // The totals add up the runs' own times, per pass and overall.
  const std::vector<PassTiming>& r = timing.records();
  EXPECT_DOUBLE_EQ(totals[0].seconds, r[0].seconds + r[2].seconds);
  EXPECT_DOUBLE_EQ(totals[1].seconds, r[1].seconds);
  EXPECT_DOUBLE_EQ(timing.TotalSeconds(), r[0].seconds + r[1].seconds + r[2].seconds);
}

}  // namespace
}  // namespace airscope
