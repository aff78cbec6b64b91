// Effect check: what a graph does to its inputs and outputs, and whether a
// pass changed that (PassInfo::effects says how much a pass may change).
//
// SummarizeEffects executes the graph symbolically, in order, over storages
// and views:
//   - each placeholder has its own storage (a get_attr too, but only
//     placeholders are "graph inputs"); functional ops make a fresh storage;
//   - view ops (registry category kView, and slice/select/diagonal/as_strided
//     by name; getitem only of a view-returning or in-place op) alias their
//     base's storage, reached through a path of view steps;
//   - in-place ops write the storage of their mutated argument: `foo_` ops
//     and OpInfo::inplace (arg 0), `copy_(dst, src)` (dst), `.out` overloads
//     (their `out=` kwarg), and an op whose schema (`op define`) marks
//     arguments written (`Tensor(a!) x`: each such argument);
//   - an in-place op that TorchAir's inplaceable_npu_ops pairs with a
//     functional form (`op inplaceable F I 1,2`) is valued as that form:
//     F returns (*outs, *new values of the mutated args) (graph_pass.py's
//     reinplace, "output structure of its functional ops"), so I(args)
//     writes F(args)[len(outs) + k] into its k-th mutated argument and
//     returns F(args)[0] (one out) or F(args) itself (several);
// Values are hash-consed (core/pass/value_table.h) after canonicalization,
// so value-preserving rewrites give the same value id:
//   - the overload and an in-place trailing `_` are dropped from op names:
//     `foo_(a, ...)` writes the value `foo(a, ...)`, `foo.out(..., out=o)`
//     writes `foo(...)` into o; `copy_(dst, src)` writes src's value;
//   - view/reshape/_unsafe_view/_reshape_alias are one "reshape" to the
//     node's result shape; a view, reshape, expand, alias, detach or full
//     slice whose result has its input's sizes and dtype is its input;
//     clone, contiguous, lift_fresh_copy and a same-dtype _to_copy are the
//     identity on values (they still make a fresh storage);
//   - add/sub of 0 and mul/div by 1 with unchanged sizes and dtype are the
//     identity (optimize_noop_ops removes them);
//   - a write through a view path into a base is write(base, path, src), and
//     reading that same path back gives src; {slice,select,diagonal,
//     as_strided}_scatter(base, src, params) is that same write value;
//   - cat(tensors, dim) with nested same-dim cats flattened, and writes of
//     values into dim-`d` slices with int bounds of an `empty` buffer that
//     end up covering it exactly in order, are one "cat" value (TorchAir's
//     optimize_cat_with_out_tensor rewrite), and slicing such a piece back
//     gives the piece; a cat of pieces without known sizes is the flattened
//     sequence of its pieces (a one-piece cat is the piece);
//   - stream/event ops (namespace air, category kStreamControl) have no
//     value effect: they make an opaque token.
// Ops the registry does not know are functional (value = op + argument
// values) unless their name ends in `_`, then in-place on argument 0.
// Simplified (known false alarms or misses): random ops are values like any
// other (two identical rand calls are one value); argument spelling is not
// normalized (positional vs keyword, stated defaults other than slice's);
// t vs transpose(0, 1) differ; cat pieces with symbolic bounds and
// auto_functionalized vs its decomposition are not recognized as equal.
//
// CheckEffects compares two summaries made with the same ValueTable and
// names the first difference and the node at fault in the after-graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/ops/op_schema.h"
#include "core/pass/pass.h"
#include "core/pass/value_table.h"
#include "core/status.h"

namespace airscope {

struct EffectSummary {
  // The table the ids below belong to.
  std::shared_ptr<ValueTable> table;
  struct WrittenInput {
    std::string input;         // the placeholder's name
    ValueId value = 0;         // what it holds at the end of the graph
    std::string first_writer;  // "mul (aten.mul_.Tensor)"
    std::string last_writer;
    bool keeps_entry_value = false;  // it ends holding what it held on entry (copy_(x, x))
  };
  std::vector<WrittenInput> written;  // in placeholder order
  struct Output {
    ValueId value = 0;
    std::string aliases;  // the graph input whose storage it is, or ""
    std::string source;   // "mul (aten.mul.Tensor)", or the constant
  };
  std::vector<Output> outputs;  // per flattened position of the output node's args
  // What this summary values only roughly, so that a difference it finds
  // may be the model's and not the graph's: a slice of an `empty` buffer
  // whose bounds are computed in the graph (SymInt nodes), where the
  // piece-by-piece model of a buffer filled slice by slice needs int
  // bounds; an inplaceable_npu_ops pair whose functional form's values it
  // cannot count. The first few, each a clause saying why.
  std::vector<std::string> unmodelled;
};

// The session's op tables a summary reads; the passes read the same ones
// (EffectTablesOf), so the check never judges a pass by tables it did not use.
struct EffectTables {
  // Op schemas: a call whose schema writes an argument (`Tensor(a!) x`)
  // writes it. Null: no op has a schema.
  const OpSchemaTable* schemas = nullptr;
  // TorchAir's inplaceable_npu_ops: in-place ops valued as their functional
  // form (see above). Null: no op is paired.
  const InplaceableNpuOps* inplaceable = nullptr;
};
// The tables a pass run with `context` reads (the builtin ones where the
// context has none).
EffectTables EffectTablesOf(const PassContext& context);

// Summarizes `graph` into `table` (a new table when null). The graph must lint.
std::shared_ptr<const EffectSummary> SummarizeEffects(const Graph& graph, const OpRegistry& registry,
                                                      std::shared_ptr<ValueTable> table = nullptr,
                                                      EffectTables tables = {});

// Ok when `after` keeps what `policy` protects of `before`; otherwise an error
// such as "graph input 'arg0_1' is now written by 'mul' (aten.mul_.Tensor);
// before, the graph did not write it". Both must share one table.
Status CheckEffects(const EffectSummary& before, const EffectSummary& after, EffectPolicy policy);

}  // namespace airscope
