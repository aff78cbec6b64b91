// `eager N` / `replay N` in the shell: whatever N, `timeline` and `runstats`
// afterwards draw the run (its first iterations when it is long), instead of
// the empty "(no trace kept)" that runs over 1,000 iterations used to leave.
#include <gtest/gtest.h>

#include <string>

#include "shell_test_util.h"

namespace airscope {
namespace {

const std::string kData = AIRSCOPE_TEST_DATA;

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

}  // namespace
}  // namespace airscope
