// op: what a session knows about custom operators beyond the op registry:
// their schemas (torch.library's define) and TorchAir's inplaceable_npu_ops
// entries (the functional multi-inplace op, its in-place op, the arguments it
// mutates), as TorchAir's tests register them.
#include <charconv>

#include <fmt/format.h>

#include "core/scanner.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr std::string_view kOpSyntax = "op define|inplaceable|list ...";

Status OpDefine(CommandContext& ctx) {
  if (ctx.args.size() != 2) return Status::Error("usage: op define \"SCHEMA\"");
  const Word& word = ctx.args[1];
  // Read where it was typed: an error points into the command line (the interpreter quotes it).
  AIRSCOPE_ASSIGN_OR_RETURN(OpSchema schema, ParseOpSchema(word.text, WordOrigin(word)));
  std::string target = schema.Target();
  std::vector<std::string> mutable_args = schema.MutableArgNames();
  Status added = ctx.session.schemas().Add(std::move(schema));
  if (!added.ok()) return ColumnError(word.column, added.message());
  ctx.out.Print("defined {}{}", target,
                mutable_args.empty() ? std::string(" (mutates nothing)")
                                     : fmt::format(" (mutates {})", fmt::join(mutable_args, ", ")));
  return Status::Ok();
}

// An op is known when it has a schema or an op registry entry.
bool KnownOp(Session& session, std::string_view target) {
  return session.schemas().Find(target) != nullptr || session.registry().Find(target) != nullptr;
}

Status OpInplaceable(CommandContext& ctx) {
  const auto& args = ctx.args;
  if (args.size() != 4) return Status::Error("usage: op inplaceable FUNCTIONAL INPLACE I,J,...");
  InplaceableNpuOp op;
  op.functional = std::string(StripTorchOps(args[1].text));
  op.inplace = std::string(StripTorchOps(args[2].text));
  for (size_t i : {size_t{1}, size_t{2}}) {
    std::string_view target = StripTorchOps(args[i].text);
    if (!KnownOp(ctx.session, target)) {
      // register_inplaceable_npu_op skips ops torch.ops.npu lacks (graph_pass.py:146-150);
      // airscope says so instead of registering nothing.
      return ColumnErrorf(args[i].column, "unknown op '{}': give its schema first with `op define`", target);
    }
  }
  std::string_view text = args[3].text;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view piece = text.substr(pos, end - pos);
    size_t index = 0;
    auto [ptr, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), index);
    if (piece.empty() || ec != std::errc() || ptr != piece.data() + piece.size()) {
      return ColumnErrorf(args[3].column + pos, "'{}' is not an argument index (0, 1, ...)", piece);
    }
    op.mutated_args.push_back(index);
    pos = end + 1;
  }
  if (const OpSchema* schema = ctx.session.schemas().Find(op.functional)) {
    for (size_t index : op.mutated_args) {
      if (index >= schema->arguments.size() || schema->arguments[index].kwarg_only) {
        return ColumnErrorf(args[3].column, "{} has no positional argument {} ({})", op.functional, index,
                            schema->text);
      }
    }
  }
  Status status = ctx.session.inplaceable().Register(op);
  if (!status.ok()) return ColumnErrorf(args[3].column, "{}", status.message());
  ctx.out.Print("inplaceable: {} -> {}, mutated args [{}]", op.functional, op.inplace,
                fmt::join(op.mutated_args, ", "));
  return Status::Ok();
}

Status OpList(CommandContext& ctx) {
  const OpSchemaTable& schemas = ctx.session.schemas();
  ctx.out.Add("schemas:");
  for (const OpSchema* schema : schemas.All()) {
    ctx.out.Print("  {:<7}  {}", schemas.IsBuiltin(schema->Target()) ? "builtin" : "user", schema->text);
  }
  const InplaceableNpuOps& ops = ctx.session.inplaceable();
  ctx.out.Add("inplaceable_npu_ops (graph_pass.py:129-170):");
  for (const InplaceableNpuOp& op : ops.All()) {
    ctx.out.Print("  {:<7}  {} -> {}, mutated args [{}]", ops.IsBuiltin(op) ? "builtin" : "user", op.functional,
                  op.inplace, fmt::join(op.mutated_args, ", "));
  }
  return Status::Ok();
}

Status Op(CommandContext& ctx) {
  if (ctx.args.empty()) {
    return Status::Error("usage: op define \"SCHEMA\" | op inplaceable FUNCTIONAL INPLACE I,J,... | op list");
  }
  const std::string& form = ctx.args[0].text;
  if (form == "define") return OpDefine(ctx);
  if (form == "inplaceable") return OpInplaceable(ctx);
  if (form == "list") {
    if (ctx.args.size() != 1) return Status::Error("usage: op list");
    return OpList(ctx);
  }
  return ColumnErrorf(ctx.args[0].column, "unknown op form '{}' (define, inplaceable, list)", form);
}

}  // namespace

void RegisterOpCommands(CommandTable& table) {
  table.Add({"op", std::string(kOpSyntax), "custom op schemas and TorchAir's inplaceable (multi-inplace) ops",
             "op define \"SCHEMA\" | op inplaceable FUNCTIONAL INPLACE I,J,... | op list\n\n"
             "  op define \"custom::sin(Tensor x, Tensor(a!) result) -> None\"\n"
             "      as torch.library.Library('custom', 'FRAGMENT').define(...): the op's signature in torch's\n"
             "      schema syntax. Passes read it where TorchAir reads the op's _schema: which arguments an\n"
             "      auto_functionalized (v1) node mutates (get_mutable_args), the argument order and return\n"
             "      count when decompose_auto_functionalized calls the op, how many outputs a functional\n"
             "      multi-inplace op has. Defining the same text again is accepted; another schema for the\n"
             "      same name and overload is refused, as torch refuses it.\n"
             "  op inplaceable custom.sin_cos_functional.default custom.sin_cos_inplace.default 1,2\n"
             "      an entry of TorchAir's inplaceable_npu_ops (graph_pass.py:129-170), as\n"
             "      register_inplaceable_npu_op adds the npu ones and TorchAir's tests add custom ones\n"
             "      (tests/st/torchair_st_stub_aclgraph_utils.py:562-574): both reinplace passes turn\n"
             "      FUNCTIONAL into INPLACE when the arguments at the given indices may be written. Both\n"
             "      ops must be known (op define, or airscope's op registry); the stream check is\n"
             "      check_multi_stream_for_multi_reinplace, TorchAir's default.\n"
             "  op list\n"
             "      the schemas (builtin: the torch_npu functional ops TorchAir reinplaces) and the entries.\n"
             "airscope simplifies: types are kept as text (only Tensor and Tensor[] matter to it); no\n"
             "shape rule comes with a schema, so a custom op's values come from the graph's annotations.",
             Op, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"define", "inplaceable", "list"}};
               return CompletionRule{};
             }});
}

}  // namespace airscope
