// The shell's side of TorchAir's AclGraph runtime (core/runtime/acl_graph.h):
// what `call` does in reduce-overhead mode after the compile cache found or
// made an entry, the `drop` command, and what `cache` and `mem --graph` show
// of the runtime.
//
// A call in reduce-overhead mode: every input lives in a device buffer (the
// one `in NAME` names, made when new; else the one the input was passed in
// last time, or a new one `INPUT@CALL` when there is none or it is too
// small); the entry's AclGraph (made on its first call, named graph_<N> in
// compile order as TorchAir numbers its FX graphs) computes the graph key,
// captures, recaptures, replays or runs eagerly on the simulated device, and
// the call's outputs become handles `outCALL.I`. A call that fails leaves
// the buffers, the device's memory and the AclGraph as they were.
#pragma once

#include <vector>

#include "core/dynamo/call_spec.h"
#include "core/dynamo/compile_cache.h"
#include "repl/cache_state.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

// Before the compile cache runs: the checks a call's buffers must pass
// (names, sizes), so a bad call changes nothing. `inputs` are bound.
Status CheckCallBuffers(const Session& session, const CacheState* state, const std::vector<CallInput>& inputs);

// After Frame::Call: runs the call through the entry's AclGraph and prints
// what it did. A Dynamo eager call (past the recompile limit) runs nothing.
Status RunAclGraphCall(CommandContext& ctx, CacheState& state, const CallOutcome& outcome,
                       const std::vector<CallInput>& inputs, bool keep);

// `cache`: the runtime lines of entry `index` (nothing when it has none).
void PrintEntryRuntime(const CacheState& state, size_t index, CommandOutput& out);

// `mem --graph`: per captured graph on the device, the addresses it baked in.
void PrintGraphAddresses(Session& session, CommandOutput& out);

}  // namespace airscope
