// functionalize: AOT autograd's functionalization alone (core/aot/functionalize.cc),
// for graphs that come in aten form. Input mutations are kept in the graph as
// copy_ epilogues, keep_inference_input_mutations=True semantics (TorchAir's
// default; `aot` follows the config switch instead).
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/aot/aot.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> RunFunctionalize(Graph& graph, PassContext& context) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto stats, Functionalize(graph, RegistryOf(context), /*keep_input_mutations=*/true));
  if (stats.functionalized > 0) {
    context.remarks.push_back(fmt::format("functionalized {} in-place op(s); {} graph input(s) copied back",
                                          stats.functionalized, stats.mutated_inputs));
  }
  if (stats.left_on_views > 0) {
    context.remarks.push_back(fmt::format("left {} in-place op(s) on views", stats.left_on_views));
  }
  return stats.functionalized > 0;
}

}  // namespace

PassInfo FunctionalizePass() {
  return {"functionalize",
          "in-place ops become out-of-place; graph-input mutations are copied back",
          "Rewrites every in-place call (hardtanh_, add_, relu_, ...: OpInfo::inplace) into its out-of-place "
          "form (the name minus the trailing underscore; copy_ becomes aten.copy), keeping the node's name; "
          "later reads of the mutated value read the new node instead. When the mutated tensor is a graph "
          "input, an aten.copy_.default(input, value) epilogue before the output writes the final value back, "
          "as AOT autograd does with keep_inference_input_mutations=True (TorchAir's default, "
          "experimental_config, exp:16). Leaves alone an existing copy_ epilogue, ops without an out-of-place "
          "form in the registry and mutations of views of other tensors. The same functionalization `aot` "
          "runs; this optional pass is for graphs already in aten form.",
          PassKind::kOptional,
          RunFunctionalize,
          {},
          EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope
