#include "core/analysis/sym_expr_nodes.h"

#include <fmt/format.h>

#include <cctype>
#include <variant>

#include "core/analysis/stream_util.h"

namespace airscope {
namespace {

// A value while evaluating: an int Python folds, or a node (a Proxy's).
using Value = std::variant<int64_t, Node*>;

Argument ToArgument(const Value& v) {
  return std::holds_alternative<int64_t>(v) ? Argument::Int(std::get<int64_t>(v))
                                            : Argument::NodeRef(std::get<Node*>(v));
}

// Python's int floor division and modulo (toward minus infinity).
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// Recursive descent over Python's grammar for these operators:
//   sum := product (('+' | '-') product)*
//   product := unary (('*' | '//' | '%') unary)*
//   unary := '-' unary | power
//   power := atom ['**' unary]
//   atom := INT | NAME | '(' sum ')'
class Evaluator {
 public:
  // `build` false: a dry run that checks the text and builds nothing (so an
  // expression airscope cannot evaluate leaves no half of its nodes behind).
  Evaluator(std::string_view text, Graph& graph, Node* before, const std::map<std::string, Node*>& sym_inputs,
            const OpRegistry& registry, bool build)
      : text_(text), graph_(graph), before_(before), sym_inputs_(sym_inputs), registry_(registry), build_(build) {}

  // Set when Run failed on something airscope does not evaluate (not a TorchAir error).
  bool unsupported() const { return unsupported_; }

  Result<Value> Run() {
    AIRSCOPE_ASSIGN_OR_RETURN(Value v, Sum());
    SkipSpaces();
    if (at_ != text_.size()) return Unsupported(fmt::format("'{}' at column {}", text_.substr(at_, 1), at_ + 1));
    return v;
  }

 private:
  Status Unsupported(const std::string& what) {
    unsupported_ = true;
    return Status::Errorf(
        "the size {}: {} is not an expression airscope builds nodes for (integers, symbols, + - * // % ** and "
        "parentheses; TorchAir evaluates the text with Python)",
        text_, what);
  }

  void SkipSpaces() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool Eat(std::string_view token) {
    SkipSpaces();
    if (text_.substr(at_, token.size()) != token) return false;
    at_ += token.size();
    return true;
  }

  // `a OP b` as Python does it with Proxies: ints fold, else a node.
  Result<Value> Apply(std::string_view op, const Value& a, const Value& b) {
    if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b)) {
      int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
      if (op == "add") return Value(x + y);
      if (op == "sub") return Value(x - y);
      if (op == "mul") return Value(x * y);
      if ((op == "floordiv" || op == "mod") && y == 0) return Unsupported("a division by zero");
      if (op == "floordiv") return Value(FloorDiv(x, y));
      if (op == "mod") return Value(FloorMod(x, y));
      if (y < 0) return Unsupported("a negative power (a float in Python)");
      int64_t r = 1;
      for (int64_t i = 0; i < y; ++i) r *= x;
      return Value(r);
    }
    if (!build_) return Value(static_cast<Node*>(nullptr));
    Node* node = InsertCall(graph_, before_, true, fmt::format("operator.{}", op), {ToArgument(a), ToArgument(b)}, {},
                            &registry_);
    return Value(node);
  }

  Result<Value> Sum() {
    AIRSCOPE_ASSIGN_OR_RETURN(Value v, Product());
    while (true) {
      std::string_view op = Eat("+") ? "add" : Eat("-") ? "sub" : "";
      if (op.empty()) return v;
      AIRSCOPE_ASSIGN_OR_RETURN(Value rhs, Product());
      AIRSCOPE_ASSIGN_OR_RETURN(v, Apply(op, v, rhs));
    }
  }

  Result<Value> Product() {
    AIRSCOPE_ASSIGN_OR_RETURN(Value v, Unary());
    while (true) {
      SkipSpaces();
      // `**` belongs to Power, `//` before `/`.
      std::string_view op;
      if (text_.substr(at_, 2) == "**") return v;
      if (Eat("//")) {
        op = "floordiv";
      } else if (Eat("*")) {
        op = "mul";
      } else if (Eat("%")) {
        op = "mod";
      } else if (text_.substr(at_, 1) == "/") {
        return Unsupported("true division (/)");
      } else {
        return v;
      }
      AIRSCOPE_ASSIGN_OR_RETURN(Value rhs, Unary());
      AIRSCOPE_ASSIGN_OR_RETURN(v, Apply(op, v, rhs));
    }
  }

  Result<Value> Unary() {
    if (!Eat("-")) return Power();
    AIRSCOPE_ASSIGN_OR_RETURN(Value v, Unary());
    if (std::holds_alternative<int64_t>(v)) return Value(-std::get<int64_t>(v));
    if (!build_) return Value(static_cast<Node*>(nullptr));
    return Value(InsertCall(graph_, before_, true, "operator.neg", {ToArgument(v)}, {}, &registry_));
  }

  Result<Value> Power() {
    AIRSCOPE_ASSIGN_OR_RETURN(Value base, Atom());
    if (!Eat("**")) return base;
    AIRSCOPE_ASSIGN_OR_RETURN(Value exponent, Unary());
    return Apply("pow", base, exponent);
  }

  Result<Value> Atom() {
    SkipSpaces();
    if (Eat("(")) {
      AIRSCOPE_ASSIGN_OR_RETURN(Value v, Sum());
      if (!Eat(")")) return Unsupported("an unclosed parenthesis");
      return v;
    }
    size_t start = at_;
    if (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      int64_t value = 0;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        if (value > (INT64_MAX - 9) / 10) return Unsupported("an integer past int64");
        value = value * 10 + (text_[at_++] - '0');
      }
      if (at_ < text_.size() && (text_[at_] == '.' || std::isalpha(static_cast<unsigned char>(text_[at_])))) {
        return Unsupported(fmt::format("'{}'", text_.substr(start, at_ + 1 - start)));
      }
      return Value(value);
    }
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    std::string_view name = text_.substr(start, at_ - start);
    if (name.empty()) return Unsupported(at_ < text_.size() ? fmt::format("'{}'", text_[at_]) : "its end");
    SkipSpaces();
    if (at_ < text_.size() && text_[at_] == '(') return Unsupported(fmt::format("the call {}(...)", name));
    auto it = sym_inputs_.find(std::string(name));
    if (it == sym_inputs_.end()) {
      return Status::Errorf(
          "the size {} reads {}, which no SymInt placeholder of the graph is (TorchAir's construct_fx_node_shape "
          "raises KeyError: {})",
          text_, name, name);
    }
    return Value(it->second);
  }

  std::string_view text_;
  size_t at_ = 0;
  Graph& graph_;
  Node* before_;
  const std::map<std::string, Node*>& sym_inputs_;
  const OpRegistry& registry_;
  bool build_;
  bool unsupported_ = false;
};

}  // namespace

Result<std::string> SymExprNodes::Check(std::string_view expr) const {
  if (cache_.contains(expr) || sym_inputs_.contains(std::string(expr))) return std::string();
  Evaluator dry(expr, graph_, nullptr, sym_inputs_, registry_, /*build=*/false);
  Result<Value> checked = dry.Run();
  if (checked.ok()) return std::string();
  if (dry.unsupported()) return checked.status().message();
  return checked.status();
}

Result<Argument> SymExprNodes::Build(std::string_view expr, Node* before) {
  if (auto cached = cache_.find(expr); cached != cache_.end()) return cached->second;
  if (auto single = sym_inputs_.find(std::string(expr)); single != sym_inputs_.end()) {
    return Argument::NodeRef(single->second);
  }
  AIRSCOPE_ASSIGN_OR_RETURN(Value value, Evaluator(expr, graph_, before, sym_inputs_, registry_, true).Run());
  Argument argument = ToArgument(value);
  cache_.emplace(std::string(expr), argument);
  return argument;
}

}  // namespace airscope
