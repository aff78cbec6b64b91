#include "core/runtime/fx_graph_info.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/analysis/alias_analysis.h"

namespace airscope {
namespace {

// _REPLACE_FUNC_MAP (ag:100-159) as get_unupdated_sym_input_index reads it
// (ag:282-290): per target, the kwargs and arg indices TorchAir updates on a
// replay instead of capturing anew. TorchAir registers an entry only when
// torch_npu has the op; airscope's simulated torch_npu has them all.
struct UpdatedOp {
  std::string_view target;
  std::vector<std::string_view> params;
  std::vector<size_t> indices;
};

const std::vector<UpdatedOp>& UpdatedOps() {
  static const std::vector<UpdatedOp> kOps = {
      {"npu._npu_fused_infer_attention_score_get_max_workspace.default",
       {"actual_seq_lengths", "actual_seq_lengths_kv", "actual_shared_prefix_len"},
       {}},
      {"npu.npu_fused_infer_attention_score.out",
       {"actual_seq_lengths", "actual_seq_lengths_kv", "actual_shared_prefix_len"},
       {}},
      {"npu._npu_fused_infer_attention_score_v2_get_max_workspace.default",
       {"actual_seq_qlen", "actual_seq_kvlen"},
       {}},
      {"npu.npu_fused_infer_attention_score_v2.out", {"actual_seq_qlen", "actual_seq_kvlen"}, {}},
      {"atb._npu_paged_attention.default", {}, {7}},
      {"atb._npu_paged_attention_splitfuse.default", {}, {4, 6}},
  };
  return kOps;
}

bool IsOutOperator(std::string_view target) { return !target.ends_with("_get_max_workspace.default"); }

const UpdatedOp* FindUpdatedOp(const Node& node) {
  std::string_view target = StripTorchOps(node.target());
  for (const UpdatedOp& op : UpdatedOps()) {
    if (op.target == target) return &op;
  }
  return nullptr;
}

// _is_inplace_node (gu:88-97): a string target (call_method) ending in "_",
// or an op overload whose packet name does (`aten.copy_.default`).
bool IsInplaceNode(const Node& node) {
  if (node.op() == OpKind::kCallMethod) return node.target().ends_with('_');
  if (node.op() != OpKind::kCallFunction || !node.target().starts_with("torch.ops.")) return false;
  std::string_view t = StripTorchOps(node.target());
  size_t first = t.find('.');
  if (first == std::string_view::npos) return false;
  std::string_view rest = t.substr(first + 1);
  std::string_view packet = rest.substr(0, rest.find('.'));
  return packet.ends_with('_');
}

// The in-place multi-output NPU ops and the args they mutate
// (inplace_ops_mutated_indices, gu:101-103; registered at gp:158-170).
const std::vector<size_t>* MultiInplaceMutatedArgs(const Node& node) {
  static const std::map<std::string, std::vector<size_t>, std::less<>> kOps = {
      {"npu.npu_kv_rmsnorm_rope_cache_v2.default", {5, 6}},
      {"npu.npu_mla_prolog_v3.default", {9, 10}},
      {"npu.npu_add_rms_norm_v2.default", {0, 1}},
  };
  if (node.op() != OpKind::kCallFunction) return nullptr;
  auto it = kOps.find(StripTorchOps(node.target()));
  return it == kOps.end() ? nullptr : &it->second;
}

// "Sym(s0)" -> "s0".
std::string SymbolOf(const NodeMeta& meta) {
  std::string_view a = meta.annotation;
  if (a.starts_with("Sym(") && a.ends_with(')')) a = a.substr(4, a.size() - 5);
  return std::string(a);
}

// A bare symbol as Dynamo names them ("s0", "u3"), not an expression.
bool IsBareSymbol(const std::string& expr) {
  if (expr.empty() || !std::isalpha(static_cast<unsigned char>(expr[0]))) return false;
  return std::all_of(expr.begin(), expr.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool HasSymbol(const TensorMeta& meta) {
  return std::any_of(meta.sizes.begin(), meta.sizes.end(), [](const Dim& d) { return !d.is_static(); });
}

}  // namespace

bool IsUpdatedParamOnlyUse(const Node& user, const Node& placeholder) {
  const UpdatedOp* op = FindUpdatedOp(user);
  if (!op) return false;
  // get_node_all_placeholder_inputs (ag:195-227) without the excluded kwargs and arg indices.
  bool found = false;
  auto visit = [&](const Argument& a) { a.ForEachNode([&](Node* n) { found = found || n == &placeholder; }); };
  for (size_t i = 0; i < user.args().size(); ++i) {
    if (std::find(op->indices.begin(), op->indices.end(), i) == op->indices.end()) visit(user.args()[i]);
  }
  for (const Kwarg& k : user.kwargs()) {
    if (std::find(op->params.begin(), op->params.end(), k.name) == op->params.end()) visit(k.value);
  }
  return !found;
}

size_t FxGraphInfo::InputOfPlaceholder(size_t placeholder) const {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].lifted && inputs[i].placeholder == placeholder) return i;
  }
  return inputs.size();
}

FxGraphInfo AnalyzeFxGraph(const Graph& compiled, const std::vector<bool>& parameters, const OpRegistry& registry) {
  FxGraphInfo info;
  std::vector<Node*> placeholders = compiled.Placeholders();
  // Inputs, with the symbols Dynamo lifts before the first tensor using them.
  std::set<std::string> symbol_inputs;
  for (const Node* p : placeholders) {
    if (p->meta() && p->meta()->kind == ValueKind::kSymInt) symbol_inputs.insert(SymbolOf(*p->meta()));
  }
  std::vector<size_t> input_of_placeholder(placeholders.size(), 0);
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const Node* p = placeholders[i];
    const NodeMeta* meta = p->meta();
    RuntimeInput in;
    in.name = p->name();
    in.placeholder = i;
    if (meta && meta->kind == ValueKind::kSymInt) {
      in.kind = RuntimeInput::Kind::kSymInt;
      in.symbol = SymbolOf(*meta);
    } else if (const TensorMeta* t = p->tensor()) {
      in.kind = RuntimeInput::Kind::kTensor;
      in.meta = *t;
      in.parameter = i < parameters.size() && parameters[i];
      for (const Dim& d : t->sizes) {
        if (d.is_static() || !IsBareSymbol(d.symbol()) || symbol_inputs.count(d.symbol())) continue;
        symbol_inputs.insert(d.symbol());
        RuntimeInput lifted;
        lifted.kind = RuntimeInput::Kind::kSymInt;
        lifted.name = d.symbol();
        lifted.symbol = d.symbol();
        lifted.lifted = true;
        info.inputs.push_back(std::move(lifted));
      }
    } else {
      in.kind = RuntimeInput::Kind::kOther;
    }
    input_of_placeholder[i] = info.inputs.size();
    info.inputs.push_back(std::move(in));
  }

  // _find_mutated_user_inputs (gu:100-116).
  std::set<const Node*> is_placeholder(placeholders.begin(), placeholders.end());
  for (const Node* node : compiled) {
    if (node->op() == OpKind::kPlaceholder) continue;
    std::vector<size_t> mutated_args;
    if (IsInplaceNode(*node)) {
      mutated_args = {0};
    } else if (const std::vector<size_t>* multi = MultiInplaceMutatedArgs(*node)) {
      mutated_args = *multi;
    }
    for (size_t a : mutated_args) {
      if (a >= node->args().size() || !node->args()[a].is_node()) continue;
      const Node* target = node->args()[a].as_node();
      if (!is_placeholder.count(target)) continue;
      if (std::find(info.mutated_user_inputs.begin(), info.mutated_user_inputs.end(), target->name()) ==
          info.mutated_user_inputs.end()) {
        info.mutated_user_inputs.push_back(target->name());
      }
    }
  }
  for (RuntimeInput& in : info.inputs) {
    in.mutated = !in.lifted && std::find(info.mutated_user_inputs.begin(), info.mutated_user_inputs.end(), in.name) !=
                                   info.mutated_user_inputs.end();
  }

  // Outputs and the inputs they alias (parse_output, f2a:461-493).
  StorageMap storages = StorageMap::Compute(compiled, registry);
  if (const Node* out = compiled.output(); out && !out->args().empty()) {
    std::vector<Argument> items;
    const Argument& first = out->args()[0];
    if (first.is_sequence()) {
      items.assign(first.items().begin(), first.items().end());
    } else {
      items.push_back(first);
    }
    for (size_t o = 0; o < items.size(); ++o) {
      FxGraphOutput output;
      if (items[o].is_node()) {
        const Node* n = items[o].as_node();
        output.node = n->name();
        if (const TensorMeta* t = n->tensor()) output.meta = *t;
        int storage = storages.Of(n);
        const Node* base = n;
        if (storage >= 0) {
          std::vector<Node*> members = storages.NodesOf(storage);
          if (!members.empty()) base = members.front();
        }
        if (base->op() == OpKind::kCallFunction && StripTorchOps(base->target()) == "operator.getitem" &&
            !base->args().empty() && base->args()[0].is_node()) {
          base = base->args()[0].as_node();
        }
        output.base = base->name();
        for (size_t i = 0; i < placeholders.size() && storage >= 0; ++i) {
          RuntimeInput& in = info.inputs[input_of_placeholder[i]];
          if (in.kind != RuntimeInput::Kind::kTensor || storages.Of(placeholders[i]) != storage) continue;
          in.aliased_by_outputs.push_back(o);
          output.aliases_input = static_cast<int64_t>(input_of_placeholder[i]);
        }
      }
      info.outputs.push_back(std::move(output));
    }
  }

  // get_updated_ops_rulers_param (ag:463-513): placeholders in an updated param.
  for (const Node* node : compiled) {
    const UpdatedOp* op = FindUpdatedOp(*node);
    if (!op || !IsOutOperator(op->target)) continue;
    bool updated = false;
    for (const Kwarg& k : node->kwargs()) {
      if (std::find(op->params.begin(), op->params.end(), k.name) == op->params.end()) continue;
      k.value.ForEachNode([&](Node* n) { updated = updated || is_placeholder.count(n); });
    }
    for (size_t i : op->indices) {
      if (i < node->args().size() && node->args()[i].is_node())
        updated = updated || is_placeholder.count(node->args()[i].as_node());
    }
    if (updated) info.updated_nodes.push_back(node->name());
  }

  // get_unupdated_sym_input_index (ag:281-348).
  std::map<std::string, size_t> all_sym_input_idx;  // f2a:431-432
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    if (info.inputs[i].kind == RuntimeInput::Kind::kSymInt) all_sym_input_idx[info.inputs[i].symbol] = i;
  }
  std::set<UnupdatedInput> index;
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const RuntimeInput& in = info.inputs[i];
    if (in.lifted) continue;  // a SymInt no node of airscope's graph uses: TorchAir skips it (no users)
    bool sym = in.kind == RuntimeInput::Kind::kSymInt || (in.kind == RuntimeInput::Kind::kTensor && HasSymbol(in.meta));
    if (!sym) continue;
    const Node* p = placeholders[in.placeholder];
    bool unupdated = false;
    for (const Node* user : p->users()) {
      if (!IsUpdatedParamOnlyUse(*user, *p)) {
        unupdated = true;
        break;
      }
    }
    if (!unupdated) continue;
    if (in.kind == RuntimeInput::Kind::kSymInt) {
      index.insert({i, true});
      continue;
    }
    for (const Dim& d : in.meta.sizes) {
      if (d.is_static()) continue;
      auto it = all_sym_input_idx.find(d.symbol());
      if (it != all_sym_input_idx.end()) {
        index.insert({it->second, true});
      } else {
        index.insert({i, false});
      }
    }
  }
  info.unupdated_sym_input_index.assign(index.begin(), index.end());
  return info;
}

}  // namespace airscope
