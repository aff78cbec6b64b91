// GeOp: a Graph seen as the list of GE operators TorchAir would build for it,
// shared by the pbtxt writer (`_GraphPbtxt` layout) and the GE txt writer
// (ge.proto.ModelDef text), and the conventions the pbtxt reader inverts.
//
// Conventions (what a reader relies on):
//   - placeholder -> `Data` (keeps its FX name; attr `index` = i), get_attr ->
//     `Const` (FX name; `_fx_target` when target != name), output ->
//     `NetOutput`; call_function -> the GE type of ge_op_types.h, named like
//     TorchAir's GeGraph.next_unique_name (`Add`, `Add_1`, ...) unless
//     options.fx_names, where the FX name is kept. A target with no GE type
//     (ge_op_types.h: unmapped, multi-operator or unimplemented conversions,
//     air.* markers, call_method/call_module) keeps its FX name and target
//     as its op type, with attr `_airscope_unconverted` saying why.
//   - As TorchAir's converters build them: mm -> MatMul(x1, x2, bias) with an
//     absent bias (input "" and an `_is_unfed_optional` desc) and attrs
//     transpose_x1/transpose_x2 = false (mm.py; auto_generated_ge_raw_ops.py
//     MatMul); bmm -> BatchMatMul with adj_x1/adj_x2 = false (bmm.py); a
//     Python scalar operand of add.Tensor / sub.Tensor (alpha 1) and
//     div.Tensor -> a `Const` of the output dtype made just before the op
//     (dtype_promote, ge_const.h), attr `_fx_part_of` = the FX node (airscope's:
//     the reader rebuilds that node from `_fx_args` and skips the Const).
//   - A node TorchAir's converter builds as several operators, or with list
//     arguments as Const inputs (addmm, view, t, permute, expand, _softmax,
//     gelu, sum/mean over dims, cat, split_with_sizes, embedding,
//     convolution, native_layer_norm: ge_expansions.h), is all of them in creation order; the
//     last is the node's own (its descs, `_aten_op`, `_fx_args`), the others
//     carry `_fx_part_of` = its name.
//   - `operator.getitem(t, i)` on a tuple-valued node is no operator: users
//     reference `t:i`; in `_fx_args` such a reference is spelled
//     `<t>_getitem_<i>`, the name the reader gives the getitem it rebuilds.
//   - Inputs: every node reference in args then kwargs, in order, as
//     `name:idx`; references to producers without data output (air.* stream
//     markers) and the kwarg `_control_deps` become control inputs `^name`
//     (deduplicated, before the data inputs: the raw op builders append
//     `dependencies` first).
//   - Attrs beyond TorchAir's (only where they carry information):
//     `_aten_op` (the FX target when it is not the canonical source of the GE
//     type), `_fx_args` / `_fx_kwargs` (Python repr of args/kwargs when they
//     are not just the data inputs in order), `_user_stream_label`,
//     `_fx_op` (call_method / call_module).
//   - Descs: one output desc `y` per tensor, `y0..yn` for tuples; an input
//     desc is the producer's output desc renamed (`x`, or `x1..xn`; NetOutput
//     `input0..`); Data descs carry device_type "NPU" (as TorchAir's do).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

struct GeDesc {
  std::string name;
  DType dtype = DType::kUnknown;  // DT_UNDEFINED is proto3's default: not written
  bool has_shape = false;
  std::vector<int64_t> dims;    // symbolic dims as -1 (the symbol stays in meta)
  std::string layout;           // "ND" for tensors
  std::string meta;             // the `_meta` attr: `Tensor(dtype=..., shape=torch.Size([...])`
  std::string device_type;      // "NPU" on Data descs
  bool unfed_optional = false;  // an absent optional input (get_invalid_desc: attr `_is_unfed_optional` i: 1)
};

struct GeAttr {
  // kT: a TensorDef (`t { desc {...} data: "..." }`), desc in tensor_desc, data bytes in s.
  // kList: both list_s and list_i (specific_op_input_layout's `input_layout_info`).
  // kF: a float attr (f), written as the shortest text that reads back as the same float32.
  enum class Kind : uint8_t { kS, kI, kB, kT, kListS, kListI, kList, kF };
  std::string key;
  Kind kind = Kind::kS;
  std::string s;
  int64_t i = 0;
  bool b = false;
  float f = 0;
  GeDesc tensor_desc;
  std::vector<std::string> list_s;
  std::vector<int64_t> list_i;
  // A list attr the raw op builders type (`op.attr["axes"].list.val_type = 2`):
  // "VT_LIST_INT" is written after the items, as protobuf prints field 20.
  std::string list_val_type;
};

struct GeOp {
  std::string name;
  std::string type;
  std::vector<std::string> inputs;  // "producer:idx", or "^producer" for control inputs
  std::vector<GeAttr> attrs;        // in TorchAir's order
  std::vector<GeDesc> input_desc;
  std::vector<GeDesc> output_desc;
  std::string stream;  // "" default stream
};

struct GeOpsOptions {
  bool fx_names = false;  // keep FX node names instead of TorchAir's `Type_N`
};

Result<std::vector<GeOp>> BuildGeOps(const Graph& graph, const GeOpsOptions& options = {});

// `Tensor(dtype=torch.float32, shape=torch.Size([2, s0])` (TorchAir's text, its
// missing closing parenthesis included).
std::string TorchAirMetaString(const TensorMeta& meta);

// protobuf text of a TensorDescriptor / AttrDef, each line prefixed by `indent`
// spaces, nested messages indented by 2 more (Python protobuf's str()).
void AppendDescText(std::string& out, const GeDesc& desc, int indent);
void AppendAttrValueText(std::string& out, const GeAttr& attr, int indent);

}  // namespace airscope
