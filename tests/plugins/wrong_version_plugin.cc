// A plugin built for another plugin API version: plugin_test checks that
// airscope refuses it without calling its init.
#include "core/pass/plugin_api.h"

extern "C" int airscope_plugin_api_version(void) { return AIRSCOPE_PLUGIN_API_VERSION + 1000; }
extern "C" int airscope_plugin_init(AirscopePluginHost*) { return 0; }
