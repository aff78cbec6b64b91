// Decomposition templates: a user's decomposition written as one nested call
// expression over the decomposed node's positional arguments, e.g.
//   aten.mul.Tensor($0, aten.sigmoid.default($0))
//   aten.clamp.default($0, min=0.0, max=6.0)
// Grammar: expr := call | $N | literal | [expr, ...] | (expr, ...)
//          call := dotted.target(expr, ..., name=expr, ...)
// Literals read as in readable Python (ints, floats, inf, None, True, False,
// 'strings', torch.float32, torch.contiguous_format, device(type='cpu')).
// Parse errors name the 1-based column: "column 17: expected ')'", and quote
// the template; `origin` places it elsewhere (decomp add: on the command line).
// Nesting is bounded (kMaxTemplateDepth) so expansion may recurse safely.
#pragma once

#include <optional>
#include <string_view>

#include "core/pass/decomposition.h"
#include "core/scanner.h"

namespace airscope {

inline constexpr int kMaxTemplateDepth = 64;

// What a template is checked against when it is parsed.
struct TemplateCheck {
  // The decomposed op's positional arguments, from its schema (nullopt: no
  // schema known). A $N at or past it is refused with a caret at the $N: it
  // could never be applied.
  std::optional<size_t> arity;
  std::string_view target;  // for the message
  // Out: the largest N of the template's $N (nullopt: it uses none).
  std::optional<size_t>* max_arg = nullptr;
};

// Parses `text` into a rewrite that, for a node, inserts the calls before it
// (on its stream, with inferred meta), replaces its uses by the template's
// value and erases it. A $N beyond the node's positional arguments makes the
// rewrite decline (returns false, graph unchanged).
Result<DecompositionFn> ParseDecompositionTemplate(std::string_view text,
                                                   const SourceOrigin& origin = {.filename = {}, .line = 0},
                                                   const TemplateCheck& check = {});

}  // namespace airscope
