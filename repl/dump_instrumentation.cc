#include "repl/dump_instrumentation.h"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "repl/graph_text.h"

namespace airscope {

DumpInstrumentation::Config DumpInstrumentation::FromSettings(const Settings& settings) {
  Config config;
  config.dir = settings.Get("dump.dir");
  const std::string& formats = settings.Get("dump.formats");
  size_t start = 0;
  while (start < formats.size()) {
    size_t end = std::min(formats.find(',', start), formats.size());
    if (end > start) config.formats.push_back(formats.substr(start, end - start));
    start = end + 1;
  }
  const std::string& when = settings.Get("dump.when");
  config.when = when == "off" ? When::kOff : when == "change" ? When::kChange : When::kAll;
  return config;
}

std::string DumpInstrumentation::FileName(const StageRecord& stage, std::string_view extension) {
  return fmt::format("{:02}_{}.{}", stage.number, stage.pass, extension);
}

void DumpInstrumentation::OnStage(const StageRecord& stage, const Graph& graph) {
  if (!enabled()) return;
  if (config_.when == When::kChange && stage.number > 0 && !stage.changed) return;
  if (!dir_ready_) {
    std::error_code error;
    std::filesystem::create_directories(config_.dir, error);
    if (error) {
      errors_.push_back(fmt::format("cannot create dump directory {}: {}", config_.dir, error.message()));
      config_.when = When::kOff;  // one message, not one per stage
      return;
    }
    dir_ready_ = true;
  }
  for (const std::string& name : config_.formats) {
    const GraphOutputFormat* format = FindGraphFormat(name);
    if (!format) {
      errors_.push_back(fmt::format("unknown dump format '{}'", name));
      continue;
    }
    std::string path = (std::filesystem::path(config_.dir) / FileName(stage, format->extension)).string();
    Result<WrittenGraph> written = WriteGraph(graph, name, path);
    if (written.ok()) {
      written_.push_back(path);
    } else {
      errors_.push_back(written.status().message());
    }
  }
}

void DumpInstrumentation::Attach(PipelineEnv& env) {
  if (!enabled()) return;
  env.on_stage = [this](const StageRecord& stage, const Graph& graph) { OnStage(stage, graph); };
}

}  // namespace airscope
