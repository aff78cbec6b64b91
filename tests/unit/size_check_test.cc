// The one size check (core/ir/tensor_meta.h CheckTensorSize) in every reader
// and every shape a command takes, and the other wrong successes of issue 29
// item 5 that core decides: a readable `class` line of garbage, a
// decomposition template's $N past its op's arguments.
#include <gtest/gtest.h>

#include "core/dynamo/call_spec.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/ir/tensor_meta.h"
#include "core/ops/op_schema.h"
#include "core/pass/decomposition.h"

namespace airscope {
namespace {

std::string Error(const Status& status) { return status.ok() ? "ok" : status.message(); }

TEST(CheckTensorSize, RefusesNegativeSizesAndCountsPastInt64) {
  TensorMeta fits{DType::kFloat32, {Dim(4), Dim(64)}, {}, ""};
  EXPECT_TRUE(CheckTensorSize(fits).ok());
  TensorMeta negative{DType::kFloat32, {Dim(3), Dim(-1)}, {}, ""};
  size_t bad = 99;
  EXPECT_EQ(Error(CheckTensorSize(negative, &bad)), "negative size -1");
  EXPECT_EQ(bad, 1u);
  TensorMeta elements{DType::kFloat32, {Dim(int64_t{1} << 62), Dim(64)}, {}, ""};
  EXPECT_NE(Error(CheckTensorSize(elements, &bad)).find("more elements than int64 counts"), std::string::npos);
  EXPECT_EQ(bad, 1u);
  // 2^61 elements count; 2^64 bytes of f64 do not.
  TensorMeta bytes{DType::kFloat64, {Dim(int64_t{1} << 60), Dim(2)}, {}, ""};
  EXPECT_NE(Error(CheckTensorSize(bytes)).find("more bytes than int64 counts"), std::string::npos);
  TensorMeta symbolic{DType::kFloat32, {Dim::Symbol("s0"), Dim(8)}, {}, ""};
  EXPECT_TRUE(CheckTensorSize(symbolic).ok());
  TensorMeta zero{DType::kFloat32, {Dim(0), Dim(int64_t{1} << 62), Dim(1024)}, {}, ""};
  EXPECT_TRUE(CheckTensorSize(zero).ok());  // no elements, however wide the other dims
  // One stride per size: the views' inference indexes strides by dim.
  TensorMeta short_strides{DType::kFloat32, {Dim(3), Dim(4)}, {Dim(1)}, ""};
  EXPECT_EQ(Error(CheckTensorSize(short_strides, &bad)), "1 strides for 2 sizes");
  EXPECT_EQ(bad, 2u);
}

TEST(CheckTensorSize, AnnotationsRefuseNumbersPastInt64InsteadOfNamingSymbolsByThem) {
  size_t offset = 0;
  Result<TensorMeta> huge = TensorMeta::ParseAnnotation("f32[2, 9223372036854775808]", &offset);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("size 9223372036854775808 does not fit int64"), std::string::npos)
      << huge.status().message();
  EXPECT_EQ(offset, 7u);
  Result<TensorMeta> overflow = TensorMeta::ParseAnnotation("f32[4611686018427387904, 64]", &offset);
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.status().message().find("more elements than int64 counts"), std::string::npos);
  EXPECT_EQ(offset, 25u);  // at the 64 that overflowed the count
  EXPECT_FALSE(TensorMeta::ParseAnnotation("f32[2, 2][9223372036854775808, 1]").ok());
  EXPECT_TRUE(TensorMeta::ParseAnnotation("f32[s0, 4]").ok());
}

TEST(CheckTensorSize, ReadableCodeSaysWhereTheSizeIs) {
  Result<std::unique_ptr<Graph>> graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[9223372036854775808]\"):\n"
      "        neg: \"f32[9223372036854775808]\" = torch.ops.aten.neg.default(x)\n"
      "        return (neg,)\n",
      "big.py");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find("big.py:2:31: bad tensor annotation: size 9223372036854775808 does not "
                                          "fit int64"),
            std::string::npos)
      << graph.status().message();
}

TEST(CheckTensorSize, CallSpecsPointAtTheSize) {
  Result<std::vector<CallInput>> call = ParseCallSpec("x=f32[4611686018427387904,64]");
  ASSERT_FALSE(call.ok());
  EXPECT_NE(call.status().message().find("column 27: f32[4611686018427387904, 64] has more elements than int64"),
            std::string::npos)
      << call.status().message();
  Result<std::vector<CallInput>> bytes = ParseCallSpec("x=f64[1152921504606846976,2]");
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("more bytes than int64 counts"), std::string::npos);
  Result<std::vector<CallInput>> number = ParseCallSpec("x=f32[99999999999999999999]");
  ASSERT_FALSE(number.ok());
  EXPECT_NE(number.status().message().find("column 7: size 99999999999999999999 does not fit int64"), std::string::npos)
      << number.status().message();
  EXPECT_TRUE(ParseCallSpec("x=f32[1024,1024,1024]").ok());
}

std::string JsonWithSizes(std::string_view sizes) {
  return fmt::format(
      R"({{"format": "airscope-graph", "version": 1, "name": "g", "nodes": [
  {{"name": "x", "op": "placeholder", "target": "x", "args": [], "kwargs": [],
   "meta": {{"kind": "tensor", "source": "annotated", "tensors": [{{"dtype": "f32", "sizes": {}}}]}}}},
  {{"name": "output", "op": "output", "target": "output", "args": [{{"tuple": [{{"node": "x"}}]}}], "kwargs": []}}]}})",
      sizes);
}

TEST(CheckTensorSize, JsonRefusesStridesThatAreNotOnePerSize) {
  std::string json = JsonWithSizes("[3, 4]");
  json.replace(json.find("\"sizes\": [3, 4]"), 15, "\"sizes\": [3, 4], \"strides\": [1]");
  Result<std::unique_ptr<Graph>> graph = ParseGraphJson(json, "g.json");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find("meta.tensors[0].strides: 1 strides for 2 sizes"), std::string::npos)
      << graph.status().message();
}

TEST(CheckTensorSize, JsonRefusesNegativeAndOverflowingSizes) {
  ASSERT_TRUE(ParseGraphJson(JsonWithSizes("[3, 4]"), "g.json").ok());
  Result<std::unique_ptr<Graph>> negative = ParseGraphJson(JsonWithSizes("[3, -1]"), "g.json");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("negative -1"), std::string::npos) << negative.status().message();
  Result<std::unique_ptr<Graph>> overflow = ParseGraphJson(JsonWithSizes("[4611686018427387904, 64]"), "g.json");
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.status().message().find("more elements than int64 counts"), std::string::npos)
      << overflow.status().message();
}

TEST(ReadableClassLine, AGarbledClassNameIsRefusedWithACaret) {
  Result<std::unique_ptr<Graph>> graph = ParseReadable(
      "class Grap[...]Module(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2]\"):\n"
      "        return (x,)\n",
      "g.py");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find("g.py:1:11: 'Grap[...]Module' is not a class name"), std::string::npos)
      << graph.status().message();
  for (std::string_view name : {"GraphModule", "<lambda>", "f", "joint_helper_0"}) {
    std::string text = fmt::format(
        "class {}(torch.nn.Module):\n"
        "    def forward(self, x: \"f32[2]\"):\n"
        "        return (x,)\n",
        name);
    Result<std::unique_ptr<Graph>> ok = ParseReadable(text, "g.py");
    ASSERT_TRUE(ok.ok()) << name << ": " << ok.status().message();
    EXPECT_EQ(PrintReadable(**ok).substr(0, text.find('\n') + 1), text.substr(0, text.find('\n') + 1));
  }
}

TEST(DecompositionTemplate, AnArgumentPastTheSchemaIsRefusedWhereItIsWritten) {
  OpSchemaTable schemas = OpSchemaTable::Builtin();
  ASSERT_TRUE(schemas.Define("custom::one(Tensor x, *, int k=1) -> Tensor").ok());
  DecompositionTable table;
  Status refused =
      table.AddTemplate("custom.one.default", "aten.mul.Tensor($0, $5)", {.filename = {}, .line = 0}, &schemas);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("column 21: $5 is past the arguments of custom.one.default: its schema takes 1 "
                                   "positional ($0 to $0)"),
            std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("\n    aten.mul.Tensor($0, $5)\n" + std::string(4 + 20, ' ') + "^"),
            std::string::npos)
      << refused.message();
  EXPECT_EQ(table.Find("custom.one.default"), nullptr);
  bool unchecked = true;
  EXPECT_TRUE(table
                  .AddTemplate("custom.one.default", "aten.mul.Tensor($0, $0)", {.filename = {}, .line = 0}, &schemas,
                               &unchecked)
                  .ok());
  EXPECT_FALSE(unchecked);
  // No schema known (airscope keeps none of aten's): accepted, and the caller is told it went unchecked.
  EXPECT_TRUE(table
                  .AddTemplate("aten.silu.default", "aten.mul.Tensor($0, $5)", {.filename = {}, .line = 0}, &schemas,
                               &unchecked)
                  .ok());
  EXPECT_TRUE(unchecked);
}

}  // namespace
}  // namespace airscope
