// The logs and graphs of a distributed run's per-rank TORCH_TRACE logs, read
// for `load DIR` (repl/commands_trace.cc).
//
// A 64-rank job logs the same graphs 64 times: every rank compiles the same
// model (the rank-divergence summary says so when it holds). So a graph text
// is parsed once, and each rank whose log holds that very text (same compile
// id, stage and bytes) gets an entry of its own (`rank7:0/0:aot_forward_graph`)
// sharing that one immutable Graph, named after the ranks that logged it
// (`rank0-63:0/0:aot_forward_graph`); a rank whose graph differs gets its own.
// The logs themselves are read in parallel, one thread a core: each is
// independent of the others.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/status.h"
#include "formats/torch_trace.h"
#include "repl/graph_loader.h"

namespace airscope {

// The names `load` gives a log's graphs, in log order: PREFIX + compile id
// ("-" for none) + ":" + stage, with "#2", "#3" ... for the same name again.
std::vector<std::string> TraceGraphNames(const TraceLog& log, const std::string& prefix);

// Each file read by LoadTraceLogFile, in the files' order (threads: at most
// one a core and one a file).
std::vector<Result<TraceLog>> ReadTraceLogs(const std::vector<std::string>& files, uint64_t max_bytes);

struct RankGraphs {
  std::vector<std::pair<std::string, LoadedGraph>> graphs;  // entry name, graph: rank by rank, in log order
  std::vector<std::string> warnings;                        // "NAME not loaded: ..."
  size_t parsed = 0;                                        // distinct graph texts parsed
};
// `logs`: (rank, log, the name shown for its file); `prefix`: "" or "NAME:"
// before each entry's "rankN:".
RankGraphs LoadRankGraphs(const std::vector<std::pair<int, const TraceLog*>>& logs,
                          const std::vector<std::string>& shown, const std::string& prefix, const OpRegistry& registry);

// "0-3, 5" as "0-3,5": ranks in a graph name.
std::string RankRanges(const std::vector<int>& ranks);

}  // namespace airscope
