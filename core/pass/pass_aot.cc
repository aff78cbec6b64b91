// aot: the inference graph aot_module_simplified hands TorchAir's compiler
// (TORCHAIR.md §1.A step 3e): a Dynamo graph is traced to aten (trace.cc),
// the user's decompositions apply, then functionalization with
// keep_inference_input_mutations (config.keep_inference_input_mutations,
// TorchAir's default True). An aten graph (a make_fx/AOT printout) is only
// functionalized.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/analysis/node_util.h"
#include "core/aot/aot.h"
#include "core/aot/torch_functions.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/decomposition.h"

namespace airscope {
namespace {

Result<bool> RunAot(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  bool changed = false;
  bool traced_from_dynamo = false;
  if (IsTorchLevelGraph(graph)) {
    TraceOptions options;
    options.modules = context.modules;
    options.world_size = context.env.world_size;
    AIRSCOPE_ASSIGN_OR_RETURN(auto traced, TraceToAten(graph, registry, context.remarks, options));
    graph = std::move(*traced);
    changed = true;
    traced_from_dynamo = true;
  }
  // TorchAir's table (npu_define.allgather, _c10d_functional.all_to_all_single)
  // is not airscope's builtin one; only the user's `decomp add` entries apply.
  if (context.decompositions) {
    DecompositionTable user;
    for (const Decomposition* entry : context.decompositions->All()) {
      if (!entry->builtin) user.Add(*entry);
    }
    if (!user.All().empty()) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto decomposed, ApplyDecompositions(graph, user, registry, context.remarks));
      changed = changed || decomposed;
    }
  }
  bool keep = context.config.keep_inference_input_mutations;
  AIRSCOPE_ASSIGN_OR_RETURN(auto stats, Functionalize(graph, registry, keep, /*epilogue_is_aots=*/!traced_from_dynamo));
  if (changed || stats.functionalized > 0) {
    // aot_dispatch_base_graph runs fw_module.graph.eliminate_dead_code() on
    // the functionalized graph (views left unused by functionalization go).
    AIRSCOPE_ASSIGN_OR_RETURN(size_t dead, EliminateDeadCode(graph, registry));
    const size_t erased = dead;
    if (erased > 0) {
      context.remarks.push_back(
          fmt::format("erased {} dead node(s), as AOT's eliminate_dead_code after functionalization", erased));
    }
  }
  if (stats.functionalized > 0) {
    std::string inputs =
        stats.mutated_inputs == 0
            ? "no graph input is mutated"
            : fmt::format("{} mutated graph input(s) {} (keep_inference_input_mutations={})", stats.mutated_inputs,
                          keep ? "written back by copy_ before the output" : "returned as extra leading outputs",
                          keep ? "True" : "False");
    context.remarks.push_back(fmt::format("functionalized {} in-place op(s); {}", stats.functionalized, inputs));
    changed = true;
  }
  if (changed) AIRSCOPE_RETURN_IF_ERROR(RenameAsTraced(graph));
  if (stats.left_on_views > 0) {
    context.remarks.push_back(
        fmt::format("left {} in-place op(s) through a view whose inverse airscope does not model (expand, "
                    "view(dtype), ...) as they were",
                    stats.left_on_views));
  }
  return changed;
}

std::string Help() {
  return fmt::format(
      "Models aot_module_simplified's inference path as TorchAir calls it (_compile_graph_with_aot, "
      "npu_fx_compiler.py:969-1005), producing the graph TorchAir's passes see. A Dynamo graph (torch.* / "
      "torch.nn.functional.* / torch._C._nn.* / operator.* calls, Tensor methods, get_attr tensors, declared "
      "call_module) is re-traced to aten: inputs become arg0_1, arg1_1, ... with get_attr tensors lifted first, "
      "then the parameters and then the buffers of declared modules (aot_module_simplified puts parameters and "
      "buffers before the user inputs; airscope keeps get_attr tensors in first-use order since Dynamo's text "
      "does not tell parameters from buffers); nodes are named after their aten op; shapes are inferred, else "
      "taken from Dynamo's annotations.\n"
      "CompositeImplicitAutograd functions expand as torch's C++ does: linear -> t + addmm (2-D), view + t + "
      "addmm + view (contiguous N-D), t + mm / matmul (no bias); matmul -> mm, view + mm + _unsafe_view, bmm; "
      "softmax -> _softmax; layer_norm -> native_layer_norm[0]; dropout -> native_dropout[0] when training (an "
      "NPU tensor takes the fused kernel), the input itself in eval or with p=0; reshape/flatten -> view of a "
      "contiguous input.\n"
      "Indexing as THPVariable_getitem/setitem and aten/src/ATen/TensorIndexing.h trace it: x[i] -> select; "
      "x[a:b] -> slice.Tensor(x, 0, a, b) (always dispatched; None bounds are 0 and sys.maxsize); x[None] -> "
      "unsqueeze; x[...] -> alias; x[t] / x[mask] -> index.Tensor; a tuple slices dim by dim (a slice 0:size:1 "
      "spelled out records nothing; x[:, 0] -> slice(x, 0, 0, 9223372036854775807) + select(.., 1, 0)). "
      "x[idx] = v copies into that view (view + expand + copy_ when the sizes differ, index_put_ with tensor "
      "indices; a number becomes scalar_tensor of x's dtype/layout/device off the CPU).\n"
      "Conversions: .to(dtype) / .float() / .half() -> _to_copy(x, dtype=D); .to(device) / .cpu() / .npu() "
      "(torch_npu's THPVariable_npu) -> _to_copy(x, dtype=x's, layout=torch.strided, device=V); .to(device, "
      "dtype) and .to(tensor) -> _to_copy(x, dtype=D, device=V); nothing at all when dtype and device are x's "
      "own (to_impl's to_will_alias); .type_as(y) on an NPU tensor is TorchAir's py_impl `self.to(y.dtype)` "
      "(ui:293-296); .contiguous() is x itself when contiguous, else clone(memory_format=contiguous_format).\n"
      "call_module: a target declared with `module TARGET TYPE(ARGS)` (help module) is lowered as its "
      "forward() traces in eval mode; an undeclared one stays opaque with a remark saying how to declare it.\n"
      "TorchAir's decomposition table (ui:455-464) applies while tracing: npu_define.allgather -> "
      "cat + npu_define.allgather_in_tensor + split_with_sizes + view per output (allgather_decomposition, "
      "equal output sizes); _c10d_functional.all_to_all_single -> npu_define.all_to_all_single_npu with element "
      "counts and displacements (decomp_c10d_functional_all_to_all_single; group '0' of `dist.world_size` ranks, "
      "tag 'ptd:0'). gelu, silu, relu, embedding, convolution, addmm stay whole (no table entry); user `decomp "
      "add` entries apply. Known calls: {}.\n"
      "Then functionalization as torch's FunctionalTensorWrapper does it: in-place ops become out-of-place; a "
      "mutation through a view is replayed on its base through the view's inverse when the base is next read "
      "(select_scatter, slice_scatter, view(base sizes), transpose, permute, squeeze/unsqueeze, "
      "as_strided_scatter, diagonal_scatter: FunctionalInverses.cpp) and stale views are regenerated from the "
      "new base; a mutated graph input is written back by aten.copy_.default(input, value) before the output "
      "when config.experimental_config.keep_inference_input_mutations (TorchAir's default True, exp:16), else "
      "its value is returned in front of the outputs (fn_input_mutations_to_outputs); then dead code is "
      "eliminated (aot_dispatch_base_graph).\n"
      "Simplified: a call it cannot lower (an unknown function, an undeclared call_module, an unmodelled "
      "argument) stays an opaque node with its target and Dynamo's meta, named in the remarks (lower runs one "
      "with a known value as a kernel of unknown cost); higher-order ops keep their subgraphs unlowered (AOT "
      "renames and lowers them); a mutation through a view without a modelled inverse (expand, view(dtype)) is "
      "left alone; symbolic sizes stop the rules that need sizes; declared modules take their input's dtype "
      "and device and run in eval mode; a device without an index is index 0. An aten graph is only "
      "functionalized. The effect check does not run after aot: the graphs before and after are at different "
      "levels of torch, and with keep_inference_input_mutations false AOT returns input mutations as outputs "
      "instead of writing them.",
      fmt::join(LoweringKeys(), ", "));
}

}  // namespace

PassInfo AotPass() {
  return {"aot",
          "Dynamo graph -> functionalized aten inference graph (aot_module_simplified)",
          Help(),
          PassKind::kPipeline,
          RunAot,
          {},
          EffectPolicy::kUnchecked};
}

}  // namespace airscope
