#include "core/device/device_spec.h"
#include "tests/unit/status_test_util.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

TEST(DeviceSpec, PresetsHaveTheirPublishedPeaks) {
  ASSERT_OK_AND_ASSIGN(DeviceSpec ascend, DevicePreset("ascend-910b"));
  EXPECT_DOUBLE_EQ(ascend.peak_fp16_flops, 354e12);
  EXPECT_DOUBLE_EQ(ascend.mem_bandwidth, 1.6e12);
  EXPECT_DOUBLE_EQ(DevicePreset("a100")->peak_fp16_flops, 312e12);
  EXPECT_DOUBLE_EQ(DevicePreset("h100")->mem_bandwidth, 3.35e12);
  EXPECT_FALSE(DevicePreset("tpu").ok());
  EXPECT_NE(DevicePreset("tpu").status().message().find("ascend-910b"), std::string::npos);
}

TEST(DeviceSpec, KernelTimeIsTheRooflineWithAFloor) {
  ASSERT_OK_AND_ASSIGN(DeviceSpec s, DevicePreset("a100"));
  // Compute bound: 312 TFLOP in fp16 takes 1 s.
  EXPECT_EQ(s.KernelNs({312e12, 0, 0}, DType::kFloat16), 1000000000);
  // Memory bound: 2 GB read+written at 2 TB/s takes 1 ms.
  EXPECT_EQ(s.KernelNs({0, 1e9, 1e9}, DType::kFloat16), 1000000);
  // fp32 uses the fp32 peak.
  EXPECT_EQ(s.KernelNs({19.5e12, 0, 0}, DType::kFloat32), 1000000000);
  // Tiny kernels take the minimum.
  EXPECT_EQ(s.KernelNs({10, 10, 10}, DType::kFloat32), s.min_kernel_ns);
}

TEST(DeviceSpec, SetAndGetByNameWithValidation) {
  ASSERT_OK_AND_ASSIGN(DeviceSpec s, DevicePreset("ascend-910b"));
  ASSERT_TRUE(SetDeviceParam(s, "host_launch_ns", "4000").ok());
  EXPECT_EQ(s.host_launch_ns, 4000);
  ASSERT_TRUE(SetDeviceParam(s, "peak_fp16_flops", "400T").ok());
  EXPECT_DOUBLE_EQ(s.peak_fp16_flops, 400e12);
  EXPECT_EQ(*GetDeviceParam(s, "peak_fp16_flops"), "4e+14");
  DeviceSpec before = s;
  EXPECT_FALSE(SetDeviceParam(s, "host_launch_ns", "-1").ok());
  EXPECT_FALSE(SetDeviceParam(s, "host_launch_ns", "1.5").ok());
  EXPECT_FALSE(SetDeviceParam(s, "mem_bandwidth", "0").ok());
  EXPECT_FALSE(SetDeviceParam(s, "mem_bandwidth", "fast").ok());
  Status unknown = SetDeviceParam(s, "warp_speed", "1");
  EXPECT_NE(unknown.message().find("unknown device parameter 'warp_speed'"), std::string::npos);
  EXPECT_EQ(s.host_launch_ns, before.host_launch_ns);
  for (const DeviceParamInfo& p : DeviceParams()) EXPECT_TRUE(GetDeviceParam(s, p.name).ok()) << p.name;
}

}  // namespace
}  // namespace airscope
