// TorchAir's AddRmsNormCast fusion (patterns/add_rms_norm_cast.py):
// npu_add_rms_norm whose y is cast to float32 (aten._to_copy or
// npu._npu_dtype_cast), directly or after view(y, [-1, h]), becomes
// npu.npu_add_rms_norm_cast, which gives the float32 y along with y and x.
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "core/pass/pattern_entry.h"

namespace airscope {
namespace {

// _build_search_pattern (add_rms_norm_cast.py:53-140): MultiOutputPattern of
// y = getitem(norm, 0) (_users=2), x = getitem(norm, 2), and the cast.
std::vector<PatternPtr> CastSearchPatterns(bool aten_copy, bool view, bool with_epsilon) {
  PatternPtr norm = AddRmsNormPattern(with_epsilon, /*users=*/2);
  PatternPtr y = GetitemPattern(norm, 0, /*users=*/2);
  PatternPtr x = GetitemPattern(norm, 2);
  PatternPtr source = y;
  if (view) {
    source = Pattern::Call("aten.view.default", {y, Pattern::List({Pattern::Int(-1), Pattern::Ignored()})});
  }
  PatternPtr f32 = Pattern::Constant(Argument::OfDType(DType::kFloat32));
  PatternPtr cast = aten_copy ? Pattern::Call("aten._to_copy.default", {source}, {{"dtype", f32}})
                              : Pattern::Call("npu._npu_dtype_cast.default", {source, f32});
  return {y, x, cast};
}

// _pattern_extra_check (add_rms_norm_cast.py:15-50), for the view variants:
// the view's second size, as str(), equals str(x1.shape[-1]).
bool ViewLastDimCheck(const PatternMatch& match, std::vector<std::string>& notes) {
  Node* view = MatchedNode(match, "aten.view.default");
  Node* norm = MatchedNode(match, "npu.npu_add_rms_norm.default");
  if (!view || !norm || norm->args().empty()) {
    notes.push_back("Extra check failed for addrmsnormcast, view_node or x1_node is none.");
    return false;
  }
  if (view->args().size() < 2 || !view->args()[1].is_sequence()) {
    notes.push_back("Extra check failed for addrmsnormcast, view_node args is not list or tuple.");
    return false;
  }
  std::string x1_last = "None";
  const TensorMeta* x1 = norm->args()[0].is_node() ? TensorOf(norm->args()[0].as_node()) : nullptr;
  if (x1 && !x1->sizes.empty()) x1_last = x1->sizes.back().ToString();
  Result<std::vector<Dim>> sizes = DimListArg(*view, 1, "size");
  if (!sizes.ok() || sizes.value().size() < 2) return false;
  const Dim& second = sizes.value()[1];
  if (second.is_static() && second.value() == 0) return false;  // `view_arg_val and ...`: 0 is falsy
  return second.ToString() == x1_last;
}

PatternEntry CastEntry(bool aten_copy, bool view, bool with_epsilon) {
  PatternEntry e;
  e.family = "AddRmsNormCast";
  e.variant = fmt::format("{}{} ({})", view ? "search_fn_with" : "search_fn",
                          with_epsilon ? (view ? "_epsilon_and_view" : "_epsilon") : (view ? "_view" : ""),
                          aten_copy ? "aten._to_copy" : "npu._npu_dtype_cast");
  e.fused_op = "npu_add_rms_norm_cast";
  e.outputs = CastSearchPatterns(aten_copy, view, with_epsilon);
  if (view) e.extra_check = ViewLastDimCheck;
  // replace_fn* (add_rms_norm_cast.py:153-188): y_cast, y, _, xOut = npu_add_rms_norm_cast(x1, x2, gamma[, epsilon]);
  // with the view, y_cast.view(-1, y.size(-1)); returns (y, xOut, y_cast).
  e.replace = [view, with_epsilon](const PatternMatch& match, ReplacementBuilder& b,
                                   std::string& why) -> std::optional<std::vector<Node*>> {
    std::vector<Argument> args = {Bound(match, "x1"), Bound(match, "x2"), Bound(match, "gamma")};
    // epsilon is positional in the schema (op_plugin_functions.yaml:5836): make_fx drops it when it is the default.
    if (with_epsilon && !IsDefaultEpsilon(Bound(match, "epsilon"))) args.push_back(Bound(match, "epsilon"));
    const TensorMeta* x1 = args[0].is_node() ? TensorOf(args[0].as_node()) : nullptr;
    if (view && (!x1 || x1->sizes.empty() || !x1->sizes.back().is_static())) {
      why = "y.size(-1) is not a static size: airscope does not trace a replacement over symbolic sizes";
      return std::nullopt;
    }
    Node* fused = b.Call("npu.npu_add_rms_norm_cast.default", std::move(args));
    Node* y_cast = b.Getitem(fused, 0);
    Node* y = b.Getitem(fused, 1);
    Node* x_out = b.Getitem(fused, 3);
    if (view) y_cast = b.View(y_cast, {Argument::Int(-1), Argument::Int(x1->sizes.back().value())});
    return std::vector<Node*>{y, x_out, y_cast};
  };
  return e;
}

}  // namespace

// _register_addrmsnormcast_pattern (add_rms_norm_cast.py:144-225): for
// aten._to_copy then npu._npu_dtype_cast, the view, view+epsilon, plain and
// epsilon registrations.
std::vector<PatternEntry> AddRmsNormCastEntries() {
  std::vector<PatternEntry> entries;
  for (bool aten_copy : {true, false}) {
    entries.push_back(CastEntry(aten_copy, true, false));
    entries.push_back(CastEntry(aten_copy, true, true));
    entries.push_back(CastEntry(aten_copy, false, false));
    entries.push_back(CastEntry(aten_copy, false, true));
  }
  return entries;
}

}  // namespace airscope
