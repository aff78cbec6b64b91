// ParseFxText: a single pass over the buffer, one line at a time, building
// the Graph as it goes (see fx_text.h). No regex, no per-character string
// building: names and targets are string_views into the text until a node is
// created, so a million-node file parses in about a second.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/fx/fx_text.h"
#include "core/fx/source_text.h"
#include "core/interrupt.h"
#include "core/scanner.h"

namespace airscope {
namespace {

class FxTextParser {
 public:
  FxTextParser(std::string_view text, std::string_view filename, const ReleaseTextBefore& release)
      : text_(text), filename_(filename), release_(release), graph_(std::make_unique<Graph>()) {}

  Result<std::unique_ptr<Graph>> Run() {
    AIRSCOPE_RETURN_IF_ERROR(CheckSourceText(text_, filename_));
    // A node a line: sizing the name index and the declared counts up front
    // saves rehashing a million names on the way.
    size_t lines = static_cast<size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1;
    graph_->ReserveNodes(lines);
    declared_.reserve(lines);
    bool header = false;
    bool returned = false;
    size_t pos = 0;
    while (pos < text_.size()) {
      const char* nl = static_cast<const char*>(std::memchr(text_.data() + pos, '\n', text_.size() - pos));
      size_t end = nl ? static_cast<size_t>(nl - text_.data()) : text_.size();
      ++line_no_;
      if ((line_no_ & 1023) == 0 && InterruptRequested()) return InterruptedStatus();
      line_start_ = pos;
      if (release_ && pos >= released_ + kReleaseEvery) {
        release_(pos);
        released_ = pos;
        released_line_ = line_no_;
      }
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      size_t indent = line.find_first_not_of(' ');
      if (indent == std::string_view::npos) continue;  // blank
      Scanner scan(line, {filename_, line_no_});
      if (!header) {
        if (line.substr(0, 6) != "graph(" || line.back() != ':') {
          return scan.Error(0, "expected the 'graph():' header line");
        }
        header = true;
        continue;
      }
      if (returned) return scan.Error(indent, "unexpected text after the 'return' line");
      if (indent == 0) return scan.Error(0, "expected an indented node line ('%name : ...' or 'return ...')");
      scan.Seek(indent);
      if (scan.Consume("return") && (scan.AtEnd() || scan.PeekIs(' '))) {
        AIRSCOPE_RETURN_IF_ERROR(ParseReturn(scan));
        returned = true;
      } else if (line[indent] == '%') {
        AIRSCOPE_RETURN_IF_ERROR(ParseNode(scan, indent));
      } else {
        return scan.Error(indent, "expected '%name : ...' or 'return ...'");
      }
    }
    if (!header) return ErrorAt(filename_, line_no_, 1, "expected the 'graph():' header line");
    if (!returned) {
      // Just past the last character, counted from the last line read:
      // the text before it may have been released.
      Scanner rest(text_.substr(line_start_), {filename_, line_no_});
      return rest.Error(rest.text().size(), "expected a 'return' line before the end of the file (truncated?)");
    }
    AIRSCOPE_RETURN_IF_ERROR(CheckUsers());
    return std::move(graph_);
  }

 private:
  // The users count a node line declares, and where (the text may be
  // released by the time it is checked). The node is the one appended in
  // the same order.
  // 12 bytes: one per node, held until the end of the parse.
  struct Declared {
    uint32_t users;
    uint32_t line;
    uint32_t col;  // 1-based
  };
  static constexpr size_t kReleaseEvery = size_t{8} << 20;

  // The hot path: a million node lines run through here. Each step is a
  // Scanner primitive (inline, on the line's bytes); the one loop of its own
  // is the target's, whose brackets nest.
  Status ParseNode(Scanner& scan, size_t start) {
    scan.Seek(start + 1);
    std::string_view name = scan.While(IsIdentChar);
    if (name.empty()) return scan.Error(start, "expected a node name after '%'");
    if (!scan.Consume(" : ")) return scan.ErrorHere("expected ' : ' after the node name");
    graph_->PrefetchName(name);  // its slot is needed when the node is appended, after the args are parsed
    // torch 2.x may print a type before the users annotation; it carries nothing we keep.
    bool legacy = false;
    if (!scan.Consume("[num_users=")) {
      if (scan.Consume("[#users=")) {
        legacy = true;
      } else {
        size_t modern = scan.text().find(" [num_users=", scan.pos());
        size_t old = scan.text().find(" [#users=", scan.pos());
        if (modern == std::string_view::npos && old == std::string_view::npos) {
          return scan.ErrorHere("expected '[num_users=N]' after ':'");
        }
        legacy = modern == std::string_view::npos || (old != std::string_view::npos && old < modern);
        scan.Seek(legacy ? old + 9 : modern + 12);
      }
    }
    if (legacy)
      saw_legacy_ = true;
    else
      saw_modern_ = true;
    size_t count_at = scan.pos();
    uint64_t users = 0;
    while (IsDigit(scan.Peek()) && users < (uint64_t{1} << 40)) {
      users = users * 10 + static_cast<uint64_t>(scan.Next() - '0');
    }
    if (scan.pos() == count_at) return scan.ErrorHere("expected the number of users");
    if (users >= std::numeric_limits<uint32_t>::max()) {
      return scan.Error(count_at, fmt::format("{} users is more than a graph can have", users));
    }
    if (!scan.Consume(']')) return scan.ErrorHere("expected ']' after the number of users");
    if (!scan.Consume(" = ")) return scan.ErrorHere("expected '=' after the users annotation");
    size_t op_at = scan.pos();
    std::string_view op_text = scan.While(IsIdentChar);
    OpKind op;
    if (!ParseOpKind(op_text, &op) || op == OpKind::kOutput) {
      return scan.Error(op_at, fmt::format("unknown op kind '{}' (expected placeholder, get_attr, call_function, "
                                           "call_method or call_module)",
                                           op_text));
    }
    if (!scan.Consume("[target=")) return scan.ErrorHere("expected '[target=' after the op kind");
    size_t target_at = scan.pos();
    int depth = 1;  // targets may contain brackets of their own
    std::string_view target = scan.While([&depth](char c) {
      if (c == '[') ++depth;
      return c != ']' || --depth != 0;
    });
    if (!scan.Consume(']')) return scan.Error(target_at - 8, "unclosed '[target=' (expected ']')");

    NodeSpec spec;
    spec.op = op;
    spec.target = std::string(target);
    if (op == OpKind::kPlaceholder) {
      if (scan.Consume("(default=")) {
        ArgParser value_parser(scan, ArgDialect::kPython, graph_.get());
        Argument value;
        if (!value_parser.ParseValue({}, &value)) return scan.Failure();
        if (!scan.Consume(')')) return scan.ErrorHere("expected ')' after the placeholder's default value");
        spec.args.push_back(std::move(value));
      }
    } else if (op != OpKind::kGetAttr) {
      ArgParser parser(scan, ArgDialect::kFx, graph_.get());
      if (!scan.Consume("(args = ")) return scan.ErrorHere("expected '(args = ' after the target");
      if (!scan.PeekIs('(')) return scan.ErrorHere("expected '(' to start the args tuple");
      if (!parser.ParseItems(&spec.args)) return scan.Failure();
      if (!scan.Consume(", kwargs = {")) return scan.ErrorHere("expected ', kwargs = {' after the args tuple");
      AIRSCOPE_RETURN_IF_ERROR(ParseKwargs(scan, parser, &spec.kwargs));
      if (!scan.Consume(')')) return scan.ErrorHere("expected ')' after the kwargs");
    }
    scan.SkipSpaces();
    if (!scan.AtEnd()) return scan.ErrorHere("unexpected text at the end of the node line");

    spec.name = std::string(name);
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return scan.Error(start + 1, node.status().message());
    declared_.push_back(
        {static_cast<uint32_t>(users), static_cast<uint32_t>(line_no_), static_cast<uint32_t>(count_at + 1)});
    return Status::Ok();
  }

  // `{key: value, ...}` with the cursor just past the `{`.
  Status ParseKwargs(Scanner& scan, ArgParser& parser, std::vector<Kwarg>* kwargs) {
    size_t open = scan.pos() - 1;
    while (true) {
      scan.SkipSpaces();
      if (scan.AtEnd()) return scan.Error(open, "unclosed '{' (expected '}' before the end of the line)");
      if (scan.PeekIs('}')) break;
      size_t key_at = scan.pos();
      std::string_view key = scan.While([](char c) { return c != ':' && c != ',' && c != '}'; });
      if (!scan.Consume(':')) return scan.Error(key_at, "expected 'name: value' in kwargs");
      Argument value;
      if (!parser.ParseValue(key, &value)) return scan.Failure();
      kwargs->push_back({std::string(key), std::move(value)});
      if (!scan.Consume(',') && !scan.AtEnd() && !scan.PeekIs('}')) {
        return scan.ErrorHere(
            fmt::format("mismatched '{}': expected '}}' to close '{{' at column {}", scan.Peek(), open + 1));
      }
    }
    scan.Advance();  // the '}'
    return Status::Ok();
  }

  // `return VALUE` (the cursor after `return`): Python's str() of the
  // output's argument, node names bare.
  Status ParseReturn(Scanner& scan) {
    ArgParser parser(scan, ArgDialect::kPython, graph_.get());
    scan.SkipSpaces();
    if (scan.AtEnd()) return scan.ErrorHere("expected a value after 'return'");
    Argument value;
    if (!parser.ParseValue({}, &value)) return scan.Failure();
    scan.SkipSpaces();
    if (!scan.AtEnd()) return scan.ErrorHere("unexpected text after the returned value");
    NodeSpec spec;
    spec.op = OpKind::kOutput;
    spec.target = "output";
    spec.name = graph_->Find("output") ? graph_->UniqueName("output") : "output";
    spec.args.push_back(std::move(value));
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return scan.Error(0, node.status().message());
    return Status::Ok();
  }

  // Line `number` of the text, if it was not given back (ReleaseTextBefore):
  // found by walking from the last release point (an error path).
  std::string_view SourceLine(size_t number) const {
    if (number < released_line_) return {};
    size_t start = released_;
    for (size_t n = released_line_; n < number && start < text_.size(); ++n) {
      size_t nl = text_.find('\n', start);
      start = nl == std::string_view::npos ? text_.size() : nl + 1;
    }
    std::string_view line = text_.substr(std::min(start, text_.size()));
    line = line.substr(0, line.find('\n'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  Status CheckUsers() {
    graph_->mutable_style().legacy_users = saw_legacy_ && !saw_modern_;
    const Node* node = graph_->front();
    for (const Declared& d : declared_) {
      size_t actual = node->users().size();
      if (d.users != actual) {
        std::string message =
            fmt::format("node '{}' is annotated with {} users but {} node(s) use it", node->name(), d.users, actual);
        std::string_view line = SourceLine(d.line);
        if (line.empty()) return ErrorAt(filename_, d.line, d.col, message);  // given back: no line to quote
        return Scanner(line, {filename_, d.line}).Error(d.col - 1, message);
      }
      node = node->next();
    }
    return Status::Ok();
  }

  std::string_view text_;
  std::string_view filename_;
  const ReleaseTextBefore& release_;
  size_t released_ = 0;       // the text before this offset may have been given back
  size_t released_line_ = 1;  // the line that starts at released_
  std::unique_ptr<Graph> graph_;
  size_t line_no_ = 0;
  size_t line_start_ = 0;
  bool saw_legacy_ = false;
  bool saw_modern_ = false;
  std::vector<Declared> declared_;
};

}  // namespace

Result<std::unique_ptr<Graph>> ParseFxText(std::string_view text, std::string_view filename,
                                           const ReleaseTextBefore& release) {
  return FxTextParser(text, filename, release).Run();
}

}  // namespace airscope
