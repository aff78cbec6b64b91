class GraphModule(torch.nn.Module):
    def forward(self, L_a_ : torch.Tensor, L_b_ : torch.Tensor, L_c_ : torch.Tensor, L_d_ : torch.Tensor):
        l_a_ = L_a_
        l_b_ = L_b_
        l_c_ = L_c_
        l_d_ = L_d_
        
        # File: playground8.py:66, code: return (a + b) @ (c + d)
        add = l_a_ + l_b_;  l_a_ = l_b_ = None
        add_1 = l_c_ + l_d_;  l_c_ = l_d_ = None
        matmul = add @ add_1;  add = add_1 = None
        return (matmul,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/pytorch/pytorch/pull/104672 (description, williamwen42, 2023-07-05: "[dynamo] add logging artifact for traced graph tensor sizes")
# What: fn(a, b, c, d) = (a + b) @ (c + d): operator.add and operator.matmul, TORCH_LOGS="graph_sizes,graph_code"
# Torch version: main of 2023-07 (2.1 dev)
# Stripped: the log prefix "[2023-07-06 01:42:39,093] torch._dynamo.output_graph.__graph_code: [DEBUG] " of the first line only (this logging format prefixes only the first line of a record), and "<eval_with_key>.0 " before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is pr104672_add_matmul.log.txt.
