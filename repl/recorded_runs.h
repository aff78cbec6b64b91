// Finding the recorded stages of real TorchAir runs in what a `load`
// brought: a TORCH_COMPILE_DEBUG tree's phase directories (the 000 graph and
// one dump after every pass TorchAir called, TORCHAIR.md §9), graph_dump's
// dynamo_original/dynamo_optimized pair, and TorchAir's log lines that print
// a graph between passes. `compare` runs airscope's pipeline against them.
//
// What each recording's graphs are (TorchAir at fced8842):
// - 000_aot_<phase>_graph.txt: the graph the stage compiler received, before
//   any pass (observer.dump_gm(gm, "graph"), npu_fx_compiler.py:617-618);
//   NNN_..._graph_after_<pass>.txt: after <pass> (apply_gm_pass and
//   dump_gm, graph_transform_observer.py:37-88; fx2acl_converter.py:240-301).
// - dynamo_original_graph_N: after _optimize_fx and _valid_graph
//   (npu_fx_compiler.py:682-690); dynamo_optimized_graph_N: after
//   resolve_default_stream_markers (fx2acl_converter.py:299-311).
// - log lines: `compiler inputs` ... `graph: graph():` is the input
//   (npu_fx_compiler.py:641-644, before _optimize_fx); `[phase] before|after
//   [post_grad_custom_pre_pass|post_grad_custom_post_pass] execution, graph
//   is` (graph_transform_observer.py:38-44, logged only for the user passes,
//   npu_fx_compiler.py:317-345); `after fx graph optimization, graph is` (the
//   end of _optimize_fx, npu_fx_compiler.py:346); `After resolve_default_
//   stream_markers, graph is:` (graph_pass.py:1446) and `after graph
//   optimization, graph is` (fx2acl_converter.py:303), both after the last
//   pass; `After removing noop ops, graph is` (releases of 2025, TorchAir docs
//   ascend_ir/features/basic/remove_noop_ops.md:53-58).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "repl/log_bundle.h"

namespace airscope {

// Session graph name -> its graph, for the graphs a load registered.
using LoadedGraphs = std::map<std::string, std::shared_ptr<const Graph>>;

// One run per model__K/<phase> with a loaded 000 graph and at least one
// loaded FX stage after it, and one per graph_dump pair (GE-mode pbtxt aside).
std::vector<RecordedRun> RecordedRunsOfTree(const DebugTree& tree, const std::string& name_prefix,
                                            const LoadedGraphs& loaded);

// From TorchAir's graphs in a TORCH_LOGS log: a run starts at each `graph:`
// (compiler inputs) and takes the stage printouts after it. `names` is
// parallel to log.graphs: the session name each got ("" if not loaded).
std::vector<RecordedRun> RecordedRunsOfLog(const TorchLogs& log, const std::vector<std::string>& names,
                                           const LoadedGraphs& loaded);

// The pass a TorchAir log printout of kind `kind` ("torchair_after_fx_graph_
// optimization", "torchair_backward_after_post_grad_custom_pre_pass", ...)
// was printed after; "" when it is no stage of the ACL pipeline. *user_pass
// tells whether the printout is of a user pass.
std::string LogKindPass(std::string_view kind, bool* user_pass);

// AclConcreteGraph's name ("graph_3") as the recorded graphs show it:
// apply_event_closure_with_multi_stream tags its events "<fx name>_<first
// node>" (graph_pass.py:612-680). Empty when no recorded graph has such a tag.
std::string RecordedFxGraphName(const RecordedRun& run);

}  // namespace airscope
