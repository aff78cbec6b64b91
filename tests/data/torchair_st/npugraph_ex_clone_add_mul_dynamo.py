# tests/st/torchair_npugraph_ex_compile_st.py
# test_aclgraph_capture_and_replay_keep_inference_input_mutations_true_default_enable_reinplace_pass:
# forward(x, y): a = x.clone(); b = a.add(1); y.mul_(2); return b, y, compiled with
# backend="npugraph_ex", dynamic=False, x and y f32[8, 8]. The Dynamo graph in torch's
# print_readable form, written from the test's model, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8, 8]", L_y_: "f32[8, 8]"):
        l_x_ = L_x_
        l_y_ = L_y_
        a: "f32[8, 8]" = l_x_.clone();  l_x_ = None
        b: "f32[8, 8]" = a.add(1);  a = None
        mul_: "f32[8, 8]" = l_y_.mul_(2);  mul_ = None
        return (b, l_y_)
