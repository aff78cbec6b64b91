// reinplace_inplaceable_ops_pass: TorchAir's _reinplace_inplaceable_ops_pass
// (gp:525-556) -> reinplace_with_multi_stream_check (gp:790-1355), its port of
// torch.fx.passes.reinplace (PT-ri) with a stream check. An out-of-place op
// `b = foo(a)` becomes `foo_(a)` when nothing can observe a's old value any
// more; a `*_scatter` becomes a view + copy_. It never writes into a graph
// input or a view of one (Step 1b): that is reinplace_input_mutated_ops' job.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/reinplace_stream_check.h"
#include "core/pass/reinplace_util.h"
#include "core/text.h"

namespace airscope {
namespace {

// PT-ri _VIEW_INVERSE_MAP.
std::string_view ViewInverse(const Node& node) {
  static const std::pair<std::string_view, std::string_view> kMap[] = {
      {"aten.diagonal_scatter.default", "aten.diagonal.default"},
      {"aten.select_scatter.default", "aten.select.int"},
      {"aten.slice_scatter.default", "aten.slice.Tensor"},
      {"aten.as_strided_scatter.default", "aten.as_strided.default"},
  };
  for (const auto& [scatter, view] : kMap) {
    if (IsTarget(node, scatter)) return view;
  }
  return {};
}

bool SameLayout(const Node* a, const Node* b) {
  const TensorMeta* x = TensorOf(a);
  const TensorMeta* y = TensorOf(b);
  return x && y && x->sizes == y->sizes && x->EffectiveStrides() == y->EffectiveStrides();
}

// torch._debug_has_internal_overlap(t) == 1 (MemOverlap::Yes): a dim of size
// > 1 with stride 0 (an expand). Other layouts are "too hard" (2), not 1.
// Contiguous (no strides given) is non-overlapping and dense: No (0), even
// when a size of 0 makes a contiguous stride 0 (torch's
// aten/src/ATen/MemoryOverlap.cpp, has_internal_overlap: is_non_overlapping_
// and_dense() answers No before any stride is looked at).
bool HasInternalOverlap(const TensorMeta& t) {
  if (t.strides.empty()) return false;
  const std::vector<Dim>& strides = t.strides;
  for (size_t i = 0; i < t.sizes.size() && i < strides.size(); ++i) {
    if (strides[i].is_static() && strides[i].value() == 0 && !(t.sizes[i].is_static() && t.sizes[i].value() <= 1)) {
      return true;
    }
  }
  return false;
}

std::vector<const TensorMeta*> Leaves(const Node& node) {
  std::vector<const TensorMeta*> out;
  if (const NodeMeta* meta = node.meta()) {
    if (meta->kind == ValueKind::kTensor || meta->kind == ValueKind::kTuple) {
      for (const TensorMeta& t : meta->tensors) out.push_back(&t);
    }
  }
  return out;
}

class Reinplacer {
 public:
  Reinplacer(Graph& graph, PassContext& context)
      : graph_(graph),
        registry_(RegistryOf(context)),
        schemas_(SchemasOf(context)),
        inplaceable_(InplaceableOf(context)),
        labels_(StreamLabels(graph)),
        storages_(StorageMap::Compute(graph, registry_)),
        position_(storages_.positions()),
        input_storages_(storages_.storage_count()),
        pending_(storages_.storage_count()),
        rewired_(graph) {
    for (Node* node : graph.Placeholders()) {
      if (storages_.Of(node) >= 0) input_storages_[static_cast<size_t>(storages_.Of(node))] = true;
    }
    one_stream_ = labels_.distinct_labels() <= 1;
    for (Node* node : graph) {
      int storage = storages_.Of(node);
      if (storage < 0) continue;
      for (Node* user : node->users()) {
        if (position_.Contains(user)) pending_[static_cast<size_t>(storage)].push_back({Pos(user), user});
      }
    }
    for (auto& heap : pending_) std::make_heap(heap.begin(), heap.end(), LaterFirst);
  }

  Result<bool> Run(std::vector<std::string>& remarks) {
    for (Node* node : graph_.Nodes()) {
      if (node->op() == OpKind::kCallFunction) Visit(node);
    }
    // Step 5: the scatters made redundant, once every rewrite is done.
    for (Node* scatter : to_delete_) {
      if (!scatter->users().empty()) {
        return Status::Error(
            fmt::format("reinplace: {} still has users after its inverse was reinplaced "
                        "(TorchAir would skip the pass with a warning)",
                        scatter->name()));
      }
      AIRSCOPE_RETURN_IF_ERROR(graph_.Erase(scatter));
    }
    if (reinplaced_ > 0) remarks.push_back(fmt::format("reinplaced {} op(s)", reinplaced_));
    if (scatters_ > 0) remarks.push_back(fmt::format("turned {} *_scatter op(s) into view + copy_", scatters_));
    if (into_inputs_ > 0) {
      remarks.push_back(
          fmt::format("kept {} op(s) out-of-place: they would write into a graph input or a view "
                      "of one (Step 1b; reinplace_input_mutated_ops handles inputs)",
                      into_inputs_));
    }
    if (!multi_getitems_.empty()) {
      // gp:1277-1295 replaces every later use of a reinplaced multi-inplace
      // node, its getitems included, with its first mutated argument.
      remarks.push_back(
          fmt::format("Step 4 rewrote the getitems of the reinplaced multi-inplace op(s) as TorchAir "
                      "does (every later use of the node becomes its first mutated argument, "
                      "gp:1277-1295): {}",
                      JoinAtMost(multi_getitems_, 8)));
    }
    if (cross_stream_ > 0) {
      remarks.push_back(
          fmt::format("kept {} op(s) out-of-place: the mutated tensor's users are on different "
                      "streams (ReinplaceStreamChecker)",
                      cross_stream_));
    }
    if (!unregistered_.empty()) {
      remarks.push_back(
          fmt::format("kept {} op(s) out-of-place that TorchAir would reinplace: airscope's op registry does not "
                      "know their in-place form: {}",
                      unregistered_.size(), JoinAtMost(unregistered_, 8)));
    }
    if (no_meta_ > 0) {
      remarks.push_back(
          fmt::format("skipped {} op(s) whose self or result has no tensor meta (TorchAir reads "
                      "fake tensors that airscope does not have there)",
                      no_meta_));
    }
    return reinplaced_ + scatters_ > 0;
  }

 private:
  // Every node labelled, all with one label: any set of users is on one
  // stream, so the check's answer is known without collecting them (it is
  // quadratic on a node whose users grow with each reinplace, as a residual
  // stream's do).
  bool OneStream() const { return one_stream_ && !unlabelled_nodes_; }

  size_t Pos(const Node* node) const {
    const size_t* position = position_.Find(node);
    return position ? *position : 0;
  }

  // A node that may be reinplaced: the multi-inplace op's table entry
  // (nullptr for a single-output op) and the arguments it would write.
  struct Candidate {
    const InplaceableNpuOp* multi = nullptr;
    std::vector<std::pair<size_t, Node*>> mutated;  // (argument index, its node)
  };

  void Visit(Node* node) {
    std::optional<Candidate> candidate = FindCandidate(node);
    if (!candidate) return;
    std::vector<std::vector<Node*>> inverse_usages;
    for (const auto& [index, self] : candidate->mutated) {
      std::optional<std::vector<Node*>> inverses = CheckMutated(node, self, candidate->multi);
      if (!inverses) return;
      inverse_usages.push_back(std::move(*inverses));
    }
    if (!Rewrite(node, candidate->multi, candidate->mutated[0].second)) return;
    Rewire(node, *candidate, inverse_usages);
  }

  // Identify the candidate (gp:1053-1088); one whose streams forbid it is counted.
  std::optional<Candidate> FindCandidate(Node* node) {
    Candidate c;
    c.multi = FindInplaceableNpuOp(*node, &inplaceable_);
    bool stream_ok = false;
    if (c.multi != nullptr) {
      for (size_t idx : c.multi->mutated_args) {
        if (idx >= node->args().size() || !node->args()[idx].is_node()) return std::nullopt;
        c.mutated.emplace_back(idx, node->args()[idx].as_node());
      }
      stream_ok = OneStream() || CheckMultiReinplaceStreams(*node, c.multi->mutated_args,
                                                            LeafCount(*node, &schemas_).value_or(0), labels_);
    } else if (IsOpOverloadCall(*node)) {
      // Schema arg0 must be a Tensor: airscope sees a node with one tensor value there.
      if (node->args().empty() || !node->args()[0].is_node()) return std::nullopt;
      Node* self = node->args()[0].as_node();
      if (LeafCount(*self) != std::optional<size_t>(1) && self->meta() != nullptr) return std::nullopt;
      c.mutated.emplace_back(0, self);
      stream_ok = OneStream() || CheckSingleReinplaceStreams(*node, LeafCount(*node, &schemas_).value_or(0), labels_);
    } else {
      return std::nullopt;
    }
    if (!stream_ok) {
      ++cross_stream_;
      return std::nullopt;
    }
    return c;
  }

  // Step 1a (gp:1099-1127): same numel and dtype, no internal overlap; Step
  // 1c (gp:1130-1136): self not passed twice. For single-output ops only.
  bool SelfFits(Node* node, Node* self) {
    std::vector<const TensorMeta*> self_leaves = Leaves(*self), node_leaves = Leaves(*node);
    if (self_leaves.empty() || node_leaves.empty()) {
      ++no_meta_;
      return false;
    }
    bool wrong = false;
    if (self_leaves.size() == node_leaves.size()) {
      for (size_t i = 0; i < self_leaves.size(); ++i) {
        const TensorMeta& s = *self_leaves[i];
        const TensorMeta& n = *node_leaves[i];
        // Symbolic sizes: equal numel only when the sizes are the same expressions.
        std::optional<int64_t> s_numel = s.NumElements(), n_numel = n.NumElements();
        bool same_numel = s_numel && n_numel ? *s_numel == *n_numel : s.sizes == n.sizes;
        if (!same_numel) wrong = true;
        if (s.dtype != n.dtype) wrong = true;
        if (HasInternalOverlap(s)) wrong = true;
      }
    }
    if (wrong && !IsTarget(*node, "aten.resize.default")) return false;
    size_t repeats = 0;
    for (const Argument& arg : node->args()) repeats += arg.is_node() && arg.as_node() == self;
    return repeats <= 1;
  }

  // Whether `node` may write into `self`: the scatters its write makes
  // redundant (none for a multi-inplace op), or nullopt when it may not.
  std::optional<std::vector<Node*>> CheckMutated(Node* node, Node* self, const InplaceableNpuOp* multi) {
    if (multi == nullptr && !SelfFits(node, self)) return std::nullopt;
    // Step 1b (gp:1140-1146): never a graph input's storage.
    int storage = storages_.Of(self);
    if (storage < 0) {
      ++no_meta_;
      return std::nullopt;
    }
    if (input_storages_[static_cast<size_t>(storage)]) {
      ++into_inputs_;
      return std::nullopt;
    }
    if (multi != nullptr) return std::vector<Node*>{};  // multi-inplace ops skip Step 2 (gp:1149-1153, 1176-1178)
    // Step 2 (gp:1155-1175): no later use of any alias, except matching scatters.
    std::vector<Node*> later = LaterUsages(storage, Pos(node));
    if (later.empty()) return later;  // no later use, no scatter to match (the usual case)
    bool all_scatters = std::all_of(later.begin(), later.end(), [](Node* n) { return !ViewInverse(*n).empty(); });
    if (!all_scatters) return std::nullopt;  // ViewInverseUsages could only match fewer
    std::vector<Node*> inverses = ViewInverseUsages(later, storages_.NodesOf(storage));
    if (later.size() != inverses.size()) return std::nullopt;
    return inverses;
  }

  // Step 3 (gp:1191-1231): the rewrite itself; false when the op has no
  // in-place form (nothing changed).
  bool Rewrite(Node* node, const InplaceableNpuOp* multi, Node* first_self) {
    std::string_view view_op = ViewInverse(*node);
    if (!view_op.empty() && !std::count(to_delete_.begin(), to_delete_.end(), node)) {
      // Step 3a: base_updated = foo_scatter(base, src, args...) -> foo(base, args...).copy_(src).
      std::vector<Argument> view_args = {Argument::NodeRef(first_self)};
      for (size_t i = 2; i < node->args().size(); ++i) view_args.push_back(node->args()[i]);
      Node* view =
          InsertCall(graph_, node, CallSpec(view_op, std::move(view_args), node->kwargs()), node->stream(), registry_);
      InsertCall(graph_, node, CallSpec("aten.copy_.default", {Argument::NodeRef(view), node->args()[1]}),
                 node->stream(), registry_);
      // Like TorchAir's create_node, the new view and copy_ carry no stream
      // label, so a later check that sees them among the users fails.
      unlabelled_nodes_ = true;
      to_delete_.push_back(node);
      ++scatters_;
    } else if (multi != nullptr) {
      Retarget(graph_, node, multi->inplace, registry_);
      ++reinplaced_;
    } else {
      // Step 3b: PT-ri _maybe_get_inplace_op.
      InplaceLookup inplace = MaybeInplaceOp(*node, registry_);
      if (inplace.target.empty()) return false;
      if (!inplace.registered) {
        unregistered_.push_back(fmt::format("{} ({})", node->name(), inplace.target));
        return false;
      }
      Retarget(graph_, node, inplace.target, registry_);
      ++reinplaced_;
    }
    return true;
  }

  // Step 4 (gp:1239-1346): merge storages, later uses of b (and of the
  // scatters made redundant) read a.
  void Rewire(Node* node, const Candidate& c, const std::vector<std::vector<Node*>>& inverse_usages) {
    for (size_t k = 0; k < c.mutated.size(); ++k) {
      Node* self = c.mutated[k].second;
      MergeStorages(node, self);
      if (k >= inverse_usages.size()) continue;
      for (Node* scatter : inverse_usages[k]) {
        if (!std::count(to_delete_.begin(), to_delete_.end(), scatter)) to_delete_.push_back(scatter);
      }
      std::vector<Node*> olds = {node};
      olds.insert(olds.end(), inverse_usages[k].begin(), inverse_usages[k].end());
      for (Node* old : olds) {
        std::vector<Node*> users(old->users().begin(), old->users().end());
        for (Node* user : users) {
          if (!position_.Contains(user) || Pos(user) <= Pos(node)) continue;
          bool view_of_old = storages_.Of(user) >= 0 && storages_.Of(user) == storages_.Of(old);
          if (c.multi != nullptr && old == node && IsTarget(*user, "operator.getitem")) {
            multi_getitems_.push_back(fmt::format("{} now indexes {}", user->name(), self->name()));
          }
          graph_.ReplaceInput(user, old, self);
          rewired_[user] = true;
          // A user of a scatter made redundant now reads self's storage.
          if (int storage = storages_.Of(self); storage >= 0) PushPending(storage, user);
          if (view_of_old) MergeStorages(user, self);
        }
      }
    }
  }

  // PT-ri _get_all_later_node_usages: users after `at` of any alias, except
  // the aliases themselves (views, getitems, in-place ops on the storage).
  // PT-ri walks every alias's users per candidate; a chain of in-place ops
  // grows one storage to the whole chain, so that is quadratic. Here each
  // storage keeps its members' users in a min-heap by position, and since
  // candidates are visited in graph order (`at` never decreases: Nodes() is
  // a snapshot, so inserted nodes are not visited), a user at or before
  // `at` is popped for good. What stays is exactly the later users.
  std::vector<Node*> LaterUsages(int storage, size_t at) {
    std::vector<std::pair<size_t, Node*>>& heap = pending_[static_cast<size_t>(storage)];
    while (!heap.empty() && heap.front().first <= at) {
      std::pop_heap(heap.begin(), heap.end(), LaterFirst);
      heap.pop_back();
    }
    std::vector<std::pair<size_t, Node*>> found;
    for (const auto& [position, user] : heap) {
      if (user->erased()) continue;
      if (rewired_.Contains(user) && !ReadsStorage(*user, storage)) continue;  // Step 4 moved its edge away
      if (storages_.Of(user) == storage && (IsOpOverloadCall(*user) || IsTarget(*user, "operator.getitem"))) continue;
      found.emplace_back(position, user);
    }
    // One position is one node, so sorting by position puts repeats side by side.
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Node*> out;
    for (const auto& [position, user] : found) {
      if (out.empty() || out.back() != user) out.push_back(user);
    }
    return out;
  }

  bool ReadsStorage(const Node& user, int storage) const {
    for (const Node* input : user.inputs()) {
      if (storages_.Of(input) == storage) return true;
    }
    return false;
  }

  void PushPending(int storage, Node* user) {
    if (!position_.Contains(user)) return;
    std::vector<std::pair<size_t, Node*>>& heap = pending_[static_cast<size_t>(storage)];
    heap.emplace_back(Pos(user), user);
    std::push_heap(heap.begin(), heap.end(), LaterFirst);
  }

  // StorageMap::Merge plus the union of the two storages' pending users
  // (the smaller heap pushed into the larger).
  void MergeStorages(const Node* from_node, const Node* into_node) {
    int from = storages_.Of(from_node), into = storages_.Of(into_node);
    if (from < 0 || into < 0 || from == into) return;
    storages_.Merge(from, into);
    std::vector<std::pair<size_t, Node*>> a = std::exchange(pending_[static_cast<size_t>(from)], {});
    std::vector<std::pair<size_t, Node*>> b = std::exchange(pending_[static_cast<size_t>(into)], {});
    if (a.size() > b.size()) std::swap(a, b);
    for (const auto& entry : a) {
      b.push_back(entry);
      std::push_heap(b.begin(), b.end(), LaterFirst);
    }
    pending_[static_cast<size_t>(storages_.Of(into_node))] = std::move(b);
  }

  // Heap order for std::*_heap (a max-heap on this comparison): the earliest position on top.
  static bool LaterFirst(const std::pair<size_t, Node*>& a, const std::pair<size_t, Node*>& b) {
    return a.first > b.first;
  }

  // PT-ri _get_view_inverse_node_usages: a later `foo_scatter(base, x, args)`
  // undoes an alias `foo(alias_base, args)` when alias_base and base have the
  // same layout. PT-ri replays foo on fake tensors and compares layouts;
  // airscope compares foo's arguments instead (same args -> same view).
  std::vector<Node*> ViewInverseUsages(const std::vector<Node*>& later, const std::vector<Node*>& aliases) const {
    std::vector<Node*> out;
    for (Node* scatter : later) {
      std::string_view view_op = ViewInverse(*scatter);
      if (view_op.empty() || scatter->args().size() < 2 || !scatter->args()[0].is_node()) continue;
      Node* base = scatter->args()[0].as_node();
      for (Node* alias : aliases) {
        Node* alias_base = storages_.ViewOf(alias);
        if (alias_base == nullptr || !IsTarget(*alias, view_op)) continue;
        std::span<const Argument> scatter_args = std::span(scatter->args()).subspan(2);
        std::span<const Argument> view_args = std::span(alias->args()).subspan(1);
        if (SameLayout(alias_base, base) && SameArgs(view_args, scatter_args) &&
            SameKwargs(alias->kwargs(), scatter->kwargs())) {
          out.push_back(scatter);
          break;
        }
      }
    }
    return out;
  }

  Graph& graph_;
  const OpRegistry& registry_;
  const OpSchemaTable& schemas_;
  const InplaceableNpuOps& inplaceable_;
  StreamLabelMap labels_;
  bool one_stream_ = false;        // every node at the start has the same label
  bool unlabelled_nodes_ = false;  // Step 3a has added nodes without a label
  StorageMap storages_;
  const NodeSlotMap<size_t>& position_;                         // storages_' positions
  std::vector<bool> input_storages_;                            // by storage: a placeholder's
  std::vector<std::vector<std::pair<size_t, Node*>>> pending_;  // by storage: its later users, a heap
  NodeSlotMap<bool> rewired_;                                   // users whose inputs Step 4 replaced
  std::vector<Node*> to_delete_;
  std::vector<std::string> multi_getitems_;  // "getitem now indexes empty_like"
  std::vector<std::string> unregistered_;    // "floor (aten.floor_.default)": in-place form unknown to the registry
  int reinplaced_ = 0, scatters_ = 0, into_inputs_ = 0, cross_stream_ = 0, no_meta_ = 0;
};

Result<bool> RunReinplaceInplaceableOps(Graph& graph, PassContext& context) {
  if (context.config.disable_reinplace_inplaceable_ops_pass) {
    context.remarks.push_back("skipped: " +
                              SwitchedOff(context.config, &TorchAirConfig::disable_reinplace_inplaceable_ops_pass));
    return false;
  }
  return Reinplacer(graph, context).Run(context.remarks);
}

}  // namespace

PassInfo ReinplaceInplaceableOpsPass() {
  return {
      "reinplace_inplaceable_ops_pass",
      "out-of-place ops on dead intermediates become in-place (never into graph inputs)",
      "TorchAir's _reinplace_inplaceable_ops_pass (graph_pass.py:525-556), which runs "
      "reinplace_with_multi_stream_check (graph_pass.py:790-1355), a port of torch.fx.passes.reinplace. "
      "Candidates: the NPU multi-inplace ops (npu_kv_rmsnorm_rope_cache_v2/npu_mla_prolog_v3/"
      "npu_add_rms_norm_v2 _functional, gp:132-170, and the session's `op inplaceable` entries) and op calls "
      "whose first argument is a tensor; each must "
      "pass the ReinplaceStreamChecker (the mutated tensor's users on one stream; labels from "
      "air.scope_enter's _user_stream_label, graph_utils.py:18-85). Step 1a: self and result have the same "
      "numel and dtype and self no internal overlap (aten.resize exempt); 1c: self is not passed twice; "
      "1b: self's storage is never a placeholder's, so no graph input or view of one is ever written here "
      "(reinplace_input_mutated_ops does that). Step 2 (single ops only): no later use of any alias of "
      "self's storage (output and copy_ count as uses) except *_scatter ops that invert one of the aliases. "
      "Step 3a: slice/select/diagonal/as_strided_scatter(base, src, args) becomes view(base, args) + "
      "copy_(view, src), both without a stream label, as TorchAir's create_node leaves them, so a later stream check "
      "that meets them among the users fails; 3b: foo becomes the overload of foo_ with foo's argument types "
      "(PT-ri _maybe_get_inplace_op: gelu -> gelu_, masked_fill.Scalar -> masked_fill_.Scalar, pow.Tensor_Scalar "
      "-> pow_.Scalar; none for view ops, nor where aten has no such overload: rsub, maximum, where, mm, clone, "
      "sum, pow.Scalar), and an op whose result has another dtype than self (eq on a float self gives bool) "
      "stays out-of-place by Step 1a; the multi-inplace ops become their in-place op. Step 4: "
      "later uses "
      "of the result read self; for a multi-inplace op that includes its getitems, which then index its first "
      "mutated argument (gp:1277-1295; a note names them, and the effect check refuses the stage when an "
      "output changes). Switch: config.debug.aclgraph.disable_reinplace_inplaceable_ops_pass. "
      "airscope simplifies: storages come from the graph (views, in-place ops and out= share their "
      "input's storage; placeholders and other tensor results own one) instead of fake execution, and a "
      "node without tensor meta is skipped; which in-place overload an aten or torch_npu op has is a table "
      "worked out from native_functions.yaml and op-plugin's yaml (core/ops/inplace_variants.cc), and an op "
      "whose in-place form the op registry does not know stays out-of-place with a note; a session's custom "
      "op needs `ns.foo_` of the same overload name registered in-place; a scatter inverts an alias when the view op's "
      "arguments are the same "
      "(torch replays the view and compares layouts); storage offsets are not modelled; a scatter that "
      "still has users at the end is an error (TorchAir: a warning and the half-rewritten graph).",
      PassKind::kPipeline,
      RunReinplaceInplaceableOps,
      {"reinplace"},
      EffectPolicy::kPreserveValues,
      PassOrigin::kTorchAir};
}

}  // namespace airscope
