// DeviceBuffers: the tensors a caller holds on the simulated device, by name,
// and the storages behind them.
//
// A Storage is device memory: a block of the simulated caching allocator
// (core/device/allocator.h) at an address. It lives while something holds
// it: a caller's handle, or TorchAir keeping a tensor alive (the capture-time
// inputs it retains, the outputs it retains for one graph key, ag:1145-1153,
// 1203-1206). When the last holder lets go its block is freed, and the
// caching allocator may hand the same address to the next tensor of a
// fitting size, as torch's does. A storage can also lose its memory while
// held: TorchAir resets its mempool to the state before the first capture
// when it captures another graph key (_npu_setCheckpointPoolState, ag:1120-
// 1130); the handle then still names the address, now free for the capture.
//
// Handles are what the caller names: a buffer passed to a call (`x=f32[4,4]
// in buf1`; `x@3` when call 3 made one for input x) and the outputs a call
// returned (`out3.0`: output 0 of call 3). An output handle is kept until
// `drop` when the call said `keep`; otherwise it is held until the next call
// returns, as `y = f(x)` holds y.
//
// Addresses are airscope's, not a real NPU's: 0x100000000000 + (segment << 36)
// + offset, from the block's segment and offset in the simulated allocator,
// so the same blocks give the same addresses run after run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/device/allocator.h"
#include "core/status.h"

namespace airscope {

uint64_t DeviceAddress(const BlockPlace& place);
std::string FormatAddress(uint64_t address);  // "0x110000000200"; "?" for 0 (no memory was placed)

struct Storage {
  uint32_t id = 0;
  PoolId pool = kDefaultPool;
  BlockId block = 0;  // 0: its memory is free (every holder let go, or a pool reset freed it)
  uint64_t address = 0;
  int64_t bytes = 0;  // the block's (rounded) size
  int holders = 0;
  std::string origin;  // what made it: "buf1", "output 0 of AclGraph 3"
  bool freed() const { return block == 0; }
  bool Overlaps(uint64_t address, int64_t bytes) const;
};

struct Handle {
  enum class Kind : uint8_t { kInput, kOutput };
  std::string name;
  Kind kind = Kind::kInput;
  uint32_t storage = 0;
  int64_t bytes = 0;     // the tensor's
  std::string shape;     // "f32[4, 4]" (outputs)
  int64_t call = 0;      // the call that made it
  size_t output = 0;     // kOutput: index among the graph's outputs
  std::string producer;  // kOutput: "AclGraph 3 (graph_1 {[4]})"
  bool kept = false;     // kOutput: `keep`; else held until the next call returns
};

class DeviceBuffers {
 public:
  // New memory of `bytes` in `pool`, not held yet. Errors: out of device memory.
  Result<uint32_t> NewStorage(CachingAllocator& memory, PoolId pool, int64_t bytes, std::string origin);
  // A storage for a block the caller allocated (a captured graph's output).
  uint32_t AdoptBlock(const CachingAllocator& memory, BlockId block, std::string origin);
  // A storage record for memory that is already free (an address only).
  uint32_t AddressOnly(PoolId pool, uint64_t address, int64_t bytes, std::string origin);

  void Hold(uint32_t storage);
  // Frees the block when no holder is left.
  void Release(CachingAllocator& memory, uint32_t storage);
  // Every live storage of `pool` loses its memory (the pool's blocks were all
  // freed); returns their ids.
  std::vector<uint32_t> PoolWasReset(PoolId pool);
  // A storage's memory freed by someone else (its pool released).
  void MarkFreed(uint32_t storage);

  const Storage& storage(uint32_t id) const { return storages_[id]; }
  const std::vector<Storage>& storages() const { return storages_; }

  // Handles. A handle holds its storage: Add fails (nothing held) when the
  // name is taken; Drop releases the storage.
  Status Add(Handle handle);
  Status Drop(CachingAllocator& memory, const std::string& name);
  const Handle* Find(const std::string& name) const;
  const std::vector<Handle>& handles() const { return handles_; }
  // Output handles the caller still holds that a call may overwrite without
  // a warning: the previous call's, not kept (they are being rebound).
  bool Rebinding(const Handle& handle, int64_t call) const;
  // After call `call` returned: the previous call's outputs not kept are let go.
  void EndCall(CachingAllocator& memory, int64_t call);

  // The numbering of calls that go through the runtime (1, 2, ...).
  int64_t NextCall() { return ++calls_; }
  int64_t calls() const { return calls_; }

 private:
  std::vector<Storage> storages_;
  std::vector<Handle> handles_;  // in creation order
  int64_t calls_ = 0;
};

}  // namespace airscope
