// TorchAir's AddRmsNormDynamicQuant fusions (patterns/add_rms_norm_dynamic_quant.py):
// npu_add_rms_norm whose y feeds npu_dynamic_quant, directly (pattern 1) or
// through y.flatten(0, 1) with the scale viewed as [-1, 1] (pattern 2),
// becomes npu.npu_add_rms_norm_dynamic_quant with output_mask=[True, False]
// (only the first quantized path).
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "core/pass/pattern_entry.h"

namespace airscope {
namespace {

constexpr std::string_view kFusedDynamicQuant = "npu.npu_add_rms_norm_dynamic_quant.default";

Argument OutputMask() { return Argument::List({Argument::Bool(true), Argument::Bool(false)}); }

// ---- pattern 1 (_register_addrmsnormdynamicquant_pattern, add_rms_norm_dynamic_quant.py:70-161)

// The pattern Inductor traces from search_fn* (gen_pattern; check_fn re-traces
// it with the match's values, which fixes the getitem indices):
//   y, _, xOut = npu_add_rms_norm(x1, x2, gamma[, epsilon])
//   yOut, scale1Out = npu_dynamic_quant(y, smooth_scales=smooth_scales)
//   return yOut, xOut, scale1Out        (no_xout: return yOut, scale1Out)
std::vector<PatternPtr> TracedPattern(bool with_xout, bool with_epsilon) {
  PatternPtr norm = AddRmsNormPattern(with_epsilon, with_xout ? 2 : 1);
  PatternPtr quant = Pattern::Call("npu.npu_dynamic_quant.default", {GetitemPattern(norm, 0)},
                                   {{"smooth_scales", Pattern::Keyword("smooth_scales")}}, /*users=*/2);
  if (with_xout) return {GetitemPattern(quant, 0), GetitemPattern(norm, 2), GetitemPattern(quant, 1)};
  return {GetitemPattern(quant, 0), GetitemPattern(quant, 1)};
}

PatternEntry TracedEntry(bool with_xout, bool with_epsilon) {
  PatternEntry e;
  e.family = "AddRmsNormDynamicQuant";
  e.variant = fmt::format("search_fn{}{}", with_xout ? "" : "_no_xout", with_epsilon ? "_with_epsilon" : "");
  e.fused_op = "npu_add_rms_norm_dynamic_quant";
  e.outputs = TracedPattern(with_xout, with_epsilon);
  if (with_epsilon) e.extra_check = TracedEpsilonRematches;
  // replace_fn* (add_rms_norm_dynamic_quant.py:85-130): yOut, _, xOut, scale1Out, _ =
  // npu_add_rms_norm_dynamic_quant(x1, x2, gamma, smooth_scale1=smooth_scales[, epsilon=epsilon],
  // output_mask=[True, False]); make_fx records no keyword equal to its default (smooth_scale1=None).
  e.replace = [with_xout](const PatternMatch& match, ReplacementBuilder& b,
                          std::string&) -> std::optional<std::vector<Node*>> {
    std::vector<Kwarg> kwargs;
    Argument smooth = Bound(match, "smooth_scales");
    if (!smooth.is_none()) kwargs.push_back({"smooth_scale1", smooth});
    AddEpsilonKwarg(match, kwargs);
    kwargs.push_back({"output_mask", OutputMask()});
    Node* fused =
        b.Call(kFusedDynamicQuant, {Bound(match, "x1"), Bound(match, "x2"), Bound(match, "gamma")}, std::move(kwargs));
    Node* y_out = b.Getitem(fused, 0);
    Node* x_out = with_xout ? b.Getitem(fused, 2) : nullptr;
    Node* scale = b.Getitem(fused, 3);
    if (with_xout) return std::vector<Node*>{y_out, x_out, scale};
    return std::vector<Node*>{y_out, scale};
  };
  return e;
}

// ---- pattern 2 (_register_addrmsnormdynamicquant_pattern2, add_rms_norm_dynamic_quant.py:240-291)

// _build_search_pattern (add_rms_norm_dynamic_quant.py:165-237).
std::vector<PatternPtr> FlattenViewPatterns(bool with_epsilon) {
  PatternPtr norm = AddRmsNormPattern(with_epsilon, /*users=*/2);
  PatternPtr flat = Pattern::Call("aten.view.default", {GetitemPattern(norm, 0), Pattern::Ignored()});
  PatternPtr quant = Pattern::Call("npu.npu_dynamic_quant.default", {flat}, /*users=*/2);
  PatternPtr scale_view = Pattern::Call("aten.view.default",
                                        {GetitemPattern(quant, 1), Pattern::List({Pattern::Int(-1), Pattern::Int(1)})});
  return {GetitemPattern(quant, 0), scale_view, GetitemPattern(norm, 2)};
}

// _check_view_shape (add_rms_norm_dynamic_quant.py:15-67): the view of y is
// y.flatten(0, 1): rank(x1) - 1 sizes, the first y.shape[0] * y.shape[1]
// (or a SymInt node whose name starts with "mul").
bool FlattenViewCheck(const PatternMatch& match, std::vector<std::string>& notes) {
  Node* x1 = nullptr;
  Node* y = nullptr;
  Node* view = nullptr;
  for (Node* n : match.nodes) {  // the loop's elif order, over Match.nodes
    if (IsTarget(*n, "npu.npu_add_rms_norm.default") && !n->args().empty()) {
      x1 = n->args()[0].is_node() ? n->args()[0].as_node() : nullptr;
    } else if (IsTarget(*n, "operator.getitem") && n->args().size() >= 2) {
      const Argument& of = n->args()[0];
      if (of.is_node() && IsTarget(*of.as_node(), "npu.npu_add_rms_norm.default") &&
          PyEqual(n->args()[1], Argument::Int(0))) {
        y = n;
      }
    } else if (IsTarget(*n, "aten.view.default") && n->args().size() >= 2 && y && n->args()[0].is_node() &&
               n->args()[0].as_node() == y) {
      view = n;
    }
  }
  if (!view || !x1 || !y) {
    notes.push_back("Extra check failed for addrmsnormdynamicquant, view_node or x1_node or y_node is none.");
    return false;
  }
  const TensorMeta* x1_meta = TensorOf(x1);
  const TensorMeta* y_meta = TensorOf(y);
  size_t x1_dim = x1_meta ? x1_meta->sizes.size() : 0;
  size_t y_dim = y_meta ? y_meta->sizes.size() : 0;
  if (x1_dim != y_dim) {
    notes.push_back("Extra check failed for addrmsnormdynamicquant, x1_dim is not equals to y_dim.");
    return false;
  }
  const Argument& size = view->args()[1];
  if (!size.is_sequence()) {
    notes.push_back("Extra check failed for addrmsnormdynamicquant, view_node args is not list or tuple.");
    return false;
  }
  bool match_shape = size.items().size() + 1 == x1_dim;
  if (!size.items().empty() && size.items()[0].is_node()) {
    match_shape = size.items()[0].as_node()->name().starts_with("mul") && match_shape;
  } else if (y_dim >= 2 && !size.items().empty()) {
    const Dim& d0 = y_meta->sizes[0];
    const Dim& d1 = y_meta->sizes[1];
    bool product = d0.is_static() && d1.is_static() && size.items()[0].kind() == Argument::Kind::kInt &&
                   size.items()[0].as_int() == d0.value() * d1.value();
    match_shape = product && match_shape;
  }
  if (!match_shape) notes.push_back("End extra check for addrmsnormdynamicquant: False. ");
  return match_shape;
}

PatternEntry FlattenEntry(bool with_epsilon) {
  PatternEntry e;
  e.family = "AddRmsNormDynamicQuant2";
  e.variant = with_epsilon ? "search_fn_with_epsilon" : "search_fn";
  e.fused_op = "npu_add_rms_norm_dynamic_quant";
  e.outputs = FlattenViewPatterns(with_epsilon);
  e.extra_check = FlattenViewCheck;
  // replace_fn* (add_rms_norm_dynamic_quant.py:249-268): yOut, _, xOut, scale1Out, _ =
  // npu_add_rms_norm_dynamic_quant(x1, x2, gamma[, epsilon=epsilon], output_mask=[True, False]);
  // returns (yOut.flatten(0, 1), scale1Out.view(-1, 1), xOut). The pattern has no smooth_scales:
  // a smooth_scales keyword on the matched npu_dynamic_quant is not compared and not carried over.
  e.replace = [](const PatternMatch& match, ReplacementBuilder& b,
                 std::string& why) -> std::optional<std::vector<Node*>> {
    const TensorMeta* x1 = TensorArgOf(Bound(match, "x1"));
    if (!x1 || x1->sizes.size() < 2) {
      why = "flatten(0, 1) of yOut needs x1 of rank >= 2 with a known shape";
      return std::nullopt;
    }
    std::vector<Argument> flat;
    for (size_t i = 0; i < x1->sizes.size(); ++i) {
      if (!x1->sizes[i].is_static()) {
        why = "x1 has a symbolic size: airscope does not trace flatten(0, 1) over symbolic sizes";
        return std::nullopt;
      }
      if (i == 1) continue;
      int64_t v = x1->sizes[i].value();
      flat.push_back(Argument::Int(i == 0 ? v * x1->sizes[1].value() : v));
    }
    std::vector<Kwarg> kwargs;
    AddEpsilonKwarg(match, kwargs);
    kwargs.push_back({"output_mask", OutputMask()});
    Node* fused =
        b.Call(kFusedDynamicQuant, {Bound(match, "x1"), Bound(match, "x2"), Bound(match, "gamma")}, std::move(kwargs));
    Node* y_out = b.Getitem(fused, 0);
    Node* x_out = b.Getitem(fused, 2);
    Node* scale = b.Getitem(fused, 3);
    Node* y_flat = b.View(y_out, std::move(flat));
    Node* scale_view = b.View(scale, {Argument::Int(-1), Argument::Int(1)});
    return std::vector<Node*>{y_flat, scale_view, x_out};
  };
  return e;
}

}  // namespace

// Registration order: search_fn, search_fn_with_epsilon, search_fn_no_xout,
// search_fn_no_xout_with_epsilon (add_rms_norm_dynamic_quant.py:141-161).
std::vector<PatternEntry> AddRmsNormDynamicQuantEntries() {
  return {TracedEntry(true, false), TracedEntry(true, true), TracedEntry(false, false), TracedEntry(false, true)};
}

// Registration order: search_fn, search_fn_with_epsilon (add_rms_norm_dynamic_quant.py:278-291).
std::vector<PatternEntry> AddRmsNormDynamicQuant2Entries() { return {FlattenEntry(false), FlattenEntry(true)}; }

}  // namespace airscope
