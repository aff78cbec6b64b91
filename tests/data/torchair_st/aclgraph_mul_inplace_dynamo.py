class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[3, 2]"):
        l_x_ = L_x_
        mul_: "f32[3, 2]" = l_x_.mul_(2);  mul_ = None
        add: "f32[3, 2]" = l_x_ + 1;  l_x_ = None
        return (add,)
