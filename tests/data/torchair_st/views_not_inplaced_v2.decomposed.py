class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        select_1: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 2)
        as_strided_default: "f32[3]" = torch.ops.aten.as_strided.default(arg0_1_1, [3], [1], 0)
        clone_default: "f32[3]" = torch.ops.aten.clone.default(as_strided_default);  as_strided_default = None
        as_strided_default_1: "f32[3]" = torch.ops.aten.as_strided.default(clone_default, [3], [1], 0);  clone_default = None
        as_strided_default_2: "f32[3]" = torch.ops.aten.as_strided.default(as_strided_default_1, [3], [1], 0)
        boo_default = torch.ops.custom.boo.default(as_strided_default_2);  as_strided_default_2 = boo_default = None
        mul: "f32[]" = torch.ops.aten.mul.Tensor(select_1, 10);  select_1 = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1_1, as_strided_default_1);  arg0_1_1 = as_strided_default_1 = copy_ = None
        return mul
