class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "i64[2]", arg1_1: "i64[2]"):
        ceil: "i64[2]" = torch.ops.aten.ceil.default(arg0_1)
        add: "i64[2]" = torch.ops.aten.add.Tensor(ceil, arg1_1)
        return (add,)
