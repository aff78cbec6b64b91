#!/usr/bin/env bash
# Renders two airscope reports and opens every page in headless Chromium:
#   - the seed multi-stream session (tests/report/seed.airscript), and
#   - a TORCH_TRACE log from tlparse's tests (tests/data/torch_trace/comp_metrics.log).
# Checks, on the DOM Chromium built (scripts run; --dump-dom):
#   - every page loads without a console message (an error, a failed script);
#   - every link of every page resolves to a file of the report (or is an
#     https:// link meant for the user, or a #fragment of the page);
#   - the stage of post_grad_custom_pre_pass lists the 4 nodes the seed's
#     custom pass inserts, and its drawing marks those 4 nodes as added;
#   - the device page's timeline has one row per stream of the trace;
#   - the race `check` finds in the seed is marked: on the lower stage's
#     drawing (both nodes), in its hazard list, and on the device timeline;
#   - the compare form and the drawings' search and zoom tools are there, and
#     the search finds an input drawn in its user's label by its name;
#   - a session of many graphs (rank logs and a model) lays out at 1280 px:
#     no page wider than the window, every link visible, the current graph
#     starred, the ranks' divergence on the rank logs' page;
#   - a log of 100 compiles shows them on the index as a tree of their
#     stacks (a branch per call site, each compile at its frame, those
#     without a stack apart), laid out at 1280 px.
# Saves a screenshot of each kind of page in OUT/screenshots.
#   check_report.sh AIRSCOPE SOURCE_DIR OUT
set -uo pipefail
airscope=$(realpath "$1")
src=$(realpath "$2")
out=$(realpath -m "$3")
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z $chromium ]]; then
  echo "chromium is not installed (scripts/setup installs it)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out/screenshots"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# The flags for a sandbox-less machine with no network (see the env notes).
chrome() {
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@"
}

# 1. The reports.
(cd "$src/tests/report" && NO_COLOR=1 "$airscope" --report "$out/seed" seed.airscript > "$out/seed.log" 2>&1) \
  || fail "the seed session failed: $(tail -3 "$out/seed.log")"
NO_COLOR=1 "$airscope" --report "$out/trace" \
  -c "load $src/tests/data/torch_trace/comp_metrics.log; run; compiles; guards 0/0" > "$out/trace.log" 2>&1 \
  || fail "the trace session failed: $(tail -3 "$out/trace.log")"

# 2. Every page: loads cleanly, links resolve.
for report in "$out/seed" "$out/trace"; do
  [[ -f $report/index.html ]] || { fail "$report/index.html was not written"; continue; }
  for page in "$report"/*.html; do
    name=$(basename "$page")
    dom="$out/$(basename "$report")-$name.dom"
    chrome --dump-dom "file://$page" > "$dom" 2> "$dom.err"
    if grep -q "CONSOLE" "$dom.err"; then
      fail "$report/$name: console: $(grep CONSOLE "$dom.err" | head -3)"
    fi
    grep -q "</footer>" "$dom" || fail "$report/$name: the page did not render (no footer)"
    # Links: href="..." and src="..." of the rendered DOM.
    grep -o -E '(href|src)="[^"]*"' "$dom" | sed -E 's/^(href|src)="//; s/"$//' | sort -u | while read -r link; do
      case $link in
        https://*|'#'*) continue ;;
      esac
      target=${link%%#*}
      target=${target%%\?*}
      [[ -e $report/$target ]] || echo "broken: $link"
    done > "$dom.links"
    if [[ -s $dom.links ]]; then fail "$report/$name: $(head -3 "$dom.links" | tr '\n' ' ')"; fi
  done
done

# 3. What the pages must show.
seed="$out/seed"
custom=$(grep -l '<h1>Stage [0-9]*: post_grad_custom_pre_pass</h1>' "$out"/seed-stage-*.dom | head -1)
if [[ -z $custom ]]; then
  fail "no stage page for post_grad_custom_pre_pass"
else
  added=$(grep -o 'class="change added"' "$custom" | wc -l)
  [[ $added -eq 4 ]] || fail "post_grad_custom_pre_pass: $added nodes listed as added, expected 4"
  marked=$(grep -o '<g id="node[0-9]*" class="node added"' "$custom" | wc -l)
  [[ $marked -eq 4 ]] || fail "post_grad_custom_pre_pass: $marked nodes marked added on the drawing, expected 4"
  grep -q 'class="sbs"' "$custom" || fail "post_grad_custom_pre_pass: no side-by-side FX diff"
  grep -q 'type="search"' "$custom" || fail "post_grad_custom_pre_pass: no search box on the drawing"
fi
device="$out/seed-device.html.dom"
rows=$(grep -o 'class="stream-row"' "$device" | wc -l)
streams=$(grep -o -E '[0-9]+ stream\(s\)\.' "$device" | head -1 | grep -o -E '^[0-9]+')
[[ -n $streams && $rows -eq $streams && $rows -ge 2 ]] \
  || fail "device timeline: $rows stream rows for ${streams:-?} streams (the seed uses 2)"
# The seed races abs_1 (stream_1) against add_ (default): `check` finds it, and
# the lower stage's drawing, its hazard list and the device page show it.
lower=$(grep -l '<h1>Stage [0-9]*: lower</h1>' "$out"/seed-stage-*.dom | head -1)
if [[ -z $lower ]]; then
  fail "no stage page for lower"
else
  hazards=$(grep -o -E '<g id="node[0-9]*" class="node[a-z ]* hazard"' "$lower" | wc -l)
  [[ $hazards -eq 2 ]] || fail "lower: $hazards nodes marked as a hazard on the drawing, expected 2 (abs_1, add)"
  grep -q 'href="#find=abs_1"' "$lower" || fail "lower: no hazard list linking abs_1"
fi
slices=$(grep -o 'class="slice k-kernel hazard"' "$device" | wc -l)
((slices >= 2)) || fail "device timeline: $slices kernels marked as a hazard, expected abs_1 and add of each replay"
grep -q -E 'href="stage-0-[0-9]+\.html#find=add"' "$device" || fail "device page: no hazard list linking add"
grep -q 'id="compare-form"' "$out/seed-graph-0.html.dom" || fail "graph page: no compare form"
grep -q '0/0' "$out/trace-log-0.html.dom" || fail "trace log page: compile 0/0 not listed"
# An input with one user is a line of its user's label (dot_writer.h): the
# trace's l_x_ is. #find=l_x_ still finds it, on the node that reads it.
bundled="$out/trace-stage-0-0-find.dom"
chrome --dump-dom "file://$out/trace/stage-0-0.html#find=l_x_" > "$bundled" 2> /dev/null
grep -q '+1 input: l_x_' "$bundled" || fail "trace input stage: l_x_ is not drawn in its user's label"
grep -q 'found-count dim">1 found<' "$bundled" || fail "trace input stage: #find=l_x_ does not find its user"

# 3b. Layout at 1280 px on a session of many graphs (tlparse's rank logs, 29
# graphs, and MobileNetV2 through the pipeline, current): no page wider than
# the window, every link on screen with a size (links inside a closed
# <details> or a drawing aside). A page is loaded in an iframe of that width
# whose script measures it (file pages may read each other with
# --allow-file-access-from-files).
ranks="$out/ranks"
NO_COLOR=1 "$airscope" --report "$ranks" \
  -c "load $src/tests/data/torch_trace/multi_rank; load $src/tests/data/mobilenet_v2.readable.py; run" \
  > "$out/ranks.log" 2>&1 || fail "the rank logs session failed: $(tail -3 "$out/ranks.log")"
grep -q '<tr class="current"><td><a href="graph-29.html">mobilenet_v2</a>' "$ranks/index.html" \
  || fail "ranks index: mobilenet_v2 (the current graph) is not the one starred"
grep -q 'Where the ranks diverge' "$ranks/log-0.html" || fail "ranks log page: no divergence summary"
layout() {
  local page=$1 name
  name=$(basename "$(dirname "$page")")-$(basename "$page" .html)
  cat > "$out/layout-$name.html" <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="file://$page" style="width:1280px;height:900px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
document.getElementById('f').onload = function () {
  var d = document.getElementById('f').contentDocument, out = [];
  if (!d) { out.push('cannot read the page'); } else {
    var root = d.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push('wider than the window: ' + root.scrollWidth + ' px');
    d.querySelectorAll('a').forEach(function (a) {
      if (a.closest('svg') || a.closest('details:not([open])')) return;
      var r = a.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right > root.clientWidth + 1) out.push('link not visible: ' + a.textContent.slice(0, 60));
    });
  }
  document.getElementById('result').textContent = out.length ? out.join('\\n') : 'LAYOUT-OK';
};
</script></body></html>
HTML
  chrome --allow-file-access-from-files --window-size=1300,1000 --dump-dom "file://$out/layout-$name.html" \
    > "$out/layout-$name.dom" 2> /dev/null
  grep -q 'LAYOUT-OK' "$out/layout-$name.dom" \
    || fail "$page at 1280 px: $(grep -o '<pre id="result">[^<]*' "$out/layout-$name.dom" | sed 's/<pre id="result">//' | head -c 300)"
}
for page in "$ranks/index.html" "$ranks/log-0.html" "$ranks/graph-0.html" "$ranks/graph-29.html" \
            "$ranks/stage-29-14.html" "$seed/device.html"; do
  layout "$page"
done

# 3c. The compiles' stack tree at 100 compiles (a synthetic TORCH_TRACE log:
# 20 call sites under one shared stack, through an encoder or a decoder,
# each compiled 5 times with torch's recompile reasons, and 2 compiles the log
# gives no stack; a long path): one branch per call site, every compile at its
# frame, the stackless ones apart, and the index laid out at 1280 px.
compiles_log="$out/compiles.log"
{
  prefix='V1206 15:18:20.599000 1500233 torch/_dynamo/convert_frame.py:1000]'
  files=(/home/user/project/train.py /home/user/project/model.py
         /home/user/a-rather-long-checkout-directory-name/src/models/transformer/blocks/attention_with_rotary_embeddings.py)
  for f in "${!files[@]}"; do echo "$prefix {\"str\": [\"${files[$f]}\", $f]}"; done
  for site in $(seq 0 19); do
    part=encoder; ((site >= 10)) && part=decoder
    for k in 0 1 2 3 4; do
      ids="\"frame_id\": $site, \"frame_compile_id\": $k, \"attempt\": 0"
      echo "$prefix {\"dynamo_start\": {\"stack\": [{\"line\": 200, \"name\": \"<module>\", \"filename\": 0}, {\"line\": 150, \"name\": \"main\", \"filename\": 0}, {\"line\": 120, \"name\": \"train_loop\", \"filename\": 0}, {\"line\": 88, \"name\": \"step\", \"filename\": 0}, {\"line\": 40, \"name\": \"forward\", \"filename\": 1}, {\"line\": 60, \"name\": \"$part\", \"filename\": 1}, {\"line\": $((10 + site)), \"name\": \"layer_$site\", \"filename\": 2}]}, $ids}"
      if ((k > 0)); then
        echo "$prefix {\"recompile_reasons\": [\"$site/$((k - 1)): tensor 'L['x']' size mismatch at index 0. expected $((k + 1)), actual $((k + 2))\"], $ids}"
      fi
      echo "$prefix {\"compilation_metrics\": {\"co_name\": \"layer_$site\", \"co_filename\": \"${files[2]}\", \"co_firstlineno\": $((10 + site)), \"cache_size\": $k, \"guard_count\": 4, \"graph_op_count\": 2, \"fail_type\": null, \"restart_reasons\": []}, $ids}"
    done
  done
  for site in 20 21; do
    echo "$prefix {\"compilation_metrics\": {\"co_name\": \"tail\", \"cache_size\": 0, \"fail_type\": null, \"restart_reasons\": []}, \"frame_id\": $site, \"frame_compile_id\": 0, \"attempt\": 0}"
  done
} > "$compiles_log"
tree="$out/compiles"
NO_COLOR=1 "$airscope" --report "$tree" -c "load $compiles_log" > "$out/compiles.session" 2>&1 \
  || fail "the 100-compile session failed: $(tail -3 "$out/compiles.session")"
index="$tree/index.html"
branches=$(grep -o '<li class="branch">' "$index" | wc -l)
((branches == 22)) || fail "compile tree: $branches branches, expected 22 (encoder, decoder and 20 call sites)"
at_frames=$(sed -n '/<div class="stack-tree">/,/<p class="stackless">/p' "$index" | grep -o '<a class="cid status-success"' | wc -l)
((at_frames == 100)) || fail "compile tree: $at_frames compiles at their frames, expected 100"
grep -q '2 compile(s) have no stack in the log' "$index" || fail "compile tree: the 2 stackless compiles not listed apart"
grep -q '<details class="compile-table"><summary>the 102 compile(s)' "$index" || fail "compile tree: the table is not folded"
layout "$index"

# 4. Screenshots of each kind of page.
shot() { chrome --window-size=1400,1000 --screenshot="$out/screenshots/$1.png" "file://$2" > /dev/null 2>&1 \
           || fail "screenshot of $2"; }
shot index "$seed/index.html"
shot graph "$seed/graph-0.html"
[[ -n $custom ]] && shot stage-diff "$seed/$(basename "$custom" .dom | sed 's/^seed-//')"
shot compare "$(ls "$seed"/compare-0-*.html | head -1)"
shot device "$seed/device.html"
shot log "$out/trace/log-0.html"
shot ranks-index "$ranks/index.html"
shot compile-tree "$tree/index.html"

if ((failures)); then
  echo "$failures check(s) failed; pages and DOM dumps are in $out" >&2
  exit 1
fi
echo "report pages render cleanly in headless Chromium; screenshots in $out/screenshots"
