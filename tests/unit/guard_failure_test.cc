// Guard failures read back from recompile messages (core/dynamo/guard_failure.h),
// on lines as torch printed them in the logs under tests/data/torch_logs.
#include "core/dynamo/guard_failure.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

using Kind = GuardFailure::Kind;

TEST(GuardFailure, SizeMismatchWithLocalSource) {
  // troubleshooting_recompile.log
  GuardFailure f = ParseGuardFailure("    - 0/0: tensor 'L['x']' size mismatch at index 0. expected 3, actual 4");
  EXPECT_EQ(f.kind, Kind::kSize);
  EXPECT_EQ(f.entry, "0/0");
  EXPECT_EQ(f.source, "L['x']");
  EXPECT_EQ(f.dim, 0);
  EXPECT_EQ(f.expected, "3");
  ASSERT_TRUE(f.actual);
  EXPECT_EQ(*f.actual, "4");
  EXPECT_EQ(UnfixableAdvice(f.kind), "");
  EXPECT_EQ(SourceInputName(f.source), "x");
}

TEST(GuardFailure, SizeMismatchOnAParameterCarriesTorchsHint) {
  // ComfyUI #9289, as quoted in tests/data/torch_logs/README.md's sources
  GuardFailure f = ParseGuardFailure(
      "- 6/1: tensor 'self._modules['img_mod']._modules['1']._parameters['weight']' size mismatch at index 1. "
      "expected 1728, actual 2112. Guard failed on a parameter, consider using "
      "torch._dynamo.config.force_parameter_static_shapes = False to allow dynamism on parameters.");
  EXPECT_EQ(f.kind, Kind::kSize);
  EXPECT_EQ(f.entry, "6/1");
  EXPECT_EQ(f.source, "self._modules['img_mod']._modules['1']._parameters['weight']");
  EXPECT_EQ(f.dim, 1);
  EXPECT_EQ(f.expected, "1728");
  EXPECT_EQ(*f.actual, "2112");
  EXPECT_TRUE(f.parameter);
  EXPECT_EQ(SourceInputName("args[0]"), "args_0");
  EXPECT_EQ(SourceInputName("v"), "v");
}

TEST(GuardFailure, ConstantsOldAndNewForms) {
  GuardFailure f = ParseGuardFailure("- 0/7: L['c'] == 8.5");
  EXPECT_EQ(f.kind, Kind::kConstant);
  EXPECT_EQ(f.source, "L['c']");
  EXPECT_EQ(f.expected, "8.5");
  EXPECT_FALSE(f.actual);
  // pr110928_recompiles_tuple.log (torch 2.1)
  GuardFailure old = ParseGuardFailure("L['a'] == 0, with LHS value: 1");
  EXPECT_EQ(old.kind, Kind::kConstant);
  EXPECT_EQ(old.entry, "");
  EXPECT_EQ(old.expected, "0");
  EXPECT_EQ(*old.actual, "1");
  GuardFailure lr = ParseGuardFailure("- 3/7: L['self'].param_groups[0]['lr'] == 0.004782969000000002");
  EXPECT_EQ(lr.source, "L['self'].param_groups[0]['lr']");
  EXPECT_EQ(SourceInputName(lr.source), "self_param_groups_0_lr");
}

TEST(GuardFailure, ClassesNoDynamismFixes) {
  GuardFailure id = ParseGuardFailure("- 0/3: ___check_obj_id(self._modules['attn'].processor, 140576345756128)");
  EXPECT_EQ(id.kind, Kind::kObjectId);
  EXPECT_EQ(id.source, "self._modules['attn'].processor");
  EXPECT_EQ(id.expected, "140576345756128");
  EXPECT_NE(UnfixableAdvice(id.kind).find("same one"), std::string_view::npos);
  EXPECT_EQ(ParseGuardFailure("- ___check_global_state()").kind, Kind::kGlobalState);
  GuardFailure len = ParseGuardFailure("- len(L['x']) == 3");
  EXPECT_EQ(len.kind, Kind::kLength);
  EXPECT_EQ(len.source, "L['x']");
  EXPECT_EQ(ParseGuardFailure("tensor 'L['x']' dtype mismatch. expected Float, actual Half").kind, Kind::kDtype);
  GuardFailure grad = ParseGuardFailure("tensor 'x' requires_grad mismatch. expected requires_grad=0");
  EXPECT_EQ(grad.kind, Kind::kRequiresGrad);
  EXPECT_EQ(*grad.actual, "1");
  GuardFailure other = ParseGuardFailure("- 0/0: Ne(L['x'].size()[0], 1)");
  EXPECT_EQ(other.kind, Kind::kOther);
  EXPECT_EQ(other.reason, "Ne(L['x'].size()[0], 1)");
}

}  // namespace
}  // namespace airscope
