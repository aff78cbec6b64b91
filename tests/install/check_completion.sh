#!/usr/bin/env bash
# The bash completion of airscope's options (repl/bash_completion.h), run as
# bash runs it: `complete -p airscope` after sourcing the file, then the
# function called with COMP_WORDS/COMP_CWORD in a directory holding a script,
# another file and a subdirectory.
#   check_completion.sh COMPLETION_FILE
set -uo pipefail
export LC_ALL=C  # sort's order
file=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dir/sub dir" && touch "$work/dir/run.airscript" "$work/dir/notes.txt" "$work/dir/other.airscript"
failures=0

# complete_at WORD... : what completing the last WORD offers, one per line, sorted.
complete_at() {
  (
    cd "$work/dir" && bash -c '
      source "$0" || exit 1
      COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
      _airscope airscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf "%s\n" "${COMPREPLY[@]}"' "$file" airscope "$@" 2>&1 | sed '/^$/d' | sort | paste -sd ' '
  )
}
expect() {  # expect WANT WORD...
  local want=$1
  shift
  local got
  got=$(complete_at "$@")
  if [[ $got != "$want" ]]; then
    echo "FAIL: airscope $* <TAB> offered '$got', not '$want'" >&2
    failures=$((failures + 1))
  fi
}

registered=$(bash -c 'source "$0" && complete -p airscope' "$file" 2>&1)
[[ $registered == "complete -F _airscope airscope" ]] || { echo "FAIL: complete -p airscope: $registered" >&2; exit 1; }
expect "--force --help --report --version -c -h -x" -
expect "--report" --r
expect "other.airscript run.airscript sub dir" ""
expect "run.airscript" r
expect "other.airscript run.airscript sub dir" -x ""
expect "sub dir" --report ""
expect "" -c ""
expect "other.airscript run.airscript sub dir" --report out ""
if ((failures)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "completion: registered for airscope; options, scripts and directories offered as expected"
