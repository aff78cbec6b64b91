#!/usr/bin/env bash
# `load /dev/stdin` of a pipe loads what `load FILE` loads (issue 29 item 6):
# a pipe can be read only once, so load reads it whole and tells the format
# from its bytes. TORCH_LOGS text and TORCH_TRACE logs were "unrecognized
# graph format" through a pipe, a capture dump "expected a JSON object".
#   load_through_a_pipe.sh AIRSCOPE DATA_DIR
set -euo pipefail
airscope=$1
data=$2
status=0
for f in torch_logs/troubleshooting_graph_code.log torch_trace/simple.log aclgraph/seed_capture.json \
  mlp.readable.py; do
  # The same session both ways; only the path each one names differs.
  # (A failing run is compared too: its error is its output.)
  from_file=$({ "$airscope" -c "load $data/$f as piped; graphs; show" 2>&1 || true; } | sed "s|$data/$f|INPUT|g")
  from_pipe=$({ cat "$data/$f" | "$airscope" -c "load /dev/stdin as piped; graphs; show" 2>&1 || true; } |
    sed "s|/dev/stdin|INPUT|g")
  if [[ $from_file != "$from_pipe" ]]; then
    echo "$f: loaded through a pipe, it differs from the file:"
    diff <(echo "$from_file") <(echo "$from_pipe") || true
    status=1
  fi
done
exit $status
