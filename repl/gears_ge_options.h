// `gears ge-options [ENTRY]`: the GE dynamic-dims options TorchAir's GE
// backend would build for a compiled cache entry from its dim gears
// (generate_dynamic_dims_option, core/dynamo/ge_dynamic_dims.h), under
// config.inference_config.dynamic_gears_merge_policy. airscope runs no GE
// (max-autotune) graph: this answers what that backend would hand GE, or the
// AssertionError it would raise, for the entry's inputs.
#pragma once

#include <span>

#include "core/status.h"
#include "repl/command_table.h"

namespace airscope {

Status GearsGeOptions(CommandContext& ctx, std::span<const Word> args);

}  // namespace airscope
