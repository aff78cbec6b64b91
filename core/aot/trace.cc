// TraceToAten: rebuilds a Dynamo graph as the aten graph AOT autograd traces
// from it (aot.h). Inputs follow aot_module_simplified: the module's
// parameters and buffers first (`full_args = [*params_flat, *args]`), then
// the user inputs; Dynamo's text does not say which get_attr is a parameter
// and which a buffer, so lifted tensors keep their first-use order.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "core/analysis/node_util.h"
#include "core/aot/aot.h"
#include "core/aot/aot_builder.h"
#include "core/aot/lowering_util.h"
#include "core/aot/torch_functions.h"
#include "core/text.h"

namespace airscope {
namespace {

bool IsTensorAttr(const Node& node) {
  return node.op() == OpKind::kGetAttr && node.meta() && node.meta()->kind == ValueKind::kTensor;
}

// `torch.ops.NS.OP` (an OpOverloadPacket): the overload the dispatcher
// records is `.default`; higher-order ops have no overloads. "" when `target`
// is not a packet.
std::string PacketOverload(std::string_view target) {
  if (target.substr(0, 10) != "torch.ops.") return "";
  std::string_view rest = target.substr(10);
  size_t dot = rest.find('.');
  if (dot == std::string_view::npos || rest.find('.', dot + 1) != std::string_view::npos) return "";
  if (rest.substr(0, dot) == "higher_order") return "";
  return fmt::format("{}.default", rest);
}

// Dynamo's annotation is the truth about the value a call stands for: it is
// kept when the registry inferred nothing, or the same sizes and dtype
// (the annotation also states strides and device, which inference leaves out).
void PreferAnnotation(Node* made, const Node& dynamo, AtenBuilder& b) {
  const NodeMeta* stated = dynamo.meta();
  if (!stated || stated->source != MetaSource::kAnnotated) return;
  if (stated->kind != ValueKind::kTensor && stated->kind != ValueKind::kTuple) return;
  const TensorMeta* inferred = made->tensor();
  const TensorMeta* annotated = stated->tensor();
  bool agree = inferred && annotated && inferred->sizes == annotated->sizes && inferred->dtype == annotated->dtype;
  if (made->meta() && !agree) return;
  NodeMeta meta = *stated;
  // A node made without meta took no comment yet (AtenBuilder::Call): it takes it now.
  meta.stack_trace = made->meta() ? made->meta()->stack_trace : b.TraceForNext();
  made->set_meta(std::move(meta));
}

std::vector<Kwarg> MapKwargs(const AtenBuilder& b, const std::vector<Kwarg>& kwargs) {
  std::vector<Kwarg> out;
  for (const Kwarg& kw : kwargs) out.push_back({kw.name, b.In(kw.value)});
  return out;
}

}  // namespace

bool IsTorchLevelGraph(const Graph& graph) {
  for (const Node* node : graph) {
    switch (node->op()) {
      case OpKind::kCallMethod:
      case OpKind::kCallModule: return true;
      case OpKind::kGetAttr:
        if (IsTensorAttr(*node)) return true;
        break;
      case OpKind::kPlaceholder:
        if (node->name() != node->target()) return true;  // Dynamo's `l_x_ = L_x_`
        break;
      case OpKind::kCallFunction:
        // operator.getitem is in aten graphs too (of multi-output ops).
        if (node->target() == "operator.getitem") break;
        if (!PacketOverload(node->target()).empty() || !LoweringKey(*node).empty()) return true;
        break;
      case OpKind::kOutput: break;
    }
  }
  return false;
}

Result<std::unique_ptr<Graph>> TraceToAten(const Graph& dynamo, const OpRegistry& registry,
                                           std::vector<std::string>& remarks, const TraceOptions& options) {
  const ModuleTable* modules = options.modules;
  if (!dynamo.output()) return Status::Error("graph has no output node");
  auto out = std::make_unique<Graph>(dynamo.name());
  out->mutable_style() = dynamo.style();
  AtenBuilder b(*out, registry);

  // Inputs: lifted parameters/buffers, then user inputs, as arg{i}_1.
  std::vector<const Node*> inputs;
  std::vector<std::string> lifted;
  std::set<std::string> seen_attrs;
  for (const Node* node : dynamo) {
    if (IsTensorAttr(*node) && seen_attrs.insert(node->target()).second) {
      inputs.push_back(node);
      lifted.push_back(node->target());
    }
  }
  // Declared modules (first use order): named_parameters() of every module,
  // then named_buffers(), as aot_module_simplified's params_flat lists them.
  struct ModuleInput {
    std::string target, name;  // L__self___fc, weight
    NodeMeta meta;
  };
  std::vector<ModuleInput> module_params, module_buffers;
  std::set<std::string> seen_modules;
  for (const Node* node : dynamo) {
    if (node->op() != OpKind::kCallModule || !modules || !seen_modules.insert(node->target()).second) continue;
    const ModuleSpec* spec = modules->Find(node->target());
    if (!spec) continue;
    // The module's dtype and device: its input's (the repr does not print them).
    const Node* in = !node->args().empty() && node->args()[0].is_node() ? node->args()[0].as_node() : nullptr;
    const TensorMeta* like = in ? in->tensor() : nullptr;
    auto meta_of = [&](const ModuleTensor& t) {
      TensorMeta tensor;
      tensor.dtype = t.int64 ? DType::kInt64 : (like ? like->dtype : DType::kFloat32);
      tensor.device = like ? like->device : "";
      for (int64_t d : t.sizes) tensor.sizes.push_back(Dim(d));
      NodeMeta meta;
      meta.kind = ValueKind::kTensor;
      meta.source = MetaSource::kInferred;
      meta.tensors = {tensor};
      return meta;
    };
    for (const ModuleTensor& t : ModuleParameters(*spec)) module_params.push_back({node->target(), t.name, meta_of(t)});
    for (const ModuleTensor& t : ModuleBuffers(*spec)) module_buffers.push_back({node->target(), t.name, meta_of(t)});
  }
  std::vector<ModuleInput> module_inputs = module_params;
  module_inputs.insert(module_inputs.end(), module_buffers.begin(), module_buffers.end());
  for (const ModuleInput& m : module_inputs) lifted.push_back(fmt::format("{}.{}", m.target, m.name));
  size_t first_module_input = inputs.size();
  for (const Node* node : dynamo.Placeholders()) inputs.push_back(node);
  std::map<std::string, Argument> attr_values;                            // get_attr target -> its placeholder
  std::map<std::string, std::map<std::string, Argument>> module_tensors;  // target -> name -> placeholder
  size_t count = inputs.size() + module_inputs.size();
  for (size_t i = 0; i < count; ++i) {
    std::string name = fmt::format("arg{}_1", i);
    auto placeholder = out->AppendNamed({OpKind::kPlaceholder, name, {}, {}, name});
    if (!placeholder.ok()) return placeholder.status();
    if (i >= first_module_input && i < first_module_input + module_inputs.size()) {
      const ModuleInput& m = module_inputs[i - first_module_input];
      (*placeholder)->set_meta(m.meta);
      module_tensors[m.target][m.name] = Argument::NodeRef(*placeholder);
      continue;
    }
    const Node* input = inputs[i < first_module_input ? i : i - module_inputs.size()];
    if (const NodeMeta* meta = input->meta()) {
      NodeMeta copy = *meta;
      copy.stack_trace.clear();
      (*placeholder)->set_meta(std::move(copy));
    }
    b.Bind(input, Argument::NodeRef(*placeholder));
    if (input->op() == OpKind::kGetAttr) attr_values[input->target()] = Argument::NodeRef(*placeholder);
  }

  int lowered = 0;
  std::vector<std::string> opaque;
  std::string stack_trace;  // the comment printed last above a Dynamo node
  std::vector<std::string> higher_order;
  std::vector<std::string> decomposed_ops, undecomposed;
  for (const Node* node : dynamo) {
    if (node->meta() && !node->meta()->stack_trace.empty()) stack_trace = node->meta()->stack_trace;
    b.Begin(node, stack_trace);
    switch (node->op()) {
      case OpKind::kPlaceholder: continue;
      case OpKind::kGetAttr: {
        if (auto it = attr_values.find(node->target()); it != attr_values.end()) {
          b.Bind(node, it->second);
          continue;
        }
        // A submodule (a higher-order op's subgraph): stays an attribute.
        Node* attr = out->Append({OpKind::kGetAttr, node->target(), {}, {}, node->name()});
        if (node->meta()) attr->set_meta(*node->meta());
        b.Bind(node, Argument::NodeRef(attr));
        continue;
      }
      case OpKind::kOutput: {
        std::vector<Argument> args;
        for (const Argument& arg : node->args()) args.push_back(b.In(arg));
        auto output = out->AppendNamed({OpKind::kOutput, "output", std::move(args), {}, "output"});
        if (!output.ok()) return output.status();
        continue;
      }
      default: break;
    }
    std::vector<Argument> args;
    for (const Argument& arg : node->args()) args.push_back(b.In(arg));
    std::vector<Kwarg> kwargs = MapKwargs(b, node->kwargs());
    std::string why;
    std::optional<Argument> value;
    if (node->op() == OpKind::kCallFunction) {
      std::string_view target = node->target();
      std::string packet = PacketOverload(target);
      if (target.substr(0, 10) == "torch.ops.") {
        std::string overload = packet.empty() ? std::string(target.substr(10)) : packet;
        if (IsTorchAirDecomposed(overload)) {
          std::string decomposition_why;
          LoweringResult decomposed =
              ApplyTorchAirDecomposition(b, overload, args, kwargs, options.world_size, &decomposition_why);
          if (decomposed) {
            b.Bind(node, *decomposed);
            ++lowered;
            decomposed_ops.push_back(node->name());
            continue;
          }
          undecomposed.push_back(fmt::format("'{}' ({}): {}", node->name(), overload, decomposition_why));
        }
        // An op already: aten (or a custom op) is recorded as dispatched.
        Node* call = b.Call(packet.empty() ? std::string(target) : packet, args, kwargs);
        if (target.substr(0, 23) == "torch.ops.higher_order.") higher_order.push_back(call->name());
        PreferAnnotation(call, *node, b);
        b.Bind(node, Argument::NodeRef(call));
        if (!packet.empty()) ++lowered;
        continue;
      }
    }
    std::string key = LoweringKey(*node);
    if (const LoweringFn* rule = key.empty() ? nullptr : FindLowering(key)) {
      size_t before = out->size();
      value = (*rule)(b, TorchCall{key, args, kwargs, node}, &why);
      if (value) {
        if (value->is_node() && out->size() > before && value->as_node() == out->back()) {
          PreferAnnotation(value->as_node(), *node, b);
        }
        b.Bind(node, *value);
        ++lowered;
        continue;
      }
    } else if (node->op() == OpKind::kCallModule) {
      if (const ModuleSpec* spec = modules ? modules->Find(node->target()) : nullptr) {
        size_t before = out->size();
        value = LowerModule(b, *spec, module_tensors[node->target()], TorchCall{spec->type, args, kwargs, node}, &why);
        if (value) {
          if (value->is_node() && out->size() > before && value->as_node() == out->back()) {
            PreferAnnotation(value->as_node(), *node, b);
          }
          b.Bind(node, *value);
          ++lowered;
          continue;
        }
        why = fmt::format("declared {}: {}", spec->text, why);
      } else {
        why = fmt::format(
            "its type is not in Dynamo's text; declare it as print(model) shows it: `module {} TYPE(ARGS)`, "
            "e.g. Linear(in_features=64, out_features=256, bias=True) (help module)",
            node->target());
      }
    } else {
      why = "no lowering rule for it";
    }
    // Opaque: kept with its target and Dynamo's meta.
    Node* kept = out->Append({node->op(), node->target(), std::move(args), std::move(kwargs), node->name()});
    if (node->meta()) {
      NodeMeta meta = *node->meta();
      meta.stack_trace = b.TraceForNext();
      kept->set_meta(std::move(meta));
    }
    b.Bind(node, Argument::NodeRef(kept));
    opaque.push_back(
        fmt::format("Dynamo's '{}' ({} {}): {}", node->name(), OpKindName(node->op()), node->target(), why));
  }
  remarks.push_back(fmt::format("traced the Dynamo graph to aten: {} torch-level call(s) lowered, {} input(s)", lowered,
                                inputs.size()));
  if (!lifted.empty()) {
    remarks.push_back(
        fmt::format("lifted get_attr {}tensor(s) to the first inputs, as aot_module_simplified does "
                    "with parameters and buffers: {}",
                    module_inputs.empty() ? "" : "and module ", JoinAtMost(lifted, 8)));
  }
  if (!higher_order.empty()) {
    remarks.push_back(
        fmt::format("kept higher-order op(s) {} with their subgraphs as Dynamo wrote them (AOT "
                    "renames and lowers the subgraphs; airscope does not)",
                    JoinAtMost(higher_order, 8)));
  }
  if (!decomposed_ops.empty()) {
    remarks.push_back(
        fmt::format("applied TorchAir's decomposition table (ui:455-464) to {}", fmt::join(decomposed_ops, ", ")));
  }
  for (const std::string& note : undecomposed) {
    remarks.push_back("TorchAir decomposes this op, airscope could not: " + note);
  }
  for (const std::string& note : opaque) remarks.push_back("kept opaque: " + note);
  return out;
}

}  // namespace airscope
