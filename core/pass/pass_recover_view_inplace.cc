// recover_view_inplace_pattern: TorchAir's recover_view_inplace_pattern
// (patterns/_recover_view_inplace_pattern.py:157-223), always run by
// _optimize_fx (npu_fx_compiler.py:324-326). Functionalization turns an
// in-place npu scatter on a view of an input into
//   input -> view -> scatter (out of place) -> view -> copy_(input, ·);
// the pass puts the in-place scatter back so the copy_ is not needed.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/torchair_config.h"

namespace airscope {
namespace {

constexpr std::string_view kMinCann = "8.3.RC1";
constexpr std::string_view kView = "aten.view.default";

// _INPLACE_OPS_MAP (rvi:27-48): op -> its in-place form; the output is
// written into argument 0 (output_to_ref_input_idx_mapping {0: 0}).
const std::map<std::string, std::string, std::less<>>& InplaceOps() {
  static const auto* ops = new std::map<std::string, std::string, std::less<>>{
      {"npu.scatter_update.default", "npu.scatter_update_.default"},
      {"npu.npu_scatter_nd_update.default", "npu.npu_scatter_nd_update_.default"},
      {"npu.npu_quant_scatter.default", "npu.npu_quant_scatter_.default"},
  };
  return *ops;
}

Node* NodeAt(const Node& node, size_t index) {
  return index < node.args().size() && node.args()[index].is_node() ? node.args()[index].as_node() : nullptr;
}

struct Match {
  Node* pre_view;
  Node* non_inplace;
  Node* post_view;
  Node* copy;
};

// _get_other_to_args_copy_nodes (rvi:51-82) + find_optimization_pattern (rvi:85-143).
std::vector<Match> FindPatterns(const Graph& graph) {
  std::vector<Match> matches;
  for (Node* copy : graph) {
    if (!IsTarget(*copy, "aten.copy_.default") || copy->args().size() != 2) continue;
    Node* dst = NodeAt(*copy, 0);
    Node* post_view = NodeAt(*copy, 1);
    if (!dst || !post_view || dst->op() != OpKind::kPlaceholder || post_view->op() == OpKind::kPlaceholder) continue;
    const TensorMeta* dst_t = TensorOf(dst);
    const TensorMeta* src_t = TensorOf(post_view);
    if (!dst_t || !src_t || dst_t->sizes != src_t->sizes) continue;  // no broadcasting copies
    if (!IsTarget(*post_view, kView)) continue;
    Node* non_inplace = NodeAt(*post_view, 0);
    if (!non_inplace || !InplaceOps().contains(CallTarget(*non_inplace))) continue;
    Node* pre_view = NodeAt(*non_inplace, 0);
    if (!pre_view || !IsTarget(*pre_view, kView) || NodeAt(*pre_view, 0) != dst) continue;
    if (pre_view->users().size() != 1 || dst->users().size() != 2) continue;
    matches.push_back({pre_view, non_inplace, post_view, copy});
  }
  return matches;
}

Result<bool> RunRecoverViewInplace(Graph& graph, PassContext& context) {
  if (CompareVersions(context.env.cann_version, kMinCann) < 0) {
    context.remarks.push_back(fmt::format("skipped: CANN {} is older than {} (assumed from the device model)",
                                          context.env.cann_version, kMinCann));
    return false;
  }
  context.remarks.push_back(fmt::format("assumed CANN {} (>= {})", context.env.cann_version, kMinCann));
  std::vector<Match> matches = FindPatterns(graph);
  context.remarks.push_back(fmt::format("found {} matched pattern(s) for view inplace optimization", matches.size()));
  const OpRegistry& registry = RegistryOf(context);
  for (const Match& m : matches) {
    Node* inplace = graph.InsertAfter(
        m.non_inplace, CallSpec(InplaceOps().at(std::string(CallTarget(*m.non_inplace))), m.non_inplace->args(),
                                m.non_inplace->kwargs(), m.non_inplace->name() + "_inplace"));
    if (!m.non_inplace->stream().empty()) graph.SetStream(inplace, m.non_inplace->stream());
    // replace_all_uses_with(..., propagate_meta=True): the in-place node takes the meta.
    if (m.non_inplace->meta()) {
      inplace->set_meta(*m.non_inplace->meta());
    } else {
      InferMeta(inplace, registry);
    }
    graph.ReplaceAllUsesWith(m.non_inplace, inplace);
    if (m.copy->users().empty()) AIRSCOPE_RETURN_IF_ERROR(graph.Erase(m.copy));
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(m.non_inplace));
  }
  return !matches.empty();
}

}  // namespace

PassInfo RecoverViewInplacePatternPass() {
  return {"recover_view_inplace_pattern",
          "in-place npu scatters back on views of inputs (drops the copy_)",
          "TorchAir's recover_view_inplace_pattern (patterns/_recover_view_inplace_pattern.py:157-223), always\n"
          "run by _optimize_fx (npu_fx_compiler.py:324-326). Skipped unless CANN >= 8.3.RC1 (rvi:180-184);\n"
          "airscope reads the version from the device model (PassEnvironment.cann_version) and says in a\n"
          "remark which it assumed. A match (rvi:51-143) is copy_(placeholder, post_view) with exactly 2\n"
          "args, src not a placeholder, equal sizes, where post_view = aten.view.default(op), op is\n"
          "npu.scatter_update / npu.npu_scatter_nd_update / npu.npu_quant_scatter (.default), op's arg 0 is\n"
          "pre_view = aten.view.default(placeholder), pre_view has 1 user and the placeholder 2. Rewrite\n"
          "(rvi:192-217): the `_` in-place op with the same args and kwargs, named `<op name>_inplace`,\n"
          "right after op and taking its meta; op's users now use it; the copy_ is erased when it has no\n"
          "users; op is erased. airscope simplifies: the three ops are always known (TorchAir registers each\n"
          "only when torch_npu provides it).",
          PassKind::kPipeline,
          RunRecoverViewInplace,
          {},
          EffectPolicy::kPreserveWrites,
          PassOrigin::kTorchAir};
}

}  // namespace airscope
