#include "core/device/device_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "core/suggest.h"

namespace airscope {

double DeviceSpec::PeakFor(DType dtype) const {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kBFloat16: return peak_fp16_flops;
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kFloat8E4M3Fn:
    case DType::kFloat8E5M2: return peak_int8_ops;
    default: return peak_fp32_flops;
  }
}

namespace {

int64_t CeilNs(double seconds) {
  if (!(seconds > 0)) return 0;
  return static_cast<int64_t>(std::ceil(seconds * 1e9 - 1e-6));
}

}  // namespace

int64_t DeviceSpec::KernelNs(const OpCost& cost, DType dtype) const {
  double peak = PeakFor(dtype);
  double compute = peak > 0 ? cost.flops / peak : 0;
  double memory = mem_bandwidth > 0 ? (cost.bytes_read + cost.bytes_written) / mem_bandwidth : 0;
  return std::max(CeilNs(std::max(compute, memory)), min_kernel_ns);
}

int64_t DeviceSpec::D2DNs(double bytes) const {
  // A device copy reads and writes every byte.
  return std::max(d2d_bandwidth > 0 ? CeilNs(2 * bytes / d2d_bandwidth) : 0, min_kernel_ns);
}

int64_t DeviceSpec::H2DNs(double bytes) const {
  return std::max(h2d_bandwidth > 0 ? CeilNs(bytes / h2d_bandwidth) : 0, min_kernel_ns);
}

// Launch figures shared by the presets, from public measurements:
// - NVIDIA, "Getting Started with CUDA Graphs" (Alan Gray, 2019): 20 kernels of
//   ~2.9 us; 9.6 us per kernel with a synchronize after each, ~3.8 us back to
//   back on a stream, ~3.4 us as a graph. Solving that model (launch + latency
//   + kernel + sync return = 9.6 us; 20 kernels with 19 gaps = 3.8 us/kernel;
//   graph launch + per-node + 19 in-graph gaps = 3.4 us/kernel) gives the
//   host launch / latency / gap / sync figures below (bench/calibration_bench).
// - cudaGraphLaunch costs about 2.5 us of host time plus a little per node
//   (NVIDIA CUDA Graphs talks, GTC 2019-2021: "~2.5 us + ~50 ns/node").
// - Eager PyTorch spends several us in the dispatcher per op before the launch
//   (PyTorch "Performance Tuning Guide" and the CUDA-graphs blog post of the
//   PyTorch team, 2021); torch_npu adds task-queue overhead, so the 910B's
//   dispatch figure is higher.
static DeviceSpec CommonLaunch(DeviceSpec spec) {
  spec.min_kernel_ns = 1000;
  spec.host_launch_ns = 2500;
  spec.launch_latency_ns = 1500;
  spec.kernel_gap_ns = 600;
  spec.graph_launch_ns = 2500;
  spec.graph_launch_per_node_ns = 50;
  spec.graph_task_gap_ns = 120;
  spec.event_record_ns = 1000;
  spec.event_wait_ns = 1000;
  spec.sync_return_ns = 2700;
  return spec;
}

// Ascend 910B: ~354 TFLOP/s fp16 (cube), HBM2e ~1.6 TB/s, 64 GB.
static DeviceSpec Ascend910B(DeviceSpec spec) {
  spec.peak_fp16_flops = 354e12;
  spec.peak_fp32_flops = 88.5e12;  // the cube at fp32 runs at a quarter rate
  spec.peak_int8_ops = 708e12;
  spec.mem_bandwidth = 1.6e12;
  spec.host_dispatch_ns = 12000;
  spec.h2d_bandwidth = 25e9;  // PCIe 4.0 x16, achieved
  spec.d2d_bandwidth = 1.6e12;
  spec.memory_capacity = int64_t{64} << 30;
  // 24 cube (AI) cores and 48 vector cores: the Atlas A2 processor of
  // CANN's ATC --aicore_num documentation (its platform_config example:
  // ai_core_cnt=24, cube_core_cnt=24, vector_core_cnt=48; hiascend.com
  // .../devaids/atctool/atlasatcparam_16_0038.html) and what TorchAir's
  // tools/gegraph_check/deadlock_check.py assumes (24 AIC, 48 AIVEC, its
  // --aivec-total default). Other 910B variants' counts are not confirmed
  // here: device set aicore_num / vectorcore_num.
  spec.aicore_num = 24;
  spec.vectorcore_num = 48;
  // The stream count vllm-ascend's capture-size formula plans with
  // (vau26:635-638); the real budget depends on the HDK/CANN stack.
  spec.streams = 2048;
  return spec;
}

// A100 SXM 80GB: 312 TFLOP/s bf16/fp16 dense, 19.5 TFLOP/s fp32, 2.0 TB/s.
static DeviceSpec A100(DeviceSpec spec) {
  spec.peak_fp16_flops = 312e12;
  spec.peak_fp32_flops = 19.5e12;
  spec.peak_int8_ops = 624e12;
  spec.mem_bandwidth = 2.0e12;
  spec.host_dispatch_ns = 6000;
  spec.h2d_bandwidth = 25e9;
  spec.d2d_bandwidth = 2.0e12;
  spec.memory_capacity = int64_t{80} << 30;
  spec.aicore_num = spec.vectorcore_num = 108;  // SMs (NVIDIA A100 architecture whitepaper)
  return spec;
}

// H100 SXM: 989 TFLOP/s bf16 dense, 67 TFLOP/s fp32, 3.35 TB/s, 80 GB.
static DeviceSpec H100(DeviceSpec spec) {
  spec.peak_fp16_flops = 989e12;
  spec.peak_fp32_flops = 67e12;
  spec.peak_int8_ops = 1979e12;
  spec.mem_bandwidth = 3.35e12;
  spec.host_dispatch_ns = 5000;
  spec.h2d_bandwidth = 50e9;  // PCIe 5.0 x16, achieved
  spec.d2d_bandwidth = 3.35e12;
  spec.memory_capacity = int64_t{80} << 30;
  spec.aicore_num = spec.vectorcore_num = 132;  // SMs of the SXM5 part (NVIDIA Hopper architecture in depth)
  return spec;
}

namespace {

// The one table of presets, in name order: a new preset is its function above
// and one row here. Each row's figures go on top of CommonLaunch's.
struct DevicePresetRow {
  std::string_view name;
  DeviceSpec (*figures)(DeviceSpec spec);
};
constexpr DevicePresetRow kDevicePresets[] = {
    {"a100", A100},
    {"ascend-910b", Ascend910B},
    {"h100", H100},
};

}  // namespace

std::vector<std::string> DevicePresetNames() {
  std::vector<std::string> names;
  for (const DevicePresetRow& row : kDevicePresets) names.emplace_back(row.name);
  return names;
}

Result<DeviceSpec> DevicePreset(std::string_view name) {
  for (const DevicePresetRow& row : kDevicePresets) {
    if (row.name != name) continue;
    DeviceSpec spec = row.figures(CommonLaunch(DeviceSpec{}));
    spec.name = std::string(name);
    return spec;
  }
  return Status::Errorf("unknown device preset '{}'{} (presets: {})", name, DidYouMean(name, DevicePresetNames()),
                        fmt::join(DevicePresetNames(), ", "));
}

namespace {

// kLimit: a count where 0 means no limit.
enum class Kind { kNs, kRate, kBytes, kCount, kLimit, kVersion };
struct Param {
  const char* name;
  Kind kind;
  const char* unit;
  const char* help;
  double DeviceSpec::*rate = nullptr;
  int64_t DeviceSpec::*integer = nullptr;
  std::string DeviceSpec::*text = nullptr;
};

const std::vector<Param>& Table() {
  static const std::vector<Param> table = {
      {"peak_fp32_flops", Kind::kRate, "FLOP/s", "compute peak for f32 kernels", &DeviceSpec::peak_fp32_flops},
      {"peak_fp16_flops", Kind::kRate, "FLOP/s", "compute peak for f16/bf16 kernels", &DeviceSpec::peak_fp16_flops},
      {"peak_int8_ops", Kind::kRate, "OP/s", "compute peak for int8/fp8 kernels", &DeviceSpec::peak_int8_ops},
      {"mem_bandwidth", Kind::kRate, "B/s", "device memory bandwidth", &DeviceSpec::mem_bandwidth},
      {"min_kernel_ns", Kind::kNs, "ns", "shortest kernel", nullptr, &DeviceSpec::min_kernel_ns},
      {"host_dispatch_ns", Kind::kNs, "ns", "framework overhead per eager op", nullptr, &DeviceSpec::host_dispatch_ns},
      {"host_launch_ns", Kind::kNs, "ns", "host cost of one kernel launch", nullptr, &DeviceSpec::host_launch_ns},
      {"launch_latency_ns", Kind::kNs, "ns", "launch call end -> kernel start", nullptr,
       &DeviceSpec::launch_latency_ns},
      {"kernel_gap_ns", Kind::kNs, "ns", "device gap between stream-launched kernels", nullptr,
       &DeviceSpec::kernel_gap_ns},
      {"graph_launch_ns", Kind::kNs, "ns", "host cost of one graph launch", nullptr, &DeviceSpec::graph_launch_ns},
      {"graph_launch_per_node_ns", Kind::kNs, "ns", "graph launch host cost per task", nullptr,
       &DeviceSpec::graph_launch_per_node_ns},
      {"graph_task_gap_ns", Kind::kNs, "ns", "device gap between tasks in a graph", nullptr,
       &DeviceSpec::graph_task_gap_ns},
      {"event_record_ns", Kind::kNs, "ns", "host cost of an event record", nullptr, &DeviceSpec::event_record_ns},
      {"event_wait_ns", Kind::kNs, "ns", "host cost of a stream wait", nullptr, &DeviceSpec::event_wait_ns},
      {"sync_return_ns", Kind::kNs, "ns", "device idle -> synchronize returns", nullptr, &DeviceSpec::sync_return_ns},
      {"h2d_bandwidth", Kind::kRate, "B/s", "host-to-device copy bandwidth", &DeviceSpec::h2d_bandwidth},
      {"d2d_bandwidth", Kind::kRate, "B/s", "device-to-device copy bandwidth", &DeviceSpec::d2d_bandwidth},
      {"memory_capacity", Kind::kBytes, "bytes", "device memory", nullptr, &DeviceSpec::memory_capacity},
      {"aicore_num", Kind::kCount, "cores", "AI (cube) cores (a GPU: SMs)", nullptr, &DeviceSpec::aicore_num},
      {"vectorcore_num", Kind::kCount, "cores", "vector cores (a GPU: SMs)", nullptr, &DeviceSpec::vectorcore_num},
      {"streams", Kind::kLimit, "streams",
       "streams captured graphs may hold together (0: no limit; 2048 is vllm-ascend's planning figure)", nullptr,
       &DeviceSpec::streams},
      {"cann_version", Kind::kVersion, "version", "CANN release of the modelled software stack", nullptr, nullptr,
       &DeviceSpec::cann_version},
  };
  return table;
}

const Param* FindParam(std::string_view name) {
  for (const Param& p : Table()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Status UnknownParam(std::string_view name) {
  std::vector<std::string_view> names;
  for (const Param& p : Table()) names.push_back(p.name);
  return Status::Errorf("unknown device parameter '{}' (parameters: {})", name, fmt::join(names, ", "));
}

// "354T", "1.6e12", "2G", "512" -> value; suffixes K M G T P (powers of 1000).
bool ParseNumber(std::string_view text, double* out) {
  if (text.empty()) return false;
  std::string body(text);
  double scale = 1;
  switch (body.back()) {
    case 'K': scale = 1e3; break;
    case 'M': scale = 1e6; break;
    case 'G': scale = 1e9; break;
    case 'T': scale = 1e12; break;
    case 'P': scale = 1e15; break;
    default: break;
  }
  if (scale != 1) body.pop_back();
  if (body.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(body.c_str(), &end);
  if (end != body.c_str() + body.size() || !std::isfinite(v)) return false;
  *out = v * scale;
  return true;
}

}  // namespace

const std::vector<DeviceParamInfo>& DeviceParams() {
  static const std::vector<DeviceParamInfo> infos = [] {
    std::vector<DeviceParamInfo> out;
    for (const Param& p : Table()) out.push_back({p.name, p.unit, p.help});
    return out;
  }();
  return infos;
}

Result<std::string> GetDeviceParam(const DeviceSpec& spec, std::string_view name) {
  const Param* p = FindParam(name);
  if (!p) return UnknownParam(name);
  if (p->rate) return fmt::format("{:g}", spec.*(p->rate));
  if (p->text) return spec.*(p->text);
  return fmt::format("{}", spec.*(p->integer));
}

Status SetDeviceParam(DeviceSpec& spec, std::string_view name, std::string_view value) {
  const Param* p = FindParam(name);
  if (!p) return UnknownParam(name);
  if (p->text) {
    // CANN spells releases as 8.3.RC1, 8.2.0, 9.0.0.alpha001: digits, letters, dots.
    bool ok = !value.empty() && std::isdigit(static_cast<unsigned char>(value[0]));
    for (char c : value) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.');
    if (!ok) return Status::Errorf("device.{} takes a release like 8.3.RC1 or 8.2.0, not '{}'", name, value);
    spec.*(p->text) = std::string(value);
    return Status::Ok();
  }
  double v = 0;
  if (!ParseNumber(value, &v)) {
    return Status::Errorf("device.{} takes a number (suffixes K M G T allowed), not '{}'", name, value);
  }
  if (v < 0) return Status::Errorf("device.{} cannot be negative ({})", name, value);
  if (p->kind != Kind::kNs && p->kind != Kind::kLimit && v == 0)
    return Status::Errorf("device.{} must be positive", name);
  if (p->rate) {
    spec.*(p->rate) = v;
    return Status::Ok();
  }
  if (v > 9e18 || v != std::floor(v)) {
    return Status::Errorf("device.{} takes a whole number of {}, not '{}'", name, p->unit, value);
  }
  spec.*(p->integer) = static_cast<int64_t>(v);
  return Status::Ok();
}

}  // namespace airscope
