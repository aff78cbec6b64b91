#include "formats/ge_op_types.h"

#include <array>
#include <cctype>

namespace airscope {
namespace {

struct Row {
  std::string_view packet;     // target without `torch.ops.` and overload
  std::string_view ge_type;    // "" : no single GE operator (see note)
  std::string_view canonical;  // the overload this packet maps back from ge_type; "" if not canonical
  std::string_view note = {};  // ge_type == "": what TorchAir's converter does instead
};

constexpr std::string_view kMultiOp = "TorchAir's converter emits several GE operators";

// One row per op; extend here. Rows whose canonical is "" map forward only.
// Each GE type is the `ge.X(...)` TorchAir's converter (ge_converter/aten/<op>.py) returns.
constexpr std::array kRows = {
    Row{"aten.mm", "MatMul", "default"},  // ge.MatMul(self, mat2, None)
    Row{"aten.addmm", "", "",
        "addmm.py: MatMulV2 with the bias when it is fp16/bf16 of rank 1 (or [1, N]), "
        "else MatMulV2 + Add/AxpyV2, Mul for alpha/beta != 1"},
    Row{"aten.matmul", "", "", "matmul.py: BatchMatMul when a rank >= 3, else MatMul"},
    Row{"aten.bmm", "BatchMatMul", "default"},  // ge.BatchMatMul(self, mat2)
    Row{"aten.add", "Add", "Tensor"},           // AxpyV2 when alpha != 1
    Row{"aten.sub", "Sub", "Tensor"},           // Mul(other, alpha) first when alpha != 1
    Row{"aten.mul", "Mul", "Tensor"},           // Muls for a fp16/bf16 tensor times a scalar
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
    Row{"aten._reshape_alias", "", "", "_reshape_alias.py raises NotImplementedError"},
    Row{"aten.transpose", "Transpose", "int"},
    Row{"aten.t", "Transpose", ""},  // Identity for a rank < 2 input
    Row{"aten.permute", "Transpose", ""},
    Row{"aten.expand", "BroadcastTo", "default"},
    Row{"aten.clone", "Identity", "default"},
    Row{"aten.cat", "ConcatV2", "default"},
    Row{"aten.split", "SplitV", "Tensor"},
    Row{"aten.split_with_sizes", "SplitV", ""},
    Row{"aten.convolution", "", "",
        "convolution.py: Conv2D/Conv3D/Conv2DTranspose/Conv3DTranspose by rank, "
        "with shape helper operators"},
    Row{"aten.native_batch_norm", "", "", "native_batch_norm.py raises NotImplementedError"},
    Row{"aten._native_batch_norm_legit_no_training", "", "", kMultiOp},
    Row{"aten.native_layer_norm", "", "", "native_layer_norm.py: LayerNormV4, with Const/Fill operators"},
    Row{"aten._softmax", "SoftmaxV2", "default"},
    Row{"aten.sum", "", "", kMultiOp},
    Row{"aten.mean", "ReduceMean", "dim"},
    Row{"aten.amax", "", "", "amax.py raises NotImplementedError"},
    Row{"aten.eq", "Equal", "Tensor"},
    Row{"aten.masked_fill", "MaskedFill", "Scalar"},
    Row{"aten.where", "SelectV2", "self"},
    Row{"aten.tril", "Tril", "default"},
    Row{"aten.full", "Fill", "default"},
    Row{"aten.ones", "", "", kMultiOp},
    Row{"aten.zeros", "", "", kMultiOp},
    Row{"aten.hardtanh", "", "", "hardtanh.py: ClipByValueV2 with Cast/Fill/Shape operators"},
    Row{"aten.copy_", "Assign", "default"},
    Row{"aten._to_copy", "Cast", "default"},
    Row{"aten.embedding", "GatherV2", "default"},
    // torch_npu ops (ge_converter/custom/<file>.py)
    Row{"npu.npu_add_rms_norm", "AddRmsNorm", "default"},                            // npu_add_rms_norm.py:13
    Row{"npu.npu_add_rms_norm_cast", "AddRmsNormCast", "default"},                   // npu_add_rms_norm_cast.py:17
    Row{"npu.npu_add_rms_norm_dynamic_quant", "AddRmsNormDynamicQuant", "default"},  // ...dynamic_quant.py:21
    Row{"npu._npu_dtype_cast", "Cast", ""},                                          // npu_dtype_cast.py:59-66
    Row{"npu.npu_transpose_batchmatmul", "TransposeBatchMatMul", "default"},         // transpose_batchmatmul.py:21
    Row{"npu.npu_dynamic_quant", "", "",
        "npu_dynamic_quant.py: DynamicQuant (quant_mode pertoken, dst_type_max 0), "
        "else DynamicQuantV2; int4 adds Reshape/Bitcast operators"},
    Row{"npu.npu_quantize", "", "",
        "quantized.py: AscendQuantV2 when div_mode is False, else Quantize with "
        "Unsqueeze operators for scales and zero_points"},
};

constexpr std::string_view kNoRow =
    "no GE type in airscope's table (formats/ge_op_types.cc); TorchAir converts it with its registered "
    "converter, or fails if there is none (fx2ge_converter.py _validate_support)";

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
    if (row.packet != packet) continue;
    if (row.ge_type.empty()) return GeOpType{std::string(target), false, false, std::string(row.note)};
    return GeOpType{std::string(row.ge_type), true, !row.canonical.empty() && row.canonical == overload, {}};
  }
  if (packet.starts_with("air.")) {
    return GeOpType{std::string(target), false, false,
                    "a TorchAir aclgraph stream marker; GE has no operator for it (it orders its users: "
                    "they take it as a control input)"};
  }
  return GeOpType{std::string(target), false, false, std::string(kNoRow)};
}

std::optional<std::string> TargetForGeType(std::string_view type) {
  for (const Row& row : kRows) {
    if (!row.ge_type.empty() && row.ge_type == type && !row.canonical.empty()) {
      return "torch.ops." + std::string(row.packet) + "." + std::string(row.canonical);
    }
  }
  return std::nullopt;
}

}  // namespace airscope
