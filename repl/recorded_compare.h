// Recorded against simulated: airscope's own pipeline run on the input a real
// TorchAir run recorded, compared stage by stage with what that run recorded
// after each pass (up to node names: core/ir/graph_match.h, what `expect
// graph matches` uses). This is how airscope shows where it is faithful to
// TorchAir and where it is not.
//
// The walk: airscope's pass list (TorchAir's order, TORCHAIR.md §1 and §9)
// after the pass the input was recorded after, up to the last recorded
// stage. For each recorded stage, airscope runs its passes up to the one the
// stage was recorded after and compares. Chained (the default), airscope
// continues from its own graph, so a divergence shows in every later stage
// too; isolated, it continues from the recorded graph, so each row judges
// one stretch of passes alone. Where the recording ran a user pass
// (post_grad_custom_pre/post_pass) that the session has not defined,
// airscope cannot run the user's Python: it continues from the recorded
// graph after it and says so. A recorded stage of a pass airscope does not
// model, or out of TorchAir's order, is listed and not compared.
//
// A TORCH_COMPILE_DEBUG phase directory holds a dump after every pass
// TorchAir called (graph_transform_observer.py:37-88), so a pass airscope
// runs under the session's config but the recording has no dump for means
// TorchAir did not call it in that run: a config that differs. Those are
// named (a row when airscope's pass changed the graph, a note otherwise).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/pass/pass.h"
#include "core/status.h"
#include "repl/dump_torchair_layout.h"
#include "repl/log_bundle.h"

namespace airscope {

struct CompareRow {
  enum class Verdict : uint8_t {
    kMatch,        // airscope's graph equals the recorded one up to node names
    kDiffer,       // it does not (`why` says where)
    kResynced,     // a user pass the session lacks: continued from the recorded graph
    kNotRecorded,  // airscope's pass changed the graph; the recording has no dump after it
    kNotModelled,  // a recorded stage of a pass airscope has no model of
    kOutOfOrder,   // a recorded stage before one already compared, in TorchAir's order
    kFailed,       // airscope's pass failed on the graph
    kNotCompared,  // (the aot row of a training graph)
  };
  Verdict verdict = Verdict::kMatch;
  std::string pass;      // the TorchAir pass the stage is after ("aot" for the aot row)
  std::string recorded;  // the recorded stage's session graph name; "" for kNotRecorded
  std::string label;     // the recorded stage's source
  std::string why;       // kDiffer: the first differing node; kFailed: the error
  std::vector<std::string> notes;
  bool changed = false;                   // airscope's passes since the previous row changed the graph
  std::shared_ptr<const Graph> expected;  // recorded
  std::shared_ptr<const Graph> actual;    // airscope's
};
std::string_view CompareVerdictName(CompareRow::Verdict verdict);  // "matches", "differs", ...

struct CompareReport {
  std::string run;
  std::string input;   // the recorded input's session graph name
  std::string source;  // RecordedRun::source
  bool isolated = false;
  std::vector<CompareRow> rows;
  size_t matched = 0;
  size_t differed = 0;
  std::optional<size_t> first_divergence;  // index into rows of the first kDiffer
  std::vector<std::string> notes;          // about the whole run
};

// `context` is the session's (its config decides which passes run and which
// TorchAir would dump, as in TorchAir); the run's fx graph name and Dynamo
// graph counter are set on a copy. Errors only for a run without an input.
Result<CompareReport> CompareRecorded(const RecordedRun& run, const PassRegistry& passes, const PassContext& context,
                                      bool isolated);

}  // namespace airscope
