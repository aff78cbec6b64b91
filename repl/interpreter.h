// Interpreter: runs command lines against a Session through the command
// table, for the interactive shell, scripts (`airscope FILE.airscript`,
// `source`) and `-c` alike, so all three behave the same.
//
// Output goes to an OutputSink; handlers never print. A failing line in a
// script is reported once, by the script that holds it, as
// "FILE:LINE: message". A `source` that failed fails its own line in the
// outer script with that same message, which is not reported again.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void Output(const CommandOutput& out) = 0;
  virtual void Error(std::string_view message) = 0;  // one message, no trailing newline
};

class Interpreter {
 public:
  static constexpr int kMaxSourceDepth = 16;

  Interpreter(Session& session, const CommandTable& table, OutputSink& sink);

  // Runs one line; blank lines and `# comments` do nothing. The command's
  // output goes to the sink; its error is returned, not printed.
  Status ExecuteLine(std::string_view line);
  // Like ExecuteLine, but everything the line prints (including failures of
  // nested script lines) is collected in *out instead.
  Status ExecuteCaptured(std::string_view line, CommandOutput* out);
  // Runs a script file line by line; see the class comment for errors.
  // OK iff no line failed.
  Status RunScript(const std::string& path);
  // Runs `-c` text: commands separated by ';' (outside quotes) or newlines.
  Status RunCommandText(std::string_view text);

  // A path argument as the user meant it: as given if it exists (relative to
  // the working directory), else relative to the directory of the script
  // being run.
  std::string ResolvePath(std::string_view path) const;

  // How many failing script lines have been reported through the sink; a
  // caller that gets an error back and sees this unchanged must report it.
  size_t reported_failures() const { return reported_failures_; }

  const CommandTable& table() const { return table_; }
  Session& session() { return session_; }

 private:
  Status RunLines(const std::vector<std::string>& lines, std::string_view origin);

  Session& session_;
  const CommandTable& table_;
  OutputSink* sink_;
  std::vector<std::string> script_dirs_;  // innermost last
  size_t reported_failures_ = 0;
};

}  // namespace airscope
