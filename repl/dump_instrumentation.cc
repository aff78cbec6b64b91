#include "repl/dump_instrumentation.h"

#include <charconv>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "repl/graph_text.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

// The K of every `model__K` directory under `root` (none when root is missing).
std::optional<size_t> NewestModelIndex(const fs::path& root) {
  std::optional<size_t> newest;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    std::string name = entry.path().filename().string();
    constexpr std::string_view kPrefix = "model__";
    if (!entry.is_directory() || !name.starts_with(kPrefix)) continue;
    size_t k = 0;
    const char* first = name.data() + kPrefix.size();
    const char* last = name.data() + name.size();
    auto [end, ec] = std::from_chars(first, last, k);
    if (ec != std::errc() || end != last || first == last) continue;
    if (!newest || k > *newest) newest = k;
  }
  return newest;
}

// Files GraphTransformObserver already numbered in a phase directory.
size_t CountPhaseFiles(const fs::path& phase_dir) {
  size_t count = 0;
  std::error_code error;
  std::string infix = fmt::format("_aot_{}_", kTorchAirPhase);
  for (const auto& entry : fs::directory_iterator(phase_dir, error)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 3 + infix.size() && name.compare(3, infix.size(), infix) == 0 && name.ends_with(".txt")) {
      ++count;
    }
  }
  return count;
}

}  // namespace

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
  config.layout = settings.Get("dump.layout") == "torchair" ? Layout::kTorchAir : Layout::kAirscope;
  config.gate.config = settings.TorchAir();
  return config;
}

std::string DumpInstrumentation::FileName(const StageRecord& stage, std::string_view extension) {
  return fmt::format("{:02}_{}.{}", stage.number, stage.pass, extension);
}

bool DumpInstrumentation::ReadyDir(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (!error) return true;
  errors_.push_back(fmt::format("cannot create dump directory {}: {}", dir, error.message()));
  config_.when = When::kOff;  // one message, not one per stage
  return false;
}

void DumpInstrumentation::Write(const Graph& graph, std::string_view format, const std::string& path) {
  Result<WrittenGraph> written = WriteGraph(graph, format, path);
  if (written.ok()) {
    written_.push_back(path);
  } else {
    errors_.push_back(written.status().message());
  }
}

void DumpInstrumentation::OnStage(const StageRecord& stage, const Graph& graph) {
  if (!enabled()) return;
  if (config_.layout == Layout::kTorchAir) {
    OnStageTorchAir(stage, graph);
    return;
  }
  if (config_.when == When::kChange && stage.number > 0 && !stage.changed) return;
  if (!dir_ready_) {
    if (!ReadyDir(config_.dir)) return;
    dir_ready_ = true;
  }
  for (const std::string& name : config_.formats) {
    const GraphOutputFormat* format = FindGraphFormat(name);
    if (!format) {
      errors_.push_back(fmt::format("unknown dump format '{}'", name));
      continue;
    }
    Write(graph, name, (fs::path(config_.dir) / FileName(stage, format->extension)).string());
  }
}

void DumpInstrumentation::OnStageTorchAir(const StageRecord& stage, const Graph& graph) {
  fs::path root = fs::path(config_.dir) / "torchair";
  if (stage.number == 0) {
    // DebugContext.next_path(): a new model directory for a new graph.
    std::optional<size_t> newest = NewestModelIndex(root);
    model_dir_ = (root / TorchAirModelDirName(newest ? *newest + 1 : 0)).string();
    file_count_ = 0;
    if (!ReadyDir(model_dir_)) return;
    Write(graph, "readable", (fs::path(model_dir_) / kDynamoOutGraph).string());
    return;
  }
  std::optional<std::string> name = TorchAirDumpName(stage, config_.gate);
  if (!name) return;
  if (model_dir_.empty()) {  // a run resumed by another command: continue its model dir
    std::optional<size_t> newest = NewestModelIndex(root);
    model_dir_ = (root / TorchAirModelDirName(newest ? *newest : 0)).string();
    file_count_ = CountPhaseFiles(fs::path(model_dir_) / kTorchAirPhase);
  }
  fs::path phase_dir = fs::path(model_dir_) / kTorchAirPhase;
  if (!ReadyDir(phase_dir.string())) return;
  Write(graph, "readable", (phase_dir / TorchAirPhaseFileName(file_count_++, *name)).string());
}

void DumpInstrumentation::Attach(PipelineEnv& env) {
  if (!enabled()) return;
  if (env.context != nullptr) {
    config_.gate.config = env.context->config;
    config_.gate.custom_pre = !env.context->custom_pre.empty();
    config_.gate.custom_post = !env.context->custom_post.empty();
  }
  env.on_stage = [this](const StageRecord& stage, const Graph& graph) { OnStage(stage, graph); };
}

}  // namespace airscope
