// core/device/capture_rules.h: the refusals both `capture` and `capture
// check` apply, on hand-made task graphs (streams already as captured).
#include "core/device/capture_rules.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/task_graph_test_util.h"

namespace airscope {
namespace {

using testing_tasks::Tasks;

std::vector<CaptureRule> Rules(const TaskGraph& g, const CaptureSetup& setup = {}, bool first_only = false) {
  std::vector<CaptureRule> out;
  for (const CaptureViolation& v : ApplyCaptureRules(g, setup, first_only)) out.push_back(v.rule);
  return out;
}

TEST(CaptureRules, ModesParseByTorchNpusNames) {
  EXPECT_EQ(*ParseCaptureMode("global"), CaptureMode::kGlobal);
  EXPECT_EQ(*ParseCaptureMode("thread_local"), CaptureMode::kThreadLocal);
  EXPECT_EQ(*ParseCaptureMode("relaxed"), CaptureMode::kRelaxed);
  EXPECT_FALSE(ParseCaptureMode("RELAXED").ok());
}

// CANN cross-stream capture: stream3 joins through stream2 and returns
// through stream2, which returns to the capture stream.
TEST(CaptureRules, AStreamMayReturnThroughAnotherThatReturns) {
  Tasks t;
  t.Add(TaskKind::kEventRecord, "capture", "e1");
  t.Add(TaskKind::kEventWait, "s2", "e1");
  t.Add(TaskKind::kKernel, "s2");
  t.Add(TaskKind::kEventRecord, "s2", "e2");
  t.Add(TaskKind::kEventWait, "s3", "e2");
  t.Add(TaskKind::kKernel, "s3");
  t.Add(TaskKind::kEventRecord, "s3", "e3");
  t.Add(TaskKind::kEventWait, "s2", "e3");
  t.Add(TaskKind::kEventRecord, "s2", "e4");
  t.Add(TaskKind::kEventWait, "capture", "e4");
  EXPECT_TRUE(Rules(t.g).empty());
  // A task on s3 after it returned: its last task is no longer a record.
  t.Add(TaskKind::kKernel, "s3");
  std::vector<CaptureViolation> v = ApplyCaptureRules(t.g, {}, false);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, CaptureRule::kUnjoined);
  EXPECT_EQ(v[0].stream, "s3");
  EXPECT_NE(v[0].message.find("its last task, task 10 't10' (aten.x.default), is not an event record"),
            std::string::npos)
      << v[0].message;
}

TEST(CaptureRules, CheckListsEveryRefusalCaptureStopsAtTheFirst) {
  Tasks t;
  t.Add(TaskKind::kHostSync, "capture");
  t.Add(TaskKind::kMemcpy, "capture");
  t.g.tasks.back().blocking = true;
  t.Add(TaskKind::kKernel, "lonely");                 // never joins: outside the capture
  t.Add(TaskKind::kEventWait, "capture", "nowhere");  // no record
  CaptureSetup setup;
  setup.end_stream = "other";
  EXPECT_EQ(Rules(t.g, setup, false), (std::vector<CaptureRule>{CaptureRule::kStreamSync, CaptureRule::kBlockingCopy,
                                                                CaptureRule::kUncapturedWait, CaptureRule::kEndStream,
                                                                CaptureRule::kOutsideCapture}));
  EXPECT_EQ(Rules(t.g, setup, true), std::vector<CaptureRule>{CaptureRule::kStreamSync});
}

TEST(CaptureRules, BeginChecksComeInTorchNpusOrder) {
  TaskGraph empty;
  CaptureSetup setup;
  setup.capture_stream = "default";
  setup.task_queue_enable = 2;
  EXPECT_EQ(Rules(empty, setup, false),
            (std::vector<CaptureRule>{CaptureRule::kTaskQueue, CaptureRule::kDefaultStream}));
  EXPECT_EQ(Rules(empty, setup, true), std::vector<CaptureRule>{CaptureRule::kTaskQueue});
}

TEST(CaptureRules, TheModeDecidesHowABlockingCopyFails) {
  Tasks t;
  t.Add(TaskKind::kMemcpy, "capture");
  t.g.tasks.back().blocking = true;
  CaptureSetup setup;
  for (CaptureMode mode : {CaptureMode::kGlobal, CaptureMode::kThreadLocal}) {
    setup.mode = mode;
    std::vector<CaptureViolation> v = ApplyCaptureRules(t.g, setup, true);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].message.find("ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (107030"), std::string::npos);
  }
  setup.mode = CaptureMode::kRelaxed;
  std::vector<CaptureViolation> v = ApplyCaptureRules(t.g, setup, true);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].message.find("\"ACL stream synchronize failed, error code:107027\""), std::string::npos);
}

TEST(CaptureRules, OnCaptureStreamPutsTheDefaultStreamWorkOnTheCaptureStream) {
  Tasks t;
  t.Add(TaskKind::kKernel, "s1");
  t.Add(TaskKind::kKernel, "");
  TaskGraph g = OnCaptureStream(t.g, "capture");
  EXPECT_EQ(g.streams, (std::vector<std::string>{"capture", "s1"}));
  EXPECT_EQ(g.tasks[1].stream, "capture");
}

}  // namespace
}  // namespace airscope
