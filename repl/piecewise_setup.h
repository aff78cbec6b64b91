// What `plan capture` and `piecewise capture` share: the settings a vLLM
// piecewise runtime is made from on the command line, and making it from a
// loaded graph (split at the split ops, each piece through the session's
// pipeline, core/runtime/piecewise_runtime.h).
#pragma once

#include <string>
#include <vector>

#include "core/analysis/piecewise_split.h"
#include "core/runtime/piecewise_runtime.h"
#include "core/status.h"
#include "repl/command_flags.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

// The flags both commands take: --sizes LIST, --at OPS, --layers N,
// --hccl ffts|aiv|aicpu, --ranks N, --dp/--tp/--ep/--etp N (each > 1 is a
// communication group every captured piece is assumed to use, the formula's
// assumption; none given: the groups the pieces' collectives name).
std::vector<FlagSpec> PiecewiseFlags();

// "1,2,4,8:512:8": sizes and inclusive START:STOP[:STEP] ranges, in the
// order written; a range from a larger START counts down ("512:8:8,4,2,1").
Result<std::vector<int64_t>> ParseSizeList(const Word& word);
// A flag's whole number >= least, `fallback` when absent.
Result<int64_t> FlagInt(const CommandFlags& flags, std::string_view name, int64_t fallback, int64_t least);

// "ns::op,ns.op.overload": split ops as `split ... at` and --at write them.
Result<std::vector<SplitOp>> ParseSplitOps(const Word& word);

// The graph named by `graph` ("" for the current one), split and lowered,
// with the flags' settings and `sizes`.
Result<PiecewiseRuntime> MakePiecewiseRuntime(Session& session, const std::string& graph, const CommandFlags& flags,
                                              std::vector<int64_t> sizes);

}  // namespace airscope
