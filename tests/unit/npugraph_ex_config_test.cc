// The npugraph_ex backend's options and pipeline: its option names fill the
// TorchAirConfig the passes read (some inverted), a switched-off pass names
// the option by its package's name, the pipeline adds eliminate_self_copy,
// and `mode npugraph_ex` makes the settings use npugraph_ex's options only.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/pass/pass.h"
#include "core/pass/torchair_config.h"
#include "repl/settings.h"

namespace airscope {
namespace {

TEST(NpugraphExConfigTest, DefaultsAreNpugraphExsAndFillTheSameFields) {
  TorchAirConfig config = NpugraphExDefaults();
  EXPECT_TRUE(config.npugraph_ex);
  EXPECT_TRUE(config.keep_inference_input_mutations);
  EXPECT_FALSE(config.disable_reinplace_inplaceable_ops_pass);  // inplace_pass true
  EXPECT_FALSE(config.disable_mempool_reuse_in_same_fx);        // reuse_graph_pool_in_same_fx true
  EXPECT_EQ(config.static_capture_size_limit, 64);              // capture_limit
  EXPECT_FALSE(config.force_eager);
  EXPECT_FALSE(config.force_recapture);
  for (const ConfigOptionInfo& option : NpugraphExConfigOptions()) {
    EXPECT_TRUE(option.name.starts_with("npugraph_ex.")) << option.name;
    EXPECT_EQ(GetConfigOption(config, option.name), option.default_value) << option.name;
  }
}

TEST(NpugraphExConfigTest, InvertedOptionsSetTheirTorchAirFieldNegated) {
  TorchAirConfig config = NpugraphExDefaults();
  ASSERT_TRUE(SetConfigOption(config, "npugraph_ex.inplace_pass", "False").ok());
  EXPECT_TRUE(config.disable_reinplace_inplaceable_ops_pass);
  EXPECT_EQ(GetConfigOption(config, "npugraph_ex.inplace_pass"), "false");
  ASSERT_TRUE(SetConfigOption(config, "npugraph_ex.reuse_graph_pool_in_same_fx", "0").ok());
  EXPECT_TRUE(config.disable_mempool_reuse_in_same_fx);
  ASSERT_TRUE(SetConfigOption(config, "npugraph_ex.clone_output", "true").ok());
  EXPECT_TRUE(config.enable_output_clone);
  Status bad = SetConfigOption(config, "npugraph_ex.capture_limit", "0");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(config.static_capture_size_limit, 64);
  Status unknown = SetConfigOption(config, "npugraph_ex.inplace_passes", "true");
  EXPECT_EQ(unknown.message(),
            "no npugraph_ex option 'npugraph_ex.inplace_passes' (`set` lists the npugraph_ex.* options airscope "
            "models)");
}

TEST(NpugraphExConfigTest, ASwitchedOffPassNamesTheOptionOfItsPackage) {
  TorchAirConfig torchair;
  torchair.disable_reinplace_inplaceable_ops_pass = true;
  EXPECT_EQ(SwitchedOff(torchair, &TorchAirConfig::disable_reinplace_inplaceable_ops_pass),
            "config.debug.aclgraph.disable_reinplace_inplaceable_ops_pass is true");
  TorchAirConfig ex = NpugraphExDefaults();
  ex.disable_reinplace_inplaceable_ops_pass = true;
  EXPECT_EQ(SwitchedOff(ex, &TorchAirConfig::disable_reinplace_inplaceable_ops_pass),
            "npugraph_ex.inplace_pass is false");
  ex.remove_cat_ops = false;
  EXPECT_EQ(SwitchedOff(ex, &TorchAirConfig::remove_cat_ops), "npugraph_ex.remove_cat_ops is false");
}

TEST(NpugraphExConfigTest, ThePipelineRunsEliminateSelfCopyAfterTheReinplacePasses) {
  const std::vector<std::string>& torchair = DefaultPipeline();
  const std::vector<std::string>& ex = NpugraphExPipeline();
  ASSERT_EQ(ex.size(), torchair.size() + 1);
  EXPECT_EQ(std::count(torchair.begin(), torchair.end(), "eliminate_self_copy"), 0);
  auto at = std::find(ex.begin(), ex.end(), "eliminate_self_copy");
  ASSERT_NE(at, ex.end());
  EXPECT_EQ(*(at - 1), "decompose_auto_functionalized");
  EXPECT_EQ(*(at + 1), "replace_dynamic_workspace_ops");
}

TEST(NpugraphExConfigTest, TheModeDecidesWhichOptionsAreInForce) {
  Settings settings;
  ASSERT_TRUE(settings.Set("config.debug.aclgraph.remove_cat_ops", "false").ok());
  ASSERT_TRUE(settings.Set("npugraph_ex.capture_limit", "3").ok());
  EXPECT_FALSE(settings.TorchAir().remove_cat_ops);
  EXPECT_EQ(settings.TorchAir().static_capture_size_limit, 64);
  EXPECT_FALSE(settings.CapturesAclGraphs());
  EXPECT_EQ(&settings.DefaultPasses(), &DefaultPipeline());
  ASSERT_TRUE(settings.Set("mode", "npugraph_ex").ok());
  TorchAirConfig config = settings.TorchAir();
  EXPECT_TRUE(config.npugraph_ex);
  EXPECT_TRUE(config.remove_cat_ops);  // TorchAir's option is not npugraph_ex's
  EXPECT_EQ(config.static_capture_size_limit, 3);
  EXPECT_TRUE(settings.CapturesAclGraphs());
  EXPECT_EQ(&settings.DefaultPasses(), &NpugraphExPipeline());
}

}  // namespace
}  // namespace airscope
