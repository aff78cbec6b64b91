// Graph -> libcgraph graph -> DOT text (agwrite) or SVG/PNG (libgvc).
#include "viz/dot_writer.h"

#include <array>
#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/child_process.h"
#include "core/file_util.h"
#include "viz/graphviz_util.h"

namespace airscope {
namespace {

// Light fills so black text stays readable; assigned to streams in order of first appearance.
constexpr std::array<std::string_view, 8> kStreamPalette = {"#dbeafe", "#dcfce7", "#fef9c3", "#fce7f3",
                                                            "#ede9fe", "#ffedd5", "#ccfbf1", "#e5e7eb"};

std::string_view ShortTarget(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (target.starts_with(kPrefix)) target.remove_prefix(kPrefix.size());
  return target;
}

// The op `node` calls is `op` (any overload: "air.wait" matches air.wait.default).
bool CallsOp(const Node& node, std::string_view op) {
  if (node.op() != OpKind::kCallFunction) return false;
  std::string_view target = ShortTarget(node.target());
  return target.starts_with(op) && (target.size() == op.size() || target[op.size()] == '.');
}

// Records and waits order streams through events rather than data.
bool IsEventOp(const Node& node) {
  for (std::string_view op : {"air.record", "air.wait", "air.tagged_event_record", "air.tagged_event_wait"}) {
    if (CallsOp(node, op)) return true;
  }
  return false;
}

// A tagged event op's tag: args[0] as a string ("" when it has none).
std::string TagOf(const Node& node) {
  if (node.args().empty() || node.args()[0].kind() != Argument::Kind::kString) return "";
  return node.args()[0].as_string();
}

std::string ShapeText(const Node& node) { return node.meta() ? node.meta()->ShapeString() : ""; }

// DOT label escapes start with a backslash (\N, \G, \l...), so user text
// must have its own backslashes doubled; lines are joined with the `\n` escape.
std::string LabelLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string NodeLabel(const Node& node) {
  std::string label = LabelLine(node.name());
  // A placeholder's target repeats its name; say what it is instead.
  if (node.op() == OpKind::kCallFunction || node.op() == OpKind::kCallMethod || node.op() == OpKind::kCallModule ||
      node.op() == OpKind::kGetAttr) {
    label += "\\n" + LabelLine(ShortTarget(node.target()));
  }
  if (std::string shape = ShapeText(node); !shape.empty()) label += "\\n" + LabelLine(shape);
  return label;
}

void StyleNode(Agnode_t* n, const Node& node) {
  switch (node.op()) {
    case OpKind::kPlaceholder:
      gv::Set(n, "shape", "ellipse");
      gv::Set(n, "style", "filled");
      gv::Set(n, "fillcolor", "#bfdbfe");
      break;
    case OpKind::kOutput:
      gv::Set(n, "shape", "doubleoctagon");
      gv::Set(n, "style", "filled");
      gv::Set(n, "fillcolor", "#d1d5db");
      break;
    case OpKind::kGetAttr: gv::Set(n, "shape", "note"); break;
    default:
      if (IsEventOp(node)) gv::Set(n, "shape", "cds");
      break;
  }
}

// A tagged wait waits for the latest record of its tag issued before it
// (graph order is issue order): the edge a data edge does not give.
void AddTaggedEventEdges(Agraph_t* root, const Graph& graph, const std::unordered_map<const Node*, Agnode_t*>& nodes) {
  std::unordered_map<std::string, const Node*> latest;  // tag -> its latest record so far
  for (const Node* node : graph) {
    std::string tag = TagOf(*node);
    if (tag.empty()) continue;
    if (CallsOp(*node, "air.tagged_event_record")) {
      latest[tag] = node;
      continue;
    }
    if (!CallsOp(*node, "air.tagged_event_wait")) continue;
    auto record = latest.find(tag);
    if (record == latest.end()) continue;  // waits for nothing: `check` says so (unrecorded wait)
    auto tail = nodes.find(record->second);
    auto head = nodes.find(node);
    if (tail == nodes.end() || head == nodes.end()) continue;
    Agedge_t* e = agedge(root, tail->second, head->second, nullptr, 1);
    gv::Set(e, "style", "dashed");
    gv::Set(e, "label", LabelLine(tag));
  }
}

// Red borders, notes and edges for `check`'s findings (dot_writer.h).
void MarkHazards(Agraph_t* root, const std::vector<HazardMark>& hazards) {
  constexpr std::string_view kRed = "#dc2626";
  std::vector<std::string> marked;  // node names, in order of first mention
  std::unordered_map<std::string, std::vector<const HazardMark*>> of_node;
  std::vector<std::string> undrawn;  // graph label lines
  for (const HazardMark& m : hazards) {
    Agnode_t* first = m.first.empty() ? nullptr : agnode(root, gv::Str(m.first), 0);
    Agnode_t* second = m.second.empty() ? nullptr : agnode(root, gv::Str(m.second), 0);
    for (Agnode_t* n : {first, second}) {
      if (!n || (n == second && first == second)) continue;
      std::vector<const HazardMark*>& list = of_node[agnameof(n)];
      if (list.empty()) marked.emplace_back(agnameof(n));
      list.push_back(&m);
    }
    if (first && second && first != second) {
      Agedge_t* e = agedge(root, first, second, nullptr, 1);
      gv::Set(e, "color", std::string(kRed));
      gv::Set(e, "fontcolor", std::string(kRed));
      gv::Set(e, "penwidth", "2");
      gv::Set(e, "dir", "none");
      gv::Set(e, "constraint", "false");
      gv::Set(e, "label", LabelLine(m.kind));
      gv::Set(e, "tooltip", LabelLine(m.message));
    }
    // What names no node of this drawing still shows, under it.
    if (!first && !second) undrawn.push_back(LabelLine(m.kind + ": " + m.message));
  }
  for (const std::string& name : marked) {
    std::string xlabel, tooltip;
    for (const HazardMark* m : of_node.at(name)) {
      xlabel += (xlabel.empty() ? "" : "\\n") + LabelLine(MarkNote(*m, name));
      tooltip += (tooltip.empty() ? "" : "\\n") + LabelLine(m->kind + ": " + m->message);
    }
    Agnode_t* n = agnode(root, gv::Str(name), 0);
    gv::Set(n, "color", std::string(kRed));
    gv::Set(n, "fontcolor", std::string(kRed));
    gv::Set(n, "penwidth", "2.5");
    gv::Set(n, "xlabel", xlabel);
    gv::Set(n, "tooltip", tooltip);
  }
  if (!undrawn.empty()) {
    // A few lines say there are more; check lists them all (a part of a big
    // graph may leave thousands out).
    constexpr size_t kMaxListed = 10;
    std::string label = "hazards (check) on nodes not drawn:";
    for (size_t i = 0; i < undrawn.size() && i < kMaxListed; ++i) label += "\\l" + undrawn[i];
    if (undrawn.size() > kMaxListed)
      label += fmt::format("\\l... and {} more (check lists them)", undrawn.size() - kMaxListed);
    gv::Set(root, "label", label + "\\l");
    gv::Set(root, "labelloc", "b");
    gv::Set(root, "labeljust", "l");
  }
}

// Builds the cgraph graph: attributes, stream clusters, nodes, edges (of
// the nodes `only` names, when given), then the hazards to mark.
gv::GraphPtr BuildGraph(const Graph& graph, const std::vector<HazardMark>& hazards,
                        const std::unordered_set<std::string>* only = nullptr) {
  gv::GraphPtr g = gv::OpenDirected(graph.name());
  Agraph_t* root = g.get();
  gv::SetDefault(root, AGRAPH, "rankdir", "TB");
  gv::SetDefault(root, AGRAPH, "fontname", "Helvetica");
  gv::SetDefault(root, AGNODE, "shape", "box");
  gv::SetDefault(root, AGNODE, "fontname", "Helvetica");
  gv::SetDefault(root, AGEDGE, "fontname", "Helvetica");

  std::unordered_map<std::string, Agraph_t*> clusters;
  std::unordered_map<const Node*, Agnode_t*> nodes;
  for (const Node* node : graph) {
    if (only && !only->count(node->name())) continue;
    Agraph_t* parent = root;
    if (!node->stream().empty()) {
      auto [it, fresh] = clusters.emplace(node->stream(), nullptr);
      if (fresh) {
        std::string name = "cluster_" + node->stream();
        it->second = agsubg(root, gv::Str(name), 1);
        gv::Set(it->second, "label", "stream " + LabelLine(node->stream()));
        gv::Set(it->second, "style", "filled,rounded");
        gv::Set(it->second, "fillcolor", std::string(kStreamPalette[(clusters.size() - 1) % kStreamPalette.size()]));
        gv::Set(it->second, "color", "#9ca3af");
      }
      parent = it->second;
    }
    Agnode_t* n = agnode(parent, gv::Str(node->name()), 1);
    gv::Set(n, "label", NodeLabel(*node));
    StyleNode(n, *node);
    nodes.emplace(node, n);
  }
  for (const Node* node : graph) {
    if (only && !only->count(node->name())) continue;
    for (const Node* input : node->inputs()) {
      auto tail = nodes.find(input);
      if (tail == nodes.end()) continue;  // an input from another graph, or one left out: nothing to draw
      Agedge_t* e = agedge(root, tail->second, nodes.at(node), nullptr, 1);
      if (IsEventOp(*input) || IsEventOp(*node)) gv::Set(e, "style", "dashed");
    }
  }
  AddTaggedEventEdges(root, graph, nodes);
  if (!hazards.empty()) MarkHazards(root, hazards);
  return g;
}

std::string LastGraphvizError() {
  const char* text = aglasterr();
  std::string out = text ? text : "";
  std::free(const_cast<char*>(text));  // aglasterr hands over a malloc'd copy
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

Result<std::string> GraphToDot(const Graph& graph, const DotOptions& options) {
  gv::GraphPtr g = BuildGraph(graph, options.hazards, options.only_nodes.get());
  if (!g) return Status::Error("graphviz could not create a graph");
  return gv::Write(g.get());
}

Result<RenderJob> RenderWork(const Graph& graph, std::string_view format, const DotOptions& options) {
  if (format != "svg" && format != "png") {
    return Status::Errorf("unsupported render format '{}' (use svg or png)", format);
  }
  RenderJob job;
  RenderInfo& info = job.info;
  info.engine = "dot";
  size_t drawn = options.only_nodes ? options.only_nodes->size() : graph.size();
  if (drawn > options.max_nodes_for_dot) {
    info.engine = "sfdp";
    info.note = fmt::format("{} nodes > {}: laid out with sfdp instead of dot", drawn, options.max_nodes_for_dot);
  }
  // Layout runs in a child process: graphviz polls nothing, so only a
  // process can be stopped when the user presses Ctrl-C, and a graphviz
  // abort (it calls exit on some errors) ends the child, not the session.
  // The child renders with a context of its own and never frees it, which
  // also keeps clear of graphviz 2.43's pango plugin, whose static cache
  // reads freed memory once a context has been freed.
  job.work.what = "graphviz " + info.engine + " layout";
  job.work.work = [&graph, engine = info.engine, format = std::string(format), only = options.only_nodes,
                   pack = options.pack_components, hazards = options.hazards]() -> Result<std::string> {
    GVC_t* context = gvContext();
    if (!context) return Status::Error("graphviz: could not create a rendering context");
    gv::GraphPtr g = BuildGraph(graph, hazards, only.get());
    if (!g) return Status::Error("graphviz could not create a graph");
    if (pack) {
      gv::Set(g.get(), "pack", "true");
      gv::Set(g.get(), "packmode", "graph");
    }
    if (engine == "sfdp") {
      // Straight edges and overlap removal by the final scaling step only (prism0)
      // keep sfdp fast: full prism refinement alone took ~5 s of 7 s at 5k nodes.
      gv::Set(g.get(), "overlap", "prism0");
      gv::Set(g.get(), "splines", "false");
      gv::Set(g.get(), "outputorder", "edgesfirst");
    }
    // Errors from graphviz are collected for aglasterr instead of printed.
    agseterr(AGMAX);
    if (gvLayout(context, g.get(), engine.c_str()) != 0) {
      return Status::Errorf("graphviz {} layout failed: {}", engine, LastGraphvizError());
    }
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(context, g.get(), format.c_str(), &data, &length) != 0 || !data) {
      return Status::Errorf("graphviz could not render {}: {}", format, LastGraphvizError());
    }
    return std::string(data, length);
  };
  return job;
}

Result<Rendered> RenderGraphData(const Graph& graph, std::string_view format, const DotOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(RenderJob job, RenderWork(graph, format, options));
  AIRSCOPE_ASSIGN_OR_RETURN(std::string rendered, RunInChildProcess(job.work.what, job.work.work));
  return Rendered{std::move(rendered), std::move(job.info)};
}

Result<RenderInfo> RenderGraph(const Graph& graph, std::string_view format, const std::string& path,
                               const DotOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(Rendered rendered, RenderGraphData(graph, format, options));
  AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, rendered.data));
  return std::move(rendered.info);
}

}  // namespace airscope
