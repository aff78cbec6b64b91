// apply_pattern_passes: TorchAir's _apply_pattern_passes
// (patterns/pattern_util.py:19-42), run by _optimize_fx when
// config.experimental_config.pattern_fusion_pass (npu_fx_compiler.py:337-338).
// It registers TorchAir's fusion patterns into one Inductor
// PatternMatcherPass and applies it; every match must lie on one stream.
#include <fmt/format.h>

#include <algorithm>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"
#include "core/pass/pattern_batch_matmul_transpose.h"
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
  context.remarks.push_back(fmt::format("assumed torch {} (>= 2.6)", context.env.torch_version));
  const StreamLabelMap labels = StreamLabels(graph);
  const OpRegistry& registry = RegistryOf(context);
  // PatternMatcherPass.apply visits candidate nodes last to first.
  std::vector<Node*> nodes = graph.Nodes();
  std::reverse(nodes.begin(), nodes.end());
  int fused = 0;
  for (Node* node : nodes) {
    if (node->erased() || !IsTarget(*node, "aten.transpose.int")) continue;
    if (TryBatchMatMulTranspose(graph, node, labels, registry, context.remarks)) ++fused;
  }
  if (fused > 0) context.remarks.push_back(fmt::format("{} bmm+transpose now npu_transpose_batchmatmul", fused));
  return fused > 0;
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
