// decompose_auto_functionalized: Inductor's pass of that name
// (torch/_inductor/fx_passes/post_grad.py), which TorchAir runs right after
// reinplace_input_mutated_ops (f2a:281-288). Each auto_functionalized_v2
// node becomes what auto_functionalized_dense_v2 does: clone the bases in
// only_clone_these_tensors (clone_preserve_strides), regenerate every mutable
// argument as a view of its (possibly cloned) base, call the mutable op on
// them, and make the getitems of the bases read the new bases.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <variant>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/fx/arg_parser.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/reinplace_util.h"
#include "core/pass/torchair_config.h"

namespace airscope {
namespace {

Argument Ints(const std::vector<int64_t>& values) {
  std::vector<Argument> items;
  for (int64_t v : values) items.push_back(Argument::Int(v));
  return Argument::List(std::move(items));
}

std::optional<std::vector<int64_t>> Static(const std::vector<Dim>& dims) {
  std::vector<int64_t> out;
  for (const Dim& d : dims) {
    if (!d.is_static()) return std::nullopt;
    out.push_back(d.value());
  }
  return out;
}

// "custom.boo.default" -> "boo_default" (the name FX gives the traced call).
std::string CallHint(std::string_view target) {
  std::string_view t = StripTorchOps(target);
  size_t dot = t.find('.');
  std::string hint(dot == std::string_view::npos ? t : t.substr(dot + 1));
  for (char& c : hint) c = c == '.' ? '_' : c;
  return hint;
}

class Decomposer {
 public:
  Decomposer(Graph& graph, PassContext& context)
      : graph_(graph), registry_(RegistryOf(context)), schemas_(SchemasOf(context)) {}

  // Why the auto_functionalized_v2 `node` cannot be decomposed, or "" after
  // decomposing it (auto_functionalized_dense_v2).
  std::string DecomposeV2(Node* node) {
    Result<std::string> op = MutableOp(*node);
    if (!op.ok()) return op.status().message();
    const Argument* bases_arg = node->kwarg("_all_bases");
    if (bases_arg == nullptr || !bases_arg->is_sequence()) return "no _all_bases";
    std::vector<Node*> bases;
    for (const Argument& b : bases_arg->items()) {
      if (!b.is_node()) return "a base is not a tensor node";
      bases.push_back(b.as_node());
    }
    // Which bases to clone: TorchAir's meta, else all (Inductor's default).
    std::set<int64_t> clone;
    const NodeMeta* meta = node->meta();
    if (meta != nullptr && meta->only_clone_these_tensors) {
      clone.insert(meta->only_clone_these_tensors->begin(), meta->only_clone_these_tensors->end());
    } else {
      for (size_t i = 0; i < bases.size(); ++i) clone.insert(static_cast<int64_t>(i));
    }
    // Mutable args (`_<name>_base_index`) and the op's other kwargs, in order.
    std::vector<std::string> mutable_names;
    std::vector<Kwarg> plain;
    for (const Kwarg& k : node->kwargs()) {
      if (k.name.ends_with("_length")) return fmt::format("Tensor[] argument {} is not supported", k.name);
      if (k.name.starts_with("_") && k.name.ends_with("_base_index")) {
        mutable_names.push_back(k.name.substr(1, k.name.size() - 1 - std::string("_base_index").size()));
      } else if (!k.name.starts_with("_")) {
        plain.push_back(k);
      }
    }
    // Check every base can be cloned, and the call made, before changing anything.
    for (int64_t i : clone) {
      if (i < 0 || static_cast<size_t>(i) >= bases.size()) return "only_clone_these_tensors out of range";
      if (std::string why = CloneableWhy(bases[i]); !why.empty()) return why;
    }
    std::vector<std::string> call_names = Names(plain);
    call_names.insert(call_names.end(), mutable_names.begin(), mutable_names.end());
    Result<CallLayout> layout = Layout(*op, call_names);
    if (!layout.ok()) return layout.status().message();
    std::string stream = node->stream();
    std::vector<Node*> new_bases;
    for (size_t i = 0; i < bases.size(); ++i) {
      new_bases.push_back(clone.count(static_cast<int64_t>(i)) ? ClonePreserveStrides(node, bases[i], stream)
                                                               : bases[i]);
    }
    // Regenerate each mutable argument from its new base (read_view_information_from_args).
    std::vector<Kwarg> call_kwargs = plain;
    for (const std::string& name : mutable_names) {
      std::string prefix = "_" + name;
      const Argument* index = node->kwarg(prefix + "_base_index");
      Argument value = Argument::None();
      if (index != nullptr && !index->is_none()) {
        Node* base = new_bases.at(static_cast<size_t>(index->as_int()));
        if (node->kwarg(prefix + "_alias")) {
          value = Argument::NodeRef(Insert(node, "aten.alias.default", {Argument::NodeRef(base)}, stream));
        } else if (const Argument* offset = node->kwarg(prefix + "_storage_offset")) {
          value = Argument::NodeRef(Insert(node, "aten.as_strided.default",
                                           {Argument::NodeRef(base), AsList(*node->kwarg(prefix + "_size")),
                                            AsList(*node->kwarg(prefix + "_stride")), *offset},
                                           stream));
        } else if (const Argument* dim = node->kwarg(prefix + "_slice_dim")) {
          value = Argument::NodeRef(Insert(node, "aten.slice.Tensor",
                                           {Argument::NodeRef(base), *dim, *node->kwarg(prefix + "_slice_start"),
                                            *node->kwarg(prefix + "_slice_end")},
                                           stream));
        } else {
          value = Argument::NodeRef(base);
        }
      }
      call_kwargs.push_back({name, std::move(value)});
    }
    Node* call = Call(node, *op, *layout, call_kwargs, stream);
    std::vector<Argument> results;
    for (Node* base : new_bases) results.push_back(Argument::NodeRef(base));
    RewireOutputs(node, call, *op, results);
    return "";
  }

  // auto_functionalized (v1) through auto_functionalized_dense: the op's
  // mutable arguments (by its schema) are cloned unless TorchAir reinplaced
  // them; the op runs on them; getitems past the op's outputs read them.
  std::string DecomposeV1(Node* node) {
    Result<std::string> op = MutableOp(*node);
    if (!op.ok()) return op.status().message();
    const OpSchema* schema = schemas_.Find(*op);
    if (schema == nullptr) return "auto_functionalized (v1) needs the op's schema; give it with `op define`";
    std::vector<std::string> names = schema->MutableArgNames();
    std::set<int64_t> clone;
    const NodeMeta* meta = node->meta();
    for (size_t i = 0; i < names.size(); ++i) {
      if (meta == nullptr || !meta->only_clone_these_tensors ||
          std::count(meta->only_clone_these_tensors->begin(), meta->only_clone_these_tensors->end(),
                     static_cast<int64_t>(i))) {
        clone.insert(static_cast<int64_t>(i));
      }
    }
    // Check every tensor to clone before changing anything.
    for (size_t i = 0; i < names.size(); ++i) {
      const Argument* value = node->kwarg(names[i]);
      if (value == nullptr) return fmt::format("its mutable argument '{}' is not among its kwargs", names[i]);
      if (!clone.count(static_cast<int64_t>(i)) || value->is_none()) continue;
      std::vector<Argument> items = value->is_sequence()
                                        ? std::vector<Argument>(value->items().begin(), value->items().end())
                                        : std::vector<Argument>{*value};
      for (const Argument& item : items) {
        if (!item.is_node()) return fmt::format("mutable argument '{}' is not a tensor", names[i]);
        if (std::string why = CloneableWhy(item.as_node()); !why.empty()) return why;
      }
    }
    Result<CallLayout> layout = Layout(*op, Names(node->kwargs()));
    if (!layout.ok()) return layout.status().message();
    std::string stream = node->stream();
    std::vector<Kwarg> call_kwargs;
    for (const Kwarg& k : node->kwargs()) {
      auto it = std::find(names.begin(), names.end(), k.name);
      if (it == names.end() || k.value.is_none() || !clone.count(it - names.begin())) {
        call_kwargs.push_back(k);
        continue;
      }
      Argument cloned;
      if (k.value.is_sequence()) {
        std::vector<Argument> items;
        for (const Argument& item : k.value.items()) {
          items.push_back(Argument::NodeRef(ClonePreserveStrides(node, item.as_node(), stream)));
        }
        cloned = Argument::List(std::move(items));
      } else {
        cloned = Argument::NodeRef(ClonePreserveStrides(node, k.value.as_node(), stream));
      }
      call_kwargs.push_back({k.name, cloned});
    }
    // The results follow get_mutable_args' order.
    std::vector<Argument> results;
    for (const std::string& name : names) {
      for (const Kwarg& k : call_kwargs) {
        if (k.name == name) results.push_back(k.value);
      }
    }
    Node* call = Call(node, *op, *layout, call_kwargs, stream);
    RewireOutputs(node, call, *op, results);
    return "";
  }

 private:
  static Argument AsList(const Argument& value) {
    return value.is_sequence() ? Argument::List({value.items().begin(), value.items().end()}) : value;
  }

  static Result<std::string> MutableOp(const Node& node) {
    if (node.args().empty()) return Status::Error("no mutable op argument");
    const Argument& op_arg = node.args()[0];
    if (op_arg.kind() != Argument::Kind::kRaw && op_arg.kind() != Argument::Kind::kString) {
      return Status::Error("the mutable op is not an op name");
    }
    return op_arg.as_string();
  }

  static std::string CloneableWhy(const Node* base) {
    const TensorMeta* t = TensorOf(base);
    if (t == nullptr || !Static(t->sizes) || !Static(t->EffectiveStrides())) {
      return fmt::format("{} has no static shape to clone", base->name());
    }
    return "";
  }

  // clone_preserve_strides: as_strided(x, (needed,), (1,), 0).clone() viewed back with x's layout.
  Node* ClonePreserveStrides(Node* before, Node* x, const std::string& stream) {
    const TensorMeta* t = TensorOf(x);
    std::vector<int64_t> sizes = *Static(t->sizes), strides = *Static(t->EffectiveStrides());
    int64_t needed = 1;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) needed = 0;
      if (needed != 0) needed += (sizes[d] - 1) * strides[d];
    }
    Node* flat = Insert(before, "aten.as_strided.default",
                        {Argument::NodeRef(x), Ints({needed}), Ints({1}), Argument::Int(0)}, stream);
    Node* copy = Insert(before, "aten.clone.default", {Argument::NodeRef(flat)}, stream);
    return Insert(before, "aten.as_strided.default",
                  {Argument::NodeRef(copy), Ints(sizes), Ints(strides), Argument::Int(0)}, stream);
  }

  // `op(**kwargs)` as make_fx records it: with the op's schema, arguments in
  // schema order, positional ones positionally (trailing ones not given
  // left out, a gap filled with its default), keyword-only ones as kwargs.
  // Without a schema airscope passes everything positionally in the order
  // given (the callers put the mutable arguments last).
  struct CallLayout {
    std::vector<std::variant<std::string, Argument>> positional;  // a kwarg's name, or a default value
    std::vector<std::string> keyword;
  };
  Result<CallLayout> Layout(const std::string& op, const std::vector<std::string>& names) const {
    CallLayout layout;
    const OpSchema* schema = schemas_.Find(op);
    if (schema == nullptr) {
      for (const std::string& name : names) layout.positional.emplace_back(name);
      return layout;
    }
    for (const std::string& name : names) {
      if (schema->Argument(name) == nullptr)
        return Status::Errorf("{} has no argument '{}' ({})", op, name, schema->text);
    }
    std::vector<const SchemaArgument*> missing;  // positional, not given, since the last given one
    for (const SchemaArgument& param : schema->arguments) {
      bool is_given = std::find(names.begin(), names.end(), param.name) != names.end();
      if (param.kwarg_only) {
        if (is_given) layout.keyword.push_back(param.name);
        continue;
      }
      if (!is_given) {
        if (!param.default_value) return Status::Errorf("{}: argument '{}' is not given", op, param.name);
        missing.push_back(&param);
        continue;
      }
      for (const SchemaArgument* gap : missing) {
        AIRSCOPE_ASSIGN_OR_RETURN(Argument fill, DefaultValue(*gap));
        layout.positional.emplace_back(std::move(fill));
      }
      missing.clear();
      layout.positional.emplace_back(param.name);
    }
    return layout;
  }

  Node* Call(Node* before, const std::string& op, const CallLayout& layout, const std::vector<Kwarg>& kwargs,
             const std::string& stream) {
    auto value_of = [&](const std::string& name) {
      for (const Kwarg& k : kwargs) {
        if (k.name == name) return k.value;
      }
      return Argument::None();
    };
    std::vector<Argument> args;
    for (const auto& slot : layout.positional) {
      args.push_back(std::holds_alternative<std::string>(slot) ? value_of(std::get<std::string>(slot))
                                                               : std::get<Argument>(slot));
    }
    std::vector<Kwarg> call_kwargs;
    for (const std::string& name : layout.keyword) call_kwargs.push_back({name, value_of(name)});
    return InsertCall(graph_, before, CallSpec(op, std::move(args), std::move(call_kwargs), CallHint(op)), stream,
                      registry_);
  }

  static std::vector<std::string> Names(const std::vector<Kwarg>& kwargs) {
    std::vector<std::string> out;
    for (const Kwarg& k : kwargs) out.push_back(k.name);
    return out;
  }

  static Result<Argument> DefaultValue(const SchemaArgument& param) {
    ArgParser parser(*param.default_value, ArgDialect::kPython, nullptr);
    size_t pos = 0;
    Argument value;
    if (!parser.ParseValue(&pos, param.name, &value)) {
      return Status::Errorf("default '{}' of '{}': {}", *param.default_value, param.name, parser.error());
    }
    return value;
  }

  // The node's outputs are (*op outputs, *results): getitems of the results
  // read them (a Tensor[] result through a second getitem), the op's
  // getitems its call. The op's output count comes from its schema, else
  // from the node's tuple meta, else one (a None or single-tensor result).
  void RewireOutputs(Node* node, Node* call, const std::string& op, const std::vector<Argument>& results) {
    size_t num_outputs = 1;
    const NodeMeta* meta = node->meta();
    if (const OpSchema* schema = schemas_.Find(op)) {
      num_outputs = std::max<size_t>(1, schema->ReturnCount());
    } else if (meta != nullptr && meta->kind == ValueKind::kTuple && meta->tensors.size() >= results.size() &&
               !meta->tensors.empty()) {
      num_outputs = meta->tensors.size() - results.size();
    }
    std::vector<Node*> getitems(node->users().begin(), node->users().end());
    for (Node* getitem : getitems) {
      if (!IsTarget(*getitem, "operator.getitem") || getitem->args().size() < 2 ||
          getitem->args()[1].kind() != Argument::Kind::kInt) {
        continue;
      }
      size_t k = static_cast<size_t>(getitem->args()[1].as_int());
      if (k >= num_outputs && k - num_outputs < results.size()) {
        const Argument& result = results[k - num_outputs];
        if (result.is_node()) {
          graph_.ReplaceAllUsesWith(getitem, result.as_node());
        } else if (result.is_sequence()) {
          // getitem(getitem(node, k), j) -> the list's j-th tensor.
          std::vector<Node*> inner(getitem->users().begin(), getitem->users().end());
          for (Node* user : inner) {
            if (!IsTarget(*user, "operator.getitem") || user->args().size() < 2 ||
                user->args()[1].kind() != Argument::Kind::kInt) {
              continue;
            }
            size_t j = static_cast<size_t>(user->args()[1].as_int());
            if (j < result.items().size() && result.items()[j].is_node()) {
              graph_.ReplaceAllUsesWith(user, result.items()[j].as_node());
              if (user->users().empty()) (void)graph_.Erase(user);
            }
          }
        }
      } else if (k < num_outputs && num_outputs == 1) {
        graph_.ReplaceAllUsesWith(getitem, call);
      } else if (k < num_outputs) {
        graph_.SetArgs(getitem, {Argument::NodeRef(call), getitem->args()[1]});
        continue;
      }
      if (getitem->users().empty()) (void)graph_.Erase(getitem);
    }
    if (node->users().empty()) (void)graph_.Erase(node);
  }

  Node* Insert(Node* before, std::string_view target, std::vector<Argument> args, const std::string& stream) {
    return InsertCall(graph_, before, CallSpec(target, std::move(args), {}, CallHint(target)), stream, registry_);
  }

  Graph& graph_;
  const OpRegistry& registry_;
  const OpSchemaTable& schemas_;
};

Result<bool> RunDecomposeAutoFunctionalized(Graph& graph, PassContext& context) {
  if (context.config.disable_reinplace_input_mutated_ops_pass) {
    context.remarks.push_back("skipped: " +
                              SwitchedOff(context.config, &TorchAirConfig::disable_reinplace_input_mutated_ops_pass));
    return false;
  }
  if (CompareVersions(context.env.torch_version, "2.6") < 0) {
    context.remarks.push_back(fmt::format("skipped: needs torch >= 2.6 (f2a:28-37 import guard); assumed torch {}",
                                          context.env.torch_version));
    return false;
  }
  Decomposer decomposer(graph, context);
  int decomposed = 0;
  int decomposed_v1 = 0;
  for (Node* node : graph.Nodes()) {
    if (node->erased()) continue;
    bool v1 = IsTarget(*node, "higher_order.auto_functionalized");
    if (!v1 && !IsTarget(*node, "higher_order.auto_functionalized_v2")) continue;
    std::string why = v1 ? decomposer.DecomposeV1(node) : decomposer.DecomposeV2(node);
    if (why.empty()) {
      ++(v1 ? decomposed_v1 : decomposed);
    } else {
      context.remarks.push_back(fmt::format("left {} alone: {}", node->name(), why));
    }
  }
  if (decomposed > 0) {
    context.remarks.push_back(fmt::format("decomposed {} auto_functionalized_v2 node(s) (assumed torch {})", decomposed,
                                          context.env.torch_version));
  }
  if (decomposed_v1 > 0) {
    context.remarks.push_back(fmt::format("decomposed {} auto_functionalized node(s) (assumed torch {})", decomposed_v1,
                                          context.env.torch_version));
  }
  decomposed += decomposed_v1;
  return decomposed > 0;
}

}  // namespace

PassInfo DecomposeAutoFunctionalizedPass() {
  return {"decompose_auto_functionalized",
          "auto_functionalized_v2 becomes the mutable op on its (cloned where needed) bases",
          "Inductor's decompose_auto_functionalized (torch/_inductor/fx_passes/post_grad.py), which TorchAir calls "
          "after reinplace_input_mutated_ops, in the same branch (fx2acl_converter.py:281-288; imported only with "
          "torch >= 2.6, f2a:28-37: airscope checks env.torch_version and says which it assumed). Each "
          "auto_functionalized_v2 node becomes auto_functionalized_dense_v2: the bases listed in "
          "only_clone_these_tensors (all bases when reinplace_input_mutated_ops did not run) are cloned "
          "preserving strides (as_strided to a flat buffer, clone, as_strided back); each mutable argument is "
          "regenerated from its base (_x_alias -> alias, _x_size/_x_stride/_x_storage_offset -> as_strided, "
          "_x_slice_* -> slice, else the base itself); the mutable op is called on them; getitems of the bases "
          "read the new bases, the op's getitems its result. Each auto_functionalized (v1) node becomes "
          "auto_functionalized_dense: its mutable arguments (by the op's schema, from `op define`) are cloned "
          "the same way unless reinplaced, the op is called on them, getitems past the op's outputs read them "
          "(a Tensor[] argument's through a second getitem). The call is written as make_fx records it: with "
          "the op's schema, arguments in schema order, positional ones positionally, keyword-only ones as "
          "kwargs. Switch: config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass skips it. airscope "
          "simplifies: without a schema the op's arguments are passed positionally, non-mutable ones first, and "
          "its output count is taken from the node's tuple meta, else one; storage offsets of cloned bases are "
          "taken as 0; v1 nodes without a schema and v2 Tensor[] mutable arguments (_x_length) are left alone "
          "with a note.",
          PassKind::kPipeline,
          RunDecomposeAutoFunctionalized,
          {},
          EffectPolicy::kPreserveWrites,
          PassOrigin::kTorchAir};
}

}  // namespace airscope
