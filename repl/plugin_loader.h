// Loading C++ pass plugins (core/pass/plugin_api.h) with dlopen. Every
// failure is a Status with the path and the reason (dlopen's message, a
// missing entry point, a version mismatch, init failing, a refused pass);
// a failed load registers nothing. Loaded plugins are kept (and never
// dlclosed) for the life of the process, so their passes stay valid.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"
#include "core/status.h"

namespace airscope {

struct LoadedPlugin {
  std::string path;
  std::vector<std::string> passes;  // the passes it registered, in order
};

class PluginSet {
 public:
  // Loads the shared object at `path` and registers its passes in `registry`.
  Result<LoadedPlugin> Load(const std::string& path, PassRegistry& registry);
  const std::vector<LoadedPlugin>& loaded() const { return loaded_; }

 private:
  std::vector<LoadedPlugin> loaded_;
};

}  // namespace airscope
