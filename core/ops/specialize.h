// Specializing a compiled graph to the shapes of one call: a clone whose
// placeholders carry the given metas and whose other values are inferred
// again by the op registry (nodes of ops it does not know keep their meta).
// The compile cache uses it to compile an entry for its guards' shapes
// (symbols where dims are dynamic); the AclGraph runtime to capture or run
// a graph with symbolic dims at the concrete sizes of a call, as TorchAir
// captures the FX graph with the call's own tensors (acl_graph.py:1193-1215).
#pragma once

#include <memory>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/tensor_meta.h"
#include "core/ops/op_registry.h"
#include "core/ops/shape_inference.h"
#include "core/status.h"

namespace airscope {

// `inputs[i]` for placeholder i (SymInt placeholders keep their meta: pass
// any value). Error when the counts differ. `report`, when given, gets what
// inference found (its refusals: the ops that reject these sizes).
Result<std::unique_ptr<Graph>> SpecializeInputs(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                                const OpRegistry& registry, InferenceReport* report = nullptr);

}  // namespace airscope
