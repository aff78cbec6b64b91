// FX readable code: what `gm.print_readable()` and TORCH_LOGS=aot_graphs print.
//
//   class GraphModule(torch.nn.Module):
//       def forward(self, arg0_1: "f32[3, 3]"):
//           # File: model.py:12 in forward, code: mm = torch.mm(x, x)
//           mm: "f32[3, 3]" = torch.ops.aten.mm.default(arg0_1, arg0_1);  arg0_1 = None
//           return (mm,)
//
// Read: annotations `"f32[2, 2]"` and `"f32[2, 2][2, 1]cpu"` (into NodeMeta,
// source kAnnotated), `"Sym(s0)"`, `# File:` comments (kept in
// NodeMeta::stack_trace), `self.x` attribute reads (get_attr), `;  a = b = None`
// deletion statements (dropped: they carry no graph information),
// multi-line `def forward(` signatures, `torch.ops.*`/`operator.*`/other
// dotted call targets, `x.method(...)` calls (call_method).
// Write: torch 2.x's print_readable layout (no deletion statements).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/fx/fx_text.h"
#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// Errors read "FILENAME:LINE:COL: message" (1-based line and column).
// `release` is told, now and then, where the text before is done with (see
// ReleaseTextBefore in fx_text.h).
Result<std::unique_ptr<Graph>> ParseReadable(std::string_view text, std::string_view filename,
                                             const ReleaseTextBefore& release = {});
// Ends with a newline after the `return` line.
std::string PrintReadable(const Graph& graph);

// Where `name` stops being a class name print_readable writes (`class NAME(torch.nn.Module):`):
// an identifier, or `<lambda>` (a lambda's graph); npos when it is one. The readable and JSON
// readers refuse any other name, since the writers print it back as it is.
size_t BadModuleClassChar(std::string_view name);

}  // namespace airscope
