#include <cassert>

#include <fmt/format.h>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass.h"

namespace airscope {

PassRegistry PassRegistry::WithBuiltins() {
  PassRegistry registry;
  for (PassInfo (*make)() : BuiltinPassFactories()) {
    Status status = registry.Register(make());
    assert(status.ok());  // builtin names and aliases are distinct and legal
    (void)status;
  }
  return registry;
}

Status PassRegistry::Register(PassInfo info) {
  if (!Graph::IsLegalName(info.name)) return Status::Errorf("'{}' is not a usable pass name", info.name);
  if (auto alias = aliases_.find(info.name); alias != aliases_.end()) {
    return Status::Errorf("'{}' is another name of the builtin pass '{}'; choose another name", info.name,
                          alias->second);
  }
  auto it = passes_.find(info.name);
  if (it != passes_.end() && it->second.kind != PassKind::kUser && info.kind == PassKind::kUser) {
    return Status::Errorf("'{}' is a builtin pass; choose another name", info.name);
  }
  for (const std::string& alias : info.aliases) {
    if (passes_.count(alias) || (aliases_.count(alias) && aliases_[alias] != info.name)) {
      return Status::Errorf("alias '{}' of pass '{}' is taken", alias, info.name);
    }
    aliases_[alias] = info.name;
  }
  passes_[info.name] = std::move(info);
  ++version_;
  return Status::Ok();
}

const PassInfo* PassRegistry::Find(std::string_view name) const {
  auto it = passes_.find(name);
  if (it != passes_.end()) return &it->second;
  auto alias = aliases_.find(name);
  if (alias == aliases_.end()) return nullptr;
  it = passes_.find(alias->second);
  return it == passes_.end() ? nullptr : &it->second;
}

std::vector<const PassInfo*> PassRegistry::All() const {
  std::vector<const PassInfo*> out;
  for (const auto& [name, info] : passes_) out.push_back(&info);
  return out;
}

const std::vector<std::string>& DefaultPipeline() {
  static const std::vector<std::string> kPipeline = {
      // _compile_graph_with_aot: on Dynamo's torch-level graph, then AOT autograd.
      "replace_stream_event_pass", "aot",
      // _optimize_fx
      "post_grad_custom_pre_pass", "optimize_noop_ops", "recover_view_inplace_pattern", "apply_pattern_passes",
      "view_to_reshape", "post_grad_custom_post_pass", "_valid_graph",
      // AclConcreteGraph.optimize_graph_without_runtime
      "remove_cat_ops", "apply_event_closure_with_multi_stream", "apply_event_record", "eliminate_dead_code",
      "reinplace_inplaceable_ops_pass", "reinplace_input_mutated_ops", "decompose_auto_functionalized",
      "replace_dynamic_workspace_ops", "replace_core_limit_nodes", "resolve_default_stream_markers",
      // airscope: every node becomes a device task on its stream.
      "lower"};
  return kPipeline;
}

}  // namespace airscope
