// The interactive shell driven through a pseudo-terminal, as a user types:
// Ctrl-C at the prompt and during long commands, Ctrl-D at the prompt and in
// a `pass define` block, Enter repeating `next`, the one-letter aliases,
// history written on every way out, and `-x`.
//
// Each test starts airscope on a fresh pty (forkpty) with a scratch HOME and
// history file, writes keystrokes to it and waits for text in what it prints.
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <poll.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kCtrlC = "\x03";
constexpr const char* kCtrlD = "\x04";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class PtySession {
 public:
  explicit PtySession(const fs::path& home, std::vector<std::string> args = {}) : home_(home) {
    winsize size{};
    size.ws_row = 40;
    size.ws_col = 120;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("AIRSCOPE_HISTORY", (home / "history").c_str(), 1);
      setenv("NO_COLOR", "1", 1);
      setenv("TERM", "xterm", 1);
      if (chdir(AIRSCOPE_TEST_DATA) != 0) _exit(126);
      std::vector<char*> argv{const_cast<char*>(AIRSCOPE_BINARY)};
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execv(AIRSCOPE_BINARY, argv.data());
      _exit(127);
    }
  }
  ~PtySession() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  bool started() const { return pid_ > 0; }
  void Send(std::string_view keys) {
    while (!keys.empty()) {
      ssize_t n = write(master_, keys.data(), keys.size());
      if (n <= 0) return;
      keys.remove_prefix(static_cast<size_t>(n));
    }
  }
  void Line(std::string_view line) {
    Send(line);
    Send("\r");
  }

  // Waits until `needle` has been printed after what earlier Expects
  // consumed; true if it was, within the timeout. What came before it (and
  // the needle) is consumed.
  bool Expect(std::string_view needle, int timeout_ms = 20000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      size_t at = output_.find(needle, consumed_);
      if (at != std::string::npos) {
        consumed_ = at + needle.size();
        return true;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0 || !ReadSome(static_cast<int>(left))) return false;
    }
  }
  // Everything printed so far, for failure messages.
  const std::string& output() const { return output_; }

  // Waits for the process to end; its exit code, or -signal, or -1000 on timeout.
  int Wait(int timeout_ms = 20000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (Clock::now() < deadline) {
      int status = 0;
      pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      }
      ReadSome(50);  // keep the pty drained so the child never blocks writing
    }
    return -1000;
  }
  void Signal(int signal) { kill(pid_, signal); }
  std::string History() const { return ReadAll(home_ / "history"); }

 private:
  bool ReadSome(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    char buffer[4096];
    ssize_t n = read(master_, buffer, sizeof(buffer));
    if (n <= 0) {
      usleep(10000);  // EIO once the child has gone: nothing more will come
      return false;
    }
    output_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  fs::path home_;
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string output_;
  size_t consumed_ = 0;
};

class InteractiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = fs::temp_directory_path() / fmt_name(::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(home_);
    fs::create_directories(home_);
  }
  void TearDown() override { fs::remove_all(home_); }
  static std::string fmt_name(const char* test) {
    return std::string("airscope_pty_") + test + "_" + std::to_string(getpid());
  }

  fs::path home_;
};

TEST_F(InteractiveTest, CtrlCAtThePromptDropsTheLineAndKeepsTheSession) {
  PtySession s(home_);
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("load mlp.graph.txt");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Send("echo never run");
  ASSERT_TRUE(s.Expect("echo never run")) << s.output();  // readline has it on the line
  s.Send(kCtrlC);
  ASSERT_TRUE(s.Expect("^C")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("echo still here");
  ASSERT_TRUE(s.Expect("still here\r\n")) << s.output();
  s.Line("quit");
  EXPECT_EQ(s.Wait(), 0) << s.output();
  EXPECT_EQ(s.output().find("never run\r\n"), std::string::npos) << s.output();
  std::string history = s.History();
  EXPECT_NE(history.find("echo still here"), std::string::npos) << history;
  EXPECT_EQ(history.find("echo never run"), std::string::npos) << history;
}

TEST_F(InteractiveTest, CtrlCStopsALongSimulationAndTheDeviceIsAsBefore) {
  PtySession s(home_);
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("load mlp.graph.txt");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("mem");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  size_t before_start = s.output().size();
  // Hours of simulated launches: only Ctrl-C ends it.
  s.Line("eager 1000000000000");
  usleep(300000);
  auto pressed = Clock::now();
  s.Send(kCtrlC);
  ASSERT_TRUE(s.Expect("interrupted (Ctrl-C)")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  EXPECT_LT(Clock::now() - pressed, std::chrono::seconds(5));
  (void)before_start;
  s.Line("echo alive");
  ASSERT_TRUE(s.Expect("alive\r\n")) << s.output();
  s.Line("timeline");
  ASSERT_TRUE(s.Expect("no run yet")) << s.output();  // the interrupted run left no trace
  s.Line("quit");
  EXPECT_EQ(s.Wait(), 0) << s.output();
}

TEST_F(InteractiveTest, CtrlCStopsAGraphvizLayout) {
  // A 20,000-node chain: sfdp takes far longer than the test waits.
  fs::path graph = home_ / "chain.graph.txt";
  {
    std::ofstream out(graph);
    out << "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
    std::string previous = "x";
    for (int i = 0; i < 20000; ++i) {
      std::string name = "n";
      name += std::to_string(i);
      out << "    %" << name << " : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%"
          << previous << ",), kwargs = {})\n";
      previous = name;
    }
    out << "    return (" << previous << ",)\n";
  }
  PtySession s(home_);
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("load " + graph.string());
  ASSERT_TRUE(s.Expect("(airscope:chain) ")) << s.output();
  s.Line("dump svg " + (home_ / "chain.svg").string());
  usleep(500000);
  auto pressed = Clock::now();
  s.Send(kCtrlC);
  ASSERT_TRUE(s.Expect("interrupted (Ctrl-C)")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:chain) ")) << s.output();
  EXPECT_LT(Clock::now() - pressed, std::chrono::seconds(5));
  EXPECT_FALSE(fs::exists(home_ / "chain.svg"));
  s.Line("quit");
  EXPECT_EQ(s.Wait(), 0) << s.output();
}

TEST_F(InteractiveTest, CtrlDInAPassDefineBlockAbandonsTheBlockNotTheProgram) {
  PtySession s(home_);
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("pass define halfway");
  ASSERT_TRUE(s.Expect("...> ")) << s.output();
  s.Line("match aten.relu.default");
  ASSERT_TRUE(s.Expect("...> ")) << s.output();
  s.Send(kCtrlD);
  ASSERT_TRUE(s.Expect("pass define halfway: abandoned (Ctrl-D)")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("pass list");
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  EXPECT_EQ(s.output().find("halfway", s.output().find("pass list")), std::string::npos) << s.output();
  s.Send(kCtrlD);  // at the prompt: leaves
  EXPECT_EQ(s.Wait(), 0) << s.output();
  EXPECT_NE(s.History().find("pass define halfway"), std::string::npos);
}

TEST_F(InteractiveTest, EnterRepeatsNextAndAliasesWork) {
  PtySession s(home_);
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("load mlp.graph.txt");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("n");
  ASSERT_TRUE(s.Expect("stage  1")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("");
  ASSERT_TRUE(s.Expect("stage  2")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("s 2");
  ASSERT_TRUE(s.Expect("stage  4")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("");  // repeats `s 2`
  ASSERT_TRUE(s.Expect("stage  6")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("echo x; echo y; bogus; echo never");  // ';' separates commands, up to the first failure
  ASSERT_TRUE(s.Expect("y\r\n")) << s.output();
  ASSERT_TRUE(s.Expect("unknown command \"bogus\"")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("");  // echo is not repeated
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("q");
  EXPECT_EQ(s.Wait(), 0) << s.output();
  EXPECT_EQ(s.output().find("stage  7"), std::string::npos) << s.output();
  EXPECT_EQ(s.output().find("\nnever\r\n"), std::string::npos) << s.output();  // echoed, never run
}

TEST_F(InteractiveTest, HistorySurvivesAKill) {
  PtySession s(home_);
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("echo remembered");
  ASSERT_TRUE(s.Expect("remembered\r\n")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Signal(SIGTERM);
  EXPECT_EQ(s.Wait(), -SIGTERM);
  EXPECT_NE(s.History().find("echo remembered"), std::string::npos);
}

TEST_F(InteractiveTest, TheTimelineFitsTheTerminal) {
  PtySession s(home_);  // 120 columns
  ASSERT_TRUE(s.Expect("(airscope) ")) << s.output();
  s.Line("load mlp.readable.py");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("eager");
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("timeline");
  ASSERT_TRUE(s.Expect("host    |")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  size_t row = s.output().rfind("host    |");
  size_t end = s.output().find("\r\n", row);
  EXPECT_EQ(end - row, 9u + 109u) << s.output().substr(row, end - row);  // label, then 120 - 11 columns
  s.Line("q");
  EXPECT_EQ(s.Wait(), 0) << s.output();
}

TEST_F(InteractiveTest, DashXRunsTheScriptThenStaysInteractive) {
  fs::path script = home_ / "setup.airscript";
  std::ofstream(script) << "load mlp.graph.txt\necho script done\n";
  PtySession s(home_, {"-x", script.string()});
  ASSERT_TRUE(s.Expect("script done")) << s.output();
  ASSERT_TRUE(s.Expect("(airscope:mlp) ")) << s.output();
  s.Line("exit");
  EXPECT_EQ(s.Wait(), 0) << s.output();
}

}  // namespace
