#include "core/ir/graph.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <iterator>
#include <new>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace airscope {
namespace {

bool IsPythonKeyword(std::string_view name) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (std::string_view k : kKeywords) {
    if (k == name) return true;
  }
  return false;
}

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// FX's _Namespace turns any hint into an identifier: illegal characters become
// '_', a leading digit gets a '_' in front.
std::string SanitizeHint(std::string_view hint) {
  std::string out;
  out.reserve(hint.size() + 1);
  for (char c : hint) out += IsIdentChar(c) ? c : '_';
  if (out.empty()) out = "_unnamed";
  if (out[0] >= '0' && out[0] <= '9') out.insert(out.begin(), '_');
  return out;
}

// The default name hint for a target, as FX derives it:
// `torch.ops.aten.add.Tensor` -> `add`, `operator.getitem` -> `getitem`.
std::string HintFromTarget(OpKind op, std::string_view target) {
  if (op == OpKind::kOutput) return "output";
  std::string_view t = target;
  if (t.substr(0, 10) == "torch.ops.") {
    t.remove_prefix(10);
    size_t dot = t.find('.');  // namespace
    if (dot != std::string_view::npos) t.remove_prefix(dot + 1);
    dot = t.find('.');  // overload
    if (dot != std::string_view::npos) t = t.substr(0, dot);
  } else {
    size_t dot = t.rfind('.');
    if (dot != std::string_view::npos) t.remove_prefix(dot + 1);
  }
  return std::string(t);
}

}  // namespace

Node* Graph::MakeNode(OpKind op, const std::string* target, std::string name) {
  if (blocks_.empty() || (block_used_ + 1) * sizeof(Node) > blocks_.back().size()) {
    // 32 nodes, then doubling up to 64k nodes (about 10 MiB) a block.
    size_t nodes = blocks_.empty() ? 32 : std::min<size_t>(blocks_.back().size() / sizeof(Node) * 2, 65536);
    blocks_.emplace_back(nodes * sizeof(Node));
    block_used_ = 0;
    BlockStart start{static_cast<const std::byte*>(blocks_.back().data()), slot_count_, static_cast<uint32_t>(nodes)};
    block_starts_.insert(std::upper_bound(block_starts_.begin(), block_starts_.end(), start,
                                          [](const BlockStart& a, const BlockStart& b) { return a.base < b.base; }),
                         start);
  }
  void* slot = static_cast<std::byte*>(blocks_.back().data()) + block_used_ * sizeof(Node);
  ++block_used_;
  ++slot_count_;
  return new (slot) Node(this, op, target, std::move(name));
}

uint32_t Graph::SlotOf(const Node* node) const {
  const auto* address = reinterpret_cast<const std::byte*>(node);
  // The last block starting at or before the node's address is its block.
  auto after = std::upper_bound(block_starts_.begin(), block_starts_.end(), address,
                                [](const std::byte* a, const BlockStart& b) { return a < b.base; });
  if (after == block_starts_.begin()) return kNoSlot;
  const BlockStart& block = *std::prev(after);
  // Compared as integers: a pointer difference across two allocations is undefined.
  size_t offset = reinterpret_cast<uintptr_t>(address) - reinterpret_cast<uintptr_t>(block.base);
  size_t index = offset / sizeof(Node);
  if (offset % sizeof(Node) != 0 || index >= block.nodes) return kNoSlot;
  uint32_t slot = block.first_slot + static_cast<uint32_t>(index);
  return slot < slot_count_ ? slot : kNoSlot;  // not in the last block's unused tail
}

void Graph::ReserveNodes(size_t count) { NameIndex().Reserve(count); }

struct Graph::MetaBlock {
  explicit MetaBlock(size_t capacity) { metas.reserve(capacity); }
  std::vector<NodeMeta> metas;  // never grows past its reservation: pointers stay valid
};

namespace {

uint64_t MixHash(uint64_t hash, uint64_t value) {
  return hash ^ (value + 0x9E3779B97F4A7C15ULL + (hash << 6) + (hash >> 2));
}

uint64_t DimsHash(uint64_t hash, const std::vector<Dim>& dims) {
  hash = MixHash(hash, dims.size());
  for (const Dim& d : dims) {
    hash = d.is_static() ? MixHash(hash, static_cast<uint64_t>(d.value()))
                         : MixHash(hash, std::hash<std::string>{}(d.symbol()));
  }
  return hash;
}

uint64_t MetaHash(const NodeMeta& meta) {
  uint64_t hash = MixHash(static_cast<uint64_t>(meta.kind), static_cast<uint64_t>(meta.source));
  hash = MixHash(hash, std::hash<std::string>{}(meta.annotation));
  for (const TensorMeta& t : meta.tensors) {
    hash = MixHash(hash, static_cast<uint64_t>(t.dtype));
    hash = DimsHash(DimsHash(hash, t.sizes), t.strides);
    hash = MixHash(hash, std::hash<std::string>{}(t.device));
  }
  return MixHash(hash, meta.only_clone_these_tensors ? meta.only_clone_these_tensors->size() + 1 : 0);
}

}  // namespace

const NodeMeta* Graph::StoreMeta(NodeMeta meta) {
  const bool shareable = meta.stack_trace.empty();
  uint64_t key = 0;
  if (shareable) {
    key = MetaHash(meta);
    auto it = meta_index_.find(key);
    if (it != meta_index_.end() && *it->second == meta) return it->second;
  }
  const NodeMeta* stored = StoreNewMeta(std::move(meta));
  if (shareable) meta_index_.emplace(key, stored);
  return stored;
}

const NodeMeta* Graph::StoreNewMeta(NodeMeta meta) {
  std::vector<NodeMeta>* metas = writable_meta_block_ ? &writable_meta_block_->metas : nullptr;
  if (!metas || metas->size() == metas->capacity()) {
    // Blocks double from 16 to 1024 metas: small graphs stay small.
    size_t capacity = metas ? std::min<size_t>(metas->capacity() * 2, 1024) : 16;
    meta_blocks_.push_back(std::make_shared<MetaBlock>(capacity));
    writable_meta_block_ = meta_blocks_.back().get();
  }
  return &writable_meta_block_->metas.emplace_back(std::move(meta));
}

Graph::Graph() : Graph("graph") {}
Graph::Graph(std::string name) : name_(std::move(name)), pool_(std::make_shared<StringPool>()) {}

Graph::~Graph() {
  Node* n = head_;
  while (n) {
    Node* next = n->next_;
    n->~Node();
    n = next;
  }
  for (Node* erased : erased_) erased->~Node();
}

Graph::Graph(Graph&& other) noexcept
    : name_(std::move(other.name_)),
      style_(std::move(other.style_)),
      pool_(std::move(other.pool_)),
      head_(std::exchange(other.head_, nullptr)),
      tail_(std::exchange(other.tail_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      by_name_(std::move(other.by_name_)),
      by_name_built_(other.by_name_built_),
      erased_(std::move(other.erased_)),
      blocks_(std::move(other.blocks_)),
      block_used_(std::exchange(other.block_used_, 0)),
      block_starts_(std::move(other.block_starts_)),
      slot_count_(std::exchange(other.slot_count_, 0)),
      meta_blocks_(std::move(other.meta_blocks_)),
      writable_meta_block_(std::exchange(other.writable_meta_block_, nullptr)),
      meta_index_(std::move(other.meta_index_)),
      base_counts_(std::move(other.base_counts_)),
      version_(other.version_),
      linted_version_(other.linted_version_),
      order_valid_(other.order_valid_) {
  other.erased_.clear();
  other.blocks_.clear();
  other.block_starts_.clear();
  other.meta_blocks_.clear();
  other.meta_index_.clear();
  other.Touch();
  for (Node* n = head_; n; n = n->next_) n->graph_ = this;
}

Graph& Graph::operator=(Graph&& other) noexcept {
  if (this != &other) {
    Graph moved(std::move(other));
    std::swap(name_, moved.name_);
    std::swap(style_, moved.style_);
    std::swap(pool_, moved.pool_);
    std::swap(head_, moved.head_);
    std::swap(tail_, moved.tail_);
    std::swap(size_, moved.size_);
    std::swap(by_name_, moved.by_name_);
    std::swap(by_name_built_, moved.by_name_built_);
    std::swap(erased_, moved.erased_);
    std::swap(blocks_, moved.blocks_);
    std::swap(block_used_, moved.block_used_);
    std::swap(block_starts_, moved.block_starts_);
    std::swap(slot_count_, moved.slot_count_);
    std::swap(meta_blocks_, moved.meta_blocks_);
    std::swap(writable_meta_block_, moved.writable_meta_block_);
    std::swap(meta_index_, moved.meta_index_);
    std::swap(base_counts_, moved.base_counts_);
    std::swap(order_valid_, moved.order_valid_);
    // Never back to a version this object had before: callers compare them.
    bool linted = moved.linted_version_ == moved.version_;  // `moved` holds what was `other`'s
    uint64_t version = std::max(version_, moved.version_) + 1;
    std::swap(version_, moved.version_);
    std::swap(linted_version_, moved.linted_version_);
    version_ = version;
    linted_version_ = linted ? version : ~uint64_t{0};
    for (Node* n = head_; n; n = n->next_) n->graph_ = this;
    for (Node* n = moved.head_; n; n = n->next_) n->graph_ = &moved;
  }
  return *this;
}

const std::string* Graph::Intern(std::string_view text) {
  auto it = pool_->index.find(text);
  if (it != pool_->index.end()) return it->second;
  const std::string* stored = &pool_->storage.emplace_back(text);
  pool_->index.emplace(*stored, stored);
  return stored;
}

bool Graph::IsLegalName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    if (!IsIdentChar(c)) return false;
  }
  return !IsPythonKeyword(name);
}

std::string Graph::UniqueName(std::string_view hint) {
  // Mirrors torch.fx.graph._Namespace.create_name.
  std::string candidate = SanitizeHint(hint);
  std::string base = candidate;
  int64_t num = 0;
  bool has_num = false;
  size_t underscore = candidate.rfind('_');
  if (underscore != std::string::npos && underscore + 1 < candidate.size() && underscore > 0) {
    std::string_view digits = std::string_view(candidate).substr(underscore + 1);
    bool all_digits = std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (all_digits && digits.size() < 18) {
      base = candidate.substr(0, underscore);
      std::from_chars(digits.data(), digits.data() + digits.size(), num);
      has_num = true;
    }
  }
  if (!has_num || num == 0) num = base_counts_[base];
  const auto& index = NameIndex();
  while (index.Find(candidate) || IsPythonKeyword(candidate)) {
    ++num;
    candidate = fmt::format("{}_{}", base, num);
  }
  base_counts_[base] = num;
  Touch();  // later names depend on the reservation
  return candidate;
}

Node* Graph::NewNode(NodeSpec&& spec, std::string name) {
  const bool target_is_name = spec.op == OpKind::kPlaceholder && spec.target == name;
  Node* node = MakeNode(spec.op, target_is_name ? nullptr : Intern(spec.target), std::move(name));
  node->stream_ = pool_->empty;
  node->args_ = std::move(spec.args);
  node->SetKwargs(std::move(spec.kwargs));
  NameIndex().Insert(node);
  AddUses(node);
  ++size_;
  Touch();
  return node;
}

void Graph::Link(Node* node, Node* before) {
  order_valid_ = false;
  if (before == nullptr) {
    node->prev_ = tail_;
    node->next_ = nullptr;
    if (tail_)
      tail_->next_ = node;
    else
      head_ = node;
    tail_ = node;
    return;
  }
  node->next_ = before;
  node->prev_ = before->prev_;
  if (before->prev_)
    before->prev_->next_ = node;
  else
    head_ = node;
  before->prev_ = node;
}

void Graph::Unlink(Node* node) {
  order_valid_ = false;
  if (node->prev_)
    node->prev_->next_ = node->next_;
  else
    head_ = node->next_;
  if (node->next_)
    node->next_->prev_ = node->prev_;
  else
    tail_ = node->prev_;
  node->prev_ = node->next_ = nullptr;
}

void Graph::AddUses(Node* user) {
  auto add = [user](Node* input) {
    // A user that reads an input twice is listed once. The check is O(1):
    // a short list is scanned, a long one has a side index (UserList).
    if (!input->users_.Contains(user)) input->users_.Append(user);
  };
  for (const Argument& a : user->args_) a.ForEachNode(add);
  for (const Kwarg& kw : user->kwargs()) kw.value.ForEachNode(add);
}

void Graph::RemoveUses(Node* user) {
  auto remove = [user](Node* input) { input->users_.Remove(user); };
  for (const Argument& a : user->args_) a.ForEachNode(remove);
  for (const Kwarg& kw : user->kwargs()) kw.value.ForEachNode(remove);
}

Result<Node*> Graph::AppendNamed(NodeSpec spec) {
  if (!IsLegalName(spec.name)) return Status::Errorf("'{}' is not a legal node name", spec.name);
  if (NameIndex().Find(spec.name)) return Status::Errorf("duplicate node name '{}'", spec.name);
  std::string name = std::move(spec.name);
  Node* node = NewNode(std::move(spec), std::move(name));
  Link(node, nullptr);
  return node;
}

Node* Graph::Append(NodeSpec spec) {
  std::string name = UniqueName(spec.name.empty() ? HintFromTarget(spec.op, spec.target) : spec.name);
  Node* node = NewNode(std::move(spec), std::move(name));
  Link(node, nullptr);
  return node;
}

Node* Graph::InsertBefore(Node* position, NodeSpec spec) {
  assert(position && position->graph_ == this);
  std::string name = UniqueName(spec.name.empty() ? HintFromTarget(spec.op, spec.target) : spec.name);
  Node* node = NewNode(std::move(spec), std::move(name));
  Link(node, position);
  return node;
}

Node* Graph::InsertAfter(Node* position, NodeSpec spec) {
  assert(position && position->graph_ == this);
  std::string name = UniqueName(spec.name.empty() ? HintFromTarget(spec.op, spec.target) : spec.name);
  Node* node = NewNode(std::move(spec), std::move(name));
  Link(node, position->next_);
  return node;
}

void Graph::SetArgs(Node* node, std::vector<Argument> args) {
  RemoveUses(node);
  node->args_ = std::move(args);
  AddUses(node);
  Touch();
}

void Graph::SetKwargs(Node* node, std::vector<Kwarg> kwargs) {
  RemoveUses(node);
  node->SetKwargs(std::move(kwargs));
  AddUses(node);
  Touch();
}

void Graph::SetStream(Node* node, std::string_view stream) {
  const std::string* interned = Intern(stream);
  if (interned == node->stream_) return;
  node->stream_ = interned;
  Touch();
}

void Graph::SetTarget(Node* node, std::string_view target) {
  const std::string* interned = Intern(target);
  if (&node->target() == interned) return;
  node->target_ = interned;
  Touch();
}

size_t Graph::ReplaceAllUsesWith(Node* from, Node* to) {
  if (from == to || from->users_.empty()) return 0;
  Touch();
  // Edits each user's arguments in place and moves only the user entries
  // involved: passes like cse call this once per removed node, so it must not
  // rebuild argument vectors or recompute every use of every user.
  std::vector<Node*> users = from->users_.ToVector();
  from->users_.Clear();
  for (Node* user : users) Redirect(user, from, to);
  return users.size();
}

void Graph::ReplaceInput(Node* user, Node* from, Node* to) {
  if (from == to) return;
  if (!from->users_.Remove(user)) return;
  Redirect(user, from, to);
  Touch();
}

void Graph::Redirect(Node* user, Node* from, Node* to) {
  auto swap_ref = [from, to](Node* n) { return n == from ? to : n; };
  auto rewrite = [&](Argument& a) {
    if (a.is_node()) {
      if (a.as_node() == from) a = Argument::NodeRef(to);
    } else if (a.is_sequence() && a.ContainsNode()) {
      a = a.MapNodes(swap_ref);
    }
  };
  for (Argument& a : user->args_) rewrite(a);
  if (user->kwargs_) {
    for (Kwarg& kw : *user->kwargs_) rewrite(kw.value);
  }
  if (!to->users_.Contains(user)) to->users_.Append(user);
}

Status Graph::Erase(Node* node) {
  if (!node->users_.empty()) {
    return Status::Errorf("cannot erase '{}': it still has {} user(s), first '{}'", node->name_, node->users_.size(),
                          node->users_.front()->name_);
  }
  RemoveUses(node);
  Unlink(node);
  if (by_name_built_) by_name_.Erase(node);
  --size_;
  Touch();
  // Freed with the graph, not now: passes erase nodes in bursts (cse, dce),
  // and one free per node there costs more than the memory it returns.
  node->graph_ = nullptr;
  erased_.push_back(node);
  return Status::Ok();
}

void Graph::MoveBefore(Node* node, Node* position) {
  if (node == position || node->next_ == position) return;
  Unlink(node);
  Link(node, position);
  Touch();
}

Status Graph::Rename(Node* node, std::string_view name) {
  if (name == node->name_) return Status::Ok();
  if (!IsLegalName(name)) return Status::Errorf("'{}' is not a legal node name", name);
  auto& index = NameIndex();
  if (index.Find(name)) return Status::Errorf("a node named '{}' already exists", name);
  index.Erase(node);
  if (node->target_ == nullptr) node->target_ = Intern(node->name_);  // the target stays what it was
  node->name_ = std::string(name);
  index.Insert(node);
  Touch();
  return Status::Ok();
}

Node* Graph::Find(std::string_view name) const {
  // A parser resolving arguments mostly names the node just appended (FX
  // code reads like a chain); comparing with the last few nodes is a hit in
  // cache where the table's slot would be a miss.
  int recent = 0;
  for (const Node* n = tail_; n != nullptr && recent < 4; n = n->prev_, ++recent) {
    if (n->name_ == name) return const_cast<Node*>(n);
  }
  return NameIndex().Find(name);
}

void Graph::PrefetchName(std::string_view name) const { NameIndex().Prefetch(name); }

Node* Graph::output() const {
  for (Node* n = tail_; n; n = n->prev_) {
    if (n->op_ == OpKind::kOutput) return n;
  }
  return nullptr;
}

std::vector<Node*> Graph::Placeholders() const {
  std::vector<Node*> out;
  for (Node* n = head_; n; n = n->next_) {
    if (n->op_ == OpKind::kPlaceholder) out.push_back(n);
  }
  return out;
}

std::vector<Node*> Graph::Nodes() const {
  std::vector<Node*> out;
  out.reserve(size_);
  for (Node* n = head_; n; n = n->next_) out.push_back(n);
  return out;
}

NodeNameTable& Graph::NameIndex() const {
  if (!by_name_built_) {
    by_name_.Reserve(size_);
    for (Node* n = head_; n; n = n->next_) by_name_.Insert(n);
    by_name_built_ = true;
  }
  return by_name_;
}

void Graph::Renumber() const {
  if (order_valid_) return;
  uint32_t index = 0;
  for (const Node* n = head_; n; n = n->next_) n->order_ = index++;
  order_valid_ = true;
}

void Graph::PrepareConcurrentReads() const { Renumber(); }

Status Graph::Lint() const {
  AIRSCOPE_RETURN_IF_ERROR(LintList());
  return LintUses();
}

Status Graph::LintList() const {
  if (linted_version_ == version_ || list_linted_version_ == version_) return Status::Ok();
  AIRSCOPE_RETURN_IF_ERROR(LintNodeList());
  order_valid_ = true;
  list_linted_version_ = version_;
  return Status::Ok();
}

Status Graph::LintUses() const {
  if (linted_version_ == version_) return Status::Ok();
  AIRSCOPE_RETURN_IF_ERROR(LintList());  // nothing to do when the caller linted the list already
  AIRSCOPE_RETURN_IF_ERROR(LintNameIndex());
  AIRSCOPE_RETURN_IF_ERROR(LintUseDef());
  linted_version_ = version_;
  return Status::Ok();
}

// The list itself: as many nodes linked as size_ says, all of this graph, the
// arity of placeholder/get_attr/output, one output and it last. Numbers the
// nodes on the way (order_), so LintUseDef can tell a use of a node at or
// after its user. Bounded by size_: a corrupted list that loops ends the walk
// instead of the program.
Status Graph::LintNodeList() const {
  size_t index = 0;
  size_t outputs = 0;
  order_valid_ = false;
  for (const Node* n = head_; n; n = n->next_, ++index) {
    if (index == size_) return Status::Errorf("graph size {} but more nodes linked (a node appears twice?)", size_);
    if (n->graph_ != this) return Status::Errorf("node '{}' belongs to another graph", n->name_);
    n->order_ = static_cast<uint32_t>(index);
    switch (n->op_) {
      case OpKind::kPlaceholder:
      case OpKind::kGetAttr:
        if (n->args_.size() > 1) {
          return Status::Errorf("{} '{}' takes at most one argument, has {}", OpKindName(n->op_), n->name_,
                                n->args_.size());
        }
        break;
      case OpKind::kOutput:
        ++outputs;
        if (n->args_.size() != 1) {
          return Status::Errorf("output '{}' must have exactly one argument, has {}", n->name_, n->args_.size());
        }
        if (n->next_ != nullptr) {
          return Status::Errorf("output '{}' is followed by '{}': output must be the last node", n->name_,
                                n->next_->name_);
        }
        break;
      default: break;
    }
  }
  if (index != size_) return Status::Errorf("graph size {} but {} nodes linked", size_, index);
  if (outputs > 1) return Status::Errorf("graph has {} output nodes", outputs);
  return Status::Ok();
}

// The name index, when built: as many entries as nodes, each a live node of
// this graph. Entries are distinct nodes (the table holds one per name), so
// that is every node once: one walk over the index instead of one lookup per
// node.
Status Graph::LintNameIndex() const {
  if (by_name_built_ && by_name_.size() != size_) {
    return Status::Errorf("name index has {} entries for {} nodes (duplicate name?)", by_name_.size(), size_);
  }
  const Node* foreign = nullptr;
  by_name_.ForEach([&](const Node* node) {
    if (node->graph_ != this) foreign = node;
  });
  if (foreign) return Status::Errorf("the name index holds '{}', which is not in the graph", foreign->name_);
  return Status::Ok();
}

namespace {

// `edges` (used node, user) made in increasing order of the user, sorted by
// the used node (a stable counting sort): the result is sorted whole.
std::vector<std::pair<uint32_t, uint32_t>> SortedByUsedNode(const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                                                            size_t nodes) {
  std::vector<uint32_t> start(nodes + 1, 0);
  for (const auto& edge : edges) ++start[edge.first + 1];
  for (size_t i = 1; i <= nodes; ++i) start[i] += start[i - 1];
  std::vector<std::pair<uint32_t, uint32_t>> sorted(edges.size());
  for (const auto& edge : edges) sorted[start[edge.first]++] = edge;
  return sorted;
}

}  // namespace

// Use/def consistency as two edge lists that must be equal: (input, user)
// from every node's args and (node, user) from every users list, both
// sorted. Each is sorted in O(E), so a node with 100,000 users lints as fast
// as a chain: the args' edges are made in order of their user, so a counting
// sort by the used node sorts them whole; the users' edges are made in order
// of the used node, so only each node's run of users needs sorting.
// Needs order_ (LintNodeList).
Status Graph::LintUseDef() const {
  using Edge = std::pair<uint32_t, uint32_t>;  // (position of the used node, position of the user)
  std::vector<Edge> from_args, from_users;
  std::vector<const Node*> by_position;
  by_position.reserve(size_);
  for (const Node* n = head_; n; n = n->next_) by_position.push_back(n);
  const Node* stray = nullptr;  // the first use of a node outside the graph
  const Node* early = nullptr;  // the first use of a node not defined yet
  const Node* user_of_bad = nullptr;
  for (const Node* n = head_; n && !stray && !early; n = n->next_) {
    uint32_t here = n->order_;
    auto add = [&](Node* input) {
      if (stray || early) return;
      if (input->graph_ != this) {
        stray = input, user_of_bad = n;
      } else if (input->order_ >= here) {
        early = input, user_of_bad = n;
      } else {
        from_args.emplace_back(input->order_, here);
      }
    };
    for (const Argument& a : n->args_) a.ForEachNode(add);
    for (const Kwarg& kw : n->kwargs()) kw.value.ForEachNode(add);
    for (const Node* user : n->users_) {
      if (user->graph_ != this) {
        return Status::Errorf("'{}' lists user '{}', which is not in the graph", n->name_, user->name_);
      }
      from_users.emplace_back(here, user->order_);
    }
  }
  if (stray) {
    return Status::Errorf("node '{}' uses '{}', which is not in the graph", user_of_bad->name_, stray->name_);
  }
  if (early) {
    return Status::Errorf("node '{}' uses '{}' before it is defined (not in topological order)", user_of_bad->name_,
                          early->name_);
  }
  from_args = SortedByUsedNode(from_args, size_);
  from_args.erase(std::unique(from_args.begin(), from_args.end()), from_args.end());  // a node used twice
  for (auto run = from_users.begin(); run != from_users.end();) {
    auto end = std::find_if(run, from_users.end(), [&](const Edge& e) { return e.first != run->first; });
    std::sort(run, end);
    run = end;
  }
  if (auto dup = std::adjacent_find(from_users.begin(), from_users.end()); dup != from_users.end()) {
    return Status::Errorf("'{}' lists user '{}' twice", by_position[dup->first]->name_,
                          by_position[dup->second]->name_);
  }
  auto [a, b] = std::mismatch(from_args.begin(), from_args.end(), from_users.begin(), from_users.end());
  if (a != from_args.end() && (b == from_users.end() || *a < *b)) {
    return Status::Errorf("'{}' uses '{}' but is missing from its users", by_position[a->second]->name_,
                          by_position[a->first]->name_);
  }
  if (b != from_users.end()) {
    return Status::Errorf("'{}' lists user '{}', which does not use it", by_position[b->first]->name_,
                          by_position[b->second]->name_);
  }
  return Status::Ok();
}

std::unique_ptr<Graph> Graph::Clone() const {
  Renumber();
  auto copy = std::make_unique<Graph>(name_);
  copy->style_ = style_;
  copy->pool_ = pool_;  // interned strings are immutable; sharing keeps pointers valid
  copy->base_counts_ = base_counts_;
  copy->meta_blocks_ = meta_blocks_;  // the copy's own metas go to a block of its own
  copy->by_name_built_ = false;
  // Nodes first, then their args and users, so a graph that is not (yet) in
  // topological order copies too; order_ maps a node to its copy.
  std::vector<Node*> copies;
  copies.reserve(size_);
  for (const Node* n = head_; n; n = n->next_) {
    Node* c = copy->MakeNode(n->op_, n->target_, n->name_);
    c->stream_ = n->stream_;
    c->meta_ = n->meta_;
    c->order_ = static_cast<uint32_t>(copies.size());
    copy->Link(c, nullptr);
    copies.push_back(c);
  }
  copy->size_ = copies.size();
  auto remap = [this, &copies](Node* n) {
    if (n->graph_ != this) throw std::invalid_argument(fmt::format("Clone: '{}' is not in the graph", n->name_));
    return copies[n->order_];
  };
  for (const Node* n = head_; n; n = n->next_) {
    Node* c = copies[n->order_];
    c->args_.reserve(n->args_.size());
    for (const Argument& a : n->args_) c->args_.push_back(a.MapNodes(remap));
    if (n->kwargs_) {
      std::vector<Kwarg> kwargs;
      kwargs.reserve(n->kwargs_->size());
      for (const Kwarg& kw : *n->kwargs_) kwargs.push_back({kw.name, kw.value.MapNodes(remap)});
      c->SetKwargs(std::move(kwargs));
    }
    c->users_.Reserve(n->users_.size());
    for (Node* user : n->users_) c->users_.Append(remap(user));  // same order as here
  }
  copy->order_valid_ = true;
  copy->version_ = 0;
  if (linted_version_ == version_) copy->linted_version_ = 0;  // the same graph lints the same
  return copy;
}

bool SameGraph(const Graph& a, const Graph& b, std::string* why) {
  auto fail = [why](std::string message) {
    if (why) *why = std::move(message);
    return false;
  };
  if (a.size() != b.size()) return fail(fmt::format("{} nodes vs {} nodes", a.size(), b.size()));
  const Node* x = a.front();
  const Node* y = b.front();
  for (; x && y; x = x->next(), y = y->next()) {
    if (x->name() != y->name()) return fail(fmt::format("node '{}' vs '{}'", x->name(), y->name()));
    const std::string& n = x->name();
    if (x->op() != y->op()) return fail(fmt::format("'{}': op differs", n));
    if (x->target() != y->target()) {
      return fail(fmt::format("'{}': target '{}' vs '{}'", n, x->target(), y->target()));
    }
    if (x->args().size() != y->args().size()) return fail(fmt::format("'{}': arg count differs", n));
    for (size_t i = 0; i < x->args().size(); ++i) {
      if (!x->args()[i].SameAs(y->args()[i])) return fail(fmt::format("'{}': arg {} differs", n, i));
    }
    if (x->kwargs().size() != y->kwargs().size()) return fail(fmt::format("'{}': kwarg count differs", n));
    for (size_t i = 0; i < x->kwargs().size(); ++i) {
      if (x->kwargs()[i].name != y->kwargs()[i].name || !x->kwargs()[i].value.SameAs(y->kwargs()[i].value)) {
        return fail(fmt::format("'{}': kwarg '{}' differs", n, x->kwargs()[i].name));
      }
    }
    if (x->stream() != y->stream()) return fail(fmt::format("'{}': stream differs", n));
    bool x_meta = x->meta() != nullptr, y_meta = y->meta() != nullptr;
    if (x_meta != y_meta) return fail(fmt::format("'{}': meta present in only one graph", n));
    if (x_meta && !(*x->meta() == *y->meta())) return fail(fmt::format("'{}': meta differs", n));
  }
  return true;
}

}  // namespace airscope
