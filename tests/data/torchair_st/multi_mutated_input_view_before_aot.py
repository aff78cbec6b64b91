# tests/st/torchair_aclgraph_st.py test_multi_mutated_input_with_view_before:
# sin_view = out_sin.view(-1, 1); y = custom.sin_cos_inplace(x, sin_view, out_cos);
# res = out_cos + 1; return y, res (three f32[3] inputs). Functionalization (the
# stub's Functionalize kernel, torchair_st_stub_aclgraph_utils.py:537-554) writes
# the view's new value back into its base by replaying the view on output 1
# (sin_cos_functional_meta makes every output empty_like(x)), so out_sin's copy_
# epilogue copies a view of getitem_1, not getitem_1 itself. Written from the test's
# function and the stub, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        view: "f32[3, 1]" = torch.ops.aten.view.default(arg1_1, [-1, 1])
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, view, arg2_1);  arg0_1 = view = None
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        getitem_2: "f32[3]" = sin_cos_functional[2];  sin_cos_functional = None
        view_1: "f32[3]" = torch.ops.aten.view.default(getitem_1, [3]);  getitem_1 = None
        add: "f32[3]" = torch.ops.aten.add.Tensor(getitem_2, 1)
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, view_1);  arg1_1 = view_1 = None
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_2);  arg2_1 = getitem_2 = None
        return (getitem, add)
