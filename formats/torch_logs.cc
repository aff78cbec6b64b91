#include "formats/torch_logs.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/line_reader.h"
#include "core/text.h"

namespace airscope {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
// A log line's blanks: spaces and tabs, and at its end a CR (a log written on Windows).
constexpr std::string_view kLeftBlanks = " \t";
constexpr std::string_view kRightBlanks = " \t\r";
std::string_view TrimBlanks(std::string_view s) { return TrimRight(TrimLeft(s, kLeftBlanks), kRightBlanks); }

// A colored log (torch prints graphs colored when stdout is a terminal,
// torch/fx/_utils.py lazy_format_graph_code: `colored` unless not isatty)
// carries ANSI escapes: `ESC [ params final`.
std::string StripAnsi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      size_t j = i + 2;
      while (j < s.size() && !(s[j] >= '@' && s[j] <= '~')) ++j;
      i = j;
      continue;
    }
    out += s[i];
  }
  return out;
}

}  // namespace

// The two enums TorchLogsReader::State keeps per message are outside the anonymous namespace:
// State is declared in the header, and GCC rejects (-Wsubobject-linkage) its members using a type
// of internal linkage once this file is not the main file of its unit (a unity build).
namespace torch_logs_detail {
enum class LogLayout : uint8_t { kNone, kGlog, kBracket, kBare, kTorchAir, kTorchAirCpp };
// What kind of message a first line starts.
enum class MessageKind : uint8_t {
  kOther,          // read from its first line (or not at all)
  kGraph,          // TRACED GRAPH
  kGraphSizes,     // TRACED GRAPH TENSOR SIZES
  kGuards,         // GUARDS:
  kGuardLines,     // a guards-artifact message that is not GUARDS: (flat guards, one record each)
  kRecompile,      // Recompiling function ...
  kGraphBreak,     // Graph break ...
  kCacheLimit,     // torch._dynamo hit config....
  kTorchAirGraph,  // ... graph is graph():
  kTorchAirMemory  // ... memory state is {   (its lines follow without a prefix up to "}.")
};
}  // namespace torch_logs_detail
using torch_logs_detail::LogLayout;
using torch_logs_detail::MessageKind;

namespace {

std::string_view LayoutName(LogLayout layout) {
  switch (layout) {
    case LogLayout::kGlog: return "glog";
    case LogLayout::kBracket: return "bracket";
    case LogLayout::kBare: return "bare";
    case LogLayout::kTorchAir: return "torchair";
    case LogLayout::kTorchAirCpp: return "torchair-c++";
    case LogLayout::kNone: break;
  }
  return "none";
}

// What precedes a message's text on its line.
struct Head {
  LogLayout layout = LogLayout::kNone;
  int rank = -1;
  int64_t pid = -1;
  std::string_view prefix;    // the bytes before the text, trailing spaces dropped: a record's identity
  std::string_view id;        // trace id, or empty
  std::string_view artifact;  // without "__", or empty
  std::string_view where;     // glog: path:line; bracket: logger name; TorchAir: file:line
  std::string_view stamp;     // the time as printed: "0515 09:03:07.649000", "2025-02-06 16:46:56,300"
  std::string_view text;
};

// Seconds since the start of the stamp's year (glog prints no year), or -1:
// glog `MMDD hh:mm:ss.uuuuuu`, bracket `YYYY-MM-DD hh:mm:ss,mmm`. Only
// differences within one log are used, so the missing year does not matter
// (except across New Year).
double StampSeconds(std::string_view stamp) {
  auto number = [&stamp](size_t at, size_t n) -> int64_t {
    if (at + n > stamp.size()) return -1;
    int64_t v = 0;
    for (char c : stamp.substr(at, n)) {
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  size_t clock = 0;
  int64_t month = -1;
  int64_t day = -1;
  if (stamp.size() >= 20 && stamp[4] == '-') {  // YYYY-MM-DD hh:mm:ss,mmm
    month = number(5, 2);
    day = number(8, 2);
    clock = 11;
  } else if (stamp.size() >= 13 && stamp[4] == ' ') {  // MMDD hh:mm:ss.uuuuuu
    month = number(0, 2);
    day = number(2, 2);
    clock = 5;
  }
  int64_t hh = number(clock, 2);
  int64_t mm = number(clock + 3, 2);
  int64_t ss = number(clock + 6, 2);
  if (month < 1 || month > 12 || day < 1 || hh < 0 || mm < 0 || ss < 0) return -1;
  static constexpr int kDaysBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  double seconds = static_cast<double>(((kDaysBefore[month - 1] + day - 1) * 24 + hh) * 3600 + mm * 60 + ss);
  size_t frac = clock + 8;
  if (frac < stamp.size() && (stamp[frac] == '.' || stamp[frac] == ',')) {
    double scale = 0.1;
    for (size_t i = frac + 1; i < stamp.size() && stamp[i] >= '0' && stamp[i] <= '9'; ++i, scale /= 10) {
      seconds += (stamp[i] - '0') * scale;
    }
  }
  return seconds;
}

// `[rankN]:` (repeated: some launchers add their own).
size_t SkipRankPrefixes(std::string_view line, int* rank) {
  size_t pos = 0;
  while (line.substr(pos).starts_with("[rank")) {
    size_t d = CountDigitsAt(line, pos + 5);
    if (d == 0 || d > 6 || line.substr(pos + 5 + d, 2) != "]:") break;
    *rank = std::stoi(std::string(line.substr(pos + 5, d)));
    pos += 5 + d + 2;
  }
  return pos;
}

// ` [0/0]` and ` [__artifact]` after a prefix; advances `pos`.
void ReadIdAndArtifact(std::string_view line, size_t& pos, Head* h) {
  if (line.substr(pos, 2) == " [") {
    size_t close = line.find(']', pos + 2);
    if (close != std::string_view::npos && ParseTraceId(line.substr(pos + 2, close - pos - 2))) {
      h->id = line.substr(pos + 2, close - pos - 2);
      pos = close + 1;
    }
  }
  if (line.substr(pos, 4) == " [__") {
    size_t close = line.find(']', pos + 4);
    if (close != std::string_view::npos && close > pos + 4) {
      std::string_view name = line.substr(pos + 4, close - pos - 4);
      if (std::all_of(name.begin(), name.end(), IsWordChar)) {
        h->artifact = name;
        pos = close + 1;
      }
    }
  }
}

void SetText(std::string_view line, size_t pos, Head* h) {
  h->prefix = TrimRight(line.substr(0, pos), kRightBlanks);
  if (pos < line.size() && line[pos] == ' ') ++pos;
  h->text = line.substr(std::min(pos, line.size()));
}

// `V0515 09:03:07.649000 PID path.py:1157]` + id + artifact.
bool ParseGlog(std::string_view line, size_t start, Head* h) {
  std::string_view s = line.substr(start);
  if (s.size() < 20 || std::string_view("VIWECF").find(s[0]) == std::string_view::npos) return false;
  if (CountDigitsAt(s, 1) != 4 || s[5] != ' ') return false;
  size_t pos = 6;
  size_t time = pos;
  while (pos < s.size() && (IsDigit(s[pos]) || s[pos] == ':' || s[pos] == '.')) ++pos;
  if (pos - time < 8 || pos >= s.size() || s[pos] != ' ') return false;
  size_t pid_digits = CountDigitsAt(s, pos + 1);
  if (pid_digits == 0 || pos + 1 + pid_digits >= s.size() || s[pos + 1 + pid_digits] != ' ') return false;
  int64_t pid = DigitsValue(s.substr(pos + 1, pid_digits));
  size_t where = pos + 2 + pid_digits;
  size_t close = s.find(']', where);
  if (close == std::string_view::npos || close == where) return false;
  // path:LINE right before the bracket.
  size_t colon = s.rfind(':', close);
  if (colon == std::string_view::npos || colon < where || CountDigitsAt(s, colon + 1) != close - colon - 1 ||
      close == colon + 1) {
    return false;
  }
  h->layout = LogLayout::kGlog;
  h->pid = pid;
  h->stamp = s.substr(1, pos - 1);
  h->where = s.substr(where, close - where);
  size_t p = start + close + 1;
  ReadIdAndArtifact(line, p, h);
  SetText(line, p, h);
  return true;
}

// `[2025-02-06 16:46:56,300] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]`.
bool ParseBracket(std::string_view line, size_t start, Head* h) {
  std::string_view s = line.substr(start);
  if (s.size() < 26 || s[0] != '[' || CountDigitsAt(s, 1) != 4 || s[5] != '-' || CountDigitsAt(s, 6) != 2 ||
      s[8] != '-' || CountDigitsAt(s, 9) != 2 || s[11] != ' ') {
    return false;
  }
  size_t close = s.find(']', 12);
  if (close == std::string_view::npos || close > 30) return false;
  size_t p = start + close + 1;
  Head probe;
  ReadIdAndArtifact(line, p, &probe);  // only the id can come here
  if (!probe.artifact.empty()) return false;
  if (p >= line.size() || line[p] != ' ') return false;
  size_t name_start = p + 1;
  size_t level = line.find(": [", name_start);
  if (level == std::string_view::npos || level == name_start) return false;
  std::string_view name = line.substr(name_start, level - name_start);
  if (name.find(' ') != std::string_view::npos) return false;
  size_t level_end = line.find(']', level + 3);
  if (level_end == std::string_view::npos || level_end == level + 3) return false;
  for (char c : line.substr(level + 3, level_end - level - 3)) {
    if (c < 'A' || c > 'Z') return false;
  }
  h->layout = LogLayout::kBracket;
  h->id = probe.id;
  h->stamp = s.substr(1, close - 1);
  h->where = name;
  size_t marker = name.find(".__");
  if (marker != std::string_view::npos) h->artifact = name.substr(marker + 3);
  SetText(line, level_end + 1, h);
  return true;
}

// `[0/1] [__recompiles] text`, `[__recompiles] text`, `W [0/8] text`: a
// prefix the user trimmed. At least the id or the artifact must be there.
bool ParseBare(std::string_view line, size_t start, Head* h) {
  size_t pos = start;
  if (pos + 2 < line.size() && std::string_view("VIWEC").find(line[pos]) != std::string_view::npos &&
      line[pos + 1] == ' ' && line[pos + 2] == '[') {
    pos += 2;  // a level letter kept from a glog prefix
  }
  // `[inner]` at `at`: returns the position after it, or npos.
  auto token = [&line](size_t at, std::string_view* inner) {
    if (at >= line.size() || line[at] != '[') return std::string_view::npos;
    size_t close = line.find(']', at + 1);
    if (close == std::string_view::npos) return std::string_view::npos;
    *inner = line.substr(at + 1, close - at - 1);
    return close + 1;
  };
  auto is_artifact = [](std::string_view inner) {
    return inner.size() > 2 && inner.starts_with("__") && std::all_of(inner.begin(), inner.end(), IsWordChar);
  };
  size_t p = pos;
  std::string_view inner;
  size_t next = token(p, &inner);
  if (next != std::string_view::npos && ParseTraceId(inner)) {
    h->id = inner;
    p = next;
  }
  size_t artifact_at = p == pos ? p : p + 1;  // after an id, one space
  if (p == pos || (p < line.size() && line[p] == ' ')) {
    next = token(artifact_at, &inner);
    if (next != std::string_view::npos && is_artifact(inner)) {
      h->artifact = inner.substr(2);
      p = next;
    }
  }
  if (p == pos || (p < line.size() && line[p] != ' ')) {
    h->id = {};
    h->artifact = {};
    return false;
  }
  // `[15/165] Building CXX object ...`: ninja's progress has the shape of a compile id.
  if (h->artifact.empty() && pos == start) {
    std::string_view rest = line.substr(std::min(p + 1, line.size()));
    for (std::string_view verb : {"Building ", "Linking ", "Generating ", "Re-running ", "Installing ", "Running "}) {
      if (rest.starts_with(verb)) {
        h->id = {};
        return false;
      }
    }
  }
  h->layout = LogLayout::kBare;
  SetText(line, p, h);
  return true;
}

// `[INFO] TORCHAIR(9569,python):2025-05-15 09:03:07.720.050 [npu_fx_compiler.py:324]9569 text`
// (Python, TorchAir core/utils.py:100-130) or `...:2025-02-06-15:44:53.084.205 [file.cpp:46]tid text` (C++).
bool ParseTorchAir(std::string_view line, Head* h) {
  if (line.empty() || line[0] != '[') return false;
  size_t close = line.find("] TORCHAIR(");
  if (close == std::string_view::npos || close < 2 || close > 10) return false;
  for (char c : line.substr(1, close - 1)) {
    if (c < 'A' || c > 'Z') return false;
  }
  size_t p = close + 11;
  size_t pid_digits = CountDigitsAt(line, p);
  if (pid_digits == 0 || p + pid_digits >= line.size() || line[p + pid_digits] != ',') return false;
  int64_t pid = DigitsValue(line.substr(p, pid_digits));
  size_t exe_end = line.find("):", p + pid_digits);
  if (exe_end == std::string_view::npos) return false;
  p = exe_end + 2;
  // Date: YYYY-MM-DD, then ' ' (Python) or '-' (C++), then the time.
  if (CountDigitsAt(line, p) != 4 || line.substr(p + 4, 1) != "-" || CountDigitsAt(line, p + 5) != 2 ||
      line.substr(p + 7, 1) != "-" || CountDigitsAt(line, p + 8) != 2 || p + 10 >= line.size()) {
    return false;
  }
  bool cpp = line[p + 10] == '-';
  if (!cpp && line[p + 10] != ' ') return false;
  p += 11;
  size_t time = p;
  while (p < line.size() && (IsDigit(line[p]) || line[p] == ':' || line[p] == '.')) ++p;
  if (p - time < 5) return false;
  h->layout = cpp ? LogLayout::kTorchAirCpp : LogLayout::kTorchAir;
  h->pid = pid;
  if (line.substr(p, 2) == " [") {
    size_t end = line.find(']', p + 2);
    if (end != std::string_view::npos) {
      h->where = line.substr(p + 2, end - p - 2);
      p = end + 1;
      p += CountDigitsAt(line, p);  // the thread id, glued to the bracket
    }
  }
  SetText(line, p, h);
  return true;
}

// A glog record behind a stamp another logger wrote first on its line:
// ComfyUI-Manager tees ComfyUI's stdout and stderr into its log file and
// writes `[2025-08-12 03:18:23.088] ` (`%Y-%m-%d %H:%M:%S.%f` cut to
// milliseconds; Unix seconds where datetime is unusable) before every write
// that starts a line (prestartup_script.py, ComfyUIManagerLogger.sync_write).
// logging writes a record in one call, so only the record's first line gets
// the stamp: the head is the glog one behind it, which the other lines repeat
// (a log people paste from there: ComfyUI issue 9289).
bool ParseStampedGlog(std::string_view line, Head* h) {
  if (line.empty() || line[0] != '[') return false;
  size_t close = line.find("] ", 1);
  if (close == std::string_view::npos || close < 9 || close > 30) return false;
  for (char c : line.substr(1, close - 1)) {
    if (!IsDigit(c) && std::string_view("-: .,").find(c) == std::string_view::npos) return false;
  }
  std::string_view rest = line.substr(close + 2);
  int rank = -1;
  size_t start = SkipRankPrefixes(rest, &rank);
  if (!ParseGlog(rest, start, h)) return false;
  h->rank = rank;
  return true;
}

bool ParseHead(std::string_view line, Head* h) {
  if (ParseTorchAir(line, h)) return true;
  int rank = -1;
  size_t start = SkipRankPrefixes(line, &rank);
  if (ParseGlog(line, start, h) || ParseBracket(line, start, h) || ParseBare(line, start, h)) {
    h->rank = rank;
    return true;
  }
  if (ParseStampedGlog(line, h)) return true;
  // A bracket record glued to other output on its line (pytest prints a
  // test's name or a progress dot first: pytorch PRs 110928 and 114053).
  size_t tries = 0;
  for (size_t at = line.find("[20", 1); at != std::string_view::npos && tries < 4; at = line.find("[20", at + 1)) {
    ++tries;
    if (line[at - 1] != ' ' && line[at - 1] != '.') continue;
    Head glued;
    if (ParseBracket(line, at, &glued)) {
      *h = glued;
      return true;
    }
  }
  return false;
}

// TorchAir prints an FX graph after `graph: ` (nfc:644), `graph is ` (gto:39,
// 44; nfc:346) or `graph is: ` (rse:34,199); the graph's lines follow.
size_t TorchAirGraphStart(std::string_view text) {
  size_t at = text.find("graph():");
  while (at != std::string_view::npos) {
    std::string_view before = text.substr(0, at);
    if (before.ends_with("graph is ") || before.ends_with("graph is: ") || before.ends_with("graph: ")) return at;
    at = text.find("graph():", at + 1);
  }
  return std::string_view::npos;
}

bool IsRecompilesArtifact(std::string_view artifact) {
  return artifact == "recompiles" || artifact == "recompiles_verbose";
}

// The first line of a recompile message (guards.py; convert_frame.py's tuple of 2023).
bool IsRecompileHeader(std::string_view t) {
  return t.starts_with("Recompiling function ") || t.starts_with("('Recompiling function ");
}

MessageKind TorchKind(std::string_view text, std::string_view artifact) {
  std::string_view t = TrimLeft(text, kLeftBlanks);
  // Most lines start none of these messages: one look at the first byte.
  if (t.empty() || std::string_view("TGR(t").find(t[0]) == std::string_view::npos) {
    if (artifact == "guards" || artifact == "verbose_guards") return MessageKind::kGuardLines;
    // A recompile message whose first lines are before the log's window (or
    // another stream's): still a recompile, read without its header.
    return IsRecompilesArtifact(artifact) ? MessageKind::kRecompile : MessageKind::kOther;
  }
  if (t.starts_with("TRACED GRAPH TENSOR SIZES")) return MessageKind::kGraphSizes;
  if (t.starts_with("TRACED GRAPH")) return MessageKind::kGraph;
  if (artifact == "graph" && t.starts_with("Tabulate module missing")) return MessageKind::kGraph;
  if (TrimRight(t, kRightBlanks) == "GUARDS:") return MessageKind::kGuards;
  if (artifact == "guards" || artifact == "verbose_guards") return MessageKind::kGuardLines;
  if (IsRecompileHeader(t) || IsRecompilesArtifact(artifact)) return MessageKind::kRecompile;
  if (t.starts_with("Graph break")) return MessageKind::kGraphBreak;
  if (t.starts_with("torch._dynamo hit config.")) return MessageKind::kCacheLimit;
  return MessageKind::kOther;
}

// A plain line (no prefix at all) that starts a message: TORCH_LOGS_FORMAT=""
// output, or what docs and issues paste after stripping prefixes.
MessageKind BareStart(std::string_view line) {
  if (line.empty() || IsSpace(line[0])) return MessageKind::kOther;
  MessageKind kind = TorchKind(line, "");
  return kind == MessageKind::kGuardLines ? MessageKind::kOther : kind;
}

bool IsMemoryStateOpen(std::string_view text) {
  return text.find("memory state is {") != std::string_view::npos && !TrimRight(text, kRightBlanks).ends_with("}.");
}

// Artifacts whose messages airscope interprets (the rest are counted).
bool IsReadArtifact(std::string_view a) {
  static const std::set<std::string_view> kRead = {"graph_code",
                                                   "graph_code_verbose",
                                                   "graph",
                                                   "graph_sizes",
                                                   "aot_graphs",
                                                   "aot_joint_graph",
                                                   "compiled_autograd",
                                                   "compiled_autograd_verbose",
                                                   "guards",
                                                   "verbose_guards",
                                                   "recompiles",
                                                   "recompiles_verbose",
                                                   "graph_breaks",
                                                   "post_grad_graphs",
                                                   "pre_grad_graphs"};
  return kRead.count(a) > 0;
}

// `- 0/0: tensor ...` -> what follows "- ".
std::string_view AfterDash(std::string_view s) {
  s = TrimLeft(s, kLeftBlanks);
  return s.starts_with("- ") ? s.substr(2) : std::string_view();
}

// `Recompiling function f in /data/b.py:3` -> ("f", "/data/b.py:3").
void SplitFunctionIn(std::string_view s, std::string* function, std::string* location) {
  s = TrimBlanks(s);
  if (s.starts_with("Recompiling function ")) s.remove_prefix(21);
  size_t in = s.find(" in ");
  if (in == std::string_view::npos) {
    *function = std::string(s);
    return;
  }
  *function = std::string(s.substr(0, in));
  *location = std::string(s.substr(in + 4));
}

// A Python string literal at `pos` ('...' or "...") with \' \" \\ unescaped.
std::string PythonString(std::string_view s, size_t& pos) {
  std::string out;
  if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"')) return out;
  char quote = s[pos++];
  while (pos < s.size() && s[pos] != quote) {
    if (s[pos] == '\\' && pos + 1 < s.size()) ++pos;
    out += s[pos++];
  }
  ++pos;
  return out;
}

// `File "/path/x.py", line 7, in fn` -> "/path/x.py:7".
std::string FileLineLocation(std::string_view s) {
  s = TrimBlanks(s);
  if (!s.starts_with("File \"")) return {};
  size_t end = s.find('"', 6);
  if (end == std::string_view::npos) return {};
  std::string file(s.substr(6, end - 6));
  size_t line = s.find(", line ", end);
  if (line == std::string_view::npos) return file;
  size_t d = CountDigitsAt(s, line + 7);
  return fmt::format("{}:{}", file, s.substr(line + 7, d));
}

}  // namespace

std::string FakeTensorAnnotation(std::string_view repr) {
  repr = TrimBlanks(repr);
  if (!repr.starts_with("FakeTensor(")) return "";
  size_t size = repr.find("size=(");
  if (size == std::string_view::npos) return "";
  size_t close = repr.find(')', size + 6);
  if (close == std::string_view::npos) return "";
  std::string dims;
  for (char c : repr.substr(size + 6, close - size - 6)) {
    if (c != ' ') dims += c;
  }
  if (!dims.empty() && dims.back() == ',') dims.pop_back();  // a 1-tuple: (64,)
  std::string dtype = "f32";                                 // FakeTensor.__repr__ omits the default dtype
  size_t d = repr.find("dtype=torch.");
  if (d != std::string_view::npos) {
    std::string_view name = repr.substr(d + 12);
    name = name.substr(0, std::min(name.find_first_of(",)"), name.size()));
    static const std::map<std::string_view, std::string_view> kShort = {
        {"float32", "f32"},   {"float", "f32"},   {"float16", "f16"}, {"half", "f16"},
        {"bfloat16", "bf16"}, {"float64", "f64"}, {"double", "f64"},  {"int64", "i64"},
        {"long", "i64"},      {"int32", "i32"},   {"int", "i32"},     {"int16", "i16"},
        {"int8", "i8"},       {"uint8", "u8"},    {"bool", "b8"},     {"complex64", "c64"}};
    auto it = kShort.find(name);
    if (it == kShort.end()) return "";
    dtype = std::string(it->second);
  }
  std::string out = dtype + "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    out += dims[i];
    if (dims[i] == ',') out += ' ';
  }
  return out + "]";
}

bool ParseTraceId(std::string_view text, TraceIdParts* parts) {
  std::string_view s = text;
  size_t pos = 0;
  bool ca = !s.empty() && s[0] == '!';
  if (ca) pos = 1;
  size_t a = CountDigitsAt(s, pos);
  if (a == 0 || a > 9) return false;
  pos += a;
  if (ca) {
    if (pos < s.size() && s[pos] == '/') {
      size_t b = CountDigitsAt(s, pos + 1);
      if (b == 0 || b > 9 || pos + 1 + b >= s.size() || s[pos + 1 + b] != '/') return false;
      size_t c = CountDigitsAt(s, pos + 2 + b);
      if (c == 0 || c > 9) return false;
      pos += 2 + b + c;
    }
  } else {
    if (pos >= s.size() || s[pos] != '/') return false;
    size_t b = CountDigitsAt(s, pos + 1);
    if (b == 0 || b > 9) return false;
    pos += 1 + b;
  }
  size_t base_end = pos;
  int attempt = 0;
  if (pos < s.size() && s[pos] == '_') {
    size_t d = CountDigitsAt(s, pos + 1);
    if (d == 0 || d > 6) return false;
    attempt = static_cast<int>(DigitsValue(s.substr(pos + 1, d)));
    pos += 1 + d;
  }
  if (pos != s.size()) return false;
  if (parts) {
    parts->base = std::string(s.substr(0, base_end));
    parts->attempt = attempt;
  }
  return true;
}

std::string TraceIdBase(std::string_view id) {
  TraceIdParts parts;
  return ParseTraceId(id, &parts) ? parts.base : std::string(id);
}

std::string TorchLogs::Qualified(int rank, std::string_view id) const {
  if (ranks.size() > 1 && rank >= 0) return fmt::format("rank{}:{}", rank, id);
  return std::string(id);
}

const TorchLogsCompile* TorchLogs::FindCompile(int rank, std::string_view base_id) const {
  for (const TorchLogsCompile& c : compiles) {
    if (c.rank == rank && c.id == base_id) return &c;
  }
  return nullptr;
}

const TorchLogsGuards* TorchLogs::FindGuards(std::string_view qualified) const {
  const TorchLogsGuards* by_base = nullptr;
  for (const TorchLogsGuards& g : guards) {
    std::string q = Qualified(g.rank, g.id);
    if (q == qualified) return &g;
    TraceIdParts parts;
    if (ParseTraceId(g.id, &parts) && Qualified(g.rank, parts.base) == qualified) by_base = &g;
  }
  return by_base;
}

bool LooksLikeTorchLogs(std::string_view head) {
  size_t pos = 0;
  for (size_t n = 0; n < 4000 && pos < head.size(); ++n) {
    size_t end = head.find('\n', pos);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = TrimRight(head.substr(pos, end - pos), kRightBlanks);
    pos = end + 1;
    Head h;
    if (ParseHead(line, &h)) {
      // A glog line with a bare JSON object is a TORCH_TRACE record.
      if (h.layout == LogLayout::kGlog && h.id.empty() && h.artifact.empty() && h.text.starts_with("{")) continue;
      return true;
    }
    if (BareStart(line) != MessageKind::kOther) return true;
    std::string_view t = TrimBlanks(line);
    if (t.starts_with("create_symbol ") || t.find(" [guard added] ") != std::string_view::npos) return true;
  }
  return false;
}

struct TorchLogsReader::State {
  TorchLogs log;

  struct Message {
    bool open = false;
    LogLayout layout = LogLayout::kNone;
    int rank = -1;
    int64_t pid = -1;
    std::string prefix;
    std::string id;
    std::string artifact;
    size_t line = 0;
    MessageKind kind = MessageKind::kOther;
    bool prefixed_continuation = false;  // a second line came with the prefix: no unprefixed ones then
    bool class_seen = false;             // graphs: the `class ...:` line has come
    bool closed_body = false;            // TorchAir memory state: the closing `}.` came
    std::vector<std::string> texts;      // kept only for kinds read from several lines
    std::vector<uint32_t> lines;
    std::vector<int32_t> columns;
  };
  // One open message per stream (process and rank), so interleaved ranks
  // and processes do not cut each other's messages.
  struct Stream {
    LogLayout layout;
    int rank;
    int64_t pid;
    Message message;
  };
  std::deque<Stream> streams;  // a deque: `last` and callers' references stay valid
  bool at_end_of_log = false;  // Finish closes the messages still open: the log may end inside them
  Stream* last = nullptr;      // the stream of the last prefixed line or bare message

  std::map<std::pair<int, std::string>, size_t> compile_index;  // (rank, base id) -> compiles
  std::map<std::pair<int, std::string>, size_t> open_guards;    // (rank, trace id) -> guards
  std::string last_id;                                          // last trace id seen, its rank
  int last_rank = -1;
  std::map<int64_t, std::pair<std::string, int>> last_id_by_pid;
  std::set<int> ranks;
  std::set<LogLayout> layouts_seen;

  std::map<std::tuple<LogLayout, int, int64_t>, Stream*> stream_index;

  Stream& StreamFor(LogLayout layout, int rank, int64_t pid) {
    auto key = std::make_tuple(layout, rank, pid);
    auto it = stream_index.find(key);
    if (it != stream_index.end()) return *it->second;
    // A log of thousands of interleaved processes (or a damaged one whose
    // every line names another) would hold a message open for each: past
    // kMaxStreams the open ones are read and the streams start afresh.
    constexpr size_t kMaxStreams = 4096;
    if (streams.size() >= kMaxStreams) {
      for (Stream& s : streams) Close(s.message);
      streams.clear();
      stream_index.clear();
      last = nullptr;
      if (!streams_reset_reported) {
        Problem(log.lines, fmt::format("more than {} processes and ranks interleave their lines: the messages open "
                                       "then were closed where they were",
                                       kMaxStreams));
        streams_reset_reported = true;
      }
    }
    streams.push_back({layout, rank, pid, {}});
    stream_index.emplace(key, &streams.back());
    return streams.back();
  }
  bool streams_reset_reported = false;

  void Problem(size_t at, std::string message) {
    // A damaged log of a billion lines must not keep a billion warnings.
    if (log.problems.size() >= TorchLogs::kMaxProblems) {
      ++log.more_problems;
      return;
    }
    log.problems.push_back({at, std::move(message)});
  }

  LogLayout noted_layout = LogLayout::kNone;
  void NoteLayout(LogLayout layout) {
    if (layout == noted_layout) return;
    noted_layout = layout;
    if (layouts_seen.insert(layout).second) log.layouts.emplace_back(LayoutName(layout));
  }

  // The compile of the last line with an id: most lines repeat their neighbour's.
  int noted_rank = -2;
  std::string noted_id;
  size_t noted_index = 0;

  void NoteId(const Head& h, size_t at) {
    if (h.rank >= 0 && h.rank != noted_rank) ranks.insert(h.rank);
    if (h.id.empty()) return;
    if (h.rank == noted_rank && h.id == noted_id) {
      ++log.compiles[noted_index].lines;
      if (h.pid >= 0 && h.pid != noted_pid) NotePid(h.pid);
      return;
    }
    TraceIdParts parts;
    if (!ParseTraceId(h.id, &parts)) return;
    auto key = std::make_pair(h.rank, parts.base);
    auto it = compile_index.find(key);
    if (it == compile_index.end()) {
      it = compile_index.emplace(key, log.compiles.size()).first;
      TorchLogsCompile c;
      c.id = parts.base;
      c.rank = h.rank;
      c.line = at;
      log.compiles.push_back(std::move(c));
    }
    TorchLogsCompile& c = log.compiles[it->second];
    c.attempts = std::max(c.attempts, parts.attempt + 1);
    ++c.lines;
    noted_rank = h.rank;
    noted_id.assign(h.id);
    noted_index = it->second;
    last_id = noted_id;
    last_rank = h.rank;
    if (h.pid >= 0) NotePid(h.pid);
  }

  int64_t noted_pid = -1;
  void NotePid(int64_t pid) {
    noted_pid = pid;
    if (last_id_by_pid.size() >= 65536 && !last_id_by_pid.count(pid)) last_id_by_pid.clear();  // bounded
    last_id_by_pid[pid] = {last_id, last_rank};
  }

  // Artifact line counts, with the last artifact's counters at hand.
  std::string counted_artifact;
  size_t* counted = nullptr;
  size_t* counted_unread = nullptr;

  void CountArtifact(std::string_view artifact) {
    if (counted == nullptr || artifact != counted_artifact) {
      counted_artifact.assign(artifact);
      counted = &log.artifacts[counted_artifact];
      counted_unread = IsReadArtifact(artifact) ? nullptr : &log.unread_artifacts[counted_artifact];
    }
    ++*counted;
    if (counted_unread) ++*counted_unread;
  }

  TorchLogsCompile* CompileOf(int rank, std::string_view id) {
    TraceIdParts parts;
    if (!ParseTraceId(id, &parts)) return nullptr;
    auto it = compile_index.find({rank, parts.base});
    return it == compile_index.end() ? nullptr : &log.compiles[it->second];
  }

  // ---- Messages ------------------------------------------------------------

  static bool Buffered(MessageKind kind) { return kind != MessageKind::kOther; }

  void Append(Message& m, std::string_view text, size_t at, size_t column) {
    if (!Buffered(m.kind)) return;
    if (m.kind == MessageKind::kGraph && !m.class_seen && text.find("class ") != std::string_view::npos)
      m.class_seen = true;
    m.texts.emplace_back(text);
    m.lines.push_back(static_cast<uint32_t>(at));
    m.columns.push_back(static_cast<int32_t>(column));
  }

  void Open(Message& m, LogLayout layout, int rank, int64_t pid, std::string_view prefix, std::string_view id,
            std::string_view artifact, MessageKind kind, std::string_view text, size_t at, size_t column) {
    // Field by field, so the strings keep their buffers from line to line.
    m.open = true;
    m.layout = layout;
    m.rank = rank;
    m.pid = pid;
    m.prefix.assign(prefix);
    m.id.assign(id);
    m.artifact.assign(artifact);
    m.kind = kind;
    m.line = at;
    m.prefixed_continuation = false;
    m.class_seen = false;
    m.closed_body = false;
    m.texts.clear();
    m.lines.clear();
    m.columns.clear();
    Append(m, text, at, column);
  }

  static bool AwaitsDebugContext(const Message& m) {
    bool explained = false;
    for (const std::string& text : m.texts) {
      std::string_view t = TrimBlanks(text);
      if (t.starts_with("Developer debug context: ")) return false;
      explained = explained || t.starts_with("Explanation: ");
    }
    return explained;
  }

  // Whether a line without a prefix continues `m`: only in the layouts that
  // print a message's later lines bare (torch 2.0, bare logs, TorchAir), and
  // only lines of the shape that message's text has.
  bool ContinuesUnprefixed(Message& m, std::string_view line) {
    if (!m.open || m.prefixed_continuation) return false;
    if (m.layout == LogLayout::kGlog) return false;
    bool blank = TrimBlanks(line).empty();
    bool indented = !line.empty() && IsSpace(line[0]);
    std::string_view t = TrimBlanks(line);
    switch (m.kind) {
      case MessageKind::kGraph:
        if (!m.class_seen) return blank || t.starts_with("=====") || t.find("class ") != std::string_view::npos;
        return blank || indented;
      case MessageKind::kGraphSizes:
        return blank || indented || t.starts_with("=====") || t.find(": (") != std::string_view::npos;
      case MessageKind::kGuards:
      case MessageKind::kGuardLines:
        return blank || indented || t.starts_with("TREE_GUARD_MANAGER") || t.starts_with("+-") || t.starts_with("|");
      case MessageKind::kRecompile: return indented && !blank;
      case MessageKind::kGraphBreak:
        // format_graph_break_message puts a blank line between the hints and
        // the "Developer debug context:" line: the message goes on over it.
        if (blank) return AwaitsDebugContext(m);
        return BareStart(line) == MessageKind::kOther;
      case MessageKind::kCacheLimit:
        return (indented && !blank) || t.starts_with("To log all recompilation") ||
               t.starts_with("To diagnose recompilation");
      case MessageKind::kTorchAirGraph: return !blank && (indented || t.starts_with("%") || t.starts_with("return "));
      case MessageKind::kTorchAirMemory:
        if (m.closed_body) return false;
        if (t.ends_with("}.")) m.closed_body = true;
        return true;
      case MessageKind::kOther:
        // A torch 2.0 message's later lines (stacks, reprs) are indented.
        return m.layout == LogLayout::kBracket && indented && !blank;
    }
    return false;
  }

  void Close(Message& m) {
    if (!m.open) return;
    m.open = false;
    switch (m.kind) {
      case MessageKind::kGraph: ReadGraph(m); break;
      case MessageKind::kGraphSizes: ReadGraphSizes(m); break;
      case MessageKind::kGuards:
      case MessageKind::kGuardLines: ReadGuards(m); break;
      case MessageKind::kRecompile: ReadRecompile(m); break;
      case MessageKind::kGraphBreak: ReadGraphBreak(m); break;
      case MessageKind::kCacheLimit: ReadCacheLimit(m); break;
      case MessageKind::kTorchAirGraph: ReadTorchAirGraph(m); break;
      case MessageKind::kTorchAirMemory:
      case MessageKind::kOther: break;
    }
    m.texts.clear();
    m.lines.clear();
    m.columns.clear();
  }

  // ---- Interpretation --------------------------------------------------------

  // The graphs of one (rank, id, kind), to find a reprint without a scan of all.
  std::map<std::tuple<int, std::string, std::string>, std::vector<size_t>> graphs_by_name;

  void AddGraph(TorchLogsGraph g) {
    std::vector<size_t>& same = graphs_by_name[std::make_tuple(g.rank, g.id, g.kind)];
    for (size_t index : same) {
      if (log.graphs[index].text == g.text) {
        ++log.graphs[index].copies;
        return;
      }
    }
    same.push_back(log.graphs.size());
    log.graphs.push_back(std::move(g));
  }

  static std::string GraphKind(std::string_view title, std::string_view artifact) {
    size_t fn = title.find("__compiled_fn");
    if (fn != std::string_view::npos) {
      std::string before = Slug(title.substr(0, fn));
      return before.empty() ? "dynamo" : "dynamo_" + before;
    }
    if (title.starts_with("Forward graph")) return "aot_forward";
    if (title.starts_with("Backward graph")) return "aot_backward";
    if (title.starts_with("Joint graph")) return "aot_joint";
    if (title.starts_with("Compiled autograd graph")) return "compiled_autograd";
    if (title == "AFTER POST GRAD") return "inductor_post_grad";
    if (title == "BEFORE PRE GRAD") return "inductor_pre_grad";
    if (!title.empty()) return Slug(title);
    if (artifact == "graph_code" || artifact == "graph") return "dynamo";
    if (artifact == "compiled_autograd" || artifact == "compiled_autograd_verbose") return "compiled_autograd";
    return artifact.empty() ? "graph" : Slug(artifact);
  }

  void ReadGraph(Message& m) {
    // TRACED GRAPH, ` ===== NAME =====`, ` FILE class X(torch.nn.Module):`,
    // then the code (torch/fx/_utils.py, _format_graph_code).
    size_t i = 0;
    while (i < m.texts.size() && !TrimLeft(m.texts[i], kLeftBlanks).starts_with("TRACED GRAPH")) ++i;
    if (i == m.texts.size()) return;
    ++i;
    std::string title;
    while (i < m.texts.size() && TrimBlanks(m.texts[i]).empty()) ++i;
    if (i < m.texts.size() && TrimBlanks(m.texts[i]).starts_with("=====")) {
      std::string_view t = TrimBlanks(m.texts[i]);
      while (!t.empty() && t.front() == '=') t.remove_prefix(1);
      while (!t.empty() && t.back() == '=') t.remove_suffix(1);
      title = std::string(TrimBlanks(t));
      ++i;
    }
    size_t class_line = i;
    while (class_line < m.texts.size()) {
      std::string_view t = m.texts[class_line];
      size_t at = t.find("class ");
      if (at != std::string_view::npos && (at == 0 || t[at - 1] == ' ')) break;
      ++class_line;
    }
    if (class_line == m.texts.size()) {
      // The tabular form (tabulate installed): opcode/name/target columns.
      bool table = false;
      for (const std::string& t : m.texts) table |= t.find("opcode") != std::string::npos;
      if (table || m.artifact == "graph") {
        ++log.tabular_graphs;
      } else {
        Problem(m.line, fmt::format("TRACED GRAPH{} without a `class ...:` line: no graph code to read",
                                    title.empty() ? "" : " '" + title + "'"));
      }
      return;
    }
    TorchLogsGraph g;
    g.id = m.id;
    g.rank = m.rank;
    g.title = title;
    g.artifact = m.artifact;
    g.kind = GraphKind(title, m.artifact);
    g.line = m.line;
    // Trailing blank lines are the message's end, not the code's.
    size_t end = m.texts.size();
    while (end > class_line + 1 && TrimBlanks(m.texts[end - 1]).empty()) --end;
    for (size_t k = class_line; k < end; ++k) {
      std::string_view t = m.texts[k];
      size_t column = m.columns[k];
      if (k == class_line) {
        size_t at = t.find("class ");
        column += at;
        t = t.substr(at);
      }
      g.text += StripAnsi(TrimRight(t, kRightBlanks));
      g.text += '\n';
      g.source_lines.push_back(m.lines[k]);
      g.source_columns.push_back(static_cast<int32_t>(column));
    }
    AddGraph(std::move(g));
  }

  void ReadGraphSizes(Message& m) {
    TorchLogsGraphSizes s;
    s.id = m.id;
    s.rank = m.rank;
    s.line = m.line;
    for (size_t k = 1; k < m.texts.size(); ++k) {
      std::string_view t = TrimBlanks(m.texts[k]);
      if (t.empty()) continue;
      if (t.starts_with("=====")) {
        while (!t.empty() && t.front() == '=') t.remove_prefix(1);
        while (!t.empty() && t.back() == '=') t.remove_suffix(1);
        s.title = std::string(TrimBlanks(t));
        continue;
      }
      s.sizes.emplace_back(t);
    }
    log.graph_sizes.push_back(std::move(s));
  }

  static size_t CountTreeLeaves(std::string_view text) {
    size_t n = 0;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(pos, end - pos);
      pos = end + 1;
      size_t plus = line.find("+- ");
      if (plus == std::string_view::npos) continue;
      std::string_view node = line.substr(plus + 3);
      std::string_view kind = node.substr(0, std::min(node.find(':'), node.size()));
      if (kind.find("GuardManager") == std::string_view::npos) ++n;
    }
    return n;
  }

  void ReadGuards(Message& m) {
    auto key = std::make_pair(m.rank, m.id);
    TorchLogsGuards* set = nullptr;
    if (m.kind == MessageKind::kGuards) {
      open_guards[key] = log.guards.size();
      log.guards.push_back({m.id, m.rank, m.line, false, 0, {}});
      set = &log.guards.back();
    } else {
      auto it = open_guards.find(key);
      if (it == open_guards.end()) {
        it = open_guards.emplace(key, log.guards.size()).first;
        log.guards.push_back({m.id, m.rank, m.line, false, 0, {}});
      }
      set = &log.guards[it->second];
    }
    for (size_t k = 0; k < m.texts.size(); ++k) {
      std::string_view t = TrimRight(m.texts[k], kRightBlanks);
      set->text += t;
      set->text += '\n';
      std::string_view trimmed = TrimLeft(t, kLeftBlanks);
      if (trimmed.starts_with("TREE_GUARD_MANAGER")) set->tree = true;
      if (!set->tree && !trimmed.empty() && trimmed != "GUARDS:") ++set->count;
    }
    // Blank lines at the end are the message's end.
    while ((set->text).ends_with("\n\n")) set->text.pop_back();
    if (set->tree) set->count = CountTreeLeaves(set->text);
  }

  void ReadRecompile(Message& m) {
    TorchLogsRecompile r;
    r.id = m.id;
    r.rank = m.rank;
    r.line = m.line;
    r.verbose = m.artifact == "recompiles_verbose";
    std::string_view first = TrimBlanks(m.texts[0]);
    r.header_missing = !IsRecompileHeader(first);
    if (first.starts_with("('")) {
      // convert_frame.py, 2023: a logged tuple ('Recompiling function F in L', "triggered by ...: R").
      size_t pos = 1;
      SplitFunctionIn(PythonString(first, pos), &r.function, &r.location);
      while (pos < first.size() && (first[pos] == ',' || first[pos] == ' ')) ++pos;
      std::string detail = PythonString(first, pos);
      if (!detail.empty()) {
        r.details.push_back(detail);
        constexpr std::string_view kOne = "triggered by the following guard failure: ";
        if (detail.starts_with(kOne)) r.failures.push_back(detail.substr(kOne.size()));
      }
    } else {
      if (!r.header_missing) SplitFunctionIn(first, &r.function, &r.location);
      for (size_t k = r.header_missing ? 0 : 1; k < m.texts.size(); ++k) {
        std::string_view t = TrimBlanks(m.texts[k]);
        if (t.empty()) continue;
        r.details.emplace_back(t);
        if (t.starts_with("guard ") && t.ends_with("failures:")) r.verbose = true;
        std::string_view failure = AfterDash(t);
        if (!failure.empty()) r.failures.emplace_back(failure);
      }
    }
    // guards.py always follows the first line with the failures; a message
    // open at the end of the log without one was cut there.
    r.cut_at_end = at_end_of_log && r.failures.empty();
    if (TorchLogsCompile* c = CompileOf(m.rank, m.id)) {
      if (c->function.empty()) c->function = r.function;
      if (c->location.empty()) c->location = r.location;
    }
    log.recompiles.push_back(std::move(r));
  }

  void ReadGraphBreak(Message& m) {
    TorchLogsGraphBreak b;
    b.id = m.id;
    b.rank = m.rank;
    b.line = m.line;
    std::string_view first = TrimBlanks(m.texts[0]);
    constexpr std::string_view kInUserCode = "Graph break in user code at ";
    constexpr std::string_view kFromUserCode = " from user code at";
    if (first.starts_with(kInUserCode)) {
      b.location = std::string(first.substr(kInUserCode.size()));
    } else {
      // "Graph break: REASON from user code at: ..." / "Graph break: from user code at:" / "Graph break: skip: ...".
      std::string_view rest = first.substr(std::min(first.size(), std::string_view("Graph break").size()));
      if (rest.starts_with(":")) rest.remove_prefix(1);
      rest = TrimBlanks(rest);
      size_t from = rest.find(kFromUserCode);
      std::string_view reason = from == std::string_view::npos ? rest : TrimBlanks(rest.substr(0, from));
      while (!reason.empty() && reason.back() == ':') reason.remove_suffix(1);
      if (!reason.empty() && !rest.starts_with("from user code")) b.reason = std::string(TrimBlanks(reason));
      if (from != std::string_view::npos) {
        std::string loc = FileLineLocation(rest.substr(rest.find(':', from) + 1));
        if (!loc.empty()) b.location = loc;
      }
    }
    std::string* continued = nullptr;  // the explanation, hint or context a deeper line goes on
    for (size_t k = 1; k < m.texts.size(); ++k) {
      std::string_view t = TrimBlanks(m.texts[k]);
      if (b.location.empty()) {
        std::string loc = FileLineLocation(t);
        if (!loc.empty()) b.location = loc;
      }
      for (std::string_view key : {"Graph Break Reason: ", "Reason: "}) {
        if (b.reason.empty() && t.starts_with(key)) b.reason = std::string(t.substr(key.size()));
      }
      // torch/_dynamo/exc.py format_graph_break_message: "  Explanation: ", "  Hint: " (one
      // per hint), a blank line, "  Developer debug context: "; a text of
      // several lines goes on indented by four more spaces.
      std::string_view raw = m.texts[k];
      if (continued && raw.starts_with("      ") && !t.empty()) {
        *continued += '\n';
        continued->append(t);
        continue;
      }
      continued = nullptr;
      if (t.starts_with("Explanation: ") && b.explanation.empty()) {
        continued = &(b.explanation = std::string(t.substr(13)));
      } else if (t.starts_with("Hint: ")) {
        continued = &b.hints.emplace_back(t.substr(6));
      } else if (t.starts_with("Developer debug context: ") && b.debug_context.empty()) {
        continued = &(b.debug_context = std::string(t.substr(25)));
      }
      constexpr std::string_view kUnsupported = "torch._dynamo.exc.Unsupported: ";
      if (t.starts_with(kUnsupported) && (b.reason.empty() || b.reason == "skip")) {
        b.reason = std::string(t.substr(kUnsupported.size()));
      }
    }
    log.graph_breaks.push_back(std::move(b));
  }

  void ReadCacheLimit(Message& m) {
    TorchLogsCacheLimit c;
    c.id = m.id;
    c.rank = m.rank;
    c.line = m.line;
    std::string_view first = TrimBlanks(m.texts[0]);
    c.limit = std::string(first.substr(std::string_view("torch._dynamo hit config.").size()));
    for (size_t k = 1; k < m.texts.size(); ++k) {
      std::string_view t = TrimBlanks(m.texts[k]);
      if (t.starts_with("function: ")) c.function = std::string(t.substr(10));
      if (t.starts_with("last reason: ")) c.last_reason = std::string(t.substr(13));
      if (t.starts_with("reasons: ")) c.last_reason = std::string(t.substr(9));
    }
    log.cache_limits.push_back(std::move(c));
  }

  // The Dynamo compile a TorchAir line belongs to: the last one its process
  // logged, else the last one of the log (see the header).
  std::pair<std::string, int> TorchAirCompile(int64_t pid) const {
    auto it = last_id_by_pid.find(pid);
    if (it != last_id_by_pid.end()) return it->second;
    return {last_id, last_rank};
  }

  static std::string TorchAirGraphKind(std::string_view before, std::string* title) {
    // before: "before sym input optimization, graph is ", "  graph: ", "[forward] before [x] execution, graph is "
    std::string_view s = TrimBlanks(before);
    for (std::string_view tail : {"graph is:", "graph is", "graph:"}) {
      if (s.ends_with(tail)) {
        s.remove_suffix(tail.size());
        break;
      }
    }
    s = TrimBlanks(s);
    while (!s.empty() && (s.back() == ',' || s.back() == ':')) s.remove_suffix(1);
    s = TrimBlanks(s);
    *title = s.empty() ? "graph" : std::string(s);
    if (s.empty()) return "torchair_graph";
    // GraphTransformObserver.apply_gm_pass (gto:39,44): "[phase] before|after [pass] execution".
    if (s.front() == '[') {
      size_t phase_end = s.find(']');
      size_t pass_start = s.find('[', phase_end == std::string_view::npos ? 0 : phase_end);
      size_t pass_end = pass_start == std::string_view::npos ? pass_start : s.find(']', pass_start);
      if (phase_end != std::string_view::npos && pass_end != std::string_view::npos) {
        std::string phase(s.substr(1, phase_end - 1));
        std::string when = Slug(s.substr(phase_end + 1, pass_start - phase_end - 1));
        std::string pass(s.substr(pass_start + 1, pass_end - pass_start - 1));
        std::string p = phase == "forward" ? "" : Slug(phase) + "_";
        return "torchair_" + p + when + "_" + Slug(pass);
      }
    }
    return "torchair_" + Slug(s);
  }

  // `graph():%a : [...] = ...%b : [...] = ...return (b,)`: a page that lost
  // the newlines. Split again before each `%name : ` and before `return (`.
  static std::vector<std::string> SplitJoinedFx(std::string_view s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 1; i < s.size(); ++i) {
      bool cut = false;
      if (s[i] == '%') {
        size_t j = i + 1;
        while (j < s.size() && IsWordChar(s[j])) ++j;
        cut = j > i + 1 && s.substr(j, 4) == " : [";
      } else if (s.substr(i, 8) == "return (") {
        char prev = s[i - 1];
        cut = prev == ')' || prev == ']' || prev == '}';
      }
      if (cut) {
        out.emplace_back(s.substr(start, i - start));
        start = i;
      }
    }
    out.emplace_back(s.substr(start));
    return out;
  }

  void ReadTorchAirGraph(Message& m) {
    std::string_view first = m.texts[0];
    size_t at = TorchAirGraphStart(first);
    if (at == std::string_view::npos) return;
    TorchLogsGraph g;
    g.kind = TorchAirGraphKind(first.substr(0, at), &g.title);
    auto [id, rank] = TorchAirCompile(m.pid);
    g.id = id;
    g.rank = rank;
    g.artifact = "torchair";
    g.fx_text = true;
    g.line = m.line;
    if (g.kind == "torchair_graph") {
      // The `input N:` lines right before `graph:` are this graph's example inputs.
      auto it = pending_inputs.find(m.pid);
      if (it != pending_inputs.end()) {
        g.inputs = std::move(it->second);
        pending_inputs.erase(it);
      }
    }
    std::string_view rest = TrimBlanks(first.substr(at + 8));
    g.text = "graph():\n";
    g.source_lines.push_back(m.lines[0]);
    g.source_columns.push_back(m.columns[0] + static_cast<int32_t>(at));
    if (!rest.empty()) {
      Problem(m.line,
              "the graph's lines are joined into one (as some web pages print them): airscope split it "
              "again before each `%name : ` and `return (`");
      for (const std::string& piece : SplitJoinedFx(rest)) {
        g.text += "    " + piece + "\n";
        g.source_lines.push_back(m.lines[0]);
        g.source_columns.push_back(m.columns[0] - 4);
      }
    }
    // torch prints a graph's lines indented by 4 (torch.fx Graph.__str__);
    // a page that lost the indentation gets it back.
    bool reindented = false;
    for (size_t k = 1; k < m.texts.size(); ++k) {
      std::string line = StripAnsi(TrimRight(m.texts[k], kRightBlanks));
      int32_t column = m.columns[k];
      if (!line.empty() && !IsSpace(line[0])) {
        line.insert(0, "    ");
        column -= 4;
        reindented = true;
      }
      g.text += line;
      g.text += '\n';
      g.source_lines.push_back(m.lines[k]);
      g.source_columns.push_back(column);
    }
    if (reindented) {
      Problem(m.line,
              "the graph's lines lost their indentation (as pages print them): airscope indented them by 4 "
              "again, as torch prints them");
    }
    AddGraph(std::move(g));
  }

  // Lines read at once: compiles' functions, dynamic shapes, TorchAir's runtime.
  void ReadOneLine(const Head& h, size_t at) {
    std::string_view t = TrimBlanks(h.text);
    if (h.layout == LogLayout::kTorchAir || h.layout == LogLayout::kTorchAirCpp) {
      ReadTorchAirEvent(t, at, h.pid);
      return;
    }
    ReadTorchLine(t, h.rank, h.id, at);
    // Dynamo's "Step N: ..." progress lines (convert_frame.py, output_graph.py;
    // compile_fx.py's Step 3), with their time.
    if (t.size() > 8 && t.starts_with("Step ") && IsDigit(t[5]) && t.substr(6, 2) == ": " && !h.id.empty()) {
      if (log.steps.size() < 1000000) {
        log.steps.push_back({std::string(h.id), h.rank, at, std::string(t.substr(0, 200)), StampSeconds(h.stamp)});
      }
    }
  }

  void ReadTorchLine(std::string_view t, int rank, std::string_view id, size_t at) {
    // symbolic_shapes.py of 2023 put the ShapeEnv's number first: "0: create_symbol ...".
    size_t d = CountDigitsAt(t, 0);
    if (d > 0 && t.substr(d, 2) == ": ") t.remove_prefix(d + 2);
    for (std::string_view start : {"torchdynamo start compiling ", "Step 1: torchdynamo start tracing "}) {
      if (!t.starts_with(start)) continue;
      // "FN FILE:LINE[, stack ...]"
      std::string_view rest = t.substr(start.size());
      size_t space = rest.find(' ');
      if (space == std::string_view::npos) continue;
      std::string_view fn = rest.substr(0, space);
      std::string_view loc = rest.substr(space + 1);
      loc = loc.substr(0, std::min(loc.find(", stack"), loc.size()));
      if (TorchLogsCompile* c = CompileOf(rank, id)) {
        if (c->function.empty()) c->function = std::string(fn);
        if (c->location.empty()) c->location = std::string(TrimBlanks(loc));
      }
    }
    if (t.starts_with("create_symbol ")) {
      // create_symbol s0 = 3 for L['x'].size()[0] [2, int_oo] at playground.py:5 in fn (...)
      TorchLogsSymbol s;
      s.id = std::string(id);
      s.rank = rank;
      s.line = at;
      std::string_view rest = t.substr(14);
      size_t eq = rest.find(" = ");
      if (eq == std::string_view::npos) return;
      s.symbol = std::string(rest.substr(0, eq));
      rest = rest.substr(eq + 3);
      size_t for_ = rest.find(" for ");
      s.value = std::string(rest.substr(0, std::min(for_, rest.size())));
      if (for_ != std::string_view::npos) {
        rest = rest.substr(for_ + 5);
        size_t end = std::min(rest.find(" at "), rest.size());
        std::string_view source = rest.substr(0, end);
        size_t range = source.rfind(" [");
        if (range != std::string_view::npos && source.ends_with("]")) {
          s.range = std::string(source.substr(range + 1));
          source = source.substr(0, range);
        }
        s.source = std::string(source);
      }
      log.symbols.push_back(std::move(s));
      return;
    }
    size_t added = t.find(" [guard added]");
    if (added != std::string_view::npos) {
      for (std::string_view start : {"eval ", "evaluate_expr ", "runtime_assert "}) {
        if (!t.starts_with(start)) continue;
        log.shape_guards.push_back(
            {std::string(id), rank, at, std::string(t.substr(start.size(), added - start.size()))});
        return;
      }
    }
  }

  // `compiler inputs` then `input N: REPR` per example input (npu_fx_compiler.py:641-643), per process.
  std::map<int64_t, std::vector<std::string>> pending_inputs;

  // TorchAir's AclGraph runtime INFO/DEBUG/WARNING messages (TORCHAIR.md §7).
  void ReadTorchAirEvent(std::string_view t, size_t at, int64_t pid) {
    if (t == "compiler inputs") {
      pending_inputs[pid].clear();
      return;
    }
    if (t.starts_with("input ") && CountDigitsAt(t, 6) > 0 && t.substr(6 + CountDigitsAt(t, 6), 2) == ": ") {
      auto it = pending_inputs.find(pid);
      if (it != pending_inputs.end() && it->second.size() < 100000) {
        it->second.emplace_back(t.substr(8 + CountDigitsAt(t, 6)));
      }
      return;
    }
    struct Pattern {
      std::string_view start;
      std::string_view kind;
      std::string_view name_after;  // the fx graph name follows this
      std::string_view name_end;
      std::string_view key_after;  // the graph key follows this
      std::string_view key_end;
    };
    // acl_graph.py at fced8842: 974, 1114, 1243, 977, 1002-1011, 1043, 1055, 1018; fx2acl_converter.py:148 of
    // 2025-04 (the seed's form) and :219 of 2025-07 for the older capture messages; utils.py:206-210 (timer).
    static const Pattern kPatterns[] = {
        {"Find captured AclGraph{id: ", "hit", " of fx_graph ", " with graph key", "graph key {", "}."},
        {"No find captured AclGraph{id: ", "capture_start", " of fx_graph ", " with graph key", "graph key {",
         "}, and"},
        {"Success to capture fx_graph ", "captured", "Success to capture fx_graph ", " for graph key", "graph key{",
         "}."},
        {"Success to capture fx graph[id: ", "captured", "fx graph[id: ", "]", "with graph key ", "."},
        {"The current AclGraph needs to be recaptured", "recapture", "for fx_graph ", " with graph key", "graph key {",
         "}."},
        {"The static_capture_size_limit reached", "limit_reached", "capturing fx_graph ", " with graph key",
         "with graph key ", ", we will"},
        {"Current fx_graph ", "memory_reset", "Current fx_graph ", " memory pool", "", ""},
        {"For graph ", "capture_counts", "For graph ", " :", "", ""},
        {"Replay AclGraph and update input params successfully", "replay_update", "", "", "", ""},
        {"Update the stream for parameter", "stream_update", "", "", "", ""},
        {"Success to optimize AclGraph{id: ", "super_kernel", "", "", "", ""},
    };
    for (const Pattern& p : kPatterns) {
      if (!t.starts_with(p.start)) continue;
      TorchAirEvent e;
      e.kind = std::string(p.kind);
      e.text = std::string(t);
      e.line = at;
      if (p.kind == "memory_reset") {
        e.kind = t.find("Before reset") != std::string_view::npos ? "memory_before_reset" : "memory_after_reset";
      }
      if (!p.name_after.empty()) {
        size_t a = t.find(p.name_after);
        if (a != std::string_view::npos) {
          a += p.name_after.size();
          size_t b = t.find(p.name_end, a);
          std::string_view name = t.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a);
          e.fx_graph = p.name_after == "fx graph[id: " ? fmt::format("id {}", name) : std::string(name);
        }
      }
      if (!p.key_after.empty()) {
        size_t a = t.find(p.key_after);
        if (a != std::string_view::npos) {
          a += p.key_after.size();
          size_t b = t.find(p.key_end, a);
          if (b != std::string_view::npos) e.key = std::string(t.substr(a, b - a));
        }
      }
      log.events.push_back(std::move(e));
      return;
    }
    // "[forward] Full debug info saved to: <debug dir>/torchair/model__0" (graph_transform_observer.py:
    // 106-110, DebugContext.__exit__ under TORCH_COMPILE_DEBUG): the end of one stage compile, naming the
    // model__K directory its dumps went to. The phase goes in `fx_graph`'s place empty, the path in `key`.
    if (!t.empty() && t[0] == '[') {
      size_t saved = t.find("] Full debug info saved to: ");
      if (saved != std::string_view::npos) {
        TorchAirEvent e;
        e.kind = "debug_saved";
        e.key = std::string(TrimBlanks(t.substr(saved + 28)));
        e.text = std::string(t);
        e.line = at;
        log.events.push_back(std::move(e));
        return;
      }
    }
    // "<fx graph> process inputs foreach copy took 0.000123 [s]" (acl_graph.py:1345 with utils.py:206-210).
    size_t copy = t.find(" process inputs foreach copy took ");
    if (copy != std::string_view::npos) {
      log.events.push_back({std::string(t.substr(0, copy)), "input_copy", "", std::string(t), at});
    }
  }

  // ---- Lines -------------------------------------------------------------------

  void AddLine(std::string_view raw) {
    size_t at = ++log.lines;
    std::string_view line = raw;
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Head h;
    if (ParseHead(line, &h)) {
      bool torchair = h.layout == LogLayout::kTorchAir || h.layout == LogLayout::kTorchAirCpp;
      (torchair ? log.torchair_lines : log.torch_lines) += 1;
      NoteLayout(h.layout);
      NoteId(h, at);
      if (!h.artifact.empty()) CountArtifact(h.artifact);
      size_t column = static_cast<size_t>(h.text.data() - line.data());
      Stream& s = StreamFor(h.layout, torchair ? -1 : h.rank, h.layout == LogLayout::kGlog || torchair ? h.pid : -1);
      Message& m = s.message;
      MessageKind kind = torchair ? MessageKind::kOther : TorchKind(h.text, h.artifact);
      bool starts_new = kind == MessageKind::kGraph || kind == MessageKind::kGuards ||
                        (kind == MessageKind::kRecompile && IsRecompileHeader(TrimLeft(h.text, kLeftBlanks))) ||
                        kind == MessageKind::kGraphSizes || kind == MessageKind::kCacheLimit;
      // The same prefix continues the record (every line of a message repeats it),
      // unless the line plainly starts another message.
      if (m.open && !torchair && m.prefix == h.prefix && !starts_new) {
        m.prefixed_continuation = true;
        Append(m, h.text, at, column);
        last = &s;
        return;
      }
      Close(m);
      if (torchair) {
        kind = TorchAirGraphStart(h.text) != std::string_view::npos ? MessageKind::kTorchAirGraph
               : IsMemoryStateOpen(h.text)                          ? MessageKind::kTorchAirMemory
                                                                    : MessageKind::kOther;
      }
      if (kind == MessageKind::kOther) ReadOneLine(h, at);
      Open(m, h.layout, torchair ? -1 : h.rank, h.pid, h.prefix, h.id, h.artifact, kind, h.text, at, column);
      last = &s;
      if (kind == MessageKind::kTorchAirMemory) ReadOneLine(h, at);
      return;
    }
    // A line without a prefix: the rest of a message that prints its lines bare,
    // a bare message's start, or other output.
    if (last && last->message.open) {
      if (ContinuesUnprefixed(last->message, line)) {
        Append(last->message, line, at, 0);
        return;
      }
      if (last->message.layout != LogLayout::kGlog && !last->message.prefixed_continuation) Close(last->message);
    }
    MessageKind kind = BareStart(line);
    if (kind != MessageKind::kOther) {
      ++log.torch_lines;
      NoteLayout(LogLayout::kBare);
      Stream& s = StreamFor(LogLayout::kNone, -1, -1);
      Close(s.message);
      Open(s.message, LogLayout::kBare, -1, -1, "", "", "", kind, line, at, 0);
      last = &s;
      return;
    }
    std::string_view t = TrimBlanks(line);
    if (t.starts_with("create_symbol ") || t.find(" [guard added]") != std::string_view::npos) {
      ++log.torch_lines;
      NoteLayout(LogLayout::kBare);
      ReadTorchLine(t, -1, "", at);
      return;
    }
    if (t.find("FailOnRecompileLimitHit") != std::string_view::npos && log.limit_raised_lines.size() < 100000) {
      log.limit_raised_lines.push_back(at);
    }
    ++log.other_lines;
  }

  TorchLogs Finish() {
    at_end_of_log = true;
    for (Stream& s : streams) Close(s.message);
    log.ranks.assign(ranks.begin(), ranks.end());
    // Messages are read when they end; interleaved streams end out of order.
    auto by_line = [](const auto& a, const auto& b) { return a.line < b.line; };
    std::stable_sort(log.graphs.begin(), log.graphs.end(), by_line);
    std::stable_sort(log.guards.begin(), log.guards.end(), by_line);
    std::stable_sort(log.recompiles.begin(), log.recompiles.end(), by_line);
    std::stable_sort(log.graph_breaks.begin(), log.graph_breaks.end(), by_line);
    std::stable_sort(log.cache_limits.begin(), log.cache_limits.end(), by_line);
    std::stable_sort(log.graph_sizes.begin(), log.graph_sizes.end(), by_line);
    std::stable_sort(log.steps.begin(), log.steps.end(), by_line);
    // Names: ID:KIND, rankN: in front for a log of several ranks, gN for a
    // graph the log gave no compile id, #N for a second graph of one name.
    size_t numbered = 0;
    std::map<std::string, int> seen;
    for (TorchLogsGraph& g : log.graphs) {
      std::string id = g.id.empty() ? fmt::format("g{}", ++numbered) : g.id;
      std::string name = fmt::format("{}:{}", log.Qualified(g.rank, id), g.kind);
      int n = ++seen[name];
      g.name = n > 1 ? fmt::format("{}#{}", name, n) : name;
    }
    return std::move(log);
  }
};

std::string GraphBreakNotes(const TorchLogsGraphBreak& graph_break, size_t indent) {
  std::string notes;
  auto add = [&](std::string_view key, const std::string& value) {
    if (!value.empty()) notes += fmt::format("\n{:{}}{}{}", "", indent, key, IndentLinesAfterFirst(value, indent + 2));
  };
  add("Explanation: ", graph_break.explanation);
  for (const std::string& hint : graph_break.hints) add("Hint: ", hint);
  add("Developer debug context: ", graph_break.debug_context);
  return notes;
}

TorchLogsReader::TorchLogsReader(std::string path) : state_(std::make_unique<State>()) {
  state_->log.path = std::move(path);
}
TorchLogsReader::~TorchLogsReader() = default;
void TorchLogsReader::AddLine(std::string_view line) { state_->AddLine(line); }
TorchLogs TorchLogsReader::Finish() { return state_->Finish(); }

TorchLogs ParseTorchLogs(std::string_view content, std::string path) {
  TorchLogsReader reader(std::move(path));
  ForEachLine(content, [&reader](std::string_view line) { reader.AddLine(line); });
  return reader.Finish();
}

Result<TorchLogs> LoadTorchLogsFile(const std::string& path, uint64_t max_bytes) {
  TorchLogsReader reader(path);
  Status status = ReadFileLines(path, max_bytes, [&reader](std::string_view line) { reader.AddLine(line); });
  if (!status.ok()) return status;
  return reader.Finish();
}

}  // namespace airscope
