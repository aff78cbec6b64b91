# tests/st/torchair_aclgraph_st.py test_multi_mutated_input: f(x, out_sin, out_cos)
# returns custom.sin_cos_inplace(x, out_sin, out_cos) on three f32[3] inputs. The AOT
# forward graph as functionalization writes it: the stub's Functionalize kernel
# (tests/st/torchair_st_stub_aclgraph_utils.py:537-554) calls sin_cos_functional and
# replaces out_sin and out_cos with its outputs 1 and 2, which AOT (TorchAir keeps
# inference input mutations) writes back with copy_ epilogues. Written from the
# test's function and the stub, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, arg1_1, arg2_1);  arg0_1 = None
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        getitem_2: "f32[3]" = sin_cos_functional[2];  sin_cos_functional = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem_1);  arg1_1 = getitem_1 = None
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_2);  arg2_1 = getitem_2 = None
        return (getitem,)
