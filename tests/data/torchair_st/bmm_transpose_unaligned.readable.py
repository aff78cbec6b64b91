class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[128, 64, 511]", arg1_1: "f32[64, 511, 256]"):
        transpose: "f32[64, 128, 511]" = torch.ops.aten.transpose.int(arg0_1, 1, 0)
        expand: "f32[64, 128, 511]" = torch.ops.aten.expand.default(transpose, [64, 128, 511])
        view: "f32[64, 128, 511]" = torch.ops.aten.view.default(expand, [64, 128, 511])
        bmm: "f32[64, 128, 256]" = torch.ops.aten.bmm.default(view, arg1_1)
        view_1: "f32[64, 128, 256]" = torch.ops.aten.view.default(bmm, [64, 128, 256])
        transpose_1: "f32[128, 64, 256]" = torch.ops.aten.transpose.int(view_1, 1, 0)
        return (transpose_1,)
