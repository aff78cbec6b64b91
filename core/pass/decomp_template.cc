#include "core/pass/decomp_template.h"

#include <charconv>
#include <memory>
#include <utility>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/fx/arg_parser.h"

namespace airscope {
namespace {

struct TemplateKwarg;

struct TemplateExpr {
  enum class Kind : uint8_t { kArg, kLiteral, kList, kTuple, kCall };
  Kind kind = Kind::kLiteral;
  size_t arg_index = 0;                   // kArg
  Argument literal;                       // kLiteral
  std::string target;                     // kCall
  std::vector<TemplateExpr> items;        // kList/kTuple items, kCall positional args
  // kCall. A vector of a struct, not of std::pair: a pair may not hold the
  // still-incomplete TemplateExpr (clang rejects it), a vector may.
  std::vector<TemplateKwarg> kwargs;
};

struct TemplateKwarg {
  std::string name;
  TemplateExpr value;
};

class TemplateParser {
 public:
  explicit TemplateParser(std::string_view text) : text_(text), literals_(text, ArgDialect::kPython, nullptr) {}

  Result<TemplateExpr> ParseAll() {
    size_t pos = 0;
    TemplateExpr expr;
    if (!Expr(&pos, 0, &expr)) return Error();
    Skip(&pos);
    if (pos != text_.size()) {
      Fail(pos, "unexpected text after the expression");
      return Error();
    }
    if (expr.kind != TemplateExpr::Kind::kCall && expr.kind != TemplateExpr::Kind::kArg) {
      Fail(0, "a template must be a call (aten.op.overload(...)) or an argument ($N)");
      return Error();
    }
    return expr;
  }

 private:
  Status Error() const { return Status::Errorf("column {}: {}", error_offset_ + 1, error_); }
  bool Fail(size_t offset, std::string message) {
    error_offset_ = offset;
    error_ = std::move(message);
    return false;
  }
  void Skip(size_t* pos) const {
    while (*pos < text_.size() && (text_[*pos] == ' ' || text_[*pos] == '\t')) ++*pos;
  }
  size_t IdentEnd(size_t pos) const {
    while (pos < text_.size() && (IsIdentChar(text_[pos]) || text_[pos] == '.')) ++pos;
    return pos;
  }

  bool Expr(size_t* pos, int depth, TemplateExpr* out) {
    if (depth > kMaxTemplateDepth) return Fail(*pos, "template nested too deeply");
    Skip(pos);
    if (*pos >= text_.size()) return Fail(*pos, "expected a value");
    char c = text_[*pos];
    if (c == '$') return ArgRef(pos, out);
    if (c == '[' || c == '(') return Sequence(pos, depth, out);
    if (IsIdentStart(c)) {
      size_t end = IdentEnd(*pos);
      size_t after = end;
      Skip(&after);
      std::string_view word = text_.substr(*pos, end - *pos);
      if (after < text_.size() && text_[after] == '(' && word != "device") return Call(pos, end, after, depth, out);
    }
    return Literal(pos, out);
  }

  bool ArgRef(size_t* pos, TemplateExpr* out) {
    size_t start = *pos;
    size_t digits = start + 1;
    size_t end = digits;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
    if (end == digits) return Fail(start, "expected a digit after '$'");
    size_t index = 0;
    auto [ptr, ec] = std::from_chars(text_.data() + digits, text_.data() + end, index);
    if (ec != std::errc() || index > 64) return Fail(start, "argument index out of range");
    out->kind = TemplateExpr::Kind::kArg;
    out->arg_index = index;
    *pos = end;
    return true;
  }

  bool Literal(size_t* pos, TemplateExpr* out) {
    size_t start = *pos;
    if (IsIdentStart(text_[start])) {
      std::string_view word = text_.substr(start, IdentEnd(start) - start);
      if (word != "None" && word != "True" && word != "False" && word != "inf" && word != "nan" &&
          word.substr(0, 6) != "torch." && word != "device") {
        return Fail(start, "unknown name '" + std::string(word) + "' (arguments are $0, $1, ...)");
      }
    }
    Argument value;
    if (!literals_.ParseValue(pos, "", &value)) return Fail(literals_.error_offset(), literals_.error());
    if (value.kind() == Argument::Kind::kRaw) {
      return Fail(start, "cannot read '" + value.as_string() + "' as a value");
    }
    if (value.ContainsNode()) return Fail(start, "templates refer to arguments as $0, $1, ...");
    out->kind = TemplateExpr::Kind::kLiteral;
    out->literal = std::move(value);
    return true;
  }

  // *pos at '[' or '('.
  bool Sequence(size_t* pos, int depth, TemplateExpr* out) {
    char open = text_[*pos];
    char close = open == '[' ? ']' : ')';
    out->kind = open == '[' ? TemplateExpr::Kind::kList : TemplateExpr::Kind::kTuple;
    size_t start = *pos;
    ++*pos;
    Skip(pos);
    while (*pos < text_.size() && text_[*pos] != close) {
      TemplateExpr item;
      if (!Expr(pos, depth + 1, &item)) return false;
      out->items.push_back(std::move(item));
      Skip(pos);
      if (*pos < text_.size() && text_[*pos] == ',') {
        ++*pos;
        Skip(pos);
      } else if (*pos >= text_.size()) {
        return Fail(start, fmt::format("'{}' is never closed", open));
      } else if (text_[*pos] != close) {
        return Fail(*pos, fmt::format("expected ',' or '{}'", close));
      }
    }
    if (*pos >= text_.size()) return Fail(start, fmt::format("'{}' is never closed", open));
    ++*pos;
    return true;
  }

  bool Call(size_t* pos, size_t name_end, size_t paren, int depth, TemplateExpr* out) {
    out->kind = TemplateExpr::Kind::kCall;
    std::string_view name = text_.substr(*pos, name_end - *pos);
    if (name.find('.') == std::string_view::npos) {
      return Fail(*pos, "expected an op target such as aten.mul.Tensor, got '" + std::string(name) + "'");
    }
    out->target = std::string(StripTorchOps(name));
    *pos = paren + 1;
    Skip(pos);
    while (*pos < text_.size() && text_[*pos] != ')') {
      // `name=value` is a keyword argument.
      size_t word_end = *pos;
      while (word_end < text_.size() && IsIdentChar(text_[word_end])) ++word_end;
      size_t eq = word_end;
      Skip(&eq);
      if (word_end > *pos && IsIdentStart(text_[*pos]) && eq < text_.size() && text_[eq] == '=' &&
          (eq + 1 >= text_.size() || text_[eq + 1] != '=')) {
        std::string key(text_.substr(*pos, word_end - *pos));
        *pos = eq + 1;
        TemplateExpr value;
        if (!Expr(pos, depth + 1, &value)) return false;
        out->kwargs.push_back(TemplateKwarg{std::move(key), std::move(value)});
      } else {
        if (!out->kwargs.empty()) return Fail(*pos, "positional argument after a keyword argument");
        TemplateExpr value;
        if (!Expr(pos, depth + 1, &value)) return false;
        out->items.push_back(std::move(value));
      }
      Skip(pos);
      if (*pos < text_.size() && text_[*pos] == ',') {
        ++*pos;
        Skip(pos);
      } else if (*pos >= text_.size()) {
        return Fail(paren, "'(' is never closed");
      } else if (text_[*pos] != ')') {
        return Fail(*pos, "expected ',' or ')'");
      }
    }
    if (*pos >= text_.size()) return Fail(paren, "'(' is never closed");
    ++*pos;
    return true;
  }

  std::string_view text_;
  ArgParser literals_;
  size_t error_offset_ = 0;
  std::string error_;
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
Argument Expand(const TemplateExpr& expr, Graph& graph, Node* node, const OpRegistry& registry) {
  switch (expr.kind) {
    case TemplateExpr::Kind::kArg:
      return node->args()[expr.arg_index];
    case TemplateExpr::Kind::kLiteral:
      return expr.literal;
    case TemplateExpr::Kind::kList:
    case TemplateExpr::Kind::kTuple: {
      std::vector<Argument> items;
      for (const TemplateExpr& item : expr.items) items.push_back(Expand(item, graph, node, registry));
      return expr.kind == TemplateExpr::Kind::kList ? Argument::List(std::move(items))
                                                    : Argument::Tuple(std::move(items));
    }
    case TemplateExpr::Kind::kCall: {
      std::vector<Argument> args;
      for (const TemplateExpr& item : expr.items) args.push_back(Expand(item, graph, node, registry));
      std::vector<Kwarg> kwargs;
      for (const TemplateKwarg& kw : expr.kwargs) kwargs.push_back({kw.name, Expand(kw.value, graph, node, registry)});
      Node* call = InsertCall(graph, node, CallSpec(expr.target, std::move(args), std::move(kwargs)), node->stream(),
                              registry);
      return Argument::NodeRef(call);
    }
  }
  return Argument::None();
}

}  // namespace

Result<DecompositionFn> ParseDecompositionTemplate(std::string_view text) {
  TemplateParser parser(text);
  Result<TemplateExpr> parsed = parser.ParseAll();
  if (!parsed.ok()) return parsed.status();
  auto expr = std::make_shared<const TemplateExpr>(std::move(parsed).value());
  return DecompositionFn([expr](Graph& graph, Node* node, const OpRegistry& registry) -> Result<bool> {
    if (!ArgsInRange(*expr, node->args().size())) return false;
    Argument value = Expand(*expr, graph, node, registry);
    if (!value.is_node()) return false;  // a literal cannot stand for a tensor-valued node
    if (value.as_node() == node) return false;
    graph.ReplaceAllUsesWith(node, value.as_node());
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
    return true;
  });
}

}  // namespace airscope
