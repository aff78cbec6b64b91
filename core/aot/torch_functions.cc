// The lowering rules (see torch_functions.h). Sources, per family:
//  - pointwise/binary: the aten op of the same name; a Python number operand
//    stays in the `.Tensor` overload (AOT prints `aten.mul.Tensor(x, 0.5)`),
//    comparisons take `.Scalar` for a number (`aten.gt.Scalar(x, 0.1)`).
//  - linear: at::native::linear (aten/src/ATen/native/Linear.cpp): 2-D input
//    with bias -> addmm(bias, x, t(w)); contiguous N-D input with a 1-D bias ->
//    _flatten_nd_linear: view(x, [rows, K]), t, addmm, view; no bias ->
//    matmul(x, t(w)).
//  - matmul: at::native::_matmul_impl: 2-D @ 2-D -> mm; N-D @ 2-D folds:
//    view(x, [rows, K]), mm, _unsafe_view; 3-D @ 3-D -> bmm.
//  - softmax/log_softmax -> _softmax/_log_softmax(x, dim, False);
//    layer_norm -> native_layer_norm(...)[0] (CompositeImplicitAutograd in
//    native_functions.yaml).
//  - dropout: at::native::dropout: train and 0 < p < 1 on an NPU tensor
//    (is_fused_kernel_acceptable admits privateuseone) -> native_dropout(x, p,
//    True)[0]; otherwise the input itself (no node at all).
//  - F.embedding (torch/nn/functional.py): padding_idx None -> -1, then
//    aten.embedding(weight, input[, padding_idx]).
//  - conv1d/2d/3d -> aten.convolution(x, w, b, stride, padding, dilation,
//    False, [0...], groups) for integer paddings.
//  - views: view/reshape (reshape is a view of a contiguous input),
//    transpose, permute, t, unsqueeze, squeeze, expand, flatten, contiguous.
#include "core/aot/torch_functions.h"

#include "core/aot/lowering_util.h"

#include <algorithm>
#include <map>

#include "core/analysis/node_util.h"

namespace airscope {

const Argument* TorchCall::Arg(size_t index, std::string_view keyword) const {
  if (index < args.size()) return &args[index];
  for (const Kwarg& kw : kwargs) {
    if (kw.name == keyword) return &kw.value;
  }
  return nullptr;
}

namespace {

using Result_ = LoweringResult;

// ---- families

LoweringFn Unary(const std::string& target) {
  return [target](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    if (call.args.size() > 1 || !call.kwargs.empty()) {
      *why = "extra arguments (out=, dtype=, ...) are not modelled";
      return std::nullopt;
    }
    return Ref(b.Call(target, {*self}));
  };
}

// add/sub/mul/div (and their in-place forms): `.Tensor` whatever the operand.
LoweringFn Binary(const std::string& op) {
  return [op](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = call.Arg(0, "input");
    if (!self) self = call.Arg(0, "self");
    const Argument* other = call.Arg(1, "other");
    if (!self || !other) {
      *why = self ? "it has no second operand" : "it has no first operand";
      return std::nullopt;
    }
    // `4 * x`, `s0 * x`: Python calls the tensor's reflected operator, so the
    // traced call has the tensor first (Tensor.__rmul__ / __radd__).
    if ((op == "mul" || op == "add") && call.kwargs.empty() && !TensorValue(*self) && TensorValue(*other)) {
      return Ref(b.Call(fmt::format("aten.{}.Tensor", op), {*other, *self}));
    }
    if (!self->is_node()) {
      *why = "its first argument is not a tensor";
      return std::nullopt;
    }
    std::vector<Kwarg> kwargs;
    if (const Argument* alpha = call.Arg(2, "alpha"); alpha && !alpha->is_none()) kwargs.push_back({"alpha", *alpha});
    if (std::string extra = UnmodelledKwargs(call, {"other", "alpha", "input"}); !extra.empty()) {
      *why = "keyword '" + extra + "' is not modelled";
      return std::nullopt;
    }
    return Ref(b.Call(fmt::format("aten.{}.Tensor", op), {*self, *other}, std::move(kwargs)));
  };
}

// x.size() / x.size(d) / x.shape: static dims are ints; a symbolic dim is read
// with aten.sym_size.int, as make_fx records a SymInt taken from a tensor.
Result_ Size(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  const TensorMeta* t = self->is_node() ? self->as_node()->tensor() : nullptr;
  if (!t) {
    *why = "the tensor's shape is unknown";
    return std::nullopt;
  }
  auto dim_value = [&](int64_t i) -> Argument {
    const Dim& d = t->sizes[i];
    if (d.is_static()) return Argument::Int(d.value());
    return Ref(b.Call("aten.sym_size.int", {*self, Argument::Int(i)}));
  };
  int64_t rank = static_cast<int64_t>(t->sizes.size());
  if (const Argument* dim = call.Arg(1, "dim"); dim && !dim->is_none()) {
    if (dim->kind() != Argument::Kind::kInt) {
      *why = "its dim is not an int";
      return std::nullopt;
    }
    int64_t i = dim->as_int() < 0 ? dim->as_int() + rank : dim->as_int();
    if (i < 0 || i >= rank) {
      *why = "its dim is out of range";
      return std::nullopt;
    }
    return dim_value(i);
  }
  std::vector<Argument> dims;
  for (int64_t i = 0; i < rank; ++i) dims.push_back(dim_value(i));
  return Argument::Tuple(std::move(dims));
}

LoweringFn Compare(const std::string& op) {
  return [op](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    const Argument* other = call.Arg(1, "other");
    if (!self || !other) return std::nullopt;
    std::string overload = other->is_node() ? "Tensor" : "Scalar";
    return Ref(b.Call(fmt::format("aten.{}.{}", op, overload), {*self, *other}));
  };
}

Result_ Pow(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* exponent = call.Arg(1, "exponent");
  if (!self || !exponent) return std::nullopt;
  if (exponent->is_node()) return Ref(b.Call("aten.pow.Tensor_Tensor", {*self, *exponent}));
  return Ref(b.Call("aten.pow.Tensor_Scalar", {*self, *exponent}));
}

Result_ Neg(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  return Ref(b.Call("aten.neg.default", {*self}));
}

Result_ Gelu(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  std::vector<Kwarg> kwargs;
  const Argument* approximate = call.Arg(1, "approximate");
  if (approximate && approximate->kind() == Argument::Kind::kString && approximate->as_string() != "none") {
    kwargs.push_back({"approximate", *approximate});
  }
  return Ref(b.Call("aten.gelu.default", {*self}, std::move(kwargs)));
}

// F.relu(x, inplace) / F.silu(x, inplace): in-place form when asked (functionalized later).
LoweringFn MaybeInplaceUnary(const std::string& op) {
  return [op](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    std::optional<bool> inplace = BoolOf(call.Arg(1, "inplace"), false);
    if (!inplace) {
      *why = "its inplace flag is not a constant";
      return std::nullopt;
    }
    return Ref(b.Call(fmt::format("aten.{}{}.default", op, *inplace ? "_" : ""), {*self}));
  };
}

// softmax(x, dim, _stacklevel=3, dtype=None) -> _softmax(x, dim, False).
LoweringFn Softmax(const std::string& op) {
  return [op](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    std::optional<int64_t> dim = IntOf(call.Arg(1, "dim"));
    if (!dim) {
      *why = "dim is not a constant int (implicit dim is deprecated and not modelled)";
      return std::nullopt;
    }
    const Argument* dtype = call.Arg(3, "dtype");
    if (dtype && !dtype->is_none()) {
      *why = "dtype= is not modelled";
      return std::nullopt;
    }
    return Ref(b.Call(fmt::format("aten._{}.default", op), {*self, Argument::Int(*dim), Argument::Bool(false)}));
  };
}

Result_ LayerNorm(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* shape = call.Arg(1, "normalized_shape");
  if (!self || !shape) return std::nullopt;
  const Argument* weight = call.Arg(2, "weight");
  const Argument* bias = call.Arg(3, "bias");
  const Argument* eps = call.Arg(4, "eps");
  Argument normalized =
      shape->is_sequence() ? Argument::List({shape->items().begin(), shape->items().end()}) : Argument::List({*shape});
  Node* norm =
      b.Call("aten.native_layer_norm.default", {*self, normalized, weight ? *weight : Argument::None(),
                                                bias ? *bias : Argument::None(), eps ? *eps : Argument::Float(1e-5)});
  return Ref(b.Call("operator.getitem", {Ref(norm), Argument::Int(0)}));
}

Result_ Dropout(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  std::optional<double> p = call.Arg(1, "p") ? NumberOf(call.Arg(1, "p")) : 0.5;
  std::optional<bool> training = BoolOf(call.Arg(2, "training"), true);
  std::optional<bool> inplace = BoolOf(call.Arg(3, "inplace"), false);
  if (!p || !training || !inplace) {
    *why = "p, training or inplace is not a constant";
    return std::nullopt;
  }
  if (*inplace) {
    *why = "inplace dropout is not modelled";
    return std::nullopt;
  }
  // _dropout_impl returns the input when not training or p == 0; p == 1 zeroes.
  if (!*training || *p == 0) return *self;
  if (*p >= 1) {
    *why = "dropout with p=1 is not modelled";
    return std::nullopt;
  }
  Node* dropout = b.Call("aten.native_dropout.default", {*self, Argument::Float(*p), Argument::Bool(true)});
  return Ref(b.Call("operator.getitem", {Ref(dropout), Argument::Int(0)}));
}

Result_ Linear(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* weight = call.Arg(1, "weight");
  if (!self || !weight || !weight->is_node()) {
    if (self) *why = "its weight is not a tensor";
    return std::nullopt;
  }
  const Argument* bias_arg = call.Arg(2, "bias");
  bool has_bias = bias_arg && bias_arg->is_node();
  std::optional<std::vector<int64_t>> in = SizesOf(*self);
  std::optional<std::vector<int64_t>> w = SizesOf(*weight);
  if (!in || !w || w->size() != 2 || in->empty()) {
    *why = "input/weight sizes are unknown or symbolic";
    return std::nullopt;
  }
  const int64_t k = in->back(), n = (*w)[0];
  if (in->size() == 2 && has_bias) {
    Node* t = b.Call("aten.t.default", {*weight});
    return Ref(b.Call("aten.addmm.default", {*bias_arg, *self, Ref(t)}));
  }
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < in->size(); ++i) rows *= (*in)[i];
  std::vector<int64_t> out_sizes(in->begin(), in->end() - 1);
  out_sizes.push_back(n);
  const TensorMeta* bias_meta = has_bias ? MetaOf(*bias_arg) : nullptr;
  if (has_bias && KnownContiguous(self->as_node()) && bias_meta && bias_meta->sizes.size() == 1) {
    Node* flat = b.Call("aten.view.default", {*self, IntList({rows, k})});
    Node* t = b.Call("aten.t.default", {*weight});
    Node* mm = b.Call("aten.addmm.default", {*bias_arg, Ref(flat), Ref(t)});
    return Ref(b.Call("aten.view.default", {Ref(mm), IntList(out_sizes)}));
  }
  if (has_bias) {
    *why = "a non-contiguous input or a bias that is not 1-D (matmul + add_) is not modelled";
    return std::nullopt;
  }
  Node* t = b.Call("aten.t.default", {*weight});
  if (in->size() == 2) return Ref(b.Call("aten.mm.default", {*self, Ref(t)}));
  Node* flat = b.Call("aten.view.default", {*self, IntList({rows, k})});
  Node* mm = b.Call("aten.mm.default", {Ref(flat), Ref(t)});
  return Ref(b.Call("aten._unsafe_view.default", {Ref(mm), IntList(out_sizes)}));
}

Result_ Matmul(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* other = call.Arg(1, "other");
  if (!self || !other || !other->is_node()) return std::nullopt;
  std::optional<std::vector<int64_t>> a = SizesOf(*self), c = SizesOf(*other);
  if (!a || !c) {
    *why = "operand sizes are unknown or symbolic";
    return std::nullopt;
  }
  if (a->size() == 2 && c->size() == 2) return Ref(b.Call("aten.mm.default", {*self, *other}));
  if (a->size() >= 3 && c->size() == 2 && KnownContiguous(self->as_node())) {
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < a->size(); ++i) rows *= (*a)[i];
    std::vector<int64_t> out_sizes(a->begin(), a->end() - 1);
    out_sizes.push_back((*c)[1]);
    Node* flat = b.Call("aten.view.default", {*self, IntList({rows, a->back()})});
    Node* mm = b.Call("aten.mm.default", {Ref(flat), *other});
    return Ref(b.Call("aten._unsafe_view.default", {Ref(mm), IntList(out_sizes)}));
  }
  if (a->size() == 3 && c->size() == 3 && (*a)[0] == (*c)[0]) return Ref(b.Call("aten.bmm.default", {*self, *other}));
  *why = "only 2-D @ 2-D, N-D @ 2-D (contiguous) and 3-D @ 3-D of one batch are modelled";
  return std::nullopt;
}

// Calls whose aten op takes the same arguments (mm, bmm, addmm, where, ...).
LoweringFn Same(const std::string& target) {
  return [target](AtenBuilder& b, const TorchCall& call, std::string*) -> Result_ {
    return Ref(b.Call(target, call.args, call.kwargs));
  };
}

Result_ Embedding(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* input = call.Arg(0, "input");
  const Argument* weight = call.Arg(1, "weight");
  if (!input || !weight || !input->is_node() || !weight->is_node()) {
    *why = "input or weight is not a tensor";
    return std::nullopt;
  }
  const Argument* max_norm = call.Arg(3, "max_norm");
  if (max_norm && !max_norm->is_none()) {
    *why = "max_norm (an in-place embedding_renorm_) is not modelled";
    return std::nullopt;
  }
  std::vector<Argument> args = {*weight, *input};
  const Argument* padding_idx = call.Arg(2, "padding_idx");
  if (padding_idx && !padding_idx->is_none()) {
    std::optional<int64_t> index = IntOf(padding_idx);
    const TensorMeta* w = MetaOf(*weight);
    if (!index || !w || w->sizes.empty() || !w->sizes[0].is_static()) {
      *why = "padding_idx is not a constant";
      return std::nullopt;
    }
    // functional.py turns a negative padding_idx into num_embeddings + padding_idx.
    int64_t idx = *index < 0 ? w->sizes[0].value() + *index : *index;
    args.push_back(Argument::Int(idx));
  }
  return Ref(b.Call("aten.embedding.default", std::move(args)));
}

LoweringFn Conv(size_t spatial) {
  return [spatial](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    const Argument* weight = call.Arg(1, "weight");
    if (!self || !weight) return std::nullopt;
    auto ints = [&](size_t index, std::string_view name, int64_t fallback) -> std::optional<Argument> {
      const Argument* arg = call.Arg(index, name);
      if (!arg) return IntList(std::vector<int64_t>(spatial, fallback));
      if (arg->kind() == Argument::Kind::kInt) return IntList(std::vector<int64_t>(spatial, arg->as_int()));
      if (arg->is_sequence() && StaticInts({arg->items().begin(), arg->items().end()})) {
        return Argument::List({arg->items().begin(), arg->items().end()});
      }
      return std::nullopt;
    };
    std::optional<Argument> stride = ints(3, "stride", 1), padding = ints(4, "padding", 0),
                            dilation = ints(5, "dilation", 1);
    std::optional<int64_t> groups = call.Arg(6, "groups") ? IntOf(call.Arg(6, "groups")) : 1;
    if (!stride || !padding || !dilation || !groups) {
      *why = "a string padding ('same'/'valid') or a non-constant stride/dilation/groups is not modelled";
      return std::nullopt;
    }
    const Argument* bias = call.Arg(2, "bias");
    return Ref(b.Call("aten.convolution.default",
                      {*self, *weight, bias ? *bias : Argument::None(), *stride, *padding, *dilation,
                       Argument::Bool(false), IntList(std::vector<int64_t>(spatial, 0)), Argument::Int(*groups)}));
  };
}

// ---- views and shape functions

Result_ View(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  std::optional<std::vector<Argument>> sizes = IntsFrom(call, 1, "size");
  if (!self || !sizes) return std::nullopt;
  if (sizes->size() == 1 && (*sizes)[0].kind() == Argument::Kind::kDType) {
    *why = "view(dtype) is not modelled";
    return std::nullopt;
  }
  return Ref(b.Call("aten.view.default", {*self, Argument::List(*sizes)}));
}

Result_ Reshape(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  std::optional<std::vector<Argument>> sizes = IntsFrom(call, 1, "shape");
  if (!self || !sizes) return std::nullopt;
  if (!KnownContiguous(self->as_node())) {
    *why = "reshape of an input not known to be contiguous (a copy + _unsafe_view) is not modelled";
    return std::nullopt;
  }
  return Ref(b.Call("aten.view.default", {*self, Argument::List(*sizes)}));
}

Result_ Flatten(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  std::optional<std::vector<int64_t>> sizes = SizesOf(*self);
  std::optional<int64_t> start = call.Arg(1, "start_dim") ? IntOf(call.Arg(1, "start_dim")) : 0;
  std::optional<int64_t> end = call.Arg(2, "end_dim") ? IntOf(call.Arg(2, "end_dim")) : -1;
  if (!sizes || !start || !end || !KnownContiguous(self->as_node())) {
    *why = "sizes unknown, dims not constant or input not known contiguous";
    return std::nullopt;
  }
  int64_t rank = static_cast<int64_t>(sizes->size());
  int64_t s = *start < 0 ? *start + rank : *start, e = *end < 0 ? *end + rank : *end;
  if (rank == 0 || s == e) return *self;  // at::flatten returns the input itself
  std::vector<int64_t> out(sizes->begin(), sizes->begin() + s);
  int64_t flat = 1;
  for (int64_t i = s; i <= e; ++i) flat *= (*sizes)[i];
  out.push_back(flat);
  out.insert(out.end(), sizes->begin() + e + 1, sizes->end());
  return Ref(b.Call("aten.view.default", {*self, IntList(out)}));
}

Result_ Permute(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  std::optional<std::vector<Argument>> dims = IntsFrom(call, 1, "dims");
  if (!self || !dims) return std::nullopt;
  return Ref(b.Call("aten.permute.default", {*self, Argument::List(*dims)}));
}

Result_ Expand(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  std::optional<std::vector<Argument>> sizes = IntsFrom(call, 1, "size");
  if (!self || !sizes) return std::nullopt;
  return Ref(b.Call("aten.expand.default", {*self, Argument::List(*sizes)}));
}

Result_ Squeeze(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  const Argument* dim = call.Arg(1, "dim");
  if (!dim || dim->is_none()) return Ref(b.Call("aten.squeeze.default", {*self}));
  if (dim->is_sequence()) return Ref(b.Call("aten.squeeze.dims", {*self, *dim}));
  return Ref(b.Call("aten.squeeze.dim", {*self, *dim}));
}

// sum/mean: over dims -> .dim_IntList/.dim, else .default.
LoweringFn Reduce(const std::string& op, const std::string& dim_overload) {
  return [op, dim_overload](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    const Argument* dim = call.Arg(1, "dim");
    const Argument* keepdim = call.Arg(2, "keepdim");
    if (call.Arg(3, "dtype") && !call.Arg(3, "dtype")->is_none()) {
      *why = "dtype= is not modelled";
      return std::nullopt;
    }
    if (!dim || dim->is_none()) return Ref(b.Call(fmt::format("aten.{}.default", op), {*self}));
    Argument dims = dim->is_sequence() ? *dim : Argument::List({*dim});
    std::vector<Argument> args = {*self, dims};
    if (keepdim && keepdim->kind() == Argument::Kind::kBool && keepdim->as_bool()) args.push_back(*keepdim);
    return Ref(b.Call(fmt::format("aten.{}.{}", op, dim_overload), std::move(args)));
  };
}

Result_ Cat(AtenBuilder& b, const TorchCall& call, std::string*) {
  std::vector<Argument> args = {call.args.at(0)};
  const Argument* dim = call.Arg(1, "dim");
  if (dim && !(dim->kind() == Argument::Kind::kInt && dim->as_int() == 0)) args.push_back(*dim);
  return Ref(b.Call("aten.cat.default", std::move(args)));
}

// x.fill_(v): fill_.Scalar for a number, fill_.Tensor for a tensor.
Result_ FillInplace(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* value = call.Arg(1, "value");
  if (!self || !value) return std::nullopt;
  b.Call(value->is_node() ? "aten.fill_.Tensor" : "aten.fill_.Scalar", {*self, *value});
  return *self;
}

// In-place method `x.add_(y)`: the aten in-place op; `functionalize` rewrites it.
LoweringFn InplaceBinary(const std::string& op) {
  return [op](AtenBuilder& b, const TorchCall& call, std::string* why) -> Result_ {
    const Argument* self = Self(call, why);
    const Argument* other = call.Arg(1, "other");
    if (!self || !other) return std::nullopt;
    b.Call(fmt::format("aten.{}_.Tensor", op), {*self, *other});
    // The method returns self; later reads of it are rewired by functionalization.
    return *self;
  };
}

Result_ Copy(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* src = call.Arg(1, "src");
  if (!self || !src) return std::nullopt;
  b.Call("aten.copy_.default", {*self, *src});
  return *self;
}

const LoweringTable& Table() {
  static const auto* table = [] {
    auto* t = new LoweringTable();
    for (const char* op : {"sin", "cos", "exp", "log", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "abs", "erf",
                           "sign", "clone", "tril", "triu"}) {
      (*t)[op] = Unary(fmt::format("aten.{}.default", op));
    }
    (*t)["relu"] = MaybeInplaceUnary("relu");
    (*t)["silu"] = MaybeInplaceUnary("silu");
    (*t)["relu_"] = Unary("aten.relu_.default");
    // In-place methods without operands (`x.zero_()`, `x.sigmoid_()`): the
    // aten in-place op; functionalization makes it out-of-place.
    for (const char* op : {"zero"}) {
      (*t)[fmt::format("{}_", op)] = Unary(fmt::format("aten.{}_.default", op));
    }
    (*t)["fill_"] = FillInplace;
    (*t)["gelu"] = Gelu;
    (*t)["neg"] = Neg;
    for (const char* op : {"add", "sub", "mul", "div"}) (*t)[op] = Binary(op);
    (*t)["truediv"] = Binary("div");
    for (const char* op : {"add", "sub", "mul", "div"}) (*t)[fmt::format("{}_", op)] = InplaceBinary(op);
    (*t)["iadd"] = InplaceBinary("add");
    (*t)["isub"] = InplaceBinary("sub");
    (*t)["imul"] = InplaceBinary("mul");
    (*t)["itruediv"] = InplaceBinary("div");
    (*t)["copy_"] = Copy;
    for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) (*t)[op] = Compare(op);
    (*t)["pow"] = Pow;
    (*t)["softmax"] = Softmax("softmax");
    (*t)["log_softmax"] = Softmax("log_softmax");
    (*t)["layer_norm"] = LayerNorm;
    (*t)["dropout"] = Dropout;
    (*t)["linear"] = Linear;
    (*t)["matmul"] = Matmul;
    (*t)["mm"] = Same("aten.mm.default");
    (*t)["bmm"] = Same("aten.bmm.default");
    (*t)["addmm"] = Same("aten.addmm.default");
    (*t)["where"] = Same("aten.where.self");
    (*t)["embedding"] = Embedding;
    (*t)["conv1d"] = Conv(1);
    (*t)["conv2d"] = Conv(2);
    (*t)["conv3d"] = Conv(3);
    (*t)["view"] = View;
    (*t)["size"] = Size;
    (*t)["reshape"] = Reshape;
    (*t)["flatten"] = Flatten;
    (*t)["permute"] = Permute;
    (*t)["expand"] = Expand;
    (*t)["t"] = Same("aten.t.default");
    (*t)["transpose"] = Same("aten.transpose.int");
    (*t)["unsqueeze"] = Same("aten.unsqueeze.default");
    (*t)["squeeze"] = Squeeze;
    (*t)["sum"] = Reduce("sum", "dim_IntList");
    (*t)["mean"] = Reduce("mean", "dim");
    (*t)["cat"] = Cat;
    AddIndexingLowerings(*t);
    AddConversionLowerings(*t);
    return t;
  }();
  return *table;
}

}  // namespace

std::string LoweringKey(const Node& node) {
  if (node.op() == OpKind::kCallMethod) return node.target();
  if (node.op() != OpKind::kCallFunction) return "";
  std::string_view t = node.target();
  if (t.substr(0, 10) == "torch.ops.") return "";
  for (std::string_view prefix : {"torch.nn.functional.", "torch._C._nn.", "torch._C._VariableFunctions.",
                                  "torch.Tensor.", "torch.", "operator.", "_operator."}) {
    if (t.substr(0, prefix.size()) == prefix) {
      t.remove_prefix(prefix.size());
      break;
    }
  }
  if (t.find('.') != std::string_view::npos) return "";
  return std::string(t);
}

const LoweringFn* FindLowering(std::string_view key) {
  auto it = Table().find(key);
  return it == Table().end() ? nullptr : &it->second;
}

std::vector<std::string> LoweringKeys() {
  std::vector<std::string> keys;
  for (const auto& [key, fn] : Table()) keys.push_back(key);
  return keys;
}

}  // namespace airscope
