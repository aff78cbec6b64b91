// apply_pattern_passes: TorchAir's _apply_pattern_passes
// (patterns/pattern_util.py:19-42), run by _optimize_fx when
// config.experimental_config.pattern_fusion_pass (npu_fx_compiler.py:337-338).
// It registers TorchAir's fusion patterns into one Inductor
// PatternMatcherPass and applies it; every match must lie on one stream.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/analysis/node_util.h"
#include "core/analysis/stream_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pattern_entry.h"
#include "core/pass/torchair_config.h"

namespace airscope {
namespace {

Result<bool> RunApplyPatternPasses(Graph& graph, PassContext& context) {
  if (!context.config.pattern_fusion_pass) {
    context.remarks.push_back("skipped: " + SwitchedOff(context.config, &TorchAirConfig::pattern_fusion_pass));
    return false;
  }
  if (CompareVersions(context.env.torch_version, "2.6") < 0) {
    context.remarks.push_back(
        fmt::format("skipped: the pattern_fusion_pass is unsupported when torch < 2.6 "
                    "(assumed torch {})",
                    context.env.torch_version));
    return false;
  }
  context.remarks.push_back(
      fmt::format("assumed torch {} (>= 2.6) with torch_npu imported", context.env.torch_version));
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
        context.remarks.push_back(
            fmt::format("{} ({} {}): cross-stream operation detected in pattern match; "
                        "fusion is not supported",
                        node->name(), entry.family, entry.variant));
        continue;
      }
      if (entry.extra_check && !entry.extra_check(*match, context.remarks)) continue;
      std::string why;
      auto build = [&](ReplacementBuilder& b, std::string& reason) { return entry.replace(*match, b, reason); };
      if (!ReplaceWithGraph(graph, *match, build, registry, why)) {
        context.remarks.push_back(
            fmt::format("{} ({} {}): not replaced: {}", node->name(), entry.family, entry.variant, why));
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
  return {"apply_pattern_passes",
          "TorchAir's five fusion patterns (ACL mode), on Inductor's pattern matcher",
          "TorchAir's _apply_pattern_passes (patterns/pattern_util.py:19-42), run by _optimize_fx when\n"
          "config.experimental_config.pattern_fusion_pass (default true, npu_fx_compiler.py:337-338). airscope\n"
          "assumes torch 2.6 (env.torch_version) with torch_npu imported: TorchAir skips every AddRmsNorm*\n"
          "registration without torch_npu (a log line), and with torch < 2.6 the pass warns and does nothing\n"
          "(airscope: a remark). It registers, in this order, into one Inductor PatternMatcherPass:\n"
          "  1. AddRmsNormDynamicQuant (add_rms_norm_dynamic_quant.py:70-161, traced from search_fn):\n"
          "     y, _, xOut = npu_add_rms_norm(x1, x2, gamma[, eps]); yOut, s1 = npu_dynamic_quant(y,\n"
          "     smooth_scales=s) -> npu_add_rms_norm_dynamic_quant(x1, x2, gamma, smooth_scale1=s[, epsilon],\n"
          "     output_mask=[True, False]); also without xOut (npu_add_rms_norm with one user).\n"
          "  2. AddRmsNormDynamicQuant2 (:165-291): npu_dynamic_quant(view(y, ...)) with its scale viewed\n"
          "     [-1, 1] -> the same op with yOut.flatten(0, 1) and scale.view(-1, 1), when the view is\n"
          "     y.flatten(0, 1) (_check_view_shape). smooth_scales on the quant is not compared (dropped).\n"
          "  3. AddRmsNormCast (add_rms_norm_cast.py:144-225): y cast to float32 (aten._to_copy, then\n"
          "     npu._npu_dtype_cast), directly or after view(y, [-1, h]) with str(h) == str(x1.shape[-1]),\n"
          "     with y and xOut also used -> npu_add_rms_norm_cast (y_cast viewed [-1, h] for the view form).\n"
          "  4. BatchMatMulTranspose (batch_matmul_transpose.py; not in max-autotune): transpose(bmm(x1, x2)),\n"
          "     transpose(view(bmm)), and with perm_x1=[1, 0, 2] transpose(view(bmm(view(expand(transpose(x1))),\n"
          "     x2))) and transpose(bmm(expand(transpose(x1)), x2)) -> npu_transpose_batchmatmul when bmm inputs\n"
          "     are bf16/f16/f32 with K and N divisible by 128, K*B in [1, 65536) (perm [1,0,2]) or K < 65536,\n"
          "     every view/expand a no-op (same_meta), transpose dims ints <= 1.\n"
          "  5. AddRmsNormQuant (add_rms_norm_quant.py:228-232; not in max-autotune): npu_quantize(y, scales,\n"
          "     zero_points, dtype, -1) (div_mode left True), with or without xOut -> npu_add_rms_norm_quant(x1,\n"
          "     x2, gamma, scales, zero_points[, epsilon=]) when dtype is 1 or 12, zero_points not (u)int8, x1\n"
          "     and x2 both f16 or both bf16, x2's last dim a multiple of 32 bytes, gamma shaped like scales.\n"
          "Each has a form with npu_add_rms_norm's epsilon as a 4th argument (absent when it is 1e-06).\n"
          "Matching is Inductor's (torch/_inductor/pattern_matcher.py): the nodes of every root target, last\n"
          "first, each trying its entries in registration order; _users counted except on a pattern's\n"
          "outputs; node kwargs the pattern does not name ignored; other outputs found from the users of\n"
          "matched nodes; the replacement inserted before the earliest output, uses redirected, unused\n"
          "matched nodes erased. Every match must have all its calls on one stream label\n"
          "(_check_pattern_stream, pattern_pass_manager.py:20-61); nodes a replacement makes have none.\n"
          "airscope simplifies: replacements are built as the graph make_fx traces from each replace_fn, not\n"
          "traced; one that needs a symbolic size (y.size(-1), flatten(0, 1)) is not built (a remark). For\n"
          "traced patterns (1, 5) each getitem is matched at its own index, as check_fn's re-trace requires\n"
          "(Inductor's first trace ignores the index when it binds outputs). No mutation-region check; only\n"
          "the schemas of _to_copy and npu_dynamic_quant normalize a node's kwargs.",
          PassKind::kPipeline,
          RunApplyPatternPasses,
          {},
          EffectPolicy::kPreserveAliasing,
          PassOrigin::kTorchAir};
}

}  // namespace airscope
