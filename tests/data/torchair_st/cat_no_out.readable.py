class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8]"):
        view: "f32[8]" = torch.ops.aten.view.default(arg0_1, [-1])
        view_1: "f32[8]" = torch.ops.aten.view.default(arg0_1, [-1])
        cat: "f32[16]" = torch.ops.aten.cat.default([view, view_1])
        return (cat,)
