// TORCH_LOGS text: what `TORCH_LOGS=...` (torch._logging) and TorchAir's
// logger print, as engineers paste it into issues. A pure reader: lines in,
// a TorchLogs out, every item with the log line it came from. It never
// fails: a line it does not recognise is other output (prints, warnings,
// shell lines) and is counted; a damaged message is a problem with its line.
//
// Layouts (recognised line by line, so they may be mixed in one file):
// - glog, torch >= 2.2: `[rankN]:V0515 09:03:07.649000 PID path.py:1157]
//   [0/0] [__graph_code] text`. Every line of a message repeats the prefix
//   (torch/_logging/_internal.py, TorchLogsFormatter.format: `"\n".join(
//   f"{prefix} {l}" for l in lines)`, prefix = rankprefix + V|I|W|E|C +
//   `%m%d %H:%M:%S.usec PID file:lineno]` + ` [trace id]` + ` [__artifact]`).
// - bracket, torch 2.1: `[rankN]:[2025-02-06 16:46:56,300] [0/0]
//   torch._dynamo.output_graph.__graph_code: [DEBUG] text`, prefix on every
//   line (same formatter, 2.1: f"{rankprefix}[{asctime}]{traceid} {name}:
//   [{levelname}]"); torch 2.0 printed the prefix on a message's first line
//   only (pytorch PR 104672's log), so unprefixed lines continue it.
// - bare: the prefix stripped by the user (`[0/1] [__recompiles] text`,
//   `W [0/8] text`) or not printed at all (TORCH_LOGS_FORMAT="", docs):
//   messages are found by how they start (`TRACED GRAPH`, `GUARDS:`,
//   `Recompiling function`, `Graph break`, `torch._dynamo hit config.`, ...).
// - TorchAir: `[INFO] TORCHAIR(pid,exe):2025-05-15 09:03:07.720.050
//   [npu_fx_compiler.py:324]9569 message` (TorchAir core/utils.py:100-130,
//   `_MillisecAndMicrosecFormatter`), and its C++ logger's
//   `...:2025-02-06-15:44:53.084.205 [file.cpp:46]tid message`. Python
//   logging prints a multi-line message as it is: an FX graph's lines follow
//   without a prefix.
// Compile ids are torch's CompileId/TraceId strings (torch/_guards.py:
// `F/C`, `!CA`, `!CA/F/C`, each with `_ATTEMPT` when attempt > 0). A log
// that prints none gets its graphs numbered in order of appearance (g1,
// g2, ...): the reader never invents a compile id. TorchAir's lines carry
// no compile id; a TorchAir graph belongs to the Dynamo compile whose lines
// came last before it in the same process (TorchAir compiles inside
// Dynamo's backend call, "Step 2: calling compiler function"), or is
// numbered when no compile was seen.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

// A compile id as torch prints it, split: "0/1_2" -> base "0/1", attempt 2.
struct TraceIdParts {
  std::string base;
  int attempt = 0;
};
// True for `F/C`, `!CA`, `!CA/F/C`, each optionally `_N` (torch/_guards.py,
// COMPILE_ID_PATTERN / CA_COMPILE_ID_PATTERN and TraceId.__str__).
bool ParseTraceId(std::string_view text, TraceIdParts* parts = nullptr);
// The base of a compile id ("0/1_2" -> "0/1"); the text itself when it is not one.
std::string TraceIdBase(std::string_view id);

struct TorchLogsGraph {
  std::string name;  // `ID:KIND` (`rankN:` in front when the log has several ranks), unique in the log
  std::string id;    // trace id as printed ("0/0", "0/1_1", "!0/3/0_1"); empty when the log printed none
  int rank = -1;
  std::string kind;      // dynamo, aot_forward, aot_backward, aot_joint, compiled_autograd, torchair_graph, ...
  std::string title;     // what the log calls it: "__compiled_fn_1", "Forward graph 0", "after sym input optimization"
  std::string artifact;  // graph_code, graph, aot_graphs, ...; "torchair" for TorchAir's printouts
  bool fx_text = false;  // `graph():` FX text (TorchAir) rather than print_readable code
  std::string text;      // the graph as printed, from `class ...:` or `graph():` on, prefixes removed
  size_t line = 0;       // the log line where the message starts
  // Per line of `text`: the log line it came from and the column where it
  // starts there (0-based), so a parse error names the log's line:col.
  // A column is negative where airscope put back indentation a web page
  // dropped (FX text lines are indented by 4 as torch prints them).
  std::vector<uint32_t> source_lines;
  std::vector<int32_t> source_columns;
  size_t copies = 0;  // identical reprints dropped (the `graph` artifact repeats graph_code)
  // TorchAir's `compiler inputs` graph: the `input N: ...` reprs logged right
  // before it (npu_fx_compiler.py:641-644), one per example input, in order.
  std::vector<std::string> inputs;
};

// `FakeTensor(..., device='npu:0', size=(64, 128), dtype=torch.float16)` ->
// "f16[64, 128]" (FakeTensor's repr prints no dtype for float32); "" for
// anything else (a SymInt input such as `s2`, an unknown dtype).
std::string FakeTensorAnnotation(std::string_view repr);

// A `GUARDS:` message and the guard lines that follow it for one compile:
// the TREE_GUARD_MANAGER tree (torch >= 2.4) or the flat list.
struct TorchLogsGuards {
  std::string id;
  int rank = -1;
  size_t line = 0;
  bool tree = false;
  size_t count = 0;  // leaf guards (tree) or guard lines (flat)
  std::string text;
};

// One recompile message as Dynamo printed it (guards.py,
// get_and_maybe_log_recompilation_reasons; convert_frame.py before 2.4).
// What is printed for a recompile with header_missing.
inline constexpr std::string_view kRecompileHeaderMissing =
    "the log starts after this message's first line, which names the function";
// ... and for one with cut_at_end.
inline constexpr std::string_view kRecompileCutAtEnd = "the log ends inside this message, before its guard failures";

struct TorchLogsRecompile {
  std::string id;  // the compile the recompile starts ("0/1"); empty when the line had none
  int rank = -1;
  size_t line = 0;
  bool verbose = false;  // recompiles_verbose ("guard N failures:" groups)
  // The log holds only the message's later lines (it starts after the
  // "Recompiling function F in L" line): function and location are unknown.
  bool header_missing = false;  // said as kRecompileHeaderMissing
  // The log ends inside the message, before any guard failure: they are unknown.
  bool cut_at_end = false;
  std::string function;               // "f"
  std::string location;               // "/data/b.py:3"
  std::vector<std::string> details;   // the lines after the first, stripped: "triggered by ...", "- 0/0: ..."
  std::vector<std::string> failures;  // the "- ..." lines without "- "
};

struct TorchLogsGraphBreak {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string location;  // "/path/playground.py:6" or "File "...", line 7, in fn"
  std::string reason;
  // Newer Dynamo's (torch/_dynamo/exc.py format_graph_break_message) lines under the reason.
  std::string explanation;         // "Dynamo does not support tracing `Tensor.item()` ..."
  std::vector<std::string> hints;  // each "Hint:" line's text
  std::string debug_context;       // "Developer debug context: ..." when the message kept it
};

// A graph break's explanation, hints and debug context as lines to print
// under it ("\n" + `indent` spaces + "Explanation: ..."), or "" when the
// message had none (Dynamo before format_graph_break_message).
std::string GraphBreakNotes(const TorchLogsGraphBreak& graph_break, size_t indent);

// dynamic: `create_symbol s0 = 3 for L['x'].size()[0] [2, int_oo] at ...`.
struct TorchLogsSymbol {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string symbol, value, source, range;
};

// dynamic: `eval Eq(s0, 3) [guard added] at ...` (evaluate_expr before 2.4).
struct TorchLogsShapeGuard {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string expr;
};

// convert_frame.py: `torch._dynamo hit config.cache_size_limit (8)` (later
// `recompile_limit`, `accumulated_cache_size_limit`).
struct TorchLogsCacheLimit {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string limit;        // "cache_size_limit (8)"
  std::string function;     // "'fn' (/path/playground.py:5)"
  std::string last_reason;  // "0/0: tensor 'L['x']' size mismatch ..."
};

// graph_sizes: `TRACED GRAPH TENSOR SIZES` then `name: (2, 2)` per line.
struct TorchLogsGraphSizes {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string title;
  std::vector<std::string> sizes;
};

// Dynamo's `Step N: ...` progress line (`Step 1: torchdynamo start tracing
// f a.py:3`, `Step 1: torchdynamo done tracing f (RETURN_VALUE)`, `Step 2:
// calling compiler function X`, `Step 2: done compiler function X`;
// torch/_dynamo/convert_frame.py and output_graph.py, Inductor's `Step 3:
// torchinductor compiling|done compiling ...`) with the time its prefix
// printed: what TORCH_LOGS text tells of how long a compile's phases took.
struct TorchLogsStep {
  std::string id;
  int rank = -1;
  size_t line = 0;
  std::string text;  // the line's text, up to 200 characters
  double time = -1;  // seconds since the year's start (glog prints no year); -1 without a stamp
};

// A compile id the log mentions, with what Dynamo said of it.
struct TorchLogsCompile {
  std::string id;  // base compile id ("0/1")
  int rank = -1;
  size_t line = 0;       // first line with it
  int attempts = 1;      // highest attempt seen + 1
  std::string function;  // from "torchdynamo start compiling" / "Step 1: torchdynamo start tracing"
  std::string location;
  size_t lines = 0;  // log lines carrying it
};

// TorchAir's AclGraph runtime messages (_acl_concrete_graph/acl_graph.py at
// fced8842; fx2acl_converter.py in 2025 releases), per fx graph name.
struct TorchAirEvent {
  std::string fx_graph;  // "graph_1"; "id 281468755723648" for the 2025 form; empty when the message names none
  std::string kind;      // hit, capture, captured, recapture, limit_reached, memory_before_reset, ...;
                         // debug_saved: "[phase] Full debug info saved to: PATH" (key: PATH)
  std::string key;       // the graph key, when the message gives one
  std::string text;      // the message's first line
  size_t line = 0;
};

struct TorchLogsProblem {
  size_t line = 0;
  std::string message;
};

struct TorchLogs {
  std::string path;
  size_t lines = 0;
  size_t torch_lines = 0;                  // lines in a torch._logging layout
  size_t torchair_lines = 0;               // TorchAir prefixed lines
  size_t other_lines = 0;                  // neither (and not a continuation)
  std::vector<std::string> layouts;        // glog, bracket, bare, torchair, torchair-c++: in order first seen
  std::vector<int> ranks;                  // sorted
  std::vector<TorchLogsCompile> compiles;  // in order of first appearance
  std::vector<TorchLogsGraph> graphs;      // in log order
  std::vector<TorchLogsGuards> guards;
  std::vector<TorchLogsRecompile> recompiles;
  std::vector<TorchLogsGraphBreak> graph_breaks;
  std::vector<TorchLogsSymbol> symbols;
  std::vector<TorchLogsShapeGuard> shape_guards;
  std::vector<TorchLogsCacheLimit> cache_limits;
  std::vector<TorchLogsGraphSizes> graph_sizes;
  std::vector<TorchAirEvent> events;
  std::vector<TorchLogsStep> steps;
  // Lines with `torch._dynamo.exc.FailOnRecompileLimitHit` (fullgraph=True: the
  // call past the recompile limit raised instead of running eager).
  std::vector<size_t> limit_raised_lines;
  std::map<std::string, size_t> artifacts;         // every `__artifact` seen -> lines
  std::map<std::string, size_t> unread_artifacts;  // those airscope does not interpret -> lines
  size_t tabular_graphs = 0;  // `graph` artifact tables (tabulate installed): not a graph form airscope reads
  std::vector<TorchLogsProblem> problems;  // the first kMaxProblems
  size_t more_problems = 0;                // and how many more there were
  static constexpr size_t kMaxProblems = 100;

  // `rankN:ID` when the log has several ranks, else ID ("" stays "").
  std::string Qualified(int rank, std::string_view id) const;
  const TorchLogsCompile* FindCompile(int rank, std::string_view base_id) const;
  // The guards of `qualified` ("0/0", "0/0_1", "rank1:0/0"): exact trace id
  // first, else the last set of that base compile id. nullptr when none.
  const TorchLogsGuards* FindGuards(std::string_view qualified) const;
};

// True when `head` (the first bytes of a file) holds TORCH_LOGS or TorchAir
// lines: what `load` sniffs. A TORCH_TRACE log is not TORCH_LOGS text.
bool LooksLikeTorchLogs(std::string_view head);

class TorchLogsReader {
 public:
  explicit TorchLogsReader(std::string path);
  ~TorchLogsReader();
  TorchLogsReader(const TorchLogsReader&) = delete;
  TorchLogsReader& operator=(const TorchLogsReader&) = delete;
  // One line without its '\n' (a trailing '\r' is dropped).
  void AddLine(std::string_view line);
  TorchLogs Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

TorchLogs ParseTorchLogs(std::string_view content, std::string path);
// Streams the file line by line (bounded memory: only what the result keeps
// is held), checking for Ctrl-C between chunks of lines; errors only for I/O,
// the size limit and an interrupt.
Result<TorchLogs> LoadTorchLogsFile(const std::string& path, uint64_t max_bytes);

}  // namespace airscope
