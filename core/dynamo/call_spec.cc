#include "core/dynamo/call_spec.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/scanner.h"
#include "core/text.h"

namespace airscope {
namespace {

// Errors read "column N: message", N counted on the command line. A spec is
// one word of that line and the line is not at hand here: they are
// ColumnErrors (core/scanner.h), which the shell quotes with the line; so are
// those of the scanner below (quote_source = false).

// A scanner over one token that knows the column of every byte.
Scanner TokenScanner(const SpecToken& token) {
  return Scanner(token.text, {.filename = {}, .line = 0, .column = token.column, .quote_source = false});
}

// Parses `[a, b, ...]` at the cursor (which must be at '['); `what` is "size" or "stride".
// `starts` gets where each item begins.
Result<std::vector<int64_t>> ParseIntList(Scanner& scan, std::string_view what, std::vector<size_t>* starts) {
  if (!scan.PeekIs('[')) return scan.ErrorHere(fmt::format("expected '[' to start the {}s", what));
  size_t open = scan.pos();
  scan.Advance();
  std::vector<int64_t> values;
  scan.SkipSpaces();
  if (scan.Consume(']')) return values;
  while (true) {
    scan.SkipSpaces();
    if (scan.AtEnd()) return scan.Error(open, fmt::format("unterminated {} list: expected ']'", what));
    size_t start = scan.pos();
    if (scan.PeekIs('-')) {
      scan.Advance();
      std::string_view digits = scan.Digits();
      return scan.Error(start, fmt::format("negative {} -{}", what, digits));
    }
    std::string_view digits = scan.Digits();
    if (digits.empty()) {
      return scan.ErrorHere(fmt::format("expected a {} (a whole number), got '{}'", what, scan.Peek()));
    }
    Result<int64_t> value = ParseSizeNumber(digits, what);
    if (!value.ok()) return scan.Error(start, value.status().message());
    values.push_back(*value);
    starts->push_back(start);
    scan.SkipSpaces();
    if (scan.Consume(',')) continue;
    if (scan.Consume(']')) return values;
    if (scan.AtEnd()) return scan.Error(open, fmt::format("unterminated {} list: expected ']'", what));
    return scan.ErrorHere(fmt::format("expected ',' or ']' in the {} list, got '{}'", what, scan.Peek()));
  }
}

Result<CallInput> ParseOne(const SpecToken& token) {
  Scanner scan = TokenScanner(token);
  CallInput input;
  input.column = token.column;
  size_t eq = token.text.find('=');
  if (eq == std::string_view::npos) {
    return scan.Error(0, fmt::format("expected NAME=SPEC (e.g. x=f32[2,2]), got '{}'", token.text));
  }
  std::string_view name = token.text.substr(0, eq);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);  // `x = f32[2]`
  input.name = std::string(name);
  if (input.name.empty()) return scan.Error(0, "missing input name before '='");
  for (char c : input.name) {
    if (!IsWordChar(c)) return scan.Error(0, fmt::format("'{}' is not an input name", input.name));
  }
  scan.Seek(eq + 1);
  size_t dtype_start = scan.SkipSpaces();
  // NAME=VALUE: no brackets, so no tensor spec; a Python int, float or bool.
  if (token.text.find('[', eq) == std::string_view::npos) {
    std::string_view value = scan.Rest();
    PyScalar scalar = ParsePyScalar(value);
    // A str only as Python writes its literal, quoted ('train'): a bare word is more likely a typo'd spec.
    bool quoted = value.size() >= 2 && (value.front() == '\'' || value.front() == '"') && value.back() == value.front();
    if (value.empty() || (scalar.type == PyScalar::Type::kStr && !quoted)) {
      return scan.Error(dtype_start, fmt::format("'{}' is neither a tensor spec (DTYPE[SIZES], e.g. f32[2,2]) nor a "
                                                 "Python int, float, bool or quoted str (4, 0.5, True, 'train')",
                                                 value));
    }
    input.scalar = std::move(scalar);
    return input;
  }
  // f32 as annotations write it, or torch.float32 / float32 as torch prints dtypes.
  std::string_view dtype_text = scan.While([](char c) { return IsWordChar(c) || c == '.'; });
  if (dtype_text.empty()) return scan.Error(dtype_start, "expected a dtype (f32, f16, bf16, i64, b8, ...)");
  std::optional<DType> dtype = ParseShortDType(dtype_text);
  if (!dtype) dtype = ParseTorchDType(dtype_text);
  if (!dtype) dtype = ParseTorchDType(fmt::format("torch.{}", dtype_text));
  if (!dtype || *dtype == DType::kUnknown) {
    return scan.Error(
        dtype_start,
        fmt::format("unknown dtype '{}' (f32, f16, bf16, f64, i8, i16, i32, i64, u8, b8, ...)", dtype_text));
  }
  input.dtype = *dtype;
  std::vector<size_t> starts;  // where each size, then each stride, begins
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ParseIntList(scan, "size", &starts));
  input.sizes = std::move(sizes);
  // Strides as `@[..]`, or right after the sizes as torch's annotations print them (`f32[2, 2][2, 1]`).
  if (scan.PeekIs('@') || scan.PeekIs('[')) {
    scan.Consume('@');
    AIRSCOPE_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ParseIntList(scan, "stride", &starts));
    if (strides.size() != input.sizes.size()) {
      return scan.Error(eq + 1 + dtype_text.size(),
                        fmt::format("{} strides for {} sizes", strides.size(), input.sizes.size()));
    }
    input.strides = std::move(strides);
  }
  // The one size check (core/ir/tensor_meta.h): f32[4611686018427387904, 64]
  // is 2^68 elements, not a 512-byte buffer.
  size_t bad = 0;
  if (Status sized = CheckTensorSize(input.ToMeta(), &bad); !sized.ok()) {
    return scan.Error(bad < starts.size() ? starts[bad] : eq + 1, sized.message());
  }
  if (input.strides.empty()) {
    input.strides.assign(input.sizes.size(), 1);
    for (size_t i = input.sizes.size(); i-- > 1;) {
      // Checked: sizes come from the user, and a stride past int64 is no tensor.
      if (__builtin_mul_overflow(input.strides[i], std::max<int64_t>(input.sizes[i], 1), &input.strides[i - 1])) {
        return scan.Error(eq + 1, "the tensor is too large: its element count overflows int64");
      }
    }
  }
  // `:npu:0`, or `npu:0` / `cpu` straight after the brackets as torch's annotations print it.
  if (scan.PeekIs(':') || (scan.Peek() >= 'a' && scan.Peek() <= 'z')) {
    scan.Consume(':');
    std::string_view device = scan.Rest();
    if (device.empty()) return scan.ErrorHere("expected a device after ':' (npu:0, cpu)");
    std::string_view type = device.substr(0, device.find(':'));
    if (type != "npu" && type != "cpu" && type != "cuda" && type != "meta") {
      return scan.ErrorHere(fmt::format("unknown device '{}' (npu, npu:N, cpu, cuda:N)", device));
    }
    if (type.size() < device.size()) {
      std::string_view index = device.substr(type.size() + 1);
      int value = 0;
      auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), value);
      if (index.empty() || ec != std::errc() || ptr != index.data() + index.size()) {
        return scan.Error(scan.pos() + type.size() + 1, fmt::format("bad device index '{}'", index));
      }
    }
    input.device = type == "npu" && type.size() == device.size() ? "npu:0" : std::string(device);
    scan.Seek(token.text.size());
  }
  if (!scan.AtEnd()) {
    return scan.ErrorHere(fmt::format("unexpected '{}' after the shape (expected @[strides] or :device)", scan.Rest()));
  }
  input.ComputeHeader();
  return input;
}

}  // namespace

std::string CallInput::ShapeString() const {
  if (scalar) return scalar->repr;
  return fmt::format("{}[{}]", ShortName(dtype), fmt::join(sizes, ", "));
}

TensorMeta CallInput::ToMeta() const {
  TensorMeta m;
  m.dtype = dtype;
  for (int64_t s : sizes) m.sizes.emplace_back(s);
  for (int64_t s : strides) m.strides.emplace_back(s);
  m.device = device;
  return m;
}

uint32_t DeviceCode(std::string_view device) {
  std::string_view type = device.substr(0, device.find(':'));
  uint32_t index = 0;
  if (type.size() < device.size()) {
    std::string_view rest = device.substr(type.size() + 1);
    std::from_chars(rest.data(), rest.data() + rest.size(), index);
  }
  if (type == "cpu") return 0;
  if (type == "npu") return 0x10000 + index;
  if (type == "cuda") return 0x20000 + index;
  uint32_t hash = 0;
  for (char c : device) hash = hash * 31 + static_cast<unsigned char>(c);
  return 0x30000 + (hash & 0xff);
}

uint64_t PackHeader(DType dtype, uint32_t device_code, bool requires_grad, size_t rank) {
  return static_cast<uint64_t>(dtype) | (static_cast<uint64_t>(requires_grad) << 8) |
         (static_cast<uint64_t>(rank & 0xff) << 16) | (static_cast<uint64_t>(device_code) << 24);
}

void CallInput::ComputeHeader() { header = PackHeader(dtype, DeviceCode(device), requires_grad, sizes.size()); }

namespace {

int BracketBalance(std::string_view text) {
  int depth = 0;
  for (char c : text) depth += c == '[' ? 1 : c == ']' ? -1 : 0;
  return depth;
}

// The words of one input spec, rejoined: `x=f32[8, 64]` (split at the space
// inside the brackets, the way airscope and torch print shapes) and
// `x = f32[8,64]`. The gaps are refilled with as many spaces as they had, so
// every byte keeps its column for errors.
std::vector<std::pair<std::string, size_t>> JoinSpecWords(std::span<const SpecToken> tokens) {
  std::vector<std::pair<std::string, size_t>> joined;  // text, column
  for (size_t i = 0; i < tokens.size(); ++i) {
    const SpecToken& token = tokens[i];
    bool continues = false;
    if (!joined.empty()) {
      const std::string& last = joined.back().first;
      continues = BracketBalance(last) > 0 || last.back() == '=' || token.text.starts_with('=');
    }
    if (!continues) {
      joined.emplace_back(std::string(token.text), token.column);
      continue;
    }
    auto& [text, column] = joined.back();
    size_t end = column + text.size();
    text.append(token.column > end ? token.column - end : 1, ' ');
    text.append(token.text);
  }
  return joined;
}

}  // namespace

Result<CallSpec> ParseCall(std::span<const SpecToken> words) {
  std::vector<std::pair<std::string, size_t>> joined = JoinSpecWords(words);
  std::vector<SpecToken> tokens;
  for (const auto& [text, column] : joined) tokens.push_back({text, column});
  CallSpec call;
  std::vector<CallInput>& inputs = call.inputs;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const SpecToken& token = tokens[i];
    if (token.text == "keep") {
      if (call.keep) return ColumnError(token.column, "'keep' given twice");
      call.keep = true;
      call.keep_column = token.column;
      continue;
    }
    if (token.text == "param" || token.text == "in") {
      if (inputs.empty()) {
        return ColumnError(token.column, fmt::format("'{}' must follow an input spec (x=f32[2] {})", token.text,
                                                     token.text == "in" ? "in buf1" : "param"));
      }
      CallInput& last = inputs.back();
      if (last.scalar) {
        return ColumnError(token.column,
                           fmt::format("'{}' is for a tensor input; '{}' is a Python scalar", token.text, last.name));
      }
      if (token.text == "param") {
        last.parameter = true;
        continue;
      }
      if (i + 1 == tokens.size() || tokens[i + 1].text.find('=') != std::string_view::npos) {
        return ColumnError(token.column, "expected a buffer name after 'in' (x=f32[2] in buf1)");
      }
      const SpecToken& name = tokens[++i];
      if (!last.buffer.empty())
        return ColumnError(name.column, fmt::format("input '{}' is given two buffers", last.name));
      for (char c : name.text) {
        if (!IsWordChar(c) && c != '.' && c != '@') {
          return ColumnError(name.column, fmt::format("'{}' is not a buffer name (letters, digits, _ . @)", name.text));
        }
      }
      last.buffer = std::string(name.text);
      last.buffer_column = name.column;
      continue;
    }
    // `requires_grad` / `requires_grad=True` as torch spells the flag.
    if (token.text == "requires_grad=False") continue;
    if (token.text == "grad" || token.text == "requires_grad" || token.text == "requires_grad=True") {
      if (inputs.empty()) {
        return ColumnError(token.column, fmt::format("'{}' must follow an input spec (x=f32[2] grad)", token.text));
      }
      if (inputs.back().scalar) {
        return ColumnError(token.column, fmt::format("'{}' is for a tensor input; '{}' is a Python scalar", token.text,
                                                     inputs.back().name));
      }
      inputs.back().requires_grad = true;
      inputs.back().ComputeHeader();
      continue;
    }
    AIRSCOPE_ASSIGN_OR_RETURN(CallInput input, ParseOne(token));
    inputs.push_back(std::move(input));
  }
  if (inputs.empty()) return Status::Error("expected at least one input spec: NAME=DTYPE[SIZES] (e.g. x=f32[2,2])");
  return call;
}

Result<std::vector<CallInput>> ParseCallSpec(std::span<const SpecToken> words) {
  AIRSCOPE_ASSIGN_OR_RETURN(CallSpec call, ParseCall(words));
  if (call.keep) return ColumnError(call.keep_column, "'keep' belongs to a call (call x=f32[2] keep)");
  return std::move(call.inputs);
}

Result<std::vector<CallInput>> ParseCallSpec(std::string_view text) {
  std::vector<SpecToken> tokens;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    tokens.push_back({text.substr(pos, end - pos), pos + 1});
    pos = end;
  }
  return ParseCallSpec(tokens);
}

Result<std::vector<CallInput>> BindCallInputs(const Graph& graph, std::vector<CallInput> inputs) {
  std::vector<Node*> placeholders = graph.Placeholders();
  std::vector<std::string> names;
  for (const Node* p : placeholders) names.push_back(p->name());
  std::string takes = names.empty() ? "no inputs" : JoinAtMost(names, 8);
  std::vector<int> given(placeholders.size(), -1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto it = std::find(names.begin(), names.end(), inputs[i].name);
    if (it == names.end()) {
      return ColumnError(inputs[i].column,
                         fmt::format("no input named '{}' (the graph takes {})", inputs[i].name, takes));
    }
    size_t index = static_cast<size_t>(it - names.begin());
    if (given[index] >= 0) return ColumnError(inputs[i].column, fmt::format("input '{}' given twice", inputs[i].name));
    given[index] = static_cast<int>(i);
  }
  std::vector<CallInput> ordered;
  for (size_t i = 0; i < placeholders.size(); ++i) {
    if (given[i] < 0) {
      return Status::Errorf("missing input '{}': {} given, the graph takes {} ({})", names[i], inputs.size(),
                            names.size(), takes);
    }
    CallInput& input = inputs[static_cast<size_t>(given[i])];
    // The graph was traced at one rank; another rank is another graph (Dynamo
    // would trace anew), which a loaded graph cannot stand for.
    const TensorMeta* traced = placeholders[i]->tensor();
    const NodeMeta* meta = placeholders[i]->meta();
    if (input.scalar && traced && traced->dtype != DType::kUnknown) {
      return ColumnError(input.column, fmt::format("input '{}' is a tensor in the graph ({}), not a Python scalar",
                                                   input.name, traced->ShapeString()));
    }
    if (input.scalar && input.scalar->type != PyScalar::Type::kInt && meta && meta->kind == ValueKind::kSymInt) {
      return ColumnError(input.column, fmt::format("input '{}' is a SymInt in the graph ({}); a {} would be traced as "
                                                   "another graph",
                                                   input.name, meta->annotation, input.scalar->TypeRepr()));
    }
    if (!input.scalar && meta && meta->kind == ValueKind::kSymInt) {
      return ColumnError(input.column, fmt::format("input '{}' is a SymInt in the graph ({}): pass a Python int ({}=4)",
                                                   input.name, meta->annotation, input.name));
    }
    if (!input.scalar && traced && traced->dtype != DType::kUnknown && traced->sizes.size() != input.sizes.size()) {
      return ColumnError(input.column,
                         fmt::format("input '{}' is {} in the graph (rank {}); a rank-{} tensor would be "
                                     "traced as another graph",
                                     input.name, traced->ShapeString(), traced->sizes.size(), input.sizes.size()));
    }
    ordered.push_back(std::move(input));
  }
  return ordered;
}

}  // namespace airscope
