class f(torch.nn.Module):
    def forward(self, x_1: "f32[3]"):
        # No stacktrace found for following nodes
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(x_1, pin_memory = False)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.custom.sin.default, x = x_1, result = empty_like);  x_1 = None
        getitem = auto_functionalized[0];  getitem = None
        getitem_1: "f32[3]" = auto_functionalized[1];  auto_functionalized = None
        mul: "f32[3]" = torch.ops.aten.mul.Tensor(empty_like, getitem_1);  empty_like = None
        return (getitem_1, mul)
