// module: declares the torch.nn module type of a call_module target of the
// current graph (Dynamo's text does not print it), so that `aot` can lift
// its parameters and lower its call; lists the declarations.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "core/aot/nn_module.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr std::string_view kModuleSyntax = "module [TARGET TYPE(ARGS...)]";

Status ModuleList(CommandContext& ctx, const Session::Entry& entry) {
  std::set<std::string> targets;
  for (const Node* node : *entry.loaded.graph) {
    if (node->op() == OpKind::kCallModule) targets.insert(node->target());
  }
  if (targets.empty() && (!entry.loaded.modules || entry.loaded.modules->empty())) {
    ctx.out.Print("'{}' calls no submodule", entry.name);
    return Status::Ok();
  }
  for (const std::string& target : targets) {
    const ModuleSpec* spec = entry.loaded.modules ? entry.loaded.modules->Find(target) : nullptr;
    ctx.out.Print("{}  {}", target, spec ? spec->text : "(undeclared: aot keeps its call opaque)");
  }
  if (entry.loaded.modules) {
    for (const auto& [target, spec] : entry.loaded.modules->all()) {
      if (!targets.count(target)) ctx.out.Print("{}  {}  (no call_module of it in the graph)", target, spec.text);
    }
  }
  return Status::Ok();
}

Status Module(CommandContext& ctx) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  if (ctx.args.empty()) return ModuleList(ctx, *entry);
  if (ctx.args.size() < 2) return Status::Errorf("usage: {}", kModuleSyntax);
  const std::string& target = ctx.args[0].text;
  bool called = false;
  for (const Node* node : *entry->loaded.graph)
    called = called || (node->op() == OpKind::kCallModule && node->target() == target);
  if (!called) {
    std::set<std::string> targets;
    for (const Node* node : *entry->loaded.graph) {
      if (node->op() == OpKind::kCallModule) targets.insert(node->target());
    }
    return Status::Errorf(
        "'{}' has no call_module of '{}' ({})", entry->name, target,
        targets.empty() ? "it calls no submodule" : fmt::format("it calls {}", fmt::join(targets, ", ")));
  }
  // The repr is the rest of the line (the shell split it at spaces).
  std::string text = ctx.args[1].text;
  for (size_t i = 2; i < ctx.args.size(); ++i) text += " " + ctx.args[i].text;
  AIRSCOPE_ASSIGN_OR_RETURN(ModuleSpec spec, ParseModuleSpec(text));
  auto table = std::make_shared<ModuleTable>(entry->loaded.modules ? *entry->loaded.modules : ModuleTable());
  table->Set(target, std::move(spec));
  LoadedGraph loaded = entry->loaded;
  loaded.modules = std::move(table);
  std::string name = entry->name;
  bool had_state = entry->pipeline || entry->cache;
  bool replaced = false;
  ctx.session.AddGraph(name, std::move(loaded), &replaced);
  ctx.out.Styled(Style::kGood, "module '{}' of '{}' is {}{}", target, name,
                 ctx.session.current()->loaded.modules->Find(target)->text,
                 had_state ? " (its pipeline and compile cache start again: the graph changed)" : "");
  return Status::Ok();
}

}  // namespace

void RegisterModuleCommands(CommandTable& table) {
  table.Add(
      {"module", std::string(kModuleSyntax), "declare the torch.nn type of a call_module target (aot lowers it)",
       std::string(kModuleSyntax) +
           "\n\n"
           "Dynamo's graph calls submodules without saying what they are (`self.L__self___fc(x)`,\n"
           "`call_module[target=L__self___fc]`): TORCH_LOGS graph_code and TORCH_TRACE's\n"
           "dynamo_output_graph print only forward(). Declare a target's type as print(model) shows it:\n"
           "  module L__self___fc Linear(in_features=64, out_features=256, bias=True)\n"
           "  module L__self___conv Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)\n"
           "  module L__self___act \"GELU(approximate='tanh')\"   (quote a repr with quotes in it, or drop them)\n"
           "`aot` then lifts the module's parameters, then its buffers, as graph inputs after the get_attr\n"
           "tensors (aot_module_simplified's params_flat), with its input's dtype and device (the repr\n"
           "prints neither), and lowers the call as forward() traces in eval mode: Linear -> t + addmm,\n"
           "Conv1d/2d -> convolution, BatchNorm1d/2d -> _native_batch_norm_legit_no_training[0],\n"
           "LayerNorm -> native_layer_norm[0], GroupNorm -> native_group_norm[0], Embedding -> embedding,\n"
           "Dropout and Identity -> the input, ReLU/SiLU/GELU/Tanh/Sigmoid, Softmax -> _softmax,\n"
           "MaxPool2d -> max_pool2d_with_indices[0], AvgPool2d -> avg_pool2d, AdaptiveAvgPool2d ->\n"
           "mean.dim (1x1) or _adaptive_avg_pool2d, Flatten -> view (`help pass aot` cites torch's source).\n"
           "Training mode is not modelled (TorchAir's graphs here are inference graphs). The graph's\n"
           "pipeline and compile cache start again. `module` alone lists every call_module target\n"
           "and its declaration. Known types: " +
           fmt::format("{}.", fmt::join(KnownModuleTypes(), ", ")),
       Module, [](const std::vector<std::string>& before) {
         // The first word is a call_module target (not a node name): `module` lists them.
         if (before.size() == 1) return CompletionRule{CompletionKind::kFixed, KnownModuleTypes()};
         return CompletionRule{};
       }});
}

}  // namespace airscope
