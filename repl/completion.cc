#include "repl/completion.h"

#include <algorithm>

#include <fmt/format.h>

#include "repl/tokenizer.h"

namespace airscope {

Completion Complete(const CommandTable& table, const Session& session, std::string_view line) {
  Completion result;
  // Words before the one being typed; an unterminated quote just means "no completion".
  size_t word_start = line.find_last_of(" \t");
  word_start = word_start == std::string_view::npos ? 0 : word_start + 1;
  std::string_view partial = line.substr(word_start);
  Result<std::vector<Word>> before = Tokenize(line.substr(0, word_start));
  if (!before.ok()) return result;

  std::vector<std::string> options;
  if (before->empty()) {
    options = table.NamesWithPrefix(partial);
  } else {
    Result<const CommandSpec*> spec = table.Lookup(before->front().text);
    if (!spec.ok()) return result;
    const CommandSpec& command = **spec;
    // The declared flags come out of the words as the interpreter takes them
    // out (repl/command_flags.h): the command's completer sees the positional
    // words; right after a flag that takes a value, its values are offered.
    std::vector<std::string> args;
    std::vector<std::string> flags_left;
    const FlagSpec* pending = nullptr;
    for (size_t i = 1; i < before->size(); ++i) {
      const Word& w = (*before)[i];
      if (pending) {
        pending = nullptr;
        continue;
      }
      const FlagSpec* flag = w.quoted ? nullptr : FindFlag(command.flags, w.text);
      if (!flag) {
        args.push_back(w.text);
        continue;
      }
      if (!flag->value.empty()) pending = flag;
    }
    for (const FlagSpec& f : command.flags) {
      bool given = std::any_of(before->begin() + 1, before->end(), [&](const Word& w) { return w.text == f.name; });
      if (!given) flags_left.push_back(f.name);
    }
    CompletionRule rule;
    if (pending) {
      rule = pending->values;
    } else if (partial.starts_with("-") && !command.flags.empty()) {
      rule = {CompletionKind::kFixed, flags_left};
    } else {
      if (command.completer) rule = command.completer(args);
      if (rule.kind == CompletionKind::kNone || rule.kind == CompletionKind::kFixed) {
        rule.kind = CompletionKind::kFixed;
        rule.fixed.insert(rule.fixed.end(), flags_left.begin(), flags_left.end());
      }
    }
    switch (rule.kind) {
      case CompletionKind::kNone: return result;
      case CompletionKind::kFile: result.files = true; return result;
      case CompletionKind::kFixed: options = rule.fixed; break;
      case CompletionKind::kCommand:
        for (const CommandSpec& c : table.commands()) options.push_back(c.name);
        break;
      case CompletionKind::kSetting:
        for (const SettingSpec& s : session.settings().specs()) options.push_back(s.name);
        break;
      case CompletionKind::kGraph:
        for (const Session::Entry& e : session.graphs()) options.push_back(e.name);
        break;
      case CompletionKind::kNode:
        if (const Graph* graph = session.current_graph()) {
          for (const Node* n : *graph) options.push_back(n->name());
        }
        break;
      case CompletionKind::kPass:
        for (const PassInfo* pass : session.passes().All()) options.push_back(pass->name);
        for (const std::string& pass : session.settings().DefaultPasses()) options.push_back(pass);
        if (const Session::Entry* current = session.current(); current && current->pipeline) {
          for (const std::string& pass : current->pipeline->passes()) options.push_back(pass);
        }
        break;
      case CompletionKind::kBuffer:
        for (const Handle& h : session.device().buffers.handles()) options.push_back(h.name);
        break;
      case CompletionKind::kCallInput:
        // After `in`: the buffers the caller holds (or a new name).
        if (!args.empty() && args.back() == "in") {
          for (const Handle& h : session.device().buffers.handles()) options.push_back(h.name);
          break;
        }
        // After a spec: its flags, and the command's own (call's `keep`);
        // those of the AclGraph runtime only in reduce-overhead mode.
        if (!args.empty() && args.back().find('=') != std::string::npos) {
          options.push_back("grad");
          if (session.settings().CapturesAclGraphs()) {
            options.push_back("in");
            options.push_back("param");
            for (const std::string& flag : rule.fixed) options.push_back(flag);
          }
        }
        // `x=f32[2,2]`: the input's traced spec, ready to edit; inputs already given are left out.
        if (const Graph* graph = session.current_graph()) {
          for (const Node* p : graph->Placeholders()) {
            bool given = std::any_of(args.begin(), args.end(),
                                     [&](const std::string& a) { return a.starts_with(p->name() + "="); });
            if (given) continue;
            const TensorMeta* t = p->tensor();
            std::string spec;
            if (t && t->dtype != DType::kUnknown) spec = t->ToAnnotation();
            spec.erase(std::remove(spec.begin(), spec.end(), ' '), spec.end());
            options.push_back(fmt::format("{}={}", p->name(), spec));
          }
        }
        break;
      case CompletionKind::kStage:
        options = {"input", "last"};
        if (const Session::Entry* current = session.current(); current && current->pipeline) {
          for (const StageRecord& stage : current->pipeline->stages()) {
            options.push_back(fmt::format("{}", stage.number));
            if (stage.number > 0) options.push_back(stage.pass);
          }
        }
        break;
    }
  }
  for (std::string& option : options) {
    if (option.compare(0, partial.size(), partial) == 0) result.candidates.push_back(std::move(option));
  }
  std::sort(result.candidates.begin(), result.candidates.end());
  result.candidates.erase(std::unique(result.candidates.begin(), result.candidates.end()), result.candidates.end());
  return result;
}

}  // namespace airscope
