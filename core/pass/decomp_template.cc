#include "core/pass/decomp_template.h"

#include <charconv>
#include <memory>
#include <utility>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/fx/arg_parser.h"
#include "core/scanner.h"

namespace airscope {
namespace {

struct TemplateKwarg;

struct TemplateExpr {
  enum class Kind : uint8_t { kArg, kLiteral, kList, kTuple, kCall };
  Kind kind = Kind::kLiteral;
  size_t arg_index = 0;             // kArg
  Argument literal;                 // kLiteral
  std::string target;               // kCall
  std::vector<TemplateExpr> items;  // kList/kTuple items, kCall positional args
  // kCall. A vector of a struct, not of std::pair: a pair may not hold the
  // still-incomplete TemplateExpr (clang rejects it), a vector may.
  std::vector<TemplateKwarg> kwargs;
};

struct TemplateKwarg {
  std::string name;
  TemplateExpr value;
};

// The grammar over the Scanner (core/scanner.h); literals are ArgParser's,
// at the scanner's cursor. Errors are "column N: message" with the template
// quoted and a caret under the column.
class TemplateParser {
 public:
  TemplateParser(std::string_view text, const SourceOrigin& origin, const TemplateCheck& check)
      : scan_(text, origin), literals_(scan_, ArgDialect::kPython, nullptr), check_(check) {}

  Result<TemplateExpr> ParseAll() {
    TemplateExpr expr;
    if (!Expr(0, &expr)) return scan_.Failure();
    scan_.SkipBlanks();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the expression");
    if (expr.kind != TemplateExpr::Kind::kCall && expr.kind != TemplateExpr::Kind::kArg) {
      return scan_.Error(0, "a template must be a call (aten.op.overload(...)) or an argument ($N)");
    }
    return expr;
  }

 private:
  bool Fail(size_t offset, std::string message) { return scan_.Fail(offset, std::move(message)); }
  // A dotted name at `pos` (identifier characters and '.'): where it ends.
  size_t DottedEnd(size_t pos) const {
    std::string_view text = scan_.text();
    while (pos < text.size() && (IsIdentChar(text[pos]) || text[pos] == '.')) ++pos;
    return pos;
  }

  bool Expr(int depth, TemplateExpr* out) {
    if (depth > kMaxTemplateDepth) return Fail(scan_.pos(), "template nested too deeply");
    scan_.SkipBlanks();
    if (scan_.AtEnd()) return Fail(scan_.pos(), "expected a value");
    char c = scan_.Peek();
    if (c == '$') return ArgRef(out);
    if (c == '[' || c == '(') return Sequence(depth, out);
    if (IsIdentStart(c)) {
      size_t start = scan_.pos();
      size_t end = DottedEnd(start);
      scan_.Seek(end);
      size_t after = scan_.SkipBlanks();
      std::string_view word = scan_.text().substr(start, end - start);
      if (scan_.PeekIs('(') && word != "device") return Call(start, end, after, depth, out);
      scan_.Seek(start);
    }
    return Literal(out);
  }

  bool ArgRef(TemplateExpr* out) {
    size_t start = scan_.pos();
    scan_.Advance();  // the '$'
    std::string_view digits = scan_.Digits();
    if (digits.empty()) return Fail(start, "expected a digit after '$'");
    size_t index = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || index > 64) return Fail(start, "argument index out of range");
    if (check_.arity && index >= *check_.arity) {
      return Fail(start, fmt::format("${} is past the arguments of {}: its schema takes {} positional ({}), so the "
                                     "template could never apply",
                                     index, check_.target, *check_.arity,
                                     *check_.arity == 0 ? "none" : fmt::format("$0 to ${}", *check_.arity - 1)));
    }
    if (check_.max_arg && (!*check_.max_arg || **check_.max_arg < index)) *check_.max_arg = index;
    out->kind = TemplateExpr::Kind::kArg;
    out->arg_index = index;
    return true;
  }

  bool Literal(TemplateExpr* out) {
    size_t start = scan_.pos();
    if (IsIdentStart(scan_.Peek())) {
      std::string_view word = scan_.text().substr(start, DottedEnd(start) - start);
      if (word != "None" && word != "True" && word != "False" && word != "inf" && word != "nan" &&
          word.substr(0, 6) != "torch." && word != "device") {
        return Fail(start, "unknown name '" + std::string(word) + "' (arguments are $0, $1, ...)");
      }
    }
    Argument value;
    if (!literals_.ParseValue("", &value)) return false;  // the failure is in scan_
    if (value.kind() == Argument::Kind::kRaw) {
      return Fail(start, "cannot read '" + value.as_string() + "' as a value");
    }
    if (value.ContainsNode()) return Fail(start, "templates refer to arguments as $0, $1, ...");
    out->kind = TemplateExpr::Kind::kLiteral;
    out->literal = std::move(value);
    return true;
  }

  // After an item of a sequence or call: ',' (consumed), the closer (left),
  // or an error; `open` is the opener's position.
  bool ItemEnd(char open, size_t open_at, char close) {
    scan_.SkipBlanks();
    if (scan_.Consume(',')) {
      scan_.SkipBlanks();
      return true;
    }
    if (scan_.AtEnd()) return Fail(open_at, fmt::format("'{}' is never closed", open));
    if (!scan_.PeekIs(close)) return Fail(scan_.pos(), fmt::format("expected ',' or '{}'", close));
    return true;
  }

  // The cursor at '[' or '('.
  bool Sequence(int depth, TemplateExpr* out) {
    char open = scan_.Peek();
    char close = open == '[' ? ']' : ')';
    out->kind = open == '[' ? TemplateExpr::Kind::kList : TemplateExpr::Kind::kTuple;
    size_t start = scan_.pos();
    scan_.Advance();
    scan_.SkipBlanks();
    while (!scan_.AtEnd() && !scan_.PeekIs(close)) {
      TemplateExpr item;
      if (!Expr(depth + 1, &item)) return false;
      out->items.push_back(std::move(item));
      if (!ItemEnd(open, start, close)) return false;
    }
    if (!scan_.Consume(close)) return Fail(start, fmt::format("'{}' is never closed", open));
    return true;
  }

  // The call's target is text[start, name_end); its '(' is at `paren`.
  bool Call(size_t start, size_t name_end, size_t paren, int depth, TemplateExpr* out) {
    out->kind = TemplateExpr::Kind::kCall;
    std::string_view name = scan_.text().substr(start, name_end - start);
    if (name.find('.') == std::string_view::npos) {
      return Fail(start, "expected an op target such as aten.mul.Tensor, got '" + std::string(name) + "'");
    }
    out->target = std::string(StripTorchOps(name));
    scan_.Seek(paren + 1);
    scan_.SkipBlanks();
    while (!scan_.AtEnd() && !scan_.PeekIs(')')) {
      // `name=value` is a keyword argument.
      size_t item_at = scan_.pos();
      std::string_view key = scan_.Ident();
      scan_.SkipBlanks();
      bool keyword = !key.empty() && scan_.PeekIs('=') && scan_.Peek(1) != '=';
      TemplateExpr value;
      if (keyword) {
        scan_.Advance();
        if (!Expr(depth + 1, &value)) return false;
        out->kwargs.push_back(TemplateKwarg{std::string(key), std::move(value)});
      } else {
        scan_.Seek(item_at);
        if (!out->kwargs.empty()) return Fail(item_at, "positional argument after a keyword argument");
        if (!Expr(depth + 1, &value)) return false;
        out->items.push_back(std::move(value));
      }
      if (!ItemEnd('(', paren, ')')) return false;
    }
    if (!scan_.Consume(')')) return Fail(paren, "'(' is never closed");
    return true;
  }

  Scanner scan_;
  ArgParser literals_;  // reads at scan_'s cursor
  const TemplateCheck& check_;
};

// Whether every $N in `expr` is below `arity` (checked before any node is made).
bool ArgsInRange(const TemplateExpr& expr, size_t arity) {
  if (expr.kind == TemplateExpr::Kind::kArg) return expr.arg_index < arity;
  for (const TemplateExpr& item : expr.items) {
    if (!ArgsInRange(item, arity)) return false;
  }
  for (const TemplateKwarg& kw : expr.kwargs) {
    if (!ArgsInRange(kw.value, arity)) return false;
  }
  return true;
}

// Emits the calls of `expr` before `node` (post-order, so every call follows
// its operands) and returns the value. Depth is bounded by the parser.
Argument ExpandTemplate(const TemplateExpr& expr, Graph& graph, Node* node, const OpRegistry& registry) {
  switch (expr.kind) {
    case TemplateExpr::Kind::kArg: return node->args()[expr.arg_index];
    case TemplateExpr::Kind::kLiteral: return expr.literal;
    case TemplateExpr::Kind::kList:
    case TemplateExpr::Kind::kTuple: {
      std::vector<Argument> items;
      for (const TemplateExpr& item : expr.items) items.push_back(ExpandTemplate(item, graph, node, registry));
      return expr.kind == TemplateExpr::Kind::kList ? Argument::List(std::move(items))
                                                    : Argument::Tuple(std::move(items));
    }
    case TemplateExpr::Kind::kCall: {
      std::vector<Argument> args;
      for (const TemplateExpr& item : expr.items) args.push_back(ExpandTemplate(item, graph, node, registry));
      std::vector<Kwarg> kwargs;
      for (const TemplateKwarg& kw : expr.kwargs)
        kwargs.push_back({kw.name, ExpandTemplate(kw.value, graph, node, registry)});
      Node* call =
          InsertCall(graph, node, CallSpec(expr.target, std::move(args), std::move(kwargs)), node->stream(), registry);
      return Argument::NodeRef(call);
    }
  }
  return Argument::None();
}

}  // namespace

Result<DecompositionFn> ParseDecompositionTemplate(std::string_view text, const SourceOrigin& origin,
                                                   const TemplateCheck& check) {
  TemplateParser parser(text, origin, check);
  AIRSCOPE_ASSIGN_OR_RETURN(TemplateExpr parsed, parser.ParseAll());
  auto expr = std::make_shared<const TemplateExpr>(std::move(parsed));
  return DecompositionFn([expr](Graph& graph, Node* node, const OpRegistry& registry) -> Result<bool> {
    if (!ArgsInRange(*expr, node->args().size())) return false;
    Argument value = ExpandTemplate(*expr, graph, node, registry);
    if (!value.is_node()) return false;  // a literal cannot stand for a tensor-valued node
    if (value.as_node() == node) return false;
    graph.ReplaceAllUsesWith(node, value.as_node());
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
    return true;
  });
}

}  // namespace airscope
