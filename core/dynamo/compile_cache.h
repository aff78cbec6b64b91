// Frame and its compile cache: Dynamo's frame evaluation, simulated.
//
// A Frame is one compiled function (a loaded graph). Call() looks the inputs
// up in the cache entries (newest first, as Dynamo's cache list): a hit runs
// the entry; a miss compiles through the caller's CompileFn and stores a new
// entry with compile id `frame/compile` ("0/1"), unless the frame already
// holds cache_size_limit entries, in which case the call runs eager (Dynamo's
// recompile_limit; the warning is reported once). Dynamic dims come from
// mark_dynamic, TorchAir dim gears and automatic dynamic (a dim that changed
// between compiles is compiled as a symbol the next time). Dims marked with
// mark_dynamic or gears get a symbol of their own; automatic dynamic dims of
// equal size share one (Dynamo's DimDynamic.DYNAMIC vs DUCK).
//
// Dim gears follow TorchAir (inference/_gear_utils.py): set_dim_gears'
// checks when they are set; at every compile, when any input has gears,
// guard_gears_shape (run by TorchAir's stage compiler on AOT's fake inputs,
// npu_fx_compiler.py:810-817): a gear dim whose size is not a gear fails the
// compile with TorchAir's AssertionError (wrapped by Dynamo as
// BackendCompilerFailed), every other dim of every input is specialized
// (guard_int), and a specialized dim that mark_dynamic (or set_dim_gears
// itself) asked to stay dynamic fails the compile with Dynamo's
// ConstraintViolationError.
// What a hit entry then runs (in reduce-overhead mode TorchAir's AclGraph,
// core/runtime/acl_graph.h) is the caller's business: guards only.
// A failed compile leaves the frame as it was (nothing cached, no state moved).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dynamo/dim_gears.h"
#include "core/dynamo/guards.h"
#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// Compiling: given the frame's graph, the placeholder metas the entry
// specializes on (symbols where dims are dynamic) and the call's own metas
// (the hints Dynamo's fake tensors carry), return the artifact.
using CompileFn = std::function<Result<std::unique_ptr<Graph>>(
    const Graph& graph, const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& hints)>;

// Dynamo's config knobs, by their names. torch.compile(dynamic=...) sets two
// of them for the frame (torch/_dynamo/eval_frame.py make_set_enable_dynamic):
// dynamic=True is assume_static_by_default=False (every dim a symbol from the
// first compile, duck sized; 0 and 1 still specialized), dynamic=False is
// automatic_dynamic_shapes=False with assume_static_by_default=True (only
// mark_dynamic makes a symbol), dynamic=None leaves the defaults below.
struct FrameOptions {
  size_t cache_size_limit = 8;           // Dynamo's config.recompile_limit (cache_size_limit)
  bool automatic_dynamic = true;         // config.automatic_dynamic_shapes
  bool assume_static_by_default = true;  // config.assume_static_by_default
};

struct CacheEntry {
  std::string compile_id;  // "0/1"
  GuardSet guards;
  std::unique_ptr<Graph> artifact;
  uint64_t hits = 0;
};

struct CallOutcome {
  enum class Kind : uint8_t { kHit, kCompiled, kEager };
  Kind kind = Kind::kHit;
  size_t entry = 0;                        // index into entries() (kHit, kCompiled)
  std::string compile_id;                  // the entry's, or the refused one for kEager
  std::vector<std::string> failures;       // "0/0: tensor 'x' size mismatch ..." newest entry first
  bool limit_hit_now = false;              // this call first hit the recompile limit
  std::vector<std::string> dynamic_notes;  // why dims became symbolic in this compile
};

class Frame {
 public:
  Frame(std::string function, std::string file, int frame_id);

  // mark_dynamic(x, dim, min, max): compiled as a symbol from the first compile.
  void MarkDynamic(const std::string& input, size_t dim, int64_t min, int64_t max);
  // torchair.inference.set_dim_gears(input, gears) on an input of `ndim`
  // dims: TorchAir's AssertionError when the dict is refused or differs from
  // the one already set (setting the same dict again is fine). The frame
  // keeps the dict for every later compile (as if each call passed the
  // tensor it was set on).
  Status SetDimGears(const std::string& input, size_t ndim, DimGears gears);
  const std::map<std::string, DimGears>& dim_gears() const { return dim_gears_; }

  // `inputs` must be bound to the graph (placeholder order). Errors come only
  // from `compile` or from dynamic markings that do not fit the inputs; the
  // frame is unchanged then.
  Result<CallOutcome> Call(const Graph& graph, const std::vector<CallInput>& inputs, const FrameOptions& options,
                           const CompileFn& compile);

  const std::vector<std::unique_ptr<CacheEntry>>& entries() const { return entries_; }
  const std::string& function() const { return function_; }
  const std::string& file() const { return file_; }
  int frame_id() const { return frame_id_; }
  uint64_t calls() const { return calls_; }
  uint64_t eager_calls() const { return eager_calls_; }
  bool limit_hit() const { return limit_hit_; }
  // The last miss (compile or eager), for `why`; nullopt before any miss.
  const std::optional<CallOutcome>& last_miss() const { return last_miss_; }
  const std::vector<std::string>& last_miss_shapes() const { return last_miss_shapes_; }

  // Dynamo's recompile message for a miss.
  std::string RecompileMessage(const CallOutcome& outcome) const;
  std::string LimitMessage(const CallOutcome& outcome, size_t limit) const;

 private:
  struct Marking {
    int64_t min = 2, max = std::numeric_limits<int64_t>::max();
    bool ranged = false;  // mark_dynamic with MIN MAX (StrictMinMaxConstraint)
  };
  struct BuiltGuards {
    std::vector<TensorGuard> tensors;
    // Dynamo's ConstraintViolationError, raised once the backend has compiled
    // (produce_guards); empty when no constraint is violated.
    std::string constraint_violation;
  };
  Result<ScalarGuard> ScalarGuardFor(const CallInput& in, const FrameOptions& options,
                                     const std::function<std::string()>& fresh_symbol,
                                     std::vector<std::string>* notes) const;
  Result<BuiltGuards> BuildGuards(const std::vector<CallInput>& inputs, const FrameOptions& options,
                                  std::vector<std::string>* notes) const;
  // Guards for `inputs`, the backend's artifact, and the entry's compile id
  // (taken only when the compile succeeds).
  Result<std::unique_ptr<CacheEntry>> Compile(const Graph& graph, const std::vector<CallInput>& inputs,
                                              const FrameOptions& options, const CompileFn& compile,
                                              std::vector<std::string>& notes);

  std::string function_;
  std::string file_;
  int frame_id_ = 0;
  int next_compile_ = 0;
  std::vector<std::unique_ptr<CacheEntry>> entries_;            // creation order; lookup newest first
  std::map<std::pair<std::string, size_t>, Marking> markings_;  // mark_dynamic
  std::map<std::string, DimGears> dim_gears_;                   // set_dim_gears, by input
  // Automatic dynamic: sizes seen per input at compiles; nullopt once a dim changed.
  std::map<std::string, std::vector<std::optional<int64_t>>> seen_sizes_;
  // ... and Python scalars' values; nullopt once one changed.
  std::map<std::string, std::optional<PyScalar>> seen_scalars_;
  uint64_t calls_ = 0;
  uint64_t eager_calls_ = 0;
  bool limit_hit_ = false;
  std::optional<CallOutcome> last_miss_;
  std::vector<std::string> last_miss_shapes_;
};

}  // namespace airscope
