// `eager N` / `replay N` in the shell: whatever N, `timeline` and `runstats`
// afterwards draw the run (its first iterations when it is long), instead of
// the empty "(no trace kept)" that runs over 1,000 iterations used to leave.
#include <gtest/gtest.h>

#include <string>

#include "shell_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

using testing_util::kData;

std::string Exec(testing_shell::TestShell& shell, const std::string& line) {
  shell.sink.text.clear();
  Status s = shell.interpreter.ExecuteLine(line);
  EXPECT_TRUE(s.ok()) << line << ": " << s.message();
  return shell.sink.text;
}

// The row of `track` in a timeline.
std::string Row(const std::string& timeline, const std::string& track) {
  size_t at = timeline.find("\n" + track + " ");
  if (at == std::string::npos) return "";
  size_t end = timeline.find('\n', at + 1);
  return timeline.substr(at + 1, end - at - 1);
}

TEST(DeviceCommands, ALongReplayStillHasATimeline) {
  testing_shell::TestShell shell;
  Exec(shell, "load " + kData + "/seed_multistream_lowered.json as seed");
  Exec(shell, "capture");
  Exec(shell, "replay 2000");
  std::string timeline = Exec(shell, "timeline --width 100");
  EXPECT_NE(timeline.find("timeline: replay seed x2000 ("), std::string::npos) << timeline;
  EXPECT_EQ(timeline.find("no trace kept"), std::string::npos) << timeline;
  EXPECT_NE(Row(timeline, "stream_1").find('#'), std::string::npos) << timeline;
  std::string stats = Exec(shell, "runstats");
  EXPECT_NE(stats.find("run: replay seed x2000"), std::string::npos) << stats;
  EXPECT_EQ(stats.find("busy 0 ns"), std::string::npos) << stats;
}

TEST(DeviceCommands, ALongEagerRunStillHasATimeline) {
  testing_shell::TestShell shell;
  Exec(shell, "load " + kData + "/seed_multistream_lowered.json as seed");
  Exec(shell, "eager 1500 --no-sync");
  std::string timeline = Exec(shell, "timeline --width 100");
  EXPECT_NE(timeline.find("timeline: eager seed x1500 ("), std::string::npos) << timeline;
  std::string host = Row(timeline, "host");
  EXPECT_NE(host.find_first_not_of(' ', host.find('|') + 1), std::string::npos) << timeline;
  EXPECT_NE(Row(timeline, "stream_1").find('#'), std::string::npos) << timeline;
}

// Two ways to one number: `capture; replay` and a reduce-overhead `call` of
// the same block read its 24 lifted parameters in place and copy only the
// user input, so their end-to-end times are the same (issue 27 item 2: the
// capture path used to copy every parameter before each replay).
TEST(DeviceCommands, ReplayReadsLiftedParametersInPlaceAsCallDoes) {
  testing_shell::TestShell shell;
  Exec(shell, "load " + kData + "/gpt_block2.readable.py as block");
  std::string captured = Exec(shell, "capture");
  EXPECT_NE(captured.find("1 input copy (16.0 KiB) before every replay, into the static buffers: arg24_1"),
            std::string::npos)
      << captured;
  EXPECT_NE(captured.find("24 lifted parameter(s) (1.5 MiB) read in place, never copied"), std::string::npos)
      << captured;
  std::string replayed = Exec(shell, "replay 3");
  EXPECT_NE(replayed.find("end-to-end       58.22 us /iteration"), std::string::npos) << replayed;
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect slice \"copy arg24_1\"").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect no slice \"copy arg0_1\"").ok());

  Exec(shell, "set mode reduce-overhead");
  std::string called = Exec(shell, "call arg0_1=f32[2,16,128]");
  EXPECT_NE(called.find("with 1 input copy: 42 tasks, 58.22 us end to end"), std::string::npos) << called;
}

}  // namespace
}  // namespace airscope
