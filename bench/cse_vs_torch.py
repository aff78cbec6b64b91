#!/usr/bin/env python3
"""airscope's cse against torch.fx's CSEPass on the same graph, in one run.

Builds a 125,000-node aten graph with torch.fx (64 inputs; every value is
computed twice with the same operands; two fifths of the pairs read input x0,
which so gets 50,000 users: the case that made removing a user quadratic),
times torch.fx.passes.dialect.common.cse_pass.CSEPass on it (median of 3),
prints it with torch's own printer to an FX text file, and runs
`cse_bench --file` (airscope's cse, median of 5, load and clone not timed)
on that file. Needs torch (Debian: apt-get install python3-torch); not part
of scripts/test. Target (issue 13): airscope >= 100x faster.

usage: bench/cse_vs_torch.py BUILD_DIR [NODES]
"""
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.fx as fx
from torch.fx.passes.dialect.common.cse_pass import CSEPass


def build(nodes):
    rng = random.Random(12345)
    g = fx.Graph()
    pool = [g.placeholder(f"x{i}") for i in range(64)]
    x0 = pool[0]
    ops = [torch.ops.aten.add.Tensor, torch.ops.aten.mul.Tensor, torch.ops.aten.sub.Tensor]
    pairs = (nodes - 64 - 1) // 2
    for i in range(pairs):
        op = ops[rng.randrange(3)]
        window = min(len(pool), 256)
        a = x0 if i % 5 < 2 else pool[-1 - rng.randrange(window)]
        b = pool[-1 - rng.randrange(window)]
        first = g.call_function(op, (a, b))
        second = g.call_function(op, (a, b))
        pool.append(first if rng.randrange(2) else second)
    g.output(tuple(pool[-64:]))
    return fx.GraphModule(torch.nn.Module(), g)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build_dir = sys.argv[1]
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 125000
    gm = build(nodes)
    x0_users = len(next(iter(gm.graph.nodes)).users)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        result = CSEPass()(gm)
        times.append(time.perf_counter() - start)
    torch_s = statistics.median(times)
    torch_after = len(result.graph_module.graph.nodes)
    with tempfile.NamedTemporaryFile("w", suffix=".graph.txt", delete=False) as f:
        f.write(str(gm.graph))
        path = f.name
    try:
        out = subprocess.run([os.path.join(build_dir, "bench", "cse_bench"), "--file", path],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    print(out.splitlines()[0])  # the machine line
    match = re.search(r"nodes=(\d+) removed=(\d+) median_s=([0-9.]+)", out)
    ours_nodes, removed, ours_s = int(match[1]), int(match[2]), float(match[3])
    print(f"graph: {len(gm.graph.nodes)} nodes, x0 has {x0_users} users; torch {torch.__version__}")
    print(f"{'':24} {'seconds':>10} {'nodes after':>12}")
    print(f"{'torch.fx CSEPass':24} {torch_s:>10.4f} {torch_after:>12}")
    print(f"{'airscope cse':24} {ours_s:>10.4f} {ours_nodes - removed:>12}")
    print(f"airscope is {torch_s / ours_s:.0f}x faster (target >= 100x)")


if __name__ == "__main__":
    main()
