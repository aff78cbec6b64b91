// The builtin graph passes, one PassInfo per pass file (pass_<name>.cc);
// RegisterGraphPasses (graph_passes.cc) registers them all. Tests and
// benches may run a pass directly through its PassInfo.
#pragma once

#include "core/pass/pass.h"

namespace airscope {

PassInfo DecomposePass();       // pass_decompose.cc
PassInfo FunctionalizePass();   // pass_functionalize.cc
PassInfo RemoveNoopPass();      // pass_remove_noop.cc
PassInfo ViewToReshapePass();   // pass_view_to_reshape.cc
PassInfo DcePass();             // pass_dce.cc
PassInfo ReinplacePass();       // pass_reinplace.cc
PassInfo CsePass();             // pass_cse.cc
PassInfo ConstantFoldPass();    // pass_constant_fold.cc
PassInfo FusePointwisePass();   // pass_fuse_pointwise.cc

}  // namespace airscope
