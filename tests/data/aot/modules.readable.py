class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 3, 16, 16][768, 256, 16, 1]npu:0"):
        l_x_ = L_x_

        # File: /tmp/net.py:14 in forward, code: x = self.conv(x)
        l__self___conv: "f32[2, 8, 8, 8][512, 64, 8, 1]npu:0" = self.L__self___conv(l_x_);  l_x_ = None

        # File: /tmp/net.py:15 in forward, code: x = self.bn(x)
        l__self___bn: "f32[2, 8, 8, 8][512, 64, 8, 1]npu:0" = self.L__self___bn(l__self___conv);  l__self___conv = None

        # File: /tmp/net.py:16 in forward, code: x = self.act(x)
        l__self___act: "f32[2, 8, 8, 8][512, 64, 8, 1]npu:0" = self.L__self___act(l__self___bn);  l__self___bn = None

        # File: /tmp/net.py:17 in forward, code: x = self.pool(x)
        l__self___pool: "f32[2, 8, 4, 4][128, 16, 4, 1]npu:0" = self.L__self___pool(l__self___act);  l__self___act = None

        # File: /tmp/net.py:18 in forward, code: x = self.gap(x)
        l__self___gap: "f32[2, 8, 1, 1][8, 1, 1, 1]npu:0" = self.L__self___gap(l__self___pool);  l__self___pool = None

        # File: /tmp/net.py:19 in forward, code: x = self.flatten(x)
        l__self___flatten: "f32[2, 8][8, 1]npu:0" = self.L__self___flatten(l__self___gap);  l__self___gap = None

        # File: /tmp/net.py:20 in forward, code: x = self.drop(x)
        l__self___drop: "f32[2, 8][8, 1]npu:0" = self.L__self___drop(l__self___flatten);  l__self___flatten = None

        # File: /tmp/net.py:21 in forward, code: return self.fc(x)
        l__self___fc: "f32[2, 10][10, 1]npu:0" = self.L__self___fc(l__self___drop);  l__self___drop = None
        return (l__self___fc,)

# Written as torch 2.1-2.4's TORCH_LOGS=graph_code prints a Dynamo graph that
# calls torch.nn submodules (call_module, before inline_inbuilt_nn_modules), for
#   Net(conv=Conv2d(3, 8, 3, 2, 1, bias=False), bn=BatchNorm2d(8), act=GELU('tanh'),
#       pool=MaxPool2d(2), gap=AdaptiveAvgPool2d(1), flatten=Flatten(), drop=Dropout(0.1),
#       fc=Linear(8, 10)).eval()
# Hand-written, not captured from a run: the submodules' types are not in the text.
