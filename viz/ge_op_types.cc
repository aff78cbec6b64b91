#include "viz/ge_op_types.h"

#include <array>
#include <cctype>

namespace airscope {
namespace {

struct Row {
  std::string_view packet;     // target without `torch.ops.` and overload
  std::string_view ge_type;
  std::string_view canonical;  // the overload this packet maps back from ge_type; "" if not canonical
};

// One row per op; extend here. Rows whose canonical is "" map forward only.
constexpr std::array kRows = {
    Row{"aten.mm", "MatMul", "default"},  // TorchAir: ge.MatMul(self, mat2, None)
    Row{"aten.addmm", "MatMul", ""},      // bias folded into the MatMul's optional input
    Row{"aten.matmul", "MatMul", ""},
    Row{"aten.bmm", "BatchMatMul", "default"},  // TorchAir: ge.BatchMatMul(self, mat2)
    Row{"aten.add", "Add", "Tensor"},
    Row{"aten.sub", "Sub", "Tensor"},
    Row{"aten.mul", "Mul", "Tensor"},
    Row{"aten.div", "RealDiv", "Tensor"},
    Row{"aten.abs", "Abs", "default"},
    Row{"aten.neg", "Neg", "default"},
    Row{"aten.exp", "Exp", "default"},
    Row{"aten.relu", "Relu", "default"},
    Row{"aten.gelu", "Gelu", "default"},
    Row{"aten.sigmoid", "Sigmoid", "default"},
    Row{"aten.tanh", "Tanh", "default"},
    Row{"aten.rsqrt", "Rsqrt", "default"},
    Row{"aten.sqrt", "Sqrt", "default"},
    Row{"aten.pow", "Pow", "Tensor_Scalar"},
    Row{"aten.view", "Reshape", "default"},
    Row{"aten.reshape", "Reshape", ""},
    Row{"aten._unsafe_view", "Reshape", ""},
    Row{"aten._reshape_alias", "Reshape", ""},
    Row{"aten.transpose", "Transpose", "int"},
    Row{"aten.t", "Transpose", ""},
    Row{"aten.permute", "Transpose", ""},
    Row{"aten.expand", "BroadcastTo", "default"},
    Row{"aten.clone", "Identity", "default"},
    Row{"aten.cat", "ConcatV2", "default"},
    Row{"aten.split", "SplitV", "Tensor"},
    Row{"aten.split_with_sizes", "SplitV", ""},
    Row{"aten.convolution", "Conv2D", "default"},
    Row{"aten.native_batch_norm", "BatchNorm", "default"},
    Row{"aten._native_batch_norm_legit_no_training", "BatchNorm", ""},
    Row{"aten.native_layer_norm", "LayerNorm", "default"},
    Row{"aten._softmax", "SoftmaxV2", "default"},
    Row{"aten.sum", "ReduceSum", "dim_IntList"},
    Row{"aten.mean", "ReduceMean", "dim"},
    Row{"aten.amax", "ReduceMax", "default"},
    Row{"aten.eq", "Equal", "Tensor"},
    Row{"aten.masked_fill", "MaskedFill", "Scalar"},
    Row{"aten.where", "Select", "self"},
    Row{"aten.tril", "Tril", "default"},
    Row{"aten.full", "Fill", "default"},
    Row{"aten.ones", "Fill", ""},
    Row{"aten.zeros", "Fill", ""},
    Row{"aten.hardtanh", "ClipByValue", "default"},
    Row{"aten.copy_", "Assign", "default"},
    Row{"aten._to_copy", "Cast", "default"},
    Row{"aten.embedding", "GatherV2", "default"},
    // TorchAir's multi-stream markers have no GE equivalent in aclgraph mode; kept by name.
    Row{"air.record", "AirRecord", "default"},
    Row{"air.wait", "AirWait", "default"},
    Row{"air.scope_enter", "AirScopeEnter", "default"},
    Row{"air.scope_exit", "AirScopeExit", "default"},
};

// `torch.ops.aten.add.Tensor` -> packet `aten.add`, overload `Tensor`.
void SplitTarget(std::string_view target, std::string_view* packet, std::string_view* overload) {
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  size_t dot = target.rfind('.');
  size_t first = target.find('.');
  if (dot == std::string_view::npos || dot == first) {  // `operator.getitem`, `foo`
    *packet = target;
    *overload = "";
    return;
  }
  *packet = target.substr(0, dot);
  *overload = target.substr(dot + 1);
}

}  // namespace

std::string CamelCase(std::string_view snake) {
  std::string out;
  bool upper = true;
  for (char c : snake) {
    if (c == '_' || c == '.') {
      upper = true;
      continue;
    }
    if (!std::isalnum(static_cast<unsigned char>(c))) continue;
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out.empty() ? std::string("Unknown") : out;
}

GeOpType GeTypeForTarget(std::string_view target) {
  std::string_view packet, overload;
  SplitTarget(target, &packet, &overload);
  for (const Row& row : kRows) {
    if (row.packet == packet) {
      return GeOpType{std::string(row.ge_type), true, !row.canonical.empty() && row.canonical == overload};
    }
  }
  // Unmapped: the op's own name (without namespace), CamelCased.
  std::string_view name = packet;
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) name = name.substr(dot + 1);
  return GeOpType{CamelCase(name), false, false};
}

std::optional<std::string> TargetForGeType(std::string_view type) {
  for (const Row& row : kRows) {
    if (row.ge_type == type && !row.canonical.empty()) {
      return "torch.ops." + std::string(row.packet) + "." + std::string(row.canonical);
    }
  }
  return std::nullopt;
}

}  // namespace airscope
