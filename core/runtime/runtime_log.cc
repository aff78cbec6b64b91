#include "core/runtime/runtime_log.h"

#include <fmt/format.h>

namespace airscope {
namespace {

// The two packages' AclGraph say these alike but for the option's name.
std::string LimitReachedText(const std::string& fx_graph, const std::string& key, int64_t limit,
                             std::string_view option, std::string_view setting) {
  return fmt::format(
      "The {} reached when capturing fx_graph {} with graph key {}, we will fall back to eager for all subsequent "
      "executions. Excessive recapture can degrade performance due to the each recapture overhead, and result in "
      "unexpected resources consumption, including stream, memory, etc. This may lead to program error: The "
      "resources are insufficient. The current {} is {}. If recapture are expected, consider increasing {} to an "
      "appropriate value.",
      option, fx_graph, key, option, limit, setting);
}

std::string FixedAddressesText(std::string_view option) {
  return fmt::format(
      "Because acl graph fixes memory addresses, acl graphs do not have a great way of handling live tensors from a "
      "previous invocation. The retained memory of acl graph output tensors will be overwritten by subsequent "
      "executions, which may cause precision issues. See "
      "https://docs.pytorch.org/docs/main/torch.compiler_cudagraph_trees.html#limitations for more details. To "
      "resolve this, you can either: 1. Remove the memory retention of all the output tensors in your script; 2. "
      "Enable debug option by setting {}=True.",
      option);
}

}  // namespace
}  // namespace airscope

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
  return LimitReachedText(fx_graph, key, limit, "static_capture_size_limit",
                          "debug.aclgraph.static_capture_size_limit");
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

std::string AfterCapturing(const std::string& fx_graph, const std::string& key, uint32_t id, bool reuse,
                           std::string_view state) {
  return fmt::format(
      "After capturing fx_graph {} for graph key{{{}}} to AclGraph{{id: {}}}, memory pool reuse is {}, the memory "
      "state is {{{}}}.",
      fx_graph, key, id, reuse ? "enable" : "disable", state);
}

std::string CaptureSucceeded(const std::string& fx_graph, const std::string& key, uint32_t id, size_t updated) {
  return fmt::format(
      "Success to capture fx_graph {} for graph key{{{}}}. Start to run AclGraph{{id: {}}} with the updated node num "
      "{{{}}}.",
      fx_graph, key, id, updated);
}

std::string FixedAddresses() { return FixedAddressesText("debug.aclgraph.enable_output_clone"); }

}  // namespace airscope::torchair_text

namespace airscope::npugraph_ex_text {

std::string LimitReached(const std::string& fx_graph, const std::string& key, int64_t limit) {
  return LimitReachedText(fx_graph, key, limit, "capture_limit", "capture_limit");
}

std::string Counters(const std::string& fx_graph, int64_t captures, int64_t mutated, int64_t core, int64_t forced) {
  // TorchAir's line and one clause more (nxag:1006-1009).
  return fmt::format("{}, and count of recaptures caused by force_recapture is {}",
                     torchair_text::Counters(fx_graph, captures, mutated, core), forced);
}

std::string FixedAddresses() { return FixedAddressesText("clone_output"); }

std::string ForceEager() {
  return "When force_eager=True is enabled, the graph FALLS BACK to EAGER execution. Once running finished, please "
         "make sure to disable the force_eager=True config to ensure that the graph is compiled and executed.";
}

}  // namespace airscope::npugraph_ex_text
