// Piecewise split: a graph cut at given ops into pieces, as vLLM cuts the
// model's FX graph before it compiles and captures each piece: split_graph in
// vllm/compilation/backends.py as on vLLM main since PR #33441 (2026-01-31),
// which calls torch's split_module (torch/fx/passes/split_module.py
// @07bfb4da) with keep_original_order=True. vllm-ascend uses the same split
// for its piecewise ACL graphs (vllm_ascend/platform.py @182b75ea:1073-1093).
//
// Contract, as those sources do it:
//   - Walking the nodes in order (placeholders, get_attr and the output are in
//     no piece), a node whose target is one of the split ops gets a piece of
//     its own, id k+1, and the nodes after it go on in piece k+2; split ops
//     in a row share one piece; a getitem goes into the piece of the node it
//     reads (so no piece takes a tuple); every other node stays in the
//     current piece. Pieces are named submod_ID; an id that got no node makes
//     no piece (a graph that starts with a split op has no submod_0). Older
//     vLLM (@0041b00e) gave every split op a piece of its own and had no
//     getitem rule; the newest also runs a _merge_empty_only_subgraphs step
//     that airscope does not model.
//   - A split op matches its target's overload: "ns::name" (PyTorch's
//     spelling, as vLLM's splitting_ops are written) or "ns.name" means the
//     default overload (torch._library.utils.lookup_op; should_split),
//     "ns::name.overload" that overload. Names no node has are listed in
//     `unmatched` (vLLM skips them without a word: resolve_defined_ops).
//   - A piece's inputs are the values it reads that another piece (or the
//     graph's inputs, get_attr included) makes, in the order of its nodes'
//     first reads (args before kwargs). When an input's shape has symbols,
//     the node that defines each symbol (the first node whose value is a bare
//     SymInt `Sym(s0)`, placeholders first) is an input too, right after it,
//     symbols in name order (split_module's free_symbols rule). A piece's
//     outputs are its values another piece or the graph's output reads, in
//     the order of their first such read; one output is returned bare, none
//     as `()`.
//   - `stitched` is split_module's top graph: the graph's inputs, one
//     call_module per piece in order, getitem of each output when a piece
//     returns several, and the graph's output.
// airscope's simplification: nodes keep their names in the pieces and in the
// stitched graph (split_module, as vLLM calls it, renames a piece's nodes
// from their targets: add -> add_tensor). Global-state nodes (autocast,
// set_grad_enabled), which split_module re-enters per piece, are copied as
// ordinary nodes. Cost: O(nodes + edges).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// One split op as written ("vllm::unified_attention", "aten.mm.default").
struct SplitOp {
  std::string written;
  std::string op;        // "vllm.unified_attention": namespace.name
  std::string overload;  // "default" unless written
};
// Error: a name that is not ns::name[.overload] or ns.name[.overload].
Result<SplitOp> ParseSplitOp(std::string_view written);
bool MatchesSplitOp(const Node& node, const SplitOp& op);

// vLLM's default splitting ops (CompilationConfig._attention_ops, used when
// splitting_ops is None: set_splitting_ops_for_v1), and the two vllm-ascend
// adds for piecewise graphs (platform.py): what `split` cuts at by default.
std::span<const std::string_view> DefaultSplitOps();

struct GraphPiece {
  std::string name;  // submod_ID
  int id = 0;
  bool is_split_op = false;  // one of the split ops: vLLM runs it eagerly, never compiled or captured
  std::shared_ptr<Graph> graph;
  std::vector<std::string> inputs;   // names in the original graph, in call order
  std::vector<std::string> outputs;  // names in the original graph, in return order
};

struct PiecewiseSplit {
  std::vector<GraphPiece> pieces;  // by id
  std::shared_ptr<Graph> stitched;
  std::vector<std::string> unmatched;  // split ops (as written) no node of the graph has
};

// Errors: a piece needs a symbol (in an input's shape) that no node of the
// graph defines as a bare SymInt (torch's split_module fails there too: a
// Dynamo graph lifts every symbol as a SymInt input; an AOT-level graph may
// not have them).
Result<PiecewiseSplit> SplitAtOps(const Graph& graph, std::span<const SplitOp> ops);

}  // namespace airscope
