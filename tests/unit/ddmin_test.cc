// Ddmin (core/ddmin.h): minimal failing subsets, halves first, stopping with
// the best so far.
#include "core/ddmin.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace airscope {
namespace {

std::vector<size_t> Iota(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

bool Has(const std::vector<size_t>& s, size_t x) { return std::binary_search(s.begin(), s.end(), x); }

TEST(DdminTest, OneCulpritInFewHalvingTries) {
  size_t asked_items = 0;
  DdminResult r = Ddmin(Iota(100000), [&](const std::vector<size_t>& s) -> Result<bool> {
    asked_items += s.size();
    return Has(s, 77777);
  });
  EXPECT_TRUE(r.stopped.ok());
  EXPECT_EQ(r.kept, std::vector<size_t>{77777});
  // About two tests per halving (17 halvings of 100k), and tested sizes shrink geometrically.
  EXPECT_LE(r.tries, 40u);
  EXPECT_LE(asked_items, 2u * 100000u);
}

TEST(DdminTest, TwoCulpritsAreBothKeptAndNothingElse) {
  DdminResult r =
      Ddmin(Iota(1000), [](const std::vector<size_t>& s) -> Result<bool> { return Has(s, 3) && Has(s, 900); });
  EXPECT_TRUE(r.stopped.ok());
  EXPECT_EQ(r.kept, (std::vector<size_t>{3, 900}));
}

TEST(DdminTest, NeverAsksEmptyOrEverything) {
  DdminResult r = Ddmin(Iota(37), [](const std::vector<size_t>& s) -> Result<bool> {
    EXPECT_FALSE(s.empty());
    EXPECT_LT(s.size(), 37u);
    return Has(s, 5) && Has(s, 6) && Has(s, 30);
  });
  EXPECT_EQ(r.kept, (std::vector<size_t>{5, 6, 30}));
}

TEST(DdminTest, AnErrorStopsWithTheSmallestFailingSoFar) {
  size_t calls = 0;
  DdminResult r = Ddmin(Iota(64), [&](const std::vector<size_t>& s) -> Result<bool> {
    if (++calls == 3) return Status::Error("interrupted (Ctrl-C)");
    return Has(s, 10);
  });
  EXPECT_EQ(r.stopped.message(), "interrupted (Ctrl-C)");
  EXPECT_EQ(r.tries, 2u);
  // First half (0..31) failed, then its first half (0..15): the smallest failing so far.
  EXPECT_EQ(r.kept.size(), 16u);
  EXPECT_TRUE(Has(r.kept, 10));
}

TEST(DdminTest, SameAnswersSameQuestions) {
  auto run = [] {
    std::vector<std::vector<size_t>> asked;
    Ddmin(Iota(200), [&](const std::vector<size_t>& s) -> Result<bool> {
      asked.push_back(s);
      return Has(s, 17) && Has(s, 150);
    });
    return asked;
  };
  EXPECT_EQ(run(), run());
}

TEST(DdminTest, FewerThanTwoItemsAsksNothing) {
  DdminResult r = Ddmin({4}, [](const std::vector<size_t>&) -> Result<bool> {
    ADD_FAILURE() << "asked";
    return true;
  });
  EXPECT_EQ(r.kept, std::vector<size_t>{4});
  EXPECT_EQ(r.tries, 0u);
}

}  // namespace
}  // namespace airscope
