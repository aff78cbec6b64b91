#include "core/dynamo/call_spec.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"

namespace airscope {
namespace {

TEST(CallSpecTest, ParsesDtypeSizesStridesDeviceGrad) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec("x=f32[2,2]@[2,1] y=bf16[4]:npu:1 grad z=i64[]:cpu");
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_EQ(inputs->size(), 3u);
  const CallInput& x = (*inputs)[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.dtype, DType::kFloat32);
  EXPECT_EQ(x.sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(x.strides, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(x.device, "npu:0");
  EXPECT_FALSE(x.requires_grad);
  EXPECT_EQ((*inputs)[1].device, "npu:1");
  EXPECT_TRUE((*inputs)[1].requires_grad);
  EXPECT_EQ((*inputs)[2].device, "cpu");
  EXPECT_TRUE((*inputs)[2].sizes.empty());
}

TEST(CallSpecTest, ContiguousStridesWhenNotStated) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec("x=f16[2,3,4]");
  ASSERT_TRUE(inputs.ok());
  EXPECT_EQ((*inputs)[0].strides, (std::vector<int64_t>{12, 4, 1}));
}

void ExpectError(std::string_view spec, std::string_view text) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec(spec);
  ASSERT_FALSE(inputs.ok()) << spec;
  EXPECT_NE(inputs.status().message().find(text), std::string::npos) << inputs.status().message();
}

TEST(CallSpecTest, ErrorsPointAtTheToken) {
  ExpectError("x=f32[2,", "column 6: unterminated size list");
  ExpectError("x=f33[2]", "column 3: unknown dtype 'f33'");
  ExpectError("x=f32[2] y=f32[-3]", "column 16: negative size -3");
  ExpectError("x=f32[2]@[1,1]", "2 strides for 1 sizes");
  ExpectError("x=f32[2]:tpu", "column 10: unknown device 'tpu'");
  ExpectError("x=f32[2]junk", "column 9: unexpected 'junk'");
  ExpectError("grad", "column 1: 'grad' must follow");
  ExpectError("f32[2]", "expected NAME=SPEC");
  ExpectError("", "at least one input");
}

TEST(CallSpecTest, BindChecksNamesAndCount) {
  Result<std::unique_ptr<Graph>> graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 2]\", y: \"f32[2, 2]\"):\n"
      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, y)\n"
      "        return (add,)\n",
      "t.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto bind = [&](std::string_view spec) { return BindCallInputs(**graph, *ParseCallSpec(spec)); };
  Result<std::vector<CallInput>> ok = bind("y=f32[2,2] x=f32[2,2]");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[0].name, "x");  // placeholder order
  EXPECT_NE(bind("x=f32[2,2] z=f32[2]").status().message().find("column 12: no input named 'z' (the graph takes x, y)"),
            std::string::npos);
  EXPECT_NE(bind("x=f32[2,2]").status().message().find("missing input 'y'"), std::string::npos);
  EXPECT_NE(bind("x=f32[2,2] x=f32[2,2]").status().message().find("column 12: input 'x' given twice"), std::string::npos);
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// Found by fuzz_call_spec: contiguous strides of huge sizes overflowed int64
// (undefined behaviour); now a clear error at the token.
TEST(CallSpecFuzzRegression, HugeSizesAreAnErrorNotAnOverflow) {
  auto parsed = ParseCallSpec("x=f32[99999999999,99999999999,99999999999]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("overflows int64"), std::string::npos) << parsed.status().message();
  auto meta = TensorMeta::ParseAnnotation("f32[99999999999, 99999999999, 99999999999]");
  ASSERT_TRUE(meta.ok());
  EXPECT_FALSE(meta->NumElements().has_value());
  EXPECT_FALSE(meta->NumBytes().has_value());
}

}  // namespace
}  // namespace airscope
