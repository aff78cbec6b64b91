#include "repl/line_editor.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <readline/history.h>
#include <readline/readline.h>

#include "repl/completion.h"

namespace airscope {
namespace {

// readline's callbacks carry no user data, so the active editor is reached
// through this one pointer (set only while a LineEditor lives).
LineEditor* active_editor = nullptr;

std::vector<std::string>* pending_matches = nullptr;

char* NextMatch(const char* /*text*/, int state) {
  static size_t index = 0;
  if (state == 0) index = 0;
  if (!pending_matches || index >= pending_matches->size()) return nullptr;
  return strdup((*pending_matches)[index++].c_str());
}

char** AttemptCompletion(const char* text, int start, int end) {
  return active_editor ? active_editor->CompleteAt(text, start, end) : nullptr;
}

std::string HistoryPath() {
  if (const char* explicit_path = std::getenv("AIRSCOPE_HISTORY")) return explicit_path;
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + "/.airscope_history" : "";
}

}  // namespace

LineEditor::LineEditor(const CommandTable& table, const Session& session)
    : table_(table), session_(session), history_path_(HistoryPath()) {
  assert(active_editor == nullptr);
  active_editor = this;
  rl_readline_name = "airscope";
  rl_attempted_completion_function = AttemptCompletion;
  rl_completer_word_break_characters = const_cast<char*>(" \t");
  using_history();
  stifle_history(2000);
  if (!history_path_.empty()) read_history(history_path_.c_str());
}

LineEditor::~LineEditor() {
  if (!history_path_.empty()) write_history(history_path_.c_str());
  rl_attempted_completion_function = nullptr;
  active_editor = nullptr;
}

std::optional<std::string> LineEditor::ReadLine(const std::string& prompt) {
  char* raw = readline(prompt.c_str());
  if (!raw) return std::nullopt;
  std::string line(raw);
  std::free(raw);
  bool blank = line.find_first_not_of(" \t") == std::string::npos;
  if (!blank && line != last_line_) add_history(line.c_str());
  if (!blank) last_line_ = line;
  return line;
}

char** LineEditor::CompleteAt(const char* text, int start, int end) {
  std::string before(rl_line_buffer, static_cast<size_t>(end));
  (void)start;
  (void)text;
  Completion completion = Complete(table_, session_, before);
  if (completion.files) {
    rl_attempted_completion_over = 0;  // let readline complete file names
    return nullptr;
  }
  rl_attempted_completion_over = 1;
  if (completion.candidates.empty()) return nullptr;
  pending_matches = &completion.candidates;
  char** matches = rl_completion_matches(text, NextMatch);
  pending_matches = nullptr;
  return matches;
}

}  // namespace airscope
