#include "repl/interpreter.h"

#include <sys/stat.h>

#include "core/file_util.h"

namespace airscope {
namespace {

class CaptureSink : public OutputSink {
 public:
  explicit CaptureSink(CommandOutput* out) : out_(out) {}
  void Output(const CommandOutput& out) override { out_->Append(out); }
  void Error(std::string_view message) override { out_->Add(message, Style::kBad); }

 private:
  CommandOutput* out_;
};

bool FileExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size()) lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

Interpreter::Interpreter(Session& session, const CommandTable& table, OutputSink& sink)
    : session_(session), table_(table), sink_(&sink) {}

Status Interpreter::ExecuteLine(std::string_view line) {
  Result<std::vector<Word>> words = Tokenize(line);
  if (!words.ok()) return words.status();
  if (words->empty()) return Status::Ok();
  Result<const CommandSpec*> spec = table_.Lookup(words->front().text);
  if (!spec.ok()) return spec.status();
  std::vector<Word> args(words->begin() + 1, words->end());
  CommandOutput out;
  CommandContext context{session_, *this, args, out};
  Status status = (*spec)->handler(context);
  // Whatever the command printed before failing is still shown: it is often the explanation.
  if (!out.empty()) sink_->Output(out);
  return status;
}

Status Interpreter::ExecuteCaptured(std::string_view line, CommandOutput* out) {
  CaptureSink capture(out);
  OutputSink* saved = sink_;
  sink_ = &capture;
  Status status = ExecuteLine(line);
  sink_ = saved;
  return status;
}

Status Interpreter::RunScript(const std::string& path) {
  if (static_cast<int>(script_dirs_.size()) >= kMaxSourceDepth) {
    return Status::Errorf("{}: scripts nested deeper than {} (a source loop?)", path, kMaxSourceDepth);
  }
  Result<std::string> text = ReadFile(path, session_.settings().GetUnsigned("max-file-size"));
  if (!text.ok()) return text.status();
  size_t slash = path.rfind('/');
  script_dirs_.push_back(slash == std::string::npos ? "." : path.substr(0, slash));
  Status status = RunLines(SplitLines(*text), path);
  script_dirs_.pop_back();
  return status;
}

Status Interpreter::RunCommandText(std::string_view text) { return RunLines(SplitCommands(text), "-c"); }

Status Interpreter::RunLines(const std::vector<std::string>& lines, std::string_view origin) {
  size_t failed = 0;
  Status first_failure;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (session_.quit_requested()) break;
    size_t reported_before = reported_failures_;
    Status status = ExecuteLine(lines[i]);
    if (status.ok()) continue;
    Status located = status;
    if (reported_failures_ == reported_before) {
      // Not yet reported (it is not a failure inside a sourced script, which
      // its own script reported): report it here, with its location.
      located = Status::Errorf("{}:{}: {}", origin, i + 1, status.message());
      sink_->Error(located.message());
      ++reported_failures_;
    }
    if (failed++ == 0) first_failure = located;
    if (session_.settings().Get("on-error") != "continue") return located;
  }
  if (failed <= 1) return first_failure;
  return Status::Errorf("{} ({} lines failed in {})", first_failure.message(), failed, origin);
}

std::string Interpreter::ResolvePath(std::string_view path) const {
  std::string given(path);
  if (given.empty() || given[0] == '/' || FileExists(given) || script_dirs_.empty()) return given;
  std::string relative = script_dirs_.back() + "/" + given;
  return FileExists(relative) ? relative : given;
}

}  // namespace airscope
