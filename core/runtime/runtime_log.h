// What one call of the AclGraph runtime says: TorchAir's log lines, word for
// word with the acl_graph.py line that logs them (TorchAir at fced8842,
// python/torchair/_acl_concrete_graph/acl_graph.py), and airscope's own
// notes and warnings. They are kept apart so a user can tell which text is
// TorchAir's: the shell prints TorchAir's as its logger would (level,
// TORCHAIR, file:line) without the pid, time and thread parts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace airscope {

struct RuntimeLine {
  enum class Source : uint8_t {
    kTorchAir,       // logger "torchair" (core/utils.py:100-130)
    kNpugraphEx,     // npugraph_ex's logger, "[LEVEL] NPUGRAPH_EX(...)" (npugraph_ex/core/utils.py:34-36)
    kPythonWarning,  // warnings.warn(...) in acl_graph.py
    kNote,           // airscope: what the runtime did
    kWarning,        // airscope: a hazard it found (held output overwritten, freed buffer baked in)
  };
  Source source = Source::kNote;
  std::string level;  // kTorchAir: INFO, DEBUG, WARNING; kPythonWarning: UserWarning
  std::string where;  // "acl_graph.py:974"
  std::string text;
};

// TorchAir's messages (acl_graph.py), with the values filled in as %s fills them.
namespace torchair_text {
std::string FindCaptured(uint32_t id, const std::string& fx_graph, const std::string& key);          // :974
std::string NeedsRecapture(const std::string& fx_graph, const std::string& key);                     // :977
std::string NoNeedsRecapture(const std::string& fx_graph, const std::string& key);                   // :982
std::string LimitReached(const std::string& fx_graph, const std::string& key, int64_t limit);        // :1002-1011
std::string Counters(const std::string& fx_graph, int64_t captures, int64_t mutated, int64_t core);  // :1018-1020
std::string NoFindCaptured(uint32_t id, const std::string& fx_graph, const std::string& key);        // :1114
// `state` stands where TorchAir prints torch_npu's memory checkpoint state.
std::string AfterCapturing(const std::string& fx_graph, const std::string& key, uint32_t id, bool reuse,
                           std::string_view state);  // :1143-1146
std::string CaptureSucceeded(const std::string& fx_graph, const std::string& key, uint32_t id,
                             size_t updated);  // :1243
std::string FixedAddresses();                  // :1462-1472
}  // namespace torchair_text

// npugraph_ex's versions where they differ from TorchAir's (nxag; the others
// are the same text).
namespace npugraph_ex_text {
std::string LimitReached(const std::string& fx_graph, const std::string& key, int64_t limit);  // nxag:990-999
std::string Counters(const std::string& fx_graph, int64_t captures, int64_t mutated, int64_t core,
                     int64_t forced);  // nxag:1006-1009
std::string FixedAddresses();          // nxag:1462-1470
// nxnfc:645-647, logged when the graph is compiled.
std::string ForceEager();
}  // namespace npugraph_ex_text

}  // namespace airscope
