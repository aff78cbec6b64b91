// A shell for tests that drive commands through the real Interpreter: a
// Session, the command table, and a sink that records what was printed and
// which errors were reported.
#pragma once

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/session.h"

namespace airscope::testing_shell {

class RecordingSink : public OutputSink {
 public:
  Status Output(const CommandOutput& out) override {
    text += out.Text();
    return Status::Ok();
  }
  void Error(std::string_view message) override { errors.emplace_back(message); }
  std::string text;
  std::vector<std::string> errors;
};

struct TestShell {
  Session session;
  CommandTable table = BuildCommandTable();
  RecordingSink sink;
  Interpreter interpreter{session, table, sink};
};

// Writes `content` to a file `name` in GoogleTest's temp folder; returns its path.
inline std::string WriteTemp(const std::string& name, const std::string& content) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << content;
  return path;
}

}  // namespace airscope::testing_shell
