class f(torch.nn.Module):
    def forward(self, x_1: "f32[3]"):
        # No stacktrace found for following nodes
        copy_: "f32[3]" = torch.ops.aten.copy_.default(x_1, x_1);  x_1 = None
        return copy_
