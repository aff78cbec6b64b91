#include "repl/dump_torchair_layout.h"

#include <fmt/format.h>

namespace airscope {
namespace {

// Whether TorchAir calls `pass` (and its observer dumps after it). Passes
// TorchAir always calls return true; names it never dumps return false.
bool TorchAirCalls(std::string_view pass, const TorchAirDumpGate& gate) {
  const TorchAirConfig& c = gate.config;
  if (pass == "post_grad_custom_pre_pass") return gate.custom_pre;
  if (pass == "optimize_noop_ops") return c.remove_noop_ops;
  if (pass == "recover_view_inplace_pattern") return true;
  if (pass == "apply_pattern_passes") return c.pattern_fusion_pass;
  if (pass == "view_to_reshape") return true;
  if (pass == "post_grad_custom_post_pass") return gate.custom_post;
  if (pass == "remove_cat_ops") return c.remove_cat_ops;
  if (pass == "apply_event_closure_with_multi_stream" || pass == "apply_event_record" ||
      pass == "eliminate_dead_code") {
    return true;
  }
  if (pass == "reinplace_inplaceable_ops_pass") return !c.disable_reinplace_inplaceable_ops_pass;
  if (pass == "reinplace_input_mutated_ops" || pass == "decompose_auto_functionalized") {
    return !c.disable_reinplace_input_mutated_ops_pass;
  }
  return pass == "replace_dynamic_workspace_ops" || pass == "replace_core_limit_nodes" ||
         pass == "resolve_default_stream_markers";
}

}  // namespace

std::optional<std::string> TorchAirDumpName(const StageRecord& stage, const TorchAirDumpGate& gate) {
  if (stage.status != StageStatus::kRan) return std::nullopt;
  if (stage.pass == "aot") return std::string("graph");
  if (!TorchAirCalls(stage.pass, gate)) return std::nullopt;
  return "graph_after_" + stage.pass;
}

std::string TorchAirModelDirName(size_t k) { return fmt::format("model__{}", k); }

std::string TorchAirPhaseFileName(size_t count, std::string_view name) {
  return fmt::format("{:03}_aot_{}_{}.txt", count, kTorchAirPhase, name);
}

}  // namespace airscope
