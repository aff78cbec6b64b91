// TensorMeta and NodeMeta: what is known about the value a node produces.
//
// A Dim is a size or stride that is either a known integer or a symbolic
// expression (`s0`, `2*s0`) as Dynamo's shape env prints it. A TensorMeta with
// empty `strides` means "contiguous, not stated". NodeMeta says what kind of
// value the node makes (a tensor, a tuple of tensors, a SymInt, ...) and where
// that knowledge came from (a file's annotation or the op registry's shape
// inference), so a user can tell stated facts from derived ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/dtype.h"
#include "core/status.h"

namespace airscope {

class Dim {
 public:
  Dim() = default;
  Dim(int64_t value) : value_(value) {}  // NOLINT: implicit, sizes are mostly ints
  static Dim Symbol(std::string expr);

  bool is_static() const { return symbol_.empty(); }
  // One symbol (`s0`), not an expression of symbols (`2*s0`).
  bool is_single_symbol() const;
  int64_t value() const { return value_; }  // meaningful when is_static()
  const std::string& symbol() const { return symbol_; }
  std::string ToString() const;  // "4" or "s0"
  bool operator==(const Dim& other) const = default;

 private:
  int64_t value_ = 0;
  std::string symbol_;
};

struct TensorMeta {
  DType dtype = DType::kUnknown;
  std::vector<Dim> sizes;
  std::vector<Dim> strides;  // empty: contiguous, not stated
  std::string device;        // "" unknown; else torch's str(device): "cpu", "npu:0"

  // Strides, computing contiguous ones when none are stated.
  std::vector<Dim> EffectiveStrides() const;
  // The strides of a contiguous tensor of these sizes, whatever is stated.
  std::vector<Dim> ContiguousStrides() const;
  // Strides are stated and are not the contiguous ones.
  bool HasNonContiguousStrides() const;
  // nullopt when any size is symbolic.
  std::optional<int64_t> NumElements() const;
  std::optional<int64_t> NumBytes() const;
  // `f32[2, 2]`; with stated strides and/or device `f32[2, 2][2, 1]cpu` (torch >= 2.5).
  std::string ToAnnotation() const;
  // Short form without strides/device, for listings: `f32[2, 2]`.
  std::string ShapeString() const;
  // Parses either annotation form (no surrounding quotes) and applies
  // CheckTensorSize. Errors say which column (0-based offset into `text`) is
  // wrong via *error_offset.
  static Result<TensorMeta> ParseAnnotation(std::string_view text, size_t* error_offset = nullptr);
  bool operator==(const TensorMeta& other) const = default;
};

// The one size check: what every reader (readable code, JSON, pbtxt, logs)
// and every command that takes a shape (`call`, `load --shapes`, `set input`)
// applies before a tensor enters a graph or a call. Stated strides are one
// per size (the views' inference indexes them by dim). A size or stride is >= 0
// (a parser refuses a number past int64 before it makes a Dim: use
// ParseSizeNumber), and the element count and byte count of the static sizes
// fit int64; a tensor past that is no tensor any device holds, and its
// figures (bytes, FLOPs, buffers) would wrap. On failure *bad_dim is the index
// of the size (or, for a stride, sizes.size() + its index) that is negative or
// made a count overflow (sizes.size() for a stride count that differs).
Status CheckTensorSize(const TensorMeta& meta, size_t* bad_dim = nullptr);

// A size or stride as the shape parsers read it: an int64, or an error
// saying it does not fit ("size 9223372036854775808 is past int64's
// 9223372036854775807"). `text` is all digits (after an optional '-').
Result<int64_t> ParseSizeNumber(std::string_view text, std::string_view what = "size");

enum class ValueKind : uint8_t {
  kTensor,  // tensors[0]
  kTuple,   // tensors[i] for element i (dtype kUnknown where unknown)
  kSymInt,  // annotation holds e.g. "Sym(s0)"
  kOpaque,  // an annotation airscope does not interpret, kept in `annotation`
};
enum class MetaSource : uint8_t { kAnnotated, kInferred };

struct NodeMeta {
  ValueKind kind = ValueKind::kTensor;
  MetaSource source = MetaSource::kAnnotated;
  std::vector<TensorMeta> tensors;
  std::string annotation;  // for kSymInt / kOpaque: the verbatim annotation
  // Source-location comment lines torch's readable printer puts above the
  // node (`# File: model.py:12 in forward, code: return x + y`), without the
  // indentation, joined by '\n'. Empty when there were none.
  std::string stack_trace;
  // TorchAir's node.meta["only_clone_these_tensors"] on an
  // auto_functionalized_v2 node: the indices into _all_bases that
  // reinplace_input_mutated_ops could not reinplace, which
  // decompose_auto_functionalized clones (nullopt: never decided; clone all).
  std::optional<std::vector<int64_t>> only_clone_these_tensors = {};

  // `f32[3, 3]`; a tuple `(f32[2, 16, 128], f32[2, 16, 1], None)` (None for
  // an element that is not a tensor); a SymInt/opaque value its annotation
  // (possibly empty). The one spelling every listing uses.
  std::string ShapeString() const;

  const TensorMeta* tensor() const { return kind == ValueKind::kTensor && !tensors.empty() ? &tensors[0] : nullptr; }
  bool operator==(const NodeMeta& other) const = default;
};

}  // namespace airscope
