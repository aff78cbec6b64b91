#include "core/dynamo/compile_cache.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/dynamo/scalar_inputs.h"

namespace airscope {

Frame::Frame(std::string function, std::string file, int frame_id)
    : function_(std::move(function)), file_(std::move(file)), frame_id_(frame_id) {}

void Frame::MarkDynamic(const std::string& input, size_t dim, int64_t min, int64_t max) {
  bool ranged = min != 2 || max != std::numeric_limits<int64_t>::max();
  markings_[{input, dim}] = Marking{min, max, ranged};
}

Status Frame::SetDimGears(const std::string& input, size_t ndim, DimGears gears) {
  // gear:14-16: a tensor's dict is set once; the same dict again is fine.
  auto it = dim_gears_.find(input);
  if (it != dim_gears_.end() && !SameDimGears(it->second, gears)) {
    return Status::Errorf(
        "AssertionError: Tensor {} already has set dim gears, and it is not supported to set it again.", input);
  }
  AIRSCOPE_RETURN_IF_ERROR(CheckDimGears(gears, ndim));
  dim_gears_[input] = std::move(gears);
  return Status::Ok();
}

namespace {

// symbolic_shapes._render_range_for_constraint_violation for the two kinds
// of constraint mark_dynamic makes (RelaxedUnspecConstraint without a range,
// StrictMinMaxConstraint with one); bounds at the default range are left out.
std::string ConstraintText(const std::string& source, bool ranged, int64_t min, int64_t max) {
  if (!ranged) return fmt::format("RelaxedUnspecConstraint({})", source);
  std::string text = fmt::format("{0} = {0} in the specified range", source);
  bool lower = min > 2, upper = max != std::numeric_limits<int64_t>::max();
  if (lower && upper) return fmt::format("{} {} <= {} <= {}", text, min, source, max);
  if (upper) return fmt::format("{} {} <= {}", text, source, max);
  if (lower) return fmt::format("{} {} <= {}", text, min, source);
  return text;
}

}  // namespace

// How Dynamo wraps a Python scalar argument (torch/_dynamo/variables/
// builder.py): wrap_literal sends an int of a local to wrap_symint
// (specialize_int is False and is_int_specialization_case holds only for
// globals, nn.Module attributes and defaults), a float to wrap_symfloat
// (specialize_float False), a bool to a constant. wrap_symint returns a
// constant guarded by CONSTANT_MATCH under assume_static_by_default unless
// automatic dynamic saw the value change (process_automatic_dynamic; with
// automatic_dynamic_shapes off the frame state is overwritten instead, pgo.py
// update_automatic_dynamic), and otherwise a SymInt of its own
// (DimDynamic.DYNAMIC, create_unspecified_symint_and_symbol: no duck sizing,
// no range, 0 and 1 not specialized). wrap_symfloat's non-constant path
// passes the float as a 0-dim float64 tensor that the graph item()s into a
// SymFloat: not modelled, refused.
Result<ScalarGuard> Frame::ScalarGuardFor(const CallInput& in, const FrameOptions& options,
                                          const std::function<std::string()>& fresh_symbol,
                                          std::vector<std::string>* notes) const {
  ScalarGuard g;
  g.type = in.scalar->type;
  g.value = *in.scalar;
  auto seen = seen_scalars_.find(in.name);
  bool changed = options.automatic_dynamic && seen != seen_scalars_.end() && !seen->second;
  std::string source = fmt::format("L['{}']", in.name);
  if (g.type == PyScalar::Type::kInt && (changed || !options.assume_static_by_default)) {
    g.symbolic = true;
    g.symbol = fresh_symbol();
    if (notes) {
      notes->push_back(fmt::format("{}: {} compiled as the SymInt {} (wrap_symint)",
                                   changed ? "automatic dynamic" : "dynamic=True",
                                   changed ? source + " changed between calls;" : source, g.symbol));
    }
  } else if (g.type == PyScalar::Type::kFloat && (changed || !options.assume_static_by_default)) {
    return Status::Errorf(
        "{} = {}: Dynamo would pass this float as a 0-dim float64 tensor and item() it into a SymFloat "
        "(wrap_symfloat, {}), which airscope does not model; a float compiles only as a constant (the "
        "first value under dynamic=None, every value under dynamic=False). Nothing was compiled or cached.",
        source, in.scalar->repr, changed ? "the value changed since the last compile" : "dynamic=True");
  }
  return g;
}

Result<Frame::BuiltGuards> Frame::BuildGuards(const std::vector<CallInput>& inputs, const FrameOptions& options,
                                              std::vector<std::string>* notes) const {
  for (const auto& [key, marking] : markings_) {
    const std::string& input_name = key.first;  // lambdas cannot capture bindings before clang 16
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&input_name](const CallInput& in) { return in.name == input_name; });
    if (it != inputs.end() && key.second >= it->sizes.size()) {
      return Status::Errorf("input '{}' has {} dims; dim {} marked dynamic does not exist", key.first, it->sizes.size(),
                            key.second);
    }
  }
  // guard_gears_shape (gear:64-80) does anything only when an input has gears.
  bool any_gears = false;
  for (const CallInput& in : inputs) any_gears = any_gears || dim_gears_.count(in.name) > 0;

  BuiltGuards built;
  std::vector<std::string> violated_sources, violations;
  std::map<int64_t, std::string> duck;  // Dynamo's duck sizing: equal sizes share a symbol
  int next_symbol = 0;
  auto fresh_symbol = [&next_symbol] { return fmt::format("s{}", next_symbol++); };
  auto violate = [&](const std::string& source, std::string constraint, int64_t value) {
    violated_sources.push_back(source);
    violations.push_back(fmt::format("Not all values of {} are valid because {} was inferred to be a constant ({}).",
                                     constraint, source, value));
  };
  for (const CallInput& in : inputs) {
    TensorGuard t;
    t.name = in.name;
    if (in.scalar) {
      AIRSCOPE_ASSIGN_OR_RETURN(ScalarGuard scalar, ScalarGuardFor(in, options, fresh_symbol, notes));
      t.scalar = std::move(scalar);
      built.tensors.push_back(std::move(t));
      continue;
    }
    t.dtype = in.dtype;
    t.device = in.device;
    t.requires_grad = in.requires_grad;
    auto seen = seen_sizes_.find(in.name);
    auto gears_it = dim_gears_.find(in.name);
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      DimGuard dim;
      int64_t size = in.sizes[d];
      dim.value = size;
      std::string source = SizeSource(in.name, d);
      const GearsValue* gears = gears_it != dim_gears_.end() ? GearsOfDim(gears_it->second, d) : nullptr;
      auto mark = markings_.find({in.name, d});
      bool changed = seen != seen_sizes_.end() && d < seen->second.size() && !seen->second[d];
      // A dim Dynamo makes a duck-sized symbol of: one whose size changed (automatic dynamic),
      // and under dynamic=True every dim but a parameter's (config.force_parameter_static_shapes,
      // True by default); 0 and 1 are specialized either way.
      bool automatic = (changed || (!options.assume_static_by_default && !in.parameter)) && size >= 2;
      if (gears) {
        // _guard_dynamic_dim (gear:47-61) on the fake input's size.
        if (std::optional<std::string> rejected = GearRejection(size, *gears)) {
          return Status::Errorf("torch._dynamo.exc.BackendCompilerFailed: TorchAir's backend raised:\n{}", *rejected);
        }
        // A symbol is never 0 or 1 (Dynamo specializes those sizes), so the
        // gears it can take are those >= 2; one left means a constant.
        std::vector<int64_t> symbolic;
        for (int64_t g : AdmittedGears(*gears)) {
          if (g >= 2) symbolic.push_back(g);
        }
        if (size < 2) {
          // Static from the start: Dynamo specializes 0 and 1 (no constraint broken).
        } else if (symbolic.size() == 1) {
          dim.specialized = true;  // the gear guards leave one value: the symbol becomes that constant
          violate(source, ConstraintText(source, false, 2, std::numeric_limits<int64_t>::max()), size);
        } else {
          dim.kind = DimKind::kGears;
          dim.gears = std::move(symbolic);
          dim.symbol = fresh_symbol();
          if (notes) {
            notes->push_back(fmt::format("dim gears: {} compiled as {}, guarded to the gears {} (guard_gears_shape)",
                                         source, dim.symbol, gears->Repr()));
          }
        }
      } else if (mark != markings_.end()) {
        if (size < mark->second.min || size > mark->second.max) {
          return Status::Errorf("input '{}' dim {} is {}, outside its mark_dynamic range [{}, {}]", in.name, d, size,
                                mark->second.min, mark->second.max);
        }
        if (any_gears) {
          // guard_int on a dim mark_dynamic asked to keep dynamic.
          dim.specialized = true;
          if (size != 0 && size != 1) {
            violate(source, ConstraintText(source, mark->second.ranged, mark->second.min, mark->second.max), size);
          }
        } else {
          dim.kind = DimKind::kSymbolic;  // DimDynamic.DYNAMIC: a symbol of its own, no duck sizing
          dim.min = mark->second.min;
          dim.max = mark->second.max;
          dim.symbol = fresh_symbol();
        }
      } else if (automatic) {
        if (any_gears) {
          dim.specialized = true;
          if (notes) {
            notes->push_back(
                fmt::format("{}: {} {}, but guard_gears_shape specialized it to {} (guard_int, another input "
                            "has dim gears)",
                            changed ? "automatic dynamic" : "dynamic=True", source,
                            changed ? "changed between calls" : "is dynamic", size));
          }
        } else {
          dim.kind = DimKind::kSymbolic;  // automatic dynamic; 0 and 1 stay specialized as in Dynamo
          auto [it, fresh] = duck.emplace(size, fmt::format("s{}", next_symbol));
          if (fresh) ++next_symbol;
          dim.symbol = it->second;
          if (notes && changed) {
            notes->push_back(fmt::format("automatic dynamic: L['{}'].size()[{}] changed between calls; compiled as {}",
                                         in.name, d, dim.symbol));
          } else if (notes) {
            notes->push_back(fmt::format("dynamic=True: L['{}'].size()[{}] compiled as {}", in.name, d, dim.symbol));
          }
        }
      }
      t.sizes.push_back(std::move(dim));
    }
    for (size_t d = 0; d < in.strides.size(); ++d) {
      bool symbolic = false;
      // A stride over a dim that was dynamic when wrapped is symbolic too (None in check_tensor).
      for (size_t j = d + 1; j < t.sizes.size(); ++j) {
        symbolic = symbolic || t.sizes[j].kind != DimKind::kStatic || t.sizes[j].specialized;
      }
      t.strides.push_back(symbolic ? std::nullopt : std::optional<int64_t>(in.strides[d]));
    }
    built.tensors.push_back(std::move(t));
  }
  if (!violations.empty()) {
    // ShapeEnv.produce_guards_verbose's ConstraintViolationError.
    std::string text = fmt::format(
        "torch.fx.experimental.symbolic_shapes.ConstraintViolationError: Constraints violated ({})! For more "
        "information, run with TORCH_LOGS=\"+dynamic\".",
        fmt::join(violated_sources, ", "));
    for (const std::string& v : violations) text += "\n  - " + v;
    built.constraint_violation = std::move(text);
  }
  return built;
}

namespace {

using Entries = std::vector<std::unique_ptr<CacheEntry>>;
using SeenSizes = std::map<std::string, std::vector<std::optional<int64_t>>>;

// The entry whose guards pass, newest first (Dynamo's cache lookup order).
std::optional<size_t> FindEntry(const Entries& entries, const std::vector<CallInput>& inputs) {
  for (size_t i = entries.size(); i-- > 0;) {
    if (entries[i]->guards.Check(inputs)) return i;
  }
  return std::nullopt;
}

// Why each entry refused the call, newest first, for the recompile message.
std::vector<std::string> GuardFailures(const Entries& entries, const std::vector<CallInput>& inputs) {
  std::vector<std::string> failures;
  for (size_t i = entries.size(); i-- > 0;) {
    std::optional<std::string> why = entries[i]->guards.FirstFailure(inputs);
    failures.push_back(fmt::format("{}: {}", entries[i]->compile_id, why.value_or("guard failed")));
  }
  return failures;
}

// Automatic dynamic sees this call's sizes before the guards are built: a
// dim whose size changed since an earlier call becomes dynamic.
void SeeSizes(SeenSizes& seen, const std::vector<CallInput>& inputs, bool automatic_dynamic) {
  for (const CallInput& in : inputs) {
    if (in.scalar) continue;
    auto [it, fresh] = seen.try_emplace(in.name);
    if (fresh || it->second.size() != in.sizes.size()) {
      it->second.assign(in.sizes.begin(), in.sizes.end());
      continue;
    }
    if (!automatic_dynamic) continue;
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      if (it->second[d] && *it->second[d] != in.sizes[d]) it->second[d].reset();
    }
  }
}

// The scalar half of SeeSizes: a value that differs from the one seen at an
// earlier compile becomes nullopt (FrameStateSizeEntry.make_scalar merged
// with the old entry is auto_dynamic); without automatic dynamic the entry
// is overwritten.
void SeeScalars(std::map<std::string, std::optional<PyScalar>>& seen, const std::vector<CallInput>& inputs,
                bool automatic_dynamic) {
  for (const CallInput& in : inputs) {
    if (!in.scalar) continue;
    auto [it, fresh] = seen.try_emplace(in.name, *in.scalar);
    if (fresh || !it->second) continue;
    if (!automatic_dynamic) {
      it->second = *in.scalar;
    } else if (!(*it->second == *in.scalar)) {
      it->second.reset();
    }
  }
}

}  // namespace

Result<CallOutcome> Frame::Call(const Graph& graph, const std::vector<CallInput>& inputs, const FrameOptions& options,
                                const CompileFn& compile) {
  CallOutcome outcome;
  if (std::optional<size_t> hit = FindEntry(entries_, inputs)) {
    ++calls_;
    outcome.kind = CallOutcome::Kind::kHit;
    outcome.entry = *hit;
    outcome.compile_id = entries_[*hit]->compile_id;
    ++entries_[*hit]->hits;
    return outcome;
  }
  outcome.failures = GuardFailures(entries_, inputs);
  std::vector<std::string> shapes;
  for (const CallInput& in : inputs) shapes.push_back(fmt::format("{}={}", in.name, in.ShapeString()));

  if (entries_.size() >= options.cache_size_limit) {
    ++calls_;
    ++eager_calls_;
    outcome.kind = CallOutcome::Kind::kEager;
    outcome.compile_id = fmt::format("{}/{}", frame_id_, next_compile_);
    outcome.limit_hit_now = !limit_hit_;
    limit_hit_ = true;
    last_miss_ = outcome;
    last_miss_shapes_ = shapes;
    return outcome;
  }

  // A compile that fails leaves the sizes seen as they were.
  SeenSizes seen_before = seen_sizes_;
  auto seen_scalars_before = seen_scalars_;
  SeeSizes(seen_sizes_, inputs, options.automatic_dynamic);
  SeeScalars(seen_scalars_, inputs, options.automatic_dynamic);
  Result<std::unique_ptr<CacheEntry>> entry = Compile(graph, inputs, options, compile, outcome.dynamic_notes);
  if (!entry.ok()) {
    seen_sizes_ = std::move(seen_before);
    seen_scalars_ = std::move(seen_scalars_before);
    return entry.status();
  }
  ++calls_;
  outcome.kind = CallOutcome::Kind::kCompiled;
  outcome.entry = entries_.size();
  outcome.compile_id = (*entry)->compile_id;
  entries_.push_back(std::move(entry).value());
  if (!outcome.failures.empty()) {
    last_miss_ = outcome;
    last_miss_shapes_ = shapes;
  }
  return outcome;
}

Result<std::unique_ptr<CacheEntry>> Frame::Compile(const Graph& graph, const std::vector<CallInput>& inputs,
                                                   const FrameOptions& options, const CompileFn& compile,
                                                   std::vector<std::string>& notes) {
  AIRSCOPE_ASSIGN_OR_RETURN(BuiltGuards guards, BuildGuards(inputs, options, &notes));
  // Scalars as Dynamo traces them (scalar_inputs.h): a constant leaves the
  // graph's inputs, a SymInt stays as one (its meta, not a TensorMeta).
  std::vector<ScalarBinding> bindings(guards.tensors.size());
  std::vector<TensorMeta> metas;
  std::vector<TensorMeta> hints;
  bool any_scalar = false;
  for (size_t i = 0; i < guards.tensors.size(); ++i) {
    const TensorGuard& t = guards.tensors[i];
    if (t.scalar) {
      any_scalar = true;
      if (!t.scalar->symbolic) {
        bindings[i].constant = t.scalar->value;
        continue;
      }
      bindings[i].symbol = t.scalar->symbol;
    }
    metas.push_back(t.ToMeta());
    hints.push_back(inputs[i].ToMeta());
  }
  std::unique_ptr<Graph> bound;
  if (any_scalar) bound = BindScalarInputs(graph, bindings);
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> artifact, compile(bound ? *bound : graph, metas, hints));
  // Dynamo produces the guards after the backend compiled: a dim marked
  // dynamic that the backend specialized fails the frame there.
  if (!guards.constraint_violation.empty()) return Status::Error(guards.constraint_violation);
  auto entry = std::make_unique<CacheEntry>();
  entry->compile_id = fmt::format("{}/{}", frame_id_, next_compile_++);
  entry->guards = GuardSet(std::move(guards.tensors));
  entry->artifact = std::move(artifact);
  return entry;
}

std::string Frame::RecompileMessage(const CallOutcome& outcome) const {
  std::string text =
      fmt::format("Recompiling function {} in {}\n    triggered by the following guard failure(s):", function_, file_);
  for (const std::string& failure : outcome.failures) text += fmt::format("\n    - {}", failure);
  return text;
}

std::string Frame::LimitMessage(const CallOutcome& outcome, size_t limit) const {
  std::string last = outcome.failures.empty() ? "" : outcome.failures.front();
  return fmt::format(
      "torch._dynamo hit config.recompile_limit ({})\n   function: '{}' ({})\n   last reason: {}\n"
      "To log all recompilation reasons, use TORCH_LOGS=\"recompiles\".",
      limit, function_, file_, last);
}

}  // namespace airscope
