// Python spellings of argument values; see python_repr.h for the contract.
#include "core/fx/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "core/ir/node.h"

namespace airscope {
namespace {

void AppendInt(fmt::memory_buffer& out, int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  (void)ec;
  out.append(buf, end);
}

void AppendStringRepr(fmt::memory_buffer& out, std::string_view value) {
  // Python prefers single quotes and switches to double quotes only when the
  // text has a single quote and no double quote.
  bool has_single = value.find('\'') != std::string_view::npos;
  bool has_double = value.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  out.push_back(quote);
  for (char ch : value) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\\': AppendText(out, "\\\\"); break;
      case '\n': AppendText(out, "\\n"); break;
      case '\r': AppendText(out, "\\r"); break;
      case '\t': AppendText(out, "\\t"); break;
      default:
        if (c == static_cast<unsigned char>(quote)) {
          out.push_back('\\');
          out.push_back(ch);
        } else if (c < 0x20 || c == 0x7f) {
          fmt::format_to(std::back_inserter(out), "\\x{:02x}", c);
        } else {
          out.push_back(ch);  // printable ASCII and UTF-8 bytes (Python keeps printable non-ASCII)
        }
    }
  }
  out.push_back(quote);
}

// Sequences as Python prints them: `[a, b]`, `(a,)`, `(a, b)`.
template <typename ItemFn>
void AppendSequence(fmt::memory_buffer& out, const Argument& arg, ItemFn&& item) {
  bool tuple = arg.kind() == Argument::Kind::kTuple;
  auto items = arg.items();
  out.push_back(tuple ? '(' : '[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) AppendText(out, ", ");
    item(out, items[i]);
  }
  if (tuple && items.size() == 1) out.push_back(',');
  out.push_back(tuple ? ')' : ']');
}

}  // namespace

void AppendPythonFloatRepr(fmt::memory_buffer& out, double value) {
  if (std::isnan(value)) return AppendText(out, "nan");
  if (std::isinf(value)) return AppendText(out, value < 0 ? "-inf" : "inf");
  // Shortest round-trip digits in scientific form, then laid out the way
  // Python's repr does: fixed notation for exponents in [-4, 16).
  char sci[64];
  auto [end, ec] = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific);
  (void)ec;
  std::string_view s(sci, static_cast<size_t>(end - sci));
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  size_t e_pos = s.find('e');
  std::string_view mantissa = s.substr(0, e_pos);
  int exponent = std::atoi(std::string(s.substr(e_pos + 1)).c_str());
  char digits[32];
  size_t n = 0;
  for (char c : mantissa) {
    if (c != '.') digits[n++] = c;
  }
  if (negative) out.push_back('-');
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      AppendText(out, "0.");
      for (int i = 0; i < -exponent - 1; ++i) out.push_back('0');
      out.append(digits, digits + n);
    } else {
      size_t int_digits = static_cast<size_t>(exponent) + 1;
      for (size_t i = 0; i < int_digits; ++i) out.push_back(i < n ? digits[i] : '0');
      out.push_back('.');
      if (n > int_digits) {
        out.append(digits + int_digits, digits + n);
      } else {
        out.push_back('0');
      }
    }
    return;
  }
  out.push_back(digits[0]);
  if (n > 1) {
    out.push_back('.');
    out.append(digits + 1, digits + n);
  }
  fmt::format_to(std::back_inserter(out), "e{}{:02d}", exponent < 0 ? '-' : '+', std::abs(exponent));
}

void AppendFxArg(fmt::memory_buffer& out, const Argument& arg) {
  using K = Argument::Kind;
  switch (arg.kind()) {
    case K::kNone: return AppendText(out, "None");
    case K::kBool: return AppendText(out, arg.as_bool() ? "True" : "False");
    case K::kInt: return AppendInt(out, arg.as_int());
    case K::kFloat: return AppendPythonFloatRepr(out, arg.as_float());
    case K::kString:
    case K::kRaw: return AppendText(out, arg.as_string());  // _format_arg prints str bare
    case K::kNode: out.push_back('%'); return AppendText(out, arg.as_node()->name());
    case K::kList:
    case K::kTuple: return AppendSequence(out, arg, AppendFxArg);
    case K::kDType: return AppendText(out, TorchName(arg.as_dtype()));
    case K::kDevice: {
      const Device& d = arg.as_device();
      AppendText(out, d.type);
      if (d.index >= 0) {
        out.push_back(':');
        AppendInt(out, d.index);
      }
      return;
    }
    case K::kMemoryFormat: return AppendText(out, TorchName(arg.as_memory_format()));
    case K::kLayout: return AppendText(out, TorchName(arg.as_layout()));
  }
}

void AppendPythonArg(fmt::memory_buffer& out, const Argument& arg) {
  using K = Argument::Kind;
  switch (arg.kind()) {
    case K::kString: return AppendStringRepr(out, arg.as_string());
    case K::kNode: return AppendText(out, arg.as_node()->name());
    case K::kList:
    case K::kTuple: return AppendSequence(out, arg, AppendPythonArg);
    case K::kDevice: return AppendText(out, arg.as_device().Repr());
    default: return AppendFxArg(out, arg);  // the same spelling in both
  }
}

std::string PythonFloatRepr(double value) {
  fmt::memory_buffer out;
  AppendPythonFloatRepr(out, value);
  return fmt::to_string(out);
}

std::string PythonStringRepr(const std::string& value) {
  fmt::memory_buffer out;
  AppendStringRepr(out, value);
  return fmt::to_string(out);
}

std::string FormatFxArg(const Argument& arg) {
  fmt::memory_buffer out;
  AppendFxArg(out, arg);
  return fmt::to_string(out);
}

std::string FormatPythonArg(const Argument& arg) {
  fmt::memory_buffer out;
  AppendPythonArg(out, arg);
  return fmt::to_string(out);
}

}  // namespace airscope
