// TorchAir's AddRmsNormQuant fusion (patterns/add_rms_norm_quant.py):
// npu_add_rms_norm whose y feeds npu_quantize(y, scales, zero_points, dtype,
// axis=-1) (div_mode left at its default, True) becomes
// npu.npu_add_rms_norm_quant. Registered only outside max-autotune.
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/pass/pattern_entry.h"

namespace airscope {
namespace {

// npu_quantize(Tensor self, Tensor scales, Tensor? zero_points, int dtype, int axis=1, bool div_mode=True)
// (op_plugin_functions.yaml:6827): the search functions pass axis=-1 and div_mode=True, which make_fx
// records as five positional arguments (div_mode, the default, left out).
PatternPtr QuantizeOf(PatternPtr y) {
  return Pattern::Call("npu.npu_quantize.default",
                       {std::move(y), Pattern::Keyword("scales"), Pattern::Keyword("zero_points"),
                        Pattern::Keyword("dtype"), Pattern::Int(-1)});
}

// search_fn (add_rms_norm_quant.py:92-95, 125-128), as gen_pattern and check_fn trace it:
//   y, _, x_out = npu_add_rms_norm(x1, x2, gamma[, epsilon]); y_out = npu_quantize(y, ...); return y_out, x_out
// no_xout (_build_search_pattern, add_rms_norm_quant.py:172-203): npu_add_rms_norm with _users=1, y_out alone.
std::vector<PatternPtr> QuantSearchPatterns(bool with_xout, bool with_epsilon) {
  PatternPtr norm = AddRmsNormPattern(with_epsilon, with_xout ? 2 : 1);
  PatternPtr y_out = QuantizeOf(GetitemPattern(norm, 0));
  if (with_xout) return {y_out, GetitemPattern(norm, 2)};
  return {y_out};
}

// _pattern_extra_check (add_rms_norm_quant.py:15-63).
bool QuantExtraCheck(const PatternMatch& match, std::vector<std::string>& notes) {
  const TensorMeta* gamma = nullptr;
  const TensorMeta* scales = nullptr;
  for (Node* n : match.nodes) {
    if (IsTarget(*n, "npu.npu_quantize.default")) {
      scales = TensorArgOf(n->args()[1]);
      // zero_points dtype only supports INT32 BFLOAT16
      if (!n->args()[2].is_none()) {
        const TensorMeta* zp = TensorArgOf(n->args()[2]);
        if (zp && (zp->dtype == DType::kUInt8 || zp->dtype == DType::kInt8)) {
          notes.push_back("Zero_points dtype mismatch in pattern match for npu_add_rms_norm_quant fusion pass.");
          return false;
        }
      }
      // output dtype only supports INT8, QINT8 (1, 12)
      const Argument& dtype = n->args()[3];
      if (!PyEqual(dtype, Argument::Int(1)) && !PyEqual(dtype, Argument::Int(12))) {
        notes.push_back("Output dtype mismatch in pattern match for npu_add_rms_norm_quant fusion pass.");
        return false;
      }
    } else if (IsTarget(*n, "npu.npu_add_rms_norm.default")) {
      const TensorMeta* x0 = TensorArgOf(n->args()[0]);
      const TensorMeta* x1 = TensorArgOf(n->args()[1]);
      gamma = TensorArgOf(n->args()[2]);
      bool f16 = x0 && x1 && x0->dtype == DType::kFloat16 && x1->dtype == DType::kFloat16;
      bool bf16 = x0 && x1 && x0->dtype == DType::kBFloat16 && x1->dtype == DType::kBFloat16;
      if (!f16 && !bf16) {
        notes.push_back("Input x dtype mismatch in pattern match for npu_add_rms_norm_quant fusion pass.");
        return false;
      }
      if (x1->sizes.empty()) return false;
      const Dim& last = x1->sizes.back();
      if (!last.is_static() || (last.value() * ItemSize(x1->dtype)) % 32 != 0) {
        notes.push_back(
            "Input size detected in pattern match for npu_add_rms_norm_quant fusion pass. Fusion is not "
            "supported because the input of the npu_add_rms_norm_quant must be divisible by 32 bytes.");
        return false;
      }
    }
  }
  if (!gamma || !scales || gamma->sizes != scales->sizes) {
    notes.push_back(
        "Gamma, zero_points or scales shape mismatch in pattern match for npu_add_rms_norm_quant "
        "fusion pass.");
    return false;
  }
  return true;
}

PatternEntry QuantEntry(std::string variant, bool with_xout, bool with_epsilon, bool traced) {
  PatternEntry e;
  e.family = "AddRmsNormQuant";
  e.variant = std::move(variant);
  e.fused_op = "npu_add_rms_norm_quant";
  e.outputs = QuantSearchPatterns(with_xout, with_epsilon);
  e.extra_check = [traced](const PatternMatch& match, std::vector<std::string>& notes) {
    if (traced && !TracedEpsilonRematches(match, notes)) return false;
    return QuantExtraCheck(match, notes);
  };
  // replace_fn* (add_rms_norm_quant.py:97-100, 130-133, 159-169): y1, _, x_out =
  // npu_add_rms_norm_quant(x1, x2, gamma, scales, zero_points, axis=-1[, epsilon=epsilon]);
  // axis=-1 is the schema default (op_plugin_functions.yaml:5853), so make_fx records no axis.
  e.replace = [with_xout](const PatternMatch& match, ReplacementBuilder& b,
                          std::string&) -> std::optional<std::vector<Node*>> {
    std::vector<Kwarg> kwargs;
    AddEpsilonKwarg(match, kwargs);
    Node* fused = b.Call("npu.npu_add_rms_norm_quant.default",
                         {Bound(match, "x1"), Bound(match, "x2"), Bound(match, "gamma"), Bound(match, "scales"),
                          Bound(match, "zero_points")},
                         std::move(kwargs));
    Node* y1 = b.Getitem(fused, 0);
    if (!with_xout) return std::vector<Node*>{y1};
    return std::vector<Node*>{y1, b.Getitem(fused, 2)};
  };
  return e;
}

}  // namespace

// _register_addrmsnormquant_patterns (add_rms_norm_quant.py:228-232): default, with epsilon, then the
// two no_xout registrations (no_xout, no_xout_with_epsilon), all with div_mode=True.
std::vector<PatternEntry> AddRmsNormQuantEntries() {
  return {QuantEntry("search_fn (default epsilon)", true, false, true),
          QuantEntry("search_fn (epsilon)", true, true, true), QuantEntry("search_fn_no_xout", false, false, false),
          QuantEntry("search_fn_no_xout_with_epsilon", false, true, false)};
}

}  // namespace airscope
