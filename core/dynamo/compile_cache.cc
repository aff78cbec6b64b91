#include "core/dynamo/compile_cache.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

Frame::Frame(std::string function, std::string file, int frame_id)
    : function_(std::move(function)), file_(std::move(file)), frame_id_(frame_id) {}

void Frame::MarkDynamic(const std::string& input, size_t dim, int64_t min, int64_t max) {
  markings_[{input, dim}] = Marking{DimKind::kSymbolic, min, max, {}};
}

void Frame::SetGears(const std::string& input, size_t dim, std::vector<int64_t> gears) {
  std::sort(gears.begin(), gears.end());
  gears.erase(std::unique(gears.begin(), gears.end()), gears.end());
  markings_[{input, dim}] = Marking{DimKind::kGears, 2, std::numeric_limits<int64_t>::max(), std::move(gears)};
}

Result<std::vector<TensorGuard>> Frame::BuildGuards(const std::vector<CallInput>& inputs,
                                                    std::vector<std::string>* notes) const {
  for (const auto& [key, marking] : markings_) {
    const std::string& input_name = key.first;  // lambdas cannot capture bindings before clang 16
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&input_name](const CallInput& in) { return in.name == input_name; });
    if (it != inputs.end() && key.second >= it->sizes.size()) {
      return Status::Errorf("input '{}' has {} dims; dim {} marked {} does not exist", key.first, it->sizes.size(),
                            key.second, marking.kind == DimKind::kGears ? "with gears" : "dynamic");
    }
  }
  std::vector<TensorGuard> guards;
  std::map<int64_t, std::string> duck;  // Dynamo's duck sizing: equal sizes share a symbol
  int next_symbol = 0;
  for (const CallInput& in : inputs) {
    TensorGuard t;
    t.name = in.name;
    t.dtype = in.dtype;
    t.device = in.device;
    t.requires_grad = in.requires_grad;
    auto seen = seen_sizes_.find(in.name);
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      DimGuard dim;
      dim.value = in.sizes[d];
      auto mark = markings_.find({in.name, d});
      if (mark != markings_.end() && mark->second.kind == DimKind::kGears) {
        const auto& gears = mark->second.gears;
        if (std::find(gears.begin(), gears.end(), in.sizes[d]) == gears.end()) {
          return Status::Errorf("input '{}' dim {} is {}, not one of its gears {}", in.name, d, in.sizes[d],
                                fmt::join(gears, ","));
        }
        dim.kind = DimKind::kGears;
        dim.gears = gears;
        dim.symbol = fmt::format("s{}", next_symbol++);
      } else if (mark != markings_.end()) {
        if (in.sizes[d] < mark->second.min || in.sizes[d] > mark->second.max) {
          return Status::Errorf("input '{}' dim {} is {}, outside its mark_dynamic range [{}, {}]", in.name, d,
                                in.sizes[d], mark->second.min, mark->second.max);
        }
        dim.kind = DimKind::kSymbolic;
        dim.min = mark->second.min;
        dim.max = mark->second.max;
      } else if (seen != seen_sizes_.end() && d < seen->second.size() && !seen->second[d] && in.sizes[d] >= 2) {
        dim.kind = DimKind::kSymbolic;  // automatic dynamic; 0 and 1 stay specialized as in Dynamo
      }
      if (dim.kind == DimKind::kSymbolic) {
        auto [it, fresh] = duck.emplace(in.sizes[d], fmt::format("s{}", next_symbol));
        if (fresh) ++next_symbol;
        dim.symbol = it->second;
        if (notes && mark == markings_.end()) {
          notes->push_back(fmt::format("automatic dynamic: L['{}'].size()[{}] changed between calls; compiled as {}",
                                       in.name, d, dim.symbol));
        }
      }
      t.sizes.push_back(std::move(dim));
    }
    for (size_t d = 0; d < in.strides.size(); ++d) {
      bool symbolic = false;
      for (size_t j = d + 1; j < t.sizes.size(); ++j) symbolic = symbolic || t.sizes[j].kind != DimKind::kStatic;
      t.strides.push_back(symbolic ? std::nullopt : std::optional<int64_t>(in.strides[d]));
    }
    guards.push_back(std::move(t));
  }
  return guards;
}

Result<CallOutcome> Frame::Call(const Graph& graph, const std::vector<CallInput>& inputs, const FrameOptions& options,
                                const CompileFn& compile) {
  CallOutcome outcome;
  // Lookup, newest entry first.
  for (size_t i = entries_.size(); i-- > 0;) {
    if (entries_[i]->guards.Check(inputs)) {
      ++calls_;
      outcome.kind = CallOutcome::Kind::kHit;
      outcome.entry = i;
      outcome.compile_id = entries_[i]->compile_id;
      ++entries_[i]->hits;
      return outcome;
    }
  }
  for (size_t i = entries_.size(); i-- > 0;) {
    std::optional<std::string> why = entries_[i]->guards.FirstFailure(inputs);
    outcome.failures.push_back(fmt::format("{}: {}", entries_[i]->compile_id, why.value_or("guard failed")));
  }
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

  // Automatic dynamic sees this call's sizes before the guards are built.
  auto seen_before = seen_sizes_;
  for (const CallInput& in : inputs) {
    auto [it, fresh] = seen_sizes_.try_emplace(in.name);
    if (fresh || it->second.size() != in.sizes.size()) {
      it->second.assign(in.sizes.begin(), in.sizes.end());
      continue;
    }
    if (!options.automatic_dynamic) continue;
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      if (it->second[d] && *it->second[d] != in.sizes[d]) it->second[d].reset();
    }
  }
  Result<std::vector<TensorGuard>> guards = BuildGuards(inputs, &outcome.dynamic_notes);
  if (!guards.ok()) {
    seen_sizes_ = std::move(seen_before);
    return guards.status();
  }
  std::vector<TensorMeta> metas;
  for (const TensorGuard& t : *guards) metas.push_back(t.ToMeta());
  Result<std::unique_ptr<Graph>> artifact = compile(graph, metas);
  if (!artifact.ok()) {
    seen_sizes_ = std::move(seen_before);
    return artifact.status();
  }
  auto entry = std::make_unique<CacheEntry>();
  entry->compile_id = fmt::format("{}/{}", frame_id_, next_compile_++);
  entry->guards = GuardSet(std::move(guards).value());
  entry->artifact = std::move(artifact).value();
  ++calls_;
  outcome.kind = CallOutcome::Kind::kCompiled;
  outcome.entry = entries_.size();
  outcome.compile_id = entry->compile_id;
  entries_.push_back(std::move(entry));
  if (!outcome.failures.empty()) {
    last_miss_ = outcome;
    last_miss_shapes_ = shapes;
  }
  return outcome;
}

std::string Frame::RecompileMessage(const CallOutcome& outcome) const {
  std::string text = fmt::format("Recompiling function {} in {}\n    triggered by the following guard failure(s):",
                                 function_, file_);
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
