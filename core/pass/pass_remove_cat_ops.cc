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
#include "core/analysis/stream_util.h"
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

bool IsSingleSymbol(const std::string& expr) {
  return !expr.empty() && std::isalpha(static_cast<unsigned char>(expr[0])) &&
         std::all_of(expr.begin(), expr.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// construct_fx_node_shape for one size: an int, or the SymInt placeholder of
// a single symbol. nullopt for a compound expression (TorchAir builds nodes
// computing it; airscope does not, and skips the cat). A single symbol that is
// no SymInt input is TorchAir's RuntimeError.
Result<std::optional<Argument>> SizeArg(const Dim& dim, const std::map<std::string, Node*>& sym_inputs) {
  if (dim.is_static()) return std::optional<Argument>(Argument::Int(dim.value()));
  if (!IsSingleSymbol(dim.symbol())) return std::optional<Argument>();
  auto it = sym_inputs.find(dim.symbol());
  if (it == sym_inputs.end()) {
    return Status::Errorf(
        "Unexpected sym output shape {} which is not in all sym inputs of the graph "
        "(TorchAir's construct_fx_node_shape raises RuntimeError)",
        dim.symbol());
  }
  return std::optional<Argument>(Argument::NodeRef(it->second));
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
Result<bool> RewriteCat(Graph& graph, Node* cat, const std::string& stream, const OpRegistry& registry,
                        std::vector<std::string>& remarks) {
  std::vector<Node*> tensors;
  for (const Argument& item : cat->args()[0].items()) tensors.push_back(item.as_node());
  const TensorMeta* out = cat->tensor();
  if (!out) {
    remarks.push_back(fmt::format("{}: skipped, its value is not one tensor", cat->name()));
    return false;
  }
  const std::map<std::string, Node*> sym_inputs =
      HasSymbol(*out) ? SymIntPlaceholders(graph) : std::map<std::string, Node*>{};
  FlatNodeMap<size_t> order = Positions(graph);
  Node* first = *std::min_element(tensors.begin(), tensors.end(),
                                  [&](const Node* a, const Node* b) { return order.At(a) < order.At(b); });

  std::vector<Argument> shape;
  for (const Dim& d : out->sizes) {
    AIRSCOPE_ASSIGN_OR_RETURN(std::optional<Argument> resolved, SizeArg(d, sym_inputs));
    const std::optional<Argument>& size = resolved;
    if (!size) {
      remarks.push_back(
          fmt::format("{}: skipped, airscope does not build nodes for the size {}", cat->name(), d.symbol()));
      return false;
    }
    shape.push_back(*size);
  }
  std::vector<Argument> sizes;
  for (Node* input : tensors) {
    const Dim& d = input->tensor()->sizes.empty() ? Dim(0) : input->tensor()->sizes[0];
    if (!d.is_static() && sym_inputs.empty()) return false;  // TorchAir: break, cat kept
    AIRSCOPE_ASSIGN_OR_RETURN(std::optional<Argument> resolved, SizeArg(d, sym_inputs));
    const std::optional<Argument>& size = resolved;
    if (!size) {
      remarks.push_back(
          fmt::format("{}: skipped, airscope does not build nodes for the size {}", cat->name(), d.symbol()));
      return false;
    }
    sizes.push_back(*size);
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
    Argument next = Sum(graph, last_offset, false, offsets.back(), sizes[i - 1], registry);
    if (next.is_node()) last_offset = next.as_node();
    offsets.push_back(next);
  }

  std::vector<std::pair<Node*, Node*>> replacements;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Node* input = tensors[i];
    Argument end = Sum(graph, input, true, offsets[i], sizes[i], registry);
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
    context.remarks.push_back(
        "skipped: config.debug.aclgraph.remove_cat_ops is false (TorchAir does not run the pass)");
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
  int optimized = 0;
  for (Node* cat : cats) {
    std::string reason = Invalid(*cat, cat_set);
    if (!reason.empty()) {
      context.remarks.push_back(fmt::format("skip {}: {}", cat->name(), reason));
      continue;
    }
    std::string name = cat->name();
    AIRSCOPE_ASSIGN_OR_RETURN(bool rewritten, RewriteCat(graph, cat, labels.At(cat), registry, context.remarks));
    if (!rewritten) continue;
    cat_set.erase(cat);
    ++optimized;
    context.remarks.push_back(fmt::format("{} now writes into one aten.empty buffer", name));
  }
  return optimized > 0;
}

}  // namespace

PassInfo RemoveCatOpsPass() {
  return {"remove_cat_ops", "cat along dim 0 becomes one buffer its inputs write into (.out ops)",
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
          "airscope's table of torch's schemas (out_variant_table.cc), not a schema lookup; a size that is a\n"
          "compound symbolic expression (2*s0) skips the cat with a remark where TorchAir builds nodes for it;\n"
          "an input whose value is not one tensor skips the cat (TorchAir would raise).",
          PassKind::kPipeline, RunRemoveCatOps};
}

}  // namespace airscope
