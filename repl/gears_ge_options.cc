#include "repl/gears_ge_options.h"

#include <fmt/format.h>

#include "core/dynamo/ge_dynamic_dims.h"
#include "core/runtime/fx_graph_info.h"
#include "repl/cache_state.h"

namespace airscope {
namespace {

// True when the compiled graph's placeholders are named as airscope's aot
// stage names them, arg0_1, arg1_1, ... in order.
bool AotNamed(const Graph& graph) {
  std::vector<Node*> placeholders = graph.Placeholders();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    if (placeholders[i]->name() != fmt::format("arg{}_1", i)) return false;
  }
  return true;
}

// TorchAir's named_inputs_info for a compiled entry: one GE Data per FX
// placeholder (parse_input, fx2ge_converter.py:1324-1359), the SymInts
// Dynamo lifts included (fx_graph_info.h), each tensor's shape with -1 for a
// dim that is still a symbol (generate_shape_from_tensor,
// _ge_concrete_graph/utils.py:306-319, as torch < 2.12 runs it), and the dim
// gears of the frame input it stands for.
Result<std::vector<GeInputInfo>> NamedInputs(const Graph& compiled, const Graph& loaded, const Frame& frame,
                                             const OpRegistry& registry) {
  FxGraphInfo info = AnalyzeFxGraph(compiled, {}, registry);
  std::vector<Node*> loaded_inputs = loaded.Placeholders();
  size_t compiled_count = compiled.Placeholders().size();
  // The aot stage puts the parameters it lifts before the loaded graph's inputs.
  size_t first_loaded = compiled_count >= loaded_inputs.size() ? compiled_count - loaded_inputs.size() : 0;
  bool renumber = AotNamed(compiled);
  std::vector<GeInputInfo> named;
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const RuntimeInput& in = info.inputs[i];
    GeInputInfo ge;
    // AOT numbers its flat inputs, the lifted SymInts among them.
    ge.name = renumber ? fmt::format("arg{}_1", i) : in.name;
    if (in.kind == RuntimeInput::Kind::kOther) {
      return Status::Errorf(
          "input '{}' is neither a tensor nor a SymInt in the compiled graph: TorchAir's GE converter refuses it "
          "(\"meta_outputs must be instance of torch.Tensor\", fx2ge_converter.py:1335-1336)",
          in.name);
    }
    if (in.kind == RuntimeInput::Kind::kTensor) {
      for (const Dim& d : in.meta.sizes) ge.shape.push_back(d.is_static() ? d.value() : -1);
      if (in.placeholder >= first_loaded && in.placeholder - first_loaded < loaded_inputs.size()) {
        auto gears = frame.dim_gears().find(loaded_inputs[in.placeholder - first_loaded]->name());
        if (gears != frame.dim_gears().end()) ge.dim_gears = gears->second;
      }
    }
    named.push_back(std::move(ge));
  }
  return named;
}

}  // namespace

Status GearsGeOptions(CommandContext& ctx, std::span<const Word> args) {
  if (args.size() > 1) return UsageError("gears ge-options [ENTRY]");
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const CacheState* state = FindCacheState(ctx.session);
  if (!state || !state->frame || state->frame->entries().empty()) {
    return Status::Error("no cache entry yet: `call` compiles one, then `gears ge-options` reads its inputs");
  }
  const Frame& frame = *state->frame;
  size_t index = frame.entries().size() - 1;
  if (!args.empty()) {
    bool found = false;
    for (size_t i = 0; i < frame.entries().size() && !found; ++i) {
      if (frame.entries()[i]->compile_id == args[0].text || fmt::format("{}", i) == args[0].text) {
        index = i;
        found = true;
      }
    }
    if (!found) return ColumnErrorf(args[0].column, "no cache entry '{}'", args[0].text);
  }
  const CacheEntry& e = *frame.entries()[index];
  const std::string& policy = ctx.session.settings().Get("config.inference_config.dynamic_gears_merge_policy");
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<GeInputInfo> named,
                            NamedInputs(*e.artifact, *entry->loaded.graph, frame, ctx.session.registry()));
  Result<std::vector<std::pair<std::string, std::string>>> options = GenerateDynamicDimsOption(named, policy);
  if (!options.ok()) {
    return options.status().WithPrefix(
        fmt::format("entry {} [{}]: generate_dynamic_dims_option(..., \"{}\") raises", index, e.compile_id, policy));
  }
  ctx.out.Styled(Style::kHeading, "entry {} [{}]: GE dynamic-dims options (dynamic_gears_merge_policy {})", index,
                 e.compile_id, policy);
  if (options->empty()) {
    ctx.out.Print("  none: no input has dim gears (generate_dynamic_dims_option returns {{}})");
    return Status::Ok();
  }
  for (const auto& [key, value] : *options) ctx.out.Print("  {}: {}", key, value);
  return Status::Ok();
}

}  // namespace airscope
