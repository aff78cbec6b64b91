#include "core/runtime/runtime_log.h"

#include <fmt/format.h>

namespace airscope::torchair_text {

std::string FindCaptured(uint32_t id, const std::string& fx_graph, const std::string& key) {
  return fmt::format("Find captured AclGraph{{id: {}}} of fx_graph {} with graph key {{{}}}.", id, fx_graph, key);
}

std::string NeedsRecapture(const std::string& fx_graph, const std::string& key) {
  return fmt::format("The current AclGraph needs to be recaptured for fx_graph {} with graph key {{{}}}.", fx_graph,
                     key);
}

std::string NoNeedsRecapture(const std::string& fx_graph, const std::string& key) {
  return fmt::format("The current AclGraph no needs to be recaptured for fx_graph {} with graph key {{{}}}.", fx_graph,
                     key);
}

std::string LimitReached(const std::string& fx_graph, const std::string& key, int64_t limit) {
  return fmt::format(
      "The static_capture_size_limit reached when capturing fx_graph {} with graph key {}, we will fall back to eager "
      "for all subsequent executions. Excessive recapture can degrade performance due to the each recapture overhead, "
      "and result in unexpected resources consumption, including stream, memory, etc. This may lead to program error: "
      "The resources are insufficient. The current static_capture_size_limit is {}. If recapture are expected, "
      "consider increasing debug.aclgraph.static_capture_size_limit to an appropriate value.",
      fx_graph, key, limit);
}

std::string Counters(const std::string& fx_graph, int64_t captures, int64_t mutated, int64_t core) {
  return fmt::format(
      "For graph {} : the count of captures is {}, and count of recaptures caused by mutated inputs changed is {}, "
      "and count of recaptures caused by global limit changed is {}",
      fx_graph, captures, mutated, core);
}

std::string NoFindCaptured(uint32_t id, const std::string& fx_graph, const std::string& key) {
  return fmt::format(
      "No find captured AclGraph{{id: {}}} of fx_graph {} with graph key {{{}}}, and start to capture it.", id,
      fx_graph, key);
}

std::string CaptureSucceeded(const std::string& fx_graph, const std::string& key, uint32_t id, size_t updated) {
  return fmt::format(
      "Success to capture fx_graph {} for graph key{{{}}}. Start to run AclGraph{{id: {}}} with the updated node num "
      "{{{}}}.",
      fx_graph, key, id, updated);
}

std::string FixedAddresses() {
  return "Because acl graph fixes memory addresses, acl graphs do not have a great way of handling live tensors from "
         "a previous invocation. The retained memory of acl graph output tensors will be overwritten by subsequent "
         "executions, which may cause precision issues. See "
         "https://docs.pytorch.org/docs/main/torch.compiler_cudagraph_trees.html#limitations for more details. To "
         "resolve this, you can either: 1. Remove the memory retention of all the output tensors in your script; 2. "
         "Enable debug option by setting debug.aclgraph.enable_output_clone=True.";
}

}  // namespace airscope::torchair_text
