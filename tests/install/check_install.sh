#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then uses what it installed, and
# nothing of the source or build tree:
#   - PREFIX/bin/airscope answers --version and --help, and runs the golden
#     session pipeline_seed from a scratch copy (tests/golden/run_golden: every
#     expect line holds);
#   - `man -M PREFIX/share/man airscope` finds and renders airscope(1);
#   - PREFIX/share/bash-completion/completions/airscope completes airscope;
#   - the example plugin, copied from PREFIX/share/doc/airscope/examples, builds
#     out of tree with find_package(airscope) against PREFIX alone, and
#     `plugin load` of it in the installed airscope registers its pass, which
#     then runs in the pipeline (mm and abs on stream_1);
#   - the headers installed are exactly those core/pass/plugin_api.h reaches.
#   check_install.sh BUILD_DIR SOURCE_DIR CXX_COMPILER
set -uo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
cxx=$3
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

if ! cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1; then
  cat "$work/install.log" >&2
  echo "FAIL: cmake --install $build --prefix $prefix" >&2
  exit 1
fi
airscope=$prefix/bin/airscope
[[ -x $airscope ]] || { echo "FAIL: no $airscope after cmake --install" >&2; exit 1; }
# The installed files only: the example's CMakeLists.txt must not reach back into the tree.
for file in share/man/man1/airscope.1.gz share/bash-completion/completions/airscope \
  share/cmake/airscope/airscopeConfig.cmake share/cmake/airscope/airscopeConfigVersion.cmake \
  share/cmake/airscope/airscopeTargets.cmake share/cmake/airscope/airscopePlugin.cmake \
  share/doc/airscope/examples/seed_multistream/CMakeLists.txt \
  share/doc/airscope/examples/seed_multistream/plugin.cc include/airscope/core/pass/plugin_api.h; do
  [[ -f $prefix/$file ]] || fail "not installed: $file"
done

# The binary.
got=$("$airscope" --version 2>&1) || fail "airscope --version exited $?"
[[ $got == "airscope $version" ]] || fail "airscope --version printed '$got', not 'airscope $version'"
help=$("$airscope" --help 2>&1) || fail "airscope --help exited $?"
grep -q 'man airscope' <<< "$help" || fail "airscope --help does not point to man airscope: $help"
if ! "$src/tests/golden/run_golden" "$airscope" "$src/tests/golden/pipeline_seed.airscript" > "$work/golden.log" 2>&1; then
  cat "$work/golden.log" >&2
  fail "the installed airscope fails tests/golden/pipeline_seed.airscript"
fi

# The manual page, found by man under the prefix.
if ! MANPAGER=cat MANWIDTH=80 man -M "$prefix/share/man" airscope > "$work/man.txt" 2> "$work/man.err"; then
  cat "$work/man.err" >&2
  fail "man -M PREFIX/share/man airscope"
fi
grep -q '^COMMANDS' "$work/man.txt" || fail "man airscope has no COMMANDS section"
grep -q 'plugin load PATH.so' "$work/man.txt" || fail "man airscope does not list 'plugin load PATH.so'"

# The completion, as bash-completion would load it.
completion=$(bash -c "source '$prefix/share/bash-completion/completions/airscope' && complete -p airscope" 2>&1)
[[ $completion == "complete -F _airscope airscope" ]] || fail "the installed completion: '$completion'"

# Exactly the headers plugin_api.h reaches (following #include "..." from the source tree).
declare -A reached=()
pending=(core/pass/plugin_api.h)
while ((${#pending[@]})); do
  header=${pending[0]}
  pending=("${pending[@]:1}")
  [[ -n ${reached[$header]:-} ]] && continue
  reached[$header]=1
  while IFS= read -r included; do pending+=("$included"); done < <(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$src/$header")
done
want=$(printf '%s\n' "${!reached[@]}" | sort)
have=$(cd "$prefix/include/airscope" && find . -type f | sed 's#^\./##' | sort)
[[ $want == "$have" ]] || fail "headers installed differ from what plugin_api.h includes:
$(diff <(echo "$want") <(echo "$have"))"

# An out-of-tree plugin: the installed example, built against the prefix alone.
cp -r "$prefix/share/doc/airscope/examples/seed_multistream" "$work/plugin-src"
if ! cmake -S "$work/plugin-src" -B "$work/plugin-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" -Wdev -Werror=dev > "$work/plugin.log" 2>&1 ||
  ! cmake --build "$work/plugin-build" >> "$work/plugin.log" 2>&1; then
  cat "$work/plugin.log" >&2
  fail "the example plugin does not build out of tree against $prefix"
else
  ! grep -q 'CMake Warning' "$work/plugin.log" || fail "the plugin's configure warns: $(cat "$work/plugin.log")"
  # It found the installed package, not a tree.
  grep -q "airscope_DIR:PATH=$prefix/share/cmake/airscope" "$work/plugin-build/CMakeCache.txt" ||
    fail "the plugin's build did not use $prefix/share/cmake/airscope: $(grep airscope_DIR "$work/plugin-build/CMakeCache.txt")"
  plugin=$work/plugin-build/airscope_seed_multistream_plugin.so
  mkdir -p "$work/session" && cp "$src/tests/data/seed_multistream.readable.py" "$work/session/"
  if ! (cd "$work/session" && NO_COLOR=1 HOME="$work" "$airscope" -c "plugin load $plugin; load seed_multistream.readable.py; \
      pass add pre seed_multistream_cpp; run; expect stage post_grad_custom_pre_pass changed; \
      expect node mm stream stream_1; expect node abs_1 stream stream_1; expect node sub stream default" \
      > "$work/plugin-run.log" 2>&1); then
    cat "$work/plugin-run.log" >&2
    fail "plugin load of the out-of-tree plugin, or its pass, in the installed airscope"
  fi
  grep -q '^expect: 4 passed, 0 failed$' "$work/plugin-run.log" || fail "the plugin's pass: $(cat "$work/plugin-run.log")"
fi

if ((failures)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "install: $(find "$prefix" -type f | wc -l) files into a prefix; the binary, man page, completion and an out-of-tree plugin work"
