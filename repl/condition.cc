#include "repl/condition.h"

#include "core/interrupt.h"

namespace airscope {

Result<ConditionVerdict> RunCondition(Interpreter& interpreter, std::string_view line, std::string_view command,
                                      CommandOutput* captured) {
  CommandOutput local;
  Status status = interpreter.ExecuteCaptured(line, captured ? captured : &local);
  if (InterruptRequested()) return InterruptedStatus();  // Ctrl-C is no verdict
  if (interpreter.nested_bisect_refused()) {             // nor is a bisect or minify refused inside it
    return Status::Errorf("{}: the condition \"{}\" runs {} itself (refused there): no verdict", command, line,
                          command == "bisect" ? "bisect" : "bisect or minify");
  }
  return ConditionVerdict{status};
}

}  // namespace airscope
