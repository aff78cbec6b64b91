#include "core/dynamo/call_spec.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"

namespace airscope {
namespace {

TEST(CallSpecTest, ParsesDtypeSizesStridesDeviceGrad) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec("x=f32[2,2]@[2,1] y=bf16[4]:npu:1 grad z=i64[]:cpu");
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_EQ(inputs->size(), 3u);
  const CallInput& x = (*inputs)[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.dtype, DType::kFloat32);
  EXPECT_EQ(x.sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(x.strides, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(x.device, "npu:0");
  EXPECT_FALSE(x.requires_grad);
  EXPECT_EQ((*inputs)[1].device, "npu:1");
  EXPECT_TRUE((*inputs)[1].requires_grad);
  EXPECT_EQ((*inputs)[2].device, "cpu");
  EXPECT_TRUE((*inputs)[2].sizes.empty());
}

TEST(CallSpecTest, ContiguousStridesWhenNotStated) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec("x=f16[2,3,4]");
  ASSERT_TRUE(inputs.ok());
  EXPECT_EQ((*inputs)[0].strides, (std::vector<int64_t>{12, 4, 1}));
}

TEST(CallSpecTest, BuffersParametersAndKeepForTheAclGraphRuntime) {
  std::vector<SpecToken> tokens = {{"x=f32[4,", 1}, {"4]", 10}, {"in", 13},  {"buf1", 16}, {"w=f32[4]", 21},
                                   {"param", 30},   {"in", 36}, {"m.w", 39}, {"keep", 43}};
  Result<CallSpec> call = ParseCall(tokens);
  ASSERT_TRUE(call.ok()) << call.status().message();
  ASSERT_EQ(call->inputs.size(), 2u);
  EXPECT_EQ(call->inputs[0].buffer, "buf1");
  EXPECT_EQ(call->inputs[0].buffer_column, 16u);
  EXPECT_FALSE(call->inputs[0].parameter);
  EXPECT_EQ(call->inputs[1].buffer, "m.w");
  EXPECT_TRUE(call->inputs[1].parameter);
  EXPECT_TRUE(call->keep);
  EXPECT_EQ(call->keep_column, 43u);
  // The same flags mean nothing to guards: `guards check` parses the specs, but `keep` is a call's.
  Result<std::vector<CallInput>> specs = ParseCallSpec("x=f32[4] in buf1 param");
  ASSERT_TRUE(specs.ok());
  EXPECT_EQ((*specs)[0].header, (*ParseCallSpec("x=f32[4]"))[0].header);
  Result<std::vector<CallInput>> kept = ParseCallSpec("x=f32[4] keep");
  ASSERT_FALSE(kept.ok());
  EXPECT_NE(kept.status().message().find("column 10: 'keep' belongs to a call"), std::string::npos);
}

TEST(CallSpecTest, BufferSpellingErrors) {
  auto error = [](std::string_view text) {
    std::vector<SpecToken> tokens;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find(' ', pos);
      if (end == std::string_view::npos) end = text.size();
      tokens.push_back({text.substr(pos, end - pos), pos + 1});
      pos = end + 1;
    }
    Result<CallSpec> call = ParseCall(tokens);
    return call.ok() ? std::string("ok") : call.status().message();
  };
  EXPECT_EQ(error("in buf1 x=f32[4]"), "column 1: 'in' must follow an input spec (x=f32[2] in buf1)");
  EXPECT_EQ(error("x=f32[4] in"), "column 10: expected a buffer name after 'in' (x=f32[2] in buf1)");
  EXPECT_EQ(error("x=f32[4] in y=f32[4]"), "column 10: expected a buffer name after 'in' (x=f32[2] in buf1)");
  EXPECT_EQ(error("x=f32[4] in b-1"), "column 13: 'b-1' is not a buffer name (letters, digits, _ . @)");
  EXPECT_EQ(error("x=f32[4] in a in b"), "column 18: input 'x' is given two buffers");
  EXPECT_EQ(error("x=f32[4] keep keep"), "column 15: 'keep' given twice");
  EXPECT_EQ(error("x=f32[4] in x@3 keep"), "ok");
}

void ExpectError(std::string_view spec, std::string_view text) {
  Result<std::vector<CallInput>> inputs = ParseCallSpec(spec);
  ASSERT_FALSE(inputs.ok()) << spec;
  EXPECT_NE(inputs.status().message().find(text), std::string::npos) << inputs.status().message();
}

TEST(CallSpecTest, ErrorsPointAtTheToken) {
  ExpectError("x=f32[2,", "column 6: unterminated size list");
  ExpectError("x=f33[2]", "column 3: unknown dtype 'f33'");
  ExpectError("x=f32[2] y=f32[-3]", "column 16: negative size -3");
  ExpectError("x=f32[2]@[1,1]", "2 strides for 1 sizes");
  ExpectError("x=f32[2]:tpu", "column 10: unknown device 'tpu'");
  ExpectError("x=f32[2]junk", "column 9: unknown device 'junk'");  // torch's `f32[2]cpu` form
  ExpectError("x=f32[2]@[1]!", "column 13: unexpected '!'");
  ExpectError("grad", "column 1: 'grad' must follow");
  ExpectError("f32[2]", "expected NAME=SPEC");
  ExpectError("", "at least one input");
}

TEST(CallSpecTest, BindChecksNamesAndCount) {
  Result<std::unique_ptr<Graph>> graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 2]\", y: \"f32[2, 2]\"):\n"
      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, y)\n"
      "        return (add,)\n",
      "t.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto bind = [&](std::string_view spec) { return BindCallInputs(**graph, *ParseCallSpec(spec)); };
  Result<std::vector<CallInput>> ok = bind("y=f32[2,2] x=f32[2,2]");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[0].name, "x");  // placeholder order
  EXPECT_NE(bind("x=f32[2,2] z=f32[2]").status().message().find("column 12: no input named 'z' (the graph takes x, y)"),
            std::string::npos);
  EXPECT_NE(bind("x=f32[2,2]").status().message().find("missing input 'y'"), std::string::npos);
  EXPECT_NE(bind("x=f32[2,2] x=f32[2,2]").status().message().find("column 12: input 'x' given twice"),
            std::string::npos);
  // A rank-3 call of a graph traced at rank 2 was compiled as if it fitted (issue 12, item 11).
  EXPECT_EQ(bind("x=f32[2,2,2] y=f32[2,2]").status().message(),
            "column 1: input 'x' is f32[2, 2] in the graph (rank 2); a rank-3 tensor would be traced as another graph");
}

// What airscope and torch print is what `call` accepts (issue 12, item 11):
// `cache` shows `x=f32[8, 64]`, annotations `f32[8, 64][64, 1]npu:0`.
TEST(CallSpecTest, AcceptsTheSpellingsAirscopeAndTorchPrint) {
  auto one = [](std::string_view text) {
    Result<std::vector<CallInput>> parsed = ParseCallSpec(text);  // split at spaces, as the shell does
    EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
    return parsed.ok() ? parsed->front() : CallInput{};
  };
  for (std::string_view text :
       {"x=f32[8, 64]", "x = f32[8,64]", "x =f32[8, 64]", "x= f32[8,64]", "x=torch.float32[8,64]", "x=float32[8, 64]",
        "x=f32[8, 64][64, 1]npu:0", "x=f32[8,64]@[64, 1]:npu:0"}) {
    CallInput x = one(text);
    EXPECT_EQ(x.name, "x") << text;
    EXPECT_EQ(x.dtype, DType::kFloat32) << text;
    EXPECT_EQ(x.sizes, (std::vector<int64_t>{8, 64})) << text;
    EXPECT_EQ(x.strides, (std::vector<int64_t>{64, 1})) << text;
    EXPECT_EQ(x.device, "npu:0") << text;
  }
  EXPECT_TRUE(one("x=f32[2] requires_grad").requires_grad);
  EXPECT_TRUE(one("x=f32[2] requires_grad=True").requires_grad);
  EXPECT_FALSE(one("x=f32[2] requires_grad=False").requires_grad);
  EXPECT_EQ(one("x=f32[2, 2][2, 1]cpu").device, "cpu");
  // Columns still point into the line as typed.
  ExpectError("x=f32[8, -3]", "column 10: negative size -3");
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// Found by fuzz_call_spec: contiguous strides of huge sizes overflowed int64
// (undefined behaviour); now a clear error at the size that overflows the
// element count, from the one size check annotations use too (issue 29).
TEST(CallSpecFuzzRegression, HugeSizesAreAnErrorNotAnOverflow) {
  auto parsed = ParseCallSpec("x=f32[99999999999,99999999999,99999999999]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("column 19: f32[99999999999, 99999999999, 99999999999] has more elements "
                                           "than int64 counts"),
            std::string::npos)
      << parsed.status().message();
  auto meta = TensorMeta::ParseAnnotation("f32[99999999999, 99999999999, 99999999999]");
  ASSERT_FALSE(meta.ok());
  EXPECT_NE(meta.status().message().find("more elements than int64 counts"), std::string::npos);
}

}  // namespace
}  // namespace airscope

#include "repl/completion.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

TEST(CallSpecCompletionTest, CompletesInputsWithTheirTracedSpecs) {
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py").ok());
  EXPECT_EQ(Complete(shell.table, shell.session, "call ").candidates,
            (std::vector<std::string>{"arg0_1=f32[4,4]", "arg1_1=f32[4][1]cpu"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "call arg0_1=f32[4,4] ").candidates,
            (std::vector<std::string>{"arg1_1=f32[4][1]cpu", "grad"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "call arg1").candidates,
            (std::vector<std::string>{"arg1_1=f32[4][1]cpu"}));
}

TEST(CallSpecCompletionTest, ReduceOverheadAddsTheRuntimeFlagsAndBuffers) {
  testing_shell::TestShell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/aot_inplace_input.readable.py").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("set mode reduce-overhead").ok());
  EXPECT_EQ(Complete(shell.table, shell.session, "call arg0_1=f32[4,4] ").candidates,
            (std::vector<std::string>{"grad", "in", "keep", "param"}));
  // `guards check` takes specs but not a call's `keep`.
  EXPECT_EQ(Complete(shell.table, shell.session, "guards check arg0_1=f32[4,4] ").candidates,
            (std::vector<std::string>{"grad", "in", "param"}));
  ASSERT_TRUE(shell.interpreter.ExecuteLine("call arg0_1=f32[4,4] in buf1 keep").ok());
  EXPECT_EQ(Complete(shell.table, shell.session, "call arg0_1=f32[4,4] in ").candidates,
            (std::vector<std::string>{"buf1", "out1.0"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "drop o").candidates, (std::vector<std::string>{"out1.0"}));
}

}  // namespace
}  // namespace airscope
