#include "formats/torch_compile_debug.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/file_util.h"
#include "core/fx/json_text.h"
#include "core/line_reader.h"
#include "core/text.h"
#include "formats/torch_trace.h"

namespace airscope {
namespace fs = std::filesystem;
namespace {

// The number right after `marker` in `name` ("-pid_" in "run_..-pid_42"), or -1.
int64_t NumberAfter(std::string_view name, std::string_view marker) {
  size_t at = name.rfind(marker);
  if (at == std::string_view::npos) return -1;
  size_t d = CountDigitsAt(name, at + marker.size());
  return d == 0 ? -1 : DigitsValue(name.substr(at + marker.size(), d));
}

// `model__12` -> 12, else -1.
int64_t ModelNumber(std::string_view name) {
  if (!name.starts_with("model__")) return -1;
  size_t d = CountDigitsAt(name, 7);
  return d == 0 || d != name.size() - 7 ? -1 : DigitsValue(name.substr(7));
}

// The tree's depth is fixed by its layout (root, run, torchair, model, phase),
// so following a symlinked directory cannot loop.
bool IsDir(const fs::path& p) {
  std::error_code error;
  return fs::is_directory(p, error);
}

uint64_t FileSize(const fs::path& p) {
  std::error_code error;
  uintmax_t size = fs::file_size(p, error);
  return error ? 0 : static_cast<uint64_t>(size);
}

// print_readable's code starts with its class; a UTF-8 BOM may come first.
bool IsReadableCode(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  return FirstMeaningfulLine(text).starts_with("class ");
}

// GeGraph.python_code (ge/_ge_graph.py:779-785): the builder script of a GE graph.
bool IsGePythonCode(std::string_view text) {
  return text.find("from torchair._ge_concrete_graph import ge_apis as ge") != std::string_view::npos;
}

// Names of the entries of `dir`, sorted (directory order is the file system's).
std::vector<std::string> Entries(const fs::path& dir, DebugTree* tree) {
  std::vector<std::string> names;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) {
    tree->problems.push_back({dir.string(), fmt::format("cannot list: {}", error.message())});
    return names;
  }
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) break;
    if (++tree->entries > DebugTree::kMaxEntries) {
      if (tree->entries == DebugTree::kMaxEntries + 1) {
        tree->problems.push_back({dir.string(), fmt::format("more than {} entries in the tree: the rest was not read",
                                                            DebugTree::kMaxEntries)});
      }
      break;
    }
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// `dynamo_original_graph_3_rank_0_pid_42_ts_20250101...py` (debug_config.py:26-36).
struct GraphDumpName {
  std::string kind;   // dynamo_original | dynamo_optimized
  std::string graph;  // graph_3
  int rank = -1;
  int64_t pid = -1;
  std::string ext;
};
bool ParseGraphDumpName(std::string_view name, GraphDumpName* out) {
  for (std::string_view kind : {"dynamo_original_", "dynamo_optimized_"}) {
    if (!name.starts_with(kind)) continue;
    std::string_view rest = name.substr(kind.size());
    if (!rest.starts_with("graph_")) return false;
    size_t d = CountDigitsAt(rest, 6);
    if (d == 0) return false;
    size_t dot = name.rfind('.');
    if (dot == std::string_view::npos) return false;
    std::string_view ext = name.substr(dot + 1);
    if (ext != "py" && ext != "pbtxt" && ext != "txt") return false;
    out->kind = std::string(kind.substr(0, kind.size() - 1));
    out->graph = std::string(rest.substr(0, 6 + d));
    std::string_view tail = rest.substr(6 + d);
    if (!tail.starts_with("_rank_")) return false;
    out->rank = static_cast<int>(NumberAfter(tail, "_rank_"));
    out->pid = NumberAfter(tail, "_pid_");
    out->ext = std::string(ext);
    return out->rank >= 0 && out->pid >= 0;
  }
  return false;
}

// `<fx graph>_id_<id>_rank_<dev>_pid_<pid>_ts_<ts>.json` (acl_graph.py:1266).
bool ParseCaptureName(std::string_view name, DebugTreeCapture* out) {
  if (!name.ends_with(".json")) return false;
  std::string_view stem = name.substr(0, name.size() - 5);
  size_t id = stem.rfind("_id_");
  size_t rank = stem.rfind("_rank_");
  size_t pid = stem.rfind("_pid_");
  size_t ts = stem.rfind("_ts_");
  if (id == std::string_view::npos || rank == std::string_view::npos || pid == std::string_view::npos ||
      ts == std::string_view::npos || !(id < rank && rank < pid && pid < ts) || id == 0) {
    return false;
  }
  out->fx_graph = std::string(stem.substr(0, id));
  out->aclgraph_id = std::string(stem.substr(id + 4, rank - id - 4));
  out->rank = static_cast<int>(NumberAfter(stem.substr(0, pid), "_rank_"));
  out->pid = NumberAfter(stem.substr(0, ts), "_pid_");
  out->timestamp = std::string(stem.substr(ts + 4));
  return !out->aclgraph_id.empty() && CountDigitsAt(out->timestamp, 0) == out->timestamp.size() &&
         !out->timestamp.empty();
}

// `NNN_aot_<phase>_<name>.<ext>` (graph_transform_observer.py:59-88).
struct StageName {
  int count = -1;
  std::string phase;
  std::string name;
  std::string ext;
};
bool ParseStageName(std::string_view file, std::string_view phase, StageName* out) {
  if (CountDigitsAt(file, 0) != 3 || file.substr(3, 5) != "_aot_") return false;
  size_t dot = file.rfind('.');
  if (dot == std::string_view::npos || dot < 9) return false;
  std::string_view ext = file.substr(dot + 1);
  std::string_view body = file.substr(8, dot - 8);  // <phase>_<name>
  std::string prefix = fmt::format("{}_", phase);
  if (!body.starts_with(prefix) || body.size() == prefix.size()) return false;
  out->count = static_cast<int>(DigitsValue(file.substr(0, 3)));
  out->phase = std::string(phase);
  out->name = std::string(body.substr(prefix.size()));
  out->ext = std::string(ext);
  return true;
}

class TreeReader {
 public:
  TreeReader(DebugTree* tree, uint64_t max_bytes) : tree_(*tree), max_bytes_(max_bytes) {}

  void Problem(const fs::path& p, std::string message) { tree_.problems.push_back({p.string(), std::move(message)}); }

  // Whether `p` is a regular file, the only kind a tree's reader opens; a
  // problem names anything else. torch and TorchAir write nothing else into
  // these directories, so a FIFO or a device here is a mistake or a trap:
  // the wait `load` gives a FIFO it was named (core/file_util.h) would make
  // a tree of ten FIFOs hang ten times as long for files nobody meant to be
  // read, and a device would be read up to the size limit. Loading such a
  // file by itself still reads it as a FIFO.
  bool RegularFile(const fs::path& p) {
    std::string kind = NonRegularFileKind(p.string());
    if (kind.empty()) return true;
    Problem(p, fmt::format("{}, not a regular file: not read (torch writes only regular files here{})", kind,
                           kind == "a FIFO" ? "; `load` of the FIFO itself reads it" : ""));
    return false;
  }

  // The text of a file, or nullopt with a problem naming it.
  std::optional<std::string> Text(const fs::path& p) {
    if (!RegularFile(p)) return std::nullopt;
    Result<std::string> text = ReadFile(p.string(), max_bytes_);
    if (!text.ok()) {
      Problem(p, text.status().message());
      return std::nullopt;
    }
    if (text->empty()) {
      Problem(p, "empty file (the dump was cut short?): not loaded");
      return std::nullopt;
    }
    if (text->find('\0') != std::string::npos) {
      Problem(p, "not a text file (NUL bytes): not loaded");
      return std::nullopt;
    }
    return std::move(text).value();
  }

  void AddGraph(DebugTreeGraph g) {
    int n = ++names_[g.name];
    if (n > 1) g.name += fmt::format("#{}", n);
    tree_.graphs.push_back(std::move(g));
  }

  void File(const std::string& prefix, const fs::path& p, std::string what, std::string model = {},
            std::string phase = {}) {
    tree_.files.push_back({prefix, std::move(what), std::move(model), std::move(phase), p.string(), FileSize(p)});
  }

  // A directory's config.debug.graph_dump files; returns false for a name that is none.
  bool GraphDump(const std::string& prefix, const fs::path& p, const std::string& rank_prefix) {
    GraphDumpName dump;
    if (!ParseGraphDumpName(p.filename().string(), &dump)) return false;
    if (dump.ext == "txt") {
      File(prefix, p, fmt::format("TorchAir graph_dump of {} as GE text (max-autotune mode): not read", dump.graph),
           dump.graph);
      return true;
    }
    std::optional<std::string> text = Text(p);
    if (!text) return true;
    if (dump.ext == "py" && !IsReadableCode(*text)) {
      File(
          prefix, p,
          IsGePythonCode(*text)
              ? fmt::format("TorchAir graph_dump of {} as GE builder code (GeGraph.python_code, max-autotune "
                            "mode): not read, airscope simulates reduce-overhead",
                            dump.graph)
              : fmt::format("TorchAir graph_dump of {}: neither print_readable code nor GE code, not read", dump.graph),
          dump.graph);
      return true;
    }
    DebugTreeGraph g;
    g.prefix = prefix;
    g.name = fmt::format("{}{}{}:{}", prefix, rank_prefix, dump.graph, dump.kind);
    g.source = DebugGraphSource::kGraphDump;
    g.model = dump.graph;
    g.stage = dump.kind;
    g.pbtxt = dump.ext == "pbtxt";
    g.path = p.string();
    g.text = std::move(*text);
    AddGraph(std::move(g));
    return true;
  }

  // The graph_dump files of a directory, each with `rankR:` when ranks differ there.
  void GraphDumps(const std::string& prefix, const fs::path& dir, const std::vector<std::string>& names,
                  std::set<std::string>* used) {
    std::set<int> ranks;
    // By graph number, rank, original before optimized, then the name (pid, time).
    std::vector<std::pair<std::tuple<int64_t, int, int>, std::string>> dumps;
    for (const std::string& name : names) {
      GraphDumpName dump;
      if (!ParseGraphDumpName(name, &dump)) continue;
      ranks.insert(dump.rank);
      dumps.push_back(
          {{DigitsValue(std::string_view(dump.graph).substr(6)), dump.rank, dump.kind == "dynamo_original" ? 0 : 1},
           name});
    }
    std::stable_sort(dumps.begin(), dumps.end());
    for (const auto& [key, name] : dumps) {
      GraphDumpName dump;
      ParseGraphDumpName(name, &dump);
      std::string rank_prefix = ranks.size() > 1 ? fmt::format("rank{}:", dump.rank) : "";
      if (GraphDump(prefix, dir / name, rank_prefix)) used->insert(name);
    }
  }

  void Phase(const std::string& prefix, const std::string& model, const fs::path& dir) {
    std::string phase = dir.filename().string();
    struct Stage {
      StageName name;
      fs::path path;
    };
    std::vector<Stage> stages;
    for (const std::string& name : Entries(dir, &tree_)) {
      fs::path p = dir / name;
      StageName stage;
      if (name == "output_code.py") {
        File(prefix, p,
             fmt::format("TorchAir output code of {}/{} (the generated module, written at the first call)", model,
                         phase),
             model, phase);
      } else if (ParseStageName(name, phase, &stage)) {
        stages.push_back({stage, p});
      } else if (CountDigitsAt(name, 0) == 3 && name.substr(3, 5) == "_aot_") {
        Problem(p, fmt::format("a stage dump of another phase than its directory '{}': not loaded", phase));
      } else {
        tree_.unknown.push_back(p.string());
      }
    }
    std::stable_sort(stages.begin(), stages.end(),
                     [](const Stage& a, const Stage& b) { return a.name.count < b.name.count; });
    int expected = 0;
    for (const Stage& s : stages) {
      if (s.name.count > expected) {
        Problem(dir, expected + 1 == s.name.count
                         ? fmt::format("no stage dump {:03} (a partial tree?)", expected)
                         : fmt::format("no stage dumps {:03} to {:03} (a partial tree?)", expected, s.name.count - 1));
      } else if (s.name.count < expected) {
        Problem(s.path, fmt::format("a second stage dump numbered {:03}", s.name.count));
      }
      expected = s.name.count + 1;
      if (s.name.ext == "py" || (s.name.ext != "txt" && s.name.ext != "pbtxt")) {
        File(prefix, s.path, fmt::format("GE stage dump of {}/{} (max-autotune mode): not read", model, phase), model,
             phase);
        continue;
      }
      std::optional<std::string> text = Text(s.path);
      if (!text) continue;
      bool pbtxt = s.name.ext == "pbtxt";
      if (!pbtxt && !IsReadableCode(*text)) {
        File(prefix, s.path, fmt::format("GE stage dump of {}/{} as text (max-autotune mode): not read", model, phase),
             model, phase);
        continue;
      }
      DebugTreeGraph g;
      g.prefix = prefix;
      g.name = fmt::format("{}{}:{}:{}", prefix, model, phase, DebugStageKind(s.name.name));
      g.source = pbtxt ? DebugGraphSource::kGeStage : DebugGraphSource::kTorchAirStage;
      g.model = model;
      g.phase = phase;
      g.count = s.name.count;
      g.stage = s.name.name;
      g.pbtxt = pbtxt;
      g.path = s.path.string();
      g.text = std::move(*text);
      AddGraph(std::move(g));
    }
    bool has_input = !stages.empty() && stages.front().name.count == 0 && stages.front().name.name == "graph";
    if (!has_input) {
      Problem(dir, fmt::format("no 000_aot_{}_graph.txt: the graph after AOT (the recorded input of {}/{}) is missing",
                               phase, model, phase));
    }
  }

  void Model(const std::string& prefix, const std::string& model, const fs::path& dir) {
    std::vector<std::string> names = Entries(dir, &tree_);
    // dynamo_out_graph.txt first (the graph before AOT), then the phases as
    // TorchAir compiles them: forward (and inference), backward, joint, others.
    auto rank = [&dir](const std::string& n) {
      if (n == "dynamo_out_graph.txt") return 0;
      if (!IsDir(dir / n)) return 5;
      return n == "forward" ? 1 : n == "backward" ? 2 : n == "joint" ? 3 : 4;
    };
    std::stable_sort(names.begin(), names.end(),
                     [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    std::set<std::string> used;
    GraphDumps(prefix, dir, names, &used);
    for (const std::string& name : names) {
      if (used.count(name)) continue;
      fs::path p = dir / name;
      DebugTreeCapture capture;
      if (name == "dynamo_out_graph.txt") {
        std::optional<std::string> text = Text(p);
        if (!text) continue;
        DebugTreeGraph g;
        g.prefix = prefix;
        g.name = fmt::format("{}{}:dynamo", prefix, model);
        g.source = DebugGraphSource::kDynamoOut;
        g.model = model;
        g.stage = "dynamo_out_graph";
        g.path = p.string();
        g.text = std::move(*text);
        AddGraph(std::move(g));
      } else if (IsDir(p)) {
        Phase(prefix, model, p);
      } else if (ParseCaptureName(name, &capture)) {
        if (!RegularFile(p)) continue;  // no capture record: nothing of the runtime's is there
        capture.prefix = prefix;
        capture.model = model;
        capture.path = p.string();
        capture.bytes = FileSize(p);
        if (std::optional<std::string> text = Text(p)) {
          capture.json_ok = CheckJsonDepth(*text, 512).ok() && nlohmann::json::accept(*text);
          if (!capture.json_ok) Problem(p, "the capture dump is not valid JSON (cut short?): kept as a capture record");
        }
        tree_.captures.push_back(std::move(capture));
      } else {
        tree_.unknown.push_back(p.string());
      }
    }
    // No dynamo_out_graph.txt is no problem: npugraph_ex's compile_fx writes none (its debug_save.md).
  }

  // `torchair/` or `npugraph_ex/`: debug.log and the model__K directories.
  void TorchAirRoot(DebugTreeRun& run, const fs::path& dir) {
    std::vector<std::string> names = Entries(dir, &tree_);
    std::set<std::string> used;
    GraphDumps(run.prefix, dir, names, &used);
    std::vector<std::pair<int64_t, std::string>> models;
    for (const std::string& name : names) {
      if (used.count(name)) continue;
      fs::path p = dir / name;
      if (name == "debug.log") {
        if (RegularFile(p)) tree_.logs.push_back({run.prefix, DebugTreeLog::Kind::kTorchAir, p.string(), -1});
      } else if (int64_t k = ModelNumber(name); k >= 0 && IsDir(p)) {
        models.emplace_back(k, name);
      } else {
        tree_.unknown.push_back(p.string());
      }
    }
    std::sort(models.begin(), models.end());
    for (const auto& [k, name] : models) {
      run.models.push_back(name);
      Model(run.prefix, name, dir / name);
    }
  }

  void Inductor(const std::string& prefix, const fs::path& dir) {
    for (const std::string& name : Entries(dir, &tree_)) {
      fs::path p = dir / name;
      if (!IsDir(p)) {
        if (name.ends_with("_debug.log")) {
          File(prefix, p, "AOTAutograd's debug log (torch/_inductor/debug.py enable_aot_logging): not read");
        } else {
          tree_.unknown.push_back(p.string());
        }
        continue;
      }
      for (const std::string& file : Entries(p, &tree_)) {
        fs::path f = p / file;
        if (file == "fx_graph_readable.py" || file == "fx_graph_transformed.py") {
          std::optional<std::string> text = Text(f);
          if (!text) continue;
          DebugTreeGraph g;
          g.prefix = prefix;
          std::string stem = file.substr(0, file.size() - 3);
          g.name = fmt::format("{}inductor:{}:{}", prefix, name, stem);
          g.source = DebugGraphSource::kInductor;
          g.model = name;
          g.stage = stem;
          g.path = f.string();
          g.text = std::move(*text);
          AddGraph(std::move(g));
        } else if (file == "output_code.py") {
          File(prefix, f, fmt::format("Inductor output code of {}", name), name);
        } else if (file == "fx_graph_runnable.py") {
          File(prefix, f, fmt::format("Inductor repro script of {} (fx_graph_runnable.py): not read", name), name);
        } else {
          File(prefix, f, fmt::format("Inductor debug file of {}: not read", name), name);
        }
      }
    }
  }

  void Run(DebugTreeRun& run, const fs::path& dir) {
    std::vector<std::string> names = Entries(dir, &tree_);
    std::set<std::string> used;
    GraphDumps(run.prefix, dir, names, &used);
    for (const std::string& name : names) {
      if (used.count(name)) continue;
      fs::path p = dir / name;
      if ((name == "torchair" || name == "npugraph_ex") && IsDir(p)) {
        run.torchair = name;
        TorchAirRoot(run, p);
      } else if (name == "torchdynamo" && IsDir(p)) {
        for (const std::string& file : Entries(p, &tree_)) {
          if (file == "debug.log") {
            if (RegularFile(p / file)) {
              tree_.logs.push_back({run.prefix, DebugTreeLog::Kind::kTorchDynamo, (p / file).string(), -1});
            }
          } else {
            tree_.unknown.push_back((p / file).string());
          }
        }
      } else if (name == "torchinductor" && IsDir(p)) {
        Inductor(run.prefix, p);
      } else {
        tree_.unknown.push_back(p.string());
      }
    }
  }

  // tlparse/'s TORCH_TRACE logs with the pid of their first record.
  std::vector<DebugTreeLog> TraceLogs(const fs::path& dir) {
    std::vector<DebugTreeLog> logs;
    for (const std::string& name : Entries(dir, &tree_)) {
      fs::path p = dir / name;
      if (!RegularFile(p)) continue;
      Result<InputFile> file = InputFile::Open(p.string());
      if (!file.ok()) {
        Problem(p, file.status().message());
        continue;
      }
      std::string head(4096, '\0');
      ssize_t got = ::read(file->fd(), head.data(), head.size());
      head.resize(got > 0 ? static_cast<size_t>(got) : 0);
      std::string_view first(head);
      first = first.substr(0, std::min(first.find('\n'), first.size()));
      if (!LooksLikeTraceLog(first)) {
        tree_.unknown.push_back(p.string());
        continue;
      }
      // `V1206 15:18:20.599000 PID path:LINE] {...}`: the pid is the third field.
      int64_t pid = -1;
      size_t a = first.find(' ');
      size_t b = a == std::string_view::npos ? a : first.find(' ', a + 1);
      if (b != std::string_view::npos) {
        size_t d = CountDigitsAt(first, b + 1);
        if (d > 0) pid = DigitsValue(first.substr(b + 1, d));
      }
      logs.push_back({"", DebugTreeLog::Kind::kTrace, p.string(), pid});
    }
    return logs;
  }

  // Gives each trace log the prefix of the run with its pid.
  void AddTraceLogs(std::vector<DebugTreeLog> logs, bool only_matching) {
    size_t unmatched = 0;
    for (DebugTreeLog& log : logs) {
      auto run = std::find_if(tree_.runs.begin(), tree_.runs.end(),
                              [&log](const DebugTreeRun& r) { return r.pid >= 0 && r.pid == log.pid; });
      if (run != tree_.runs.end()) {
        log.prefix = run->prefix;
      } else if (only_matching) {
        continue;
      } else {
        ++unmatched;
      }
      tree_.logs.push_back(log);
    }
    if (unmatched > 1 || (unmatched == 1 && tree_.runs.size() > 1)) {
      size_t k = 0;
      for (DebugTreeLog& log : tree_.logs) {
        if (log.kind != DebugTreeLog::Kind::kTrace) continue;
        bool matched = std::any_of(tree_.runs.begin(), tree_.runs.end(),
                                   [&log](const DebugTreeRun& r) { return r.pid >= 0 && r.pid == log.pid; });
        if (!matched) log.prefix = fmt::format("trace{}:", k++);
      }
    }
  }

 private:
  DebugTree& tree_;
  uint64_t max_bytes_;
  std::map<std::string, int> names_;
};

bool HasGraphDumpFile(const std::vector<std::string>& names) {
  GraphDumpName dump;
  return std::any_of(names.begin(), names.end(),
                     [&dump](const std::string& n) { return ParseGraphDumpName(n, &dump); });
}

}  // namespace

std::string DebugStageKind(std::string_view stage) {
  if (stage.starts_with("graph_") && stage.size() > 6) return std::string(stage.substr(6));
  return std::string(stage);
}

std::string DebugStagePass(std::string_view stage) {
  constexpr std::string_view kAfter = "graph_after_";
  return stage.starts_with(kAfter) ? std::string(stage.substr(kAfter.size())) : std::string();
}

std::string DebugTreeLayout(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return "";
  std::vector<std::string> names;
  size_t looked = 0;
  for (fs::directory_iterator it(dir, error); !error && it != fs::directory_iterator(); it.increment(error)) {
    if (++looked > 100000) break;
    names.push_back(it->path().filename().string());
  }
  fs::path root(dir);
  auto has_dir = [&](std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end() && IsDir(root / std::string(name));
  };
  for (const std::string& n : names) {
    if (n.starts_with("run_") && IsDir(root / n)) return "torch_compile_debug";
  }
  if (has_dir("tlparse")) return "torch_compile_debug";
  if (has_dir("torchair") || has_dir("npugraph_ex") || has_dir("torchinductor") || has_dir("torchdynamo")) return "run";
  for (const std::string& n : names) {
    if (ModelNumber(n) >= 0 && IsDir(root / n)) return "torchair";
  }
  if (std::find(names.begin(), names.end(), "dynamo_out_graph.txt") != names.end() ||
      ModelNumber(root.filename().string()) >= 0) {
    return "model";
  }
  if (HasGraphDumpFile(names)) return "graph_dump";
  return "";
}

Result<DebugTree> ReadDebugTree(const std::string& dir, uint64_t max_bytes) {
  std::string layout = DebugTreeLayout(dir);
  if (layout.empty()) {
    return Status::Errorf(
        "{}: not a TORCH_COMPILE_DEBUG tree (no run_*, torchair/, npugraph_ex/, torchinductor/, "
        "torchdynamo/, model__K, tlparse/ or dynamo_original_graph_N_* file in it)",
        dir);
  }
  DebugTree tree;
  tree.path = dir;
  tree.layout = layout;
  TreeReader reader(&tree, max_bytes);
  fs::path root(dir);
  // A trailing slash would leave filename() empty.
  if (root.filename().empty()) root = root.parent_path();
  auto run_of = [](const fs::path& p) {
    DebugTreeRun run;
    run.dir = p.string();
    std::string name = p.filename().string();
    run.pid = NumberAfter(name, "-pid_");
    run.rank = static_cast<int>(NumberAfter(name, "-rank_"));
    return run;
  };
  if (layout == "torch_compile_debug") {
    std::vector<std::string> names = Entries(root, &tree);
    std::vector<fs::path> runs;
    std::vector<std::string> rest;
    for (const std::string& n : names) {
      if (n.starts_with("run_") && IsDir(root / n)) {
        runs.push_back(root / n);
      } else if (n != "tlparse") {
        rest.push_back(n);
      }
    }
    std::set<int> ranks;
    bool all_ranked = !runs.empty();
    for (const fs::path& p : runs) {
      DebugTreeRun run = run_of(p);
      all_ranked = all_ranked && run.rank >= 0 && ranks.insert(run.rank).second;
      tree.runs.push_back(run);
    }
    for (size_t k = 0; k < tree.runs.size(); ++k) {
      if (tree.runs.size() > 1) {
        tree.runs[k].prefix = all_ranked ? fmt::format("rank{}:", tree.runs[k].rank) : fmt::format("run{}:", k);
      }
    }
    for (DebugTreeRun& run : tree.runs) reader.Run(run, run.dir);
    std::set<std::string> used;
    reader.GraphDumps("", root, rest, &used);
    for (const std::string& n : rest) {
      if (!used.count(n)) tree.unknown.push_back((root / n).string());
    }
    if (IsDir(root / "tlparse")) reader.AddTraceLogs(reader.TraceLogs(root / "tlparse"), false);
  } else if (layout == "run") {
    tree.runs.push_back(run_of(root));
    reader.Run(tree.runs.back(), root);
    // The TORCH_TRACE log of this run sits beside the runs: ../tlparse, the one with its pid.
    fs::path tlparse = root.parent_path() / "tlparse";
    if (tree.runs.back().pid >= 0 && IsDir(tlparse)) {
      DebugTree scratch;
      TreeReader side(&scratch, max_bytes);
      reader.AddTraceLogs(side.TraceLogs(tlparse), true);
    }
  } else if (layout == "torchair") {
    tree.runs.push_back(DebugTreeRun{});
    tree.runs.back().dir = root.string();
    tree.runs.back().torchair = root.filename().string();
    reader.TorchAirRoot(tree.runs.back(), root);
  } else if (layout == "model") {
    tree.runs.push_back(DebugTreeRun{});
    tree.runs.back().dir = root.parent_path().string();
    std::string model = root.filename().string();  // model__K, or whatever the user renamed it to
    tree.runs.back().models.push_back(model);
    reader.Model("", model, root);
  } else {  // graph_dump
    std::vector<std::string> names = Entries(root, &tree);
    std::set<std::string> used;
    reader.GraphDumps("", root, names, &used);
    for (const std::string& n : names) {
      if (!used.count(n)) tree.unknown.push_back((root / n).string());
    }
  }
  return tree;
}

}  // namespace airscope
