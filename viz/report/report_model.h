// ReportData: everything `report DIR` shows, gathered by the shell from its
// session (repl/report_collector.h) and written by WriteReport
// (viz/report/report_writer.h). Plain values and shared immutable graphs:
// the writer reads it only, so it can run on a session it does not know.
//
// Texts that the shell already prints (guard trees, cache entries, recompile
// reasons, `mem`) are carried as that printed text, so the report and the
// shell never disagree about them.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/device/trace.h"
#include "core/ir/graph.h"
#include "viz/hazard_marks.h"
#include "viz/report/timeline_svg.h"

namespace airscope {

struct ReportStage {
  size_t number = 0;   // 0 = the input graph
  std::string pass;    // "input" for stage 0
  std::string status;  // input | ran | skipped | failed
  bool changed = false;
  double seconds = 0;
  size_t nodes = 0;
  std::vector<std::string> remarks;
  std::string error;  // a failed stage's error
  // The graph after this stage. Stages whose pass changed nothing share
  // their predecessor's graph (the same pointer), which the writer uses to
  // draw each distinct graph once. Null when it could not be recomputed.
  std::shared_ptr<const Graph> graph;
  std::string effects_changed;  // what a TorchAir pass changed of the graph's effects (StageRecord)
};

struct ReportGraph {
  std::string name;
  std::string source;  // "tests/data/mlp.readable.py (readable)"
  std::shared_ptr<const Graph> loaded;
  // Stage 0 (the input) to the pipeline's cursor; empty when the graph never
  // went through the pipeline.
  std::vector<ReportStage> stages;
  std::vector<std::string> pipeline;  // the pass list, in order
  // Every call of the graph that reached its compile cache, in order.
  struct Call {
    uint64_t number = 0;
    std::string spec;        // as typed
    std::string outcome;     // hit | compiled | eager
    std::string compile_id;  // the entry hit or made
  };
  std::vector<Call> calls;
  // What the shell prints for this graph's compile cache ("" when it has none).
  std::string cache_text;
  std::string guards_text;
  std::string recompiles_text;
  // The coverage ledger (`coverage`): "3 of 5 calls" ran as a captured graph,
  // for the index ("" without calls), and the ledger as the shell prints it.
  std::string coverage_summary;
  std::string coverage_text;
  // What `check` finds, when it could run without compiling anything
  // (repl/hazard_check.h): the pages that draw `checked` (the graph check
  // lowers, one of `stages` or `loaded`; null when it is none of them) mark
  // `hazards` and list them with their nodes linked.
  std::shared_ptr<const Graph> checked;
  std::vector<HazardMark> hazards;
};

// One compile of a loaded log, for the index: what the shell's one index
// (`compiles ID`) ties to its id, as short texts; "-" where the log has nothing.
struct ReportCompile {
  std::string id;
  std::string status;
  std::string function;
  // dynamo_start's stack, outermost first, "file:line in name"; empty when
  // the log has none (the index lists such compiles apart from its tree).
  std::vector<std::string> stack;
  std::string sizes;   // "ops 3, nodes 5, inputs 1"
  std::string guards;  // guard count
  std::string cache;   // "cache_size 0; fx_graph_cache_miss"
  std::vector<std::string> recompile_reasons;
  std::vector<std::string> times;   // "entire_frame_compile 1.659 s", one per top-level phase
  std::string torchair;             // "model__0 (its dynamo_out_graph.txt matches ...)"
  std::vector<std::string> graphs;  // its graphs' names (linked to their pages)
};

// One load of logs (TORCH_TRACE, TORCH_LOGS text, rank logs, a
// TORCH_COMPILE_DEBUG tree): its compiles as a table.
struct ReportLog {
  std::string path;
  std::string kind;                     // "TORCH_TRACE log", "TORCH_LOGS text", "TORCH_COMPILE_DEBUG tree", ...
  std::vector<ReportCompile> compiles;  // the index's rows
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // one per compile id, columns[0] is the id
  std::vector<std::string> graph_names;        // the graphs the log registered, as `graphs` lists them
  std::string recompiles_text;
  // Rank logs: where the ranks diverge, as `load DIR` prints it ("" for one log).
  std::string divergence_text;
  std::vector<std::pair<std::string, std::string>> guards;  // (compile id, guard text)
  std::vector<std::string> problems;                        // "LINE: message"
};

// One command of the session, as it ran.
struct ReportCommand {
  std::string origin;  // script path, "-c" or "<interactive>"
  size_t line = 0;
  std::string text;
  std::string output;
  std::string error;  // empty when it succeeded
};

struct ReportDevice {
  std::string preset;
  std::optional<Trace> trace;  // the last run (eager, replay, capture), if any
  std::string mem_text;        // what `mem` prints
  std::string captured_text;   // the captured graphs, one per line
  std::string runstats_text;   // what `runstats` prints for the trace
  // What `check` prints for each loaded graph it could check without
  // compiling (a captured graph, or one whose lowered graph exists): (graph,
  // text). The graph's ReportGraph::hazards are listed beside it.
  std::vector<std::pair<std::string, std::string>> checks;
  // The findings of `check` among the tasks of the last run (its trace's
  // graph, when check read those very tasks): marked on the timeline.
  std::vector<TimelineMark> trace_marks;
  std::vector<TimelineLink> trace_links;
};

struct ReportData {
  std::string title;    // "airscope report"
  std::string version;  // airscope's version
  std::vector<ReportGraph> graphs;
  size_t current_graph = 0;  // index into graphs (meaningless when graphs is empty)
  std::vector<ReportLog> logs;
  std::vector<ReportCommand> commands;
  ReportDevice device;
};

}  // namespace airscope
