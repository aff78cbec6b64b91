// Pass commands: `pass define NAME` ... `end` (a user pass in the rewrite
// language, core/pass/rewrite_language.h), `pass add|remove pre|post NAME`
// (the post_grad_custom_pre_pass / post_grad_custom_post_pass stages), `pass list`, and `plugin load PATH`
// (C++ pass plugins, core/pass/plugin_api.h).
#include <algorithm>

#include <fmt/format.h>

#include "core/pass/rewrite_language.h"
#include "core/suggest.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

constexpr std::string_view kPassUsage =
    "usage: pass define NAME | pass add pre|post NAME | pass remove pre|post NAME | pass list";

std::string JoinOrNone(const std::vector<std::string>& names) {
  return names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "));
}

Status Define(CommandContext& ctx) {
  if (ctx.args.size() != 2) return Status::Error("usage: pass define NAME (then the rules, then 'end')");
  std::string name = ctx.args[1].text;
  if (!Graph::IsLegalName(name)) return Status::Errorf("'{}' is not a usable pass name (letters, digits, _)", name);
  const PassInfo* existing = ctx.session.passes().Find(name);
  if (existing && existing->kind != PassKind::kUser) {
    return Status::Errorf("'{}' is a builtin pass; choose another name", name);
  }
  Session& session = ctx.session;
  ctx.interpreter.BeginBlock(
      fmt::format("pass define {}", name), "end",
      [&session, name](const BlockLines& block) {
        AIRSCOPE_ASSIGN_OR_RETURN(PassInfo info, DefineRewritePass(name, block.lines, block.first_line, block.origin));
        // The name was checked when the block opened; a plugin may have taken it since.
        return session.passes().Register(std::move(info));
      },
      [](std::string_view line, size_t number) -> Status {
        size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#') return Status::Ok();
        Result<RewriteProgram> rule = ParseRewriteProgram({std::string(line)}, number);
        return rule.ok() ? Status::Ok() : rule.status();
      });
  return Status::Ok();
}

Result<std::vector<std::string>*> Stage(CommandContext& ctx, const std::string& which) {
  if (which == "pre") return &ctx.session.custom_pre_passes();
  if (which == "post") return &ctx.session.custom_post_passes();
  return Status::Errorf("expected 'pre' or 'post', got '{}'", which);
}

Status AddOrRemove(CommandContext& ctx, bool add) {
  if (ctx.args.size() != 3) return Status::Errorf("usage: pass {} pre|post NAME", add ? "add" : "remove");
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<std::string> * stage, Stage(ctx, ctx.args[1].text));
  const std::string& name = ctx.args[2].text;
  std::string stage_name = ctx.args[1].text == "pre" ? "post_grad_custom_pre_pass" : "post_grad_custom_post_pass";
  std::vector<std::string>& list = *stage;
  auto found = std::find(list.begin(), list.end(), name);
  if (add) {
    const PassInfo* pass = ctx.session.passes().Find(name);
    if (!pass)
      return Status::Errorf("no pass named '{}'{} (pass list shows them)", name, PassSuggestion(ctx.session, name));
    if (pass->name == "post_grad_custom_pre_pass" || pass->name == "post_grad_custom_post_pass") {
      return Status::Errorf("'{}' cannot run inside {} (it would run itself)", name, stage_name);
    }
    if (found != list.end()) return Status::Errorf("'{}' is already in {}", name, stage_name);
    list.push_back(name);
  } else {
    if (found == list.end()) {
      return Status::Errorf("'{}' is not in {} (it holds: {})", name, stage_name, JoinOrNone(list));
    }
    list.erase(found);
  }
  ctx.out.Print("{}: {}", stage_name, JoinOrNone(list));
  return Status::Ok();
}

Status List(CommandContext& ctx) {
  if (ctx.args.size() != 1) return Status::Error("usage: pass list");
  const PassRegistry& passes = ctx.session.passes();
  std::vector<const PassInfo*> all = passes.All();
  size_t width = 0;
  for (const PassInfo* pass : all) width = std::max(width, pass->name.size());
  auto row = [&](const PassInfo& pass) { ctx.out.Print("  {:<{}}  {}", pass.name, width, pass.summary); };
  ctx.out.Styled(Style::kHeading, "pipeline passes, in order:");
  for (const std::string& name : DefaultPipeline()) {
    if (const PassInfo* pass = passes.Find(name)) {
      row(*pass);
    } else {
      ctx.out.Print("  {:<{}}  (not available in this build)", name, width);
    }
  }
  for (PassKind kind : {PassKind::kOptional, PassKind::kUser}) {
    ctx.out.Styled(Style::kHeading, "{} passes:", kind == PassKind::kOptional ? "optional" : "user");
    size_t shown = 0;
    for (const PassInfo* pass : all) {
      if (pass->kind != kind) continue;
      row(*pass);
      ++shown;
    }
    if (shown == 0) ctx.out.Print("  (none)");
  }
  ctx.out.Print("post_grad_custom_pre_pass: {}", JoinOrNone(ctx.session.custom_pre_passes()));
  ctx.out.Print("post_grad_custom_post_pass: {}", JoinOrNone(ctx.session.custom_post_passes()));
  return Status::Ok();
}

Status Pass(CommandContext& ctx) {
  if (ctx.args.empty()) return Status::Error(std::string(kPassUsage));
  const std::string& sub = ctx.args[0].text;
  if (sub == "define") return Define(ctx);
  if (sub == "add") return AddOrRemove(ctx, true);
  if (sub == "remove") return AddOrRemove(ctx, false);
  if (sub == "list") return List(ctx);
  return Status::Errorf("unknown pass subcommand '{}' ({})", sub, kPassUsage);
}

Status Plugin(CommandContext& ctx) {
  if (ctx.args.size() != 2 || ctx.args[0].text != "load") return Status::Error("usage: plugin load PATH.so");
  std::string path = ctx.interpreter.ResolvePath(ctx.args[1].text);
  AIRSCOPE_ASSIGN_OR_RETURN(LoadedPlugin loaded, ctx.session.plugins().Load(path, ctx.session.passes()));
  ctx.out.Print("loaded plugin {}: {}", path, fmt::join(loaded.passes, ", "));
  return Status::Ok();
}

}  // namespace

std::string PassSuggestion(const Session& session, std::string_view name) {
  std::vector<std::string> names;
  for (const PassInfo* pass : session.passes().All()) names.push_back(pass->name);
  return DidYouMean(name, names);
}

void RegisterPassCommands(CommandTable& table) {
  table.Add({"pass", "pass define|add|remove|list ...",
             "define user passes and register them as post_grad_custom_pre/post_pass",
             "pass define NAME        start a user pass in the rewrite language; the following lines, up to a\n"
             "                        line 'end', are its rules:\n"
             "                          on PATTERN: ACTION\n"
             "                        PATTERN: a target glob in either spelling (aten.mm.default, aten.*) or\n"
             "                        'name GLOB'. ACTION: insert before [$REF] CALL [as NAME] |\n"
             "                        insert after [$REF] CALL [as NAME] | replace with CALL [as NAME] | erase |\n"
             "                        set stream STREAM (wraps the node in air.scope_enter(['_user_stream_label'],\n"
             "                        [STREAM]) / air.scope_exit(), as TorchAir takes streams from those blocks).\n"
             "                        CALL: TARGET(ARGS) with Python literals, $node, $arg0..,\n"
             "                        $NAME (bound by 'as NAME'). Rules run in order, each over every node in\n"
             "                        graph order; nodes a rule inserts are not revisited, so a pass always ends.\n"
             "pass add pre|post NAME  run pass NAME in the post_grad_custom_pre_pass or\n"
             "                        post_grad_custom_post_pass stage, after those already added\n"
             "pass remove pre|post NAME\n"
             "pass list               every pass by kind with its summary, and the pre/post lists\n"
             "`help pass NAME` explains one pass. Example (TorchAir's multi-stream example):\n"
             "  pass define multistream\n"
             "    on aten.mm.default: insert before air.scope_enter.default(['_user_stream_label'], ['stream_1'])\n"
             "    on aten.abs.default: insert after air.record.default() as rec\n"
             "    on aten.abs.default: insert after $rec air.scope_exit.default()\n"
             "    on aten.sub.Tensor: insert before air.wait.default([$rec])\n"
             "  end\n"
             "  pass add pre multistream",
             Pass, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"add", "define", "list", "remove"}};
               if ((before[0] == "add" || before[0] == "remove") && before.size() == 1) {
                 return CompletionRule{CompletionKind::kFixed, {"post", "pre"}};
               }
               if ((before[0] == "add" || before[0] == "remove") && before.size() == 2) {
                 return CompletionRule{CompletionKind::kPass, {}};
               }
               return CompletionRule{};
             }});
  table.Add({"plugin", "plugin load PATH.so", "load a C++ pass plugin (core/pass/plugin_api.h)",
             "Loads a shared object built against this airscope's headers (a CMake MODULE library exporting\n"
             "airscope_plugin_api_version and airscope_plugin_init, see core/pass/plugin_api.h and\n"
             "plugins/seed_multistream) and registers the passes it provides as user passes. A file that is\n"
             "not a plugin, a plugin for another API version or one whose init fails is refused with the\n"
             "reason, and nothing of it is kept; so is anything but a regular file (a FIFO, a device), unopened.\n"
             "Plugins stay loaded for the rest of the process.\n"
             "An installed airscope carries the headers and a CMake package: find_package(airscope), then\n"
             "airscope_add_plugin(NAME SOURCES...) builds one out of tree (the example's source is installed in\n"
             "share/doc/airscope/examples/seed_multistream; `man airscope`, FILES).",
             Plugin, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"load"}};
               return CompletionRule{before.size() == 1 ? CompletionKind::kFile : CompletionKind::kNone, {}};
             }});
}

}  // namespace airscope
