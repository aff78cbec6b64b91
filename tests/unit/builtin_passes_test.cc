// The one list of builtin passes (core/pass/builtin_passes.def): the default
// pipeline is its pipeline rows in order, which must be TorchAir's stages in
// TorchAir's order (../shared/TORCHAIR.md §1: _compile_graph_with_aot,
// _optimize_fx, AclConcreteGraph.optimize_graph_without_runtime), then lower.
#include "core/pass/builtin_passes.h"

#include <gtest/gtest.h>

#include <set>

#include "core/pass/pass.h"

namespace airscope {
namespace {

TEST(BuiltinPassesTest, DefaultPipelineIsThePipelineRowsInTorchAirsOrder) {
  const std::vector<std::string> torchair = {"replace_stream_event_pass",
                                             "aot",
                                             "post_grad_custom_pre_pass",
                                             "optimize_noop_ops",
                                             "recover_view_inplace_pattern",
                                             "apply_pattern_passes",
                                             "view_to_reshape",
                                             "post_grad_custom_post_pass",
                                             "_valid_graph",
                                             "remove_cat_ops",
                                             "apply_event_closure_with_multi_stream",
                                             "apply_event_record",
                                             "eliminate_dead_code",
                                             "reinplace_inplaceable_ops_pass",
                                             "reinplace_input_mutated_ops",
                                             "decompose_auto_functionalized",
                                             "replace_dynamic_workspace_ops",
                                             "replace_core_limit_nodes",
                                             "resolve_default_stream_markers",
                                             "lower"};
  EXPECT_EQ(DefaultPipeline(), torchair);
}

TEST(BuiltinPassesTest, EveryRowIsRegisteredOnceAndNoneIsAUserPass) {
  PassRegistry registry = PassRegistry::WithBuiltins();
  std::set<std::string> names;
  size_t optional = 0;
  for (PassInfo (*make)() : BuiltinPassFactories()) {
    PassInfo info = make();
    EXPECT_TRUE(names.insert(info.name).second) << info.name << " is listed twice";
    EXPECT_NE(info.kind, PassKind::kUser) << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.name;
    optional += info.kind == PassKind::kOptional;
    const PassInfo* found = registry.Find(info.name);
    ASSERT_NE(found, nullptr) << info.name;
    EXPECT_EQ(found->name, info.name);
  }
  EXPECT_EQ(registry.All().size(), names.size());
  EXPECT_EQ(names.size(), DefaultPipeline().size() + optional);
}

}  // namespace
}  // namespace airscope
