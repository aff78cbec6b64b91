// See op_schema.h.
#include "core/ops/op_schema.h"

#include <cctype>

#include <fmt/format.h>

#include "core/scanner.h"

namespace airscope {

// The schema grammar, read on the shared Scanner (core/scanner.h) so that an
// error points at its spot; torch's FunctionSchema syntax, the parts
// airscope keeps:
//   schema    NAMESPACE::NAME[.OVERLOAD] ( [argument {, argument}] ) -> returns
//   argument  * | type NAME [= DEFAULT]        (`*`: the arguments after it are keyword-only)
//   type      TYPENAME {suffix} [(alias) {suffix}]   Tensor, int[2], Tensor?[], Tensor(a!)[]
//   suffix    [] | [N] | ?
//   alias     SET [!] [-> SET|* {| SET|*}]        a!, a, a -> *
//   returns   return | ( [return {, return}] )
//   return    type [NAME]
// Whitespace may stand between any two tokens; a type and the name after it
// need some. DEFAULT is kept as text: anything up to a ',' or ')' outside
// brackets, parentheses and Python strings.

namespace {

// torch's names (namespaces, ops, overloads, arguments, alias sets) are ASCII identifiers.
std::string_view Name(Scanner& scan) {
  if (!IsWordChar(scan.Peek()) || IsDigit(scan.Peek())) return {};
  return scan.Word();
}

void SkipSpace(Scanner& scan) { scan.SkipWhitespace(); }

Status ReadQualifiedName(Scanner& scan, OpSchema& schema) {
  size_t start = scan.pos();
  std::string_view ns = Name(scan);
  if (ns.empty()) return scan.ErrorHere("expected the op's name, as in custom::my_op(Tensor x) -> Tensor");
  if (!scan.Consume("::")) {
    size_t after = scan.pos();
    SkipSpace(scan);
    if (scan.pos() > after && scan.LookingAt("::")) return scan.Error(after, "no space may stand before '::'");
    scan.Seek(after);
    if (scan.AtEnd() || scan.PeekIs('(') || scan.PeekIs('.') || std::isspace(static_cast<unsigned char>(scan.Peek()))) {
      scan.SkipWhile([](char c) { return IsWordChar(c) || c == '.'; });
      return scan.Error(start,
                        fmt::format("the op name needs its namespace, as in custom::{} (the Library's namespace)",
                                    scan.Since(start)));
    }
    return scan.ErrorHere(fmt::format("'{}' cannot be in an op name (NAMESPACE::NAME[.OVERLOAD])", scan.Peek()));
  }
  schema.ns = std::string(ns);
  std::string_view name = Name(scan);
  if (name.empty()) return scan.ErrorHere("expected the op's name after '::'");
  schema.name = std::string(name);
  if (scan.Consume('.')) {
    std::string_view overload = Name(scan);
    if (overload.empty()) return scan.ErrorHere("expected an overload name after '.'");
    schema.overload = std::string(overload);
  }
  return Status::Ok();
}

// `(a!)`, `(a)`, `(a -> *)`, the cursor past its '('. The set after `->`
// (where the value's aliases go: torch's view ops) is checked, not kept.
Status ReadAlias(Scanner& scan, SchemaArgument& arg) {
  SkipSpace(scan);
  std::string_view set = Name(scan);
  if (set.empty()) return scan.ErrorHere("expected an alias set name, as in Tensor(a!) or Tensor(a)");
  arg.alias = std::string(set);
  SkipSpace(scan);
  if (scan.Consume('!')) {
    arg.is_write = true;
    SkipSpace(scan);
  }
  if (scan.Consume("->")) {
    do {
      SkipSpace(scan);
      if (!scan.Consume('*') && Name(scan).empty()) return scan.ErrorHere("expected an alias set or '*' after '->'");
      SkipSpace(scan);
    } while (scan.Consume('|'));
  }
  if (!scan.Consume(')')) return scan.ErrorHere("expected ')' to close the alias annotation");
  return Status::Ok();
}

// `[]`, `[2]` and `?` after a type's name (Tensor?[], int[2], SymInt[]?), appended to `type`.
Status ReadTypeSuffixes(Scanner& scan, std::string& type) {
  while (true) {
    size_t start = scan.pos();
    if (scan.Consume('?')) {
      type += '?';
      continue;
    }
    if (!scan.Consume('[')) return Status::Ok();
    scan.Digits();
    if (!scan.Consume(']')) return scan.ErrorHere("expected ']' to end the list type (int[2], Tensor[])");
    type += scan.Since(start);
  }
}

// A type and its alias annotation; `what` names what was expected ("an argument").
Status ReadType(Scanner& scan, SchemaArgument& arg, std::string_view what) {
  arg.type = std::string(scan.While([](char c) { return IsWordChar(c) || c == '.'; }));
  if (arg.type.empty()) return scan.ErrorHere(fmt::format("expected {}", what));
  AIRSCOPE_RETURN_IF_ERROR(ReadTypeSuffixes(scan, arg.type));
  size_t after = scan.pos();
  SkipSpace(scan);
  if (!scan.Consume('(')) {
    scan.Seek(after);
    return Status::Ok();
  }
  AIRSCOPE_RETURN_IF_ERROR(ReadAlias(scan, arg));
  // The rest of the type may follow the annotation: Tensor(a!)[] is a Tensor[].
  after = scan.pos();
  SkipSpace(scan);
  if (!scan.PeekIs('[') && !scan.PeekIs('?')) {
    scan.Seek(after);
    return Status::Ok();
  }
  return ReadTypeSuffixes(scan, arg.type);
}

// The text of a default, the cursor past its '='.
Status ReadDefault(Scanner& scan, SchemaArgument& arg) {
  size_t equals = scan.pos() - 1;
  SkipSpace(scan);
  size_t start = scan.pos();
  std::vector<size_t> open;  // positions of the unclosed '(' and '['
  while (!scan.AtEnd()) {
    char c = scan.Peek();
    if (c == '\'' || c == '"') {
      std::string ignored;
      if (!scan.QuotedString(&ignored)) return scan.Failure();
      continue;
    }
    if (open.empty() && (c == ',' || c == ')')) break;
    if (c == '(' || c == '[') {
      open.push_back(scan.pos());
    } else if (c == ')' || c == ']') {
      if (open.empty()) return scan.ErrorHere(fmt::format("'{}' closes nothing", c));
      char want = scan.text()[open.back()] == '(' ? ')' : ']';
      if (c != want)
        return scan.ErrorHere(fmt::format("expected '{}' to close the '{}'", want, scan.text()[open.back()]));
      open.pop_back();
    }
    scan.Advance();
  }
  if (!open.empty()) return scan.Error(open.back(), fmt::format("'{}' is never closed", scan.text()[open.back()]));
  std::string_view value = scan.Since(start);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  if (value.empty()) return scan.Error(equals, fmt::format("'=' without a default for '{}'", arg.name));
  arg.default_value = std::string(value);
  return Status::Ok();
}

Status ReadArgument(Scanner& scan, bool kwarg_only, OpSchema& schema) {
  SchemaArgument arg;
  arg.kwarg_only = kwarg_only;
  AIRSCOPE_RETURN_IF_ERROR(ReadType(scan, arg, "an argument: TYPE NAME[=DEFAULT] or *"));
  size_t after_type = scan.pos();
  SkipSpace(scan);
  size_t at = scan.pos();
  std::string_view name = Name(scan);
  if (name.empty()) return scan.Error(at, fmt::format("expected the argument's name after its type '{}'", arg.type));
  if (at == after_type)
    return scan.Error(at, fmt::format("expected a space between the type '{}' and the name", arg.type));
  if (schema.Argument(name) != nullptr) return scan.Error(at, fmt::format("argument name '{}' given twice", name));
  arg.name = std::string(name);
  SkipSpace(scan);
  if (scan.Consume('=')) AIRSCOPE_RETURN_IF_ERROR(ReadDefault(scan, arg));
  schema.arguments.push_back(std::move(arg));
  return Status::Ok();
}

// The argument list, the cursor past its '('.
Status ReadArguments(Scanner& scan, OpSchema& schema) {
  SkipSpace(scan);
  if (scan.Consume(')')) return Status::Ok();
  bool kwarg_only = false;
  while (true) {
    SkipSpace(scan);
    bool star = scan.PeekIs('*');
    if (star) {
      if (kwarg_only) return scan.ErrorHere("'*' given twice");
      kwarg_only = true;
      scan.Advance();
    } else {
      AIRSCOPE_RETURN_IF_ERROR(ReadArgument(scan, kwarg_only, schema));
    }
    SkipSpace(scan);
    if (scan.Consume(',')) continue;
    if (scan.Consume(')')) return Status::Ok();
    if (scan.AtEnd()) return scan.ErrorHere("the argument list has no closing ')'");
    return scan.ErrorHere(
        fmt::format("expected ',' or ')' after {}",
                    star ? std::string("'*'") : fmt::format("argument '{}'", schema.arguments.back().name)));
  }
}

Status ReadReturn(Scanner& scan, OpSchema& schema) {
  SchemaArgument ret;
  AIRSCOPE_RETURN_IF_ERROR(ReadType(scan, ret, "a return type (Tensor, None, ...)"));
  size_t after_type = scan.pos();
  SkipSpace(scan);
  std::string_view name = scan.pos() > after_type ? Name(scan) : std::string_view();
  if (name.empty()) scan.Seek(after_type);
  ret.name = std::string(name);
  schema.returns.push_back(std::move(ret));
  return Status::Ok();
}

// What follows `->`: one return, or a tuple of them.
Status ReadReturns(Scanner& scan, OpSchema& schema) {
  SkipSpace(scan);
  if (scan.AtEnd()) return scan.ErrorHere("expected the returns after '->': a type, (TYPES...) or None");
  if (scan.Consume('(')) {  // a tuple: an alias annotation always follows a type
    SkipSpace(scan);
    if (scan.Consume(')')) return Status::Ok();
    while (true) {
      SkipSpace(scan);
      AIRSCOPE_RETURN_IF_ERROR(ReadReturn(scan, schema));
      SkipSpace(scan);
      if (scan.Consume(',')) continue;
      if (scan.Consume(')')) return Status::Ok();
      if (scan.AtEnd()) return scan.ErrorHere("the returns have no closing ')'");
      return scan.ErrorHere("expected ',' or ')' after a return");
    }
  }
  return ReadReturn(scan, schema);
}

}  // namespace

bool SchemaArgument::IsTensor() const { return type == "Tensor" || type == "Tensor?"; }
bool SchemaArgument::IsTensorList() const { return type == "Tensor[]" || type == "Tensor?[]"; }

std::string OpSchema::Target() const {
  return fmt::format("{}.{}.{}", ns, name, overload.empty() ? "default" : overload);
}

std::string OpSchema::QualifiedName() const {
  return overload.empty() ? fmt::format("{}::{}", ns, name) : fmt::format("{}::{}.{}", ns, name, overload);
}

std::vector<std::string> OpSchema::MutableArgNames() const {
  std::vector<std::string> out;
  for (const SchemaArgument& arg : arguments) {
    if (arg.is_write) out.push_back(arg.name);
  }
  return out;
}

const SchemaArgument* OpSchema::Argument(std::string_view arg_name) const {
  for (const SchemaArgument& arg : arguments) {
    if (arg.name == arg_name) return &arg;
  }
  return nullptr;
}

Result<OpSchema> ParseOpSchema(std::string_view text, const SourceOrigin& origin) {
  Scanner scan(text, origin);
  OpSchema schema;
  SkipSpace(scan);
  size_t start = scan.pos();
  AIRSCOPE_RETURN_IF_ERROR(ReadQualifiedName(scan, schema));
  SkipSpace(scan);
  if (!scan.Consume('(')) {
    return scan.ErrorHere(fmt::format("expected '(' and the arguments after the op name {}", schema.QualifiedName()));
  }
  AIRSCOPE_RETURN_IF_ERROR(ReadArguments(scan, schema));
  SkipSpace(scan);
  if (!scan.Consume("->")) return scan.ErrorHere("expected '-> RETURNS' after the arguments");
  AIRSCOPE_RETURN_IF_ERROR(ReadReturns(scan, schema));
  size_t end = scan.pos();
  SkipSpace(scan);
  if (!scan.AtEnd()) return scan.ErrorHere("unexpected text after the returns");
  schema.text = std::string(text.substr(start, end - start));
  return schema;
}

const OpSchemaTable& OpSchemaTable::Builtin() {
  static const OpSchemaTable table = [] {
    OpSchemaTable t;
    // TorchAir's converters quote torch_npu's schemas in their docstrings:
    // _ge_concrete_graph/ge_converter/custom/npu_add_rms_norm_v2.py:16 and
    // npu_kv_rmsnorm_rope_cache.py:53-57.
    for (const char* text : {
             "npu::npu_add_rms_norm_v2_functional(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> "
             "(Tensor, Tensor, Tensor)",
             "npu::npu_kv_rmsnorm_rope_cache_v2_functional(Tensor kv, Tensor gamma, Tensor cos, Tensor sin, "
             "Tensor index, Tensor k_cache, Tensor ckv_cache, *, Tensor? k_rope_scale=None, "
             "Tensor? c_kv_scale=None, Tensor? k_rope_offset=None, Tensor? c_kv_offset=None, Tensor? v=None, "
             "float epsilon=1e-5, str cache_mode='Norm', bool is_output_kv=False) -> (Tensor, Tensor, Tensor, Tensor)",
         }) {
      Result<OpSchema> schema = ParseOpSchema(text);
      assert(schema.ok());
      t.builtin_[schema->Target()] = true;
      t.schemas_.emplace(schema->Target(), std::move(*schema));
    }
    return t;
  }();
  return table;
}

Status OpSchemaTable::Define(std::string_view text) {
  AIRSCOPE_ASSIGN_OR_RETURN(OpSchema schema, ParseOpSchema(text));
  return Add(std::move(schema));
}

Status OpSchemaTable::Add(OpSchema schema) {
  std::string target = schema.Target();
  if (const OpSchema* old = Find(target)) {
    if (old->text == schema.text) return Status::Ok();
    // c10's Dispatcher::registerDef.
    return Status::Errorf(
        "RuntimeError: Tried to register an operator ({}) with the same name and overload name multiple times. "
        "Each overload's schema should only be registered with a single call to def(). (defined as: {})",
        schema.QualifiedName(), old->text);
  }
  schemas_.emplace(std::move(target), std::move(schema));
  return Status::Ok();
}

const OpSchema* OpSchemaTable::Find(std::string_view target) const {
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  auto it = schemas_.find(target);
  return it == schemas_.end() ? nullptr : &it->second;
}

std::vector<const OpSchema*> OpSchemaTable::All() const {
  std::vector<const OpSchema*> out;
  for (const auto& [target, schema] : schemas_) out.push_back(&schema);
  return out;
}

bool OpSchemaTable::IsBuiltin(std::string_view target) const {
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  return builtin_.find(target) != builtin_.end();
}

}  // namespace airscope
