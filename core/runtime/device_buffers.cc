#include "core/runtime/device_buffers.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

uint64_t DeviceAddress(const BlockPlace& place) {
  return 0x100000000000ULL + (place.segment << 36) + static_cast<uint64_t>(place.offset);
}

std::string FormatAddress(uint64_t address) { return address == 0 ? "?" : fmt::format("{:#x}", address); }

bool Storage::Overlaps(uint64_t a, int64_t n) const {
  return a < address + static_cast<uint64_t>(bytes) && address < a + static_cast<uint64_t>(n);
}

Result<uint32_t> DeviceBuffers::NewStorage(CachingAllocator& memory, PoolId pool, int64_t bytes, std::string origin) {
  AIRSCOPE_ASSIGN_OR_RETURN(BlockId block, memory.Allocate(pool, std::max<int64_t>(bytes, 1)));
  return AdoptBlock(memory, block, std::move(origin));
}

uint32_t DeviceBuffers::AdoptBlock(const CachingAllocator& memory, BlockId block, std::string origin) {
  Storage s;
  s.id = static_cast<uint32_t>(storages_.size());
  std::optional<BlockPlace> place = memory.Place(block);
  if (place) {
    s.pool = place->pool;
    s.block = block;
    s.address = DeviceAddress(*place);
    s.bytes = place->size;
  }
  s.origin = std::move(origin);
  storages_.push_back(std::move(s));
  return storages_.back().id;
}

uint32_t DeviceBuffers::AddressOnly(PoolId pool, uint64_t address, int64_t bytes, std::string origin) {
  Storage s;
  s.id = static_cast<uint32_t>(storages_.size());
  s.pool = pool;
  s.address = address;
  s.bytes = bytes;
  s.origin = std::move(origin);
  storages_.push_back(std::move(s));
  return storages_.back().id;
}

void DeviceBuffers::Hold(uint32_t storage) { ++storages_[storage].holders; }

void DeviceBuffers::Release(CachingAllocator& memory, uint32_t storage) {
  Storage& s = storages_[storage];
  if (s.holders > 0) --s.holders;
  if (s.holders == 0 && s.block != 0) {
    memory.Free(s.block);
    s.block = 0;
  }
}

std::vector<uint32_t> DeviceBuffers::PoolWasReset(PoolId pool) {
  std::vector<uint32_t> reset;
  for (Storage& s : storages_) {
    if (s.pool != pool || s.block == 0) continue;
    s.block = 0;
    reset.push_back(s.id);
  }
  return reset;
}

void DeviceBuffers::MarkFreed(uint32_t storage) { storages_[storage].block = 0; }

Status DeviceBuffers::Add(Handle handle) {
  if (Find(handle.name)) return Status::Errorf("a buffer named '{}' exists already", handle.name);
  Hold(handle.storage);
  handles_.push_back(std::move(handle));
  return Status::Ok();
}

Status DeviceBuffers::Drop(CachingAllocator& memory, const std::string& name) {
  auto it = std::find_if(handles_.begin(), handles_.end(), [&](const Handle& h) { return h.name == name; });
  if (it == handles_.end()) return Status::Errorf("no buffer named '{}'", name);
  uint32_t storage = it->storage;
  handles_.erase(it);
  Release(memory, storage);
  return Status::Ok();
}

const Handle* DeviceBuffers::Find(const std::string& name) const {
  for (const Handle& h : handles_) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

bool DeviceBuffers::Rebinding(const Handle& handle, int64_t call) const {
  return handle.kind == Handle::Kind::kOutput && !handle.kept && handle.call < call;
}

void DeviceBuffers::EndCall(CachingAllocator& memory, int64_t call) {
  std::vector<std::string> gone;
  for (const Handle& h : handles_) {
    if (Rebinding(h, call)) gone.push_back(h.name);
  }
  for (const std::string& name : gone) (void)Drop(memory, name);
}

}  // namespace airscope
