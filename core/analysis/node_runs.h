// Runs of consecutive nodes that share where they come from: the source
// statement or function torch's print_readable names in its `# File:`
// comments, or the stream a node runs on. What `show --by` lists and
// `dump --by` draws as one node a run.
//
// Where a node comes from. torch's print_readable (fx/graph.py,
// append_stacktrace_summary) writes a `# File: ...` comment only where a
// node's stack trace differs from the previous node's, and `# No stacktrace
// found for following nodes` where it stops having one; placeholders and the
// output get none. So a node's source is the last such comment at or before
// it (airscope's readable loader keeps the comments above a statement as that
// node's NodeMeta::stack_trace), and nothing after a "No stacktrace" line.
// The comment is `File: PATH:LINE in FUNCTION, code: CODE` (torch >= 2.2's
// summary) or `File: PATH:LINE, code: CODE` (torch 2.0-2.1, no function).
// torch's FX text has only this innermost frame: no nn_module_stack, so
// airscope groups by what it has, and names it so.
//
// Contract: pure, reads the graph only, deterministic; O(nodes).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

// One `# File:` comment, parsed.
struct SourceFrame {
  std::string_view file;
  std::string_view line;      // the line number's digits
  std::string_view function;  // "" for torch 2.0-2.1's summaries
  std::string_view code;
};
// The frame a comment line names ("# File: ..." or "File: ..."), or nothing
// when it is not such a line.
std::optional<SourceFrame> ParseFileComment(std::string_view comment);

enum class RunKey {
  kLine,      // the source statement: PATH:LINE in FUNCTION
  kFunction,  // PATH in FUNCTION (PATH alone without a function name)
  kStream,    // the node's stream ("" for none)
};

struct NodeRun {
  size_t begin = 0;  // graph positions [begin, end)
  size_t end = 0;
  // What the run shares: "playground.py:8 in f" (kLine), ".../playground.py
  // in f" (kFunction), "s1" (kStream); "" when the nodes have no source
  // (before any `# File:` comment, after a "No stacktrace" one, placeholders
  // and the output) or no stream.
  std::string key;
  std::string code;  // kLine: the statement's code as the comment gives it
};

// The runs of the graph's nodes at positions [begin, end) (end clamped to
// the graph's size), in order; together they cover that range.
std::vector<NodeRun> NodeRuns(const Graph& graph, RunKey key, size_t begin = 0, size_t end = SIZE_MAX);

// How many nodes have a `# File:` source (a run key other than "").
size_t NodesWithSource(const Graph& graph);

}  // namespace airscope
