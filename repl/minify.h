// Minify: the smallest graph on which a command line still fails the same
// way, by delta debugging (core/ddmin.h) over the current graph's nodes
// (core/analysis/graph_shrink.h cuts them).
//
// Contract: every try runs LINE in-process, captured (repl/condition.h), with
// a candidate graph in place of the current entry's loaded graph, a fresh
// pipeline (the current one's pass list, breakpoints and skips) and compile
// cache (keeping only the logs the graph was loaded with), and the session's
// settings and device as they were before minify began; after the try all of that is put back. A LINE
// that loads a graph is refused (the session has no way to unload it, and
// minify shrinks the current graph, not one LINE loads). A try is
// kept only when LINE fails with the same failure (repl/failure_match.h);
// passing, or failing differently, never counts. Before shrinking, LINE runs
// twice on the loaded graph: it must fail, and fail the same way again (else
// it is flaky and minify says so). After the nodes, the settings that differ
// from airscope's defaults are reset one at a time, kept reset when LINE still
// fails the same way; then, when LINE steps the current graph's pipeline,
// each pass of its list is dropped alike. Then, when LINE is `source FILE`,
// FILE's `call` lines (repl/minify_sizes.h): the fewest calls that still fail
// (ddmin; a dropped line runs as a blank line, so line numbers stay), then in
// each kept call each size of each input is searched down (1, then binary
// search between 1 and the size, kept when LINE still fails the same way); the
// file is never written, the tries run its changed lines in its place
// (Interpreter::set_script_override). Last, the graph's input sizes alike
// (in rounds while one shrinks), each candidate re-inferred by the op
// registry (a size it cannot infer is not a candidate). Before any of it,
// LINE must fail the same way on an identical copy of the graph put in its
// place (else it does not read the graph minify shrinks: compare). Ctrl-C or the time limit stop the search
// with the smallest failing graph found so far. No printing: progress goes
// to a callback, the caller prints the result.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"
#include "repl/interpreter.h"
#include "repl/settings.h"

namespace airscope {

struct MinifyProgress {
  size_t nodes = 0;  // compute nodes of the smallest failing graph so far
  size_t tries = 0;
  double seconds = 0;
};

struct MinifyOptions {
  std::string line;
  std::optional<std::string> match;  // --match REGEX; else the same failure
  double max_seconds = 0;            // 0: no limit
  std::function<void(const MinifyProgress&)> progress;
};

struct MinifyResult {
  std::string graph_name;  // the entry minified
  std::shared_ptr<const Graph> original;
  std::shared_ptr<const Graph> minimal;          // the smallest failing graph found
  std::string failure;                           // LINE's error on `minimal`
  std::string matched;                           // FailureMatcher::Describe()
  size_t original_nodes = 0, minimal_nodes = 0;  // compute nodes
  size_t tries = 0;
  double seconds = 0;
  Status stopped;  // OK: no single node can be removed; else why it stopped early
  // The settings LINE needs: the session's, with every one the failure does
  // not need back at airscope's default ("NAME VALUE" of each, as it was).
  Settings settings;
  std::vector<std::string> dropped_settings, needed_settings;
  // The current graph's pass list with every pass the failure does not need
  // dropped (only when LINE steps the pipeline; else the list as it was).
  std::vector<std::string> passes, dropped_passes;
  // When LINE is `source FILE` and FILE has `call` lines: FILE as resolved,
  // its lines with the calls the failure does not need dropped and the
  // others at their smallest failing sizes (empty when FILE has no call).
  std::string script_path;
  std::vector<std::string> script_lines;
  std::vector<std::string> dropped_calls;  // each "call ..." as it was
  std::vector<std::string> shrunk_calls;   // "call ... -> call ..."
  // The graph's inputs whose sizes went down: "x f32[64, 64] -> f32[8, 64]".
  std::vector<std::string> shrunk_inputs;
};

Result<MinifyResult> Minify(Interpreter& interpreter, const MinifyOptions& options);

}  // namespace airscope
