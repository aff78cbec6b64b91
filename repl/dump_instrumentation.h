// DumpInstrumentation: the automatic dumps of a pipeline run. After each new
// stage it writes the graph in every format of `dump.formats` to
// `dump.dir/NN_<pass>.<ext>` (NN = stage number, at least two digits; 00 is
// the input, written when a run starts from it), atomically.
// `dump.when`: all = every stage; change = the input and the stages that
// changed the graph; off = nothing. An empty dump.dir also means nothing.
//
// It hooks PipelineEnv::on_stage rather than the pass manager's AfterPass,
// because a skipped pass is a stage too and only the pipeline knows stage
// numbers. Passes never dump. A failed write does not stop the pipeline: it
// is collected in errors() for the command to report after the run.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pipeline_run.h"
#include "repl/settings.h"

namespace airscope {

class DumpInstrumentation {
 public:
  enum class When : uint8_t { kAll, kChange, kOff };
  struct Config {
    std::string dir;
    std::vector<std::string> formats;  // names from GraphOutputFormats()
    When when = When::kAll;
  };
  static Config FromSettings(const Settings& settings);
  // "03_remove_noop.fx"
  static std::string FileName(const StageRecord& stage, std::string_view extension);

  explicit DumpInstrumentation(Config config) : config_(std::move(config)) {}
  bool enabled() const { return config_.when != When::kOff && !config_.dir.empty() && !config_.formats.empty(); }

  void OnStage(const StageRecord& stage, const Graph& graph);
  // Sets env.on_stage to this (when enabled); the instrumentation must outlive the run.
  void Attach(PipelineEnv& env);

  const std::vector<std::string>& written() const { return written_; }  // paths, in order
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  Config config_;
  bool dir_ready_ = false;
  std::vector<std::string> written_;
  std::vector<std::string> errors_;
};

}  // namespace airscope
