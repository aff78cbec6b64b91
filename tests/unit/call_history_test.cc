// The call history a TORCH_LOGS text implies (repl/call_history.h), on the
// real logs under tests/data/torch_logs (sources in its README).
#include "repl/call_history.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

CallHistory FromFile(const std::string& name, const std::string& frame = "") {
  Result<TorchLogs> logs =
      LoadTorchLogsFile(std::string(AIRSCOPE_TEST_DATA) + "/torch_logs/" + name, uint64_t{1} << 30);
  EXPECT_TRUE(logs.ok()) << logs.status().message();
  Result<CallHistory> h = HistoryFromLogs(*logs, frame);
  EXPECT_TRUE(h.ok()) << h.status().message();
  return h.ok() ? *h : CallHistory{};
}

TEST(CallHistory, OneSizeRecompile) {
  // troubleshooting_recompile.log: 0/0 at x.size(0)=3, the call that recompiled passed 4.
  CallHistory h = FromFile("troubleshooting_recompile.log");
  EXPECT_EQ(h.frame, "0");
  ASSERT_EQ(h.calls.size(), 2u);
  EXPECT_EQ(h.calls[0].spec, "x=f32[3]");
  EXPECT_EQ(h.calls[1].spec, "x=f32[4]");
  EXPECT_TRUE(h.calls[0].assumed.empty());
  EXPECT_EQ(h.calls[1].observed, "compiled 0/1");
  EXPECT_EQ(h.logged_compiles, 2u);
  EXPECT_EQ(h.logged_eager, 0u);
  EXPECT_FALSE(h.logged_limit);
}

TEST(CallHistory, ConstantsUpToTheLimitThenEager) {
  // troubleshooting_recompiles_constants.log: eight entries at c = 1.5 ... 8.5
  // (their failures print each), then a call that missed all eight and ran eager.
  CallHistory h = FromFile("troubleshooting_recompiles_constants.log");
  EXPECT_EQ(h.frame, "0");
  ASSERT_EQ(h.calls.size(), 9u);
  EXPECT_EQ(h.calls[0].spec, "c=1.5");
  EXPECT_EQ(h.calls[7].spec, "c=8.5");
  EXPECT_TRUE(h.calls[7].assumed.empty());
  EXPECT_TRUE(h.calls[8].eager);
  // The eager call's value is never printed: one no entry has, and said so.
  EXPECT_EQ(h.calls[8].spec, "c=9.5");
  ASSERT_EQ(h.calls[8].assumed.size(), 1u);
  EXPECT_EQ(h.logged_compiles, 8u);
  EXPECT_EQ(h.logged_eager, 1u);
  EXPECT_EQ(h.logged_limit, 8u);
}

TEST(CallHistory, LimitWarningAloneAssumesTheEntriesBetween) {
  // troubleshooting_cache_limit.log: only the warning, 0/0 at x.size(0)=1, the eager call at 9.
  CallHistory h = FromFile("troubleshooting_cache_limit.log");
  ASSERT_EQ(h.calls.size(), 9u);
  EXPECT_EQ(h.calls[0].spec, "x=f32[1]");
  EXPECT_TRUE(h.calls[0].assumed.empty());
  EXPECT_EQ(h.calls[1].spec, "x=f32[2]");
  EXPECT_FALSE(h.calls[1].assumed.empty());
  EXPECT_EQ(h.calls[8].spec, "x=f32[9]");
  EXPECT_TRUE(h.calls[8].eager);
  EXPECT_FALSE(h.assumptions.empty());
}

TEST(CallHistory, ParameterSizesOfAnAttributeSource) {
  // troubleshooting_lr_scheduler.log: frame 3, a float attribute of self.
  CallHistory h = FromFile("troubleshooting_lr_scheduler.log");
  EXPECT_EQ(h.frame, "3");
  ASSERT_EQ(h.inputs.size(), 1u);
  EXPECT_EQ(h.inputs[0].name, "self_param_groups_0_lr");
  EXPECT_EQ(h.inputs[0].kind, HistoryInput::Kind::kScalar);
  EXPECT_EQ(h.calls[0].spec, "self_param_groups_0_lr=0.01");
}

TEST(CallHistory, GlobalStateIsNotFixable) {
  // issue123784_global_state.log: no compile id at all; the function names the frame.
  CallHistory h = FromFile("issue123784_global_state.log");
  EXPECT_EQ(h.frame, "fn");
  ASSERT_EQ(h.unfixable.size(), 1u);
  EXPECT_EQ(h.unfixable[0].kind, GuardFailure::Kind::kGlobalState);
  ASSERT_EQ(h.calls.size(), 2u);
  EXPECT_NE(h.calls[0].spec, h.calls[1].spec);
}

TEST(CallHistory, ObjectIdentityChurnIsNotFixableAndNamesItsSource) {
  // issue163329_check_obj_id.log: the stored copy starts inside [0/6]'s message, at its failures
  // of 0/3 to 0/0 (kept without the header), and holds [0/7]'s: eight entries.
  CallHistory h = FromFile("issue163329_check_obj_id.log");
  ASSERT_EQ(h.calls.size(), 8u);
  EXPECT_EQ(h.logged_compiles, 8u);
  ASSERT_EQ(h.unfixable.size(), 1u);
  EXPECT_EQ(h.unfixable[0].kind, GuardFailure::Kind::kObjectId);
  EXPECT_EQ(h.unfixable[0].source, "self._modules['attn'].processor");
  EXPECT_EQ(h.calls[5].spec, "self__modules_attn_processor_id=\"'id140576345760592'\"");
  // The cut message's failures give 0/0 its object id; only 0/4's is named by no failure.
  EXPECT_EQ(h.calls[0].evidence, "no message in the log: entry 0/0 is known from later failures");
  EXPECT_TRUE(h.calls[0].assumed.empty());
  EXPECT_EQ(h.calls[0].spec, "self__modules_attn_processor_id=\"'id140576340327440'\"");
  EXPECT_EQ(h.calls[4].evidence, "not in the log: a later compile id says entry 0/4 exists");
  EXPECT_FALSE(h.calls[4].assumed.empty());
}

TEST(CallHistory, AParametersSizeIsNotReplayedAsADynamicDim) {
  // dion23_recompile_limit.log: torch's "Guard failed on a parameter" hint on X[0].
  CallHistory h = FromFile("dion23_recompile_limit.log");
  ASSERT_EQ(h.unfixable.size(), 1u);
  EXPECT_TRUE(h.unfixable[0].parameter);
  EXPECT_EQ(h.unfixable[0].source, "X[0]");
  ASSERT_EQ(h.inputs.size(), 1u);
  EXPECT_EQ(h.inputs[0].kind, HistoryInput::Kind::kPseudo);
  EXPECT_EQ(h.logged_limit, 8u);
  ASSERT_EQ(h.calls.size(), 9u);
  EXPECT_TRUE(h.calls[8].eager);
  // fullgraph=True: the log's FailOnRecompileLimitHit says the call raised; the history says so.
  EXPECT_EQ(h.calls[8].observed, "raised FailOnRecompileLimitHit (fullgraph=True; replayed as an eager call)");
}

TEST(CallHistory, CreateSymbolLinesGiveTheValueOfTheCallThatCompiled) {
  // Constructed from the forms of real lines: pr130043_recompiles.log's message and
  // troubleshooting_dynamic.log's create_symbol line, put under compile 0/1 with glog prefixes.
  const char* text =
      "V0703 10:34:13.273000 140345997743104 torch/_dynamo/guards.py:2590] [0/1] [__recompiles] Recompiling "
      "function f in /data/users/ezyang/a/pytorch/b.py:3\n"
      "V0703 10:34:13.273000 140345997743104 torch/_dynamo/guards.py:2590] [0/1] [__recompiles]     triggered by "
      "the following guard failure(s):\n"
      "V0703 10:34:13.273000 140345997743104 torch/_dynamo/guards.py:2590] [0/1] [__recompiles]     - 0/0: tensor "
      "'L['x']' size mismatch at index 0. expected 4, actual 5\n"
      "V0703 10:34:13.280000 140345997743104 torch/fx/experimental/symbolic_shapes.py:3557] [0/1] create_symbol s0 = "
      "7 for L['y'].size()[1] [2, int_oo] at b.py:4 in f (_dynamo/variables/builder.py:2718 in <lambda>), for more "
      "info run with TORCHDYNAMO_EXTENDED_DEBUG_CREATE_SYMBOL=\"s0\"\n";
  TorchLogs logs = ParseTorchLogs(text, "dyn.log");
  ASSERT_EQ(logs.symbols.size(), 1u);
  Result<CallHistory> h = HistoryFromLogs(logs, "");
  ASSERT_TRUE(h.ok()) << h.status().message();
  ASSERT_EQ(h->calls.size(), 2u);
  // y.size(1) of the call that compiled 0/1 is printed; of 0/0's call it is not (a value of its own).
  EXPECT_EQ(h->calls[1].spec, "x=f32[5] y=f32[8,7]");
  EXPECT_TRUE(h->calls[1].assumed.empty());
  EXPECT_EQ(h->calls[0].spec, "x=f32[4] y=f32[8,2]");
  EXPECT_EQ(h->calls[0].assumed, std::vector<std::string>{"y.size(1)=2"});
}

TEST(CallHistory, NothingToReplay) {
  Result<TorchLogs> logs =
      LoadTorchLogsFile(std::string(AIRSCOPE_TEST_DATA) + "/torch_logs/troubleshooting_guards.log", uint64_t{1} << 30);
  ASSERT_TRUE(logs.ok());
  Result<CallHistory> h = HistoryFromLogs(*logs, "");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.status().message().find("nothing to replay"), std::string::npos);
  Result<CallHistory> other = HistoryFromLogs(
      *LoadTorchLogsFile(std::string(AIRSCOPE_TEST_DATA) + "/torch_logs/troubleshooting_recompile.log", 1 << 30), "7");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("no frame '7'"), std::string::npos);
}

}  // namespace
}  // namespace airscope
