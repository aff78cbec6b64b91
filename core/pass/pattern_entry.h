// One registered replacement of TorchAir's pattern pass (pattern_pass_manager.py
// register_pattern -> Inductor's register_replacement): the search pattern
// (its outputs; one for a single-output pattern), TorchAir's extra_check, and
// the graph its replace_fn traces to. apply_pattern_passes keeps the entries
// in TorchAir's registration order and tries them on every candidate node.
//
// Contract: extra checks read the graph only and say in `notes` why they
// refused (TorchAir's DEBUG log lines); builders only insert through the
// ReplacementBuilder.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/stream_util.h"
#include "core/pass/pattern_match.h"
#include "core/pass/pattern_replace.h"

namespace airscope {

struct PatternEntry {
  std::string family;    // "AddRmsNormCast": the TorchAir pattern it belongs to
  std::string variant;   // which registration, as TorchAir's source names it
  std::string fused_op;  // the op the replacement makes, for remarks
  std::vector<PatternPtr> outputs;
  // TorchAir's extra_check, run after the stream check (empty: _return_true).
  std::function<bool(const PatternMatch&, std::vector<std::string>& notes)> extra_check;
  // replace_fn, as the graph fwd_only traces from it with the match's values.
  std::function<std::optional<std::vector<Node*>>(const PatternMatch&, ReplacementBuilder&, std::string& why)> replace;

  // The target of outputs[0]: the nodes PatternMatcherPass tries this entry on.
  const std::string& root_target() const { return outputs.front()->target; }
};

// _check_pattern_stream (pattern_pass_manager.py:20-61): every call in the
// match runs on one stream label (all default, or all the same user stream).
bool SingleStream(const PatternMatch& match, const StreamLabelMap& labels);

// TorchAir's registrations, each family in its own file, in the order
// _register_*_pattern(s) registers them.
std::vector<PatternEntry> AddRmsNormDynamicQuantEntries();   // pattern_add_rms_norm_dynamic_quant.cc
std::vector<PatternEntry> AddRmsNormDynamicQuant2Entries();  // pattern_add_rms_norm_dynamic_quant.cc
std::vector<PatternEntry> AddRmsNormCastEntries();           // pattern_add_rms_norm_cast.cc
std::vector<PatternEntry> BatchMatMulTransposeEntries();     // pattern_batch_matmul_transpose.cc
std::vector<PatternEntry> AddRmsNormQuantEntries();          // pattern_add_rms_norm_quant.cc

// All five in _apply_pattern_passes's order (pattern_util.py:25-30; ACL mode).
const std::vector<PatternEntry>& TorchAirPatternEntries();

// Shared by the families: the value a KeywordArg bound (None when unbound).
Argument Bound(const PatternMatch& match, const std::string& name);
// The node in match.nodes with this target (the last one, as TorchAir's loops keep it).
Node* MatchedNode(const PatternMatch& match, std::string_view target);

// CallFunction(operator.getitem, of, index, _users=users).
PatternPtr GetitemPattern(PatternPtr of, int64_t index, int users = 1);
// CallFunction(npu.npu_add_rms_norm.default, KeywordArg('x1'), KeywordArg('x2'),
// KeywordArg('gamma')[, KeywordArg('epsilon')], _users=users).
PatternPtr AddRmsNormPattern(bool with_epsilon, int users);
// npu_add_rms_norm's epsilon default (op_plugin_functions.yaml:5805 `float epsilon=1e-06`):
// make_fx leaves an argument equal to its default out of the call it records.
bool IsDefaultEpsilon(const Argument& epsilon);
// A replacement's `epsilon=` keyword, absent when the value is the default (as make_fx records it).
void AddEpsilonKwarg(const PatternMatch& match, std::vector<Kwarg>& kwargs);
// For a pattern Inductor traces from search_fn (no search_fn_pattern): check_fn
// re-traces it with the match's values, and a 4-argument npu_add_rms_norm
// whose epsilon is the default re-traces without it, so the re-match fails.
bool TracedEpsilonRematches(const PatternMatch& match, std::vector<std::string>& notes);

}  // namespace airscope
