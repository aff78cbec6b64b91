// ProgressLine: one line of progress for a long command, redrawn in place on
// the user's terminal (standard error) and erased when the command ends.
//
// Contract: nothing is written unless standard error is a terminal, so
// scripts, pipes and golden transcripts see no progress and stay byte for
// byte deterministic; redraws are at most every 100 ms. The line is never
// part of the command's output.
#pragma once

#include <chrono>
#include <string_view>

namespace airscope {

class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();  // erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Update(std::string_view text);

 private:
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace airscope
