// Navigation as text, for graphs too big to look at (core/analysis/
// graph_neighbourhood.h, repeated_blocks.h): focus (a node's K-hop
// neighbourhood, optionally drawn alone), path (how a value reaches another,
// and what orders the steps that change streams), users / producers
// (transitively with --all), repeats (the blocks `show` folds).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/graph_neighbourhood.h"
#include "core/check/happens_before.h"
#include "core/lower/task_graph.h"
#include "core/text.h"
#include "repl/command_table.h"
#include "repl/graph_folding.h"
#include "repl/graph_text.h"
#include "repl/graph_views.h"
#include "repl/interpreter.h"
#include "repl/piecewise_setup.h"
#include "repl/session.h"

namespace airscope {
namespace {

constexpr const char* kFocusUsage = "focus NODE [HOPS] [--max N] [--draw PATH]";
constexpr int64_t kFocusMaxDefault = 200;

// `aten.mm.default`; `placeholder`, `get_attr`, `output`, a method or module's target.
std::string OpLabel(const Node& node) {
  if (node.op() == OpKind::kCallFunction) return std::string(StripTorchOps(node.target()));
  if (node.op() == OpKind::kCallMethod || node.op() == OpKind::kCallModule) {
    return fmt::format("{}:{}", OpKindName(node.op()), node.target());
  }
  return std::string(OpKindName(node.op()));
}

std::string NameList(const std::vector<Node*>& nodes, size_t shown) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const Node* node : nodes) names.push_back(node->name());
  return names.empty() ? std::string("-") : JoinAtMost(names, shown);
}

Result<size_t> PositiveWord(const Word& word, std::string_view what) {
  std::optional<int64_t> value = WordAsInt(word);
  if (!value || *value < 0) return Status::Errorf("{} must be a whole number >= 0, not '{}'", what, word.text);
  return static_cast<size_t>(*value);
}

// The format a drawing's path asks for: its extension, svg or png; DOT text
// for any other name.
std::string DrawingFormat(std::string_view path) {
  for (std::string_view format : {"svg", "png"}) {
    if (path.ends_with(fmt::format(".{}", format))) return std::string(format);
  }
  return "dot";
}

Status Focus(CommandContext& ctx) {
  if (ctx.args.empty() || ctx.args.size() > 2) return UsageError(kFocusUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* centre, FindNodeOrError(*graph, ctx.args[0].text));
  size_t hops = 1;
  if (ctx.args.size() == 2) {
    AIRSCOPE_ASSIGN_OR_RETURN(hops, PositiveWord(ctx.args[1], "HOPS"));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t max_nodes, FlagInt(ctx.flags, "--max", kFocusMaxDefault, 1));
  Neighbourhood around =
      NodesAround(*graph, *centre, static_cast<int>(std::min<size_t>(hops, 1 << 20)), static_cast<size_t>(max_nodes));
  ctx.out.Styled(Style::kHeading, "%{} in '{}', {} hop(s): {} producer(s), {} user(s){}", centre->name(), graph->name(),
                 hops, around.producers, around.users,
                 around.truncated ? fmt::format(" (stopped at --max {}: more lie within the hops)", max_nodes) : "");
  std::unordered_set<const Node*> shown;
  for (const NearNode& near : around.nodes) shown.insert(near.node);
  ctx.out.Print("  {:>4}  {:<24} {:<30} {:<22} {:<10} {}", "hop", "node", "op", "value", "stream", "reads");
  size_t beyond_inputs = 0;
  size_t beyond_users = 0;
  for (const NearNode& near : around.nodes) {
    const Node& node = *near.node;
    std::vector<Node*> inputs = node.inputs();
    for (const Node* input : inputs) beyond_inputs += near.hops <= 0 && !shown.contains(input);
    for (const Node* user : node.users()) beyond_users += near.hops >= 0 && !shown.contains(user);
    std::string hop = near.hops == 0 ? "0" : fmt::format("{:+d}", near.hops);
    ctx.out.Styled(near.hops == 0 ? Style::kAccent : Style::kPlain, "  {:>4}  {:<24} {:<30} {:<22} {:<10} {}", hop,
                   node.name(), OpLabel(node), ValueString(node), StreamString(node), NameList(inputs, 4));
  }
  if (beyond_inputs + beyond_users > 0) {
    ctx.out.Styled(Style::kDim, "  beyond these: {} more input edge(s) above, {} more user edge(s) below (focus {} {})",
                   beyond_inputs, beyond_users, centre->name(), hops + 1);
  }
  if (const std::string* path = ctx.flags.Value("--draw")) {
    std::string format = DrawingFormat(*path);
    auto only = std::make_shared<std::unordered_set<std::string>>();
    for (const NearNode& near : around.nodes) only->insert(near.node->name());
    DotOptions dot;
    dot.only_nodes = only;
    AIRSCOPE_ASSIGN_OR_RETURN(WrittenGraph written, WriteGraph(*graph, format, Interpreter::ExpandHome(*path), dot));
    if (!written.printed.empty()) ctx.out.AddBlock(written.printed, Style::kData);
    if (!written.summary.empty()) {
      DrawnCount drawn = CountDrawn(*graph, dot);
      ctx.out.Print(
          "{} ({} of the graph's {} nodes drawn{})", written.summary, drawn.nodes, graph->size(),
          drawn.bundled_inputs ? fmt::format(", {} input(s) in their user's label", drawn.bundled_inputs) : "");
    }
    if (!written.note.empty()) ctx.out.Styled(Style::kDim, "  {}", written.note);
  }
  return Status::Ok();
}

// What orders the step `from` -> `to` when they run on different streams:
// the event a task on `to`'s stream waits for, recorded on `from`'s stream
// after `from`; else the vector clocks' word (ordered through other streams,
// or not at all).
std::string StreamCrossing(const TaskGraph& tasks, const HappensBefore& order, uint32_t from, uint32_t to) {
  const DeviceTask& a = tasks.tasks[from];
  const DeviceTask& b = tasks.tasks[to];
  auto stream = [](const std::string& s) { return s.empty() ? std::string("default") : s; };
  if (!order.Before(from, to)) {
    return fmt::format("NOT ordered: %{} ({}) and %{} ({}) may run at once, a race (check lists it)", a.node,
                       stream(a.stream), b.node, stream(b.stream));
  }
  for (uint32_t t = to; t-- > 0;) {
    const DeviceTask& wait = tasks.tasks[t];
    if (wait.kind != TaskKind::kEventWait || order.stream_of(t) != order.stream_of(to)) continue;
    int64_t record = order.RecordOf(t);
    if (record < 0 || order.stream_of(static_cast<uint32_t>(record)) != order.stream_of(from)) continue;
    if (order.position(static_cast<uint32_t>(record)) < order.position(from)) continue;
    return fmt::format("ordered by event {}: %{} records it on {} after %{}, %{} waits for it on {} before %{}",
                       wait.event, tasks.tasks[record].node, stream(a.stream), a.node, wait.node, stream(b.stream),
                       b.node);
  }
  return fmt::format("ordered through events on other streams (%{} on {} before %{} on {})", a.node, stream(a.stream),
                     b.node, stream(b.stream));
}

Status PathCommand(CommandContext& ctx) {
  if (ctx.args.size() != 2) return UsageError("path A B");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* a, FindNodeOrError(*graph, ctx.args[0].text));
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* b, FindNodeOrError(*graph, ctx.args[1].text));
  std::vector<const Node*> path = DataPath(*graph, *a, *b);
  bool reversed = false;
  if (path.empty()) {
    path = DataPath(*graph, *b, *a);
    reversed = !path.empty();
  }
  if (path.empty()) {
    ctx.out.Print("no data path between %{} and %{}: neither depends on the other", a->name(), b->name());
    return Status::Ok();
  }
  ctx.out.Styled(Style::kHeading, "%{} reaches %{} in {} step(s){}", path.front()->name(), path.back()->name(),
                 path.size() - 1, reversed ? " (the other way round: B feeds A)" : "");
  bool streams = std::any_of(path.begin(), path.end(), [&](const Node* n) { return n->stream() != path[0]->stream(); });
  std::optional<TaskGraph> tasks;
  std::optional<HappensBefore> order;
  std::unordered_map<std::string_view, uint32_t> task_of;
  std::string no_tasks;
  if (streams) {
    TaskGraphOptions options;
    options.allow_unrecorded_waits = true;
    options.accesses = false;
    Result<TaskGraph> built = BuildTaskGraph(*graph, ctx.session.registry(), options);
    if (built.ok()) {
      tasks = std::move(built).value();
      order = HappensBefore::Compute(*tasks);
      for (const DeviceTask& task : tasks->tasks) task_of.emplace(task.node, task.id);
    } else {
      no_tasks = built.status().message();
    }
  }
  std::optional<uint32_t> last_task;
  for (size_t i = 0; i < path.size(); ++i) {
    const Node& node = *path[i];
    ctx.out.Print("  {:>3}  {:<24} {:<30} {:<22} {}", i, node.name(), OpLabel(node), ValueString(node),
                  StreamString(node));
    if (!tasks) continue;
    auto it = task_of.find(node.name());
    if (it == task_of.end()) continue;  // a view or a marker: no device task of its own
    if (last_task && tasks->tasks[*last_task].stream != node.stream()) {
      ctx.out.Styled(Style::kAccent, "       ^ {}", StreamCrossing(*tasks, *order, *last_task, it->second));
    }
    last_task = it->second;
  }
  if (!no_tasks.empty()) {
    ctx.out.Styled(Style::kDim, "  (the path changes streams, but what orders it is not known: {})", no_tasks);
  }
  return Status::Ok();
}

Status Related(CommandContext& ctx, Direction direction) {
  const char* name = direction == Direction::kUsers ? "users" : "producers";
  const char* counted = direction == Direction::kUsers ? "user(s)" : "producer(s)";
  if (ctx.args.size() != 1) return UsageError(fmt::format("{} NODE [--all]", name));
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* node, FindNodeOrError(*graph, ctx.args[0].text));
  if (!ctx.flags.Has("--all")) {
    std::vector<Node*> direct = direction == Direction::kUsers ? node->users().ToVector() : node->inputs();
    ctx.out.Styled(Style::kHeading, "%{}: {} {} (direct; --all for every one, transitively)", node->name(),
                   direct.size(), counted);
    for (const Node* n : direct) {
      ctx.out.Print("  {:<24} {:<30} {:<22} {}", n->name(), OpLabel(*n), ValueString(*n), StreamString(*n));
    }
    return Status::Ok();
  }
  Closure closure = TransitiveClosure(*graph, *node, direction);
  ctx.out.Styled(Style::kHeading, "%{}: {} {} transitively, {} of the graph's {} nodes; the longest chain {} hop(s)",
                 node->name(), closure.nodes.size(), counted,
                 fmt::format("{:.1f}%", 100.0 * static_cast<double>(closure.nodes.size()) /
                                            static_cast<double>(std::max<size_t>(graph->size(), 1))),
                 graph->size(), closure.depth);
  constexpr size_t kOps = 12;
  for (size_t i = 0; i < closure.by_op.size() && i < kOps; ++i) {
    ctx.out.Print("  {:>9}  {}", closure.by_op[i].second, closure.by_op[i].first);
  }
  if (closure.by_op.size() > kOps) ctx.out.Print("  ... and {} more ops", closure.by_op.size() - kOps);
  std::vector<Node*> nodes;
  for (const Node* n : closure.nodes) nodes.push_back(const_cast<Node*>(n));
  if (!nodes.empty()) ctx.out.Print("  nodes: {}", NameList(nodes, 8));
  return Status::Ok();
}

Status Repeats(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("repeats");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  FoldedGraph folded = FoldRepeats(*graph);
  if (folded.blocks.empty()) {
    ctx.out.Print("'{}' has no repeated blocks ({} nodes)", graph->name(), graph->size());
    return Status::Ok();
  }
  const std::vector<Node*> nodes = graph->Nodes();
  ctx.out.Styled(Style::kHeading, "'{}': {} repeated block(s); show folds {} of its {} nodes", graph->name(),
                 folded.blocks.size(), folded.FoldedNodes(), graph->size());
  for (size_t b = 0; b < folded.blocks.size(); ++b) {
    const RepeatedBlock& block = folded.blocks[b];
    ctx.out.Print("  block {}: {}, positions {}-{}", b + 1, BlockSummary(nodes, block), block.start, block.end() - 1);
    for (const std::string& line : DifferenceLines(nodes, block, 5)) ctx.out.Print("    {}", line);
    for (const RepeatedBlock& inner : folded.inside[b]) {
      ctx.out.Print("    inside repeat {}: {}", block.reference, BlockSummary(nodes, inner));
      for (const std::string& line : DifferenceLines(nodes, inner, 3)) ctx.out.Print("      {}", line);
    }
  }
  return Status::Ok();
}

CommandCompleter NodeCompleter() {
  return [](const std::vector<std::string>&) { return CompletionRule{CompletionKind::kNode, {}}; };
}

}  // namespace

void RegisterNavigateCommands(CommandTable& table) {
  table.Add({"focus",
             kFocusUsage,
             "a node's neighbourhood: producers and users within HOPS, optionally drawn alone",
             "Lists the nodes within HOPS data edges of NODE (default 1): up through what it reads, down through\n"
             "what reads it; never sideways (a producer's other users are not in it). Each row: hops from NODE\n"
             "(-2: read two edges up), op, value, stream, and the nodes it reads. At most --max N nodes (default\n"
             "200), the nearest first; the heading says when it stopped there. --draw PATH draws only these nodes\n"
             "(PATH.svg or .png by its name, DOT text otherwise): a layout of the part in focus, however big the\n"
             "graph.",
             Focus,
             NodeCompleter(),
             {{"--max", "N", {}}, {"--draw", "PATH", {CompletionKind::kFile, {}}}}});
  table.Add({"path", "path A B", "how a value reaches another: a shortest chain of data edges, and what orders it",
             "Prints a shortest chain of data edges from A to B (or from B to A: the heading says which feeds\n"
             "which), each node with its op, value and stream. Where the chain changes streams (a lowered graph),\n"
             "it says what orders the two steps on the device: the event recorded after the first and waited for\n"
             "before the second, or that they are ordered through other streams' events, or that nothing orders\n"
             "them (a race: `check` reports it). No chain: neither depends on the other.",
             PathCommand, NodeCompleter()});
  table.Add({"users",
             "users NODE [--all]",
             "what reads a node; --all: everything that depends on it",
             "Lists the nodes that read NODE. --all counts every node that depends on it, transitively, by op,\n"
             "with the longest chain of hops to one of them.",
             [](CommandContext& ctx) { return Related(ctx, Direction::kUsers); },
             NodeCompleter(),
             {{"--all", "", {}}}});
  table.Add({"producers",
             "producers NODE [--all]",
             "what a node reads; --all: everything it depends on",
             "Lists the nodes NODE reads. --all counts every node it depends on, transitively, by op, with the\n"
             "longest chain of hops from one of them.",
             [](CommandContext& ctx) { return Related(ctx, Direction::kProducers); },
             NodeCompleter(),
             {{"--all", "", {}}}});
  table.Add({"repeats",
             "repeats",
             "the repeated blocks of the current graph (the layers show folds)",
             "Finds runs of nodes that repeat back to back with the same ops wired the same way (the decoder\n"
             "layers of an LLM; one level of blocks inside a repeat too, such as its experts) and lists them:\n"
             "how many repeats of how many nodes, where, and which repeats differ from the one show prints in\n"
             "shapes or constants (the first node that differs, both values). Found from the structure alone\n"
             "(op, target, which earlier node each argument is), not from module names: torch's FX text has\n"
             "none. A repeat starts at the earliest node the structure allows, so its first node may be a\n"
             "weight the layer reads.",
             Repeats,
             {}});
}

}  // namespace airscope
