// TorchAir's AOT decomposition table (get_npu_default_decompositions,
// torchair/_utils/__init__.py:455-464), applied while tracing as make_fx
// applies a decomposition: the op is replaced by the ops its function calls.
//  - npu_define.allgather.default -> allgather_decomposition
//    (ge_converter/experimental/hcom_allgather.py:236-246). With every output
//    tensor of one size (check_same_size, allgather_in_same_size, :195-221): cat of group_size
//    copies of the input (dim 0), npu_define.allgather_in_tensor(cat, input,
//    tag, ranks, group_size), split_with_sizes by input.shape[0] (Tensor.split
//    with a list), and each piece reshaped (a view) to its output's size.
//    Outputs of different sizes need the process's rank
//    (allgather_in_different_size): not modelled.
//  - _c10d_functional.all_to_all_single.default ->
//    decomp_c10d_functional_all_to_all_single (c10d_functional.py:145-159,
//    torch >= 2.3.1) -> _all_to_all_single (hcom_alltoall.py:107-135): counts
//    in elements (split sizes times the elements of one dim-0 row; an equal
//    share when a split list is None), displacements their prefix sums, then
//    npu_define.all_to_all_single_npu(input, send_counts, send_displacements,
//    recv_counts, recv_displacements, tag, ranks, group_size). The group's
//    ranks and tag come from the process group: airscope knows group '0'
//    (the default group init_process_group makes, tag 'ptd:0' by
//    c10d's _new_process_group_helper) of `dist.world_size` ranks.
// How Dynamo graphs spell them: TorchAir's patch_for_hcom makes
// torch.distributed.all_gather call torch.ops.npu_define.allgather
// (npu_all_gather_patch_dist, hcom_allgather.py:249-269); torch's functional
// collectives (torch.distributed._functional_collectives.all_to_all_single,
// and dist.all_to_all_single remapped to it by Dynamo) fill None split sizes
// with equal shares, then call torch.ops._c10d_functional.all_to_all_single
// (input, out_splits, in_splits, group_name) and, while tracing,
// wait_tensor, which stays as it is. A torch 2.5.1 AOT graph printed in a
// public log (garrett361/learn_torch, distributed/cp) reads
// `torch.ops._c10d_functional.all_to_all_single.default(clone_2, [0, 0, 0, 2],
// [0, 2, 0, 0], '0')` then `torch.ops._c10d_functional.wait_tensor.default(...)`:
// the spelling the goldens use, and what TorchAir's table replaces.
#include <fmt/format.h>

#include <numeric>

#include "core/analysis/node_util.h"
#include "core/aot/lowering_util.h"

namespace airscope {
namespace {

std::optional<std::vector<int64_t>> IntsOf(const Argument& arg) {
  if (!arg.is_sequence()) return std::nullopt;
  return StaticInts({arg.items().begin(), arg.items().end()});
}

LoweringResult Allgather(AtenBuilder& b, const std::vector<Argument>& args, std::string* why) {
  if (args.size() != 5 || !args[0].is_sequence() || !args[1].is_node()) {
    *why = "expected allgather(Tensor[] tensor_list, Tensor input, str tag, int[] ranks, int group_size)";
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> output_sizes;
  for (const Argument& t : args[0].items()) {
    auto sizes = t.is_node() ? SizesOf(t) : std::nullopt;
    if (!sizes) {
      *why = "an output tensor's sizes are unknown or symbolic";
      return std::nullopt;
    }
    output_sizes.push_back(*sizes);
  }
  for (const auto& sizes : output_sizes) {
    if (sizes != output_sizes.front()) {
      *why = "output tensors of different sizes take allgather_in_different_size, which needs the process's rank";
      return std::nullopt;
    }
  }
  std::optional<int64_t> group_size = IntOf(&args[4]);
  auto input_sizes = SizesOf(args[1]);
  if (!group_size || *group_size <= 0 || !input_sizes || input_sizes->empty()) {
    *why = "group_size or the input's sizes are not static";
    return std::nullopt;
  }
  std::vector<Argument> copies(*group_size, args[1]);
  Node* cat = b.Call("aten.cat.default", {Argument::List(copies)});
  Node* gathered = b.Call("npu_define.allgather_in_tensor.default", {Ref(cat), args[1], args[2], args[3], args[4]});
  std::vector<int64_t> counts(*group_size, (*input_sizes)[0]);
  Node* split = b.Call("aten.split_with_sizes.default", {Ref(gathered), IntList(counts)});
  std::vector<Argument> outputs;
  for (size_t i = 0; i < output_sizes.size(); ++i) {
    Node* piece = b.Call("operator.getitem", {Ref(split), Argument::Int(static_cast<int64_t>(i))});
    outputs.push_back(Ref(b.Call("aten.view.default", {Ref(piece), IntList(output_sizes[i])})));
  }
  return Argument::List(std::move(outputs));
}

LoweringResult AllToAllSingle(AtenBuilder& b, const std::vector<Argument>& args, int64_t world_size, std::string* why) {
  if (args.size() != 4 || !args[0].is_node() || args[3].kind() != Argument::Kind::kString) {
    *why =
        "expected all_to_all_single(Tensor input, SymInt[]? output_split_sizes, SymInt[]? input_split_sizes, "
        "str group_name)";
    return std::nullopt;
  }
  const std::string& group = args[3].as_string();
  if (group != "0") {
    *why = fmt::format("process group '{}' is not modelled (airscope knows the default group '0')", group);
    return std::nullopt;
  }
  if (world_size <= 0) {
    *why = "the default group's ranks are unknown: `set dist.world_size N`";
    return std::nullopt;
  }
  auto sizes = SizesOf(args[0]);
  if (!sizes || sizes->empty()) {
    *why = "the input's sizes are unknown, symbolic or 0-dim";
    return std::nullopt;
  }
  int64_t numel = std::accumulate(sizes->begin(), sizes->end(), int64_t{1}, std::multiplies<>());
  int64_t row = (*sizes)[0] == 0 ? numel : numel / (*sizes)[0];
  auto counts = [&](const Argument& split) -> std::optional<std::vector<int64_t>> {
    if (split.is_none()) return std::vector<int64_t>(world_size, numel / world_size);
    auto values = IntsOf(split);
    if (!values) return std::nullopt;
    for (int64_t& v : *values) v *= row;
    return values;
  };
  auto recv = counts(args[1]);
  auto send = counts(args[2]);
  if (!recv || !send) {
    *why = "a split size list is not static";
    return std::nullopt;
  }
  if (send->size() != recv->size()) {
    *why = "the split lists differ in length (TorchAir raises AssertionError)";
    return std::nullopt;
  }
  auto displacements = [](const std::vector<int64_t>& c) {
    std::vector<int64_t> out;
    int64_t sum = 0;
    for (int64_t v : c) {
      out.push_back(sum);
      sum += v;
    }
    return out;
  };
  std::vector<Argument> ranks;
  for (int64_t r = 0; r < world_size; ++r) ranks.push_back(Argument::Int(r));
  return Ref(
      b.Call("npu_define.all_to_all_single_npu.default",
             {args[0], IntList(*send), IntList(displacements(*send)), IntList(*recv), IntList(displacements(*recv)),
              Argument::String("ptd:0"), Argument::List(std::move(ranks)), Argument::Int(world_size)}));
}

}  // namespace

bool IsTorchAirDecomposed(std::string_view target) {
  return target == "npu_define.allgather.default" || target == "_c10d_functional.all_to_all_single.default";
}

LoweringResult ApplyTorchAirDecomposition(AtenBuilder& b, std::string_view target, const std::vector<Argument>& args,
                                          const std::vector<Kwarg>& kwargs, int64_t world_size, std::string* why) {
  if (!kwargs.empty()) {
    *why = "keyword arguments are not modelled";
    return std::nullopt;
  }
  if (target == "npu_define.allgather.default") return Allgather(b, args, why);
  return AllToAllSingle(b, args, world_size, why);
}

}  // namespace airscope
