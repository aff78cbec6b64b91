// FxGraphInfo: what TorchAir's AclConcreteGraph records about a compiled FX
// graph's inputs and outputs before the first call (TorchAir at fced8842,
// python/torchair/; ag = _acl_concrete_graph/acl_graph.py, f2a =
// fx2acl_converter.py, gu = _utils/graph_utils.py):
//   - the runtime inputs in placeholder order, each a tensor or a SymInt;
//     tensors torch marks as parameters or buffers (nn.Parameter,
//     `_dynamo_static_input_type`, `_torchair_is_parameter`) are
//     parameter_user_inputs, the other tensors user_inputs_mapping
//     (parse_input, f2a:403-440);
//   - mutated_user_inputs: placeholders that are args[0] of a node whose op
//     name ends in "_" (the copy_ epilogue included), or a mutated arg of one
//     of the multi-inplace NPU ops (_find_mutated_user_inputs, gu:100-116);
//   - userinput_ref_with_output: inputs an output aliases (parse_output,
//     f2a:461-493), by storage as core/analysis/alias_analysis.h derives it;
//   - unupdated_sym_input_index (get_unupdated_sym_input_index, ag:281-348),
//     what the graph key is computed from (graph_key.h).
//
// Symbols Dynamo would have lifted. Dynamo passes every free symbol of a
// dynamic input as a SymInt graph input of its own, placed before the first
// tensor whose size uses it (`def forward(self, s0: "Sym(s0)", L_a_:
// "f32[s0, 3]", ...)`, tests/data/dynamo_logs/deepdive_symbolic_shape.log.txt:4,
// torch's Dynamo deep dive); AOT keeps it as `arg0_1: "Sym(s0)"`. airscope's
// cache entries are compiled from the loaded graph without retracing, so a
// symbolic dim lives only in the tensor placeholders' shapes; Analyze() adds
// the SymInt input Dynamo would have lifted for each bare symbol (`s0`, not
// an expression like `2*s0`) that no SymInt placeholder stands for, marked
// `lifted`. SymInt placeholders the graph does have are taken as they are.
//
// Which graph: TorchAir finds mutated inputs on the graph AOT hands it, before
// its passes; airscope analyses the compiled (lowered) graph. No TorchAir pass
// takes a mutation of a graph input away (the reinplace passes turn a copy_
// epilogue into an in-place op on the input), so the set is the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/graph.h"
#include "core/ir/tensor_meta.h"
#include "core/ops/op_registry.h"

namespace airscope {

struct RuntimeInput {
  enum class Kind : uint8_t { kTensor, kSymInt, kOther };
  Kind kind = Kind::kTensor;
  std::string name;        // the placeholder's name, or the lifted symbol ("s0")
  bool lifted = false;     // a SymInt Dynamo lifts (see above); not a placeholder of the compiled graph
  size_t placeholder = 0;  // kTensor/kOther and unlifted kSymInt: index among the compiled graph's placeholders
  std::string symbol;      // kSymInt: the expression it is ("s0")
  TensorMeta meta;         // kTensor: as compiled (symbols where dynamic)
  bool parameter = false;  // parameter_user_inputs
  bool mutated = false;    // in mutated_user_inputs
  std::vector<size_t> aliased_by_outputs;  // userinput_ref_with_output[idx]: output indices aliasing it
  std::string caller_name;                 // what the caller calls it, when that differs (`l_x_` for aot's `arg0_1`)
  // "arg0_1", or "arg0_1 (l_x_)".
  std::string Label() const {
    return caller_name.empty() || caller_name == name ? name : name + " (" + caller_name + ")";
  }
};

// (index into inputs, is_symbol): TorchAir's tuples, sorted as it sorts them.
struct UnupdatedInput {
  size_t index = 0;
  bool symbol = false;
  bool operator==(const UnupdatedInput&) const = default;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 sees the 0 a defaulted <=> compares with
  auto operator<=>(const UnupdatedInput&) const = default;
};

struct FxGraphOutput {
  std::string node;            // the output node's argument (a node name), "" for a non-tensor constant
  TensorMeta meta;             // as compiled
  int64_t aliases_input = -1;  // index into inputs when it aliases one
  // The node whose value owns the output's memory (the output itself, or the
  // base it is a view of); a getitem of a multi-output op stands for the op.
  std::string base;
};

struct FxGraphInfo {
  std::vector<RuntimeInput> inputs;
  std::vector<UnupdatedInput> unupdated_sym_input_index;
  std::vector<std::string> mutated_user_inputs;  // names, in graph order
  std::vector<FxGraphOutput> outputs;
  // Nodes TorchAir updates on each replay instead of capturing per value
  // (get_updated_ops_rulers_param, ag:463-513: an out-operator of
  // _REPLACE_FUNC_MAP whose updated kwargs or args name a placeholder);
  // their count is the "updated node num" of the capture's INFO line.
  std::vector<std::string> updated_nodes;

  // The runtime input standing for placeholder `p` of the compiled graph.
  size_t InputOfPlaceholder(size_t placeholder) const;
  // True when no input has a symbol: one capture serves every call.
  bool is_static() const { return unupdated_sym_input_index.empty(); }
};

// `parameters[i]`: placeholder i of `compiled` is a parameter or buffer (what
// the call says; shorter vectors mean "no" for the rest).
FxGraphInfo AnalyzeFxGraph(const Graph& compiled, const std::vector<bool>& parameters, const OpRegistry& registry);

// Which targets a placeholder's use may be an "updated" param of
// (_REPLACE_FUNC_MAP, ag:100-159): such a use alone does not make the input
// part of the graph key. Exposed for the tests.
bool IsUpdatedParamOnlyUse(const Node& user, const Node& placeholder);

}  // namespace airscope
