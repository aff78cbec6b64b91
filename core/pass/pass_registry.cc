#include <algorithm>
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
  // The pipeline rows of builtin_passes.def, in its order (TorchAir's).
  static const std::vector<std::string> kPipeline = [] {
    std::vector<std::string> names;
    for (PassInfo (*make)() : BuiltinPassFactories()) {
      PassInfo info = make();
      if (info.kind == PassKind::kPipeline) names.push_back(std::move(info.name));
    }
    return names;
  }();
  return kPipeline;
}

const std::vector<std::string>& NpugraphExPipeline() {
  static const std::vector<std::string> kPipeline = [] {
    std::vector<std::string> names = DefaultPipeline();
    auto at = std::find(names.begin(), names.end(), "decompose_auto_functionalized");
    names.insert(at == names.end() ? at : at + 1, "eliminate_self_copy");
    return names;
  }();
  return kPipeline;
}

}  // namespace airscope
