#include "viz/hazard_marks.h"

#include <map>
#include <tuple>

#include <fmt/format.h>

namespace airscope {

std::vector<HazardMark> HazardMarks(const TaskGraph& tasks, const std::vector<Hazard>& hazards) {
  auto node_of = [&](int64_t task) -> std::string {
    if (task < 0 || task >= static_cast<int64_t>(tasks.tasks.size())) return "";
    return tasks.tasks[static_cast<size_t>(task)].node;
  };
  std::vector<HazardMark> marks;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;  // (kind, first, second) -> mark
  for (const Hazard& h : hazards) {
    HazardMark mark{std::string(HazardKindName(h.kind)), node_of(h.first), node_of(h.second), h.message};
    auto [it, fresh] = index.try_emplace({mark.kind, mark.first, mark.second}, marks.size());
    if (fresh) {
      marks.push_back(std::move(mark));
    } else {
      marks[it->second].message += "\n" + mark.message;
    }
  }
  return marks;
}

std::string MarkNote(const HazardMark& mark, const std::string& node) {
  const std::string& other = mark.first == node ? mark.second : mark.first;
  if (other.empty() || other == node) return mark.kind;
  return fmt::format("{} with {}", mark.kind, other);
}

}  // namespace airscope
