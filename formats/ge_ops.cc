#include "formats/ge_ops.h"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/fx/python_repr.h"
#include "core/text.h"
#include "formats/ge_const.h"
#include "formats/ge_expansions.h"
#include "formats/ge_op_types.h"
#include "formats/proto_text.h"

namespace airscope {
namespace {

constexpr std::string_view kGetitem = "operator.getitem";

bool IsStreamMarker(const Node& node) {
  return node.op() == OpKind::kCallFunction &&
         (node.target().starts_with("torch.ops.air.") || node.target().starts_with("air."));
}

// A getitem that is no GE operator: `operator.getitem(t, i)` on a tuple-valued node.
bool IsElidedGetitem(const Node& node) {
  if (node.op() != OpKind::kCallFunction || node.target() != kGetitem) return false;
  if (node.args().size() != 2 || !node.kwargs().empty()) return false;
  if (!node.args()[0].is_node() || node.args()[1].kind() != Argument::Kind::kInt) return false;
  const NodeMeta* meta = node.args()[0].as_node()->meta();
  int64_t index = node.args()[1].as_int();
  return meta != nullptr && meta->kind == ValueKind::kTuple && index >= 0 &&
         static_cast<size_t>(index) < meta->tensors.size();
}

GeDesc TensorDesc(const TensorMeta& meta, std::string name) {
  GeDesc desc;
  desc.name = std::move(name);
  desc.dtype = meta.dtype;
  if (meta.dtype == DType::kUnknown && meta.sizes.empty()) return desc;  // a None tuple element
  desc.has_shape = !meta.sizes.empty();
  for (const Dim& d : meta.sizes) desc.dims.push_back(d.is_static() ? d.value() : -1);
  desc.layout = "ND";
  desc.meta = TorchAirMetaString(meta);
  return desc;
}

std::vector<GeDesc> OutputDescs(const Node& node) {
  std::vector<GeDesc> descs;
  if (node.op() == OpKind::kOutput || IsStreamMarker(node)) return descs;
  const NodeMeta* meta = node.meta();
  if (meta == nullptr) {
    GeDesc desc;
    desc.name = "y";
    descs.push_back(std::move(desc));
  } else if (meta->kind == ValueKind::kTensor && !meta->tensors.empty()) {
    descs.push_back(TensorDesc(meta->tensors[0], "y"));
  } else if (meta->kind == ValueKind::kTuple) {
    for (size_t i = 0; i < meta->tensors.size(); ++i) {
      descs.push_back(TensorDesc(meta->tensors[i], fmt::format("y{}", i)));
    }
  } else {
    // SymInt / opaque: the annotation is all there is.
    GeDesc desc;
    desc.name = "y";
    desc.meta = meta->annotation;
    descs.push_back(std::move(desc));
  }
  return descs;
}

GeAttr StringAttr(std::string key, std::string value) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kS;
  attr.s = std::move(value);
  return attr;
}

class Builder {
 public:
  Builder(const Graph& graph, const GeOpsOptions& options) : graph_(graph), options_(options) {}

  Result<std::vector<GeOp>> Run() {
    for (const Node* node : graph_) {
      if (node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr) used_.insert(node->name());
    }
    std::vector<GeOp> ops;
    int64_t data_index = 0;
    GeExpansionContext expansion_context{[this](std::string_view type) { return UniqueName(std::string(type)); },
                                         [this](const Node* producer) {
                                           const GeDesc* desc = nullptr;
                                           std::string ref = DataRef(producer, &desc);
                                           return GeInput{std::move(ref), desc != nullptr ? *desc : GeDesc{}};
                                         }};
    for (const Node* node : graph_) {
      if (IsElidedGetitem(*node)) continue;
      if (auto expanded = ExpandForGe(*node, expansion_context)) {
        AddExpansion(*node, std::move(*expanded), &ops);
        continue;
      }
      GeOp op;
      GeOpType ge = TypeOf(*node);
      op.type = ge.type;
      op.name = NameOf(*node, ge);
      names_[node] = op.name;
      op.stream = node->stream();
      op.output_desc = OutputDescs(*node);
      if (node->op() == OpKind::kPlaceholder) {
        GeAttr index;
        index.key = "index";
        index.kind = GeAttr::Kind::kI;
        index.i = data_index++;
        op.attrs.push_back(std::move(index));
        for (GeDesc& d : op.output_desc) d.device_type = "NPU";
        if (!op.output_desc.empty()) {
          GeDesc in = op.output_desc[0];
          in.name = "x";
          op.input_desc.push_back(std::move(in));
        }
      }
      descs_[node] = op.output_desc;
      std::vector<GeOp> consts = ScalarConsts(*node, op.name);
      CollectInputs(*node, &op);
      AddConverterShape(*node, &op);
      AddExtraAttrs(*node, ge, &op);
      for (GeOp& c : consts) {
        AddNameAttrs(&c);
        ops.push_back(std::move(c));
      }
      AddNameAttrs(&op);
      ops.push_back(std::move(op));
    }
    return ops;
  }

 private:
  GeOpType TypeOf(const Node& node) const {
    switch (node.op()) {
      case OpKind::kPlaceholder: return {"Data", true, true, {}};
      case OpKind::kGetAttr: return {"Const", true, true, {}};
      case OpKind::kOutput: return {"NetOutput", true, true, {}};
      case OpKind::kCallFunction: return GeTypeForTarget(node.target());
      case OpKind::kCallMethod:
      case OpKind::kCallModule: break;
    }
    return {node.target(), false, false,
            fmt::format("an FX {}; TorchAir converts only call_function nodes", OpKindName(node.op()))};
  }

  // GeGraph.next_unique_name: `Type`, then `Type_1`, ... skipping names taken.
  std::string UniqueName(const std::string& type) {
    auto [it, fresh] = counters_.try_emplace(type, 0);
    std::string name;
    if (fresh && used_.insert(type).second) return type;
    int64_t& counter = it->second;
    do {
      ++counter;
      name = fmt::format("{}_{}", type, counter);
    } while (!used_.insert(name).second);
    return name;
  }

  // TorchAir's naming: Data/Const keep the FX name, others `Type`, `Type_1`,
  // ...; an operator TorchAir never builds (unmapped) keeps its FX name too.
  std::string NameOf(const Node& node, const GeOpType& ge) {
    if (options_.fx_names && node.op() == OpKind::kOutput) return "NetOutput";
    if (node.op() == OpKind::kPlaceholder || node.op() == OpKind::kGetAttr) return node.name();  // reserved in Run
    if (options_.fx_names || !ge.mapped) {
      // An FX name a generated `Type_N` already took gets a suffix of its own.
      return used_.insert(node.name()).second ? node.name() : UniqueName(node.name());
    }
    return UniqueName(ge.type);
  }

  // A node TorchAir's converter builds as several operators (ge_expansions.h):
  // the last is the node's own (its output descs, `_aten_op`, `_fx_args`);
  // the others are parts of it (`_fx_part_of`, which the reader skips).
  void AddExpansion(const Node& node, std::vector<GeOp> expanded, std::vector<GeOp>* ops) {
    GeOp& main = expanded.back();
    if (options_.fx_names) {
      main.name = used_.insert(node.name()).second ? node.name() : UniqueName(node.name());
    }
    names_[&node] = main.name;
    // The node's descs, under the names the operator's builder gives its outputs.
    std::vector<GeDesc> descs = OutputDescs(node);
    if (descs.size() == main.output_desc.size()) {
      for (size_t i = 0; i < descs.size(); ++i) {
        if (!main.output_desc[i].name.empty()) descs[i].name = main.output_desc[i].name;
      }
    }
    main.output_desc = std::move(descs);
    descs_[&node] = main.output_desc;
    data_inputs_.clear();  // the operator's inputs are not the FX args: `_fx_args` says them
    GeOpType ge{main.type, true, false, {}};
    AddExtraAttrs(node, ge, &main);
    for (GeOp& op : expanded) {
      op.stream = node.stream();
      if (&op != &main) op.attrs.push_back(StringAttr("_fx_part_of", main.name));
      AddNameAttrs(&op);
      ops->push_back(std::move(op));
    }
  }

  // dtype_promote's Consts for the scalar operands of the converters that
  // take them as tensors (add.Tensor / sub.Tensor with alpha 1, div.Tensor).
  // `user` is the GE name of the op they feed (what a reader sees in the file).
  std::vector<GeOp> ScalarConsts(const Node& node, const std::string& user) {
    std::vector<GeOp> consts;
    if (node.op() != OpKind::kCallFunction || node.args().size() != 2) return consts;
    const std::string& t = node.target();
    bool promotes = t == "torch.ops.aten.div.Tensor" ||
                    ((t == "torch.ops.aten.add.Tensor" || t == "torch.ops.aten.sub.Tensor") && node.kwargs().empty());
    const NodeMeta* meta = node.meta();
    if (!promotes || meta == nullptr || meta->kind != ValueKind::kTensor || meta->tensors.empty()) return consts;
    for (size_t i = 0; i < 2; ++i) {
      std::optional<GeOp> c = ScalarConstOp(node.args()[i], meta->tensors[0].dtype);
      if (!c) continue;
      c->name = options_.fx_names ? UniqueName(node.name() + "_const") : UniqueName("Const");
      c->attrs.push_back(StringAttr("_fx_part_of", user));
      scalar_inputs_[i] = c->name;
      scalar_descs_[i] = c->output_desc[0];
      consts.push_back(std::move(*c));
    }
    return consts;
  }

  // Inputs and attrs the raw op builder adds beyond the FX node's own:
  // MatMul's absent bias and transpose flags, BatchMatMul's adj flags.
  static void AddConverterShape(const Node& node, GeOp* op) {
    auto flag = [](const char* key) {
      GeAttr attr;
      attr.key = key;
      attr.kind = GeAttr::Kind::kB;
      return attr;
    };
    if (node.op() != OpKind::kCallFunction) return;
    if (op->type == "MatMul" && op->input_desc.size() == 2) {
      op->inputs.push_back("");
      GeDesc bias;
      bias.name = "bias";
      bias.unfed_optional = true;
      op->input_desc.push_back(std::move(bias));
      op->attrs.push_back(flag("transpose_x1"));
      op->attrs.push_back(flag("transpose_x2"));
    } else if (op->type == "BatchMatMul" && op->input_desc.size() == 2) {
      op->attrs.push_back(flag("adj_x1"));
      op->attrs.push_back(flag("adj_x2"));
    }
  }

  // The pbtxt reference of a node (`t:i` for an elided getitem) and its desc.
  std::string DataRef(const Node* node, const GeDesc** desc) const {
    const Node* producer = node;
    size_t index = 0;
    if (IsElidedGetitem(*node)) {
      producer = node->args()[0].as_node();
      index = static_cast<size_t>(node->args()[1].as_int());
    }
    auto it = descs_.find(producer);
    *desc = (it != descs_.end() && index < it->second.size()) ? &it->second[index] : nullptr;
    return fmt::format("{}:{}", names_.at(producer), index);
  }

  void CollectInputs(const Node& node, GeOp* op) {
    std::vector<std::string> control;
    std::vector<const Node*> data_nodes;
    struct DataInput {
      std::string ref;
      GeDesc desc;
    };
    std::vector<DataInput> data;
    auto add_control = [&](const Node* producer) {
      std::string ref = "^" + names_.at(producer);
      for (const std::string& c : control) {
        if (c == ref) return;
      }
      control.push_back(std::move(ref));
    };
    auto visit = [&](Node* producer) {
      if (IsStreamMarker(*producer)) {
        add_control(producer);
        return;
      }
      data_nodes.push_back(producer);
      const GeDesc* desc = nullptr;
      std::string ref = DataRef(producer, &desc);
      data.push_back({std::move(ref), desc != nullptr ? *desc : GeDesc{}});
    };
    for (size_t i = 0; i < node.args().size(); ++i) {
      if (i < 2 && !scalar_inputs_[i].empty()) {
        data.push_back({scalar_inputs_[i] + ":0", scalar_descs_[i]});
        continue;
      }
      node.args()[i].ForEachNode(visit);
    }
    for (const Kwarg& kw : node.kwargs()) {
      if (kw.name == "_control_deps") {
        kw.value.ForEachNode([&](Node* producer) { add_control(producer); });
      } else {
        kw.value.ForEachNode(visit);
      }
    }
    scalar_inputs_[0].clear();
    scalar_inputs_[1].clear();
    // The raw op builders append `dependencies` (control inputs) before the data inputs.
    for (std::string& c : control) op->inputs.push_back(std::move(c));
    bool net_output = node.op() == OpKind::kOutput;
    for (size_t i = 0; i < data.size(); ++i) {
      op->inputs.push_back(std::move(data[i].ref));
      GeDesc in = std::move(data[i].desc);
      if (net_output) {
        in.name = fmt::format("input{}", i);
      } else {
        in.name = data.size() == 1 ? std::string("x") : fmt::format("x{}", i + 1);
      }
      op->input_desc.push_back(std::move(in));
    }
    data_inputs_ = std::move(data_nodes);
  }

  // Python repr with node references spelled by their pbtxt names.
  void AppendArg(std::string& out, const Argument& arg) const {
    if (arg.is_node()) {
      const Node* node = arg.as_node();
      if (IsElidedGetitem(*node)) {
        out += fmt::format("{}_getitem_{}", names_.at(node->args()[0].as_node()), node->args()[1].as_int());
      } else {
        out += names_.at(node);
      }
      return;
    }
    if (!arg.is_sequence()) {
      out += FormatPythonArg(arg);
      return;
    }
    bool tuple = arg.kind() == Argument::Kind::kTuple;
    out += tuple ? '(' : '[';
    for (size_t i = 0; i < arg.items().size(); ++i) {
      if (i > 0) out += ", ";
      AppendArg(out, arg.items()[i]);
    }
    if (tuple && arg.items().size() == 1) out += ',';
    out += tuple ? ')' : ']';
  }

  // True when the reader rebuilds exactly these args from the data inputs alone.
  bool ArgsAreDefault(const Node& node) const {
    auto same_nodes = [&](std::span<const Argument> items) {
      if (items.size() != data_inputs_.size()) return false;
      for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].is_node() || items[i].as_node() != data_inputs_[i]) return false;
      }
      return true;
    };
    if (node.op() == OpKind::kOutput) {
      return node.args().size() == 1 && node.args()[0].kind() == Argument::Kind::kTuple &&
             same_nodes(node.args()[0].items());
    }
    if (node.op() == OpKind::kPlaceholder || node.op() == OpKind::kGetAttr) return node.args().empty();
    return same_nodes(node.args());
  }

  void AddExtraAttrs(const Node& node, const GeOpType& ge, GeOp* op) {
    if (!ge.mapped) op->attrs.push_back(StringAttr("_airscope_unconverted", ge.note));
    if (node.op() == OpKind::kGetAttr && node.target() != node.name()) {
      op->attrs.push_back(StringAttr("_fx_target", node.target()));
    }
    if (node.op() == OpKind::kCallMethod || node.op() == OpKind::kCallModule) {
      op->attrs.push_back(StringAttr("_fx_op", std::string(OpKindName(node.op()))));
      op->attrs.push_back(StringAttr("_aten_op", node.target()));
    }
    if (node.op() == OpKind::kCallFunction && !ge.canonical) {
      op->attrs.push_back(StringAttr("_aten_op", node.target()));
    }
    if (!ArgsAreDefault(node)) {
      std::string text = "(";
      for (size_t i = 0; i < node.args().size(); ++i) {
        if (i > 0) text += ", ";
        AppendArg(text, node.args()[i]);
      }
      if (node.args().size() == 1) text += ',';
      text += ')';
      op->attrs.push_back(StringAttr("_fx_args", std::move(text)));
    }
    std::string kwargs;
    for (const Kwarg& kw : node.kwargs()) {
      if (kw.name == "_control_deps") continue;
      kwargs += kwargs.empty() ? "(" : ", ";
      kwargs += kw.name + "=";
      AppendArg(kwargs, kw.value);
    }
    if (!kwargs.empty()) op->attrs.push_back(StringAttr("_fx_kwargs", kwargs + ")"));
    if (!node.stream().empty()) op->attrs.push_back(StringAttr("_user_stream_label", node.stream()));
  }

  static void AddNameAttrs(GeOp* op) {
    auto list = [](const char* key, GeAttr::Kind kind) {
      GeAttr attr;
      attr.key = key;
      attr.kind = kind;
      return attr;
    };
    GeAttr in_key = list("_input_name_key", GeAttr::Kind::kListS);
    GeAttr in_value = list("_input_name_value", GeAttr::Kind::kListI);
    GeAttr out_key = list("_output_name_key", GeAttr::Kind::kListS);
    GeAttr out_value = list("_output_name_value", GeAttr::Kind::kListI);
    for (size_t i = 0; i < op->input_desc.size(); ++i) {
      in_key.list_s.push_back(op->input_desc[i].name);
      in_value.list_i.push_back(static_cast<int64_t>(i));
    }
    for (size_t i = 0; i < op->output_desc.size(); ++i) {
      out_key.list_s.push_back(op->output_desc[i].name);
      out_value.list_i.push_back(static_cast<int64_t>(i));
    }
    for (GeAttr* attr : {&in_key, &in_value, &out_key, &out_value}) op->attrs.push_back(std::move(*attr));
  }

  const Graph& graph_;
  GeOpsOptions options_;
  std::unordered_map<const Node*, std::string> names_;
  std::unordered_set<std::string> used_;               // op names taken
  std::unordered_map<std::string, int64_t> counters_;  // next_unique_name's, per type
  std::string scalar_inputs_[2];                       // of the node being built: Const names per arg
  GeDesc scalar_descs_[2];
  std::unordered_map<const Node*, std::vector<GeDesc>> descs_;
  std::vector<const Node*> data_inputs_;  // of the node being built
};

}  // namespace

std::string TorchAirMetaString(const TensorMeta& meta) {
  std::string dims;
  for (size_t i = 0; i < meta.sizes.size(); ++i) {
    if (i > 0) dims += ", ";
    dims += meta.sizes[i].ToString();
  }
  return fmt::format("Tensor(dtype={}, shape=torch.Size([{}])", TorchName(meta.dtype), dims);
}

void AppendDescText(std::string& out, const GeDesc& desc, int indent) {
  if (!desc.name.empty()) AppendIndentedLine(out, indent, fmt::format("name: \"{}\"", ProtoCEscape(desc.name)));
  if (desc.dtype != DType::kUnknown) AppendIndentedLine(out, indent, fmt::format("dtype: {}", GeName(desc.dtype)));
  if (desc.has_shape) {
    AppendIndentedLine(out, indent, "shape {");
    for (int64_t d : desc.dims) AppendIndentedLine(out, indent + 2, fmt::format("dim: {}", d));
    AppendIndentedLine(out, indent, "}");
  }
  if (!desc.layout.empty()) AppendIndentedLine(out, indent, fmt::format("layout: \"{}\"", ProtoCEscape(desc.layout)));
  if (desc.unfed_optional) {
    AppendIndentedLine(out, indent, "attr {");
    AppendIndentedLine(out, indent + 2, "key: \"_is_unfed_optional\"");
    AppendIndentedLine(out, indent + 2, "value {");
    AppendIndentedLine(out, indent + 4, "i: 1");
    AppendIndentedLine(out, indent + 2, "}");
    AppendIndentedLine(out, indent, "}");
  }
  if (!desc.meta.empty()) {
    AppendIndentedLine(out, indent, "attr {");
    AppendIndentedLine(out, indent + 2, "key: \"_meta\"");
    AppendIndentedLine(out, indent + 2, "value {");
    AppendIndentedLine(out, indent + 4, fmt::format("s: \"{}\"", ProtoCEscape(desc.meta)));
    AppendIndentedLine(out, indent + 2, "}");
    AppendIndentedLine(out, indent, "}");
  }
  if (!desc.device_type.empty()) {
    AppendIndentedLine(out, indent, fmt::format("device_type: \"{}\"", ProtoCEscape(desc.device_type)));
  }
}

void AppendAttrValueText(std::string& out, const GeAttr& attr, int indent) {
  switch (attr.kind) {
    case GeAttr::Kind::kS: AppendIndentedLine(out, indent, fmt::format("s: \"{}\"", ProtoCEscape(attr.s))); break;
    case GeAttr::Kind::kI: AppendIndentedLine(out, indent, fmt::format("i: {}", attr.i)); break;
    case GeAttr::Kind::kB: AppendIndentedLine(out, indent, attr.b ? "b: true" : "b: false"); break;
    case GeAttr::Kind::kF: AppendIndentedLine(out, indent, fmt::format("f: {}", attr.f)); break;
    case GeAttr::Kind::kT:
      AppendIndentedLine(out, indent, "t {");
      AppendIndentedLine(out, indent + 2, "desc {");
      AppendDescText(out, attr.tensor_desc, indent + 4);
      AppendIndentedLine(out, indent + 2, "}");
      AppendIndentedLine(out, indent + 2, fmt::format("data: \"{}\"", ProtoCEscape(attr.s)));
      AppendIndentedLine(out, indent, "}");
      break;
    case GeAttr::Kind::kListS:
    case GeAttr::Kind::kListI:
    case GeAttr::Kind::kList:
      AppendIndentedLine(out, indent, "list {");
      for (const std::string& s : attr.list_s)
        AppendIndentedLine(out, indent + 2, fmt::format("s: \"{}\"", ProtoCEscape(s)));
      for (int64_t i : attr.list_i) AppendIndentedLine(out, indent + 2, fmt::format("i: {}", i));
      if (!attr.list_val_type.empty())
        AppendIndentedLine(out, indent + 2, fmt::format("val_type: {}", attr.list_val_type));
      AppendIndentedLine(out, indent, "}");
      break;
  }
}

Result<std::vector<GeOp>> BuildGeOps(const Graph& graph, const GeOpsOptions& options) {
  return Builder(graph, options).Run();
}

}  // namespace airscope
