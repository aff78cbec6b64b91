#include <fmt/format.h>

#include "core/pass/pass.h"

namespace airscope {

PassRegistry PassRegistry::WithBuiltins() {
  PassRegistry registry;
  RegisterGraphPasses(registry);
  RegisterStreamPasses(registry);
  return registry;
}

Status PassRegistry::Register(PassInfo info) {
  if (!Graph::IsLegalName(info.name)) return Status::Errorf("'{}' is not a usable pass name", info.name);
  auto it = passes_.find(info.name);
  if (it != passes_.end() && it->second.kind != PassKind::kUser && info.kind == PassKind::kUser) {
    return Status::Errorf("'{}' is a builtin pass; choose another name", info.name);
  }
  passes_[info.name] = std::move(info);
  return Status::Ok();
}

const PassInfo* PassRegistry::Find(std::string_view name) const {
  auto it = passes_.find(name);
  return it == passes_.end() ? nullptr : &it->second;
}

std::vector<const PassInfo*> PassRegistry::All() const {
  std::vector<const PassInfo*> out;
  for (const auto& [name, info] : passes_) out.push_back(&info);
  return out;
}

const std::vector<std::string>& DefaultPipeline() {
  static const std::vector<std::string> kPipeline = {
      "decompose",      "functionalize", "custom_pre",   "remove_noop", "view_to_reshape",
      "custom_post",    "validate_scopes", "remove_cat_ops", "event_closure", "event_record",
      "dce",            "reinplace",     "resolve_stream_markers", "lower"};
  return kPipeline;
}

}  // namespace airscope
