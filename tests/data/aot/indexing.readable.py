class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]npu:0", L_idx_: "i64[3][1]npu:0", L_mask_: "b8[4, 8][8, 1]npu:0", L_y_: "f32[4, 8][8, 1]npu:0", L_v_: "f32[8][1]npu:0"):
        l_x_ = L_x_
        l_idx_ = L_idx_
        l_mask_ = L_mask_
        l_y_ = L_y_
        l_v_ = L_v_

        # File: /tmp/indexing.py:5 in fn, code: a = x[:, 0]
        a: "f32[4][8]npu:0" = l_x_[(slice(None, None, None), 0)]

        # File: /tmp/indexing.py:6 in fn, code: b = x[1:3]
        b: "f32[2, 8][8, 1]npu:0" = l_x_[slice(1, 3, None)]

        # File: /tmp/indexing.py:7 in fn, code: c = x[..., None]
        c: "f32[4, 8, 1][8, 1, 1]npu:0" = l_x_[(Ellipsis, None)]

        # File: /tmp/indexing.py:8 in fn, code: d = x[idx]
        d: "f32[3, 8][8, 1]npu:0" = l_x_[l_idx_];  l_idx_ = None

        # File: /tmp/indexing.py:9 in fn, code: e = x[mask]
        e: "f32[u0][1]npu:0" = l_x_[l_mask_];  l_mask_ = None

        # File: /tmp/indexing.py:10 in fn, code: f = x.to(torch.float16)
        f: "f16[4, 8][8, 1]npu:0" = l_x_.to(torch.float16)

        # File: /tmp/indexing.py:11 in fn, code: g = x.cpu()
        g: "f32[4, 8][8, 1]cpu" = l_x_.cpu()

        # File: /tmp/indexing.py:12 in fn, code: h = x.npu()
        h: "f32[4, 8][8, 1]npu:0" = l_x_.npu()

        # File: /tmp/indexing.py:13 in fn, code: y[0] = v
        l_y_[0] = l_v_;  setitem = l_y_;  l_y_ = l_v_ = None
        return (a, b, c, d, e, f, g, h)

# Written as torch 2.6's TORCH_LOGS=graph_code prints the Dynamo graph of
#   def fn(x, idx, mask, y, v):
#       a = x[:, 0]; b = x[1:3]; c = x[..., None]; d = x[idx]; e = x[mask]
#       f = x.to(torch.float16); g = x.cpu(); h = x.npu()
#       y[0] = v
#       return a, b, c, d, e, f, g, h
# (x[mask] needs torch._dynamo.config.capture_dynamic_output_shape_ops=True;
# torch.fx prints setitem as `l_y_[0] = l_v_;  setitem = l_y_`, graph.py
# inplace_methods). Hand-written, not captured from a run.
