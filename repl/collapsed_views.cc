#include "repl/collapsed_views.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "repl/drawing_groups.h"
#include "repl/graph_folding.h"

namespace airscope {

std::string_view RunKeyName(RunKey key) {
  switch (key) {
    case RunKey::kLine: return "line";
    case RunKey::kFunction: return "function";
    case RunKey::kStream: return "stream";
  }
  return "";
}

Result<std::optional<RunKey>> ByFlag(const CommandFlags& flags) {
  const std::string* value = flags.Value("--by");
  if (value == nullptr) return std::optional<RunKey>();
  for (RunKey key : {RunKey::kLine, RunKey::kFunction, RunKey::kStream}) {
    if (*value == RunKeyName(key)) return std::optional<RunKey>(key);
  }
  return Status::Errorf("--by line|function|stream, not '{}'", *value);
}

namespace {

Status NeedsSource(const Graph& graph, RunKey key) {
  if (key == RunKey::kStream || NodesWithSource(graph) > 0) return Status::Ok();
  return Status::Errorf(
      "no node of this graph has a source: --by {} reads the `# File: PATH:LINE in FUNCTION, code: ...` comments "
      "torch's print_readable writes for nodes with a stack trace (Dynamo's graphs in TORCH_TRACE and TORCH_LOGS "
      "have them); this graph's text has none, and print(gm.graph) text never does",
      RunKeyName(key));
}

std::string RunText(const NodeRun& run, RunKey key) {
  if (run.key.empty()) return key == RunKey::kStream ? "default stream" : "(no source)";
  std::string text = key == RunKey::kStream ? "stream " + run.key : run.key;
  if (!run.code.empty()) text += ": " + run.code;
  return text;
}

}  // namespace

Status ShowRuns(const Graph& graph, RunKey key, bool fold, CommandOutput& out) {
  AIRSCOPE_RETURN_IF_ERROR(NeedsSource(graph, key));
  const std::vector<NodeRun> runs = NodeRuns(graph, key);
  const std::vector<FoldedRange> folded = fold ? FoldedRanges(graph, FoldRepeats(graph)) : std::vector<FoldedRange>();
  const std::vector<Node*> nodes = graph.Nodes();
  out.Styled(Style::kHeading, "{} run(s) of nodes by {} over {} nodes{}", runs.size(), RunKeyName(key), nodes.size(),
             folded.empty() ? "" : "; the repeats a folded show leaves out are one line each");
  out.Print("  {:>13} {:>7}  {:<40} {}", "nodes", "count", "first .. last", RunKeyName(key));
  size_t f = 0;
  size_t printed_fold = SIZE_MAX;
  for (const NodeRun& run : runs) {
    for (size_t begin = run.begin; begin < run.end;) {
      while (f < folded.size() && folded[f].end <= begin) ++f;
      if (f < folded.size() && folded[f].begin <= begin) {
        if (printed_fold != f) {
          const FoldedRange& range = folded[f];
          std::string first_line = range.label.substr(0, range.label.find('\n'));
          out.Styled(Style::kDim, "  {:>13} {:>7}  {} (show --by {} --all lists their runs)",
                     fmt::format("{}-{}", range.begin, range.end - 1), range.end - range.begin, first_line,
                     RunKeyName(key));
          printed_fold = f;
        }
        begin = folded[f].end;
        continue;
      }
      size_t end = f < folded.size() ? std::min(run.end, folded[f].begin) : run.end;
      std::string span = end - begin == 1 ? fmt::format("%{}", nodes[begin]->name())
                                          : fmt::format("%{} .. %{}", nodes[begin]->name(), nodes[end - 1]->name());
      out.Print("  {:>13} {:>7}  {:<40} {}",
                end - begin == 1 ? fmt::format("{}", begin) : fmt::format("{}-{}", begin, end - 1), end - begin, span,
                RunText(run, key));
      begin = end;
    }
  }
  return Status::Ok();
}

Status ApplyCollapseFlags(const CommandFlags& flags, const Graph& graph, std::string_view format, DotOptions& dot,
                          std::string* note) {
  const bool fold = flags.Has("--fold");
  AIRSCOPE_ASSIGN_OR_RETURN(std::optional<RunKey> by, ByFlag(flags));
  if (!fold && !by) return Status::Ok();
  if (format != "dot" && format != "svg" && format != "png") {
    return Status::Errorf("--fold and --by are for the drawings (dot, svg, png), not {}", format);
  }
  if (fold && by) return Status::Error("--fold or --by, not both");
  if (fold) {
    std::vector<FoldedRange> ranges = FoldedRanges(graph, FoldRepeats(graph));
    if (ranges.empty()) {
      *note = "no repeated blocks to fold: every node drawn (`repeats` lists what folds)";
      return Status::Ok();
    }
    dot.groups = FoldGroups(graph, ranges);
    size_t nodes = 0;
    for (const FoldedRange& range : ranges) nodes += range.end - range.begin;
    *note = fmt::format("folded {} node(s) into {} box(es), one repeat of each block drawn (`repeats` lists them)",
                        nodes, ranges.size());
    return Status::Ok();
  }
  AIRSCOPE_RETURN_IF_ERROR(NeedsSource(graph, *by));
  std::vector<NodeRun> runs = NodeRuns(graph, *by);
  dot.groups = RunGroups(graph, runs, *by);
  if (dot.groups->labels.empty()) {
    *note = *by == RunKey::kStream
                ? "no two consecutive nodes share a stream other than the default: every node drawn"
                : fmt::format("no two consecutive nodes share a {}: every node drawn", RunKeyName(*by));
    return Status::Ok();
  }
  *note =
      fmt::format("each run of 2 or more nodes of one {} drawn as one box: {} box(es) (show --by {} lists the runs)",
                  RunKeyName(*by), dot.groups->labels.size(), RunKeyName(*by));
  return Status::Ok();
}

}  // namespace airscope
