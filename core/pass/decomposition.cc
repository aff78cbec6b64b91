// The decomposition table: builtin entries plus user templates.
#include "core/pass/decomposition.h"

#include <algorithm>
#include <optional>

#include "core/pass/decomp_template.h"

namespace airscope {

DecompositionTable DecompositionTable::Builtin() {
  DecompositionTable table;
  AddBuiltinDecompositions(table);
  return table;
}

void DecompositionTable::Add(Decomposition entry) {
  entry.target = std::string(StripTorchOps(entry.target));
  std::string key = entry.target;
  entries_[key] = std::move(entry);
  ++version_;
}

Status DecompositionTable::AddTemplate(std::string_view target, std::string_view template_text,
                                       const SourceOrigin& origin, const OpSchemaTable* schemas, bool* unchecked) {
  std::string_view key = StripTorchOps(target);
  // A target is namespace.op.overload, as the decompose pass matches it.
  size_t dots = 0;
  for (char c : key) dots += c == '.';
  if (dots != 2 || key.front() == '.' || key.back() == '.' || key.find("..") != std::string_view::npos) {
    return Status::Errorf("'{}' is not an op target (expected e.g. aten.silu.default)", target);
  }
  TemplateCheck check;
  check.target = key;
  std::optional<size_t> max_arg;
  check.max_arg = &max_arg;
  if (const OpSchema* schema = schemas ? schemas->Find(key) : nullptr) {
    check.arity = static_cast<size_t>(std::count_if(schema->arguments.begin(), schema->arguments.end(),
                                                    [](const SchemaArgument& a) { return !a.kwarg_only; }));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(DecompositionFn rewrite, ParseDecompositionTemplate(template_text, origin, check));
  if (unchecked) *unchecked = !check.arity && max_arg && *max_arg >= 1;
  Decomposition entry;
  entry.target = std::string(key);
  entry.description = std::string(template_text);
  entry.builtin = false;
  entry.rewrite = std::move(rewrite);
  Add(std::move(entry));
  return Status::Ok();
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
