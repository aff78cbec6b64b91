// LogBundle: what one `load` of a log, a directory of rank logs or a
// TORCH_COMPILE_DEBUG tree brought into the session, kept together so that
// `compiles`, `compare` and the report see it as one: the parsed logs (with
// the prefix their graphs' names carry), the tree, and the stages of real
// TorchAir runs it recorded. Immutable once loaded; shared by every graph
// the load registered (CacheState::bundle).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "formats/torch_compile_debug.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"

namespace airscope {

// One graph a real run recorded between two of TorchAir's passes.
struct RecordedStage {
  std::string graph_name;  // the session graph holding it
  // The TorchAir pass it was recorded after (TorchAir's name, which is
  // airscope's); empty for the run's input.
  std::string after_pass;
  // The recording says a user pass (post_grad_custom_pre/post_pass) ran here:
  // TorchAir dumps and logs those only when one is set.
  bool user_pass = false;
  std::string label;  // where it came from: a file name, "log line 42: ..."
  std::shared_ptr<const Graph> graph;
  // A stage dump's NNN (TorchAir numbers every dump of a phase, so a gap
  // means a lost file); -1 where the recording does not number its stages.
  int count = -1;
};

// The recorded stages of one graph through TorchAir's pipeline in a real run.
struct RecordedRun {
  std::string name;        // "model__0:forward", "graph_1", "g1:torchair_graph"
  std::string source;      // "TORCH_COMPILE_DEBUG dumps", "config.debug.graph_dump", "TorchAir's log lines"
  std::string compile_id;  // the Dynamo compile it belongs to, when known
  RecordedStage input;
  // The pass the input was recorded after: "aot" (the graph TorchAir's
  // compiler receives) or "post_grad_custom_post_pass" (graph_dump's
  // dynamo_original, written after _optimize_fx).
  std::string input_after = "aot";
  std::vector<RecordedStage> stages;  // in the order recorded
  std::vector<std::string> unloaded;  // stage files of the recording that did not load (the load warned)
  // A TORCH_COMPILE_DEBUG phase directory: TorchAir dumps after every pass it
  // calls, so a pass without a dump is a pass it did not call.
  bool every_pass_dumped = false;
  // dynamo_out_graph.txt: the graph before replace_stream_event_pass and aot.
  std::optional<RecordedStage> dynamo;
  bool training = false;  // the model has a backward phase: its forward is AOT's partitioned one
  // TorchAir's names this graph ran under, where the recording shows them:
  // AclConcreteGraph's "graph_N" (tags of apply_event_closure_with_multi_stream)
  // and the Dynamo graph counter K of replace_stream_event_pass's tags.
  std::string fx_graph_name;
  int64_t dynamo_graph_counter = -1;
};

struct LogBundle {
  std::string path;
  std::string what;  // "TORCH_TRACE log", "TORCH_LOGS text", "TORCH_TRACE rank logs", "TORCH_COMPILE_DEBUG tree"
  struct Trace {
    std::string prefix;  // in front of its graphs' names ("rank1:", "as:", "")
    std::shared_ptr<const TraceLog> log;
  };
  struct Text {
    std::string prefix;
    std::shared_ptr<const TorchLogs> log;
  };
  std::vector<Trace> traces;
  std::vector<Text> texts;
  std::shared_ptr<const DebugTree> tree;
  std::string tree_prefix;  // `load DIR as NAME`: "NAME:"
  std::vector<RecordedRun> recorded;
  std::vector<std::string> graph_names;  // every graph the load registered, in order
};

}  // namespace airscope
