// The structured `expect` forms: one fact of the session each (a stage of the
// pipeline, a pass's remark, the compile cache's guards and recompiles, the
// AclGraph runtime's captures, the device's last run), read from the
// session's data rather than from a command's printed text, so a test that
// asserts them survives any change of wording. commands_expect.cc dispatches
// to them; each returns OK when the fact holds, else "expect failed: WHAT:
// expected X, actual Y".
#pragma once

#include <string_view>
#include <vector>

#include "core/status.h"
#include "repl/command_table.h"
#include "repl/tokenizer.h"

namespace airscope {

// "expect failed: WHAT: expected X, actual Y": every form fails in these words.
Status ExpectMismatch(std::string_view what, std::string_view expected, std::string_view actual);
// A count word (a non-negative integer), or an error at its column.
Result<size_t> ParseExpectCount(const Word& word);

// stage PASS changed|unchanged|skipped|failed | stage PASS nodes N
Status ExpectStage(CommandContext& ctx, const std::vector<Word>& args);
// remark PASS contains|lacks "TEXT"
Status ExpectRemark(CommandContext& ctx, const std::vector<Word>& args);
// guards N [ENTRY|ID]
Status ExpectGuards(CommandContext& ctx, const std::vector<Word>& args);
// recompiles N
Status ExpectRecompiles(CommandContext& ctx, const std::vector<Word>& args);
// captures|recaptures|replays N [key KEY]
Status ExpectRuntimeCount(CommandContext& ctx, std::string_view form, const std::vector<Word>& args);
// eager N: calls that ran without a captured or compiled graph: past Dynamo's
// recompile limit, or op by op after TorchAir's static_capture_size_limit fallback
Status ExpectEager(CommandContext& ctx, const std::vector<Word>& args);
// tasks N on STREAM
Status ExpectTasks(CommandContext& ctx, const std::vector<Word>& args);
// slice NAME [on STREAM] / no slice NAME [on STREAM] (`want` false)
Status ExpectSlice(CommandContext& ctx, const std::vector<Word>& args, bool want);
// graph NAME: a graph of that name is loaded
Status ExpectGraphLoaded(CommandContext& ctx, const Word& name);

}  // namespace airscope
