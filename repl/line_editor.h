// LineEditor: interactive input through GNU readline, with a history file
// (~/.airscope_history, or $AIRSCOPE_HISTORY) and tab completion from the
// command table (repl/completion.h).
//
// readline is process-global C state; this class is its only user and at most
// one LineEditor may exist at a time (asserted).
#pragma once

#include <optional>
#include <string>

#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

class LineEditor {
 public:
  LineEditor(const CommandTable& table, const Session& session);
  ~LineEditor();  // writes the history file
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The next line, or nullopt at end of input (Ctrl-D).
  std::optional<std::string> ReadLine(const std::string& prompt);

  // Called from readline's C callback.
  char** CompleteAt(const char* text, int start, int end);

 private:
  const CommandTable& table_;
  const Session& session_;
  std::string history_path_;
  std::string last_line_;
};

}  // namespace airscope
