#!/usr/bin/env bash
# `cpack -G DEB` of the build, checked without installing it (scripts/check-deb
# installs and removes it for real):
#   - one airscope_<version>_<arch>.deb, every entry owned by root;
#   - `dpkg-deb -c` lists exactly the files `cmake --install` puts in a prefix
#     (the package's /usr/...);
#   - Depends names, as Debian does, the package of every library the binary
#     needs (readelf's NEEDED, found with ldd, owned per dpkg -S): what
#     dpkg-shlibdeps wrote;
#   - the binary in it is stripped but still exports the Graph API plugins use.
#   check_deb.sh BUILD_DIR
set -uo pipefail
build=$(realpath "$1")
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

if ! (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg") > "$work/cpack.log" 2>&1; then
  cat "$work/cpack.log" >&2
  echo "FAIL: cpack -G DEB" >&2
  exit 1
fi
deb=$work/pkg/airscope_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || { echo "FAIL: no $deb; cpack wrote: $(ls "$work/pkg")" >&2; exit 1; }

# Its files against the install step's.
cmake --install "$build" --prefix "$work/prefix" > /dev/null || { echo "FAIL: cmake --install" >&2; exit 1; }
installed=$(cd "$work/prefix" && find . ! -type d | sed 's#^\./#/usr/#' | sort)
dpkg-deb -c "$deb" > "$work/contents"
packaged=$(awk '$1 !~ /^d/ { print $6 }' "$work/contents" | sed 's#^\./#/#' | sort)
[[ $installed == "$packaged" ]] || fail "dpkg-deb -c differs from cmake --install (< installed, > packaged):
$(diff <(echo "$installed") <(echo "$packaged"))"
awk '$2 != "root/root" { bad = 1; print "  " $0 } END { exit bad }' "$work/contents" > "$work/owners" ||
  fail "entries not owned by root/root:
$(cat "$work/owners")"

# Depends against the libraries the binary needs.
depends=$(dpkg-deb -f "$deb" Depends)
[[ -n $depends ]] || fail "no Depends (dpkg-shlibdeps did not run?)"
dpkg-deb -x "$deb" "$work/root"
binary=$work/root/usr/bin/airscope
declare -A depended=()
for item in ${depends//,/ }; do [[ $item =~ ^[a-z0-9][a-z0-9.+-]+$ ]] && depended[$item]=1; done
while read -r library; do
  path=$(ldd "$binary" | awk -v lib="$library" '$1 == lib { print $3 }')
  [[ -n $path ]] || { fail "ldd does not find $library"; continue; }
  owner=$(dpkg -S "$path" 2> /dev/null || dpkg -S "$(realpath "$path")" 2> /dev/null)
  owner=${owner%%:*}
  [[ -n $owner ]] || { fail "no package owns $path ($library)"; continue; }
  [[ -n ${depended[$owner]:-} ]] || fail "$library is in $owner, which Depends ($depends) does not name"
done < <(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
# (grep -c, not -q: grep -q would stop reading, and the writer's SIGPIPE fail the pipeline.)
(($(readelf -S "$binary" | grep -c '\.symtab') == 0)) || fail "the packaged binary is not stripped (it has .symtab)"
(($(nm -D --defined-only "$binary" | grep -c '_ZN8airscope5Graph') > 0)) ||
  fail "the packaged binary does not export the Graph API (plugins link against it)"

if ((failures)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "deb: $(basename "$deb"), $(echo "$packaged" | wc -l) files as installed; Depends: $depends"
