// OpRegistry: what airscope knows about each operator: its category, how to
// infer the value it produces from its inputs, and what it costs (FLOPs and
// bytes moved, for the simulated device).
//
// Keys are targets without the `torch.ops.` prefix (`aten.mm.default`,
// `air.scope_enter.default`, `operator.getitem`); Find() accepts either
// spelling. An op the registry does not know is not an error anywhere: the
// node is kept as an opaque node with whatever meta its file gave it.
//
// The builtin registry is immutable once built; sessions that extend it copy it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/node.h"
#include "core/status.h"
#include "core/text.h"  // TextHash

namespace airscope {

enum class OpCategory : uint8_t {
  kPointwise,      // add, mul, gelu, relu, hardtanh, masked_fill, eq, ...
  kReduction,      // sum, mean, amax, _softmax (reduces along a dim)
  kMatmul,         // mm, bmm, addmm, matmul
  kConvolution,    // convolution and its backward
  kNormalization,  // native_layer_norm, native_batch_norm and backward
  kView,           // view, t, transpose, expand, _unsafe_view, permute, split, getitem, ...: no data moved
  kCopy,           // clone, copy_, _to_copy, contiguous: data moved, no math
  kCreation,       // ones, zeros, full, empty, arange
  kStreamControl,  // air.scope_enter/exit, air.record, air.wait
  kOther,
};
std::string_view OpCategoryName(OpCategory category);

struct OpCost {
  double flops = 0;
  double bytes_read = 0;
  double bytes_written = 0;
};

// Infers the value a node makes from its arguments (input nodes' meta()).
// Returns an error saying what is missing or inconsistent (e.g. "input 'x' has
// no shape", "mm: inner dims 3 and 4 differ").
using InferFn = std::function<Result<NodeMeta>(const Node& node)>;
// Cost given the node's inputs and its own (inferred or annotated) meta.
// Returns nullopt when shapes needed are unknown or symbolic.
using CostFn = std::function<std::optional<OpCost>(const Node& node)>;

struct OpInfo {
  std::string name;  // "aten.mm.default"
  OpCategory category = OpCategory::kOther;
  InferFn infer;         // may be empty: no inference
  CostFn cost;           // may be empty: cost unknown
  bool inplace = false;  // mutates its first argument (hardtanh_, copy_, add_)
};

class OpRegistry {
 public:
  // All builtin ops: at least every op in the sample graphs and its backward.
  static const OpRegistry& Builtin();

  const OpInfo* Find(std::string_view target) const;  // with or without "torch.ops."
  void Register(OpInfo info);                         // replaces an entry of the same name
  std::vector<std::string> Names() const;             // sorted
  uint64_t version() const { return version_; }       // bumped by every Register

 private:
  uint64_t version_ = 0;
  // Hashed, not ordered: every pass asks Find() of nearly every node, and a
  // tree of ~600 names costs a dozen string compares per ask. Names() sorts.
  std::unordered_map<std::string, OpInfo, TextHash, std::equal_to<>> ops_;
};

// OpRegistry::Find for the nodes of one walk over one graph, remembering the
// answer per target string: a graph interns its targets (Node::target() of
// nodes with the same target is one string), so the key is the string's
// address, and a million nodes cost a pointer hash each instead of hashing
// and comparing their names. Not across a Register() of the registry.
class OpLookup {
 public:
  explicit OpLookup(const OpRegistry& registry) : registry_(registry) {}
  const OpInfo* Find(const Node& node) {
    auto [it, inserted] = cache_.try_emplace(&node.target(), nullptr);
    if (inserted) it->second = registry_.Find(node.target());
    return it->second;
  }

 private:
  const OpRegistry& registry_;
  std::unordered_map<const std::string*, const OpInfo*> cache_;
};

// "torch.ops.aten.mm.default" -> "aten.mm.default"; anything else unchanged.
// Inline: passes ask it of every node, often several times (callgrind put
// the call itself at 3% of `run`).
inline std::string_view StripTorchOps(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (target.starts_with(kPrefix)) target.remove_prefix(kPrefix.size());
  return target;
}

}  // namespace airscope
