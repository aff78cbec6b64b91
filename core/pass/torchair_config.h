// TorchAirConfig: the switches of TorchAir's CompilerConfig that decide what
// its compile pipeline and AclGraph runtime do, under TorchAir's own names
// (`config.debug.aclgraph.remove_cat_ops`), so a user can paste the config of
// their job. Defaults are TorchAir's (python/torchair/configs/*.py at
// fced8842; ../shared/TORCHAIR.md cites each).
//
// PassEnvironment: facts about the software and hardware a pass may depend
// on (CANN and torch versions, core counts). They come from the simulated
// device model; a pass that depends on one says in a remark which it assumed.
//
// Contract: plain values; the option table is the only place an option's
// name, default and help are written. Setting an unknown name or a bad value
// is an error naming the option and what it accepts; nothing changes then.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

struct TorchAirConfig {
  // experimental_config (exp:16-29)
  bool keep_inference_input_mutations = true;
  bool remove_noop_ops = true;
  bool pattern_fusion_pass = true;
  bool frozen_parameter = false;
  // experimental_config.aclgraph (exp:58-63)
  bool aclnn_static_shape_kernel = false;
  // debug.aclgraph (dbg:79-88)
  bool disable_reinplace_inplaceable_ops_pass = false;
  bool disable_reinplace_input_mutated_ops_pass = false;
  bool disable_mempool_reuse_in_same_fx = false;
  bool enable_output_clone = false;
  int64_t static_capture_size_limit = 64;
  bool clone_input = true;
  bool remove_cat_ops = true;

  // The npugraph_ex package's backend (`set mode npugraph_ex`): the same
  // passes and AclGraph runtime, configured by npugraph_ex's own options
  // (NpugraphExConfigOptions), which fill the fields above; these two exist
  // only there (nxcc:25, nxcc:52).
  bool npugraph_ex = false;
  bool force_eager = false;      // every call runs the graph eagerly, never captured
  bool force_recapture = false;  // every call recaptures its key's graph

  bool operator==(const TorchAirConfig&) const = default;
};

enum class ConfigValueKind : uint8_t { kBool, kInt };

struct ConfigOptionInfo {
  std::string name;  // "config.debug.aclgraph.remove_cat_ops"
  ConfigValueKind kind = ConfigValueKind::kBool;
  std::string default_value;  // as `set` shows it: "true", "64"
  int64_t min = 0, max = 0;   // kInt: the accepted range
  std::string help;           // one line: what it switches, where TorchAir reads it
};

// Every option, in TorchAir's order (experimental_config, then debug.aclgraph).
const std::vector<ConfigOptionInfo>& TorchAirConfigOptions();
// npugraph_ex's options that airscope models, named `npugraph_ex.NAME` after
// its CompilerConfig attribute (the `options` key of torch.compile); each
// fills a TorchAirConfig field, some inverted (inplace_pass is
// !disable_reinplace_inplaceable_ops_pass). In npugraph_ex's order.
const std::vector<ConfigOptionInfo>& NpugraphExConfigOptions();
// The config npugraph_ex's options make: npugraph_ex = true, and the fields
// it has no option for at npugraph_ex's values (it keeps inference input
// mutations, nxnfc:901). Call SetConfigOption with npugraph_ex
// names on it.
TorchAirConfig NpugraphExDefaults();
// The option that sets `field` under the name of `config`'s package
// ("config.debug.aclgraph.clone_input", "npugraph_ex.clone_input"), or ""
// when that package has none.
std::string OptionName(const TorchAirConfig& config, bool TorchAirConfig::*field);
std::string OptionName(const TorchAirConfig& config, int64_t TorchAirConfig::*field);
// How a pass says that `config` switched it off: the option by the name the
// config's package gives it ("config.debug.aclgraph.remove_cat_ops is false",
// "npugraph_ex.inplace_pass is false"). `field` is the TorchAirConfig switch.
std::string SwitchedOff(const TorchAirConfig& config, bool TorchAirConfig::*field);

// Parses `value` the way a pasted Python config spells it too: booleans as
// true/false, True/False, 1/0; integers in the option's range. On success the
// option's value is stored in `config`; on error `config` is unchanged.
// `name` is a TorchAir or an npugraph_ex option.
Status SetConfigOption(TorchAirConfig& config, std::string_view name, std::string_view value);
// The value as shown ("true", "64"); the name must be one of the options.
std::string GetConfigOption(const TorchAirConfig& config, std::string_view name);
// Normalizes a value for `name` ("False" -> "false"); error as SetConfigOption.
Result<std::string> NormalizeConfigValue(std::string_view name, std::string_view value);

struct PassEnvironment {
  std::string cann_version = "8.3.RC1";  // the device model's CANN (recover_view_inplace_pattern needs >= 8.3.RC1)
  std::string torch_version = "2.6.0";   // torch that airscope models (apply_pattern_passes needs >= 2.6)
  int64_t aicore_num = 24;               // cube cores of the device (replace_core_limit_nodes)
  int64_t vectorcore_num = 48;           // vector cores of the device
  int64_t world_size = 0;                // ranks of the default process group '0' (aot's collectives); 0: unknown
};

// Compares dotted versions the way TorchAir's checks read them: numeric
// components compare as numbers, "RC1" < "" (a release after its RCs),
// "8.3.RC1" < "8.3.0". Returns <0, 0, >0.
int CompareVersions(std::string_view a, std::string_view b);

}  // namespace airscope
