class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 4][4, 1]npu:0", L_y_: "f32[16][1]npu:0", L_z_: "f32[4, 4][4, 1]npu:0"):
        l_x_ = L_x_
        l_y_ = L_y_
        l_z_ = L_z_

        # File: /tmp/inplace_views.py:5 in fn, code: x[0].add_(1)
        getitem: "f32[4][1]npu:0" = l_x_[0]
        add_: "f32[4][1]npu:0" = getitem.add_(1);  getitem = None

        # File: /tmp/inplace_views.py:6 in fn, code: y.view(4, 4).mul_(2)
        view: "f32[4, 4][4, 1]npu:0" = l_y_.view(4, 4)
        mul_: "f32[4, 4][4, 1]npu:0" = view.mul_(2);  view = None

        # File: /tmp/inplace_views.py:7 in fn, code: z.transpose(0, 1).zero_()
        transpose: "f32[4, 4][1, 4]npu:0" = l_z_.transpose(0, 1)
        zero_: "f32[4, 4][1, 4]npu:0" = transpose.zero_();  transpose = None

        # File: /tmp/inplace_views.py:8 in fn, code: return x * 2
        mul: "f32[4, 4][4, 1]npu:0" = l_x_ * 2;  l_x_ = None
        return (mul,)

# Written as torch 2.6's TORCH_LOGS=graph_code prints the Dynamo graph of
#   def fn(x, y, z):
#       x[0].add_(1)
#       y.view(4, 4).mul_(2)
#       z.transpose(0, 1).zero_()
#       return x * 2
# (print_readable layout: annotations with strides and device, `# File:` comments,
# `;  name = None` deletions). Hand-written, not captured from a run.
