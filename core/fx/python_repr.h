// Python spellings of argument values, shared by the FX text and readable
// printers: torch.fx's `_format_arg` (FX text: nodes as `%name`, strings bare,
// devices as `cpu`) and Python's repr() as FX codegen emits it (readable
// code: strings quoted, `device(type='cpu')`).
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/ir/argument.h"

namespace airscope {

// Python's repr(float): shortest round-trip digits, `1e-05`, `0.1`, `6.0`, `inf`, `-inf`, `nan`.
std::string PythonFloatRepr(double value);
// Python's repr(str) with single quotes and Python's escapes.
std::string PythonStringRepr(const std::string& value);
// One argument as torch.fx.node._format_arg prints it in FX graph text.
std::string FormatFxArg(const Argument& arg);
// One argument as FX's Python codegen prints it in readable code.
std::string FormatPythonArg(const Argument& arg);

// `text`, appended: the printers' one way to add literal text to a buffer.
inline void AppendText(fmt::memory_buffer& out, std::string_view text) {
  out.append(text.data(), text.data() + text.size());
}

// Appending forms of the above, for printers that build one large buffer
// (formatting a million nodes through temporary strings is measurably slower).
void AppendPythonFloatRepr(fmt::memory_buffer& out, double value);
void AppendFxArg(fmt::memory_buffer& out, const Argument& arg);
void AppendPythonArg(fmt::memory_buffer& out, const Argument& arg);

}  // namespace airscope
