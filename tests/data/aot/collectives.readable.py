class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]npu:0", L_out0_: "f32[4, 8][8, 1]npu:0", L_out1_: "f32[4, 8][8, 1]npu:0"):
        l_x_ = L_x_
        l_out0_ = L_out0_
        l_out1_ = L_out1_

        # File: /tmp/comm.py:9 in fn, code: y = funcol.all_to_all_single(x, [1, 3], [2, 2], group)
        tensor: "f32[4, 8][8, 1]npu:0" = torch.ops._c10d_functional.all_to_all_single(l_x_, [1, 3], [2, 2], '0')
        wait_tensor: "f32[4, 8][8, 1]npu:0" = torch.ops._c10d_functional.wait_tensor(tensor);  tensor = None

        # File: /tmp/comm.py:10 in fn, code: dist.all_gather([out0, out1], x)
        allgather = torch.ops.npu_define.allgather([l_out0_, l_out1_], l_x_, 'ptd:0', [0, 1], 2);  l_x_ = None
        getitem: "f32[4, 8][8, 1]npu:0" = allgather[0]
        copy_: "f32[4, 8][8, 1]npu:0" = l_out0_.copy_(getitem);  l_out0_ = getitem = None
        getitem_1: "f32[4, 8][8, 1]npu:0" = allgather[1];  allgather = None
        copy__1: "f32[4, 8][8, 1]npu:0" = l_out1_.copy_(getitem_1);  l_out1_ = getitem_1 = None
        return (wait_tensor,)

# Written as TORCH_LOGS=graph_code would print the Dynamo graph of a 2-rank
#   y = torch.distributed._functional_collectives.all_to_all_single(x, [1, 3], [2, 2], group)
#   torch.distributed.all_gather([out0, out1], x)   # with torchair's patch_for_hcom
# The functional collective calls torch.ops._c10d_functional.all_to_all_single and,
# while tracing, wait_tensor (_functional_collectives.py); TorchAir's patched
# all_gather calls torch.ops.npu_define.allgather and copy_s each result into the
# list (npu_all_gather_patch_dist, hcom_allgather.py:249-269). Hand-written.
