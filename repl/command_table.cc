#include "repl/command_table.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "core/suggest.h"

namespace airscope {

void CommandTable::Add(CommandSpec spec) {
  if (Find(spec.name) != nullptr) {
    fmt::print(stderr, "airscope: internal error: the command '{}' is registered twice\n", spec.name);
    std::abort();
  }
  auto pos = std::lower_bound(commands_.begin(), commands_.end(), spec.name,
                              [](const CommandSpec& a, const std::string& name) { return a.name < name; });
  commands_.insert(pos, std::move(spec));
}

void CommandTable::AddAlias(std::string alias, std::string command) {
  assert(Find(command) != nullptr);
  aliases_.push_back({std::move(alias), std::move(command)});
}

const CommandSpec* CommandTable::Find(std::string_view name) const {
  for (const CommandSpec& spec : commands_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

Result<const CommandSpec*> CommandTable::Lookup(std::string_view word) const {
  if (const CommandSpec* exact = Find(word)) return exact;
  for (const CommandAlias& alias : aliases_) {
    if (alias.alias == word) return Find(alias.command);
  }
  std::vector<const CommandSpec*> matches;
  for (const CommandSpec& spec : commands_) {
    if (spec.name.compare(0, word.size(), word) == 0) matches.push_back(&spec);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    std::vector<std::string> names;
    for (const CommandSpec& spec : commands_) names.push_back(spec.name);
    for (const CommandAlias& alias : aliases_) names.push_back(alias.alias);
    std::string suggestion = DidYouMean(word, names);
    return Status::Errorf("unknown command \"{}\"{} (try help)", word, suggestion);
  }
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

std::string_view InteractiveKeysHelp() {
  return "Interactively, Enter on an empty line repeats step/next; Ctrl-C drops the line or stops the\n"
         "running command, undoing it (a run stops between passes); Ctrl-D leaves, or abandons a pass define block.";
}

CommandTable BuildCommandTable() {
  CommandTable table;
  RegisterGraphCommands(table);
  RegisterShellCommands(table);
  RegisterExpectCommand(table);
  RegisterDeviceCommands(table);
  RegisterCheckCommand(table);
  RegisterCacheCommands(table);
  RegisterPassCommands(table);
  RegisterDecompCommands(table);
  RegisterOpCommands(table);
  RegisterModuleCommands(table);
  RegisterPipelineCommands(table);
  RegisterPlanCommands(table);
  RegisterReportCommands(table);
  RegisterTraceCommands(table);
  RegisterCompareCommand(table);
  RegisterRuntimeCommands(table);
  RegisterMinifyCommand(table);
  RegisterAdviseCommands(table);
  RegisterNavigateCommands(table);
  RegisterSplitCommand(table);
  RegisterPiecewiseCommand(table);
  RegisterStreamCommand(table);
  // gdb's one-letter habits. `run` continues from the cursor, so it is both c and r.
  table.AddAlias("n", "next");
  table.AddAlias("s", "step");
  table.AddAlias("c", "run");
  table.AddAlias("b", "break");
  table.AddAlias("r", "run");
  table.AddAlias("q", "quit");
  table.AddAlias("exit", "quit");
  return table;
}

}  // namespace airscope
