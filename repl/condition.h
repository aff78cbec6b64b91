// A command line run as the condition of another command: `bisect` asks it
// at each stage it checks, `minify` on each candidate graph. One place for
// what a condition's result means, so the two cannot drift apart.
//
// Contract: the line runs captured (repl/interpreter.h ExecuteCaptured: its
// output is not shown, it is not in the transcript, its expect lines do not
// count). The result is the line's own status, the verdict, or an error when
// there is no verdict: Ctrl-C came during it (core/interrupt.h; an interrupted
// line neither passed nor failed), or the line ran bisect or minify itself,
// which the caller's Interpreter::BisectScope made it refuse (a script that
// sources itself would multiply the work at every level of nesting).
#pragma once

#include <string_view>

#include "core/status.h"
#include "repl/command_output.h"
#include "repl/interpreter.h"

namespace airscope {

// The line's own result: OK when it passed, its error when it failed.
struct ConditionVerdict {
  Status status;
};

// `command` names the caller in the no-verdict error ("bisect", "minify");
// what the line printed goes to *captured when given.
Result<ConditionVerdict> RunCondition(Interpreter& interpreter, std::string_view line, std::string_view command,
                                      CommandOutput* captured = nullptr);

}  // namespace airscope
