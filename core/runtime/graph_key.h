// The graph key TorchAir's AclGraph files each call under (acl_graph.py,
// ag:230-278): one captured graph per key.
//   - unupdated_sym_input_index empty (a static graph): "no_updated_input",
//     so ONE capture serves every call;
//   - every entry a symbol: str([args[i] ...]), e.g. "[4]";
//   - otherwise str([value or list(shape) ...]), e.g. "[4, [4, 3]]";
//   - with parameter inputs and frozen_parameter off, str(hash(tuple(
//     data_ptr ...))) appended (get_unupdated_input_fn, ag:263-278).
// Python's str() and hash() are reproduced exactly: hash of an int is its
// value modulo 2**61-1, hash of a tuple CPython's xxHash-based tuplehash
// (Objects/tupleobject.c, CPython >= 3.8), so a key reads as TorchAir logs it
// for the same data pointers. airscope's data pointers are the simulated
// allocator's addresses (device_buffers.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/python_hash.h"  // PythonTupleHash
#include "core/runtime/fx_graph_info.h"

namespace airscope {

// One argument of a call, at runtime: what the key and the AclGraph runtime read.
struct CallArg {
  int64_t value = 0;           // kSymInt
  std::vector<int64_t> sizes;  // kTensor
  uint64_t data_ptr = 0;       // kTensor: tensor.data_ptr()
  // What the runtime reads besides: the tensor's concrete meta and the
  // storage it lives in (device_buffers.h).
  TensorMeta meta;
  uint32_t storage = 0;
};

std::string GraphKey(const FxGraphInfo& info, std::span<const CallArg> args, bool frozen_parameter);

}  // namespace airscope
