#include "core/dynamo/guard_failure.h"

#include <cctype>
#include <charconv>

#include "core/text.h"

namespace airscope {
namespace {

bool Consume(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// "0/3: ..." -> "0/3"; also "!0/3/0", "0/3_1".
std::string TakeCompileId(std::string_view& text) {
  size_t colon = text.find(": ");
  if (colon == std::string_view::npos || colon == 0) return "";
  std::string_view id = text.substr(0, colon);
  bool slash = false;
  for (char c : id) {
    if (c == '/') {
      slash = true;
    } else if (!std::isdigit(static_cast<unsigned char>(c)) && c != '!' && c != '_') {
      return "";
    }
  }
  if (!slash) return "";
  text.remove_prefix(colon + 2);
  return std::string(id);
}

// The text between "expected " and ", actual " / "actual " to the end (or '.').
void ReadExpectedActual(std::string_view rest, GuardFailure& f) {
  size_t e = rest.find("expected ");
  if (e == std::string_view::npos) return;
  std::string_view after = rest.substr(e + 9);
  size_t comma = after.find(", actual ");
  if (comma == std::string_view::npos) {
    size_t end = after.find_first_of(". ");
    f.expected = std::string(after.substr(0, end));
    return;
  }
  f.expected = std::string(after.substr(0, comma));
  std::string_view actual = after.substr(comma + 9);
  size_t end = actual.find(". ");
  if (end == std::string_view::npos && actual.ends_with('.')) end = actual.size() - 1;
  f.actual = std::string(actual.substr(0, end));
}

int64_t LeadingInt(std::string_view text) {
  int64_t value = -1;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// `tensor 'SOURCE' WHAT`: the source may itself hold quotes (`L['x']`), so it
// ends at the last "' " before a known mismatch word.
bool ParseTensorCheck(std::string_view reason, GuardFailure& f) {
  std::string_view text = reason;
  if (!Consume(text, "tensor '")) return false;
  static constexpr std::pair<std::string_view, GuardFailure::Kind> kForms[] = {
      {"' size mismatch at index ", GuardFailure::Kind::kSize},
      {"' stride mismatch at index ", GuardFailure::Kind::kStride},
      {"' dtype mismatch.", GuardFailure::Kind::kDtype},
      {"' device index mismatch.", GuardFailure::Kind::kDevice},
      {"' dispatch key set mismatch.", GuardFailure::Kind::kDevice},
      {"' requires_grad mismatch.", GuardFailure::Kind::kRequiresGrad},
      {"' rank mismatch.", GuardFailure::Kind::kRank},
      {"' is not a torch.Tensor", GuardFailure::Kind::kNotTensor},
  };
  for (const auto& [marker, kind] : kForms) {
    size_t at = text.find(marker);
    if (at == std::string_view::npos) continue;
    f.kind = kind;
    f.source = std::string(text.substr(0, at));
    std::string_view rest = text.substr(at + marker.size());
    if (kind == GuardFailure::Kind::kSize || kind == GuardFailure::Kind::kStride) f.dim = LeadingInt(rest);
    if (kind == GuardFailure::Kind::kRequiresGrad) {
      // "expected requires_grad=0": the call's is the other one.
      size_t eq = rest.find("requires_grad=");
      if (eq != std::string_view::npos) {
        f.expected = std::string(rest.substr(eq + 14, 1));
        f.actual = std::string(f.expected == "0" ? "1" : "0");
      }
    } else {
      ReadExpectedActual(rest, f);
    }
    f.parameter = rest.find("Guard failed on a parameter") != std::string_view::npos;
    return true;
  }
  return false;
}

// `NAME(ARG, VALUE)` -> ARG and VALUE (ARG may hold commas inside brackets).
bool ParseGuardCall(std::string_view reason, std::string_view name, GuardFailure& f) {
  std::string_view text = reason;
  if (!Consume(text, name) || !Consume(text, "(") || !text.ends_with(')')) return false;
  text.remove_suffix(1);
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      f.source = std::string(Trim(text.substr(0, i), " "));
      f.expected = std::string(Trim(text.substr(i + 1), " "));
      return true;
    }
  }
  return false;
}

}  // namespace

GuardFailure ParseGuardFailure(std::string_view line) {
  GuardFailure f;
  std::string_view text = Trim(line, " \t");
  Consume(text, "- ");
  f.entry = TakeCompileId(text);
  f.reason = std::string(text);
  if (ParseTensorCheck(text, f)) return f;
  if (text == "___check_global_state()") {
    f.kind = GuardFailure::Kind::kGlobalState;
    return f;
  }
  if (ParseGuardCall(text, "___check_obj_id", f)) {
    f.kind = GuardFailure::Kind::kObjectId;
    return f;
  }
  if (ParseGuardCall(text, "___check_type_id", f)) {
    f.kind = GuardFailure::Kind::kTypeId;
    return f;
  }
  if (text.starts_with("len(")) {
    size_t close = text.find(") == ");
    if (close != std::string_view::npos) {
      f.kind = GuardFailure::Kind::kLength;
      f.source = std::string(text.substr(4, close - 4));
      f.expected = std::string(Trim(text.substr(close + 5), " "));
      return f;
    }
  }
  // EQUALS_MATCH: `SOURCE == VALUE`, torch 2.1 adding ", with LHS value: V".
  size_t eq = text.find(" == ");
  if (eq != std::string_view::npos && text.find(".size()[") == std::string_view::npos) {
    std::string_view value = text.substr(eq + 4);
    size_t lhs = value.find(", with LHS value: ");
    if (lhs != std::string_view::npos) {
      f.actual = std::string(Trim(value.substr(lhs + 18), " "));
      value = value.substr(0, lhs);
    }
    f.kind = GuardFailure::Kind::kConstant;
    f.source = std::string(Trim(text.substr(0, eq), " "));
    f.expected = std::string(Trim(value, " "));
    return f;
  }
  return f;
}

std::string_view GuardFailureClass(GuardFailure::Kind kind) {
  switch (kind) {
    case GuardFailure::Kind::kSize: return "size";
    case GuardFailure::Kind::kStride: return "stride";
    case GuardFailure::Kind::kRank: return "rank";
    case GuardFailure::Kind::kDtype: return "dtype";
    case GuardFailure::Kind::kDevice: return "device";
    case GuardFailure::Kind::kRequiresGrad: return "grad mode (requires_grad)";
    case GuardFailure::Kind::kNotTensor: return "not a tensor";
    case GuardFailure::Kind::kConstant: return "constant value (EQUALS_MATCH)";
    case GuardFailure::Kind::kObjectId: return "object identity (ID_MATCH)";
    case GuardFailure::Kind::kTypeId: return "type (TYPE_MATCH)";
    case GuardFailure::Kind::kGlobalState: return "global state";
    case GuardFailure::Kind::kLength: return "container length";
    case GuardFailure::Kind::kOther: return "unrecognised guard";
  }
  return "unrecognised guard";
}

std::string_view UnfixableAdvice(GuardFailure::Kind kind) {
  switch (kind) {
    case GuardFailure::Kind::kObjectId:
      return "a new object of the same class per call: create it once and pass the same one";
    case GuardFailure::Kind::kTypeId: return "a value of another type per call: pass the same type every call";
    case GuardFailure::Kind::kGlobalState:
      return "global state (grad mode, autocast, deterministic algorithms, ...) differs between calls: keep it fixed "
             "around the compiled function";
    case GuardFailure::Kind::kDtype: return "another dtype per call: cast once, before the call";
    case GuardFailure::Kind::kDevice: return "another device per call: keep the tensor on one device";
    case GuardFailure::Kind::kRequiresGrad:
      return "requires_grad differs between calls (training vs inference, or a detach): keep one grad mode per "
             "compiled function";
    case GuardFailure::Kind::kRank: return "another number of dims per call: Dynamo compiles each rank apart";
    case GuardFailure::Kind::kNotTensor: return "a tensor in some calls and not in others: pass one kind";
    case GuardFailure::Kind::kLength:
      return "a list or tuple of another length per call: Dynamo unrolls containers; pad to one length or pass a "
             "tensor";
    case GuardFailure::Kind::kOther: return "a guard airscope does not read: not replayed";
    default: return "";
  }
}

std::string SourceInputName(std::string_view source) {
  std::string_view text = source;
  if (text.starts_with("L['") && text.ends_with("']") && text.find('[', 2) == std::string_view::npos) {
    return std::string(text.substr(3, text.size() - 5));
  }
  // `L['self'].param_groups[0]['lr']` -> self_param_groups_0_lr: the local's
  // name unwrapped, every run of other characters one '_'.
  std::string unwrapped(text);
  if (unwrapped.starts_with("L['")) {
    size_t close = unwrapped.find("']");
    if (close != std::string::npos) unwrapped = unwrapped.substr(3, close - 3) + unwrapped.substr(close + 2);
  }
  std::string name;
  for (char c : unwrapped) {
    bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (word) {
      name += c;
    } else if (!name.empty() && name.back() != '_') {
      name += '_';
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name.empty() ? "input" : name;
}

}  // namespace airscope
