// See arg_parser.h for the grammar and the error contract.
#include "core/fx/arg_parser.h"
#include "core/text.h"

#include <charconv>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace airscope {
namespace {

bool IsCloser(char c) { return c == ')' || c == ']' || c == '}'; }

char CloserFor(char open) {
  switch (open) {
    case '(': return ')';
    case '[': return ']';
    default: return '}';
  }
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdentChar(c)) return false;
  }
  return true;
}

bool HasBracketOrQuote(std::string_view s) {
  for (char c : s) {
    if (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\'' || c == '"') return true;
  }
  return false;
}

// `device(type='cuda', index=0)` / `device(type='cpu')`, as torch.device's repr.
bool ParseDeviceRepr(std::string_view s, Device* out) {
  constexpr std::string_view kHead = "device(type=";
  if (s.substr(0, kHead.size()) != kHead || s.size() < kHead.size() + 3 || s.back() != ')') return false;
  s.remove_prefix(kHead.size());
  s.remove_suffix(1);
  char q = s[0];
  if (q != '\'' && q != '"') return false;
  size_t close = s.find(q, 1);
  if (close == std::string_view::npos) return false;
  std::string spec(s.substr(1, close - 1));
  std::string_view rest = s.substr(close + 1);
  if (!rest.empty()) {
    constexpr std::string_view kIndex = ", index=";
    if (rest.substr(0, kIndex.size()) != kIndex) return false;
    rest.remove_prefix(kIndex.size());
    if (rest.empty() || spec.find(':') != std::string::npos) return false;
    spec += ':';
    spec += rest;
  }
  return Device::Parse(spec, out);
}

}  // namespace

bool ArgParser::NodeByName(std::string_view name, size_t offset, Argument* out) {
  Node* node = graph_ ? graph_->Find(name) : nullptr;
  if (node == nullptr) return Fail(offset, fmt::format("name '{}' used before definition", name));
  *out = Argument::NodeRef(node);
  return true;
}

bool ArgParser::QuotedString(size_t* pos, std::string* out) {
  scan_->Seek(*pos);
  bool ok = scan_->QuotedString(out, QuoteStyle::kPython);
  *pos = scan_->pos();
  return ok;
}

bool ArgParser::SkipBalanced(size_t* pos) {
  std::vector<size_t> open;  // offsets of unclosed openers; a vector, so depth costs no stack
  size_t i = *pos;
  bool python = dialect_ == ArgDialect::kPython;
  while (i < line_.size()) {
    char c = line_[i];
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(i);
    } else if (IsCloser(c)) {
      if (open.empty()) break;
      char want = CloserFor(line_[open.back()]);
      if (c != want) {
        return Fail(i, fmt::format("mismatched '{}': expected '{}' to close '{}' at column {}", c, want,
                                   line_[open.back()], open.back() + 1));
      }
      open.pop_back();
    } else if (c == ',' && open.empty()) {
      break;
    } else if (python && (c == '\'' || c == '"')) {
      std::string scratch;
      size_t p = i;
      if (!QuotedString(&p, &scratch)) return false;
      i = p;
      continue;
    }
    ++i;
  }
  if (!open.empty()) {
    return Fail(open.back(), fmt::format("unclosed '{}' (expected '{}' before the end of the line)", line_[open.back()],
                                         CloserFor(line_[open.back()])));
  }
  *pos = i;
  return true;
}

bool ArgParser::Value(size_t* pos, std::string_view kwarg, int depth, Argument* out) {
  SkipSpaces(pos);
  size_t start = *pos;
  if (start >= line_.size() || line_[start] == ',' || IsCloser(line_[start])) {
    return Fail(start, "expected a value");
  }
  char c = line_[start];
  bool structured = false;  // parsed by its own grammar; must be followed by a separator
  if (c == '%' && dialect_ == ArgDialect::kFx) {
    size_t i = start + 1;
    while (i < line_.size() && IsIdentChar(line_[i])) ++i;
    if (i == start + 1) return Fail(start, "expected a node name after '%'");
    if (!NodeByName(line_.substr(start + 1, i - start - 1), start, out)) return false;
    *pos = i;
    structured = true;
  } else if (c == '[' || c == '(') {
    if (depth >= kMaxDepth) return Fail(start, fmt::format("nesting deeper than {} levels", kMaxDepth));
    if (!Sequence(pos, depth + 1, out)) return false;
    structured = true;
  } else if ((c == '\'' || c == '"') && dialect_ == ArgDialect::kPython) {
    std::string text;
    if (!QuotedString(pos, &text)) return false;
    *out = Argument::String(std::move(text));
    structured = true;
  }
  if (structured) {
    size_t after = *pos;
    SkipSpaces(&after);
    if (after >= line_.size() || line_[after] == ',' || IsCloser(line_[after])) {
      *pos = after;
      return true;
    }
    *pos = start;  // e.g. `(1) * 2`: not a literal after all; keep it verbatim below
  }
  if (!SkipBalanced(pos)) return false;
  std::string_view text = TrimRight(line_.substr(start, *pos - start), " ");
  return Atom(text, start, kwarg, out);
}

bool ArgParser::Sequence(size_t* pos, int depth, Argument* out) {
  bool tuple = line_[*pos] == '(';
  std::vector<Argument> items;
  bool trailing_comma = false;
  if (!Items(pos, depth, &items, &trailing_comma)) return false;
  // As in Python, `(a)` is a itself and `(a,)` the 1-tuple (FX prints that).
  if (tuple && items.size() == 1 && !trailing_comma) {
    *out = std::move(items.front());
    return true;
  }
  *out = tuple ? Argument::Tuple(std::move(items)) : Argument::List(std::move(items));
  return true;
}

bool ArgParser::Items(size_t* pos, int depth, std::vector<Argument>* items, bool* trailing_comma) {
  if (trailing_comma) *trailing_comma = false;
  size_t open = *pos;
  char closer = line_[open] == '[' ? ']' : ')';
  size_t i = open + 1;
  while (true) {
    SkipSpaces(&i);
    if (i >= line_.size()) {
      return Fail(open, fmt::format("unclosed '{}' (expected '{}' before the end of the line)", line_[open], closer));
    }
    if (line_[i] == closer) break;
    Argument item;
    if (!Value(&i, {}, depth, &item)) return false;
    items->push_back(std::move(item));
    if (i >= line_.size()) continue;  // reported as unclosed above
    char c = line_[i];
    if (trailing_comma) *trailing_comma = c == ',';
    if (c == ',') {
      ++i;
    } else if (c != closer) {
      return Fail(i, fmt::format("mismatched '{}': expected '{}' to close '{}' at column {}", c, closer, line_[open],
                                 open + 1));
    }
  }
  *pos = i + 1;
  return true;
}

bool ArgParser::PythonRaw(std::string_view text, size_t start, Argument* out) {
  // Each identifier outside quotes that is not an attribute (`x.T`'s T), a
  // callee or a keyword, and names a node, makes the value an expression
  // over that node.
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      continue;
    }
    if (!IsIdentStart(c) || (i > 0 && (IsIdentChar(text[i - 1]) || text[i - 1] == '.'))) continue;
    size_t end = i;
    while (end < text.size() && IsIdentChar(text[end])) ++end;
    std::string_view name = text.substr(i, end - i);
    size_t next = end;
    while (next < text.size() && text[next] == ' ') ++next;
    // A callee (`slice(None, None, None)`: aten graphs also have nodes named
    // slice) or a keyword (`f(type='cpu')`) is not a use of a node.
    bool callee_or_keyword =
        next < text.size() &&
        (text[next] == '(' || (text[next] == '=' && (next + 1 >= text.size() || text[next + 1] != '=')));
    if (!callee_or_keyword && graph_ && graph_->Find(name) != nullptr) {
      return Fail(start + i, fmt::format("'{}' is an expression over node '{}': torch writes every value on a line "
                                         "of its own, so an argument is a name or a literal (as raw text its edge "
                                         "to '{}' would be lost)",
                                         text, name, name));
    }
    i = end - 1;
  }
  *out = Argument::Raw(std::string(text));
  return true;
}

bool ArgParser::Atom(std::string_view text, size_t start, std::string_view kwarg, Argument* out) {
  if (text.empty()) return Fail(start, "expected a value");
  if (text == "None") return *out = Argument::None(), true;
  if (text == "True") return *out = Argument::Bool(true), true;
  if (text == "False") return *out = Argument::Bool(false), true;
  const char* b = text.data();
  const char* e = b + text.size();
  char c0 = text[0];
  if ((c0 >= '0' && c0 <= '9') || c0 == '-' || c0 == '.' || text == "inf" || text == "nan") {
    int64_t iv = 0;
    auto [ip, iec] = std::from_chars(b, e, iv);
    if (ip == e) {
      if (iec == std::errc()) return *out = Argument::Int(iv), true;
      return *out = Argument::Raw(std::string(text)), true;  // wider than int64: keep the digits
    }
    double dv = 0;
    auto [dp, dec] = std::from_chars(b, e, dv);
    if (dp == e && dec == std::errc()) return *out = Argument::Float(dv), true;
  }
  if (text.substr(0, 6) == "torch.") {
    if (auto dtype = ParseTorchDType(text)) return *out = Argument::OfDType(*dtype), true;
    MemoryFormat format;
    if (ParseMemoryFormat(text, &format)) return *out = Argument::OfMemoryFormat(format), true;
    Layout layout;
    if (ParseLayout(text, &layout)) return *out = Argument::OfLayout(layout), true;
    return *out = Argument::Raw(std::string(text)), true;
  }
  Device device;
  if (dialect_ == ArgDialect::kPython) {
    // Python's repr of `...` in an index tuple (`x[(Ellipsis, None)]`): a
    // constant, not a node.
    if (text == "Ellipsis") return *out = Argument::Raw(std::string(text)), true;
    if (ParseDeviceRepr(text, &device)) return *out = Argument::OfDevice(std::move(device)), true;
    if (IsIdentifier(text)) return NodeByName(text, start, out);
    return PythonRaw(text, start, out);
  }
  if ((kwarg == "device" || text.find(':') != std::string_view::npos) && Device::Parse(text, &device)) {
    return *out = Argument::OfDevice(std::move(device)), true;
  }
  if (HasBracketOrQuote(text) || c0 == '%') return *out = Argument::Raw(std::string(text)), true;
  return *out = Argument::String(std::string(text)), true;
}

}  // namespace airscope
