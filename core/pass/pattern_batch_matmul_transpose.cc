#include "core/pass/pattern_batch_matmul_transpose.h"

#include <fmt/format.h>

#include <set>

#include "core/pass/inductor_noop_table.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

constexpr int64_t kKnAlignment = 128;
constexpr int64_t kMaxKb = 65536;

PatternPtr Transpose(PatternPtr x) { return Pattern::Call("aten.transpose.int", {x, Pattern::Ignored(), Pattern::Ignored()}); }
PatternPtr View(PatternPtr x) { return Pattern::Call("aten.view.default", {x, Pattern::Ignored()}); }
PatternPtr Expand(PatternPtr x) { return Pattern::Call("aten.expand.default", {x, Pattern::Ignored()}); }
PatternPtr Bmm(PatternPtr a, PatternPtr b) { return Pattern::Call("aten.bmm.default", {a, b}); }

struct BmmPattern {
  PatternPtr search;
  bool input_x1;  // perm_x1 = [1, 0, 2] instead of [0, 1, 2]
};

const std::vector<BmmPattern>& Patterns() {
  static const auto* patterns = [] {
    PatternPtr x1 = Pattern::Keyword("x1"), x2 = Pattern::Keyword("x2");
    return new std::vector<BmmPattern>{
        {Transpose(View(Bmm(View(Expand(Transpose(x1))), x2))), true},  // pattern2
        {Transpose(Bmm(Expand(Transpose(x1)), x2)), true},              // pattern3
        {Transpose(Bmm(x1, x2)), false},                                // pattern
        {Transpose(View(Bmm(x1, x2))), false},                          // pattern1
    };
  }();
  return *patterns;
}

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
      notes.push_back(fmt::format("K*B constraint check failed for npu_transpose_batchmatmul. K={}, B={}, K*B={}", k, b, k * b));
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
          notes.push_back(fmt::format("K or N alignment check failed for npu_transpose_batchmatmul. input{} size: {}", i,
                                      t->ShapeString()));
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
      if (d1.kind() != Argument::Kind::kInt || d2.kind() != Argument::Kind::kInt || d1.as_int() > 1 || d2.as_int() > 1) {
        notes.push_back("Transpose args only support 0 or 1 for npu_transpose_batchmatmul");
        return false;
      }
    }
  }
  return true;
}

}  // namespace

bool SingleStream(const PatternMatch& match, const StreamLabelMap& labels) {
  std::set<std::string> streams;
  for (const Node* n : match.nodes) {
    const std::string* label = labels.Find(n);
    streams.insert(label ? *label : std::string());
  }
  return streams.size() <= 1;
}

bool TryBatchMatMulTranspose(Graph& graph, Node* root, const StreamLabelMap& labels, const OpRegistry& registry,
                             std::vector<std::string>& notes) {
  for (const BmmPattern& p : Patterns()) {
    std::optional<PatternMatch> match = MatchPattern(*p.search, root);
    if (!match) continue;
    if (!SingleStream(*match, labels)) {
      notes.push_back(fmt::format("{}: cross-stream operation detected in pattern match; fusion is not supported",
                                  root->name()));
      continue;
    }
    if (!ExtraCheck(*match, notes)) continue;
    std::vector<Argument> perm;
    for (int64_t v : p.input_x1 ? std::vector<int64_t>{1, 0, 2} : std::vector<int64_t>{0, 1, 2}) perm.push_back(Argument::Int(v));
    Node* fused = graph.InsertBefore(root, CallSpec("npu.npu_transpose_batchmatmul.default",
                                                    {match->bindings.at("x1"), match->bindings.at("x2")},
                                                    {{"perm_x1", Argument::List(perm)}}));
    if (!root->stream().empty()) graph.SetStream(fused, root->stream());
    if (root->meta()) fused->set_meta(*root->meta());  // the same value as the transpose it replaces
    else InferMeta(fused, registry);
    graph.ReplaceAllUsesWith(root, fused);
    // match.erase_nodes(): every matched call, last first, once dead.
    for (Node* n : match->nodes) {
      if (!n->erased() && n->users().empty()) (void)graph.Erase(n);
    }
    return true;
  }
  return false;
}

}  // namespace airscope
