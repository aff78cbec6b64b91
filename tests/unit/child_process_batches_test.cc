#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/child_process.h"

namespace airscope {
namespace {

std::vector<ChildWork> Works(size_t count, size_t crashing = SIZE_MAX, size_t failing = SIZE_MAX) {
  std::vector<ChildWork> works;
  for (size_t i = 0; i < count; ++i) {
    works.push_back({"work", [i, crashing, failing]() -> Result<std::string> {
                       if (i == crashing) std::abort();
                       if (i == failing) return Status::Errorf("work {} failed", i);
                       return std::string(i, 'x') + "\n" + std::to_string(i);  // any bytes, newlines too
                     }});
  }
  return works;
}

TEST(ChildProcessBatchesTest, ResultsComeBackApartAndInOrder) {
  std::vector<Result<std::string>> results = RunInChildProcessBatches(Works(50, SIZE_MAX, 7), 2, 8);
  ASSERT_EQ(results.size(), 50u);
  for (size_t i = 0; i < results.size(); ++i) {
    if (i == 7) {
      ASSERT_FALSE(results[i].ok());
      EXPECT_EQ(results[i].status().message(), "work 7 failed");
      continue;
    }
    ASSERT_TRUE(results[i].ok()) << i << ": " << results[i].status().message();
    EXPECT_EQ(*results[i], std::string(i, 'x') + "\n" + std::to_string(i));
  }
}

TEST(ChildProcessBatchesTest, AWorkThatKillsItsChildFailsAloneAfterItsBatchRunsAgain) {
  std::vector<Result<std::string>> results = RunInChildProcessBatches(Works(20, 5), 2, 8);
  ASSERT_EQ(results.size(), 20u);
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].ok(), i != 5) << i;
  }
  EXPECT_NE(results[5].status().message().find("work"), std::string::npos) << results[5].status().message();
}

}  // namespace
}  // namespace airscope
