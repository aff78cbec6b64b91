// Operator schemas in torch's FunctionSchema syntax
// (`custom::sin_cos(Tensor x, Tensor(a!) out_sin, Tensor(b!) out_cos) -> None`),
// as torch.library.Library.define takes them. airscope's op registry knows
// shapes and costs, not signatures; the passes that need a signature (which
// arguments an op mutates, their order, how many values it returns) ask an
// OpSchemaTable: a few builtin torch_npu schemas plus the ones a session
// defines with `op define`.
//
// Parsed: the qualified name and overload, each argument's type, name,
// alias annotation (`(a!)` = written), default (kept as text) and whether it
// is keyword-only (after `*`); each return's type. Types are kept as text
// (`Tensor`, `Tensor?`, `Tensor[]`, `int[2]`, `SymInt[]?`); airscope only
// asks whether a type is a tensor or a tensor list.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scanner.h"
#include "core/status.h"

namespace airscope {

struct SchemaArgument {
  std::string name;                          // "" for an unnamed return
  std::string type;                          // without the alias annotation: "Tensor[]"
  std::string alias;                         // "a" for Tensor(a!) / Tensor(a); "" when none
  bool is_write = false;                     // Tensor(a!): the op writes this argument
  bool kwarg_only = false;                   // after `*`
  std::optional<std::string> default_value;  // the text after `=`

  bool IsTensor() const;      // Tensor or Tensor?
  bool IsTensorList() const;  // Tensor[] (or Tensor?[])
};

struct OpSchema {
  std::string ns;        // "custom"
  std::string name;      // "sin_cos"
  std::string overload;  // "" for the default overload
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaArgument> returns;  // `-> ()` has none; `-> None` one of type None
  std::string text;                     // as given, trimmed

  // The FX target without `torch.ops.`: "custom.sin_cos.default".
  std::string Target() const;
  // torch's OpOverload._name: "custom::sin_cos", "custom::custom_infer.out".
  std::string QualifiedName() const;
  // torch._higher_order_ops.auto_functionalize.get_mutable_args: the names
  // of the written arguments, in schema order.
  std::vector<std::string> MutableArgNames() const;
  // How many values a call returns: 1 for `-> None` or a single return,
  // the count of a tuple return (0 for `-> ()`).
  size_t ReturnCount() const { return returns.size(); }
  const SchemaArgument* Argument(std::string_view name) const;
};

// Parses `ns::name[.overload](args) -> returns` (the grammar is at the top
// of op_schema.cc). Errors point at the spot, in core/scanner.h's format:
// by default "column 27: expected ')' to close the alias annotation" and the
// schema quoted with a caret; `origin` places the text elsewhere (op define
// gives the schema word's columns on the command line, which the shell
// quotes).
Result<OpSchema> ParseOpSchema(std::string_view text, const SourceOrigin& origin = {.filename = {}, .line = 0});

// Schemas by target ("custom.sin.default"), builtin ones first.
class OpSchemaTable {
 public:
  // The torch_npu schemas TorchAir's passes depend on (the functional
  // multi-inplace ops of graph_pass.py:158-170, as TorchAir's converters
  // quote them).
  static const OpSchemaTable& Builtin();

  // torch.library's define: an op defined once. Defining the same text again
  // is accepted (a script sourced twice); another schema for the same
  // qualified name and overload is refused with torch's message.
  Status Define(std::string_view text);
  // Define for a schema already parsed.
  Status Add(OpSchema schema);
  const OpSchema* Find(std::string_view target) const;  // with or without "torch.ops."
  std::vector<const OpSchema*> All() const;             // by target
  bool IsBuiltin(std::string_view target) const;

 private:
  std::map<std::string, OpSchema, std::less<>> schemas_;
  std::map<std::string, bool, std::less<>> builtin_;
};

}  // namespace airscope
