// ParseReadable: reads print_readable() code line by line (see readable.h).
// Each statement is one node; its Python spelling says the op kind:
//   name = self.a.b               get_attr, target `a.b`
//   name = self.submod_0(x)       call_module, target `submod_0`
//   name = x.view(...)            call_method when `x` is a node, target `view`
//   name = torch.ops.aten.mm.default(...) / operator.getitem(...)  call_function, dotted target verbatim
//   return value                  the output node, named `output`
#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/fx/readable.h"
#include "core/fx/source_text.h"
#include "core/interrupt.h"

namespace airscope {
namespace {

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// NodeMeta for an annotation string (without its quotes). A tensor annotation
// is kept as a TensorMeta only when it prints back identically, so every
// file round-trips; anything else is kept verbatim.
NodeMeta MetaFromAnnotation(std::string_view annotation) {
  NodeMeta meta;
  meta.source = MetaSource::kAnnotated;
  auto tensor = TensorMeta::ParseAnnotation(annotation);
  if (tensor.ok() && tensor->ToAnnotation() == annotation) {
    meta.kind = ValueKind::kTensor;
    meta.tensors.push_back(std::move(tensor.value()));
    return meta;
  }
  meta.kind = annotation.substr(0, 4) == "Sym(" ? ValueKind::kSymInt : ValueKind::kOpaque;
  meta.annotation = std::string(annotation);
  return meta;
}

class ReadableParser {
 public:
  ReadableParser(std::string_view text, std::string_view filename)
      : text_(text), filename_(filename), graph_(std::make_unique<Graph>()) {}

  Result<std::unique_ptr<Graph>> Run() {
    AIRSCOPE_RETURN_IF_ERROR(CheckSourceText(text_, filename_));
    enum class State { kClass, kDef, kSignature, kBody, kDone } state = State::kClass;
    size_t pos = 0;
    while (pos < text_.size()) {
      const char* nl = static_cast<const char*>(std::memchr(text_.data() + pos, '\n', text_.size() - pos));
      size_t end = nl ? static_cast<size_t>(nl - text_.data()) : text_.size();
      ++line_no_;
      if ((line_no_ & 1023) == 0 && InterruptRequested()) return InterruptedStatus();
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      line_ = TrimRight(line);
      size_t indent = line_.find_first_not_of(' ');
      // Blank, or only spaces and tabs (a tab-only tail used to leave an
      // indent past the trimmed line's end: found by fuzz_readable).
      if (indent == std::string_view::npos) continue;
      switch (state) {
        case State::kClass:
          if (line_[indent] == '#') break;  // a comment above the class (a header naming the graph's source)
          class_indent_ = indent;
          AIRSCOPE_RETURN_IF_ERROR(ParseClass(indent));
          state = State::kDef;
          break;
        case State::kDef: {
          constexpr std::string_view kDef = "def forward(";
          if (line_.substr(indent, kDef.size()) != kDef) return Error(indent, "expected 'def forward(self, ...):'");
          bool done = false;
          AIRSCOPE_RETURN_IF_ERROR(ParseParams(indent + kDef.size(), &done));
          state = done ? State::kBody : State::kSignature;
          break;
        }
        case State::kSignature: {
          bool done = false;
          AIRSCOPE_RETURN_IF_ERROR(ParseParams(indent, &done));
          if (done) state = State::kBody;
          break;
        }
        case State::kBody:
          if (line_[indent] == '#') {
            if (!pending_trace_.empty()) pending_trace_ += '\n';
            pending_trace_ += line_.substr(indent);
          } else if (line_.substr(indent, 6) == "return" &&
                     (line_.size() == indent + 6 || line_[indent + 6] == ' ')) {
            AIRSCOPE_RETURN_IF_ERROR(ParseReturn(indent + 6));
            state = State::kDone;
          } else {
            AIRSCOPE_RETURN_IF_ERROR(ParseStatement(indent));
          }
          break;
        case State::kDone:
          if (line_[indent] == '#' && submodules_.empty()) break;
          if (line_.substr(indent, 6) == "class " || !submodules_.empty()) {
            // Submodule classes (higher-order ops' subgraphs) follow forward;
            // they are kept verbatim, not parsed into this graph.
            if (submodules_.empty() && indent <= class_indent_) {
              return Error(indent, "unexpected text after the 'return' line");
            }
            submodules_ += line_;
            submodules_ += '\n';
            break;
          }
          return Error(indent, "unexpected text after the 'return' line");
      }
    }
    if (state != State::kDone) {
      return ErrorAtOffset(filename_, text_, text_.size(),
                           state == State::kClass ? "expected 'class GraphModule(torch.nn.Module):'"
                                                  : "expected a 'return' line before the end of the file (truncated?)");
    }
    graph_->mutable_style().submodules = std::move(submodules_);
    return std::move(graph_);
  }

 private:
  // Python's binary operator -> the `operator` module function FX records.
  static std::string_view BinaryOperatorFunction(std::string_view symbol) {
    static constexpr std::pair<std::string_view, std::string_view> kOperators[] = {
        {"+", "add"},      {"-", "sub"},       {"*", "mul"},    {"/", "truediv"}, {"//", "floordiv"},
        {"%", "mod"},      {"**", "pow"},      {"@", "matmul"}, {"&", "and_"},    {"|", "or_"},
        {"^", "xor"},      {"<<", "lshift"},   {">>", "rshift"}, {"<", "lt"},     {"<=", "le"},
        {">", "gt"},       {">=", "ge"},       {"==", "eq"},    {"!=", "ne"}};
    for (const auto& [sym, function] : kOperators) {
      if (sym == symbol) return function;
    }
    return {};
  }

  Status Error(size_t col0, std::string_view message) const { return ErrorAt(filename_, line_no_, col0 + 1, message); }
  Status ParserError(const ArgParser& parser) const { return Error(parser.error_offset(), parser.error()); }

  size_t Ident(size_t pos) const {
    if (pos >= line_.size() || !IsIdentStart(line_[pos])) return pos;
    while (pos < line_.size() && IsIdentChar(line_[pos])) ++pos;
    return pos;
  }
  void SkipSpaces(size_t* pos) const {
    while (*pos < line_.size() && line_[*pos] == ' ') ++*pos;
  }

  // `: "f32[2, 2]"` after a parameter or node name, if present; leaves *pos
  // after it (and the spaces that follow).
  // An annotation that starts like a tensor's (a dtype and '[') must be one
  // whose element count fits int64: a damaged one was kept as opaque text
  // and counted as "annotated", and an overflowing one sized as unknown.
  // `col0` is where the annotation's text starts on the line.
  Status CheckTensorAnnotation(std::string_view annotation, size_t col0) const {
    size_t bracket = annotation.find('[');
    if (bracket == std::string_view::npos || !ParseShortDType(annotation.substr(0, bracket))) return Status::Ok();
    size_t offset = 0;
    Result<TensorMeta> tensor = TensorMeta::ParseAnnotation(annotation, &offset);
    if (!tensor.ok()) return Error(col0 + offset, fmt::format("bad tensor annotation: {}", tensor.status().message()));
    bool all_static = std::all_of(tensor->sizes.begin(), tensor->sizes.end(), [](const Dim& d) { return d.is_static(); });
    if (all_static && !tensor->NumElements()) {
      return Error(col0 + bracket, fmt::format("bad tensor annotation: {} has more elements than int64 counts",
                                               tensor->ShapeString()));
    }
    return Status::Ok();
  }

  Status ParseOptionalAnnotation(ArgParser& parser, size_t* pos, std::string* annotation, bool* annotated) {
    if (*pos >= line_.size() || line_[*pos] != ':') return Status::Ok();
    ++*pos;
    SkipSpaces(pos);
    if (*pos < line_.size() && (IsIdentStart(line_[*pos]))) {
      // An unquoted Python type (`L_x_ : torch.Tensor`, older Dynamo output):
      // it states no shape, so it is skipped, not kept as an annotation.
      size_t end = *pos;
      while (end < line_.size() && (IsIdentChar(line_[end]) || line_[end] == '.')) ++end;
      *pos = end;
      SkipSpaces(pos);
      return Status::Ok();
    }
    if (*pos >= line_.size() || (line_[*pos] != '"' && line_[*pos] != '\'')) {
      return Error(*pos, "expected a quoted annotation after ':'");
    }
    size_t quote_at = *pos;
    if (!parser.QuotedString(pos, annotation)) return ParserError(parser);
    AIRSCOPE_RETURN_IF_ERROR(CheckTensorAnnotation(*annotation, quote_at + 1));
    // `x: ""` states nothing (and the writer, printing no annotation for it,
    // would not give it back): it is no annotation.
    *annotated = !annotation->empty();
    SkipSpaces(pos);
    return Status::Ok();
  }

  Status ParseClass(size_t indent) {
    constexpr std::string_view kClass = "class ";
    constexpr std::string_view kBase = "(torch.nn.Module):";
    std::string_view rest = line_.substr(indent);
    if (rest.substr(0, kClass.size()) != kClass || rest.size() <= kClass.size() + kBase.size() ||
        rest.substr(rest.size() - kBase.size()) != kBase) {
      return Error(indent, "expected 'class GraphModule(torch.nn.Module):'");
    }
    graph_->mutable_style().module_class =
        std::string(rest.substr(kClass.size(), rest.size() - kClass.size() - kBase.size()));
    return Status::Ok();
  }

  // Parameters of `def forward(` from `pos` on this line; *done once `):` is read.
  Status ParseParams(size_t pos, bool* done) {
    ArgParser parser(line_, ArgDialect::kPython, graph_.get());
    while (true) {
      SkipSpaces(&pos);
      if (pos >= line_.size()) return Status::Ok();  // continues on the next line
      if (line_[pos] == ')') {
        ++pos;
        size_t colon = line_.find(':', pos);  // allows a `-> type` return annotation
        if (colon == std::string_view::npos || colon + 1 != line_.size()) {
          return Error(pos, "expected ':' after the parameter list");
        }
        *done = true;
        return Status::Ok();
      }
      size_t name_end = Ident(pos);
      if (name_end == pos) return Error(pos, "expected a parameter name");
      std::string_view name = line_.substr(pos, name_end - pos);
      pos = name_end;
      SkipSpaces(&pos);
      std::string annotation;
      bool annotated = false;
      AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(parser, &pos, &annotation, &annotated));
      Argument default_value;
      bool has_default = false;
      if (pos < line_.size() && line_[pos] == '=') {
        ++pos;
        if (!parser.ParseValue(&pos, {}, &default_value)) return ParserError(parser);
        has_default = true;
      }
      SkipSpaces(&pos);
      if (pos < line_.size() && line_[pos] == ',') {
        ++pos;
      } else if (pos < line_.size() && line_[pos] != ')') {
        return Error(pos, "expected ',' or ')' after a parameter");
      }
      if (name == "self" && !seen_self_) {
        seen_self_ = true;
        continue;
      }
      NodeSpec spec;
      spec.op = OpKind::kPlaceholder;
      spec.target = std::string(name);
      spec.name = std::string(name);
      if (has_default) spec.args.push_back(std::move(default_value));
      auto node = graph_->AppendNamed(std::move(spec));
      if (!node.ok()) return Error(name.data() - line_.data(), node.status().message());
      if (annotated) (*node)->set_meta(MetaFromAnnotation(annotation));
    }
  }

  // The statement ends at a `;` outside brackets and strings: what follows is
  // torch's `;  a = b = None` deletion, which carries no graph information.
  std::string_view CutDeletion(size_t from) const {
    int depth = 0;
    char quote = 0;
    for (size_t i = from; i < line_.size(); ++i) {
      char c = line_[i];
      if (quote) {
        if (c == '\\') ++i;
        else if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      } else if (c == ';' && depth == 0) {
        return TrimRight(line_.substr(0, i));
      }
    }
    return line_;
  }

  // `LHS OP RHS` from the space after LHS: Python operators in Dynamo's
  // output graphs become the operator module's functions, as FX records
  // them (`x + y` -> operator.add(x, y), `4 * x` -> operator.mul(4, x)).
  Status ParseBinaryOperator(NodeSpec spec, Argument lhs, size_t pos, size_t indent, ArgParser& parser,
                             const std::string* annotation) {
    size_t op_at = pos + 1;
    size_t op_end = op_at;
    while (op_end < line_.size() && std::strchr("+-*/%@&|^<>=!~", line_[op_end]) != nullptr) ++op_end;
    std::string_view symbol = line_.substr(op_at, op_end - op_at);
    std::string_view function = BinaryOperatorFunction(symbol);
    if (function.empty()) return Error(op_at, fmt::format("unsupported operator '{}'", symbol));
    pos = op_end;
    SkipSpaces(&pos);
    Argument rhs;
    if (!parser.ParseValue(&pos, {}, &rhs)) return ParserError(parser);
    SkipSpaces(&pos);
    if (pos != line_.size()) return Error(pos, "unexpected text after the expression");
    spec.op = OpKind::kCallFunction;
    spec.target = fmt::format("operator.{}", function);
    spec.args = {std::move(lhs), std::move(rhs)};
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(indent, node.status().message());
    AttachMeta(*node, annotation);
    return Status::Ok();
  }

  // `+=` ... at `pos`: the operator module's in-place function it stands for
  // ("iadd"), or "" when the text there is not an augmented assignment.
  std::string_view AugmentedAssignment(size_t pos) const {
    static constexpr std::pair<std::string_view, std::string_view> kInplace[] = {
        {"+=", "iadd"},  {"-=", "isub"},   {"*=", "imul"},     {"/=", "itruediv"}, {"//=", "ifloordiv"},
        {"%=", "imod"},  {"**=", "ipow"},  {"@=", "imatmul"},  {"&=", "iand"},     {"|=", "ior"},
        {"^=", "ixor"},  {"<<=", "ilshift"}, {">>=", "irshift"}};
    for (const auto& [symbol, function] : kInplace) {
      if (line_.substr(pos, symbol.size()) == symbol && pos + symbol.size() < line_.size() &&
          line_[pos + symbol.size()] == ' ') {
        return function;
      }
    }
    return {};
  }

  // torch.fx's codegen prints the operator module's in-place functions
  // (torch/fx/graph.py, inplace_methods; Dynamo records them) as the Python
  // statement followed by the node bound to the operand:
  //   `l_x_[0] = v;  setitem = l_x_`  -> setitem = operator.setitem(l_x_, 0, v)
  //   `l_x_ += 1;  iadd = l_x_`       -> iadd = operator.iadd(l_x_, 1)
  // `pos` is just after the operand's name.
  Status ParseInplaceOperator(std::string_view operand_name, size_t pos, size_t indent) {
    Node* operand = graph_->Find(operand_name);
    // The statement ends at the first `;` outside brackets; the binding follows.
    std::string_view whole = line_;
    std::string_view statement = CutDeletion(pos);
    size_t semicolon = statement.size();
    line_ = statement;
    ArgParser parser(line_, ArgDialect::kPython, graph_.get());
    NodeSpec spec;
    spec.op = OpKind::kCallFunction;
    if (line_[pos] == '[') {
      size_t open = pos++;
      Argument index;
      if (!parser.ParseValue(&pos, {}, &index)) return ParserError(parser);
      SkipSpaces(&pos);
      if (pos >= line_.size() || line_[pos] != ']') return Error(open, "unclosed '[' (expected ']')");
      ++pos;
      SkipSpaces(&pos);
      if (pos >= line_.size() || line_[pos] != '=') return Error(pos, "expected '=' after the subscript");
      ++pos;
      SkipSpaces(&pos);
      Argument value;
      if (!parser.ParseValue(&pos, {}, &value)) return ParserError(parser);
      spec.target = "operator.setitem";
      spec.args = {Argument::NodeRef(operand), std::move(index), std::move(value)};
    } else {
      std::string_view function = AugmentedAssignment(pos);
      pos = line_.find('=', pos) + 1;
      SkipSpaces(&pos);
      Argument value;
      if (!parser.ParseValue(&pos, {}, &value)) return ParserError(parser);
      spec.target = fmt::format("operator.{}", function);
      spec.args = {Argument::NodeRef(operand), std::move(value)};
    }
    SkipSpaces(&pos);
    if (pos != line_.size()) return Error(pos, "unexpected text after the in-place statement");
    // `;  NAME[: "ann"] = OPERAND`, then maybe FX's `;  a = b = None`.
    line_ = whole;
    pos = semicolon;
    SkipSpaces(&pos);
    if (pos + 1 >= line_.size() || line_[pos] != ';') {
      return Error(pos, "expected ';  NAME = OPERAND' after the in-place statement (torch.fx prints the node so)");
    }
    ++pos;
    SkipSpaces(&pos);
    size_t name_at = pos;
    size_t name_end = Ident(pos);
    if (name_end == pos) return Error(pos, "expected the node's name after ';'");
    spec.name = std::string(line_.substr(pos, name_end - pos));
    pos = name_end;
    SkipSpaces(&pos);
    line_ = CutDeletion(pos);
    ArgParser binding(line_, ArgDialect::kPython, graph_.get());
    std::string annotation;
    bool annotated = false;
    AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(binding, &pos, &annotation, &annotated));
    if (pos >= line_.size() || line_[pos] != '=') return Error(pos, "expected '=' after the node name");
    ++pos;
    SkipSpaces(&pos);
    if (line_.substr(pos) != operand_name) {
      return Error(pos, fmt::format("expected '{}' (the operand the in-place statement wrote)", operand_name));
    }
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(name_at, node.status().message());
    (void)indent;
    AttachMeta(*node, annotated ? &annotation : nullptr);
    return Status::Ok();
  }

  Status ParseStatement(size_t indent) {
    size_t pos = indent;
    size_t name_end = Ident(pos);
    if (name_end == pos) return Error(pos, "expected 'name = ...', a '# comment' or 'return ...'");
    std::string_view name = line_.substr(pos, name_end - pos);
    pos = name_end;
    SkipSpaces(&pos);
    if (graph_->Find(name) && pos < line_.size() && (line_[pos] == '[' || AugmentedAssignment(pos).size() > 0)) {
      return ParseInplaceOperator(name, pos, indent);
    }
    std::string annotation;
    bool annotated = false;
    line_ = CutDeletion(pos);
    ArgParser parser(line_, ArgDialect::kPython, graph_.get());
    AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(parser, &pos, &annotation, &annotated));
    if (pos >= line_.size() || line_[pos] != '=') return Error(pos, "expected '=' after the node name");
    ++pos;
    SkipSpaces(&pos);

    // `4 * l_a_`: a number on the left of a Python operator.
    if (pos < line_.size() && !std::isalpha(static_cast<unsigned char>(line_[pos])) && line_[pos] != '_') {
      size_t space = line_.find(' ', pos);
      if (space != std::string_view::npos) {
        std::string_view token = line_.substr(pos, space - pos);
        ArgParser literal_parser(token, ArgDialect::kPython, graph_.get());
        Argument literal;
        size_t end = 0;
        if (literal_parser.ParseValue(&end, {}, &literal) && end == token.size() &&
            (literal.kind() == Argument::Kind::kInt || literal.kind() == Argument::Kind::kFloat)) {
          NodeSpec spec;
          spec.name = std::string(name);
          return ParseBinaryOperator(std::move(spec), std::move(literal), space, indent, parser,
                                     annotated ? &annotation : nullptr);
        }
      }
    }

    // The callee: `self.path`, `obj.method` or a dotted function name.
    size_t callee_at = pos;
    std::vector<std::string_view> parts;
    while (true) {
      size_t end = Ident(pos);
      if (end == pos) return Error(pos, "expected a call or 'self.attribute' after '='");
      parts.push_back(line_.substr(pos, end - pos));
      pos = end;
      if (pos < line_.size() && line_[pos] == '.') {
        ++pos;
        continue;
      }
      break;
    }
    std::string_view dotted = line_.substr(callee_at, pos - callee_at);
    NodeSpec spec;
    spec.name = std::string(name);
    bool is_self = parts.size() > 1 && parts[0] == "self";
    Node* operand = parts.size() == 1 ? graph_->Find(parts[0]) : nullptr;
    if (pos >= line_.size() && operand && operand->op() == OpKind::kPlaceholder && operand->name() == operand->target() &&
        !annotated) {
      // `l_x_ = L_x_`: FX's codegen names a placeholder whose node name differs
      // from its target this way (Dynamo's output graphs).
      Status renamed = graph_->Rename(operand, name);
      if (!renamed.ok()) return Error(indent, renamed.message());
      return Status::Ok();
    }
    if (operand && pos < line_.size() && line_[pos] == '[') {
      // `x[0]`: torch >= 2.4 prints operator.getitem as a subscript.
      size_t open = pos++;
      Argument index;
      if (!parser.ParseValue(&pos, {}, &index)) return ParserError(parser);
      SkipSpaces(&pos);
      if (pos >= line_.size() || line_[pos] != ']') return Error(open, "unclosed '[' (expected ']')");
      ++pos;
      SkipSpaces(&pos);
      if (pos != line_.size()) return Error(pos, "unexpected text after the subscript");
      spec.op = OpKind::kCallFunction;
      spec.target = "operator.getitem";
      spec.args = {Argument::NodeRef(operand), std::move(index)};
      graph_->mutable_style().subscript_getitem = true;
      auto node = graph_->AppendNamed(std::move(spec));
      if (!node.ok()) return Error(indent, node.status().message());
      AttachMeta(*node, annotated ? &annotation : nullptr);
      return Status::Ok();
    }
    if (operand && pos < line_.size() && line_[pos] == ' ') {
      return ParseBinaryOperator(std::move(spec), Argument::NodeRef(operand), pos, indent, parser,
                                 annotated ? &annotation : nullptr);
    }
    if (pos >= line_.size()) {
      if (!is_self) return Error(callee_at, "expected a call or 'self.attribute' after '='");
      spec.op = OpKind::kGetAttr;
      spec.target = std::string(dotted.substr(5));
    } else {
      if (line_[pos] != '(') return Error(pos, "expected '(' after the callee");
      if (is_self) {
        spec.op = OpKind::kCallModule;
        spec.target = std::string(dotted.substr(5));
      } else if (parts.size() == 2 && graph_->Find(parts[0]) != nullptr) {
        spec.op = OpKind::kCallMethod;
        spec.target = std::string(parts[1]);
        spec.args.push_back(Argument::NodeRef(graph_->Find(parts[0])));
      } else {
        spec.op = OpKind::kCallFunction;
        spec.target = std::string(dotted);
      }
      AIRSCOPE_RETURN_IF_ERROR(ParseCallArgs(parser, &pos, &spec));
      SkipSpaces(&pos);
      if (pos != line_.size()) return Error(pos, "unexpected text after the call");
    }
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(indent, node.status().message());
    AttachMeta(*node, annotated ? &annotation : nullptr);
    return Status::Ok();
  }

  // `(a, b, key = value)` with *pos at the `(`.
  Status ParseCallArgs(ArgParser& parser, size_t* pos, NodeSpec* spec) {
    size_t open = *pos;
    size_t i = open + 1;
    while (true) {
      SkipSpaces(&i);
      if (i >= line_.size()) return Error(open, "unclosed '(' (expected ')' before the end of the line)");
      if (line_[i] == ')') break;
      // `key = value` (torch prints spaces around '='; plain `key=value` is accepted too).
      size_t key_end = Ident(i);
      size_t after = key_end;
      SkipSpaces(&after);
      bool keyword = key_end > i && after < line_.size() && line_[after] == '=' &&
                     (after + 1 >= line_.size() || line_[after + 1] != '=');
      Argument value;
      if (keyword) {
        std::string_view key = line_.substr(i, key_end - i);
        i = after + 1;
        if (!parser.ParseValue(&i, key, &value)) return ParserError(parser);
        spec->kwargs.push_back({std::string(key), std::move(value)});
      } else {
        if (!spec->kwargs.empty()) return Error(i, "positional argument after a keyword argument");
        if (!parser.ParseValue(&i, {}, &value)) return ParserError(parser);
        spec->args.push_back(std::move(value));
      }
      if (i < line_.size() && line_[i] == ',') {
        ++i;
      } else if (i < line_.size() && line_[i] != ')') {
        return Error(i, fmt::format("mismatched '{}': expected ')' to close '(' at column {}", line_[i], open + 1));
      }
    }
    *pos = i + 1;
    return Status::Ok();
  }

  Status ParseReturn(size_t pos) {
    line_ = CutDeletion(pos);
    ArgParser parser(line_, ArgDialect::kPython, graph_.get());
    SkipSpaces(&pos);
    if (pos >= line_.size()) return Error(pos, "expected a value after 'return'");
    Argument value;
    size_t value_at = pos;
    if (!parser.ParseValue(&pos, {}, &value)) return ParserError(parser);
    SkipSpaces(&pos);
    if (pos != line_.size()) return Error(pos, "unexpected text after the returned value");
    // An FX graph returns nodes, literals and tuples of them; text airscope
    // cannot read there would be written back verbatim, where its `;` or `#`
    // would end the line early (found by fuzz_readable).
    if (ContainsRaw(value)) {
      return Error(value_at, "the returned value is not nodes, literals or a tuple of them");
    }
    NodeSpec spec;
    spec.op = OpKind::kOutput;
    spec.target = "output";
    spec.name = graph_->Find("output") ? graph_->UniqueName("output") : "output";
    spec.args.push_back(std::move(value));
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(0, node.status().message());
    AttachMeta(*node, nullptr);
    return Status::Ok();
  }

  static bool ContainsRaw(const Argument& value) {
    if (value.kind() == Argument::Kind::kRaw) return true;
    if (value.kind() == Argument::Kind::kList || value.kind() == Argument::Kind::kTuple) {
      for (const Argument& item : value.items()) {
        if (ContainsRaw(item)) return true;
      }
    }
    return false;
  }

  void AttachMeta(Node* node, const std::string* annotation) {
    if (annotation == nullptr && pending_trace_.empty()) return;
    NodeMeta meta;
    if (annotation) {
      meta = MetaFromAnnotation(*annotation);
    } else {
      meta.kind = ValueKind::kOpaque;
    }
    meta.stack_trace = std::move(pending_trace_);
    pending_trace_.clear();
    node->set_meta(std::move(meta));
  }

  std::string_view text_;
  std::string_view filename_;
  std::unique_ptr<Graph> graph_;
  std::string_view line_;
  size_t line_no_ = 0;
  bool seen_self_ = false;
  size_t class_indent_ = 0;
  std::string submodules_;  // verbatim lines of nested classes after forward
  std::string pending_trace_;
};

}  // namespace

Result<std::unique_ptr<Graph>> ParseReadable(std::string_view text, std::string_view filename) {
  return ReadableParser(text, filename).Run();
}

}  // namespace airscope
