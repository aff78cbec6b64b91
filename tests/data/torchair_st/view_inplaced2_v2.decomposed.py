class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        select_1: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 2)
        as_strided_default: "f32[3]" = torch.ops.aten.as_strided.default(arg0_1_1, [3], [1], 0)
        boo_default = torch.ops.custom.boo.default(as_strided_default);  as_strided_default = boo_default = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1_1, arg0_1_1);  arg0_1_1 = copy_ = None
        return select_1
