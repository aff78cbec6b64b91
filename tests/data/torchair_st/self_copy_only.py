class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1, arg0_1);  arg0_1 = copy_ = None
        return ()
