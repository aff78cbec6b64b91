// The C++ pass plugin interface: a shared object (built as a CMake MODULE
// library) that adds passes to airscope, loaded with `plugin load PATH.so`.
//
// A plugin exports two C functions (use the macro for the first):
//
//   extern "C" int airscope_plugin_api_version(void);   // AIRSCOPE_PLUGIN_API_VERSION it was built with
//   extern "C" int airscope_plugin_init(AirscopePluginHost* host);  // 0 on success
//
// airscope checks the version before calling init and refuses a mismatch.
// init registers passes through host->register_pass (each a C++ PassInfo,
// copied; its kind is forced to kUser and a builtin name is refused) and may
// explain a failure with host->set_error before returning nonzero; then
// nothing it registered is kept.
//
// ABI caveats (read before writing a plugin): only the entry points are C;
// PassInfo, Graph and std::function cross the boundary as C++ objects, so a
// plugin must be built with the same compiler, standard library and flags as
// the airscope it is loaded into, against the same airscope headers
// (AIRSCOPE_PLUGIN_API_VERSION changes whenever these types change). A plugin
// does not link airscope's libraries: it calls the Graph API through the
// host executable's own symbols, which airscope exports (ENABLE_EXPORTS,
// i.e. -rdynamic), so there is one copy of every function and static. A
// plugin's pass must follow pass.h's contract (no printing; report errors as
// Status); C++ exceptions escaping init are caught, but never throw from a
// pass. Plugins are never unloaded: their code stays mapped for the process,
// since copies of their PassInfo may live in any session state.
#pragma once

#include "core/pass/pass.h"

#define AIRSCOPE_PLUGIN_API_VERSION 1

extern "C" {

struct AirscopePluginHost {
  int api_version;  // the host's AIRSCOPE_PLUGIN_API_VERSION
  void* host_data;  // private to airscope
  // Registers a copy of *pass. Returns 0, or nonzero if the pass is refused
  // (the reason is reported to the user by the host).
  int (*register_pass)(AirscopePluginHost* host, const airscope::PassInfo* pass);
  // Explains why init is about to fail (copied).
  void (*set_error)(AirscopePluginHost* host, const char* message);
};

typedef int (*AirscopePluginVersionFn)(void);
typedef int (*AirscopePluginInitFn)(AirscopePluginHost* host);

}  // extern "C"

// Defines airscope_plugin_api_version() in a plugin.
#define AIRSCOPE_PLUGIN_DEFINE_VERSION() \
  extern "C" int airscope_plugin_api_version(void) { return AIRSCOPE_PLUGIN_API_VERSION; }
