// reinplace_input_mutated_ops: TorchAir's _reinplace_input_mutated_ops
// (gp:559-576) -> _mutated_input_reinplace (gp:187-522), its port of
// Inductor's input-mutation reinplace. Where AOT wrote `b = foo(x); ...;
// copy_(x, b)` for a graph input x, foo writes into x directly (foo_) when no
// alias of x is read between foo and that first copy_; the copy_ goes when
// its dst is foo's args[0]. For auto_functionalized_v2 it decides which
// bases decompose_auto_functionalized must still clone.
#include <algorithm>
#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/reinplace_stream_check.h"
#include "core/pass/reinplace_util.h"

namespace airscope {
namespace {

bool IsInput(const Node& node) { return node.op() == OpKind::kPlaceholder || node.op() == OpKind::kGetAttr; }

// au META_ONLY_OPS (gp uses them in is_meta_only_user).
bool IsMetaOnlyOp(const Node& node) {
  return IsTarget(node, "aten.sym_size.int") || IsTarget(node, "aten.sym_stride.int") ||
         IsTarget(node, "aten.sym_numel.default") || IsTarget(node, "aten.sym_storage_offset.default");
}

class InputReinplacer {
 public:
  InputReinplacer(Graph& graph, PassContext& context)
      : graph_(graph),
        registry_(RegistryOf(context)),
        schemas_(SchemasOf(context)),
        inplaceable_(InplaceableOf(context)),
        labels_(StreamLabels(graph)),
        storages_(StorageMap::Compute(graph, registry_)),
        order_(storages_.positions()) {
    // gp:213-228: copy_ epilogues into inputs; copy_nodes[dst] = the first one.
    std::vector<Node*> nodes = graph.Nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      Node* node = *it;
      Node* dst = PositionalNodeArg(*node, 0);
      Node* src = PositionalNodeArg(*node, 1);
      if (!IsTarget(*node, "aten.copy_.default") || dst == nullptr || src == nullptr || !IsInput(*dst)) continue;
      if (IsTarget(*src, "operator.getitem") && PositionalNodeArg(*src, 0) &&
          FindInplaceableNpuOp(*PositionalNodeArg(*src, 0), &inplaceable_)) {
        src = PositionalNodeArg(*src, 0);
      }
      copy_by_args_[{dst, src}] = node;
      copy_nodes_[dst] = node;
      targets_.insert(node->args()[1].as_node());
    }
  }

  Result<bool> Run(std::vector<std::string>& remarks) {
    for (Node* node : graph_.Nodes()) {
      Visit(node, remarks);
      if (!error_.ok()) return error_;
    }
    // gp:517-522: erase the copy_s (and getitems) made redundant.
    size_t copies = std::count_if(replace_order_.begin(), replace_order_.end(),
                                  [](const auto& entry) { return IsTarget(*entry.first, "aten.copy_.default"); });
    size_t getitems = replace_order_.size() - copies;
    for (auto& [node, replacement] : replace_order_) {
      Node* to = replacement;
      while (replace_.count(to)) to = replace_.at(to);
      replace_[node] = to;
      graph_.ReplaceAllUsesWith(node, to);
      AIRSCOPE_RETURN_IF_ERROR(graph_.Erase(node));
    }
    if (reinplaced_ > 0) {
      remarks.push_back(fmt::format("reinplaced {} op(s) into graph inputs; removed {} copy_ epilogue(s){}",
                                    reinplaced_, copies, getitems ? fmt::format(" and {} getitem(s)", getitems) : ""));
    }
    ReportCounters(remarks);
    return reinplaced_ > 0 || annotated_ > 0 || !replace_order_.empty();
  }

 private:
  size_t Order(const Node* node) const { return order_.At(node); }

  void Replace(Node* node, Node* replacement) {
    if (replace_.emplace(node, replacement).second) {
      replace_order_.emplace_back(node, replacement);
    } else {
      replace_[node] = replacement;
      for (auto& entry : replace_order_) {
        if (entry.first == node) entry.second = replacement;
      }
    }
  }

  bool IsMetaOnlyUser(const Node& user) const {
    if (IsViewOp(user, registry_)) {
      for (const Node* u : user.users()) {
        if (!IsMetaOnlyUser(*u)) return false;
      }
      return true;  // a view nobody reads (all([]) in Python)
    }
    return IsMetaOnlyOp(user);
  }

  // gp:232-265.
  bool AnyUseOfViewsAfterNode(const Node& node, const std::vector<Node*>& shared, const Node* copy,
                              const Node* mutated) const {
    size_t at = Order(&node);
    for (const Node* view : shared) {
      for (const Node* user : view->users()) {
        if (!order_.Contains(user)) continue;
        size_t loc = Order(user);
        if (loc <= at) continue;
        if (copy != nullptr && Order(copy) <= loc) continue;
        if (IsMetaOnlyUser(*user)) continue;
        if (IsTarget(*user, "aten.copy_.default") && PositionalNodeArg(*user, 0) == mutated) continue;
        return true;
      }
    }
    return false;
  }

  // gp:267-325. Every node sharing the storage is taken to overlap the mutated
  // one (TorchAir without compute_overlapping_tensors, torch < 2.6).
  bool CanInplace(const Node& node, Node* mutated) const {
    int storage = storages_.Of(mutated);
    if (storage < 0) return false;
    std::vector<Node*> shared = storages_.NodesOf(storage);
    if (IsInput(*mutated)) {
      auto copy = copy_nodes_.find(mutated);
      if (copy == copy_nodes_.end()) return false;  // no copy_ back: the caller never sees a mutation
      return !AnyUseOfViewsAfterNode(node, shared, copy->second, mutated);
    }
    for (const Node* view : shared) {
      if (IsInput(*view)) return false;  // a view of a graph input (gp:314-321)
    }
    return !AnyUseOfViewsAfterNode(node, shared, nullptr, mutated);
  }

  bool CanInplaceAll(const Node& node, const std::vector<Node*>& mutated) const {
    std::set<int> storages;
    for (Node* m : mutated) storages.insert(storages_.Of(m));
    if (storages.size() != mutated.size()) return false;  // two mutated args alias
    for (Node* m : mutated) {
      if (!CanInplace(node, m)) return false;
    }
    return true;
  }

  void Visit(Node* node, std::vector<std::string>& remarks) {
    if (const InplaceableNpuOp* multi = FindInplaceableNpuOp(*node, &inplaceable_)) {
      // gp:448-466, with TorchAir's debug lines as remarks.
      std::vector<Node*> mutated;
      for (size_t idx : multi->mutated_args) {
        Node* arg = PositionalNodeArg(*node, idx);
        if (arg == nullptr || !copy_by_args_.count({arg, node})) {
          remarks.push_back(fmt::format("{}: reinplace failed, all mutated args(get_item) must have copy epilogues: {}",
                                        node->name(), CallTarget(*node)));
          return;
        }
        mutated.push_back(arg);
      }
      if (!CanInplaceAll(*node, mutated) ||
          !CheckMultiReinplaceStreams(*node, multi->mutated_args, LeafCount(*node, &schemas_).value_or(0), labels_)) {
        remarks.push_back(fmt::format("{}: can_inplace return False, will skip reinplacing for node: {}", node->name(),
                                      CallTarget(*node)));
        return;
      }
      for (Node* arg : mutated) {
        Node* copy = copy_by_args_.at({arg, node});
        Replace(copy, arg);
        if (IsTarget(*copy->args()[1].as_node(), "operator.getitem")) Replace(copy->args()[1].as_node(), arg);
      }
      Retarget(graph_, node, multi->inplace, registry_);
      ++reinplaced_;
    } else if (targets_.count(node) && !IsInput(*node)) {
      // gp:467-480.
      Node* mutated = PositionalNodeArg(*node, 0);
      // One whose in-place form the registry lacks stays: airscope cannot run it.
      InplaceLookup inplace = MaybeInplaceOp(*node, registry_);
      if (mutated == nullptr || !inplace.registered) return;
      if (!CanInplace(*node, mutated) ||
          !CheckSingleReinplaceStreams(*node, LeafCount(*node, &schemas_).value_or(0), labels_)) {
        return;
      }
      auto copy = copy_by_args_.find({mutated, node});
      if (copy != copy_by_args_.end()) Replace(copy->second, mutated);
      Retarget(graph_, node, inplace.target, registry_);
      ++reinplaced_;
    } else if (IsTarget(*node, "higher_order.auto_functionalized_v2")) {
      VisitAutoFunctionalizedV2(node, remarks);
    } else if (IsTarget(*node, "higher_order.auto_functionalized")) {
      VisitAutoFunctionalized(node, remarks);
    }
  }

  // A mutated argument of an auto_functionalized node: one tensor, or the
  // tensors of a Tensor[] argument (v1 only).
  struct Mutated {
    std::vector<Node*> nodes;
    bool is_list = false;
  };

  // torch's ReInplaceTrigger (torch/_dynamo/utils.py).
  enum class Trigger { kAutoFuncV1, kAutoFuncV2 };

  // gp:495-510: each base of _all_bases.
  void VisitAutoFunctionalizedV2(Node* node, std::vector<std::string>& remarks) {
    const Argument* bases = node->kwarg("_all_bases");
    if (bases == nullptr || !bases->is_sequence()) return;
    std::vector<std::string> keys;
    std::vector<Mutated> args;
    for (size_t i = 0; i < bases->items().size(); ++i) {
      const Argument& item = bases->items()[i];
      keys.push_back(std::to_string(i));
      args.push_back(Mutated{item.is_node() ? std::vector<Node*>{item.as_node()} : std::vector<Node*>{}, false});
    }
    // TorchAir passes range(len(_all_bases)) and node.target, whose str() is
    // the HOP's name (gp:501-506); the log prints them as Python does.
    std::string attempted = fmt::format("range(0, {})", keys.size());
    std::vector<size_t> to_clone =
        ReinplaceAndRefine(*node, attempted, keys, args, "auto_functionalized_v2", Trigger::kAutoFuncV2, remarks);
    if (!error_.ok()) return;
    SetOnlyClone(node, std::vector<int64_t>(to_clone.begin(), to_clone.end()));
  }

  // gp:511-526: the op's mutable arguments by name (get_mutable_args, from
  // its schema), those given as None left out.
  void VisitAutoFunctionalized(Node* node, std::vector<std::string>& remarks) {
    const OpSchema* schema = MutableOpSchema(*node);
    if (schema == nullptr) {
      remarks.push_back(
          fmt::format("left {} alone: auto_functionalized (v1) needs the mutable op's schema "
                      "(get_mutable_args); give it with `op define`",
                      node->name()));
      return;
    }
    std::vector<std::string> names = schema->MutableArgNames();
    std::vector<std::string> keys;
    std::vector<Mutated> args;
    std::vector<int64_t> key_index;  // position in `names`
    for (size_t i = 0; i < names.size(); ++i) {
      const Argument* value = node->kwarg(names[i]);
      if (value == nullptr) {
        // TorchAir reads node.kwargs[name] (KeyError for a missing one, gp:523).
        remarks.push_back(
            fmt::format("left {} alone: its mutable argument '{}' is not among its kwargs", node->name(), names[i]));
        return;
      }
      if (value->is_none()) continue;
      Mutated m;
      if (value->is_sequence()) {
        m.is_list = true;
        for (const Argument& item : value->items()) {
          if (item.is_node()) m.nodes.push_back(item.as_node());
        }
      } else if (value->is_node()) {
        m.nodes.push_back(value->as_node());
      }
      keys.push_back(fmt::format("'{}'", names[i]));
      args.push_back(std::move(m));
      key_index.push_back(static_cast<int64_t>(i));
    }
    std::string attempted = fmt::format("[{}]", fmt::join(keys, ", "));
    std::vector<size_t> to_clone =
        ReinplaceAndRefine(*node, attempted, keys, args, schema->QualifiedName(), Trigger::kAutoFuncV1, remarks);
    if (!error_.ok()) return;
    std::vector<int64_t> indices;
    for (size_t k : to_clone) indices.push_back(key_index[k]);
    SetOnlyClone(node, std::move(indices));
  }

  // The schema of an auto_functionalized node's mutable op (args[0]).
  const OpSchema* MutableOpSchema(const Node& node) const {
    if (node.args().empty()) return nullptr;
    const Argument& op = node.args()[0];
    if (op.kind() != Argument::Kind::kRaw && op.kind() != Argument::Kind::kString) return nullptr;
    return schemas_.Find(op.as_string());
  }

  // reinplace_and_refine_tensors_to_clone (gp:378-444): which of `args`
  // (named `keys` in the log; `attempted` is how the log prints them all)
  // must still be cloned. Also counts the missed
  // opportunities as torch's ReinplaceCounters does (log_inplace_results,
  // gp:327-370).
  std::vector<size_t> ReinplaceAndRefine(const Node& node, std::string_view attempted,
                                         const std::vector<std::string>& keys, const std::vector<Mutated>& args,
                                         std::string_view node_label, Trigger trigger,
                                         std::vector<std::string>& remarks) {
    std::vector<size_t> to_clone;
    std::vector<std::string> clone_keys, missed_keys;
    int64_t missed_bytes = 0;
    std::set<int> reinplaced_storages;
    for (size_t i = 0; i < args.size(); ++i) {
      const Mutated& arg = args[i];
      bool same_storage_done = false;
      for (Node* n : arg.nodes) same_storage_done |= reinplaced_storages.count(storages_.Of(n)) > 0;
      bool attempt = !arg.nodes.empty() && !same_storage_done;
      bool reinplace = attempt && CanInplaceMutated(node, arg);
      if (reinplace) {
        Result<bool> agree = StreamsAgree(node, arg, keys[i]);
        if (!agree.ok()) {
          error_ = agree.status();
          return {};
        }
        reinplace = *agree;
      }
      if (reinplace) {
        // v1/v2 keep their copy_ epilogues and getitems: a copy_'s source is a
        // getitem, not the node (gp:405-414 finds nothing to replace).
        for (Node* n : arg.nodes) reinplaced_storages.insert(storages_.Of(n));
        continue;
      }
      if (attempt) {
        missed_keys.push_back(keys[i]);
        // node_bytes (gp:333-343): element size * numel of a static shape, else 0.
        for (Node* n : arg.nodes) {
          const TensorMeta* t = TensorOf(n);
          if (std::optional<int64_t> bytes = t ? t->NumBytes() : std::nullopt) missed_bytes += *bytes;
        }
      }
      to_clone.push_back(i);
      clone_keys.push_back(keys[i]);
    }
    // gp:356-366's INFO line, word for word.
    remarks.push_back(fmt::format(
        "For node {}, attempted to reinplace {}. We were unable to reinplace [{}]; [{}] (if non-empty) are "
        "possible missed reinplacing opportunities that may be bad for memory usage and performance. Total size "
        "of missed opportunities with static shapes is : {} bytes.",
        node_label, attempted, fmt::join(clone_keys, ", "), fmt::join(missed_keys, ", "), missed_bytes));
    // ReinplaceCounters.add_missed_opportunities / add_missed_bytes (gp:368-369).
    Counters& counters = trigger == Trigger::kAutoFuncV1 ? v1_ : v2_;
    counters.tensors += static_cast<int64_t>(missed_keys.size());
    counters.bytes += missed_bytes;
    counted_ = true;
    return to_clone;
  }

  // can_inplace for one tensor or a list (gp:281-288: the list's tensors must
  // have distinct storages and each be reinplaceable).
  bool CanInplaceMutated(const Node& node, const Mutated& arg) const {
    if (!arg.is_list) return CanInplace(node, arg.nodes[0]);
    return CanInplaceAll(node, arg.nodes);
  }

  // check_multi_stream_for_auto_functionalize (au:393-397). A Tensor[]
  // argument reaches it as a list, which its multi-index branch compares
  // with ints (utils.py:324): TorchAir raises TypeError there, so does
  // airscope (the pass fails; TorchAir's compile fails).
  Result<bool> StreamsAgree(const Node& node, const Mutated& arg, std::string_view key) const {
    if (arg.is_list) {
      return Status::Errorf(
          "TypeError: '>=' not supported between instances of 'Node' and 'int': TorchAir hands {}'s Tensor[] "
          "argument {} to check_multi_stream_for_auto_functionalize as a list, whose users it collects as if they "
          "were arg indices (utils.py:319-324)",
          node.name(), key);
    }
    return CheckAutoFunctionalizeStreams(*arg.nodes[0], labels_);
  }

  void SetOnlyClone(Node* node, std::vector<int64_t> to_clone) {
    NodeMeta meta;
    if (node->meta() != nullptr) {
      meta = *node->meta();
    } else {
      meta.kind = ValueKind::kTuple;  // a tuple of unknown elements: prints no annotation
      meta.source = MetaSource::kInferred;
    }
    if (!(meta.only_clone_these_tensors && *meta.only_clone_these_tensors == to_clone)) {
      meta.only_clone_these_tensors = std::move(to_clone);
      node->set_meta(std::move(meta));
      ++annotated_;
    }
  }

  // torch._dynamo.utils.ReinplaceCounters as this pass leaves them (torch
  // keeps them process-wide; TorchAir's tests clear them first).
  void ReportCounters(std::vector<std::string>& remarks) const {
    if (!counted_) return;
    remarks.push_back(fmt::format(
        "ReinplaceCounters: get_total_missed() = {}, get_total_missed_bytes() = {} (AUTO_FUNC_V1: {} tensor(s), {} "
        "bytes; AUTO_FUNC_V2: {} tensor(s), {} bytes)",
        v1_.tensors + v2_.tensors, v1_.bytes + v2_.bytes, v1_.tensors, v1_.bytes, v2_.tensors, v2_.bytes));
  }

  Status error_;  // set by a visit that fails as TorchAir does; Run returns it

  struct Counters {
    int64_t tensors = 0;
    int64_t bytes = 0;
  };
  Counters v1_, v2_;
  bool counted_ = false;

  Graph& graph_;
  const OpRegistry& registry_;
  const OpSchemaTable& schemas_;
  const InplaceableNpuOps& inplaceable_;
  StreamLabelMap labels_;
  StorageMap storages_;
  const NodeSlotMap<size_t>& order_;  // storages_' positions
  std::map<std::pair<const Node*, const Node*>, Node*> copy_by_args_;
  std::unordered_map<const Node*, Node*> copy_nodes_;
  std::set<const Node*> targets_;
  std::unordered_map<Node*, Node*> replace_;
  std::vector<std::pair<Node*, Node*>> replace_order_;
  int reinplaced_ = 0, annotated_ = 0;
};

Result<bool> RunReinplaceInputMutatedOps(Graph& graph, PassContext& context) {
  if (context.config.disable_reinplace_input_mutated_ops_pass) {
    context.remarks.push_back("skipped: " +
                              SwitchedOff(context.config, &TorchAirConfig::disable_reinplace_input_mutated_ops_pass));
    return false;
  }
  return InputReinplacer(graph, context).Run(context.remarks);
}

}  // namespace

PassInfo ReinplaceInputMutatedOpsPass() {
  return {"reinplace_input_mutated_ops",
          "ops whose result AOT copies back into a graph input write into that input directly",
          "TorchAir's _reinplace_input_mutated_ops (graph_pass.py:559-576) -> _mutated_input_reinplace "
          "(graph_pass.py:187-522), a port of Inductor's input-mutation reinplace. Epilogues are copy_(dst, src) "
          "with dst a placeholder or get_attr (the first such copy_ per dst counts). A node that is the src of "
          "one becomes foo_ when foo_ exists, the ReinplaceStreamChecker agrees, and can_inplace(node, args[0]) "
          "holds: for a graph input, a copy_ epilogue into it exists and no alias of it is used after the node "
          "and before that first copy_ (ignoring sym_size/sym_stride/sym_numel/sym_storage_offset users, views "
          "only they read, and copy_ into it); for a view of a graph input never; otherwise no later use of an "
          "alias. The copy_ is then removed only if its dst is args[0]. NPU multi-inplace ops need a copy_ for "
          "every mutated arg; their copy_s and getitems go. auto_functionalized_v2 (each base of _all_bases) and "
          "auto_functionalized (v1: each mutable argument of the op, by its schema, which `op define` gives): "
          "reinplaced unless it shares storage with one already reinplaced or can_inplace/the stream check "
          "fail (a Tensor[] argument needs distinct storages; one that passes can_inplace reaches the stream "
          "check as a list, where TorchAir raises TypeError comparing a Node with an int, utils.py:324, and so "
          "does the pass); the rest are recorded on the node as "
          "only_clone_these_tensors (airscope keeps it in the node's meta; `show` does not print it) for "
          "decompose_auto_functionalized. Notes: TorchAir's INFO line per node (log_inplace_results, "
          "graph_pass.py:327-370) word for word, and torch's ReinplaceCounters as this pass leaves them "
          "(get_total_missed, get_total_missed_bytes: missed tensors and their bytes, static shapes only). "
          "Switch: config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass "
          "(also skips decompose_auto_functionalized). airscope simplifies: storages come from the graph (see "
          "reinplace_inplaceable_ops_pass) and every node on a storage is taken to overlap the mutated tensor "
          "(TorchAir's behaviour without compute_overlapping_tensors, torch < 2.6); a v1 node whose op has no "
          "schema is left alone; the counters start at 0 for each run of the pass (torch's are process-wide); "
          "the in-place variant must be registered in the op registry under the same overload name.",
          PassKind::kPipeline,
          RunReinplaceInputMutatedOps,
          {},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope
