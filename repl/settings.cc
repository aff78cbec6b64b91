#include "repl/settings.h"

#include "core/pass/pass.h"
#include "core/suggest.h"

#include <algorithm>
#include <cassert>
#include <charconv>

#include <fmt/format.h>

#include "repl/graph_text.h"

namespace airscope {

Settings::Settings() {
  Declare({"on-error",
           "stop",
           "in a script: stop at the first failing line, or continue and fail at the end",
           {"stop", "continue"},
           SettingSpec::Kind::kChoice});
  Declare({"color",
           "auto",
           "colour in output: auto (a terminal without NO_COLOR), always, never",
           {"auto", "always", "never"},
           SettingSpec::Kind::kChoice});
  Declare({"dump.dir",
           "",
           "directory for automatic dumps after each pipeline stage (NN_pass.ext); empty: none",
           {},
           SettingSpec::Kind::kText});
  Declare({"dump.formats", "fx", "formats of automatic dumps, comma separated", GraphFormatNames(false),
           SettingSpec::Kind::kChoiceList});
  Declare({"dump.when",
           "all",
           "which stages to dump: all, change (only stages that changed the graph), off",
           {"all", "change", "off"},
           SettingSpec::Kind::kChoice});
  Declare({"dump.layout",
           "airscope",
           "automatic dump files: airscope (DIR/NN_pass.ext per format), or torchair "
           "(the TORCH_COMPILE_DEBUG=1 tree: DIR/torchair/model__K/dynamo_out_graph.txt and "
           "forward/NNN_aot_forward_graph[_after_<pass>].txt, print_readable text, only passes TorchAir dumps)",
           {"airscope", "torchair"},
           SettingSpec::Kind::kChoice});
  Declare({"pipeline.memory-budget",
           "1073741824",
           "bytes of stage snapshots a pipeline keeps; older ones are dropped and recomputed on demand",
           {},
           SettingSpec::Kind::kUnsigned});
  Declare({"check.effects",
           "on",
           "after every pass, check what the graph writes into its inputs and returns against what the "
           "pass may change (help pass NAME): airscope's and user passes are rolled back on a difference, "
           "TorchAir's keep their result with a warning (TorchAir checks nothing); where the check's own "
           "model is rough (a slice whose bounds are computed in the graph) it says it could not verify "
           "the pass instead",
           {"on", "off"},
           SettingSpec::Kind::kChoice});
  Declare({"show-times",
           "on",
           "print pass times (off: for golden scripts, whose output must not vary)",
           {"on", "off"},
           SettingSpec::Kind::kChoice});
  Declare({"dist.world_size",
           "0",
           "ranks of the default process group '0' (tag 'ptd:0'), which TorchAir's "
           "all_to_all_single decomposition reads in aot; 0: unknown (the op stays whole)",
           {},
           SettingSpec::Kind::kUnsigned});
  Declare({"show.fold-above",
           "1000",
           "show prints a graph of more nodes than this folded: each block of repeated layers once "
           "(repeats lists them; show --all prints every node)",
           {},
           SettingSpec::Kind::kUnsigned});
  Declare({"max-file-size",
           "2147483648",
           "largest file `load` reads, in bytes; larger ones are refused",
           {},
           SettingSpec::Kind::kUnsigned});
  // The compile cache (commands_cache.cc): Dynamo's and TorchAir's knobs, same names and defaults.
  Declare({"cache_size_limit",
           "8",
           "compiled entries a frame keeps before calls that miss run eager "
           "(Dynamo's config.recompile_limit)",
           {},
           SettingSpec::Kind::kUnsigned});
  Declare({"dynamic",
           "none",
           "torch.compile(dynamic=...): none (Dynamo's defaults: static, then automatic dynamic for a dim "
           "that changed), true (every dim a duck-sized symbol from the first compile; sizes 0 and 1 "
           "specialized, a recompile when they change) or false (no automatic dynamic; only mark_dynamic "
           "makes a symbol); eval_frame.py make_set_enable_dynamic",
           {"none", "true", "false"},
           SettingSpec::Kind::kChoice});
  Declare({"mode",
           "default",
           "compile mode: default, reduce-overhead (calls run TorchAir's AclGraph: a device "
           "graph captured per graph key, help call) or npugraph_ex (the standalone npugraph_ex package's "
           "backend: the same AclGraph and passes, eliminate_self_copy among them, configured by its "
           "npugraph_ex.* options; TorchAir's own mode \"npugraph_ex\" maps those names onto config.* and "
           "runs reduce-overhead's pipeline, so model it with reduce-overhead; a graph's pipeline is chosen "
           "when it is first used, `pipeline default` takes the mode's)",
           {"default", "reduce-overhead", "npugraph_ex"},
           SettingSpec::Kind::kChoice});
  // InferenceConfig.dynamic_gears_merge_policy (configs/inference_config.py:13): how `gears ge-options`
  // combines the gear lists (generate_dynamic_dims_option, _gear_utils.py:106-114).
  Declare({"config.inference_config.dynamic_gears_merge_policy",
           "zip",
           "how TorchAir's GE backend combines dim gears into ge.dynamicDims: zip (the i-th gear of every "
           "gear dim together) or product (every combination); help gears, `gears ge-options`",
           {"zip", "product"},
           SettingSpec::Kind::kChoice});
  // The capture (commands_device.cc, core/device/capture_rules.h).
  Declare({"capture_error_mode",
           "global",
           "capture's aclmdlRICaptureMode: global (TorchAir's default, fx2acl_converter.py:58, given to "
           "torch_npu.npu.graph at acl_graph.py:1193), thread_local or relaxed (npugraph_ex's "
           "capture_error_mode option, configs/compiler_config.py:50)",
           {"global", "thread_local", "relaxed"},
           SettingSpec::Kind::kChoice});
  Declare({"env.TASK_QUEUE_ENABLE",
           "1",
           "torch_npu's TASK_QUEUE_ENABLE (default 1, OptionsManager.cpp:570-584); capture refuses 2 "
           "(NPUGraph.cpp:243-247)",
           {"0", "1", "2"},
           SettingSpec::Kind::kChoice});
  // TorchAir's CompilerConfig options, under their own names.
  for (const ConfigOptionInfo& option : TorchAirConfigOptions()) {
    Declare({option.name, option.default_value, option.help, {}, SettingSpec::Kind::kConfig});
  }
  // npugraph_ex's, in force under `mode npugraph_ex` (the config.* ones are not).
  for (const ConfigOptionInfo& option : NpugraphExConfigOptions()) {
    Declare({option.name, option.default_value, option.help, {}, SettingSpec::Kind::kConfig});
  }
}

namespace {

// Names settings had before they took TorchAir's.
std::string_view CanonicalSettingName(std::string_view name) {
  if (name == "static_capture_size_limit") return "config.debug.aclgraph.static_capture_size_limit";
  return name;
}

}  // namespace

TorchAirConfig Settings::TorchAir() const {
  bool npugraph_ex = Get("mode") == "npugraph_ex";
  TorchAirConfig config = npugraph_ex ? NpugraphExDefaults() : TorchAirConfig();
  for (const ConfigOptionInfo& option : npugraph_ex ? NpugraphExConfigOptions() : TorchAirConfigOptions()) {
    Status status = SetConfigOption(config, option.name, Get(option.name));
    assert(status.ok());  // stored values were validated by Set
    (void)status;
  }
  return config;
}

bool Settings::CapturesAclGraphs() const {
  const std::string& mode = Get("mode");
  return mode == "reduce-overhead" || mode == "npugraph_ex";
}

const std::vector<std::string>& Settings::DefaultPasses() const {
  return Get("mode") == "npugraph_ex" ? NpugraphExPipeline() : DefaultPipeline();
}

void Settings::Declare(SettingSpec spec) {
  values_[spec.name] = spec.default_value;
  specs_.push_back(std::move(spec));
}

const SettingSpec* Settings::Find(std::string_view name) const {
  name = CanonicalSettingName(name);
  for (const SettingSpec& spec : specs_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

Status Settings::Set(std::string_view name, std::string_view value) {
  const SettingSpec* spec = Find(name);
  if (!spec) {
    std::vector<std::string> names;
    for (const SettingSpec& s : specs_) names.push_back(s.name);
    // Not the whole list (43 names): `set` prints it, with values and help.
    return Status::Errorf("unknown setting '{}'{}; `set` lists the {} settings", name, DidYouMean(name, names),
                          names.size());
  }
  switch (spec->kind) {
    case SettingSpec::Kind::kChoice: {
      bool ok = false;
      for (const std::string& choice : spec->choices) ok = ok || choice == value;
      if (!ok) return Status::Errorf("{} must be one of {}, not '{}'", name, fmt::join(spec->choices, "|"), value);
      break;
    }
    case SettingSpec::Kind::kUnsigned: {
      uint64_t parsed = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
      if (ec != std::errc() || ptr != value.data() + value.size()) {
        return Status::Errorf("{} takes a whole number, not '{}'", name, value);
      }
      break;
    }
    case SettingSpec::Kind::kChoiceList: {
      if (value.empty()) return Status::Errorf("{} needs at least one of {}", name, fmt::join(spec->choices, ","));
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = std::min(value.find(',', start), value.size());
        std::string_view item = value.substr(start, end - start);
        if (std::find(spec->choices.begin(), spec->choices.end(), item) == spec->choices.end()) {
          return Status::Errorf("{} takes a comma-separated list of {}, not '{}'", name, fmt::join(spec->choices, ","),
                                item);
        }
        start = end + 1;
      }
      break;
    }
    case SettingSpec::Kind::kText: break;
    case SettingSpec::Kind::kConfig: {
      AIRSCOPE_ASSIGN_OR_RETURN(std::string normalized, NormalizeConfigValue(spec->name, value));
      values_[spec->name] = normalized;
      return Status::Ok();
    }
  }
  values_[spec->name] = std::string(value);
  return Status::Ok();
}

const std::string& Settings::Get(std::string_view name) const {
  auto it = values_.find(CanonicalSettingName(name));
  assert(it != values_.end());
  return it->second;
}

uint64_t Settings::GetUnsigned(std::string_view name) const {
  const std::string& text = Get(name);
  uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace airscope
