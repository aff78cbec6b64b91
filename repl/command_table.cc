#include "repl/command_table.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

void CommandTable::Add(CommandSpec spec) {
  auto pos = std::lower_bound(commands_.begin(), commands_.end(), spec.name,
                              [](const CommandSpec& a, const std::string& name) { return a.name < name; });
  commands_.insert(pos, std::move(spec));
}

Result<const CommandSpec*> CommandTable::Lookup(std::string_view word) const {
  std::vector<const CommandSpec*> matches;
  for (const CommandSpec& spec : commands_) {
    if (spec.name == word) return &spec;
    if (spec.name.compare(0, word.size(), word) == 0) matches.push_back(&spec);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) return Status::Errorf("unknown command \"{}\" (try help)", word);
  std::vector<std::string_view> names;
  for (const CommandSpec* m : matches) names.push_back(m->name);
  return Status::Errorf("ambiguous command \"{}\": {}", word, fmt::join(names, ", "));
}

std::vector<std::string> CommandTable::NamesWithPrefix(std::string_view prefix) const {
  std::vector<std::string> out;
  for (const CommandSpec& spec : commands_) {
    if (spec.name.compare(0, prefix.size(), prefix) == 0) out.push_back(spec.name);
  }
  return out;
}

CommandTable BuildCommandTable() {
  CommandTable table;
  RegisterGraphCommands(table);
  RegisterShellCommands(table);
  RegisterExpectCommand(table);
  RegisterDeviceCommands(table);
  RegisterCacheCommands(table);
  RegisterPassCommands(table);
  RegisterDecompCommands(table);
  RegisterPipelineCommands(table);
  return table;
}

}  // namespace airscope
