#include "formats/rank_divergence.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

namespace airscope {
namespace {

// A log line's blanks: spaces and tabs, and at its end a CR (a log written on Windows).
std::string_view TrimSpaces(std::string_view s) { return TrimRight(TrimLeft(s, " \t"), " \t\r"); }

// "Guard latency = 15.88 us" (guards.py CheckFunctionManager.__init__'s
// payload_fn); the number, or nullopt for any other line.
std::optional<double> LatencyLine(std::string_view line) {
  constexpr std::string_view kPrefix = "Guard latency = ";
  constexpr std::string_view kSuffix = " us";
  line = TrimSpaces(line);
  if (!line.starts_with(kPrefix) || !line.ends_with(kSuffix)) return std::nullopt;
  std::string number(line.substr(kPrefix.size(), line.size() - kPrefix.size() - kSuffix.size()));
  if (number.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = std::min(text.find('\n', pos), text.size());
    lines.push_back(text.substr(pos, end - pos));
    if (end == text.size()) break;
    pos = end + 1;
  }
  return lines;
}

// The first index where two line lists differ; nullopt when equal.
std::optional<size_t> FirstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return i;
  }
  if (a.size() != b.size()) return n;
  return std::nullopt;
}

std::string At(const std::vector<std::string>& lines, size_t i) { return i < lines.size() ? lines[i] : ""; }

// What one rank logged for one key, as the lines compared and, for the
// report, each line's number and original text.
struct Copy {
  int rank = -1;
  // A graph's whole text (in its log), compared whole first and split into
  // the lines below only when it differs: 64 ranks' copies of a big graph as
  // line strings took 3.5 GB for a 1 GB job, to find them equal.
  bool whole = false;
  std::string_view text;
  std::vector<std::string> compared;  // normalized
  std::vector<size_t> numbers;        // 1-based line numbers of `compared` in the original
  std::vector<std::string> shown;     // the original lines
};

// A copy's lines, each compared as it is or without object ids.
void AddLines(Copy& copy, const std::vector<std::string_view>& lines, bool without_ids) {
  for (size_t i = 0; i < lines.size(); ++i) {
    copy.compared.push_back(without_ids ? WithoutObjectIds(lines[i]) : std::string(lines[i]));
    copy.numbers.push_back(i + 1);
    copy.shown.emplace_back(lines[i]);
  }
}

// A whole-text copy's lines (once).
void SplitWhole(Copy& copy) {
  if (!copy.whole) return;
  copy.whole = false;
  AddLines(copy, Lines(copy.text), /*without_ids=*/false);
}

// Every rank's copy against the first rank's: one diff per rank that differs.
// Returns the number of keys logged by two ranks or more.
size_t CompareCopies(const std::vector<std::string>& order, std::map<std::string, std::vector<Copy>>& copies,
                     std::vector<RankLineDiff>* out) {
  size_t compared = 0;
  for (const std::string& key : order) {
    std::vector<Copy>& all = copies[key];
    if (all.size() < 2) continue;
    ++compared;
    Copy& first = all.front();
    for (size_t k = 1; k < all.size(); ++k) {
      Copy& other = all[k];
      if (first.whole && other.whole && first.text == other.text) continue;
      SplitWhole(first);
      SplitWhole(other);
      std::optional<size_t> at = FirstDifference(first.compared, other.compared);
      if (!at) continue;
      RankLineDiff diff;
      diff.id = key;
      diff.rank_a = first.rank;
      diff.rank_b = other.rank;
      size_t i = *at;
      diff.line = i < other.numbers.size() ? other.numbers[i] : i < first.numbers.size() ? first.numbers[i] : i + 1;
      diff.a = At(first.shown, i);
      diff.b = At(other.shown, i);
      out->push_back(std::move(diff));
    }
  }
  return compared;
}

void Remember(std::vector<std::string>* order, std::map<std::string, std::vector<Copy>>* copies, const std::string& key,
              Copy copy) {
  auto& list = (*copies)[key];
  if (list.empty()) order->push_back(key);
  list.push_back(std::move(copy));
}

Copy GuardCopy(int rank, std::string_view payload, std::optional<double>* latency) {
  GuardDump dump = SplitGuardDump(payload);
  Copy copy;
  copy.rank = rank;
  for (const auto& [number, line] : dump.guards) {
    copy.compared.push_back(WithoutObjectIds(line));
    copy.numbers.push_back(number);
    copy.shown.push_back(line);
  }
  if (latency) *latency = dump.latency_us;
  return copy;
}

// Lines compared without object ids (guards, recompile reasons).
Copy TextCopy(int rank, const std::vector<std::string_view>& lines) {
  Copy copy;
  copy.rank = rank;
  AddLines(copy, lines, /*without_ids=*/true);
  return copy;
}

}  // namespace

GuardDump SplitGuardDump(std::string_view payload) {
  GuardDump dump;
  std::vector<std::string_view> lines = Lines(payload);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::string_view trimmed = TrimSpaces(line);
    // GuardManagerWrapper.__str__'s leading empty line and header, and the
    // empty line payload_fn's "\n" leaves before the latency.
    if (trimmed.empty() || trimmed == "TREE_GUARD_MANAGER:") continue;
    if (std::optional<double> latency = LatencyLine(line)) {
      dump.latency_us = latency;
      continue;
    }
    dump.guards.emplace_back(i + 1, std::string(line));
  }
  return dump;
}

std::string WithoutObjectIds(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j - i >= 7) {
      out += '#';
      i = j;
    } else if (j > i) {
      out.append(text.substr(i, j - i));
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

RankDivergence CompareRanks(const std::vector<std::pair<int, const TraceLog*>>& logs) {
  RankDivergence result;
  for (const auto& [rank, log] : logs) result.ranks.push_back(rank);

  // Compile ids, grouped by the set of ranks that logged them.
  std::vector<std::string> order;
  std::map<std::string, std::vector<int>> ranks_of;
  for (const auto& [rank, log] : logs) {
    for (const TraceCompile& c : log->compiles) {
      auto& ranks = ranks_of[c.id];
      if (ranks.empty()) order.push_back(c.id);
      if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end()) ranks.push_back(rank);
    }
  }
  for (const std::string& id : order) {
    const std::vector<int>& ranks = ranks_of[id];
    auto group = std::find_if(result.compile_ids.begin(), result.compile_ids.end(),
                              [&ranks](const auto& g) { return g.first == ranks; });
    if (group == result.compile_ids.end()) {
      result.compile_ids.emplace_back(ranks, std::vector<std::string>{});
      group = result.compile_ids.end() - 1;
    }
    group->second.push_back(id);
  }

  // Guards: C++ guard dumps among the ranks that logged one, the Python
  // dynamo_guards records among the ranks that logged only those.
  std::vector<std::string> guard_order;
  std::map<std::string, std::vector<Copy>> guard_copies;
  std::map<std::string, std::vector<std::pair<int, double>>> latencies;
  for (const auto& [rank, log] : logs) {
    for (const auto& [id, payload] : log->cpp_guards) {
      std::optional<double> latency;
      Remember(&guard_order, &guard_copies, "cpp " + id, GuardCopy(rank, payload, &latency));
      if (latency) latencies[id].emplace_back(rank, *latency);
    }
    for (const auto& [id, text] : log->dynamo_guards) {
      if (log->cpp_guards.count(id)) continue;
      Remember(&guard_order, &guard_copies, "py " + id, TextCopy(rank, Lines(text)));
    }
  }
  result.guards_compared = CompareCopies(guard_order, guard_copies, &result.guards);
  for (RankLineDiff& d : result.guards) d.id = d.id.substr(d.id.find(' ') + 1);

  // Graphs, by trace id and stage (the last graph of each in a log).
  std::vector<std::string> graph_order;
  std::map<std::string, std::vector<Copy>> graph_copies;
  for (const auto& [rank, log] : logs) {
    std::map<std::string, const TraceGraph*> last;
    std::vector<std::string> keys;
    for (const TraceGraph& g : log->graphs) {
      if (g.compile_id.empty()) continue;
      std::string key = g.compile_id + ":" + g.stage;
      if (!last.count(key)) keys.push_back(key);
      last[key] = &g;
    }
    for (const std::string& key : keys) {
      Copy copy;
      copy.rank = rank;
      copy.whole = true;
      copy.text = last[key]->text;
      Remember(&graph_order, &graph_copies, key, std::move(copy));
    }
  }
  result.graphs_compared = CompareCopies(graph_order, graph_copies, &result.graphs);

  // Recompile reasons (the last record of each compile id), one reason a line.
  std::vector<std::string> reason_order;
  std::map<std::string, std::vector<Copy>> reason_copies;
  for (const auto& [rank, log] : logs) {
    std::map<std::string, const TraceRecompile*> last;
    std::vector<std::string> ids;
    for (const TraceRecompile& r : log->recompiles) {
      if (!last.count(r.compile_id)) ids.push_back(r.compile_id);
      last[r.compile_id] = &r;
    }
    for (const std::string& id : ids) {
      std::vector<std::string_view> lines(last[id]->reasons.begin(), last[id]->reasons.end());
      Remember(&reason_order, &reason_copies, id, TextCopy(rank, lines));
    }
  }
  result.recompiles_compared = CompareCopies(reason_order, reason_copies, &result.recompiles);

  // Guard latency: a timing, past the threshold only.
  for (const auto& [id, per_rank] : latencies) {
    if (per_rank.size() < 2) continue;
    ++result.latencies_compared;
    auto [lo, hi] = std::minmax_element(per_rank.begin(), per_rank.end(),
                                        [](const auto& x, const auto& y) { return x.second < y.second; });
    if (lo->second > 0) result.largest_ratio = std::max(result.largest_ratio, hi->second / lo->second);
    if (hi->second >= RankDivergence::kLatencyRatio * lo->second &&
        hi->second - lo->second >= RankDivergence::kLatencyMinDiffUs) {
      result.latencies.push_back({id, per_rank});
    }
  }
  return result;
}

}  // namespace airscope
