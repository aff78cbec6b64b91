// Parser of the rewrite language (grammar in rewrite_language.h), on the
// shared Scanner (core/scanner.h): the language is line-oriented, so every
// error names its line and column ("line 4, column 9: ...") and quotes the
// line with a caret under the column.
#include "core/pass/rewrite_language.h"

#include "core/glob.h"

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/ir/dtype.h"
#include "core/scanner.h"

namespace airscope {
namespace {

constexpr int kMaxNesting = 64;

// The grammar's tokens over one rule's line. Words are ASCII letters, digits
// and '_' (IsWordChar); spaces and tabs separate tokens.
class RuleParser {
 public:
  RuleParser(std::string_view line, size_t line_number) : scan_(line, {{}, line_number}) {}

  Status Error(size_t pos, std::string_view message) const { return scan_.Error(pos, message); }
  size_t pos() const { return scan_.pos(); }
  // The end of the rule: the line's end or a `#` comment.
  bool AtEnd() {
    scan_.SkipBlanks();
    return scan_.AtEnd() || scan_.PeekIs('#');
  }
  // Where the next token starts (blanks skipped), for errors that point at it.
  size_t Next() { return scan_.SkipBlanks(); }
  bool NextIs(char c) {
    scan_.SkipBlanks();
    return scan_.PeekIs(c);
  }
  // The next word, or "" (not consumed).
  std::string_view PeekWord() {
    size_t at = scan_.SkipBlanks();
    std::string_view word = scan_.Word();
    scan_.Seek(at);
    return word;
  }
  bool Keyword(std::string_view word) {
    if (PeekWord() != word) return false;
    scan_.Advance(word.size());
    return true;
  }
  bool Char(char c) {
    scan_.SkipBlanks();
    return scan_.Consume(c);
  }
  // A run of non-blank characters up to (not including) `stop`.
  std::string_view Until(char stop) {
    scan_.SkipBlanks();
    return scan_.While([stop](char c) { return c != stop && c != ' ' && c != '\t'; });
  }
  Result<std::string> Identifier(std::string_view what) {
    std::string_view word = PeekWord();
    if (word.empty() || IsDigit(word[0])) return scan_.ErrorHere(fmt::format("expected {}", what));
    scan_.Advance(word.size());
    return std::string(word);
  }
  // A dotted name: aten.mm.default, torch.ops.air.record.default.
  Result<std::string> DottedName() {
    size_t start = scan_.SkipBlanks();
    std::string_view name = scan_.While([](char c) { return IsWordChar(c) || c == '.'; });
    if (name.empty() || name.find('.') == std::string_view::npos || name.front() == '.' || name.back() == '.' ||
        name.find("..") != std::string_view::npos) {
      return Error(start, "expected an op target such as air.record.default");
    }
    return std::string(name);
  }

  Result<CallTemplate> Call() {
    CallTemplate call;
    AIRSCOPE_ASSIGN_OR_RETURN(std::string target, DottedName());
    call.target = target;
    if (!Char('(')) return scan_.ErrorHere(fmt::format("expected '(' after {}", call.target));
    if (Char(')')) return call;
    while (true) {
      // KEY=VALUE?
      std::string_view word = PeekWord();
      size_t after = scan_.pos() + word.size();
      while (after < scan_.end() && scan_.text()[after] == ' ') ++after;
      if (!word.empty() && after < scan_.end() && scan_.text()[after] == '=' && !IsDigit(word[0])) {
        scan_.Seek(after + 1);
        AIRSCOPE_ASSIGN_OR_RETURN(ValueTemplate value, Value(0));
        call.kwargs.emplace_back(std::string(word), std::move(value));
      } else {
        if (!call.kwargs.empty()) return scan_.ErrorHere("a positional argument cannot follow a keyword argument");
        AIRSCOPE_ASSIGN_OR_RETURN(ValueTemplate value, Value(0));
        call.args.push_back(std::move(value));
      }
      if (Char(')')) return call;
      if (!Char(',')) return scan_.ErrorHere("expected ',' or ')' in the call's arguments");
      if (Char(')')) return call;  // trailing comma
    }
  }

  Result<ValueTemplate> Value(int depth) {
    if (depth > kMaxNesting) return scan_.ErrorHere("values nested too deeply");
    scan_.SkipBlanks();
    if (scan_.AtEnd()) return scan_.ErrorHere("expected a value");
    char c = scan_.Peek();
    ValueTemplate value;
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      value.kind = c == '[' ? ValueTemplate::Kind::kList : ValueTemplate::Kind::kTuple;
      scan_.Advance();
      bool comma = false;
      while (!Char(close)) {
        if (!value.items.empty() && !comma) return scan_.ErrorHere(fmt::format("expected ',' or '{}'", close));
        AIRSCOPE_ASSIGN_OR_RETURN(ValueTemplate item, Value(depth + 1));
        value.items.push_back(std::move(item));
        comma = Char(',');
      }
      // (x) is x in Python; (x,) is a tuple.
      if (value.kind == ValueTemplate::Kind::kTuple && value.items.size() == 1 && !comma) {
        return std::move(value.items[0]);
      }
      return value;
    }
    if (c == '$') {
      scan_.Advance();
      AIRSCOPE_ASSIGN_OR_RETURN(std::string name,
                                Identifier("a name after '$' ($node, $arg0 or a name bound with 'as')"));
      value.kind = ValueTemplate::Kind::kRef;
      value.ref = name;
      return value;
    }
    if (c == '\'' || c == '"') {
      std::string text;
      size_t at = scan_.pos();
      if (!scan_.QuotedString(&text, QuoteStyle::kPython)) return Error(at, "unterminated string");
      value.literal = Argument::String(std::move(text));
      return value;
    }
    size_t start = scan_.pos();
    std::string word(scan_.While([](char ch) { return IsWordChar(ch) || ch == '.' || ch == '-' || ch == '+'; }));
    if (word.empty()) return Error(start, fmt::format("unexpected '{}' where a value was expected", c));
    // Literals as torch prints them, read by the same ArgParser the graph
    // readers and `decomp add` use: None, True, 3, 1e-05, inf, -inf, nan,
    // torch.float32, torch.contiguous_format, torch.strided.
    ArgParser literals(word, ArgDialect::kPython, nullptr);
    size_t used = 0;
    Argument literal;
    if (literals.ParseValue(&used, {}, &literal) && used == word.size() && literal.kind() != Argument::Kind::kRaw) {
      value.literal = std::move(literal);
      return value;
    }
    if (word.rfind("torch.", 0) == 0) {
      return Error(start, fmt::format("unknown torch value '{}' (dtypes like torch.float32, memory formats like "
                                      "torch.contiguous_format)",
                                      word));
    }
    return Error(start,
                 fmt::format("'{}' is not a value (quote strings; refer to nodes as $node, $arg0 or $NAME)", word));
  }

 private:
  Scanner scan_;
};

bool IsReservedRef(std::string_view name) {
  if (name == "node") return true;
  if (name.size() > 3 && name.substr(0, 3) == "arg") {
    return name.substr(3).find_first_not_of("0123456789") == std::string_view::npos;
  }
  return false;
}

Result<RewriteRule> ParseRule(std::string_view line, size_t number) {
  RuleParser p(line, number);
  RewriteRule rule;
  rule.line = number;
  if (!p.Keyword("on")) return p.Error(p.pos(), "expected 'on PATTERN: ACTION'");
  size_t pattern_at = p.Next();
  if (p.Keyword("name")) {
    rule.by_name = true;
    if (p.NextIs(':')) {  // a target glob literally called `name`
      rule.by_name = false;
      rule.pattern = "name";
    }
  }
  if (rule.pattern.empty()) rule.pattern = std::string(p.Until(':'));
  if (rule.pattern.empty()) return p.Error(pattern_at, "expected a target pattern (or 'name GLOB') after 'on'");
  if (!p.Char(':')) return p.Error(p.pos(), "expected ':' after the pattern");
  size_t action_at = p.Next();
  if (p.Keyword("insert")) {
    if (p.Keyword("before")) {
      rule.action = RewriteAction::kInsertBefore;
    } else if (p.Keyword("after")) {
      rule.action = RewriteAction::kInsertAfter;
    } else {
      return p.Error(p.pos(), "expected 'before' or 'after' after 'insert'");
    }
    if (p.Char('$')) {
      AIRSCOPE_ASSIGN_OR_RETURN(std::string anchor, p.Identifier("a name after '$'"));
      rule.anchor = anchor;
    }
  } else if (p.Keyword("replace")) {
    if (!p.Keyword("with")) return p.Error(p.pos(), "expected 'with' after 'replace'");
    rule.action = RewriteAction::kReplace;
  } else if (p.Keyword("erase")) {
    rule.action = RewriteAction::kErase;
  } else if (p.Keyword("set")) {
    if (!p.Keyword("stream")) return p.Error(p.pos(), "expected 'stream' after 'set'");
    rule.action = RewriteAction::kSetStream;
    if (p.NextIs('\'') || p.NextIs('"')) {
      AIRSCOPE_ASSIGN_OR_RETURN(ValueTemplate quoted, p.Value(0));
      rule.stream = quoted.literal.as_string();
    } else {
      AIRSCOPE_ASSIGN_OR_RETURN(std::string stream, p.Identifier("a stream name"));
      rule.stream = stream;
    }
  } else {
    return p.Error(action_at, "expected an action: insert before|after, replace with, erase or set stream");
  }
  if (rule.action == RewriteAction::kInsertBefore || rule.action == RewriteAction::kInsertAfter ||
      rule.action == RewriteAction::kReplace) {
    AIRSCOPE_ASSIGN_OR_RETURN(CallTemplate call, p.Call());
    rule.call = std::move(call);
    if (p.Keyword("as")) {
      size_t at = p.Next();
      AIRSCOPE_ASSIGN_OR_RETURN(std::string bind, p.Identifier("a name after 'as'"));
      if (IsReservedRef(bind)) return p.Error(at, fmt::format("'{}' is reserved ($node, $argN)", bind));
      rule.bind = bind;
    }
  }
  if (!p.AtEnd()) return p.Error(p.pos(), "unexpected text after the action");
  return rule;
}

}  // namespace

Result<RewriteProgram> ParseRewriteProgram(const std::vector<std::string>& lines, size_t first_line) {
  RewriteProgram program;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    size_t last = line.find_last_not_of(" \t\r");
    AIRSCOPE_ASSIGN_OR_RETURN(RewriteRule rule, ParseRule(line.substr(0, last + 1), first_line + i));
    rule.text = std::string(line.substr(first, last - first + 1));
    program.rules.push_back(std::move(rule));
  }
  if (program.rules.empty())
    return Status::Errorf("line {}: the pass has no rules (write 'on PATTERN: ACTION')", first_line);
  return program;
}

Result<PassInfo> DefineRewritePass(const std::string& name, const std::vector<std::string>& lines, size_t first_line,
                                   const std::string& origin) {
  AIRSCOPE_ASSIGN_OR_RETURN(RewriteProgram program, ParseRewriteProgram(lines, first_line));
  PassInfo info;
  info.name = name;
  info.kind = PassKind::kUser;
  info.effects = EffectPolicy::kPreserveAliasing;  // rewrites may change the math, not what is written
  info.summary = fmt::format("rewrite pass, {} rule{}", program.rules.size(), program.rules.size() == 1 ? "" : "s");
  std::string help = fmt::format(
      "A user rewrite pass defined with `pass define` at {}:{}.\n"
      "Its rules, applied in order, each over every node in graph order:",
      origin, first_line > 0 ? first_line - 1 : 0);
  for (const RewriteRule& rule : program.rules) help += fmt::format("\n  {}", rule.text);
  info.help = std::move(help);
  info.run = MakeRewritePass(std::move(program));
  return info;
}

}  // namespace airscope
