# A transposed input and ops of each layout kind on it, in print_readable form, written by
# hand (torch prints a view's strides after its sizes). torch gives clone (preserve_format)
# and convert_element_type their input's layout; clone to contiguous_format and cat of 2-d
# tensors allocate contiguous ones; sin keeps its input's layout too (TensorIterator), a rule
# airscope does not model.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8]"):
        t: "f32[8, 4][1, 8]" = torch.ops.aten.t.default(arg0_1)
        clone: "f32[8, 4]" = torch.ops.aten.clone.default(t)
        convert: "f16[8, 4]" = torch.ops.prims.convert_element_type.default(clone, torch.float16)
        unsqueeze: "f16[1, 8, 4]" = torch.ops.aten.unsqueeze.default(convert, 0)
        contiguous: "f32[8, 4]" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format)
        cat: "f32[16, 4]" = torch.ops.aten.cat.default([t, t])
        sin: "f32[8, 4]" = torch.ops.aten.sin.default(t)
        return (unsqueeze, contiguous, cat, sin)
