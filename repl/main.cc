// airscope: the interactive shell, the script runner and `-c`. The command
// line's options, the usage message and the exit statuses are
// repl/command_line.h's table (also what --help and `man airscope` show).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/inflight_temps.h"
#include "core/interrupt.h"
#include "repl/command_line.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/line_editor.h"
#include "repl/report_collector.h"
#include "repl/session.h"
#include "repl/terminal_text.h"
#include "repl/tokenizer.h"

#ifndef AIRSCOPE_VERSION
#define AIRSCOPE_VERSION "unknown"
#endif

namespace airscope {
namespace {

// Ctrl-C raises core/interrupt.h's flag; the running command stops at its
// next safe point, the prompt drops its line. A command that never reaches
// one (a stuck write) would leave the user nothing but kill, so the third
// Ctrl-C while one runs ends airscope. History is already on disk by then
// (LineEditor appends each line).
void OnInterrupt(int /*signal*/) {
  if (RequestInterrupt() >= 3) {
    constexpr char kMessage[] = "\nairscope: interrupted three times; quitting\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    (void)ignored;
    RemoveInFlightTemps();  // _exit runs no destructor: a dump's temp file would stay
    ::_exit(kExitInterrupted);
  }
}

void InstallSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR and can look at the flag
  sigaction(SIGINT, &action, nullptr);
  // Over `ulimit -f`, a write fails with EFBIG and the file writer reports it
  // (and removes its temp file) instead of the process dying silently.
  signal(SIGXFSZ, SIG_IGN);
  // A reader that stops early (`airscope ... | head`, a FIFO closed under
  // `dump x fifo`) makes a write fail with EPIPE, which the writer reports
  // (exit 1 in a script), instead of SIGPIPE ending an interactive session
  // without a word.
  signal(SIGPIPE, SIG_IGN);
  // SIGTERM, SIGHUP (the terminal closed) and SIGQUIT still end airscope,
  // with their exit status, but first remove a dump's temp file or a
  // report's staging directory that a write had in flight.
  InstallTempCleanupOnSignals();
}

// "write failed: Broken pipe (standard output)", from the errno of the failed
// write; the stream's error flag is cleared so a later write is tried afresh.
Status StdoutWriteFailed() {
  int error = errno != 0 ? errno : EIO;
  std::clearerr(stdout);
  return Status::Errorf("write failed: {} (standard output)", std::strerror(error));
}

class TerminalSink : public OutputSink {
 public:
  explicit TerminalSink(const Session& session) : session_(session) {}
  Status Output(const CommandOutput& out) override {
    std::string text = out.Render(UseColor(STDOUT_FILENO));
    errno = 0;
    bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    if (std::fflush(stdout) == 0 && written) return Status::Ok();
    return StdoutWriteFailed();
  }
  void Error(std::string_view message) override {
    std::fflush(stdout);  // keep stdout and stderr in order when both go to one pipe
    bool color = UseColor(STDERR_FILENO);
    fmt::print(stderr, "{}{}{}\n", color ? "\033[31m" : "", TerminalSafe(message), color ? "\033[0m" : "");
    std::fflush(stderr);
  }

 private:
  bool UseColor(int fd) const {
    const std::string& mode = session_.settings().Get("color");
    if (mode == "never") return false;
    if (mode == "always") return true;
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return isatty(fd) && !(no_color && *no_color) && !(term && std::strcmp(term, "dumb") == 0);
  }
  const Session& session_;
};

// A command Enter repeats on an empty line, as gdb repeats its stepping commands.
bool RepeatsOnEnter(const CommandTable& table, const std::string& line) {
  Result<std::vector<Word>> words = Tokenize(line);
  if (!words.ok() || words->empty()) return false;
  Result<const CommandSpec*> spec = table.Lookup(words->front().text);
  return spec.ok() && ((*spec)->name == "step" || (*spec)->name == "next");
}

int RunInteractive(Session& session, const CommandTable& table, Interpreter& interpreter, TerminalSink& sink) {
  LineEditor editor(table, session);
  fmt::print("airscope: a debugger for torch.compile -> TorchAir -> aclgraph (simulated NPU). Type help.\n");
  std::string repeat;  // what Enter on an empty line runs again
  while (!session.quit_requested()) {
    const Session::Entry* current = session.current();
    std::string prompt = interpreter.in_block() ? "...> "
                         : current              ? fmt::format("(airscope:{}) ", current->name)
                                                : "(airscope) ";
    LineEditor::Input input = editor.ReadLine(prompt);
    if (input.kind == LineEditor::Input::Kind::kInterrupted) continue;
    if (input.kind == LineEditor::Input::Kind::kEnd) {
      fmt::print("\n");
      if (!interpreter.in_block()) break;
      sink.Error(fmt::format("{}: abandoned (Ctrl-D); nothing was defined", interpreter.AbandonBlock()));
      continue;
    }
    std::string line = std::move(input.line);
    if (interpreter.in_block()) {
      repeat.clear();
    } else if (line.find_first_not_of(" \t") == std::string::npos) {
      line = repeat;
    } else {
      repeat = RepeatsOnEnter(table, line) ? line : "";
    }
    ClearInterrupt();  // a Ctrl-C typed before this command is not for it
    // `load x; stats`: commands separated by ';' run in turn, up to the first
    // that fails (a block's lines are taken whole: they are not commands).
    std::vector<std::string> commands = interpreter.in_block() ? std::vector<std::string>{line} : SplitCommands(line);
    for (const std::string& command : commands) {
      size_t reported_before = interpreter.reported_failures();
      Status status = interpreter.ExecuteLine(command);
      // A failing `source` has already reported its line; don't say it twice.
      if (!status.ok() && interpreter.reported_failures() == reported_before) sink.Error("error: " + status.message());
      if (!status.ok() || session.quit_requested() || InterruptRequested()) break;
    }
  }
  return 0;
}

// Ends the process without tearing the session down: freeing a loaded
// 1M-node graph node by node took ~10% of a `load; stats` run, and the
// kernel takes the whole address space back at once anyway. Everything the
// session writes goes through stdio or is closed when its command ends, so
// flushing stdio is all there is to finish. Sanitizer builds do tear down,
// so LeakSanitizer still checks every session the tests run.
// glibc's malloc takes its heap in 4 KiB pages unless told it may use huge
// ones, and a 100k-node graph's per-node vectors and strings then cost ~25k
// first-touch page faults (8-14 us each on the machines we measured): half
// of `load` and a third of `run`. The switch, GLIBC_TUNABLES's
// glibc.malloc.hugetlb=1 (madvise(MADV_HUGEPAGE) on malloc's memory), is
// read only at process start, so when the user has not set it either way
// airscope sets it and re-executes itself once. GLIBC_TUNABLES=
// glibc.malloc.hugetlb=0 turns it off. Sanitizer builds have their own
// allocator and skip this.
void PreferHugePagesForMalloc(char** argv) {
#if !defined(AIRSCOPE_TEARDOWN_AT_EXIT)
  constexpr const char* kMarker = "AIRSCOPE_MALLOC_REEXEC";  // never twice, whatever glibc kept
  if (std::getenv(kMarker) != nullptr) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string old = tunables ? tunables : "";
  if (old.find("glibc.malloc.hugetlb") != std::string::npos) return;  // the user's choice
  std::string value = old.empty() ? "glibc.malloc.hugetlb=1" : old + ":glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0 || setenv(kMarker, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // No /proc or exec refused: run as we are, without the tunable.
  if (tunables) {
    setenv("GLIBC_TUNABLES", old.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
#endif
}

// A script's closing line when it asserted anything, as a test runner ends:
// "expect: 12 passed, 0 failed" (", 3 not run" when it stopped early). The
// golden runner reads it to know every expect line ran and held.
Status PrintExpectSummary(const ExpectTally& tally, OutputSink& sink) {
  if (tally.total() == 0) return Status::Ok();
  CommandOutput out;
  bool clean = tally.failed == 0 && tally.not_run == 0;
  std::string not_run = tally.not_run > 0 ? fmt::format(", {} not run", tally.not_run) : "";
  out.Styled(clean ? Style::kGood : Style::kBad, "expect: {} passed, {} failed{}", tally.passed, tally.failed, not_run);
  return sink.Output(out);
}

// Leaves with `code`, or 1 when what is still buffered for standard output
// cannot be written: a run whose output was lost does not exit 0.
int LeaveWithoutTeardown(int code) {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "airscope: {}\n", StdoutWriteFailed().message());
    if (code == 0) code = 1;
  }
#if defined(AIRSCOPE_TEARDOWN_AT_EXIT)
  return code;
#else
  std::fflush(nullptr);
  std::_Exit(code);
#endif
}

int Main(int argc, char** argv) {
  PreferHugePagesForMalloc(argv);
  Result<CommandLine> parsed = ParseCommandLine(argc, argv);
  if (!parsed.ok()) {
    fmt::print(stderr, "airscope: {}\n{}", parsed.status().message(), UsageText());
    return kExitUsage;
  }
  CommandLine& line = *parsed;
  if (line.action == CommandLine::Action::kHelp) {
    fmt::print("{}", HelpText());
    return LeaveWithoutTeardown(kExitOk);
  }
  if (line.action == CommandLine::Action::kVersion) {
    fmt::print("airscope {}\n", AIRSCOPE_VERSION);
    return LeaveWithoutTeardown(kExitOk);
  }
  std::string& script = line.script;
  const bool have_commands = line.have_commands;
  const bool stay_interactive = line.stay_interactive;  // -x
  const std::string& report_dir = line.report_dir;      // --report

  InstallSignalHandlers();
  Session session;
  CommandTable table = BuildCommandTable();
  TerminalSink sink(session);
  Interpreter interpreter(session, table, sink);
  const bool terminal = isatty(STDIN_FILENO);

  // --report: the session as it ended, whatever its last command did; a
  // report that cannot be written fails the run.
  auto finish = [&](int code) {
    if (!report_dir.empty() && !InterruptRequested()) {
      CommandOutput out;
      Status written = WriteSessionReport(interpreter, Interpreter::ExpandHome(report_dir), AIRSCOPE_VERSION, out,
                                          line.report_force);
      Status shown = sink.Output(out);
      if (!written.ok() || !shown.ok()) {
        // The writer's own errors already start with "report: "; the collector's do not.
        std::string message = written.ok() ? shown.message() : written.message();
        sink.Error(written.ok() || message.starts_with("report: ") ? message : "report: " + message);
        if (code == 0) code = 1;
      }
    }
    return LeaveWithoutTeardown(code);
  };
  if (!have_commands && script.empty()) {
    if (terminal) return finish(RunInteractive(session, table, interpreter, sink));
    script = "/dev/stdin";
  }
  Status status = have_commands ? interpreter.RunCommandText(line.commands) : interpreter.RunScript(script);
  if (!status.ok() && interpreter.reported_failures() == 0) sink.Error(status.message());
  if (Status summary = PrintExpectSummary(interpreter.expect_tally(), sink); !summary.ok()) {
    sink.Error(summary.message());
    if (status.ok()) status = summary;
  }
  // -x: the script's failure is reported; the session it built is still the user's.
  if (stay_interactive && terminal && !session.quit_requested()) {
    ClearInterrupt();
    return finish(RunInteractive(session, table, interpreter, sink));
  }
  if (status.ok()) return finish(kExitOk);
  return finish(InterruptRequested() ? kExitInterrupted : kExitCommandFailed);
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }
