#include "core/pass/torchair_config.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace airscope {
namespace {

// One row per option: its description and where its value lives.
struct OptionRow {
  ConfigOptionInfo info;
  bool TorchAirConfig::*flag = nullptr;       // kBool
  int64_t TorchAirConfig::*number = nullptr;  // kInt
  bool inverted = false;                      // kBool: the field holds the option's negation
};

const std::vector<OptionRow>& Rows() {
  using K = ConfigValueKind;
  static const std::vector<OptionRow> kRows = {
      {{"config.experimental_config.keep_inference_input_mutations", K::kBool, "true", 0, 0,
        "aot keeps graph-input mutations in the graph as copy_ epilogues (aot_module_simplified, nfc:969-1005)"},
       &TorchAirConfig::keep_inference_input_mutations},
      {{"config.experimental_config.remove_noop_ops", K::kBool, "true", 0, 0,
        "run optimize_noop_ops (Inductor's remove_noop_ops, nfc:350-356)"},
       &TorchAirConfig::remove_noop_ops},
      {{"config.experimental_config.pattern_fusion_pass", K::kBool, "true", 0, 0,
        "run apply_pattern_passes (AddRmsNorm*/BatchMatMulTranspose fusions, ppm:20-61)"},
       &TorchAirConfig::pattern_fusion_pass},
      {{"config.experimental_config.frozen_parameter", K::kBool, "false", 0, 0,
        "parameter addresses stay out of AclGraph's graph key (ag:263-278)"},
       &TorchAirConfig::frozen_parameter},
      {{"config.experimental_config.aclgraph._aclnn_static_shape_kernel", K::kBool, "false", 0, 0,
        "static-shape aclnn kernels; with a core limit and CANN < 9.0.0 TorchAir turns it off (exp:60, gp:724-733)"},
       &TorchAirConfig::aclnn_static_shape_kernel},
      {{"config.debug.aclgraph.disable_reinplace_inplaceable_ops_pass", K::kBool, "false", 0, 0,
        "skip reinplace_inplaceable_ops_pass (f2a:274-278)"},
       &TorchAirConfig::disable_reinplace_inplaceable_ops_pass},
      {{"config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass", K::kBool, "false", 0, 0,
        "skip reinplace_input_mutated_ops and decompose_auto_functionalized (f2a:281-288)"},
       &TorchAirConfig::disable_reinplace_input_mutated_ops_pass},
      {{"config.debug.aclgraph.disable_mempool_reuse_in_same_fx", K::kBool, "false", 0, 0,
        "captures of one FX graph do not share the memory pool's free blocks (ag:1174-1287)"},
       &TorchAirConfig::disable_mempool_reuse_in_same_fx},
      {{"config.debug.aclgraph.enable_output_clone", K::kBool, "false", 0, 0,
        "replays return clones of outputs that do not alias inputs (ag:1402-1475)"},
       &TorchAirConfig::enable_output_clone},
      {{"config.debug.aclgraph.static_capture_size_limit", K::kInt, "64", 1, INT64_MAX,
        "captured graphs per FX graph before every later call falls back to eager (ag:999-1014)"},
       nullptr,
       &TorchAirConfig::static_capture_size_limit},
      {{"config.debug.aclgraph.clone_input", K::kBool, "true", 0, 0,
        "replays first copy each user input into its capture-time staging buffer (ag:1290-1359)"},
       &TorchAirConfig::clone_input},
      {{"config.debug.aclgraph.remove_cat_ops", K::kBool, "true", 0, 0,
        "run remove_cat_ops (optimize_cat_with_out_tensor, f2a:240-243)"},
       &TorchAirConfig::remove_cat_ops},
  };
  return kRows;
}

// The npugraph_ex package's options (nxcc:25-52), read by its
// npu_fx_compiler.py, fx2acl_converter.py and acl_graph.py as TorchAir's
// files read the options each one stands for; TorchAir's own mapping of the
// same names onto its config (ngx:33-75) agrees on each field and inversion.
const std::vector<OptionRow>& NpugraphExRows() {
  using K = ConfigValueKind;
  using C = TorchAirConfig;
  static const std::vector<OptionRow> kRows = {
      {{"npugraph_ex.force_eager", K::kBool, "false", 0, 0,
        "npugraph_ex only: every call runs the FX graph eagerly, never captured (nxcc:25, nxag:823-826)"},
       &C::force_eager},
      {{"npugraph_ex.reuse_graph_pool_in_same_fx", K::kBool, "true", 0, 0,
        "captures of one FX graph share the memory pool's free blocks (nxcc:27; TorchAir's "
        "disable_mempool_reuse_in_same_fx, inverted)"},
       &C::disable_mempool_reuse_in_same_fx,
       nullptr,
       true},
      {{"npugraph_ex.capture_limit", K::kInt, "64", 1, INT64_MAX,
        "captured graphs per FX graph before every later call falls back to eager (nxcc:28, nxag:989-999; "
        "TorchAir's static_capture_size_limit)"},
       nullptr,
       &C::static_capture_size_limit},
      {{"npugraph_ex.clone_input", K::kBool, "true", 0, 0,
        "replays first copy each user input into its capture-time staging buffer (nxcc:29)"},
       &C::clone_input},
      {{"npugraph_ex.clone_output", K::kBool, "false", 0, 0,
        "replays return clones of outputs that do not alias inputs (nxcc:30; TorchAir's enable_output_clone)"},
       &C::enable_output_clone},
      {{"npugraph_ex.static_kernel_compile", K::kBool, "false", 0, 0,
        "static-shape aclnn kernels; with a core limit and CANN < 9.0.0 npugraph_ex turns it off (nxcc:32, "
        "nxgp:780-791; TorchAir's _aclnn_static_shape_kernel)"},
       &C::aclnn_static_shape_kernel},
      {{"npugraph_ex.frozen_parameter", K::kBool, "false", 0, 0,
        "parameter addresses stay out of AclGraph's graph key (nxcc:33)"},
       &C::frozen_parameter},
      {{"npugraph_ex.remove_noop_ops", K::kBool, "true", 0, 0, "run optimize_noop_ops (nxcc:34, nxnfc:311-312)"},
       &C::remove_noop_ops},
      {{"npugraph_ex.remove_cat_ops", K::kBool, "true", 0, 0, "run remove_cat_ops (nxcc:35, nxf2a:228-231)"},
       &C::remove_cat_ops},
      {{"npugraph_ex.inplace_pass", K::kBool, "true", 0, 0,
        "run reinplace_inplaceable_ops_pass (nxcc:36, nxf2a:262-266; TorchAir's "
        "disable_reinplace_inplaceable_ops_pass, inverted)"},
       &C::disable_reinplace_inplaceable_ops_pass,
       nullptr,
       true},
      {{"npugraph_ex.input_inplace_pass", K::kBool, "true", 0, 0,
        "run reinplace_input_mutated_ops and decompose_auto_functionalized (nxcc:37, nxf2a:269-276; "
        "TorchAir's disable_reinplace_input_mutated_ops_pass, inverted)"},
       &C::disable_reinplace_input_mutated_ops_pass,
       nullptr,
       true},
      {{"npugraph_ex.pattern_fusion_pass", K::kBool, "true", 0, 0, "run apply_pattern_passes (nxcc:38, nxnfc:318-319)"},
       &C::pattern_fusion_pass},
      {{"npugraph_ex.force_recapture", K::kBool, "false", 0, 0,
        "npugraph_ex only: every call recaptures its key's graph, counted as recapture_due_to_force_recapture "
        "(nxcc:52, nxag:1361-1363)"},
       &C::force_recapture},
  };
  return kRows;
}

const OptionRow* FindRow(std::string_view name) {
  for (const std::vector<OptionRow>* rows : {&Rows(), &NpugraphExRows()}) {
    for (const OptionRow& row : *rows) {
      if (row.info.name == name) return &row;
    }
  }
  return nullptr;
}

std::vector<ConfigOptionInfo> InfosOf(const std::vector<OptionRow>& rows) {
  std::vector<ConfigOptionInfo> infos;
  for (const OptionRow& row : rows) infos.push_back(row.info);
  return infos;
}

Status UnknownOption(std::string_view name) {
  if (name.starts_with("npugraph_ex.")) {
    return Status::Errorf("no npugraph_ex option '{}' (`set` lists the npugraph_ex.* options airscope models)", name);
  }
  return Status::Errorf("no TorchAir option '{}' (`set` lists the config.* options airscope models)", name);
}

Result<bool> ParseBool(std::string_view name, std::string_view value) {
  if (value == "true" || value == "True" || value == "1") return true;
  if (value == "false" || value == "False" || value == "0") return false;
  return Status::Errorf("{} takes true or false (True/False, 1/0), not '{}'", name, value);
}

Result<int64_t> ParseInt(const ConfigOptionInfo& info, std::string_view value) {
  int64_t parsed = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size()) {
    return Status::Errorf("{} takes an integer in [{}, {}], not '{}'", info.name, info.min, info.max, value);
  }
  if (parsed < info.min || parsed > info.max) {
    return Status::Errorf("{} must be in [{}, {}], not {}", info.name, info.min, info.max, parsed);
  }
  return parsed;
}

// One dotted component: its leading number and what follows ("RC1").
struct VersionPart {
  int64_t number = 0;
  std::string suffix;
};

std::vector<VersionPart> SplitVersion(std::string_view text) {
  std::vector<VersionPart> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t dot = text.find('.', start);
    std::string_view piece = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    VersionPart part;
    size_t digits = 0;
    while (digits < piece.size() && std::isdigit(static_cast<unsigned char>(piece[digits]))) ++digits;
    if (digits > 0) std::from_chars(piece.data(), piece.data() + digits, part.number);
    part.suffix = std::string(piece.substr(digits));
    parts.push_back(std::move(part));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

}  // namespace

const std::vector<ConfigOptionInfo>& TorchAirConfigOptions() {
  static const std::vector<ConfigOptionInfo> kInfos = InfosOf(Rows());
  return kInfos;
}

const std::vector<ConfigOptionInfo>& NpugraphExConfigOptions() {
  static const std::vector<ConfigOptionInfo> kInfos = InfosOf(NpugraphExRows());
  return kInfos;
}

TorchAirConfig NpugraphExDefaults() {
  TorchAirConfig config;
  config.npugraph_ex = true;
  // nxnfc:901 passes keep_inference_input_mutations=True to aot;
  // it has no option.
  config.keep_inference_input_mutations = true;
  for (const OptionRow& row : NpugraphExRows()) {
    Status set = SetConfigOption(config, row.info.name, row.info.default_value);
    assert(set.ok());
    (void)set;
  }
  return config;
}

std::string OptionName(const TorchAirConfig& config, bool TorchAirConfig::*field) {
  for (const OptionRow& row : config.npugraph_ex ? NpugraphExRows() : Rows()) {
    if (row.flag == field) return row.info.name;
  }
  return "";
}

std::string OptionName(const TorchAirConfig& config, int64_t TorchAirConfig::*field) {
  for (const OptionRow& row : config.npugraph_ex ? NpugraphExRows() : Rows()) {
    if (row.number == field) return row.info.name;
  }
  return "";
}

std::string SwitchedOff(const TorchAirConfig& config, bool TorchAirConfig::*field) {
  std::string name = OptionName(config, field);
  if (name.empty()) return "an option airscope does not name";
  return fmt::format("{} is {}", name, GetConfigOption(config, name));
}

Result<std::string> NormalizeConfigValue(std::string_view name, std::string_view value) {
  const OptionRow* row = FindRow(name);
  if (!row) return UnknownOption(name);
  if (row->info.kind == ConfigValueKind::kBool) {
    AIRSCOPE_ASSIGN_OR_RETURN(bool parsed, ParseBool(name, value));
    return std::string(parsed ? "true" : "false");
  }
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t parsed, ParseInt(row->info, value));
  return fmt::format("{}", parsed);
}

Status SetConfigOption(TorchAirConfig& config, std::string_view name, std::string_view value) {
  const OptionRow* row = FindRow(name);
  if (!row) return UnknownOption(name);
  if (row->info.kind == ConfigValueKind::kBool) {
    AIRSCOPE_ASSIGN_OR_RETURN(bool parsed, ParseBool(name, value));
    config.*(row->flag) = parsed != row->inverted;
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t parsed, ParseInt(row->info, value));
    config.*(row->number) = parsed;
  }
  return Status::Ok();
}

std::string GetConfigOption(const TorchAirConfig& config, std::string_view name) {
  const OptionRow* row = FindRow(name);
  assert(row);
  if (row->info.kind == ConfigValueKind::kBool) return config.*(row->flag) != row->inverted ? "true" : "false";
  return fmt::format("{}", config.*(row->number));
}

int CompareVersions(std::string_view a, std::string_view b) {
  std::vector<VersionPart> left = SplitVersion(a), right = SplitVersion(b);
  size_t n = std::max(left.size(), right.size());
  for (size_t i = 0; i < n; ++i) {
    VersionPart l = i < left.size() ? left[i] : VersionPart{};
    VersionPart r = i < right.size() ? right[i] : VersionPart{};
    // "RC1" alone (no number) is a release candidate of the part before it:
    // it sorts below any numbered release of that part ("8.3.RC1" < "8.3.0").
    bool l_rc = l.suffix.rfind("RC", 0) == 0 && i < left.size();
    bool r_rc = r.suffix.rfind("RC", 0) == 0 && i < right.size();
    if (l_rc != r_rc) return l_rc ? -1 : 1;
    if (l_rc && r_rc) {
      int64_t ln = 0, rn = 0;
      std::from_chars(l.suffix.data() + 2, l.suffix.data() + l.suffix.size(), ln);
      std::from_chars(r.suffix.data() + 2, r.suffix.data() + r.suffix.size(), rn);
      if (ln != rn) return ln < rn ? -1 : 1;
      continue;
    }
    if (l.number != r.number) return l.number < r.number ? -1 : 1;
    if (l.suffix != r.suffix) return l.suffix < r.suffix ? -1 : 1;
  }
  return 0;
}

}  // namespace airscope
