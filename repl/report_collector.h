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
#include "viz/report/report_writer.h"

namespace airscope {

Result<ReportData> CollectReport(Interpreter& interpreter, const std::string& version);

// The report's hooks into the shell's own views: ReportOptions::folded_fx is
// `show`'s folding of repeated blocks, fold_diff `diff`'s folding of alike
// hunks, so a page never shows a big graph or a change otherwise than the
// shell prints it. The rest are ReportOptions' defaults.
ReportOptions ShellReportOptions();

// Collects and writes the report into `dir`; `out` says where and how big.
// `force`: into a DIR that holds files no earlier report listed (viz/report/report_publish.h).
Status WriteSessionReport(Interpreter& interpreter, const std::string& dir, const std::string& version,
                          CommandOutput& out, bool force = false);

}  // namespace airscope
