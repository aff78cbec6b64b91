// Every builtin pass, one factory per pass file. The pipeline passes carry
// TorchAir's names and, in `help pass NAME`, the TorchAir function they model
// and what airscope simplifies; the optional passes are airscope's own.
// BuiltinPassFactories (builtin_passes.cc) is the one list of them all: a new
// pass is its file plus one row there. Tests and benches may run a pass
// directly through its PassInfo.
#pragma once

#include <vector>

#include "core/pass/pass.h"

namespace airscope {

// TorchAir's stages, in pipeline order (TORCHAIR.md §1).
PassInfo ReplaceStreamEventPass();          // pass_replace_stream_event.cc   replace_stream_event_pass (rse)
PassInfo AotPass();                         // pass_aot.cc                    aot_module_simplified
PassInfo CustomPrePass();                   // pass_custom.cc                 post_grad_custom_pre_pass
PassInfo OptimizeNoopOpsPass();             // pass_remove_noop.cc            optimize_noop_ops
PassInfo RecoverViewInplacePatternPass();   // pass_recover_view_inplace.cc   recover_view_inplace_pattern
PassInfo ApplyPatternPassesPass();          // pass_apply_pattern_passes.cc   apply_pattern_passes
PassInfo ViewToReshapePass();               // pass_view_to_reshape.cc        view_to_reshape
PassInfo CustomPostPass();                  // pass_custom.cc                 post_grad_custom_post_pass
PassInfo ValidGraphPass();                  // pass_validate_scopes.cc        _valid_graph
PassInfo RemoveCatOpsPass();                // pass_remove_cat_ops.cc         remove_cat_ops
PassInfo EventClosurePass();                // pass_event_closure.cc          apply_event_closure_with_multi_stream
PassInfo EventRecordPass();                 // pass_event_record.cc           apply_event_record
PassInfo DcePass();                         // pass_dce.cc                    eliminate_dead_code
PassInfo ReinplaceInplaceableOpsPass();     // pass_reinplace.cc              reinplace_inplaceable_ops_pass
PassInfo ReinplaceInputMutatedOpsPass();    // pass_reinplace_input_mutated.cc reinplace_input_mutated_ops
PassInfo DecomposeAutoFunctionalizedPass(); // pass_decompose_auto_functionalized.cc
PassInfo ReplaceDynamicWorkspaceOpsPass();  // pass_replace_dynamic_workspace.cc replace_dynamic_workspace_ops
PassInfo ReplaceCoreLimitNodesPass();       // pass_replace_core_limit.cc     replace_core_limit_nodes
PassInfo ResolveDefaultStreamMarkersPass(); // pass_resolve_stream_markers.cc resolve_default_stream_markers
PassInfo LowerPass();                       // pass_lower.cc                  airscope: nodes -> device tasks

// airscope's optional passes (`pipeline insert`), not TorchAir's.
PassInfo DecomposePass();                   // pass_decompose.cc
PassInfo FunctionalizePass();               // pass_functionalize.cc
PassInfo CsePass();                         // pass_cse.cc
PassInfo ConstantFoldPass();                // pass_constant_fold.cc
PassInfo FusePointwisePass();               // pass_fuse_pointwise.cc

// Every factory above, in the order above.
const std::vector<PassInfo (*)()>& BuiltinPassFactories();

}  // namespace airscope
