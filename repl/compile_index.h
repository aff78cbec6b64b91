// One index from Dynamo to capture: per compile id, everything a load
// brought (LogBundle: TORCH_TRACE logs, TORCH_LOGS text, a TORCH_COMPILE_DEBUG
// tree) and what the session did with its graphs, tied together. `compiles`,
// `compiles ID` / `show compile ID` and the report's index read it.
//
// How items are tied to a compile, and how sure the tie is:
// - TORCH_TRACE records and TORCH_LOGS lines carry the compile id: exact.
//   The same id in a tree's TORCH_TRACE log and its torchdynamo/debug.log
//   (same run prefix) is one compile.
// - A TorchAir graph printed in TORCH_LOGS text belongs to the compile whose
//   lines came last before it in its process (formats/torch_logs.h).
// - model__K of a TORCH_COMPILE_DEBUG tree counts the Dynamo graphs TorchAir's
//   backend received, from 0 (DebugContext.next_path(), npu_fx_compiler.py:
//   937-939): it is tied to the K-th compile of its run that produced a
//   Dynamo graph, and the tie is checked by comparing model__K's
//   dynamo_out_graph.txt with that compile's Dynamo graph (graph_match.h).
//   The index says whether the graphs matched or the tie is by order only.
// - AclConcreteGraph's "graph_N" (runtime messages, capture dumps,
//   graph_dump files) counts the AOT graphs TorchAir compiled in the process
//   from 1 (npu_fx_compiler.py:565-571, 672-677); TorchAir logs `compiler
//   inputs ... graph:` right before taking the number (641-644), so the N-th
//   such printout in a log is graph_N: a tie by order, said so.
// Phases and their times: TORCH_TRACE's chromium_event pairs and the timing
// fields of compilation_metrics; TORCH_LOGS text's Dynamo `Step N:` lines
// (the difference of their timestamps).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "repl/log_bundle.h"
#include "repl/session.h"

namespace airscope {

struct IndexGraph {
  std::string name;  // the session graph
  std::string kind;  // dynamo_output_graph, aot_forward, torchair_graph, model__0:forward:graph, ...
  size_t nodes = 0;
};

struct IndexPhase {
  std::string name;
  double seconds = 0;
  int depth = 0;
};

struct IndexCompile {
  std::string id;            // as the session names its graphs: "0/0", "rank1:0/0", "as:0/0"
  std::string status = "-";  // success | failure | restart | unknown (TORCH_TRACE); "-" when no log says
  std::string reason;
  std::string function;            // "forward /path/x.py:19"
  std::vector<std::string> stack;  // dynamo_start's, outermost first
  int attempts = 1;
  int64_t ops = -1, nodes = -1, inputs = -1, cache_size = -1;
  int64_t guard_count = -1;
  std::string guards;  // what holds its guards: "dynamo_cpp_guards_str", "TREE_GUARD_MANAGER (line 40)"
  std::vector<std::string> graph_breaks;
  struct Error {
    size_t line = 0;        // of the dynamo_error record in its log
    std::string traceback;  // the artifact's payload, whole
  };
  std::vector<Error> errors;
  std::vector<IndexGraph> graphs;     // Dynamo, AOT and TorchAir's printouts, as the logs hold them
  std::vector<std::string> torchair;  // TorchAir's side: model__K, recorded runs (compare), fx graph names
  std::vector<std::string> recompile_reasons;
  std::vector<std::string> cache;                            // cache artifacts
  std::vector<IndexPhase> phases;                            // in order of their start
  std::vector<std::pair<std::string, double>> metric_times;  // compilation_metrics' durations
  double started_at = -1, ended_at = -1;                     // its timestamps, seconds since the epoch (-1: none)
  std::vector<std::string> runtime;                          // captures and replays, recorded and simulated
  std::vector<std::string> other;                            // output code, specializations, symbols, graph sizes, ...
  std::vector<std::string> sources;                          // which logs mention it
};

struct CompileIndex {
  std::string path;
  std::string what;
  std::vector<IndexCompile> compiles;
  // TorchAir's items no compile id could be tied to (a TorchAir-only log,
  // a tree without a Dynamo log): listed as they are.
  std::vector<std::string> unlinked;
};

// `session` is only read (its device is asked for captured graphs).
CompileIndex BuildCompileIndex(const LogBundle& bundle, Session& session);

// "1.659 s", "12.3 ms", "85 us".
std::string FormatSeconds(double seconds);
// An instant in seconds since the epoch as UTC wall time, to the millisecond:
// "2025-07-18 22:30:01.876 UTC".
std::string FormatEpochSeconds(double seconds);
// The top-level phases (depth 0) as "dynamo 1.659 s, ...", or the metric times when there are none.
std::string PhaseSummary(const IndexCompile& compile);

}  // namespace airscope
