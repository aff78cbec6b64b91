#include "core/pass/effect_check.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "core/ops/op_schema.h"
#include "core/pass/flat_index.h"
#include "core/pass/reinplace_util.h"

namespace airscope {
namespace {

// The first word of every value in the table.
enum Kind : uint32_t {
  kInput = 1,   // [kInput, name]
  kAttr,        // [kAttr, target]
  kArgs,        // [kArgs, n, encoded arguments...]: constants and parameters (see Encode)
  kOp,          // [kOp, op, n, args..., m, (kwarg name, value)...]
  kView,        // [kView, base, step op, params]
  kWrite,       // [kWrite, base, path, src]
  kCat,         // [kCat, dim(2), n, (start(2), end(2), piece)...]: the pieces cover [0, end) in order
  kPieces,      // [kPieces, buffer, dim(2), total(2), n, (start(2), end(2), piece)...]: an empty buffer partly written
  kCatUnsized,  // [kCatUnsized, dim(2), n, pieces...]: a cat some of whose pieces have no known size
  kToken,       // [kToken]: what a stream/event op makes
  kPath,        // [kPath] (identity) or [kPath, parent, step op, params]
};

// How an argument is spelled inside a value's words (Encode): a tag, then
// its payload. Constants are spelled inline rather than interned on their
// own, which halved the number of table lookups per node.
enum ArgTag : uint32_t {
  kNodeTag = 1000,
  kNoneTag,
  kBoolTag,
  kIntTag,
  kFloatTag,
  kStringTag,
  kRawTag,
  kDTypeTag,
  kDeviceTag,
  kFormatTag,
  kLayoutTag,
  kListTag,
  kTupleTag
};

void PushInt(std::vector<uint32_t>& words, int64_t value) {
  auto bits = static_cast<uint64_t>(value);
  words.push_back(static_cast<uint32_t>(bits));
  words.push_back(static_cast<uint32_t>(bits >> 32));
}
int64_t ReadInt(std::span<const uint32_t> words, size_t at) {
  return static_cast<int64_t>(uint64_t{words[at]} | (uint64_t{words[at + 1]} << 32));
}

// How a call's target acts on storages and values (decided once per target).
enum class Action : uint8_t {
  kFunctional,     // fresh storage, value = op(args)
  kView,           // aliases arg 0 through a view step
  kReshape,        // a view that is a "reshape" to the node's shape
  kIdentityView,   // alias/detach/lift_fresh: arg 0 itself when sizes agree, else a view
  kInplace,        // writes op(args) into arg 0
  kCopyInto,       // copy_(dst, src): writes src into dst
  kCopyOf,         // copy(self, src): a fresh tensor like self holding src (functionalized copy_)
  kOut,            // writes op(args minus out) into kwarg out
  kSchemaWrites,   // writes the Tensor(a!) arguments of its schema (`op define`); value = op(args)
  kPairedInplace,  // an inplaceable_npu_ops in-place op, valued as its functional form (see the header)
  kScatter,        // fresh storage, value = write(arg 0, step, arg 1)
  kIdentityCopy,   // clone & co: fresh storage holding arg 0's value
  kToCopy,         // _to_copy: identity when the dtype is kept
  kCat,
  kGetitem,
  kStream,  // no value effect
};

struct TargetInfo {
  Action action = Action::kFunctional;
  uint32_t op = 0;                   // canonical op symbol ("aten.mul"); for kScatter the view op
  bool arithmetic_zero = false;      // add/sub: noop with 0
  bool arithmetic_one = false;       // mul/div: noop with 1
  const OpSchema* schema = nullptr;  // kSchemaWrites: whose written arguments
  // kPairedInplace: the pair (op is its functional form's symbol) and where
  // the functional form's values of the mutated arguments start.
  const InplaceableNpuOp* paired = nullptr;
  size_t paired_outs = 0;
};

// Canonical view ops and their parameter names and defaults.
struct ViewSchema {
  std::string_view op;
  std::vector<std::string_view> names;
  std::vector<std::optional<Argument>> defaults;
};
const ViewSchema* FindViewSchema(std::string_view op) {
  static const ViewSchema kSchemas[] = {
      {"aten.slice",
       {"dim", "start", "end", "step"},
       {Argument::Int(0), Argument::None(), Argument::None(), Argument::Int(1)}},
      {"aten.select", {"dim", "index"}, {std::nullopt, std::nullopt}},
      {"aten.diagonal", {"offset", "dim1", "dim2"}, {Argument::Int(0), Argument::Int(0), Argument::Int(1)}},
      {"aten.as_strided", {"size", "stride", "storage_offset"}, {std::nullopt, std::nullopt, Argument::None()}},
  };
  for (const ViewSchema& schema : kSchemas) {
    if (schema.op == op) return &schema;
  }
  return nullptr;
}

// "aten.add_.Tensor" -> {"aten.add", in-place, overload "Tensor"}.
struct OpName {
  std::string base;
  bool trailing_underscore = false;
  std::string overload;
};
OpName SplitName(std::string_view target) {
  OpName out;
  size_t last = target.rfind('.');
  size_t first = target.find('.');
  std::string_view op = target;
  if (last != std::string_view::npos && first != last) {
    out.overload = std::string(target.substr(last + 1));
    op = target.substr(0, last);
  }
  if (op.size() > 1 && op.back() == '_' && op[op.size() - 2] != '_') {
    out.trailing_underscore = true;
    op.remove_suffix(1);
  }
  out.base = std::string(op);
  return out;
}

struct StorageRef {
  uint32_t storage = 0;
  ValueId path = 0;
};

// Kept small (16 bytes): there is one per node that makes a tensor, and
// only a few are ever written.
struct Storage {
  static constexpr uint32_t kNoWrites = ~uint32_t{0};
  ValueId root = 0;
  uint32_t writes = kNoWrites;    // index in the executor's write logs
  const Node* creator = nullptr;  // a placeholder for a graph input's storage
  const Node* input() const { return creator && creator->op() == OpKind::kPlaceholder ? creator : nullptr; }
};

struct WriteLog {
  static constexpr uint32_t kNoPieces = ~uint32_t{0};
  const Node* first_writer = nullptr;
  const Node* last_writer = nullptr;
  const Node* last_source = nullptr;  // the node a copy_ into it last copied from
  uint32_t pieces = kNoPieces;        // index in the executor's PendingPieces, while an empty buffer fills
};

// An `empty` buffer being written slice by slice (TorchAir's
// optimize_cat_with_out_tensor: one out= write per piece of a cat). Its
// value is [kPieces ...] until the pieces cover it, then [kCat ...]; each
// write spelling every piece so far made a k-way cat cost k^2/2 pieces of
// memory and time (16,000 pieces: 2.5 GB, 13 s). The pieces are kept here
// instead, one map insert per write, and spelled as the value only when
// something reads it (Executor::Root) or when they cover the buffer.
struct PendingPieces {
  ValueId empty = 0;  // the buffer's [kOp, aten.empty, ...] value
  int64_t dim = 0;
  int64_t total = 0;    // the buffer's size along dim
  int64_t covered = 0;  // the pieces' summed extent (they never overlap)
  struct Span {
    int64_t end;
    ValueId value;
  };
  std::map<int64_t, Span> by_start;  // non-empty, non-overlapping
  bool spelled = false;              // the storage's root is the current [kPieces ...] value
};

std::string Describe(const Node* node) {
  if (!node) return "nothing";
  auto plain = [](const Node* n) {
    if (n->op() != OpKind::kCallFunction) return fmt::format("'{}'", n->name());
    return fmt::format("'{}' ({})", n->name(), StripTorchOps(n->target()));
  };
  // An element of a call's result says which call, as that call may be what changed.
  const std::vector<Argument>& args = node->args();
  if (node->op() == OpKind::kCallFunction && node->target() == "operator.getitem" && args.size() == 2 &&
      args[0].is_node() && args[1].kind() == Argument::Kind::kInt) {
    return fmt::format("'{}' (element {} of {})", node->name(), args[1].as_int(), plain(args[0].as_node()));
  }
  return plain(node);
}

bool SameSizesAndDtype(const TensorMeta* a, const TensorMeta* b) {
  return a && b && a->dtype != DType::kUnknown && a->dtype == b->dtype && a->sizes == b->sizes;
}

class Executor {
 public:
  Executor(const OpRegistry& registry, EffectTables tables, ValueTable& table)
      : registry_(registry), schemas_(tables.schemas), inplaceable_(tables.inplaceable), table_(table) {
    identity_path_ = Intern({kPath});
    token_ = Intern({kToken});
    reshape_ = table_.Symbol("reshape");
    getitem_ = table_.Symbol("operator.getitem");
    empty_ = table_.Symbol("aten.empty");
  }

  void Run(const Graph& graph, EffectSummary& summary) {
    graph_ = &graph;
    unmodelled_ = &summary.unmodelled;
    refs_.assign(graph.size(), StorageRef{kUnbound, 0});
    storages_.reserve(graph.size());
    reads_ = FlatIndex(graph.size() / 2);
    table_.Reserve(graph.size(), graph.size() * 8);
    for (const Node* node : graph) {
      switch (node->op()) {
        case OpKind::kPlaceholder: Bind(node, NewStorage(Intern({kInput, table_.Symbol(node->name())}), node)); break;
        case OpKind::kGetAttr: Bind(node, NewStorage(Intern({kAttr, table_.Symbol(node->target())}), node)); break;
        case OpKind::kOutput: Summarize(graph, node, summary); break;
        default: Call(node);
      }
    }
  }

 private:
  ValueId Intern(std::initializer_list<uint32_t> words) { return table_.Intern({words.begin(), words.size()}); }
  ValueId Intern(const std::vector<uint32_t>& words) { return table_.Intern(words); }

  StorageRef NewStorage(ValueId root, const Node* creator) {
    storages_.push_back({root, Storage::kNoWrites, creator});
    return {static_cast<uint32_t>(storages_.size() - 1), identity_path_};
  }
  static uint64_t Key(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer); }
  void Bind(const Node* node, StorageRef ref) { refs_[graph_->PositionOf(node)] = ref; }
  const StorageRef* RefOf(const Node* node) const {
    // A use of another graph's node (or an erased one) is unbound, as a use
    // of a node defined later is: lint rejects both, perhaps while this
    // summary is made (PassManager::Run), so they must not be read here.
    if (node->erased() || &node->graph() != graph_) return nullptr;
    const StorageRef& ref = refs_[graph_->PositionOf(node)];
    return ref.storage == kUnbound ? nullptr : &ref;
  }

  // Word buffers reused across values (a fresh vector per value was a third
  // of the time); nested values take nested buffers.
  class Scratch {
   public:
    explicit Scratch(Executor& e) : e_(e) {
      if (!e_.free_.empty()) {
        w = std::move(e_.free_.back());
        e_.free_.pop_back();
      }
    }
    ~Scratch() {
      w.clear();
      e_.free_.push_back(std::move(w));
    }
    std::vector<uint32_t> w;

   private:
    Executor& e_;
  };

  // ---- values of arguments

  // Appends `arg`'s spelling: a node as the id of its current value.
  void Encode(const Argument& arg, std::vector<uint32_t>& w) {
    auto put_int = [&](uint32_t tag, int64_t value) {
      w.push_back(tag);
      PushInt(w, value);
    };
    switch (arg.kind()) {
      case Argument::Kind::kNode: w.insert(w.end(), {kNodeTag, ValueOf(arg.as_node())}); break;
      case Argument::Kind::kNone: w.push_back(kNoneTag); break;
      case Argument::Kind::kBool: w.insert(w.end(), {kBoolTag, arg.as_bool() ? 1u : 0u}); break;
      case Argument::Kind::kInt: put_int(kIntTag, arg.as_int()); break;
      case Argument::Kind::kFloat: put_int(kFloatTag, std::bit_cast<int64_t>(arg.as_float())); break;
      case Argument::Kind::kString: w.insert(w.end(), {kStringTag, table_.Symbol(arg.as_string())}); break;
      case Argument::Kind::kRaw: w.insert(w.end(), {kRawTag, table_.Symbol(arg.as_string())}); break;
      case Argument::Kind::kDType: w.insert(w.end(), {kDTypeTag, static_cast<uint32_t>(arg.as_dtype())}); break;
      case Argument::Kind::kDevice: w.insert(w.end(), {kDeviceTag, table_.Symbol(arg.as_device().ToString())}); break;
      case Argument::Kind::kMemoryFormat:
        w.insert(w.end(), {kFormatTag, static_cast<uint32_t>(arg.as_memory_format())});
        break;
      case Argument::Kind::kLayout: w.insert(w.end(), {kLayoutTag, static_cast<uint32_t>(arg.as_layout())}); break;
      case Argument::Kind::kList:
      case Argument::Kind::kTuple: {
        std::span<const Argument> items = arg.items();
        w.insert(w.end(),
                 {arg.kind() == Argument::Kind::kList ? kListTag : kTupleTag, static_cast<uint32_t>(items.size())});
        for (const Argument& item : items) Encode(item, w);
        break;
      }
    }
  }

  // One argument as one value: a node's value, else [kArgs, 1, spelling].
  ValueId Value(const Argument& arg) {
    if (arg.is_node()) return ValueOf(arg.as_node());
    Scratch s(*this);
    s.w.assign({kArgs, 1});
    Encode(arg, s.w);
    return Intern(s.w);
  }

  ValueId ValueOf(const Node* node) {
    const StorageRef* ref = RefOf(node);
    if (!ref) return Intern({kAttr, table_.Symbol(node->name())});  // not executed (lint forbids this)
    // A piece of a filling buffer read back is that piece (as Read of the
    // spelled [kPieces ...] value would find), without spelling the buffer.
    if (std::optional<ValueId> piece = PendingPiece(storages_[ref->storage], ref->path)) return *piece;
    return Read(Root(ref->storage), ref->path);
  }

  // The storage's whole value, its pending pieces spelled first.
  ValueId Root(uint32_t index) {
    Storage& storage = storages_[index];
    PendingPieces* pending = PendingOf(storage);
    if (pending && !pending->spelled) {
      std::vector<uint32_t> w = {kPieces, pending->empty};
      PushInt(w, pending->dim);
      PushInt(w, pending->total);
      w.push_back(static_cast<uint32_t>(pending->by_start.size()));
      for (const auto& [start, span] : pending->by_start) {
        PushInt(w, start);
        PushInt(w, span.end);
        w.push_back(span.value);
      }
      storage.root = Intern(w);
      pending->spelled = true;
    }
    return storage.root;
  }

  PendingPieces* PendingOf(const Storage& storage) {
    if (storage.writes == Storage::kNoWrites) return nullptr;
    uint32_t at = write_logs_[storage.writes].pieces;
    return at == WriteLog::kNoPieces ? nullptr : &pending_[at];
  }

  std::optional<ValueId> PendingPiece(const Storage& storage, ValueId path) {
    PendingPieces* pending = PendingOf(storage);
    if (!pending || path == identity_path_) return std::nullopt;
    std::span<const uint32_t> p = table_.Words(path);
    if (p[1] != identity_path_) return std::nullopt;
    std::optional<SliceBounds> s = SliceOf(p[2], p[3]);
    if (!s || s->dim != pending->dim) return std::nullopt;
    auto it = pending->by_start.find(s->start);
    if (it == pending->by_start.end() || it->second.end != s->end) return std::nullopt;
    return it->second.value;
  }

  // ---- views and writes

  ValueId Step(ValueId parent, uint32_t op, ValueId params) { return Intern({kPath, parent, op, params}); }

  // The value at `path` of a storage whose whole value is `root`.
  ValueId Read(ValueId root, ValueId path) {
    if (path == identity_path_) return root;
    uint64_t key = (uint64_t{root} << 32) | path;
    if (const uint32_t* known = reads_.Find(key)) return *known;
    ValueId value = ReadUncached(root, path);
    reads_.Set(key, value);
    return value;
  }

  ValueId ReadUncached(ValueId root, ValueId path) {
    std::span<const uint32_t> r = table_.Words(root);
    if (r[0] == kWrite && r[2] == path) return r[3];  // reading back what was written there
    std::span<const uint32_t> p = table_.Words(path);
    ValueId parent = p[1];
    uint32_t op = p[2];
    ValueId params = p[3];
    if (parent == identity_path_ && (r[0] == kCat || r[0] == kPieces)) {
      if (std::optional<ValueId> piece = PieceAt(r, op, params)) return *piece;
    }
    ValueId base = Read(root, parent);
    if (op == reshape_) {
      std::span<const uint32_t> b = table_.Words(base);
      if (b[0] == kView && b[2] == reshape_) base = b[1];  // reshape of a reshape
    }
    return Intern({kView, base, op, params});
  }

  // A slice step [dim, start, end, 1] with int bounds, as numbers.
  struct SliceBounds {
    int64_t dim, start, end;
  };
  std::optional<SliceBounds> SliceOf(uint32_t op, ValueId params) {
    if (op != slice_) return std::nullopt;
    std::span<const uint32_t> l = table_.Words(params);
    if (l[0] != kArgs || l[1] != 4 || l.size() != 2 + 4 * 3) return std::nullopt;
    int64_t v[4];
    for (size_t i = 0; i < 4; ++i) {
      if (l[2 + 3 * i] != kIntTag) return std::nullopt;
      v[i] = ReadInt(l, 3 + 3 * i);
    }
    if (v[3] != 1 || v[0] < 0 || v[1] < 0 || v[2] < v[1]) return std::nullopt;
    return SliceBounds{v[0], v[1], v[2]};
  }

  struct Piece {
    int64_t start, end;
    ValueId value;
  };
  // Pieces of a kCat ([kCat, dim(2), n, ...]) or kPieces ([kPieces, buffer, dim(2), total(2), n, ...]).
  static size_t PiecesAt(std::span<const uint32_t> w) { return w[0] == kCat ? 3 : 6; }
  static int64_t DimOf(std::span<const uint32_t> w) { return ReadInt(w, w[0] == kCat ? 1 : 2); }
  static std::vector<Piece> PiecesOf(std::span<const uint32_t> w) {
    std::vector<Piece> out;
    size_t at = PiecesAt(w);
    for (uint32_t i = 0; i < w[at]; ++i) {
      size_t p = at + 1 + i * 5;
      out.push_back({ReadInt(w, p), ReadInt(w, p + 2), w[p + 4]});
    }
    return out;
  }

  // The piece a slice reads back: a binary search (the pieces are in start
  // order), since a k-way cat's k slices are read back one by one.
  std::optional<ValueId> PieceAt(std::span<const uint32_t> r, uint32_t op, ValueId params) {
    std::optional<SliceBounds> s = SliceOf(op, params);
    if (!s || s->dim != DimOf(r)) return std::nullopt;
    size_t at = PiecesAt(r);
    size_t lo = 0, hi = r[at];  // the first piece starting at or after s->start is in [lo, hi]
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (ReadInt(r, at + 1 + mid * 5) < s->start) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    // Zero-length pieces may share a start: look at each piece from there that starts at s->start.
    for (size_t i = lo; i < r[at]; ++i) {
      size_t p = at + 1 + i * 5;
      if (ReadInt(r, p) != s->start) break;
      if (ReadInt(r, p + 2) == s->end) return r[p + 4];
    }
    return std::nullopt;
  }

  // cat's canonical value: nested cats along `dim` flattened; one piece is itself.
  // cat's value when a piece's size along `dim` is unknown: only the order
  // of the pieces, nested cats along `dim` (sized or not) flattened.
  ValueId MakeUnsizedCat(int64_t dim, const std::vector<ValueId>& pieces) {
    std::vector<ValueId> flat;
    for (ValueId piece : pieces) {
      std::span<const uint32_t> w = table_.Words(piece);
      if (w[0] == kCat && DimOf(w) == dim) {
        for (const Piece& inner : PiecesOf(w)) flat.push_back(inner.value);
      } else if (w[0] == kCatUnsized && ReadInt(w, 1) == dim) {
        flat.insert(flat.end(), w.begin() + 4, w.end());
      } else {
        flat.push_back(piece);
      }
    }
    if (flat.size() == 1) return flat[0];
    std::vector<uint32_t> w = {kCatUnsized};
    PushInt(w, dim);
    w.push_back(static_cast<uint32_t>(flat.size()));
    w.insert(w.end(), flat.begin(), flat.end());
    return Intern(w);
  }

  ValueId MakeCat(int64_t dim, const std::vector<Piece>& pieces) {
    for (const Piece& piece : pieces) {
      std::span<const uint32_t> w = table_.Words(piece.value);
      if (w[0] == kCatUnsized && ReadInt(w, 1) == dim) {
        std::vector<ValueId> values;
        for (const Piece& p : pieces) values.push_back(p.value);
        return MakeUnsizedCat(dim, values);
      }
    }
    std::vector<Piece> flat;
    for (const Piece& piece : pieces) {
      std::span<const uint32_t> w = table_.Words(piece.value);
      if (w[0] == kCat && DimOf(w) == dim) {
        for (const Piece& inner : PiecesOf(w))
          flat.push_back({piece.start + inner.start, piece.start + inner.end, inner.value});
      } else {
        flat.push_back(piece);
      }
    }
    if (flat.size() == 1) return flat[0].value;
    std::vector<uint32_t> w = {kCat};
    PushInt(w, dim);
    w.push_back(static_cast<uint32_t>(flat.size()));
    for (const Piece& piece : flat) {
      PushInt(w, piece.start);
      PushInt(w, piece.end);
      w.push_back(piece.value);
    }
    return Intern(w);
  }

  // The storage value after writing `src` at `path` of a storage whose value
  // is `root`; `buffer` is the storage's creator (for empty buffers' sizes).
  ValueId Write(ValueId root, ValueId path, ValueId src, const Node* buffer) {
    if (path == identity_path_) return src;
    std::span<const uint32_t> r = table_.Words(root);
    if (r[0] == kWrite && r[2] == path) return Intern({kWrite, r[1], path, src});  // overwritten
    std::span<const uint32_t> p = table_.Words(path);
    if (p[1] == identity_path_) {
      if (std::optional<SliceBounds> s = SliceOf(p[2], p[3])) {
        if (std::optional<ValueId> assembled = WritePiece(root, *s, src, buffer)) return *assembled;
      }
    }
    return Intern({kWrite, root, path, src});
  }

  // Writing a slice of an `empty` buffer (or of one partly written so): the
  // cat the buffer becomes once its pieces cover it.
  std::optional<ValueId> WritePiece(ValueId root, SliceBounds s, ValueId src, const Node* buffer) {
    std::span<const uint32_t> r = table_.Words(root);
    std::vector<Piece> pieces;
    ValueId empty;
    int64_t total;
    if (r[0] == kOp && r[1] == empty_) {
      const TensorMeta* meta = TensorOf(buffer);
      if (!meta || s.dim >= static_cast<int64_t>(meta->sizes.size()) || !meta->sizes[s.dim].is_static()) {
        return std::nullopt;
      }
      empty = root;
      total = meta->sizes[s.dim].value();
    } else if (r[0] == kPieces && DimOf(r) == s.dim) {
      empty = r[1];
      total = ReadInt(r, 4);
      pieces = PiecesOf(r);
    } else {
      return std::nullopt;
    }
    if (s.end > total) return std::nullopt;
    auto at = pieces.begin();
    while (at != pieces.end() && at->end <= s.start) ++at;
    if (at != pieces.end() && at->start < s.end) return std::nullopt;  // overlaps a piece
    pieces.insert(at, Piece{s.start, s.end, src});
    bool covered = pieces.front().start == 0 && pieces.back().end == total;
    for (size_t i = 1; covered && i < pieces.size(); ++i) covered = pieces[i - 1].end == pieces[i].start;
    if (covered) return MakeCat(s.dim, pieces);
    std::vector<uint32_t> w = {kPieces, empty};
    PushInt(w, s.dim);
    PushInt(w, total);
    w.push_back(static_cast<uint32_t>(pieces.size()));
    for (const Piece& piece : pieces) {
      PushInt(w, piece.start);
      PushInt(w, piece.end);
      w.push_back(piece.value);
    }
    return Intern(w);
  }

  void WriteInto(const Node* target, ValueId value, const Node* writer, const Node* source = nullptr) {
    const StorageRef* ref = target ? RefOf(target) : nullptr;
    if (!ref) return;
    uint32_t index = ref->storage;
    if (storages_[index].writes == Storage::kNoWrites) {
      storages_[index].writes = static_cast<uint32_t>(write_logs_.size());
      write_logs_.push_back({writer, nullptr, nullptr});
    }
    if (!WritePending(index, ref->path, value)) {
      ValueId root = Root(index);
      write_logs_[storages_[index].writes].pieces = WriteLog::kNoPieces;  // spelled; what follows is no piece
      Storage& storage = storages_[index];
      storage.root = Write(root, ref->path, value, storage.creator);
    }
    write_logs_[storages_[index].writes].last_writer = writer;
    write_logs_[storages_[index].writes].last_source = source;
  }

  // A write of a non-empty dim-d slice with int bounds into an `empty`
  // buffer, or into one such writes are filling along d: kept as a piece
  // (PendingPieces), the buffer's value becoming the cat once they cover it.
  // False for any other write (and one that overlaps a piece or leaves the
  // buffer), which Write spells as before.
  bool WritePending(uint32_t index, ValueId path, ValueId src) {
    if (path == identity_path_) return false;
    std::span<const uint32_t> p = table_.Words(path);
    if (p[1] != identity_path_) return false;
    std::optional<SliceBounds> s = SliceOf(p[2], p[3]);
    if (!s || s->start == s->end) return false;  // zero-length pieces: Write's (rare) business
    Storage& storage = storages_[index];
    PendingPieces* pending = PendingOf(storage);
    if (!pending) {
      std::span<const uint32_t> r = table_.Words(storage.root);
      if (r[0] != kOp || r[1] != empty_) return false;
      const TensorMeta* meta = TensorOf(storage.creator);
      if (!meta || s->dim >= static_cast<int64_t>(meta->sizes.size()) || !meta->sizes[s->dim].is_static() ||
          s->end > meta->sizes[s->dim].value()) {
        return false;
      }
      write_logs_[storage.writes].pieces = static_cast<uint32_t>(pending_.size());
      pending = &pending_.emplace_back();
      pending->empty = storage.root;
      pending->dim = s->dim;
      pending->total = meta->sizes[s->dim].value();
    } else if (s->dim != pending->dim || s->end > pending->total) {
      return false;
    }
    auto next = pending->by_start.upper_bound(s->start);
    if (next != pending->by_start.end() && next->first < s->end) return false;  // overlaps the next piece
    if (next != pending->by_start.begin() && std::prev(next)->second.end > s->start) return false;  // or the one before
    pending->by_start.emplace(s->start, PendingPieces::Span{s->end, src});
    pending->covered += s->end - s->start;
    pending->spelled = false;
    if (pending->covered == pending->total) {  // non-overlapping inside [0, total): they cover it exactly
      std::vector<Piece> pieces;
      pieces.reserve(pending->by_start.size());
      for (const auto& [start, span] : pending->by_start) pieces.push_back({start, span.end, span.value});
      storage.root = MakeCat(pending->dim, pieces);
      write_logs_[storage.writes].pieces = WriteLog::kNoPieces;
    }
    return true;
  }

  // ---- calls

  // The schema of a call whose schema writes an argument (`Tensor(a!) x`), if
  // the session has one: a custom op defined with `op define` says which
  // arguments it writes, which its name does not.
  const OpSchema* WritingSchema(const Node* node) const {
    if (!schemas_ || node->op() != OpKind::kCallFunction) return nullptr;
    const OpSchema* schema = schemas_->Find(node->target());
    bool writes = schema && std::any_of(schema->arguments.begin(), schema->arguments.end(),
                                        [](const SchemaArgument& arg) { return arg.is_write; });
    return writes ? schema : nullptr;
  }

  // Fills `info` when inplaceable_npu_ops pairs `target` (an in-place op)
  // with a functional form whose values it can count: the functional form's
  // schema, else the in-place op's (its tensor returns, then one per
  // mutated argument), must return plain tensors. A pair it cannot count is
  // named in the summary's `unmodelled`: its writes are then valued as the
  // in-place op's own (kSchemaWrites), which its functional form never equals.
  bool PairInplace(const Node* node, std::string_view target, TargetInfo& info) {
    if (!inplaceable_ || node->op() != OpKind::kCallFunction) return false;
    const InplaceableNpuOp* pair = inplaceable_->FindByInplace(target);
    if (!pair) return false;
    auto tensors_only = [](const OpSchema& schema) {
      return std::all_of(schema.returns.begin(), schema.returns.end(),
                         [](const SchemaArgument& r) { return r.type == "Tensor"; });
    };
    const OpSchema* functional = schemas_ ? schemas_->Find(pair->functional) : nullptr;
    const OpSchema* inplace = schemas_ ? schemas_->Find(pair->inplace) : nullptr;
    std::optional<size_t> outs;
    if (functional && tensors_only(*functional) && functional->returns.size() >= pair->mutated_args.size()) {
      outs = functional->returns.size() - pair->mutated_args.size();
    } else if (!functional && inplace) {
      size_t tensors = std::count_if(inplace->returns.begin(), inplace->returns.end(),
                                     [](const SchemaArgument& r) { return r.type == "Tensor"; });
      bool none = inplace->returns.size() == 1 && inplace->returns[0].type == "None";
      if (none || tensors == inplace->returns.size()) outs = none ? 0 : tensors;
    }
    if (!outs) {
      NoteUnmodelled(
          fmt::format("'{}' is valued as itself, not as its functional form '{}' (no schema of either "
                      "says how many tensors '{}' returns)",
                      pair->inplace, pair->functional, pair->functional));
      return false;
    }
    info.op = table_.Symbol(SplitName(pair->functional).base);
    info.paired = pair;
    info.paired_outs = *outs;
    return true;
  }

  const TargetInfo& Classify(const Node* node) {
    const std::string* key = &node->target();
    if (const uint32_t* known = target_index_.Find(Key(key))) return targets_[*known];
    TargetInfo info;
    std::string_view target = StripTorchOps(node->target());
    OpName name = SplitName(target);
    info.op = table_.Symbol(name.base);
    const OpInfo* op = node->op() == OpKind::kCallFunction ? registry_.Find(target) : nullptr;
    std::string_view base = name.base;
    auto ends_with = [&](std::string_view suffix) {
      return base.size() >= suffix.size() && base.substr(base.size() - suffix.size()) == suffix;
    };
    if (node->op() != OpKind::kCallFunction) {
      info.action = Action::kFunctional;
    } else if (target.substr(0, 4) == "air." || (op && op->category == OpCategory::kStreamControl)) {
      info.action = Action::kStream;
    } else if (target == "operator.getitem") {
      info.action = Action::kGetitem;
    } else if (base == "aten.copy" && name.trailing_underscore) {
      info.action = Action::kCopyInto;
    } else if (base == "aten.copy") {
      info.action = Action::kCopyOf;
    } else if (name.overload == "out" || (name.overload.size() > 4 && name.overload.ends_with("_out"))) {
      // torch names out= overloads `out` or `<Overload>_out` (sum.IntList_out, add.out).
      info.action = Action::kOut;
    } else if (PairInplace(node, target, info)) {
      info.action = Action::kPairedInplace;
    } else if (const OpSchema* schema = WritingSchema(node); schema) {
      info.action = Action::kSchemaWrites;
      info.schema = schema;
    } else if (name.trailing_underscore || (op && op->inplace)) {
      info.action = Action::kInplace;
    } else if (base == "aten.view" || base == "aten.reshape" || base == "aten._unsafe_view" ||
               base == "aten._reshape_alias") {
      info.action = Action::kReshape;
    } else if (base == "aten.alias" || base == "aten.detach" || base == "aten.lift_fresh" || base == "aten.expand") {
      info.action = Action::kIdentityView;
    } else if (base == "aten.clone" || base == "aten.contiguous" || base == "aten.lift_fresh_copy") {
      info.action = Action::kIdentityCopy;
    } else if (base == "aten._to_copy") {
      info.action = Action::kToCopy;
    } else if (base == "aten.cat") {
      info.action = Action::kCat;
    } else if (ends_with("_scatter") && FindViewSchema(base.substr(0, base.size() - 8))) {
      info.action = Action::kScatter;
      info.op = table_.Symbol(base.substr(0, base.size() - 8));
    } else if (FindViewSchema(base) || (op && op->category == OpCategory::kView)) {
      info.action = Action::kView;
    }
    info.arithmetic_zero = base == "aten.add" || base == "aten.sub";
    info.arithmetic_one = base == "aten.mul" || base == "aten.div";
    target_index_.Set(Key(key), static_cast<uint32_t>(targets_.size()));
    targets_.push_back(info);
    return targets_.back();
  }

  // A view step's parameters: canonical schemas get their named parameters
  // with defaults filled; other views their arguments after the first `skip`.
  ValueId ViewParams(const Node* node, uint32_t op, size_t skip) {
    const ViewSchema* schema = FindViewSchema(table_.SymbolText(op));
    Scratch s(*this);
    std::vector<uint32_t>& w = s.w;
    w.assign({kArgs, 0});
    if (schema) {
      for (size_t i = 0; i < schema->names.size(); ++i) {
        const Argument* arg = FindArg(*node, skip + i, schema->names[i]);
        if (arg) {
          Encode(*arg, w);
        } else if (schema->defaults[i]) {
          Encode(*schema->defaults[i], w);
        } else {
          w.push_back(kNoneTag);
        }
        ++w[1];
      }
    } else {
      for (size_t i = skip; i < node->args().size(); ++i, ++w[1]) Encode(node->args()[i], w);
      for (const Kwarg& kwarg : node->kwargs()) {
        w.push_back(table_.Symbol(kwarg.name));
        Encode(kwarg.value, w);
        ++w[1];
      }
    }
    return Intern(w);
  }

  ValueId OpValue(uint32_t op, const Node* node, std::string_view skip_kwarg = {}) {
    Scratch s(*this);
    std::vector<uint32_t>& w = s.w;
    w.assign({kOp, op, static_cast<uint32_t>(node->args().size())});
    for (const Argument& arg : node->args()) Encode(arg, w);
    size_t count_at = w.size();
    w.push_back(0);
    for (const Kwarg& kwarg : node->kwargs()) {
      if (kwarg.name == skip_kwarg) continue;
      w.push_back(table_.Symbol(kwarg.name));
      Encode(kwarg.value, w);
      ++w[count_at];
    }
    return Intern(w);
  }

  // The value of `source[index]` as OpValue(getitem_, node) spells it for a
  // getitem node whose arguments are `source`'s node and the int `index`.
  ValueId GetitemValue(ValueId source, int64_t index) {
    Scratch s(*this);
    s.w.assign({kOp, getitem_, 2, kNodeTag, source});
    Encode(Argument::Int(index), s.w);
    s.w.push_back(0);  // no kwargs
    return Intern(s.w);
  }

  const Node* Arg0(const Node* node) {
    const Argument* arg = node->args().empty() ? nullptr : &node->args()[0];
    return arg && arg->is_node() ? arg->as_node() : nullptr;
  }

  void ViewOf(const Node* node, const Node* base, uint32_t op, ValueId params) {
    const StorageRef* ref = RefOf(base);
    if (!ref) return Bind(node, NewStorage(Intern({kOp, op, 1, params, 0}), node));
    StorageRef view = *ref;
    view.path = Step(ref->path, op, params);
    Bind(node, view);
  }

  // Names what this summary values only roughly (EffectSummary::unmodelled):
  // the first few, then "...".
  void NoteUnmodelled(std::string what) {
    constexpr size_t kNamed = 3;
    if (unmodelled_->size() > kNamed) return;
    unmodelled_->push_back(unmodelled_->size() == kNamed ? std::string("...") : std::move(what));
  }

  // A slice of an `empty` buffer whose bounds are values computed in the
  // graph: SliceOf reads int bounds only, so it is no piece of the filling
  // buffer, and the buffer's value is rough. Other slices with computed
  // bounds are valued exactly (a view with those values): not named.
  void NoteComputedSliceBounds(const Node* node) {
    if (StripTorchOps(node->target()) != "aten.slice.Tensor") return;
    const Node* base = node->args().empty() || !node->args()[0].is_node() ? nullptr : node->args()[0].as_node();
    if (!base || !StripTorchOps(base->target()).starts_with("aten.empty")) return;
    for (size_t i = 1; i < node->args().size() && i < 4; ++i) {
      if (!node->args()[i].is_node()) continue;
      return NoteUnmodelled(
          fmt::format("slice '{}' has bounds computed in the graph ('{}'), and a slice of a "
                      "filling buffer is valued only with int bounds",
                      node->name(), node->args()[i].as_node()->name()));
    }
  }

  void Call(const Node* node) {
    NoteComputedSliceBounds(node);
    const TargetInfo& info = Classify(node);
    const Node* self = Arg0(node);
    switch (info.action) {
      case Action::kStream: return Bind(node, NewStorage(token_, node));
      case Action::kGetitem: {
        const Node* source = self;
        bool aliases = false;
        if (source && source->op() == OpKind::kCallFunction) {
          Action a = Classify(source).action;
          aliases = a == Action::kView || a == Action::kInplace || a == Action::kOut || a == Action::kCopyInto ||
                    (a == Action::kGetitem && RefOf(source) && RefOf(source)->path != identity_path_);
        }
        if (aliases) return ViewOf(node, source, getitem_, ViewParams(node, getitem_, 1));
        return Bind(node, NewStorage(OpValue(getitem_, node), node));
      }
      case Action::kReshape:
      case Action::kIdentityView:
        if (!self) break;
        if (SameSizesAndDtype(TensorOf(node), TensorOf(self))) return Bind(node, *RefOf(self));
        if (info.action == Action::kReshape) {
          const TensorMeta* meta = TensorOf(node);
          bool static_shape =
              meta && std::all_of(meta->sizes.begin(), meta->sizes.end(), [](const Dim& d) { return d.is_static(); });
          ValueId shape;
          if (static_shape) {
            std::vector<Argument> sizes;
            for (const Dim& d : meta->sizes) sizes.push_back(Argument::Int(d.value()));
            shape = Value(Argument::List(std::move(sizes)));
          } else {
            shape = Value(node->args().size() > 1 ? node->args()[1] : Argument::None());
          }
          return ViewOf(node, self, reshape_, shape);
        }
        return ViewOf(node, self, info.op, ViewParams(node, info.op, 1));
      case Action::kView:
        if (!self) break;
        if (info.op == slice_ && SameSizesAndDtype(TensorOf(node), TensorOf(self))) return Bind(node, *RefOf(self));
        return ViewOf(node, self, info.op, ViewParams(node, info.op, 1));
      case Action::kIdentityCopy:
        if (!self) break;
        return Bind(node, NewStorage(ValueOf(self), node));
      case Action::kToCopy:
        if (self && SameSizesAndDtype(TensorOf(node), TensorOf(self))) {
          return Bind(node, NewStorage(ValueOf(self), node));
        }
        break;
      case Action::kInplace: {
        if (!self) break;
        ValueId value = OpValue(info.op, node);
        WriteInto(self, value, node);
        return Bind(node, *RefOf(self));
      }
      case Action::kCopyInto: {
        const Argument* src = FindArg(*node, 1, "src");
        if (!self || !src) break;
        WriteInto(self, Value(*src), node, src->is_node() ? src->as_node() : nullptr);
        return Bind(node, *RefOf(self));
      }
      case Action::kCopyOf: {
        // Without broadcasting (same sizes and dtype) the result holds src's value.
        const Argument* src = FindArg(*node, 1, "src");
        if (self && src && src->is_node() && SameSizesAndDtype(TensorOf(src->as_node()), TensorOf(self))) {
          return Bind(node, NewStorage(ValueOf(src->as_node()), node));
        }
        break;
      }
      case Action::kSchemaWrites: {
        // Each written argument gets a value of its own (op!name of the
        // call's arguments); the result is a fresh op(args), as for a
        // functional op.
        for (size_t i = 0; i < info.schema->arguments.size(); ++i) {
          const SchemaArgument& param = info.schema->arguments[i];
          if (!param.is_write) continue;
          const Argument* given = FindArg(*node, i, param.name);
          if (!given || !given->is_node()) continue;
          uint32_t written = table_.Symbol(fmt::format("{}!{}", table_.SymbolText(info.op), param.name));
          WriteInto(given->as_node(), OpValue(written, node), node);
        }
        break;
      }
      case Action::kPairedInplace: {
        // TorchAir's reinplace reads node.args[idx] for each mutated argument.
        ValueId functional = OpValue(info.op, node);
        for (size_t k = 0; k < info.paired->mutated_args.size(); ++k) {
          size_t index = info.paired->mutated_args[k];
          if (index < node->args().size() && node->args()[index].is_node()) {
            WriteInto(node->args()[index].as_node(), GetitemValue(functional, info.paired_outs + k), node);
          }
        }
        return Bind(node, NewStorage(info.paired_outs == 1 ? GetitemValue(functional, 0) : functional, node));
      }
      case Action::kOut: {
        const Argument* out = node->kwarg("out");
        if (!out || !out->is_node() || !RefOf(out->as_node())) break;
        WriteInto(out->as_node(), OpValue(info.op, node, "out"), node);
        return Bind(node, *RefOf(out->as_node()));
      }
      case Action::kScatter: {
        const Argument* src = FindArg(*node, 1, "src");
        if (!self || !src) break;
        ValueId path = Step(identity_path_, info.op, ViewParams(node, info.op, 2));
        StorageRef fresh = NewStorage(0, node);
        storages_[fresh.storage].root = Write(ValueOf(self), path, Value(*src), self);
        return Bind(node, fresh);
      }
      case Action::kCat:
        if (std::optional<ValueId> cat = CatValue(node)) return Bind(node, NewStorage(*cat, node));
        break;
      case Action::kFunctional:
        if (self && (info.arithmetic_zero || info.arithmetic_one) &&
            SameSizesAndDtype(TensorOf(node), TensorOf(self))) {
          const Argument* other = FindArg(*node, 1, "other");
          double identity = info.arithmetic_zero ? 0 : 1;
          bool noop =
              other && ((other->kind() == Argument::Kind::kInt && static_cast<double>(other->as_int()) == identity) ||
                        (other->kind() == Argument::Kind::kFloat && other->as_float() == identity));
          if (noop && !node->kwarg("alpha")) return Bind(node, NewStorage(ValueOf(self), node));
        }
        break;
    }
    Bind(node, NewStorage(OpValue(info.op, node), node));
  }

  std::optional<ValueId> CatValue(const Node* node) {
    const Argument* tensors = FindArg(*node, 0, "tensors");
    const Argument* dim_arg = FindArg(*node, 1, "dim");
    if (!tensors || !tensors->is_sequence() || tensors->items().empty()) return std::nullopt;
    if (dim_arg && dim_arg->kind() != Argument::Kind::kInt) return std::nullopt;
    int64_t dim = dim_arg ? dim_arg->as_int() : 0;
    std::vector<Piece> pieces;
    std::vector<ValueId> values;
    bool sized = true;
    int64_t offset = 0;
    for (const Argument& item : tensors->items()) {
      const TensorMeta* meta = item.is_node() ? TensorOf(item.as_node()) : nullptr;
      values.push_back(Value(item));
      if (!meta || dim < 0 || dim >= static_cast<int64_t>(meta->sizes.size()) || !meta->sizes[dim].is_static()) {
        sized = false;
        continue;
      }
      int64_t size = meta->sizes[dim].value();
      pieces.push_back({offset, offset + size, values.back()});
      offset += size;
    }
    return sized ? MakeCat(dim, pieces) : MakeUnsizedCat(dim, values);
  }

  // ---- the summary

  const WriteLog* LogOf(const Storage& storage) const {
    return storage.writes == Storage::kNoWrites ? nullptr : &write_logs_[storage.writes];
  }

  void Summarize(const Graph& graph, const Node* output, EffectSummary& summary) {
    std::vector<const Argument*> flat;
    std::function<void(const Argument&)> flatten = [&](const Argument& arg) {
      if (arg.is_sequence()) {
        for (const Argument& item : arg.items()) flatten(item);
      } else {
        flat.push_back(&arg);
      }
    };
    for (const Argument& arg : output->args()) flatten(arg);
    for (const Argument* arg : flat) {
      EffectSummary::Output out;
      if (arg->is_node() && RefOf(arg->as_node())) {
        const Storage& storage = storages_[RefOf(arg->as_node())->storage];
        out.value = ValueOf(arg->as_node());
        out.aliases = storage.input() ? storage.input()->name() : "";
        out.source = Describe(arg->as_node());
        if (const WriteLog* log = LogOf(storage)) {
          out.source += fmt::format(", last written in place by {}", Describe(log->last_writer));
        }
      } else {
        out.value = Value(*arg);
        out.source = "a constant";
      }
      summary.outputs.push_back(std::move(out));
    }
    (void)graph;
    for (uint32_t index = 0; index < storages_.size(); ++index) {
      const Storage& storage = storages_[index];
      const WriteLog* log = LogOf(storage);
      if (!storage.input() || !log) continue;
      std::string last = Describe(log->last_writer);
      // A copy_ of a value some op wrote in place: that op is the likelier culprit.
      const StorageRef* source = log->last_source ? RefOf(log->last_source) : nullptr;
      const WriteLog* source_log = source ? LogOf(storages_[source->storage]) : nullptr;
      if (source_log) {
        last += fmt::format(" (copying {}, written in place by {})", Describe(log->last_source),
                            Describe(source_log->last_writer));
      }
      ValueId root = Root(index);
      bool keeps_entry_value = root == Intern({kInput, table_.Symbol(storage.input()->name())});
      summary.written.push_back({storage.input()->name(), root, Describe(log->first_writer), last, keeps_entry_value});
    }
  }

  const OpRegistry& registry_;
  const OpSchemaTable* schemas_;          // may be null: no op has a schema
  const InplaceableNpuOps* inplaceable_;  // may be null: no op is paired
  ValueTable& table_;
  ValueId identity_path_, token_;
  uint32_t reshape_, getitem_, empty_;
  std::vector<std::string>* unmodelled_ = nullptr;
  uint32_t slice_ = table_.Symbol("aten.slice");
  std::vector<Storage> storages_;
  std::vector<WriteLog> write_logs_;
  std::deque<PendingPieces> pending_;  // a deque: PendingOf hands out pointers
  static constexpr uint32_t kUnbound = ~uint32_t{0};
  const Graph* graph_ = nullptr;
  std::vector<StorageRef> refs_;  // by node position; kUnbound storage before the node ran
  FlatIndex reads_;
  std::vector<std::vector<uint32_t>> free_;  // for Scratch
  FlatIndex target_index_;                   // interned target string -> index in targets_
  std::deque<TargetInfo> targets_;           // a deque: Classify hands out references
};

}  // namespace

EffectTables EffectTablesOf(const PassContext& context) {
  return {.schemas = &SchemasOf(context), .inplaceable = &InplaceableOf(context)};
}

std::shared_ptr<const EffectSummary> SummarizeEffects(const Graph& graph, const OpRegistry& registry,
                                                      std::shared_ptr<ValueTable> table, EffectTables tables) {
  auto summary = std::make_shared<EffectSummary>();
  summary->table = table ? std::move(table) : std::make_shared<ValueTable>();
  Executor executor(registry, tables, *summary->table);
  executor.Run(graph, *summary);
  return summary;
}

Status CheckEffects(const EffectSummary& before, const EffectSummary& after, EffectPolicy policy) {
  if (policy == EffectPolicy::kUnchecked) return Status::Ok();
  // Under kPreserveValues a write that leaves the input holding its entry value
  // (copy_(x, x)) is no write: the caller sees values, not the act, and
  // npugraph_ex's eliminate_self_copy removes such copies
  // (npugraph_ex/_acl_concrete_graph/graph_pass.py:1480-1503). The weaker
  // policies are about the act itself: decompose_auto_functionalized leaves
  // copy_(x, x) so that x stays a written input.
  auto counts = [policy](const EffectSummary::WrittenInput& w) {
    return policy != EffectPolicy::kPreserveValues || !w.keeps_entry_value;
  };
  auto find = [&counts](const EffectSummary& s, const std::string& input) -> const EffectSummary::WrittenInput* {
    for (const auto& w : s.written) {
      if (w.input == input && counts(w)) return &w;
    }
    return nullptr;
  };
  for (const auto& w : after.written) {
    if (counts(w) && !find(before, w.input)) {
      return Status::Errorf("graph input '{}' is now written by {}; before, the graph did not write it", w.input,
                            w.first_writer);
    }
  }
  for (const auto& w : before.written) {
    if (counts(w) && !find(after, w.input)) {
      return Status::Errorf("graph input '{}' is no longer written; before, {} wrote it", w.input, w.last_writer);
    }
  }
  if (before.outputs.size() != after.outputs.size()) {
    return Status::Errorf("the graph now returns {} values; before, {}", after.outputs.size(), before.outputs.size());
  }
  if (before.table != after.table) return Status::Error("internal: effect summaries made with different value tables");
  if (policy == EffectPolicy::kPreserveValues) {
    for (const auto& w : after.written) {
      const auto* old = find(before, w.input);
      if (old && old->value != w.value) {
        return Status::Errorf("graph input '{}' now ends with a different value, last written by {}; before, by {}",
                              w.input, w.last_writer, old->last_writer);
      }
    }
    for (size_t i = 0; i < after.outputs.size(); ++i) {
      if (after.outputs[i].value != before.outputs[i].value) {
        return Status::Errorf("output {} now holds a different value: {}; before, {}", i, after.outputs[i].source,
                              before.outputs[i].source);
      }
    }
  }
  if (policy == EffectPolicy::kPreserveAliasing) {
    auto name = [](const std::string& input) {
      return input.empty() ? "no graph input" : fmt::format("graph input '{}'", input);
    };
    for (size_t i = 0; i < after.outputs.size(); ++i) {
      if (after.outputs[i].aliases != before.outputs[i].aliases) {
        return Status::Errorf("output {} ({}) now aliases {}; before, {}", i, after.outputs[i].source,
                              name(after.outputs[i].aliases), name(before.outputs[i].aliases));
      }
    }
  }
  return Status::Ok();
}

}  // namespace airscope
