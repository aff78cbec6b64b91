// Interpreter: runs command lines against a Session through the command
// table, for the interactive shell, scripts (`airscope FILE.airscript`,
// `source`) and `-c` alike, so all three behave the same.
//
// Output goes to an OutputSink; handlers never print. A failing line in a
// script is reported once, by the script that holds it, as
// "FILE:LINE: message". A `source` that failed fails its own line in the
// outer script with that same message, which is not reported again.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // An error when the output could not be written (a closed pipe, a full
  // disk): the command that printed it then fails with it.
  virtual Status Output(const CommandOutput& out) = 0;
  virtual void Error(std::string_view message) = 0;  // one message, no trailing newline
};

// The lines of a block command (`pass define NAME` ... `end`), with where
// they came from so the handler can name a bad line.
struct BlockLines {
  std::string origin;     // script path, "-c" or "<interactive>"
  size_t first_line = 0;  // line number of lines[0] in origin
  std::vector<std::string> lines;
};
using BlockHandler = std::function<Status(const BlockLines& block)>;
// Checks one line of a block as it is entered (`line_number` in the block's
// origin). A line it refuses is reported and left out; the block stays open,
// so a typo is retyped, not the whole block.
using BlockLineCheck = std::function<Status(std::string_view line, size_t line_number)>;

// What the `expect` lines of a batch run came to, for the closing summary a
// script prints ("expect: 12 passed, 0 failed") and the golden runner reads.
// Only lines the user wrote count: an `expect` run inside another command
// (`expect error "expect ..."`, `bisect`, `report`) is that command's business.
struct ExpectTally {
  size_t passed = 0;
  size_t failed = 0;
  size_t not_run = 0;  // expect lines after the line a script stopped at
  size_t total() const { return passed + failed + not_run; }
};

class Interpreter {
 public:
  static constexpr int kMaxSourceDepth = 16;

  Interpreter(Session& session, const CommandTable& table, OutputSink& sink);

  // Runs one line; blank lines and `# comments` do nothing. The command's
  // output goes to the sink; its error is returned, not printed, and one
  // about a column of the line (core/scanner.h's ColumnError) comes back
  // with the line quoted and a caret under that column. As in a
  // shell, `COMMAND > FILE` writes what it prints to FILE instead (`>>`
  // appends), and `!CMD` runs CMD in /bin/sh.
  Status ExecuteLine(std::string_view line);
  // Like ExecuteLine, but everything the line prints (including failures of
  // nested script lines) is collected in *out instead.
  Status ExecuteCaptured(std::string_view line, CommandOutput* out);
  // Runs a script file line by line; see the class comment for errors.
  // OK iff no line failed.
  Status RunScript(const std::string& path);
  // Runs `-c` text: commands separated by ';' (outside quotes) or newlines.
  Status RunCommandText(std::string_view text);
  // A script file's lines as RunScript runs them (a byte order mark dropped,
  // CRLF read as LF, a lone CR refused).
  Result<std::vector<std::string>> ReadScriptLines(const std::string& path) const;
  // While set, RunScript(path) runs `lines` instead of reading `path` (the
  // path as `source` resolves it). minify tries a script with fewer or
  // smaller `call` lines this way, in-process, without writing the file.
  struct ScriptOverride {
    std::string path;
    std::vector<std::string> lines;
  };
  void set_script_override(std::optional<ScriptOverride> script) { script_override_ = std::move(script); }

  // A command that needs the following lines (e.g. `pass define NAME`) calls
  // this: every next line, up to a line that reads `terminator` alone, is
  // collected instead of run, then `done` gets them; its error fails the
  // terminator line. A script that ends inside a block fails at its end.
  void BeginBlock(std::string opener, std::string terminator, BlockHandler done, BlockLineCheck check = {});
  bool in_block() const { return block_.has_value(); }
  // Drops the open block (Ctrl-D at its prompt) and returns its opener, e.g.
  // "pass define multistream"; "" when no block is open.
  std::string AbandonBlock();

  // A path argument as the user meant it: `~/` is $HOME; as given if it
  // exists (relative to the working directory), else relative to the
  // directory of the script being run.
  std::string ResolvePath(std::string_view path) const;
  // A path to write: `~/` is $HOME.
  static std::string ExpandHome(std::string_view path);

  // How many failing script lines have been reported through the sink; a
  // caller that gets an error back and sees this unchanged must report it.
  size_t reported_failures() const { return reported_failures_; }
  const ExpectTally& expect_tally() const { return expect_tally_; }

  const CommandTable& table() const { return table_; }
  Session& session() { return session_; }

  // `bisect` runs its condition at several stages. A condition that runs
  // bisect again (a script that sources itself: `bisect "source SELF"`)
  // would multiply the checks at every level of the source nesting (it ran
  // for hours), so a bisect inside a bisect's condition is refused, and the
  // outer bisect, seeing that, gives no verdict. The scope marks a bisect
  // running; nested_bisect_refused() says whether one was refused inside it.
  class BisectScope {
   public:
    explicit BisectScope(Interpreter& interpreter)
        : interpreter_(interpreter), outer_(std::exchange(interpreter.bisecting_, true)) {
      interpreter_.nested_bisect_refused_ = false;
    }
    ~BisectScope() { interpreter_.bisecting_ = outer_; }
    BisectScope(const BisectScope&) = delete;
    BisectScope& operator=(const BisectScope&) = delete;

   private:
    Interpreter& interpreter_;
    bool outer_;
  };
  bool bisecting() const { return bisecting_; }
  void RefuseNestedBisect() { nested_bisect_refused_ = true; }
  bool nested_bisect_refused() const { return nested_bisect_refused_; }

 private:
  Status RunLines(const std::vector<std::string>& lines, std::string_view origin);
  // Whether `line` runs the expect command (any prefix that finds it).
  bool IsExpectLine(std::string_view line) const;

  Session& session_;
  const CommandTable& table_;
  OutputSink* sink_;
  struct PendingBlock {
    std::string opener;      // "pass define multistream", for messages
    std::string terminator;  // "end"
    BlockHandler done;
    BlockLineCheck check;
    BlockLines lines;
    size_t origin_line = 0;  // the opener's line, for the transcript (0: interactive)
  };
  std::optional<PendingBlock> block_;
  std::string current_origin_ = "<interactive>";
  size_t current_line_ = 0;
  std::vector<std::string> script_dirs_;  // innermost last
  size_t reported_failures_ = 0;
  ExpectTally expect_tally_;
  int capturing_ = 0;  // ExecuteCaptured calls in progress
  bool bisecting_ = false;
  bool nested_bisect_refused_ = false;
  std::optional<ScriptOverride> script_override_;
};

}  // namespace airscope
