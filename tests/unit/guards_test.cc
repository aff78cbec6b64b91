#include "core/dynamo/guards.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

std::vector<CallInput> Inputs(std::string_view spec) { return ParseCallSpec(spec).value(); }

TensorGuard StaticGuard(const CallInput& in) {
  TensorGuard t;
  t.name = in.name;
  t.dtype = in.dtype;
  t.device = in.device;
  t.requires_grad = in.requires_grad;
  for (int64_t s : in.sizes) t.sizes.push_back(DimGuard{DimKind::kStatic, s, "", 2, INT64_MAX, {}});
  for (int64_t s : in.strides) t.strides.push_back(s);
  return t;
}

TEST(GuardsTest, CheckTensorTextAsDynamoPrintsIt) {
  GuardSet guards({StaticGuard(Inputs("x=f32[2,2]")[0])});
  ASSERT_EQ(guards.TensorLines().size(), 1u);
  EXPECT_EQ(guards.TensorLines()[0],
            "check_tensor(L['x'], Tensor, DispatchKeySet(PrivateUse1, BackendSelect, ADInplaceOrView, "
            "AutogradPrivateUse1), torch.float32, device=0, requires_grad=False, size=[2, 2], stride=[2, 1])");
  GuardSet cpu({StaticGuard(Inputs("x=f16[3]:cpu")[0])});
  EXPECT_NE(
      cpu.TensorLines()[0].find("DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float16, "
                                "device=None"),
      std::string::npos);
}

TEST(GuardsTest, StaticHitAndEachKindOfMiss) {
  GuardSet guards({StaticGuard(Inputs("x=f32[2,2]")[0])});
  EXPECT_TRUE(guards.Check(Inputs("x=f32[2,2]")));
  EXPECT_FALSE(guards.FirstFailure(Inputs("x=f32[2,2]")));
  auto fail = [&](std::string_view spec) {
    std::vector<CallInput> in = Inputs(spec);
    EXPECT_FALSE(guards.Check(in)) << spec;
    return guards.FirstFailure(in).value_or("");
  };
  EXPECT_EQ(fail("x=f32[4,2]"), "tensor 'x' size mismatch at index 0. expected 2, actual 4");
  EXPECT_EQ(fail("x=f16[2,2]"), "tensor 'x' dtype mismatch. expected Float, actual Half");
  EXPECT_EQ(fail("x=f32[2,2]@[1,2]"), "tensor 'x' stride mismatch at index 0. expected 2, actual 1");
  EXPECT_EQ(fail("x=f32[2,2] grad"), "tensor 'x' requires_grad mismatch. expected requires_grad=0");
  EXPECT_EQ(fail("x=f32[2,2,1]"), "tensor 'x' rank mismatch. expected 2, actual 3");
  EXPECT_EQ(fail("x=f32[2,2]:npu:1"), "tensor 'x' device index mismatch. expected 0, actual 1");
  EXPECT_NE(fail("x=f32[2,2]:cpu").find("dispatch key set mismatch"), std::string::npos);
}

TEST(GuardsTest, SymbolicRangeEqualityAndGears) {
  std::vector<CallInput> in = Inputs("x=f32[4,2] y=f32[4,2]");
  TensorGuard x = StaticGuard(in[0]);
  TensorGuard y = StaticGuard(in[1]);
  x.sizes[0] = DimGuard{DimKind::kSymbolic, 0, "s0", 2, INT64_MAX, {}};
  y.sizes[0] = DimGuard{DimKind::kSymbolic, 0, "s0", 2, INT64_MAX, {}};
  x.strides[0].reset();
  y.strides[0].reset();
  GuardSet guards({x, y});
  EXPECT_EQ(guards.TensorLines()[0].substr(guards.TensorLines()[0].find("size=")), "size=[None, 2], stride=[None, 1])");
  EXPECT_EQ(guards.ShapeEnvLines(),
            (std::vector<std::string>{"2 <= L['x'].size()[0]", "L['y'].size()[0] == L['x'].size()[0]"}));
  EXPECT_TRUE(guards.Check(Inputs("x=f32[9,2] y=f32[9,2]")));
  EXPECT_FALSE(guards.Check(Inputs("x=f32[9,2] y=f32[8,2]")));
  EXPECT_FALSE(guards.Check(Inputs("x=f32[1,2] y=f32[1,2]")));
  EXPECT_EQ(guards.FirstFailure(Inputs("x=f32[1,2] y=f32[1,2]")).value(),
            "2 <= L['x'].size()[0]  # L['x'].size()[0] = 1");

  TensorGuard g = StaticGuard(Inputs("x=f32[4]")[0]);
  g.sizes[0] = DimGuard{DimKind::kGears, 0, "s0", 2, INT64_MAX, {2, 4, 8}};
  GuardSet gears({g});
  EXPECT_TRUE(gears.Check(Inputs("x=f32[8]")));
  EXPECT_FALSE(gears.Check(Inputs("x=f32[6]")));
  EXPECT_EQ(gears.ShapeEnvLines(),
            (std::vector<std::string>{"2 <= L['x'].size()[0] <= 8", "(L['x'].size()[0] <= 2) | (4 <= L['x'].size()[0])",
                                      "(L['x'].size()[0] <= 4) | (8 <= L['x'].size()[0])"}));
  EXPECT_EQ(gears.FirstFailure(Inputs("x=f32[9]")).value(), "2 <= L['x'].size()[0] <= 8  # L['x'].size()[0] = 9");

  // A dim specialized after being dynamic: None in check_tensor, `== N` in the shape env.
  TensorGuard s = StaticGuard(Inputs("x=f32[4, 6]")[0]);
  s.sizes[1].specialized = true;
  s.strides[0] = std::nullopt;  // a stride over a dim that was dynamic
  GuardSet specialized({s});
  EXPECT_NE(specialized.TensorLines()[0].find("size=[4, None], stride=[None, 1]"), std::string::npos);
  EXPECT_EQ(specialized.ShapeEnvLines(), (std::vector<std::string>{"L['x'].size()[1] == 6"}));
  EXPECT_FALSE(specialized.Check(Inputs("x=f32[4, 5]")));
  EXPECT_EQ(specialized.FirstFailure(Inputs("x=f32[4, 5]")).value(), "L['x'].size()[1] == 6  # L['x'].size()[1] = 5");
}

}  // namespace
}  // namespace airscope
