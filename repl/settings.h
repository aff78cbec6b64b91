// Settings: the named options `set NAME VALUE` changes. Each setting is
// declared once (name, default, allowed values or kind, help), so `set`
// validates, lists and completes from the same table.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/pass/torchair_config.h"
#include "core/status.h"

namespace airscope {

struct SettingSpec {
  std::string name;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // empty: any value of `kind`
  // kChoiceList: a comma-separated list of `choices` ("fx,dot").
  // kConfig: one of TorchAir's config.* options, validated (and normalized:
  // "False" -> "false") by core/pass/torchair_config.h's table.
  enum class Kind : uint8_t { kChoice, kUnsigned, kText, kChoiceList, kConfig } kind = Kind::kChoice;
};

class Settings {
 public:
  Settings();  // the builtin settings
  void Declare(SettingSpec spec);
  Status Set(std::string_view name, std::string_view value);
  const std::string& Get(std::string_view name) const;  // asserts the setting exists
  uint64_t GetUnsigned(std::string_view name) const;
  const std::vector<SettingSpec>& specs() const { return specs_; }
  // The setting a name means: itself, or what an older name now stands for
  // ("static_capture_size_limit" -> "config.debug.aclgraph.static_capture_size_limit").
  const SettingSpec* Find(std::string_view name) const;
  // The options in force as the settings hold them: TorchAir's config.*
  // ones, or under `mode npugraph_ex` npugraph_ex's npugraph_ex.* ones
  // (TorchAirConfig::npugraph_ex set).
  TorchAirConfig TorchAir() const;
  // `mode` is reduce-overhead or npugraph_ex: calls run an AclGraph (captured
  // per graph key), not the graph as compiled.
  bool CapturesAclGraphs() const;
  // The pipeline a graph gets when it has none: DefaultPipeline, or
  // NpugraphExPipeline under `mode npugraph_ex`.
  const std::vector<std::string>& DefaultPasses() const;

 private:
  std::vector<SettingSpec> specs_;
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace airscope
