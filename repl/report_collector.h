// Gathers a session into ReportData (viz/report/report_model.h) for `report
// DIR` and `airscope --report DIR`: every loaded graph with its pipeline's
// stages, the logs loaded, the device's last run, and the transcript.
//
// Texts the shell prints (cache, guards, recompiles, mem, runstats) are made
// by running those very commands, captured, with each graph made current in
// turn; the current graph is restored afterwards, whatever happens, and
// nothing else of the session changes (those commands only read).
#pragma once

#include <string>

#include "core/status.h"
#include "repl/command_output.h"
#include "repl/interpreter.h"
#include "viz/report/report_model.h"

namespace airscope {

Result<ReportData> CollectReport(Interpreter& interpreter, const std::string& version);

// Collects and writes the report into `dir`; `out` says where and how big.
// `force`: into a DIR that holds files no earlier report listed (viz/report/report_publish.h).
Status WriteSessionReport(Interpreter& interpreter, const std::string& dir, const std::string& version,
                          CommandOutput& out, bool force = false);

}  // namespace airscope
