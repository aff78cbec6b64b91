class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        ones: "f32[10]" = torch.ops.aten.ones.default([10], device = device(type='cpu'), pin_memory = False)
        select: "f32[]" = torch.ops.aten.select.int(ones, 0, 2)
        as_strided_default: "f32[10]" = torch.ops.aten.as_strided.default(ones, [10], [1], 0);  ones = None
        clone_default: "f32[10]" = torch.ops.aten.clone.default(as_strided_default);  as_strided_default = None
        as_strided_default_1: "f32[10]" = torch.ops.aten.as_strided.default(clone_default, [10], [1], 0);  clone_default = None
        as_strided_default_2: "f32[]" = torch.ops.aten.as_strided.default(as_strided_default_1, [], [], 0);  as_strided_default_1 = None
        boo_default = torch.ops.custom.boo.default(as_strided_default_2);  as_strided_default_2 = boo_default = None
        return select
