#include "core/check/happens_before.h"

#include <algorithm>
#include <map>

namespace airscope {

bool BlocksHost(const DeviceTask& task) {
  return task.kind == TaskKind::kHostSync || (task.kind == TaskKind::kMemcpy && task.blocking);
}

HappensBefore HappensBefore::Compute(const TaskGraph& graph) {
  HappensBefore hb;
  std::map<std::string, uint32_t, std::less<>> index;
  auto stream_index = [&](const std::string& s) {
    auto [it, fresh] = index.try_emplace(s, static_cast<uint32_t>(hb.streams_.size()));
    if (fresh) hb.streams_.push_back(s);
    return it->second;
  };
  for (const std::string& s : graph.streams) stream_index(s);
  for (const DeviceTask& t : graph.tasks) stream_index(t.stream);
  const size_t n = graph.tasks.size(), k = hb.streams_.size();
  hb.stream_.resize(n);
  hb.position_.resize(n);
  hb.record_of_.assign(n, -1);
  hb.clocks_.assign(n * k, -1);
  // Per stream, its latest task (-1: none yet); the host's clock: what every
  // task issued from now on is ordered after.
  std::vector<int64_t> last(k, -1);
  std::vector<uint32_t> issued(k, 0);
  std::vector<int32_t> host(k, -1);
  auto merge = [k](int32_t* into, const int32_t* from) {
    for (size_t s = 0; s < k; ++s) into[s] = std::max(into[s], from[s]);
  };
  for (const DeviceTask& t : graph.tasks) {
    const uint32_t s = index.find(t.stream)->second;
    int32_t* clock = &hb.clocks_[t.id * k];
    if (last[s] >= 0) std::copy_n(&hb.clocks_[static_cast<size_t>(last[s]) * k], k, clock);
    merge(clock, host.data());
    if (t.kind == TaskKind::kEventWait) {
      for (uint32_t d : t.deps) {
        const DeviceTask& r = graph.tasks[d];
        if (r.kind == TaskKind::kEventRecord && r.event == t.event) hb.record_of_[t.id] = d;
      }
      if (hb.record_of_[t.id] >= 0) merge(clock, &hb.clocks_[static_cast<size_t>(hb.record_of_[t.id]) * k]);
    }
    hb.stream_[t.id] = s;
    hb.position_[t.id] = issued[s]++;
    clock[s] = static_cast<int32_t>(hb.position_[t.id]);
    last[s] = t.id;
    if (BlocksHost(t)) merge(host.data(), clock);
  }
  return hb;
}

bool HappensBefore::Before(uint32_t a, uint32_t b) const {
  if (a == b) return false;
  const size_t k = streams_.size();
  return clocks_[b * k + stream_[a]] >= static_cast<int32_t>(position_[a]);
}

std::span<const int32_t> HappensBefore::Clock(uint32_t task) const {
  const size_t k = streams_.size();
  return {clocks_.data() + task * k, k};
}

}  // namespace airscope
