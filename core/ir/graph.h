// Graph: an ordered list of Nodes with torch.fx's invariants.
//
// Ownership: the Graph owns its nodes; Node* stay valid until the node is
// erased or the graph destroyed. Invariants kept by every mutating method:
//   - node names are unique, legal Python identifiers;
//   - `users` of every node match the node references in all args/kwargs;
//   - Erase() refuses a node that still has users.
// Topological order is not enforced while editing (FX doesn't either);
// Lint() checks it, together with the rest, and names what is wrong.
//
// Names: nodes created by passes get names derived from a hint the way
// torch.fx's _Namespace does (`add`, `add_1`, `add_2`, ...), so output is
// deterministic. Loaders use AppendNamed(), which keeps the file's name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/name_table.h"
#include "core/large_buffer.h"
#include "core/ir/node.h"
#include "core/status.h"

namespace airscope {

// What a new node is made of (everything but its place and final name).
struct NodeSpec {
  OpKind op = OpKind::kCallFunction;
  std::string target;
  std::vector<Argument> args;
  std::vector<Kwarg> kwargs;
  std::string name;  // Create*: a hint; AppendNamed: the exact name
};

// How the graph was spelled where it came from, so printers can reproduce it.
struct GraphStyle {
  bool legacy_users = false;                 // FX text `[#users=N]` (torch 1.x) vs `[num_users=N]`
  std::string module_class = "GraphModule";  // readable code's `class X(torch.nn.Module):`
  bool subscript_getitem = false;            // readable code wrote `x[0]` (torch >= 2.4), not operator.getitem(x, 0)
  // Nested submodule classes printed after forward (higher-order ops' subgraphs,
  // e.g. flex_attention's score_mod), kept verbatim so the code prints back whole.
  std::string submodules;
  bool operator==(const GraphStyle&) const = default;
};

class Graph {
 public:
  Graph();
  explicit Graph(std::string name);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) noexcept;
  Graph& operator=(Graph&&) noexcept;

  // A deep copy: same names, targets, args (re-pointed at the copy's nodes), meta, streams.
  std::unique_ptr<Graph> Clone() const;

  const std::string& name() const { return name_; }
  void set_name(std::string name) {
    name_ = std::move(name);
    Touch();
  }
  const GraphStyle& style() const { return style_; }
  GraphStyle& mutable_style() {
    Touch();
    return style_;
  }

  // Bumped by every mutation (nodes, args, streams, names, meta, style; a move
  // assignment too). Equal versions of one Graph object mean it was not
  // touched in between, which lets the pipeline skip copying, comparing and
  // linting after a pass that did nothing. A bump does not promise a change
  // (SetArgs with the same args bumps); compare with SameGraph for that.
  uint64_t version() const { return version_; }

  // ---- reading
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Node* front() const { return head_; }
  Node* back() const { return tail_; }
  Node* Find(std::string_view name) const;
  // Hint: `name` is about to be found or appended (see NodeNameTable::Prefetch).
  void PrefetchName(std::string_view name) const;
  Node* output() const;                     // the (last) output node, or nullptr
  std::vector<Node*> Placeholders() const;  // in order
  // A node's 0-based position in the list; O(1) between mutations (the
  // positions are renumbered once after a mutation).
  uint32_t PositionOf(const Node* node) const {
    Renumber();
    return node->order_;
  }
  std::vector<Node*> Nodes() const;  // a snapshot, safe to mutate while walking
  // A node's slot: a dense number that never changes while the graph lives
  // (unlike PositionOf), below slot_count(), never reused after an erase; a
  // new node takes the next. A load or a clone makes nodes in list order, so
  // their slots are their positions until the first insertion. For side
  // tables indexed by node (NodeSlotMap). kNoSlot for a node this graph did
  // not make (erased ones it made keep theirs). O(log blocks), no cache of
  // its own: safe to call from concurrent readers.
  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  uint32_t SlotOf(const Node* node) const;
  uint32_t slot_count() const { return slot_count_; }

  class Iterator {
   public:
    explicit Iterator(Node* node) : node_(node) {}
    Node* operator*() const { return node_; }
    Iterator& operator++() {
      node_ = node_->next();
      return *this;
    }
    bool operator==(const Iterator& other) const = default;

   private:
    Node* node_;
  };
  Iterator begin() const { return Iterator(head_); }
  Iterator end() const { return Iterator(nullptr); }

  // ---- building
  // Makes room in the name index for `count` nodes in all (a loader that
  // knows roughly how many are coming saves the rehashes on the way).
  void ReserveNodes(size_t count);
  // Appends a node that keeps `spec.name` verbatim. Fails if the name is
  // taken or not a legal identifier; the graph is unchanged then.
  Result<Node*> AppendNamed(NodeSpec spec);
  // Create a node with a fresh name derived from spec.name (or the target).
  Node* Append(NodeSpec spec);
  Node* InsertBefore(Node* position, NodeSpec spec);
  Node* InsertAfter(Node* position, NodeSpec spec);

  // ---- editing (users are kept consistent)
  void SetArgs(Node* node, std::vector<Argument> args);
  void SetKwargs(Node* node, std::vector<Kwarg> kwargs);
  void SetStream(Node* node, std::string_view stream);
  // FX's `node.target = ...`: the op kind, args and users stay.
  void SetTarget(Node* node, std::string_view target);
  // Rewrites every use of `from` to `to`; returns how many users changed.
  size_t ReplaceAllUsesWith(Node* from, Node* to);
  // FX's user.replace_input_with(from, to): only `user`'s references to
  // `from` now name `to`. Nothing happens if `user` does not use `from`.
  void ReplaceInput(Node* user, Node* from, Node* to);
  // Removes a node with no users. Fails (graph unchanged) while it has users.
  // The erased Node* stays readable, with erased() true, until the graph is
  // destroyed (passes erase in bursts, and freeing each one then cost cse a
  // third of its time); it must not be given to the graph again.
  Status Erase(Node* node);
  // Moves `node` to just before `position`.
  void MoveBefore(Node* node, Node* position);
  // Renames keeping uniqueness; fails if `name` is taken or illegal.
  Status Rename(Node* node, std::string_view name);

  // Use/def consistency, topological order, unique names, one output node at
  // the end, arity of placeholder/get_attr/output. Names the first problem.
  // A clean result is remembered until the next mutation (version()), so
  // linting a graph nobody touched since is free.
  Status Lint() const;
  // Lint in two halves, for a caller that lets other threads read the graph
  // from the middle on (the effect check summarizes a pass's result while
  // the rest of lint runs). LintList checks the node list (its length, its
  // nodes' graph, placeholder/get_attr/output arity, one output at the end)
  // and numbers the nodes, which leaves PrepareConcurrentReads nothing to do.
  // LintUses checks the rest (the name index, use/def, topological order)
  // and, once the list is linted, writes nothing that other const methods
  // read: concurrent readers must then tolerate what it would reject (an
  // argument that is a node of another graph, or not defined yet). Lint()
  // is LintList, then LintUses.
  Status LintList() const;
  Status LintUses() const;

  // Numbers the nodes (PositionOf's cache). Until the next mutation, any
  // number of threads may then call const methods at once, except Lint
  // (it records that it passed) and Find/PrefetchName (they build the name
  // index on first use; building it here too cost a 100k-node pipeline run
  // 2% for an index nobody asked for). Without it, two readers may both
  // renumber the nodes.
  void PrepareConcurrentReads() const;

  // A fresh unique name derived from `hint` (reserves it).
  std::string UniqueName(std::string_view hint);
  // Interned copy of `text`, stable for the life of the graph (and its clones).
  const std::string* Intern(std::string_view text);
  static bool IsLegalName(std::string_view name);

 private:
  Node* NewNode(NodeSpec&& spec, std::string name);
  void Link(Node* node, Node* before);  // before == nullptr: append
  void Unlink(Node* node);
  void AddUses(Node* user);
  void RemoveUses(Node* user);
  // Rewrites `user`'s references to `from` into `to` and lists it among
  // `to`'s users; the caller has taken it off `from`'s users.
  void Redirect(Node* user, Node* from, Node* to);
  friend class Node;  // set_meta / clear_meta bump the version and store meta
  void Touch() { ++version_; }
  // Keeps `meta` for the life of this graph and of every clone made after.
  const NodeMeta* StoreMeta(NodeMeta meta);
  const NodeMeta* StoreNewMeta(NodeMeta meta);  // StoreMeta without looking for an equal one
  // Sets every node's order_ to its position, if the cache is stale.
  void Renumber() const;
  // Lint's three steps, in the order it takes them: the node list (and
  // order_ on the way), the name index against it, use/def consistency.
  Status LintNodeList() const;
  Status LintNameIndex() const;
  Status LintUseDef() const;
  // by_name_, built if it was not.
  NodeNameTable& NameIndex() const;
  // Constructs a Node in the next free slot of blocks_.
  Node* MakeNode(OpKind op, const std::string* target, std::string name);

  // Interned strings: a deque never moves its elements; shared with clones so
  // interned pointers stay valid in both.
  struct StringPool {
    StringPool() : empty(&storage.emplace_back()) { index.emplace(*empty, empty); }
    std::deque<std::string> storage;
    std::unordered_map<std::string_view, const std::string*> index;
    const std::string* empty;  // "": every new node's stream, looked up once
  };

  std::string name_;
  GraphStyle style_;
  std::shared_ptr<StringPool> pool_;
  Node* head_ = nullptr;
  Node* tail_ = nullptr;
  size_t size_ = 0;
  // The name index, built on first use (see NameIndex): a clone starts
  // without one, since many passes never look a name up, and building it was
  // a third of a clone's time. Names are unique whether it is built or not:
  // a clone copies unique names, and every way to add or change a name goes
  // through the index.
  mutable NodeNameTable by_name_;
  mutable bool by_name_built_ = true;
  std::vector<Node*> erased_;  // erased nodes, destroyed with the graph (see Erase)
  // Node storage: blocks of nodes freed with the graph. One allocation per
  // block instead of one per node matters when a clone or a load makes 100k+
  // nodes at once; erased nodes keep their slot until then anyway. Blocks
  // double from 32 nodes, so a small graph (most clones) stays small and a
  // big one ends up in a few huge-page blocks (see LargeBuffer).
  std::vector<LargeBuffer> blocks_;
  size_t block_used_ = 0;  // slots taken in blocks_.back()
  // The blocks by address, each with the slot of its first node (SlotOf).
  struct BlockStart {
    const std::byte* base;
    uint32_t first_slot;
    uint32_t nodes;  // its capacity
  };
  std::vector<BlockStart> block_starts_;
  uint32_t slot_count_ = 0;  // nodes made, erased ones included
  // Meta storage, shared with clones: a clone copies these block handles and
  // its nodes point into them, instead of copying or reference-counting the
  // meta of each node (that cache miss per node was half a clone's time).
  // A replaced meta stays in its block until no graph holds the block.
  struct MetaBlock;
  std::vector<std::shared_ptr<MetaBlock>> meta_blocks_;
  MetaBlock* writable_meta_block_ = nullptr;  // this graph's own block with room, if any
  // The metas stored without a stack trace, by a hash of their content: an
  // equal one is stored once and shared (a model's layers repeat a handful of
  // shapes; a million-node graph held a million copies). Stored metas are
  // never changed, so sharing is invisible.
  std::unordered_map<uint64_t, const NodeMeta*> meta_index_;
  std::unordered_map<std::string, int64_t> base_counts_;  // _Namespace's base_count
  uint64_t version_ = 0;
  mutable uint64_t linted_version_ = ~uint64_t{0};       // the version Lint() last passed
  mutable uint64_t list_linted_version_ = ~uint64_t{0};  // the version LintList() last passed
  mutable bool order_valid_ = false;                     // Node::order_ matches the list (see Renumber)
};

// Structural equality for tests and round-trips: same node sequence, names,
// ops, targets, args, kwargs, streams and meta. On mismatch, *why says where.
bool SameGraph(const Graph& a, const Graph& b, std::string* why = nullptr);

}  // namespace airscope
