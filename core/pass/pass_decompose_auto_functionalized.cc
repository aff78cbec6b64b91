// decompose_auto_functionalized: Inductor's pass of that name
// (torch/_inductor/fx_passes/post_grad.py), which TorchAir runs right after
// reinplace_input_mutated_ops (f2a:281-288). Each auto_functionalized_v2
// node becomes what auto_functionalized_dense_v2 does: clone the bases in
// only_clone_these_tensors (clone_preserve_strides), regenerate every mutable
// argument as a view of its (possibly cloned) base, call the mutable op on
// them, and make the getitems of the bases read the new bases.
#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"
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
  Decomposer(Graph& graph, PassContext& context) : graph_(graph), registry_(RegistryOf(context)) {}

  // Why `node` cannot be decomposed, or "" after decomposing it.
  std::string Decompose(Node* node) {
    if (node->args().empty()) return "no mutable op argument";
    const Argument& op_arg = node->args()[0];
    if (op_arg.kind() != Argument::Kind::kRaw && op_arg.kind() != Argument::Kind::kString) {
      return "the mutable op is not an op name";
    }
    std::string op = op_arg.as_string();
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
    std::vector<Argument> plain;
    for (const Kwarg& k : node->kwargs()) {
      if (k.name.ends_with("_length")) return fmt::format("Tensor[] argument {} is not supported", k.name);
      if (k.name.starts_with("_") && k.name.ends_with("_base_index")) {
        mutable_names.push_back(k.name.substr(1, k.name.size() - 1 - std::string("_base_index").size()));
      } else if (!k.name.starts_with("_")) {
        plain.push_back(k.value);
      }
    }
    // Check every base can be cloned before changing anything.
    for (int64_t i : clone) {
      if (i < 0 || static_cast<size_t>(i) >= bases.size()) return "only_clone_these_tensors out of range";
      const TensorMeta* t = TensorOf(bases[i]);
      if (t == nullptr || !Static(t->sizes) || !Static(t->EffectiveStrides())) {
        return fmt::format("base {} has no static shape to clone", bases[i]->name());
      }
    }
    std::string stream = node->stream();
    std::vector<Node*> new_bases;
    for (size_t i = 0; i < bases.size(); ++i) {
      if (!clone.count(static_cast<int64_t>(i))) {
        new_bases.push_back(bases[i]);
        continue;
      }
      // clone_preserve_strides: as_strided(x, (needed,), (1,), 0).clone() viewed back with x's layout.
      const TensorMeta* t = TensorOf(bases[i]);
      std::vector<int64_t> sizes = *Static(t->sizes), strides = *Static(t->EffectiveStrides());
      int64_t needed = 1;
      for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == 0) needed = 0;
        if (needed != 0) needed += (sizes[d] - 1) * strides[d];
      }
      Node* flat = Insert(node, "aten.as_strided.default",
                          {Argument::NodeRef(bases[i]), Ints({needed}), Ints({1}), Argument::Int(0)}, stream);
      Node* copy = Insert(node, "aten.clone.default", {Argument::NodeRef(flat)}, stream);
      new_bases.push_back(Insert(node, "aten.as_strided.default",
                                 {Argument::NodeRef(copy), Ints(sizes), Ints(strides), Argument::Int(0)}, stream));
    }
    // Regenerate each mutable argument from its new base (read_view_information_from_args).
    std::vector<Argument> mutable_args;
    for (const std::string& name : mutable_names) {
      std::string prefix = "_" + name;
      const Argument* index = node->kwarg(prefix + "_base_index");
      if (index == nullptr || index->is_none()) {
        mutable_args.push_back(Argument::None());
        continue;
      }
      Node* base = new_bases.at(static_cast<size_t>(index->as_int()));
      if (node->kwarg(prefix + "_alias")) {
        mutable_args.push_back(Argument::NodeRef(Insert(node, "aten.alias.default", {Argument::NodeRef(base)}, stream)));
      } else if (const Argument* offset = node->kwarg(prefix + "_storage_offset")) {
        mutable_args.push_back(Argument::NodeRef(
            Insert(node, "aten.as_strided.default",
                   {Argument::NodeRef(base), AsList(*node->kwarg(prefix + "_size")),
                    AsList(*node->kwarg(prefix + "_stride")), *offset},
                   stream)));
      } else if (const Argument* dim = node->kwarg(prefix + "_slice_dim")) {
        mutable_args.push_back(Argument::NodeRef(
            Insert(node, "aten.slice.Tensor",
                   {Argument::NodeRef(base), *dim, *node->kwarg(prefix + "_slice_start"),
                    *node->kwarg(prefix + "_slice_end")},
                   stream)));
      } else {
        mutable_args.push_back(Argument::NodeRef(base));
      }
    }
    // The op's arguments positionally: airscope has no schema, so it assumes
    // the mutable arguments come last (as in custom.sin/sin_cos/boo).
    std::vector<Argument> call_args = plain;
    call_args.insert(call_args.end(), mutable_args.begin(), mutable_args.end());
    Node* call = InsertCall(graph_, node, CallSpec(op, std::move(call_args), {}, CallHint(op)), stream, registry_);
    // Outputs: (*op outputs, *new bases). The op's output count comes from the
    // node's tuple meta when known, else one (a None or single-tensor result).
    size_t num_outputs = 1;
    if (meta != nullptr && meta->kind == ValueKind::kTuple && meta->tensors.size() >= bases.size() &&
        !meta->tensors.empty()) {
      num_outputs = meta->tensors.size() - bases.size();
    }
    std::vector<Node*> getitems(node->users().begin(), node->users().end());
    for (Node* getitem : getitems) {
      if (!IsTarget(*getitem, "operator.getitem") || getitem->args().size() < 2 ||
          getitem->args()[1].kind() != Argument::Kind::kInt) {
        continue;
      }
      size_t k = static_cast<size_t>(getitem->args()[1].as_int());
      if (k >= num_outputs && k - num_outputs < new_bases.size()) {
        graph_.ReplaceAllUsesWith(getitem, new_bases[k - num_outputs]);
      } else if (k < num_outputs && num_outputs == 1) {
        graph_.ReplaceAllUsesWith(getitem, call);
      } else if (k < num_outputs) {
        graph_.SetArgs(getitem, {Argument::NodeRef(call), getitem->args()[1]});
        continue;
      }
      if (getitem->users().empty()) (void)graph_.Erase(getitem);
    }
    if (node->users().empty()) (void)graph_.Erase(node);
    return "";
  }

 private:
  static Argument AsList(const Argument& value) {
    return value.is_sequence() ? Argument::List({value.items().begin(), value.items().end()}) : value;
  }

  Node* Insert(Node* before, std::string_view target, std::vector<Argument> args, const std::string& stream) {
    return InsertCall(graph_, before, CallSpec(target, std::move(args), {}, CallHint(target)), stream, registry_);
  }

  Graph& graph_;
  const OpRegistry& registry_;
};

Result<bool> RunDecomposeAutoFunctionalized(Graph& graph, PassContext& context) {
  if (context.config.disable_reinplace_input_mutated_ops_pass) {
    context.remarks.push_back(
        "skipped: config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass is set (f2a:281-288)");
    return false;
  }
  if (CompareVersions(context.env.torch_version, "2.6") < 0) {
    context.remarks.push_back(fmt::format("skipped: needs torch >= 2.6 (f2a:28-37 import guard); assumed torch {}",
                                          context.env.torch_version));
    return false;
  }
  Decomposer decomposer(graph, context);
  int decomposed = 0;
  for (Node* node : graph.Nodes()) {
    if (node->erased()) continue;
    if (IsTarget(*node, "higher_order.auto_functionalized")) {
      context.remarks.push_back(fmt::format("left {} alone: auto_functionalized (v1) needs the op's schema",
                                            node->name()));
      continue;
    }
    if (!IsTarget(*node, "higher_order.auto_functionalized_v2")) continue;
    std::string why = decomposer.Decompose(node);
    if (why.empty()) {
      ++decomposed;
    } else {
      context.remarks.push_back(fmt::format("left {} alone: {}", node->name(), why));
    }
  }
  if (decomposed > 0) {
    context.remarks.push_back(fmt::format("decomposed {} auto_functionalized_v2 node(s) (assumed torch {})",
                                          decomposed, context.env.torch_version));
  }
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
          "read the new bases, the op's getitems its result. Switch: "
          "config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass skips it. airscope simplifies: without "
          "op schemas the op's arguments are passed positionally, non-mutable ones first; the op's output count "
          "is taken from the node's tuple meta, else one; storage offsets of cloned bases are taken as 0; "
          "auto_functionalized (v1) and Tensor[] mutable arguments are left alone with a remark.",
          PassKind::kPipeline, RunDecomposeAutoFunctionalized, {}, EffectPolicy::kPreserveWrites};
}

}  // namespace airscope
