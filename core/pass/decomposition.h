// DecompositionTable: what `decompose` rewrites, op by op (PrimTorch's
// decomposition table is the model). An entry turns one node into a small
// subgraph of simpler ops inserted before it, then replaces the node's uses
// and erases it. Builtin entries are C++ functions; users add entries from a
// script as templates over the node's arguments, e.g.
//   aten.silu.default -> aten.mul.Tensor($0, aten.sigmoid.default($0))
// where $0, $1, ... are the node's positional arguments.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/ops/op_schema.h"
#include "core/scanner.h"
#include "core/status.h"

namespace airscope {

// Rewrites `node` (whose target has this entry); returns false if this
// instance is not decomposable (e.g. an unsupported argument) and leaves the
// graph unchanged then.
using DecompositionFn = std::function<Result<bool>(Graph& graph, Node* node, const OpRegistry& registry)>;

struct Decomposition {
  std::string target;       // "aten.addmm.default" (without torch.ops.)
  std::string description;  // "addmm(b, x, w) -> add(mm(x, w), b)"
  bool builtin = true;
  DecompositionFn rewrite;
};

class DecompositionTable {
 public:
  static DecompositionTable Builtin();

  void Add(Decomposition entry);  // replaces an entry for the same target
  // Parses a template (core/pass/decomp_template.h); its errors name the
  // column, counted as `origin` says. With `schemas`, a $N past the
  // positional arguments of the target's schema is refused there. *unchecked
  // (when given) is set when the template uses $1 or beyond and no schema of
  // the target is known, so nothing could check it.
  Status AddTemplate(std::string_view target, std::string_view template_text,
                     const SourceOrigin& origin = {.filename = {}, .line = 0}, const OpSchemaTable* schemas = nullptr,
                     bool* unchecked = nullptr);
  const Decomposition* Find(std::string_view target) const;  // with or without torch.ops.
  std::vector<const Decomposition*> All() const;             // sorted by target
  uint64_t version() const { return version_; }              // bumped by every Add

 private:
  uint64_t version_ = 0;
  std::map<std::string, Decomposition, std::less<>> entries_;
};

// Rewrites every call with an entry in `table`, in rounds until none is left
// (what `decompose` runs; `aot` runs it with the user's entries only). Notes
// what it did in `remarks`. Returns whether the graph changed.
Result<bool> ApplyDecompositions(Graph& graph, const DecompositionTable& table, const OpRegistry& registry,
                                 std::vector<std::string>& remarks);

// The builtin entries (decomp_builtin.cc): addmm, gelu, _softmax,
// _log_softmax, native_layer_norm, silu, hardtanh, t, mean.dim.
void AddBuiltinDecompositions(DecompositionTable& table);

}  // namespace airscope
