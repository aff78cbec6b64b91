#include "core/fx/python_repr.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/ir/graph.h"

namespace airscope {
namespace {

TEST(AppendText, AppendsTheBytesAsTheyAre) {
  fmt::memory_buffer out;
  AppendText(out, "a");
  AppendText(out, "");
  AppendText(out, std::string_view("b\0c", 3));
  EXPECT_EQ(fmt::to_string(out), std::string("ab\0c", 4));
}

TEST(PythonFloatRepr, MatchesPythonRepr) {
  EXPECT_EQ(PythonFloatRepr(1e-05), "1e-05");
  EXPECT_EQ(PythonFloatRepr(0.1), "0.1");
  EXPECT_EQ(PythonFloatRepr(6.0), "6.0");
  EXPECT_EQ(PythonFloatRepr(0.5), "0.5");
  EXPECT_EQ(PythonFloatRepr(-2.5), "-2.5");
  EXPECT_EQ(PythonFloatRepr(0.0), "0.0");
  EXPECT_EQ(PythonFloatRepr(-0.0), "-0.0");
  EXPECT_EQ(PythonFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(PythonFloatRepr(1.5e-07), "1.5e-07");
  EXPECT_EQ(PythonFloatRepr(1e16), "1e+16");
  EXPECT_EQ(PythonFloatRepr(1e15), "1000000000000000.0");
  EXPECT_EQ(PythonFloatRepr(123456.789), "123456.789");
  EXPECT_EQ(PythonFloatRepr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(PythonFloatRepr(5e-324), "5e-324");
  EXPECT_EQ(PythonFloatRepr(0.17677669529663687), "0.17677669529663687");
  EXPECT_EQ(PythonFloatRepr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(PythonFloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(PythonFloatRepr(std::nan("")), "nan");
  EXPECT_EQ(PythonFloatRepr(1e100), "1e+100");
  EXPECT_EQ(PythonFloatRepr(2.5e-5), "2.5e-05");
}

TEST(PythonStringRepr, QuotesAndEscapes) {
  EXPECT_EQ(PythonStringRepr("tanh"), "'tanh'");
  EXPECT_EQ(PythonStringRepr("it's"), "\"it's\"");
  EXPECT_EQ(PythonStringRepr("a'b\"c"), "'a\\'b\"c'");
  EXPECT_EQ(PythonStringRepr("a\nb\\"), "'a\\nb\\\\'");
  EXPECT_EQ(PythonStringRepr(std::string("\x01", 1)), "'\\x01'");
  EXPECT_EQ(PythonStringRepr("héllo"), "'héllo'");
}

TEST(FormatFxArg, FollowsFormatArg) {
  EXPECT_EQ(FormatFxArg(Argument::None()), "None");
  EXPECT_EQ(FormatFxArg(Argument::Bool(true)), "True");
  EXPECT_EQ(FormatFxArg(Argument::Int(-3)), "-3");
  EXPECT_EQ(FormatFxArg(Argument::Float(1e-05)), "1e-05");
  EXPECT_EQ(FormatFxArg(Argument::String("tanh")), "tanh");
  EXPECT_EQ(FormatFxArg(Argument::List({Argument::Int(1), Argument::Int(2)})), "[1, 2]");
  EXPECT_EQ(FormatFxArg(Argument::Tuple({Argument::Int(1)})), "(1,)");
  EXPECT_EQ(FormatFxArg(Argument::Tuple({Argument::Int(1), Argument::Int(2)})), "(1, 2)");
  EXPECT_EQ(FormatFxArg(Argument::Tuple({})), "()");
  EXPECT_EQ(FormatFxArg(Argument::OfDType(DType::kFloat32)), "torch.float32");
  EXPECT_EQ(FormatFxArg(Argument::OfDevice({"cpu", -1})), "cpu");
  EXPECT_EQ(FormatFxArg(Argument::OfDevice({"npu", 0})), "npu:0");
  EXPECT_EQ(FormatFxArg(Argument::OfMemoryFormat(MemoryFormat::kContiguous)), "torch.contiguous_format");
  EXPECT_EQ(FormatFxArg(Argument::OfLayout(Layout::kStrided)), "torch.strided");
  EXPECT_EQ(FormatFxArg(Argument::Raw("<object at 0x1>")), "<object at 0x1>");
  EXPECT_EQ(FormatFxArg(Argument::Float(-std::numeric_limits<double>::infinity())), "-inf");
}

TEST(FormatArgs, NodesInBothDialects) {
  Graph g;
  NodeSpec spec;
  spec.op = OpKind::kPlaceholder;
  // std::string("x"), not = "x": GCC 12 at -O3 reports a false -Wrestrict
  // in the inlined assignment of a literal (GCC bug 105329).
  spec.target = std::string("x");
  spec.name = std::string("x");
  Node* x = *g.AppendNamed(spec);
  Argument list = Argument::List({Argument::NodeRef(x), Argument::String("a")});
  EXPECT_EQ(FormatFxArg(list), "[%x, a]");
  EXPECT_EQ(FormatPythonArg(list), "[x, 'a']");
  EXPECT_EQ(FormatPythonArg(Argument::Tuple({Argument::NodeRef(x)})), "(x,)");
}

TEST(FormatPythonArg, FollowsCodegen) {
  EXPECT_EQ(FormatPythonArg(Argument::String("tanh")), "'tanh'");
  EXPECT_EQ(FormatPythonArg(Argument::OfDevice({"cpu", -1})), "device(type='cpu')");
  EXPECT_EQ(FormatPythonArg(Argument::OfDevice({"cuda", 0})), "device(type='cuda', index=0)");
  EXPECT_EQ(FormatPythonArg(Argument::Float(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(FormatPythonArg(Argument::Float(std::nan(""))), "nan");
  EXPECT_EQ(FormatPythonArg(Argument::OfDType(DType::kFloat16)), "torch.float16");
  EXPECT_EQ(FormatPythonArg(Argument::List({Argument::String("_user_stream_label")})), "['_user_stream_label']");
  EXPECT_EQ(FormatPythonArg(Argument::Float(0.5)), "0.5");
}

}  // namespace
}  // namespace airscope
