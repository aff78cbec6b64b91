// seed_multistream_cpp: the user pass of TorchAir's multi-stream example
// (custom FX pass doc, post_grad_custom_pre_pass) written against airscope's
// Graph API, as a plugin (core/pass/plugin_api.h). It puts mm and abs on
// stream_1 with air.scope_enter/scope_exit and makes sub wait for abs:
//
//   for node in graph.nodes:
//     mm:  inserting_before -> air.scope_enter(['_user_stream_label'], ['stream_1'])
//     abs: inserting_after  -> record = air.record(); then air.scope_exit() after it
//     sub: inserting_before -> air.wait([record])
#include "core/pass/plugin_api.h"

namespace {

using airscope::Argument;
using airscope::Graph;
using airscope::Node;
using airscope::NodeSpec;
using airscope::OpKind;
using airscope::PassContext;
using airscope::Result;
using airscope::Status;

bool Is(const Node& node, const char* target) {
  return node.op() == OpKind::kCallFunction &&
         (node.target() == target || node.target() == std::string("torch.ops.") + target);
}

NodeSpec Call(const char* target, std::vector<Argument> args) {
  NodeSpec spec;
  spec.op = OpKind::kCallFunction;
  spec.target = std::string("torch.ops.") + target;
  spec.args = std::move(args);
  return spec;
}

Result<bool> SeedMultistream(Graph& graph, PassContext&) {
  Node* record = nullptr;
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    if (Is(*node, "aten.mm.default")) {
      graph.InsertBefore(node,
                         Call("air.scope_enter.default", {Argument::List({Argument::String("_user_stream_label")}),
                                                          Argument::List({Argument::String("stream_1")})}));
      changed = true;
    }
    if (Is(*node, "aten.abs.default")) {
      record = graph.InsertAfter(node, Call("air.record.default", {}));
      graph.InsertAfter(record, Call("air.scope_exit.default", {}));
      changed = true;
    }
    if (Is(*node, "aten.sub.Tensor")) {
      // Like the Python original, this needs abs before sub in graph order.
      if (!record) return Status::Errorf("'{}' comes before any abs: nothing to wait for", node->name());
      graph.InsertBefore(node, Call("air.wait.default", {Argument::List({Argument::NodeRef(record)})}));
      changed = true;
    }
  }
  return changed;
}

}  // namespace

AIRSCOPE_PLUGIN_DEFINE_VERSION()

extern "C" int airscope_plugin_init(AirscopePluginHost* host) {
  if (host->api_version != AIRSCOPE_PLUGIN_API_VERSION) return 1;
  airscope::PassInfo pass;
  pass.name = "seed_multistream_cpp";
  pass.summary = "the seed multi-stream example as a C++ plugin: mm, abs on stream_1; sub waits for abs";
  pass.help =
      "TorchAir's multi-stream custom pass example (post_grad_custom_pre_pass in the custom FX pass doc),\n"
      "written in C++ against the Graph API: air.scope_enter(['_user_stream_label'], ['stream_1']) before mm,\n"
      "air.record() and air.scope_exit() after abs, air.wait([record]) before sub. Loaded from\n"
      "plugins/seed_multistream; the same rewrite as the airscript example in `help pass`.";
  pass.kind = airscope::PassKind::kUser;
  pass.run = SeedMultistream;
  return host->register_pass(host, &pass);
}
