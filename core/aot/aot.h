// The `aot` stage: what torch's aot_module_simplified hands TorchAir for an
// inference graph (TORCHAIR.md §1.A step 3e), built from Dynamo's torch-level
// graph.
//
// Contract:
//  - TraceToAten rebuilds a Dynamo graph (torch.* / F.* / operator.* calls,
//    Tensor methods, get_attr parameters) as an aten graph in a fresh Graph:
//    lifted parameters first, then the user inputs, as placeholders arg0_1,
//    arg1_1, ...; every node named after its aten op by FX's namespace rule
//    (`mul`, `mul_1`); meta inferred by the op registry, else the Dynamo
//    annotation of the value the node stands for; source comments kept.
//    CompositeImplicitAutograd functions are expanded as torch's C++ does when
//    tracing (linear -> t + addmm, softmax -> _softmax, ...). A call it cannot
//    lower is copied unchanged (an opaque node keeping its target and meta)
//    and named in the remarks: it never fails the trace.
//  - Functionalize turns in-place aten calls into out-of-place ones as
//    torch's functionalization does (functionalize.cc): a mutation through a
//    view is replayed on its base through the view's inverse (select_scatter,
//    slice_scatter, view, transpose, ...) when the base is next read, and a
//    stale view is regenerated from the new base; the final value of a
//    mutated graph input is written back by an
//    `aten.copy_.default(input, value)` before the output when
//    keep_input_mutations (AOT's keep_inference_input_mutations), else
//    returned as an extra output in front of the user outputs, as
//    fn_input_mutations_to_outputs does.
// Neither prints; notes for the user go to `remarks`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/aot/nn_module.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

// Whether `graph` is a Dynamo (torch-level) graph rather than an aten graph:
// it has call_method/call_module nodes, tensor get_attr nodes, calls that are
// not `torch.ops.NS.OP.OVERLOAD` or operator.getitem, or placeholders that
// Dynamo renamed (`l_x_ = L_x_`).
bool IsTorchLevelGraph(const Graph& graph);

// The aten graph AOT autograd would trace from `dynamo` (see the contract).
// Fails only on a malformed input graph (no output node).
struct TraceOptions {
  // The types of call_module targets (may be null): their parameters and
  // buffers are lifted after the get_attr tensors and the calls lowered as
  // their forward() traces; an undeclared one stays opaque.
  const ModuleTable* modules = nullptr;
  // Ranks of process group '0', for TorchAir's all_to_all_single
  // decomposition (0: unknown, the op stays whole with a remark).
  int64_t world_size = 0;
};
Result<std::unique_ptr<Graph>> TraceToAten(const Graph& dynamo, const OpRegistry& registry,
                                           std::vector<std::string>& remarks, const TraceOptions& options = {});

struct FunctionalizeStats {
  int functionalized = 0;     // in-place calls made out-of-place
  int left_on_views = 0;      // in-place calls through a view without a modelled inverse, left as they were
  size_t mutated_inputs = 0;  // graph inputs written
};

// `epilogue_is_aots`: a trailing `copy_(input, value)` nobody reads is AOT's
// own write-back (an aten graph AOT already made) and is left alone; false
// for a graph just traced from Dynamo, where every copy_ is the user's.
Result<FunctionalizeStats> Functionalize(Graph& graph, const OpRegistry& registry, bool keep_input_mutations,
                                         bool epilogue_is_aots = true);

// Names every call_function node afresh after its op, in graph order, as a
// re-trace does (`add`, `add_1`); other nodes keep their names.
Status RenameAsTraced(Graph& graph);

}  // namespace airscope
