// Graph -> libcgraph graph -> DOT text (agwrite) or SVG/PNG (libgvc).
#include "viz/dot_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <unordered_set>
#include <vector>

#include "core/child_process.h"
#include "core/file_util.h"
#include "viz/graphviz_util.h"
#include "viz/inplace_writes.h"
#include "viz/input_bundles.h"

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

// Red borders, notes and edges for `check`'s findings (dot_writer.h); the
// lines of the graph's label that list the findings on no drawn node.
std::vector<std::string> MarkHazards(Agraph_t* root, const std::vector<HazardMark>& hazards) {
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
      gv::Set(e, "xlabel", LabelLine(m.kind));
      gv::Set(e, "tooltip", LabelLine(m.message));
    }
    // What names no node of this drawing still shows, under it.
    if (!first && !second) undrawn.push_back(m.kind + ": " + m.message);
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
  std::vector<std::string> lines;
  if (!undrawn.empty()) {
    // A few lines say there are more; check lists them all (a part of a big
    // graph may leave thousands out).
    constexpr size_t kMaxListed = 10;
    lines.emplace_back("hazards (check) on nodes not drawn:");
    for (size_t i = 0; i < undrawn.size() && i < kMaxListed; ++i) lines.push_back(undrawn[i]);
    if (undrawn.size() > kMaxListed)
      lines.push_back(fmt::format("... and {} more (check lists them)", undrawn.size() - kMaxListed));
  }
  return lines;
}

// The names a hazard mark puts on a node: they stay nodes of their own.
std::unordered_set<std::string> MarkedNames(const std::vector<HazardMark>& hazards) {
  std::unordered_set<std::string> names;
  for (const HazardMark& m : hazards) {
    if (!m.first.empty()) names.insert(m.first);
    if (!m.second.empty()) names.insert(m.second);
  }
  return names;
}

// The bundles of a drawing with `options` (none when it draws every input).
InputBundles BundlesOf(const Graph& graph, const DotOptions& options, const std::unordered_set<std::string>* only) {
  if (options.draw_all_inputs) return {};
  return BundleSingleUseInputs(graph, only, MarkedNames(options.hazards));
}

// Dashed edges from each in-place write to the next reader of its buffer
// (viz/inplace_writes.h), beside the layout rather than shaping it.
void AddInplaceWriteEdges(Agraph_t* root, const Graph& graph, const OpRegistry& registry,
                          const std::unordered_map<const Node*, Agnode_t*>& nodes) {
  constexpr std::string_view kPurple = "#7c3aed";  // not the red of hazards nor the black of data
  for (const InplaceWrite& w : InplaceWriteEdges(graph, registry)) {
    auto tail = nodes.find(w.writer);
    auto head = nodes.find(w.reader);
    if (tail == nodes.end() || head == nodes.end()) continue;  // one end is not drawn
    Agedge_t* e = agedge(root, tail->second, head->second, nullptr, 1);
    gv::Set(e, "style", "dashed");
    gv::Set(e, "color", std::string(kPurple));
    gv::Set(e, "fontcolor", std::string(kPurple));
    gv::Set(e, "constraint", "false");
    gv::Set(e, "xlabel", "writes");
  }
}

// The group drawing each node (by position), NodeGroups' own plus the inputs
// whose users are all in one group; and per group, how many inputs it took.
struct DrawnGroups {
  std::vector<uint32_t> at;
  std::vector<size_t> inputs;
  uint32_t Of(const Graph& graph, const Node* node) const {
    return at.empty() ? NodeGroups::kNone : at[graph.PositionOf(node)];
  }
};

DrawnGroups GroupsOf(const Graph& graph, const NodeGroups* groups) {
  DrawnGroups drawn;
  if (groups == nullptr) return drawn;
  drawn.at = groups->group_at;
  drawn.at.resize(graph.size(), NodeGroups::kNone);
  drawn.inputs.assign(groups->labels.size(), 0);
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder && node->op() != OpKind::kGetAttr) continue;
    if (node->users().empty() || drawn.at[graph.PositionOf(node)] != NodeGroups::kNone) continue;
    uint32_t group = drawn.at[graph.PositionOf(node->users().front())];
    for (const Node* user : node->users()) {
      if (drawn.at[graph.PositionOf(user)] != group) group = NodeGroups::kNone;
    }
    if (group == NodeGroups::kNone || group >= drawn.inputs.size()) continue;
    drawn.at[graph.PositionOf(node)] = group;
    ++drawn.inputs[group];
  }
  return drawn;
}

// Builds the cgraph graph: attributes, stream clusters, nodes (single-use
// inputs in their user's label), edges (of the nodes `only` names, when
// given), in-place writes, then the hazards to mark and the graph's label.
gv::GraphPtr BuildGraph(const Graph& graph, const DotOptions& options,
                        const std::unordered_set<std::string>* only = nullptr) {
  gv::GraphPtr g = gv::OpenDirected(graph.name());
  Agraph_t* root = g.get();
  gv::SetDefault(root, AGRAPH, "rankdir", "TB");
  gv::SetDefault(root, AGRAPH, "fontname", "Helvetica");
  gv::SetDefault(root, AGNODE, "shape", "box");
  gv::SetDefault(root, AGNODE, "fontname", "Helvetica");
  gv::SetDefault(root, AGEDGE, "fontname", "Helvetica");

  const InputBundles bundles = BundlesOf(graph, options, only);
  const DrawnGroups groups = GroupsOf(graph, options.groups.get());
  std::unordered_map<std::string, Agraph_t*> clusters;
  std::unordered_map<const Node*, Agnode_t*> nodes;
  std::vector<Agnode_t*> group_nodes(groups.inputs.size(), nullptr);
  // The node that draws `node`: its own, its group's, or none (left out or bundled).
  auto drawn_as = [&](const Node* node) -> Agnode_t* {
    if (uint32_t group = groups.Of(graph, node); group != NodeGroups::kNone) return group_nodes[group];
    auto it = nodes.find(node);
    return it == nodes.end() ? nullptr : it->second;
  };
  size_t grouped = 0;  // nodes drawn in a group's node, for the graph's label
  for (const Node* node : graph) {
    if (only && !only->count(node->name())) continue;
    if (uint32_t group = groups.Of(graph, node); group != NodeGroups::kNone) {
      ++grouped;
      if (group_nodes[group] != nullptr) continue;
      Agnode_t* n = agnode(root, gv::Str(fmt::format("group_{}", group)), 1);
      std::string label = LabelLine(options.groups->labels[group]);
      if (size_t inputs = groups.inputs[group]; inputs > 0) {
        label += fmt::format("\\n+{} input{} only its nodes read", inputs, inputs == 1 ? "" : "s");
      }
      gv::Set(n, "label", label);
      gv::Set(n, "shape", "box3d");
      gv::Set(n, "style", "filled");
      gv::Set(n, "fillcolor", "#f3f4f6");
      group_nodes[group] = n;
      continue;
    }
    if (bundles.bundled.count(node)) continue;  // a line of its user's label
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
    std::string label = NodeLabel(*node);
    if (auto inputs = bundles.of_user.find(node); inputs != bundles.of_user.end()) {
      label += "\\n" + LabelLine(BundleLine(inputs->second));
    }
    gv::Set(n, "label", label);
    StyleNode(n, *node);
    nodes.emplace(node, n);
  }
  // Edges to or from a group are drawn once a pair of drawn nodes, saying how many they stand for.
  std::map<std::pair<Agnode_t*, Agnode_t*>, size_t> group_edges;
  std::vector<std::pair<Agnode_t*, Agnode_t*>> group_edge_order;
  for (const Node* node : graph) {
    if (only && !only->count(node->name())) continue;
    Agnode_t* head = drawn_as(node);
    if (head == nullptr) continue;  // bundled: its one edge is its user's label line
    const bool head_grouped = groups.Of(graph, node) != NodeGroups::kNone;
    for (const Node* input : node->inputs()) {
      if (only && !only->count(input->name())) continue;
      Agnode_t* tail = drawn_as(input);
      if (tail == nullptr || tail == head) continue;  // another graph's, bundled, left out, or inside one group
      if (head_grouped || groups.Of(graph, input) != NodeGroups::kNone) {
        auto [it, fresh] = group_edges.emplace(std::make_pair(tail, head), 0);
        if (fresh) group_edge_order.push_back(it->first);
        ++it->second;
        continue;
      }
      Agedge_t* e = agedge(root, tail, head, nullptr, 1);
      if (IsEventOp(*input) || IsEventOp(*node)) gv::Set(e, "style", "dashed");
    }
  }
  for (const auto& ends : group_edge_order) {
    Agedge_t* e = agedge(root, ends.first, ends.second, nullptr, 1);
    if (size_t count = group_edges.at(ends); count > 1) gv::Set(e, "label", fmt::format("x{}", count));
  }
  AddTaggedEventEdges(root, graph, nodes);
  AddInplaceWriteEdges(root, graph, options.registry ? *options.registry : OpRegistry::Builtin(), nodes);
  std::vector<std::string> label;
  if (!options.hazards.empty()) label = MarkHazards(root, options.hazards);
  if (size_t boxes = std::count_if(group_nodes.begin(), group_nodes.end(), [](Agnode_t* n) { return n != nullptr; });
      boxes > 0) {
    label.push_back(fmt::format("{} node{} drawn in {} 3-D box{}", grouped, grouped == 1 ? "" : "s", boxes,
                                boxes == 1 ? "" : "es"));
  }
  // An input whose one user is in a box is drawn in the box, not in a label.
  const size_t in_labels =
      static_cast<size_t>(std::count_if(bundles.bundled.begin(), bundles.bundled.end(), [&](const Node* input) {
        return groups.Of(graph, input) == NodeGroups::kNone;
      }));
  if (in_labels > 0) {
    label.push_back(fmt::format("{} input{} with one user drawn in {} (dump --inputs: as nodes)", in_labels,
                                in_labels == 1 ? "" : "s",
                                in_labels == 1 ? "its user's label" : "their users' labels"));
  }
  if (!label.empty()) {
    std::string text;
    for (const std::string& line : label) text += LabelLine(line) + "\\l";
    gv::Set(root, "label", text);
    gv::Set(root, "labelloc", "b");
    gv::Set(root, "labeljust", "l");
  }
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

double PngFitFactor(double width, double height, uint64_t max_pixels) {
  double factor = 1.0;
  if (max_pixels > 0 && width * height > static_cast<double>(max_pixels)) {
    factor = std::sqrt(static_cast<double>(max_pixels) / (width * height));
  }
  factor = std::min(factor, static_cast<double>(kMaxPngSide) / std::max(width, height));
  if (factor >= 1.0) return 1.0;
  // Graphviz rounds each side to whole pixels: shrink a little more until the rounded-up sides fit.
  auto fits = [&](double f) {
    double w = std::ceil(width * f), h = std::ceil(height * f);
    return (max_pixels == 0 || w * h <= static_cast<double>(max_pixels)) &&
           std::max(w, h) <= static_cast<double>(kMaxPngSide);
  };
  while (factor > 0 && !fits(factor)) factor *= 0.9999;
  return factor;
}

DrawnCount CountDrawn(const Graph& graph, const DotOptions& options) {
  const std::unordered_set<std::string>* only = options.only_nodes.get();
  const InputBundles bundles = BundlesOf(graph, options, only);
  const DrawnGroups groups = GroupsOf(graph, options.groups.get());
  DrawnCount count;
  std::vector<bool> group_drawn(groups.inputs.size(), false);
  for (const Node* node : graph) {
    if (only && !only->count(node->name())) continue;
    if (uint32_t group = groups.Of(graph, node); group != NodeGroups::kNone) {
      ++count.grouped;
      if (!group_drawn[group]) ++count.nodes;
      group_drawn[group] = true;
    } else if (bundles.bundled.count(node)) {
      ++count.bundled_inputs;
    } else {
      ++count.nodes;
    }
  }
  return count;
}

Result<std::string> GraphToDot(const Graph& graph, const DotOptions& options) {
  gv::GraphPtr g = BuildGraph(graph, options, options.only_nodes.get());
  if (!g) return Status::Error("graphviz could not create a graph");
  return gv::Write(g.get());
}

namespace {

// Graphviz's device resolutions when a graph sets no dpi (the svg and png
// renderers' default_dpi), and its default `pad`, 4 points a side, which
// the image adds around the layout's bounding box.
constexpr double kSvgDpi = 72.0;
constexpr double kPngDpi = 96.0;
constexpr double kPadPoints = 4.0;
constexpr double kPointsPerInch = 72.0;

// What fitting a png decided, passed from the layout child to the parent in
// front of the image bytes (the only thing a child hands back): the factor
// and the size, in px, the drawing would have had.
struct PngFit {
  double factor = 1.0;
  double want_width = 0, want_height = 0;
};
constexpr std::string_view kFitTag = "airscope-fit ";

// The width and height a PNG's header states (its IHDR chunk, which the
// format puts first: bytes 16-23, big-endian); nullopt for other bytes.
std::optional<std::pair<uint64_t, uint64_t>> PngSize(std::string_view png) {
  if (png.size() < 24 || !png.starts_with("\x89PNG\r\n\x1a\n") || png.substr(12, 4) != "IHDR") return std::nullopt;
  auto be32 = [&png](size_t at) {
    uint64_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return std::pair{be32(16), be32(20)};
}

Result<RenderJob> MakeRenderJob(const Graph& graph, std::string_view format, const DotOptions& options,
                                bool report_fit) {
  if (format != "svg" && format != "png") {
    return Status::Errorf("unsupported render format '{}' (use svg or png)", format);
  }
  if (!(options.scale > 0) || !std::isfinite(options.scale)) {
    return Status::Errorf("drawing scale {} is not a positive number", options.scale);
  }
  RenderJob job;
  RenderInfo& info = job.info;
  info.engine = "dot";
  const size_t drawn = CountDrawn(graph, options).nodes;
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
  job.work.work = [&graph, engine = info.engine, format = std::string(format), options,
                   report_fit]() -> Result<std::string> {
    GVC_t* context = gvContext();
    if (!context) return Status::Error("graphviz: could not create a rendering context");
    gv::GraphPtr g = BuildGraph(graph, options, options.only_nodes.get());
    if (!g) return Status::Error("graphviz could not create a graph");
    if (options.pack_components) {
      gv::Set(g.get(), "pack", "true");
      gv::Set(g.get(), "packmode", "graph");
    }
    const double dpi = (format == "png" ? kPngDpi : kSvgDpi) * options.scale;
    // Unscaled: no dpi attribute at all, so the output is what it always was.
    if (options.scale != 1.0) gv::Set(g.get(), "dpi", fmt::format("{}", dpi));
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
    PngFit fit;
    if (format == "png") {
      // The image's size follows from the layout's bounding box (points) and
      // the dpi, which graphviz reads when it renders (GD_drawing's dpi,
      // set from the graph's attribute at layout): lowering it now shrinks
      // the image without laying out again.
      const boxf bb = GD_bb(g.get());
      const double px_per_point = dpi / kPointsPerInch;
      fit.want_width = (bb.UR.x - bb.LL.x + 2 * kPadPoints) * px_per_point;
      fit.want_height = (bb.UR.y - bb.LL.y + 2 * kPadPoints) * px_per_point;
      fit.factor = PngFitFactor(fit.want_width, fit.want_height, options.max_pixels);
      if (fit.factor < 1.0) GD_drawing(g.get())->dpi = dpi * fit.factor;
    }
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(context, g.get(), format.c_str(), &data, &length) != 0 || !data) {
      return Status::Errorf("graphviz could not render {}: {}", format, LastGraphvizError());
    }
    std::string out;
    if (report_fit && format == "png") {
      out = fmt::format("{}{} {} {}\n", kFitTag, fit.factor, fit.want_width, fit.want_height);
    }
    out.append(data, length);
    return out;
  };
  return job;
}

// The fitting the child wrote in front of a png (MakeRenderJob), taken off `data`.
PngFit TakeFit(std::string& data) {
  PngFit fit;
  if (!data.starts_with(kFitTag)) return fit;
  size_t end = data.find('\n');
  const char* at = data.data() + kFitTag.size();
  const char* stop = data.data() + end;
  for (double* value : {&fit.factor, &fit.want_width, &fit.want_height}) {
    while (at < stop && *at == ' ') ++at;
    at = std::from_chars(at, stop, *value).ptr;
  }
  data.erase(0, end + 1);
  return fit;
}

// 111103674 -> "111,103,674": pixel counts people read.
std::string Grouped(double count) {
  std::string digits = fmt::format("{:.0f}", count);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

Result<RenderJob> RenderWork(const Graph& graph, std::string_view format, const DotOptions& options) {
  return MakeRenderJob(graph, format, options, false);
}

Result<Rendered> RenderGraphData(const Graph& graph, std::string_view format, const DotOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(RenderJob job, MakeRenderJob(graph, format, options, true));
  AIRSCOPE_ASSIGN_OR_RETURN(std::string rendered, RunInChildProcess(job.work.what, job.work.work));
  RenderInfo& info = job.info;
  if (format == "png") {
    PngFit fit = TakeFit(rendered);
    std::optional<std::pair<uint64_t, uint64_t>> size = PngSize(rendered);
    if (!size) return Status::Error("graphviz's png has no PNG header");
    info.width = size->first;
    info.height = size->second;
    info.fitted = fit.factor;
    if (fit.factor < 1.0) {
      const double want = std::round(fit.want_width) * std::round(fit.want_height);  // as the sides are printed
      std::string limit = options.max_pixels > 0 && want > static_cast<double>(options.max_pixels)
                              ? fmt::format("over the cap of {} pixels (--max-pixels)",
                                            Grouped(static_cast<double>(options.max_pixels)))
                              : fmt::format("a side past cairo's limit of {} px", kMaxPngSide);
      std::string note = fmt::format(
          "the drawing would be {:.0f} x {:.0f} px ({} pixels), {}: drawn at {:.3g} of "
          "that size, {} x {} px",
          fit.want_width, fit.want_height, Grouped(want), limit, fit.factor, info.width, info.height);
      info.note = info.note.empty() ? note : info.note + "; " + note;
    }
  }
  return Rendered{std::move(rendered), std::move(info)};
}

Result<RenderInfo> RenderGraph(const Graph& graph, std::string_view format, const std::string& path,
                               const DotOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(Rendered rendered, RenderGraphData(graph, format, options));
  AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, rendered.data));
  return std::move(rendered.info);
}

}  // namespace airscope
