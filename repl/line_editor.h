// LineEditor: interactive input through GNU readline, with a history file
// (~/.airscope_history, or $AIRSCOPE_HISTORY) and tab completion from the
// command table (repl/completion.h).
//
// Lines are read through readline's callback interface, so a Ctrl-C at the
// prompt (the process's SIGINT handler raises core/interrupt.h's flag and
// interrupts the wait) drops the line being edited and returns, as in bash,
// instead of ending the program. Every line is appended to the history file
// as it is entered, so no exit path (quit, Ctrl-D, a kill) loses history.
//
// readline is process-global C state; this class is its only user and at most
// one LineEditor may exist at a time (asserted).
#pragma once

#include <string>

#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

// The history file keeps this many of the latest lines (the manual says so too).
inline constexpr int kHistoryLines = 2000;

class LineEditor {
 public:
  LineEditor(const CommandTable& table, const Session& session);
  ~LineEditor();  // trims the history file to its size limit
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  struct Input {
    enum class Kind { kLine, kInterrupted, kEnd };  // a line; Ctrl-C (line dropped); Ctrl-D or input closed
    Kind kind = Kind::kEnd;
    std::string line;
  };
  Input ReadLine(const std::string& prompt);

  // Called from readline's C callbacks.
  char** CompleteAt(const char* text, int start, int end);
  void LineEntered(char* raw);

 private:
  const CommandTable& table_;
  const Session& session_;
  std::string history_path_;
  std::string last_line_;
  bool entered_ = false;  // LineEntered ran for the current ReadLine
  Input input_;
};

}  // namespace airscope
