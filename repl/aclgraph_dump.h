// Capture dumps in the shell (formats/aclgraph_json.h): `load` reads one as a
// graph name whose tasks `check`, `timeline` and `runstats` read;
// `timeline --aclgraph-json PATH` writes the current graph's captured graph
// (or the dump it was loaded from) in that form.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "repl/command_table.h"

namespace airscope {

// `bytes`: the dump, already read whole (a pipe, which can be read only once); else `path` is read.
Status LoadAclGraphDump(CommandContext& ctx, const std::string& path, const std::string& name,
                        std::optional<std::string_view> bytes = std::nullopt);
Status WriteAclGraphDump(CommandContext& ctx, const std::string& path);

}  // namespace airscope
