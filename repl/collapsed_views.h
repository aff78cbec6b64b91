// `show --by line|function|stream` (the graph as runs of nodes sharing a
// source line, function or stream, one line a run) and the drawing flags
// `--fold` and `--by` of `dump` (repl/drawing_groups.h draws the folded
// repeats or each run as one node).
#pragma once

#include <string>

#include "core/analysis/node_runs.h"
#include "core/ir/graph.h"
#include "core/status.h"
#include "repl/command_flags.h"
#include "repl/command_output.h"
#include "viz/dot_writer.h"

namespace airscope {

// The value of --by, or nothing when it is not given.
Result<std::optional<RunKey>> ByFlag(const CommandFlags& flags);
// "line", "function", "stream".
std::string_view RunKeyName(RunKey key);

// Prints `graph` as runs; with `fold`, the repeats a folded `show` leaves out
// are one line each. An error when a source key is asked of a graph whose
// nodes have no `# File:` source.
Status ShowRuns(const Graph& graph, RunKey key, bool fold, CommandOutput& out);

// dump's --fold and --by: sets dot.groups; `note` says what was collapsed
// (or that nothing folds). An error for a format that is not a drawing, or
// both flags.
Status ApplyCollapseFlags(const CommandFlags& flags, const Graph& graph, std::string_view format, DotOptions& dot,
                          std::string* note);

}  // namespace airscope
