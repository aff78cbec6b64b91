#include "formats/pbtxt_reader.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <queue>
#include <unordered_map>

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/fx/source_text.h"
#include "core/interrupt.h"
#include "core/scanner.h"
#include "formats/ge_op_types.h"
#include "formats/proto_text.h"

namespace airscope {
namespace {

struct Input {
  std::string producer;
  int64_t index = 0;  // -1: control input
  size_t offset = 0;
  size_t producer_id = 0;
};

struct Attr {
  std::string key;
  const TextField* value = nullptr;  // the `s` string field of `value { s: ... }`
};

struct PNode {
  std::string name;
  std::string type;
  size_t offset = 0;
  std::vector<Input> inputs;
  std::vector<Attr> attrs;
  Node* node = nullptr;
};

bool ParseInt(std::string_view text, int64_t* out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// `Tensor(dtype=torch.float32, shape=torch.Size([2, s0])` -> TensorMeta.
bool ParseTorchAirMeta(std::string_view text, TensorMeta* out) {
  constexpr std::string_view kHead = "Tensor(dtype=";
  constexpr std::string_view kShape = ", shape=torch.Size([";
  if (!text.starts_with(kHead)) return false;
  text.remove_prefix(kHead.size());
  size_t shape = text.find(kShape);
  if (shape == std::string_view::npos) return false;
  auto dtype = ParseTorchDType(text.substr(0, shape));
  out->dtype = dtype ? *dtype : DType::kUnknown;
  text.remove_prefix(shape + kShape.size());
  size_t close = text.find("])");
  if (close == std::string_view::npos) return false;
  std::string_view dims = text.substr(0, close);
  out->sizes.clear();
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view item = dims.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) return false;
    int64_t value = 0;
    if (ParseInt(item, &value)) {
      out->sizes.push_back(Dim(value));
    } else if (item.find_first_not_of("-0123456789") == std::string_view::npos) {
      return false;  // a number past int64 is no symbol: kept as opaque text, never sized
    } else {
      out->sizes.push_back(Dim::Symbol(std::string(item)));
    }
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
  }
  return true;
}

class Reader {
 public:
  Reader(std::string_view text, std::string_view filename, std::vector<std::string>* warnings)
      : text_(text), filename_(filename), file_(text, {filename}), warnings_(warnings) {}

  Result<std::unique_ptr<Graph>> Run() {
    AIRSCOPE_RETURN_IF_ERROR(CheckSourceText(text_, filename_));
    parsed_ = ParseProtoText(text_);
    if (!parsed_.ok) return Error(parsed_.error_offset, parsed_.error);
    AIRSCOPE_RETURN_IF_ERROR(CollectNodes());
    if (nodes_.empty()) return Error(0, "no `node { ... }` blocks: not a pbtxt graph");
    AIRSCOPE_RETURN_IF_ERROR(ResolveInputs());
    AIRSCOPE_ASSIGN_OR_RETURN(auto order, Order());
    graph_ = std::make_unique<Graph>();
    for (size_t id : order) {
      if (InterruptRequested()) return InterruptedStatus();
      AIRSCOPE_RETURN_IF_ERROR(Build(nodes_[id]));
    }
    // TorchAir's graphs always end in NetOutput; without one nothing is an
    // output, dead code removal erases every op and a capture has 0 tasks.
    // A file cut at a node boundary looks like that, so it is refused.
    if (graph_->output() == nullptr) {
      return Error(text_.size(), "no NetOutput node: the graph has no outputs (is the file cut short?)");
    }
    if (unlisted_warnings_ > 0) {
      warnings_->push_back(fmt::format("{}: ... and {} more desc(s) whose shape disagrees with their _meta", filename_,
                                       unlisted_warnings_));
    }
    return std::move(graph_);
  }

 private:
  // At byte `offset` of the file, with its line quoted.
  Status Error(size_t offset, std::string_view message) const { return file_.Error(offset, message); }

  Status CollectNodes() {
    for (const TextField& field : parsed_.fields) {
      if (field.name != "node") continue;  // GraphDef's versions, library, ...: skipped
      if (field.kind != TextField::Kind::kMessage) return Error(field.offset, "`node` must be a message `{ ... }`");
      PNode node;
      node.offset = field.offset;
      for (const TextField& f : field.fields) {
        if (f.name == "name" || f.name == "op") {
          if (f.kind != TextField::Kind::kString)
            return Error(f.value_offset, fmt::format("`{}` must be a string", f.name));
          (f.name == "name" ? node.name : node.type) = f.value;
        } else if (f.name == "input") {
          if (f.kind != TextField::Kind::kString) return Error(f.value_offset, "`input` must be a string");
          AIRSCOPE_RETURN_IF_ERROR(ParseInput(f, &node));
        } else if (f.name == "attr") {
          const TextField* key = f.Find("key");
          const TextField* value = f.Find("value");
          if (f.kind != TextField::Kind::kMessage || key == nullptr || key->kind != TextField::Kind::kString) {
            return Error(f.offset, "`attr` needs a string `key`");
          }
          const TextField* s = value != nullptr ? value->Find("s") : nullptr;
          if (s != nullptr && s->kind == TextField::Kind::kString) node.attrs.push_back(Attr{key->value, s});
        }
      }
      if (node.name.empty()) return Error(field.offset, "node has no `name`");
      if (node.type.empty()) return Error(field.offset, fmt::format("node '{}' has no `op`", node.name));
      if (!by_name_.emplace(node.name, nodes_.size()).second) {
        return Error(field.offset, fmt::format("duplicate node name '{}'", node.name));
      }
      nodes_.push_back(std::move(node));
    }
    return Status::Ok();
  }

  Status ParseInput(const TextField& f, PNode* node) {
    Input input;
    input.offset = f.value_offset;
    std::string_view ref = f.value;
    if (ref.empty()) return Status::Ok();  // an absent optional input (GE's unfed optional, e.g. MatMul's bias)
    if (ref.starts_with('^')) {
      input.producer = std::string(ref.substr(1));
      input.index = -1;
    } else {
      size_t colon = ref.rfind(':');
      input.producer = std::string(ref.substr(0, colon));
      if (colon != std::string_view::npos && (!ParseInt(ref.substr(colon + 1), &input.index) || input.index < -1)) {
        return Error(f.value_offset, fmt::format("input '{}': bad output index", ref));
      }
    }
    if (input.producer.empty()) return Error(f.value_offset, fmt::format("input '{}' names no node", ref));
    node->inputs.push_back(std::move(input));
    return Status::Ok();
  }

  Status ResolveInputs() {
    for (PNode& node : nodes_) {
      for (Input& input : node.inputs) {
        auto it = by_name_.find(input.producer);
        if (it == by_name_.end()) {
          return Error(input.offset,
                       fmt::format("node '{}': input refers to no node named '{}'", node.name, input.producer));
        }
        input.producer_id = it->second;
      }
    }
    return Status::Ok();
  }

  // Data first (by `index`), NetOutput last, the rest by Kahn with ties in file order.
  Result<std::vector<size_t>> Order() {
    std::vector<size_t> data, outputs, order;
    for (size_t id = 0; id < nodes_.size(); ++id) {
      if (nodes_[id].type == "Data") data.push_back(id);
      if (nodes_[id].type == "NetOutput") outputs.push_back(id);
    }
    if (outputs.size() > 1) {
      return Error(nodes_[outputs[1]].offset, fmt::format("more than one NetOutput ('{}' and '{}')",
                                                          nodes_[outputs[0]].name, nodes_[outputs[1]].name));
    }

    std::vector<int64_t> data_index(nodes_.size(), 0);
    for (size_t id : data) {
      const Attr* index = FindAttr(nodes_[id], "index");
      data_index[id] = static_cast<int64_t>(nodes_.size() + id);  // no index: after the indexed ones
      if (index != nullptr) {
        AIRSCOPE_ASSIGN_OR_RETURN(auto value, InnerField(*index, "i"));
        int64_t i = 0;
        if (!ParseInt(value, &i)) return Error(index->value->value_offset, "Data `index` attr is not an integer");
        data_index[id] = i;
      }
    }
    std::stable_sort(data.begin(), data.end(), [&](size_t a, size_t b) { return data_index[a] < data_index[b]; });
    std::vector<bool> placed(nodes_.size(), false);
    for (size_t id : data) {
      order.push_back(id);
      placed[id] = true;
    }
    std::vector<size_t> pending(nodes_.size(), 0);
    std::vector<std::vector<size_t>> users(nodes_.size());
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t id = 0; id < nodes_.size(); ++id) {
      if (placed[id]) continue;
      for (const Input& input : nodes_[id].inputs) {
        if (placed[input.producer_id]) continue;
        ++pending[id];
        users[input.producer_id].push_back(id);
      }
      if (pending[id] == 0) ready.push(id);
    }
    while (!ready.empty()) {
      size_t id = ready.top();
      ready.pop();
      if (nodes_[id].type != "NetOutput") order.push_back(id);
      placed[id] = true;
      for (size_t user : users[id]) {
        if (--pending[user] == 0) ready.push(user);
      }
    }
    for (size_t id = 0; id < nodes_.size(); ++id) {
      if (!placed[id]) return CycleError(id, placed);
    }
    if (!outputs.empty()) order.push_back(outputs[0]);
    return order;
  }

  // Walks unplaced inputs from `start` until a node repeats: that loop is a cycle.
  Status CycleError(size_t start, const std::vector<bool>& placed) const {
    std::vector<size_t> path;
    std::vector<int64_t> position(nodes_.size(), -1);
    size_t id = start;
    while (position[id] < 0) {
      position[id] = static_cast<int64_t>(path.size());
      path.push_back(id);
      for (const Input& input : nodes_[id].inputs) {
        if (!placed[input.producer_id]) {
          id = input.producer_id;
          break;
        }
      }
    }
    std::string names;
    for (size_t i = static_cast<size_t>(position[id]); i < path.size(); ++i) {
      names += fmt::format("'{}' <- ", nodes_[path[i]].name);
    }
    names += fmt::format("'{}'", nodes_[id].name);
    return Error(nodes_[id].offset, "the graph has a cycle: " + names);
  }

  static const Attr* FindAttr(const PNode& node, std::string_view key) {
    for (const Attr& attr : node.attrs) {
      if (attr.key == key) return &attr;
    }
    return nullptr;
  }

  // The attr's text (an AttrDef / TensorDescriptor) parsed; errors point at the attr's value.
  Result<TextParseResult> Inner(const Attr& attr) const {
    TextParseResult inner = ParseProtoText(attr.value->value);
    if (!inner.ok) {
      return Error(attr.value->value_offset,
                   fmt::format("attr '{}': {} (at offset {} of its text)", attr.key, inner.error, inner.error_offset));
    }
    return inner;
  }

  // The value of scalar/string field `name` in the attr's AttrDef text.
  Result<std::string> InnerField(const Attr& attr, std::string_view name) const {
    AIRSCOPE_ASSIGN_OR_RETURN(auto inner, Inner(attr));
    for (const TextField& f : inner.fields) {
      if (f.name == name && f.kind != TextField::Kind::kMessage) return f.value;
    }
    return Error(attr.value->value_offset, fmt::format("attr '{}' has no `{}` value", attr.key, name));
  }

  // TorchAir writes a desc's shape and its `_meta` from one FakeTensor
  // (ge/_ge_graph.py:1122-1128 set_meta; -1 for a symbolic size, -2 for an
  // unknown rank, no dims where it leaves the shape to GE). In ND layout a
  // static size that differs, or another rank, cannot both be right: the
  // file was edited, or written by something else. airscope keeps `_meta`
  // (it has the symbols) and says so. Other layouts (NC1HWC0, FRACTAL_NZ)
  // give GE's storage shape, which differs by design; dtypes are not
  // compared (a quantized desc keeps GE's dtype, _ge_graph.py:1114-1120).
  void CheckDescAgainstMeta(const PNode& pnode, const Attr& attr, const std::vector<int64_t>& dims,
                            std::string_view layout, const TensorMeta& stated) {
    if (warnings_ == nullptr || dims.empty() || (dims.size() == 1 && dims[0] == -2)) return;
    if (!layout.empty() && layout != "ND") return;
    bool differs = dims.size() != stated.sizes.size();
    for (size_t i = 0; !differs && i < dims.size(); ++i) {
      differs = dims[i] >= 0 && stated.sizes[i].is_static() && stated.sizes[i].value() != dims[i];
    }
    if (!differs) return;
    if (warnings_->size() >= kListedWarnings) {
      ++unlisted_warnings_;  // a file with a million of them must not hold a million messages
      return;
    }
    Scanner::Location at = file_.LocationOf(attr.value->value_offset);
    warnings_->push_back(
        fmt::format("{}:{}:{}: node '{}' {}: the GE desc's shape [{}] disagrees with its _meta {} "
                    "(layout {}); airscope uses _meta",
                    filename_, at.line, at.column, pnode.name, attr.key, fmt::join(dims, ", "), stated.ShapeString(),
                    layout.empty() ? "not stated" : "ND"));
  }

  // One `[o]` desc -> a tensor (kind kTensor), a SymInt/opaque annotation, or nothing.
  Result<NodeMeta> DescMeta(const PNode& pnode, const Attr& attr, bool* has_value) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto inner, Inner(attr));
    NodeMeta meta;
    *has_value = false;
    std::string meta_text;
    bool has_meta = false;
    TensorMeta tensor;
    bool has_tensor = false;
    std::vector<int64_t> dims;  // as the desc states them
    std::string_view layout;
    for (const TextField& f : inner.fields) {
      if (f.name == "layout" && f.kind != TextField::Kind::kMessage) {
        layout = f.value;
      } else if (f.name == "dtype" && f.kind == TextField::Kind::kScalar) {
        auto dtype = ParseGeDType(f.value);
        tensor.dtype = dtype ? *dtype : DType::kUnknown;
        has_tensor = true;
      } else if (f.name == "shape" && f.kind == TextField::Kind::kMessage) {
        for (const TextField& d : f.fields) {
          int64_t value = 0;
          if (d.name != "dim") continue;
          if (!ParseInt(d.value, &value)) {
            return Error(attr.value->value_offset,
                         fmt::format("attr '{}': dim '{}' is not an integer", attr.key, d.value));
          }
          // GE writes -1 for a dim it does not know and a lone -2 for a
          // rank it does not know. Each unknown dim is a symbol of its own
          // (?0, ?1, ...): two of them are not known to be equal.
          tensor.sizes.push_back(value >= 0 ? Dim(value) : Dim::Symbol(fmt::format("?{}", unknown_dims_++)));
          dims.push_back(value);
        }
        has_tensor = true;
      } else if (f.name == "attr" && f.kind == TextField::Kind::kMessage) {
        const TextField* key = f.Find("key");
        const TextField* value = f.Find("value");
        const TextField* s = value != nullptr ? value->Find("s") : nullptr;
        if (key != nullptr && key->value == "_meta" && s != nullptr) {
          meta_text = s->value;
          has_meta = true;
        }
      }
    }
    if (has_meta) {
      *has_value = true;
      TensorMeta stated;
      if (ParseTorchAirMeta(meta_text, &stated)) {
        // The one size check every reader applies (core/ir/tensor_meta.h).
        if (Status sized = CheckTensorSize(stated); !sized.ok()) {
          return Error(attr.value->value_offset, fmt::format("attr '{}': {}", attr.key, sized.message()));
        }
        CheckDescAgainstMeta(pnode, attr, dims, layout, stated);
        meta.tensors.push_back(std::move(stated));
      } else {
        meta.kind = meta_text.starts_with("Sym(") ? ValueKind::kSymInt : ValueKind::kOpaque;
        meta.annotation = meta_text;
      }
    } else if (has_tensor && dims.size() == 1 && dims[0] == -2) {
      // Unknown rank, and no _meta to say more: no shape rather than a 1-d one.
    } else if (has_tensor) {
      *has_value = true;
      if (Status sized = CheckTensorSize(tensor); !sized.ok()) {
        return Error(attr.value->value_offset, fmt::format("attr '{}': {}", attr.key, sized.message()));
      }
      meta.tensors.push_back(std::move(tensor));
    }
    return meta;
  }

  Status SetMeta(const PNode& pnode, Node* node) {
    std::vector<const Attr*> outputs;
    for (const Attr& attr : pnode.attrs) {
      if (attr.key.starts_with("[o]")) outputs.push_back(&attr);
    }
    if (outputs.empty()) return Status::Ok();
    bool tuple = outputs.size() > 1 || outputs[0]->key == "[o]y0";
    NodeMeta meta;
    meta.kind = tuple ? ValueKind::kTuple : ValueKind::kTensor;
    for (const Attr* attr : outputs) {
      bool has_value = false;
      AIRSCOPE_ASSIGN_OR_RETURN(auto one, DescMeta(pnode, *attr, &has_value));
      if (!tuple) {
        if (has_value) node->set_meta(std::move(one));
        return Status::Ok();
      }
      meta.tensors.push_back(one.tensors.empty() ? TensorMeta{} : one.tensors[0]);
    }
    node->set_meta(std::move(meta));
    return Status::Ok();
  }

  std::string LegalName(const std::string& name) {
    if (Graph::IsLegalName(name) && graph_->Find(name) == nullptr) return name;
    std::string legal;
    for (char c : name) legal += IsIdentChar(c) ? c : '_';
    if (legal.empty() || !IsIdentStart(legal[0])) legal = "_" + legal;
    return graph_->UniqueName(legal);
  }

  // The node a data input `producer:index` reads: a getitem for a tuple producer.
  Result<Node*> DataInput(const PNode& user, const Input& input) {
    Node* producer = nodes_[input.producer_id].node;
    const NodeMeta* meta = producer->meta();
    if (meta != nullptr && meta->kind == ValueKind::kTuple) {
      if (static_cast<size_t>(input.index) >= meta->tensors.size()) {
        return Error(input.offset, fmt::format("node '{}': input '{}:{}' but '{}' has {} outputs", user.name,
                                               input.producer, input.index, input.producer, meta->tensors.size()));
      }
      auto key = std::make_pair(producer, input.index);
      auto it = getitems_.find(key);
      if (it != getitems_.end()) return it->second;
      NodeSpec spec{OpKind::kCallFunction,
                    "operator.getitem",
                    {Argument::NodeRef(producer), Argument::Int(input.index)},
                    {},
                    fmt::format("{}_getitem_{}", producer->name(), input.index)};
      Node* getitem = nullptr;
      if (graph_->Find(spec.name) == nullptr && Graph::IsLegalName(spec.name)) {
        auto made = graph_->AppendNamed(std::move(spec));
        if (!made.ok()) return Error(input.offset, made.status().message());
        getitem = *made;
      } else {
        getitem = graph_->Append(std::move(spec));
      }
      NodeMeta element;
      element.tensors.push_back(meta->tensors[static_cast<size_t>(input.index)]);
      getitem->set_meta(std::move(element));
      getitems_.emplace(key, getitem);
      return getitem;
    }
    if (input.index > 0) {
      return Error(input.offset, fmt::format("node '{}': input '{}:{}' but '{}' has one output", user.name,
                                             input.producer, input.index, input.producer));
    }
    return producer;
  }

  // `_fx_args`: the node's args tuple as Python text. Errors name the column
  // in that text and point at the attr in the file.
  Result<std::vector<Argument>> ParseFxArgs(const Attr& attr) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto text, InnerField(attr, "s"));
    std::vector<Argument> items;
    Scanner scan(text);
    ArgParser parser(scan, ArgDialect::kPython, graph_.get());
    scan.SkipSpaces();
    if (!scan.PeekIs('(') || !parser.ParseItems(&items)) {
      std::string why = scan.failure_message().empty() ? "expected `(...)`" : scan.failure_message();
      return Error(attr.value->value_offset,
                   fmt::format("attr '_fx_args': {} at column {} of `{}`", why, scan.failure_pos() + 1, text));
    }
    return items;
  }

  // `_fx_kwargs`: `(name=value, ...)`.
  Result<std::vector<Kwarg>> ParseFxKwargs(const Attr& attr) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto text, InnerField(attr, "s"));
    std::vector<Kwarg> kwargs;
    Scanner scan(text);
    ArgParser parser(scan, ArgDialect::kPython, graph_.get());
    auto fail = [&](size_t at, std::string_view why) {
      return Error(attr.value->value_offset,
                   fmt::format("attr '_fx_kwargs': {} at column {} of `{}`", why, at + 1, text));
    };
    if (!scan.Consume('(')) return fail(0, "expected `(`");
    while (true) {
      scan.SkipSpaces();
      if (scan.PeekIs(')')) break;
      std::string_view name = scan.While(IsIdentChar);
      if (name.empty() || !scan.Consume('=')) return fail(scan.pos(), "expected `name=value`");
      Kwarg kw{std::string(name), Argument()};
      if (!parser.ParseValue(kw.name, &kw.value)) return fail(scan.failure_pos(), scan.failure_message());
      kwargs.push_back(std::move(kw));
      scan.SkipSpaces();
      if (!scan.Consume(',') && !scan.PeekIs(')')) return fail(scan.pos(), "expected `,` or `)`");
    }
    return kwargs;
  }

  // The op kind, target and name of the FX node a pbtxt node stands for.
  Status KindAndTarget(const PNode& pnode, NodeSpec* spec) {
    if (pnode.type == "Data") {
      spec->op = OpKind::kPlaceholder;
    } else if (pnode.type == "NetOutput") {
      spec->op = OpKind::kOutput;
      spec->target = "output";
    } else if (pnode.type == "Const") {
      spec->op = OpKind::kGetAttr;
    } else {
      spec->op = OpKind::kCallFunction;
      if (const Attr* fx_op = FindAttr(pnode, "_fx_op")) {
        AIRSCOPE_ASSIGN_OR_RETURN(auto kind, InnerField(*fx_op, "s"));
        if (!ParseOpKind(kind, &spec->op)) return Error(fx_op->value->value_offset, "attr '_fx_op': unknown op kind");
      }
      if (const Attr* aten_op = FindAttr(pnode, "_aten_op")) {
        AIRSCOPE_ASSIGN_OR_RETURN(auto target, InnerField(*aten_op, "s"));
        spec->target = target;
      } else if (auto target = TargetForGeType(pnode.type)) {
        spec->target = *target;
      } else {
        spec->target = "ge." + pnode.type;
      }
    }
    spec->name = spec->op == OpKind::kOutput ? LegalName("output") : LegalName(pnode.name);
    if (spec->op == OpKind::kPlaceholder) spec->target = spec->name;
    if (spec->op == OpKind::kGetAttr) {
      spec->target = spec->name;
      if (const Attr* target = FindAttr(pnode, "_fx_target")) {
        AIRSCOPE_ASSIGN_OR_RETURN(auto value, InnerField(*target, "s"));
        spec->target = value;
      }
    }
    return Status::Ok();
  }

  // The node's args and kwargs: `_fx_args`/`_fx_kwargs` where TorchAir's
  // writer left them, else the data inputs (as one tuple for the output);
  // control inputs no argument refers to become `_control_deps`.
  Status SetArguments(const PNode& pnode, NodeSpec* spec) {
    std::vector<Argument> data;
    std::vector<Node*> control;
    if (spec->op != OpKind::kPlaceholder) {
      for (const Input& input : pnode.inputs) {
        if (nodes_[input.producer_id].node == nullptr) continue;  // a `_fx_part_of` operator
        if (input.index < 0) {
          control.push_back(nodes_[input.producer_id].node);
          continue;
        }
        AIRSCOPE_ASSIGN_OR_RETURN(auto node, DataInput(pnode, input));
        data.push_back(Argument::NodeRef(node));
      }
    }
    if (const Attr* fx_args = FindAttr(pnode, "_fx_args")) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto args, ParseFxArgs(*fx_args));
      spec->args = std::move(args);
    } else if (spec->op == OpKind::kOutput) {
      spec->args.push_back(Argument::Tuple(std::move(data)));
    } else {
      spec->args = std::move(data);
    }
    if (const Attr* fx_kwargs = FindAttr(pnode, "_fx_kwargs")) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto kwargs, ParseFxKwargs(*fx_kwargs));
      spec->kwargs = std::move(kwargs);
    }
    AddControlDeps(control, spec);
    return Status::Ok();
  }

  // Control inputs the args do not already reference, kept as `_control_deps`.
  static void AddControlDeps(const std::vector<Node*>& control, NodeSpec* spec) {
    std::vector<Argument> deps;
    for (Node* producer : control) {
      bool referenced = false;
      auto check = [&](Node* n) { referenced = referenced || n == producer; };
      for (const Argument& a : spec->args) a.ForEachNode(check);
      for (const Kwarg& kw : spec->kwargs) kw.value.ForEachNode(check);
      bool duplicate = false;
      for (const Argument& d : deps) duplicate = duplicate || d.as_node() == producer;
      if (!referenced && !duplicate) deps.push_back(Argument::NodeRef(producer));
    }
    if (!deps.empty()) spec->kwargs.push_back(Kwarg{"_control_deps", Argument::List(std::move(deps))});
  }

  Status Build(PNode& pnode) {
    // An operator made while converting another FX node (a scalar's Const):
    // that node's `_fx_args` holds the value, so it is not rebuilt.
    if (FindAttr(pnode, "_fx_part_of") != nullptr) return Status::Ok();
    NodeSpec spec;
    AIRSCOPE_RETURN_IF_ERROR(KindAndTarget(pnode, &spec));
    AIRSCOPE_RETURN_IF_ERROR(SetArguments(pnode, &spec));
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(pnode.offset, node.status().message());
    pnode.node = *node;
    AIRSCOPE_RETURN_IF_ERROR(SetMeta(pnode, *node));
    if (const Attr* stream = FindAttr(pnode, "_user_stream_label")) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto label, InnerField(*stream, "s"));
      graph_->SetStream(*node, label);
    }
    return Status::Ok();
  }

  std::string_view text_;
  std::string_view filename_;
  Scanner file_;  // the whole file, for errors
  TextParseResult parsed_;
  std::vector<PNode> nodes_;
  std::unordered_map<std::string, size_t> by_name_;
  std::unique_ptr<Graph> graph_;
  std::map<std::pair<Node*, int64_t>, Node*> getitems_;
  std::vector<std::string>* warnings_;  // null: the caller does not want them
  static constexpr size_t kListedWarnings = 20;
  size_t unlisted_warnings_ = 0;  // past kListedWarnings: counted, said at the end
  size_t unknown_dims_ = 0;       // names the desc dims GE does not know: ?0, ?1, ...
};

}  // namespace

Result<std::unique_ptr<Graph>> ParsePbtxt(std::string_view text, std::string_view filename,
                                          std::vector<std::string>* warnings) {
  return Reader(text, filename, warnings).Run();
}

}  // namespace airscope
