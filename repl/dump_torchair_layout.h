// The dump tree TorchAir writes under TORCH_COMPILE_DEBUG=1 (`set dump.layout
// torchair`), as pure functions of a stage and TorchAir's switches:
//
//   DIR/torchair/model__K/dynamo_out_graph.txt              the pipeline's input
//   DIR/torchair/model__K/forward/000_aot_forward_graph.txt  the graph after aot
//   DIR/torchair/model__K/forward/NNN_aot_forward_graph_after_<pass>.txt
//
// Facts (TorchAir's source): `DebugContext.next_path()` makes model__K, K
// counting Dynamo graphs from 0, and `dump_fx_safety(gm, .../dynamo_out_graph.txt)`
// writes the graph before replace_stream_event_pass (npu_fx_compiler.py
// _npu_backend entry, "1. Debug: Dump Dynamo output graph");
// GraphTransformObserver.dump_gm names `{count:03d}_aot_{phase}_{name}.txt`
// with a counter shared by the phase's dumps (graph_transform_observer.py);
// `observer.dump_gm(gm, "graph")` after aot (npu_fx_compiler.py:618); every
// later dump is "graph_after_" + the pass, written only when TorchAir calls
// the pass: post_grad_custom_pre/post_pass only when the user set one,
// optimize_noop_ops only with remove_noop_ops, apply_pattern_passes only with
// pattern_fusion_pass (npu_fx_compiler.py:312-346), remove_cat_ops only with
// debug.aclgraph.remove_cat_ops, the two reinplace passes unless disabled,
// decompose_auto_functionalized only when reinplace_input_mutated_ops ran
// (fx2acl_converter.py:240-301). Content: `gm.print_readable(False)`.
//
// airscope's simplifications: the phase is always `forward` (airscope
// compiles inference graphs, which TorchAir files under forward);
// decompose_auto_functionalized is assumed importable (it is on the torch
// versions TorchAir's aclgraph mode supports); stages TorchAir has no
// observer dump for (replace_stream_event_pass, _valid_graph, lower, and any
// airscope-only or user-added stage) write nothing; skipped stages write
// nothing, like disabled passes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/pass/pipeline_run.h"
#include "core/pass/torchair_config.h"

namespace airscope {

// What decides whether TorchAir calls (and so dumps) a conditional pass.
struct TorchAirDumpGate {
  TorchAirConfig config;
  bool custom_pre = false;   // a post_grad_custom_pre_pass is set
  bool custom_post = false;  // a post_grad_custom_post_pass is set
};

// "graph" for the aot stage, "graph_after_<pass>" for an observed pass that
// ran, nullopt for a stage TorchAir writes no file for.
std::optional<std::string> TorchAirDumpName(const StageRecord& stage, const TorchAirDumpGate& gate);

// "model__3"
std::string TorchAirModelDirName(size_t k);
// "004_aot_forward_graph_after_view_to_reshape.txt"
std::string TorchAirPhaseFileName(size_t count, std::string_view name);
inline constexpr std::string_view kTorchAirPhase = "forward";
inline constexpr std::string_view kDynamoOutGraph = "dynamo_out_graph.txt";

}  // namespace airscope
