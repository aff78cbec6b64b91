// remove_cat_ops: TorchAir's optimize_cat_with_out_tensor
// (_acl_concrete_graph/cat_optimization.py:138-253), run by
// AclConcreteGraph.optimize_graph_without_runtime when
// config.debug.aclgraph.remove_cat_ops (fx2acl_converter.py:240-243).
// A cat along dim 0 of tensors made by ops that have an `.out` overload is
// replaced by one buffer (aten.empty) that each op writes its slice of.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "core/analysis/node_util.h"
#include "core/analysis/stream_util.h"
#include "core/analysis/sym_expr_nodes.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/out_variant_table.h"

namespace airscope {
namespace {

constexpr std::string_view kCat = "aten.cat.default";

// _validate_cat_node (cat:72-106). Returns "" when the cat can be optimised,
// else TorchAir's reason (it logs them at DEBUG).
std::string Invalid(const Node& cat, const std::set<const Node*>& cats) {
  if (cat.args().empty()) return "Missing arguments";
  const Argument& tensors = cat.args()[0];
  if (!tensors.is_sequence() || tensors.items().size() < 2) return "Need at least 2 tensors";
  const Argument* dim = cat.args().size() >= 2 ? &cat.args()[1] : cat.kwarg("dim");
  if (dim && (dim->kind() != Argument::Kind::kInt || dim->as_int() != 0)) return "Only supports dim=0";
  if (!cat.meta()) return "Missing output metadata";
  const TensorMeta* prev = nullptr;
  for (size_t i = 0; i < tensors.items().size(); ++i) {
    const Argument& item = tensors.items()[i];
    if (!item.is_node() || item.as_node()->op() != OpKind::kCallFunction) {
      return fmt::format("Input {} is not a function call node", i);
    }
    const Node* input = item.as_node();
    if (!input->meta()) return fmt::format("Input {} missing metadata", i);
    if (OutVariant(input->target()).empty())
      return fmt::format("Input {} op {} has no .out variant", i, input->target());
    for (const Node* user : input->users()) {
      if (user != &cat && cats.contains(user)) return fmt::format("Input {} is shared with another cat node", i);
    }
    // meta['val'].shape of a non-tensor value raises in TorchAir; airscope skips.
    const TensorMeta* curr = input->tensor();
    if (!curr) return fmt::format("Input {} is not one tensor", i);
    if (prev) {
      if (prev->sizes.size() != curr->sizes.size()) return "Incompatible tensor ranks";
      for (size_t d = 1; d < curr->sizes.size(); ++d) {
        if (prev->sizes[d] != curr->sizes[d]) return "Shape mismatch on non-concat dimensions";
      }
    }
    prev = curr;
  }
  return "";
}

// construct_fx_node_shape for one size, checked before anything is built:
// "" when it can be built; why airscope cannot, for an expression it does
// not evaluate (core/analysis/sym_expr_nodes.h); TorchAir's RuntimeError for
// a single symbol that is no SymInt input.
Result<std::string> CheckSize(const Dim& dim, const std::map<std::string, Node*>& sym_inputs,
                              const SymExprNodes& sizes) {
  if (dim.is_static()) return std::string();
  if (dim.is_single_symbol() && !sym_inputs.contains(dim.symbol())) {
    return Status::Errorf(
        "Unexpected sym output shape {} which is not in all sym inputs of the graph "
        "(TorchAir's construct_fx_node_shape raises RuntimeError)",
        dim.symbol());
  }
  return sizes.Check(dim.symbol());
}

// The size as an argument: an int, the SymInt placeholder, or the nodes
// computing the expression, built before `before`. Only after CheckSize.
Result<Argument> SizeArg(const Dim& dim, SymExprNodes& sizes, Node* before) {
  if (dim.is_static()) return Argument::Int(dim.value());
  return sizes.Build(dim.symbol(), before);
}

bool HasSymbol(const TensorMeta& t) {
  return std::any_of(t.sizes.begin(), t.sizes.end(), [](const Dim& d) { return !d.is_static(); });
}

Argument Sum(Graph& graph, Node* position, bool before, const Argument& a, const Argument& b,
             const OpRegistry& registry) {
  if (a.kind() == Argument::Kind::kInt && b.kind() == Argument::Kind::kInt)
    return Argument::Int(a.as_int() + b.as_int());
  return Argument::NodeRef(InsertCall(graph, position, before, "operator.add", {a, b}, {}, &registry));
}

// One cat (cat:160-247). Returns false when a size cannot be expressed.
// `sizes` builds symbolic sizes for the whole pass (its nodes are reused
// by every cat that needs the same size, as TorchAir's are).
Result<bool> RewriteCat(Graph& graph, Node* cat, const std::string& stream, const OpRegistry& registry,
                        SymExprNodes& sizes, const std::map<std::string, Node*>& sym_inputs,
                        std::vector<std::string>& remarks) {
  std::vector<Node*> tensors;
  for (const Argument& item : cat->args()[0].items()) tensors.push_back(item.as_node());
  const TensorMeta* out = cat->tensor();
  if (!out) {
    remarks.push_back(fmt::format("{}: skipped, its value is not one tensor", cat->name()));
    return false;
  }
  // sym_inputs is empty in TorchAir unless the cat's own shape has a symbol.
  const bool symbolic = HasSymbol(*out);
  FlatNodeMap<size_t> order = Positions(graph);
  Node* first = *std::min_element(tensors.begin(), tensors.end(),
                                  [&](const Node* a, const Node* b) { return order.At(a) < order.At(b); });

  // Every size first checked, so a cat airscope cannot rewrite leaves no node behind.
  std::vector<const Dim*> needed;
  for (const Dim& d : out->sizes) needed.push_back(&d);
  std::vector<const Dim*> first_dims;
  const Dim zero(0);  // a 0-d input's "size" (TorchAir would raise at shape[0])
  for (Node* input : tensors) {
    const TensorMeta* t = input->tensor();
    const Dim& d = t->sizes.empty() ? zero : t->sizes[0];
    if (!d.is_static() && !symbolic) return false;  // TorchAir: break, cat kept
    first_dims.push_back(&d);
    needed.push_back(&d);
  }
  for (const Dim* d : needed) {
    AIRSCOPE_ASSIGN_OR_RETURN(std::string why, CheckSize(*d, sym_inputs, sizes));
    if (!why.empty()) {
      remarks.push_back(fmt::format("{}: skipped: {}", cat->name(), why));
      return false;
    }
  }
  std::vector<Argument> shape;
  for (const Dim& d : out->sizes) {
    AIRSCOPE_ASSIGN_OR_RETURN(Argument size, SizeArg(d, sizes, first));
    shape.push_back(size);
  }
  std::vector<Argument> input_sizes;
  for (const Dim* d : first_dims) {
    AIRSCOPE_ASSIGN_OR_RETURN(Argument size, SizeArg(*d, sizes, first));
    input_sizes.push_back(size);
  }

  if (!stream.empty()) {
    InsertCall(
        graph, first, true, kScopeEnter,
        {Argument::List({Argument::String(std::string(kUserStreamLabel))}), Argument::List({Argument::String(stream)})},
        {}, &registry);
  }
  Device device;
  Argument device_arg =
      !out->device.empty() && Device::Parse(out->device, &device) ? Argument::OfDevice(device) : Argument::None();
  Node* buffer = InsertCall(graph, first, true, "aten.empty.memory_format", {Argument::List(shape)},
                            {{"dtype", Argument::OfDType(out->dtype)},
                             {"device", device_arg},
                             {"pin_memory", Argument::Bool(false)},
                             {"memory_format", Argument::None()}},
                            &registry);
  buffer->set_meta(*cat->meta());  // output_tensor.meta['val'] = output_meta
  if (!stream.empty()) InsertCall(graph, first, true, kScopeExit, {}, {}, &registry);

  // Running offsets: ints, or operator.add nodes chained after the buffer.
  std::vector<Argument> offsets = {Argument::Int(0)};
  Node* last_offset = buffer;
  for (size_t i = 1; i < tensors.size(); ++i) {
    Argument next = Sum(graph, last_offset, false, offsets.back(), input_sizes[i - 1], registry);
    if (next.is_node()) last_offset = next.as_node();
    offsets.push_back(next);
  }

  std::vector<std::pair<Node*, Node*>> replacements;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Node* input = tensors[i];
    Argument end = Sum(graph, input, true, offsets[i], input_sizes[i], registry);
    Node* slice = InsertCall(graph, input, true, "aten.slice.Tensor",
                             {Argument::NodeRef(buffer), Argument::Int(0), offsets[i], end}, {}, &registry);
    std::vector<Kwarg> kwargs = input->kwargs();
    kwargs.push_back({"out", Argument::NodeRef(slice)});
    Node* out_op = graph.InsertBefore(input, CallSpec(OutVariant(input->target()), input->args(), std::move(kwargs)));
    out_op->set_meta(*input->meta());  // new_node.meta.update(input_node.meta)
    replacements.emplace_back(input, out_op);
  }
  // The cat goes first: redirecting each input's uses while the cat still
  // held its k-item list rewrote that list k times (k^2 for a 16,000-way
  // cat). TorchAir redirects the inputs first; the graph comes out the same.
  graph.ReplaceAllUsesWith(cat, buffer);
  AIRSCOPE_RETURN_IF_ERROR(graph.Erase(cat));
  for (auto& [old_node, new_node] : replacements) graph.ReplaceAllUsesWith(old_node, new_node);
  for (auto it = replacements.rbegin(); it != replacements.rend(); ++it) {
    if (!it->first->erased() && it->first->users().empty()) AIRSCOPE_RETURN_IF_ERROR(graph.Erase(it->first));
  }
  return true;
}

Result<bool> RunRemoveCatOps(Graph& graph, PassContext& context) {
  if (!context.config.remove_cat_ops) {
    context.remarks.push_back(fmt::format("skipped: {} ({} does not run the pass)",
                                          SwitchedOff(context.config, &TorchAirConfig::remove_cat_ops),
                                          context.config.npugraph_ex ? "npugraph_ex" : "TorchAir"));
    return false;
  }
  std::vector<Node*> cats;
  for (Node* node : graph) {
    if (IsTarget(*node, kCat)) cats.push_back(node);
  }
  if (cats.empty()) return false;
  const StreamLabelMap labels = StreamLabels(graph);
  std::set<const Node*> cat_set(cats.begin(), cats.end());
  const OpRegistry& registry = RegistryOf(context);
  const std::map<std::string, Node*> sym_inputs = SymIntPlaceholders(graph);
  SymExprNodes sizes(graph, sym_inputs, registry);
  int optimized = 0;
  for (Node* cat : cats) {
    std::string reason = Invalid(*cat, cat_set);
    if (!reason.empty()) {
      context.remarks.push_back(fmt::format("skip {}: {}", cat->name(), reason));
      continue;
    }
    std::string name = cat->name();
    AIRSCOPE_ASSIGN_OR_RETURN(bool rewritten,
                              RewriteCat(graph, cat, labels.At(cat), registry, sizes, sym_inputs, context.remarks));
    if (!rewritten) continue;
    cat_set.erase(cat);
    ++optimized;
    context.remarks.push_back(fmt::format("{} now writes into one aten.empty buffer", name));
  }
  return optimized > 0;
}

}  // namespace

PassInfo RemoveCatOpsPass() {
  return {"remove_cat_ops",
          "cat along dim 0 becomes one buffer its inputs write into (.out ops)",
          "TorchAir's optimize_cat_with_out_tensor (_acl_concrete_graph/cat_optimization.py:138-253), run by\n"
          "AclConcreteGraph when config.debug.aclgraph.remove_cat_ops (default true, fx2acl_converter.py:240-243).\n"
          "A cat is optimised when (cat:72-106): it has >= 2 inputs; its dim is the int 0 (absent = 0; -1 or a\n"
          "SymInt is not); it has meta; every input is a call_function with meta whose op has an `.out`\n"
          "overload with the same non-out arguments (cat:31-69) and has no user that is another cat; inputs\n"
          "have equal rank and equal sizes on dims >= 1; every dim-0 size is an int or a SymInt input. Not\n"
          "checked, as in TorchAir: dtypes, other users, graph outputs, strides. Rewrite (cat:160-247): before\n"
          "the earliest input, aten.empty.memory_format(cat's shape, dtype, device, pin_memory=False),\n"
          "between air.scope_enter(['_user_stream_label'], [label]) and scope_exit when the cat runs on a\n"
          "user stream (add_stream_label_to_node_meta); offsets as ints or operator.add nodes; before each\n"
          "input, slice.Tensor(buffer, 0, off, off+size) and `<op>.out(*args, **kwargs, out=slice)` with the\n"
          "input's meta; every use of an input now reads its .out node, every use of the cat the buffer; dead\n"
          "inputs and the cat are erased. airscope simplifies: which ops have a matching `.out` overload is\n"
          "airscope's table of torch's schemas (out_variant_table.cc), not a schema lookup; an input whose value is\n"
          "not one tensor skips the cat (TorchAir would raise). A size that is a symbolic expression (2*s0) gets\n"
          "the nodes TorchAir's construct_fx_node_shape builds by evaluating its text with each symbol a Proxy of\n"
          "its SymInt placeholder (acl_graph.py:607-643): operator.mul(2, arg0_1), one node an operation, built\n"
          "before the earliest input and reused for the same text; airscope evaluates + - * // % ** and\n"
          "parentheses, and skips the cat with a remark for anything else (Max(1, s0), /).",
          PassKind::kPipeline,
          RunRemoveCatOps,
          {},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope
