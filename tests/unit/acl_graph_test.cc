// core/runtime: TorchAir's AclGraph runtime (python/torchair/_acl_concrete_graph/
// acl_graph.py at fced8842, "ag"). The graph key as ag:230-348 computes it
// (static, all-symbol, mixed, parameters with and without frozen_parameter,
// Python's hash), what the runtime reads off the compiled graph (mutated
// inputs gu:100-116, aliased outputs f2a:461-493, updated ops ag:463-513),
// and the per-call state machine: capture, hit, recapture on a moved mutated
// input, the capture limit and its eager fallback, mempool reuse across
// keys, clone_input copies, the outputs each replay returns, and a failed
// call leaving everything as it was.
#include <gtest/gtest.h>

#include "core/device/device_spec.h"
#include "core/fx/readable.h"
#include "core/runtime/acl_graph.h"
#include "tests/unit/graph_test_util.h"
#include "tests/unit/status_test_util.h"

namespace airscope {
namespace {

std::shared_ptr<const Graph> ParseRuntimeForward(const std::string& params, const std::string& body) {
  return testing_util::ParseForward(params, body, "runtime.py");
}

FxGraphInfo Analyze(const Graph& graph, std::vector<bool> parameters = {}) {
  return AnalyzeFxGraph(graph, parameters, OpRegistry::Builtin());
}

CallArg Tensor(std::vector<int64_t> sizes, uint64_t ptr = 0x101000000000) {
  CallArg a;
  a.sizes = sizes;
  a.data_ptr = ptr;
  return a;
}

CallArg Sym(int64_t value) {
  CallArg a;
  a.value = value;
  return a;
}

// ---- Python's hash, as CPython computes it (values printed by python3).

TEST(PythonHashTest, TuplesOfIntsHashAsCPython) {
  EXPECT_EQ(PythonTupleHash({}), 5740354900026072187);
  std::vector<int64_t> one_two_three = {1, 2, 3};
  EXPECT_EQ(PythonTupleHash(one_two_three), 529344067295497451);
  std::vector<int64_t> pointer = {0x101000000000};
  EXPECT_EQ(PythonTupleHash(pointer), 7451055819109337760);
  std::vector<int64_t> pointers = {0x101000000000, 0x101000000400};
  EXPECT_EQ(PythonTupleHash(pointers), 394893068221273799);
  // hash(-1) is -2, and ints past 2**61-1 wrap as Python's modulus does.
  std::vector<int64_t> minus_one = {-1};
  EXPECT_EQ(PythonTupleHash(minus_one), 8078679518589016365);
  std::vector<int64_t> big = {int64_t{1} << 61};
  EXPECT_EQ(PythonTupleHash(big), -6644214454873602895);
  std::vector<int64_t> mixed = {-5, int64_t{1} << 62};
  EXPECT_EQ(PythonTupleHash(mixed), 7531859326365654451);
}

// ---- The graph key (ag:230-278) from unupdated_sym_input_index (ag:281-348).

TEST(GraphKeyTest, StaticGraphHasOneKeyForEveryCall) {
  auto g = ParseRuntimeForward(
      "arg0_1: \"f32[4, 4]\", arg1_1: \"f32[4, 4]\"",
      "        add: \"f32[4, 4]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n");
  FxGraphInfo info = Analyze(*g);
  EXPECT_TRUE(info.unupdated_sym_input_index.empty());
  EXPECT_TRUE(info.is_static());
  std::vector<CallArg> args = {Tensor({4, 4}, 0x101000000000), Tensor({4, 4}, 0x101000000400)};
  EXPECT_EQ(GraphKey(info, args, false), "no_updated_input");
  args[0].data_ptr = 0x101000000800;  // another buffer: still the same key (no parameters)
  EXPECT_EQ(GraphKey(info, args, false), "no_updated_input");
}

TEST(GraphKeyTest, SymIntInputsMakeAnAllSymbolKey) {
  // AOT's graph of a dynamic input: the SymInt first, then the tensor (`arg0_1: "Sym(s0)"`).
  auto g = ParseRuntimeForward(
      "arg0_1: \"Sym(s0)\", arg1_1: \"f32[s0, 3]\"",
      "        mul: \"f32[s0, 3]\" = torch.ops.aten.mul.Tensor(arg1_1, 2)\n        return (mul,)\n");
  FxGraphInfo info = Analyze(*g);
  // arg0_1 has no user: skipped; arg1_1's dim s0 is arg0_1's symbol -> (0, True).
  ASSERT_EQ(info.unupdated_sym_input_index.size(), 1u);
  EXPECT_EQ(info.unupdated_sym_input_index[0], (UnupdatedInput{0, true}));
  std::vector<CallArg> args = {Sym(4), Tensor({4, 3})};
  EXPECT_EQ(GraphKey(info, args, false), "[4]");
  args = {Sym(16), Tensor({16, 3})};
  EXPECT_EQ(GraphKey(info, args, false), "[16]");
}

TEST(GraphKeyTest, DynamoLiftsTheSymbolsOfTensorShapes) {
  // airscope's entries keep symbols in the tensor shapes only: the SymInt
  // Dynamo would pass comes first, once per symbol (duck sizing shares s0).
  auto g = ParseRuntimeForward(
      "arg0_1: \"f32[s0, 3]\", arg1_1: \"f32[s0, 3]\"",
      "        add: \"f32[s0, 3]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n");
  FxGraphInfo info = Analyze(*g);
  ASSERT_EQ(info.inputs.size(), 3u);
  EXPECT_TRUE(info.inputs[0].lifted);
  EXPECT_EQ(info.inputs[0].symbol, "s0");
  EXPECT_EQ(info.inputs[1].name, "arg0_1");
  EXPECT_EQ(info.inputs[1].placeholder, 0u);
  EXPECT_EQ(info.InputOfPlaceholder(1), 2u);
  ASSERT_EQ(info.unupdated_sym_input_index.size(), 1u);
  EXPECT_EQ(info.unupdated_sym_input_index[0], (UnupdatedInput{0, true}));
  // BindCallArgs gives the lifted symbol its value from the first dim that has it.
  DeviceBuffers buffers;
  CachingAllocator memory(int64_t{1} << 30);
  ASSERT_OK_AND_ASSIGN(uint32_t a, buffers.NewStorage(memory, kDefaultPool, 96, "a"));
  ASSERT_OK_AND_ASSIGN(uint32_t b, buffers.NewStorage(memory, kDefaultPool, 96, "b"));
  TensorMeta m;
  m.dtype = DType::kFloat32;
  m.sizes = {Dim(8), Dim(3)};
  Result<std::vector<CallArg>> args = BindCallArgs(info, {m, m}, {a, b}, buffers);
  ASSERT_TRUE(args.ok()) << args.status().message();
  EXPECT_EQ((*args)[0].value, 8);
  EXPECT_EQ((*args)[2].data_ptr, buffers.storage(b).address);
  EXPECT_EQ(GraphKey(info, *args, false), "[8]");
}

TEST(GraphKeyTest, ASymbolNoSymIntStandsForMakesAMixedKey) {
  // s1 is an input; 2*s0 is not one, so arg1_1 enters as (1, False): its whole shape.
  auto g = ParseRuntimeForward(
      "arg0_1: \"Sym(s1)\", arg1_1: \"f32[2*s0, 3]\"",
      "        mul: \"f32[2*s0, 3]\" = torch.ops.aten.mul.Tensor(arg1_1, arg0_1)\n        return (mul,)\n");
  FxGraphInfo info = Analyze(*g);
  ASSERT_EQ(info.unupdated_sym_input_index.size(), 2u);
  EXPECT_EQ(info.unupdated_sym_input_index[0], (UnupdatedInput{0, true}));
  EXPECT_EQ(info.unupdated_sym_input_index[1], (UnupdatedInput{1, false}));
  std::vector<CallArg> args = {Sym(5), Tensor({8, 3})};
  EXPECT_EQ(GraphKey(info, args, false), "[5, [8, 3]]");
}

TEST(GraphKeyTest, AnInputUsedOnlyAsAnUpdatedParamStaysOutOfTheKey) {
  // actual_seq_lengths of npu_fused_infer_attention_score.out is updated on each
  // replay (_REPLACE_FUNC_MAP, ag:100-109), not captured per value.
  auto g = ParseRuntimeForward(
      "arg0_1: \"Sym(s0)\", arg1_1: \"f16[1, 8, 16, 64]\"",
      "        out: \"f16[1, 8, 16, 64]\" = torch.ops.npu.npu_fused_infer_attention_score.out(arg1_1, arg1_1, "
      "arg1_1, actual_seq_lengths = [arg0_1])\n        return (out,)\n");
  FxGraphInfo info = Analyze(*g);
  EXPECT_TRUE(info.unupdated_sym_input_index.empty());
  ASSERT_EQ(info.updated_nodes.size(), 1u);  // TorchAir's "updated node num"
  // The same input used by an ordinary op is part of the key again.
  auto h = ParseRuntimeForward(
      "arg0_1: \"Sym(s0)\", arg1_1: \"f16[1, 8, 16, 64]\"",
      "        mul: \"f16[1, 8, 16, 64]\" = torch.ops.aten.mul.Tensor(arg1_1, arg0_1)\n        return (mul,)\n");
  EXPECT_EQ(Analyze(*h).unupdated_sym_input_index.size(), 1u);
}

TEST(GraphKeyTest, ParameterAddressesJoinTheKeyUnlessFrozen) {
  auto g = ParseRuntimeForward(
      "arg0_1: \"f32[4]\", arg1_1: \"f32[8, 4]\"",
      "        add: \"f32[8, 4]\" = torch.ops.aten.add.Tensor(arg1_1, arg0_1)\n        return (add,)\n");
  FxGraphInfo info = Analyze(*g, {true, false});
  EXPECT_TRUE(info.inputs[0].parameter);
  EXPECT_FALSE(info.inputs[1].parameter);
  std::vector<CallArg> args = {Tensor({4}, 0x101000000000), Tensor({8, 4}, 0x101000000400)};
  // "no_updated_input" + str(hash((data_ptr,))) (ag:270-276); python3: hash((0x101000000000,)).
  EXPECT_EQ(GraphKey(info, args, false), "no_updated_input7451055819109337760");
  EXPECT_EQ(GraphKey(info, args, true), "no_updated_input");
  args[0].data_ptr = 0x101000000800;  // the parameter moved: another key
  EXPECT_NE(GraphKey(info, args, false), "no_updated_input7451055819109337760");
  args[1].data_ptr = 0x101000001000;  // a user input moving changes nothing
  std::vector<CallArg> before = {Tensor({4}, 0x101000000800), Tensor({8, 4})};
  EXPECT_EQ(GraphKey(info, args, false), GraphKey(info, before, false));
}

// ---- What the runtime reads off the graph.

TEST(FxGraphInfoTest, MutatedInputsAsFindMutatedUserInputsFindsThem) {
  // The copy_ epilogue and an in-place op on a placeholder (name ends in "_"), gu:100-116.
  auto g = ParseRuntimeForward("arg0_1: \"f32[4]\", arg1_1: \"f32[4]\", arg2_1: \"f32[4]\"",
                               "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
                               "        mul_: \"f32[4]\" = torch.ops.aten.mul_.Tensor(arg2_1, 2)\n"
                               "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
                               "        return (add, arg1_1)\n");
  FxGraphInfo info = Analyze(*g);
  EXPECT_EQ(info.mutated_user_inputs, (std::vector<std::string>{"arg2_1", "arg0_1"}));
  EXPECT_TRUE(info.inputs[0].mutated);
  EXPECT_FALSE(info.inputs[1].mutated);
  // arg1_1 is returned as it is: output 1 aliases it (userinput_ref_with_output, f2a:461-493).
  EXPECT_EQ(info.inputs[1].aliased_by_outputs, (std::vector<size_t>{1}));
  EXPECT_EQ(info.outputs[1].aliases_input, 1);
  EXPECT_EQ(info.outputs[0].aliases_input, -1);
}

TEST(FxGraphInfoTest, MultiInplaceNpuOpsMutateTheirRegisteredArgs) {
  auto g = ParseRuntimeForward("arg0_1: \"f32[4]\", arg1_1: \"f32[4]\", arg2_1: \"f32[4]\"",
                               "        r = torch.ops.npu.npu_add_rms_norm_v2.default(arg0_1, arg1_1, arg2_1)\n"
                               "        getitem: \"f32[4]\" = operator.getitem(r, 0)\n"
                               "        return (getitem,)\n");
  FxGraphInfo info = Analyze(*g);
  EXPECT_EQ(info.mutated_user_inputs, (std::vector<std::string>{"arg0_1", "arg1_1"}));
  EXPECT_EQ(info.outputs[0].base, "r");  // a getitem of a multi-output op lives in the op's memory
}

// ---- The runtime.

class AclGraphTest : public ::testing::Test {
 protected:
  AclGraphTest() : device_(*DevicePreset("ascend-910b")) {}

  void Make(const std::shared_ptr<const Graph>& graph, std::vector<bool> parameters = {}) {
    graph_ = std::make_unique<AclGraph>("graph_1", graph, Analyze(*graph, parameters), config_);
  }

  // A storage the caller holds under `name`, made when new.
  uint32_t Buffer(const std::string& name, int64_t bytes) {
    if (const Handle* h = buffers_.Find(name)) return h->storage;
    uint32_t s = *buffers_.NewStorage(device_.allocator(), kDefaultPool, bytes, name);
    Handle h;
    h.name = name;
    h.storage = s;
    h.bytes = bytes;
    EXPECT_TRUE(buffers_.Add(h).ok());
    return s;
  }

  // Calls with one tensor per placeholder: `sizes[i]` in buffer `where[i]`.
  Result<CallReport> Call(const std::vector<std::vector<int64_t>>& sizes, const std::vector<std::string>& where,
                          bool keep = false) {
    std::vector<TensorMeta> metas;
    std::vector<uint32_t> storages;
    for (size_t i = 0; i < sizes.size(); ++i) {
      TensorMeta m;
      m.dtype = DType::kFloat32;
      for (int64_t s : sizes[i]) m.sizes.emplace_back(s);
      int64_t bytes = m.NumBytes().value_or(0);
      metas.push_back(m);
      storages.push_back(Buffer(where[i], bytes));
    }
    Result<std::vector<CallArg>> args = BindCallArgs(graph_->info(), metas, storages, buffers_);
    if (!args.ok()) return args.status();
    CallEnv env{device_, buffers_, OpRegistry::Builtin(), buffers_.NextCall(), keep, &warned_, limits_};
    Result<CallReport> report = graph_->Call(*args, env);
    if (report.ok()) buffers_.EndCall(device_.allocator(), env.call);
    return report;
  }

  static bool Says(const CallReport& r, const std::string& text) {
    for (const RuntimeLine& line : r.lines) {
      if (line.text.find(text) != std::string::npos) return true;
    }
    return false;
  }

  SimDevice device_;
  DeviceBuffers buffers_;
  AclGraphConfig config_;
  bool warned_ = false;
  StreamCoreLimits limits_{24, 48};  // the calling stream's core limits
  std::unique_ptr<AclGraph> graph_;
};

const char* kAddBody =
    "        add: \"f32[s0, 64]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n";

TEST_F(AclGraphTest, AStaticGraphIsCapturedOnceAndReplayedEveryCall) {
  Make(ParseRuntimeForward(
      "arg0_1: \"f32[4, 64]\", arg1_1: \"f32[4, 64]\"",
      "        add: \"f32[4, 64]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n"));
  Result<CallReport> first = Call({{4, 64}, {4, 64}}, {"x", "y"});
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->action, CallReport::Action::kCapture);
  EXPECT_EQ(first->key, "no_updated_input");
  EXPECT_TRUE(Says(*first,
                   "No find captured AclGraph{id: 1} of fx_graph graph_1 with graph key {no_updated_input}, "
                   "and start to capture it."));
  for (int i = 0; i < 3; ++i) {
    Result<CallReport> next = Call({{4, 64}, {4, 64}}, {"x", "y"});
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(next->action, CallReport::Action::kReplay);
    EXPECT_TRUE(Says(*next, "Find captured AclGraph{id: 1} of fx_graph graph_1 with graph key {no_updated_input}."));
    EXPECT_EQ(next->input_copies, 2u);  // clone_input: every user input, every call (ag:1316-1324)
  }
  EXPECT_EQ(graph_->stats().captures, 1u);
  EXPECT_EQ(graph_->stats().replays, 4u);  // the capturing call replays too (ag:839-845)
  EXPECT_EQ(graph_->stats().hits, 3u);
  ASSERT_EQ(device_.captured().size(), 1u);
  EXPECT_FALSE(device_.captured()[0].owns_pool);
  EXPECT_EQ(device_.captured()[0].pool, graph_->pool());
}

TEST_F(AclGraphTest, WithoutCloneInputOnlyMovedInputsAreCopied) {
  config_.clone_input = false;
  Make(ParseRuntimeForward(
      "arg0_1: \"f32[4, 64]\", arg1_1: \"f32[4, 64]\"",
      "        add: \"f32[4, 64]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n"));
  ASSERT_TRUE(Call({{4, 64}, {4, 64}}, {"x", "y"}).ok());
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x", "y"})->input_copies, 0u);
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x2", "y"})->input_copies, 1u);  // ag:1326-1335
  // The captured inputs are the caller's own, kept alive by TorchAir (retained_userinputs).
  uint32_t x = buffers_.Find("x")->storage;
  ASSERT_TRUE(buffers_.Drop(device_.allocator(), "x").ok());
  EXPECT_FALSE(buffers_.storage(x).freed());
}

TEST_F(AclGraphTest, AMovedMutatedInputRecaptures) {
  Make(ParseRuntimeForward("arg0_1: \"f32[4]\"",
                           "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
                           "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
                           "        return (add,)\n"));
  ASSERT_TRUE(Call({{4}}, {"a"}).ok());
  Result<CallReport> same = Call({{4}}, {"a"});
  EXPECT_EQ(same->action, CallReport::Action::kReplay);
  EXPECT_EQ(same->input_copies, 0u);  // a mutated input is written in place, never staged
  Result<CallReport> moved = Call({{4}}, {"b"});
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->action, CallReport::Action::kRecapture);
  EXPECT_TRUE(Says(*moved,
                   "The current AclGraph needs to be recaptured for fx_graph graph_1 with graph key "
                   "{no_updated_input}."));
  EXPECT_TRUE(Says(*moved, "count of recaptures caused by mutated inputs changed is 1"));
  EXPECT_EQ(graph_->stats().recaptures_mutated, 1u);
  EXPECT_EQ(graph_->graphs_meta().size(), 1u);
  EXPECT_EQ(device_.captured().size(), 1u);  // the old graph was reset
  EXPECT_EQ(graph_->graphs_meta()[0].capture, 2);
}

// torch.npu.set_stream_limit between calls (ag:1375-1385): the key's saved
// limits differ from the calling stream's, so the graph is captured again.
TEST_F(AclGraphTest, ChangedStreamCoreLimitsRecapture) {
  Make(ParseRuntimeForward("arg0_1: \"f32[4]\"",
                           "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n        return (add,)\n"));
  limits_ = {2, 3};
  ASSERT_TRUE(Call({{4}}, {"a"}).ok());
  EXPECT_EQ(graph_->graphs_meta()[0].captured_limits, (StreamCoreLimits{2, 3}));
  EXPECT_EQ(Call({{4}}, {"a"})->action, CallReport::Action::kReplay);
  limits_ = {4, 5};
  Result<CallReport> changed = Call({{4}}, {"a"});
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed->action, CallReport::Action::kRecapture);
  EXPECT_TRUE(Says(*changed, "count of recaptures caused by global limit changed is 1"));
  EXPECT_EQ(graph_->stats().recaptures_core_limit, 1u);
  EXPECT_EQ(graph_->stats().recaptures_mutated, 0u);
  EXPECT_EQ(graph_->graphs_meta()[0].captured_limits, (StreamCoreLimits{4, 5}));
  EXPECT_EQ(Call({{4}}, {"a"})->action, CallReport::Action::kReplay);
}

TEST_F(AclGraphTest, TheLimitFallsBackToEagerAndReleasesEveryCapture) {
  config_.static_capture_size_limit = 2;
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x4", "y4"})->key, "[4]");
  EXPECT_EQ(Call({{8, 64}, {8, 64}}, {"x8", "y8"})->key, "[8]");
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x4", "y4"})->action, CallReport::Action::kReplay);
  PoolId pool = graph_->pool();
  Result<CallReport> third = Call({{16, 64}, {16, 64}}, {"x16", "y16"});
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->action, CallReport::Action::kEager);
  EXPECT_EQ(third->key, "fallback_to_eager");
  EXPECT_TRUE(Says(*third,
                   "The static_capture_size_limit reached when capturing fx_graph graph_1 with graph key "
                   "[16], we will fall back to eager for all subsequent executions."));
  EXPECT_TRUE(graph_->fallback_to_eager());
  EXPECT_TRUE(graph_->graphs_meta().empty());
  EXPECT_TRUE(device_.captured().empty());
  EXPECT_FALSE(device_.allocator().HasPool(pool));
  EXPECT_EQ(third->run.mode, "eager");
  // For good: a key captured before runs eagerly too.
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x4", "y4"})->action, CallReport::Action::kEager);
  EXPECT_EQ(graph_->stats().eager_runs, 2u);
}

// npugraph_ex's copy of AclGraph: its logger and line numbers, and its
// capture_limit wording (nxag:989-999).
TEST_F(AclGraphTest, NpugraphExSaysTheLimitInItsOwnWordsAndLines) {
  config_.npugraph_ex = true;
  config_.static_capture_size_limit = 1;
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  Result<CallReport> first = Call({{4, 64}, {4, 64}}, {"x4", "y4"});
  ASSERT_TRUE(first.ok());
  bool logged_as_npugraph_ex = false;
  for (const RuntimeLine& line : first->lines) {
    if (line.text.starts_with("Success to capture")) {
      logged_as_npugraph_ex = line.source == RuntimeLine::Source::kNpugraphEx && line.where == "acl_graph.py:1233";
    }
  }
  EXPECT_TRUE(logged_as_npugraph_ex);
  EXPECT_TRUE(Says(*first, "and count of recaptures caused by force_recapture is 0"));
  Result<CallReport> second = Call({{8, 64}, {8, 64}}, {"x8", "y8"});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->action, CallReport::Action::kEager);
  EXPECT_TRUE(Says(*second, "The capture_limit reached when capturing fx_graph graph_1 with graph key [8]"));
  EXPECT_TRUE(Says(*second, "consider increasing capture_limit to an appropriate value."));
  EXPECT_FALSE(Says(*second, "static_capture_size_limit"));
}

TEST_F(AclGraphTest, ForceRecaptureRecapturesEveryCallOfAKey) {
  config_.npugraph_ex = true;
  config_.force_recapture = true;
  Make(ParseRuntimeForward(
      "arg0_1: \"f32[4, 64]\", arg1_1: \"f32[4, 64]\"",
      "        add: \"f32[4, 64]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n"));
  EXPECT_EQ(Call({{4, 64}, {4, 64}}, {"x", "y"})->action, CallReport::Action::kCapture);
  for (int i = 1; i <= 2; ++i) {
    Result<CallReport> again = Call({{4, 64}, {4, 64}}, {"x", "y"});
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->action, CallReport::Action::kRecapture);
    EXPECT_TRUE(Says(*again, fmt::format("and count of recaptures caused by force_recapture is {}", i)));
  }
  EXPECT_EQ(graph_->stats().recaptures_forced, 2u);
  EXPECT_EQ(graph_->stats().recaptures(), 2u);
  EXPECT_EQ(graph_->stats().recaptures_mutated, 0u);
  EXPECT_EQ(device_.captured().size(), 1u);  // each recapture resets the old graph
}

TEST_F(AclGraphTest, ForceEagerNeverCapturesNorMakesAPool) {
  config_.npugraph_ex = true;
  config_.force_eager = true;
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  Result<CallReport> first = Call({{4, 64}, {4, 64}}, {"x4", "y4"});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->action, CallReport::Action::kEager);
  EXPECT_EQ(first->key, "");
  EXPECT_TRUE(Says(*first, "When force_eager=True is enabled, the graph FALLS BACK to EAGER execution."));
  Result<CallReport> second = Call({{8, 64}, {8, 64}}, {"x8", "y8"});
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(Says(*second, "When force_eager=True"));  // the compiler's warning, once
  EXPECT_EQ(graph_->pool(), 0u);
  EXPECT_TRUE(device_.captured().empty());
  EXPECT_EQ(graph_->stats().eager_runs, 2u);
  EXPECT_TRUE(graph_->stats().keys.empty());
}

// Whether any range graph `b` writes overlaps graph `a`'s output 0.
bool WritesOverOutput(const DeviceBuffers& buffers, const GraphMeta& a, const GraphMeta& b) {
  const Storage& out = buffers.storage(static_cast<uint32_t>(a.output_storage[0]));
  for (const auto& [address, bytes] : b.writes) {
    if (out.Overlaps(address, bytes)) return true;
  }
  return false;
}

TEST_F(AclGraphTest, KeysShareTheMempoolUnlessReuseIsDisabled) {
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  ASSERT_TRUE(Call({{4, 64}, {4, 64}}, {"x4", "y4"}).ok());
  ASSERT_TRUE(Call({{8, 64}, {8, 64}}, {"x8", "y8"}).ok());
  const auto& metas = graph_->graphs_meta();
  ASSERT_EQ(metas.size(), 2u);
  // The second capture started from the pool's state before the first
  // (ag:1117-1130): it writes where the first key's output is.
  EXPECT_TRUE(WritesOverOutput(buffers_, metas[0], metas[1]));
  EXPECT_FALSE(metas[1].retained_outputs);  // ag:1149-1151
  int64_t shared = device_.allocator().Stats(graph_->pool()).peak_allocated;

  config_.disable_mempool_reuse_in_same_fx = true;
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  ASSERT_TRUE(Call({{4, 64}, {4, 64}}, {"x4", "y4"}).ok());
  ASSERT_TRUE(Call({{8, 64}, {8, 64}}, {"x8", "y8"}).ok());
  const auto& apart = graph_->graphs_meta();
  EXPECT_FALSE(WritesOverOutput(buffers_, apart[0], apart[1]));
  EXPECT_TRUE(apart[1].retained_outputs);
  EXPECT_GT(device_.allocator().Stats(graph_->pool()).peak_allocated, shared);
}

TEST_F(AclGraphTest, OneKeyReturnsTheSameOutputsAndAKeptOneIsOverwritten) {
  Make(ParseRuntimeForward(
      "arg0_1: \"f32[4, 64]\", arg1_1: \"f32[4, 64]\"",
      "        add: \"f32[4, 64]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n        return (add,)\n"));
  Result<CallReport> kept = Call({{4, 64}, {4, 64}}, {"x", "y"}, /*keep=*/true);
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->outputs, (std::vector<std::string>{"out1.0"}));
  Result<CallReport> next = Call({{4, 64}, {4, 64}}, {"x", "y"});
  ASSERT_TRUE(next.ok());
  // The same memory (ag:1402-1432) ...
  EXPECT_EQ(buffers_.Find("out1.0")->storage, buffers_.Find("out2.0")->storage);
  // ... so the kept output was overwritten, and the call says so.
  bool warned = false;
  for (const RuntimeLine& line : next->lines) {
    warned = warned || (line.source == RuntimeLine::Source::kWarning && line.text.starts_with("out1.0"));
  }
  EXPECT_TRUE(warned);
  // Outputs not kept are let go once the next call returns; no warning for them.
  Result<CallReport> third = Call({{4, 64}, {4, 64}}, {"x", "y"});
  EXPECT_EQ(buffers_.Find("out2.0"), nullptr);
  for (const RuntimeLine& line : third->lines) EXPECT_FALSE(line.text.starts_with("out2.0"));
}

TEST_F(AclGraphTest, SeveralKeysReconstructOutputsWithTheOneTimeWarning) {
  Make(ParseRuntimeForward("arg0_1: \"f32[s0, 64]\", arg1_1: \"f32[s0, 64]\"", kAddBody));
  ASSERT_TRUE(Call({{4, 64}, {4, 64}}, {"x4", "y4"}).ok());
  Result<CallReport> second = Call({{8, 64}, {8, 64}}, {"x8", "y8"});
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(Says(*second, "Because acl graph fixes memory addresses"));
  EXPECT_TRUE(warned_);
  Result<CallReport> third = Call({{4, 64}, {4, 64}}, {"x4", "y4"});
  EXPECT_FALSE(Says(*third, "Because acl graph fixes memory addresses"));  // filtered after its first showing
}

TEST_F(AclGraphTest, FrozenParameterReadsAMovedParameterWhereItWas) {
  config_.frozen_parameter = true;
  Make(ParseRuntimeForward(
           "arg0_1: \"f32[64]\", arg1_1: \"f32[4, 64]\"",
           "        add: \"f32[4, 64]\" = torch.ops.aten.add.Tensor(arg1_1, arg0_1)\n        return (add,)\n"),
       {true, false});
  EXPECT_EQ(Call({{64}, {4, 64}}, {"w", "x"})->key, "no_updated_input");
  Result<CallReport> moved = Call({{64}, {4, 64}}, {"w2", "x"});
  EXPECT_EQ(moved->action, CallReport::Action::kReplay);
  bool warned = false;
  for (const RuntimeLine& line : moved->lines) {
    warned = warned || (line.source == RuntimeLine::Source::kWarning && line.text.starts_with("parameter arg0_1"));
  }
  EXPECT_TRUE(warned);
  // Dropping the parameter's buffer frees memory the graph still reads.
  uint32_t w = buffers_.Find("w")->storage;
  ASSERT_TRUE(buffers_.Drop(device_.allocator(), "w").ok());
  EXPECT_EQ(graph_->BakedAddressWarnings(buffers_, w, true).size(), 1u);
  // A new buffer of that size lands at the freed address: named too.
  uint32_t again = Buffer("w3", 256);
  EXPECT_EQ(buffers_.storage(again).address, buffers_.storage(w).address);
  EXPECT_EQ(graph_->BakedAddressWarnings(buffers_, again, false).size(), 1u);
}

TEST_F(AclGraphTest, AFailedCaptureLeavesEverythingAsItWas) {
  // A .item() synchronizes the host: the capture is refused.
  Make(ParseRuntimeForward("arg0_1: \"f32[4]\"",
                           "        _local_scalar_dense = torch.ops.aten._local_scalar_dense.default(arg0_1)\n"
                           "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
                           "        return (add,)\n"));
  Buffer("a", 16);
  CachingAllocator::Layout before = device_.allocator().PoolLayout(kDefaultPool);
  size_t handles = buffers_.handles().size();
  Result<CallReport> r = Call({{4}}, {"a"});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(device_.captured().empty());
  EXPECT_EQ(graph_->stats().calls, 0u);
  EXPECT_EQ(graph_->pool(), 0u);
  EXPECT_EQ(device_.allocator().Pools().size(), 1u);  // no mempool left behind
  EXPECT_EQ(device_.allocator().PoolLayout(kDefaultPool), before);
  EXPECT_EQ(buffers_.handles().size(), handles);
}

}  // namespace
}  // namespace airscope
