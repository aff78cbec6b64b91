// DeviceSpec: every number the simulated device uses, in one place.
//
// Contract: the simulator reads costs only from a DeviceSpec; nothing is
// hard-coded per graph. Times are integer nanoseconds so a simulation is
// exact and byte-identical run to run; rates are doubles (FLOP/s, bytes/s)
// and every derived time is rounded to whole nanoseconds once, here.
// Parameters are addressable by name (`device set launch_latency_ns 1500`)
// with validation; presets model public figures for real devices.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

struct DeviceSpec {
  std::string name = "ascend-910b";
  // Compute peaks by dtype class, FLOP/s.
  double peak_fp32_flops = 0;  // f32 (and f64, which is rarely fast)
  double peak_fp16_flops = 0;  // f16 / bf16 (the tensor/cube units)
  double peak_int8_ops = 0;    // int8 / fp8
  double mem_bandwidth = 0;    // device memory, bytes/s
  int64_t min_kernel_ns = 0;   // the shortest a kernel ever takes
  // Host side.
  int64_t host_dispatch_ns = 0;          // framework overhead per eager op (PyTorch dispatcher, torch_npu)
  int64_t host_launch_ns = 0;            // the launch API call per kernel/memcpy
  int64_t launch_latency_ns = 0;         // end of the launch call -> earliest kernel start
  int64_t kernel_gap_ns = 0;             // device gap between back-to-back stream-launched kernels
  int64_t graph_launch_ns = 0;           // host cost of one graph launch (aclmdlRIExecuteAsync / cudaGraphLaunch)
  int64_t graph_launch_per_node_ns = 0;  // ... plus this per task in the graph
  int64_t graph_task_gap_ns = 0;         // device gap between tasks inside a graph
  int64_t event_record_ns = 0;           // host cost to issue a record
  int64_t event_wait_ns = 0;             // host cost to issue a stream wait
  int64_t sync_return_ns = 0;            // device idle -> host returns from synchronize
  double h2d_bandwidth = 0;              // bytes/s
  double d2d_bandwidth = 0;              // bytes/s
  int64_t memory_capacity = 0;           // bytes
  // Cores a kernel's launch may occupy: Ascend's cube (AI) cores and vector
  // cores; a GPU's SM count stands for both (it has no such split).
  int64_t aicore_num = 0;
  int64_t vectorcore_num = 0;
  // The streams captured graphs may hold together (0: no limit modelled). A
  // capture past it fails as the runtime's AclmdlRICaptureBegin does (error
  // code 207008, simulator.h). vllm-ascend's sizing comment (vau26:635-638):
  // graphs are "bounded by the number of streams, which is 2048"; newer
  // HDK/CANN stacks capture more (vllm-ascend #9962). Not measured here.
  int64_t streams = 0;
  // The CANN release the simulated software stack models (TorchAir passes
  // check it, e.g. recover_view_inplace_pattern needs >= 8.3.RC1).
  std::string cann_version = "8.3.RC1";

  // Peak for a dtype class: f16/bf16 -> fp16 peak, int8/fp8 -> int8 peak, else fp32.
  double PeakFor(DType dtype) const;
  // max(flops / peak, bytes / bandwidth, min_kernel_ns), rounded up to ns.
  int64_t KernelNs(const OpCost& cost, DType dtype) const;
  // max(bytes / bandwidth, min_kernel_ns).
  int64_t D2DNs(double bytes) const;
  int64_t H2DNs(double bytes) const;
};

// Presets, from one table in device_spec.cc: "a100", "ascend-910b", "h100" (in name order).
std::vector<std::string> DevicePresetNames();
Result<DeviceSpec> DevicePreset(std::string_view name);

// Parameters by name, for `device` and `device set`.
struct DeviceParamInfo {
  std::string name;
  std::string unit;  // "ns", "FLOP/s", "B/s", "bytes", "cores", "version"
  std::string help;
};
const std::vector<DeviceParamInfo>& DeviceParams();
// The value as shown: integers for ns/bytes/cores, %g-style for rates, the
// version text for cann_version.
Result<std::string> GetDeviceParam(const DeviceSpec& spec, std::string_view name);
// Parses and validates (non-negative; rates and capacity positive); `spec`
// is unchanged on error. Rates accept suffixes: 354T, 1.6e12, 2G.
Status SetDeviceParam(DeviceSpec& spec, std::string_view name, std::string_view value);

}  // namespace airscope
