// The rewrite language of `pass define NAME` ... `end`: user passes written
// in an airscript, the airscope counterpart of a Python FX pass such as the
// post_grad_custom_pre_pass of TorchAir's multi-stream example.
//
// One rule per line (blank lines and `#` comments are skipped):
//
//   on PATTERN: ACTION
//
//   PATTERN   GLOB            call_function nodes whose target matches GLOB, in
//                             either spelling (aten.mm.default, torch.ops.aten.mm.default,
//                             aten.*); `*` any run of characters, `?` one character
//             name GLOB       nodes whose name matches GLOB (any kind of node)
//   ACTION    insert before [$REF] CALL [as NAME]   a new node before the matched node
//                                                   (or before the node $REF names)
//             insert after [$REF] CALL [as NAME]    likewise after it
//             replace with CALL [as NAME]           a new node takes over every use of the
//                                                   matched node, which is erased
//             erase                                 erase the matched node (it must have no users)
//             set stream STREAM                     put the node on STREAM (a word or a quoted
//                                                   string): it is wrapped in
//                                                   air.scope_enter(['_user_stream_label'], [STREAM])
//                                                   and air.scope_exit(), since TorchAir and lower take
//                                                   a node's stream from those blocks; "" (the default
//                                                   stream) only for a node already outside any
//                                                   user-stream block
//   CALL      TARGET(ARG, ..., KEY=ARG, ...)        TARGET in either spelling, e.g.
//                                                   air.record.default or torch.ops.air.record.default
//   ARG       a Python literal: 1, -2.5, 1e-05, 'text', "text", None, True, False,
//             torch.float32, [ARG, ...], (ARG, ...); or a reference:
//             $node (the matched node), $arg0, $arg1, ... (the matched node's args),
//             $NAME (the node most recently bound by `as NAME` in this run of the pass)
//
// Semantics: rules run in order; each rule visits the nodes that exist when
// it starts, in graph order, and applies its action to every match. Nodes a
// rule inserts are not visited by that rule, and no rule repeats, so a
// rewrite pass always terminates (at most rules x nodes actions): the
// language has no loops. Bindings live for one run of the pass. New nodes
// get meta from the op registry's shape inference when the op is known.
// Nothing here prints; errors (syntax at definition, a bad reference at run
// time) name the line.
#pragma once

#include <string>
#include <vector>

#include "core/ir/argument.h"
#include "core/pass/pass.h"
#include "core/glob.h"
#include "core/status.h"

namespace airscope {

// A value in a CALL: a literal, a $reference, or a list/tuple of values.
struct ValueTemplate {
  enum class Kind : uint8_t { kLiteral, kRef, kList, kTuple };
  Kind kind = Kind::kLiteral;
  Argument literal;
  std::string ref;  // kRef: "node", "arg0", or a bound name
  std::vector<ValueTemplate> items;
};

struct CallTemplate {
  std::string target;  // as written
  std::vector<ValueTemplate> args;
  std::vector<std::pair<std::string, ValueTemplate>> kwargs;
};

enum class RewriteAction : uint8_t { kInsertBefore, kInsertAfter, kReplace, kErase, kSetStream };

struct RewriteRule {
  size_t line = 0;       // absolute line number where the rule was written
  bool by_name = false;  // PATTERN matches node names, not targets
  std::string pattern;
  RewriteAction action = RewriteAction::kErase;
  std::string anchor;  // insert: "" = the matched node, else a $reference name
  CallTemplate call;
  std::string bind;    // `as NAME`, or ""
  std::string stream;  // set stream
  std::string text;    // the rule as written (trimmed), for help and errors
};

struct RewriteProgram {
  std::vector<RewriteRule> rules;
};

// Parses the lines of a `pass define` block; lines[i] is line first_line + i.
// Errors read "line N, column C: what was expected".
Result<RewriteProgram> ParseRewriteProgram(const std::vector<std::string>& lines, size_t first_line);

// The pass function that runs `program`.
PassFn MakeRewritePass(RewriteProgram program);

// A user PassInfo for `pass define NAME`: parses the block; `origin` names
// where it was defined (for the help text).
Result<PassInfo> DefineRewritePass(const std::string& name, const std::vector<std::string>& lines, size_t first_line,
                                   const std::string& origin);

}  // namespace airscope
