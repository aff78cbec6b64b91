// Placeholder until the decompose pass lands: an empty builtin table.
#include "core/pass/decomposition.h"

namespace airscope {

DecompositionTable DecompositionTable::Builtin() { return DecompositionTable(); }

void DecompositionTable::Add(Decomposition entry) {
  std::string key = entry.target;
  entries_[key] = std::move(entry);
}

Status DecompositionTable::AddTemplate(std::string_view target, std::string_view) {
  return Status::Errorf("no template support yet for '{}'", target);
}

const Decomposition* DecompositionTable::Find(std::string_view target) const {
  auto it = entries_.find(StripTorchOps(target));
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<const Decomposition*> DecompositionTable::All() const {
  std::vector<const Decomposition*> out;
  for (const auto& [name, entry] : entries_) out.push_back(&entry);
  return out;
}

}  // namespace airscope
