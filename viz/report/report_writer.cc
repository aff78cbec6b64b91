#include "viz/report/report_writer.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <memory>
#include <system_error>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/child_process.h"
#include "core/file_util.h"
#include "core/fx/fx_text.h"
#include "core/interrupt.h"
#include "core/pass/graph_diff.h"
#include "formats/chrome_trace.h"
#include "viz/report/report_assets.h"
#include "viz/report/report_html.h"
#include "viz/report/report_publish.h"
#include "viz/report/side_by_side.h"
#include "viz/report/stack_tree.h"
#include "viz/report/timeline_svg.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// The files of the site, by path relative to DIR, before they are written.
class Site {
 public:
  void Add(std::string path, std::string contents) {
    bytes_ += contents.size();
    pages_ += path.ends_with(".html");
    files_.emplace_back(std::move(path), std::move(contents));
  }
  // A page, rendered by RenderPages once the drawings it shows exist.
  void AddPage(std::string path, std::string template_name, json context) {
    pending_.push_back({std::move(path), std::move(template_name), std::move(context)});
  }
  template <typename FillFn>
  Status RenderPages(const FillFn& fill) {
    for (Pending& page : pending_) {
      fill(page.context);
      AIRSCOPE_ASSIGN_OR_RETURN(std::string html, RenderPage(page.template_name, page.context));
      Add(std::move(page.path), std::move(html));
    }
    pending_.clear();
    return Status::Ok();
  }
  const std::vector<std::pair<std::string, std::string>>& files() const { return files_; }
  uint64_t bytes() const { return bytes_; }
  size_t pages() const { return pages_; }

 private:
  struct Pending {
    std::string path;
    std::string template_name;
    json context;
  };
  std::vector<Pending> pending_;
  std::vector<std::pair<std::string, std::string>> files_;
  uint64_t bytes_ = 0;
  size_t pages_ = 0;
};

// One distinct graph of a pipeline (stages that changed nothing share it).
struct Snapshot {
  const Graph* graph = nullptr;
  size_t first_stage = 0;  // the first stage whose graph it is
  std::string fx;          // its FX text
  std::string fx_file;     // "fx-G-S.txt"
  std::string whole;       // the key of its whole drawing ("" when too big to draw whole)
  // `check`'s findings when this is the graph check lowers (ReportGraph::checked), else null.
  const std::vector<HazardMark>* hazards = nullptr;
};

struct GraphPlan {
  std::vector<Snapshot> snapshots;
  std::vector<long> stage_snapshot;                 // stage number -> snapshot index (-1: no graph)
  std::vector<std::pair<size_t, size_t>> compared;  // snapshot pairs with a compare page
};

// Every drawing of the site, rendered together (render_jobs layouts at a
// time) before the pages that show them are written. A page refers to a
// drawing by key; data/svg-KEY.js holds it.
class Drawings {
 public:
  struct Drawing {
    const Graph* graph = nullptr;
    std::shared_ptr<const std::unordered_set<std::string>> only;  // null: the whole graph
    size_t nodes = 0;                                             // drawn
    std::string note;                                             // what part of the graph it shows, when not all of it
    std::string error;                                            // why there is none (after RenderAll)
    std::vector<HazardMark> hazards;                              // marked on it (dot_writer.h)
  };

  std::string Add(std::string key, Drawing drawing) {
    drawings_.emplace(key, std::move(drawing));
    order_.push_back(key);
    return key;
  }

  void RenderAll(const ReportOptions& options, Site& site, ReportSummary& summary) {
    std::vector<ChildWork> works;
    std::vector<std::string> keys;
    for (const std::string& key : order_) {
      Drawing& d = drawings_.at(key);
      DotOptions dot = options.dot;
      dot.only_nodes = d.only;
      dot.pack_components = d.only != nullptr;  // a part is many small pieces
      dot.hazards = d.hazards;
      Result<RenderJob> job = RenderWork(*d.graph, "svg", dot);
      if (!job.ok()) {
        d.error = job.status().message();
        continue;
      }
      works.push_back(std::move(job->work));
      keys.push_back(key);
    }
    // Small layouts share a child (core/child_process.h): a child each for
    // 1,000 small graphs spent 20 s starting graphviz.
    constexpr size_t kLayoutsPerChild = 32;
    std::vector<Result<std::string>> svgs = RunInChildProcessBatches(works, options.render_jobs, kLayoutsPerChild);
    for (size_t i = 0; i < svgs.size(); ++i) {
      Drawing& d = drawings_.at(keys[i]);
      if (!svgs[i].ok()) {
        d.error = svgs[i].status().message();
        summary.notes.push_back(fmt::format("drawing {}: {}", keys[i], d.error));
        continue;
      }
      // Graphviz's SVG starts with an XML declaration and a DOCTYPE, which do
      // not belong inside an HTML page: keep from <svg on.
      std::string_view svg = *svgs[i];
      if (size_t start = svg.find("<svg"); start != std::string_view::npos) svg.remove_prefix(start);
      site.Add(fmt::format("data/svg-{}.js", keys[i]),
               fmt::format("(window.AIRSCOPE_SVG = window.AIRSCOPE_SVG || {{}})[{}] = {};\n", ScriptJson(keys[i]),
                           ScriptJson(std::string(svg))));
      ++summary.drawings;
    }
  }

  // The template's view of drawing `key` in `role` (after RenderAll).
  json Context(const std::string& key, std::string_view role, bool lazy) const {
    const Drawing& d = drawings_.at(key);
    // The nodes the page script marks as hazards (over the change colours).
    json hazard_nodes = json::array();
    for (const HazardMark& m : d.hazards) {
      for (const std::string& name : {m.first, m.second}) {
        if (!name.empty() && std::find(hazard_nodes.begin(), hazard_nodes.end(), name) == hazard_nodes.end()) {
          hazard_nodes.push_back(name);
        }
      }
    }
    return {{"key", key},
            {"hazard_nodes", hazard_nodes.empty() ? "" : hazard_nodes.dump()},
            {"script", fmt::format("data/svg-{}.js", key)},
            {"role", role},
            {"lazy", lazy},
            {"available", d.error.empty()},
            {"error", d.error},
            {"nodes", d.nodes},
            {"note", d.note}};
  }

 private:
  std::map<std::string, Drawing> drawings_;
  std::vector<std::string> order_;
};

// A drawing placeholder in a page's context, filled once every drawing is rendered.
json DrawingRef(const std::string& key, std::string_view role, bool lazy) {
  return {{"drawing_ref", key}, {"role", role}, {"lazy", lazy}};
}
void FillDrawings(json& value, const Drawings& drawings) {
  if (value.is_object()) {
    if (value.contains("drawing_ref")) {
      value = drawings.Context(value["drawing_ref"], value["role"].get<std::string>(), value["lazy"].get<bool>());
      return;
    }
    for (auto& [key, item] : value.items()) FillDrawings(item, drawings);
  } else if (value.is_array()) {
    for (json& item : value) FillDrawings(item, drawings);
  }
}

std::string GraphPage(size_t g) { return fmt::format("graph-{}.html", g); }
std::string StagePage(size_t g, size_t n) { return fmt::format("stage-{}-{}.html", g, n); }
std::string ComparePage(size_t g, size_t a, size_t b) { return fmt::format("compare-{}-{}-{}.html", g, a, b); }
std::string LogPage(size_t k) { return fmt::format("log-{}.html", k); }

std::string Seconds(double seconds) {
  if (seconds <= 0) return "";
  return seconds < 1e-3 ? fmt::format("{:.1f} us", seconds * 1e6) : fmt::format("{:.2f} ms", seconds * 1e3);
}

json Nav(const ReportData& data, std::string_view current) {
  json nav = json::array();
  auto add = [&](std::string href, std::string label) {
    nav.push_back({{"href", href}, {"label", label}, {"current", href == current}});
  };
  // A fixed few links, whatever the session holds: a link per graph made
  // every page as long as the session (62 graphs overflowed the bar; 1,000
  // made the report quadratic). The index lists the graphs.
  add("index.html", "index");
  size_t compiles = 0;
  for (const ReportLog& log : data.logs) compiles += log.compiles.size();
  if (compiles > 0) add("index.html#compiles", fmt::format("compiles ({})", compiles));
  add("index.html#graphs", fmt::format("graphs ({})", data.graphs.size()));
  for (size_t k = 0; k < data.logs.size(); ++k) add(LogPage(k), fs::path(data.logs[k].path).filename().string());
  add("device.html", "device");
  return nav;
}

json PageContext(const ReportData& data, std::string_view page, std::string title) {
  return {{"title", std::move(title)}, {"version", data.version}, {"nav", Nav(data, page)}};
}

GraphPlan PlanGraph(const ReportGraph& graph, size_t g, const ReportOptions& options, Drawings& drawings, Site& site) {
  GraphPlan plan;
  std::map<const Graph*, size_t> index;
  auto snapshot_of = [&](const Graph* graph_ptr, size_t stage) -> long {
    if (!graph_ptr) return -1;
    auto [it, fresh] = index.emplace(graph_ptr, plan.snapshots.size());
    if (fresh) {
      Snapshot s;
      s.graph = graph_ptr;
      s.first_stage = stage;
      plan.snapshots.push_back(std::move(s));
    }
    return static_cast<long>(it->second);
  };
  if (graph.stages.empty()) {
    plan.stage_snapshot.push_back(snapshot_of(graph.loaded.get(), 0));
  } else {
    for (const ReportStage& stage : graph.stages)
      plan.stage_snapshot.push_back(snapshot_of(stage.graph.get(), stage.number));
  }
  for (size_t k = 0; k < plan.snapshots.size(); ++k) {
    Snapshot& s = plan.snapshots[k];
    s.fx = PrintFxText(*s.graph);
    s.fx_file = fmt::format("fx-{}-{}.txt", g, k);
    site.Add(s.fx_file, s.fx);
    if (graph.checked && s.graph == graph.checked.get()) s.hazards = &graph.hazards;
    if (s.graph->size() <= options.max_drawn_nodes) {
      s.whole = drawings.Add(fmt::format("{}-{}", g, k), {s.graph, nullptr, s.graph->size(), "", "",
                                                          s.hazards ? *s.hazards : std::vector<HazardMark>{}});
    }
  }
  const size_t n = plan.snapshots.size();
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) {
      if (n <= options.max_compared || b == a + 1) plan.compared.emplace_back(a, b);
    }
  }
  return plan;
}

// The nodes to draw of a graph too big to draw whole: up to max_seeds of the
// named nodes (in graph order) with their inputs and users, max_nodes at most.
std::shared_ptr<const std::unordered_set<std::string>> Neighbourhood(const Graph& graph,
                                                                     const std::vector<std::string>& names,
                                                                     size_t max_seeds, size_t max_nodes,
                                                                     size_t* seeds_used) {
  auto drawn = std::make_shared<std::unordered_set<std::string>>();
  *seeds_used = 0;
  for (const std::string& name : names) {
    if (*seeds_used == max_seeds || drawn->size() >= max_nodes) break;
    const Node* seed = graph.Find(name);
    if (!seed) continue;
    ++*seeds_used;
    drawn->insert(seed->name());
    for (const Node* input : seed->inputs()) {
      if (drawn->size() < max_nodes) drawn->insert(input->name());
    }
    for (const Node* user : seed->users()) {
      if (drawn->size() < max_nodes) drawn->insert(user->name());
    }
  }
  return drawn;
}

// The drawing of `s` for a page that marks `marked`: the whole graph when it
// is small enough, else the marked nodes and their neighbours ("" when there
// is nothing marked to centre on).
std::string DrawingFor(const Snapshot& s, const std::vector<std::string>& marked, const std::string& key,
                       const ReportOptions& options, Drawings& drawings) {
  if (!s.whole.empty()) return s.whole;
  if (marked.empty()) return "";
  size_t seeds = 0;
  auto only = Neighbourhood(*s.graph, marked, options.max_part_marked, options.max_part_nodes, &seeds);
  if (only->empty()) return "";
  std::string note = fmt::format(
      "{} nodes are too many to draw whole: this shows {} of the {} marked nodes with their inputs and users "
      "({} nodes). `dump svg` draws the whole graph.",
      s.graph->size(), seeds, marked.size(), only->size());
  return drawings.Add(
      key, {s.graph, only, only->size(), std::move(note), "", s.hazards ? *s.hazards : std::vector<HazardMark>{}});
}

std::vector<std::string> Concat(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// The change lists, the side-by-side FX diff and both drawings of `before` -> `after`.
json ChangeContext(const Snapshot& before, const Snapshot& after, const std::string& page_key, bool draw_parts,
                   const ReportOptions& options, Drawings& drawings) {
  GraphDiff diff = DiffGraphs(*before.graph, *after.graph);
  json changed = json::array();
  std::vector<std::string> changed_names;
  for (const NodeChange& c : diff.changed) {
    changed.push_back({{"name", c.name}, {"fields", fmt::format("{}", fmt::join(c.fields, ", "))}});
    changed_names.push_back(c.name);
  }
  json highlight = {{"added", diff.added}, {"removed", diff.removed}, {"changed", changed_names}};
  SideBySideOptions sbs;
  sbs.max_rows = options.max_diff_rows;
  if (options.fold_diff) {
    sbs.fold = [&](std::string_view unified) { return options.fold_diff(unified, *before.graph, *after.graph); };
  }
  SideBySide side = SideBySideDiff(before.fx, after.fx, sbs);
  json ctx = {{"added", diff.added},
              {"removed", diff.removed},
              {"changed", changed},
              {"added_count", diff.added.size()},
              {"removed_count", diff.removed.size()},
              {"changed_count", diff.changed.size()},
              // Long lists start folded: the drawing and the diff come first.
              {"lists_open", diff.added.size() + diff.removed.size() + diff.changed.size() <= 60},
              {"highlight_json", ScriptJson(highlight)},
              {"diff_html", side.html},
              {"diff_folded", side.folded == 0 ? ""
                                               : fmt::format("{} of {} changes are alike to one shown and fold, as "
                                                             "`diff` folds them (`diff --all` prints every one).",
                                                             side.folded, side.hunks)}};
  // Graphs too big to draw whole get a drawing of the changed part, on stage
  // pages only: a compare page of such a graph shows the lists and the text.
  std::string after_key = draw_parts || !after.whole.empty() ? DrawingFor(after, Concat(diff.added, changed_names),
                                                                          page_key + "-after", options, drawings)
                                                             : "";
  std::string before_key = draw_parts || !before.whole.empty() ? DrawingFor(before, Concat(diff.removed, changed_names),
                                                                            page_key + "-before", options, drawings)
                                                               : "";
  // The earlier drawing of a big graph only on demand: two would double the
  // page's opening time.
  if (!after_key.empty()) ctx["after"] = DrawingRef(after_key, "after", /*lazy=*/false);
  if (!before_key.empty()) {
    ctx["before"] = DrawingRef(before_key, "before", /*lazy=*/before.graph->size() > options.max_eager_before_nodes);
  }
  if (after_key.empty() && before_key.empty()) {
    ctx["no_drawing"] = fmt::format("{} nodes are too many to draw whole; the stage pages draw what each pass changed.",
                                    after.graph->size());
  }
  return ctx;
}

// `check`'s findings as a page lists them: each with its kind, its nodes
// (linked to `page`#find=NODE, which finds the node in that page's drawing;
// unlinked when `page` is null) and check's text.
json HazardList(const std::vector<HazardMark>& hazards, const std::string* page) {
  json list = json::array();
  for (const HazardMark& m : hazards) {
    json nodes = json::array();
    for (const std::string& name : {m.first, m.second}) {
      if (name.empty()) continue;
      nodes.push_back({{"name", name}, {"href", page ? *page + "#find=" + name : ""}, {"linked", page != nullptr}});
    }
    list.push_back({{"kind", m.kind}, {"nodes", nodes}, {"message", m.message}});
  }
  return list;
}

void AddStagePages(const ReportData& data, size_t g, const GraphPlan& plan, const ReportOptions& options,
                   Drawings& drawings, Site& site) {
  const ReportGraph& graph = data.graphs[g];
  for (size_t i = 0; i < graph.stages.size(); ++i) {
    const ReportStage& stage = graph.stages[i];
    std::string page = StagePage(g, stage.number);
    json ctx = PageContext(data, page, fmt::format("{}: stage {} ({})", graph.name, stage.number, stage.pass));
    ctx["graph"] = graph.name;
    ctx["graph_href"] = GraphPage(g);
    ctx["heading"] = fmt::format("Stage {}: {}", stage.number, stage.pass);
    ctx["status"] = stage.status;
    ctx["changed"] = stage.changed;
    ctx["seconds"] = Seconds(stage.seconds);
    ctx["nodes"] = stage.nodes;
    ctx["remarks"] = stage.remarks;
    ctx["effects_changed"] = stage.effects_changed;
    ctx["error"] = stage.error;
    if (i > 0) ctx["prev_href"] = StagePage(g, graph.stages[i - 1].number);
    if (i + 1 < graph.stages.size()) ctx["next_href"] = StagePage(g, graph.stages[i + 1].number);
    long now = plan.stage_snapshot[i];
    long was = i > 0 ? plan.stage_snapshot[i - 1] : -1;
    if (now >= 0) {
      const Snapshot& after = plan.snapshots[static_cast<size_t>(now)];
      ctx["fx_file"] = after.fx_file;
      if (after.hazards && !after.hazards->empty()) {
        const std::string here;
        ctx["hazards"] = HazardList(*after.hazards, &here);
        ctx["has_hazards"] = true;
      }
      if (!after.whole.empty()) {
        ctx["fx"] = after.fx;  // small enough to show inline too
        ctx["graph_drawing"] = DrawingRef(after.whole, "after", false);
      } else {
        ctx["too_big"] =
            fmt::format("{} nodes are too many to draw whole; `dump svg` draws it (sfdp).", after.graph->size());
        if (options.folded_fx) ctx["fx_folded"] = options.folded_fx(*after.graph);
      }
      if (i == 0) {
        ctx["is_input"] = true;
      } else if (was == now) {
        ctx["same_as"] = after.first_stage;
      } else if (was >= 0) {
        ctx["change"] = ChangeContext(plan.snapshots[static_cast<size_t>(was)], after,
                                      fmt::format("{}-s{}", g, stage.number), true, options, drawings);
        ctx["change"]["from_stage"] = graph.stages[i - 1].number;
      }
    } else {
      ctx["missing"] = true;
    }
    site.AddPage(page, "stage", std::move(ctx));
  }
  for (const auto& [a, b] : plan.compared) {
    const Snapshot& before = plan.snapshots[a];
    const Snapshot& after = plan.snapshots[b];
    std::string page = ComparePage(g, a, b);
    json ctx = PageContext(data, page,
                           fmt::format("{}: stage {} vs stage {}", graph.name, before.first_stage, after.first_stage));
    ctx["graph"] = graph.name;
    ctx["graph_href"] = GraphPage(g);
    ctx["heading"] =
        fmt::format("Compare stage {} ({}) with stage {} ({})", before.first_stage,
                    graph.stages[before.first_stage].pass, after.first_stage, graph.stages[after.first_stage].pass);
    ctx["compare"] = true;
    ctx["fx_file"] = after.fx_file;
    ctx["change"] = ChangeContext(before, after, fmt::format("{}-c{}-{}", g, a, b), false, options, drawings);
    ctx["change"]["from_stage"] = before.first_stage;
    site.AddPage(page, "stage", std::move(ctx));
  }
}

void AddGraphPage(const ReportData& data, size_t g, const GraphPlan& plan, const ReportOptions& options, Site& site) {
  const ReportGraph& graph = data.graphs[g];
  std::string page = GraphPage(g);
  json ctx = PageContext(data, page, graph.name);
  ctx["name"] = graph.name;
  ctx["source"] = graph.source;
  ctx["nodes"] = graph.loaded ? graph.loaded->size() : 0;
  json stages = json::array();
  for (size_t i = 0; i < graph.stages.size(); ++i) {
    const ReportStage& s = graph.stages[i];
    stages.push_back({{"number", s.number},
                      {"href", StagePage(g, s.number)},
                      {"pass", s.pass},
                      {"status", s.status},
                      {"changed", s.changed},
                      {"seconds", Seconds(s.seconds)},
                      {"nodes", s.nodes},
                      {"remarks", s.remarks},
                      {"effects_changed", s.effects_changed},
                      {"error", s.error}});
  }
  ctx["stages"] = stages;
  ctx["has_stages"] = !graph.stages.empty();
  json rest = json::array();
  for (size_t i = graph.stages.empty() ? 0 : graph.stages.size() - 1; i < graph.pipeline.size(); ++i) {
    rest.push_back(graph.pipeline[i]);
  }
  ctx["has_pending"] = !graph.stages.empty() && !rest.empty();
  ctx["pending"] = rest;
  if (graph.stages.empty()) {
    // Never stepped: show the loaded graph itself.
    const Snapshot& s = plan.snapshots.front();
    ctx["fx_file"] = s.fx_file;
    if (s.hazards && !s.hazards->empty()) {
      const std::string here;
      ctx["hazards"] = HazardList(*s.hazards, &here);
      ctx["has_hazards"] = true;
    }
    if (!s.whole.empty()) {
      ctx["graph_drawing"] = DrawingRef(s.whole, "after", false);
      ctx["fx"] = s.fx;
    } else {
      ctx["too_big"] = fmt::format("{} nodes are too many to draw whole; `dump svg` draws it (sfdp).", s.graph->size());
      if (options.folded_fx) ctx["fx_folded"] = options.folded_fx(*s.graph);
    }
  } else {
    // Stage -> snapshot, and which snapshot pairs have a compare page, for the compare form.
    json map = json::array();
    for (long s : plan.stage_snapshot) map.push_back(s);
    json pages = json::object();
    for (const auto& [a, b] : plan.compared) pages[fmt::format("{}-{}", a, b)] = ComparePage(g, a, b);
    ctx["compare_json"] = ScriptJson({{"snapshots", map}, {"pages", pages}});
  }
  json calls = json::array();
  for (const ReportGraph::Call& c : graph.calls) {
    calls.push_back({{"number", c.number}, {"spec", c.spec}, {"outcome", c.outcome}, {"compile_id", c.compile_id}});
  }
  ctx["has_calls"] = !calls.empty();
  ctx["calls"] = calls;
  ctx["cache_text"] = graph.cache_text;
  ctx["guards_text"] = graph.guards_text;
  ctx["recompiles_text"] = graph.recompiles_text;
  ctx["coverage_text"] = graph.coverage_text;
  site.AddPage(page, "graph", std::move(ctx));
}

void AddLogPage(const ReportData& data, size_t k, Site& site) {
  const ReportLog& log = data.logs[k];
  std::string page = LogPage(k);
  json ctx = PageContext(data, page, log.path);
  ctx["path"] = log.path;
  ctx["kind"] = log.kind;
  ctx["columns"] = log.columns;
  json rows = json::array();
  for (const auto& row : log.rows) rows.push_back({{"cells", row}});
  ctx["rows"] = rows;
  json guards = json::array();
  for (const auto& [id, text] : log.guards) guards.push_back({{"id", id}, {"text", text}});
  ctx["guards"] = guards;
  ctx["recompiles_text"] = log.recompiles_text;
  ctx["divergence_text"] = log.divergence_text;
  ctx["problems"] = log.problems;
  std::map<std::string_view, size_t> page_of;
  for (size_t g = 0; g < data.graphs.size(); ++g) page_of.emplace(data.graphs[g].name, g);
  json graphs = json::array();
  for (const std::string& name : log.graph_names) {
    if (auto it = page_of.find(name); it != page_of.end()) {
      graphs.push_back({{"name", name}, {"href", GraphPage(it->second)}});
    }
  }
  ctx["has_graphs"] = !graphs.empty();
  ctx["graphs"] = graphs;
  ctx["has_guards"] = !guards.empty();
  ctx["has_problems"] = !log.problems.empty();
  site.AddPage(page, "log", std::move(ctx));
}

// The page that draws graph `g`'s checked graph whole or in part (its last
// stage showing it, or the graph page of a graph never stepped); "" for none.
std::string CheckedPage(const ReportData& data, size_t g, const GraphPlan& plan) {
  const ReportGraph& graph = data.graphs[g];
  if (!graph.checked) return "";
  if (graph.stages.empty()) return graph.loaded == graph.checked ? GraphPage(g) : "";
  for (size_t i = graph.stages.size(); i-- > 0;) {
    long k = plan.stage_snapshot[i];
    if (k >= 0 && plan.snapshots[static_cast<size_t>(k)].graph == graph.checked.get()) {
      return StagePage(g, graph.stages[i].number);
    }
  }
  return "";
}

void AddDevicePage(const ReportData& data, const std::vector<GraphPlan>& plans, const ReportOptions& options,
                   Site& site) {
  json ctx = PageContext(data, "device.html", "device");
  const ReportDevice& device = data.device;
  ctx["preset"] = device.preset;
  ctx["mem_text"] = device.mem_text;
  ctx["captured_text"] = device.captured_text;
  json checks = json::array();
  for (const auto& [graph, text] : device.checks) {
    json check = {{"graph", graph}, {"text", text}};
    for (size_t g = 0; g < data.graphs.size(); ++g) {
      if (data.graphs[g].name != graph || data.graphs[g].hazards.empty()) continue;
      std::string page = CheckedPage(data, g, plans[g]);
      check["hazards"] = HazardList(data.graphs[g].hazards, page.empty() ? nullptr : &page);
      check["has_hazards"] = true;
    }
    checks.push_back(std::move(check));
  }
  ctx["has_checks"] = !checks.empty();
  ctx["checks"] = checks;
  if (device.trace) {
    TimelineSvgOptions svg;
    svg.width = options.timeline_width;
    svg.marks = device.trace_marks;
    svg.links = device.trace_links;
    ctx["trace_marked"] = !device.trace_marks.empty();
    ctx["has_trace"] = true;
    ctx["trace_title"] = device.trace->title;
    ctx["timeline_svg"] = TimelineSvg(*device.trace, svg);
    ctx["memory_svg"] = MemorySvg(*device.trace, svg);
    ctx["streams"] = device.trace->tracks.size() - 1;
    ctx["runstats_text"] = device.runstats_text;
    site.Add("trace.json", ChromeTraceJson(*device.trace));
  }
  site.AddPage("device.html", "device", std::move(ctx));
}

// The class a compile's status is coloured by (the tree's, as tlparse colours its links).
std::string StatusClass(std::string_view status) {
  for (std::string_view known : {"success", "failure", "restart", "unknown"}) {
    if (status == known) return fmt::format("status-{}", known);
  }
  return "status-none";
}

// A log with more compiles opens with its table folded under the tree.
constexpr size_t kOpenCompileTable = 30;

void AddIndex(const ReportData& data, const std::vector<GraphPlan>& plans, Site& site) {
  json ctx = PageContext(data, "index.html", data.title);
  json graphs = json::array();
  for (size_t g = 0; g < data.graphs.size(); ++g) {
    const ReportGraph& graph = data.graphs[g];
    size_t changed = 0;
    for (const ReportStage& s : graph.stages) changed += s.changed;
    graphs.push_back({{"href", GraphPage(g)},
                      {"name", graph.name},
                      {"source", graph.source},
                      {"nodes", graph.loaded ? graph.loaded->size() : 0},
                      {"stages", graph.stages.empty() ? 0 : graph.stages.size() - 1},
                      {"changed", changed},
                      {"distinct", plans[g].snapshots.size()},
                      {"cached", !graph.cache_text.empty()},
                      {"coverage", graph.coverage_summary},
                      {"current", g == data.current_graph}});
  }
  // Graphs a log registered are listed under their log (and linked from
  // their compile's row), folded: 60 rows of 3-node graphs opened the index
  // before any compile. The session's own graphs come first.
  std::set<std::string_view> from_logs;
  for (const ReportLog& log : data.logs) from_logs.insert(log.graph_names.begin(), log.graph_names.end());
  json own = json::array();
  for (size_t g = 0; g < data.graphs.size(); ++g) {
    if (!from_logs.contains(data.graphs[g].name)) own.push_back(graphs[g]);
  }
  json log_graphs = json::array();
  for (size_t k = 0; k < data.logs.size(); ++k) {
    json rows = json::array();
    for (size_t g = 0; g < data.graphs.size(); ++g) {
      const std::vector<std::string>& names = data.logs[k].graph_names;
      if (std::find(names.begin(), names.end(), data.graphs[g].name) != names.end()) rows.push_back(graphs[g]);
    }
    if (!rows.empty()) {
      log_graphs.push_back({{"path", data.logs[k].path}, {"href", LogPage(k)}, {"count", rows.size()}, {"rows", rows}});
    }
  }
  ctx["graphs"] = own;
  ctx["has_own_graphs"] = !own.empty();
  ctx["log_graphs"] = log_graphs;
  ctx["has_any_graph"] = !data.graphs.empty();
  json logs = json::array();
  for (size_t k = 0; k < data.logs.size(); ++k) {
    logs.push_back({{"href", LogPage(k)},
                    {"path", data.logs[k].path},
                    {"kind", data.logs[k].kind},
                    {"compiles", data.logs[k].rows.size()}});
  }
  ctx["has_logs"] = !logs.empty();
  ctx["logs"] = logs;
  // The compiles of every log, with links to their graphs' pages.
  std::map<std::string, size_t> page_of;
  for (size_t g = 0; g < data.graphs.size(); ++g) page_of.emplace(data.graphs[g].name, g);
  json compile_logs = json::array();
  for (size_t k = 0; k < data.logs.size(); ++k) {
    const ReportLog& log = data.logs[k];
    if (log.compiles.empty()) continue;
    json rows = json::array();
    std::vector<std::vector<std::string>> stacks;
    std::vector<json> leaves;
    json stackless = json::array();
    for (size_t i = 0; i < log.compiles.size(); ++i) {
      const ReportCompile& c = log.compiles[i];
      json graphs = json::array();
      for (const std::string& name : c.graphs) {
        auto it = page_of.find(name);
        // In the tree a graph is named by its kind: its name less the compile id.
        std::string_view label = name;
        if (label.starts_with(c.id + ":")) label.remove_prefix(c.id.size() + 1);
        graphs.push_back({{"name", name},
                          {"label", label},
                          {"href", it == page_of.end() ? "" : GraphPage(it->second)},
                          {"linked", it != page_of.end()}});
      }
      std::string anchor = fmt::format("compile-{}-{}", k, i);
      json leaf = {
          {"id", c.id},       {"anchor", anchor}, {"status", c.status},       {"status_class", StatusClass(c.status)},
          {"graphs", graphs}, {"reason", ""},     {"has_more_reasons", false}};
      // Torch gives a recompile a reason per cache entry it missed: the
      // first (the newest entry's) in view, the rest folded.
      if (!c.recompile_reasons.empty()) {
        leaf["reason"] = c.recompile_reasons.front();
        leaf["more_reasons"] = std::vector<std::string>(c.recompile_reasons.begin() + 1, c.recompile_reasons.end());
        leaf["more_count"] = c.recompile_reasons.size() - 1;
        leaf["has_more_reasons"] = c.recompile_reasons.size() > 1;
      }
      if (c.stack.empty()) stackless.push_back(leaf);
      stacks.push_back(c.stack);
      leaves.push_back(std::move(leaf));
      rows.push_back({{"id", c.id},
                      {"anchor", anchor},
                      {"status", c.status},
                      {"function", c.function},
                      {"sizes", c.sizes},
                      {"guards", c.guards},
                      {"cache", c.cache},
                      {"reasons", c.recompile_reasons},
                      {"times", c.times},
                      {"torchair", c.torchair},
                      {"graphs", graphs}});
    }
    json tree = StackTreeRows(stacks, leaves);
    compile_logs.push_back({{"href", LogPage(k)},
                            {"path", log.path},
                            {"kind", log.kind},
                            {"rows", rows},
                            {"count", rows.size()},
                            // A long table starts folded: the tree above is the way in.
                            {"table_open", rows.size() <= kOpenCompileTable || tree.empty()},
                            {"tree", tree},
                            {"has_tree", !tree.empty()},
                            {"stackless", stackless},
                            {"has_stackless", !stackless.empty()},
                            {"stackless_count", stackless.size()},
                            {"all_stackless", tree.empty()}});
  }
  ctx["has_compiles"] = !compile_logs.empty();
  ctx["compile_logs"] = compile_logs;
  ctx["has_trace"] = data.device.trace.has_value();
  if (data.device.trace) ctx["trace_title"] = data.device.trace->title;
  json commands = json::array();
  for (size_t i = 0; i < data.commands.size(); ++i) {
    const ReportCommand& c = data.commands[i];
    commands.push_back({{"anchor", fmt::format("cmd-{}", i + 1)},
                        {"number", i + 1},
                        {"where", c.line ? fmt::format("{}:{}", c.origin, c.line) : c.origin},
                        {"text", c.text},
                        {"output", c.output},
                        {"error", c.error},
                        {"failed", !c.error.empty()}});
  }
  ctx["commands"] = commands;
  site.AddPage("index.html", "index", std::move(ctx));
}

}  // namespace

Result<ReportSummary> WriteReport(const ReportData& data, const std::string& dir, const ReportOptions& options) {
  ReportSummary summary;
  Site site;
  Drawings drawings;
  std::vector<GraphPlan> plans;
  for (size_t g = 0; g < data.graphs.size(); ++g) {
    plans.push_back(PlanGraph(data.graphs[g], g, options, drawings, site));
    AddGraphPage(data, g, plans[g], options, site);
    AddStagePages(data, g, plans[g], options, drawings, site);
  }
  for (size_t k = 0; k < data.logs.size(); ++k) AddLogPage(data, k, site);
  AddDevicePage(data, plans, options, site);
  AddIndex(data, plans, site);
  drawings.RenderAll(options, site, summary);
  if (InterruptRequested()) return InterruptedStatus();
  AIRSCOPE_RETURN_IF_ERROR(site.RenderPages([&](json& context) { FillDrawings(context, drawings); }));
  for (const EmbeddedFile& file : ReportAssets()) {
    if (file.name.starts_with("assets/")) site.Add(std::string(file.name), std::string(file.data));
  }
  // Version 2 lists its files: a later report replaces those and nothing else (report_publish.h).
  json manifest{{"format", "airscope-report"}, {"version", 2}, {"airscope", data.version}, {"pages", site.pages()}};
  AIRSCOPE_RETURN_IF_ERROR(
      PublishReport(site.files(), manifest, dir, options.force, &summary.notes).WithPrefix("report"));
  summary.index = (fs::path(dir) / "index.html").string();
  summary.pages = site.pages();
  summary.bytes = site.bytes();
  return summary;
}

}  // namespace airscope
