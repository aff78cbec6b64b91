class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        select_1: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 2);  select_1 = None
        as_strided_default: "f32[3]" = torch.ops.aten.as_strided.default(arg0_1_1, [3], [1], 0);  arg0_1_1 = None
        clone_default: "f32[3]" = torch.ops.aten.clone.default(as_strided_default);  as_strided_default = None
        as_strided_default_1: "f32[3]" = torch.ops.aten.as_strided.default(clone_default, [3], [1], 0);  clone_default = None
        as_strided_default_2: "f32[3]" = torch.ops.aten.as_strided.default(as_strided_default_1, [3], [1], 0);  as_strided_default_1 = None
        boo_default = torch.ops.custom.boo.default(as_strided_default_2);  as_strided_default_2 = boo_default = None
        return None
