// Generated graphs with one planted failure, for `minify`'s tests and bench:
// readable code (as print_readable prints it) of a long relu chain with, in
// its middle, a side branch that capture refuses: sum -> .item()
// (aten._local_scalar_dense), a stream synchronize during capture
// (ACL_ERROR_RT_STREAM_CAPTURED 107027, as tests/data/host_sync.readable.py).
// Header-only and framework-free, as bench/chain_graphs.h.
#pragma once

#include <cstddef>
#include <string>

#include <fmt/format.h>

namespace airscope {

// `relus` relu nodes (at least 1) plus sum_1 and _local_scalar_dense: relus + 2
// compute nodes, one input, the output.
inline std::string PlantedHostSyncReadable(size_t relus) {
  std::string out =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[8, 8]\"):\n";
  std::string prev = "arg0_1";
  const size_t plant = relus / 2;
  auto relu_name = [](size_t i) { return i == 0 ? std::string("relu") : fmt::format("relu_{}", i); };
  for (size_t i = 0; i < relus; ++i) {
    std::string name = relu_name(i);
    out += fmt::format("        {}: \"f32[8, 8]\" = torch.ops.aten.relu.default({})\n", name, prev);
    prev = name;
    if (i == plant) {
      out += fmt::format("        sum_1: \"f32[]\" = torch.ops.aten.sum.default({})\n", name);
      out += "        _local_scalar_dense: \"Sym(u0)\" = torch.ops.aten._local_scalar_dense.default(sum_1)\n";
    }
  }
  out += fmt::format("        return ({}, _local_scalar_dense)\n", prev);
  return out;
}

}  // namespace airscope
