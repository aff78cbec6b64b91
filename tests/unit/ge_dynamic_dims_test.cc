// generate_dynamic_dims_option (core/dynamo/ge_dynamic_dims.h) on the inputs
// of TorchAir's own tests, tests/st/torchair_gear_st.py at fced8842, each
// named after its test; the expected values are the test's assertions. And
// list(set(...)) in CPython's order (core/python_hash.h), checked against
// orders CPython 3.11 prints.
#include <gtest/gtest.h>

#include "core/dynamo/ge_dynamic_dims.h"
#include "core/python_hash.h"

namespace airscope {
namespace {

// _GeInputInfo(shape=SHAPE, dim_gears={DIM: [G, ...], ...}).
GeInputInfo Info(std::string name, std::vector<int64_t> shape,
                 const std::vector<std::pair<int64_t, std::vector<int64_t>>>& gears) {
  GeInputInfo info{std::move(name), std::move(shape), {}};
  for (const auto& [dim, list] : gears) {
    DimGearsItem item;
    item.dim = ParsePyScalar(std::to_string(dim));
    for (int64_t g : list) item.gears.items.push_back(ParsePyScalar(std::to_string(g)));
    info.dim_gears.push_back(std::move(item));
  }
  return info;
}

// The error text of a result that must have failed.
template <typename T>
std::string ErrorMessage(const Result<T>& result) {
  return result.ok() ? "<ok>" : result.status().message();
}

std::string Option(const std::vector<std::pair<std::string, std::string>>& options, std::string_view key) {
  for (const auto& [k, v] : options) {
    if (k == key) return v;
  }
  return "<absent>";
}

TEST(GeDynamicDims, ConfigProduct) {  // test_config_product
  auto result = GenerateDynamicDimsOption({Info("arg2_1", {-1, -1}, {{0, {8, 4}}, {1, {8, 12}}})}, "product");
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(Option(*result, "ge.inputShape"), "arg2_1:-1,-1");
  std::string dims = Option(*result, "ge.dynamicDims");
  for (const char* combination : {"8,8", "8,12", "4,8", "4,12"}) {
    EXPECT_NE(dims.find(combination), std::string::npos) << combination << " in " << dims;
  }
  EXPECT_EQ(Option(*result, "ge.dynamicNodeType"), "1");
}

TEST(GeDynamicDims, ConfigZip) {  // test_config_zip
  auto result = GenerateDynamicDimsOption({Info("arg2_1", {-1, 8}, {{0, {8, 4}}})}, "zip");
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(Option(*result, "ge.inputShape"), "arg2_1:-1,8");
  std::string dims = Option(*result, "ge.dynamicDims");
  EXPECT_NE(dims.find('8'), std::string::npos);
  EXPECT_NE(dims.find('4'), std::string::npos);
}

TEST(GeDynamicDims, ConfigZipListLensSame) {  // test_config_zip_list_lens_same
  auto result =
      GenerateDynamicDimsOption({Info("arg1", {-1, 8}, {{0, {8, 4}}}), Info("arg2", {-1, 8}, {{0, {8, 4, 3}}})}, "zip");
  EXPECT_EQ(ErrorMessage(result), "AssertionError: when dynamic_gears_merge_policy is zip, input gears len must same.");
}

TEST(GeDynamicDims, ConfigRepeat) {  // test_config_repeat
  auto result = GenerateDynamicDimsOption(
      {Info("arg2_1", {-1, -1}, {{0, {1, 2, 4, 1, 2, 4}}, {1, {10, 10, 10, 20, 20, 20}}})}, "zip");
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(Option(*result, "ge.inputShape"), "arg2_1:-1,-1");
  std::string dims = Option(*result, "ge.dynamicDims");
  for (const char* combination : {"1,10", "2,10", "4,10", "1,20", "2,20", "4,20"}) {
    EXPECT_NE(dims.find(combination), std::string::npos) << combination << " in " << dims;
  }
}

TEST(GeDynamicDims, GearsNumNotOver100) {  // test_gears_num_not_over_100
  auto result = GenerateDynamicDimsOption({Info("arg1", {-1, 8}, {{0, {1, 2, 3, 4, 5, 6, 7, 8, 9}}}),
                                           Info("arg2", {-1, 8}, {{0, {10, 11, 12, 13, 14, 15, 16, 17, 18, 19}}}),
                                           Info("arg3", {-1, 8}, {{0, {20, 21, 22, 23, 24, 25, 26, 27, 28, 29}}})},
                                          "product");
  EXPECT_EQ(ErrorMessage(result),
            "AssertionError: The total number of gears set cannot exceed 100, and the current number of gears is: 900");
}

TEST(GeDynamicDims, GearsDeduplicated) {  // test_gears_deduplicated: the exact order
  auto result = GenerateDynamicDimsOption(
      {Info("arg1", {-1, 8}, {{0, {1, 2}}}), Info("arg2", {-1, 8}, {{0, {10, 11, 10, 11}}})}, "product");
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(Option(*result, "ge.dynamicDims"), "1,11;2,10;2,11;1,10");
}

// gear:84-85, 98-104, 113-114 and the name sort of gear:87.
TEST(GeDynamicDims, OtherRules) {
  auto none = GenerateDynamicDimsOption({Info("arg0_1", {4, 8}, {})}, "zip");
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none->empty());
  // Gears on a dim that is not -1 (specialized) give no list.
  EXPECT_EQ(ErrorMessage(GenerateDynamicDimsOption({Info("arg0_1", {4, 8}, {{0, {4, 8}}})}, "zip")),
            "AssertionError: At least one dimension should have levels.");
  EXPECT_EQ(ErrorMessage(GenerateDynamicDimsOption({Info("arg0_1", {-1}, {{0, {4, 8}}})}, "ziplist")),
            "AssertionError: dynamic_gears_merge_policy only support zip and product.");
  // Python sorts str: "arg10_1" < "arg2_1"; a SymInt input has the shape [].
  auto sorted = GenerateDynamicDimsOption(
      {Info("arg2_1", {-1, 8}, {{0, {2, 4}}}), Info("arg10_1", {-1}, {{0, {6, 8}}}), Info("arg0_1", {}, {})}, "zip");
  ASSERT_TRUE(sorted.ok()) << sorted.status().message();
  EXPECT_EQ(Option(*sorted, "ge.inputShape"), "arg0_1:;arg10_1:-1;arg2_1:-1,8");
  EXPECT_EQ(Option(*sorted, "ge.dynamicDims"), "6,2;8,4");  // zip pairs arg10_1's list with arg2_1's
}

// Orders printed by CPython 3.11 for list(set(...)) (the resize at the 5th
// entry and the probing both show).
TEST(PythonHash, SetOrder) {
  std::vector<std::vector<int64_t>> product;
  for (int64_t a : {1, 2}) {
    for (int64_t b : {10, 11, 10, 11}) product.push_back({a, b});
  }
  std::vector<std::vector<int64_t>> expected = {{1, 11}, {2, 10}, {2, 11}, {1, 10}};
  EXPECT_EQ(PythonSetOrder(product), expected);
  // python3 -c 'print(list(set([(i,) for i in range(12)])))'
  std::vector<std::vector<int64_t>> singles;
  for (int64_t i = 0; i < 12; ++i) singles.push_back({i});
  std::vector<std::vector<int64_t>> got = PythonSetOrder(singles);
  std::vector<int64_t> firsts;
  for (const auto& t : got) firsts.push_back(t[0]);
  EXPECT_EQ(firsts, (std::vector<int64_t>{6, 2, 5, 11, 8, 4, 1, 7, 10, 0, 3, 9}));
}

}  // namespace
}  // namespace airscope
