// The strides of a node's value as far as airscope can tell, and why.
//
// airscope's shapes carry the strides a file states and those inference
// computes for views; every other result is taken as contiguous
// (TensorMeta::EffectiveStrides). torch gives many ops another layout: the
// ops below keep their first argument's. KnownStrides says which case a node
// is, so that a pass that needs exact strides (optimize_noop_ops compares
// them, as Inductor's same_meta does) and `node`, which shows them, read one
// model and never mistake an assumption for a fact.
//
// Contract: pure function of the graph; a chain of layout-keeping ops is
// followed at most 64 deep (deeper is unknown).
#pragma once

#include <optional>
#include <vector>

#include "core/ir/node.h"

namespace airscope {

struct KnownStrides {
  enum class Why : uint8_t {
    kStated,       // the node's meta holds strides (a file's, or a view's computed ones)
    kGraphInput,   // a placeholder without stated strides: contiguous, as make_fx prints inputs
    kKeepsLayout,  // torch gives the result `from`'s layout (identity views to the same sizes,
                   // preserve-format clone, zero and *_like ops, dtype/device conversions,
                   // int-valued pointwise ops, slice_scatter and copy, which write into a copy of self)
    kAllocates,    // a fresh contiguous tensor: repeat, constant_pad_nd, cat, clone to contiguous,
                   // matmul/reduction ops, creation from sizes, pointwise ops of contiguous inputs
    kUnknown,      // airscope does not know the op's layout rule (or the chain is too deep)
  };
  Why why = Why::kUnknown;
  std::optional<std::vector<Dim>> strides;  // nullopt when unknown (kKeepsLayout of an unknown `from` too)
  const Node* from = nullptr;               // kKeepsLayout: the argument whose layout it keeps
};

KnownStrides KnownStridesOf(const Node* node);

}  // namespace airscope
