// stream: the calling stream's state that compiled graphs see. `stream limit`
// is torch.npu.set_stream_limit / reset_stream_limit / get_stream_limit on
// the stream `call` runs on (torch_npu/npu/npu_config.py @9e73e708:261-315),
// which TorchAir's AclGraph saves at each capture and compares at each call
// (core/runtime/acl_graph.h).
#include <fmt/format.h>

#include "core/scanner.h"
#include "repl/tokenizer.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr const char* kStreamUsage = "stream limit [CUBE VECTOR | reset]";

Result<int64_t> CoreCount(const Word& word, std::string_view what) {
  std::optional<int64_t> v = WordAsInt(word);
  if (!v || (*v < 1 && *v != -1) || *v > (int64_t{1} << 31)) {
    return ColumnErrorf(word.column, "{}: '{}' is not a core count >= 1 (or -1: unchanged)", what, word.text);
  }
  return *v;
}

Status StreamCommand(CommandContext& ctx) {
  const std::vector<Word>& args = ctx.args;
  if (args.empty() || args.size() > 3 || args[0].text != "limit") return UsageError(kStreamUsage);
  if (args.size() == 2 && args[1].text != "reset") return UsageError(kStreamUsage);
  DeviceState& dev = ctx.session.device();
  if (args.size() == 3) {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t cube, CoreCount(args[1], "CUBE"));
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t vector, CoreCount(args[2], "VECTOR"));
    StreamCoreLimits limits = dev.StreamLimits();
    if (cube != -1) limits.cube = cube;  // -1 leaves it as it is (set_stream_limit's default)
    if (vector != -1) limits.vector = vector;
    dev.stream_limits = limits;
  } else if (args.size() == 2) {
    dev.stream_limits.reset();
  }
  StreamCoreLimits now = dev.StreamLimits();
  ctx.out.Print("calling stream: cube_core_num {}, vector_core_num {}{}", now.cube, now.vector,
                dev.stream_limits ? "" : " (no limit set: the device's core counts)");
  const DeviceSpec& spec = dev.sim.spec();
  if (now.cube > spec.aicore_num || now.vector > spec.vectorcore_num) {
    ctx.out.Styled(Style::kBad,
                   "  above the device's {} cube / {} vector cores: what ACL does with such a limit is not modelled",
                   spec.aicore_num, spec.vectorcore_num);
  }
  return Status::Ok();
}

}  // namespace

void RegisterStreamCommand(CommandTable& table) {
  table.Add({"stream", kStreamUsage,
             "show or set the core limits of the stream calls run on (torch.npu.set_stream_limit)",
             "`stream limit CUBE VECTOR` is torch.npu.set_stream_limit(torch.npu.current_stream(), CUBE,\n"
             "VECTOR) on the stream `call` runs on (-1 leaves that one as it is); `stream limit reset` is\n"
             "reset_stream_limit; `stream limit` shows them (get_stream_limit). A stream with no limit reads\n"
             "as the device's core counts (device: aicore_num, vectorcore_num): CANN's runtime uses a stream's\n"
             "limit, else the device's, else the processor's defaults (runtime docs, core resource control).\n"
             "\n"
             "TorchAir saves the calling stream's limits when it captures a graph key and, at every later\n"
             "call of that key, recaptures when they differ (after the mutated-input check): the DEBUG line\n"
             "'The current AclGraph needs to be recaptured' and the counter\n"
             "recapture_due_to_global_limit_core_change_ (acl_graph.py:1058-1068, 1365-1385). The captured\n"
             "graph's capture stream gets the saved limits; airscope's simulated kernels are not held to them.\n"
             "Example: stream limit 2 3",
             StreamCommand, nullptr});
}

}  // namespace airscope
