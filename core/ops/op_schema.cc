#include "core/ops/op_schema.h"

#include <cctype>

#include <fmt/format.h>

namespace airscope {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Splits at commas outside brackets and quotes. An empty (all-space) text
// gives no pieces.
Result<std::vector<std::string_view>> SplitTopLevel(std::string_view text) {
  std::vector<std::string_view> pieces;
  if (Trim(text).empty()) return pieces;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      pieces.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
    if (depth < 0) return Status::Errorf("unbalanced ')' or ']' in '{}'", text);
  }
  if (depth != 0 || quote != 0) return Status::Errorf("unbalanced brackets or quotes in '{}'", text);
  pieces.push_back(Trim(text.substr(start)));
  return pieces;
}

// "Tensor(a!)[]" -> type "Tensor[]", alias "a", write. "Tensor(a -> *)" is an
// alias into a wildcard set (torch's view ops): alias "a", not a write.
Status ParseType(std::string_view text, SchemaArgument& arg) {
  size_t open = text.find('(');
  if (open == std::string_view::npos) {
    arg.type = std::string(text);
  } else {
    size_t close = text.find(')', open);
    if (close == std::string_view::npos) return Status::Errorf("'{}': alias annotation without ')'", text);
    std::string_view annotation = Trim(text.substr(open + 1, close - open - 1));
    size_t arrow = annotation.find("->");
    std::string_view set = Trim(arrow == std::string_view::npos ? annotation : annotation.substr(0, arrow));
    if (!set.empty() && set.back() == '!') {
      arg.is_write = true;
      set = Trim(set.substr(0, set.size() - 1));
    }
    if (!IsIdentifier(set)) return Status::Errorf("'{}': alias annotation '({})' is not a name", text, annotation);
    arg.alias = std::string(set);
    arg.type = std::string(Trim(text.substr(0, open))) + std::string(Trim(text.substr(close + 1)));
  }
  if (arg.type.empty()) return Status::Errorf("'{}': no type", text);
  for (char c : arg.type) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '[' && c != ']' && c != '?' && c != '.') {
      return Status::Errorf("'{}': '{}' is not a type", text, arg.type);
    }
  }
  return Status::Ok();
}

// "Tensor(a!) out_sin", "float epsilon=1e-06".
Result<SchemaArgument> ParseArgument(std::string_view text, bool kwarg_only) {
  SchemaArgument arg;
  arg.kwarg_only = kwarg_only;
  std::string_view decl = text;
  // The default follows the first '=' outside the alias annotation.
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(')
      ++depth;
    else if (text[i] == ')')
      --depth;
    else if (text[i] == '=' && depth == 0) {
      decl = Trim(text.substr(0, i));
      std::string_view value = Trim(text.substr(i + 1));
      if (value.empty()) return Status::Errorf("'{}': '=' without a default", text);
      arg.default_value = std::string(value);
      break;
    }
  }
  size_t space = decl.find_last_of(" \t");
  if (space == std::string_view::npos) return Status::Errorf("'{}': an argument needs a type and a name", text);
  std::string_view name = Trim(decl.substr(space + 1));
  if (!IsIdentifier(name)) return Status::Errorf("'{}': '{}' is not an argument name", text, name);
  arg.name = std::string(name);
  AIRSCOPE_RETURN_IF_ERROR(ParseType(Trim(decl.substr(0, space)), arg));
  return arg;
}

// A return: "Tensor", "Tensor(a!)", "Tensor values".
Result<SchemaArgument> ParseReturn(std::string_view text) {
  SchemaArgument ret;
  std::string_view type = text;
  size_t close = text.rfind(')');
  size_t space = text.find_last_of(" \t");
  if (space != std::string_view::npos && (close == std::string_view::npos || space > close)) {
    std::string_view name = Trim(text.substr(space + 1));
    if (!IsIdentifier(name)) return Status::Errorf("return '{}': '{}' is not a name", text, name);
    ret.name = std::string(name);
    type = Trim(text.substr(0, space));
  }
  AIRSCOPE_RETURN_IF_ERROR(ParseType(type, ret));
  return ret;
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

Result<OpSchema> ParseOpSchema(std::string_view text) {
  OpSchema schema;
  text = Trim(text);
  schema.text = std::string(text);
  size_t open = text.find('(');
  if (open == std::string_view::npos) return Status::Errorf("'{}': no '(' after the op name", text);
  std::string_view qualified = Trim(text.substr(0, open));
  size_t colons = qualified.find("::");
  if (colons == std::string_view::npos) {
    return Status::Errorf("'{}': the op name needs its namespace, as in custom::{} (the Library's namespace)", text,
                          qualified);
  }
  schema.ns = std::string(qualified.substr(0, colons));
  std::string_view name = qualified.substr(colons + 2);
  if (size_t dot = name.find('.'); dot != std::string_view::npos) {
    schema.overload = std::string(name.substr(dot + 1));
    name = name.substr(0, dot);
    if (!IsIdentifier(schema.overload))
      return Status::Errorf("'{}': '{}' is not an overload name", text, schema.overload);
  }
  schema.name = std::string(name);
  if (!IsIdentifier(schema.ns) || !IsIdentifier(schema.name)) {
    return Status::Errorf("'{}': '{}' is not a namespace::name", text, qualified);
  }
  // The argument list ends at the ')' matching `open`.
  int depth = 0;
  size_t close = std::string_view::npos;
  char quote = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(')
      ++depth;
    else if (c == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) return Status::Errorf("'{}': the argument list has no closing ')'", text);
  Result<std::vector<std::string_view>> pieces = SplitTopLevel(text.substr(open + 1, close - open - 1));
  if (!pieces.ok()) return pieces.status().WithPrefix("arguments");
  bool kwarg_only = false;
  for (size_t i = 0; i < pieces->size(); ++i) {
    std::string_view piece = (*pieces)[i];
    if (piece == "*") {
      if (kwarg_only) return Status::Errorf("'{}': '*' given twice", text);
      kwarg_only = true;
      continue;
    }
    Result<SchemaArgument> arg = ParseArgument(piece, kwarg_only);
    if (!arg.ok()) return arg.status().WithPrefix(fmt::format("argument {}", i + 1));
    if (schema.Argument(arg->name) != nullptr) return Status::Errorf("argument name '{}' given twice", arg->name);
    schema.arguments.push_back(std::move(*arg));
  }
  std::string_view rest = Trim(text.substr(close + 1));
  if (!rest.starts_with("->")) return Status::Errorf("'{}': no '-> RETURNS' after the arguments", text);
  rest = Trim(rest.substr(2));
  if (rest.empty()) return Status::Errorf("'{}': nothing after '->'", text);
  std::vector<std::string_view> returns;
  if (rest.front() == '(' && rest.back() == ')') {
    // A tuple, unless the parentheses are an alias annotation of one return.
    Result<std::vector<std::string_view>> split = SplitTopLevel(rest.substr(1, rest.size() - 2));
    if (!split.ok()) return split.status().WithPrefix("returns");
    returns = *split;
  } else {
    returns.push_back(rest);
  }
  for (std::string_view r : returns) {
    AIRSCOPE_ASSIGN_OR_RETURN(SchemaArgument ret, ParseReturn(r));
    schema.returns.push_back(std::move(ret));
  }
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
