#include "repl/rank_log_graphs.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <string_view>
#include <thread>

#include "repl/graph_folding.h"

namespace airscope {

std::vector<std::string> TraceGraphNames(const TraceLog& log, const std::string& prefix) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const TraceGraph& g : log.graphs) {
    std::string name = fmt::format("{}{}:{}", prefix, g.compile_id.empty() ? "-" : g.compile_id, g.stage);
    int n = ++seen[name];
    if (n > 1) name += fmt::format("#{}", n);
    names.push_back(std::move(name));
  }
  return names;
}

std::vector<Result<TraceLog>> ReadTraceLogs(const std::vector<std::string>& files, uint64_t max_bytes) {
  std::vector<std::optional<Result<TraceLog>>> read(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) read[i] = LoadTraceLogFile(files[i], max_bytes);
  };
  const size_t threads = std::min<size_t>(files.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<Result<TraceLog>> out;
  out.reserve(read.size());
  for (auto& r : read) out.push_back(std::move(*r));
  return out;
}

std::string RankRanges(const std::vector<int>& ranks) {
  return IndexRanges(std::vector<size_t>(ranks.begin(), ranks.end()), ",");
}

RankGraphs LoadRankGraphs(const std::vector<std::pair<int, const TraceLog*>>& logs,
                          const std::vector<std::string>& shown, const std::string& prefix,
                          const OpRegistry& registry) {
  // One group per distinct graph; its members in rank order.
  struct Member {
    size_t log;          // index into logs
    std::string entry;   // "rank7:0/0:aot_forward_graph"
    std::string suffix;  // "0/0:aot_forward_graph" (with "#2" when repeated)
  };
  struct Group {
    const TraceGraph* graph = nullptr;
    std::vector<Member> members;
  };
  std::vector<Group> groups;
  // By the name after the rank ("0/0:aot_forward_graph#2": compile id, stage
  // and which of that stage's graphs) and the text.
  std::map<std::pair<std::string, std::string_view>, size_t> group_of;
  std::vector<std::vector<size_t>> group_of_graph(logs.size());  // per log, per graph: its group
  std::vector<std::vector<std::string>> names_of(logs.size());   // per log, per graph: its entry's name
  for (size_t l = 0; l < logs.size(); ++l) {
    const TraceLog& log = *logs[l].second;
    const std::string rank_prefix = fmt::format("{}rank{}:", prefix, logs[l].first);
    names_of[l] = TraceGraphNames(log, rank_prefix);
    const std::vector<std::string>& names = names_of[l];
    for (size_t g = 0; g < log.graphs.size(); ++g) {
      const TraceGraph& graph = log.graphs[g];
      std::string suffix = names[g].substr(rank_prefix.size());
      auto [it, fresh] = group_of.emplace(std::make_pair(suffix, std::string_view(graph.text)), groups.size());
      if (fresh) groups.push_back({&graph, {}});
      groups[it->second].members.push_back({l, names[g], std::move(suffix)});
      group_of_graph[l].push_back(it->second);
    }
  }
  RankGraphs out;
  std::vector<std::optional<LoadedGraph>> loaded(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& group = groups[i];
    const Member& first = group.members.front();
    std::string name = first.entry;
    if (group.members.size() > 1) {
      std::vector<int> ranks;
      for (const Member& m : group.members) ranks.push_back(logs[m.log].first);
      name = fmt::format("{}rank{}:{}", prefix, RankRanges(ranks), first.suffix);
    }
    Result<LoadedGraph> graph =
        LoadGraphText(group.graph->text, fmt::format("{}:{}", shown[first.log], group.graph->line), registry, {}, name);
    ++out.parsed;
    if (!graph.ok()) {
      out.warnings.push_back(fmt::format("{} not loaded: {}", name, graph.status().message()));
      continue;
    }
    loaded[i] = std::move(graph).value();
  }
  for (size_t l = 0; l < logs.size(); ++l) {
    const std::vector<std::string>& names = names_of[l];
    for (size_t g = 0; g < names.size(); ++g) {
      const std::optional<LoadedGraph>& graph = loaded[group_of_graph[l][g]];
      if (!graph) continue;
      LoadedGraph entry = *graph;  // shares the Graph
      entry.path = logs[l].second->path;
      out.graphs.emplace_back(names[g], std::move(entry));
    }
  }
  return out;
}

}  // namespace airscope
