// A plugin whose init fails with an explanation: plugin_test checks the
// message reaches the user and that nothing is registered.
#include "core/pass/plugin_api.h"

AIRSCOPE_PLUGIN_DEFINE_VERSION()

extern "C" int airscope_plugin_init(AirscopePluginHost* host) {
  host->set_error(host, "the frobnicator is not configured");
  return 7;
}
