// `plan capture` (repl/plan_capture.cc), dispatched by `plan` (commands_plan.cc).
#pragma once

#include "core/status.h"
#include "repl/command_table.h"

namespace airscope {

const char* PlanCaptureUsage();
Status PlanCapture(CommandContext& ctx);

}  // namespace airscope
