// The one registry of input formats: everything `load` reads, one row each,
// the twin of the output-format table (repl/graph_text.h). A row is
// {name, description, extensions, kind, sniff, read}; `load`'s help, its
// refusal of a file no row takes and the default graph names (the row's
// extensions stripped) all come from InputFormats(). The shell never sniffs:
// it asks SniffInput (one look at the path) or SniffGraphText (text already in
// memory, e.g. a graph printed inside a log) and loads what the row's kind says.
//
// Adding a format that yields one graph: a reader file in formats/ (or core/fx)
// and one row in registry.cc (its sniff and its read). A format of a new kind
// (something other than a graph, a log or a tree) also needs the shell's
// loader for that kind (repl/commands_graph.cc: `Load` dispatches on the row's InputKind).
//
// The FX text, readable and airscope JSON parsers stay in core/fx (core's own
// tests and passes use them); their rows here call into them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/fx/fx_text.h"
#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// What a row's input becomes in the session, i.e. which of the shell's
// loaders takes it.
enum class InputKind : uint8_t {
  kGraph,        // one graph: the row's `read` parses the text
  kCaptureDump,  // captured tasks, no graph (NPUGraph.debug_dump JSON: formats/aclgraph_json.h)
  kTraceLog,     // a TORCH_TRACE log: every graph it holds (formats/torch_trace.h)
  kTorchLogs,    // TORCH_LOGS text: every graph it holds (formats/torch_logs.h)
  kTraceLogDir,  // a directory of per-rank TORCH_TRACE logs
  kDebugTree,    // a TORCH_COMPILE_DEBUG tree or a part of it (formats/torch_compile_debug.h)
};

// One look at what `load` was given, taken once and shared by every row's sniff.
struct InputPeek {
  std::string_view path;
  bool directory = false;
  // Whether `head` holds the input's first bytes: a regular file's, read
  // ahead, or a pipe's or FIFO's, read whole once (SniffInputBytes). Logs
  // and capture dumps are told only from such bytes, not from a graph
  // printed inside a log (SniffGraphText).
  bool has_head = false;
  std::string_view head;        // the first kInputPeekBytes of a regular file; of text in memory, all of it
  std::string_view first_line;  // the first line neither blank nor a `#` comment, leading spaces removed
};
// A megabyte: a log may open with pages of other output (warnings, pip).
inline constexpr size_t kInputPeekBytes = size_t{1} << 20;

// A graph format's reader: errors carry file:line:col. `release` (FX text
// only) is told which leading part of `text` the parser is done with.
// `warnings` (never null) gets, located, what the reader found stated two
// ways that disagree and resolved one way (pbtxt: a GE desc's shape against
// its `_meta`): the loader shows each, so no such pick is silent. A reader
// lists a screenful and then says how many more, in one last warning.
using GraphReader = Result<std::unique_ptr<Graph>> (*)(std::string_view text, const std::string& path,
                                                       const ReleaseTextBefore& release,
                                                       std::vector<std::string>* warnings);

struct InputFormat {
  std::string_view name;                     // "fx": what `graphs` shows and load's help lists
  std::string_view description;              // "FX graph text (\"graph():\")": for load's help and refusal
  std::vector<std::string_view> extensions;  // file name endings: stripped for the default graph name
  InputKind kind = InputKind::kGraph;
  bool (*sniff)(const InputPeek& peek) = nullptr;
  GraphReader read = nullptr;  // kGraph rows only
  // Rows that are not one graph: what the input is ("TORCH_TRACE log") and,
  // for logs, an example of the names their graphs get; `load --shapes`
  // refuses such an input in these words (ShapesRefusal).
  std::string_view noun;
  std::string_view graph_name_example;
};

// Every row, in the order they are tried: directories, then logs and dumps
// (whose lines could start like a graph's), then graph text.
const std::vector<InputFormat>& InputFormats();
const InputFormat* FindInputFormat(std::string_view name);
std::vector<std::string> InputFormatNames();

// The row that takes `path` (a file or a directory), from one look at its
// first kInputPeekBytes; null when none does from that look: the caller then
// reads the whole file and asks SniffGraphText, whose error says what the file
// is not (a path that cannot be read is the reader's error to give).
const InputFormat* SniffInput(const std::string& path);

// Whether `path` can be read only once: it exists and is neither a regular
// file nor a directory (a pipe such as /dev/stdin of `cat log | airscope -c
// 'load /dev/stdin'`, a FIFO, a socket). SniffInput cannot look at such an
// input without taking the bytes its loader needs: the caller reads it whole
// (ReadFileText, within the size limit) and asks SniffInputBytes.
bool IsReadOnce(const std::string& path);

// The row that takes `content`, the whole of an input read once: every row
// SniffInput tries on a regular file's head (logs and capture dumps too),
// tried on these bytes. Null as for SniffInput.
const InputFormat* SniffInputBytes(std::string_view content, std::string_view path);

// The graph row that takes `content` (a whole file or a graph printed inside a
// log); an error (path:line:col) says what was seen and lists every format.
Result<const InputFormat*> SniffGraphText(std::string_view content, std::string_view path);

// "models/mlp.graph.txt" -> "mlp": the file name without directories and
// without any row's extension (the longest that matches).
std::string DefaultGraphName(std::string_view path);

// Why `load PATH --shapes ...` does not apply to what `row` reads ("PATH is
// a TORCH_TRACE log: its graphs are named by compile id ..."); "" for a row
// of one graph, whose inputs --shapes sets.
std::string ShapesRefusal(const InputFormat& row, std::string_view path);

// load's help: one line per row, "  name  description (.ext, ...)".
std::string InputFormatsHelp();

}  // namespace airscope
