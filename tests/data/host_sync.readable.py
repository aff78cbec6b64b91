class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4]", arg1_1: "f32[4][1]cpu"):
        sum_1: "f32[]" = torch.ops.aten.sum.default(arg0_1)
        _local_scalar_dense: "Sym(u0)" = torch.ops.aten._local_scalar_dense.default(sum_1)
        new_zeros: "f32[u0]" = torch.ops.aten.new_zeros.default(arg0_1, [_local_scalar_dense])
        mul: "f32[4, 4]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        return (mul, new_zeros)
