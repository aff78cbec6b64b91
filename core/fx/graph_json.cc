// airscope JSON printer and parser. The encoding is specified in
// docs/airscope-json.md; this file is its only implementation.
#include "core/fx/graph_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fx/arg_parser.h"
#include "core/fx/json_text.h"
#include "core/fx/readable.h"

namespace airscope {
namespace {

using ordered_json = nlohmann::ordered_json;
using json = nlohmann::json;

constexpr std::string_view kFormat = "airscope-graph";
constexpr int64_t kVersion = 1;

// ---------------------------------------------------------------- printing

ordered_json DimToJson(const Dim& dim) {
  if (dim.is_static()) return dim.value();
  return dim.symbol();
}

ordered_json DimsToJson(const std::vector<Dim>& dims) {
  ordered_json out = ordered_json::array();
  for (const Dim& dim : dims) out.push_back(DimToJson(dim));
  return out;
}

ordered_json ArgumentToJson(const Argument& arg) {
  using Kind = Argument::Kind;
  switch (arg.kind()) {
    case Kind::kNone: return nullptr;
    case Kind::kBool: return arg.as_bool();
    case Kind::kInt: return arg.as_int();
    case Kind::kFloat: {
      double value = arg.as_float();
      // JSON has no inf/nan; nlohmann would print them as null.
      if (std::isnan(value)) return ordered_json{{"float", "nan"}};
      if (std::isinf(value)) return ordered_json{{"float", value > 0 ? "inf" : "-inf"}};
      return value;  // nlohmann always prints a fraction or exponent ("1.0")
    }
    case Kind::kString: return arg.as_string();
    case Kind::kNode: return ordered_json{{"node", arg.as_node()->name()}};
    case Kind::kList:
    case Kind::kTuple: {
      ordered_json items = ordered_json::array();
      for (const Argument& item : arg.items()) items.push_back(ArgumentToJson(item));
      if (arg.kind() == Kind::kList) return items;
      return ordered_json{{"tuple", std::move(items)}};
    }
    case Kind::kDType: return ordered_json{{"dtype", TorchName(arg.as_dtype())}};
    case Kind::kDevice: return ordered_json{{"device", arg.as_device().ToString()}};
    case Kind::kMemoryFormat: return ordered_json{{"memory_format", TorchName(arg.as_memory_format())}};
    case Kind::kLayout: return ordered_json{{"layout", TorchName(arg.as_layout())}};
    case Kind::kRaw: return ordered_json{{"raw", arg.as_string()}};
  }
  return nullptr;
}

std::string_view ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kTensor: return "tensor";
    case ValueKind::kTuple: return "tuple";
    case ValueKind::kSymInt: return "symint";
    case ValueKind::kOpaque: return "opaque";
  }
  return "opaque";
}

std::string_view MetaSourceName(MetaSource source) {
  return source == MetaSource::kInferred ? "inferred" : "annotated";
}

ordered_json MetaToJson(const NodeMeta& meta) {
  ordered_json out = ordered_json::object();
  out["kind"] = ValueKindName(meta.kind);
  out["source"] = MetaSourceName(meta.source);
  ordered_json tensors = ordered_json::array();
  for (const TensorMeta& tensor : meta.tensors) {
    ordered_json t = ordered_json::object();
    t["dtype"] = ShortName(tensor.dtype);
    t["sizes"] = DimsToJson(tensor.sizes);
    if (!tensor.strides.empty()) t["strides"] = DimsToJson(tensor.strides);
    if (!tensor.device.empty()) t["device"] = tensor.device;
    tensors.push_back(std::move(t));
  }
  out["tensors"] = std::move(tensors);
  if (!meta.annotation.empty()) out["annotation"] = meta.annotation;
  if (!meta.stack_trace.empty()) out["stack_trace"] = meta.stack_trace;
  return out;
}

ordered_json NodeToJson(const Node& node) {
  ordered_json out = ordered_json::object();
  out["name"] = node.name();
  out["op"] = OpKindName(node.op());
  out["target"] = node.target();
  ordered_json args = ordered_json::array();
  for (const Argument& arg : node.args()) args.push_back(ArgumentToJson(arg));
  out["args"] = std::move(args);
  ordered_json kwargs = ordered_json::array();
  for (const Kwarg& kw : node.kwargs()) kwargs.push_back(ordered_json::array({kw.name, ArgumentToJson(kw.value)}));
  out["kwargs"] = std::move(kwargs);
  if (!node.stream().empty()) out["stream"] = node.stream();
  if (node.meta()) out["meta"] = MetaToJson(*node.meta());
  return out;
}

// ---------------------------------------------------------------- parsing

// Messages built here carry no file/node prefix; ParseNodes adds it.
class ArgumentReader {
 public:
  ArgumentReader(const Graph& graph, const std::unordered_map<std::string, size_t>& all_names)
      : graph_(graph), all_names_(all_names) {}

  Status Read(const json& value, const std::string& path, Argument* out) const {
    switch (value.type()) {
      case json::value_t::null: *out = Argument::None(); return Status::Ok();
      case json::value_t::boolean: *out = Argument::Bool(value.get<bool>()); return Status::Ok();
      case json::value_t::number_integer: *out = Argument::Int(value.get<int64_t>()); return Status::Ok();
      case json::value_t::number_unsigned: {
        uint64_t u = value.get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          return Status::Errorf("{}: integer {} does not fit in int64", path, u);
        }
        *out = Argument::Int(static_cast<int64_t>(u));
        return Status::Ok();
      }
      case json::value_t::number_float: *out = Argument::Float(value.get<double>()); return Status::Ok();
      case json::value_t::string: *out = Argument::String(value.get<std::string>()); return Status::Ok();
      case json::value_t::array: {
        std::vector<Argument> items;
        AIRSCOPE_RETURN_IF_ERROR(ReadItems(value, path, &items));
        *out = Argument::List(std::move(items));
        return Status::Ok();
      }
      case json::value_t::object: return ReadTagged(value, path, out);
      default: return Status::Errorf("{}: unsupported JSON value", path);
    }
  }

 private:
  Status ReadItems(const json& array, const std::string& path, std::vector<Argument>* items) const {
    items->reserve(array.size());
    for (size_t i = 0; i < array.size(); ++i) {
      Argument item;
      AIRSCOPE_RETURN_IF_ERROR(Read(array[i], fmt::format("{}[{}]", path, i), &item));
      items->push_back(std::move(item));
    }
    return Status::Ok();
  }

  // {"tag": payload} objects: everything JSON has no literal for.
  Status ReadTagged(const json& object, const std::string& path, Argument* out) const {
    if (object.size() != 1) {
      return Status::Errorf(
          "{}: an argument object must have exactly one key (node, tuple, float, dtype, "
          "device, memory_format, layout, raw), got {}",
          path, object.size());
    }
    const std::string& tag = object.begin().key();
    const json& payload = object.begin().value();
    if (tag == "tuple") {
      if (!payload.is_array()) return Status::Errorf("{}: \"tuple\" must be an array", path);
      std::vector<Argument> items;
      AIRSCOPE_RETURN_IF_ERROR(ReadItems(payload, path, &items));
      *out = Argument::Tuple(std::move(items));
      return Status::Ok();
    }
    if (!payload.is_string()) return Status::Errorf("{}: \"{}\" must be a string", path, tag);
    const std::string& text = payload.get_ref<const std::string&>();
    if (tag == "node") return ReadNodeRef(text, path, out);
    if (tag == "float") {
      double inf = std::numeric_limits<double>::infinity();
      if (text == "inf")
        *out = Argument::Float(inf);
      else if (text == "-inf")
        *out = Argument::Float(-inf);
      else if (text == "nan")
        *out = Argument::Float(std::numeric_limits<double>::quiet_NaN());
      else
        return Status::Errorf("{}: \"float\" must be \"inf\", \"-inf\" or \"nan\", got \"{}\"", path, text);
      return Status::Ok();
    }
    if (tag == "dtype") {
      if (text == TorchName(DType::kUnknown)) {
        *out = Argument::OfDType(DType::kUnknown);
        return Status::Ok();
      }
      std::optional<DType> dtype = ParseTorchDType(text);
      if (!dtype) return Status::Errorf("{}: unknown dtype \"{}\"", path, text);
      *out = Argument::OfDType(*dtype);
      return Status::Ok();
    }
    if (tag == "device") {
      Device device;
      if (!Device::Parse(text, &device)) return Status::Errorf("{}: bad device \"{}\"", path, text);
      *out = Argument::OfDevice(std::move(device));
      return Status::Ok();
    }
    if (tag == "memory_format") {
      MemoryFormat format;
      if (!ParseMemoryFormat(text, &format)) return Status::Errorf("{}: unknown memory_format \"{}\"", path, text);
      *out = Argument::OfMemoryFormat(format);
      return Status::Ok();
    }
    if (tag == "layout") {
      Layout layout;
      if (!ParseLayout(text, &layout)) return Status::Errorf("{}: unknown layout \"{}\"", path, text);
      *out = Argument::OfLayout(layout);
      return Status::Ok();
    }
    if (tag == "raw") {
      *out = Argument::Raw(text);
      return Status::Ok();
    }
    return Status::Errorf("{}: unknown argument tag \"{}\"", path, tag);
  }

  Status ReadNodeRef(const std::string& name, const std::string& path, Argument* out) const {
    if (Node* node = graph_.Find(name)) {
      *out = Argument::NodeRef(node);
      return Status::Ok();
    }
    // Tell a forward reference (the file is out of order) from a typo.
    auto later = all_names_.find(name);
    if (later != all_names_.end()) {
      return Status::Errorf("{}: refers to node '{}' defined later (nodes[{}]); nodes must come after their inputs",
                            path, name, later->second);
    }
    return Status::Errorf("{}: refers to undefined node '{}'", path, name);
  }

  const Graph& graph_;
  const std::unordered_map<std::string, size_t>& all_names_;
};

std::string_view TypeName(const json& value) { return value.type_name(); }

// Reads an optional string member; absent leaves *out unchanged.
Status OptionalString(const json& object, std::string_view key, std::string* out) {
  auto it = object.find(key);
  if (it == object.end()) return Status::Ok();
  if (!it->is_string()) return Status::Errorf("\"{}\" must be a string, got {}", key, TypeName(*it));
  *out = it->get<std::string>();
  return Status::Ok();
}

Status RequiredString(const json& object, std::string_view key, std::string* out) {
  if (!object.contains(key)) return Status::Errorf("missing \"{}\"", key);
  return OptionalString(object, key, out);
}

Status CheckKeys(const json& object, std::initializer_list<std::string_view> allowed, std::string_view what) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = false;
    for (std::string_view key : allowed) known = known || key == it.key();
    // Unknown keys are refused rather than dropped: dropping would break losslessness silently.
    if (!known) return Status::Errorf("unknown key \"{}\" in {}", it.key(), what);
  }
  return Status::Ok();
}

Status ReadDims(const json& array, std::string_view what, std::vector<Dim>* dims) {
  if (!array.is_array()) return Status::Errorf("\"{}\" must be an array", what);
  for (size_t i = 0; i < array.size(); ++i) {
    const json& d = array[i];
    if (d.is_number_integer() &&
        !(d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      if (d.get<int64_t>() < 0) return Status::Errorf("{}[{}]: negative {}", what, i, d.get<int64_t>());
      dims->push_back(Dim(d.get<int64_t>()));
    } else if (d.is_string() && !d.get_ref<const std::string&>().empty()) {
      dims->push_back(Dim::Symbol(d.get<std::string>()));
    } else {
      return Status::Errorf("{}[{}]: a dim must be an int64 or a non-empty symbol string", what, i);
    }
  }
  return Status::Ok();
}

Status ReadTensorMeta(const json& object, size_t index, TensorMeta* out) {
  std::string what = fmt::format("meta.tensors[{}]", index);
  if (!object.is_object()) return Status::Errorf("{} must be an object", what);
  AIRSCOPE_RETURN_IF_ERROR(CheckKeys(object, {"dtype", "sizes", "strides", "device"}, what));
  std::string dtype;
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "dtype", &dtype).WithPrefix(what));
  if (dtype == ShortName(DType::kUnknown)) {
    out->dtype = DType::kUnknown;
  } else if (std::optional<DType> parsed = ParseShortDType(dtype)) {
    out->dtype = *parsed;
  } else {
    return Status::Errorf("{}: unknown dtype \"{}\" (expected an abbreviation like \"f32\")", what, dtype);
  }
  if (!object.contains("sizes")) return Status::Errorf("{}: missing \"sizes\"", what);
  AIRSCOPE_RETURN_IF_ERROR(ReadDims(object["sizes"], what + ".sizes", &out->sizes));
  if (object.contains("strides")) {
    AIRSCOPE_RETURN_IF_ERROR(ReadDims(object["strides"], what + ".strides", &out->strides));
    if (!out->strides.empty() && out->strides.size() != out->sizes.size()) {
      return Status::Errorf("{}.strides: {} strides for {} sizes", what, out->strides.size(), out->sizes.size());
    }
  }
  // The one size check every reader applies (core/ir/tensor_meta.h).
  AIRSCOPE_RETURN_IF_ERROR(CheckTensorSize(*out).WithPrefix(what + ".sizes"));
  return OptionalString(object, "device", &out->device).WithPrefix(what);
}

Status ReadMeta(const json& object, NodeMeta* meta) {
  if (!object.is_object()) return Status::Errorf("\"meta\" must be an object, got {}", TypeName(object));
  AIRSCOPE_RETURN_IF_ERROR(CheckKeys(object, {"kind", "source", "tensors", "annotation", "stack_trace"}, "meta"));
  std::string kind, source;
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "kind", &kind).WithPrefix("meta"));
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "source", &source).WithPrefix("meta"));
  if (kind == "tensor")
    meta->kind = ValueKind::kTensor;
  else if (kind == "tuple")
    meta->kind = ValueKind::kTuple;
  else if (kind == "symint")
    meta->kind = ValueKind::kSymInt;
  else if (kind == "opaque")
    meta->kind = ValueKind::kOpaque;
  else
    return Status::Errorf("meta: unknown kind \"{}\" (tensor, tuple, symint, opaque)", kind);
  if (source == "annotated")
    meta->source = MetaSource::kAnnotated;
  else if (source == "inferred")
    meta->source = MetaSource::kInferred;
  else
    return Status::Errorf("meta: unknown source \"{}\" (annotated, inferred)", source);
  if (object.contains("tensors")) {
    const json& tensors = object["tensors"];
    if (!tensors.is_array()) return Status::Error("meta: \"tensors\" must be an array");
    for (size_t i = 0; i < tensors.size(); ++i) {
      TensorMeta tensor;
      AIRSCOPE_RETURN_IF_ERROR(ReadTensorMeta(tensors[i], i, &tensor));
      meta->tensors.push_back(std::move(tensor));
    }
  }
  AIRSCOPE_RETURN_IF_ERROR(OptionalString(object, "annotation", &meta->annotation).WithPrefix("meta"));
  return OptionalString(object, "stack_trace", &meta->stack_trace).WithPrefix("meta");
}

// Parses one node and appends it. Messages have no prefix.
Status ReadNode(const json& object, const ArgumentReader& reader, Graph* graph) {
  if (!object.is_object()) return Status::Errorf("a node must be an object, got {}", TypeName(object));
  AIRSCOPE_RETURN_IF_ERROR(CheckKeys(object, {"name", "op", "target", "args", "kwargs", "stream", "meta"}, "node"));
  NodeSpec spec;
  std::string op;
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "name", &spec.name));
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "op", &op));
  if (!ParseOpKind(op, &spec.op)) {
    return Status::Errorf(
        "unknown op kind \"{}\" (placeholder, get_attr, call_function, call_method, "
        "call_module, output)",
        op);
  }
  AIRSCOPE_RETURN_IF_ERROR(RequiredString(object, "target", &spec.target));
  AIRSCOPE_RETURN_IF_ERROR(CheckTarget(spec.op, spec.target));

  if (object.contains("args")) {
    const json& args = object["args"];
    if (!args.is_array()) return Status::Errorf("\"args\" must be an array, got {}", TypeName(args));
    for (size_t i = 0; i < args.size(); ++i) {
      Argument arg;
      AIRSCOPE_RETURN_IF_ERROR(reader.Read(args[i], fmt::format("args[{}]", i), &arg));
      spec.args.push_back(std::move(arg));
    }
  }
  if (object.contains("kwargs")) {
    const json& kwargs = object["kwargs"];
    if (!kwargs.is_array())
      return Status::Errorf("\"kwargs\" must be an array of [name, value], got {}", TypeName(kwargs));
    for (size_t i = 0; i < kwargs.size(); ++i) {
      const json& pair = kwargs[i];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string()) {
        return Status::Errorf("kwargs[{}]: must be a [name, value] pair", i);
      }
      Kwarg kw;
      kw.name = pair[0].get<std::string>();
      AIRSCOPE_RETURN_IF_ERROR(reader.Read(pair[1], fmt::format("kwargs[{}] ('{}')", i, kw.name), &kw.value));
      spec.kwargs.push_back(std::move(kw));
    }
  }
  std::string stream;
  AIRSCOPE_RETURN_IF_ERROR(OptionalString(object, "stream", &stream));
  std::optional<NodeMeta> meta;
  if (object.contains("meta")) {
    meta.emplace();
    AIRSCOPE_RETURN_IF_ERROR(ReadMeta(object["meta"], &*meta));
  }

  AIRSCOPE_ASSIGN_OR_RETURN(Node * node, graph->AppendNamed(std::move(spec)));
  if (!stream.empty()) graph->SetStream(node, stream);
  if (meta) node->set_meta(std::move(*meta));
  return Status::Ok();
}

Status ReadStyle(const json& object, GraphStyle* style) {
  if (!object.is_object()) return Status::Error("\"style\" must be an object");
  AIRSCOPE_RETURN_IF_ERROR(
      CheckKeys(object, {"legacy_users", "module_class", "subscript_getitem", "submodules"}, "style"));
  if (object.contains("subscript_getitem")) {
    if (!object["subscript_getitem"].is_boolean()) return Status::Error("style: \"subscript_getitem\" must be a bool");
    style->subscript_getitem = object["subscript_getitem"].get<bool>();
  }
  AIRSCOPE_RETURN_IF_ERROR(OptionalString(object, "submodules", &style->submodules).WithPrefix("style"));
  if (object.contains("legacy_users")) {
    if (!object["legacy_users"].is_boolean()) return Status::Error("style: \"legacy_users\" must be a bool");
    style->legacy_users = object["legacy_users"].get<bool>();
  }
  AIRSCOPE_RETURN_IF_ERROR(OptionalString(object, "module_class", &style->module_class).WithPrefix("style"));
  // Written back into readable code's class line as it is: only a class name.
  if (BadModuleClassChar(style->module_class) != std::string_view::npos) {
    return Status::Errorf("style.module_class: '{}' is not a class name", style->module_class);
  }
  return Status::Ok();
}

Result<std::unique_ptr<Graph>> ReadDocument(const json& doc, std::string_view filename) {
  auto fail = [filename](const Status& status) { return status.WithPrefix(filename); };
  if (!doc.is_object()) return fail(Status::Errorf("expected a JSON object at top level, got {}", TypeName(doc)));
  auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get_ref<const std::string&>() != kFormat) {
    return fail(Status::Errorf("not an airscope graph: \"format\" must be \"{}\"", kFormat));
  }
  auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer()) {
    return fail(Status::Error("missing or non-integer \"version\""));
  }
  if (version->get<int64_t>() != kVersion || (version->is_number_unsigned() && version->get<uint64_t>() != kVersion)) {
    return fail(
        Status::Errorf("unsupported airscope-graph version {} (this airscope reads {})", version->dump(), kVersion));
  }
  if (Status keys = CheckKeys(doc, {"format", "version", "name", "style", "nodes"}, "the top-level object");
      !keys.ok()) {
    return fail(keys);
  }
  auto graph = std::make_unique<Graph>();
  std::string name = graph->name();
  if (Status st = OptionalString(doc, "name", &name); !st.ok()) return fail(st);
  graph->set_name(std::move(name));
  if (doc.contains("style")) {
    if (Status st = ReadStyle(doc["style"], &graph->mutable_style()); !st.ok()) return fail(st);
  }
  auto nodes = doc.find("nodes");
  if (nodes == doc.end() || !nodes->is_array()) return fail(Status::Error("missing \"nodes\" array"));

  // All names up front, so a forward reference can be reported as such.
  std::unordered_map<std::string, size_t> all_names;
  for (size_t i = 0; i < nodes->size(); ++i) {
    const json& node = (*nodes)[i];
    if (node.is_object() && node.contains("name") && node["name"].is_string()) {
      all_names.emplace(node["name"].get<std::string>(), i);
    }
  }
  ArgumentReader reader(*graph, all_names);
  for (size_t i = 0; i < nodes->size(); ++i) {
    const json& node = (*nodes)[i];
    Status st = ReadNode(node, reader, graph.get());
    if (st.ok()) continue;
    std::string where = fmt::format("nodes[{}]", i);
    if (node.is_object() && node.contains("name") && node["name"].is_string()) {
      where += fmt::format(" ('{}')", node["name"].get<std::string>());
    }
    return fail(st.WithPrefix(where));
  }
  // An FX graph ends in its output node; without one, the readable and FX
  // text writers have no `return` to write and their readers refuse the file.
  if (graph->output() == nullptr) {
    return fail(Status::Error("no node with op \"output\": every FX graph ends with one"));
  }
  return graph;
}

}  // namespace

std::string PrintGraphJson(const Graph& graph) {
  ordered_json doc = ordered_json::object();
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["name"] = graph.name();
  doc["style"] =
      ordered_json{{"legacy_users", graph.style().legacy_users}, {"module_class", graph.style().module_class}};
  // Written only when set, so graphs without them keep their documented form.
  if (graph.style().subscript_getitem) doc["style"]["subscript_getitem"] = true;
  if (!graph.style().submodules.empty()) doc["style"]["submodules"] = graph.style().submodules;
  ordered_json nodes = ordered_json::array();
  for (const Node* node : graph) nodes.push_back(NodeToJson(*node));
  doc["nodes"] = std::move(nodes);
  // Strings are UTF-8 by contract; invalid bytes become U+FFFD instead of
  // throwing (the one lossy case, documented in docs/airscope-json.md).
  std::string text = doc.dump(2, ' ', /*ensure_ascii=*/false, ordered_json::error_handler_t::replace);
  text += '\n';
  return text;
}

Result<std::unique_ptr<Graph>> ParseGraphJson(std::string_view text, std::string_view filename) {
  AIRSCOPE_ASSIGN_OR_RETURN(json doc, ParseJsonText(text, filename));
  try {
    return ReadDocument(doc, filename);
  } catch (const nlohmann::json::exception& e) {
    // Every access above is type-checked first; this is a last line of defence
    // so that no input can throw past this file.
    return Status::Errorf("{}: {}", filename, e.what());
  }
}

Status CheckTarget(OpKind op, std::string_view target) {
  if (op == OpKind::kPlaceholder || op == OpKind::kOutput) return Status::Ok();
  bool attribute_path = op == OpKind::kCallModule || op == OpKind::kGetAttr;
  size_t start = 0;
  while (true) {
    size_t dot = std::min(target.find('.', start), target.size());
    std::string_view part(target.data() + start, dot - start);
    bool number = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    bool identifier = !part.empty() && IsIdentStart(part[0]) && std::all_of(part.begin(), part.end(), IsIdentChar);
    if (!identifier && !(attribute_path && number)) {
      return Status::Errorf(
          "target \"{}\" is not {} (dotted Python names{})", target,
          attribute_path ? "an attribute path" : "a Python callable",
          attribute_path ? " or indices, as in layers.0.weight" : ", as in torch.ops.aten.add.Tensor");
    }
    if (dot == target.size()) return Status::Ok();
    start = dot + 1;
  }
}

}  // namespace airscope
