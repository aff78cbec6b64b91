// custom_pre / custom_post: the user's post_grad_custom_pre_pass and
// post_grad_custom_post_pass. Each user pass runs under its own PassManager,
// so one that fails or breaks lint is named in the error (and the stage,
// failing, is rolled back as a whole by the outer manager).
#include <fmt/format.h>

#include "core/pass/pass_manager.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> RunUserPasses(std::string_view stage, const std::vector<std::string>& names, Graph& graph,
                           PassContext& context) {
  bool changed = false;
  for (const std::string& name : names) {
    const PassInfo* pass = context.passes ? context.passes->Find(name) : nullptr;
    if (!pass) return Status::Errorf("no pass named '{}' (registered for {})", name, stage);
    if (pass->name == "post_grad_custom_pre_pass" || pass->name == "post_grad_custom_post_pass") {
      return Status::Errorf("'{}' cannot run inside {} (it would run itself)", name, stage);
    }
    // A copy of the context: the inner manager clears its remarks.
    PassContext inner = context;
    PassManager manager;
    AIRSCOPE_ASSIGN_OR_RETURN(PassOutcome outcome, manager.Run(*pass, graph, inner));
    changed = changed || outcome.changed;
    for (const std::string& remark : outcome.remarks) context.remarks.push_back(fmt::format("{}: {}", name, remark));
  }
  return changed;
}

}  // namespace

PassInfo CustomPrePass() {
  return {"post_grad_custom_pre_pass",
          "run the user passes registered as post_grad_custom_pre_pass",
          "Runs, in order, the user passes added with `pass add pre NAME` (TorchAir's\n"
          "config.post_grad_custom_pre_pass, called by _npu_backend before its own FX passes). Each runs\n"
          "and is linted on its own, so a user pass that fails or breaks the graph is named in the error;\n"
          "the stage then fails and the graph is left as it was before it. Changed if any user pass changed it.",
          PassKind::kPipeline,
          [](Graph& graph, PassContext& context) {
            return RunUserPasses("post_grad_custom_pre_pass", context.custom_pre, graph, context);
          },
          {"custom_pre"},
          EffectPolicy::kPreserveAliasing};
}

PassInfo CustomPostPass() {
  return {"post_grad_custom_post_pass",
          "run the user passes registered as post_grad_custom_post_pass",
          "Runs, in order, the user passes added with `pass add post NAME` (TorchAir's\n"
          "config.post_grad_custom_post_pass, run after TorchAir's builtin FX passes). Each runs and is\n"
          "linted on its own, so a user pass that fails or breaks the graph is named in the error; the stage\n"
          "then fails and the graph is left as it was before it. Changed if any user pass changed it.",
          PassKind::kPipeline,
          [](Graph& graph, PassContext& context) {
            return RunUserPasses("post_grad_custom_post_pass", context.custom_post, graph, context);
          },
          {"custom_post"},
          EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope
