// PassStatsTable: TorchAir's per-pass DEBUG record (graph_utils.py
// _compare_fx_graphs, _get_node_info, _tabulate, _merge_diff_list).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/fx/python_repr.h"
#include "core/pass/graph_diff.h"

namespace airscope {
namespace {

// A Counter that remembers the order keys first appeared in.
struct OrderedCounter {
  std::vector<std::string> keys;
  std::map<std::string, int64_t, std::less<>> counts;
  void Add(std::string_view key) {
    auto [it, fresh] = counts.try_emplace(std::string(key), 0);
    if (fresh) keys.push_back(it->first);
    ++it->second;
  }
  int64_t Get(std::string_view key) const {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  }
};

struct NodeInfo {
  std::vector<std::string> names;
  OrderedCounter ops;
  OrderedCounter targets;
};

NodeInfo GetNodeInfo(const Graph& graph) {
  NodeInfo info;
  for (const Node* node : graph) {
    info.names.push_back(node->name());
    info.ops.Add(OpKindName(node->op()));
    info.targets.Add(node->target());
  }
  return info;
}

using Row = std::vector<std::string>;

// _merge_diff_list: `total`, then one row per key.
std::vector<Row> MergeDiffList(const OrderedCounter& before, const OrderedCounter& after) {
  auto sum = [](const OrderedCounter& c) {
    int64_t total = 0;
    for (const auto& [key, count] : c.counts) total += count;
    return total;
  };
  auto row = [](std::string_view name, int64_t b, int64_t a) {
    return Row{std::string(name), fmt::format("{}", b), fmt::format("{}", a), fmt::format("{}", a - b)};
  };
  std::vector<Row> rows{row("total", sum(before), sum(after))};
  for (const std::string& key : before.keys) rows.push_back(row(key, before.Get(key), after.Get(key)));
  for (const std::string& key : after.keys) {
    if (before.Get(key) == 0) rows.push_back(row(key, 0, after.Get(key)));
  }
  return rows;
}

// _tabulate: 4-space indent, 2-space column gap, first column left-justified,
// the others right-justified, every width at least 2, a dashed rule under
// the header; lines joined by "\n".
std::string Tabulate(const std::vector<Row>& rows, const Row& headers) {
  std::vector<size_t> widths(headers.size(), 0);
  for (size_t i = 0; i < headers.size(); ++i) widths[i] = headers[i].size();
  for (const Row& r : rows) {
    for (size_t i = 0; i < r.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], r[i].size());
  }
  for (size_t& w : widths) w = std::max<size_t>(w, 2);
  auto line = [&](const Row& cells) {
    std::string out = "    ";
    for (size_t i = 0; i < widths.size(); ++i) {
      if (i > 0) out += "  ";
      out += i == 0 ? fmt::format("{:<{}}", cells[i], widths[i]) : fmt::format("{:>{}}", cells[i], widths[i]);
    }
    return out;
  };
  std::vector<std::string> lines{line(headers)};
  Row rule;
  for (size_t w : widths) rule.push_back(std::string(w, '-'));
  lines.push_back(line(rule));
  for (const Row& r : rows) lines.push_back(line(r));
  return fmt::format("{}", fmt::join(lines, "\n"));
}

// Python's repr of a list of str.
std::string ListRepr(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += PythonStringRepr(names[i]);
  }
  return out + "]";
}

std::vector<std::string> Missing(const std::vector<std::string>& from, const std::vector<std::string>& in) {
  std::vector<std::string> sorted = in;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> missing;
  for (const std::string& name : from) {
    if (!std::binary_search(sorted.begin(), sorted.end(), name)) missing.push_back(name);
  }
  return missing;
}

}  // namespace

std::string PassStatsTable(const Graph& before, const Graph& after, std::string_view pass, double cost_seconds) {
  NodeInfo b = GetNodeInfo(before);
  NodeInfo a = GetNodeInfo(after);
  const Row headers{"name", "cnt(before)", "cnt(after)", "diff"};
  std::string cost_line = cost_seconds > 0 ? fmt::format("    cost {:.10f}s,\n", cost_seconds) : "";
  return fmt::format(
      "After fx graph pass({}) optimization:\n"
      "{}"
      "    before {} nodes, after {} nodes,\n"
      "    removed nodes: {},\n"
      "    added nodes: {},\n"
      "    operations statistics:\n {}\n\n"
      "    targets statistics:\n {}",
      pass, cost_line, b.names.size(), a.names.size(), ListRepr(Missing(b.names, a.names)),
      ListRepr(Missing(a.names, b.names)), Tabulate(MergeDiffList(b.ops, a.ops), headers),
      Tabulate(MergeDiffList(b.targets, a.targets), headers));
}

}  // namespace airscope
