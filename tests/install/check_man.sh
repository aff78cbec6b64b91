#!/usr/bin/env bash
# airscope(1) as built (repl/manual_page.h): groff reads it without a single
# warning (-ww: every category), man-db renders it (`man -l`), and what it
# renders has the sections a manual page needs and every command `help` lists.
#   check_man.sh AIRSCOPE MAN_PAGE
set -uo pipefail
airscope=$1
page=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

[[ -s $page ]] || { echo "FAIL: no manual page at $page" >&2; exit 1; }
for width in 80 120; do
  groff -ww -man -Tutf8 -rLL=${width}n "$page" > "$work/groff.txt" 2> "$work/groff.err" || fail "groff exited $?"
  [[ ! -s $work/groff.err ]] && continue
  fail "groff -ww warns at ${width} columns:
$(cat "$work/groff.err")"
done
MANPAGER=cat MANWIDTH=80 man --warnings -l "$page" > "$work/man.txt" 2> "$work/man.err" || fail "man -l exited $?"
[[ ! -s $work/man.err ]] || fail "man -l warns: $(cat "$work/man.err")"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS SETTINGS PASSES "INPUT FORMATS" "EXIT STATUS" ENVIRONMENT \
  FILES EXAMPLES "SEE ALSO"; do
  grep -q "^$section\$" "$work/man.txt" || fail "no $section section in man -l's output"
done
# Every command help lists has its entry in the page: a line that starts with its syntax as help
# shows it, at the entries' indent (rendered wide, so that no syntax line wraps; a short tag has
# its text on the same line).
MANPAGER=cat MANWIDTH=250 man -l "$page" > "$work/man-wide.txt" 2> /dev/null
NO_COLOR=1 HOME=$work "$airscope" -c help > "$work/help.txt" || fail "airscope -c help exited $?"
commands=0
while IFS= read -r syntax; do
  commands=$((commands + 1))
  SYNTAX=$syntax perl -ne 'BEGIN { $s = $ENV{SYNTAX} } $found = 1 if /^ {7}\Q$s\E( |$)/; END { exit !$found }' \
    "$work/man-wide.txt" || fail "man airscope has no entry for '$syntax', which help lists"
done < <(perl -ne 'print "$1\n" if /^  (\S.*?\S)\s{2,}\S/' "$work/help.txt")
((commands > 40)) || fail "read only $commands commands from help"
if ((failures)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "man: $(wc -l < "$work/man.txt") lines rendered, no warnings, all $commands commands of help"
