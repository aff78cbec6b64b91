#!/usr/bin/env bash
# SIGTERM, SIGHUP or SIGQUIT while airscope writes (issue 29 item 4): a dump's
# `.airscope-XXXXXX` temp file and a report's `.airscope-report-XXXXXX`
# staging folder are removed, the file or report being replaced is left as it
# was, and airscope dies of the signal (exit status 128 + its number).
#
# The write is caught in the act: the script polls for the temp, stops
# airscope (SIGSTOP) once it sees it, waits until it has stopped, checks the
# temp is still there (else the write had just finished: it tries again), sends the signal, and lets
# airscope go on (SIGCONT), so the signal lands mid-write every time.
#
# usage: temp_cleanup.sh AIRSCOPE WORKDIR
set -u
set -m  # job control: a background job of a script would otherwise start with SIGQUIT ignored
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
ulimit -c 0  # SIGQUIT's default action dumps core
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# A 150,000-node chain as FX text (16 MB): its dump and its report write long enough to catch.
awk 'BEGIN {
  print "graph():"
  print "    %x : [num_users=1] = placeholder[target=x]"
  prev = "x"
  for (i = 0; i < 150000; i++) {
    printf "    %%n%d : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%%%s,), kwargs = {})\n", i, prev
    prev = "n" i
  }
  printf "    return %s\n", prev
}' > big.graph.txt
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%%x,), kwargs = {})\n    return y\n' > small.graph.txt

# wait_end PID: waits for PID to end and sets $status to its exit status. bash
# can report a SIGSTOP this script sent earlier (status 128 + SIGSTOP) as the
# job's status when it sees the stop late, on a loaded machine or under
# AddressSanitizer; the job is still known then, so it is continued and
# waited for again.
wait_end() {
  local pid=$1 stopped tries=0
  stopped=$((128 + $(kill -l STOP)))
  wait -f "$pid"
  status=$?
  while [ "$status" -eq "$stopped" ] && [ "$tries" -lt 10 ]; do
    kill -CONT "$pid" 2> /dev/null
    wait -f "$pid"
    status=$?
    tries=$((tries + 1))
  done
}

# stopped PID: waits until every thread of PID is stopped. kill -STOP only
# queues the signal; on another core airscope runs on until the kernel delivers
# it, long enough to finish the write (rename the temp over the file) after the
# temp was seen. Fails when PID has gone.
stopped() {
  local pid=$1 task state t tries
  for ((tries = 0; tries < 100000; tries++)); do
    state=T
    for task in /proc/"$pid"/task/*/stat; do
      # The third field; the second, (comm), has no spaces for airscope.
      read -r _ _ t _ < "$task" 2> /dev/null || return 1
      [ "$t" = T ] || state=$t
    done
    [ "$state" = T ] && return 0
    [ "$state" = Z ] && return 1
  done
  return 1
}

# run_caught SIGNAL PATTERN COMMANDS: runs airscope -c COMMANDS, signals it while a
# path matching PATTERN (relative to the working directory) exists; returns 0
# with $status set once caught, 1 when the write ended before it was seen.
run_caught() {
  local sig=$1 pattern=$2 commands=$3 pid seen=""
  "$bin" -c "$commands" > /dev/null 2> airscope.err &
  pid=$!
  while kill -0 "$pid" 2> /dev/null; do
    if compgen -G "$pattern" > /dev/null; then
      kill -STOP "$pid"
      if stopped "$pid" && compgen -G "$pattern" > /dev/null; then
        seen=yes
        break
      fi
      kill -CONT "$pid"
    fi
  done
  if [ -z "$seen" ]; then
    wait_end "$pid"
    return 1
  fi
  kill "-$sig" "$pid"
  kill -CONT "$pid"
  wait_end "$pid"
  return 0
}

for sig in TERM HUP QUIT; do
  want=$((128 + $(kill -l "$sig")))

  # A dump over an existing file.
  caught=""
  for attempt in 1 2 3 4 5 6 7 8; do
    echo "the old file" > out.txt
    chmod 640 out.txt
    if run_caught "$sig" '.airscope-*' "load big.graph.txt; dump fx out.txt"; then
      caught=yes
      break
    fi
  done
  [ -n "$caught" ] || fail "SIG$sig: never caught dump fx writing its temp file"
  [ "$status" -eq "$want" ] || fail "SIG$sig during dump: exit status $status, not $want ($(cat airscope.err))"
  compgen -G '.airscope-*' > /dev/null && fail "SIG$sig during dump left $(compgen -G '.airscope-*')"
  [ "$(cat out.txt)" = "the old file" ] || fail "SIG$sig during dump changed out.txt"
  echo "SIG$sig during dump fx (attempt $attempt): exit $status, no temp file, out.txt kept"

  # A report over an earlier report.
  rm -rf rep
  "$bin" -c "load small.graph.txt; report rep" > /dev/null || fail "the earlier report was not written"
  before=$(cd rep && find . -type f | sort | xargs md5sum)
  caught=""
  for attempt in 1 2 3 4 5 6 7 8; do
    if run_caught "$sig" '.airscope-report-*' "load big.graph.txt; report rep"; then
      caught=yes
      break
    fi
    rm -rf rep
    "$bin" -c "load small.graph.txt; report rep" > /dev/null || fail "the earlier report was not written"
  done
  [ -n "$caught" ] || fail "SIG$sig: never caught report writing its staging folder"
  [ "$status" -eq "$want" ] || fail "SIG$sig during report: exit status $status, not $want ($(cat airscope.err))"
  compgen -G '.airscope-*' > /dev/null && fail "SIG$sig during report left $(compgen -G '.airscope-*')"
  after=$(cd rep && find . -type f | sort | xargs md5sum)
  [ "$before" = "$after" ] || fail "SIG$sig during report changed the earlier report"
  echo "SIG$sig during report (attempt $attempt): exit $status, no staging folder, the earlier report kept"
done
echo "ok"
