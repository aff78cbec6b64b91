// decomp: the session's decomposition table (what the `decompose` pass
// applies): list its entries, add user templates.
#include <fmt/format.h>

#include "core/scanner.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr std::string_view kDecompSyntax = "decomp list|add [TARGET \"TEMPLATE\"]";

Status DecompList(CommandContext& ctx) {
  std::vector<const Decomposition*> entries = ctx.session.decompositions().All();
  if (entries.empty()) {
    ctx.out.Add("no decompositions");
    return Status::Ok();
  }
  size_t width = 0;
  for (const Decomposition* e : entries) width = std::max(width, e->target.size());
  for (const Decomposition* e : entries) {
    ctx.out.Print("{:<{}}  {:<7}  {}", e->target, width, e->builtin ? "builtin" : "user", e->description);
  }
  return Status::Ok();
}

Status DecompAdd(CommandContext& ctx) {
  if (ctx.args.size() != 3) return Status::Errorf("usage: decomp add TARGET \"TEMPLATE\"");
  const Word& target = ctx.args[1];
  const Word& text = ctx.args[2];
  // The table is changed only when the template parses (AddTemplate builds first). Its errors point into the
  // command line, where the template was typed (the interpreter quotes the line).
  // A $N past the arguments of the op's schema (op define, or a builtin one) is refused with a caret at it.
  bool unchecked = false;
  Status status = ctx.session.decompositions().AddTemplate(target.text, text.text, WordOrigin(text),
                                                           &ctx.session.schemas(), &unchecked);
  if (!status.ok()) return status.WithPrefix(fmt::format("template for {}", target.text));
  ctx.out.Print("decomposition for {} added", StripTorchOps(target.text));
  if (unchecked) {
    // airscope keeps no schemas of aten's ops: say that $1... went unchecked, rather than imply it was.
    ctx.out.Styled(Style::kDim,
                   "  note: airscope has no schema of {}, so its $N are not checked against the op's arguments "
                   "(op define \"SCHEMA\" gives one); a node with fewer arguments is left as it is, and the "
                   "decompose pass says so",
                   StripTorchOps(target.text));
  }
  return Status::Ok();
}

Status Decomp(CommandContext& ctx) {
  if (ctx.args.empty()) return Status::Errorf("usage: {}", kDecompSyntax);
  const std::string& form = ctx.args[0].text;
  if (form == "list") {
    if (ctx.args.size() != 1) return Status::Error("usage: decomp list");
    return DecompList(ctx);
  }
  if (form == "add") return DecompAdd(ctx);
  return ColumnErrorf(ctx.args[0].column, "unknown decomp form '{}' (list, add)", form);
}

}  // namespace

void RegisterDecompCommands(CommandTable& table) {
  table.Add({"decomp", std::string(kDecompSyntax), "list the decomposition table or add a template entry",
             std::string(kDecompSyntax) +
                 "\n\n"
                 "The `decompose` pass rewrites every call whose target has an entry in this table.\n"
                 "  decomp list      every entry: target, builtin or user, what it becomes\n"
                 "  decomp add aten.silu.default \"aten.mul.Tensor($0, aten.sigmoid.default($0))\"\n"
                 "A template is one call expression over the node's positional arguments $0, $1, ...;\n"
                 "calls nest, keyword arguments are name=value, literals read as in Python (1, 0.5,\n"
                 "None, True, [0, 1], 'tanh', torch.float32). A user entry replaces an entry for the\n"
                 "same target (builtin ones included). Template errors name the column. A $N past the\n"
                 "positional arguments of the op's schema (one `op define` gave, or a builtin torch_npu one)\n"
                 "is refused; airscope keeps no schemas of aten's ops, so there $N is not checked (a note\n"
                 "says so) and a node with fewer arguments is left undecomposed (the pass's remark counts it).",
             Decomp, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"list", "add"}};
               return CompletionRule{};
             }});
}

}  // namespace airscope
