// ArgParser: reads one argument value of a node from a line of FX text or
// readable code, the inverse of python_repr.h's printers.
//
// Two dialects:
//   kFx      torch.fx.node._format_arg: `%name` node refs, strings bare
//            (`{approximate: tanh}`), devices bare (`cpu`, `npu:0`).
//   kPython  Python source / str(): bare names are node refs, strings are
//            quoted, `device(type='cpu', index=0)`.
// Both: ints (int64; wider ones become Raw), floats (`1e-05`, `inf`, `-inf`,
// `nan`), None/True/False, `[..]` lists, `(..)` tuples, `torch.float32`
// dtypes, `torch.contiguous_format`, `torch.strided`. Anything else that is
// bracket-balanced is kept verbatim as Argument::Raw, so no file is rejected
// for a value airscope cannot interpret. Hard errors (with the 0-based offset
// into the line): a node name used before its definition, an unclosed or
// mismatched bracket, nesting deeper than kMaxDepth, and (kPython) an
// expression over a node (`-mm`, `mm[0]`): torch never prints one as an
// argument, and as Raw text its edge would be lost. `(a)` is a, not a tuple.
//
// Errors go to the Scanner's failure slot (core/scanner.h), so a parser
// built on a Scanner reports them in its own location format.
//
// A value ends before a `,` or a closing bracket at nesting depth 0 (or the
// end of the line). Nesting is bounded, so hostile input cannot exhaust the
// stack.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/argument.h"
#include "core/ir/graph.h"
#include "core/scanner.h"

namespace airscope {

enum class ArgDialect : uint8_t { kFx, kPython };

class ArgParser {
 public:
  static constexpr int kMaxDepth = 512;

  // Reads values from `scan`'s text (up to its limit as it is now), and
  // records errors in its failure slot (scan.Failure() renders them with the
  // scanner's location). The scanner's cursor follows the values parsed.
  ArgParser(Scanner& scan, ArgDialect dialect, const Graph* graph)
      : scan_(&scan), line_(scan.scannable()), dialect_(dialect), graph_(graph) {}
  // Over a text of its own (errors as error_offset() and error()).
  ArgParser(std::string_view line, ArgDialect dialect, const Graph* graph)
      : own_(line), scan_(&own_), line_(line), dialect_(dialect), graph_(graph) {}
  ArgParser(const ArgParser&) = delete;
  ArgParser& operator=(const ArgParser&) = delete;

  // Parses the value starting at *pos (leading spaces skipped); on success
  // *pos is just past it. `kwarg` names the keyword the value belongs to ("" for
  // positional values): a bare `cpu` is a device only as `device: cpu`.
  bool ParseValue(size_t* pos, std::string_view kwarg, Argument* out) { return Synced(pos, Value(pos, kwarg, 0, out)); }
  // The same at the scanner's cursor.
  bool ParseValue(std::string_view kwarg, Argument* out) {
    size_t pos = scan_->pos();
    return ParseValue(&pos, kwarg, out);
  }

  // Parses `open item, item, ... close` as a sequence; *pos at the opener.
  bool ParseSequence(size_t* pos, Argument* out) { return Synced(pos, Sequence(pos, 0, out)); }
  // The same, handing back the items (a node's args tuple becomes its args
  // vector without building a Tuple first).
  bool ParseItems(size_t* pos, std::vector<Argument>* items) { return Synced(pos, Items(pos, 0, items)); }
  bool ParseItems(std::vector<Argument>* items) {
    size_t pos = scan_->pos();
    return ParseItems(&pos, items);
  }

  // Set when a Parse* returned false.
  size_t error_offset() const { return scan_->failure_pos(); }
  const std::string& error() const { return scan_->failure_message(); }

  // Sets the error and returns false (for callers sharing the error slot).
  bool Fail(size_t offset, std::string message) { return scan_->Fail(offset, std::move(message)); }

 private:
  void SkipSpaces(size_t* pos) const {
    while (*pos < line_.size() && line_[*pos] == ' ') ++*pos;
  }
  // Scans a Python string literal at *pos ('...' or "..."), unescaping it
  // (Scanner::QuotedString, QuoteStyle::kPython).
  bool QuotedString(size_t* pos, std::string* out);
  // Skips a balanced bracketed/quoted span up to a `,` or closer at depth 0;
  // *pos ends there.
  bool SkipBalanced(size_t* pos);
  bool Synced(const size_t* pos, bool ok) {
    scan_->Seek(*pos);
    return ok;
  }
  bool Value(size_t* pos, std::string_view kwarg, int depth, Argument* out);
  bool Sequence(size_t* pos, int depth, Argument* out);
  // *trailing_comma (when given): the last item was followed by a comma.
  bool Items(size_t* pos, int depth, std::vector<Argument>* items, bool* trailing_comma = nullptr);
  bool Atom(std::string_view text, size_t start, std::string_view kwarg, Argument* out);
  // Python text airscope does not interpret, kept as Raw, unless it names a
  // node: `-mm`, `mm[0]`, `mm.T`, `f(mm)` would hide the edge to mm.
  bool PythonRaw(std::string_view text, size_t start, Argument* out);
  bool NodeByName(std::string_view name, size_t offset, Argument* out);

  Scanner own_{std::string_view()};  // the scanner of a text of its own
  Scanner* scan_;
  std::string_view line_;
  ArgDialect dialect_;
  const Graph* graph_;
};

}  // namespace airscope
