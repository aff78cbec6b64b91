#include "repl/line_editor.h"

#include <signal.h>
#include <sys/select.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <readline/history.h>
#include <readline/readline.h>

#include "core/interrupt.h"
#include "repl/completion.h"

namespace airscope {
namespace {

// readline's callbacks carry no user data, so the active editor is reached
// through this one pointer (set only while a LineEditor lives).
LineEditor* active_editor = nullptr;

std::vector<std::string>* pending_matches = nullptr;

char* NextMatch(const char* /*text*/, int state) {
  static size_t index = 0;
  if (state == 0) index = 0;
  if (!pending_matches || index >= pending_matches->size()) return nullptr;
  return strdup((*pending_matches)[index++].c_str());
}

char** AttemptCompletion(const char* text, int start, int end) {
  return active_editor ? active_editor->CompleteAt(text, start, end) : nullptr;
}

void OnLine(char* raw) {
  if (active_editor) active_editor->LineEntered(raw);
}

std::string HistoryPath() {
  if (const char* explicit_path = std::getenv("AIRSCOPE_HISTORY")) return explicit_path;
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + "/.airscope_history" : "";
}

}  // namespace

LineEditor::LineEditor(const CommandTable& table, const Session& session)
    : table_(table), session_(session), history_path_(HistoryPath()) {
  assert(active_editor == nullptr);
  active_editor = this;
  rl_readline_name = "airscope";
  rl_attempted_completion_function = AttemptCompletion;
  rl_completer_word_break_characters = const_cast<char*>(" \t");
  // SIGINT is the shell's (repl/main.cc): readline must not take it over.
  rl_catch_signals = 0;
  using_history();
  stifle_history(kHistoryLines);
  if (!history_path_.empty() && read_history(history_path_.c_str()) == ENOENT) {
    write_history(history_path_.c_str());  // append_history needs the file to exist
  }
}

LineEditor::~LineEditor() {
  if (!history_path_.empty()) history_truncate_file(history_path_.c_str(), kHistoryLines);
  rl_attempted_completion_function = nullptr;
  active_editor = nullptr;
}

void LineEditor::LineEntered(char* raw) {
  // Removing the handler here keeps readline from printing the prompt again
  // before the command's output.
  rl_callback_handler_remove();
  entered_ = true;
  if (!raw) {
    input_ = Input{Input::Kind::kEnd, {}};
    return;
  }
  std::string line(raw);
  std::free(raw);
  bool blank = line.find_first_not_of(" \t") == std::string::npos;
  if (!blank && line != last_line_) {
    add_history(line.c_str());
    if (!history_path_.empty()) append_history(1, history_path_.c_str());
  }
  if (!blank) last_line_ = line;
  input_ = Input{Input::Kind::kLine, std::move(line)};
}

LineEditor::Input LineEditor::ReadLine(const std::string& prompt) {
  entered_ = false;
  // SIGINT stays blocked except inside pselect, which unblocks it atomically
  // with the wait: a Ctrl-C that lands between a look at the flag and the
  // wait would otherwise leave the wait asleep with the flag raised.
  sigset_t with_sigint, waiting;
  sigemptyset(&with_sigint);
  sigaddset(&with_sigint, SIGINT);
  sigprocmask(SIG_BLOCK, &with_sigint, &waiting);
  sigdelset(&waiting, SIGINT);
  struct RestoreMask {
    sigset_t* blocked;
    ~RestoreMask() { sigprocmask(SIG_UNBLOCK, blocked, nullptr); }
  } restore{&with_sigint};
  rl_callback_handler_install(prompt.c_str(), OnLine);
  int fd = fileno(rl_instream ? rl_instream : stdin);
  while (!entered_) {
    if (InterruptRequested()) {
      // Ctrl-C: drop the line, leave readline's state clean for the next one.
      ClearInterrupt();
      rl_free_line_state();
      rl_callback_sigcleanup();
      rl_cleanup_after_signal();
      rl_callback_handler_remove();
      std::fputs("^C\n", rl_outstream ? rl_outstream : stdout);
      std::fflush(rl_outstream ? rl_outstream : stdout);
      return Input{Input::Kind::kInterrupted, {}};
    }
    fd_set ready;
    FD_ZERO(&ready);
    FD_SET(fd, &ready);
    if (::pselect(fd + 1, &ready, nullptr, nullptr, nullptr, &waiting) < 0) {
      if (errno == EINTR) continue;  // Ctrl-C (seen above) or another signal, e.g. a resize
      rl_callback_handler_remove();
      return Input{Input::Kind::kEnd, {}};
    }
    rl_callback_read_char();
  }
  return std::move(input_);
}

char** LineEditor::CompleteAt(const char* text, int start, int end) {
  std::string before(rl_line_buffer, static_cast<size_t>(end));
  (void)start;
  (void)text;
  Completion completion = Complete(table_, session_, before);
  if (completion.files) {
    rl_attempted_completion_over = 0;  // let readline complete file names
    return nullptr;
  }
  rl_attempted_completion_over = 1;
  if (completion.candidates.empty()) return nullptr;
  pending_matches = &completion.candidates;
  char** matches = rl_completion_matches(text, NextMatch);
  pending_matches = nullptr;
  return matches;
}

}  // namespace airscope
