"""Prints the torch.fx graph a `minify --out DIR` repro.py builds, as torch prints it.

usage: /usr/bin/python3 print_repro_graph.py DIR    (DIR holds repro.py)

Only repro.build_graph_module() runs: no NPU, torch_npu or torchair is needed,
so Debian's python3-torch (torch 1.13, which prints `[#users=N]`) is enough to
check that repro.py builds the graph min.readable.py holds (issue 30: the
minify_*.airscript goldens load the printout and `expect graph matches` it).
"""
import sys

sys.path.insert(0, sys.argv[1])
import repro  # noqa: E402  (found through the path above)

print(repro.build_graph_module().graph)
