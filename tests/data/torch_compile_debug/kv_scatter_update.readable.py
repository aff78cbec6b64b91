class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 4, 16]", arg1_1: "i64[2]", arg2_1: "f32[2, 8, 1, 16]"):
        view: "f32[2, 8, 4, 16]" = torch.ops.aten.view.default(arg0_1, [2, 8, 4, 16])
        scatter_update: "f32[2, 8, 4, 16]" = torch.ops.npu.scatter_update.default(view, arg1_1, arg2_1, -2);  view = None
        view_1: "f32[16, 4, 16]" = torch.ops.aten.view.default(scatter_update, [16, 4, 16]);  scatter_update = None
        copy_: "f32[16, 4, 16]" = torch.ops.aten.copy_.default(arg0_1, view_1);  arg0_1 = view_1 = None
        return ()
