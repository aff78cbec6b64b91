// The stream passes, one factory per pass_<name>.cc; RegisterStreamPasses
// (stream_passes.cc) registers them all. Each PassInfo carries the help
// paragraph that says what the pass does and which TorchAir function it models.
#pragma once

#include "core/pass/pass.h"

namespace airscope {

PassInfo CustomPrePass();            // pass_custom.cc
PassInfo CustomPostPass();           // pass_custom.cc
PassInfo ValidateScopesPass();       // pass_validate_scopes.cc
PassInfo RemoveCatOpsPass();         // pass_remove_cat_ops.cc
PassInfo EventClosurePass();         // pass_event_closure.cc
PassInfo EventRecordPass();          // pass_event_record.cc
PassInfo ResolveStreamMarkersPass(); // pass_resolve_stream_markers.cc
PassInfo LowerPass();                // pass_lower.cc

}  // namespace airscope
