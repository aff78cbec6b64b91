#include "core/analysis/piecewise_split.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/ops/op_registry.h"
#include "core/text.h"

namespace airscope {
namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty() || IsDigit(s[0])) return false;
  return std::all_of(s.begin(), s.end(), IsWordChar);
}

// The symbols in a size expression as Dynamo's sympy printer writes it
// (`s0`, `2*s0 + 1`, `Max(1, s72)`): identifiers, leaving out function names
// (an identifier followed by '(').
void AddSymbols(std::string_view expr, std::vector<std::string>& out) {
  size_t i = 0;
  while (i < expr.size()) {
    char c = expr[i];
    if (IsWordChar(c) && !IsDigit(c)) {
      size_t start = i;
      while (i < expr.size() && IsWordChar(expr[i])) ++i;
      size_t next = i;
      while (next < expr.size() && expr[next] == ' ') ++next;
      if (next >= expr.size() || expr[next] != '(') out.emplace_back(expr.substr(start, i - start));
    } else {
      ++i;
    }
  }
}

// The free symbols of a node's value (sizes and strides of its tensors), in
// name order as split_module sorts them (key=str).
std::vector<std::string> FreeSymbols(const Node& node) {
  std::vector<std::string> symbols;
  if (!node.meta()) return symbols;
  for (const TensorMeta& t : node.meta()->tensors) {
    for (const Dim& d : t.sizes) {
      if (!d.is_static()) AddSymbols(d.symbol(), symbols);
    }
    for (const Dim& d : t.strides) {
      if (!d.is_static()) AddSymbols(d.symbol(), symbols);
    }
  }
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  return symbols;
}

// The symbol a node's value is, when it is a bare SymInt: `Sym(s72)` -> s72.
std::string_view BareSymbol(const Node& node) {
  if (!node.meta() || node.meta()->kind != ValueKind::kSymInt) return {};
  std::string_view a = node.meta()->annotation;
  if (a.starts_with("Sym(") && a.ends_with(")")) a = a.substr(4, a.size() - 5);
  return IsIdentifier(a) ? a : std::string_view{};
}

// An ordered set of names (Python's dict[str, None] as split_module uses it).
struct OrderedNames {
  std::vector<std::string> names;
  std::unordered_map<std::string, size_t> index;
  void Add(const std::string& name) {
    if (index.emplace(name, names.size()).second) names.push_back(name);
  }
};

struct Partition {
  int id = 0;
  bool is_split_op = false;
  std::vector<const Node*> nodes;
  OrderedNames inputs;
  OrderedNames outputs;
};

}  // namespace

Result<SplitOp> ParseSplitOp(std::string_view written) {
  SplitOp op;
  op.written = std::string(written);
  std::string_view ns;
  std::string_view rest;
  if (size_t colons = written.find("::"); colons != std::string_view::npos) {
    ns = written.substr(0, colons);
    rest = written.substr(colons + 2);
  } else {
    size_t dot = written.find('.');
    if (dot == std::string_view::npos) {
      return Status::Errorf("split op '{}' is not namespace::name[.overload] (vllm::unified_attention)", written);
    }
    ns = written.substr(0, dot);
    rest = written.substr(dot + 1);
  }
  std::string_view name = rest;
  std::string_view overload = "default";
  if (size_t dot = rest.find('.'); dot != std::string_view::npos) {
    name = rest.substr(0, dot);
    overload = rest.substr(dot + 1);
  }
  if (!IsIdentifier(ns) || !IsIdentifier(name) || !IsIdentifier(overload)) {
    return Status::Errorf("split op '{}' is not namespace::name[.overload] (vllm::unified_attention)", written);
  }
  op.op = fmt::format("{}.{}", ns, name);
  op.overload = std::string(overload);
  return op;
}

bool MatchesSplitOp(const Node& node, const SplitOp& op) {
  if (node.op() != OpKind::kCallFunction) return false;
  std::string_view target = StripTorchOps(node.target());
  if (!target.starts_with(op.op)) return false;
  std::string_view rest = target.substr(op.op.size());
  // A packet target (`vllm.unified_attention`) matches through its default
  // overload, as split_graph checks node.target.default.
  if (rest.empty()) return op.overload == "default";
  return rest.size() == op.overload.size() + 1 && rest[0] == '.' && rest.substr(1) == op.overload;
}

std::span<const std::string_view> DefaultSplitOps() {
  static constexpr std::array<std::string_view, 14> kOps = {
      // vLLM vllm/config/compilation.py @002284db, CompilationConfig._attention_ops.
      "vllm::unified_attention",
      "vllm::unified_attention_with_output",
      "vllm::unified_mla_attention",
      "vllm::unified_mla_attention_with_output",
      "vllm::mamba_mixer2",
      "vllm::mamba_mixer",
      "vllm::short_conv",
      "vllm::linear_attention",
      "vllm::plamo2_mamba_mixer",
      "vllm::gdn_attention_core",
      "vllm::kda_attention",
      "vllm::sparse_attn_indexer",
      // vllm-ascend vllm_ascend/platform.py @182b75ea:1088-1093, added for piecewise graphs.
      "vllm::mla_forward",
      "vllm::dsa_forward",
  };
  return kOps;
}

Result<PiecewiseSplit> SplitAtOps(const Graph& graph, std::span<const SplitOp> ops) {
  PiecewiseSplit result;
  std::vector<bool> op_seen(ops.size(), false);
  // Which piece each node is in (split_graph's node_to_subgraph_id), by position.
  constexpr int kNoPiece = -1;
  std::vector<int> piece_of(graph.size(), kNoPiece);
  std::map<int, Partition> partitions;  // by id: ids grow along the graph, so this is original order
  auto is_split = [&](const Node& node) {
    bool split = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (MatchesSplitOp(node, ops[i])) {
        split = true;
        op_seen[i] = true;
      }
    }
    return split;
  };
  std::vector<Node*> nodes = graph.Nodes();
  int id = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node* node = nodes[i];
    if (node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr || node->op() == OpKind::kOutput) {
      continue;
    }
    int node_id = id;
    bool split = false;
    if (node->op() == OpKind::kCallFunction && StripTorchOps(node->target()) == "operator.getitem" &&
        !node->args().empty() && node->args()[0].is_node() &&
        piece_of[graph.PositionOf(node->args()[0].as_node())] != kNoPiece) {
      // A getitem goes with the node it reads, so no piece takes a tuple as input.
      node_id = piece_of[graph.PositionOf(node->args()[0].as_node())];
    } else if (is_split(*node)) {
      split = true;
      node_id = ++id;
      // Split ops in a row share one piece.
      if (i + 1 < nodes.size() && is_split(*nodes[i + 1])) {
        --id;
      } else {
        ++id;
      }
    }
    piece_of[graph.PositionOf(node)] = node_id;
    Partition& p = partitions[node_id];
    p.id = node_id;
    p.is_split_op = p.is_split_op || split;
    p.nodes.push_back(node);
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!op_seen[i]) result.unmatched.push_back(ops[i].written);
  }

  // The node that defines each symbol: the first bare SymInt, placeholders first.
  std::unordered_map<std::string, const Node*> symbol_node;
  for (const Node* node : graph) {
    std::string_view s = BareSymbol(*node);
    if (!s.empty()) symbol_node.emplace(std::string(s), node);
  }
  auto piece = [&](const Node* n) { return piece_of[graph.PositionOf(n)]; };
  // split_module's record_cross_partition_use; `user` null for the graph's output.
  auto record = [&](const Node* def, const Node* user) -> Status {
    int defined = piece(def);
    int used = user ? piece(user) : kNoPiece;
    if (defined == used) return Status::Ok();
    if (defined != kNoPiece) partitions[defined].outputs.Add(def->name());
    if (used == kNoPiece) return Status::Ok();
    Partition& use = partitions[used];
    use.inputs.Add(def->name());
    for (const std::string& s : FreeSymbols(*def)) {
      auto found = symbol_node.find(s);
      if (found == symbol_node.end()) {
        return Status::Errorf(
            "piece submod_{} reads '{}', whose shape has the symbol {}, and no node of the graph is that symbol "
            "(a SymInt input Sym({})): torch's split_module needs it to pass the symbol to the piece",
            used, def->name(), s, s);
      }
      const Node* s_node = found->second;
      use.inputs.Add(s_node->name());
      if (int s_defined = piece(s_node); s_defined != kNoPiece) partitions[s_defined].outputs.Add(s_node->name());
    }
    return Status::Ok();
  };
  for (const Node* node : graph) {
    if (node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr) continue;
    Status status = Status::Ok();
    auto visit = [&](Node* def) {
      if (status.ok()) status = record(def, node->op() == OpKind::kOutput ? nullptr : node);
    };
    for (const Argument& a : node->args()) a.ForEachNode(visit);
    for (const Kwarg& kw : node->kwargs()) kw.value.ForEachNode(visit);
    AIRSCOPE_RETURN_IF_ERROR(status);
  }

  // The pieces: inputs as placeholders, the piece's nodes, its outputs.
  for (auto& [piece_id, p] : partitions) {
    auto g = std::make_shared<Graph>(fmt::format("{}_submod_{}", graph.name(), piece_id));
    g->mutable_style() = graph.style();
    std::unordered_map<const Node*, Node*> copies;
    for (const std::string& name : p.inputs.names) {
      const Node* original = graph.Find(name);
      NodeSpec spec;
      spec.op = OpKind::kPlaceholder;
      spec.target = name;
      spec.name = name;
      // Names come from a graph where they were unique and legal: this cannot fail.
      Node* copy = *g->AppendNamed(std::move(spec));
      if (original->meta()) copy->set_meta(*original->meta());
      copies[original] = copy;
    }
    auto remap = [&](Node* n) { return copies.at(n); };
    for (const Node* node : p.nodes) {
      NodeSpec spec;
      spec.op = node->op();
      spec.target = node->target();
      spec.name = node->name();
      for (const Argument& a : node->args()) spec.args.push_back(a.MapNodes(remap));
      for (const Kwarg& kw : node->kwargs()) spec.kwargs.push_back({kw.name, kw.value.MapNodes(remap)});
      Node* copy = *g->AppendNamed(std::move(spec));
      if (node->meta()) copy->set_meta(*node->meta());
      if (!node->stream().empty()) g->SetStream(copy, node->stream());
      copies[node] = copy;
    }
    std::vector<Argument> returned;
    for (const std::string& name : p.outputs.names) returned.push_back(Argument::NodeRef(copies.at(graph.Find(name))));
    NodeSpec output;
    output.op = OpKind::kOutput;
    output.target = "output";
    output.name = "output";  // Append makes it unique
    if (returned.size() == 1) {
      output.args.push_back(std::move(returned[0]));
    } else {
      output.args.push_back(Argument::Tuple(std::move(returned)));
    }
    g->Append(std::move(output));
    GraphPiece out;
    out.name = fmt::format("submod_{}", piece_id);
    out.id = piece_id;
    out.is_split_op = p.is_split_op;
    out.graph = std::move(g);
    out.inputs = p.inputs.names;
    out.outputs = p.outputs.names;
    result.pieces.push_back(std::move(out));
  }

  // The stitched graph: the inputs, a call_module per piece, the output.
  auto top = std::make_shared<Graph>(fmt::format("{}_split", graph.name()));
  top->mutable_style() = graph.style();
  std::unordered_map<std::string, Node*> env;  // original name -> node of `top`
  auto copy_input = [&](const Node* node) {
    NodeSpec spec;
    spec.op = node->op();
    spec.target = node->target();
    spec.name = node->name();
    spec.args = node->op() == OpKind::kPlaceholder ? node->args() : std::vector<Argument>{};
    Node* copy = top->Append(std::move(spec));  // keeps the name unless a piece call took it
    if (node->meta()) copy->set_meta(*node->meta());
    env[node->name()] = copy;
  };
  for (const Node* node : graph.Placeholders()) copy_input(node);
  // A get_attr enters the stitched graph where a piece (or the output) first reads it.
  auto value_of = [&](Node* n) {
    if (!env.contains(n->name())) copy_input(n);
    return env.at(n->name());
  };
  for (const GraphPiece& p : result.pieces) {
    NodeSpec call;
    call.op = OpKind::kCallModule;
    call.target = p.name;
    for (const std::string& name : p.inputs) call.args.push_back(Argument::NodeRef(value_of(graph.Find(name))));
    call.name = p.name;
    Node* called = top->Append(std::move(call));
    if (p.outputs.size() == 1) {
      env[p.outputs[0]] = called;
      if (const Node* o = graph.Find(p.outputs[0]); o->meta()) called->set_meta(*o->meta());
      continue;
    }
    for (size_t i = 0; i < p.outputs.size(); ++i) {
      NodeSpec get;
      get.op = OpKind::kCallFunction;
      get.target = "operator.getitem";
      get.name = "getitem";
      get.args = {Argument::NodeRef(called), Argument::Int(static_cast<int64_t>(i))};
      Node* item = top->Append(std::move(get));
      if (const Node* o = graph.Find(p.outputs[i]); o->meta()) item->set_meta(*o->meta());
      env[p.outputs[i]] = item;
    }
  }
  if (const Node* original_output = graph.output()) {
    NodeSpec output;
    output.op = OpKind::kOutput;
    output.target = "output";
    output.name = original_output->name();
    for (const Argument& a : original_output->args()) output.args.push_back(a.MapNodes(value_of));
    top->Append(std::move(output));
  }
  result.stitched = std::move(top);
  return result;
}

}  // namespace airscope
