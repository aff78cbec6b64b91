#include "core/pass/builtin_passes.h"

namespace airscope {

const std::vector<PassInfo (*)()>& BuiltinPassFactories() {
  static const std::vector<PassInfo (*)()> kFactories = {
      ReplaceStreamEventPass,
      AotPass,
      CustomPrePass,
      OptimizeNoopOpsPass,
      RecoverViewInplacePatternPass,
      ApplyPatternPassesPass,
      ViewToReshapePass,
      CustomPostPass,
      ValidGraphPass,
      RemoveCatOpsPass,
      EventClosurePass,
      EventRecordPass,
      DcePass,
      ReinplaceInplaceableOpsPass,
      ReinplaceInputMutatedOpsPass,
      DecomposeAutoFunctionalizedPass,
      ReplaceDynamicWorkspaceOpsPass,
      ReplaceCoreLimitNodesPass,
      ResolveDefaultStreamMarkersPass,
      LowerPass,
      DecomposePass,
      FunctionalizePass,
      CsePass,
      ConstantFoldPass,
      FusePointwisePass,
  };
  return kFactories;
}

}  // namespace airscope
