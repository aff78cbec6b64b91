// split: a loaded graph cut into the pieces vLLM compiles and captures one by
// one (core/analysis/piecewise_split.h). Each piece is a graph of its own in
// the session, to step, capture and replay like any other.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "core/analysis/piecewise_split.h"
#include "core/analysis/graph_shrink.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/piecewise_setup.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr const char* kSplitUsage = "split [GRAPH] [at OP[,OP...]]";

Status SplitCommand(CommandContext& ctx) {
  const std::vector<Word>& args = ctx.args;
  size_t i = 0;
  std::string graph_name;
  if (i < args.size() && args[i].text != "at") graph_name = args[i++].text;
  std::vector<SplitOp> ops;
  if (i < args.size()) {
    if (args[i].text != "at" || i + 2 != args.size()) return UsageError(kSplitUsage);
    AIRSCOPE_ASSIGN_OR_RETURN(ops, ParseSplitOps(args[i + 1]));
  } else {
    for (std::string_view written : DefaultSplitOps()) ops.push_back(*ParseSplitOp(written));
  }
  const Session::Entry* entry = nullptr;
  if (graph_name.empty()) {
    AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * current, ctx.session.Current());
    entry = current;
  } else {
    entry = ctx.session.Find(graph_name);
    if (!entry) return Status::Errorf("no graph named '{}' (graphs lists them)", graph_name);
  }
  const std::string name = entry->name;
  const std::string current = ctx.session.current() ? ctx.session.current()->name : name;
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseSplit split, SplitAtOps(*entry->loaded.graph, ops));
  if (split.pieces.empty()) return Status::Errorf("'{}' has no node to split: nothing but inputs and its output", name);
  size_t matched = ops.size() - split.unmatched.size();
  if (matched == 0) {
    return Status::Errorf("no node of '{}' is one of the {} split op(s) ({}): it would be one piece, the graph itself",
                          name, ops.size(), fmt::join(split.unmatched, ", "));
  }
  size_t eager = 0;
  for (const GraphPiece& p : split.pieces) eager += p.is_split_op;
  ctx.out.Styled(Style::kAccent, "split '{}': {} piece(s), {} to compile and capture, {} at split ops (run eagerly)",
                 name, split.pieces.size(), split.pieces.size() - eager, eager);
  ctx.out.Print("  {:<10} {:<28} {:>6} {:>7} {:>8}  {}", "piece", "graph", "nodes", "inputs", "outputs", "kind");
  std::shared_ptr<const ModuleTable> modules = entry->loaded.modules;
  for (GraphPiece& p : split.pieces) {
    std::string piece_graph = p.graph->name();
    ctx.out.Print("  {:<10} {:<28} {:>6} {:>7} {:>8}  {}", p.name, piece_graph, ComputeNodeCount(*p.graph),
                  p.inputs.size(), p.outputs.size(),
                  p.is_split_op ? "split op: eager, not compiled or captured" : "compiled, captured per size");
    LoadedGraph loaded;
    loaded.graph = std::move(p.graph);
    loaded.path = fmt::format("split of '{}'", name);
    loaded.modules = modules;
    bool replaced = false;
    ctx.session.AddGraph(piece_graph, std::move(loaded), &replaced);
  }
  std::string stitched = split.stitched->name();
  LoadedGraph top;
  top.graph = std::move(split.stitched);
  top.path = fmt::format("split of '{}'", name);
  bool replaced = false;
  ctx.session.AddGraph(stitched, std::move(top), &replaced);
  ctx.out.Print("  {}: the graph that calls the pieces in order (vLLM's split_gm)", stitched);
  if (!split.unmatched.empty()) {
    ctx.out.Print("  not in '{}' (vLLM skips such split ops without a word): {}", name,
                  fmt::join(split.unmatched, ", "));
  }
  return ctx.session.Use(current);
}

}  // namespace

void RegisterSplitCommand(CommandTable& table) {
  table.Add({"split", kSplitUsage, "cut a graph into the pieces vLLM compiles and captures (piecewise graphs)",
             "Cuts GRAPH (default: the current graph), as loaded, at every node whose target is one of the\n"
             "OPs, the way vLLM's split_graph does before it compiles a model with piecewise ACL/CUDA graphs\n"
             "(vllm/compilation/backends.py, torch.fx split_module with keep_original_order=True; vllm-ascend\n"
             "uses it for piecewise ACL graphs). Each split op gets a piece of its own (split ops in a row\n"
             "share one); the nodes between them make the other pieces; a getitem stays with what it reads.\n"
             "A piece's inputs are the values it reads from other pieces or the graph's inputs, in first-read\n"
             "order, each followed by the SymInt inputs its shape's symbols need; its outputs what later\n"
             "pieces or the graph's output read. Pieces are named submod_N as vLLM names them; every id the\n"
             "walk passes counts, so the numbers skip where a piece would be empty.\n"
             "\n"
             "OP is written as vLLM's splitting_ops are, namespace::name (its default overload) or\n"
             "namespace::name.overload; namespace.name works too. Default: vLLM's attention ops\n"
             "(CompilationConfig._attention_ops at vLLM @002284db) plus vllm::mla_forward and\n"
             "vllm::dsa_forward, which vllm-ascend adds (platform.py @182b75ea). vLLM's list changes between\n"
             "versions (PR #33441, whose rule for split ops in a row airscope follows, also added\n"
             "vllm::unified_kv_cache_update): give `at` your vLLM's splitting_ops to match it. OPs no node\n"
             "has are listed (vLLM skips them silently); a split where none matches is refused.\n"
             "\n"
             "Each piece becomes a graph GRAPH_submod_N, and GRAPH_split the graph that calls them in order\n"
             "(call_module, getitem), vLLM's split_gm. The current graph does not change.\n"
             "airscope simplifies: node names are kept in the pieces (torch renames them from their targets,\n"
             "add -> add_tensor); autocast and set_grad_enabled regions are not re-entered per piece as\n"
             "split_module does; newer vLLM's _merge_empty_only_subgraphs step is not modelled.\n"
             "Example: split at vllm::unified_attention_with_output",
             SplitCommand, nullptr});
}

}  // namespace airscope
