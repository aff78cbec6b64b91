#include "core/pass/pattern_batch_matmul_transpose.h"

#include <fmt/format.h>

#include <set>
#include <utility>

#include "core/analysis/node_util.h"
#include "core/pass/inductor_noop_table.h"

namespace airscope {
namespace {

constexpr int64_t kKnAlignment = 128;
constexpr int64_t kMaxKb = 65536;

PatternPtr Transpose(PatternPtr x) {
  return Pattern::Call("aten.transpose.int", {std::move(x), Pattern::Ignored(), Pattern::Ignored()});
}
PatternPtr View(PatternPtr x) { return Pattern::Call("aten.view.default", {std::move(x), Pattern::Ignored()}); }
PatternPtr Expand(PatternPtr x) { return Pattern::Call("aten.expand.default", {std::move(x), Pattern::Ignored()}); }
PatternPtr Bmm(PatternPtr a, PatternPtr b) { return Pattern::Call("aten.bmm.default", {std::move(a), std::move(b)}); }

bool IsStatic(const Dim& d) { return d.is_static(); }

// _pattern_extra_check (batch_matmul_transpose.py:17-187).
bool ExtraCheck(const PatternMatch& match, std::vector<std::string>& notes) {
  int transposes = 0;
  Node* bmm = nullptr;
  for (Node* n : match.nodes) {
    if (IsTarget(*n, "aten.transpose.int")) ++transposes;
    if (IsTarget(*n, "aten.bmm.default") && !bmm) bmm = n;
  }
  if (!bmm) return false;
  // _check_kb_constraint on x1 = bmm.args[0] (B, M, K).
  const TensorMeta* x1 = bmm->args()[0].is_node() ? TensorOf(bmm->args()[0].as_node()) : nullptr;
  if (!x1 || x1->sizes.size() < 3 || !IsStatic(x1->sizes[0]) || !IsStatic(x1->sizes[2])) {
    notes.push_back("Invalid x1 input for BMM node in pattern match for npu_transpose_batchmatmul");
    return false;
  }
  int64_t b = x1->sizes[0].value(), k = x1->sizes[2].value();
  if (transposes >= 2) {
    if (k * b < 1 || k * b >= kMaxKb) {
      notes.push_back(
          fmt::format("K*B constraint check failed for npu_transpose_batchmatmul. K={}, B={}, K*B={}", k, b, k * b));
      return false;
    }
  } else if (k >= kMaxKb) {
    notes.push_back(fmt::format("K constraint check failed for npu_transpose_batchmatmul. K={}", k));
    return false;
  }
  for (Node* n : match.nodes) {
    if (n == bmm) {  // _check_input_tensor
      for (size_t i = 0; i < n->args().size(); ++i) {
        const TensorMeta* t = n->args()[i].is_node() ? TensorOf(n->args()[i].as_node()) : nullptr;
        if (!t || t->sizes.size() < 3) return false;
        if (t->dtype != DType::kBFloat16 && t->dtype != DType::kFloat16 && t->dtype != DType::kFloat32) {
          notes.push_back(fmt::format("Input type check failed for npu_transpose_batchmatmul. input{} dtype: {}", i,
                                      TorchName(t->dtype)));
          return false;
        }
        if (!IsStatic(t->sizes[2]) || t->sizes[2].value() % kKnAlignment != 0) {
          notes.push_back(fmt::format("K or N alignment check failed for npu_transpose_batchmatmul. input{} size: {}",
                                      i, t->ShapeString()));
          return false;
        }
      }
    }
    if ((IsTarget(*n, "aten.view.default") || IsTarget(*n, "aten.expand.default")) &&
        !(n->args()[0].is_node() && SameMeta(*n->args()[0].as_node(), *n))) {
      notes.push_back(fmt::format("{} node input/output meta mismatch for npu_transpose_batchmatmul", CallTarget(*n)));
      return false;
    }
    if (IsTarget(*n, "aten.transpose.int")) {
      const Argument& d1 = n->args()[1];
      const Argument& d2 = n->args()[2];
      if (d1.kind() != Argument::Kind::kInt || d2.kind() != Argument::Kind::kInt || d1.as_int() > 1 ||
          d2.as_int() > 1) {
        notes.push_back("Transpose args only support 0 or 1 for npu_transpose_batchmatmul");
        return false;
      }
    }
  }
  return true;
}

PatternEntry BmmEntry(std::string variant, PatternPtr search, bool input_x1) {
  PatternEntry e;
  e.family = "BatchMatMulTranspose";
  e.variant = std::move(variant);
  e.fused_op = "npu_transpose_batchmatmul";
  e.outputs = {std::move(search)};
  e.extra_check = ExtraCheck;
  // replace_fn (batch_matmul_transpose.py:198-201): npu_transpose_batchmatmul(x1, x2, perm_x1=perm_x1).
  e.replace = [input_x1](const PatternMatch& match, ReplacementBuilder& b,
                         std::string&) -> std::optional<std::vector<Node*>> {
    std::vector<Argument> perm;
    for (int64_t v : input_x1 ? std::vector<int64_t>{1, 0, 2} : std::vector<int64_t>{0, 1, 2}) {
      perm.push_back(Argument::Int(v));
    }
    return std::vector<Node*>{b.Call("npu.npu_transpose_batchmatmul.default", {Bound(match, "x1"), Bound(match, "x2")},
                                     {{"perm_x1", Argument::List(std::move(perm))}})};
  };
  return e;
}

}  // namespace

// TorchAir's registration order (pattern2, pattern3, pattern, pattern1:
// batch_matmul_transpose.py:401-406).
std::vector<PatternEntry> BatchMatMulTransposeEntries() {
  PatternPtr x1 = Pattern::Keyword("x1"), x2 = Pattern::Keyword("x2");
  std::vector<PatternEntry> entries;
  entries.push_back(BmmEntry("pattern2", Transpose(View(Bmm(View(Expand(Transpose(x1))), x2))), true));
  entries.push_back(BmmEntry("pattern3", Transpose(Bmm(Expand(Transpose(x1)), x2)), true));
  entries.push_back(BmmEntry("pattern", Transpose(Bmm(x1, x2)), false));
  entries.push_back(BmmEntry("pattern1", Transpose(View(Bmm(x1, x2))), false));
  return entries;
}

}  // namespace airscope
