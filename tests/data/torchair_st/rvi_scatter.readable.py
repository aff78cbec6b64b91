class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 4, 16]", arg1_1: "i64[2]", arg2_1: "f32[16, 1, 16]"):
        view: "f32[2, 8, 4, 16]" = torch.ops.aten.view.default(arg0_1, [2, -1, 4, 16])
        view_1: "f32[2, 8, 1, 16]" = torch.ops.aten.view.default(arg2_1, [2, -1, 1, 16])
        scatter_update: "f32[2, 8, 4, 16]" = torch.ops.npu.scatter_update.default(view, arg1_1, view_1, -2)
        view_2: "f32[16, 4, 16]" = torch.ops.aten.view.default(scatter_update, [-1, 4, 16])
        view_3: "f32[2, 8, 4, 16]" = torch.ops.aten.view.default(view_2, [2, -1, 4, 16])
        add: "f32[2, 8, 4, 16]" = torch.ops.aten.add.Tensor(view_3, view_1)
        copy: "f32[16, 4, 16]" = torch.ops.aten.copy.default(arg0_1, view_2)
        copy_: "f32[16, 4, 16]" = torch.ops.aten.copy_.default(arg0_1, copy)
        return (add,)
