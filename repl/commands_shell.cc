// Shell commands: help, echo, set, source, quit.
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "repl/command_table.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

Status Help(CommandContext& ctx) {
  const CommandTable& table = ctx.interpreter.table();
  if (ctx.args.empty()) {
    // The syntax column is as wide as the syntaxes up to kWidest; a longer
    // one (a command with many flags) has a line of its own, its summary
    // under it in the summary column, so one command cannot widen them all.
    constexpr size_t kWidest = 66;
    size_t width = 0;
    for (const CommandSpec& spec : table.commands()) {
      if (spec.syntax.size() <= kWidest) width = std::max(width, spec.syntax.size());
    }
    ctx.out.Styled(Style::kHeading, "commands (any unique prefix works; help COMMAND for details):");
    for (const CommandSpec& spec : table.commands()) {
      if (spec.syntax.size() > width) {
        ctx.out.Print("  {}", spec.syntax);
        ctx.out.Print("  {:<{}}  {}", "", width, spec.summary);
      } else {
        ctx.out.Print("  {:<{}}  {}", spec.syntax, width, spec.summary);
      }
    }
    std::vector<std::string> aliases;
    for (const CommandAlias& alias : table.aliases())
      aliases.push_back(fmt::format("{} = {}", alias.alias, alias.command));
    if (!aliases.empty()) ctx.out.Print("aliases: {}", fmt::join(aliases, ", "));
    ctx.out.Print("{}", InteractiveKeysHelp());
    return Status::Ok();
  }
  if (ctx.args.size() == 2 && ctx.args[0].text == "pass") {
    const PassInfo* pass = ctx.session.passes().Find(ctx.args[1].text);
    if (!pass)
      return Status::Errorf("no pass named '{}'{} (pass list shows them)", ctx.args[1].text,
                            PassSuggestion(ctx.session, ctx.args[1].text));
    std::string_view kind = pass->kind == PassKind::kPipeline   ? "pipeline"
                            : pass->kind == PassKind::kOptional ? "optional"
                                                                : "user";
    ctx.out.Styled(Style::kHeading, "pass {} ({} pass): {}", pass->name, kind, pass->summary);
    ctx.out.AddBlock(pass->help);
    // What the effect check after the pass (core/pass/effect_check.h) holds it to.
    switch (pass->effects) {
      case EffectPolicy::kPreserveValues:
        ctx.out.Add(
            "Effect check: the inputs it writes, the values written into them and the values reaching the\n"
            "outputs must stay the same.");
        break;
      case EffectPolicy::kPreserveAliasing:
        ctx.out.Add(
            "Effect check: which inputs it writes and which outputs alias inputs must stay the same; the\n"
            "values are not compared (its rewrite uses ops the check cannot prove equal).");
        break;
      case EffectPolicy::kPreserveWrites:
        ctx.out.Add(
            "Effect check: which inputs it writes must stay the same; outputs may come to alias inputs\n"
            "(TorchAir's rewrite runs the op on the input's own buffer) and values are not compared.");
        break;
      case EffectPolicy::kUnchecked: ctx.out.Add("Effect check: none (its help says why)."); break;
    }
    if (pass->effects != EffectPolicy::kUnchecked) {
      ctx.out.Add(pass->origin == PassOrigin::kTorchAir
                      ? "A difference is TorchAir's own behaviour (TorchAir runs no such check): the stage keeps\n"
                        "the pass's result and `run` prints a warning naming what changed."
                      : "A difference rolls the pass back (set check.effects off to skip the check).");
    }
    return Status::Ok();
  }
  if (ctx.args.size() != 1) return Status::Error("usage: help [COMMAND] | help pass NAME");
  AIRSCOPE_ASSIGN_OR_RETURN(const CommandSpec* spec, table.Lookup(ctx.args[0].text));
  ctx.out.Styled(Style::kHeading, "{}", spec->syntax);
  ctx.out.AddBlock(spec->help);
  return Status::Ok();
}

Status Echo(CommandContext& ctx) {
  std::string text;
  for (size_t i = 0; i < ctx.args.size(); ++i) {
    if (i) text += ' ';
    text += ctx.args[i].text;
  }
  ctx.out.Add(text);
  return Status::Ok();
}

Status Set(CommandContext& ctx) {
  Settings& settings = ctx.session.settings();
  if (ctx.args.empty()) {
    for (const SettingSpec& spec : settings.specs()) {
      ctx.out.Print("{:<16} {:<12} {}", spec.name, settings.Get(spec.name), spec.help);
    }
    return Status::Ok();
  }
  std::vector<std::string> words;
  for (const auto& word : ctx.args) words.push_back(word.text);
  // `set NAME = VALUE`: a line of a pasted Python config (config.x.y = False).
  if (words.size() == 3 && words[1] == "=") words.erase(words.begin() + 1);
  if (words[0] == "input") return SetInputShape(ctx, words);
  bool device = words[0].rfind("device.", 0) == 0;
  if (words.size() == 1 && !device) {
    const SettingSpec* spec = settings.Find(words[0]);
    if (!spec) return settings.Set(words[0], "");  // the unknown-setting message
    ctx.out.Print("{} {}", spec->name, settings.Get(spec->name));
    return Status::Ok();
  }
  if (words.size() != 2) return Status::Error("usage: set [NAME [VALUE]] (or set NAME = VALUE)");
  // device.* names are the simulated device's parameters (see commands_device.cc).
  if (device) return SetDeviceParameter(ctx.session, std::string_view(words[0]).substr(7), words[1]);
  return settings.Set(words[0], words[1]);
}

// `shell CMD` / `!CMD`: CMD through /bin/sh, its output (stdout and stderr)
// shown as the command's; a non-zero exit fails the line, as in gdb.
Status Shell(CommandContext& ctx) {
  if (ctx.args.empty()) return Status::Error("usage: shell COMMAND (or !COMMAND)");
  std::string command;
  for (const Word& word : ctx.args) command += (command.empty() ? "" : " ") + word.text;
  std::fflush(nullptr);
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return Status::Errorf("shell: cannot run /bin/sh: {}", std::strerror(errno));
  std::string output;
  char buffer[4096];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
  int status = ::pclose(pipe);
  ctx.out.AddBlock(output, Style::kData);
  if (status == -1) return Status::Errorf("shell: lost the command: {}", std::strerror(errno));
  if (WIFSIGNALED(status)) return Status::Errorf("shell: `{}` was killed by signal {}", command, WTERMSIG(status));
  if (WEXITSTATUS(status) != 0)
    return Status::Errorf("shell: `{}` exited with status {}", command, WEXITSTATUS(status));
  return Status::Ok();
}

// apropos WORD: every command, setting and pass whose name or text mentions WORD.
Status Apropos(CommandContext& ctx) {
  if (ctx.args.size() != 1) return Status::Error("usage: apropos WORD");
  auto lower = [](std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string word = lower(ctx.args[0].text);
  auto mentions = [&](std::string_view text) { return lower(text).find(word) != std::string::npos; };
  size_t found = 0;
  for (const CommandSpec& spec : ctx.interpreter.table().commands()) {
    if (spec.name == "apropos") continue;  // its own help names example words
    if (!mentions(spec.name) && !mentions(spec.summary) && !mentions(spec.help)) continue;
    ctx.out.Print("  {:<12} {}", spec.name, spec.summary);
    ++found;
  }
  for (const SettingSpec& setting : ctx.session.settings().specs()) {
    if (!mentions(setting.name) && !mentions(setting.help)) continue;
    ctx.out.Print("  set {:<24} {}", setting.name, setting.help);
    ++found;
  }
  for (const PassInfo* pass : ctx.session.passes().All()) {
    if (!mentions(pass->name) && !mentions(pass->summary) && !mentions(pass->help)) continue;
    ctx.out.Print("  pass {:<40} {}", pass->name, pass->summary);
    ++found;
  }
  if (found == 0) ctx.out.Print("nothing mentions '{}'", ctx.args[0].text);
  return Status::Ok();
}

Status Source(CommandContext& ctx) {
  if (ctx.args.size() != 1) return Status::Error("usage: source FILE");
  return ctx.interpreter.RunScript(ctx.interpreter.ResolvePath(ctx.args[0].text));
}

Status Quit(CommandContext& ctx) {
  if (!ctx.args.empty()) return Status::Error("usage: quit");
  ctx.session.RequestQuit();
  return Status::Ok();
}

}  // namespace

void RegisterShellCommands(CommandTable& table) {
  table.Add({"help", "help [COMMAND] | help pass NAME", "list commands, or explain one (or a pass)",
             "Without an argument, lists every command. With one, shows its syntax and full help.\n"
             "`help pass NAME` shows what pass NAME does and which TorchAir step it models.",
             Help, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kCommand, {}};
               if (before.size() == 1 && before[0] == "pass") return CompletionRule{CompletionKind::kPass, {}};
               return CompletionRule{};
             }});
  table.Add({"echo", "echo TEXT...", "print the words given",
             "Prints its arguments separated by single spaces; "
             "useful to label the output of scripts.",
             Echo, nullptr});
  table.Add({"set", "set [NAME [VALUE]] | set input NAME SHAPE", "show or change a setting (set alone lists them all)",
             "Without arguments lists every setting with its value; `set NAME` shows one. `set on-error continue`\n"
             "makes a script go on after a failing line (it still exits 1 at the end); `set color never` turns\n"
             "colour off; `set max-file-size BYTES` bounds what load reads.\n"
             "`set input x f32[8, 64]` gives the current graph's input x that shape and infers every other shape\n"
             "from it again (print(gm.graph) states none, so costs are unknown until then); the graph's pipeline\n"
             "and compile cache start again, as for a graph loaded anew.",
             Set, [](const std::vector<std::string>& before) {
               return CompletionRule{before.empty() ? CompletionKind::kSetting : CompletionKind::kNone, {}};
             }});
  table.Add({"shell", "shell COMMAND", "run COMMAND in /bin/sh (also !COMMAND)",
             "Runs COMMAND with /bin/sh -c and shows what it prints (stdout and stderr). A non-zero exit\n"
             "status fails the line, so a script stops there. Example: !ls dumps   shell diff a.fx b.fx",
             Shell, [](const std::vector<std::string>&) {
               return CompletionRule{CompletionKind::kFile, {}};
             }});
  table.Add({"apropos", "apropos WORD", "commands, settings and passes whose name or help mentions WORD",
             "Searches every command's name, summary and help, every setting and every registered pass,\n"
             "ignoring case. Example: apropos stride   apropos capture",
             Apropos, nullptr});
  table.Add({"source", "source FILE", "run the commands in FILE (scripts nest up to 16 deep)",
             "Runs an .airscript file line by line, as if typed. A failing line is reported as FILE:LINE and\n"
             "stops the file (unless on-error is continue); the source command then fails too.",
             Source, [](const std::vector<std::string>&) {
               return CompletionRule{CompletionKind::kFile, {}};
             }});
  table.Add(
      {"quit", "quit", "leave airscope", "Ends the session (Ctrl-D does the same interactively).", Quit, nullptr});
}

}  // namespace airscope
