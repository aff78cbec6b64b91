#include "repl/interpreter.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <utility>

#include "core/file_util.h"
#include "core/fx/source_text.h"
#include "core/interrupt.h"
#include "core/scanner.h"

namespace airscope {
namespace {

class CaptureSink : public OutputSink {
 public:
  explicit CaptureSink(CommandOutput* out) : out_(out) {}
  Status Output(const CommandOutput& out) override {
    out_->Append(out);
    return Status::Ok();
  }
  void Error(std::string_view message) override { out_->Add(message, Style::kBad); }

 private:
  CommandOutput* out_;
};

bool FileExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> SplitScriptLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size()) lines.emplace_back(text.substr(start));
      break;
    }
    size_t stop = end > start && text[end - 1] == '\r' ? end - 1 : end;  // CRLF
    lines.emplace_back(text.substr(start, stop - start));
    start = end + 1;
  }
  return lines;
}

// A script's lines as `load` reads a file's: a UTF-8 byte order mark (editors
// on Windows write one) is not part of the first command, and a lone CR
// (classic Mac line endings) is refused where it is, not run as one long line.
Result<std::string_view> ScriptText(std::string_view text, std::string_view path) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  size_t skipped = text.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
  for (size_t cr = text.find('\r'); cr != std::string_view::npos; cr = text.find('\r', cr + 1)) {
    if (cr + 1 >= text.size() || text[cr + 1] != '\n') {
      return ErrorAtOffset(path, text, cr,
                           "a line ends in a lone CR (classic Mac line endings); airscope reads LF or CRLF");
    }
  }
  return text.substr(skipped);
}

}  // namespace

Interpreter::Interpreter(Session& session, const CommandTable& table, OutputSink& sink)
    : session_(session), table_(table), sink_(&sink) {}

void Interpreter::BeginBlock(std::string opener, std::string terminator, BlockHandler done, BlockLineCheck check) {
  block_ = PendingBlock{std::move(opener), std::move(terminator), std::move(done), std::move(check),
                        BlockLines{current_origin_, current_line_ + 1, {}}};
}

std::string Interpreter::AbandonBlock() {
  if (!block_) return "";
  std::string opener = std::move(block_->opener);
  block_.reset();
  return opener;
}

Status Interpreter::ExecuteLine(std::string_view line) {
  if (block_) {
    size_t first = line.find_first_not_of(" \t\r");
    size_t last = line.find_last_not_of(" \t\r");
    std::string_view trimmed = first == std::string_view::npos ? "" : line.substr(first, last - first + 1);
    if (trimmed != block_->terminator) {
      BlockLines& lines = block_->lines;
      if (block_->check) {
        // Interactively the line number is the block's own count (no file to point into).
        size_t number = current_origin_ == "<interactive>" ? lines.first_line + lines.lines.size() : current_line_;
        if (Status checked = block_->check(line, number); !checked.ok()) {
          // The words go on the headline, above the quoted line and its caret.
          return WithHeadlineSuffix(Status::Errorf("{}: {}", block_->opener, checked.message()),
                                    " (the line was left out; the block is still open: type it again, or end)");
        }
      }
      lines.lines.emplace_back(line);
      return Status::Ok();
    }
    PendingBlock block = std::move(*block_);
    block_.reset();
    Status status = block.done(block.lines);
    if (!status.ok()) status = Status::Errorf("{}: {}", block.opener, status.message());
    if (capturing_ == 0) {
      std::string text = block.opener;
      for (const std::string& l : block.lines.lines) text += "\n" + l;
      text += "\n" + block.terminator;
      session_.Record({current_origin_, block.origin_line, std::move(text), "", status.ok() ? "" : status.message()});
    }
    return status;
  }
  if (size_t first = line.find_first_not_of(" \t"); first != std::string_view::npos && line[first] == '!') {
    return ExecuteLine(fmt::format("shell {}", QuoteWord(line.substr(first + 1))));
  }
  // Every command line goes into the transcript (`report`), failed ones too;
  // a block opener is recorded with its block, when the block ends. Every
  // error leaves through here: one about a column of the line (a handler's
  // ColumnError) gets the line quoted with a caret, here where the line is.
  auto record = [&](const Status& status, std::string output) {
    Status quoted = QuoteUnquotedColumn(status, line);
    if (capturing_ > 0 || block_) return quoted;
    session_.Record({current_origin_, current_origin_ == "<interactive>" ? 0 : current_line_, std::string(line),
                     std::move(output), quoted.ok() ? "" : quoted.message()});
    return quoted;
  };
  Result<std::vector<Word>> words = Tokenize(line);
  if (!words.ok()) return record(words.status(), "");
  if (words->empty()) return Status::Ok();
  // `> FILE` / `>> FILE` (or `>FILE`) at the end, unquoted: the output goes to FILE.
  std::optional<std::string> redirect;
  bool append = false;
  if (words->size() >= 3) {
    const Word& op = (*words)[words->size() - 2];
    if (!op.quoted && (op.text == ">" || op.text == ">>")) {
      append = op.text == ">>";
      redirect = ExpandHome(words->back().text);
      words->resize(words->size() - 2);
    }
  }
  if (!redirect && words->size() >= 2) {
    const Word& last = words->back();
    size_t arrows = last.text.starts_with(">>") ? 2 : last.text.starts_with(">") ? 1 : 0;
    if (!last.quoted && arrows > 0 && last.text.size() > arrows) {
      append = arrows == 2;
      redirect = ExpandHome(std::string_view(last.text).substr(arrows));
      words->pop_back();
    }
  }
  Result<const CommandSpec*> spec = table_.Lookup(words->front().text);
  if (!spec.ok()) return record(spec.status(), "");
  Result<ParsedWords> parsed =
      ParseCommandFlags((*spec)->name, (*spec)->flags, std::vector<Word>(words->begin() + 1, words->end()));
  if (!parsed.ok()) return record(WithHeadlineSuffix(parsed.status(), fmt::format("; usage: {}", (*spec)->syntax)), "");
  CommandOutput out;
  CommandContext context{session_, *this, parsed->positional, out, parsed->flags};
  Status status;
  try {
    status = (*spec)->handler(context);
  } catch (const std::bad_alloc&) {
    // Out of memory (ulimit -v, a container's limit) aborted the process;
    // commands build their result before they change the session, so
    // unwinding here leaves it as it was.
    status = Status::Errorf("out of memory: `{}` was abandoned (the session is as it was before it)", (*spec)->name);
  } catch (const std::length_error&) {
    status = Status::Errorf("out of memory: `{}` needed a buffer larger than the process can have", (*spec)->name);
  }
  status = record(status, out.Text());
  if ((*spec)->name == "expect" && capturing_ == 0) ++(status.ok() ? expect_tally_.passed : expect_tally_.failed);
  if (block_ && block_->origin_line == 0) block_->origin_line = current_origin_ == "<interactive>" ? 0 : current_line_;
  if (redirect) {
    // What it printed goes to the file even when it failed (as in a shell); its error still reaches the user.
    std::string text = out.Text();
    Status written = append ? AppendToFile(*redirect, text) : WriteFile(*redirect, text);
    if (!written.ok()) return status.ok() ? written : status;
    return status;
  }
  // Whatever the command printed before failing is still shown: it is often
  // the explanation. What could not be written fails the command, as a failed
  // write to a file does (the user did not get its output).
  if (!out.empty()) {
    Status written = sink_->Output(out);
    if (!written.ok() && status.ok()) return written;
  }
  return status;
}

Status Interpreter::ExecuteCaptured(std::string_view line, CommandOutput* out) {
  CaptureSink capture(out);
  OutputSink* saved = sink_;
  sink_ = &capture;
  ++capturing_;  // part of another command's work (expect output, bisect, report): not recorded
  // Failures a nested script reports land in the capture, not before the
  // user: they must not count as reported for the line that holds this one.
  size_t reported_before = reported_failures_;
  Status status = ExecuteLine(line);
  reported_failures_ = reported_before;
  --capturing_;
  sink_ = saved;
  return status;
}

Result<std::vector<std::string>> Interpreter::ReadScriptLines(const std::string& path) const {
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text, ReadFile(path, session_.settings().GetUnsigned("max-file-size")));
  AIRSCOPE_ASSIGN_OR_RETURN(std::string_view script, ScriptText(text, path));
  return SplitScriptLines(script);
}

Status Interpreter::RunScript(const std::string& path) {
  if (static_cast<int>(script_dirs_.size()) >= kMaxSourceDepth) {
    return Status::Errorf("{}: scripts nested deeper than {} (a source loop?)", path, kMaxSourceDepth);
  }
  std::vector<std::string> lines;
  if (script_override_ && script_override_->path == path) {
    lines = script_override_->lines;
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(lines, ReadScriptLines(path));
  }
  size_t slash = path.rfind('/');
  script_dirs_.push_back(slash == std::string::npos ? "." : path.substr(0, slash));
  Status status = RunLines(lines, path);
  script_dirs_.pop_back();
  return status;
}

Status Interpreter::RunCommandText(std::string_view text) { return RunLines(SplitCommands(text), "-c"); }

Status Interpreter::RunLines(const std::vector<std::string>& lines, std::string_view origin) {
  size_t failed = 0;
  Status first_failure;
  std::string saved_origin = std::exchange(current_origin_, std::string(origin));
  size_t saved_line = current_line_;
  std::optional<PendingBlock> outer_block = std::exchange(block_, std::nullopt);
  struct Restore {
    Interpreter* self;
    std::string origin;
    size_t line;
    std::optional<PendingBlock>* outer;
    ~Restore() {
      self->current_origin_ = std::move(origin);
      self->current_line_ = line;
      self->block_ = std::move(*outer);
    }
  } restore{this, std::move(saved_origin), saved_line, &outer_block};
  // The expect lines a stop (a failure, Ctrl-C, quit) leaves unrun, so a
  // summary of a script cut short does not read as all passed.
  auto count_not_run = [&](size_t from) {
    for (size_t j = from; j < lines.size(); ++j) expect_tally_.not_run += IsExpectLine(lines[j]);
  };
  for (size_t i = 0; i <= lines.size(); ++i) {
    if (session_.quit_requested()) {
      count_not_run(i);
      break;
    }
    size_t reported_before = reported_failures_;
    Status status;
    if (i == lines.size()) {
      // The end of the text: only an unclosed block is an error here.
      if (!block_) break;
      status = Status::Errorf("'{}' (line {}) is not closed by '{}' before the end", block_->opener,
                              block_->lines.first_line - 1, block_->terminator);
      block_.reset();
    } else if (InterruptRequested()) {
      // Ctrl-C stops a script: the line it came during (or the next one) fails.
      current_line_ = i + 1;
      status = InterruptedStatus();
    } else {
      current_line_ = i + 1;
      status = ExecuteLine(lines[i]);
    }
    if (status.ok()) continue;
    Status located = status;
    if (reported_failures_ == reported_before) {
      // Not yet reported (it is not a failure inside a sourced script, which
      // its own script reported): report it here, with its location.
      located = Status::Errorf("{}:{}: {}", origin, std::min(i + 1, lines.size()), status.message());
      sink_->Error(located.message());
      ++reported_failures_;
    }
    if (failed++ == 0) first_failure = located;
    if (session_.settings().Get("on-error") != "continue" || InterruptRequested()) {
      count_not_run(i + 1);
      return located;
    }
  }
  if (failed <= 1) return first_failure;
  return WithHeadlineSuffix(first_failure, fmt::format(" ({} lines failed in {})", failed, origin));
}

bool Interpreter::IsExpectLine(std::string_view line) const {
  size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos || line[first] == '#') return false;
  std::string_view rest = line.substr(first);
  std::string_view word = rest.substr(0, rest.find_first_of(" \t"));
  Result<const CommandSpec*> spec = table_.Lookup(word);
  return spec.ok() && (*spec)->name == "expect";
}

std::string Interpreter::ExpandHome(std::string_view path) {
  const char* home = std::getenv("HOME");
  if (!home || !(path == "~" || path.starts_with("~/"))) return std::string(path);
  return std::string(home) + std::string(path.substr(1));
}

std::string Interpreter::ResolvePath(std::string_view path) const {
  std::string given = ExpandHome(path);
  if (given.empty() || given[0] == '/' || FileExists(given) || script_dirs_.empty()) return given;
  std::string relative = script_dirs_.back() + "/" + given;
  return FileExists(relative) ? relative : given;
}

}  // namespace airscope
