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
      }
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      size_t indent = line.find_first_not_of(' ');
      if (indent == std::string_view::npos) continue;  // blank
      if (!header) {
        if (line.substr(0, 6) != "graph(" || line.back() != ':') {
          return Error(0, "expected the 'graph():' header line");
        }
        header = true;
        continue;
      }
      if (returned) return Error(indent, "unexpected text after the 'return' line");
      if (indent == 0) return Error(0, "expected an indented node line ('%name : ...' or 'return ...')");
      line_ = line;
      if (line.substr(indent, 6) == "return" && (line.size() == indent + 6 || line[indent + 6] == ' ')) {
        AIRSCOPE_RETURN_IF_ERROR(ParseReturn(indent + 6));
        returned = true;
      } else if (line[indent] == '%') {
        AIRSCOPE_RETURN_IF_ERROR(ParseNode(indent));
      } else {
        return Error(indent, "expected '%name : ...' or 'return ...'");
      }
    }
    if (!header) return Error(0, "expected the 'graph():' header line");
    if (!returned) {
      // Just past the last character, counted from the last line read:
      // the text before it may have been released.
      LineCol end = LineColAt(text_.substr(line_start_), text_.size() - line_start_);
      return ErrorAt(filename_, line_no_ + end.line - 1, end.col,
                     "expected a 'return' line before the end of the file (truncated?)");
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

  Status Error(size_t col0, std::string_view message) const {
    return ErrorAt(filename_, line_no_, col0 + 1, message);
  }
  Status ParserError(const ArgParser& parser) const { return Error(parser.error_offset(), parser.error()); }

  bool Expect(size_t* pos, std::string_view token) const {
    if (line_.substr(*pos, token.size()) != token) return false;
    *pos += token.size();
    return true;
  }

  Status ParseNode(size_t start) {
    size_t pos = start + 1;
    while (pos < line_.size() && IsIdentChar(line_[pos])) ++pos;
    std::string_view name = line_.substr(start + 1, pos - start - 1);
    if (name.empty()) return Error(start, "expected a node name after '%'");
    if (!Expect(&pos, " : ")) return Error(pos, "expected ' : ' after the node name");
    graph_->PrefetchName(name);  // its slot is needed when the node is appended, after the args are parsed
    // torch 2.x may print a type before the users annotation; it carries nothing we keep.
    bool legacy = false;
    if (!Expect(&pos, "[num_users=")) {
      if (Expect(&pos, "[#users=")) {
        legacy = true;
      } else {
        size_t modern = line_.find(" [num_users=", pos);
        size_t old = line_.find(" [#users=", pos);
        if (modern == std::string_view::npos && old == std::string_view::npos) {
          return Error(pos, "expected '[num_users=N]' after ':'");
        }
        legacy = modern == std::string_view::npos || (old != std::string_view::npos && old < modern);
        pos = legacy ? old + 9 : modern + 12;
      }
    }
    if (legacy) saw_legacy_ = true; else saw_modern_ = true;
    size_t count_at = pos;
    uint64_t users = 0;
    while (pos < line_.size() && line_[pos] >= '0' && line_[pos] <= '9' && users < (uint64_t{1} << 40)) {
      users = users * 10 + static_cast<uint64_t>(line_[pos++] - '0');
    }
    if (pos == count_at) return Error(pos, "expected the number of users");
    if (users >= std::numeric_limits<uint32_t>::max()) {
      return Error(count_at, fmt::format("{} users is more than a graph can have", users));
    }
    if (!Expect(&pos, "]")) return Error(pos, "expected ']' after the number of users");
    if (!Expect(&pos, " = ")) return Error(pos, "expected '=' after the users annotation");
    size_t op_at = pos;
    while (pos < line_.size() && IsIdentChar(line_[pos])) ++pos;
    std::string_view op_text = line_.substr(op_at, pos - op_at);
    OpKind op;
    if (!ParseOpKind(op_text, &op) || op == OpKind::kOutput) {
      return Error(op_at, fmt::format("unknown op kind '{}' (expected placeholder, get_attr, call_function, "
                                      "call_method or call_module)",
                                      op_text));
    }
    if (!Expect(&pos, "[target=")) return Error(pos, "expected '[target=' after the op kind");
    size_t target_at = pos;
    int depth = 1;  // targets may contain brackets of their own
    for (; pos < line_.size(); ++pos) {
      if (line_[pos] == '[') ++depth;
      if (line_[pos] == ']' && --depth == 0) break;
    }
    if (pos >= line_.size()) return Error(target_at - 8, "unclosed '[target=' (expected ']')");
    std::string_view target = line_.substr(target_at, pos - target_at);
    ++pos;

    NodeSpec spec;
    spec.op = op;
    spec.target = std::string(target);
    ArgParser parser(line_, ArgDialect::kFx, graph_.get());
    if (op == OpKind::kPlaceholder) {
      if (Expect(&pos, "(default=")) {
        ArgParser value_parser(line_, ArgDialect::kPython, graph_.get());
        Argument value;
        if (!value_parser.ParseValue(&pos, {}, &value)) return ParserError(value_parser);
        if (!Expect(&pos, ")")) return Error(pos, "expected ')' after the placeholder's default value");
        spec.args.push_back(std::move(value));
      }
    } else if (op != OpKind::kGetAttr) {
      if (!Expect(&pos, "(args = ")) return Error(pos, "expected '(args = ' after the target");
      if (pos >= line_.size() || line_[pos] != '(') return Error(pos, "expected '(' to start the args tuple");
      if (!parser.ParseItems(&pos, &spec.args)) return ParserError(parser);
      if (!Expect(&pos, ", kwargs = {")) return Error(pos, "expected ', kwargs = {' after the args tuple");
      AIRSCOPE_RETURN_IF_ERROR(ParseKwargs(parser, pos - 1, &pos, &spec.kwargs));
      if (!Expect(&pos, ")")) return Error(pos, "expected ')' after the kwargs");
    }
    while (pos < line_.size() && line_[pos] == ' ') ++pos;
    if (pos != line_.size()) return Error(pos, "unexpected text at the end of the node line");

    spec.name = std::string(name);
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(start + 1, node.status().message());
    declared_.push_back({static_cast<uint32_t>(users), static_cast<uint32_t>(line_no_),
                         static_cast<uint32_t>(count_at + 1)});
    return Status::Ok();
  }

  // `{key: value, ...}` with *pos just past the `{` at `open`.
  Status ParseKwargs(ArgParser& parser, size_t open, size_t* pos, std::vector<Kwarg>* kwargs) {
    size_t i = *pos;
    while (true) {
      parser.SkipSpaces(&i);
      if (i >= line_.size()) return Error(open, "unclosed '{' (expected '}' before the end of the line)");
      if (line_[i] == '}') break;
      size_t key_at = i;
      while (i < line_.size() && line_[i] != ':' && line_[i] != ',' && line_[i] != '}') ++i;
      if (i >= line_.size() || line_[i] != ':') return Error(key_at, "expected 'name: value' in kwargs");
      std::string_view key = line_.substr(key_at, i - key_at);
      ++i;
      Argument value;
      if (!parser.ParseValue(&i, key, &value)) return ParserError(parser);
      kwargs->push_back({std::string(key), std::move(value)});
      if (i < line_.size() && line_[i] == ',') {
        ++i;
      } else if (i < line_.size() && line_[i] != '}') {
        return Error(i, fmt::format("mismatched '{}': expected '}}' to close '{{' at column {}", line_[i], open + 1));
      }
    }
    *pos = i + 1;
    return Status::Ok();
  }

  // `return VALUE`: Python's str() of the output's argument, node names bare.
  Status ParseReturn(size_t pos) {
    ArgParser parser(line_, ArgDialect::kPython, graph_.get());
    parser.SkipSpaces(&pos);
    if (pos >= line_.size()) return Error(pos, "expected a value after 'return'");
    Argument value;
    if (!parser.ParseValue(&pos, {}, &value)) return ParserError(parser);
    parser.SkipSpaces(&pos);
    if (pos != line_.size()) return Error(pos, "unexpected text after the returned value");
    NodeSpec spec;
    spec.op = OpKind::kOutput;
    spec.target = "output";
    spec.name = graph_->Find("output") ? graph_->UniqueName("output") : "output";
    spec.args.push_back(std::move(value));
    auto node = graph_->AppendNamed(std::move(spec));
    if (!node.ok()) return Error(0, node.status().message());
    return Status::Ok();
  }

  Status CheckUsers() {
    graph_->mutable_style().legacy_users = saw_legacy_ && !saw_modern_;
    const Node* node = graph_->front();
    for (const Declared& d : declared_) {
      size_t actual = node->users().size();
      if (d.users != actual) {
        return ErrorAt(filename_, d.line, d.col,
                       fmt::format("node '{}' is annotated with {} users but {} node(s) use it", node->name(),
                                   d.users, actual));
      }
      node = node->next();
    }
    return Status::Ok();
  }

  std::string_view text_;
  std::string_view filename_;
  const ReleaseTextBefore& release_;
  size_t released_ = 0;
  std::unique_ptr<Graph> graph_;
  std::string_view line_;
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
