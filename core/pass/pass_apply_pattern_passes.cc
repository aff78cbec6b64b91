// apply_pattern_passes: TorchAir's _apply_pattern_passes
// (patterns/pattern_util.py:19-42), run by _optimize_fx when
// config.experimental_config.pattern_fusion_pass (npu_fx_compiler.py:337-338).
// It registers TorchAir's fusion patterns into one Inductor
// PatternMatcherPass and applies it; every match must lie on one stream.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"
#include "core/pass/pattern_entry.h"
#include "core/pass/stream_util.h"
#include "core/pass/torchair_config.h"

namespace airscope {
namespace {

Result<bool> RunApplyPatternPasses(Graph& graph, PassContext& context) {
  if (!context.config.pattern_fusion_pass) {
    context.remarks.push_back("skipped: config.experimental_config.pattern_fusion_pass is false");
    return false;
  }
  if (CompareVersions(context.env.torch_version, "2.6") < 0) {
    context.remarks.push_back(fmt::format("skipped: the pattern_fusion_pass is unsupported when torch < 2.6 "
                                          "(assumed torch {})", context.env.torch_version));
    return false;
  }
  context.remarks.push_back(fmt::format("assumed torch {} (>= 2.6) with torch_npu imported", context.env.torch_version));
  // add_stream_label_to_node_meta runs once, before the matcher (pattern_util.py:33-35): nodes a
  // replacement makes have no label, as FX's graph.call_function gives them none.
  const StreamLabelMap labels = StreamLabels(graph);
  const OpRegistry& registry = RegistryOf(context);
  const std::vector<PatternEntry>& entries = TorchAirPatternEntries();
  std::set<std::string_view> roots;
  for (const PatternEntry& e : entries) roots.insert(e.root_target());
  // PatternMatcherPass.apply: the nodes of every registered target, last first, taken once before
  // any replacement; each tries its target's entries in registration order until it is erased.
  std::vector<Node*> candidates;
  for (Node* node : graph) {
    if (node->op() != OpKind::kCallFunction) continue;
    for (std::string_view root : roots) {
      if (IsTarget(*node, root)) {
        candidates.push_back(node);
        break;
      }
    }
  }
  std::reverse(candidates.begin(), candidates.end());
  std::map<std::string, int> fused;  // fused op -> count
  for (Node* node : candidates) {
    for (const PatternEntry& entry : entries) {
      if (node->erased()) break;
      if (!IsTarget(*node, entry.root_target())) continue;
      std::optional<PatternMatch> match = MatchMultiOutput(entry.outputs, node);
      if (!match) continue;
      if (!SingleStream(*match, labels)) {
        context.remarks.push_back(fmt::format("{} ({} {}): cross-stream operation detected in pattern match; "
                                              "fusion is not supported", node->name(), entry.family, entry.variant));
        continue;
      }
      if (entry.extra_check && !entry.extra_check(*match, context.remarks)) continue;
      std::string why;
      auto build = [&](ReplacementBuilder& b, std::string& reason) { return entry.replace(*match, b, reason); };
      if (!ReplaceWithGraph(graph, *match, build, registry, why)) {
        context.remarks.push_back(fmt::format("{} ({} {}): not replaced: {}", node->name(), entry.family,
                                              entry.variant, why));
        continue;
      }
      ++fused[entry.family + " -> " + entry.fused_op];
    }
  }
  for (const auto& [what, count] : fused) context.remarks.push_back(fmt::format("{}: {} replaced", what, count));
  return !fused.empty();
}

}  // namespace

PassInfo ApplyPatternPassesPass() {
  return {"apply_pattern_passes", "TorchAir's fusion patterns (ACL mode); airscope runs BatchMatMulTranspose",
          "TorchAir's _apply_pattern_passes (patterns/pattern_util.py:19-42), run by _optimize_fx when\n"
          "config.experimental_config.pattern_fusion_pass (default true, npu_fx_compiler.py:337-338). With\n"
          "torch < 2.6 it does nothing (a warning; airscope: a remark naming env.torch_version). In ACL mode\n"
          "TorchAir registers AddRmsNormDynamicQuant (x2), AddRmsNormCast, BatchMatMulTranspose and\n"
          "AddRmsNormQuant into one Inductor PatternMatcherPass; every match must have all its calls on one\n"
          "stream label (_check_pattern_stream, pattern_pass_manager.py:20-61). airscope implements\n"
          "BatchMatMulTranspose (batch_matmul_transpose.py): transpose(bmm(x1, x2)), transpose(view(bmm)),\n"
          "and with perm_x1=[1, 0, 2] transpose(view(bmm(view(expand(transpose(x1))), x2))) and\n"
          "transpose(bmm(expand(transpose(x1)), x2)), each intermediate call with exactly one user, become\n"
          "npu.npu_transpose_batchmatmul(x1, x2, perm_x1=...) when: bmm inputs are bf16/f16/f32 with K and N\n"
          "divisible by 128; K*B in [1, 65536) (perm [1,0,2]) or K < 65536; every view/expand is a no-op\n"
          "(same_meta); transpose dims are ints <= 1. airscope does NOT implement the AddRmsNorm* patterns\n"
          "(AddRmsNormDynamicQuant, AddRmsNormCast, AddRmsNormQuant): graphs with npu_add_rms_norm are left\n"
          "as they are. Also simplified: a subset of Inductor's matcher (call args matched positionally, no\n"
          "kwargs; no mutation-region check); the fused node takes the replaced transpose's meta.",
          PassKind::kPipeline, RunApplyPatternPasses, {}, EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope
