// What `minify --out DIR` writes, as text (the command writes the files with
// core/file_util.h WriteFile, atomically, per the README's writing contract):
//   min.readable.py  the minimal graph as print_readable prints it (the FX
//                    writer airscope's `dump readable` uses; `load` reads it)
//   min.airscript    loads min.readable.py under the minified graph's name,
//                    sets the settings that differ from airscope's defaults
//                    (and the pipeline's pass list, when minify shortened
//                    it), and runs LINE: running it fails (exit 1) the same way
//   repro.py         for the real NPU: the graph built with torch.fx in code,
//                    compiled with torchair.get_npu_backend(compiler_config=...)
//                    under the session's config.* values, mode and dynamic,
//                    called with inputs of the graph's shapes (or once per
//                    call of the script LINE sources, at its shapes); nothing runs at
//                    import beyond definitions (all under __main__).
#pragma once

#include <string>
#include <vector>

#include "core/dynamo/call_spec.h"
#include "core/ir/graph.h"
#include "repl/settings.h"

namespace airscope {

// `definitions`: command lines (blocks with their lines) that define what
// LINE may use (user passes, op schemas, ...), run after the load;
// `passes`: the pipeline's pass list to set (`pipeline set`), or empty to leave the default.
std::string MinAirscriptText(const std::string& graph_name, const std::string& line, const Settings& settings,
                             const std::vector<std::string>& definitions, const std::vector<std::string>& passes,
                             const std::string& failure);
// `calls`: the calls LINE's script makes (minify shrank them); repro.py makes
// them in order. Empty: one call with inputs of the graph's shapes.
std::string ReproPyText(const Graph& graph, const std::string& graph_name, const std::string& line,
                        const Settings& settings, const std::string& failure, const std::vector<CallSpec>& calls = {});

}  // namespace airscope
