// Builtin decompositions, after torch._decomp / torch._refs: each rewrites
// one aten op into simpler aten ops inserted before it (same stream, inferred
// meta), then replaces its uses and erases it. An instance a rule cannot
// handle (a symbolic size it needs, an unusual argument) is declined: the
// rule returns false before touching the graph.
#include <cmath>
#include <optional>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "core/pass/decomposition.h"

namespace airscope {
namespace {

// Inserts calls before the decomposed node, on its stream.
class Emitter {
 public:
  Emitter(Graph& graph, Node* node, const OpRegistry& registry) : graph_(graph), node_(node), registry_(registry) {}

  Node* Call(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs = {}) {
    return InsertCall(graph_, node_, CallSpec(target, std::move(args), std::move(kwargs)), node_->stream(), registry_);
  }
  // Uses of the decomposed node now read `value`; the node goes.
  Result<bool> Finish(Node* value) {
    graph_.ReplaceAllUsesWith(node_, value);
    AIRSCOPE_RETURN_IF_ERROR(graph_.Erase(node_));
    return true;
  }

 private:
  Graph& graph_;
  Node* node_;
  const OpRegistry& registry_;
};

Argument Ref(Node* node) { return Argument::NodeRef(node); }

// A Python number argument (int or float); `fallback` when absent; nullopt
// when it is something else (a SymFloat node, ...).
std::optional<double> NumberArg(const Node& node, size_t index, std::string_view name, double fallback) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) return fallback;
  if (arg->kind() == Argument::Kind::kInt) return static_cast<double>(arg->as_int());
  if (arg->kind() == Argument::Kind::kFloat) return arg->as_float();
  return std::nullopt;
}

// The same number as torch would print it: ints stay ints.
Argument Number(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15) return Argument::Int(static_cast<int64_t>(value));
  return Argument::Float(value);
}

Argument IntList(const std::vector<int64_t>& values) {
  std::vector<Argument> items;
  for (int64_t v : values) items.push_back(Argument::Int(v));
  return Argument::List(std::move(items));
}

// addmm(self, mat1, mat2, *, beta=1, alpha=1) = beta * self + alpha * (mat1 @ mat2).
Result<bool> DecomposeAddmm(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* self = FindNodeArg(*node, 0, "self");
  Node* mat1 = FindNodeArg(*node, 1, "mat1");
  Node* mat2 = FindNodeArg(*node, 2, "mat2");
  auto beta = NumberArg(*node, 99, "beta", 1);
  auto alpha = NumberArg(*node, 99, "alpha", 1);
  if (!self || !mat1 || !mat2 || !beta || !alpha) return false;
  Emitter emit(graph, node, registry);
  Node* product = emit.Call("aten.mm.default", {Ref(mat1), Ref(mat2)});
  if (*alpha != 1) product = emit.Call("aten.mul.Tensor", {Ref(product), Number(*alpha)});
  if (*beta == 0) return emit.Finish(product);  // torch ignores self then (even its NaNs)
  Node* bias = self;
  if (*beta != 1) bias = emit.Call("aten.mul.Tensor", {Ref(self), Number(*beta)});
  return emit.Finish(emit.Call("aten.add.Tensor", {Ref(product), Ref(bias)}));
}

// gelu(self, *, approximate='none'):
//   none: x * 0.5 * (1 + erf(x / sqrt(2)))
//   tanh: x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
Result<bool> DecomposeGelu(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "self");
  if (!x) return false;
  std::string approximate = "none";
  if (const Argument* a = FindArg(*node, 1, "approximate"); a && !a->is_none()) {
    if (a->kind() != Argument::Kind::kString) return false;
    approximate = a->as_string();
  }
  if (approximate != "none" && approximate != "tanh") return false;
  Emitter emit(graph, node, registry);
  Node* inner;
  if (approximate == "none") {
    Node* scaled = emit.Call("aten.mul.Tensor", {Ref(x), Argument::Float(M_SQRT1_2)});
    inner = emit.Call("aten.erf.default", {Ref(scaled)});
  } else {
    Node* cube = emit.Call("aten.pow.Tensor_Scalar", {Ref(x), Argument::Int(3)});
    Node* term = emit.Call("aten.mul.Tensor", {Ref(cube), Argument::Float(0.044715)});
    Node* sum = emit.Call("aten.add.Tensor", {Ref(x), Ref(term)});
    Node* scaled = emit.Call("aten.mul.Tensor", {Ref(sum), Argument::Float(M_2_SQRTPI * M_SQRT1_2)});
    inner = emit.Call("aten.tanh.default", {Ref(scaled)});
  }
  Node* one_plus = emit.Call("aten.add.Tensor", {Ref(inner), Argument::Int(1)});
  Node* half = emit.Call("aten.mul.Tensor", {Ref(x), Argument::Float(0.5)});
  return emit.Finish(emit.Call("aten.mul.Tensor", {Ref(half), Ref(one_plus)}));
}

// _softmax(self, dim, half_to_float) = exp(x - amax) / sum(exp(x - amax)),
// and _log_softmax = (x - amax) - log(sum(exp(x - amax))), both reducing
// along `dim` with keepdim. half_to_float (an upcast) is declined.
Result<bool> DecomposeSoftmax(Graph& graph, Node* node, const OpRegistry& registry, bool log) {
  Node* x = FindNodeArg(*node, 0, "self");
  const Argument* dim = FindArg(*node, 1, "dim");
  const Argument* half = FindArg(*node, 2, "half_to_float");
  if (!x || !dim || dim->kind() != Argument::Kind::kInt) return false;
  if (half && half->kind() == Argument::Kind::kBool && half->as_bool()) return false;
  Argument dims = IntList({dim->as_int()});
  Emitter emit(graph, node, registry);
  Node* max = emit.Call("aten.amax.default", {Ref(x), dims, Argument::Bool(true)});
  Node* shifted = emit.Call("aten.sub.Tensor", {Ref(x), Ref(max)});
  Node* exp = emit.Call("aten.exp.default", {Ref(shifted)});
  Node* sum = emit.Call("aten.sum.dim_IntList", {Ref(exp), dims, Argument::Bool(true)});
  if (!log) return emit.Finish(emit.Call("aten.div.Tensor", {Ref(exp), Ref(sum)}));
  Node* log_sum = emit.Call("aten.log.default", {Ref(sum)});
  return emit.Finish(emit.Call("aten.sub.Tensor", {Ref(shifted), Ref(log_sum)}));
}

// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd)
// over the last len(normalized_shape) dims: mean and the biased variance by
// reductions with keepdim, rstd = rsqrt(var + eps), out = (x - mean) * rstd
// [* weight] [+ bias]. Its users must be getitem(node, 0|1|2); each is
// rewired to the matching value and erased.
Result<bool> DecomposeLayerNorm(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "input");
  const Argument* shape = FindArg(*node, 1, "normalized_shape");
  const TensorMeta* input = TensorOf(x);
  auto eps = NumberArg(*node, 4, "eps", 1e-5);
  if (!x || !input || !shape || !shape->is_sequence() || !eps) return false;
  size_t rank = input->sizes.size();
  size_t normalized = shape->items().size();
  if (normalized == 0 || normalized > rank) return false;
  for (Node* user : node->users()) {
    if (!IsTarget(*user, "operator.getitem") || user->args().size() != 2 ||
        user->args()[1].kind() != Argument::Kind::kInt || user->args()[1].as_int() < 0 ||
        user->args()[1].as_int() > 2) {
      return false;
    }
  }
  const Argument* weight = FindArg(*node, 2, "weight");
  const Argument* bias = FindArg(*node, 3, "bias");
  if ((weight && !weight->is_none() && !weight->is_node()) || (bias && !bias->is_none() && !bias->is_node())) {
    return false;
  }
  std::vector<int64_t> reduced;
  for (size_t d = rank - normalized; d < rank; ++d) reduced.push_back(static_cast<int64_t>(d));
  Argument dims = IntList(reduced);
  Emitter emit(graph, node, registry);
  Node* mean = emit.Call("aten.mean.dim", {Ref(x), dims, Argument::Bool(true)});
  Node* centered = emit.Call("aten.sub.Tensor", {Ref(x), Ref(mean)});
  Node* square = emit.Call("aten.mul.Tensor", {Ref(centered), Ref(centered)});
  Node* var = emit.Call("aten.mean.dim", {Ref(square), dims, Argument::Bool(true)});
  Node* var_eps = emit.Call("aten.add.Tensor", {Ref(var), Argument::Float(*eps)});
  Node* rstd = emit.Call("aten.rsqrt.default", {Ref(var_eps)});
  Node* out = emit.Call("aten.mul.Tensor", {Ref(centered), Ref(rstd)});
  if (weight && weight->is_node()) out = emit.Call("aten.mul.Tensor", {Ref(out), *weight});
  if (bias && bias->is_node()) out = emit.Call("aten.add.Tensor", {Ref(out), *bias});
  Node* values[3] = {out, mean, rstd};
  for (Node* user : node->users().ToVector()) {
    graph.ReplaceAllUsesWith(user, values[user->args()[1].as_int()]);
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(user));
  }
  AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
  return true;
}

// silu(x) = x * sigmoid(x).
Result<bool> DecomposeSilu(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "self");
  if (!x) return false;
  Emitter emit(graph, node, registry);
  Node* gate = emit.Call("aten.sigmoid.default", {Ref(x)});
  return emit.Finish(emit.Call("aten.mul.Tensor", {Ref(x), Ref(gate)}));
}

// hardtanh(x, min_val=-1, max_val=1) = clamp(x, min_val, max_val).
Result<bool> DecomposeHardtanh(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "self");
  auto low = NumberArg(*node, 1, "min_val", -1);
  auto high = NumberArg(*node, 2, "max_val", 1);
  if (!x || !low || !high) return false;
  // Keep the literals as the node spelled them (0.0 stays a float).
  const Argument* low_arg = FindArg(*node, 1, "min_val");
  const Argument* high_arg = FindArg(*node, 2, "max_val");
  Emitter emit(graph, node, registry);
  return emit.Finish(emit.Call("aten.clamp.default", {Ref(x), low_arg ? *low_arg : Argument::Float(*low),
                                                      high_arg ? *high_arg : Argument::Float(*high)}));
}

// t(x) = transpose(x, 0, 1) for a 2-D x (t of fewer dims is the identity:
// left to remove_noop).
Result<bool> DecomposeT(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "self");
  const TensorMeta* input = TensorOf(x);
  if (!x || !input || input->sizes.size() != 2) return false;
  Emitter emit(graph, node, registry);
  return emit.Finish(emit.Call("aten.transpose.int", {Ref(x), Argument::Int(0), Argument::Int(1)}));
}

// mean.dim(x, dim, keepdim=False, *, dtype=None) = sum.dim_IntList(x, dim, keepdim) / N,
// N the product of the reduced sizes (static sizes needed).
Result<bool> DecomposeMeanDim(Graph& graph, Node* node, const OpRegistry& registry) {
  Node* x = FindNodeArg(*node, 0, "self");
  const TensorMeta* input = TensorOf(x);
  if (!x || !input) return false;
  auto dims = IntListArg(*node, 1, "dim", std::vector<int64_t>{});
  auto keepdim = BoolArg(*node, 2, "keepdim", false);
  if (!dims.ok() || !keepdim.ok()) return false;
  std::vector<int64_t> reduced = *dims;
  if (reduced.empty()) {
    for (size_t d = 0; d < input->sizes.size(); ++d) reduced.push_back(static_cast<int64_t>(d));
  }
  int64_t count = 1;
  for (int64_t d : reduced) {
    auto norm = NormalizeDim(*node, d, input->sizes.size());
    if (!norm.ok() || input->sizes.empty()) return false;
    const Dim& size = input->sizes[*norm];
    if (!size.is_static()) return false;
    count *= size.value();
  }
  std::vector<Kwarg> kwargs;
  if (const Argument* dtype = node->kwarg("dtype"); dtype && !dtype->is_none()) kwargs.push_back({"dtype", *dtype});
  Emitter emit(graph, node, registry);
  Node* sum = emit.Call("aten.sum.dim_IntList", {Ref(x), IntList(*dims), Argument::Bool(*keepdim)}, kwargs);
  return emit.Finish(emit.Call("aten.div.Tensor", {Ref(sum), Argument::Int(count)}));
}

void AddEntry(DecompositionTable& table, std::string target, std::string description, DecompositionFn fn) {
  table.Add({std::move(target), std::move(description), true, std::move(fn)});
}

}  // namespace

void AddBuiltinDecompositions(DecompositionTable& table) {
  AddEntry(table, "aten.addmm.default", "addmm(b, x, w, beta, alpha) -> add(mul(mm(x, w), alpha), mul(b, beta))",
           DecomposeAddmm);
  AddEntry(table, "aten.gelu.default", "gelu(x) -> x * 0.5 * (1 + erf(x / sqrt(2)))  (tanh: the tanh formula)",
           DecomposeGelu);
  AddEntry(table, "aten._softmax.default", "_softmax(x, d) -> exp(x - amax) / sum(exp(x - amax), d, keepdim)",
           [](Graph& g, Node* n, const OpRegistry& r) { return DecomposeSoftmax(g, n, r, false); });
  AddEntry(table, "aten._log_softmax.default", "_log_softmax(x, d) -> (x - amax) - log(sum(exp(x - amax), d, keepdim))",
           [](Graph& g, Node* n, const OpRegistry& r) { return DecomposeSoftmax(g, n, r, true); });
  AddEntry(table, "aten.native_layer_norm.default",
           "native_layer_norm -> mean, var by mean.dim, rstd = rsqrt(var + eps), (x - mean) * rstd * w + b",
           DecomposeLayerNorm);
  AddEntry(table, "aten.silu.default", "silu(x) -> x * sigmoid(x)", DecomposeSilu);
  AddEntry(table, "aten.hardtanh.default", "hardtanh(x, lo, hi) -> clamp(x, lo, hi)", DecomposeHardtanh);
  AddEntry(table, "aten.t.default", "t(x) -> transpose(x, 0, 1)  (2-D x)", DecomposeT);
  AddEntry(table, "aten.mean.dim", "mean.dim(x, d, keepdim) -> sum.dim_IntList(x, d, keepdim) / N", DecomposeMeanDim);
}

}  // namespace airscope
