// ParseReadable: reads print_readable() code line by line (see readable.h).
// Each statement is one node; its Python spelling says the op kind:
//   name = self.a.b               get_attr, target `a.b`
//   name = self.submod_0(x)       call_module, target `submod_0`
//   name = x.view(...)            call_method when `x` is a node, target `view`
//   name = torch.ops.aten.mm.default(...) / operator.getitem(...)  call_function, dotted target verbatim
//   return value                  the output node, named `output`
#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/fx/readable.h"

#include "core/fx/python_operators.h"
#include "core/fx/source_text.h"
#include "core/interrupt.h"
#include "core/scanner.h"
#include "core/text.h"

namespace airscope {
namespace {

// NodeMeta for an annotation string (without its quotes). A tensor
// annotation is a TensorMeta, spelled as torch spells it when written back
// ("f32[2,3]" of a hand-edited file becomes "f32[2, 3]": the shape is kept
// rather than the spelling). Such a tensor is what its written-back form
// reads as (a device without strides is written with them), so a file
// written and read again is the same graph; anything else is kept verbatim.
NodeMeta MetaFromAnnotation(std::string_view annotation) {
  NodeMeta meta;
  meta.source = MetaSource::kAnnotated;
  auto tensor = TensorMeta::ParseAnnotation(annotation);
  if (tensor.ok() && tensor->ToAnnotation() != annotation) {
    std::string written = tensor->ToAnnotation();
    tensor = TensorMeta::ParseAnnotation(written);
    if (tensor.ok() && tensor->ToAnnotation() != written) tensor = Status::Error("not a fixed point");
  }
  if (tensor.ok()) {
    meta.kind = ValueKind::kTensor;
    meta.tensors.push_back(std::move(tensor.value()));
    return meta;
  }
  meta.kind = annotation.substr(0, 4) == "Sym(" ? ValueKind::kSymInt : ValueKind::kOpaque;
  meta.annotation = std::string(annotation);
  return meta;
}

// One statement's left-hand side: the node it names and its annotation.
struct Assignment {
  std::string_view name;
  size_t indent = 0;  // where the statement starts: errors about the node point here
  // The annotation's text, unquoted: valid until the parser reads the next
  // one (it points into the line, or into the parser's unescaping buffer).
  std::string_view annotation;
  bool annotated = false;
  const std::string_view* annotation_or_null() const { return annotated ? &annotation : nullptr; }
};

// A callee's dotted name as far as the parser looks at it: its first two
// parts (`self.layer`, `x.view`) and how many there are (no vector per
// statement).
struct DottedName {
  std::array<std::string_view, 2> first_two;
  size_t count = 0;
};

class ReadableParser {
 public:
  ReadableParser(std::string_view text, std::string_view filename, const ReleaseTextBefore& release)
      : text_(text), filename_(filename), release_(release), graph_(std::make_unique<Graph>()) {}

  Result<std::unique_ptr<Graph>> Run() {
    AIRSCOPE_RETURN_IF_ERROR(CheckSourceText(text_, filename_));
    // At most a node a line: sizing the name index up front saves rehashing
    // a million names on the way (as the FX text parser does).
    graph_->ReserveNodes(static_cast<size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1);
    enum class State { kClass, kDef, kSignature, kBody, kDone } state = State::kClass;
    size_t pos = 0;
    while (pos < text_.size()) {
      const char* nl = static_cast<const char*>(std::memchr(text_.data() + pos, '\n', text_.size() - pos));
      size_t end = nl ? static_cast<size_t>(nl - text_.data()) : text_.size();
      ++line_no_;
      if ((line_no_ & 1023) == 0 && InterruptRequested()) return InterruptedStatus();
      // Nothing before this line is read again (annotations and comments are
      // copied as they are read), so its pages may go back.
      if (release_ && pos >= released_ + kReleaseEvery) {
        release_(pos);
        released_ = pos;
      }
      last_line_start_ = pos;
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      line = TrimRight(line, " \t");
      size_t indent = line.find_first_not_of(' ');
      // Blank, or only spaces and tabs (a tab-only tail used to leave an
      // indent past the trimmed line's end: found by fuzz_readable).
      if (indent == std::string_view::npos) continue;
      scan_ = Scanner(line, {filename_, line_no_});
      switch (state) {
        case State::kClass:
          if (line[indent] == '#') break;  // a comment above the class (a header naming the graph's source)
          class_indent_ = indent;
          AIRSCOPE_RETURN_IF_ERROR(ParseClass(indent));
          state = State::kDef;
          break;
        case State::kDef: {
          constexpr std::string_view kDef = "def forward(";
          if (line.substr(indent, kDef.size()) != kDef) return Error(indent, "expected 'def forward(self, ...):'");
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
          if (line[indent] == '#') {
            if (!pending_trace_.empty()) pending_trace_ += '\n';
            pending_trace_ += line.substr(indent);
          } else if (line.substr(indent, 6) == "return" && (line.size() == indent + 6 || line[indent + 6] == ' ')) {
            AIRSCOPE_RETURN_IF_ERROR(ParseReturn(indent + 6));
            state = State::kDone;
          } else {
            AIRSCOPE_RETURN_IF_ERROR(ParseStatement(indent));
          }
          break;
        case State::kDone:
          if (line[indent] == '#' && submodules_.empty()) break;
          if (line.substr(indent, 6) == "class " || !submodules_.empty()) {
            // Submodule classes (higher-order ops' subgraphs) follow forward;
            // they are kept verbatim, not parsed into this graph.
            if (submodules_.empty() && indent <= class_indent_) {
              return Error(indent, "unexpected text after the 'return' line");
            }
            submodules_ += line;
            submodules_ += '\n';
            break;
          }
          return Error(indent, "unexpected text after the 'return' line");
      }
    }
    if (state != State::kDone) {
      // Located from the last line: the text before it may have been given back.
      std::string_view last = text_.substr(last_line_start_);
      return Scanner(last, {filename_, std::max<size_t>(line_no_, 1)})
          .Error(last.size(), state == State::kClass
                                  ? "expected 'class GraphModule(torch.nn.Module):'"
                                  : "expected a 'return' line before the end of the file (truncated?)");
    }
    graph_->mutable_style().submodules = std::move(submodules_);
    return std::move(graph_);
  }

 private:
  // Errors point into the current line (scan_).
  Status Error(size_t col0, std::string_view message) const { return scan_.Error(col0, message); }

  // `: "f32[2, 2]"` after a parameter or node name, if present; leaves *pos
  // after it (and the spaces that follow).
  // An annotation that starts like a tensor's (a dtype and '[') must be one
  // whose element and byte counts fit int64: a damaged one was kept as opaque
  // text and counted as "annotated", and an overflowing one sized as unknown.
  // `col0` is where the annotation's text starts on the line.
  Status CheckTensorAnnotation(std::string_view annotation, size_t col0) const {
    if (node_by_annotation_.contains(annotation)) return Status::Ok();  // checked when first read
    size_t bracket = annotation.find('[');
    if (bracket == std::string_view::npos || !ParseShortDType(annotation.substr(0, bracket))) return Status::Ok();
    size_t offset = 0;
    Result<TensorMeta> tensor = TensorMeta::ParseAnnotation(annotation, &offset);
    // ParseAnnotation applies the one size check (CheckTensorSize): a count past int64 is refused there.
    if (!tensor.ok()) return Error(col0 + offset, fmt::format("bad tensor annotation: {}", tensor.status().message()));
    return Status::Ok();
  }

  // Where an unquoted annotation's bracketed part that opens at `open` ends:
  // after the bracket that closes it, and after a stride list and device that
  // follow (`f32[3, 3][3, 1]cpu`, as the quoted form allows). False when the
  // line ends first.
  bool UnquotedAnnotationEnd(size_t open, size_t* end) const {
    std::string_view text = scan_.text();
    size_t pos = open;
    int depth = 0;
    for (; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && --depth == 0) break;
    }
    if (pos >= text.size()) return false;
    ++pos;
    if (text[open] == '[' && pos < text.size() && text[pos] == '[') {
      size_t close = text.find(']', pos);
      if (close == std::string_view::npos) return false;
      pos = close + 1;
      while (pos < text.size() && IsIdentChar(text[pos])) ++pos;  // the device, e.g. cpu
    }
    *end = pos;
    return true;
  }

  // `: "f32[2, 2]"` at the cursor, if there; the cursor ends after it and
  // the spaces that follow.
  Status ParseOptionalAnnotation(std::string_view* annotation, bool* annotated) {
    if (!scan_.Consume(':')) return Status::Ok();
    scan_.SkipSpaces();
    if (IsIdentStart(scan_.Peek())) {
      size_t start = scan_.pos();
      std::string_view word =
          scan_.text().substr(start, scan_.SkipWhile([](char c) { return IsIdentChar(c) || c == '.'; }) - start);
      // torch 2.0/2.1 print_readable wrote the verbose annotation unquoted
      // (torch/fx/graph.py emit_node: f': {dtype_abbrs[dtype]}{stringify_shape(shape)}',
      // f': Sym({expr})'): `add: f32[3] = ...`. Same meaning as the quoted form.
      const bool tensor = scan_.PeekIs('[') && ParseShortDType(word);
      if (tensor || (word == "Sym" && scan_.PeekIs('('))) {
        size_t end = 0;
        if (!UnquotedAnnotationEnd(scan_.pos(), &end)) {
          return scan_.ErrorHere(tensor ? "expected ']' closing the annotation"
                                        : "expected ')' closing the annotation");
        }
        *annotation = scan_.text().substr(start, end - start);
        scan_.Seek(end);
        AIRSCOPE_RETURN_IF_ERROR(CheckTensorAnnotation(*annotation, start));
        *annotated = true;
        scan_.SkipSpaces();
        return Status::Ok();
      }
      // Any other unquoted Python type (`L_x_ : torch.Tensor`, older Dynamo
      // output): it states no shape, so it is skipped, not kept as an annotation.
      scan_.SkipSpaces();
      return Status::Ok();
    }
    if (!scan_.PeekIs('"') && !scan_.PeekIs('\'')) return scan_.ErrorHere("expected a quoted annotation after ':'");
    size_t quote_at = scan_.pos();
    // Most annotations have no escapes: their text is the line's, uncopied.
    std::string_view rest = scan_.scannable().substr(quote_at + 1);
    size_t close = rest.find(scan_.Peek());
    if (close != std::string_view::npos && rest.substr(0, close).find('\\') == std::string_view::npos) {
      *annotation = rest.substr(0, close);
      scan_.Seek(quote_at + close + 2);
    } else {
      if (!scan_.QuotedString(&unescaped_annotation_)) return scan_.Failure();
      *annotation = unescaped_annotation_;
    }
    AIRSCOPE_RETURN_IF_ERROR(CheckTensorAnnotation(*annotation, quote_at + 1));
    // `x: ""` states nothing (and the writer, printing no annotation for it,
    // would not give it back): it is no annotation.
    *annotated = !annotation->empty();
    scan_.SkipSpaces();
    return Status::Ok();
  }

  Status ParseClass(size_t indent) {
    constexpr std::string_view kClass = "class ";
    constexpr std::string_view kBase = "(torch.nn.Module):";
    std::string_view rest = scan_.text().substr(indent);
    if (rest.substr(0, kClass.size()) != kClass || rest.size() <= kClass.size() + kBase.size() ||
        rest.substr(rest.size() - kBase.size()) != kBase) {
      return Error(indent, "expected 'class GraphModule(torch.nn.Module):'");
    }
    std::string_view name = rest.substr(kClass.size(), rest.size() - kClass.size() - kBase.size());
    // The name is written back as it is read: anything but a class name
    // torch prints (an identifier; `<lambda>` for a lambda's graph) is damage.
    if (size_t bad = BadModuleClassChar(name); bad != std::string_view::npos) {
      return Error(indent + kClass.size() + bad,
                   fmt::format("'{}' is not a class name (expected e.g. 'class GraphModule(torch.nn.Module):')", name));
    }
    graph_->mutable_style().module_class = std::string(name);
    return Status::Ok();
  }

  // Parameters of `def forward(` from `pos` on this line; *done once `):` is read.
  Status ParseParams(size_t pos, bool* done) {
    scan_.Seek(pos);
    ArgParser parser(scan_, ArgDialect::kPython, graph_.get());
    while (true) {
      scan_.SkipSpaces();
      if (scan_.AtEnd()) return Status::Ok();  // continues on the next line
      if (scan_.Consume(')')) {
        size_t colon = scan_.text().find(':', scan_.pos());  // allows a `-> type` return annotation
        if (colon == std::string_view::npos || colon + 1 != scan_.text().size()) {
          return scan_.ErrorHere("expected ':' after the parameter list");
        }
        *done = true;
        return Status::Ok();
      }
      size_t name_at = scan_.pos();
      std::string_view name = scan_.Ident();
      if (name.empty()) return scan_.ErrorHere("expected a parameter name");
      graph_->PrefetchName(name);  // its slot is needed when the node is appended, after the annotation is read
      scan_.SkipSpaces();
      std::string_view annotation;
      bool annotated = false;
      AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(&annotation, &annotated));
      Argument default_value;
      bool has_default = false;
      if (scan_.Consume('=')) {
        if (!parser.ParseValue({}, &default_value)) return scan_.Failure();
        has_default = true;
      }
      scan_.SkipSpaces();
      if (!scan_.Consume(',') && !scan_.AtEnd() && !scan_.PeekIs(')')) {
        return scan_.ErrorHere("expected ',' or ')' after a parameter");
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
      if (!node.ok()) return Error(name_at, node.status().message());
      AttachMeta(*node, annotated ? &annotation : nullptr);
    }
  }

  // Where the statement from `from` ends: at a `;` outside brackets and
  // strings (trailing spaces dropped), or the end of the line. What follows
  // is torch's `;  a = b = None` deletion, which carries no graph
  // information; callers Limit() the scanner there.
  size_t CutDeletion(size_t from) const {
    std::string_view line = scan_.text();
    // A line without deletions has no ';' at all: one memchr instead of a
    // branch per character (this loop was half the statement's own time).
    if (line.find(';', from) == std::string_view::npos) return line.size();
    int depth = 0;
    char quote = 0;
    for (size_t i = from; i < line.size(); ++i) {
      char c = line[i];
      if (quote) {
        if (c == '\\')
          ++i;
        else if (c == quote)
          quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      } else if (c == ';' && depth == 0) {
        return TrimRight(line.substr(0, i), " \t").size();
      }
    }
    return line.size();
  }

  // The node of a statement, with its annotation (or the `# File:` comments
  // above it) as meta.
  Status Append(NodeSpec spec, const Assignment& lhs, size_t error_at) {
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(error_at, node.status().message());
    AttachMeta(*node, lhs.annotation_or_null());
    return Status::Ok();
  }

  // `LHS OP RHS` from the space after LHS at `pos`: Python operators in
  // Dynamo's output graphs become the operator module's functions, as FX
  // records them (`x + y` -> operator.add(x, y), `4 * x` -> operator.mul(4, x)).
  Status ParseBinaryOperator(Argument operand, size_t pos, const Assignment& lhs, ArgParser& parser) {
    size_t op_at = pos + 1;
    scan_.Seek(op_at);
    std::string_view symbol =
        scan_.While([](char c) { return c != '\0' && std::strchr("+-*/%@&|^<>=!~", c) != nullptr; });
    std::string_view function = FunctionOfOperator(symbol, /*unary=*/false);
    if (function.empty()) return Error(op_at, fmt::format("unsupported operator '{}'", symbol));
    scan_.SkipSpaces();
    Argument rhs;
    if (!parser.ParseValue({}, &rhs)) return scan_.Failure();
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the expression");
    NodeSpec spec;
    spec.name = std::string(lhs.name);
    spec.op = OpKind::kCallFunction;
    spec.target = fmt::format("operator.{}", function);
    spec.args = {std::move(operand), std::move(rhs)};
    return Append(std::move(spec), lhs, lhs.indent);
  }

  // `+=` ... at `pos`: the operator module's in-place function it stands for
  // ("iadd"), or "" when the text there (up to the scan limit) is not an
  // augmented assignment.
  std::string_view AugmentedAssignment(size_t pos) const {
    static constexpr std::pair<std::string_view, std::string_view> kInplace[] = {
        {"+=", "iadd"}, {"-=", "isub"},     {"*=", "imul"},    {"/=", "itruediv"}, {"//=", "ifloordiv"},
        {"%=", "imod"}, {"**=", "ipow"},    {"@=", "imatmul"}, {"&=", "iand"},     {"|=", "ior"},
        {"^=", "ixor"}, {"<<=", "ilshift"}, {">>=", "irshift"}};
    std::string_view line = scan_.scannable();
    for (const auto& [symbol, function] : kInplace) {
      if (line.substr(pos, symbol.size()) == symbol && pos + symbol.size() < line.size() &&
          line[pos + symbol.size()] == ' ') {
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
  Status ParseInplaceOperator(std::string_view operand_name, size_t pos) {
    Node* operand = graph_->Find(operand_name);
    // The statement ends at the first `;` outside brackets; the binding follows.
    size_t semicolon = CutDeletion(pos);
    scan_.Limit(semicolon);
    scan_.Seek(pos);
    ArgParser parser(scan_, ArgDialect::kPython, graph_.get());
    NodeSpec spec;
    spec.op = OpKind::kCallFunction;
    if (scan_.PeekIs('[')) {
      size_t open = scan_.pos();
      scan_.Advance();
      Argument index;
      if (!parser.ParseValue({}, &index)) return scan_.Failure();
      scan_.SkipSpaces();
      if (!scan_.Consume(']')) return Error(open, "unclosed '[' (expected ']')");
      scan_.SkipSpaces();
      if (!scan_.Consume('=')) return scan_.ErrorHere("expected '=' after the subscript");
      scan_.SkipSpaces();
      Argument value;
      if (!parser.ParseValue({}, &value)) return scan_.Failure();
      spec.target = "operator.setitem";
      spec.args = {Argument::NodeRef(operand), std::move(index), std::move(value)};
    } else {
      std::string_view function = AugmentedAssignment(pos);
      scan_.Seek(scan_.scannable().find('=', pos) + 1);
      scan_.SkipSpaces();
      Argument value;
      if (!parser.ParseValue({}, &value)) return scan_.Failure();
      spec.target = fmt::format("operator.{}", function);
      spec.args = {Argument::NodeRef(operand), std::move(value)};
    }
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the in-place statement");
    // `;  NAME[: "ann"] = OPERAND`, then maybe FX's `;  a = b = None`.
    scan_.Limit(scan_.text().size());
    scan_.Seek(semicolon);
    scan_.SkipSpaces();
    if (scan_.pos() + 1 >= scan_.text().size() || !scan_.PeekIs(';')) {
      return scan_.ErrorHere("expected ';  NAME = OPERAND' after the in-place statement (torch.fx prints the node so)");
    }
    scan_.Advance();
    scan_.SkipSpaces();
    Assignment lhs;
    lhs.indent = scan_.pos();
    lhs.name = scan_.Ident();
    if (lhs.name.empty()) return scan_.ErrorHere("expected the node's name after ';'");
    spec.name = std::string(lhs.name);
    scan_.SkipSpaces();
    scan_.Limit(CutDeletion(scan_.pos()));
    AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(&lhs.annotation, &lhs.annotated));
    if (!scan_.Consume('=')) return scan_.ErrorHere("expected '=' after the node name");
    scan_.SkipSpaces();
    if (scan_.Rest() != operand_name) {
      return scan_.ErrorHere(fmt::format("expected '{}' (the operand the in-place statement wrote)", operand_name));
    }
    return Append(std::move(spec), lhs, lhs.indent);
  }

  // `NAME[: "ann"] = VALUE`, one node; VALUE decides which:
  //   4 * x             ParseLiteralOperator (a number left of an operator)
  //   x + y, x[0]       ParseNodeExpression
  //   f(...), self.a    ParseCallOrAttribute
  // `x[0] = v;  setitem = x` and `x += 1;  iadd = x` (the name is a node's) are
  // ParseInplaceOperator's.
  Status ParseStatement(size_t indent) {
    scan_.Seek(indent);
    Assignment lhs;
    lhs.indent = indent;
    lhs.name = scan_.Ident();
    if (lhs.name.empty()) return scan_.ErrorHere("expected 'name = ...', a '# comment' or 'return ...'");
    graph_->PrefetchName(lhs.name);  // its slot is needed when the node is appended, after the args are parsed
    size_t pos = scan_.SkipSpaces();
    // The syntax first: a name lookup is a cache miss in a big graph's index.
    if (!scan_.AtEnd() && (scan_.PeekIs('[') || !AugmentedAssignment(pos).empty()) && graph_->Find(lhs.name)) {
      return ParseInplaceOperator(lhs.name, pos);
    }
    scan_.Limit(CutDeletion(pos));
    ArgParser parser(scan_, ArgDialect::kPython, graph_.get());
    AIRSCOPE_RETURN_IF_ERROR(ParseOptionalAnnotation(&lhs.annotation, &lhs.annotated));
    if (!scan_.Consume('=')) return scan_.ErrorHere("expected '=' after the node name");
    scan_.SkipSpaces();
    if (std::optional<Status> done = ParseUnaryOperator(lhs)) return *done;
    if (std::optional<Status> done = ParseLiteralOperator(lhs, parser)) return *done;
    return ParseCallee(lhs, parser);
  }

  // `-s0`, `+x`, `~mask`: torch.fx writes operator.neg/pos/invert of a node
  // so (magic_methods); nullopt when the value is not such an operator
  // directly before a name (`-1 * x` is a number).
  std::optional<Status> ParseUnaryOperator(const Assignment& lhs) {
    if (scan_.AtEnd()) return std::nullopt;
    std::string_view function = FunctionOfOperator(std::string_view(&scan_.scannable()[scan_.pos()], 1), true);
    std::string_view rest = scan_.scannable().substr(scan_.pos() + 1);
    if (function.empty() || rest.empty() || !(std::isalpha(static_cast<unsigned char>(rest[0])) || rest[0] == '_')) {
      return std::nullopt;
    }
    size_t op_at = scan_.pos();
    scan_.Advance();
    std::string_view name = scan_.Ident();
    Node* operand = graph_->Find(name);
    if (operand == nullptr) return Error(op_at + 1, fmt::format("'{}' is not a node defined above", name));
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the expression");
    NodeSpec spec;
    spec.name = std::string(lhs.name);
    spec.op = OpKind::kCallFunction;
    spec.target = fmt::format("operator.{}", function);
    spec.args = {Argument::NodeRef(operand)};
    return Append(std::move(spec), lhs, lhs.indent);
  }

  // `4 * l_a_`: a number on the left of a Python operator; nullopt when the
  // value does not start with one.
  std::optional<Status> ParseLiteralOperator(const Assignment& lhs, ArgParser& parser) {
    char c = scan_.Peek();
    if (scan_.AtEnd() || std::isalpha(static_cast<unsigned char>(c)) || c == '_') return std::nullopt;
    std::string_view line = scan_.scannable();
    size_t space = line.find(' ', scan_.pos());
    if (space == std::string_view::npos) return std::nullopt;
    std::string_view token = line.substr(scan_.pos(), space - scan_.pos());
    ArgParser literal_parser(token, ArgDialect::kPython, graph_.get());
    Argument literal;
    size_t end = 0;
    if (!literal_parser.ParseValue(&end, {}, &literal) || end != token.size() ||
        (literal.kind() != Argument::Kind::kInt && literal.kind() != Argument::Kind::kFloat)) {
      return std::nullopt;
    }
    return ParseBinaryOperator(std::move(literal), space, lhs, parser);
  }

  // The value after '=' starts with a name: `self.path`, `obj.method`, a
  // dotted function, or a node (renamed, subscripted or an operand).
  Status ParseCallee(const Assignment& lhs, ArgParser& parser) {
    size_t callee_at = scan_.pos();
    DottedName parts;
    do {
      std::string_view part = scan_.Ident();
      if (part.empty()) return scan_.ErrorHere("expected a call or 'self.attribute' after '='");
      if (parts.count < 2) parts.first_two[parts.count] = part;
      ++parts.count;
    } while (scan_.Consume('.'));
    Node* operand = parts.count == 1 ? graph_->Find(parts.first_two[0]) : nullptr;
    if (operand != nullptr) {
      if (std::optional<Status> done = ParseNodeExpression(lhs, operand, parser)) return *done;
    }
    return ParseCallOrAttribute(lhs, parts, callee_at, parser);
  }

  // What follows a node's name: nothing (a rename), `[index]` or an operator;
  // nullopt when it is none of these (a call of a method).
  std::optional<Status> ParseNodeExpression(const Assignment& lhs, Node* operand, ArgParser& parser) {
    if (scan_.AtEnd() && operand->op() == OpKind::kPlaceholder && operand->name() == operand->target() &&
        !lhs.annotated) {
      // `l_x_ = L_x_`: FX's codegen names a placeholder whose node name differs
      // from its target this way (Dynamo's output graphs).
      Status renamed = graph_->Rename(operand, lhs.name);
      if (!renamed.ok()) return Error(lhs.indent, renamed.message());
      return Status::Ok();
    }
    if (scan_.PeekIs('[')) return ParseSubscript(lhs, operand, parser);
    if (scan_.PeekIs(' ')) return ParseBinaryOperator(Argument::NodeRef(operand), scan_.pos(), lhs, parser);
    return std::nullopt;
  }

  // `x[0]`: torch >= 2.4 prints operator.getitem as a subscript.
  Status ParseSubscript(const Assignment& lhs, Node* operand, ArgParser& parser) {
    size_t open = scan_.pos();
    scan_.Advance();
    Argument index;
    if (!parser.ParseValue({}, &index)) return scan_.Failure();
    scan_.SkipSpaces();
    if (!scan_.Consume(']')) return Error(open, "unclosed '[' (expected ']')");
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the subscript");
    NodeSpec spec;
    spec.name = std::string(lhs.name);
    spec.op = OpKind::kCallFunction;
    spec.target = "operator.getitem";
    spec.args = {Argument::NodeRef(operand), std::move(index)};
    graph_->mutable_style().subscript_getitem = true;
    return Append(std::move(spec), lhs, lhs.indent);
  }

  // `self.a.b` (get_attr), or a call: `self.sub(...)` (call_module),
  // `node.method(...)` (call_method), `torch.ops.aten.mm.default(...)` (call_function).
  Status ParseCallOrAttribute(const Assignment& lhs, const DottedName& parts, size_t callee_at, ArgParser& parser) {
    std::string_view dotted = scan_.Since(callee_at);
    bool is_self = parts.count > 1 && parts.first_two[0] == "self";
    NodeSpec spec;
    spec.name = std::string(lhs.name);
    if (scan_.AtEnd()) {
      if (!is_self) return Error(callee_at, "expected a call or 'self.attribute' after '='");
      spec.op = OpKind::kGetAttr;
      spec.target = std::string(dotted.substr(5));
      return Append(std::move(spec), lhs, lhs.indent);
    }
    if (!scan_.PeekIs('(')) return scan_.ErrorHere("expected '(' after the callee");
    if (is_self) {
      spec.op = OpKind::kCallModule;
      spec.target = std::string(dotted.substr(5));
    } else if (Node* object = parts.count == 2 ? graph_->Find(parts.first_two[0]) : nullptr) {
      spec.op = OpKind::kCallMethod;
      spec.target = std::string(parts.first_two[1]);
      spec.args.push_back(Argument::NodeRef(object));
    } else {
      spec.op = OpKind::kCallFunction;
      spec.target = std::string(dotted);
    }
    AIRSCOPE_RETURN_IF_ERROR(ParseCallArgs(parser, &spec));
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the call");
    return Append(std::move(spec), lhs, lhs.indent);
  }

  // `(a, b, key = value)` with the cursor at the `(`.
  Status ParseCallArgs(ArgParser& parser, NodeSpec* spec) {
    size_t open = scan_.pos();
    scan_.Advance();
    while (true) {
      scan_.SkipSpaces();
      if (scan_.AtEnd()) return Error(open, "unclosed '(' (expected ')' before the end of the line)");
      if (scan_.PeekIs(')')) break;
      // `key = value` (torch prints spaces around '='; plain `key=value` is accepted too).
      size_t item_at = scan_.pos();
      std::string_view key = scan_.Ident();
      scan_.SkipSpaces();
      bool keyword = !key.empty() && scan_.PeekIs('=') && scan_.Peek(1) != '=';
      Argument value;
      if (keyword) {
        scan_.Advance();
        if (!parser.ParseValue(key, &value)) return scan_.Failure();
        spec->kwargs.push_back({std::string(key), std::move(value)});
      } else {
        scan_.Seek(item_at);
        if (!spec->kwargs.empty()) return Error(item_at, "positional argument after a keyword argument");
        if (!parser.ParseValue({}, &value)) return scan_.Failure();
        spec->args.push_back(std::move(value));
      }
      if (!scan_.Consume(',') && !scan_.AtEnd() && !scan_.PeekIs(')')) {
        return scan_.ErrorHere(
            fmt::format("mismatched '{}': expected ')' to close '(' at column {}", scan_.Peek(), open + 1));
      }
    }
    scan_.Advance();  // the ')'
    return Status::Ok();
  }

  Status ParseReturn(size_t pos) {
    scan_.Limit(CutDeletion(pos));
    scan_.Seek(pos);
    ArgParser parser(scan_, ArgDialect::kPython, graph_.get());
    scan_.SkipSpaces();
    if (scan_.AtEnd()) return scan_.ErrorHere("expected a value after 'return'");
    Argument value;
    size_t value_at = scan_.pos();
    if (!parser.ParseValue({}, &value)) return scan_.Failure();
    scan_.SkipSpaces();
    if (!scan_.AtEnd()) return scan_.ErrorHere("unexpected text after the returned value");
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
    return Append(std::move(spec), Assignment{}, 0);
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

  // A node's meta: its annotation, and the `# File:` comments above it (for
  // a statement; ParseParams has read none when it calls this). A meta with
  // no comments is shared by every node with the same annotation: an LLM's
  // million nodes have a few hundred distinct ones, and parsing and checking
  // each anew was half the load's time.
  void AttachMeta(Node* node, const std::string_view* annotation) {
    if (annotation == nullptr && pending_trace_.empty()) return;
    if (annotation && pending_trace_.empty()) {
      if (auto first = node_by_annotation_.find(*annotation); first != node_by_annotation_.end()) {
        node->share_meta(*first->second);
        return;
      }
      node_by_annotation_.emplace(*annotation, node);
    }
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

  static constexpr size_t kReleaseEvery = size_t{8} << 20;

  std::string_view text_;
  std::string_view filename_;
  const ReleaseTextBefore& release_;
  size_t released_ = 0;         // the text before this offset may have been given back
  size_t last_line_start_ = 0;  // where the last line read starts
  std::unique_ptr<Graph> graph_;
  Scanner scan_{std::string_view()};  // the current line
  size_t line_no_ = 0;
  bool seen_self_ = false;
  size_t class_indent_ = 0;
  std::string submodules_;  // verbatim lines of nested classes after forward
  std::string pending_trace_;
  std::string unescaped_annotation_;  // an annotation with escapes, decoded (see Assignment)
  // The first node read with each annotation and no comments (see AttachMeta).
  std::unordered_map<std::string, const Node*, TextHash, std::equal_to<>> node_by_annotation_;
};

}  // namespace

size_t BadModuleClassChar(std::string_view name) {
  if (name == "<lambda>") return std::string_view::npos;
  if (name.empty()) return 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return i;
  }
  return std::string_view::npos;
}

Result<std::unique_ptr<Graph>> ParseReadable(std::string_view text, std::string_view filename,
                                             const ReleaseTextBefore& release) {
  return ReadableParser(text, filename, release).Run();
}

}  // namespace airscope
