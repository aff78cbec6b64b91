// Declared torch.nn modules (core/aot/nn_module.cc) and their lowering in
// aot (nn_modules.cc): reprs as torch prints them, parameters lifted in
// named_parameters-then-named_buffers order, eval-mode forward()s.
#include "aot_test_util.h"

#include "core/aot/nn_module.h"

#include <cmath>

#include "core/scanner.h"

namespace airscope {
namespace {

using testing_util::Calls;
using testing_util::ParseDynamo;
using testing_util::RunAotPass;

ModuleSpec Spec(const std::string& text) {
  Result<ModuleSpec> spec = ParseModuleSpec(text);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : ModuleSpec{};
}

// The reprs torch prints (extra_repr of each module).
TEST(ModuleSpecTest, ParsesTorchReprs) {
  ModuleSpec linear = Spec("Linear(in_features=64, out_features=256, bias=True)");
  EXPECT_EQ(linear.type, "Linear");
  EXPECT_EQ(linear.Int("out_features"), 256);
  ModuleSpec conv = Spec("Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)");
  EXPECT_EQ(conv.Ints("kernel_size", 2), (std::vector<int64_t>{7, 7}));
  EXPECT_EQ(conv.Int("groups"), 1);  // the default, filled in
  EXPECT_FALSE(conv.Bool("bias"));
  EXPECT_EQ(Spec("torch.nn.LayerNorm((768,), eps=1e-05, elementwise_affine=True)").Ints("normalized_shape", 1),
            (std::vector<int64_t>{768}));
  EXPECT_EQ(Spec("GELU(approximate='tanh')").Field("approximate").as_string(), "tanh");
  EXPECT_EQ(Spec("GELU(approximate=tanh)").Field("approximate").as_string(), "tanh");  // shell-stripped quotes
  EXPECT_EQ(Spec("MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)").Int("padding"), 1);
}

TEST(ModuleSpecTest, RefusesWhatItCannotBind) {
  EXPECT_NE(
      ParseModuleSpec("Linear(in_feature=64, out_features=2)").status().message().find("no argument 'in_feature'"),
      std::string::npos);
  EXPECT_NE(ParseModuleSpec("LSTM(10, 20)").status().message().find("not modelled"), std::string::npos);
  EXPECT_NE(ParseModuleSpec("Linear(64)").status().message().find("missing argument 'out_features'"),
            std::string::npos);
  EXPECT_NE(ParseModuleSpec("Linear(64, 2.5)").status().message().find("out_features must be an int"),
            std::string::npos);
  EXPECT_FALSE(ParseModuleSpec("Linear").ok());
}

// Values are ArgParser's literals, as in graph text, `decomp add` and `pass
// define`; errors name the column in the text as given and quote it.
TEST(ModuleSpecTest, ValuesAreArgParserLiteralsAndErrorsQuoteTheText) {
  EXPECT_TRUE(std::isinf(Spec("Embedding(10, 4, max_norm=inf)").Field("max_norm").as_float()));
  EXPECT_EQ(Spec("GELU(approximate = tanh )").Field("approximate").as_string(), "tanh");
  // A value runs to the next ',' (ArgParser), so a missing comma is a value it cannot read.
  EXPECT_EQ(ParseModuleSpec("  Linear(64 8)").status().message(),
            "Linear: column 10: cannot read '64 8' as a value\n"
            "      Linear(64 8)\n"
            "             ^");
  EXPECT_EQ(ParseModuleSpec("Linear(in_features=64, 8)").status().message(),
            "Linear: column 24: a positional argument follows a keyword argument\n"
            "    Linear(in_features=64, 8)\n"
            "                           ^");
  EXPECT_EQ(ErrorHeadline(ParseModuleSpec("GELU(approximate='tanh)").status().message()),
            "GELU: column 18: unterminated string (expected a closing ')");
  // The repr's last ')' closes the module; the tuple's '(' is left open.
  EXPECT_EQ(ErrorHeadline(ParseModuleSpec("Conv2d(3, 8, kernel_size=(3, 3)").status().message()),
            "Conv2d: column 26: unclosed '(' (expected ')' before the end of the line)");
}

// BatchNorm: weight, bias are parameters; running_mean, running_var,
// num_batches_tracked buffers (torch/nn/modules/batchnorm.py _NormBase).
TEST(ModuleSpecTest, ParametersAndBuffers) {
  ModuleSpec bn = Spec("BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
  ASSERT_EQ(ModuleParameters(bn).size(), 2u);
  std::vector<ModuleTensor> buffers = ModuleBuffers(bn);
  ASSERT_EQ(buffers.size(), 3u);
  EXPECT_EQ(buffers[2].name, "num_batches_tracked");
  EXPECT_TRUE(buffers[2].int64);
  std::vector<ModuleTensor> conv = ModuleParameters(Spec("Conv2d(4, 8, kernel_size=(3, 3), groups=2)"));
  EXPECT_EQ(conv[0].sizes, (std::vector<int64_t>{8, 2, 3, 3}));
}

std::vector<std::string> LowerModule(const std::string& repr, const std::string& in, const std::string& out) {
  ModuleTable table;
  table.Set("L__self___m", Spec(repr));
  auto g = ParseDynamo("        l_x_ = L_x_\n        y: \"" + out +
                           "\" = self.L__self___m(l_x_);  l_x_ = None\n"
                           "        return (y,)\n",
                       "L_x_: \"" + in + "\"");
  RunAotPass(*g, &table);
  return Calls(*g);
}

TEST(AotModulesTest, LinearIsTAndAddmmWithItsParametersFirst) {
  EXPECT_EQ(LowerModule("Linear(in_features=4, out_features=8, bias=True)", "f32[2, 4]", "f32[2, 8]"),
            (std::vector<std::string>{"t = aten.t.default(arg0_1)", "addmm = aten.addmm.default(arg1_1, arg2_1, t)",
                                      "output = output((addmm,))"}));
}

TEST(AotModulesTest, ConvAndBatchNormInEval) {
  EXPECT_EQ(LowerModule("Conv2d(3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)",
                        "f32[1, 3, 8, 8]", "f32[1, 8, 4, 4]")[0],
            "convolution = aten.convolution.default(arg1_1, arg0_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)");
  // inputs: weight, bias, running_mean, running_var, num_batches_tracked, x.
  EXPECT_EQ(LowerModule("BatchNorm2d(8)", "f32[1, 8, 4, 4]", "f32[1, 8, 4, 4]"),
            (std::vector<std::string>{"_native_batch_norm_legit_no_training = "
                                      "aten._native_batch_norm_legit_no_training.default(arg5_1, arg0_1, arg1_1, "
                                      "arg2_1, arg3_1, 0.1, 1e-05)",
                                      "getitem = operator.getitem(_native_batch_norm_legit_no_training, 0)",
                                      "output = output((getitem,))"}));
}

TEST(AotModulesTest, NormsEmbeddingAndActivations) {
  EXPECT_EQ(LowerModule("GroupNorm(2, 8, eps=1e-05, affine=True)", "f32[1, 8, 4, 4]", "f32[1, 8, 4, 4]")[0],
            "native_group_norm = aten.native_group_norm.default(arg2_1, arg0_1, arg1_1, 1, 8, 16, 2, 1e-05)");
  EXPECT_EQ(LowerModule("LayerNorm((4,), eps=1e-05, elementwise_affine=True)", "f32[2, 4]", "f32[2, 4]")[0],
            "native_layer_norm = aten.native_layer_norm.default(arg2_1, [4], arg0_1, arg1_1, 1e-05)");
  EXPECT_EQ(LowerModule("Embedding(10, 4, padding_idx=0)", "i64[2, 3]", "f32[2, 3, 4]")[0],
            "embedding = aten.embedding.default(arg0_1, arg1_1, 0)");
  EXPECT_EQ(LowerModule("ReLU(inplace=True)", "f32[4]", "f32[4]")[0], "relu = aten.relu.default(arg0_1)");
  EXPECT_EQ(LowerModule("GELU(approximate='tanh')", "f32[4]", "f32[4]")[0],
            "gelu = aten.gelu.default(arg0_1, approximate='tanh')");
  EXPECT_EQ(LowerModule("Softmax(dim=-1)", "f32[2, 4]", "f32[2, 4]")[0],
            "_softmax = aten._softmax.default(arg0_1, -1, False)");
  EXPECT_EQ(LowerModule("Dropout(p=0.1, inplace=False)", "f32[4]", "f32[4]"),
            (std::vector<std::string>{"output = output((arg0_1,))"}));
}

// Schema defaults at the end are left out, as the dispatcher hands them to the tracer.
TEST(AotModulesTest, Pooling) {
  EXPECT_EQ(LowerModule("MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)", "f32[1, 8, 8, 8]",
                        "f32[1, 8, 4, 4]")[0],
            "max_pool2d_with_indices = aten.max_pool2d_with_indices.default(arg0_1, [3, 3], [2, 2], [1, 1])");
  EXPECT_EQ(LowerModule("AvgPool2d(kernel_size=2, stride=2, padding=0)", "f32[1, 8, 8, 8]", "f32[1, 8, 4, 4]")[0],
            "avg_pool2d = aten.avg_pool2d.default(arg0_1, [2, 2], [2, 2])");
  EXPECT_EQ(LowerModule("AdaptiveAvgPool2d(output_size=(1, 1))", "f32[1, 8, 8, 8]", "f32[1, 8, 1, 1]")[0],
            "mean = aten.mean.dim(arg0_1, [-1, -2], True)");
  EXPECT_EQ(LowerModule("AdaptiveAvgPool2d(output_size=(2, 2))", "f32[1, 8, 8, 8]", "f32[1, 8, 2, 2]")[0],
            "_adaptive_avg_pool2d = aten._adaptive_avg_pool2d.default(arg0_1, [2, 2])");
  EXPECT_EQ(LowerModule("Flatten(start_dim=1, end_dim=-1)", "f32[2, 8, 1, 1][8, 1, 1, 1]", "f32[2, 8]")[0],
            "view = aten.view.default(arg0_1, [2, 8])");
}

TEST(AotModulesTest, UndeclaredModuleSaysHowToDeclareIt) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        y: \"f32[4]\" = self.L__self___fc(l_x_);  l_x_ = None\n"
      "        return (y,)\n",
      "L_x_: \"f32[4]\"");
  auto run = RunAotPass(*g);
  EXPECT_TRUE(run.Remarks("declare it as print(model) shows it: `module L__self___fc TYPE(ARGS)`"));
}

// ---- TorchAir's decomposition table

TEST(AotCollectivesTest, AllToAllSingleBecomesAllToAllSingleNpu) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        t: \"f32[4, 8]\" = torch.ops._c10d_functional.all_to_all_single(l_x_, [1, 3], [2, 2], '0')\n"
      "        w: \"f32[4, 8]\" = torch.ops._c10d_functional.wait_tensor(t)\n        return (w,)\n",
      "L_x_: \"f32[4, 8]\"");
  auto unknown = g->Clone();
  RunAotPass(*g, nullptr, /*world_size=*/2);
  // _all_to_all_single: counts in elements (rows x 8), displacements their prefix sums.
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{
                           "all_to_all_single_npu = npu_define.all_to_all_single_npu.default(arg0_1, [16, 16], "
                           "[0, 16], [8, 24], [0, 8], 'ptd:0', [0, 1], 2)",
                           "wait_tensor = _c10d_functional.wait_tensor.default(all_to_all_single_npu)",
                           "output = output((wait_tensor,))"}));
  auto run = RunAotPass(*unknown);
  EXPECT_TRUE(run.Remarks("set dist.world_size N"));
  EXPECT_EQ(Calls(*unknown)[0],
            "all_to_all_single = _c10d_functional.all_to_all_single.default(arg0_1, [1, 3], "
            "[2, 2], '0')");
}

TEST(AotCollectivesTest, AllgatherOfEqualSizes) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_a_ = L_a_\n        l_b_ = L_b_\n"
      "        ag = torch.ops.npu_define.allgather([l_a_, l_b_], l_x_, 'ptd:0', [0, 1], 2)\n"
      "        g0: \"f32[2, 8]\" = ag[0]\n        g1: \"f32[2, 8]\" = ag[1]\n        return (g0, g1)\n",
      "L_x_: \"f32[2, 8]\", L_a_: \"f32[2, 8]\", L_b_: \"f32[2, 8]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g),
            (std::vector<std::string>{
                "cat = aten.cat.default([arg0_1, arg0_1])",
                "allgather_in_tensor = npu_define.allgather_in_tensor.default(cat, arg0_1, 'ptd:0', [0, 1], 2)",
                "split_with_sizes = aten.split_with_sizes.default(allgather_in_tensor, [2, 2])",
                "getitem = operator.getitem(split_with_sizes, 0)", "view = aten.view.default(getitem, [2, 8])",
                "getitem_1 = operator.getitem(split_with_sizes, 1)", "view_1 = aten.view.default(getitem_1, [2, 8])",
                "output = output((view, view_1))"}));
}

}  // namespace
}  // namespace airscope
