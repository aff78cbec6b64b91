// DOT rendering of a Graph through graphviz's libcgraph (never by string
// concatenation), and SVG/PNG through libgvc.
//
// Node ids are the node names (stable, no pointers). Labels carry the name,
// the short target (`aten.mm.default`) and the shape (`f32[3, 3]`) where
// known. Nodes on a named stream sit in a `cluster_<stream>` subgraph labelled
// with the stream; data edges are solid; edges into/out of air.record /
// air.wait nodes (event dependencies) are dashed, and so is an edge, labelled
// with the tag, from each air.tagged_event_wait to the tagged_event_record it
// waits for (the latest record of its tag before it, as core/lower/
// task_graph.h binds them: the tag, not a data edge, ties the two).
//
// DotOptions::hazards (viz/hazard_marks.h, chosen by the caller) are drawn on
// top: each node a hazard names gets a red border, an xlabel saying what
// ("race with add") and a tooltip with `check`'s finding; the two nodes of a
// hazard are joined by a red edge labelled with its kind that does not move
// the layout (constraint=false). A hazard whose nodes are not in the drawing
// is listed in the graph's label (the first ten of them). Without hazards nothing of this is written:
// the drawing is byte for byte what it was. Output is deterministic.
//
// Inputs (placeholder, get_attr) with exactly one user are drawn as a line
// of their user's label, not as nodes (viz/input_bundles.h); the graph's
// label says how many. DotOptions::draw_all_inputs draws them as nodes.
//
// A node that writes a buffer in place gets a dashed purple edge labelled
// "writes" to the next node that reads that buffer (viz/inplace_writes.h),
// with constraint=false: the layout does not move. A graph without in-place
// writes is drawn exactly as without this.
//
// Edges that do not move the layout (constraint=false: hazards, writes) carry
// their text as an xlabel, placed after the layout, never as a label: dot
// makes a node of an edge's label, and between two nodes of one rank (a flat
// edge, which a constraint=false edge often is) that node goes through
// graphviz's flat-edge code, which freed memory twice in the layout of a
// 10,000-node graph's reinplace stage (graphviz 2.42; the report lost that
// drawing); graphviz's tracker has a long list of such flat-edge crashes.
//
// DotOptions::groups draws each group of nodes as one node (`dump --fold`:
// the repeats of a block other than the one drawn; `dump --by`: a run of
// one source line or stream): a 3-D box labelled by the caller, with one
// edge, labelled "xN" for N data edges, for all the data edges between it
// and another drawn node; edges inside a group are not drawn. An input
// (placeholder, get_attr) whose users are all in one group is drawn in it
// (its label says how many): 94 layers' weights are not 940 ellipses around
// one box. Event, tagged-event and in-place-write edges are drawn only
// between nodes drawn as themselves.
//
// Rendering scales the drawing by DotOptions::scale through graphviz's dpi
// (72 for svg, 96 for png, times the scale: graphviz reads the graph's `dpi`
// when it renders), and a png above DotOptions::max_pixels (width x height)
// is drawn smaller to fit; RenderInfo says by how much, and the size.
//
// Graphs above `max_nodes_for_dot` nodes are laid out with `sfdp` instead of
// `dot` when rendering (dot takes minutes at 5k nodes); RenderGraph reports
// which engine it used.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/child_process.h"
#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/status.h"
#include "viz/hazard_marks.h"

namespace airscope {

// The default cap of a png's pixels (width x height): 40 million, 8000 x
// 5000. Cairo's image surface, which graphviz's png renderer draws into,
// holds 4 bytes a pixel (CAIRO_FORMAT_ARGB32), so this is 160 MB in the
// layout process and in any viewer that opens the file; the 13,194 x 8,421
// px drawing issue 33 saw (111 Mpx, 444 MB decoded) is what it prevents.
constexpr uint64_t kDefaultMaxPngPixels = 40'000'000;
// Cairo makes no image surface with a side over 32767 px (MAX_IMAGE_SIZE in
// cairo's src/cairo-image-surface.c), and graphviz's cairo renderer shrinks
// a drawing with a side of 32767 px or more on its own, saying so only on
// stderr (plugin/pango/gvrender_pango.c, cairogen_begin_page, CAIRO_XMAX and
// CAIRO_YMAX). A png is fitted under this side first: the shrinking is
// always ours, and said.
constexpr uint64_t kMaxPngSide = 32766;

// Nodes drawn together as one node each group (see above).
struct NodeGroups {
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> group_at;   // per graph position: the group that draws the node, or kNone
  std::vector<std::string> labels;  // per group: its node's label, lines separated by '\n'
};

struct DotOptions {
  size_t max_nodes_for_dot = 2000;
  // Inputs with one user as nodes of their own (see above); default: in their user's label.
  bool draw_all_inputs = false;
  // For the in-place write edges: which ops write in place. Null: OpRegistry::Builtin().
  const OpRegistry* registry = nullptr;
  // Rendering only: the drawing's size times this (> 0).
  double scale = 1.0;
  // Rendering png only: at most this many pixels; 0: no cap but cairo's side limit.
  uint64_t max_pixels = kDefaultMaxPngPixels;
  // Draw just the nodes of these names and the edges among them (the
  // report's drawing of what a pass changed in a big graph, `focus --draw`).
  std::shared_ptr<const std::unordered_set<std::string>> only_nodes;
  // Groups of nodes drawn as one node each (see above); null: none.
  std::shared_ptr<const NodeGroups> groups;
  // Rendering only: lay out each connected component apart and pack them
  // into a block (graphviz's pack), not one row of many small drawings.
  bool pack_components = false;
  // Hazards to mark (see above); empty: none.
  std::vector<HazardMark> hazards;
};

// How many nodes a drawing with `options` shows: the graph's (or
// only_nodes') less the inputs drawn as lines of their users' labels and the
// nodes drawn in groups, plus one a group.
struct DrawnCount {
  size_t nodes = 0;  // drawn as themselves, and one per group drawn
  size_t bundled_inputs = 0;
  size_t grouped = 0;  // nodes drawn in a group's node (inputs drawn in it among them)
};
DrawnCount CountDrawn(const Graph& graph, const DotOptions& options);

// The DOT text of the graph (as libcgraph's agwrite writes it).
Result<std::string> GraphToDot(const Graph& graph, const DotOptions& options = {});

struct RenderInfo {
  std::string engine;  // "dot" or "sfdp"
  std::string note;    // e.g. "5000 nodes > 2000: laid out with sfdp"; and a png's fitting, see below
  // png only (RenderGraphData, RenderGraph): the size of the image, read
  // from its header, and the factor it was drawn at to fit max_pixels or
  // the side limit (1: not shrunk; a shrunk drawing also says so in `note`).
  uint64_t width = 0, height = 0;
  double fitted = 1.0;
};
// The factor that brings a `width` x `height` px png under `max_pixels` (0:
// no cap) and under kMaxPngSide a side, once graphviz has rounded each side
// to whole pixels; 1 when it fits already.
double PngFitFactor(double width, double height, uint64_t max_pixels);

// Renders to `format` ("svg" or "png"): the bytes, and how. The layout runs
// in a child process, so a Ctrl-C (core/interrupt.h) stops it.
struct Rendered {
  std::string data;
  RenderInfo info;
};
Result<Rendered> RenderGraphData(const Graph& graph, std::string_view format, const DotOptions& options = {});
// The same rendering as a work item for core/child_process.h, for callers
// that lay out several graphs at once (RunInChildProcesses). `graph` must
// outlive the work. Its result is the image's bytes; what fitting a png
// did is not reported this way (RenderGraphData reports it).
struct RenderJob {
  ChildWork work;
  RenderInfo info;
};
Result<RenderJob> RenderWork(const Graph& graph, std::string_view format, const DotOptions& options = {});
// The same, written to `path` (core/file_util.h WriteFile).
Result<RenderInfo> RenderGraph(const Graph& graph, std::string_view format, const std::string& path,
                               const DotOptions& options = {});

}  // namespace airscope
