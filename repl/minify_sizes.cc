#include "repl/minify_sizes.h"

#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/ops/specialize.h"
#include "repl/tokenizer.h"

namespace airscope {
namespace {

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

// The placeholders' metas as SpecializeInputs takes them (a SymInt keeps its own).
Result<std::vector<TensorMeta>> InputMetas(const Graph& graph) {
  std::vector<TensorMeta> metas;
  for (const Node* p : graph.Placeholders()) {
    const NodeMeta* meta = p->meta();
    if (meta && meta->kind == ValueKind::kSymInt) {
      metas.emplace_back();
      continue;
    }
    const TensorMeta* tensor = p->tensor();
    if (!tensor) return Status::Errorf("input '{}' has no shape airscope knows", p->name());
    metas.push_back(*tensor);
  }
  return metas;
}

}  // namespace

Result<int64_t> SmallestFailingSize(int64_t size, const std::function<Result<bool>(int64_t)>& fails) {
  if (size <= 1) return size;
  // 1 first: a size of 1 broadcasts, so it may fit where the halves do not.
  AIRSCOPE_ASSIGN_OR_RETURN(bool at_one, fails(1));
  if (at_one) return 1;
  int64_t lo = 2, hi = size;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    AIRSCOPE_ASSIGN_OR_RETURN(bool failed, fails(mid));
    if (failed) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return hi;
}

std::vector<ScriptCall> ScriptCalls(const std::vector<std::string>& lines, const CommandTable& table) {
  std::vector<ScriptCall> calls;
  for (size_t i = 0; i < lines.size(); ++i) {
    Result<std::vector<Word>> words = Tokenize(lines[i]);
    if (!words.ok() || words->size() < 2) continue;
    Result<const CommandSpec*> spec = table.Lookup((*words)[0].text);
    if (!spec.ok() || (*spec)->name != "call") continue;
    std::vector<SpecToken> tokens;
    for (size_t w = 1; w < words->size(); ++w) tokens.push_back({(*words)[w].text, (*words)[w].column});
    Result<CallSpec> parsed = ParseCall(tokens);
    if (parsed.ok()) calls.push_back({i, std::move(*parsed)});
  }
  return calls;
}

bool ResizableInput(const CallInput& in) { return !in.scalar && in.strides == ContiguousStrides(in.sizes); }

CallInput Resized(const CallInput& in, size_t dim, int64_t size) {
  CallInput out = in;
  out.sizes[dim] = size;
  out.strides = ContiguousStrides(out.sizes);
  out.ComputeHeader();
  return out;
}

std::string CallLine(const CallSpec& spec) {
  std::string out = "call";
  for (const CallInput& in : spec.inputs) {
    if (in.scalar) {
      out += fmt::format(" {}={}", in.name, in.scalar->repr);
      continue;
    }
    out += fmt::format(" {}={}[{}]", in.name, ShortName(in.dtype), fmt::join(in.sizes, ","));
    if (in.strides != ContiguousStrides(in.sizes)) out += fmt::format("@[{}]", fmt::join(in.strides, ","));
    if (in.device != "npu:0") out += ":" + in.device;
    if (in.requires_grad) out += " grad";
    if (in.parameter) out += " param";
    if (!in.buffer.empty()) out += " in " + in.buffer;
  }
  if (spec.keep) out += " keep";
  return out;
}

Result<std::shared_ptr<const Graph>> WithInputSize(const Graph& graph, size_t input, size_t dim, int64_t size,
                                                   const OpRegistry& registry) {
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<TensorMeta> metas, InputMetas(graph));
  if (input >= metas.size() || dim >= metas[input].sizes.size() || !metas[input].sizes[dim].is_static()) {
    return Status::Errorf("input {} has no static dim {}", input, dim);
  }
  TensorMeta& meta = metas[input];
  // Stated strides: kept only when contiguous (then recomputed for the new size).
  if (meta.HasNonContiguousStrides()) return Status::Errorf("input {} has strides that are not contiguous", input);
  InferenceReport before;
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> unused, SpecializeInputs(graph, metas, registry, &before));
  (void)unused;
  const bool stated = !meta.strides.empty();
  meta.sizes[dim] = Dim(size);
  if (stated) meta.strides = meta.ContiguousStrides();
  InferenceReport after;
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> resized, SpecializeInputs(graph, metas, registry, &after));
  std::set<std::string> refused_before;
  for (const InferenceReport::Refusal& r : before.refused) refused_before.insert(r.node);
  for (const InferenceReport::Refusal& r : after.refused) {
    if (!refused_before.count(r.node)) return Status::Errorf("node '{}': {}", r.node, r.message);
  }
  if (after.failed > before.failed) {
    return Status::Errorf("shape inference fails at the new size: {}",
                          after.errors.empty() ? std::string("?") : after.errors.front());
  }
  return std::shared_ptr<const Graph>(std::move(resized));
}

}  // namespace airscope
