// TORCH_TRACE structured logs (the input of PyTorch's tlparse), read line by
// line. Each record is a glog prefix (`V1206 15:18:20.599000 1500233
// torch/_dynamo/output_graph.py:1336] `) and one JSON envelope on one line;
// with "has_payload" the record's payload follows as lines starting with a
// TAB, and md5("\n".join(lines without the TAB)) equals the has_payload value.
//
// The reader collects what airscope shows: compiles (per compile id, as
// torch/_guards.py CompileId.__str__ writes it: `frame/compile`, `!ca` or
// `!ca/frame/compile` for compiled autograd; from dynamo_start, whose stack
// is kept, and compilation_metrics), guards (dynamo_cpp_guards_str /
// dynamo_guards), recompile reasons, cache artifacts (fx_graph_cache_* /
// aotautograd_cache_*), Inductor's output code (its file and size),
// symbolic_shape_specialization and guard_added records, graph breaks
// (artifact dynamo_graph_break_reason), the envelope's
// `rank`, and the graphs (any `*_graph` envelope: dynamo_output_graph,
// aot_forward_graph, ...) as print_readable text, named by trace id (the
// compile id with `_ATTEMPT` for a restarted analysis, TraceId.__str__).
// chromium_event payloads give each compile's phases and their durations.
// Payloads of other records are only checksummed.
// A bad line (broken JSON, a stray payload line) is recorded as a problem
// with its line number and reading goes on: a damaged log still loads. A
// payload whose md5 is wrong is kept, with a problem saying so, as tlparse
// keeps it (tlparse src/lib.rs:700-711 counts fail_payload_md5 and goes on).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

struct TraceCompile {
  std::string id;  // "0/1", "!0/1/0", "!2"
  int frame_id = -1;
  int frame_compile_id = -1;
  int compiled_autograd_id = -1;
  int attempts = 1;  // highest attempt seen + 1
  int starts = 0;    // dynamo_start records (a log can hold several runs)
  size_t line = 0;   // first dynamo_start (or first record) line
  bool has_metrics = false;
  std::string function;            // co_name
  std::string filename;            // co_filename:co_firstlineno
  std::string status;              // success | restart | failure | unknown (no compilation_metrics)
  std::string reason;              // failure: "fail_type: fail_reason"; restart: the restart reasons
  std::vector<std::string> stack;  // dynamo_start's stack, outermost first: "file:line in name"
  int64_t graph_op_count = -1, graph_node_count = -1, graph_input_count = -1;
  int64_t cache_size = -1, accumulated_cache_size = -1, guard_count = -1, shape_env_guard_count = -1;
  // compilation_metrics' durations as they are named there, in seconds:
  // `*_time_s` (entire_frame_compile_time_s, backend_compile_time_s, ...; torch
  // <= 2.5), `*_time_us` (dynamo_cumulative_compile_time_us, ...; later),
  // `*_time_ms` (remote_fx_graph_cache_get_time_ms) and duration_us.
  std::vector<std::pair<std::string, double>> metric_times;
  // When the compile started and ended, in seconds since the epoch: not
  // durations. torch's record_compilation_metrics logs start_time_us and
  // end_time_us as time.time_ns() // 1000 and the legacy start_time as
  // start_time_ns / 1e9 (torch/_dynamo/utils.py). Negative when not logged.
  double started_at = -1;
  double ended_at = -1;
};

// A phase of one compile from a chromium_event pair: dynamo_timed logs a "B"
// and an "E" event with a microsecond "ts" and args.compile_id
// (torch/_dynamo/utils.py, dynamo_timed / ChromiumEventLogger); an "X" event
// carries its "dur". Nested phases have a greater depth.
struct TracePhase {
  std::string compile_id;  // base compile id ("0/0")
  std::string name;        // entire_frame_compile, backend_compile, compile_fx_inner, ...
  double start_us = 0;
  double seconds = 0;
  int depth = 0;
  size_t line = 0;  // the line of its "B" (or "X") record
};

struct TraceGraph {
  std::string compile_id;  // trace id ("0/0", "0/0_1" for attempt 1); "" when the record had no compile id
  std::string stage;       // the envelope key: dynamo_output_graph, aot_forward_graph, ...
  std::string text;        // print_readable code
  size_t line = 0;
};

struct TraceArtifact {
  std::string compile_id;
  std::string name;  // fx_graph_cache_hit, aotautograd_cache_miss, ...
  size_t line = 0;
};

// One recompile_reasons record: the reasons Dynamo gave for compiling
// `compile_id` (each "0/0: tensor 'L['x']' size mismatch ...").
struct TraceRecompile {
  std::string compile_id;
  size_t line = 0;
  std::vector<std::string> reasons;
};

// An inductor_output_code record: the generated module's file and size.
struct TraceOutputCode {
  std::string compile_id;
  std::string filename;
  size_t lines = 0;
  size_t bytes = 0;
  size_t line = 0;
};

// An artifact "dynamo_graph_break_reason" (torch/_dynamo/symbolic_convert.py
// and convert_frame.py log each graph break so): the user stack and traceback.
struct TraceGraphBreak {
  std::string compile_id;
  std::string summary;  // the payload's first line, and its "Reason: ..." line when it has one
  size_t line = 0;
};

// dynamo_error: the traceback of the exception that failed a compile, as
// torch/_dynamo/convert_frame.py logs it (the artifact's payload, whole).
struct TraceError {
  std::string compile_id;
  std::string traceback;
  size_t line = 0;
};

// symbolic_shape_specialization: a symbol Dynamo specialized to a value.
struct TraceSpecialization {
  std::string compile_id;
  std::string symbol, value, reason, sources;
  size_t line = 0;
};

// guard_added: a shape guard added during tracing (by Dynamo, or by export,
// whose records carry no compile id).
struct TraceGuardAdded {
  std::string compile_id;
  std::string expr;
  size_t line = 0;
  // The innermost frame of its user_stack, "FILE:LINE in FN: CODE", and its
  // symbols' sources ("s0 = L['args'][0][0].size()[0]"); empty when not logged.
  std::string user_frame;
  std::string code;  // frame_locals' loc: the user's line, when torch logged no user_stack (before 2.7)
  std::vector<std::string> symbol_sources;
};

// "Eq(s0, 3) (line 27) at FILE:LINE in FN: CODE (s0 = L['x'].size()[0])": as listed.
std::string DescribeGuardAdded(const TraceGuardAdded& guard);

// exported_program: what torch.export produced (_export's log of the
// ExportedProgram's str): its graph is one of TraceLog::graphs, stage
// "exported_program"; these are the lines after the graph.
struct TraceExport {
  size_t line = 0;
  std::string graph_signature;    // "ExportGraphSignature(input_specs=[...], output_specs=[...])"
  std::string range_constraints;  // "{u0: VR[-int_oo, 15], s0: VR[2, int_oo]}"
};
// "torch.export's program (line 39)" and, after `detail`, its range constraints, as listed.
std::string DescribeExport(const TraceExport& exported, std::string_view detail);

struct TraceProblem {
  size_t line = 0;
  std::string message;
};

struct TraceLog {
  std::string path;
  size_t lines = 0;
  size_t records = 0;
  size_t payload_bytes = 0;
  std::vector<TraceCompile> compiles;                // in order of first appearance
  std::map<std::string, std::string> cpp_guards;     // compile id -> dynamo_cpp_guards_str (last)
  std::map<std::string, std::string> dynamo_guards;  // compile id -> dynamo_guards JSON text (last)
  std::vector<TraceRecompile> recompiles;            // one per recompile_reasons record, in log order
  std::vector<TraceOutputCode> output_code;
  std::vector<TraceSpecialization> specializations;
  std::vector<TraceGuardAdded> guards_added;
  std::vector<TraceExport> exports;
  std::vector<TraceGraphBreak> graph_breaks;
  std::vector<TraceError> errors;              // dynamo_error artifacts, in log order
  int rank = -1;                               // the envelopes' "rank" (-1: none)
  std::vector<TraceArtifact> cache_artifacts;  // fx_graph_cache_* and aotautograd_cache_* only
  std::vector<TraceGraph> graphs;              // in log order
  std::vector<TracePhase> phases;              // per compile, in order of their start
  size_t unmatched_phase_events = 0;           // a "B" without its "E" (or the reverse)
  std::vector<TraceProblem> problems;          // the first kMaxProblems
  size_t more_problems = 0;                    // and how many more there were
  static constexpr size_t kMaxProblems = 100;

  const TraceCompile* FindCompile(std::string_view id) const;
  // Artifacts whose name ends with `_hit`, `_miss`, `_bypass` (of either cache).
  size_t CountArtifacts(std::string_view cache, std::string_view outcome) const;
};

// True when `first_line` is a glog-prefixed JSON record (what `load` sniffs).
bool LooksLikeTraceLog(std::string_view first_line);

class TraceLogReader {
 public:
  explicit TraceLogReader(std::string path);
  ~TraceLogReader();
  TraceLogReader(const TraceLogReader&) = delete;
  TraceLogReader& operator=(const TraceLogReader&) = delete;
  // One line without its '\n' (a trailing '\r' is dropped).
  void AddLine(std::string_view line);
  TraceLog Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

TraceLog ParseTraceLog(std::string_view content, std::string path);
// Reads the file in chunks (never the whole file at once); errors only for I/O.
Result<TraceLog> LoadTraceLogFile(const std::string& path, uint64_t max_bytes);

}  // namespace airscope
