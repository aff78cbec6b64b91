// Logs in the shell: `load` of a TORCH_TRACE log (formats/torch_trace.h), of a
// directory of per-rank TORCH_TRACE logs, or of TORCH_LOGS text
// (formats/torch_logs.h) registers each graph of the log under its name
// (`ID:STAGE`, `ID:KIND`; `NAME:` in front with `load LOG as NAME`), all
// sharing the parsed log, which `compiles`, `guards` and `recompiles` read
// from whichever of them is current.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "repl/cache_state.h"
#include "repl/command_table.h"
#include "repl/graph_loader.h"
#include "repl/log_bundle.h"
#include "formats/torch_logs.h"

namespace airscope {

// `load FILE.log [as NAME]`: a TORCH_TRACE log. `bytes`: the log, already
// read whole (a pipe, which can be read only once); else `path` is read.
Status LoadTraceLog(CommandContext& ctx, const std::string& path, const std::string& as,
                    std::optional<std::string_view> bytes = std::nullopt);
// `load DIR [as NAME]`: the `dedicated_log_torch_trace_rank_N*.log` files of
// a distributed run; graphs are `rankN:ID:STAGE`, and where ranks diverge
// (compile ids one rank has and another lacks, guards that differ) is shown.
Status LoadTraceLogDir(CommandContext& ctx, const std::string& dir, const std::string& as);
// Where the ranks' logs disagree (formats/rank_divergence.h): compile ids,
// guards, graphs, recompile reasons; then guard latencies apart, as timings.
// What `load DIR` prints, and the report's page of the rank logs.
void PrintRankDivergence(CommandOutput& out, const std::vector<std::pair<int, const TraceLog*>>& logs);
// `load FILE [as NAME]`: TORCH_LOGS text (torch and TorchAir lines); `bytes` as for LoadTraceLog.
Status LoadTorchLogs(CommandContext& ctx, const std::string& path, const std::string& as,
                     std::optional<std::string_view> bytes = std::nullopt);

// Every graph of a log parsed, named `prefix` + its name in the log, before
// anything is registered; what does not parse is a warning naming the log's
// line. TorchLogsGraphs fills `names` parallel to log.graphs ("" where not loaded).
std::vector<std::pair<std::string, LoadedGraph>> TraceLogGraphs(CommandContext& ctx, const TraceLog& log,
                                                                const std::string& shown, const std::string& path,
                                                                const std::string& prefix,
                                                                std::vector<std::string>* warnings);
std::vector<std::pair<std::string, LoadedGraph>> TorchLogsGraphs(CommandContext& ctx, const TorchLogs& log,
                                                                 const std::string& shown, const std::string& path,
                                                                 const std::string& prefix,
                                                                 std::vector<std::string>* warnings,
                                                                 std::vector<std::string>* names);
// `load DIR [as NAME]`: a TORCH_COMPILE_DEBUG tree (formats/torch_compile_debug.h),
// one run of it, TorchAir's torchair/ or model__K directory, or a directory
// of TorchAir's graph_dump files.
Status LoadDebugTree(CommandContext& ctx, const std::string& dir, const std::string& as);
// `compiles [ID]` (commands_trace.cc); `show compile ID` calls it too.
Status CompilesCommand(CommandContext& ctx);
// The one index (repl/compile_index.h): `compiles` of a bundle that holds a
// TORCH_COMPILE_DEBUG tree, and `compiles ID` of any bundle.
Status ShowIndexCompiles(CommandContext& ctx, const LogBundle& bundle);
// One compile in detail; its phase tree is capped at 60 lines unless all_phases.
Status ShowIndexCompile(CommandContext& ctx, const LogBundle& bundle, const Word& which, bool all_phases = false);
// "  recorded TorchAir stages, for compare: ..." (nothing when there are none).
void PrintRecordedRuns(CommandContext& ctx, const std::vector<RecordedRun>& runs);

// Registers `graphs` (the first becomes current); `attach` fills each one's
// cache state with the log it came from. A log without a loadable graph
// still needs a home for its compiles: `holder` names an empty graph then.
Status RegisterLogGraphs(CommandContext& ctx, std::vector<std::pair<std::string, LoadedGraph>> graphs,
                         const std::string& holder, const std::string& path,
                         const std::function<void(const std::string& name, CacheState&)>& attach);

// The TORCH_LOGS forms of `compiles [-]` (`times`: compile id -> its phases' times,
// from the one index), `recompiles` and `guards [ID]`.
Status ShowLogCompiles(CommandContext& ctx, const TorchLogs& log, const Word* which,
                       const std::map<std::string, std::string>& times);
Status ShowLogRecompiles(CommandContext& ctx, const TorchLogs& log);
Status ShowLogGuards(CommandContext& ctx, const TorchLogs& log, const Word* which);

}  // namespace airscope
