// DumpInstrumentation: the automatic dumps of a pipeline run. After each new
// stage it writes the graph in every format of `dump.formats` to
// `dump.dir/NN_<pass>.<ext>` (NN = stage number, at least two digits; 00 is
// the input, written when a run starts from it), atomically.
// `dump.when`: all = every stage; change = the input and the stages that
// changed the graph; off = nothing. An empty dump.dir also means nothing.
//
// `dump.layout torchair` writes instead the tree TORCH_COMPILE_DEBUG=1 gives
// (repl/dump_torchair_layout.h): print_readable text only (dump.formats is
// not used), the files TorchAir writes and no others (dump.when change does
// not apply: TorchAir dumps after every pass it calls). Because a run may be
// resumed by a later command with a new instrumentation, the model dir and
// file counter are recovered from the directory: a run that starts from its
// input opens the next unused model__K; later stages continue the newest
// model__K, numbering after the files its forward/ already holds.
//
// It hooks PipelineEnv::on_stage rather than the pass manager's AfterPass,
// because a skipped pass is a stage too and only the pipeline knows stage
// numbers. Passes never dump. A failed write does not stop the pipeline: it
// is collected in errors() for the command to report after the run.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pipeline_run.h"
#include "repl/dump_torchair_layout.h"
#include "repl/settings.h"

namespace airscope {

class DumpInstrumentation {
 public:
  enum class When : uint8_t { kAll, kChange, kOff };
  enum class Layout : uint8_t { kAirscope, kTorchAir };
  struct Config {
    std::string dir;
    std::vector<std::string> formats;  // names from GraphOutputFormats()
    When when = When::kAll;
    Layout layout = Layout::kAirscope;
    TorchAirDumpGate gate = {};  // kTorchAir: which passes TorchAir calls (Attach fills it from the run's context)
  };
  static Config FromSettings(const Settings& settings);
  // "03_remove_noop.fx"
  static std::string FileName(const StageRecord& stage, std::string_view extension);

  explicit DumpInstrumentation(Config config) : config_(std::move(config)) {}
  bool enabled() const {
    return config_.when != When::kOff && !config_.dir.empty() &&
           (config_.layout == Layout::kTorchAir || !config_.formats.empty());
  }

  void OnStage(const StageRecord& stage, const Graph& graph);
  // Sets env.on_stage to this (when enabled), and the TorchAir gate from
  // env.context; the instrumentation must outlive the run.
  void Attach(PipelineEnv& env);

  const std::vector<std::string>& written() const { return written_; }  // paths, in order
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  bool ReadyDir(const std::string& dir);
  void Write(const Graph& graph, std::string_view format, const std::string& path);
  void OnStageTorchAir(const StageRecord& stage, const Graph& graph);

  Config config_;
  std::string model_dir_;  // kTorchAir: DIR/torchair/model__K, once known
  size_t file_count_ = 0;  // kTorchAir: the next NNN
  bool dir_ready_ = false;
  std::vector<std::string> written_;
  std::vector<std::string> errors_;
};

}  // namespace airscope
